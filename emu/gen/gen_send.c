/* gen_send.c - send messages.  IGA gives the message type, the shared
 * function and the payload lengths; the message-specific control fields
 * (binding table index, SIMD mode, channel mask, data size) are read from
 * the descriptor as IGA's own message decoder reads them
 * (visa/iga/IGALibrary/Backend/Messages/MessageDecoderHDC.cpp) and
 * docs/gen.md lists.  Every memory access goes through emu/memory.c's
 * emu_mem_ptr: the same buffers, bounds checks and fault messages as
 * sgemu's own loads and stores. */
#include "gen_engine.h"
#include "gen_image.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static uint32_t desc_bits(uint32_t desc, int off, int len)
{
    return desc >> off & ((1u << len) - 1);
}

/* Bytes at GRF byte offset `off` of the thread, n of them, or NULL. */
static uint8_t *grf_at(gen_thread *t, uint32_t off, uint32_t n)
{
    if (off > t->grf_size || n > t->grf_size - off)
        return NULL;
    return t->grf + off;
}

/* Binding-table index of shared local memory (IGA's SLM_BTI) and of A32
 * stateless access (coherent / non-coherent). */
enum { BTI_SLM = 0xFE, BTI_A32 = 0xFF, BTI_A32_NC = 0xFD };

/* The A32 stateless space (binding-table index 0xFF/0xFD), where IGC
 * keeps private arrays and spills: the threads' scratch (Gen sends never
 * reach emu/'s per-work-item private space, so its tag is free here). */
#define SPACE_SCRATCH ISA_SPACE_PRIVATE

static int mem_fault(emu_run *run, gen_thread *t, uint32_t lane, isa_space sp, bool store,
                     uint64_t addr, uint32_t n, const char *why)
{
    char desc[256];
    if (sp == SPACE_SCRATCH)
        snprintf(desc, sizeof desc, "A32 stateless address 0x%" PRIx64 " (%u bytes: scratch, "
                 "%u a thread, then %u bytes of payload)", addr, t->scratch_size,
                 gen_scratch_stride(run->k->gen), t->scratch_size - t->indirect);
    else
        emu_mem_describe(run, sp, addr, desc, sizeof desc);
    return gen_fault(run, t, lane, SGEMU_EXIT_FAULT, "%s %s %s of %u bytes at %s", why,
                     sp == ISA_SPACE_LOCAL ? "local" : sp == SPACE_SCRATCH ? "scratch" : "global",
                     store ? "store" : "load", n, desc);
}

/* Host bytes of one lane's access of n bytes at addr in space sp, checked
 * (bounds, alignment) by emu/memory.c as for sgemu's own ISA; NULL after
 * a fault. */
static uint8_t *mem_at(emu_run *run, gen_thread *t, uint32_t lane, isa_space sp,
                       uint64_t addr, uint32_t n, bool store)
{
    const char *why = "out-of-bounds";
    uint32_t item = t->sg->id * run->width + lane;
    uint8_t *p;
    if (sp == SPACE_SCRATCH)   /* A32 stateless: the scratch arena */
        p = addr <= t->scratch_size && n <= t->scratch_size - addr ? t->scratch + addr : NULL;
    else
        p = emu_mem_ptr(run, sp, addr, n, store, item, &why);
    if (!p) {
        mem_fault(run, t, lane, sp, store, addr, n, why);
        return NULL;
    }
    /* scratch and byte scattered messages take any byte address (IGC packs
     * private structs at their size, and reads packed data with them) */
    if (sp != SPACE_SCRATCH && !t->unaligned_ok && addr % (n > 4 ? 4 : n)) {
        mem_fault(run, t, lane, sp, store, addr, n, "misaligned");
        return NULL;
    }
    gen_rec_addr(run, t, lane, sp, sp == SPACE_SCRATCH, addr);   /* timing records */
    return p;
}

/* One lane's access of n bytes at addr: copies between memory and `reg`. */
static int access(emu_run *run, gen_thread *t, uint32_t lane, isa_space sp, uint64_t addr,
                  uint8_t *reg, uint32_t n, bool store)
{
    uint8_t *p = mem_at(run, t, lane, sp, addr, n, store);
    if (!p)
        return run->fault->code;
    if (store)
        memcpy(p, reg, n);
    else
        memcpy(reg, p, n);
    return 0;
}

/* Pseudo binding-table index of a flat A64 address. */
/* BTI_FLAT64: an A64 address; BTI_SCRATCH_SS: an offset in the thread's
 * own scratch (an LSC message through the scratch surface state) */
enum { BTI_FLAT64 = 0x100, BTI_SCRATCH_SS = 0x101 };

