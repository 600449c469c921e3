/* kvm_stub.c — the native stub of one cold entry (docs/kvm.md): compiled once per entry by
 * mk/firmware.mk with -DKVM_ENTRY=<name>, each stub its own libfw.a member, so an image pulls
 * only the stubs it calls and an image that defines the function itself (a test stand-in) does
 * not clash with the others. The cold object's F is renamed kvm_cold_F; this F takes its place
 * for native callers.
 * Register-level pass-through: a0..a5 go to the cold code as they came, a0:a1 come back as they
 * were left. That is exactly the call of any entry with at most six argument words and a
 * result of at most 64 bits (integer, pointer or void), so no stub needs the real prototype
 * (and this file includes no module header that would clash with it). */
#include "kvm.h"

#define KVM_CAT(a, b)  a##b
/* The entry's address is a word of .sdata, the start of .data, which gp (.rodata + 2 KB,
 * linker/rv32.ld.S) reaches while .rodata is under 2 KB: the stub is then `lw a6, off(gp)` and
 * `j kvm_call` once the link relaxes it, 8 bytes of the window and 4 of the scratchpad instead
 * of 12 (lui, addi, j). Out of reach it stays correct at 12 (lui, lw, j). Not .srodata: that
 * starts .rodata, at the very edge of gp's reach, where the link does not relax. volatile
 * keeps GCC from folding the load back into building the address. Global: a native call site
 * that enters the interpreter itself (HAL_COLD, hal/rv32/hal_variant.h) loads the same word,
 * and --gc-sections then drops the stub's code when nothing calls it. */
#define KVM_STUB(f)                                                                          \
    extern const uint32_t KVM_CAT(kvm_cold_, f)[];                                           \
    extern volatile uint32_t KVM_CAT(kvm_entry_, f);                                         \
    __attribute__((section(".sdata.kvm_entry." #f)))                                         \
    volatile uint32_t KVM_CAT(kvm_entry_, f) =                                               \
        (uint32_t)(uintptr_t)KVM_CAT(kvm_cold_, f);                                          \
    uint64_t f(uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t a4, uint32_t a5); \
    uint64_t f(uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t a4, uint32_t a5) \
    {                                                                                        \
        return kvm_call(a0, a1, a2, a3, a4, a5, KVM_CAT(kvm_entry_, f));                     \
    }
#define KVM_STUB_OF(f) KVM_STUB(f)

KVM_STUB_OF(KVM_ENTRY)
