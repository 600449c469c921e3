/* rv32-spin.S — spins at PC 0 forever: the image the host-port re-flash test replaces while the
 * core is held (the machine must drop its translated code for the old image on release). */
#include "smoke.h"
    .section .text.start
    .globl _start
_start:
1:  j    1b
