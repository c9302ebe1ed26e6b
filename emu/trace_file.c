/* trace_file.c - writing and reading recorded traces (docs/trace-format.md).
 * Little-endian fields, one zstd frame for the payload; every count and
 * index read back is checked before the timing model sees it, so a corrupt
 * file gives an error and never a crash. */
#include "trace_file.h"
#include "emu_private.h"
#include "timing.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#define TAG_KERNEL 0x4c4e524bu  /* "KRNL" */
#define TAG_WG 0x50524757u      /* "WGRP" */
#define TAG_END 0x21444e45u     /* "END!" */
#define OUT_CHUNK (1u << 17)
#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull
#define MAX_KERNEL_TEXT (64u << 20)
/* The frame's window: what level 3 uses for a stream anyway, set on both
 * sides so that a corrupt header asking for zstd's limit (128 MiB) is
 * refused instead of allocated. */
#define WINDOW_LOG 21
#define REC_BYTES 32u           /* pc naddr addr_first uop_first nuops mask */
#define UOP_BYTES 40u           /* kind type binop space lanes sg bytes rows addr pitch image mask */

static uint64_t fnv(uint64_t h, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * FNV_PRIME;
    return h;
}

/* ------------------------------------------------------------- header */

typedef struct hbuf {
    uint8_t *p;
    size_t at, cap;
    bool bad;
} hbuf;

static void put(hbuf *b, uint64_t v, unsigned bytes)
{
    if (b->at + bytes > b->cap) {
        b->bad = true;
        return;
    }
    for (unsigned i = 0; i < bytes; i++)
        b->p[b->at++] = (uint8_t)(v >> (8 * i));
}

static uint64_t get(hbuf *b, unsigned bytes)
{
    uint64_t v = 0;
    if (b->at + bytes > b->cap) {
        b->bad = true;
        return 0;
    }
    for (unsigned i = 0; i < bytes; i++)
        v |= (uint64_t)b->p[b->at++] << (8 * i);
    return v;
}

static void put_str(hbuf *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        put(b, i < strlen(s) ? (uint8_t)s[i] : 0, 1);
}

static void get_str(hbuf *b, char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        s[i] = (char)get(b, 1);
    s[n - 1] = 0;
}

/* One table of the header's numeric fields: X(field, bytes), in file order. */
#define HDR_FIELDS(X) \
    X(sg_width, 4) X(dims, 4) X(global[0], 8) X(global[1], 8) X(global[2], 8) \
    X(local[0], 8) X(local[1], 8) X(local[2], 8) X(offset[0], 8) X(offset[1], 8) \
    X(offset[2], 8) X(work_groups, 8) X(wg_items, 4) X(local_bytes, 4) \
    X(coll[0], 4) X(coll[1], 4) X(coll[2], 4) X(coll[3], 4) X(coll[4], 4) X(coll[5], 4) \
    X(coll[6], 4) X(coll[7], 4) X(max_wg_size, 4) \
    X(instructions, 8) X(lane_ops, 8) X(lane_slots, 8) X(uops, 8) X(subgroups, 8) \
    X(work_items, 8) X(records, 8) X(addresses, 8) X(trace_uops, 8) \
    X(payload_bytes, 8) X(checksum, 8)

static void header_encode(const sgemu_trace_info *in, uint8_t out[EMU_TRACE_HEADER_BYTES])
{
    memset(out, 0, EMU_TRACE_HEADER_BYTES);
    hbuf b = { out, 0, EMU_TRACE_HEADER_BYTES, false };
    memcpy(out, EMU_TRACE_MAGIC, 8);   // NOLINT(bugprone-not-null-terminated-result): the 8-byte magic has no NUL in the file
    b.at = 8;
    put(&b, EMU_TRACE_VERSION, 4);
    put(&b, EMU_TRACE_HEADER_BYTES, 4);
    put_str(&b, in->sgemu_version, sizeof in->sgemu_version);
    put_str(&b, in->kernel, sizeof in->kernel);
#define X(f, n) put(&b, in->f, n);
    HDR_FIELDS(X)
#undef X
    uint64_t h = fnv(FNV_OFFSET, out, EMU_TRACE_HEADER_BYTES - 8);
    b.at = EMU_TRACE_HEADER_BYTES - 8;
    put(&b, h, 8);
}

