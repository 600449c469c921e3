# tests/e2e/reliability.mk — (docs/reliability.md): the fault suites through kactl
# (e2e-faults-qemu-rv32/-rv64), the bad-input matrix (e2e-badinput-qemu-rv32/-rv64), the soak
# (`make soak`, and soak-qemu-rv32/-rv64 short inside `make test`), and `make fuzz` over every
# libFuzzer target of the tree, each for FUZZ_SECONDS, with a smoke suite of the targets the
# other suites do not already smoke-run. Included from tests/tests.mk (after every component's
# .mk, so their fuzz targets and variables exist).

# ---- fault injection and bad input, end to end ----
REL_BOARDS := qemu-rv32 qemu-rv64
TEST_SUITES += $(addprefix e2e-faults-,$(REL_BOARDS)) $(addprefix e2e-badinput-,$(REL_BOARDS))
.PHONY: $(addprefix test-suite-e2e-faults-,$(REL_BOARDS)) $(addprefix test-suite-e2e-badinput-,$(REL_BOARDS)) \
        $(addprefix rel-images-,$(REL_BOARDS))

# What the scripts run: the board's firmware, and the trap (RV64) or halt (RV32) images.
$(addprefix rel-images-,$(REL_BOARDS)): rel-images-%: qemu host
	$(Q)$(MAKE) --no-print-directory BOARD=$* firmware > /dev/null
	-$(Q)$(MAKE) --no-print-directory $(if $(filter qemu-rv64,$*),$(O)/qemu-rv64/tests/service_trap.elf,qemu-smoke-images $(O)/qemu-rv32/tests/service_halt.elf) > /dev/null

# The RV32 halt-in-command image (faults.sh rv32_halt_in_command_explained): the real service
# with a replay that halts the core in the middle of a command (tests/e2e/rv32_halt_stubs.c).
REL_HALT32_OBJS := $(FW_CRT0_qemu-rv32) $(O)/qemu-rv32/tests/rv32_halt_stubs.o \
                   $(filter-out %/service/main.c.o,$(call fw_svc_objs,qemu-rv32))
$(O)/qemu-rv32/tests/rv32_halt_stubs.o: tests/e2e/rv32_halt_stubs.c service/kq.h
	@mkdir -p $(@D)
	$(Q)$(CC) $(FW_FLAGS_qemu-rv32) $(FW_CFLAGS) $(FW_INC_qemu-rv32) -Iservice -c $< -o $@
$(O)/qemu-rv32/tests/service_halt.elf: $(REL_HALT32_OBJS) $(O)/qemu-rv32/libfw.a $(O)/qemu-rv32/fw.ld scripts/check-image.sh
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(call fw_link,qemu-rv32,$@,$(REL_HALT32_OBJS))

# $(call rel-run,SUITE,SCRIPT,BOARD,SECONDS)
define rel-run
	@mkdir -p $(O)/tests
	$(Q)timeout $(4) $(2) $(3) $(O) > $(O)/tests/$(1).log 2> $(O)/tests/$(1).stderr; rc=$$?; \
	if [ $$rc -eq 124 ]; then echo "HANG: $(1)/suite ($(4) s)" >> $(O)/tests/$(1).log; \
	elif [ $$rc -ne 0 ]; then echo "FAIL: $(1)/suite exit $$rc: $$(tail -c 300 $(O)/tests/$(1).stderr | tr '\n' '|')" >> $(O)/tests/$(1).log; fi
endef

$(addprefix test-suite-e2e-faults-,$(REL_BOARDS)): test-suite-e2e-faults-%: rel-images-%
	$(call rel-run,e2e-faults-$*,tests/e2e/faults.sh,$*,600)

$(addprefix test-suite-e2e-badinput-,$(REL_BOARDS)): test-suite-e2e-badinput-%: rel-images-% $(O)/tests/e2e/badinput_guard
	$(call rel-run,e2e-badinput-$*,tests/e2e/badinput.sh,$*,600)

# A FAULT at every position of programs of 1-200 instructions, TU and NP, one
# and two targets, DISPATCH and RUN (tests/e2e/faultpos.c), each board.
TEST_SUITES += $(addprefix e2e-faultpos-,$(REL_BOARDS))
.PHONY: $(addprefix test-suite-e2e-faultpos-,$(REL_BOARDS))
$(addprefix test-suite-e2e-faultpos-,$(REL_BOARDS)): test-suite-e2e-faultpos-%: rel-images-% $(O)/tests/e2e/faultpos
	$(call rel-run,e2e-faultpos-$*,tests/e2e/faultpos.sh,$*,600)

