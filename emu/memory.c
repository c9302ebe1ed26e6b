/* memory.c - the address spaces and the ordinary loads, stores and atomics.
 * Every access is bounds-checked against the buffer it belongs to; host
 * memory outside the emulated buffers is never touched. */
#include "emu_private.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static const char *arg_name_of_buffer(const emu_run *run, uint64_t addr)
{
    uint64_t idx = (addr >> EMU_BUF_SHIFT) - 1;
    if ((addr >> EMU_BUF_SHIFT) == 0 || idx >= run->k->narg)
        return NULL;
    return run->k->args[idx].name;
}

/* The buffer argument whose base lies less than half a region above addr
 * (an access before its start: a halo, a negative index), or NULL. */
static const char *buffer_just_above(const emu_run *run, uint64_t addr, uint64_t *before)
{
    uint64_t off = addr & EMU_BUF_OFFSET_MASK, idx = addr >> EMU_BUF_SHIFT;
    if (off < (UINT64_C(1) << (EMU_BUF_SHIFT - 1)) || idx >= run->k->narg ||
        run->args[idx].kind != SGEMU_VAL_BUFFER)
        return NULL;
    *before = (UINT64_C(1) << EMU_BUF_SHIFT) - off;
    return run->k->args[idx].name;
}

void emu_mem_describe(const emu_run *run, isa_space space, uint64_t addr,
                      char *buf, size_t n)
{
    const char *name = NULL, *above = NULL;
    uint64_t before = 0;
    if (space == ISA_SPACE_GLOBAL || space == ISA_SPACE_CONSTANT) {
        above = buffer_just_above(run, addr, &before);
        name = above ? NULL : arg_name_of_buffer(run, addr);
    }
    if (above) {
        snprintf(buf, n, "address 0x%" PRIx64 " (%" PRIu64 " bytes before buffer '%s')",
                 addr, before, above);
    } else if (name) {
        const sgemu_argval *v = &run->args[(addr >> EMU_BUF_SHIFT) - 1];
        snprintf(buf, n, "address 0x%" PRIx64 " (buffer '%s', offset %" PRIu64
                 ", size %zu bytes)", addr, name, addr & EMU_BUF_OFFSET_MASK,
                 v->kind == SGEMU_VAL_BUFFER ? v->bytes : (size_t)0);
    } else if (space == ISA_SPACE_LOCAL) {
        snprintf(buf, n, "local address 0x%" PRIx64 " (local memory is %u bytes)",
                 addr, run->local_total);
    } else if (space == ISA_SPACE_PRIVATE) {
        snprintf(buf, n, "private address 0x%" PRIx64 " (private memory is %u bytes)",
                 addr, run->k->private_mem);
    } else {
        snprintf(buf, n, "address 0x%" PRIx64 " (not in any buffer)", addr);
    }
}

uint8_t *emu_mem_ptr(emu_run *run, isa_space space, uint64_t addr, uint32_t n,
                     bool store, uint32_t item, const char **why)
{
    *why = "out-of-bounds";
    switch (space) {
    case ISA_SPACE_GLOBAL:
    case ISA_SPACE_CONSTANT: {
        uint64_t hi = addr >> EMU_BUF_SHIFT, off = addr & EMU_BUF_OFFSET_MASK;
        if (hi == 0 || hi > run->k->narg)
            return NULL;
        const isa_arg *a = &run->k->args[hi - 1];
        const sgemu_argval *v = &run->args[hi - 1];
        if ((a->kind != ISA_ARG_GLOBAL && a->kind != ISA_ARG_CONSTANT) ||
            v->kind != SGEMU_VAL_BUFFER)
            return NULL;
        if (store && a->kind == ISA_ARG_CONSTANT) {
            *why = "store to constant memory";
            return NULL;
        }
        if (off > v->bytes || n > v->bytes - off)
            return NULL;
        return v->data + off;
    }
    case ISA_SPACE_LOCAL:
        if (addr > run->wg->local_bytes || n > run->wg->local_bytes - addr)
            return NULL;
        return run->wg->local_mem + addr;
    case ISA_SPACE_PRIVATE: {
        uint32_t size = run->k->private_mem;
        if (addr > size || n > size - addr || item >= run->wg->items)
            return NULL;
        return run->wg->private_mem + (size_t)item * size + addr;
    }
    default:
        *why = "invalid address space";
        return NULL;
    }
}

