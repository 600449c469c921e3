# board.mk — qemu-rv32: variant and QEMU options for the firmware build (mk/firmware.mk).
BOARD_VARIANT := rv32
BOARD_QEMU    := qemu-system-riscv32
BOARD_QEMU_CPU:= rv32,c=false
