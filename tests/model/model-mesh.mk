# tests/model/model-mesh.mk — the native suite of the mesh side of the device model
# (model/agent.c, mesh.c, cu.c, tu.c, flitq.c), ASan + UBSan. Included by model/model.mk.
#   make test-suite-model-mesh     writes $(O)/tests/model-mesh.log
# Two binaries: test_mesh runs the four files alone over test-only fakes of the event queue,
# memory agent, mover and NP (tests/model-mesh/fake.c); test_integ runs them inside the whole
# library (km_new, the real memory agent and NP). fuzz_agent (libFuzzer, clang) feeds unit
# maps and register sequences; the suite runs a short smoke over tests/model-mesh/corpus and
# `make fuzz-model-mesh [FUZZ_SECONDS=n]` a bounded run.

MESH_SRCS        := model/agent.c model/mesh.c model/cu.c model/tu.c model/flitq.c
MESH_TEST_SRCS   := $(MESH_SRCS) tests/model-mesh/fake.c tests/model-mesh/test_mesh.c
MESH_TEST_BIN    := $(O)/model-mesh/test_mesh
MESH_INTEG_BIN   := $(O)/model-mesh/test_integ
MESH_TEST_CFLAGS := -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -g -O1 \
	-fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all \
	-Imodel -Imodel/include -Iinclude -Itests/model-mesh
# test_mesh sees every control flit the agent receives, raw, through a link-time wrap.
MESH_TEST_LDFLAGS := -fsanitize=address,undefined -Wl,--wrap=km_agent_receive

$(MESH_TEST_BIN): $(MESH_TEST_SRCS) $(wildcard model/*.h model/include/*.h include/kohaku/*.h tests/model-mesh/*.h)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $(MESH_TEST_CFLAGS) $(MESH_TEST_SRCS) $(MESH_TEST_LDFLAGS) -o $@

MESH_FUZZ_BIN    := $(O)/model-mesh/fuzz_agent
MESH_FUZZ_SRCS   := $(MESH_SRCS) tests/model-mesh/fake.c tests/model-mesh/fuzz_agent.c
FUZZ_SECONDS     ?= 60

$(MESH_FUZZ_BIN): $(MESH_FUZZ_SRCS) $(wildcard model/*.h model/include/*.h include/kohaku/*.h tests/model-mesh/*.h)
	$(Q)mkdir -p $(dir $@)
	$(Q)clang -std=c11 -Wall -Wextra -Werror -g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all -Imodel -Imodel/include -Iinclude -Itests/model-mesh \
		$(MESH_FUZZ_SRCS) -o $@

.PHONY: fuzz-model-mesh
fuzz-model-mesh: $(MESH_FUZZ_BIN)
	$(Q)mkdir -p $(O)/model-mesh/corpus && cp -n tests/model-mesh/corpus/* $(O)/model-mesh/corpus/
	$(Q)$(MESH_FUZZ_BIN) -max_total_time=$(FUZZ_SECONDS) -max_len=4096 $(O)/model-mesh/corpus

$(MESH_INTEG_BIN): tests/model-mesh/test_integ.c tests/model/kmtest.h tests/model/kmagent.h $(MODEL_ASAN_LIB)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $(MODEL_TEST_CFLAGS) $< $(MODEL_ASAN_LIB) $(MODEL_LDLIBS) -o $@

TEST_SUITES += model-mesh
.PHONY: test-suite-model-mesh
test-suite-model-mesh:
	$(Q)mkdir -p $(O)/tests; log=$(O)/tests/model-mesh.log; : >$$log; st=0; \
	for b in $(MESH_TEST_BIN) $(MESH_INTEG_BIN); do \
	  n=$$(basename $$b); \
	  if ! $(MAKE) --no-print-directory $$b >$$log.$$n.build 2>&1; then \
	    echo "FAIL: model-mesh.$$n does not build (see $$log.$$n.build)" >>$$log; st=1; continue; fi; \
	  timeout 120 $$b >>$$log 2>$$log.$$n.stderr; rc=$$?; \
	  if [ $$rc -eq 124 ]; then echo "HANG: model-mesh.$$n (timeout 120 s)" >>$$log; st=1; \
	  elif [ $$rc -ne 0 ]; then echo "FAIL: model-mesh.$$n exited with status $$rc (see $$log.$$n.stderr)" >>$$log; st=1; fi; \
	done; \
	if ! $(MAKE) --no-print-directory $(MESH_FUZZ_BIN) >$$log.fuzz.build 2>&1; then \
	  echo "FAIL: model-mesh.fuzz_smoke does not build (see $$log.fuzz.build)" >>$$log; st=1; \
	elif rm -rf $(O)/model-mesh/smoke && mkdir -p $(O)/model-mesh/smoke && \
	  timeout 120 $(MESH_FUZZ_BIN) -runs=3000 -seed=1 -max_len=4096 $(O)/model-mesh/smoke tests/model-mesh/corpus >$$log.fuzz.stderr 2>&1; then \
	  echo "PASS: model-mesh.fuzz_smoke" >>$$log; \
	else echo "FAIL: model-mesh.fuzz_smoke (see $$log.fuzz.stderr)" >>$$log; st=1; fi; \
	grep -E '^(FAIL|HANG): ' $$log || true; exit $$st
