# host.mk — the host library libkohaku, the kactl CLI, their unit tests (suite host-lib), the
# end-to-end suites through kactl on both QEMU boards (e2e-qemu-rv32, e2e-qemu-rv64) and
# `make run` (docs/host-interface.md).
#   make host                 $(O)/host/libkohaku.a, $(O)/host/libkohaku.so and $(O)/host/kactl
#   make test-suite-host-lib  host unit tests (ASan + UBSan), log $(O)/tests/host-lib.log
#   make test-suite-e2e-qemu-rv32 / -rv64   kactl against the firmware in QEMU
#   make run [BOARD=qemu-rv64]              the demonstration (scripts/run-demo.sh)

HOST_SRCS   := host/node.c host/link.c host/link_jtag.c host/link_xdma.c host/elf.c host/queue.c host/explain.c host/text.c host/hostdrive.c host/check.c \
               host/file.c host/bind.c host/record.c
# The descriptor list's text form is mover/'s parser, built unchanged.
HOST_SHARED := mover/desc_text.c
HOST_HDRS   := host/libkohaku.h host/kh_util.h host/kh_link.h host/kh_bind.h $(wildcard include/kohaku/*.h) dispatch/kdp_flit.h mover/kmv.h
HOST_GEN    := $(O)/host/gen/status_table.inc
HOST_INC    := -Iinclude -Ihost -Idispatch -Imover -I$(O)/host/gen
HOST_WARN   := -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes
HOST_CFLAGS := $(HOST_WARN) -O2 -g $(HOST_INC)
HOST_SAN    := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
HOST_LIB    := $(O)/host/libkohaku.a
HOST_LIB_ASAN := $(O)/host/libkohaku-asan.a
KACTL       := $(O)/host/kactl
KADEMO      := $(O)/host/kademo
KMV_PURE    := mover/build.c mover/validate.c

HOST_OBJS      := $(patsubst %.c,$(O)/host/obj/%.o,$(notdir $(HOST_SRCS) $(HOST_SHARED)))
HOST_ASAN_OBJS := $(patsubst %.c,$(O)/host/asan/%.o,$(notdir $(HOST_SRCS) $(HOST_SHARED)))
# The shared library for bindings (host/python/, docs/python.md): the static library's sources
# built position-independent, plus mover/'s pure builder and validator, which the C tools link
# from source but a binding can only reach through the library.
HOST_SO        := $(O)/host/libkohaku.so
HOST_PIC_OBJS  := $(patsubst %.c,$(O)/host/pic/%.o,$(notdir $(HOST_SRCS) $(HOST_SHARED) $(KMV_PURE)))

.PHONY: host kactl host-so
host: $(HOST_LIB) $(HOST_SO) $(KACTL) $(KADEMO)
host-so: $(HOST_SO)
kactl: $(KACTL)

# One table for firmware and host: names and texts come from status.h itself.
$(HOST_GEN): include/kohaku/status.h host/status-table.awk
	@mkdir -p $(@D)
	$(Q)awk -f host/status-table.awk $< > $@.tmp && mv $@.tmp $@

vpath %.c host mover

$(O)/host/obj/%.o: %.c $(HOST_HDRS) $(HOST_GEN)
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -c $< -o $@

$(O)/host/asan/%.o: %.c $(HOST_HDRS) $(HOST_GEN)
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) $(HOST_CFLAGS:-O2=-O1) $(HOST_SAN) -c $< -o $@

$(O)/host/pic/%.o: %.c $(HOST_HDRS) $(HOST_GEN)
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -fPIC -c $< -o $@

$(HOST_SO): $(HOST_PIC_OBJS)
	$(Q)$(HOSTCC) -shared -Wl,-soname,libkohaku.so -Wl,-z,defs $^ -o $@

$(HOST_LIB): $(HOST_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^

$(HOST_LIB_ASAN): $(HOST_ASAN_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^

# `kactl --version`: the tree's commit (git describe), "unknown" outside a git checkout.
KACTL_VERSION ?= $(shell git -C $(TOP) describe --always --dirty 2>/dev/null || echo unknown)
$(KACTL): host/kactl.c $(HOST_LIB) $(HOST_HDRS)
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -DKACTL_VERSION='"$(KACTL_VERSION)"' host/kactl.c $(HOST_LIB) -o $@

# The demo's and e2e tests' host side: NPU inputs, reference check, generated text files.
$(KADEMO): host/kademo.c $(HOST_LIB) $(HOST_HDRS) $(KMV_PURE)
	$(Q)$(HOSTCC) $(HOST_CFLAGS) host/kademo.c $(KMV_PURE) $(HOST_LIB) -lm -o $@

# ---- host-lib: unit tests, the library against the real device model in-process ----
HOST_TEST_BIN := $(O)/tests/host/host/test_host
HOST_TEST_SRCS := tests/host/host/test_host.c tests/host/host/model_transport.c mover/validate.c

$(HOST_TEST_BIN): $(HOST_TEST_SRCS) tests/host/host/model_transport.h tests/host/host/ht.h host/demo/softmax.prog $(wildcard host/demo/*.txt) $(HOST_LIB_ASAN) $(MODEL_ASAN_LIB) $(HOST_HDRS)
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) $(HOST_CFLAGS:-O2=-O1) $(HOST_SAN) -Imodel/include -Itests/host/host \
	  -DKH_TOP='"$(TOP)"' $(HOST_TEST_SRCS) $(HOST_LIB_ASAN) $(MODEL_ASAN_LIB) $(MODEL_LDLIBS) -o $@

TEST_SUITES += host-lib
.PHONY: test-suite-host-lib
test-suite-host-lib: $(HOST_TEST_BIN)
	@mkdir -p $(O)/tests
	$(Q)timeout 120 $(HOST_TEST_BIN) > $(O)/tests/host-lib.log 2> $(O)/tests/host-lib.stderr; rc=$$?; \
	if [ $$rc -eq 124 ]; then echo "HANG: host-lib/test_host" >> $(O)/tests/host-lib.log; \
	elif [ $$rc -ne 0 ]; then \
	  echo "FAIL: host-lib/test_host exit $$rc: $$(tail -c 300 $(O)/tests/host-lib.stderr | tr '\n' '|')" >> $(O)/tests/host-lib.log; fi

# ---- e2e: kactl and the library against the firmware in QEMU (tests/e2e/) ----
E2E_SOAK := $(O)/tests/e2e/e2e_soak

$(E2E_SOAK): tests/e2e/e2e_soak.c $(HOST_LIB) $(HOST_HDRS)
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) $(HOST_CFLAGS) tests/e2e/e2e_soak.c $(HOST_LIB) -o $@

TEST_SUITES += e2e-qemu-rv32 e2e-qemu-rv64
.PHONY: test-suite-e2e-qemu-rv32 test-suite-e2e-qemu-rv64
test-suite-e2e-qemu-rv32 test-suite-e2e-qemu-rv64: test-suite-e2e-%: qemu host $(E2E_SOAK) $(O)/tests/e2e/badinput_guard
	$(Q)$(MAKE) --no-print-directory BOARD=$* firmware
	-$(Q)$(MAKE) --no-print-directory $(if $(filter qemu-rv64,$*),$(O)/qemu-rv64/tests/service_trap.elf) > /dev/null
	@mkdir -p $(O)/tests
	$(Q)timeout 900 tests/e2e/e2e.sh $* $(O) > $(O)/tests/e2e-$*.log 2> $(O)/tests/e2e-$*.stderr; rc=$$?; \
	if [ $$rc -eq 124 ]; then echo "HANG: e2e-$*/suite (900 s)" >> $(O)/tests/e2e-$*.log; \
	elif [ $$rc -ne 0 ]; then echo "FAIL: e2e-$*/suite exit $$rc: $$(tail -c 300 $(O)/tests/e2e-$*.stderr | tr '\n' '|')" >> $(O)/tests/e2e-$*.log; fi

# ---- make run ----
run: deps qemu host
	$(Q)$(MAKE) --no-print-directory BOARD=$(BOARD) firmware
	$(Q)scripts/run-demo.sh $(BOARD) $(O)

# ---- fuzzing (docs/design.md §7 layer 4): the host's parsers of user files ----
FUZZ_CC        ?= clang
FUZZ_HOST_SECS ?= 60
HOST_FUZZ_BIN  := $(O)/fuzz/host/fuzz_host
HOST_FUZZ_SRCS := tests/host/host/fuzz_host.c $(HOST_SRCS) $(HOST_SHARED)

$(HOST_FUZZ_BIN): $(HOST_FUZZ_SRCS) $(HOST_HDRS) $(HOST_GEN)
	@mkdir -p $(@D)
	$(Q)$(FUZZ_CC) -std=c11 -g -O1 -Wall -Wextra -Werror -fsanitize=fuzzer,address,undefined \
	  -fno-sanitize-recover=all $(HOST_INC) $(HOST_FUZZ_SRCS) -o $@

.PHONY: fuzz-host test-suite-fuzz-smoke-host
fuzz: fuzz-host
fuzz-host: $(HOST_FUZZ_BIN)
	@mkdir -p $(O)/fuzz/host/corpus
	$(HOST_FUZZ_BIN) -max_total_time=$(FUZZ_HOST_SECS) -max_len=4096 $(O)/fuzz/host/corpus

TEST_SUITES += fuzz-smoke-host
test-suite-fuzz-smoke-host: $(HOST_FUZZ_BIN)
	@mkdir -p $(O)/tests $(O)/fuzz/host/smoke
	$(Q)if timeout 300 $(HOST_FUZZ_BIN) -runs=20000 -seed=1 -max_len=2048 $(O)/fuzz/host/smoke \
	      > $(O)/tests/fuzz-smoke-host.out 2>&1; then \
	  echo "PASS: fuzz-smoke-host/parsers_20000_runs" > $(O)/tests/fuzz-smoke-host.log; \
	else echo "FAIL: fuzz-smoke-host/parsers_20000_runs $$(grep -m1 -E 'ERROR|SUMMARY' $(O)/tests/fuzz-smoke-host.out)" \
	  > $(O)/tests/fuzz-smoke-host.log; fi

# ---- links (docs/host.md): the same e2e suite through the jtag and xdma links' stand-ins ----
# jtag: tclsh runs host/kohaku-jtag.tcl over tests/links/vivado-standin.tcl (forwarding to
# QEMU's host port on TCP); xdma: the unchanged xdma link against tests/links/xdma_shim.so, an
# LD_PRELOAD stand-in for the driver's device files. Both on both boards.
XDMA_SHIM := $(O)/tests/links/xdma_shim.so
$(XDMA_SHIM): tests/links/xdma_shim.c include/kohaku/hostport.h
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) $(HOST_WARN) -O2 -g -fPIC -shared -Iinclude $< -o $@ -ldl

