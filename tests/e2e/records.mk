# tests/e2e/records.mk — records end to end through kactl on both QEMU boards
# (tests/e2e/records.sh; docs/host-interface.md "Records"). Included from tests/tests.mk.
TEST_SUITES += $(addprefix e2e-records-,$(REL_BOARDS))
.PHONY: $(addprefix test-suite-e2e-records-,$(REL_BOARDS))
$(addprefix test-suite-e2e-records-,$(REL_BOARDS)): test-suite-e2e-records-%: rel-images-%
	$(call rel-run,e2e-records-$*,tests/e2e/records.sh,$*,600)
