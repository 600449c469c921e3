# rv32-wide.mk — DEVELOPMENT ONLY (docs/qemu.md "Wide RV32 window", docs/firmware.md "The wide
# RV32 image"): the RV32 image with the command queue, run end to end before it fits BOARD.md's
# 8 KB window. Board qemu-rv32-wide (board/qemu-rv32-wide/board.h) is qemu-rv32 with
# BOARD_SERVICE_QUEUE 1 and a 16 KB window; scripts/qemu-hostport.sh starts QEMU with imem=16384
# for it and exports KACTL_RV32_IMEM_BYTES so kactl and kbench load into the same window.
#   make firmware-qemu-rv32-wide  $(O)/qemu-rv32-wide/fw.elf (+ .size, .map, .lst): qemu-rv32's objects,
#                                 main.c and the linker script rebuilt for the board
#   make test-rv32-wide           the four RV32 end-to-end suites against it (e2e, e2e-faults,
#                                 e2e-badinput, soak short) and tests/service/smoke.py's raw
#                                 host-port smoke test, logs in $(O)/rv32-wide/; ends
#                                 "N passed, N failed" and fails on a failure or on any SKIP
#                                 (a serving image has nothing to skip)
#   make bench-rv32-wide          bench/bench.sh for it: the kbench rows (boot_insns,
#                                 host_vs_fw_ratio, serves_queue, ...); the bench images are
#                                 qemu-rv32's own (they fit 8 KB and do not use the queue)
#   make run-rv32-wide            scripts/run-demo.sh against it (`make run` once the switch is 1)
# Not a product: not in BOARDS, TEST_SUITES or BENCH_BOARDS, so `make`, `make test` and
# `make bench` never build or run it, and the product images are untouched. Included last by the
# top Makefile (it uses firmware.mk's fw_board, the host tools and bench.mk's kbench).

RV32W   := qemu-rv32-wide
RV32W_O := $(O)/rv32-wide
# firmware.mk's rules for the board: its linker script (layout.h from its BOARD_IMEM_BYTES), its
# library and the link with check-image.sh.
$(eval $(call fw_board,$(RV32W)))
# Every object but service/main.c is qemu-rv32's own, copied: the wide image is the product's
# code, compiled with whatever flags the product gets (dispatch.mk and mover.mk add per-folder
# flags for the BOARDS only). Only main.c (BOARD_SERVICE_QUEUE) and the linker script
# (BOARD_IMEM_BYTES) see board/qemu-rv32-wide; the check below keeps it that way.
RV32W_COPIED := $(FW_CRT0_$(RV32W)) $(FW_LIBOBJ_$(RV32W)) \
                $(call fw_obj,$(RV32W),$(filter-out service/main.c,$(FW_SERVICE)))
$(RV32W_COPIED): $(FW_O)/$(RV32W)/%: $(FW_O)/qemu-rv32/%
	@mkdir -p $(@D)
	$(Q)cp -f $< $@
$(call fw_obj,$(RV32W),service/main.c): FW_CFLAGS += $(FW_SVC_FLAGS_rv32)
-include $(FW_O)/$(RV32W)/layout.h.d $(patsubst %.o,%.d,$(call fw_obj,$(RV32W),service/main.c))

rv32w_comma  := ,
RV32W_SUITES := e2e-$(RV32W) e2e-faults-$(RV32W) e2e-badinput-$(RV32W) soak-$(RV32W) \
                service-smoke-$(RV32W)

# The RV32 halt-in-command image (tests/e2e/rv32_halt_stubs.c; faults.sh
# rv32_halt_in_command_explained): the real service with a replay that faults. Like the image,
# it needs the queue, so it is built for this board only; qemu-rv32 gets the same rule when it
# serves the queue (until then that test SKIPs there with the board's reason).
RV32W_HALT_OBJS := $(FW_CRT0_$(RV32W)) $(FW_O)/$(RV32W)/tests/rv32_halt_stubs.o \
                   $(call fw_obj,$(RV32W),$(filter-out service/main.c,$(FW_SERVICE)))
$(FW_O)/$(RV32W)/tests/rv32_halt_stubs.o: tests/e2e/rv32_halt_stubs.c service/kq.h
	@mkdir -p $(@D)
	$(Q)$(CC) $(FW_FLAGS_$(RV32W)) $(FW_CFLAGS) $(FW_INC_$(RV32W)) -Iservice -c $< -o $@
$(FW_O)/$(RV32W)/tests/service_halt.elf: $(RV32W_HALT_OBJS) $(FW_O)/$(RV32W)/libfw.a $(FW_O)/$(RV32W)/fw.ld scripts/check-image.sh
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(call fw_link,$(RV32W),$@,$(RV32W_HALT_OBJS))

