/* console.h — console output and the stop (docs/hardware.md §4 LCTL 0x40/0x44, §5 control
 * 0x00/0x08). In boot/ because the fatal path and the boot refusal print and stop before
 * anything else may run; the layers above get it through hal/hal.h. Needs the board header, so
 * apart from boot.h, which host tests of the layers above include. */
#ifndef KOHAKU_BOOT_CONSOLE_H
#define KOHAKU_BOOT_CONSOLE_H

#include <stdint.h>
#include "board.h"

/* One byte out. The register is a machine word wide on both variants (RV32 LCTL 32-bit,
 * RV64 control 64-bit): uintptr_t is that width, so one store, no variant #ifdef. */
static inline void kx_console_putc(char c)
{
    *(volatile uintptr_t *)(uintptr_t)BOARD_CONSOLE_ADDR = (uint8_t)c;
}
/* Prints s; returns the byte after its NUL. */
const char *kx_puts(const char *s);
/* "0x" and the value in lower-case hex without leading zeros ("0x0" for zero). */
void kx_put_hex(uint64_t v);
/* The same without the "0x": for the firmware's own lines, whose label strings end in "0x"
 * (data, not code: two console stores fewer in the RV32 window, 20 bytes). */
void kx_put_hex_digits(uint64_t v);
/* Stops the core with `word` through the exit register: a native word (RV32's register is one
 * word; RV64's traps use all 64 bits). */
void kx_exit(uintptr_t word) __attribute__((noreturn));

#endif