static int header_decode(const uint8_t in[EMU_TRACE_HEADER_BYTES], sgemu_trace_info *out,
                         char *msg, size_t msgn)
{
    memset(out, 0, sizeof *out);
    if (memcmp(in, EMU_TRACE_MAGIC, 8)) {
        snprintf(msg, msgn, "not an sgemu trace (bad magic)");
        return SGEMU_EXIT_USER;
    }
    hbuf b = { (uint8_t *)in, 8, EMU_TRACE_HEADER_BYTES, false };
    out->version = (uint32_t)get(&b, 4);
    uint32_t hbytes = (uint32_t)get(&b, 4);
    if (out->version != EMU_TRACE_VERSION || hbytes != EMU_TRACE_HEADER_BYTES) {
        snprintf(msg, msgn, "trace format version %u is not supported (this sgemu reads "
                 "version %u)", out->version, EMU_TRACE_VERSION);
        return SGEMU_EXIT_USER;
    }
    b.at = EMU_TRACE_HEADER_BYTES - 8;
    uint64_t want = get(&b, 8);
    if (fnv(FNV_OFFSET, in, EMU_TRACE_HEADER_BYTES - 8) != want) {
        snprintf(msg, msgn, "corrupt trace: header checksum mismatch");
        return SGEMU_EXIT_USER;
    }
    b.at = 16;
    get_str(&b, out->sgemu_version, sizeof out->sgemu_version);
    get_str(&b, out->kernel, sizeof out->kernel);
#define X(f, n) out->f = get(&b, n);
    HDR_FIELDS(X)
#undef X
    uint64_t items = out->local[0] * out->local[1] * out->local[2];
    if (out->sg_width < 1 || out->sg_width > LANES_MAX || out->dims < 1 || out->dims > 3 ||
        out->wg_items == 0 || items != out->wg_items || out->work_groups == 0) {
        snprintf(msg, msgn, "corrupt trace: impossible header values (width %u, dims %u)",
                 out->sg_width, out->dims);
        return SGEMU_EXIT_USER;
    }
    return 0;
}

void sgemu_trace_coll_key(const emu_config *cfg, uint32_t out[8])
{
    const coll_options *c = &cfg->coll;
    uint32_t v[8] = { c->reduce_algo, c->scan_algo, c->shuffle_algo, c->wg_algo,
                      c->indirect_lanes, c->hw_reduce_width, c->block_msg_bytes,
                      c->media_block_width };
    memcpy(out, v, sizeof v);
}

/* ------------------------------------------------------------- writer */

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
    w->hash = fnv(w->hash, s, n);
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
    header_encode(&w->info, hdr);      /* placeholder: rewritten at close */
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
        header_encode(in, hdr);
        if (fseek(w->f, 0, SEEK_SET) || fwrite(hdr, 1, sizeof hdr, w->f) != sizeof hdr)
            w->failed = true;
    }
    if (w->f && fclose(w->f))
        w->failed = true;
    if (keep && !w->failed && rename(w->tmp, w->path)) {
        w->failed = true;
    }
    if (keep && w->failed) {
        if (msg)
            snprintf(msg, msgn, "cannot write trace '%s'", w->path);
        rc = SGEMU_EXIT_USER;
    }
    if (w->f && (!keep || w->failed))
        remove(w->tmp);
    ZSTD_freeCCtx(w->cz);
    free(w->in);
    free(w->out);
    free(w->path);
    free(w->tmp);
    free(w);
    return rc;
}

/* ------------------------------------------------------------- reader */

struct emu_trace_reader {
    FILE *f;
    ZSTD_DCtx *dz;
    uint8_t *in, *out;
    size_t in_cap, in_pos, in_len;
    size_t out_cap, out_pos, out_len;
    bool eof, frame_done;
    bool verify;              /* compute the FNV payload checksum */
    uint64_t hash, payload;
    uint64_t records, addresses, uops, wgs;
    sgemu_trace_info info;
    uint32_t ninst;
    uint32_t max_sg;
    char err[200];
};

/* One decompression context kept from the last closed reader for the next
 * one: a context keeps its window buffer (2 MiB for a long trace), so
 * `sgemu trace info` + replay, or many small traces, allocate it once. */
