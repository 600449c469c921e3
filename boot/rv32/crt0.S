/* crt0.S — RV32 reset entry (docs/hardware.md §4, docs/design.md §2.1): gp, sp, zero .bss, C start.
 * No .data copy: .rodata/.data are linked at their scratchpad addresses and the loader puts
 * them there (the instruction window is fetch-only). No CSRs: this core has none. */
    .section .text.start, "ax"
    .globl _start
    .type _start, @function
_start:
    .option push
    .option norelax                 /* gp is not set yet: no gp-relative relaxation here */
    la      gp, __global_pointer$
    .option pop
    la      sp, __kx_stack_top
    la      t0, __kx_bss_start
    la      t1, __kx_bss_end        /* both 8-aligned by the linker script */
1:  bgeu    t0, t1, 2f
    sw      zero, 0(t0)
    addi    t0, t0, 4
    j       1b
2:  call    kx_cstart               /* never returns */
    /* Unreachable; should it happen, halt loudly rather than run off the end: EBREAK halts
     * this core with cause 3 and this PC (docs/hardware.md §4), one instruction where a word in a0
     * for ECALL took three. */
    ebreak
    .size _start, . - _start
