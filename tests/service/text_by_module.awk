# text_by_module.awk — an RV32 link map's instruction-window bytes by firmware module (service.mk
# `make size-rv32-queue`, docs/service.md "Size"): every input section of the .text output
# section, grouped by the folder its object came from (obj/<folder>/...; a libfw.a member by
# the source of that name in `srcs`; libgcc.a and libc.a by library), then the output section's
# size against the window and the bench budget. Exit status 1 when it exceeds the budget.
# Link-time optimisation (docs/firmware.md "Size") compiles the RV32 native code into
# /tmp/...ltrans*.o objects that name no source, and inlines across folders (the product image's
# main and kq_serve end up inside boot/'s kx_cstart). So with -v lines=FILE (`objdump -d -l` of
# the image's .text) each instruction of such a section counts for the folder of its own debug
# line, the inlined function's source for inlined code; bytes without a line (padding) go with
# the instruction before them. Without a line, or without lines=, the section counts for the
# folder of the source its first function comes from (-v syms=FILE, `nm -l --defined-only`).
# Usage: awk -v window=8192 -v budget=7168 -v srcs="boot/start.c ..." [-v syms=nm-l.txt]
#            [-v lines=objdump-dl.txt] -f text_by_module.awk fw.map
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
# The folder of a source path: its file name's in srcs, else the path's last top folder, else "".
function srcdir(p,    np, part, i) {
    np = split(p, part, "/")
    if (part[np] in folder) return folder[part[np]]
    for (i = np - 1; i >= 1; i--) if (part[i] in istop) return part[i]
    return ""
}
function module(f,    mem) {
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
        d = srcdir(f[2])
        if (d != "") symdir[hex(a[1])] = d
    }
    # objdump -d -l: "<addr> <name>:" starts a function (no line yet), "<path>:<line>" (maybe
    # "(discriminator N)") sets the source of the instructions "  <addr>:\t..." after it.
    while (lines != "" && (getline line < lines) > 0) {
        if (line ~ /^[0-9a-f]+ <.*>:$/) cur = ""
        else if (line ~ /^[^ \t].*:[0-9]+( \(discriminator [0-9]+\))?$/) {
            sub(/ \(discriminator [0-9]+\)$/, "", line)
            sub(/:[0-9]+$/, "", line)
            cur = srcdir(line)
        } else if (line ~ /^ +[0-9a-f]+:\t/) {
            split(line, f, ":")
            gsub(/ /, "", f[1])
            insdir[hex(f[1])] = cur
        }
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
    start = hex($(NF - 2)); size = hex($(NF - 1))
    if (m == "other" && $NF ~ /ltrans/) {
        if (start in symdir) m = symdir[start]
        d = m
        for (ad = start; ad < start + size; ad += 2) {
            if (ad in insdir) d = insdir[ad] != "" ? insdir[ad] : m
            if (!(d in bytes)) order[++n] = d
            bytes[d] += 2
        }
        next
    }
    if (!(m in bytes)) order[++n] = m
    bytes[m] += size
}
END {
    for (i = 1; i <= n; i++) {
        printf "  %-10s %6d\n", order[i], bytes[order[i]]
        sum += bytes[order[i]]
    }
    printf "  %-10s %6d\n", "alignment", total - sum
    printf "text %d bytes: window %d (%s by %d), bench budget %d (%s by %d)\n", total,
        window, total <= window ? "fits" : "over", total <= window ? window - total : total - window,
        budget, total <= budget ? "fits" : "over", total <= budget ? budget - total : total - budget
    exit total > budget
}