/* Static, so that emu_mem_exec keeps it inline (an out-of-line call was
 * +2.3 % of emu_mem_exec's instructions on local_reduce under callgrind). */
static void lane_addresses(const emu_run *run, emu_sg *sg, const isa_operand *o,
                           uint64_t *out)
{
    const isa_addr *a = &o->addr;
    uint32_t w = sg->l.width;
    const uint64_t *base = a->base_kind == ISA_OPND_REG ? lanes_reg(&sg->l, a->base) : NULL;
    const uint64_t *idx = a->has_index ? lanes_reg(&sg->l, a->index) : NULL;
    uint64_t argbase = a->base_kind == ISA_OPND_ARG ? run->arg_values[a->base] : 0;
    /* the index type's switch outside the lane loops; an argument base
     * is folded into the displacement, a power-of-two scale is a shift
     * (the same value modulo 2^64) */
    uint64_t disp = argbase + (uint64_t)a->disp;
    if (!idx) {
        for (uint32_t l = 0; l < w; l++)
            out[l] = (base ? base[l] : 0) + disp;
        return;
    }
    uint64_t scale = (uint64_t)(int64_t)a->scale;
    uint32_t sh = scale && !(scale & (scale - 1)) ? (uint32_t)__builtin_ctzll(scale) : 64;
#define LANE_ADDRS(IDX)                                                         \
    do {                                                                        \
        if (sh < 64 && !base)                                                   \
            for (uint32_t l = 0; l < w; l++)                                    \
                out[l] = ((uint64_t)(IDX) << sh) + disp;                        \
        else                                                                    \
            for (uint32_t l = 0; l < w; l++)                                    \
                out[l] = (base ? base[l] : 0) + (uint64_t)(IDX) * scale + disp; \
    } while (0)
    switch (a->index_type) {
    case ISA_T_U32:
        LANE_ADDRS((uint32_t)idx[l]);
        break;
    case ISA_T_I64:
    case ISA_T_U64:
        LANE_ADDRS(idx[l]);
        break;
    default:
        LANE_ADDRS((int64_t)(int32_t)(uint32_t)idx[l]);
        break;
    }
#undef LANE_ADDRS
}

void emu_mem_lane_addresses(const emu_run *run, emu_sg *sg, const isa_operand *o,
                            uint64_t *out)
{
    lane_addresses(run, sg, o, out);
}

static int access_fault(emu_run *run, emu_sg *sg, uint32_t lane, uint32_t pc,
                        const char *kind, isa_space space, uint64_t addr,
                        uint32_t n, const char *why)
{
    char desc[256];
    emu_mem_describe(run, space, addr, desc, sizeof desc);
    emu_fault_at(run, addr);
    return emu_fault(run, SGEMU_EXIT_FAULT, sg, lane, pc, "%s %s %s of %u bytes at %s",
                     why, isa_space_names[space], kind, n, desc);
}

/* d[l] = the 32-bit word at p + 4 l, zero-extended (little-endian host),
 * and its inverse, the low words of s[l] to p + 4 l: four lanes a step
 * with SSE2. */
static inline void load_u32_rows(uint64_t *d, const uint8_t *p, uint32_t w)
{
    uint32_t l = 0;
#if defined(__SSE2__)
    const __m128i z = _mm_setzero_si128();
    for (; l + 4 <= w; l += 4) {
        __m128i v = _mm_loadu_si128((const __m128i *)(p + 4 * l));
        _mm_storeu_si128((__m128i *)(d + l), _mm_unpacklo_epi32(v, z));
        _mm_storeu_si128((__m128i *)(d + l + 2), _mm_unpackhi_epi32(v, z));
    }
#endif
    for (; l < w; l++) {
        uint32_t v;
        memcpy(&v, p + 4 * l, 4);
        d[l] = v;
    }
}

