# firmware.mk — firmware images for every board (docs/design.md §3, §6 "Build").
#   make / make firmware     all four boards;  make BOARD=x   one board
#   make LIBC=newlib-nano    the same against newlib-nano (docs/libc.md), in $(O)/newlib-nano/<board>/
#   outputs in $(O)/<board>/: fw.elf fw.imem.bin fw.spad.bin fw.imem.hex fw.spad.hex fw.map
#   fw.lst fw.size. scripts/check-image.sh fails the link when an image outgrows a window or
#   holds an instruction its core lacks, before fw.elf exists.

CC      := $(CROSS_COMPILE)gcc
OBJDUMP := $(CROSS_COMPILE)objdump
OBJCOPY := $(CROSS_COMPILE)objcopy
NM      := $(CROSS_COMPILE)nm
# gcc-ar: the archive index must list the symbols of LTO objects (through GCC's plugin).
AR      := $(CROSS_COMPILE)gcc-ar

# `make BOARD=x` builds one board; plain `make` (BOARD only defaulted) builds all four.
ifneq ($(filter command line environment,$(origin BOARD)),)
FW_BOARDS := $(BOARD)
else
FW_BOARDS := $(BOARDS)
endif
$(foreach b,$(FW_BOARDS),$(if $(filter $(b),$(BOARDS)),,$(error unknown BOARD=$(b); one of: $(BOARDS))))

# ---- Variants: ISA flags and the multilib directory chosen explicitly (docs/design.md §8.2: GCC 12
# falls back to the C/F/D default directory for any -march naming zicsr/zifencei). ----
FW_ARCH_rv32  := -march=rv32i -mabi=ilp32
FW_MULTI_rv32 := rv32i/ilp32
FW_ARCH_rv64  := -march=rv64ima_zicsr_zifencei -mabi=lp64 -mcmodel=medany
FW_MULTI_rv64 := rv64im/lp64

# ---- C library: the one place a LIBC option plugs in (docs/libc.md). ----
# FW_O is where board outputs go: $(O)/<board>/ for the default picolibc, $(O)/newlib-nano/<board>/
# for newlib-nano, so the two builds never overwrite each other. FW_LIBC_STAMP is what a link
# waits for (the library built), FW_LIBC_SRCS the library glue joining libfw.a.
FW_LIBCS := picolibc newlib-nano
ifeq ($(LIBC),picolibc)
FW_O          := $(O)
FW_LIBC_ROOT  := /usr/lib/picolibc/riscv64-unknown-elf
fw_libc_inc    = $(FW_LIBC_ROOT)/include
fw_libc_lib    = $(FW_LIBC_ROOT)/lib/release/$(FW_MULTI_$(1))/libc.a
FW_LIBC_STAMP :=
FW_LIBC_SRCS  :=
FW_LIBC_DEF   := -DKX_LIBC_PICOLIBC=1
else ifeq ($(LIBC),newlib-nano)
# Built by scripts/build-newlib.sh into the cache; $(O)/newlib-nano/sysroot links to it, one
# directory per multilib with its own include/ (configure-generated headers) and lib/.
FW_O          := $(O)/newlib-nano
FW_LIBC_ROOT  := $(FW_O)/sysroot
fw_libc_inc    = $(FW_LIBC_ROOT)/$(FW_MULTI_$(1))/include
fw_libc_lib    = $(FW_LIBC_ROOT)/$(FW_MULTI_$(1))/lib/libc.a
FW_LIBC_STAMP := $(FW_O)/key
FW_LIBC_SRCS  := boot/libc/newlib_syscalls.c
FW_LIBC_DEF   := -DKX_LIBC_NEWLIB_NANO=1
# Rebuild (or relink to the cache) when the script, Debian's source or the compiler changes, or
# when the link points into a cache that was cleaned.
FW_NEWLIB_INPUTS := $(wildcard /usr/src/newlib/newlib-3.3.0.tar.xz $(shell command -v $(CC)))
FW_NEWLIB_FORCE := $(shell test -f $(FW_LIBC_ROOT)/rv32i/ilp32/lib/libc.a -a \
                     -f $(FW_LIBC_ROOT)/rv64im/lp64/lib/libc.a || echo newlib-force)
