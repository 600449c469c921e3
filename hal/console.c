/* console.c — console text output on both variants (CONSOLE register: BOARD.md §4 LCTL 0x40,
 * §5 control 0x08). No printf: keeps libc's divides out of the RV32 image. */
#include "hal/hal.h"

void hal_puts(const char *s)
{
    while (*s)
        hal_console_putc(*s++);
}

void hal_put_hex(uint64_t v)
{
    static const char digits[16] = "0123456789abcdef";
    /* Two 32-bit halves: a 64-bit shift by a variable is a libgcc call on RV32. */
    const uint32_t half[2] = { (uint32_t)v, (uint32_t)(v >> 32) };
    int shift = 60;

    hal_console_putc('0');
    hal_console_putc('x');
#define HAL_NIBBLE(s) ((half[(s) >> 5] >> ((s) & 31)) & 0xFu)
    while (shift > 0 && HAL_NIBBLE(shift) == 0)
        shift -= 4;
    for (; shift >= 0; shift -= 4)
        hal_console_putc(digits[HAL_NIBBLE(shift)]);
#undef HAL_NIBBLE
}
