# tests.mk — suites whose rules live under tests/ (the others register from their component's
# .mk): tree checks, and the fault, bad-input, soak and fuzz suites.
include tests/tree/tree.mk
# Fault, bad-input, soak and fuzz suites (tests/e2e/reliability.mk).
include tests/e2e/reliability.mk
include tests/e2e/records.mk
