# dispatch/dispatch.mk — native tests of the dispatch layer under ASan/UBSan (docs/design.md §7 layer 1).
#   make test-suite-host-dispatch        pure logic (dispatch/kdp_flit.h, units.c): tests/host/dispatch/test_kdp_flit.c
#   make test-suite-host-dispatch-model  dispatch/*.c against the device model library through a
#                                        hal stand-in (tests/host/dispatch/fakehal.c): test_kdp_model.c
#   make dispatch-size                   this layer's text in each QEMU board's image with the queue
# The firmware build picks dispatch/*.c up by itself (mk/firmware.mk); on-target tests live in
# tests/target/dispatch/ (target.mk).

KDP_HOST_CFLAGS := -std=c11 -Wall -Wextra -Werror -O1 -g -fsanitize=address,undefined \
                   -fno-omit-frame-pointer -fno-sanitize-recover=undefined -Iinclude -Idispatch
KDP_SRCS        := dispatch/dispatch.c dispatch/enum.c dispatch/recover.c dispatch/units.c dispatch/wait.c
KDP_HDRS        := dispatch/dispatch.h dispatch/kdp_flit.h include/kohaku/status.h \
                   include/kohaku/flit.h include/kohaku/agent_regs.h
KDP_T           := $(O)/tests/host/dispatch

$(KDP_T)/test_kdp_flit: tests/host/dispatch/test_kdp_flit.c dispatch/units.c $(KDP_HDRS)
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) $(KDP_HOST_CFLAGS) $< dispatch/units.c -o $@

# Built twice, once per board policy of one-target dispatch (board/common/rv64.h, rv32.h
# BOARD_DISPATCH_STREAM_LOOP): test_kdp_model with RV64's (kdp_stream), test_kdp_model_rv32
# with RV32's (the several-target loop in stream mode), so RV32's algorithm runs off target too.
# (The word size itself stays 64-bit: the staging copy's width and the NODE_STATUS read in
# halves are RV32's only on target.)
KDP_MODEL_DEPS := tests/host/dispatch/fakehal.c tests/host/dispatch/fakehal.h \
                  tests/host/dispatch/fakehal/hal/hal.h $(KDP_SRCS) $(KDP_HDRS) $(MODEL_ASAN_LIB)
kdp-model-cc = $(HOSTCC) $(KDP_HOST_CFLAGS) -DBOARD_DISPATCH_STREAM_LOOP=$(1) \
    -Itests/host/dispatch/fakehal -Itests/host/dispatch -Iboot -Imodel -Imodel/include \
    tests/host/dispatch/test_kdp_model.c tests/host/dispatch/fakehal.c $(KDP_SRCS) $(MODEL_ASAN_LIB) -lm
$(KDP_T)/test_kdp_model: tests/host/dispatch/test_kdp_model.c $(KDP_MODEL_DEPS)
	@mkdir -p $(@D)
	$(Q)$(call kdp-model-cc,1) -o $@
$(KDP_T)/test_kdp_model_rv32: tests/host/dispatch/test_kdp_model.c $(KDP_MODEL_DEPS)
	@mkdir -p $(@D)
	$(Q)$(call kdp-model-cc,0) -o $@

# kdp-run(suite, binaries): one log line per test; a binary that dies or hangs is a line too.
define kdp-run
	@mkdir -p $(O)/tests
	$(Q): > $(O)/tests/$(1).log; \
	for t in $(2); do \
	  n=$$(basename $$t); \
	  timeout 120 $$t >> $(O)/tests/$(1).log 2> $(O)/tests/$(1).$$n.stderr; rc=$$?; \
	  if [ $$rc -eq 124 ]; then echo "HANG: $(1)/$$n" >> $(O)/tests/$(1).log; \
	  elif [ $$rc -ne 0 ]; then echo "FAIL: $(1)/$$n exited with status $$rc" >> $(O)/tests/$(1).log; fi; \
	done; \
	grep -E '^(FAIL|HANG): ' $(O)/tests/$(1).log || true
endef

TEST_SUITES += host-dispatch host-dispatch-model
.PHONY: test-suite-host-dispatch test-suite-host-dispatch-model
$(KDP_T)/npu_ref: tests/host/dispatch/npu_ref.c
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) -std=c11 -O1 -Wall -Wextra -Werror $< -lm -o $@

# The NPU test's expected probabilities (tests/target/dispatch/npu_expect.h) must be what the
# independent host reference prints today.
test-suite-host-dispatch: $(KDP_T)/test_kdp_flit $(KDP_T)/npu_ref
	$(call kdp-run,host-dispatch,$(KDP_T)/test_kdp_flit)
	$(Q)if $(KDP_T)/npu_ref | cmp -s - tests/target/dispatch/npu_expect.h; then \
	  echo "PASS: host-dispatch/npu_expect_current"; \
	else echo "FAIL: host-dispatch/npu_expect_current regenerate with npu_ref"; fi >> $(O)/tests/host-dispatch.log

test-suite-host-dispatch-model: $(KDP_T)/test_kdp_model $(KDP_T)/test_kdp_model_rv32
	$(call kdp-run,host-dispatch-model,$^)

# RV32 firmware objects of this layer only: -msave-restore (each function's register save and
# restore become calls to libgcc's shared __riscv_save_N/__riscv_restore_N, plain RV32I). The
# 8 KB window needs the bytes (docs/dispatch.md "Size"); the staging loop is a leaf without
# saved registers, so the per-flit cost stays. In the LTO image the link applies it to every
# function anyway (mk/firmware.mk FW_LTO_LINK_rv32), so this flag decides nothing there.
$(foreach b,$(BOARDS),$(if $(filter rv32,$(FW_V_$(b))),\
  $(eval $(FW_O)/$(b)/obj/dispatch/%.c.o: FW_CFLAGS += -msave-restore)))

# make dispatch-size: what this layer puts into each QEMU board's image with the command queue
# (docs/dispatch.md "Size"). The board's own objects and libraries, linked past a window overflow
# (--noinhibit-exec; never an image to run) into $(O)/<board>/dispatch-size.*.
.PHONY: dispatch-size
dispatch-size: $(foreach b,qemu-rv32 qemu-rv64,$(FW_O)/$(b)/dispatch-size.map)
	$(Q)for b in qemu-rv32 qemu-rv64; do echo "$$b:"; dispatch/size.sh $(FW_O)/$$b/dispatch-size.map; done

$(foreach b,qemu-rv32 qemu-rv64,$(eval \
$(FW_O)/$(b)/dispatch-size.map: $$(FW_CRT0_$(b)) $$(call fw_svc_objs,$(b)) $(FW_O)/$(b)/libfw.a \
        $(FW_O)/$(b)/fw.ld dispatch/size.sh ; \
	$$(Q)rm -f $$@; $$(CC) $$(FW_FLAGS_$(b)) -nostdlib -nostartfiles -static -T $(FW_O)/$(b)/fw.ld \
	    -Wl,--gc-sections -Wl,--no-warn-rwx-segments -Wl,--noinhibit-exec \
	    -Wl,-Map=$$@ -o $(FW_O)/$(b)/dispatch-size.elf $$(FW_CRT0_$(b)) \
	    $$(call fw_svc_objs,$(b)) -Wl,--start-group $$(FW_LIBS_$(b)) -Wl,--end-group \
	    2>&1 | grep -v -e 'will not fit in region' -e 'region .* overflowed' \
	        -e 'instruction window overflow' >&2; test -f $$@))