static inline void store_u32_rows(uint8_t *p, const uint64_t *s, uint32_t w)
{
    uint32_t l = 0;
#if defined(__SSE2__)
    for (; l + 4 <= w; l += 4) {
        __m128 a = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(s + l)));
        __m128 b = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(s + l + 2)));
        _mm_storeu_si128((__m128i *)(p + 4 * l),
                         _mm_castps_si128(_mm_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0))));
    }
#endif
    for (; l < w; l++) {
        const uint32_t v = (uint32_t)s[l];
        memcpy(p + 4 * l, &v, 4);
    }
}

/* Fast path of a whole-sub-group scalar load or store whose lanes touch
 * consecutive elements of one buffer (lane l at addr[0] + l*n): one bounds
 * check for the block, then a straight copy per lane.  Returns false (and
 * touches nothing) when the access is not of that form or the block check
 * fails, so the per-lane path below finds and reports the faulting lane. */
static bool coalesced(emu_run *run, emu_sg *sg, const isa_inst *in, lanes_mask mask,
                      const uint64_t *addr, uint32_t n, uint32_t esize, uint32_t vec,
                      bool store, int strided)
{
    const uint32_t w = sg->l.width;
    const isa_space space = (isa_space)in->space;
    /* NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult): mask is every lane, so lane_addresses set addr[0] */
    if (!run->dp.fast || vec != 1 || mask != lanes_mask_first(w) || addr[0] % esize ||
        (space != ISA_SPACE_GLOBAL && space != ISA_SPACE_CONSTANT &&
         space != ISA_SPACE_LOCAL))
        return false;
    if (strided < 0)            /* else the record's test of these w addresses */
        strided = emu_addrs_strided(addr, w);
    if (!strided || (w > 1 && addr[1] - addr[0] != n))
        return false;
    const char *why;
    uint8_t *p = emu_mem_ptr(run, space, addr[0], w * n, store, sg->id * w, &why);
    if (!p)
        return false;
    if (!store) {
        uint64_t *d = lanes_reg(&sg->l, in->o[0].reg);
        switch (esize) {
        case 4:
            load_u32_rows(d, p, w);
            break;
        case 8:
            memcpy(d, p, (size_t)w * 8);   /* little-endian host */
            break;
        default:
            for (uint32_t l = 0; l < w; l++) {
                uint64_t v = 0;
                memcpy(&v, p + (size_t)esize * l, esize);
                d[l] = v;
            }
            break;
        }
        return true;
    }
    uint64_t scratch[LANES_MAX];
    const uint64_t *s = lanes_src(&run->lenv, &sg->l, &in->o[1], 0,
                                  (isa_type)in->type, scratch);
    switch (esize) {
    case 4:
        store_u32_rows(p, s, w);
        break;
    case 8:
        memcpy(p, s, (size_t)w * 8);
        break;
    default:
        for (uint32_t l = 0; l < w; l++)
            memcpy(p + (size_t)esize * l, &s[l], esize);
        break;
    }
    return true;
}

/* The per-lane checks of a global, constant or local access in one: when
 * the active lanes' accesses all lie in one buffer (one check of the
 * span from the lowest address to the end of the highest) and are all
 * aligned, fill ptr for them and return true.  Otherwise false, and the
 * per-lane loop finds and reports the first faulting lane. */
static bool one_range(emu_run *run, const emu_sg *sg, isa_space space, lanes_mask mask,
                      const uint64_t *addr, uint32_t n, uint32_t esize, bool store,
                      uint8_t **ptr)
{
    if (!run->dp.fast || !mask ||
        (space != ISA_SPACE_GLOBAL && space != ISA_SPACE_CONSTANT && space != ISA_SPACE_LOCAL))
        return false;
    const uint32_t w = sg->l.width;
    uint64_t lo = UINT64_MAX, hi = 0, bits = 0;
    for (uint32_t l = 0; l < w; l++)
        if (mask >> l & 1) {
            lo = addr[l] < lo ? addr[l] : lo;
            hi = addr[l] > hi ? addr[l] : hi;
            bits |= addr[l];
        }
    if ((bits & (esize - 1)) || hi - lo > UINT32_MAX - n ||
        (space != ISA_SPACE_LOCAL && (lo >> EMU_BUF_SHIFT) != (hi >> EMU_BUF_SHIFT)))
        return false;
    const char *why;
    uint8_t *p = emu_mem_ptr(run, space, lo, (uint32_t)(hi - lo) + n, store, 0, &why);
    if (!p)
        return false;
    for (uint32_t l = 0; l < w; l++)
        if (mask >> l & 1)
            ptr[l] = p + (addr[l] - lo);
    return true;
}