static _Atomic(ZSTD_DCtx *) spare_dctx;

static ZSTD_DCtx *r_dctx(void)
{
    ZSTD_DCtx *dz = atomic_exchange(&spare_dctx, NULL);
    if (!dz)
        dz = ZSTD_createDCtx();
    if (dz && ZSTD_isError(ZSTD_DCtx_setParameter(dz, ZSTD_d_windowLogMax, WINDOW_LOG))) {
        ZSTD_freeDCtx(dz);
        dz = NULL;
    }
    return dz;
}

static void r_dctx_put(ZSTD_DCtx *dz)
{
    if (dz && ZSTD_isError(ZSTD_DCtx_reset(dz, ZSTD_reset_session_only))) {
        ZSTD_freeDCtx(dz);
        return;
    }
    ZSTD_freeDCtx(atomic_exchange(&spare_dctx, dz));
}

static bool r_fill(emu_trace_reader *r)
{
    while (r->out_pos == r->out_len) {
        if (r->frame_done) {
            snprintf(r->err, sizeof r->err, "corrupt trace: data ends early");
            return false;
        }
        if (r->in_pos == r->in_len && !r->eof) {
            r->in_len = fread(r->in, 1, r->in_cap, r->f);
            r->in_pos = 0;
            if (r->in_len == 0)
                r->eof = true;
        }
        if (r->in_pos == r->in_len && r->eof) {
            snprintf(r->err, sizeof r->err, "truncated trace: the file ends early");
            return false;
        }
        ZSTD_inBuffer ib = { r->in, r->in_len, r->in_pos };
        ZSTD_outBuffer ob = { r->out, r->out_cap, 0 };
        size_t ret = ZSTD_decompressStream(r->dz, &ob, &ib);
        r->in_pos = ib.pos;
        if (ZSTD_isError(ret)) {
            snprintf(r->err, sizeof r->err, "corrupt trace: %s", ZSTD_getErrorName(ret));
            return false;
        }
        if (ret == 0)
            r->frame_done = true;
        r->out_pos = 0;
        r->out_len = ob.pos;
        /* the whole chunk is payload: hash and count it here in one pass
         * instead of per field (a chunk past the end marker is an error) */
        if (r->verify)
            r->hash = fnv(r->hash, r->out, ob.pos);
        r->payload += ob.pos;
    }
    return true;
}

static bool r_bytes(emu_trace_reader *r, void *p, size_t n)
{
    uint8_t *d = p;
    while (n) {
        if (r->out_pos == r->out_len && !r_fill(r))
            return false;
        size_t k = r->out_len - r->out_pos < n ? r->out_len - r->out_pos : n;
        memcpy(d, r->out + r->out_pos, k);
        r->out_pos += k;
        d += k;
        n -= k;
    }
    return true;
}

static inline uint64_t le(const uint8_t *b, unsigned bytes)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < bytes; i++)
        v |= (uint64_t)b[i] << (8 * i);
    return v;
}

/* A field: straight from the decompressed chunk when it holds all of it
 * (almost always), else through r_bytes across the chunk boundary. */
static inline __attribute__((always_inline)) bool r_u(emu_trace_reader *r, uint64_t *v,
                                                       unsigned bytes)
{
    if (__builtin_expect(r->out_len - r->out_pos >= bytes, 1)) {
        *v = le(r->out + r->out_pos, bytes);
        r->out_pos += bytes;
        return true;
    }
    uint8_t b[8];
    if (!r_bytes(r, b, bytes))
        return false;
    *v = le(b, bytes);
    return true;
}

/* n bytes of a fixed-size item: a pointer into the chunk, or (across a
 * chunk boundary) into tmp; NULL at the end of the data. */
static inline const uint8_t *r_take(emu_trace_reader *r, size_t n, uint8_t *tmp)
{
    if (__builtin_expect(r->out_len - r->out_pos >= n, 1)) {
        const uint8_t *p = r->out + r->out_pos;
        r->out_pos += n;
        return p;
    }
    return r_bytes(r, tmp, n) ? tmp : NULL;
}

#define RD(var, bytes) \
    do { \
        uint64_t t_; \
        if (!r_u(r, &t_, bytes)) goto fail; \
        var = t_; \
    } while (0)