.PHONY: newlib newlib-force
newlib: $(FW_LIBC_STAMP)
$(FW_LIBC_STAMP): scripts/build-newlib.sh $(FW_NEWLIB_INPUTS) $(FW_NEWLIB_FORCE)
	$(Q)scripts/build-newlib.sh $(O)
else
$(error LIBC=$(LIBC) is not supported (one of: $(FW_LIBCS)))
endif
FW_GCC_DIR    := $(dir $(shell $(CC) -print-libgcc-file-name 2>/dev/null))
fw_libgcc      = $(FW_GCC_DIR)$(FW_MULTI_$(1))/libgcc.a

FW_CFLAGS := -std=c11 -Os -g -ffreestanding -fno-builtin-printf -Wall -Wextra -Werror \
             -ffunction-sections -fdata-sections -fno-common -fno-asynchronous-unwind-tables \
             -MMD -MP $(FW_LIBC_DEF)
FW_ASFLAGS := -g -MMD -MP

# ---- Link-time optimisation (docs/firmware.md "Size"): RV32 native objects are compiled to
# GCC's intermediate form and optimised as one program when an image links. Not the cold
# objects (compiled for the interpreter, renamed by scripts/kvm-cold.sh after the compiler) nor
# the entry stubs (12 bytes each, their shape fixed, hal/rv32/kvm_stub.c): those rules do not
# use FW_LTO. RV64 has window room to spare and stays as it was.
# FW_SIZE_rv32: code-generation options of the native RV32 objects, chosen by measurement
# (docs/rv32-size.md "Build options", each option's bytes there). Given when each object is
# compiled: GCC records them per function and the LTO link keeps them (link-time ones do not).
FW_SIZE_rv32 := -fno-caller-saves -fno-tree-loop-im -fno-tree-tail-merge -fno-tree-loop-ivcanon
FW_LTO_rv32 := -flto $(FW_SIZE_rv32)
FW_LTO_rv64 :=
FW_LTO_LINK_rv32 := -flto -Os -g -ffunction-sections -fdata-sections -msave-restore
FW_LTO_LINK_rv64 :=
# At the link every function gets -msave-restore: GCC 12 merges the objects' target options
# into one set (it has no per-function target attribute on RISC-V), so the folder split below
# cannot hold under LTO; measured, it is 9,200 bytes of size-rv32-queue against 9,684 without
# -msave-restore, and replay_insns_per_write fell (10.26 -> 9.76). Options given at the link
# other than these do not override the per-function ones recorded at compile time.

