# status-table.awk — turns include/kohaku/status.h into the host's status name table (one
# source of truth, docs/design.md §4): every "#define KS_NAME 0x..u /* text */" that is a status
# code becomes { 0x.., "NAME", "text" }. Range bounds, KS_IS_* helpers and the KS_AWAIT_*
# timeout-detail codes are not statuses and are skipped.
/^#define[ \t]+KS_[A-Z0-9_]+[ \t]+0x[0-9A-Fa-f]+u?/ {
    name = $2
    if (name ~ /^KS_(RANGE_|IS_|AWAIT_)/) next
    code = $3
    sub(/u$/, "", code)
    text = ""
    i = index($0, "/*")
    if (i > 0) {
        text = substr($0, i + 2)
        sub(/\*\/.*$/, "", text)
        gsub(/^[ \t]+|[ \t]+$/, "", text)
        gsub(/\\/, "\\\\", text)
        gsub(/"/, "\\\"", text)
    }
    sub(/^KS_/, "", name)
    printf "    { %s, \"%s\", \"%s\" },\n", code, name, text
}
