# np.mk — the NPU unit's native test suite `model-np` (docs/npu.md §9), ASan + UBSan:
#   np_test       model/np.c + model/npu_num.c alone, over tests/model-np/fake_cu.c (a test-only
#                 framework and memory agent), against an independent reference;
#   np_real_test  the NPU inside the whole model library (real cu.c, mesh, agents).
# Registered through tests/model/model-np.mk (model/model.mk includes tests/model/*.mk).

NP_TEST_BIN    := $(O)/model-np/np_test
NP_REAL_BIN    := $(O)/model-np/np_real_test
NP_TEST_SRCS   := tests/model-np/np_test.c tests/model-np/fake_cu.c model/np.c model/npu_num.c
NP_TEST_CFLAGS := -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -O1 -g \
                  -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all \
                  -Iinclude -Imodel -Imodel/include

$(NP_TEST_BIN): $(NP_TEST_SRCS) $(wildcard tests/model-np/*.h) model/np.h model/npu_num.h \
		model/unit.h include/kohaku/npu_isa.h include/kohaku/flit.h include/kohaku/bits.h
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) $(NP_TEST_CFLAGS) -o $@ $(NP_TEST_SRCS) -lm

$(NP_REAL_BIN): tests/model-np/np_real_test.c tests/model-np/fp16_ref.h tests/model/kmtest.h tests/model/kmagent.h $(MODEL_ASAN_LIB)
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) $(NP_TEST_CFLAGS) -Itests/model $< $(MODEL_ASAN_LIB) -lm -o $@

TEST_SUITES += model-np
.PHONY: test-suite-model-np
# One line per test from each binary; a binary that does not build, crashes or hangs still
# leaves a FAIL / HANG line.
test-suite-model-np:
	$(Q)mkdir -p $(O)/tests; log=$(O)/tests/model-np.log; : >$$log; \
	for b in $(NP_TEST_BIN) $(NP_REAL_BIN); do \
	  n=$$(basename $$b); \
	  if ! $(MAKE) --no-print-directory $$b >$$log.$$n.build 2>&1; then \
	    echo "FAIL: model-np.$$n does not build (see $$log.$$n.build)" >>$$log; continue; fi; \
	  timeout 300 $$b >>$$log 2>$$log.$$n.stderr; rc=$$?; \
	  if [ $$rc -eq 124 ]; then echo "HANG: model-np.$$n (timeout 300 s)" >>$$log; \
	  elif [ $$rc -gt 1 ]; then echo "FAIL: model-np.$$n exited with status $$rc (see $$log.$$n.stderr)" >>$$log; fi; \
	done; \
	grep -E '^(FAIL|HANG): ' $$log || true
