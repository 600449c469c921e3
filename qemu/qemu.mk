# qemu.mk — our QEMU (kohaku-sysnode machine + device model) and its smoke tests. docs/qemu.md.
#   make qemu              build/refresh $(O)/qemu/bin/qemu-system-riscv{32,64} (scripts/build-qemu.sh)
#   make test-suite-qemu-smoke   the machine's own tests (tests/qemu/), log in $(O)/tests/qemu-smoke.log

QEMU_BIN     := $(O)/qemu/bin
QEMU_RV32    := $(QEMU_BIN)/qemu-system-riscv32
QEMU_RV64    := $(QEMU_BIN)/qemu-system-riscv64
QEMU_STAMP   := $(O)/qemu/key
# Everything the emulators are built from: rerun the script when any of it changes.
QEMU_INPUTS  := $(shell find $(TOP)/qemu/hw $(TOP)/qemu/patches -type f 2>/dev/null) \
                $(wildcard $(TOP)/model/*.c $(TOP)/model/*.h $(TOP)/model/include/*.h) \
                $(wildcard $(TOP)/include/kohaku/*.h) $(TOP)/scripts/build-qemu.sh
# A link into a cache that was cleaned counts as missing.
QEMU_FORCE   := $(shell test -x $(QEMU_RV32) -a -x $(QEMU_RV64) || echo qemu-force)

.PHONY: qemu qemu-force
qemu: $(QEMU_STAMP)

$(QEMU_STAMP): $(QEMU_INPUTS) $(QEMU_FORCE)
	$(Q)scripts/build-qemu.sh $(O)
	$(Q)touch $@

# ---- smoke tests: hand-written images per variant (tests/qemu/) ----
QEMU_TEST_DIR := $(TOP)/tests/qemu
QEMU_TEST_OUT := $(O)/tests/qemu
QEMU_TEST_CC  := $(CROSS_COMPILE)gcc
QEMU_TEST_RV32 := $(patsubst $(QEMU_TEST_DIR)/%.S,$(QEMU_TEST_OUT)/%.elf,$(wildcard $(QEMU_TEST_DIR)/rv32-*.S))
QEMU_TEST_RV64 := $(patsubst $(QEMU_TEST_DIR)/%.S,$(QEMU_TEST_OUT)/%.elf,$(wildcard $(QEMU_TEST_DIR)/rv64-*.S))

$(QEMU_TEST_OUT)/rv32-%.elf: $(QEMU_TEST_DIR)/rv32-%.S $(QEMU_TEST_DIR)/smoke.ld $(QEMU_TEST_DIR)/smoke.h
	$(Q)mkdir -p $(@D)
	$(Q)$(QEMU_TEST_CC) -march=rv32i -mabi=ilp32 -nostdlib -nostartfiles -static \
	  -I$(TOP)/include -DKS_RV32 -T $(QEMU_TEST_DIR)/smoke.ld \
	  -Wl,--defsym=IMEM_BASE=0x0,--defsym=SPAD_BASE=0x10000000 -o $@ $<

$(QEMU_TEST_OUT)/rv64-%.elf: $(QEMU_TEST_DIR)/rv64-%.S $(QEMU_TEST_DIR)/smoke.ld $(QEMU_TEST_DIR)/smoke.h
	$(Q)mkdir -p $(@D)
	$(Q)$(QEMU_TEST_CC) -march=rv64ima_zicsr_zifencei -mabi=lp64 -mcmodel=medany -nostdlib \
	  -nostartfiles -static -I$(TOP)/include -DKS_RV64 -T $(QEMU_TEST_DIR)/smoke.ld \
	  -Wl,--defsym=IMEM_BASE=0x0,--defsym=SPAD_BASE=0x10000 -o $@ $<

.PHONY: qemu-smoke-images test-suite-qemu-smoke
qemu-smoke-images: $(QEMU_TEST_RV32) $(QEMU_TEST_RV64)

TEST_SUITES += qemu-smoke
test-suite-qemu-smoke: qemu qemu-smoke-images
	$(Q)mkdir -p $(O)/tests
	$(Q)python3 $(QEMU_TEST_DIR)/smoke.py --qemu-bin $(QEMU_BIN) --images $(QEMU_TEST_OUT) \
	  --log $(O)/tests/qemu-smoke.log