.PHONY: test-rv32-wide bench-rv32-wide run-rv32-wide rv32-wide-images
# Everything the four scripts read: the image, QEMU, kactl/kademo, the host-side helpers, the
# RV32 queue-protocol image (e2e.sh run 4), the RV32 halt image (faults.sh rv32_halt_explained)
# and the halt-in-command image above.
rv32-wide-images: qemu host firmware-$(RV32W) $(E2E_SOAK) $(SOAK_BIN) $(O)/tests/e2e/badinput_guard \
                  $(O)/qemu-rv32/tests/service_protocol.elf qemu-smoke-images \
                  $(FW_O)/$(RV32W)/tests/service_halt.elf

# $(call rv32w-run,SUITE,COMMAND,SECONDS): COMMAND's PASS/FAIL/HANG/SKIP lines into SUITE.log.
define rv32w-run
	$(Q)timeout $(3) $(2) > $(RV32W_O)/$(1).out 2> $(RV32W_O)/$(1).stderr; rc=$$?; \
	grep -E '^(PASS|FAIL|HANG|SKIP): ' $(RV32W_O)/$(1).out > $(RV32W_O)/$(1).log; \
	if [ $$rc -eq 124 ]; then echo "HANG: $(1)/suite ($(3) s)" >> $(RV32W_O)/$(1).log; \
	elif [ $$rc -ne 0 ]; then echo "FAIL: $(1)/suite exit $$rc: $$(tail -c 300 $(RV32W_O)/$(1).stderr | tr '\n' '|')" >> $(RV32W_O)/$(1).log; fi
endef

# The board macros the wide board changes must reach no object but the two it rebuilds.
.PHONY: rv32-wide-check
rv32-wide-check:
	$(Q)u=$$(grep -rlE 'BOARD_(SERVICE_QUEUE|IMEM_BYTES)' boot hal dispatch mover service linker include \
	      --include='*.c' --include='*.h' --include='*.S' | grep -vxE 'service/main.c|linker/layout.c'); \
	[ -z "$$u" ] || { echo "rv32-wide: $$u use BOARD_SERVICE_QUEUE or BOARD_IMEM_BYTES: rebuild them for qemu-rv32-wide instead of copying qemu-rv32's objects (tests/e2e/rv32-wide.mk)" >&2; exit 1; }
firmware-$(RV32W): | rv32-wide-check

test-rv32-wide: rv32-wide-images
	$(Q)rm -rf $(RV32W_O) && mkdir -p $(RV32W_O)
	$(call rv32w-run,e2e-$(RV32W),tests/e2e/e2e.sh $(RV32W) $(O),900)
	$(call rv32w-run,e2e-faults-$(RV32W),tests/e2e/faults.sh $(RV32W) $(O),600)
	$(call rv32w-run,e2e-badinput-$(RV32W),tests/e2e/badinput.sh $(RV32W) $(O),600)
	$(call rv32w-run,soak-$(RV32W),tests/e2e/soak.sh $(RV32W) $(O) $(SOAK_SHORT_COMMANDS),900)
	@# tests/service/smoke.py (raw host port, -kernel) starts QEMU itself: a wrapper adds imem=
	@# (QEMU merges a second -M into the first).
	$(Q)printf '#!/bin/sh\nexec %s "$$@" -M imem=%s\n' $(abspath $(QEMU_RV32)) \
	    $$(bash -c '. scripts/qemu-hostport.sh && hp_imem_bytes $(RV32W)') > $(RV32W_O)/qemu-system-riscv32 && chmod +x $(RV32W_O)/qemu-system-riscv32
	$(call rv32w-run,service-smoke-$(RV32W),python3 tests/service/smoke.py $(RV32W_O)/qemu-system-riscv32 rv32$(rv32w_comma)c=false $(FW_O)/$(RV32W)/fw.elf service-smoke-$(RV32W),300)
	$(Q)scripts/test-summary.sh $(RV32W_O) $(RV32W_SUITES) | tee $(RV32W_O)/summary.txt
	$(Q)! grep -q '^SKIP: ' $(addprefix $(RV32W_O)/,$(addsuffix .log,$(RV32W_SUITES))) || \
	  { echo "test-rv32-wide: a suite skipped against an image that serves the queue" >&2; exit 1; }
	$(Q)tail -n1 $(RV32W_O)/summary.txt | grep -q ' 0 failed$$'

# bench.sh reads <board>/bench/bench_*.elf: qemu-rv32's (built by bench-build).
bench-rv32-wide: rv32-wide-images bench-build
	$(Q)ln -sfn ../qemu-rv32/bench $(FW_O)/$(RV32W)/bench
	@mkdir -p $(RV32W_O)
	$(Q)bench/bench.sh $(O) $(RV32W) $(RV32W_O)/bench > $(RV32W_O)/bench.txt 2> $(RV32W_O)/bench.stderr; rc=$$?; \
	cat $(RV32W_O)/bench.txt; sed 's/^/  /' $(RV32W_O)/bench.stderr; exit $$rc

run-rv32-wide: rv32-wide-images
	$(Q)scripts/run-demo.sh $(RV32W) $(O)