/* The space and emu/ address of raw address v of lane `lane` under
 * binding-table index bti: BTI_FLAT64 (an A64 address), SLM, A32 stateless
 * (scratch and the payload), or the buffer argument the table maps bti to,
 * v an offset into it. */
static int resolve(emu_run *run, gen_thread *t, uint32_t lane, uint32_t bti, uint64_t v,
                   isa_space *sp, uint64_t *addr)
{
    *sp = ISA_SPACE_GLOBAL;
    *addr = v;
    if (bti == BTI_FLAT64 && v >= GEN_PRIVATE_A64 && v - GEN_PRIVATE_A64 < (UINT64_C(1) << 40)) {
        *sp = SPACE_SCRATCH;   /* private memory in a global buffer (gen_run.c) */
        *addr = t->gprivate + (v - GEN_PRIVATE_A64);
        return 0;
    }
    if (bti == BTI_FLAT64)
        return 0;
    if (bti == BTI_SLM) {
        /* IGC sets bit 28 in SLM addresses of local arguments (a constant
         * 0x10000000 base) and relies on the SLM unit ignoring it: sgemu
         * keeps the low 28 bits, far above any SLM size */
        *sp = ISA_SPACE_LOCAL;
        *addr = v & 0x0FFFFFFFu;
        t->slm_access = true;
        return 0;
    }
    if (bti == BTI_A32 || bti == BTI_A32_NC) {
        *sp = SPACE_SCRATCH;
        return 0;
    }
    if (bti == BTI_SCRATCH_SS) {   /* the thread's part of the arena, then v */
        *sp = SPACE_SCRATCH;
        *addr = (uint64_t)t->sg->id * gen_scratch_stride(run->k->gen) + v;
        return 0;
    }
    int16_t arg = bti < GEN_MAX_BTI ? run->k->gen->bti_arg[bti] : -1;
    if (arg < 0)
        return gen_fault(run, t, lane, SGEMU_EXIT_USER,
                         "binding table index %u names no buffer argument", bti);
    *addr = emu_buffer_base((uint32_t)arg) + v;
    return 0;
}

/* Address of lane i from the address payload at src0: `ab` bytes a lane
 * (8: A64, 4: a 32-bit offset), resolved under binding-table index bti. */
static int lane_address(emu_run *run, gen_thread *t, const gen_inst *in, uint32_t i,
                        uint32_t ab, uint32_t bti, isa_space *sp, uint64_t *addr)
{
    if (i * ab + ab > GEN_ADDR_SNAP ||
        !grf_at(t, in->src[0].reg * run->k->gen->grf_bytes + i * ab, ab))
        return gen_fault(run, t, i, SGEMU_EXIT_FAULT, "address payload outside the GRF");
    uint64_t v = 0;
    memcpy(&v, t->addr_snap + i * ab, ab);
    return resolve(run, t, i, bti, v, sp, addr);
}

/* The HDC message's binding-table index: A64, or the descriptor's [7:0]. */
static uint32_t hdc_bti(const gen_inst *in, bool a64)
{
    return a64 ? BTI_FLAT64 : desc_bits(in->desc, 0, 8);
}

/* The next lane at or after *i (of n) that the channel mask m executes,
 * with its address: 1, or 0 when none is left, or -1 after a fault. */
static int next_lane(emu_run *run, gen_thread *t, const gen_inst *in, uint64_t m,
                     uint32_t *i, uint32_t n, uint32_t ab, uint32_t bti, isa_space *sp,
                     uint64_t *addr)
{
    while (*i < n && *i < in->esize && !(m >> *i & 1))
        (*i)++;
    if (*i >= n || *i >= in->esize)
        return 0;
    return lane_address(run, t, in, *i, ab, bti, sp, addr) ? -1 : 1;
}

/* The message's lanes: the instruction's channels (execution mask and
 * predicate), lane i of the message being channel choff + i. */
static int scattered(emu_run *run, gen_thread *t, const gen_inst *in, bool store, bool a64,
                     uint32_t simd, uint32_t elems, uint32_t esz, uint32_t grf_esz)
{
    uint64_t m = gen_channels(t, in, true);
    uint32_t gb = run->k->gen->grf_bytes;
    uint32_t data = store ? in->src[1].reg * gb : in->dst.reg * gb;
    if (!store && in->dst.file == GEN_FILE_NULL)
        data = UINT32_MAX;
    uint64_t addr = 0;
    isa_space sp = ISA_SPACE_GLOBAL;
    int more;
    for (uint32_t i = 0; (more = next_lane(run, t, in, m, &i, simd, a64 ? 8 : 4,
                                           hdc_bti(in, a64), &sp, &addr)) > 0; i++) {
        for (uint32_t e = 0; e < elems; e++) {
            uint8_t tmp[8] = { 0 };
            uint8_t *reg = data == UINT32_MAX ? tmp
                         : grf_at(t, data + (e * simd + i) * grf_esz, grf_esz);
            if (!reg)
                return gen_fault(run, t, i, SGEMU_EXIT_FAULT, "message data outside the GRF");
            if (!store && grf_esz > esz)
                memset(reg, 0, grf_esz);
            if (access(run, t, i, sp, addr + (uint64_t)e * esz, reg, esz, store))
                return run->fault->code;
        }
    }
    return more < 0 ? run->fault->code : 0;
}

