/* test_enum_tall.c — enumeration on a tall 2x5 mesh (docs/hardware.md §1 CAPS): the
 * model publishes CAPS GRID_LO 1 and GRID_HI 5 (scalars, the larger side), the firmware scans
 * both axes GRID_LO-1 .. GRID_HI+1 (0x00 .. 0x66) and finds exactly the units of the map
 *   grid=2x5;agent@0,1;NP@1,1;NP@2,1;NP@3,3;TU@1,5;TU@2,5;TU@1,6
 * in scan order (edge endpoints included); coordinates of that square holding no unit are
 * clamped onto real units, whose answers (another src) count as empty at once: the scan takes
 * less than one reply wait per such coordinate. Expected values: the map and CU_CAPS of
 * the model's units ("NP" 0x4E50, "TU" 0x5455, version 1, depth 16). */
// kohaku-test: qemu-opts=units=grid=2x5;agent@0,,1;NP@1,,1;NP@2,,1;NP@3,,3;TU@1,,5;TU@2,,5;TU@1,,6
// kohaku-test: expect-referee=credit_violations=0
// kohaku-test: expect-referee=rx_dropped=0
#include "enum_shape.h"

int main(void)
{
    /* 44 coordinates asked, 38 of them holding no unit */
    static const uint8_t want[6] = { 0x11, 0x12, 0x33, 0x51, 0x52, 0x61 };
    static const uint16_t type[6] = { 0x4E50, 0x4E50, 0x4E50, 0x5455, 0x5455, 0x5455 };
    kdt_enum_shape(0x501040120ull /* 288 | 4 << 16 | 1 << 24 | 5 << 32 */, 0x10, 0x66, 38u, want, type);
    kt_finish();
}
