# board.mk — qemu-rv64: variant and QEMU options for the firmware build (mk/firmware.mk).
BOARD_VARIANT := rv64
BOARD_QEMU    := qemu-system-riscv64
BOARD_QEMU_CPU:= rv64,c=false