/* A64 byte/dword/qword gathering read and scattering write (DC1). */
static int a64_scattered(emu_run *run, gen_thread *t, const gen_inst *in, bool store)
{
    uint32_t sub = desc_bits(in->desc, 8, 2), ds = desc_bits(in->desc, 10, 2);
    uint32_t simd = desc_bits(in->desc, 12, 1) ? 16 : 8;
    if (sub == 1 || sub == 2)   /* dword or qword, 1 << ds per address */
        return scattered(run, t, in, store, true, simd, 1u << ds, sub == 1 ? 4 : 8,
                         sub == 1 ? 4 : 8);
    if (sub == 0) {             /* byte: 1, 2 or 4 bytes, one dword of GRF a lane */
        t->unaligned_ok = true;
        int rc = scattered(run, t, in, store, true, simd, 1, 1u << ds, 4);
        t->unaligned_ok = false;
        return rc;
    }
    return gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_USER,
                     "A64 scattered message subtype %u is not supported by sgemu", sub);
}

/* Untyped surface read/write (BTI or A64): the enabled channels of X, Y,
 * Z, W (descriptor bits 8-11 disable), each a dword per lane. */
static int untyped(emu_run *run, gen_thread *t, const gen_inst *in, bool store, bool a64)
{
    uint32_t dis = desc_bits(in->desc, 8, 4), sm = desc_bits(in->desc, 12, 2);
    uint32_t simd = sm == 1 ? 16 : sm == 2 ? 8 : 0;
    if (!simd)
        return gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_USER,
                         "untyped surface message SIMD mode %u is not supported by sgemu", sm);
    uint64_t m = gen_channels(t, in, true);
    uint32_t gb = run->k->gen->grf_bytes;
    uint32_t data = store ? in->src[1].reg * gb : in->dst.reg * gb;
    uint64_t addr = 0;
    isa_space sp = ISA_SPACE_GLOBAL;
    int more;
    for (uint32_t i = 0; (more = next_lane(run, t, in, m, &i, simd, a64 ? 8 : 4,
                                           hdc_bti(in, a64), &sp, &addr)) > 0; i++) {
        uint32_t k = 0;
        for (uint32_t c = 0; c < 4; c++) {
            if (dis >> c & 1)
                continue;
            uint8_t *reg = grf_at(t, data + (k * simd + i) * 4, 4);
            if (!reg)
                return gen_fault(run, t, i, SGEMU_EXIT_FAULT, "message data outside the GRF");
            if (access(run, t, i, sp, addr + 4 * c, reg, 4, store))
                return run->fault->code;
            k++;
        }
    }
    return more < 0 ? run->fault->code : 0;
}

/* Byte scattered read/write (DC0, A32: SLM or a surface): [8] SIMD16,
 * [11:10] bytes a lane (1, 2, 4), each lane a dword of GRF. */
static int byte_scattered(emu_run *run, gen_thread *t, const gen_inst *in, bool store)
{
    uint32_t simd = desc_bits(in->desc, 8, 1) ? 16 : 8, ds = desc_bits(in->desc, 10, 2);
    if (ds > 2)
        return gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_USER, "byte scattered data size %u",
                         ds);
    t->unaligned_ok = true;
    int rc = scattered(run, t, in, store, false, simd, 1, 1u << ds, 4);
    t->unaligned_ok = false;
    return rc;
}

/* A float of `bits` bits (16, 32 or 64) as a double, and back; 16-bit
 * atomics (cl_ext_float_atomics' atomic_half min/max) are binary16. */
static double fbits(uint64_t v, uint32_t bits)
{
    if (bits == 16)
        return sgemu_half_to_float((uint16_t)v);
    if (bits == 64) {
        double d;
        memcpy(&d, &v, 8);
        return d;
    }
    float f;
    uint32_t u = (uint32_t)v;
    memcpy(&f, &u, 4);
    return f;
}

