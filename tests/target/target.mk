# target.mk — on-target test images and their suites (docs/design.md §7 layer 2).
# Every tests/target/<group>/test_<name>.c becomes image <group>_<name> for each QEMU board
# (unless its "// kohaku-test: boards=" directive names other boards), linked like the
# firmware (same crt0, libfw.a, libraries, checks) plus tests/target/harness.c, and run by
# tests/target/run.sh. Suites: target-qemu-rv32, target-qemu-rv64; built with LIBC=newlib-nano
# (mk/libc.mk runs them so from `make test`) they are target-qemu-rv32-newlib and
# target-qemu-rv64-newlib, with images in $(FW_O)/<board>/tests/ (docs/libc.md).
# A "// kohaku-test: libc=<lib>[,<lib>]" directive limits a test to those C libraries.

TT_SRCS    := $(sort $(wildcard tests/target/*/test_*.c))
TT_TOOLS   := $(O)/target-tools
TT_MKBB    := $(TT_TOOLS)/mkbootblock
TT_TIMEOUT ?= 10
tt_comma   := ,
# tt_boards(src): the boards its directive names (empty = every QEMU board).
tt_boards   = $(subst $(tt_comma), ,$(shell sed -n 's|^// kohaku-test: boards=||p' $(1)))
# tt_libcs(src): the C libraries its directive names (empty = every one).
tt_libcs    = $(subst $(tt_comma), ,$(shell sed -n 's|^// kohaku-test: libc=||p' $(1)))
tt_libc_ok  = $(if $(call tt_libcs,$(1)),$(filter $(LIBC),$(call tt_libcs,$(1))),yes)
tt_srcs_for = $(foreach s,$(TT_SRCS),$(if $(call tt_libc_ok,$(s)),$(if $(call tt_boards,$(s)),$(if $(filter $(1),$(call tt_boards,$(s))),$(s)),$(s))))
# Suite names and run tags carry the library when it is not the default.
TT_SFX     := $(if $(filter newlib-nano,$(LIBC)),-newlib)
# tt_image(src): tests/target/boot/test_x.c -> boot_x
tt_image    = $(word 3,$(subst /, ,$(1)))_$(patsubst test_%.c,%,$(notdir $(1)))

.PHONY: tests-target-tools
tests-target-tools: $(TT_MKBB) $(TT_TOOLS)/good.bootblock

$(TT_MKBB): tests/target/mkbootblock.c include/kohaku/bootblock.h
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) -std=c11 -O2 -Wall -Wextra -Werror -Iinclude $< -o $@

$(TT_TOOLS)/good.bootblock: $(TT_MKBB)
	$(Q)$(TT_MKBB) -o $@

# tt_image_rules(board, src). TT_EXTRA_<board>_<group>: more objects a group's images link
# (defined before this file is included; tests/target/kvm/kvm.mk).
define tt_image_rules
$(FW_O)/$(1)/tests/$(call tt_image,$(2)).o: $(2) tests/target/harness.h | $(FW_LIBC_STAMP)
	@mkdir -p $$(@D)
	$$(if $(Q),@echo "  CC      $(1)/$(2)")
	$(Q)$$(CC) $$(FW_FLAGS_$(1)) $$(FW_CFLAGS) $$(FW_INC_$(1)) -Itests/target \
	    -DKT_IMAGE=\"$(call tt_image,$(2))\" -c $$< -o $$@ || { rm -f $$@; exit 1; }

$(FW_O)/$(1)/tests/$(call tt_image,$(2)).elf: $(FW_O)/$(1)/tests/$(call tt_image,$(2)).o $(FW_O)/$(1)/tests/harness.o \
        $$(TT_EXTRA_$(1)_$(word 3,$(subst /, ,$(2)))) \
        $$(FW_CRT0_$(1)) $(FW_O)/$(1)/libfw.a $(FW_O)/$(1)/fw.ld scripts/check-image.sh $(FW_LIBC_STAMP)
	$$(if $(Q),@echo "  LD      $$@")
	$(Q)$$(call fw_link,$(1),$$@,$$(FW_CRT0_$(1)) $(FW_O)/$(1)/tests/$(call tt_image,$(2)).o $(FW_O)/$(1)/tests/harness.o $$(TT_EXTRA_$(1)_$(word 3,$(subst /, ,$(2)))))

TT_ELFS_$(1) += $(FW_O)/$(1)/tests/$(call tt_image,$(2)).elf
endef

# tt_board(board): the harness object, every image and the suite of one QEMU board.
define tt_board
TT_ELFS_$(1) :=
$(FW_O)/$(1)/tests/harness.o: tests/target/harness.c tests/target/harness.h | $(FW_LIBC_STAMP)
	@mkdir -p $$(@D)
	$(Q)$$(CC) $$(FW_FLAGS_$(1)) $$(FW_CFLAGS) $$(FW_INC_$(1)) -Itests/target \
	    -DKT_IMAGE=\"harness\" -c $$< -o $$@
$$(foreach s,$$(call tt_srcs_for,$(1)),$$(eval $$(call tt_image_rules,$(1),$$(s))))

TEST_SUITES += target-$(1)$(TT_SFX)
.PHONY: test-suite-target-$(1)$(TT_SFX) tests-target-$(1)
tests-target-$(1): $$(TT_ELFS_$(1)) tests-target-tools
# Images are relinked every run (objects are kept) and built with -k: an image that does not
# build is one FAIL line, never a stale image run nor the whole suite lost.
test-suite-target-$(1)$(TT_SFX): qemu tests-target-tools
	@mkdir -p $(O)/tests
	$(Q)rm -f $$(TT_ELFS_$(1)) $(FW_O)/$(1)/libfw.a
	$(Q)$$(MAKE) --no-print-directory -k tests-target-$(1) > $(O)/tests/target-$(1)$(TT_SFX).build.log 2>&1 || true
	$(Q)log=$(O)/tests/target-$(1)$(TT_SFX).log; : > $$$$log; \
	for s in $$(call tt_srcs_for,$(1)); do \
	  img=$$$$(basename $$$$(dirname $$$$s))_$$$$(basename $$$$s .c | sed 's/^test_//'); \
	  elf=$(FW_O)/$(1)/tests/$$$$img.elf; \
	  if [ ! -f $$$$elf ]; then \
	    echo "FAIL: $(1)$(TT_SFX)/$$$$img image did not build (see $(O)/tests/target-$(1)$(TT_SFX).build.log)" >> $$$$log; \
	    continue; \
	  fi; \
	  NM=$$(NM) tests/target/run.sh $(O)/qemu/bin/$$(FW_QEMU_$(1)) $$(FW_CPU_$(1)) $(TT_MKBB) \
	    $(TT_TIMEOUT) $(1)$(TT_SFX)/$$$$img $$$$s $$$$elf $(O)/tests/target-$(1)$(TT_SFX)/$$$$img >> $$$$log; \
	done; grep -E '^(PASS|FAIL|HANG): $(1)$(TT_SFX)/[^:]*$$$$|^(FAIL|HANG)' $$$$log | sed 's/^/  /' || true
endef

$(foreach b,qemu-rv32 qemu-rv64,$(eval $(call tt_board,$(b))))

-include $(wildcard $(FW_O)/qemu-rv32/tests/*.d $(FW_O)/qemu-rv64/tests/*.d)