#define BAD(...) \
    do { \
        snprintf(r->err, sizeof r->err, "corrupt trace: " __VA_ARGS__); \
        goto fail; \
    } while (0)

static int load_kernel(emu_trace_reader *r, isa_kernel *k)
{
    uint32_t tag, tl, ninst;
    char *text = NULL;
    isa_kernel tmp;
    memset(&tmp, 0, sizeof tmp);
    RD(tag, 4);
    if (tag != TAG_KERNEL)
        BAD("no kernel section");
    RD(tl, 4);
    if (tl > MAX_KERNEL_TEXT)
        BAD("kernel text of %u bytes", tl);
    text = malloc((size_t)tl + 1);
    if (!text)
        BAD("kernel text of %u bytes does not fit in memory", tl);
    if (!r_bytes(r, text, tl))
        goto fail;
    text[tl] = 0;
    isa_diags d;
    memset(&d, 0, sizeof d);
    int errs = isa_assemble(r->info.kernel, text, tl, &tmp, &d);
    isa_diags_free(&d);
    free(text);
    text = NULL;
    if (errs)
        BAD("the stored kernel does not assemble");
    RD(ninst, 4);
    if (ninst != tmp.ninst)
        BAD("instruction count %u, the kernel has %u", ninst, tmp.ninst);
    for (uint32_t i = 0; i < ninst; i++) {
        RD(tmp.inst[i].line, 4);
        RD(tmp.inst[i].col, 4);
    }
    r->ninst = ninst;
    if (k)
        *k = tmp;
    else
        isa_kernel_free(&tmp);
    return 0;
fail:
    free(text);
    isa_kernel_free(&tmp);
    return -1;
}

int emu_tracer_open(emu_trace_reader **rp, const char *path, sgemu_trace_info *info,
                    isa_kernel *k, bool verify, char *msg, size_t msgn)
{
    *rp = NULL;
    if (k)
        memset(k, 0, sizeof *k);
    emu_trace_reader *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(msg, msgn, "out of host memory");
        return SGEMU_EXIT_INTERNAL;
    }
    r->verify = verify;
    r->f = fopen(path, "rb");
    if (!r->f) {
        snprintf(msg, msgn, "cannot open trace '%s': %s", path, strerror(errno));
        emu_tracer_close(r);
        return SGEMU_EXIT_USER;
    }
    uint8_t hdr[EMU_TRACE_HEADER_BYTES];
    size_t got = fread(hdr, 1, sizeof hdr, r->f);
    if (got < 8 || memcmp(hdr, EMU_TRACE_MAGIC, 8)) {
        snprintf(msg, msgn, "'%s' is not an sgemu trace (bad magic)", path);
        emu_tracer_close(r);
        return SGEMU_EXIT_USER;
    }
    if (got < sizeof hdr) {
        snprintf(msg, msgn, "'%s': truncated trace (header of %zu bytes, need %u)", path,
                 got, EMU_TRACE_HEADER_BYTES);
        emu_tracer_close(r);
        return SGEMU_EXIT_USER;
    }
    char m2[300];
    if (header_decode(hdr, &r->info, m2, sizeof m2)) {
        snprintf(msg, msgn, "'%s': %s", path, m2);
        emu_tracer_close(r);
        return SGEMU_EXIT_USER;
    }
    if (fseek(r->f, 0, SEEK_END) == 0) {
        long end = ftell(r->f);
        r->info.file_bytes = end > 0 ? (uint64_t)end : 0;
        fseek(r->f, EMU_TRACE_HEADER_BYTES, SEEK_SET);
    }
    r->max_sg = (uint32_t)((r->info.wg_items + r->info.sg_width - 1) / r->info.sg_width);
    /* no bigger than the compressed data: most traces are far smaller than
     * zstd's recommended input chunk */
    r->in_cap = ZSTD_DStreamInSize();
    if (r->info.file_bytes > EMU_TRACE_HEADER_BYTES &&
        r->info.file_bytes - EMU_TRACE_HEADER_BYTES < r->in_cap)
        r->in_cap = (size_t)(r->info.file_bytes - EMU_TRACE_HEADER_BYTES);
    r->out_cap = ZSTD_DStreamOutSize();
    r->in = malloc(r->in_cap);
    r->out = malloc(r->out_cap);
    r->dz = r_dctx();
    r->hash = FNV_OFFSET;
    if (!r->in || !r->out || !r->dz) {
        snprintf(msg, msgn, "out of host memory");
        emu_tracer_close(r);
        return SGEMU_EXIT_INTERNAL;
    }
    if (load_kernel(r, k)) {
        snprintf(msg, msgn, "'%s': %s", path, r->err);
        emu_tracer_close(r);
        return SGEMU_EXIT_USER;
    }
    *info = r->info;
    *rp = r;
    return 0;
}

