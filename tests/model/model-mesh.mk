# tests/model/model-mesh.mk — the mesh side of the device model (agent.c, mesh.c, cu.c, tu.c) and its
# native test suite model-mesh (tests/model-mesh/, ASan + UBSan). Included by model/model.mk (tests/model/*.mk).
#   make test-suite-model-mesh     build and run it; writes $(O)/tests/model-mesh.log

MESH_SRCS       := model/agent.c model/mesh.c model/cu.c model/tu.c
MESH_TEST_SRCS  := $(MESH_SRCS) tests/model-mesh/fake.c tests/model-mesh/test_mesh.c
MESH_TEST_BIN   := $(O)/model-mesh/test_mesh
MESH_TEST_CFLAGS := -std=c11 -Wall -Wextra -Werror -g -O1 -fno-omit-frame-pointer \
	-fsanitize=address,undefined -fno-sanitize-recover=all \
	-Imodel -Imodel/include -Iinclude -Itests/model-mesh
# The test sees every control flit the agent receives, raw, through a link-time wrap.
MESH_TEST_LDFLAGS := -fsanitize=address,undefined -Wl,--wrap=km_agent_receive

$(MESH_TEST_BIN): $(MESH_TEST_SRCS) $(wildcard model/*.h model/include/*.h include/kohaku/*.h tests/model-mesh/*.h)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $(MESH_TEST_CFLAGS) $(MESH_TEST_SRCS) $(MESH_TEST_LDFLAGS) -o $@

TEST_SUITES += model-mesh
.PHONY: test-suite-model-mesh
test-suite-model-mesh:
	$(Q)mkdir -p $(O)/tests
	$(Q)log=$(O)/tests/model-mesh.log; \
	if ! $(MAKE) --no-print-directory $(MESH_TEST_BIN) >$$log.build 2>&1; then \
		cat $$log.build; echo "FAIL: model-mesh.build see $$log.build" >$$log; exit 1; fi; \
	timeout 120 $(MESH_TEST_BIN) >$$log 2>$$log.stderr; rc=$$?; \
	if [ $$rc -eq 124 ]; then echo "HANG: model-mesh.run (timeout 120 s)" >>$$log; \
	elif [ $$rc -ne 0 ] && ! grep -q '^FAIL: ' $$log; then \
		echo "FAIL: model-mesh.run exit $$rc (see $$log.stderr)" >>$$log; fi; \
	cat $$log; [ $$rc -eq 0 ]
