/* fatal.c — the fatal path (STYLE.md "Errors", SYSTEM.md §2.4): one function that reports and
 * stops the core. RV64 traps and assertions on both variants end here. */
#include "boot.h"
#include "hal/hal.h"

__attribute__((weak)) void kx_fatal_hook(uint64_t word)
{
    (void)word;
}

struct kx_fatal_record kx_fatal_last;

void kx_fatal(uint64_t word, const char *what, uint64_t cause, uint64_t pc, uint64_t addr)
{
    /* One loop over the three values: each printed field costs RV32 window bytes. */
    static const char *const label[3] = { " cause=", " pc=", " addr=" };
    const uint64_t v[3] = { cause, pc, addr };
    kx_fatal_last.word = word;
    kx_fatal_last.cause = cause;
    kx_fatal_last.pc = pc;
    kx_fatal_last.addr = addr;
    hal_puts("kohaku-fw: fatal ");
    hal_puts(what);
    for (unsigned i = 0; i < 3; i++) {
        hal_puts(label[i]);
        hal_put_hex(v[i]);
    }
    hal_puts("\n");
    kx_fatal_hook(word);
    hal_exit(word);
}

void kx_assert_fail(unsigned site, unsigned line)
{
    /* pc = the caller (the failing check); addr = the source line: files cost scratchpad. */
    kx_fatal(KX_EXIT_ASSERT_BASE | (site & 0xFFu), "assert",
             site, (uint64_t)(uintptr_t)__builtin_return_address(0), line);
}
