/* trace_write.c - writing a trace (docs/trace-format.md): the header, then
 * one zstd frame of the kernel and every work-group's records; the file
 * is written beside its name and renamed into place when complete. */
#include "trace_private.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

struct emu_trace_writer {
    FILE *f;
    char *path, *tmp;
    ZSTD_CCtx *cz;
    uint8_t *in, *out;
    size_t nin;
    size_t out_cap;
    uint64_t hash, payload, records, addresses, uops;
    uint64_t wgs;
    sgemu_trace_info info;
    bool failed;
};

static void w_flush(emu_trace_writer *w, ZSTD_EndDirective mode)
{
    ZSTD_inBuffer ib = { w->in, w->nin, 0 };
    for (;;) {
        ZSTD_outBuffer ob = { w->out, w->out_cap, 0 };
        size_t left = ZSTD_compressStream2(w->cz, &ob, &ib, mode);
        if (ZSTD_isError(left)) {
            w->failed = true;
            return;
        }
        if (ob.pos && fwrite(w->out, 1, ob.pos, w->f) != ob.pos)
            w->failed = true;
        if (mode == ZSTD_e_end ? left == 0 : ib.pos == ib.size)
            break;
    }
    w->nin = 0;
}

static void w_bytes(emu_trace_writer *w, const void *p, size_t n)
{
    const uint8_t *s = p;
    w->hash = trace_fnv(w->hash, s, n);
    w->payload += n;
    while (n) {
        size_t k = OUT_CHUNK - w->nin < n ? OUT_CHUNK - w->nin : n;
        memcpy(w->in + w->nin, s, k);
        w->nin += k;
        s += k;
        n -= k;
        if (w->nin == OUT_CHUNK)
            w_flush(w, ZSTD_e_continue);
    }
}

