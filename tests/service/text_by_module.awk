# text_by_module.awk — an RV32 link map's instruction-window bytes by firmware module (service.mk
# `make size-rv32-queue`, docs/service.md "Size"): every input section of the .text output
# section, grouped by the folder its object came from (obj/<folder>/...; a libfw.a member by
# the source of that name in `srcs`; fit_main.o is the service's; libgcc.a and libc.a by
# library), then the output section's size against the window and the issue 8 budget. Exit
# status 1 when it exceeds the window.
# Usage: awk -v window=8192 -v budget=7168 -v srcs="boot/start.c ..." -f text_by_module.awk fit.map
function hex(s,    i, c, v) {
    v = 0
    s = tolower(s)
    sub(/^0x/, "", s)
    for (i = 1; i <= length(s); i++) {
        c = index("0123456789abcdef", substr(s, i, 1)) - 1
        v = v * 16 + c
    }
    return v
}
function module(f,    mem) {
    if (f ~ /fit_main\.o$/) return "service"
    if (match(f, /\/obj\/[a-z0-9_]+\//)) return substr(f, RSTART + 5, RLENGTH - 6)
    if (match(f, /libfw\.a\([^)]*\.o\)$/)) {
        mem = substr(f, RSTART + 8, RLENGTH - 11)       # "dispatch.c" of libfw.a(dispatch.c.o)
        if (mem in folder) return folder[mem]
    }
    if (f ~ /libgcc\.a\(/) return "libgcc"
    if (f ~ /libc\.a\(/) return "libc"
    return "other"
}
BEGIN {
    ns = split(srcs, src, " ")
    for (i = 1; i <= ns; i++) {
        base = src[i]
        sub(/.*\//, "", base)
        top = src[i]
        sub(/\/.*/, "", top)
        folder[base] = top
    }
}
/^Linker script and memory map/ { mm = 1; next }
!mm { next }
/^\.[A-Za-z_]/ {
    out = $1
    if (out == ".text" && NF >= 3 && $3 ~ /^0x/) total = hex($3)
    next
}
out == ".text" && NF >= 3 && $(NF - 2) ~ /^0x/ && $(NF - 1) ~ /^0x/ && $NF !~ /^0x/ {
    m = module($NF)
    if (!(m in bytes)) order[++n] = m
    bytes[m] += hex($(NF - 1))
}
END {
    for (i = 1; i <= n; i++) {
        printf "  %-10s %6d\n", order[i], bytes[order[i]]
        sum += bytes[order[i]]
    }
    printf "  %-10s %6d\n", "alignment", total - sum
    printf "text %d bytes: window %d (%s by %d), issue 8 budget %d (%s by %d)\n", total,
        window, total <= window ? "fits" : "over", total <= window ? window - total : total - window,
        budget, total <= budget ? "fits" : "over", total <= budget ? budget - total : total - budget
    exit total > window
}
