/*
 * target_check.c - what the modelled device's own compiler would refuse:
 * double precision on a device without FP64 (device.fp64 = 0), sub-group
 * block I/O wider than device.block_io_max_width, local-memory block I/O on
 * a device without it (device.local_block_io = 0).  sgemu still runs such a
 * kernel (its semantics are defined); callers warn, so that a width study
 * does not silently include launches the real toolchain cannot build
 * (docs/igc-comparison.md).
 */
#include "config.h"

static bool inst_uses_fp64(const isa_inst *in)
{
    return in->type == ISA_T_F64 || in->src_type == ISA_T_F64;
}

/* What a printf of a float leaves in double precision: clang-14 promotes a
 * float argument to double (cl_khr_fp64 is on in sgemu's compile) and the
 * value is stored into the printf record.  A compiler for a device without
 * FP64 passes the float as it is (OpenCL C 6.15.14.3; ocloc -device tgllp
 * builds printf("%f", x) of a float and refuses double arithmetic), so
 * these do not count; any other use of the double (a load, arithmetic, a global store)
 * is an instruction of its own that does. */
static bool printf_promotion(const isa_kernel *k, const isa_inst *in)
{
    if (!k->nprintf)
        return false;
    const isa_family f = isa_ops[in->op].family;
    if (f == ISA_FAM_CVT)
        return in->type == ISA_T_F64 && (in->src_type == ISA_T_F32 || in->src_type == ISA_T_F16);
    return f == ISA_FAM_ST && in->space == ISA_SPACE_PRIVATE && in->type == ISA_T_F64 &&
           in->vec <= 1;
}

/* the block pipe's operations: buffer, local and image block I/O; not
 * read_image* / write_image*, which share the image families and which
 * Intel's compiler builds at every width */
static bool inst_is_block_io(const isa_inst *in)
{
    return isa_op_block_io(in->op);
}

unsigned emu_target_refusals(const emu_config *cfg, const isa_kernel *k, uint32_t width)
{
    unsigned r = 0;
    for (uint32_t i = 0; i < k->ninst; i++) {
        const isa_inst *in = &k->inst[i];
        if (!cfg->fp64 && inst_uses_fp64(in) && !printf_promotion(k, in))
            r |= EMU_REFUSE_FP64;
        if (width > cfg->block_io_max_width && inst_is_block_io(in))
            r |= EMU_REFUSE_BLOCK_IO_WIDTH;
        if (!cfg->local_block_io && inst_is_block_io(in) && in->space == ISA_SPACE_LOCAL)
            r |= EMU_REFUSE_LOCAL_BLOCK_IO;
    }
    return r;
}

const char *emu_refusal_text(unsigned refusal)
{
    switch (refusal) {
    case EMU_REFUSE_FP64:
        return "it uses double precision, which the device lacks (device.fp64 = 0)";
    case EMU_REFUSE_BLOCK_IO_WIDTH:
        return "it uses sub-group block reads/writes wider than the device takes "
               "(device.block_io_max_width)";
    case EMU_REFUSE_LOCAL_BLOCK_IO:
        return "it uses sub-group block reads/writes of local memory, which the device "
               "lacks (device.local_block_io = 0)";
    default:
        return "unknown";
    }
}
