/* trap.c — RV64 fatal trap handler (docs/hardware.md §5: every trap is fatal). Called from
 * kx_trap_entry on the trap stack with mcause, mepc, mtval, every register saved in
 * kx_trap_regs. The report: the saved registers, four a line ("kohaku-fw: ra=0x.. sp=0x.. ..."),
 * then the fatal line naming the cause ("kohaku-fw: fatal trap (load access fault) cause=0x5
 * pc=0x.. addr=0x.."), as OpenSBI's and Zephyr's fatal reports do; docs/firmware.md "Fatal". */
#include "boot.h"
#include "console.h"

void kx_trap(uint64_t cause, uint64_t epc, uint64_t tval) __attribute__((noreturn));

/* x1..x31 as the trap found them (trap.S; slot 0 unused). */
extern uint64_t kx_trap_regs[32];

/* The first trap's exit word; non-zero once a trap is being reported. */
static volatile uint64_t kx_trap_word;

/* The fatal line's `what` for an mcause (the privileged spec's names): exceptions 0-15, the
 * three machine interrupts, anything else "trap (unknown cause)". */
static const char *kx_trap_name(uint64_t cause)
{
    static const char *const exc[16] = {
        "trap (instruction address misaligned)", "trap (instruction access fault)",
        "trap (illegal instruction)", "trap (breakpoint)",
        "trap (load address misaligned)", "trap (load access fault)",
        "trap (store address misaligned)", "trap (store access fault)",
        "trap (ecall from U-mode)", "trap (ecall from S-mode)", 0,
        "trap (ecall from M-mode)", "trap (instruction page fault)",
        "trap (load page fault)", 0, "trap (store page fault)",
    };
    const char *n = 0;

    if (cause >> 63) {
        switch (cause & 0x7FFFFFFFFFFFFFFFull) {
        case 3: n = "trap (machine software interrupt)"; break;
        case 7: n = "trap (machine timer interrupt)"; break;
        case 11: n = "trap (machine external interrupt)"; break;
        }
    } else if (cause < 16) {
        n = exc[cause];
    }
    return n ? n : "trap (unknown cause)";
}

/* "kohaku-fw: ra=0x.. sp=0x.. gp=0x.. tp=0x..", eight lines for x1..x31 (ABI names). */
static void kx_trap_dump(void)
{
    static const char names[] = "ra\0sp\0gp\0tp\0t0\0t1\0t2\0s0\0s1\0a0\0a1\0a2\0a3\0a4\0a5\0a6\0"
                                "a7\0s2\0s3\0s4\0s5\0s6\0s7\0s8\0s9\0s10\0s11\0t3\0t4\0t5\0t6";
    const char *n = names;

    for (unsigned i = 1; i < 32; i++) {
        if ((i & 3) == 1)
            kx_puts("kohaku-fw:");
        kx_console_putc(' ');
        n = kx_puts(n);                 /* returns past the NUL: the next name */
        kx_console_putc('=');
        kx_put_hex(kx_trap_regs[i]);
        if ((i & 3) == 0 || i == 31)
            kx_console_putc('\n');
    }
}

void kx_trap(uint64_t cause, uint64_t epc, uint64_t tval)
{
    if (kx_trap_word) {
        /* A trap while reporting a trap (the console or the fatal hook faulted): the first
         * report is the root cause, so stop with its word, without printing again. mtvec is
         * cleared first so anything further halts the core by hardware semantics rather
         * than looping through here. */
        __asm__ volatile("csrw mtvec, zero");
        kx_exit(kx_trap_word);
    }
    /* Interrupt bit (63) folds to bit 31 of the exit word (exitword.h). */
    uint64_t code = (cause & 0x7FFFFFFFu) | ((cause >> 63) << 31);
    kx_trap_word = KX_EXIT_TRAP(code);
    kx_trap_dump();
    kx_fatal(kx_trap_word, kx_trap_name(cause), cause, epc, tval);
}
