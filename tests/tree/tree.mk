# tree.mk — suite "tree": the tree is self-contained (scripts/check-refs.sh: nothing points
# into the shared design folder, at the out-of-tree design notes or seeds, and docs cite no out-of-tree issue)
# and includes point down (scripts/check-includes.py, known violations in
# tests/tree/include-known.txt). Text only: no build, a second or two.

.PHONY: test-suite-tree check-includes
TEST_SUITES += tree
test-suite-tree:
	@mkdir -p $(O)/tests
	$(Q)timeout 120 tests/tree/run.sh > $(O)/tests/tree.log 2>&1; rc=$$?; \
	  if [ $$rc -eq 124 ]; then echo "HANG: tree/run.sh" >> $(O)/tests/tree.log; fi; \
	  sed 's/^/  /' $(O)/tests/tree.log | grep -E '^  (PASS|FAIL|HANG):' || true

# The include graph with every note (layer skips, host use of firmware pure logic).
check-includes:
	$(Q)python3 scripts/check-includes.py -v --known tests/tree/include-known.txt