/* Component c (at byte off of each lane's access) of the active lanes,
 * between the lanes' memory and a register row: a fixed-size copy per
 * element size (1, 2, 4 or 8 bytes; little-endian host). */
#define LANE_COPY(T, STMT)                                                  \
    if (mask == lanes_mask_first(w))                                        \
        for (uint32_t l = 0; l < w; l++) {                                  \
            T x;                                                            \
            STMT;                                                           \
        }                                                                   \
    else                                                                    \
        for (uint32_t l = 0; l < w; l++)                                    \
            if (mask >> l & 1) {                                            \
                T x;                                                        \
                STMT;                                                       \
            }

static void get_lanes(uint64_t *d, uint8_t *const *ptr, uint32_t off, lanes_mask mask,
                      uint32_t w, uint32_t esize)
{
    switch (esize) {
    case 1: LANE_COPY(uint8_t, (memcpy(&x, ptr[l] + off, 1), d[l] = x)) break;
    case 2: LANE_COPY(uint16_t, (memcpy(&x, ptr[l] + off, 2), d[l] = x)) break;
    case 4: LANE_COPY(uint32_t, (memcpy(&x, ptr[l] + off, 4), d[l] = x)) break;
    default: LANE_COPY(uint64_t, (memcpy(&x, ptr[l] + off, 8), d[l] = x)) break;
    }
}

static void put_lanes(uint8_t *const *ptr, uint32_t off, const uint64_t *s, lanes_mask mask,
                      uint32_t w, uint32_t esize)
{
    switch (esize) {
    case 1: LANE_COPY(uint8_t, (x = (uint8_t)s[l], memcpy(ptr[l] + off, &x, 1))) break;
    case 2: LANE_COPY(uint16_t, (x = (uint16_t)s[l], memcpy(ptr[l] + off, &x, 2))) break;
    case 4: LANE_COPY(uint32_t, (x = (uint32_t)s[l], memcpy(ptr[l] + off, &x, 4))) break;
    default: LANE_COPY(uint64_t, (x = s[l], memcpy(ptr[l] + off, &x, 8))) break;
    }
}
#undef LANE_COPY

/* Vectors of 16 bytes a lane (u16x8, u32x4) between each lane's memory
 * and the vector's register rows, two lanes a step with SSE2: a lane's
 * components go as one 16-byte move instead of one copy per component
 * and lane.  rows[c] is component c's row; ptr[l] lane l's bytes.  Only
 * for every lane of the sub-group. */
