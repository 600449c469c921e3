# status-table.awk — turns include/kohaku/status.h into the host's status name table (one
# source of truth, docs/design.md §4): every "#define KS_NAME 0x..u /* text */" that is a status
# code becomes { 0x.., "NAME", "text" }. A comment continued on the following lines (each
# starting with `*`) is joined into one text, so no explanation is cut mid-sentence. Range
# bounds, KS_IS_* helpers and the KS_AWAIT_* timeout-detail codes are not statuses and are
# skipped. An unterminated comment is a build error, not a shorter text.
function clean(t) {
    gsub(/^[ \t]+|[ \t]+$/, "", t)
    return t
}
/^#define[ \t]+KS_[A-Z0-9_]+[ \t]+0x[0-9A-Fa-f]+u?/ {
    name = $2
    if (name ~ /^KS_(RANGE_|IS_|AWAIT_)/) next
    code = $3
    sub(/u$/, "", code)
    text = ""
    i = index($0, "/*")
    if (i > 0) {
        rest = substr($0, i + 2)
        while (rest !~ /\*\//) {
            text = text (text == "" ? "" : " ") clean(rest)
            if ((getline line) <= 0) {
                printf "status-table.awk: %s: comment not closed\n", name > "/dev/stderr"
                exit 1
            }
            rest = line
            sub(/^[ \t]*\*[ \t]?/, "", rest)
        }
        sub(/\*\/.*$/, "", rest)
        rest = clean(rest)
        if (rest != "")
            text = text (text == "" ? "" : " ") rest
        text = clean(text)
        gsub(/\\/, "\\\\", text)
        gsub(/"/, "\\\"", text)
    }
    sub(/^KS_/, "", name)
    printf "    { %s, \"%s\", \"%s\" },\n", code, name, text
}
