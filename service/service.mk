# service.mk — native tests of the command queue's pure checks (service/kq_check.c) under
# ASan/UBSan (docs/design.md §7 layer 1). The firmware build picks service/*.c up by itself.
#   make test-suite-host-service     tests/host/service/test_kq.c -> $(O)/tests/host-service.log

KQ_HOST_CFLAGS := -std=c11 -Wall -Wextra -Werror -O1 -g -fsanitize=address,undefined \
                  -fno-omit-frame-pointer -fno-sanitize-recover=all -Iinclude -Iservice -Imover -Iboot
KQ_HOST_SRCS   := service/kq_check.c service/kq_check_cold.c mover/validate.c mover/seal.c
KQ_HOST_DEPS   := $(KQ_HOST_SRCS) service/kq.h mover/kmv.h include/kohaku/queue.h \
                  include/kohaku/status.h include/kohaku/bootblock.h include/kohaku/desc_list.h
KQ_TEST_BIN    := $(O)/tests/host/service/test_kq

$(KQ_TEST_BIN): tests/host/service/test_kq.c $(KQ_HOST_DEPS)
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) $(KQ_HOST_CFLAGS) $< $(KQ_HOST_SRCS) -o $@

TEST_SUITES += host-service
.PHONY: test-suite-host-service
test-suite-host-service: $(KQ_TEST_BIN)
	@mkdir -p $(O)/tests
	$(Q)timeout 60 $(KQ_TEST_BIN) > $(O)/tests/host-service.log 2> $(O)/tests/host-service.stderr; rc=$$?; \
	if [ $$rc -eq 124 ]; then echo "HANG: host-service/test_kq" >> $(O)/tests/host-service.log; \
	elif [ $$rc -ne 0 ] && ! grep -q '^FAIL:' $(O)/tests/host-service.log; then \
	  echo "FAIL: host-service/test_kq exit $$rc: $$(tail -c 300 $(O)/tests/host-service.stderr | tr '\n' '|')" >> $(O)/tests/host-service.log; fi; \
	grep -E '^(FAIL|HANG): ' $(O)/tests/host-service.log || true

# The RV64 trap image: the real service with a mover replay that executes an illegal
# instruction (tests/service/trap_stubs.c), for the fatal path's FATAL/KQ_FATAL_TRAP state line.
KQ_T64_OBJS := $(O)/qemu-rv64/obj/boot/rv64/crt0.S.o $(O)/qemu-rv64/obj/service/queue.c.o \
               $(O)/qemu-rv64/obj/service/kq_check.c.o $(O)/qemu-rv64/obj/service/kq_cold.c.o \
               $(O)/qemu-rv64/obj/service/kq_check_cold.c.o $(O)/qemu-rv64/obj/service/record.c.o \
               $(O)/qemu-rv64/obj/service/owned.c.o \
               $(O)/qemu-rv64/tests/service_trap_stubs.o
$(O)/qemu-rv64/tests/service_trap_stubs.o: tests/service/trap_stubs.c service/kq.h
	@mkdir -p $(@D)
	$(Q)$(CC) $(FW_FLAGS_qemu-rv64) $(FW_CFLAGS) $(FW_INC_qemu-rv64) -Iservice -c $< -o $@
$(O)/qemu-rv64/tests/service_trap.elf: $(KQ_T64_OBJS) $(O)/qemu-rv64/libfw.a $(O)/qemu-rv64/fw.ld scripts/check-image.sh
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(call fw_link,qemu-rv64,$@,$(KQ_T64_OBJS))

# On-target smoke test: the real image in our QEMU, driven through the host port by
# tests/service/smoke.py (boot block, queue, every command, bad input, flow control, restart,
# STOP, a broken ring) on both QEMU boards, and the RV64 trap image's FATAL state line.
KQ_SMOKE_BOARDS := qemu-rv32 qemu-rv64
TEST_SUITES += service-smoke
.PHONY: test-suite-service-smoke
test-suite-service-smoke: qemu $(foreach b,$(KQ_SMOKE_BOARDS),$(O)/$(b)/fw.elf) \
        $(O)/qemu-rv64/tests/service_trap.elf
	@mkdir -p $(O)/tests
	$(Q): > $(O)/tests/service-smoke.log; \
	for b in $(KQ_SMOKE_BOARDS); do \
	  case $$b in *rv64) qemu=qemu-system-riscv64 cpu=rv64,c=false;; *) qemu=qemu-system-riscv32 cpu=rv32,c=false;; esac; \
	  timeout 300 python3 tests/service/smoke.py $(O)/qemu/bin/$$qemu $$cpu $(O)/$$b/fw.elf service-smoke-$$b \
	    >> $(O)/tests/service-smoke.log 2> $(O)/tests/service-smoke.$$b.stderr; rc=$$?; \
	  if [ $$rc -eq 124 ]; then echo "HANG: service-smoke-$$b/smoke" >> $(O)/tests/service-smoke.log; \
	  elif [ $$rc -ne 0 ] && ! grep -q '^FAIL: service-smoke-'$$b $(O)/tests/service-smoke.log; then \
	    echo "FAIL: service-smoke-$$b/smoke exit $$rc" >> $(O)/tests/service-smoke.log; fi; \
	done; \
	KQ_TRAP_PC=0x$$($(NM) $(O)/qemu-rv64/tests/service_trap.elf | sed -n 's/^\([0-9a-f]*\) T kq_test_trap_pc$$/\1/p') \
	timeout 300 python3 tests/service/smoke.py $(O)/qemu/bin/qemu-system-riscv64 rv64,c=false \
	  $(O)/qemu-rv64/tests/service_trap.elf service-smoke-qemu-rv64-trap trap \
	  >> $(O)/tests/service-smoke.log 2> $(O)/tests/service-smoke.rv64-trap.stderr; rc=$$?; \
	if [ $$rc -eq 124 ]; then echo "HANG: service-smoke-qemu-rv64-trap/smoke" >> $(O)/tests/service-smoke.log; \
	elif [ $$rc -ne 0 ] && ! grep -q '^FAIL: service-smoke-qemu-rv64-trap' $(O)/tests/service-smoke.log; then \
	  echo "FAIL: service-smoke-qemu-rv64-trap/smoke exit $$rc" >> $(O)/tests/service-smoke.log; fi; \
	grep -E '^(FAIL|HANG): ' $(O)/tests/service-smoke.log || true