static uint64_t bitsf(double d, uint32_t bits)
{
    uint64_t v = 0;
    if (bits == 16)
        return sgemu_double_to_half(d);
    if (bits == 64) {
        memcpy(&v, &d, 8);
    } else {
        float f = (float)d;
        uint32_t u;
        memcpy(&u, &f, 4);
        v = u;
    }
    return v;
}

/* The `bits`-bit two's-complement value in the low bits of v. */
static int64_t sign_extend(uint64_t v, uint32_t bits)
{
    if (bits >= 64)
        return (int64_t)v;
    const uint64_t sign = UINT64_C(1) << (bits - 1);
    v &= (sign << 1) - 1;
    return (int64_t)(v ^ sign) - (int64_t)sign;
}

/* Atomic operations (GEN_ATOMIC_*: IGA's AtomicIntegerOp, then the float
 * ones) on a value of `bits` bits: the new memory value from the old one and
 * the operands a (and b for compare-and-swap); false for an unknown op.
 * Float min/max return the number when one side is NaN (IEEE minNum). */
static bool atomic_op(uint32_t op, uint32_t bits, uint64_t old, uint64_t a, uint64_t b,
                      uint64_t *out)
{
    const uint64_t m = bits == 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;
    const int64_t so = sign_extend(old, bits), sa = sign_extend(a, bits);
    const bool fl = op >= GEN_ATOMIC_FADD && op <= GEN_ATOMIC_FCMPWR;
    const double fo = fl ? fbits(old, bits) : 0, fa = fl ? fbits(a, bits) : 0;
    switch (op) {
    case GEN_ATOMIC_AND: *out = old & a; break;
    case GEN_ATOMIC_OR: *out = old | a; break;
    case GEN_ATOMIC_XOR: *out = old ^ a; break;
    case GEN_ATOMIC_MOV: *out = a; break;                   /* store (exchange) */
    case GEN_ATOMIC_INC: *out = old + 1; break;
    case GEN_ATOMIC_DEC: case GEN_ATOMIC_PREDEC: *out = old - 1; break;
    case GEN_ATOMIC_ADD: *out = old + a; break;
    case GEN_ATOMIC_SUB: *out = old - a; break;
    case GEN_ATOMIC_REVSUB: *out = a - old; break;
    case GEN_ATOMIC_IMAX: *out = sa > so ? a : old; break;
    case GEN_ATOMIC_IMIN: *out = sa < so ? a : old; break;
    case GEN_ATOMIC_UMAX: *out = (a & m) > (old & m) ? a : old; break;
    case GEN_ATOMIC_UMIN: *out = (a & m) < (old & m) ? a : old; break;
    case GEN_ATOMIC_CMPWR: *out = (old & m) == (a & m) ? b : old; break;  /* compare a, swap b */
    case GEN_ATOMIC_LOAD: *out = old; break;
    case GEN_ATOMIC_FADD: *out = bitsf(fo + fa, bits); break;
    case GEN_ATOMIC_FSUB: *out = bitsf(fo - fa, bits); break;
    case GEN_ATOMIC_FMIN: *out = isnan(fa) || fo <= fa ? old : a; break;
    case GEN_ATOMIC_FMAX: *out = isnan(fa) || fo >= fa ? old : a; break;
    case GEN_ATOMIC_FCMPWR: *out = fo == fa ? b : old; break;
    default: return false;
    }
    *out &= m;
    return true;
}

/* Operands an atomic operation takes from the message data. */
static uint32_t atomic_operands(uint32_t op)
{
    switch (op) {
    case GEN_ATOMIC_CMPWR: case GEN_ATOMIC_FCMPWR: return 2;
    case GEN_ATOMIC_INC: case GEN_ATOMIC_DEC: case GEN_ATOMIC_PREDEC: case GEN_ATOMIC_LOAD:
        return 0;
    default: return 1;
    }
}

/* An atomic message's lanes in channel order: `simd` lanes, addresses of
 * ab bytes under binding-table index bti, operand k of lane i at
 * src1 + k * stride + i * nb; the old value of lane i to dst + i * nb when
 * `ret`. */
