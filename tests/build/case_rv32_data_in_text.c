/* case_rv32_data_in_text.c — build check: Data words in the fetch-only window are refused (they would hide an instruction, here a div, from the scan). */
// buildcheck: board=qemu-rv32 expect=fail message=data word in executable section
#include "hal/hal.h"

int main(void)
{
    __asm__ volatile("j 1f\n.word 0x02b54533\n1:");
    kx_exit(0);
}
