# bench.mk — the benchmark (docs/design.md §7 "Benchmarks", docs/bench.md), included by the top
# Makefile:
#   make bench           figures for qemu-rv32 and qemu-rv64 under -icount: one line per figure
#                        "bench <board> <name> <value> <unit>" and a table; $(O)/bench/results.txt
#   make bench-check     make bench, then the bench budgets: exits 1 and names each one missed
#   make bench-docs      make bench, then the figures the README quotes against results.txt
#                        (scripts/check-figures.py --bench): exits 1 and names each stale one
#   make test-suite-bench-determinism   (in make test) the images and the queue run twice, compared
#   make bench-profile BOARD=qemu-rv64   instructions per function of the queue run (a trace)
#   make test-suite-bench-tools          (in make test) check.sh and same.sh on literal lines
# Bench images: bench/target/bench_*.c, linked like the on-target tests (crt0, libfw.a, harness)
# into $(FW_O)/<board>/bench/. Host driver: bench/kbench.c on libkohaku.

BENCH_IMAGES := enum dispatch feed replay multi
BENCH_BOARDS := qemu-rv32 qemu-rv64
KBENCH       := $(O)/bench/kbench

# bench_image(board, name)
define bench_image
$(FW_O)/$(1)/bench/bench_$(2).o: bench/target/bench_$(2).c bench/target/kb.h tests/target/dispatch/kdt.h tests/target/harness.h | $(FW_LIBC_STAMP)
	@mkdir -p $$(@D)
	$$(if $(Q),@echo "  CC      $(1)/bench_$(2)")
	$(Q)$$(CC) $$(FW_FLAGS_$(1)) $$(FW_CFLAGS) $$(FW_INC_$(1)) -Itests/target -Ibench/target \
	    -DKT_IMAGE=\"bench_$(2)\" -c $$< -o $$@ || { rm -f $$@; exit 1; }

$(FW_O)/$(1)/bench/bench_$(2).elf: $(FW_O)/$(1)/bench/bench_$(2).o $(FW_O)/$(1)/tests/harness.o \
        $$(FW_CRT0_$(1)) $(FW_O)/$(1)/libfw.a $(FW_O)/$(1)/fw.ld scripts/check-image.sh $(FW_LIBC_STAMP)
	$$(if $(Q),@echo "  LD      $$@")
	$(Q)$$(call fw_link,$(1),$$@,$$(FW_CRT0_$(1)) $(FW_O)/$(1)/bench/bench_$(2).o $(FW_O)/$(1)/tests/harness.o)

BENCH_ELFS += $(FW_O)/$(1)/bench/bench_$(2).elf
endef
BENCH_ELFS :=
$(foreach b,$(BENCH_BOARDS),$(foreach i,$(BENCH_IMAGES),$(eval $(call bench_image,$(b),$(i)))))
# The compiler writes each object's header dependencies (-MMD in FW_CFLAGS): a changed
# dispatch.h or kmv.h must rebuild the bench images, not leave a stale struct layout in them.
-include $(BENCH_ELFS:.elf=.d)

KLINKS := $(O)/bench/klinks
$(KLINKS): bench/klinks.c $(HOST_LIB) $(HOST_HDRS)
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) $(HOST_CFLAGS) bench/klinks.c $(HOST_LIB) -o $@

$(KBENCH): bench/kbench.c $(HOST_LIB) $(HOST_HDRS)
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) $(HOST_CFLAGS) bench/kbench.c $(HOST_LIB) -o $@

.PHONY: bench-build bench bench-check
bench-build: qemu $(KBENCH) $(KLINKS) $(KACTL) $(XDMA_SHIM) $(BENCH_ELFS) $(foreach b,$(BENCH_BOARDS),$(FW_O)/$(b)/fw.elf) tests-target-tools