#if defined(__SSE2__)
static inline void rows_to_vec16(uint8_t *const *ptr, const uint64_t *const *r, uint32_t w,
                                 uint32_t esize)
{
    uint32_t l = 0;
    for (; l + 2 <= w; l += 2) {
        __m128i x, y;
        if (esize == 2) {
            __m128i t01 = _mm_loadu_si128((const __m128i *)(r[0] + l));
            __m128i t1 = _mm_loadu_si128((const __m128i *)(r[1] + l));
            __m128i t23 = _mm_loadu_si128((const __m128i *)(r[2] + l));
            __m128i t3 = _mm_loadu_si128((const __m128i *)(r[3] + l));
            __m128i t45 = _mm_loadu_si128((const __m128i *)(r[4] + l));
            __m128i t5 = _mm_loadu_si128((const __m128i *)(r[5] + l));
            __m128i t67 = _mm_loadu_si128((const __m128i *)(r[6] + l));
            __m128i t7 = _mm_loadu_si128((const __m128i *)(r[7] + l));
            /* word 0 of each 64-bit element holds the value: words 0-3
             * interleaved give lane l's pair in dword 0, words 4-7 lane
             * l + 1's */
            __m128i u01 = _mm_unpackhi_epi16(t01, t1), u23 = _mm_unpackhi_epi16(t23, t3);
            __m128i u45 = _mm_unpackhi_epi16(t45, t5), u67 = _mm_unpackhi_epi16(t67, t7);
            t01 = _mm_unpacklo_epi16(t01, t1);
            t23 = _mm_unpacklo_epi16(t23, t3);
            t45 = _mm_unpacklo_epi16(t45, t5);
            t67 = _mm_unpacklo_epi16(t67, t7);
            x = _mm_unpacklo_epi64(_mm_unpacklo_epi32(t01, t23), _mm_unpacklo_epi32(t45, t67));
            y = _mm_unpacklo_epi64(_mm_unpacklo_epi32(u01, u23), _mm_unpacklo_epi32(u45, u67));
        } else {
            __m128i a0 = _mm_loadu_si128((const __m128i *)(r[0] + l));
            __m128i a1 = _mm_loadu_si128((const __m128i *)(r[1] + l));
            __m128i a2 = _mm_loadu_si128((const __m128i *)(r[2] + l));
            __m128i a3 = _mm_loadu_si128((const __m128i *)(r[3] + l));
            x = _mm_unpacklo_epi64(_mm_unpacklo_epi32(a0, a1), _mm_unpacklo_epi32(a2, a3));
            y = _mm_unpacklo_epi64(_mm_unpackhi_epi32(a0, a1), _mm_unpackhi_epi32(a2, a3));
        }
        _mm_storeu_si128((__m128i *)ptr[l], x);
        _mm_storeu_si128((__m128i *)ptr[l + 1], y);
    }
    for (; l < w; l++)
        for (uint32_t c = 0; c < 16 / esize; c++) {
            if (esize == 2) {
                uint16_t v = (uint16_t)r[c][l];
                memcpy(ptr[l] + 2 * c, &v, 2);
            } else {
                uint32_t v = (uint32_t)r[c][l];
                memcpy(ptr[l] + 4 * c, &v, 4);
            }
        }
}

static inline void vec16_to_rows(uint64_t *const *r, uint8_t *const *ptr, uint32_t w,
                                 uint32_t esize)
{
    const __m128i z = _mm_setzero_si128();
    uint32_t l = 0;
    for (; l + 2 <= w; l += 2) {
        __m128i x = _mm_loadu_si128((const __m128i *)ptr[l]);
        __m128i y = _mm_loadu_si128((const __m128i *)ptr[l + 1]);
        if (esize == 2) {
            /* lane pairs per component, then zero-extended twice */
            __m128i lo = _mm_unpacklo_epi16(x, y), hi = _mm_unpackhi_epi16(x, y);
            __m128i q0 = _mm_unpacklo_epi16(lo, z), q1 = _mm_unpackhi_epi16(lo, z);
            __m128i q2 = _mm_unpacklo_epi16(hi, z), q3 = _mm_unpackhi_epi16(hi, z);
            _mm_storeu_si128((__m128i *)(r[0] + l), _mm_unpacklo_epi32(q0, z));
            _mm_storeu_si128((__m128i *)(r[1] + l), _mm_unpackhi_epi32(q0, z));
            _mm_storeu_si128((__m128i *)(r[2] + l), _mm_unpacklo_epi32(q1, z));
            _mm_storeu_si128((__m128i *)(r[3] + l), _mm_unpackhi_epi32(q1, z));
            _mm_storeu_si128((__m128i *)(r[4] + l), _mm_unpacklo_epi32(q2, z));
            _mm_storeu_si128((__m128i *)(r[5] + l), _mm_unpackhi_epi32(q2, z));
            _mm_storeu_si128((__m128i *)(r[6] + l), _mm_unpacklo_epi32(q3, z));
            _mm_storeu_si128((__m128i *)(r[7] + l), _mm_unpackhi_epi32(q3, z));
        } else {
            __m128i lo = _mm_unpacklo_epi32(x, y), hi = _mm_unpackhi_epi32(x, y);
            _mm_storeu_si128((__m128i *)(r[0] + l), _mm_unpacklo_epi32(lo, z));
            _mm_storeu_si128((__m128i *)(r[1] + l), _mm_unpackhi_epi32(lo, z));
            _mm_storeu_si128((__m128i *)(r[2] + l), _mm_unpacklo_epi32(hi, z));
            _mm_storeu_si128((__m128i *)(r[3] + l), _mm_unpackhi_epi32(hi, z));
        }
    }
    for (; l < w; l++)
        for (uint32_t c = 0; c < 16 / esize; c++) {
            if (esize == 2) {
                uint16_t v;
                memcpy(&v, ptr[l] + 2 * c, 2);
                r[c][l] = v;
            } else {
                uint32_t v;
                memcpy(&v, ptr[l] + 4 * c, 4);
                r[c][l] = v;
            }
        }
}

