# model/model.mk — the device model library (docs/hardware.md §10.4) and its native tests.
#   make model              $(O)/model/libkmodel.a (position independent, for the QEMU glue)
#   make test-suite-model-core   the model-core suite: tests/model/core_*.c under ASan/UBSan
# Sources are every model/*.c, so a part lands by committing its file. Other model suites
# register themselves in tests/model/<suite>.mk using MODEL_TEST_CFLAGS, MODEL_ASAN_LIB and
# the model-test-run macro below.

MODEL_SRCS      ?= $(wildcard model/*.c)
MODEL_INC       := -Iinclude -Imodel -Imodel/include
MODEL_WARN      := -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes
MODEL_CFLAGS    := $(MODEL_WARN) -O2 -g -fPIC $(MODEL_INC)
MODEL_SAN       := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
MODEL_ASAN_CFLAGS := $(MODEL_WARN) -O1 -g $(MODEL_SAN) $(MODEL_INC)
MODEL_TEST_CFLAGS := $(MODEL_ASAN_CFLAGS) -Itests/model
# What a program linking libkmodel needs after it (the NPU's numerics use libm).
MODEL_LDLIBS    := -lm

MODEL_OBJS      := $(patsubst model/%.c,$(O)/model/obj/%.o,$(MODEL_SRCS))
MODEL_ASAN_OBJS := $(patsubst model/%.c,$(O)/model/asan/%.o,$(MODEL_SRCS))
MODEL_LIB       := $(O)/model/libkmodel.a
MODEL_ASAN_LIB  := $(O)/model/libkmodel-asan.a

.PHONY: model
model: $(MODEL_LIB)

$(O)/model/obj/%.o: model/%.c
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $(MODEL_CFLAGS) -MMD -MP -c $< -o $@

$(O)/model/asan/%.o: model/%.c
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $(MODEL_ASAN_CFLAGS) -MMD -MP -c $< -o $@

# Rebuilt from scratch so an object whose source was removed leaves the archive.
$(MODEL_LIB): $(MODEL_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^

$(MODEL_ASAN_LIB): $(MODEL_ASAN_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^

-include $(MODEL_OBJS:.o=.d) $(MODEL_ASAN_OBJS:.o=.d)

# $(call model-test-run,SUITE,BINARIES): run each test binary (60 s each), collect its
# PASS/FAIL lines into $(O)/tests/SUITE.log; a binary that dies or hangs is a FAIL/HANG line.
define model-test-run
	@mkdir -p $(O)/tests
	$(Q): > $(O)/tests/$(1).log; \
	for t in $(2); do \
	  n=$$(basename $$t); \
	  timeout 60 $$t >> $(O)/tests/$(1).log 2> $(O)/tests/$(1).$$n.stderr; rc=$$?; \
	  if [ $$rc -eq 124 ]; then echo "HANG: $$n" >> $(O)/tests/$(1).log; \
	  elif [ $$rc -ne 0 ]; then echo "FAIL: $$n exited with status $$rc (see $(O)/tests/$(1).$$n.stderr)" >> $(O)/tests/$(1).log; fi; \
	done; \
	grep -E '^(FAIL|HANG): ' $(O)/tests/$(1).log || true
endef

# ---- model-core: model.c, cpu.c, memory.c, hostport.c ----
MODEL_CORE_TESTS := $(patsubst tests/model/%.c,$(O)/tests/model/%,$(wildcard tests/model/core_*.c))

$(O)/tests/model/core_%: tests/model/core_%.c tests/model/kmtest.h tests/model/kmagent.h $(MODEL_ASAN_LIB)
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $(MODEL_TEST_CFLAGS) $< $(MODEL_ASAN_LIB) $(MODEL_LDLIBS) -o $@

TEST_SUITES += model-core
.PHONY: test-suite-model-core
test-suite-model-core: $(MODEL_CORE_TESTS)
	$(call model-test-run,model-core,$(MODEL_CORE_TESTS))
	-$(Q)$(MAKE) --no-print-directory model-core-fuzz-smoke || \
	  echo "FAIL: fuzz_hostport_smoke does not build" >> $(O)/tests/model-core.log

# ---- fuzzing the host port (docs/design.md §7 layer 4) ----
# `make fuzz` runs it for FUZZ_SECONDS; model-core runs a short deterministic smoke of it.
FUZZ_CC         ?= clang
FUZZ_SECONDS    ?= 60
MODEL_FUZZ_BIN  := $(O)/tests/model/fuzz_hostport

$(MODEL_FUZZ_BIN): tests/model/fuzz_hostport.c $(MODEL_SRCS) $(wildcard model/*.h model/include/*.h include/kohaku/*.h)
	@mkdir -p $(dir $@)
	$(Q)$(FUZZ_CC) -std=c11 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		$(MODEL_INC) tests/model/fuzz_hostport.c $(MODEL_SRCS) $(MODEL_LDLIBS) -o $@

.PHONY: fuzz-model-hostport
fuzz-model-hostport: $(MODEL_FUZZ_BIN)
	@mkdir -p $(O)/fuzz/hostport
	$(MODEL_FUZZ_BIN) -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=4096 $(O)/fuzz/hostport
fuzz: fuzz-model-hostport

MODEL_FUZZ_CPU_BIN := $(O)/tests/model/fuzz_cpu
$(MODEL_FUZZ_CPU_BIN): tests/model/fuzz_cpu.c $(MODEL_SRCS) $(wildcard model/*.h model/include/*.h include/kohaku/*.h)
	@mkdir -p $(dir $@)
	$(Q)$(FUZZ_CC) -std=c11 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		$(MODEL_INC) tests/model/fuzz_cpu.c $(MODEL_SRCS) $(MODEL_LDLIBS) -o $@

.PHONY: fuzz-model-cpu
fuzz-model-cpu: $(MODEL_FUZZ_CPU_BIN)
	@mkdir -p $(O)/fuzz/cpu
	$(MODEL_FUZZ_CPU_BIN) -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=4096 $(O)/fuzz/cpu
fuzz: fuzz-model-cpu

# The smoke: 5,000 inputs from a fixed seed; one PASS/FAIL line appended to model-core.log.
.PHONY: model-core-fuzz-smoke
model-core-fuzz-smoke: $(MODEL_FUZZ_BIN)
	@mkdir -p $(O)/tests
	$(Q)if timeout 300 $(MODEL_FUZZ_BIN) -runs=5000 -seed=1 -rss_limit_mb=4096 \
	      > $(O)/tests/model-core.fuzz.stderr 2>&1; then \
	  echo "PASS: fuzz_hostport_smoke" >> $(O)/tests/model-core.log; \
	else echo "FAIL: fuzz_hostport_smoke (see $(O)/tests/model-core.fuzz.stderr)" >> $(O)/tests/model-core.log; fi

-include $(wildcard tests/model/*.mk)
-include model/mover.mk
