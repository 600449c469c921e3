# tests build rules (placeholder until its owner fills it)
# Issue 7: fault, bad-input, soak and fuzz suites (tests/e2e/reliability.mk).
include tests/e2e/reliability.mk
