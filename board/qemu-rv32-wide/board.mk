# board.mk — qemu-rv32-wide: DEVELOPMENT ONLY (board.h; tests/e2e/rv32-wide.mk). qemu-rv32's
# variant and QEMU; scripts/qemu-hostport.sh adds imem= from BOARD_IMEM_BYTES.
BOARD_VARIANT := rv32
BOARD_QEMU    := qemu-system-riscv32
BOARD_QEMU_CPU:= rv32,c=false
