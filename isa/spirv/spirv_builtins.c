/* spirv_builtins.c - SPIR-V BuiltIn input variables -> sgemu special values
 * (%global_id, %sub_group_local_id, ...).  One row per BuiltIn. */
#include "spirv_private.h"

#define SPV_BUILTINS(X) \
    X(GlobalInvocationId,        GLOBAL_ID) \
    X(GlobalSize,                GLOBAL_SIZE) \
    X(GlobalOffset,              GLOBAL_OFFSET) \
    X(LocalInvocationId,         LOCAL_ID) \
    X(WorkgroupSize,             LOCAL_SIZE) \
    X(EnqueuedWorkgroupSize,     ENQUEUED_LOCAL_SIZE) \
    X(WorkgroupId,               GROUP_ID) \
    X(NumWorkgroups,             NUM_GROUPS) \
    X(WorkDim,                   WORK_DIM) \
    X(GlobalLinearId,            GLOBAL_LINEAR_ID) \
    X(LocalInvocationIndex,      LOCAL_LINEAR_ID) \
    X(SubgroupSize,              SUB_GROUP_SIZE) \
    X(SubgroupMaxSize,           MAX_SUB_GROUP_SIZE) \
    X(NumSubgroups,              NUM_SUB_GROUPS) \
    X(NumEnqueuedSubgroups,      ENQUEUED_NUM_SUB_GROUPS) \
    X(SubgroupId,                SUB_GROUP_ID) \
    X(SubgroupLocalInvocationId, SUB_GROUP_LOCAL_ID)

isa_special spv_builtin_special(uint32_t builtin)
{
    switch (builtin) {
#define X(B, S) case SpvBuiltIn##B: return ISA_SP_##S;
    SPV_BUILTINS(X)
#undef X
    default: return ISA_SP_COUNT;
    }
}
