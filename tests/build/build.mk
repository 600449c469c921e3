# build.mk — the build-check suite: shows the real firmware build failing on
# an image that outgrows a window or holds an instruction its core lacks, and passing on good
# images. Each tests/build/case_*.c replaces service/ in an otherwise normal firmware build.

.PHONY: test-suite-buildchecks
TEST_SUITES += buildchecks
test-suite-buildchecks:
	@mkdir -p $(O)/tests
	$(Q)MAKE="$(MAKE)" tests/build/run.sh $(O)/buildchecks > $(O)/tests/buildchecks.log 2>&1; \
	  sed 's/^/  /' $(O)/tests/buildchecks.log | grep -E '^  (PASS|FAIL|HANG):' || true
