/* fatal.c — the fatal path (docs/design.md §6 "Errors", docs/design.md §2.4): one function that reports and
 * stops the core. RV64 traps and assertions on both variants end here. Native and one-shot:
 * it never runs cold code (the interpreter or the cold segment may be what
 * failed; the hook, service/queue.c, is native too), and a second entry, from a fault inside
 * the report or the hook, stops the core at once with its own word, as a nested RV64 trap
 * does. */
#include "boot.h"
#include <stddef.h>
#include "hal/hal.h"

__attribute__((weak, noipa)) void kx_fatal_hook(uint64_t word)
{
    (void)word;
}

struct kx_fatal_record kx_fatal_last;

void kx_fatal(uint64_t word, const char *what, uint64_t cause, uint64_t pc, uint64_t addr)
{
    /* The line's fixed text as one run of strings: kx_puts returns the byte after each NUL,
     * so one pointer walks them and no table of pointers is kept. An empty string ends the
     * labels; the line's end follows it. */
    static const char text[] = "kohaku-fw: fatal \0 cause=0x\0 pc=0x\0 addr=0x\0\0\n";
    struct kx_fatal_record *r = &kx_fatal_last;
    const uint64_t *v = &r->cause;
    const char *t;

    /* The record's word is the once-flag: no fatal word is 0 (exitword.h). */
    if (r->word)
        kx_exit(word);
    r->word = word;
    r->cause = cause;
    r->pc = pc;
    r->addr = addr;
    t = kx_puts(text);
    kx_puts(what);
    /* cause, pc, addr follow each other in the record (boot.h): one loop, since each printed
     * field costs RV32 window bytes. */
    do {
        t = kx_puts(t);
        kx_put_hex_digits(*v++);       /* the labels end in "0x" */
    } while (*t);
    kx_puts(t + 1);
    /* v is past addr now, so the word is v[-4]: one pointer kept across the calls. */
    _Static_assert(offsetof(struct kx_fatal_record, word) == 0 &&
                   offsetof(struct kx_fatal_record, addr) == 3 * sizeof(uint64_t),
                   "word, cause, pc, addr in that order");
    kx_fatal_hook(v[-4]);
    kx_exit(v[-4]);
}

void kx_assert_fail(unsigned site, unsigned line)
{
    /* pc = the caller (the failing check); addr = the source line: files cost scratchpad. */
    kx_fatal(KX_EXIT_ASSERT_BASE | (site & 0xFFu), "assert",
             site, (uint64_t)(uintptr_t)__builtin_return_address(0), line);
}
