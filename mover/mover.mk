# mover.mk — the mover layer's native builds (docs/mover.md). The firmware build
# (mk/firmware.mk) picks up mover/*.c and mover/rv32|rv64/*.c by itself.
#   make test-suite-host-mover    host unit tests (ASan+UBSan) of builder, validator, text form
#                                 (test_mover), and of replay with the RV32 port against the
#                                 model's mover through a hal stand-in (test_replay), and the
#                                 validator against its frozen predecessor (test_diff)
#   make fuzz-mover               libFuzzer on the validator and the text parser, bounded time
#   make test-suite-fuzz-smoke-mover   a short fuzz run (FUZZ_SMOKE_RUNS inputs) inside make test

KMV_PURE_SRCS := mover/validate.c mover/build.c mover/desc_text.c mover/seal.c
KMV_PURE_DEPS := $(KMV_PURE_SRCS) mover/kmv.h include/kohaku/desc_list.h include/kohaku/status.h \
                 include/kohaku/mover_regs.h include/kohaku/bits.h
KMV_HOST_CFLAGS := -std=c11 -g -O1 -Wall -Wextra -Werror -fsanitize=address,undefined \
                   -fno-sanitize-recover=all -fno-omit-frame-pointer -Iinclude -Imover
KMV_TEST_BIN  := $(O)/tests/host/mover/test_mover
KMV_REPLAY_BIN := $(O)/tests/host/mover/test_replay
# The validator against its frozen predecessor (fuzz/mover/ref/ref_validate.c) on generated lists.
KMV_DIFF_BIN  := $(O)/tests/host/mover/test_diff
KMV_REF_SRC   := fuzz/mover/ref/ref_validate.c
KMV_REPLAY_SRCS := tests/host/mover/test_replay.c tests/host/mover/fakehal.c mover/replay.c \
                   mover/rv32/port.c mover/validate.c model/mover.c

$(KMV_TEST_BIN): tests/host/mover/test_mover.c tests/host/mover/ht.h $(KMV_PURE_DEPS)
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) $(KMV_HOST_CFLAGS) -Itests/host/mover tests/host/mover/test_mover.c $(KMV_PURE_SRCS) -o $@

$(KMV_DIFF_BIN): tests/host/mover/test_diff.c tests/host/mover/ht.h $(KMV_REF_SRC) $(KMV_PURE_DEPS)
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) $(KMV_HOST_CFLAGS) -Itests/host/mover tests/host/mover/test_diff.c mover/validate.c \
	    $(KMV_REF_SRC) -o $@

# The fake hal's include directory comes first, so "hal/hal.h" is the stand-in.
$(KMV_REPLAY_BIN): $(KMV_REPLAY_SRCS) tests/host/mover/ht.h tests/host/mover/fakehal.h \
        tests/host/mover/fakehal/hal/hal.h mover/kmv_port.h model/mover.h $(KMV_PURE_DEPS)
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) $(KMV_HOST_CFLAGS) -Itests/host/mover/fakehal -Itests/host/mover -Imodel -Iboot \
	    $(KMV_REPLAY_SRCS) -o $@

TEST_SUITES += host-mover
.PHONY: test-suite-host-mover
test-suite-host-mover: $(KMV_TEST_BIN) $(KMV_REPLAY_BIN) $(KMV_DIFF_BIN)
	@mkdir -p $(O)/tests
	$(Q): > $(O)/tests/host-mover.log; \
	for t in $(KMV_TEST_BIN) $(KMV_REPLAY_BIN) $(KMV_DIFF_BIN); do n=$$(basename $$t); out=$(O)/tests/host-mover.$$n; \
	  timeout 60 $$t > $$out.out 2> $$out.stderr; rc=$$?; cat $$out.out >> $(O)/tests/host-mover.log; \
	  if [ $$rc -eq 124 ]; then echo "HANG: host-mover/$$n" >> $(O)/tests/host-mover.log; \
	  elif [ $$rc -ne 0 ] && ! grep -q '^FAIL:' $$out.out; then \
	    echo "FAIL: host-mover/$$n exit $$rc: $$(tail -c 300 $$out.stderr | tr '\n' '|')" >> $(O)/tests/host-mover.log; fi; \
	done

# ---- Fuzzing (docs/design.md §7 layer 4): Debian's clang with libFuzzer. ----
FUZZ_CC          ?= clang
FUZZ_SMOKE_RUNS  ?= 20000
FUZZ_MOVER_SECS  ?= 120
KMV_FUZZ_BIN     := $(O)/fuzz/mover/fuzz_validate

$(KMV_FUZZ_BIN): fuzz/mover/fuzz_validate.c $(KMV_REF_SRC) $(KMV_PURE_DEPS)
	@mkdir -p $(@D)
	$(Q)$(FUZZ_CC) -std=c11 -g -O1 -Wall -Wextra -Werror -fsanitize=fuzzer,address,undefined \
	    -fno-sanitize-recover=all -Iinclude -Imover fuzz/mover/fuzz_validate.c $(KMV_PURE_SRCS) \
	    $(KMV_REF_SRC) -o $@

.PHONY: fuzz-mover fuzz
fuzz: fuzz-mover
fuzz-mover: $(KMV_FUZZ_BIN)
	@mkdir -p $(O)/fuzz/mover/corpus
	$(KMV_FUZZ_BIN) -max_total_time=$(FUZZ_MOVER_SECS) -max_len=49200 $(O)/fuzz/mover/corpus fuzz/mover/seeds

TEST_SUITES += fuzz-smoke-mover
.PHONY: test-suite-fuzz-smoke-mover
test-suite-fuzz-smoke-mover: $(KMV_FUZZ_BIN)
	@mkdir -p $(O)/tests $(O)/fuzz/mover/smoke
	$(Q)if timeout 300 $(KMV_FUZZ_BIN) -runs=$(FUZZ_SMOKE_RUNS) -seed=1 -max_len=4096 \
	      $(O)/fuzz/mover/smoke fuzz/mover/seeds > $(O)/tests/fuzz-smoke-mover.out 2>&1; then \
	  echo "PASS: fuzz-smoke-mover/validate_$(FUZZ_SMOKE_RUNS)_runs" > $(O)/tests/fuzz-smoke-mover.log; \
	else echo "FAIL: fuzz-smoke-mover/validate_$(FUZZ_SMOKE_RUNS)_runs $$(grep -m1 -E 'ERROR|SUMMARY|Assert' $(O)/tests/fuzz-smoke-mover.out)" \
	  > $(O)/tests/fuzz-smoke-mover.log; fi

# RV32 firmware objects of this layer: -msave-restore (register saves and restores become calls
# to libgcc's __riscv_save_N/__riscv_restore_N, which dispatch/ links into the image already),
# for the 8 KB window (docs/mover.md "Size and cost"). The hot loops (mover/rv32/port.c) are
# leaves without saved registers, so a replayed write costs the same.
$(foreach b,$(BOARDS),$(if $(filter rv32,$(FW_V_$(b))),\
  $(eval $(FW_O)/$(b)/obj/mover/%.c.o: FW_CFLAGS += -msave-restore)))
