/* main.c — the firmware's service entry (SYSTEM.md §2): for now it reports ready and stops.
 * The command-queue loop (SYSTEM.md §4) replaces the exit below: it will serve the queue the
 * boot block names until a STOP command. */
#include "board.h"
#include "hal/hal.h"
#include "kohaku/exitword.h"

int main(void)
{
    /* Boot has accepted the boot block by the time main runs (boot/start.c). */
    hal_puts("kohaku-fw " BOARD_NAME " ready\n");
    hal_exit(KX_EXIT_OK);
}
