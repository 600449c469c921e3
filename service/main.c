/* main.c — the firmware's service entry (SYSTEM.md §2): boot/ has accepted the boot block by
 * the time main runs (boot/start.c); from here the command queue (SYSTEM.md §4,
 * service/queue.c) serves the host until a STOP command. A board whose window cannot hold the
 * queue yet (BOARD_SERVICE_QUEUE 0) reports ready and stops; the constant condition lets
 * --gc-sections drop the queue from that image. */
#include "board.h"
#include "hal/hal.h"
#include "kohaku/exitword.h"
#include "kq.h"

int main(void)
{
    if (BOARD_SERVICE_QUEUE)
        kq_serve();
    hal_puts("kohaku-fw " BOARD_NAME " ready\n");
    hal_exit(KX_EXIT_OK);
}