int emu_tracer_wg(emu_trace_reader *r, uint64_t expect, emu_wg_trace *t, char *msg, size_t msgn)
{
    uint32_t tag, nsg, nuops, w = r->info.sg_width;
    uint64_t lin, naddrs;
    lanes_mask all = w >= 64 ? ~(lanes_mask)0 : (((lanes_mask)1 << w) - 1);
    RD(tag, 4);
    if (tag != TAG_WG)
        BAD("work-group %llu missing", (unsigned long long)expect);
    RD(lin, 8);
    RD(nsg, 4);
    if (lin != expect)
        BAD("work-group %llu where %llu was expected", (unsigned long long)lin,
            (unsigned long long)expect);
    if (nsg == 0 || nsg > r->max_sg)
        BAD("work-group %llu has %u subgroups (at most %u)", (unsigned long long)lin, nsg,
            r->max_sg);
    if (!t->sg && emu_trace_init(t, nsg))
        BAD("out of host memory");
    emu_trace_reset(t, nsg);
    if (t->nsg != nsg)
        BAD("out of host memory");
    t->wg_linear = lin;
    for (uint32_t i = 0; i < nsg && i < 64; i++) {
        RD(t->sg_size[i], 4);
        if (t->sg_size[i] > w)
            BAD("subgroup of %u lanes at width %u", t->sg_size[i], w);
    }
    RD(naddrs, 8);
    if (naddrs > (1ull << 34))
        BAD("%llu addresses in one work-group", (unsigned long long)naddrs);
    /* grow in bounded steps: a corrupt count fails on the data, not in malloc */
    uint64_t prev = 0;
    uint8_t tmp[UOP_BYTES > REC_BYTES ? UOP_BYTES : REC_BYTES];
    const uint8_t *b;
    for (uint64_t i = 0; i < naddrs; i++) {
        uint64_t at = emu_trace_addrs(t, 1);
        if (at == UINT64_MAX)
            BAD("out of host memory");
        if (!(b = r_take(r, 8, tmp)))
            goto fail;
        t->addrs[at] = prev + le(b, 8);
        prev = t->addrs[at];
    }
    RD(nuops, 4);
    for (uint32_t i = 0; i < nuops; i++) {
        coll_uop u;
        memset(&u, 0, sizeof u);
        if (!(b = r_take(r, UOP_BYTES, tmp)))
            goto fail;
        u.kind = (uint8_t)b[0];
        u.type = (uint8_t)b[1];
        u.binop = (uint8_t)b[2];
        u.space = (uint8_t)b[3];
        u.lanes = (uint16_t)le(b + 4, 2);
        u.sg = (uint16_t)le(b + 6, 2);
        u.bytes = (uint32_t)le(b + 8, 4);
        u.rows = (uint32_t)le(b + 12, 4);
        u.addr = le(b + 16, 8);
        u.pitch = (uint32_t)le(b + 24, 4);
        u.image = (uint32_t)le(b + 28, 4);
        u.mask = le(b + 32, 8);
        if (u.kind >= COLL_UOP_COUNT || (u.type >= ISA_T_COUNT && u.type != ISA_T_NONE) ||
            u.sg >= nsg ||
            u.lanes > LANES_MAX * 64 || u.space >= ISA_SPACE_COUNT)
            BAD("micro-op %u of work-group %llu is invalid", i, (unsigned long long)lin);
        if (emu_trace_uop(t, &u))
            BAD("out of host memory");
    }
    for (uint32_t s = 0; s < nsg; s++) {
        uint32_t n;
        RD(n, 4);
        for (uint32_t i = 0; i < n; i++) {
            emu_rec *rec = emu_trace_push(t, s);
            if (!rec)
                BAD("out of host memory");
            if (!(b = r_take(r, REC_BYTES, tmp)))
                goto fail;
            rec->pc = (uint32_t)le(b, 4);
            rec->naddr = (uint32_t)le(b + 4, 4);
            rec->addr_first = le(b + 8, 8);
            rec->uop_first = (uint32_t)le(b + 16, 4);
            rec->nuops = (uint32_t)le(b + 20, 4);
            rec->mask = le(b + 24, 8);
            if (rec->pc >= r->ninst || rec->naddr > w ||
                rec->addr_first > naddrs || rec->naddr > naddrs - rec->addr_first ||
                rec->uop_first > nuops || rec->nuops > nuops - rec->uop_first ||
                (rec->mask & ~all))
                BAD("record %u of subgroup %u in work-group %llu is invalid", i, s,
                    (unsigned long long)lin);
        }
        r->records += n;
    }
    r->addresses += naddrs;
    r->uops += nuops;
    r->wgs++;
    return 0;
fail:
    snprintf(msg, msgn, "%s", r->err);
    return SGEMU_EXIT_USER;
}