LINK_E2E := $(foreach l,jtag xdma,$(foreach b,qemu-rv32 qemu-rv64,e2e-$(l)-$(b)))
TEST_SUITES += $(LINK_E2E)
.PHONY: $(addprefix test-suite-,$(LINK_E2E))
$(addprefix test-suite-,$(LINK_E2E)): test-suite-e2e-%: qemu host $(E2E_SOAK) $(XDMA_SHIM)
	$(Q)$(MAKE) --no-print-directory BOARD=$(patsubst jtag-%,%,$(patsubst xdma-%,%,$*)) firmware
	@mkdir -p $(O)/tests
	$(Q)l=$(firstword $(subst -, ,$*)); b=$(patsubst jtag-%,%,$(patsubst xdma-%,%,$*)); \
	timeout 1200 tests/e2e/e2e.sh $$b $(O) $$l > $(O)/tests/e2e-$*.log 2> $(O)/tests/e2e-$*.stderr; rc=$$?; \
	if [ $$rc -eq 124 ]; then echo "HANG: e2e-$*/suite (1200 s)" >> $(O)/tests/e2e-$*.log; \
	elif [ $$rc -ne 0 ]; then echo "FAIL: e2e-$*/suite exit $$rc: $$(tail -c 300 $(O)/tests/e2e-$*.stderr | tr '\n' '|')" >> $(O)/tests/e2e-$*.log; fi

