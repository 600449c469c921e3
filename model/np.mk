# np.mk — the NPU unit's native test suite `model-np` (docs/npu.md §9): model/np.c and
# model/npu_num.c against tests/model-np (an independent reference and a fake framework),
# built with sanitizers. Included from model/model.mk.

NP_TEST_BIN    := $(O)/model-np/np_test
NP_TEST_SRCS   := tests/model-np/np_test.c tests/model-np/fake_cu.c model/np.c model/npu_num.c
NP_TEST_CFLAGS := -std=c11 -Wall -Wextra -Werror -O1 -g -fno-omit-frame-pointer -Wshadow -Wstrict-prototypes \
                  -fsanitize=address,undefined -fno-sanitize-recover=all \
                  -Iinclude -Imodel -Imodel/include

$(NP_TEST_BIN): $(NP_TEST_SRCS) $(wildcard tests/model-np/*.h) model/np.h model/npu_num.h \
		model/unit.h include/kohaku/npu_isa.h include/kohaku/flit.h include/kohaku/bits.h
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) $(NP_TEST_CFLAGS) -o $@ $(NP_TEST_SRCS) -lm

TEST_SUITES += model-np
.PHONY: test-suite-model-np
# One line per test from the binary; a crash or a hang still leaves a FAIL / HANG line.
test-suite-model-np: $(NP_TEST_BIN)
	@mkdir -p $(O)/tests
	$(Q)rc=0; timeout 300 $(NP_TEST_BIN) > $(O)/tests/model-np.log 2> $(O)/tests/model-np.err || rc=$$?; \
	if [ $$rc -eq 124 ]; then echo "HANG: model-np (timeout 300 s)" >> $(O)/tests/model-np.log; \
	elif [ $$rc -gt 1 ]; then echo "FAIL: model-np exited $$rc (see model-np.err)" >> $(O)/tests/model-np.log; fi; \
	cat $(O)/tests/model-np.log