int emu_tracer_finish(emu_trace_reader *r, sgemu_trace_info *info, char *msg, size_t msgn)
{
    uint32_t tag;
    uint64_t nwg;
    RD(tag, 4);
    if (tag != TAG_END)
        BAD("more work-groups than the header's %llu", (unsigned long long)r->info.work_groups);
    RD(nwg, 8);
    if (nwg != r->wgs || nwg != r->info.work_groups)
        BAD("%llu work-groups stored, header says %llu", (unsigned long long)r->wgs,
            (unsigned long long)r->info.work_groups);
    /* the zstd frame must end here (its own checksum is checked on the way) */
    while (!r->frame_done) {
        if (r->out_pos != r->out_len)
            BAD("data after the end marker");
        if (!r_fill(r)) {
            if (r->frame_done)
                break;
            goto fail;
        }
    }
    if (r->out_pos != r->out_len)
        BAD("data after the end marker");
    if (r->payload != r->info.payload_bytes)
        BAD("%llu payload bytes, header says %llu", (unsigned long long)r->payload,
            (unsigned long long)r->info.payload_bytes);
    if (r->verify && r->hash != r->info.checksum)
        BAD("checksum mismatch (payload %016llx, header %016llx)",
            (unsigned long long)r->hash, (unsigned long long)r->info.checksum);
    info->records = r->records;
    info->addresses = r->addresses;
    info->trace_uops = r->uops;
    return 0;
fail:
    snprintf(msg, msgn, "%s", r->err);
    return SGEMU_EXIT_USER;
}

void emu_tracer_close(emu_trace_reader *r)
{
    if (!r)
        return;
    if (r->f)
        fclose(r->f);
    r_dctx_put(r->dz);
    free(r->in);
    free(r->out);
    free(r);
}

/* ------------------------------------------------------------- record */

typedef struct rec_ctx {
    emu_run *run;
    emu_trace_writer *w;
} rec_ctx;

static int pull_and_write(void *user, uint64_t wg_linear, emu_wg_trace *out)
{
    rec_ctx *c = user;
    int rc = emu_run_workgroup(c->run, wg_linear, out);
    if (rc)
        return rc;
    c->run->stats->subgroups += c->run->wg->nsg;
    if (emu_tracew_wg(c->w, out)) {
        snprintf(c->run->fault->msg, sizeof c->run->fault->msg, "cannot write trace '%s'",
                 c->run->launch->record_path);
        return c->run->fault->code = SGEMU_EXIT_USER;
    }
    return 0;
}

