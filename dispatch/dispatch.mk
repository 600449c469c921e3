# dispatch/dispatch.mk — native tests of the dispatch layer's pure logic (dispatch/kdp_flit.c)
# under ASan/UBSan: suite host-dispatch (tests/host/dispatch/test_*.c). The firmware build
# picks dispatch/*.c up by itself (mk/firmware.mk); on-target tests live in tests/target/dispatch/.
#   make test-suite-host-dispatch

KDP_HOST_CFLAGS := -std=c11 -Wall -Wextra -Werror -O1 -g -fsanitize=address,undefined \
                   -fno-omit-frame-pointer -fno-sanitize-recover=undefined -Iinclude -Idispatch
KDP_HOST_TESTS  := $(patsubst tests/host/dispatch/%.c,$(O)/tests/host/dispatch/%,$(wildcard tests/host/dispatch/test_*.c))

$(O)/tests/host/dispatch/%: tests/host/dispatch/%.c dispatch/kdp_flit.c dispatch/kdp_flit.h include/kohaku/status.h include/kohaku/flit.h
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) $(KDP_HOST_CFLAGS) $< dispatch/kdp_flit.c -o $@

TEST_SUITES += host-dispatch
.PHONY: test-suite-host-dispatch
test-suite-host-dispatch: $(KDP_HOST_TESTS)
	@mkdir -p $(O)/tests
	$(Q): > $(O)/tests/host-dispatch.log; \
	for t in $(KDP_HOST_TESTS); do \
	  n=$$(basename $$t); \
	  timeout 60 $$t >> $(O)/tests/host-dispatch.log 2> $(O)/tests/host-dispatch.$$n.stderr; rc=$$?; \
	  if [ $$rc -eq 124 ]; then echo "HANG: host-dispatch/$$n" >> $(O)/tests/host-dispatch.log; \
	  elif [ $$rc -ne 0 ]; then echo "FAIL: host-dispatch/$$n exited with status $$rc" >> $(O)/tests/host-dispatch.log; fi; \
	done; \
	grep -E '^(FAIL|HANG): ' $(O)/tests/host-dispatch.log || true
