# tests/model/model-np.mk — registers the NPU suite model-np; its rules live with the unit in
# model/np.mk. Included by model/model.mk (tests/model/*.mk).
include model/np.mk
