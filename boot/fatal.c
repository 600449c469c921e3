/* fatal.c — the fatal path (docs/design.md §6 "Errors", docs/design.md §2.4): one function that reports and
 * stops the core. RV64 traps and assertions on both variants end here. Native and one-shot:
 * it never runs cold code (the interpreter or the cold segment may be what
 * failed; the hook, service/queue.c, is native too), and a second entry, from a fault inside
 * the report or the hook, stops the core at once with its own word, as a nested RV64 trap
 * does. */
#include "boot.h"
#include "console.h"
#include <stddef.h>

/* A default an image may replace (the command queue's fatal hook, a test's). weak alone is
 * not enough: GCC would see this empty body from kx_fatal below and drop or inline the call,
 * and the override would never run; noipa keeps the call a call. Costs the one call it keeps;
 * test_assert.c and test_fatal_once.c see their override called. */
#define KX_WEAK_HOOK __attribute__((weak, noipa))

KX_WEAK_HOOK void kx_fatal_hook(uintptr_t word)
{
    (void)word;
}

struct kx_fatal_record kx_fatal_last;

/* The fatal line's fixed text as one run of strings, walked with kx_puts' return value (the
 * byte after each NUL): the labels, an empty one that ends them, then the line's end. One
 * pointer and no table of pointers: saves the RV32 window a pointer table's loads (the line is
 * checked whole by test_assert.c and the RV64 trap tests). */
#define KX_FATAL_TEXT "kohaku-fw: fatal \0 cause=0x\0 pc=0x\0 addr=0x\0\0\n"
static inline const char *kx_run_next(const char *t)
{
    return kx_puts(t);
}
static inline int kx_run_more(const char *t)
{
    return *t != 0;
}

/* The record's word from a pointer just past its addr (the printing loop's): one pointer kept
 * across the calls instead of two, a saved register the RV32 window does not pay for. */
_Static_assert(offsetof(struct kx_fatal_record, word) == 0 &&
               offsetof(struct kx_fatal_record, addr) == 3 * sizeof(uint64_t),
               "word, cause, pc, addr in that order");
static inline uint64_t kx_record_word(const uint64_t *past_addr)
{
    return past_addr[-4];
}

/* Has the fatal path begun? The record's word is the once-flag: no fatal word is 0
 * (exitword.h). Read as a machine word: RV64 tests all 64 bits in one load; RV32 tests the
 * low half only, enough because every RV32 fatal word is an assertion's 0xDEAD00ss (the core
 * has no traps). Saves the RV32 window 8 bytes (a load and an or); tests/target/boot/
 * test_fatal_once.c enters twice. */
static inline int kx_fatal_entered(const struct kx_fatal_record *r)
{
    return (uintptr_t)r->word != 0;
}

void kx_fatal(uintptr_t word, const char *what, uint64_t cause, uint64_t pc, uint64_t addr)
{
    static const char text[] = KX_FATAL_TEXT;
    struct kx_fatal_record *r = &kx_fatal_last;
    const uint64_t *v = &r->cause;
    const char *t;

    if (kx_fatal_entered(r))
        kx_exit(word);
    r->word = word;
    r->cause = cause;
    r->pc = pc;
    r->addr = addr;
    t = kx_run_next(text);
    kx_puts(what);
    /* cause, pc, addr follow each other in the record (boot.h): one loop, since each printed
     * field costs RV32 window bytes. */
    do {
        t = kx_run_next(t);
        kx_put_hex_digits(*v++);       /* the labels end in "0x" */
    } while (kx_run_more(t));
    kx_puts(t + 1);
    kx_fatal_hook(kx_record_word(v));
    kx_exit(kx_record_word(v));
}

void kx_assert_fail(unsigned site, unsigned line)
{
    /* pc = the caller (the failing check); addr = the source line: files cost scratchpad. */
    kx_fatal(KX_EXIT_ASSERT_BASE | (site & 0xFFu), "assert",
             site, (uint64_t)(uintptr_t)__builtin_return_address(0), line);
}
