/* smoke.h — addresses and helpers for the QEMU smoke-test images, literals from docs/hardware.md §4 (RV32)
 * and §5 (RV64). Written out here rather than taken from include/kohaku/cpu_map.h so that a wrong
 * value in the shared header cannot be wrong in the test too. Assembly only. */
#ifndef SMOKE_H
#define SMOKE_H

#if defined(KS_RV32)
#define IMEM         0x00000000      /* instruction window, 8 KB, fetch only */
#define SPAD         0x10000000      /* scratchpad, 8 KB */
#define LCTL         0x20000000      /* local control */
#define CONSOLE      0x20000040      /* ours: store one byte out */
#define EXIT         0x20000044      /* ours: store halts with this word, cause 0 */
#define INSTRET      0x2000001C
#define CYCLE        0x20000018
#define UNASSIGNED   0x30000000      /* between local control and DRAM: nothing there */
#define STX          sw
#define LDX          lw
#define XBYTES       4
#elif defined(KS_RV64)
#define IMEM         0x00000000      /* instruction window, 32 KB, fetch only */
#define SPAD         0x00010000      /* scratchpad, 32 KB */
#define CTL          0x00020000      /* control region */
#define EXIT         0x00020000      /* store: halt with this 64-bit word */
#define CONSOLE      0x00020008      /* store [7:0] */
#define UNASSIGNED   0x03000000      /* between the agent window and unit-global space */
#define STX          sd
#define LDX          ld
#define XBYTES       8
#else
#error "define KS_RV32 or KS_RV64"
#endif

/* Print one character (clobbers t5, t6). */
.macro PUTC ch
    li   t6, CONSOLE
    li   t5, \ch
    sw   t5, 0(t6)
.endm

/* Stop through the EXIT register with an immediate word (clobbers t5, t6). */
.macro EXIT_WITH word
    li   t6, EXIT
    li   t5, \word
    STX  t5, 0(t6)
1:  j    1b
.endm

/* Print the register as 8 (RV32) or 16 (RV64) hex digits and a newline (clobbers t0-t4, t5, t6). */
.macro PUTHEX reg
    mv   t0, \reg
    li   t1, XBYTES * 8
2:  addi t1, t1, -4
    srl  t2, t0, t1
    andi t2, t2, 0xF
    li   t3, 10
    blt  t2, t3, 3f
    addi t2, t2, 'a' - 10 - '0'
3:  addi t2, t2, '0'
    li   t6, CONSOLE
    sw   t2, 0(t6)
    bnez t1, 2b
    PUTC '\n'
.endm

#endif