/* Whether the lanes' n-byte accesses at addr ascend without overlapping
 * (so that storing lane by lane leaves the bytes that storing component
 * by component does); strided: their stride is known (1) or not (-1). */
static bool lanes_apart(const uint64_t *addr, uint32_t w, uint32_t n, int strided)
{
    if (strided == 1 && w > 1)
        return addr[1] - addr[0] >= n && addr[1] - addr[0] <= UINT32_MAX;
    bool ok = true;
    for (uint32_t l = 0; l + 1 < w; l++)
        ok &= addr[l] + n > addr[l] && addr[l] + n <= addr[l + 1];
    return ok;
}

/* A load or store of 16-byte vectors by rows_to_vec16 / vec16_to_rows,
 * when it is of that form (else false, nothing done).  Out of line: the
 * scalar accesses' path keeps its frame. */
static __attribute__((noinline)) bool vec16_access(emu_sg *sg, const isa_inst *in,
                                                   lanes_mask mask, const uint64_t *addr,
                                                   uint8_t *const *ptr, uint32_t esize,
                                                   uint32_t vec, bool store, int strided)
{
    const uint32_t w = sg->l.width, n = esize * vec;
    if (n != 16 || (esize != 2 && esize != 4) || mask != lanes_mask_first(w))
        return false;
    if (!store) {
        uint64_t *rows[8];
        for (uint32_t c = 0; c < 8; c++)    /* all 8 set: the analyser cannot tie vec to esize */
            rows[c] = lanes_reg(&sg->l, in->o[0].reg + (c < vec ? c : 0));
        vec16_to_rows(rows, ptr, w, esize);
        return true;
    }
    if (in->o[1].kind != ISA_OPND_REG || !lanes_apart(addr, w, n, strided))
        return false;
    const uint64_t *rows[8];
    for (uint32_t c = 0; c < 8; c++)        /* as above */
        rows[c] = lanes_reg(&sg->l, in->o[1].reg + (c < vec ? c : 0));
    rows_to_vec16(ptr, rows, w, esize);
    return true;
}
#endif

