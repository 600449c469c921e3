/* main.c — the firmware's service entry (docs/design.md §2): boot/ has accepted the boot block by
 * the time main runs (boot/start.c); from here the command queue (docs/design.md §4,
 * service/queue.c) serves the host until a STOP command, and kq_serve does not return. */
#include "kq.h"

int main(void)
{
    kq_serve();
}