static int atomic_lanes(emu_run *run, gen_thread *t, const gen_inst *in, uint32_t op,
                        uint32_t bits, uint32_t simd, uint32_t ab, uint32_t bti,
                        uint32_t stride, bool ret)
{
    uint64_t probe;
    if (op == GEN_ATOMIC_CMPWR8B || !atomic_op(op, bits, 0, 0, 0, &probe))
        return gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_USER,
                         "atomic operation 0x%x is not supported by sgemu", op);
    const uint32_t gb = run->k->gen->grf_bytes, nb = bits / 8, nsrc = atomic_operands(op);
    uint64_t m = gen_channels(t, in, true), addr = 0;
    isa_space sp = ISA_SPACE_GLOBAL;
    int more;
    for (uint32_t i = 0; (more = next_lane(run, t, in, m, &i, simd, ab, bti, &sp, &addr)) > 0;
         i++) {
        uint64_t a = 0, b = 0, old = 0, nv = 0;
        for (uint32_t k = 0; k < nsrc; k++) {
            const uint8_t *s = grf_at(t, in->src[1].reg * gb + k * stride + i * nb, nb);
            if (!s)
                return gen_fault(run, t, i, SGEMU_EXIT_FAULT, "message data outside the GRF");
            memcpy(k ? &b : &a, s, nb);
        }
        uint8_t *p = mem_at(run, t, i, sp, addr, nb, true);
        if (!p)
            return run->fault->code;
        memcpy(&old, p, nb);
        atomic_op(op, bits, old, a, b, &nv);
        memcpy(p, &nv, nb);
        if (ret && in->dst.file == GEN_FILE_GRF) {
            uint8_t *r = grf_at(t, in->dst.reg * gb + i * nb, nb);
            if (!r)
                return gen_fault(run, t, i, SGEMU_EXIT_FAULT, "message data outside the GRF");
            memcpy(r, &old, nb);
        }
    }
    return more < 0 ? run->fault->code : 0;
}

/* Untyped atomic float operation (HDC, DC1; IGA's MT1A_UF and MT1A_A64_UF):
 * [10:8] the operation in IGA's order (1 max, 2 min, 3 compare-and-swap,
 * 4 add, 5 subtract), [12] SIMD8 (else SIMD16; A64 is always SIMD8 and its
 * [12] must be 0: 32-bit data), [13] the old value is returned. */
static int float_atomic(emu_run *run, gen_thread *t, const gen_inst *in, bool a64)
{
    static const uint32_t ops[8] = { UINT32_MAX, GEN_ATOMIC_FMAX, GEN_ATOMIC_FMIN,
                                     GEN_ATOMIC_FCMPWR, GEN_ATOMIC_FADD, GEN_ATOMIC_FSUB,
                                     UINT32_MAX, UINT32_MAX };
    const uint32_t op = ops[desc_bits(in->desc, 8, 3)];
    if (op == UINT32_MAX || (a64 && desc_bits(in->desc, 12, 1)))
        return gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_USER,
                         "float atomic message 0x%08x is not supported by sgemu", in->desc);
    const uint32_t simd = a64 || desc_bits(in->desc, 12, 1) ? 8 : 16;
    return atomic_lanes(run, t, in, op, 32, simd, a64 ? 8 : 4, hdc_bti(in, a64), simd * 4,
                        desc_bits(in->desc, 13, 1));
}

/* Untyped atomic integer operation (HDC): A32 (SLM or a surface; [12]
 * SIMD8, else SIMD16; 32-bit) or A64 (always SIMD8; [12] 64-bit data);
 * [11:8] the operation, [13]: the old value is returned. */
static int atomic(emu_run *run, gen_thread *t, const gen_inst *in, bool a64)
{
    const uint32_t simd = a64 ? 8 : desc_bits(in->desc, 12, 1) ? 8 : 16;
    const uint32_t bits = a64 && desc_bits(in->desc, 12, 1) ? 64 : 32;
    return atomic_lanes(run, t, in, desc_bits(in->desc, 8, 4), bits, simd, a64 ? 8 : 4,
                        hdc_bti(in, a64), simd * bits / 8, desc_bits(in->desc, 13, 1));
}

/* OWord/HWord block read/write: one contiguous block for the whole
 * message (sub-group block I/O), its address in the header (src0): A64:
 * qword 0, bytes; A32: dword 2, bytes for MT0R_OWUB and OWords for
 * MT0R_OWB/MT0W_OWB, in the surface of the binding-table index [7:0] (or
 * SLM, or scratch).  [10:8] the size: 0 one OWord in the low half of the
 * GRF, 1 in the high half, n = 2..4: 1 << (n - 1) OWords; A64 [12:11]
 * subtype 3: 1 << [10:8] HWords.  Data from/to GRFs from dst/src1. */
