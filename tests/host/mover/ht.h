/* ht.h — the mover's host tests (docs/design.md §7 layer 1) on the host suites' shared runner
 * (tests/host/host/ht.h): "PASS: host-mover/<test>" or "FAIL: host-mover/<test> ...". */
#define HT_SUITE "host-mover"
#include "../host/ht.h"
