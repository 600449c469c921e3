# kvm.mk — objects of the cold-code interpreter's on-target tests (tests/target/kvm/test_*.c,
# docs/kvm.md "Tests"), added to those images' links through target.mk's TT_EXTRA_<board>_<group>:
# kvo_cold.c as cold code (the firmware's own cold rule: no -msave-restore, scripts/kvm-cold.sh),
# the same file natively with names prefixed kvo_native_, and the stubs of its entries. RV32 only.
# The build fails unless the cold code holds every instruction hal/rv32/kvm.c implements, so
# test_ops.c exercises each. Its multiplies are libgcc calls (RV32I, docs/hardware.md §4) renamed to the
# firmware's cold multiply (hal/rv32/kvm_mul.c) as in every cold object, so test_ops.c also
# checks those against libgcc's native ones on the corner values.
KVO_ENTRIES := kvo_ops kvo_bad_insn kvo_bad_fetch kvo_slot kvo_deep
KVO_MNEMONICS := lui auipc jal jalr beq bne blt bge bltu bgeu lb lh lw lbu lhu sb sh sw \
                 addi slti sltiu xori ori andi slli srli srai add sub sll srl sra slt sltu \
                 xor or and fence
KVO_O := $(FW_O)/qemu-rv32/tests/kvm
TT_EXTRA_qemu-rv32_kvm := $(KVO_O)/kvo_cold.o $(KVO_O)/kvo_native.o $(patsubst %,$(KVO_O)/%.stub.o,$(KVO_ENTRIES))

$(KVO_O)/kvo_cold.o: tests/target/kvm/kvo_cold.c tests/target/kvm/kvo.h scripts/kvm-cold.sh tests/target/kvm/kvm.mk | $(FW_LIBC_STAMP)
	@mkdir -p $(@D)
	$(Q)$(CC) $(FW_FLAGS_qemu-rv32) $(FW_CFLAGS) $(FW_INC_qemu-rv32) -c $< -o $(@:.o=.native.o)
	$(Q)missing=$$(for m in $(KVO_MNEMONICS); do $(OBJDUMP) -d -M no-aliases $(@:.o=.native.o) | \
	    awk -F'\t' -v m=$$m '$$3 ~ /^[a-z]/ { sub(/[ \t].*/, "", $$3); if ($$3 == m) f = 1 } END { exit !f }' || echo $$m; done); \
	  if [ -n "$$missing" ]; then echo "kvm.mk: $< lacks instructions kvm.c implements: $$missing" >&2; exit 1; fi
	$(Q)OBJCOPY=$(OBJCOPY) OBJDUMP=$(OBJDUMP) NM=$(NM) scripts/kvm-cold.sh $(@:.o=.native.o) $@ $(KVO_ENTRIES) \
	    $(FW_COLD_LIBCALLS_rv32)

$(KVO_O)/kvo_native.o: tests/target/kvm/kvo_cold.c tests/target/kvm/kvo.h | $(FW_LIBC_STAMP)
	@mkdir -p $(@D)
	$(Q)$(CC) $(FW_FLAGS_qemu-rv32) $(FW_CFLAGS) $(FW_INC_qemu-rv32) -DKVO_NATIVE -c $< -o $@

$(KVO_O)/%.stub.o: hal/rv32/kvm_stub.c hal/rv32/kvm.h | $(FW_LIBC_STAMP)
	@mkdir -p $(@D)
	$(Q)$(CC) $(FW_FLAGS_qemu-rv32) $(FW_CFLAGS) $(FW_INC_qemu-rv32) -DKVM_ENTRY=$* -c $< -o $@
