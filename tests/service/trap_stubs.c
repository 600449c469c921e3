/* trap_stubs.c — the RV64 trap test image (service/service.mk): the real service, whose mover
 * replays (kmv_replay; kmv_replay_validated, which a RUN's REPLAY step uses) are replaced by an
 * illegal instruction, so a REPLAY command traps in the middle of a command.
 * tests/service/smoke.py ("trap" mode) checks that the fatal path marked the queue FATAL with
 * KQ_FATAL_TRAP, mcause 2, mepc = kq_test_trap_pc, mtval = the instruction. */
#include "kmv.h"
#include "kq.h"

int main(void)
{
    kq_serve();
}

/* One copy of the trapping instruction (noinline): its label must be defined once. */
static __attribute__((noinline, noreturn)) void kq_test_trap(void)
{
    /* unimp = csrrw x0, cycle, x0: illegal (cycle is read-only), mcause 2 */
    __asm__ volatile(".globl kq_test_trap_pc\nkq_test_trap_pc: unimp");
    __builtin_unreachable();
}

unsigned kmv_replay(const struct kd_write *w, uint32_t n, uint64_t timeout_cycles,
                    struct kmv_result *res)
{
    (void)w, (void)n, (void)timeout_cycles, (void)res;
    kq_test_trap();
}

unsigned kmv_replay_validated(const struct kd_write *w, uint32_t n, uint64_t timeout_cycles,
                              struct kmv_result *res)
{
    (void)w, (void)n, (void)timeout_cycles, (void)res;
    kq_test_trap();
}