# ---- The RV32 window (docs/service.md "Size"; bench budget): the qemu-rv32 product image's
# instruction-window text by folder, from its link map ($(FW_O)/qemu-rv32/fw.map), the total
# against the 8,192-byte window and the bench's 7,168, then the scratchpad's use. Exits 1 over the
# budget, so a script can gate on it.
#   make size-rv32-queue
# The RV32 cold code (docs/kvm.md) is in libfw.a: the interpreter (hal/rv32/kvm.c) and the entry
# stubs count as "kvm"; the cold code itself lives in the firmware's DRAM range, its size
# reported after the table with the scratchpad's use.
KQ_SIZE_IMG := $(FW_O)/qemu-rv32/fw.elf
.PHONY: size-rv32-queue
size-rv32-queue: $(KQ_SIZE_IMG)
	$(Q)$(NM) -l --defined-only $< > $(basename $<).syms
	$(Q)$(OBJDUMP) -d -l -j .text $< > $(basename $<).lines
	$(Q)awk -v window=8192 -v budget=7680 -v syms=$(basename $<).syms -v lines=$(basename $<).lines \
	    -v srcs="$(FW_SERVICE) $(FW_LIB_COMMON) $(FW_LIB_rv32) kvm/kvm.c $(patsubst %,kvm/%.stub,$(FW_COLD_ENTRIES_rv32))" \
	    -f tests/service/text_by_module.awk $(basename $<).map; rc=$$?; \
	eval $$($(NM) $< | awk '$$3 ~ /^__kx_(cold_start|cold_end|noinit_end|spad_base|stack_bytes)$$/ { print substr($$3, 6) "=$$((0x" $$1 "))" }'); \
	echo "cold code (firmware DRAM) $$((cold_end - cold_start)) bytes; scratchpad used $$((noinit_end - spad_base + stack_bytes)) of 8192 with the $$stack_bytes-byte stack ($$((8192 - noinit_end + spad_base - stack_bytes)) free)"; \
	exit $$rc

# ---- Fuzzing (docs/design.md §7 layer 4): the queue header, submission and step-list
# checks under libFuzzer (Debian's clang). FUZZ_CC / FUZZ_SMOKE_RUNS come from mover/mover.mk.
FUZZ_SERVICE_SECS ?= 120
KQ_FUZZ_BIN       := $(O)/fuzz/service/fuzz_kq

$(KQ_FUZZ_BIN): tests/host/service/fuzz_kq.c $(KQ_HOST_DEPS)
	@mkdir -p $(@D)
	$(Q)$(FUZZ_CC) -std=c11 -g -O1 -Wall -Wextra -Werror -fsanitize=fuzzer,address,undefined \
	    -fno-sanitize-recover=all -Iinclude -Iservice -Imover -Iboot $< $(KQ_HOST_SRCS) -o $@

.PHONY: fuzz-service
fuzz: fuzz-service
fuzz-service: $(KQ_FUZZ_BIN)
	@mkdir -p $(O)/fuzz/service/corpus
	$(KQ_FUZZ_BIN) -max_total_time=$(FUZZ_SERVICE_SECS) -max_len=70000 $(O)/fuzz/service/corpus

TEST_SUITES += fuzz-smoke-service
.PHONY: test-suite-fuzz-smoke-service
test-suite-fuzz-smoke-service: $(KQ_FUZZ_BIN)
	@mkdir -p $(O)/tests $(O)/fuzz/service/smoke
	$(Q)if timeout 300 $(KQ_FUZZ_BIN) -runs=$(FUZZ_SMOKE_RUNS) -seed=1 -max_len=4096 -len_control=0 \
	      $(O)/fuzz/service/smoke > $(O)/tests/fuzz-smoke-service.out 2>&1; then \
	  echo "PASS: fuzz-smoke-service/kq_$(FUZZ_SMOKE_RUNS)_runs" > $(O)/tests/fuzz-smoke-service.log; \
	else echo "FAIL: fuzz-smoke-service/kq_$(FUZZ_SMOKE_RUNS)_runs $$(grep -m1 -E 'ERROR|SUMMARY|Assert|deadly' $(O)/tests/fuzz-smoke-service.out)" \
	  > $(O)/tests/fuzz-smoke-service.log; fi
