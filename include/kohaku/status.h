/* status.h — the firmware status table, one for firmware and host tools (SYSTEM.md §4,
 * STYLE.md "Errors"). Ranges: 0 OK, 0x01-0x3F malformed input, 0x40-0x5F unit/mover fault,
 * 0x60-0x6F timeout, 0x70-0x7F resource/other. Owners add codes in their range. */
#ifndef KOHAKU_STATUS_H
#define KOHAKU_STATUS_H

#define KS_OK                 0x00u

#define KS_RANGE_INPUT_FIRST  0x01u     /* malformed input: nothing was changed */
#define KS_RANGE_INPUT_LAST   0x3Fu
#define KS_RANGE_FAULT_FIRST  0x40u     /* a unit or the mover reported a fault */
#define KS_RANGE_FAULT_LAST   0x5Fu
#define KS_RANGE_TIMEOUT_FIRST 0x60u    /* a bounded wait ran out; detail says what */
#define KS_RANGE_TIMEOUT_LAST 0x6Fu
#define KS_RANGE_OTHER_FIRST  0x70u     /* resource exhausted or other */
#define KS_RANGE_OTHER_LAST   0x7Fu

#define KS_IS_INPUT(s)   ((s) >= KS_RANGE_INPUT_FIRST && (s) <= KS_RANGE_INPUT_LAST)
#define KS_IS_FAULT(s)   ((s) >= KS_RANGE_FAULT_FIRST && (s) <= KS_RANGE_FAULT_LAST)
#define KS_IS_TIMEOUT(s) ((s) >= KS_RANGE_TIMEOUT_FIRST && (s) <= KS_RANGE_TIMEOUT_LAST)
#define KS_IS_OTHER(s)   ((s) >= KS_RANGE_OTHER_FIRST && (s) <= KS_RANGE_OTHER_LAST)

/* ---- dispatch/ (docs/dispatch.md). detail/value per code there. ---- */
#define KS_DISPATCH_EMPTY      0x30u    /* a program of 0 instructions */
#define KS_DISPATCH_BAD_TARGET 0x31u    /* target not in the unit table; detail = {y,x} */
#define KS_DISPATCH_BAD_PROG   0x32u    /* payload not 8-byte aligned, or too many jobs */
#define KS_DISPATCH_BAD_UNITS  0x33u    /* unit table refused (count, duplicate, depth 0, agent) */
#define KS_UNIT_FAULT          0x50u    /* a unit's FAULT signal; detail = {y,x}, value = exec_result */
#define KS_TIMEOUT             0x60u    /* a bounded wait ran out; detail = (what << 8) | {y,x} */
#define KS_DISPATCH_NO_UNITS   0x70u    /* enumeration found no unit */

#endif