# ---- host-link: the node layer (batches, posting, splitting, alignment, deadlines, counters)
# over a recording stand-in link, and kh_link_open's refusals (ASan + UBSan) ----
HOST_LINK_TEST_BIN := $(O)/tests/host/host/test_link
$(HOST_LINK_TEST_BIN): tests/host/host/test_link.c tests/host/host/ht.h $(HOST_LIB_ASAN) $(HOST_HDRS)
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) $(HOST_CFLAGS:-O2=-O1) $(HOST_SAN) -Itests/host/host $< $(HOST_LIB_ASAN) -o $@

TEST_SUITES += host-link
.PHONY: test-suite-host-link
test-suite-host-link: $(HOST_LINK_TEST_BIN)
	@mkdir -p $(O)/tests
	$(Q)timeout 60 $(HOST_LINK_TEST_BIN) > $(O)/tests/host-link.log 2> $(O)/tests/host-link.stderr; rc=$$?; \
	if [ $$rc -eq 124 ]; then echo "HANG: host-link/test_link" >> $(O)/tests/host-link.log; \
	elif [ $$rc -ne 0 ]; then \
	  echo "FAIL: host-link/test_link exit $$rc: $$(tail -c 300 $(O)/tests/host-link.stderr | tr '\n' '|')" >> $(O)/tests/host-link.log; fi
