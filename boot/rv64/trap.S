/* trap.S — RV64 trap entry (docs/hardware.md §5: machine mode, traps through mtvec; every trap is
 * fatal, docs/design.md §6 "Errors"). Switches to a dedicated trap stack, so a trap caused by a bad
 * sp (stack overflow, corrupt frame) still reports, then hands cause/PC/address to C, with every
 * register saved first for the report's dump. */
    .section .text.trap, "ax"
    .balign 4                       /* mtvec direct mode needs [1:0] = 0 */
    .globl kx_trap_entry
    .type kx_trap_entry, @function
kx_trap_entry:
    /* The registers as the trap found them, for the report (kx_trap_regs[i] = x<i>; slot 0
     * unused): t0 parks in mscratch while it points at the save area. A nested trap saves
     * over them, but it stops the core without printing (trap.c). */
    csrw    mscratch, t0
    .option push
    .option norelax
    la      t0, kx_trap_regs
    sd      x1, 8(t0)
    sd      x2, 16(t0)
    sd      x3, 24(t0)
    sd      x4, 32(t0)
    sd      x6, 48(t0)
    sd      x7, 56(t0)
    sd      x8, 64(t0)
    sd      x9, 72(t0)
    sd      x10, 80(t0)
    sd      x11, 88(t0)
    sd      x12, 96(t0)
    sd      x13, 104(t0)
    sd      x14, 112(t0)
    sd      x15, 120(t0)
    sd      x16, 128(t0)
    sd      x17, 136(t0)
    sd      x18, 144(t0)
    sd      x19, 152(t0)
    sd      x20, 160(t0)
    sd      x21, 168(t0)
    sd      x22, 176(t0)
    sd      x23, 184(t0)
    sd      x24, 192(t0)
    sd      x25, 200(t0)
    sd      x26, 208(t0)
    sd      x27, 216(t0)
    sd      x28, 224(t0)
    sd      x29, 232(t0)
    sd      x30, 240(t0)
    sd      x31, 248(t0)
    csrr    t1, mscratch
    sd      t1, 40(t0)              /* x5 = t0 */
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

    /* Not zeroed at boot (.noinit: 32 stores fewer, bench boot_insns): only read after
     * kx_trap_entry has written it. */
    .section .noinit.kx_trap_regs, "aw", @nobits
    .balign 8
    .globl kx_trap_regs
    .type kx_trap_regs, @object
kx_trap_regs:
    .space  32 * 8
    .size kx_trap_regs, 32 * 8

    /* 512 bytes: kx_trap -> kx_fatal -> kx_puts is shallow. Never zeroed: only written. */
    .section .noinit.kx_trap_stack, "aw", @nobits
    .balign 16
kx_trap_stack:
    .space  512
    .globl kx_trap_stack_top
kx_trap_stack_top:
