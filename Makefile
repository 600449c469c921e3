# KohakuAccel system-node firmware: every build, test, run and bench entry point.
#   make                 firmware for all four boards
#   make BOARD=x         one board (qemu-rv32 qemu-rv64 sysnode-rv32 sysnode-rv64)
#   make test            install what is missing, build, run every test; ends "N passed, N failed"
#   make run             boot the firmware in QEMU on BOARD (default qemu-rv32) and show it work
#   make debug BOARD=x   QEMU booted by kactl, gdb stub on 127.0.0.1 (see README)
# Options: O=<dir> (out of tree, default build), CROSS_COMPILE=, V=1, LIBC=picolibc

BOARDS        := qemu-rv32 qemu-rv64 sysnode-rv32 sysnode-rv64
BOARD         ?= qemu-rv32
O             ?= build
CROSS_COMPILE ?= riscv64-unknown-elf-
LIBC          ?= picolibc
V             ?= 0
Q             := $(if $(filter 1,$(V)),,@)
TOP           := $(CURDIR)
HOSTCC        ?= gcc

# Test suites register themselves here; each has a rule test-suite-NAME that writes
# $(O)/tests/NAME.log with one "PASS: name" / "FAIL: name" / "HANG: name" line per test.
TEST_SUITES   :=

.PHONY: all firmware test run debug deps clean bench bench-check fuzz soak
all: firmware

include mk/firmware.mk
include model/model.mk
include qemu/qemu.mk
include host/host.mk
include dispatch/dispatch.mk
include mover/mover.mk
include service/service.mk
include tests/tests.mk
include bench/bench.mk

deps:
	$(Q)scripts/install-deps.sh

test: deps
	$(Q)rm -rf $(O)/tests && mkdir -p $(O)/tests
	-$(Q)$(MAKE) --no-print-directory -k $(addprefix test-suite-,$(TEST_SUITES))
	$(Q)scripts/test-summary.sh $(O)/tests $(TEST_SUITES)

clean:
	rm -rf $(O)
