/* crt0.S — RV64 reset entry (docs/hardware.md §5, docs/design.md §2.1): mtvec FIRST (so any later fault
 * reaches the fatal path instead of halting unexplained), then gp, sp, zero .bss, C start.
 * No .data copy: the loader places .rodata/.data at their scratchpad addresses. */
    .section .text.start, "ax"
    .globl _start
    .type _start, @function
_start:
    la      t0, kx_trap_entry       /* auipc+addi: pc-relative, cannot fault */
    csrw    mtvec, t0               /* direct mode: kx_trap_entry is 4-byte aligned */
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop
    la      sp, __kx_stack_top
    la      t0, __kx_bss_start
    la      t1, __kx_bss_end        /* both 8-aligned by the linker script */
1:  bgeu    t0, t1, 2f
    sd      zero, 0(t0)
    addi    t0, t0, 8
    j       1b
2:  call    kx_cstart               /* never returns */
    li      a0, 0xDEAD00FF          /* unreachable: report rather than run off the end */
    ebreak
    .size _start, . - _start
