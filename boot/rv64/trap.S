/* trap.S — RV64 trap entry (docs/hardware.md §5: machine mode, traps through mtvec; every trap is
 * fatal, docs/design.md §6 "Errors"). Switches to a dedicated trap stack, so a trap caused by a bad
 * sp (stack overflow, corrupt frame) still reports, then hands cause/PC/address to C. */
    .section .text.trap, "ax"
    .balign 4                       /* mtvec direct mode needs [1:0] = 0 */
    .globl kx_trap_entry
    .type kx_trap_entry, @function
kx_trap_entry:
    .option push
    .option norelax
    la      gp, __global_pointer$   /* gp may have been clobbered by the faulting code */
    .option pop
    la      sp, kx_trap_stack_top
    csrr    a0, mcause
    csrr    a1, mepc
    csrr    a2, mtval
    call    kx_trap                 /* noreturn */
    /* Unreachable. Clear mtvec so the ebreak halts the core (trap with mtvec unset). */
    csrw    mtvec, zero
    ebreak
    .size kx_trap_entry, . - kx_trap_entry

    /* 512 bytes: kx_trap -> kx_fatal -> kx_puts is shallow. Never zeroed: only written. */
    .section .noinit.kx_trap_stack, "aw", @nobits
    .balign 16
kx_trap_stack:
    .space  512
    .globl kx_trap_stack_top
kx_trap_stack_top:
