# board.mk — sysnode-rv64: variant of the real node's processor for the firmware build (mk/firmware.mk).
# No QEMU options: this board is flashed onto hardware through the host port (README).
BOARD_VARIANT := rv64
BOARD_QEMU    :=
BOARD_QEMU_CPU:=