int emu_mem_exec(emu_run *run, emu_sg *sg, const isa_inst *in, lanes_mask mask,
                 uint32_t pc, emu_rec *rec)
{
    isa_type t = (isa_type)in->type;
    uint32_t esize = isa_types[t].bytes, vec = in->vec ? in->vec : 1;
    uint32_t n = esize * vec;
    isa_space space = (isa_space)in->space;
    isa_family fam = isa_ops[in->op].family;
    const isa_operand *ao = fam == ISA_FAM_ST ? &in->o[0] : &in->o[1];
    uint64_t addr_rows[LANES_MAX], *addr = addr_rows;
    uint32_t w = sg->l.width;

    int strided = -1;          /* the addresses' form: -1 not tested */
    emu_wg_trace *tr = rec ? run->wg->trace : NULL;
    uint32_t na = 0;
    uint64_t first = 0;
    if (tr) {
        na = emu_active_lanes(mask, w);
        first = emu_trace_addrs(tr, na);
        if (first == UINT64_MAX)
            return emu_fault(run, SGEMU_EXIT_INTERNAL, sg, UINT32_MAX, pc, "out of host memory");
        /* every lane's address is recorded: computed in place (the trace's
         * array does not move before its next reservation) */
        if (na == w)
            addr = tr->addrs + first;
    }
    lane_addresses(run, sg, ao, addr);
    if (tr) {
        uint64_t *dst = tr->addrs + first;
        /* the addresses' form, but not of local accesses (the banks do
         * not ask); a whole sub-group's is also the coalesced path's test */
        bool local = space == ISA_SPACE_LOCAL;
        if (na == w) {
            if (!local)
                rec->strided = (uint16_t)(strided = emu_addrs_strided(addr, w));
        } else {
            for (uint32_t l = 0; l < w; l++)
                if (mask >> l & 1)
                    *dst++ = addr[l];
            if (!local)
                rec->strided = emu_addrs_strided(dst - na, na);
        }
        rec->addr_first = first;
        rec->naddr = (uint16_t)na;
    }

    const char *kind = fam == ISA_FAM_LD ? "load" : fam == ISA_FAM_ST ? "store" : "atomic";
    bool store = fam != ISA_FAM_LD;
    if (fam != ISA_FAM_ATOM && coalesced(run, sg, in, mask, addr, n, esize, vec, store, strided))
        return 0;
    uint8_t *ptr[LANES_MAX];
    if (!one_range(run, sg, space, mask, addr, n, esize, store, ptr))
        for (uint32_t l = 0; l < w; l++) {
            if (!(mask >> l & 1))
                continue;
            const char *why;
            uint32_t item = sg->id * w + l;
            ptr[l] = emu_mem_ptr(run, space, addr[l], n, store, item, &why);
            if (!ptr[l])
                return access_fault(run, sg, l, pc, kind, space, addr[l], n, why);
            if (addr[l] % esize)
                return access_fault(run, sg, l, pc, kind, space, addr[l], n, "misaligned");
        }

#if defined(__SSE2__)
    /* 16-byte vectors of every lane, components from and to registers */
    if (vec > 1 && fam != ISA_FAM_ATOM &&
        vec16_access(sg, in, mask, addr, ptr, esize, vec, fam == ISA_FAM_ST, strided))
        return 0;
#endif
    if (fam == ISA_FAM_LD) {
        for (uint32_t c = 0; c < vec; c++)
            get_lanes(lanes_reg(&sg->l, in->o[0].reg + c), ptr, c * esize, mask, w, esize);
        return 0;
    }
    if (fam == ISA_FAM_ST) {
        uint64_t scratch[LANES_MAX];
        for (uint32_t c = 0; c < vec; c++)
            put_lanes(ptr, c * esize, lanes_src(&run->lenv, &sg->l, &in->o[1], c, t, scratch),
                      mask, w, esize);
        return 0;
    }

    /* atomics: lanes in increasing order, each a read-modify-write */
    uint64_t s1[LANES_MAX], s2[LANES_MAX];
    const uint64_t *val = lanes_src(&run->lenv, &sg->l, &in->o[2], 0, t, s1);
    const uint64_t *cmpv = isa_ops[in->op].binop == ISA_BINOP_CMPXCHG
        ? val : NULL;
    const uint64_t *newv = cmpv ? lanes_src(&run->lenv, &sg->l, &in->o[3], 0, t, s2) : NULL;
    uint64_t *d = lanes_reg(&sg->l, in->o[0].reg);
    isa_binop op = isa_ops[in->op].binop;
    for (uint32_t l = 0; l < w; l++) {
        if (!(mask >> l & 1))
            continue;
        uint64_t old = 0, nv;
        memcpy(&old, ptr[l], esize);
        switch (op) {
        case ISA_BINOP_XCHG: nv = val[l]; break;
        /* NOLINTNEXTLINE(clang-analyzer-core.NullDereference): cmpv and newv are set exactly for cmpxchg */
        case ISA_BINOP_CMPXCHG: nv = old == cmpv[l] ? newv[l] : old; break;
        default: nv = lanes_binop(op, t, old, val[l]); break;
        }
        memcpy(ptr[l], &nv, esize);
        d[l] = old;
    }
    return 0;
}
