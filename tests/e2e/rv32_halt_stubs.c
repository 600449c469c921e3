/* rv32_halt_stubs.c — the RV32 halt-in-command image (tests/e2e/reliability.mk; faults.sh
 * rv32_halt_in_command_explained): the real service, whose mover replays (kmv_replay, and
 * kmv_replay_validated that a RUN's REPLAY step uses) are replaced by a load from the fetch-only
 * instruction window, so a REPLAY command halts the core in the middle of a command. RV32 has no
 * traps (docs/hardware.md §4): the core halts with cause 3 and the faulting PC, the firmware cannot mark
 * its queue, and the host must explain the stop from the core's state. The RV32 analogue of
 * tests/service/trap_stubs.c. */
#include "kmv.h"
#include "kq.h"

int main(void)
{
    kq_serve();
}

/* One copy of the faulting load (noinline): its label must be defined once. */
static __attribute__((noinline, noreturn)) void kq_test_halt(void)
{
    /* lw zero, 0(zero): a load from the instruction window at 0x0, which only fetches. */
    __asm__ volatile(".globl kq_test_halt_pc\nkq_test_halt_pc: lw zero, 0(zero)" ::: "memory");
    __builtin_unreachable();
}

unsigned kmv_replay(const struct kd_write *w, uint32_t n, uint64_t timeout_cycles,
                    struct kmv_result *res)
{
    (void)w, (void)n, (void)timeout_cycles, (void)res;
    kq_test_halt();
}

unsigned kmv_replay_validated(const struct kd_write *w, uint32_t n, uint64_t timeout_cycles,
                              struct kmv_result *res)
{
    (void)w, (void)n, (void)timeout_cycles, (void)res;
    kq_test_halt();
}
