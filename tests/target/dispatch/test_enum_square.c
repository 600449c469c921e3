/* test_enum_square.c — enumeration on a square 3x3 mesh (docs/hardware.md §1 CAPS): the
 * model publishes CAPS GRID_LO 1 and GRID_HI 3 (scalars, the larger side), the firmware scans
 * both axes GRID_LO-1 .. GRID_HI+1 (0x00 .. 0x44) and finds exactly the units of the map
 *   grid=3x3;agent@0,2;NP@1,1;NP@2,2;NP@3,3;TU@4,1;TU@2,4;NP@1,0
 * in scan order (edge endpoints included); coordinates of that square holding no unit are
 * clamped onto real units, whose answers (another src) count as empty at once: the scan takes
 * less than one reply wait per such coordinate. Expected values: the map and CU_CAPS of
 * the model's units ("NP" 0x4E50, "TU" 0x5455, version 1, depth 16). */
// kohaku-test: qemu-opts=units=grid=3x3;agent@0,,2;NP@1,,1;NP@2,,2;NP@3,,3;TU@4,,1;TU@2,,4;NP@1,,0
// kohaku-test: expect-referee=credit_violations=0
// kohaku-test: expect-referee=rx_dropped=0
#include "enum_shape.h"

int main(void)
{
    /* 20 coordinates asked, 14 of them holding no unit */
    static const uint8_t want[6] = { 0x01, 0x11, 0x14, 0x22, 0x33, 0x42 };
    static const uint16_t type[6] = { 0x4E50, 0x4E50, 0x5455, 0x4E50, 0x4E50, 0x5455 };
    kdt_enum_shape(0x301040120ull /* 288 | 4 << 16 | 1 << 24 | 3 << 32 */, 0x20, 0x44, 14u, want, type);
    kt_finish();
}
