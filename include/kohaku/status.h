/* status.h — the firmware status table, one for firmware and host tools (docs/design.md §4,
 * docs/design.md §6 "Errors"). Ranges: 0 OK, 0x01-0x3F malformed input, 0x40-0x5F unit/mover fault,
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
#define KS_UNIT_FAULT          0x50u    /* a unit's FAULT signal; detail = {y,x}, value = exec_result
                                         * (detail 0x100 | {y,x}: seen only by credit, value
                                         * jobs << 16 | count; 0x300: unit uncertain) */
#define KS_TIMEOUT             0x60u    /* a bounded wait ran out; detail = (what << 8) | {y,x} */
#define KS_DISPATCH_NO_UNITS   0x70u    /* enumeration found no unit */

/* ---- service/ (the command queue, docs/host-interface.md "Statuses"). A RUN failure carries
 * the failing step's index in value[63:48] and the inner value in value[47:0]. ---- */
#define KS_BAD_OP              0x01u    /* unknown command (or unknown op in a RUN step: KS_BAD_STEP); detail = op */
#define KS_BAD_FLAGS           0x02u    /* flags not 0 (none are defined); detail = flags */
#define KS_BAD_LEN             0x03u    /* count (or a step's n) 0 or above its maximum; detail = it */
#define KS_BAD_ALIGN           0x04u    /* data address not aligned for its records; detail = alignment, value = address */
#define KS_BAD_ADDR            0x05u    /* data range outside memory the processor reaches, wrapping, naming
                                         * another mesh / aperture / bit 38, or overlapping the firmware's own
                                         * DRAM code (RV32); detail = bytes, value = address */
#define KS_BAD_TARGET          0x06u    /* target not in the unit table; detail = {y,x} */
#define KS_BAD_NTARGETS        0x07u    /* DISPATCH ntargets 0 or above KQ_MAX_TARGETS; detail = it */
#define KS_DUP_TARGET          0x08u    /* the same target twice in one DISPATCH; detail = {y,x} */
#define KS_BAD_STEP            0x09u    /* unknown RUN step op; detail = op */
#define KS_UNSATISFIABLE       0x0Au    /* RUN WAIT for more programs than the list dispatches to that
                                         * unit before it; detail = {y,x}, value[47:0] = n */
#define KS_BAD_RSVD            0x0Bu    /* a reserved field not 0; detail = its byte offset in the record */
#define KS_CHANGED             0x0Cu    /* command data failed its check again at use (the host rewrote it mid-command): what ran before was checked; detail = that check's status */
#define KS_REC_UNKNOWN         0x28u    /* a handle this firmware never issued (slot past the boot block's rec_handles, generation not yet issued); detail = the handle */
#define KS_REC_STALE           0x29u    /* a handle whose record is gone; detail = the handle, value = 1 forgotten or its slot reused, 2 lost at a firmware restart */
#define KS_REC_KIND            0x2Au    /* a RUN step list's handle given to REPLAY (or a descriptor list's to RUN); detail = the handle */
#define KS_REC_CHANGED         0x2Bu    /* a record's bytes no longer match what RECORD kept (a host write or a unit program changed them): detail = the handle; found before the command: nothing ran, value = 0 (in a RUN: the step naming it << 48); an RV64 sealed move found changed as it was loaded: it and the moves after it did not run, value = the moves before it (in a RUN: the step << 48 | those) */
#define KS_REC_FULL            0x78u    /* RECORD: no free handle (value 1) or not enough free record bytes (value 2); detail = the bytes it would hold */
#define KS_ABORTED             0x71u    /* taken before a firmware restart and never completed: it may have
                                         * run partly; detail = 0, value = 0 */

/* ---- mover/ (docs/mover.md "Statuses"): detail per code there; index = the write. ---- */
#define KS_BAD_OFFSET          0x10u    /* offset word not an 8-aligned register 0x00-0x7F; detail = it */
#define KS_NO_GO               0x11u    /* empty list, or writes after the last GO; detail = how many */
#define KS_LIST_TOO_LONG       0x12u    /* more than KD_MAX_WRITES writes; detail = n */
#define KS_NO_REACH            0x13u    /* register outside the writer's window (RV64 0x00-0x3F); detail = offset */
#define KS_MV_FIELD            0x14u    /* bits outside the register's fields; detail = offset */
#define KS_MV_MODE             0x15u    /* mode 6 or 7; detail = mode */
#define KS_MV_TRANSPOSE        0x16u    /* mode 1: a transpose is a COPY with reordered walkers */
#define KS_MV_WIDTH            0x17u    /* element width 3 */
#define KS_MV_DIM              0x18u    /* dimension index > 5 or ndim > 6; detail = it */
#define KS_MV_UNSET            0x19u    /* a setting the move needs is not written in the list */
#define KS_MV_ALIGN            0x1Au    /* base/stride/pitch/index base not 32-byte aligned */
#define KS_MV_WRAP             0x1Bu    /* walk offset wraps int32 or leaves 40 bits; detail = walker */
#define KS_MV_SHORT_SRC        0x1Cu    /* COPY source walk shorter than the destination walk */
#define KS_MV_GATHER           0x1Du    /* rows beyond index count x words, or > 2048 indices */
#define KS_MV_XFORM            0x1Eu    /* an XFORM the mover hangs on; detail = which case */
#define KS_TEXT_SYNTAX         0x1Fu    /* descriptor list text form; detail = line */
#define KS_MV_OWNED            0x20u    /* a walk reaches memory the firmware owns or is using; detail = (range << 8) | which walk */
#define KS_MV_ADDR             0x21u    /* a walk's addresses alias another mesh, set bit 38, reach nothing or cross 4 GB; detail = (why << 8) | which walk */
#define KS_MV_GATHER_ROWS      0x22u    /* a gather reaching index 8 or later (erratum: split it into moves of 8 rows); detail = rows' elements */
#define KS_MOVER_FAULT         0x40u    /* the mover faulted; detail = fault code 1-7 */
#define KS_XFORM_FAULT         0x41u    /* RV32 MVGO occupant fault; detail = its code */
#define KS_XFORM_UNCHECKED     0x72u    /* RV64: every move done, but an XFORM's occupant fault cannot be seen there; detail = XFORM moves */
/* KS_TIMEOUT detail = (what << 8) | {y,x}: what 0x01-0x0F dispatch (dispatch/kdp_flit.h),
 * 0x10-0x1F mover, {y,x} = 0. value = the mover status word (RV32 MVGO, RV64 MVSTAT). */
#define KS_AWAIT_MOVER         0x10u    /* a move (or a descriptor fetch) to finish */
#define KS_AWAIT_MOVER_IDLE    0x11u    /* the mover to be idle before a list's first write */

#endif
