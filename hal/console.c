/* console.c — console text output on both variants (CONSOLE register: docs/hardware.md §4 LCTL 0x40,
 * §5 control 0x08). No printf: keeps libc's divides out of the RV32 image. */
#include "hal/hal.h"

const char *kx_puts(const char *s)
{
    char c;

    /* Returns past the NUL, so a caller can walk a run of strings ("a\0b\0") in one pointer. */
    while ((c = *s++) != 0)
        kx_console_putc(c);
    return s;
}

void kx_put_hex(uint64_t v)
{
    kx_console_putc('0');
    kx_console_putc('x');
    kx_put_hex_digits(v);
}

void kx_put_hex_digits(uint64_t v)
{
    static const char digits[16] = "0123456789abcdef";
    /* The value as two 32-bit halves shifted left a nibble a turn, the top nibble printed
     * once a non-zero one has been seen (or on the last turn, for "0"): one loop, and only
     * shifts by a constant, which RV32 does inline (a 64-bit shift by a variable is a libgcc
     * call there). */
    uint32_t hi = (uint32_t)(v >> 32), lo = (uint32_t)v, d, seen = 0;

    for (unsigned i = 16; i != 0; i--) {
        d = hi >> 28;
        hi = (hi << 4) | (lo >> 28);
        lo <<= 4;
        seen |= d | (i == 1);
        if (seen)
            kx_console_putc(digits[d]);
    }
}