# Each board's lines go to $(O)/bench/<board>.txt; results.txt holds both; the table follows.
# deps first (a clean clone on a new machine), then everything the runs need.
bench: deps
	$(Q)$(MAKE) --no-print-directory bench-build
	@mkdir -p $(O)/bench
	$(Q)rc=0; for b in $(BENCH_BOARDS); do \
	  bench/bench.sh $(O) $$b > $(O)/bench/$$b.txt 2> $(O)/bench/$$b.stderr || rc=1; \
	  bench/links.sh $(O) $$b >> $(O)/bench/$$b.txt 2>> $(O)/bench/$$b.stderr || rc=1; \
	  cat $(O)/bench/$$b.txt; sed 's/^/  /' $(O)/bench/$$b.stderr; \
	done; cat $(addprefix $(O)/bench/,$(addsuffix .txt,$(BENCH_BOARDS))) > $(O)/bench/results.txt; \
	echo; bench/table.sh $(O)/bench/results.txt | tee $(O)/bench/table.md; exit $$rc

bench-check: bench
	$(Q)bench/check.sh $(O)/bench/results.txt

# The README's bench table must be bench/table.sh's output for these results, and its prose
# the measured RV32 boot_insns. After a change that moves a figure: paste $(O)/bench/table.md.
.PHONY: bench-docs
bench-docs: bench
	$(Q)python3 scripts/check-figures.py --bench $(O)/bench/results.txt

.PHONY: bench-profile
bench-profile: bench-build
	$(Q)bench/profile.sh $(O) $(BOARD)

# ---- bench-determinism (short form of make bench, in make test): everything twice, compared.
# Each board's bench.sh run twice into separate work directories; the figure lines must be
# identical (deterministic under -icount), but for the host-timed pair bench/same.sh explains.
TEST_SUITES += bench-determinism
.PHONY: test-suite-bench-determinism
test-suite-bench-determinism: bench-build
	@mkdir -p $(O)/tests $(O)/bench/det
	$(Q): > $(O)/tests/bench-determinism.log; \
	for b in $(BENCH_BOARDS); do \
	  rc=0; \
	  for r in 1 2; do \
	    timeout 600 bench/bench.sh $(O) $$b $(O)/bench/det/$$b-$$r > $(O)/bench/det/$$b-$$r.txt \
	      2> $(O)/bench/det/$$b-$$r.stderr || rc=$$?; \
	  done; \
	  if [ $$rc -eq 124 ]; then \
	    echo "HANG: bench-determinism/$$b bench.sh took over 600 s" >> $(O)/tests/bench-determinism.log; \
	  elif [ $$rc -ne 0 ]; then \
	    echo "FAIL: bench-determinism/$$b bench.sh failed: $$(grep -v missing $(O)/bench/det/$$b-1.stderr | tail -c 300 | tr '\n' '|')" >> $(O)/tests/bench-determinism.log; \
	  elif [ ! -s $(O)/bench/det/$$b-1.txt ]; then \
	    echo "FAIL: bench-determinism/$$b no figures ($$(tail -c 200 $(O)/bench/det/$$b-1.stderr | tr '\n' '|'))" >> $(O)/tests/bench-determinism.log; \
	  elif d=$$(bench/same.sh $(O)/bench/det/$$b-1.txt $(O)/bench/det/$$b-2.txt); then \
	    echo "PASS: bench-determinism/$$b" >> $(O)/tests/bench-determinism.log; \
	  else \
	    echo "FAIL: bench-determinism/$$b figures differ: $$(echo "$$d" | head -4 | tr '\n' '|')" >> $(O)/tests/bench-determinism.log; \
	  fi; \
	done; grep -E '^(FAIL|HANG): ' $(O)/tests/bench-determinism.log || true

# ---- bench-tools: check.sh and same.sh on literal figure lines (no QEMU) ----
TEST_SUITES += bench-tools
.PHONY: test-suite-bench-tools
test-suite-bench-tools:
	@mkdir -p $(O)/tests
	$(Q)timeout 60 bench/test_tools.sh $(O)/bench/tools > $(O)/tests/bench-tools.log 2>&1 || \
	  echo "FAIL: bench-tools/suite exit $$?" >> $(O)/tests/bench-tools.log; \
	grep -E '^(FAIL|HANG): ' $(O)/tests/bench-tools.log || true