# Sources. dispatch/ and mover/ join the firmware library when their owners add them
# (common files at the top of the folder, variant-specific ones under <folder>/rv32|rv64/).
FW_LIB_COMMON := boot/start.c boot/bootblock.c boot/fatal.c boot/console.c $(FW_LIBC_SRCS) \
                 $(wildcard dispatch/*.c mover/*.c)
FW_LIB_rv32   := boot/rv32/exit.c hal/rv32/hal.c hal/rv32/kvm.c $(wildcard dispatch/rv32/*.c mover/rv32/*.c)
FW_LIB_rv64   := boot/rv64/exit.c hal/rv64/hal.c boot/rv64/trap.c boot/rv64/trap.S \
                 $(wildcard dispatch/rv64/*.c mover/rv64/*.c)
FW_SERVICE    := $(wildcard service/*.c)

fw_obj = $(patsubst %,$(FW_O)/$(1)/obj/%.o,$(2))

# ---- RV32 cold code (docs/kvm.md): whole source files whose functions have no speed budget,
# run by the interpreter hal/rv32/kvm.c from the firmware's DRAM range (section .kvm_cold,
# linker/rv32.ld.S; their data stays in the scratchpad) because the 8 KB instruction window
# cannot hold them. One word per file, <source>:<entry>[,<entry>...], naming every function of
# the file that code outside it calls (the build fails on a global function left out). Adding
# a file is one more word here; RV64 boards and host/fuzz builds compile the same sources
# natively. An entry takes at most six argument words and returns at most 64 bits (the stub
# passes registers through, hal/rv32/kvm_stub.c).
FW_COLD_rv32 := mover/validate.c:kmv_validate,kmv_validate_frame,kmv_status_text,kmv_fail_index \
                dispatch/enum.c:kdp_scan_range,kdp_enumerate \
                dispatch/units.c:kdp_units_check \
                dispatch/recover.c:kdp_abort,kdp_fault,kdp_hidden,kdp_owed_start,kdp_refuse,kdp_settle,kdp_timeout \
                dispatch/wait.c:kdp_fail,kdp_wait_reg,kdp_drain,kdp_ctrl_read \
                service/kq_cold.c:kq_cold_refuse,kq_cold_enumerate,kq_cold_aborted,kq_cold_exec,kq_cold_group_failed,kq_cold_stop,kq_cold_run_replay,kq_cold_changed \
                service/owned.c:kq_cold_owned,kq_copy_indices \
                service/kq_check_cold.c:kq_check_cold \
                hal/rv32/kvm_mul.c:__mulsi3,__muldi3 \
                service/record.c:kq_rec_exec,kq_rec_result \
                $(FW_COLD_EXTRA_rv32)
# FW_COLD_EXTRA_rv32: more words of the same form from the command line (tests/build cases).
# FW_COLD_LIBCALLS_rv32: entries that are libgcc's names (hal/rv32/kvm_mul.c, docs/kvm.md
# "Multiply"): cold callers reach the cold copy (kvm-cold.sh renames them in every cold object)
# but they get no native stub, so native code links libgcc's own (a stub would be pulled after
# LTO has settled the image, when kvm_call can no longer join it).
FW_COLD_LIBCALLS_rv32 := __mulsi3 __muldi3
fw_comma := ,
FW_COLD_SRCS_rv32    := $(foreach c,$(FW_COLD_rv32),$(firstword $(subst :, ,$(c))))
FW_COLD_ENTRIES_rv32 := $(foreach c,$(FW_COLD_rv32),$(subst $(fw_comma), ,$(word 2,$(subst :, ,$(c)))))
# fw_cold_obj(board, srcs): the cold object of each source; fw_stub_obj(board, entries): the
# native stub of each entry, one libfw.a member each (an image pulls only those it calls).
fw_cold_obj = $(patsubst %,$(FW_O)/$(1)/obj/cold/%.o,$(2))
fw_stub_obj = $(patsubst %,$(FW_O)/$(1)/obj/kvm/%.stub.o,$(2))
# fw_svc_objs(board): the service's native objects (a cold service file joins libfw.a instead).
fw_svc_objs = $(call fw_obj,$(1),$(filter-out $(FW_COLD_SRCS_$(FW_V_$(1))),$(FW_SERVICE)))
# Object rules delete their output when the compiler fails, so a stale object can never stand
# in for a source that no longer builds (make -k in the test suites relies on it). Every object
# also depends on this file: its ISA flags and the cold entry list (which kvm-cold.sh renames
# in every cold object) are here, and an object built under other ones must not survive them.

FW_IMAGES :=
FW_DEPS   :=

# fw_board(board): variables and rules of one board.
define fw_board
include board/$(1)/board.mk
FW_V_$(1)     := $$(BOARD_VARIANT)
FW_QEMU_$(1)  := $$(BOARD_QEMU)
FW_CPU_$(1)   := $$(BOARD_QEMU_CPU)
FW_INC_$(1)   := -Iinclude -Iboard/$(1) -Iboot -Ihal/include -Ihal/$$(FW_V_$(1)) -Idispatch -Imover \
                 -isystem $$(call fw_libc_inc,$$(FW_V_$(1)))
FW_FLAGS_$(1) := $$(FW_ARCH_$$(FW_V_$(1)))
FW_LTOF_$(1)  := $$(FW_LTO_$$(FW_V_$(1)))
FW_LTOL_$(1)  := $$(FW_LTO_LINK_$$(FW_V_$(1)))
FW_CRT0_$(1)  := $(FW_O)/$(1)/obj/boot/$$(FW_V_$(1))/crt0.S.o
FW_LIBOBJ_$(1):= $$(call fw_obj,$(1),$$(filter-out $$(FW_COLD_SRCS_$$(FW_V_$(1))),$$(FW_LIB_COMMON) $$(FW_LIB_$$(FW_V_$(1))))) \
                 $$(call fw_cold_obj,$(1),$$(FW_COLD_SRCS_$$(FW_V_$(1)))) \
                 $$(call fw_stub_obj,$(1),$$(filter-out $$(FW_COLD_LIBCALLS_$$(FW_V_$(1))),$$(FW_COLD_ENTRIES_$$(FW_V_$(1)))))
FW_LIBS_$(1)  := $(FW_O)/$(1)/libfw.a $$(call fw_libc_lib,$$(FW_V_$(1))) $$(call fw_libgcc,$$(FW_V_$(1)))
FW_DEPS       += $(FW_O)/$(1)/layout.h.d $$(patsubst %.o,%.d,$$(FW_LIBOBJ_$(1)) $$(FW_CRT0_$(1)) $$(call fw_svc_objs,$(1)))

$(FW_O)/$(1)/obj/%.c.o: %.c mk/firmware.mk | $(FW_LIBC_STAMP)
	@mkdir -p $$(@D)
	$$(if $(Q),@echo "  CC      $(1)/$$<")
	$(Q)$$(CC) $$(FW_FLAGS_$(1)) $$(FW_LTOF_$(1)) $$(FW_CFLAGS) $$(FW_INC_$(1)) -c $$< -o $$@ || { rm -f $$@; exit 1; }

# Cold objects (RV32, docs/kvm.md): compiled without -msave-restore (__riscv_save_N is entered
# by `jal t0` and returns through t0, not the call rule the interpreter follows), then
# scripts/kvm-cold.sh moves the code to .kvm_cold.* and renames every cold entry F to
# kvm_cold_F in every cold object, so cold-to-cold calls stay interpreted. -fstack-usage: the
# .su files size KVM_STACK_BYTES (hal/rv32/kvm.h).
$(FW_O)/$(1)/obj/cold/%.c.o: %.c scripts/kvm-cold.sh mk/firmware.mk | $(FW_LIBC_STAMP)
	@mkdir -p $$(@D)
	$$(if $(Q),@echo "  CC-COLD $(1)/$$<")
	$(Q)$$(CC) $$(FW_FLAGS_$(1)) $$(filter-out -msave-restore,$$(FW_CFLAGS)) $$(FW_INC_$(1)) -fstack-usage \
	    -MF $$(@:.o=.d) -MT $$@ -c $$< -o $$(@:.o=.native.o) || { rm -f $$@; exit 1; }
	$(Q)OBJCOPY=$$(OBJCOPY) OBJDUMP=$$(OBJDUMP) NM=$$(NM) scripts/kvm-cold.sh $$(@:.o=.native.o) $$@ \
	    $$(FW_COLD_ENTRIES_$$(FW_V_$(1))) || { rm -f $$@; exit 1; }

$(FW_O)/$(1)/obj/kvm/%.stub.o: hal/rv32/kvm_stub.c hal/rv32/kvm.h mk/firmware.mk | $(FW_LIBC_STAMP)
	@mkdir -p $$(@D)
	$(Q)$$(CC) $$(FW_FLAGS_$(1)) $$(FW_CFLAGS) $$(FW_INC_$(1)) -DKVM_ENTRY=$$* -MF $$(@:.o=.d) -MT $$@ \
	    -c $$< -o $$@ || { rm -f $$@; exit 1; }

$(FW_O)/$(1)/obj/%.S.o: %.S mk/firmware.mk | $(FW_LIBC_STAMP)
	@mkdir -p $$(@D)
	$$(if $(Q),@echo "  AS      $(1)/$$<")
	$(Q)$$(CC) $$(FW_FLAGS_$(1)) $$(FW_ASFLAGS) $$(FW_INC_$(1)) -c $$< -o $$@ || { rm -f $$@; exit 1; }

$(FW_O)/$(1)/libfw.a: $$(FW_LIBOBJ_$(1))
	$(Q)rm -f $$@ && $$(AR) rcs $$@ $$^

# The linker script: the board's map as plain numbers (linker/layout.c), then the variant's
# script preprocessed with them.
$(FW_O)/$(1)/layout.h: linker/layout.c board/$(1)/board.h $(wildcard board/common/*.h) include/kohaku/cpu_map.h include/kohaku/bootblock.h | $(FW_LIBC_STAMP)
	@mkdir -p $$(@D)
	$(Q)$$(CC) $$(FW_FLAGS_$(1)) $$(FW_CFLAGS) $$(FW_INC_$(1)) -S -o $$@.s $$<
	$(Q)sed -n 's/^->\([A-Z_0-9]*\) \(.*\)$$$$/#define \1 \2/p' $$@.s > $$@ && rm -f $$@.s
	$(Q)test $$$$(wc -l < $$@) -eq 9 || { echo "layout.h: expected 9 values" >&2; rm -f $$@; exit 1; }

# FW_LD_SED (tests/build only): a sed script applied to the generated linker script, so the
# build-check suite can show check-image.sh catching a script whose regions are wrong.
$(FW_O)/$(1)/fw.ld: linker/$$(FW_V_$(1)).ld.S $(FW_O)/$(1)/layout.h
	$(Q)$$(CC) -E -P -x c -I$(FW_O)/$(1) $$< -o $$@
	$(Q)$$(if $$(FW_LD_SED),sed -i -e '$$(FW_LD_SED)' $$@)

# fw_link(board, output elf, objects): link, check, then rename, so an image that fails a
# check never exists as an .elf a later make would trust.
$(FW_O)/$(1)/fw.elf: $$(FW_CRT0_$(1)) $$(call fw_svc_objs,$(1)) $(FW_O)/$(1)/libfw.a $(FW_O)/$(1)/fw.ld scripts/check-image.sh scripts/cold-sum.sh scripts/stack-check.py $(FW_LIBC_STAMP)
	$$(if $(Q),@echo "  LD      $$@")
	$(Q)$$(call fw_link,$(1),$$@,$$(FW_CRT0_$(1)) $$(call fw_svc_objs,$(1)))
	$(Q)$$(if $$(filter rv32,$$(FW_V_$(1))),$$(call fw_stack_check,$$@))

# One run of mkimage.sh makes all five (a grouped target: -j must not run it twice at once).
$(FW_O)/$(1)/fw.imem.bin $(FW_O)/$(1)/fw.spad.bin $(FW_O)/$(1)/fw.imem.hex $(FW_O)/$(1)/fw.spad.hex $(FW_O)/$(1)/fw.lst &: $(FW_O)/$(1)/fw.elf scripts/mkimage.sh
	$(Q)OBJCOPY=$$(OBJCOPY) OBJDUMP=$$(OBJDUMP) NM=$$(NM) scripts/mkimage.sh $$< $(FW_O)/$(1)/fw

firmware-$(1): $(FW_O)/$(1)/fw.elf $(FW_O)/$(1)/fw.imem.hex $(FW_O)/$(1)/fw.spad.hex $(FW_O)/$(1)/fw.lst
	@cat $(FW_O)/$(1)/fw.size

FW_IMAGES += firmware-$(1)
endef

# fw_stack_check(elf): the RV32 product image's stack budgets (docs/kvm.md
# "Stack"): scripts/stack-check.py reads the deepest native chain (against BOARD_STACK_BYTES)
# and the deepest interpreted chain (against KVM_STACK_BYTES, hal/rv32/kvm.h) from the linked
# image and writes fw.stack; an overflow deletes the image and fails the build. Test images
# are not checked: some overflow on purpose (tests/target/kvm/test_bad_stack.c).
FW_KVM_STACK := $(shell sed -n 's/^\#define KVM_STACK_BYTES \([0-9]*\)u.*/\1/p' hal/rv32/kvm.h)
# A build-check case (FW_SERVICE given on the command line) may link code whose indirect calls
# the check cannot follow (newlib's printf): reported, not fatal; the product's must all be known.
FW_STACK_LENIENT := $(if $(filter command line,$(origin FW_SERVICE)),--lenient-indirect)
fw_stack_check = OBJDUMP=$(OBJDUMP) NM=$(NM) python3 scripts/stack-check.py $(1) $(FW_KVM_STACK) \
                   --report $(basename $(1)).stack $(FW_STACK_LENIENT) || { rm -f $(1); exit 1; }

# fw_link(board, elf, objects): the explicit-library link and the image checks.
fw_link = { $(CC) $(FW_FLAGS_$(1)) $(FW_LTOL_$(1)) -nostdlib -nostartfiles -static -T $(FW_O)/$(1)/fw.ld \
            -Wl,--gc-sections -Wl,--no-warn-rwx-segments -Wl,-Map=$(basename $(2)).map \
            -o $(2).tmp $(3) -Wl,--start-group $(FW_LIBS_$(1)) -Wl,--end-group && \
          $(if $(filter rv32,$(FW_V_$(1))),OBJCOPY=$(OBJCOPY) OBJDUMP=$(OBJDUMP) NM=$(NM) scripts/cold-sum.sh $(2).tmp && )\
          OBJDUMP=$(OBJDUMP) NM=$(NM) scripts/check-image.sh $(FW_V_$(1)) $(2).tmp $(basename $(2)).size && \
          mv -f $(2).tmp $(2); } || { rm -f $(2).tmp $(2); exit 1; }

$(foreach b,$(BOARDS),$(eval $(call fw_board,$(b))))

# RV32 service/ objects with -msave-restore (prologues and epilogues as calls to libgcc's
# __riscv_save/restore, docs/service.md "Size"), as dispatch/ and mover/ have theirs. For the
# LTO image this decides nothing: the link gives every native function -msave-restore
# (FW_LTO_LINK_rv32 above; measured, the image's .text and .kvm_cold are byte-identical without
# the per-folder flags). They would decide for an image linked without -flto.
FW_SVC_FLAGS_rv32 := -msave-restore
$(foreach b,$(BOARDS),$(eval $(call fw_svc_objs,$(b)): FW_CFLAGS += $(FW_SVC_FLAGS_$(FW_V_$(b)))))

# The cold-code interpreter itself (docs/kvm.md): -msave-restore (it is entered once per cold
# call; it saves 11 registers) and -fno-jump-tables (its switches as compares: 1,032 + 32 bytes
# of .rodata against 952 + 232 with tables, measured, and the tables would be scratchpad bytes,
# which cold code needs as much as the window needs its own), and -fcaller-saves against
# FW_SIZE_rv32's -fno-caller-saves: without it cold code ran slower (enum_cycles 96,531 ->
# 98,366) and the image was 8 bytes larger (docs/rv32-size.md "Build options").
$(foreach b,$(BOARDS),$(if $(filter rv32,$(FW_V_$(b))),\
  $(eval $(FW_O)/$(b)/obj/hal/rv32/kvm.c.o: FW_CFLAGS += -msave-restore -fno-jump-tables -fcaller-saves)))

# RV64 objects of the files that are cold on RV32 (FW_COLD_rv32: no speed budget, failures and
# once-a-command work), of mover/seal.c (RECORD's sealing, which RV32 does not link) and of the
# fatal paths (boot/fatal.c, boot/rv64/trap.c: run once, at the end): -msave-restore, their
# prologues and epilogues as calls to libgcc's __riscv_save/restore. One temperature list for
# both variants; it keeps RV64's image within its 24 KB budget (-868 bytes when sealed records
# came in, docs/mover.md §5.1). Not the sealed replay (mover/rv64/sealed.c): -80 bytes there
# cost a recorded RUN 19 cycles a REPLAY step (record_run_overhead_insns 1,421 -> 1,573).
FW_SIZE_FIRST_rv64 := $(FW_COLD_SRCS_rv32) mover/seal.c boot/fatal.c boot/rv64/trap.c
$(foreach b,$(BOARDS),$(if $(filter rv64,$(FW_V_$(b))),\
  $(eval $(call fw_obj,$(b),$(FW_SIZE_FIRST_rv64)): FW_CFLAGS += -msave-restore)))

.PHONY: firmware $(addprefix firmware-,$(BOARDS)) debug
firmware: $(addprefix firmware-,$(FW_BOARDS))

-include $(FW_DEPS)

# make debug BOARD=x [BREAK=sym]: QEMU with a host port and its gdb stub on 127.0.0.1:1234, the
# firmware booted by kactl (it serves commands), a gdb command file breaking at BREAK (default
# kdp_run): scripts/debug.sh prints the two command lines to use. README "Debug with gdb".
BREAK ?= kdp_run
debug: firmware-$(BOARD) qemu host
	@test -n "$(FW_QEMU_$(BOARD))" || { echo "debug: $(BOARD) is a hardware board; use a qemu-* board" >&2; exit 1; }
	$(Q)scripts/debug.sh $(BOARD) $(O) $(BREAK)

# make debug-boot BOARD=x: the boot itself from reset, without a host (a test boot block; no
# queue, so the firmware stops "queue refused" after booting). Stub on 127.0.0.1:1234.
.PHONY: debug-boot
debug-boot: firmware-$(BOARD) qemu tests-target-tools
	@test -n "$(FW_QEMU_$(BOARD))" || { echo "debug: $(BOARD) is a hardware board; use a qemu-* board" >&2; exit 1; }
	@echo "kohaku: QEMU waits for gdb. In another terminal:"
	@echo "  gdb-multiarch $(FW_O)/$(BOARD)/fw.elf -ex 'target remote 127.0.0.1:1234'"
	$(Q)$(O)/qemu/bin/$(FW_QEMU_$(BOARD)) -M kohaku-sysnode,bootblock=$(TT_TOOLS)/good.bootblock \
	    -cpu $(FW_CPU_$(BOARD)) -bios none -display none -monitor none -serial none -nodefaults \
	    -icount shift=0,align=off,sleep=off -kernel $(FW_O)/$(BOARD)/fw.elf -gdb tcp:127.0.0.1:1234 -S

include tests/target/kvm/kvm.mk
include tests/target/target.mk
include tests/build/build.mk
include mk/libc.mk

# make size-diff BASE=<rev> [HEAD=<rev>]: window bytes, cold bytes and window instructions of
# qemu-rv32 and qemu-rv64 at BASE against HEAD (default: this work tree), with every function
# whose size changed (scripts/size-diff.sh; docs/rv32-size.md "Size per change").
.PHONY: size-diff
size-diff:
	$(Q)test -n "$(BASE)" || { echo "make size-diff BASE=<revision> [HEAD=<revision>]"; exit 2; }
	$(Q)OBJDUMP=$(OBJDUMP) NM=$(NM) scripts/size-diff.sh $(O) $(BASE) $(HEAD)