include host/python/python.mk

# ---- e2e-cli: kactl for scripts and people (tests/e2e/cli.sh): --json on every command,
# --version, help, files, per-step and per-unit reports, faults, drain, progress, messages ----
TEST_SUITES += e2e-cli-qemu-rv32 e2e-cli-qemu-rv64
.PHONY: test-suite-e2e-cli-qemu-rv32 test-suite-e2e-cli-qemu-rv64
test-suite-e2e-cli-qemu-rv32 test-suite-e2e-cli-qemu-rv64: test-suite-e2e-cli-%: qemu host
	$(Q)$(MAKE) --no-print-directory BOARD=$* firmware
	@mkdir -p $(O)/tests
	$(Q)timeout 600 tests/e2e/cli.sh $* $(O) > $(O)/tests/e2e-cli-$*.log 2> $(O)/tests/e2e-cli-$*.stderr; rc=$$?; \
	if [ $$rc -eq 124 ]; then echo "HANG: e2e-cli-$*/suite (600 s)" >> $(O)/tests/e2e-cli-$*.log; \
	elif [ $$rc -ne 0 ]; then echo "FAIL: e2e-cli-$*/suite exit $$rc: $$(tail -c 300 $(O)/tests/e2e-cli-$*.stderr | tr '\n' '|')" >> $(O)/tests/e2e-cli-$*.log; fi

# ---- readme-block: README.md's "Drive it from a host" block, extracted and run as pasted ----
TEST_SUITES += readme-block
.PHONY: test-suite-readme-block
test-suite-readme-block: qemu host
	$(Q)$(MAKE) --no-print-directory BOARD=qemu-rv32 firmware
	@mkdir -p $(O)/tests
	$(Q)timeout 700 tests/e2e/readme.sh $(O) > $(O)/tests/readme-block.log 2> $(O)/tests/readme-block.stderr; rc=$$?; \
	if [ $$rc -eq 124 ]; then echo "HANG: readme-block/suite (700 s)" >> $(O)/tests/readme-block.log; \
	elif [ $$rc -ne 0 ]; then echo "FAIL: readme-block/suite exit $$rc: $$(tail -c 300 $(O)/tests/readme-block.stderr | tr '\n' '|')" >> $(O)/tests/readme-block.log; fi

# ---- debug-gdb: `make debug`'s recipe (tests/e2e/debug.sh): the stub on 127.0.0.1 only, gdb
# stopping the core at kdp_run inside a real dispatch, the command completing after detach ----
TEST_SUITES += debug-gdb-qemu-rv32 debug-gdb-qemu-rv64
.PHONY: test-suite-debug-gdb-qemu-rv32 test-suite-debug-gdb-qemu-rv64
test-suite-debug-gdb-qemu-rv32 test-suite-debug-gdb-qemu-rv64: test-suite-debug-gdb-%: qemu host
	$(Q)$(MAKE) --no-print-directory BOARD=$* firmware
	@mkdir -p $(O)/tests
	$(Q)timeout 300 tests/e2e/debug.sh $* $(O) > $(O)/tests/debug-gdb-$*.log 2> $(O)/tests/debug-gdb-$*.stderr; rc=$$?; \
	if [ $$rc -eq 124 ]; then echo "HANG: debug-gdb-$*/suite (300 s)" >> $(O)/tests/debug-gdb-$*.log; \
	elif [ $$rc -ne 0 ]; then echo "FAIL: debug-gdb-$*/suite exit $$rc: $$(tail -c 300 $(O)/tests/debug-gdb-$*.stderr | tr '\n' '|')" >> $(O)/tests/debug-gdb-$*.log; fi
