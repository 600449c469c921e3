# model/mover.mk — the mover model's native test suite model-mover (tests/model-mover/),
# docs/hardware.md §3. Included from model/model.mk.
#   make test-suite-model-mover    build and run it; writes $(O)/tests/model-mover.log
# The suite links model/mover.c alone with a test-only environment (fake memory, manual time),
# under ASan + UBSan: the mover reaches nothing but km_mover_env.

MOVER_TEST_SRCS := model/mover.c tests/model-mover/fake_env.c tests/model-mover/test_mover.c
MOVER_TEST_DEPS := $(MOVER_TEST_SRCS) tests/model-mover/fake_env.h model/mover.h \
                   include/kohaku/mover_regs.h include/kohaku/bits.h include/kohaku/cpu_map.h \
                   include/kohaku/agent_regs.h
MOVER_TEST_BIN  := $(O)/tests/model-mover/test_mover

$(MOVER_TEST_BIN): $(MOVER_TEST_DEPS)
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $(MODEL_WARN) -O1 -g $(MODEL_SAN) -Iinclude -Imodel -Itests/model-mover \
		$(MOVER_TEST_SRCS) -o $@

TEST_SUITES += model-mover
.PHONY: test-suite-model-mover
test-suite-model-mover: $(MOVER_TEST_BIN)
	$(call model-test-run,model-mover,$(MOVER_TEST_BIN))