$(O)/tests/e2e/faultpos: tests/e2e/faultpos.c $(HOST_LIB) $(HOST_HDRS)
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) $(HOST_CFLAGS) $< $(HOST_LIB) -o $@

$(O)/tests/e2e/badinput_guard: tests/e2e/badinput_guard.c $(HOST_LIB) $(HOST_HDRS)
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) $(HOST_CFLAGS) $< $(HOST_LIB) -o $@

# ---- the RV32 second engine's guards (tests/e2e/coldguard.sh): RV32 only,
# the only variant with cold code ----
TEST_SUITES += e2e-coldguard-qemu-rv32
.PHONY: test-suite-e2e-coldguard-qemu-rv32
test-suite-e2e-coldguard-qemu-rv32: rel-images-qemu-rv32 $(O)/tests/e2e/stackmark
	$(call rel-run,e2e-coldguard-qemu-rv32,tests/e2e/coldguard.sh,qemu-rv32,300)

$(O)/tests/e2e/stackmark: tests/e2e/stackmark.c $(HOST_LIB) $(HOST_HDRS)
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) $(HOST_CFLAGS) $< $(HOST_LIB) -o $@

# ---- soak ----
SOAK_COMMANDS       ?= 100000
SOAK_SHORT_COMMANDS ?= 2000
SOAK_BIN := $(O)/tests/e2e/soak

$(SOAK_BIN): tests/e2e/soak.c $(HOST_LIB) $(HOST_HDRS)
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) $(HOST_CFLAGS) $< $(HOST_LIB) -o $@

TEST_SUITES += $(addprefix soak-,$(REL_BOARDS))
.PHONY: soak $(addprefix soak-long-,$(REL_BOARDS)) $(addprefix test-suite-soak-,$(REL_BOARDS))
$(addprefix test-suite-soak-,$(REL_BOARDS)): test-suite-soak-%: rel-images-% $(SOAK_BIN)
	@mkdir -p $(O)/tests
	$(Q)timeout 900 tests/e2e/soak.sh $* $(O) $(SOAK_SHORT_COMMANDS) > $(O)/tests/soak-$*.out 2> $(O)/tests/soak-$*.stderr; rc=$$?; \
	grep -E '^(PASS|FAIL|HANG|SKIP): ' $(O)/tests/soak-$*.out > $(O)/tests/soak-$*.log; \
	if [ $$rc -eq 124 ]; then echo "HANG: soak-$*/suite (900 s)" >> $(O)/tests/soak-$*.log; \
	elif [ $$rc -ne 0 ]; then echo "FAIL: soak-$*/suite exit $$rc" >> $(O)/tests/soak-$*.log; fi

# `make soak`: SOAK_COMMANDS on each board (both run even when one fails), its figures on the
# terminal and in $(O)/soak/; fails when any board's soak did.
soak: $(addprefix soak-long-,$(REL_BOARDS))
	@echo "soak: $$(cat $(addprefix $(O)/soak/soak-,$(addsuffix .log,$(REL_BOARDS))) | grep -c '^PASS:') passed, $$(cat $(addprefix $(O)/soak/soak-,$(addsuffix .log,$(REL_BOARDS))) | grep -cE '^(FAIL|HANG):') failed"
	$(Q)! cat $(addprefix $(O)/soak/soak-,$(addsuffix .log,$(REL_BOARDS))) | grep -qE '^(FAIL|HANG):'
$(addprefix soak-long-,$(REL_BOARDS)): soak-long-%: rel-images-% $(SOAK_BIN)
	@mkdir -p $(O)/soak
	$(Q)timeout 3600 tests/e2e/soak.sh $* $(O) $(SOAK_COMMANDS) | tee $(O)/soak/soak-$*.log

# ---- fuzzing: every target, FUZZ_SECONDS each ----
# Each component's fuzz target keeps its own knob (FUZZ_MOVER_SECS, ...); `make fuzz` runs them
# all for FUZZ_SECONDS unless one was set on the command line or in the environment.
FUZZ_SECONDS ?= 60
$(foreach v,FUZZ_HOST_SECS FUZZ_MOVER_SECS FUZZ_SERVICE_SECS,$(if $(filter file,$(origin $(v))),$(eval $(v) = $$(FUZZ_SECONDS))))
fuzz: fuzz-model-mesh fuzz-faults

