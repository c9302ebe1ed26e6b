/* gen_send.c - send messages.  IGA gives the message type, the shared
 * function and the payload lengths; the message-specific control fields
 * (binding table index, SIMD mode, channel mask, data size) are read from
 * the descriptor as IGA's own message decoder reads them
 * (visa/iga/IGALibrary/Backend/Messages/MessageDecoderHDC.cpp) and
 * docs/gen.md lists.  Every memory access goes through emu/memory.c's
 * emu_mem_ptr: the same buffers, bounds checks and fault messages as
 * sgemu's own loads and stores. */
#include "gen_engine.h"

#include <inttypes.h>
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

static int mem_fault(emu_run *run, gen_thread *t, uint32_t lane, bool store, uint64_t addr,
                     uint32_t n, const char *why)
{
    char desc[256];
    emu_mem_describe(run, ISA_SPACE_GLOBAL, addr, desc, sizeof desc);
    return gen_fault(run, t, lane, SGEMU_EXIT_FAULT, "%s global %s of %u bytes at %s", why,
                     store ? "store" : "load", n, desc);
}

/* One lane's access of n bytes at addr: copies between memory and `reg`. */
static int access(emu_run *run, gen_thread *t, uint32_t lane, uint64_t addr, uint8_t *reg,
                  uint32_t n, bool store)
{
    const char *why;
    uint32_t item = t->sg->id * run->width + lane;
    uint8_t *p = emu_mem_ptr(run, ISA_SPACE_GLOBAL, addr, n, store, item, &why);
    if (!p)
        return mem_fault(run, t, lane, store, addr, n, why);
    if (addr % (n > 4 ? 4 : n))
        return mem_fault(run, t, lane, store, addr, n, "misaligned");
    if (store)
        memcpy(p, reg, n);
    else
        memcpy(reg, p, n);
    return 0;
}

/* Address of lane i from the address payload: A64 (8 bytes a lane) or a
 * 32-bit offset into the surface of binding table index bti. */
static int lane_address(emu_run *run, gen_thread *t, const gen_inst *in, uint32_t i,
                        bool a64, uint64_t *addr)
{
    uint32_t ab = a64 ? 8 : 4;
    const uint8_t *p = grf_at(t, in->src[0].reg * run->k->gen->grf_bytes + i * ab, ab);
    if (!p)
        return gen_fault(run, t, i, SGEMU_EXIT_FAULT, "address payload outside the GRF");
    uint64_t v = 0;
    memcpy(&v, p, ab);
    if (a64) {
        *addr = v;
        return 0;
    }
    uint32_t bti = desc_bits(in->desc, 0, 8);
    int16_t arg = run->k->gen->bti_arg[bti];
    if (arg < 0)
        return gen_fault(run, t, i, SGEMU_EXIT_USER,
                         "binding table index %u names no buffer argument", bti);
    *addr = emu_buffer_base((uint32_t)arg) + v;
    return 0;
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
    for (uint32_t i = 0; i < simd && i < in->esize; i++) {
        if (!(m >> i & 1))
            continue;
        uint64_t addr = 0;
        if (lane_address(run, t, in, i, a64, &addr))
            return run->fault->code;
        for (uint32_t e = 0; e < elems; e++) {
            uint8_t tmp[8] = { 0 };
            uint8_t *reg = data == UINT32_MAX ? tmp
                         : grf_at(t, data + (e * simd + i) * grf_esz, grf_esz);
            if (!reg)
                return gen_fault(run, t, i, SGEMU_EXIT_FAULT, "message data outside the GRF");
            if (!store && grf_esz > esz)
                memset(reg, 0, grf_esz);
            if (access(run, t, i, addr + (uint64_t)e * esz, reg, esz, store))
                return run->fault->code;
        }
    }
    return 0;
}

/* A64 byte/dword/qword gathering read and scattering write (DC1). */
static int a64_scattered(emu_run *run, gen_thread *t, const gen_inst *in, bool store)
{
    uint32_t sub = desc_bits(in->desc, 8, 2), ds = desc_bits(in->desc, 10, 2);
    uint32_t simd = desc_bits(in->desc, 12, 1) ? 16 : 8;
    if (sub == 1 || sub == 2)   /* dword or qword, 1 << ds per address */
        return scattered(run, t, in, store, true, simd, 1u << ds, sub == 1 ? 4 : 8,
                         sub == 1 ? 4 : 8);
    if (sub == 0)               /* byte: 1, 2 or 4 bytes, one dword of GRF a lane */
        return scattered(run, t, in, store, true, simd, 1, 1u << ds, 4);
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
    if (!a64) {
        uint32_t bti = desc_bits(in->desc, 0, 8);
        if (bti >= 0xfd)
            return gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_USER,
                             "untyped surface message to surface 0x%x (SLM or A32 stateless) "
                             "is not supported by sgemu yet", bti);
    }
    uint64_t m = gen_channels(t, in, true);
    uint32_t gb = run->k->gen->grf_bytes;
    uint32_t data = store ? in->src[1].reg * gb : in->dst.reg * gb;
    for (uint32_t i = 0; i < simd && i < in->esize; i++) {
        if (!(m >> i & 1))
            continue;
        uint64_t addr = 0;
        if (lane_address(run, t, in, i, a64, &addr))
            return run->fault->code;
        uint32_t k = 0;
        for (uint32_t c = 0; c < 4; c++) {
            if (dis >> c & 1)
                continue;
            uint8_t *reg = grf_at(t, data + (k * simd + i) * 4, 4);
            if (!reg)
                return gen_fault(run, t, i, SGEMU_EXIT_FAULT, "message data outside the GRF");
            if (access(run, t, i, addr + 4 * c, reg, 4, store))
                return run->fault->code;
            k++;
        }
    }
    return 0;
}

int gen_exec_send(emu_run *run, gen_thread *t, const gen_inst *in)
{
    if (in->eot) {   /* end of thread (thread spawner message) */
        t->done = true;
        return 0;
    }
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
    case GEN_H_A64_SCATTERED_READ: return a64_scattered(run, t, in, false);
    case GEN_H_A64_SCATTERED_WRITE: return a64_scattered(run, t, in, true);
    case GEN_H_UNTYPED_READ:
        rc = untyped(run, t, in, false, in->msg_type == GEN_MSG_MT1R_A64_US);
        return rc;
    case GEN_H_UNTYPED_WRITE:
        rc = untyped(run, t, in, true, in->msg_type == GEN_MSG_MT1W_A64_US);
        return rc;
    case GEN_H_NONE:
    default:
        return gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_USER,
                         "message %s is not supported by sgemu yet",
                         gen_msg_names[in->msg_type]);
    }
}