static int block(emu_run *run, gen_thread *t, const gen_inst *in, bool store)
{
    const gen_program *p = run->k->gen;
    const uint32_t gb = p->grf_bytes, code = desc_bits(in->desc, 8, 3);
    const bool a64 = in->msg_type == GEN_MSG_MT1R_A64_B || in->msg_type == GEN_MSG_MT1W_A64_B;
    uint32_t bytes, skip = 0;
    if (a64 && desc_bits(in->desc, 11, 2) == 3)
        bytes = 32u << code;
    else if (a64 && desc_bits(in->desc, 11, 2) == 2)
        return gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_USER,
                         "dual block messages are not supported by sgemu");
    else if (code <= 1) {
        bytes = 16;
        skip = code * 16;
    } else if (code <= 4)
        bytes = 16u << (code - 1);
    else
        return gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_USER, "block size code %u", code);
    const uint8_t *h = grf_at(t, in->src[0].reg * gb, 16);
    if (!h)
        return gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_FAULT, "header outside the GRF");
    uint64_t addr = 0;
    isa_space sp = ISA_SPACE_GLOBAL;
    if (a64) {
        memcpy(&addr, h, 8);
    } else {
        uint32_t off;
        memcpy(&off, h + 8, 4);
        if (resolve(run, t, UINT32_MAX, desc_bits(in->desc, 0, 8),
                    in->msg_type == GEN_MSG_MT0R_OWUB ? off : (uint64_t)off * 16, &sp, &addr))
            return run->fault->code;
    }
    uint32_t reg = store ? in->src[1].reg : in->dst.reg;
    if (!store && in->dst.file != GEN_FILE_GRF)
        return 0;
    uint8_t *r = grf_at(t, reg * gb + skip, bytes);
    if (!r)
        return gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_FAULT, "message data outside the GRF");
    return access(run, t, 0, sp, addr, r, bytes, store);
}

/* HWord scratch block read/write (spill and fill): [11:0] the offset in
 * HWords (32 bytes) from the scratch pointer in the header's dword 5
 * ([31:10], as r0.5), [13:12] 1 << n HWords; data from/to whole GRFs. */
static int scratch_block(emu_run *run, gen_thread *t, const gen_inst *in, bool store)
{
    const uint32_t gb = run->k->gen->grf_bytes;
    const uint32_t bytes = 32u << desc_bits(in->desc, 12, 2);
    const uint8_t *h = grf_at(t, in->src[0].reg * gb, 24);
    if (!h)
        return gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_FAULT, "header outside the GRF");
    uint32_t base;
    memcpy(&base, h + 20, 4);
    uint64_t addr = (uint64_t)(base & ~1023u) + 32u * desc_bits(in->desc, 0, 12);
    if (!store && in->dst.file != GEN_FILE_GRF)
        return 0;
    uint8_t *r = grf_at(t, (store ? in->src[1].reg : in->dst.reg) * gb, bytes);
    if (!r)
        return gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_FAULT, "message data outside the GRF");
    return access(run, t, 0, SPACE_SCRATCH, addr, r, bytes, store);
}

/* Does the LSC message's surface state name the thread's scratch?  On
 * Xe-HPC IGC reaches private arrays through the scratch surface:
 * `a0.2 = r0.5 >> 4` then `send.ugm ... ss[a0.2]` with a32 offsets into
 * the thread's scratch; r0.5 holds the thread's part of the arena
 * (gen_run.c), so the offset must be that part's >> 4. */
static bool scratch_surface(const emu_run *run, const gen_thread *t, const gen_lsc *l)
{
    uint32_t v = 0;
    if (l->ss_a0 >= GEN_A0_BYTES / 4)
        return false;
    memcpy(&v, t->a0 + 4 * l->ss_a0, 4);
    return v == (uint32_t)((uint64_t)t->sg->id * gen_scratch_stride(run->k->gen) >> 4);
}

/* An LSC message (Xe-HPG+; gen_lsc.c has its fields from IGA's decoding).
 * Addresses: flat (A64 global, or on SLM an offset into local memory),
 * bti[N] (an offset into the surface of binding-table index N; 255: A32
 * stateless).  Data: element e of lane i at e * stride + i * reg_bytes,
 * stride the lanes' bytes rounded up to whole GRFs; transposed (xNt): one
 * address (lane 0) and N elements in a row. */
