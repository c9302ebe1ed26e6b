/* trace_read.c - reading a trace (docs/trace-format.md).  Every count and
 * index read back is checked before the timing model sees it, so a
 * corrupt file gives an error and never a crash. */
#include "trace_private.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

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
            r->hash = trace_fnv(r->hash, r->out, ob.pos);
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
    if (trace_header_decode(hdr, &r->info, m2, sizeof m2)) {
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
    emu_trace_reset(t, nsg, NULL);   /* counts are checked as read */
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
            if (!(b = r_take(r, REC_BYTES, tmp)))
                goto fail;
            emu_rec *rec = emu_trace_push(t, s, (uint32_t)le(b, 4));
            if (!rec)
                BAD("out of host memory");
            uint32_t na = (uint32_t)le(b + 4, 4);
            rec->addr_first = le(b + 8, 8);
            rec->uop_first = (uint32_t)le(b + 16, 4);
            rec->nuops = (uint32_t)le(b + 20, 4);
            rec->mask = le(b + 24, 8);
            if (rec->pc >= r->ninst || na > w || na > LANES_MAX ||
                rec->addr_first > naddrs || na > naddrs - rec->addr_first ||
                rec->uop_first > nuops || rec->nuops > nuops - rec->uop_first ||
                (rec->mask & ~all))
                BAD("record %u of subgroup %u in work-group %llu is invalid", i, s,
                    (unsigned long long)lin);
            /* the file does not carry the addresses' form: found here once */
            rec->naddr = (uint16_t)na;
            rec->strided = na && emu_addrs_strided(t->addrs + rec->addr_first, na);
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
