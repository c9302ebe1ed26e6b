/* trace_header.c - the fixed-size header of a trace file
 * (docs/trace-format.md): little-endian fields in a fixed order. */
#include "trace_private.h"

#include <string.h>

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

void trace_header_encode(const sgemu_trace_info *in, uint8_t out[EMU_TRACE_HEADER_BYTES])
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
    uint64_t h = trace_fnv(FNV_OFFSET, out, EMU_TRACE_HEADER_BYTES - 8);
    b.at = EMU_TRACE_HEADER_BYTES - 8;
    put(&b, h, 8);
}

int trace_header_decode(const uint8_t in[EMU_TRACE_HEADER_BYTES], sgemu_trace_info *out,
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
    if (trace_fnv(FNV_OFFSET, in, EMU_TRACE_HEADER_BYTES - 8) != want) {
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