int emu_record_run(emu_run *run)
{
    sgemu_trace_info info;
    memset(&info, 0, sizeof info);
    snprintf(info.sgemu_version, sizeof info.sgemu_version, "%s", SGEMU_VERSION);
    snprintf(info.kernel, sizeof info.kernel, "%s", run->k->name);
    info.sg_width = run->width;
    info.dims = run->dims;
    for (int d = 0; d < 3; d++) {
        info.global[d] = run->global[d];
        info.local[d] = run->local[d];
        info.offset[d] = run->offset[d];
    }
    info.work_groups = run->wg_total;
    info.wg_items = (uint32_t)(run->local[0] * run->local[1] * run->local[2]);
    info.local_bytes = run->local_total;
    sgemu_trace_coll_key(run->cfg, info.coll);
    info.max_wg_size = run->cfg->max_wg_size;
    char msg[512] = "";
    rec_ctx c = { run, NULL };
    int rc = emu_tracew_open(&c.w, run->launch->record_path, run->k, &info, msg, sizeof msg);
    if (rc) {
        snprintf(run->fault->msg, sizeof run->fault->msg, "%s", msg);
        return run->fault->code = rc;
    }
    if (run->launch->timing) {
        sgemu_timing *t = calloc(1, sizeof *t);
        if (!t) {
            emu_tracew_close(c.w, NULL, false, NULL, 0);
            snprintf(run->fault->msg, sizeof run->fault->msg, "out of host memory");
            return run->fault->code = SGEMU_EXIT_INTERNAL;
        }
        run->stats->timing = t;
        tm_launch L = {
            .k = run->k, .cfg = run->cfg, .width = run->width,
            .wg_items = info.wg_items, .local_bytes = run->local_total,
            .wg_total = run->wg_total, .next_wg = pull_and_write, .user = &c,
            .trace_path = run->launch->trace_path, .trace_limit = run->launch->trace_limit,
            .threads = run->launch->threads,
        };
        rc = tm_run(&L, t, msg, sizeof msg);
        if (rc && !run->fault->code) {
            snprintf(run->fault->msg, sizeof run->fault->msg, "%s", msg);
            run->fault->code = rc;
        }
    } else {
        emu_wg_trace tr;
        if (emu_trace_init(&tr, 1))
            rc = SGEMU_EXIT_INTERNAL;
        for (uint64_t wg = 0; !rc && wg < run->wg_total; wg++)
            rc = pull_and_write(&c, wg, &tr);
        emu_trace_free(&tr);
    }
    if (rc) {
        emu_tracew_close(c.w, NULL, false, NULL, 0);
        return run->fault->code ? run->fault->code : rc;
    }
    rc = emu_tracew_close(c.w, run->stats, true, msg, sizeof msg);
    if (rc) {
        snprintf(run->fault->msg, sizeof run->fault->msg, "%s", msg);
        run->fault->code = rc;
    }
    return rc;
}

/* ------------------------------------------------------------- replay */

typedef struct replay_ctx {
    emu_trace_reader *r;
    char msg[300];
    int rc;
} replay_ctx;

static int pull_from_file(void *user, uint64_t wg_linear, emu_wg_trace *out)
{
    replay_ctx *c = user;
    if (sgemu_stop_requested()) {       /* Ctrl-C: stop between work-groups */
        snprintf(c->msg, sizeof c->msg, "interrupted");
        return c->rc = SGEMU_EXIT_INTERRUPTED;
    }
    c->rc = emu_tracer_wg(c->r, wg_linear, out, c->msg, sizeof c->msg);
    return c->rc;
}

static int fault_set(sgemu_fault *f, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fault_set(sgemu_fault *f, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->msg, sizeof f->msg, fmt, ap);
    va_end(ap);
    return f->code = code;
}

int sgemu_trace_read_info(const char *path, bool verify, sgemu_trace_info *info,
                          sgemu_fault *fault)
{
    memset(fault, 0, sizeof *fault);
    emu_trace_reader *r;
    char msg[700] = "";
    int rc = emu_tracer_open(&r, path, info, NULL, verify, msg, sizeof msg);
    if (rc)
        return fault_set(fault, rc, "%s", msg);
    if (verify) {
        emu_wg_trace t;
        memset(&t, 0, sizeof t);
        for (uint64_t wg = 0; !rc && wg < info->work_groups; wg++)
            rc = emu_tracer_wg(r, wg, &t, msg, sizeof msg);
        if (!rc)
            rc = emu_tracer_finish(r, info, msg, sizeof msg);
        emu_trace_free(&t);
        if (rc)
            fault_set(fault, rc, "'%s': %s", path, msg);
    }
    emu_tracer_close(r);
    return rc;
}