FUZZ_FAULTS_BIN  := $(O)/fuzz/faults/fuzz_faults
# kh_parse_fault lives in host/node.c, which needs the rest of the library (its links, the clock).
$(FUZZ_FAULTS_BIN): fuzz/faults/fuzz_faults.c $(HOST_SRCS) $(HOST_SHARED) $(HOST_GEN) $(MODEL_SRCS) $(HOST_HDRS) $(wildcard model/*.h model/include/*.h)
	@mkdir -p $(@D)
	$(Q)$(FUZZ_CC) -std=c11 -g -O1 -Wall -Wextra -Werror -fsanitize=fuzzer,address,undefined \
	  -fno-sanitize-recover=all $(MODEL_INC) $(HOST_INC) $< $(HOST_SRCS) $(HOST_SHARED) $(MODEL_SRCS) $(MODEL_LDLIBS) -o $@

.PHONY: fuzz-faults
fuzz-faults: $(FUZZ_FAULTS_BIN)
	@mkdir -p $(O)/fuzz/faults/corpus
	$(FUZZ_FAULTS_BIN) -max_total_time=$(FUZZ_SECONDS) -max_len=256 $(O)/fuzz/faults/corpus fuzz/faults/seeds

# Smoke runs of the targets no other suite smoke-runs: the faults= grammar and the processor's
# access decoder (fuzz_cpu). The host, mover, service, host-port and agent targets are smoked
# by fuzz-smoke-host, fuzz-smoke-mover, fuzz-smoke-service, model-core and model-mesh.
TEST_SUITES += fuzz-smoke-reliability
.PHONY: test-suite-fuzz-smoke-reliability
test-suite-fuzz-smoke-reliability:
	@mkdir -p $(O)/tests $(O)/fuzz/faults/smoke $(O)/fuzz/cpu/smoke
	$(Q)log=$(O)/tests/fuzz-smoke-reliability.log; : > $$log; \
	for t in "faults $(FUZZ_FAULTS_BIN) -runs=20000 -max_len=256 $(O)/fuzz/faults/smoke fuzz/faults/seeds" \
	         "cpu $(MODEL_FUZZ_CPU_BIN) -runs=3000 -rss_limit_mb=4096 $(O)/fuzz/cpu/smoke"; do \
	  set -- $$t; n=$$1; b=$$2; shift 2; \
	  if ! $(MAKE) --no-print-directory $$b > $$log.$$n.build 2>&1; then \
	    echo "FAIL: fuzz-smoke-reliability/$$n does not build: $$(tail -c 300 $$log.$$n.build | tr '\n' '|')" >> $$log; continue; fi; \
	  if timeout 300 $$b -seed=1 "$$@" > $$log.$$n.out 2>&1; then echo "PASS: fuzz-smoke-reliability/$$n" >> $$log; \
	  else echo "FAIL: fuzz-smoke-reliability/$$n $$(grep -m1 -E 'ERROR|SUMMARY|deadly' $$log.$$n.out)" >> $$log; fi; \
	done

# ---- libkohaku's fault injection against the model in-process (native, ASan + UBSan) ----
REL_UNIT_BIN := $(O)/tests/e2e/test_inject
$(REL_UNIT_BIN): tests/e2e/test_inject.c tests/host/host/model_transport.c tests/host/host/model_transport.h tests/host/host/ht.h $(HOST_LIB_ASAN) $(MODEL_ASAN_LIB) $(HOST_HDRS)
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) $(HOST_CFLAGS:-O2=-O1) $(HOST_SAN) -Imodel/include -Itests/host/host \
	  tests/e2e/test_inject.c tests/host/host/model_transport.c $(HOST_LIB_ASAN) $(MODEL_ASAN_LIB) $(MODEL_LDLIBS) -o $@

TEST_SUITES += reliability-unit
.PHONY: test-suite-reliability-unit
test-suite-reliability-unit: $(REL_UNIT_BIN)
	@mkdir -p $(O)/tests
	$(Q)timeout 120 $(REL_UNIT_BIN) > $(O)/tests/reliability-unit.log 2> $(O)/tests/reliability-unit.stderr; rc=$$?; \
	if [ $$rc -eq 124 ]; then echo "HANG: reliability-unit/test_inject" >> $(O)/tests/reliability-unit.log; \
	elif [ $$rc -ne 0 ] && ! grep -q '^FAIL' $(O)/tests/reliability-unit.log; then \
	  echo "FAIL: reliability-unit/test_inject exit $$rc: $$(tail -c 300 $(O)/tests/reliability-unit.stderr | tr '\n' '|')" >> $(O)/tests/reliability-unit.log; fi
