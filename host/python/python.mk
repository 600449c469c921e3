# python.mk — the kohaku Python package (host/python/, docs/python.md): a ctypes binding of
# $(O)/host/libkohaku.so. Its suite installs it with pip, offline, into a fresh venv and runs
# its pytest suite against the firmware in QEMU, once per board.
#   make test-suite-python-qemu-rv32 / -rv64   logs $(O)/tests/python-qemu-rv{32,64}.log

TEST_SUITES += python-qemu-rv32 python-qemu-rv64
.PHONY: test-suite-python-qemu-rv32 test-suite-python-qemu-rv64
test-suite-python-qemu-rv32 test-suite-python-qemu-rv64: test-suite-python-%: qemu $(HOST_SO)
	$(Q)$(MAKE) --no-print-directory BOARD=$* firmware
	@mkdir -p $(O)/tests
	$(Q)timeout 900 host/python/run-tests.sh $* $(O) > $(O)/tests/python-$*.log 2> $(O)/tests/python-$*.stderr; rc=$$?; \
	if [ $$rc -eq 124 ]; then echo "HANG: python-$*/suite (900 s)" >> $(O)/tests/python-$*.log; \
	elif [ $$rc -ne 0 ]; then echo "FAIL: python-$*/suite exit $$rc: $$(tail -c 300 $(O)/tests/python-$*.stderr | tr '\n' '|')" >> $(O)/tests/python-$*.log; fi