static int lsc(emu_run *run, gen_thread *t, const gen_inst *in)
{
    const gen_lsc *l = &in->lsc;
    const uint32_t gb = run->k->gen->grf_bytes;
    if (l->op == GEN_LSC_FENCE) {   /* memory is coherent in sgemu: only the response */
        uint8_t *r = in->rlen && in->dst.file == GEN_FILE_GRF
                   ? grf_at(t, in->dst.reg * gb, in->rlen * gb) : NULL;
        if (r)
            memset(r, 0, (size_t)in->rlen * gb);
        return 0;
    }
    if (l->op == GEN_LSC_OTHER || l->model == GEN_LSC_BSS ||
        (l->model == GEN_LSC_SS && !scratch_surface(run, t, l)) || l->addr_bytes == 2 ||
        (l->reg_bytes != l->mem_bytes && l->transpose))
        return gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_USER,
                         "this LSC message is not supported by sgemu");
    uint32_t bti = l->model == GEN_LSC_SS ? (uint32_t)BTI_SCRATCH_SS
                 : l->model == GEN_LSC_BTI ? l->bti
                 : in->sfid == GEN_SFID_SLM ? (uint32_t)BTI_SLM
                 : l->addr_bytes == 8 ? (uint32_t)BTI_FLAT64 : (uint32_t)BTI_A32;
    const uint32_t stride = (in->esize * l->reg_bytes + gb - 1) / gb * gb;
    const bool store = l->op == GEN_LSC_STORE || l->op == GEN_LSC_STORE_QUAD;
    if (l->op == GEN_LSC_ATOMIC)
        return atomic_lanes(run, t, in, l->atomic, 8u * l->mem_bytes, in->esize, l->addr_bytes,
                            bti, stride, in->dst.file == GEN_FILE_GRF);
    if (!store && in->dst.file != GEN_FILE_GRF)
        return 0;   /* a load to null: a prefetch */
    const uint32_t data = (store ? in->src[1].reg : in->dst.reg) * gb;
    if (l->transpose) {
        uint64_t addr = 0;
        isa_space sp = ISA_SPACE_GLOBAL;
        uint32_t n = (uint32_t)l->vec * l->mem_bytes;
        uint8_t *r = grf_at(t, data, n);
        if (lane_address(run, t, in, 0, l->addr_bytes, bti, &sp, &addr))
            return run->fault->code;
        if (!r)
            return gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_FAULT, "message data outside the GRF");
        return access(run, t, 0, sp, addr, r, n, store);
    }
    /* quad messages: the enabled channels of x, y, z, w, 4 bytes apart in
     * memory; others: vec elements a lane */
    const uint32_t chans = l->chmask ? l->chmask : (1u << l->vec) - 1;
    uint64_t m = gen_channels(t, in, true), addr = 0;
    isa_space sp = ISA_SPACE_GLOBAL;
    int more;
    /* global (UGM) loads and stores take any byte address: IGC reads a
     * packed struct's int at an odd offset with one d32 message */
    t->unaligned_ok = l->mem_bytes < 4 || in->sfid != GEN_SFID_SLM;
    for (uint32_t i = 0; (more = next_lane(run, t, in, m, &i, in->esize, l->addr_bytes, bti,
                                           &sp, &addr)) > 0; i++) {
        uint32_t k = 0;
        for (uint32_t c = 0; c < 32 && chans >> c; c++) {
            if (!(chans >> c & 1))
                continue;
            uint8_t *reg = grf_at(t, data + k * stride + i * l->reg_bytes, l->reg_bytes);
            if (!reg) {
                t->unaligned_ok = false;
                return gen_fault(run, t, i, SGEMU_EXIT_FAULT, "message data outside the GRF");
            }
            if (!store && l->reg_bytes > l->mem_bytes)
                memset(reg, 0, l->reg_bytes);
            if (access(run, t, i, sp, addr + (uint64_t)c * l->mem_bytes, reg, l->mem_bytes,
                       store)) {
                t->unaligned_ok = false;
                return run->fault->code;
            }
            k++;
        }
    }
    t->unaligned_ok = false;
    return more < 0 ? run->fault->code : 0;
}

/* A barrier signal.  With named barriers (Xe-HPC, barrier_count > 1) the
 * header's dword 2 names the barrier: [7:0] its ID (0: the work-group's
 * barrier), [15:14] the thread's role (0 producer and consumer, 1
 * producer, 2 consumer), [23:16] the producer threads that complete it
 * (IGC's named_barrier_init count); `sync.bar` waits for it.  Producers
 * count toward completion, consumers wait. */
static int barrier_signal(emu_run *run, gen_thread *t, const gen_inst *in)
{
    const gen_program *p = run->k->gen;
    uint32_t id = 0, role = 0, producers = 0;
    if (p->barrier_count > 1) {
        const uint8_t *h = grf_at(t, in->src[0].reg * p->grf_bytes + 8, 4);
        if (!h)
            return gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_FAULT, "message header outside the GRF");
        uint32_t w;
        memcpy(&w, h, 4);
        id = w & 0xff;
        role = w >> 14 & 3;
        producers = w >> 16 & 0xff;
        if (id >= p->barrier_count || role == 3 || (id && !producers))
            return gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_FAULT,
                             "named barrier signal 0x%x: barrier %u of %u, role %u, %u "
                             "producers", w, id, p->barrier_count, role, producers);
    }
    gen_barrier *b = &t->bars[id];
    if (id)
        b->threads = producers;
    t->bar = b;
    t->bar_gen = b->gen;
    t->bar_signaled = role != 1;        /* a producer only does not wait */
    if (role != 2 && ++b->signaled >= b->threads) {
        b->signaled = 0;
        b->gen++;
        (*t->bar_done)++;
    }
    return 0;
}

