# libc.mk — the second C library (docs/libc.md): newlib-nano's on-target suites in
# `make test` and the side-by-side size report. The LIBC switch itself is in mk/firmware.mk.
#   make LIBC=newlib-nano        every board against newlib-nano, in $(O)/newlib-nano/<board>/
#   make newlib                  (with LIBC=newlib-nano) build or relink the cached newlib only
#   make size-report             $(O)/size-report.txt: picolibc and newlib-nano side by side
#   make test-suite-target-qemu-rv32-newlib / -rv64-newlib    one board's on-target tests

FW_NEWLIB_SUITES := target-qemu-rv32-newlib target-qemu-rv64-newlib

# From a default (picolibc) make, each newlib suite is the same target-test machinery
# (tests/target/target.mk) run by a make with LIBC=newlib-nano, which defines the suite itself
# and writes $(O)/tests/<suite>.log. The same qemu and target tools are shared (same O).
ifeq ($(LIBC),picolibc)
TEST_SUITES += $(FW_NEWLIB_SUITES)
.PHONY: $(addprefix test-suite-,$(FW_NEWLIB_SUITES))
$(addprefix test-suite-,$(FW_NEWLIB_SUITES)):
	$(Q)$(MAKE) --no-print-directory LIBC=newlib-nano $@
endif

# ---- size report ----
# The default firmware of every board and the libc-heavy test images of the QEMU boards, built
# with each library (two makes, two output trees), then one table.
SR_TESTS := qemu-rv32:libc_string qemu-rv64:libc_string qemu-rv64:libc_format
sr_elfs   = $(foreach b,$(BOARDS),$(1)/$(b)/fw.elf) \
            $(foreach t,$(SR_TESTS),$(1)/$(word 1,$(subst :, ,$(t)))/tests/$(word 2,$(subst :, ,$(t))).elf)

.PHONY: size-report
size-report:
	$(Q)$(MAKE) -s --no-print-directory LIBC=picolibc $(call sr_elfs,$(O))
	$(Q)$(MAKE) -s --no-print-directory LIBC=newlib-nano $(call sr_elfs,$(O)/newlib-nano)
	$(Q)NM=$(NM) scripts/size-report.sh $(O) $(O)/newlib-nano $(patsubst $(O)/%,%,$(call sr_elfs,$(O))) \
	    > $(O)/size-report.txt.tmp && mv -f $(O)/size-report.txt.tmp $(O)/size-report.txt
	@cat $(O)/size-report.txt