static void w_u(emu_trace_writer *w, uint64_t v, unsigned bytes)
{
    uint8_t b[8];
    for (unsigned i = 0; i < bytes; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    w_bytes(w, b, bytes);
}

int emu_tracew_open(emu_trace_writer **wp, const char *path, const isa_kernel *k,
                    const sgemu_trace_info *info, char *msg, size_t msgn)
{
    emu_trace_writer *w = calloc(1, sizeof *w);
    *wp = NULL;
    if (!w) {
        snprintf(msg, msgn, "out of host memory");
        return SGEMU_EXIT_INTERNAL;
    }
    w->info = *info;
    w->path = strdup(path);
    w->tmp = malloc(strlen(path) + 32);
    w->in = malloc(OUT_CHUNK);
    w->out_cap = ZSTD_CStreamOutSize();
    w->out = malloc(w->out_cap);
    w->cz = ZSTD_createCCtx();
    if (!w->path || !w->tmp || !w->in || !w->out || !w->cz) {
        snprintf(msg, msgn, "out of host memory");
        emu_tracew_close(w, NULL, false, NULL, 0);
        return SGEMU_EXIT_INTERNAL;
    }
    /* a device or FIFO is written in place (no rename over it) */
    if (sgemu_output_in_place(path))
        strcpy(w->tmp, path);
    else
        sprintf(w->tmp, "%s.tmp%ld", path, (long)getpid());
    w->f = fopen(w->tmp, "wb");
    if (!w->f) {
        snprintf(msg, msgn, "cannot write trace '%s': %s", path, strerror(errno));
        emu_tracew_close(w, NULL, false, NULL, 0);
        return SGEMU_EXIT_USER;
    }
    ZSTD_CCtx_setParameter(w->cz, ZSTD_c_compressionLevel, 3);
    ZSTD_CCtx_setParameter(w->cz, ZSTD_c_checksumFlag, 1);
    ZSTD_CCtx_setParameter(w->cz, ZSTD_c_windowLog, WINDOW_LOG);
    uint8_t hdr[EMU_TRACE_HEADER_BYTES];
    trace_header_encode(&w->info, hdr);      /* placeholder: rewritten at close */
    if (fwrite(hdr, 1, sizeof hdr, w->f) != sizeof hdr)
        w->failed = true;
    w->hash = FNV_OFFSET;
    char *text = isa_disassemble(k);
    if (!text) {
        snprintf(msg, msgn, "out of host memory");
        emu_tracew_close(w, NULL, false, NULL, 0);
        return SGEMU_EXIT_INTERNAL;
    }
    size_t tl = strlen(text);
    w_u(w, TAG_KERNEL, 4);
    w_u(w, tl, 4);
    w_bytes(w, text, tl);
    free(text);
    w_u(w, k->ninst, 4);
    for (uint32_t i = 0; i < k->ninst; i++) {
        w_u(w, k->inst[i].line, 4);
        w_u(w, k->inst[i].col, 4);
    }
    *wp = w;
    return 0;
}

int emu_tracew_wg(emu_trace_writer *w, const emu_wg_trace *t)
{
    w_u(w, TAG_WG, 4);
    w_u(w, t->wg_linear, 8);
    w_u(w, t->nsg, 4);
    for (uint32_t i = 0; i < t->nsg && i < 64; i++)
        w_u(w, t->sg_size[i], 4);
    w_u(w, t->naddrs, 8);
    uint64_t prev = 0;
    for (uint64_t i = 0; i < t->naddrs; i++) {  /* deltas compress far better */
        w_u(w, t->addrs[i] - prev, 8);
        prev = t->addrs[i];
    }
    w_u(w, t->nuops, 4);
    for (uint32_t i = 0; i < t->nuops; i++) {
        const coll_uop *u = &t->uops[i];
        uint8_t b[4] = { u->kind, u->type, u->binop, u->space };
        w_bytes(w, b, 4);
        w_u(w, u->lanes, 2);
        w_u(w, u->sg, 2);
        w_u(w, u->bytes, 4);
        w_u(w, u->rows, 4);
        w_u(w, u->addr, 8);
        w_u(w, u->pitch, 4);
        w_u(w, u->image, 4);
        w_u(w, u->mask, 8);
    }
    for (uint32_t s = 0; s < t->nsg; s++) {
        const emu_sg_stream *st = &t->sg[s];
        w_u(w, st->n, 4);
        for (uint32_t i = 0; i < st->n; i++) {
            const emu_rec *r = &st->recs[i];
            w_u(w, r->pc, 4);
            w_u(w, r->naddr, 4);
            w_u(w, r->addr_first, 8);
            w_u(w, r->uop_first, 4);
            w_u(w, r->nuops, 4);
            w_u(w, r->mask, 8);
        }
        w->records += st->n;
    }
    w->addresses += t->naddrs;
    w->uops += t->nuops;
    w->wgs++;
    return w->failed ? -1 : 0;
}

int emu_tracew_close(emu_trace_writer *w, const sgemu_stats *st, bool keep,
                     char *msg, size_t msgn)
{
    int rc = 0;
    if (!w)
        return 0;
    if (keep && w->f) {
        w_u(w, TAG_END, 4);
        w_u(w, w->wgs, 8);
        w_flush(w, ZSTD_e_end);
        sgemu_trace_info *in = &w->info;
        if (st) {
            in->instructions = st->instructions;
            in->lane_ops = st->lane_ops;
            in->lane_slots = st->lane_slots;
            in->uops = st->uops;
            in->subgroups = st->subgroups;
            in->work_items = st->work_items;
        }
        in->records = w->records;
        in->addresses = w->addresses;
        in->trace_uops = w->uops;
        in->payload_bytes = w->payload;
        in->checksum = w->hash;
        uint8_t hdr[EMU_TRACE_HEADER_BYTES];
        trace_header_encode(in, hdr);
        if (fseek(w->f, 0, SEEK_SET) || fwrite(hdr, 1, sizeof hdr, w->f) != sizeof hdr)
            w->failed = true;
    }
    if (w->f && fclose(w->f))
        w->failed = true;
    const bool in_place = w->tmp && w->path && !strcmp(w->tmp, w->path);
    if (keep && !w->failed && !in_place && rename(w->tmp, w->path)) {
        w->failed = true;
    }
    if (keep && w->failed) {
        if (msg)
            snprintf(msg, msgn, "cannot write trace '%s'", w->path);
        rc = SGEMU_EXIT_USER;
    }
    if (w->f && (!keep || w->failed) && !in_place)
        remove(w->tmp);
    ZSTD_freeCCtx(w->cz);
    free(w->in);
    free(w->out);
    free(w->path);
    free(w->tmp);
    free(w);
    return rc;
}
