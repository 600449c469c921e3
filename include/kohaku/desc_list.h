/* desc_list.h — the mover descriptor list shared by firmware and host tools: a sequence of
 * {offset, value} mover register writes where every GO ends one move (docs/design.md §2.2,
 * docs/hardware.md §3, §4 descriptor form). docs/mover.md describes the binary and text forms.
 *
 * Binary form. A record is three little-endian 32-bit words {offset, value[31:0],
 * value[63:32]} — exactly one write of docs/hardware.md §4's descriptor form — so RV32 replay is a
 * plain word copy into the scratchpad. A list is n records, 4-byte aligned; its length
 * travels beside it (the REPLAY command's count) or, as a standalone blob (file, scratchpad),
 * in one leading word: struct kd_blob { n; records } — a one-move blob is byte for byte an RV32
 * descriptor. `offset` is the mover offset 0x00..0x7F in [7:0], bits [31:8] zero.
 *
 * Text form (kactl, docs): one write per line, `offset value`, both numbers in C syntax
 * (0x.. hex, or decimal), separated by blanks; `#` starts a comment; blank lines are ignored.
 * The parser (mover/desc_text.c) is pure C with no firmware dependency. */
#ifndef KOHAKU_DESC_LIST_H
#define KOHAKU_DESC_LIST_H

#include <stddef.h>
#include <stdint.h>
#include "mover_regs.h"

struct kd_write {
    uint32_t off;       /* mover offset in [7:0]; [31:8] must be 0 */
    uint32_t lo;        /* value[31:0] */
    uint32_t hi;        /* value[63:32] */
};

/* A standalone list: the count word, then the records. */
struct kd_blob {
    uint32_t n;
    struct kd_write w[];
};

_Static_assert(sizeof(struct kd_write) == 12, "a record is three descriptor-form words");
_Static_assert(offsetof(struct kd_write, off) == 0, "descriptor form: offset word first");
_Static_assert(offsetof(struct kd_write, lo) == 4, "descriptor form: value[31:0] second");
_Static_assert(offsetof(struct kd_write, hi) == 8, "descriptor form: value[63:32] third");
_Static_assert(offsetof(struct kd_blob, w) == 4, "descriptor form: word 0 is the count");
_Static_assert(_Alignof(struct kd_write) == 4, "records are 4-byte aligned");

#define KD_RECORD_BYTES   12u
#define KD_RECORD_WORDS   3u
/* The longest list the firmware accepts: 4,096 writes (48 KB + 4), hundreds of moves. A
 * bound the validator enforces first, so a corrupt count cannot walk it off memory. */
#define KD_MAX_WRITES     4096u
#define KD_OFF_MASK       0xFFu       /* offset field of the record's first word */

static inline uint64_t kd_value(const struct kd_write *w)
{
    return ((uint64_t)w->hi << 32) | w->lo;
}

static inline struct kd_write kd_make(uint32_t off, uint64_t v)
{
    struct kd_write w = { off, (uint32_t)v, (uint32_t)(v >> 32) };
    return w;
}

/* Does this write start a move (a CTRL write with GO)? */
static inline int kd_is_go(const struct kd_write *w)
{
    return w->off == KMV_REG_CTRL && (w->lo & (uint32_t)KMV_CTRL_GO) != 0;
}

/* Bytes of a list of n records, and of its standalone blob. */
static inline size_t kd_list_bytes(uint32_t n) { return (size_t)n * KD_RECORD_BYTES; }
static inline size_t kd_blob_bytes(uint32_t n) { return 4u + kd_list_bytes(n); }

/* ---- Text form (mover/desc_text.c) ---- */

struct kd_text_err {
    uint32_t line;      /* 1-based line of the first error, 0 when none */
    uint32_t col;       /* 1-based column */
    const char *why;    /* static text: "expected an offset", ... */
};

/* Parses `len` bytes of text into at most `max` records at `out`; *n gets the count. Checks
 * syntax and number ranges only (offset < 2^32, value < 2^64); the mover validator decides
 * what the writes mean. Returns KS_OK, KS_TEXT_SYNTAX (detail: err->line) or
 * KS_LIST_TOO_LONG (more than `max` writes; err->line is the first one that did not fit).
 * A NUL byte ends the text early. */
unsigned kd_text_parse(const char *text, size_t len, struct kd_write *out, uint32_t max,
                       uint32_t *n, struct kd_text_err *err);

/* Formats one record as a text line "0x18 0x0000000000100021\n" into buf (at least
 * KD_TEXT_LINE_MAX bytes); returns the characters written, NUL excluded. The parser reads
 * it back to the same record. */
#define KD_TEXT_LINE_MAX  32u
size_t kd_text_format(const struct kd_write *w, char *buf);

#endif
