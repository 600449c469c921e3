# text_by_module.awk — an RV32 link map's instruction-window bytes by firmware module (service.mk
# `make size-rv32-queue`, docs/service.md "Size"): every input section of the .text output
# section, grouped by the folder its object came from (obj/<folder>/...; a libfw.a member by
# the source of that name in `srcs`; fit_main.o is the service's; libgcc.a and libc.a by
# library), then the output section's size against the window and the issue 8 budget. Exit
# status 1 when it exceeds the window.
# Link-time optimisation (docs/firmware.md "Size") compiles the RV32 native code into
# /tmp/...ltrans*.o objects that name no source: with -v syms=FILE (`nm -l --defined-only` of
# the image) such a section counts for the folder of the source its first function comes from
# (the debug line of the symbol at the section's address).
# Usage: awk -v window=8192 -v budget=7168 -v srcs="boot/start.c ..." [-v syms=nm-l.txt] -f text_by_module.awk fit.map
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
        istop[top] = 1
    }
    # "<addr> <type> <name>\t<file>:<line>": the folder of that source as above, or for a file
    # not in srcs (a header's inline function) the path's last directory that is a top folder.
    while (syms != "" && (getline line < syms) > 0) {
        if (split(line, f, "\t") < 2 || split(f[1], a, " ") < 3 || a[2] !~ /^[tTW]$/) continue
        sub(/:[0-9]+$/, "", f[2])
        np = split(f[2], part, "/")
        if (part[np] in folder) { symdir[hex(a[1])] = folder[part[np]]; continue }
        for (i = np - 1; i >= 1; i--) if (part[i] in istop) { symdir[hex(a[1])] = part[i]; break }
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
    if (m == "other" && $NF ~ /ltrans/ && (hex($(NF - 2)) in symdir)) m = symdir[hex($(NF - 2))]
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