int gen_exec_send(emu_run *run, gen_thread *t, const gen_inst *in)
{
    if (in->eot) {   /* end of thread (thread spawner message) */
        t->done = true;
        return 0;
    }
    if (in->sfid == GEN_SFID_GTWY) {
        /* message gateway: [2:0] the sub-function, 4 = barrier (IGA's
         * MessageDecoderOther); the thread signals its work-group's barrier
         * and waits for it at the next sync.bar */
        if (desc_bits(in->desc, 0, 3) != 4)
            return gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_USER,
                             "gateway message %u is not supported by sgemu",
                             desc_bits(in->desc, 0, 3));
        if (t->bar_signaled)
            return gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_FAULT,
                             "barrier signaled twice before waiting for it");
        return barrier_signal(run, t, in);
    }
    /* the hardware reads the payload before it writes the response: IGC
     * gives a gathering read's response the registers of its addresses */
    uint32_t a0 = in->src[0].reg * run->k->gen->grf_bytes;
    memset(t->addr_snap, 0, GEN_ADDR_SNAP);
    if (a0 < t->grf_size)
        memcpy(t->addr_snap, t->grf + a0,
               t->grf_size - a0 < GEN_ADDR_SNAP ? t->grf_size - a0 : GEN_ADDR_SNAP);
    if (in->sfid == GEN_SFID_SMPL)
        return gen_sampler(run, t, in);
    if (in->lsc.op != GEN_LSC_NONE)
        return lsc(run, t, in);
    if (in->msg_type < 0 || in->msg_type >= GEN_MSG_COUNT)
        return gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_USER,
                         "send to shared function %d is not supported by sgemu", in->sfid);
    int rc;
    switch ((gen_msg_handler)gen_msg_handlers[in->msg_type]) {
    case GEN_H_FENCE: {   /* memory is coherent in sgemu: only the response */
        uint32_t gb = run->k->gen->grf_bytes;
        uint8_t *r = in->rlen && in->dst.file == GEN_FILE_GRF
                   ? grf_at(t, in->dst.reg * gb, in->rlen * gb) : NULL;
        if (r)
            memset(r, 0, (size_t)in->rlen * gb);
        return 0;
    }
    case GEN_H_BYTE_SCATTERED_READ: return byte_scattered(run, t, in, false);
    case GEN_H_BYTE_SCATTERED_WRITE: return byte_scattered(run, t, in, true);
    case GEN_H_UNTYPED_ATOMIC: return atomic(run, t, in, false);
    case GEN_H_SCRATCH_READ: return scratch_block(run, t, in, false);
    case GEN_H_SCRATCH_WRITE: return scratch_block(run, t, in, true);
    case GEN_H_BLOCK_READ: return block(run, t, in, false);
    case GEN_H_BLOCK_WRITE: return block(run, t, in, true);
    case GEN_H_A64_ATOMIC: return atomic(run, t, in, true);
    case GEN_H_UNTYPED_FLOAT_ATOMIC: return float_atomic(run, t, in, false);
    case GEN_H_A64_FLOAT_ATOMIC: return float_atomic(run, t, in, true);
    case GEN_H_A64_SCATTERED_READ: return a64_scattered(run, t, in, false);
    case GEN_H_A64_SCATTERED_WRITE: return a64_scattered(run, t, in, true);
    case GEN_H_UNTYPED_READ:
        rc = untyped(run, t, in, false, in->msg_type == GEN_MSG_MT1R_A64_US);
        return rc;
    case GEN_H_UNTYPED_WRITE:
        rc = untyped(run, t, in, true, in->msg_type == GEN_MSG_MT1W_A64_US);
        return rc;
    case GEN_H_TYPED_READ: return gen_typed(run, t, in, false);
    case GEN_H_TYPED_WRITE: return gen_typed(run, t, in, true);
    case GEN_H_MEDIA_READ: return gen_media_block(run, t, in, false);
    case GEN_H_MEDIA_WRITE: return gen_media_block(run, t, in, true);
    case GEN_H_NONE:
    default:
        return gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_USER,
                         "message %s is not supported by sgemu yet",
                         gen_msg_names[in->msg_type]);
    }
}