int sgemu_replay(const char *path, const emu_config *cfg, const sgemu_replay_opts *opts,
                 isa_kernel *kernel_out, sgemu_stats *stats, sgemu_fault *fault)
{
    memset(stats, 0, sizeof *stats);
    memset(fault, 0, sizeof *fault);
    if (kernel_out)
        memset(kernel_out, 0, sizeof *kernel_out);
    sgemu_trace_info info;
    isa_kernel k;
    replay_ctx c;
    memset(&c, 0, sizeof c);
    char msg[700] = "";
    /* no FNV pass here (15% of a replay): zstd's content checksum, which the
     * decompressor checks anyway, the payload length and the structure
     * checks catch corruption; `sgemu trace info` checks the FNV too */
    int rc = emu_tracer_open(&c.r, path, &info, &k, false, msg, sizeof msg);
    if (rc)
        return fault_set(fault, rc, "%s", msg);
    uint32_t key[8];
    sgemu_trace_coll_key(cfg, key);
    if (opts && opts->sg_width && opts->sg_width != info.sg_width)
        rc = fault_set(fault, SGEMU_EXIT_USER, "trace '%s' was recorded at sub-group width "
                       "%u and cannot be replayed at width %u: a width changes the executed "
                       "instruction stream, so record it again with --sg %u",
                       path, info.sg_width, opts->sg_width, opts->sg_width);
    else if (!emu_config_supports_width(cfg, info.sg_width))
        rc = fault_set(fault, SGEMU_EXIT_USER, "trace '%s' was recorded at sub-group width "
                       "%u, which device '%s' does not support", path, info.sg_width,
                       cfg->name);
    else if (memcmp(key, info.coll, sizeof key))
        rc = fault_set(fault, SGEMU_EXIT_USER, "trace '%s' was recorded with other "
                       "collective options (collectives.*) than device '%s' uses: its "
                       "micro-ops would differ, so record it on this config", path, cfg->name);
    else if (info.wg_items > cfg->max_wg_size)
        rc = fault_set(fault, SGEMU_EXIT_USER, "trace '%s': work-group of %u work-items "
                       "exceeds device '%s' limit of %u", path, info.wg_items, cfg->name,
                       cfg->max_wg_size);
    else if (info.local_bytes > cfg->local_mem_per_cu)
        rc = fault_set(fault, SGEMU_EXIT_USER, "trace '%s': kernel needs %u bytes of local "
                       "memory but device '%s' has %u per compute unit", path,
                       info.local_bytes, cfg->name, cfg->local_mem_per_cu);
    sgemu_timing *t = rc ? NULL : calloc(1, sizeof *t);
    if (!rc && !t)
        rc = fault_set(fault, SGEMU_EXIT_INTERNAL, "out of host memory");
    if (!rc) {
        stats->timing = t;
        tm_launch L = {
            .k = &k, .cfg = cfg, .width = info.sg_width, .wg_items = info.wg_items,
            .local_bytes = info.local_bytes, .wg_total = info.work_groups,
            .next_wg = pull_from_file, .user = &c,
            .trace_path = opts ? opts->trace_path : NULL,
            .trace_limit = opts ? opts->trace_limit : 0,
            .threads = opts ? opts->threads : 1,
        };
        rc = tm_run(&L, t, msg, sizeof msg);
        if (rc)
            fault_set(fault, rc, "'%s': %s", path, c.rc ? c.msg : msg);
    }
    if (!rc && (rc = emu_tracer_finish(c.r, &info, msg, sizeof msg)))
        fault_set(fault, rc, "'%s': %s", path, msg);
    emu_tracer_close(c.r);
    if (!rc) {
        stats->sg_width = info.sg_width;
        stats->dims = info.dims;
        for (int d = 0; d < 3; d++) {
            stats->global[d] = info.global[d];
            stats->local[d] = info.local[d];
        }
        stats->work_groups = info.work_groups;
        stats->subgroups = info.subgroups;
        stats->work_items = info.work_items;
        stats->instructions = info.instructions;
        stats->lane_ops = info.lane_ops;
        stats->lane_slots = info.lane_slots;
        stats->uops = info.uops;
    }
    if (kernel_out && !rc)
        *kernel_out = k;
    else
        isa_kernel_free(&k);
    return rc;
}
