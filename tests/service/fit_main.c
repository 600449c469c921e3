/* fit_main.c — the RV32 default image as it would be with BOARD_SERVICE_QUEUE 1 (service.mk
 * `make size-rv32-queue`, docs/service.md "Size"): main serves the queue over the real
 * dispatch/ and mover/, so the link shows what the 8 KB instruction window must hold. Measured
 * only, never run: it is linked into a widened window while it does not fit. */
#include "kq.h"

int main(void)
{
    kq_serve();
}
