/* images.c - image2d arguments for `sgemu run`.
 *
 *   image2d:WxH:ORDER:TYPE[:pitch=P]:(zeros|iota|random:SEED|@FILE)
 *   image2d:@FILE.pgm|.ppm
 *
 * ORDER: CL_R CL_RG CL_RGBA CL_BGRA (or R RG RGBA BGRA).  TYPE:
 * CL_UNSIGNED_INT8/16/32, CL_SIGNED_INT8/16/32, CL_UNORM_INT8/16,
 * CL_SNORM_INT8/16, CL_HALF_FLOAT, CL_FLOAT (or uint8 uint16 uint32 int8
 * int16 int32 unorm8 unorm16 snorm8 snorm16 half float).
 * @FILE is raw rows (H rows of W x element bytes, or of P bytes with
 * pitch=P), or a netpbm file: P5 (grey) gives CL_R, P6 (colour) gives
 * CL_RGBA with alpha at the maximum (OpenCL has no CL_RGB for these
 * types); maxval 255 gives 8-bit channels, 65535 16-bit (big-endian in the
 * file).  The type defaults to CL_UNSIGNED_INT8/16 for the short form.
 *
 * Output: one image row per line, elements separated by spaces, channels
 * of an element by commas, each channel as its type's number (UNORM as the
 * stored integer, HALF/FLOAT as decimals).  --out NAME=FILE writes raw
 * packed rows, or PGM/PPM when FILE ends in .pgm/.ppm. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct { const char *name, *alt; } order_names[SGEMU_ORDER_COUNT] = {
    [SGEMU_ORDER_R] = { "CL_R", "R" }, [SGEMU_ORDER_RG] = { "CL_RG", "RG" },
    [SGEMU_ORDER_RGBA] = { "CL_RGBA", "RGBA" }, [SGEMU_ORDER_BGRA] = { "CL_BGRA", "BGRA" },
};

static const struct { const char *name, *alt; } type_names[SGEMU_CHTYPE_COUNT] = {
#define X(E, n, b) [SGEMU_CHTYPE_##E] = { n, NULL },
    SGEMU_CHANNEL_TYPES(X)
#undef X
};

static const char *const type_alts[SGEMU_CHTYPE_COUNT] = {
    [SGEMU_CHTYPE_UNSIGNED_INT8] = "uint8", [SGEMU_CHTYPE_UNSIGNED_INT16] = "uint16",
    [SGEMU_CHTYPE_UNSIGNED_INT32] = "uint32", [SGEMU_CHTYPE_SIGNED_INT8] = "int8",
    [SGEMU_CHTYPE_SIGNED_INT16] = "int16", [SGEMU_CHTYPE_SIGNED_INT32] = "int32",
    [SGEMU_CHTYPE_UNORM_INT8] = "unorm8", [SGEMU_CHTYPE_UNORM_INT16] = "unorm16",
    [SGEMU_CHTYPE_HALF_FLOAT] = "half", [SGEMU_CHTYPE_FLOAT] = "float",
    [SGEMU_CHTYPE_SNORM_INT8] = "snorm8", [SGEMU_CHTYPE_SNORM_INT16] = "snorm16",
};

static const uint8_t channels[SGEMU_ORDER_COUNT] = {
#define X(E, n, c) [SGEMU_ORDER_##E] = c,
    SGEMU_CHANNEL_ORDERS(X)
#undef X
};

static const uint8_t chbytes[SGEMU_CHTYPE_COUNT] = {
#define X(E, n, b) [SGEMU_CHTYPE_##E] = b,
    SGEMU_CHANNEL_TYPES(X)
#undef X
};

#define MAX_IMAGE_BYTES ((size_t)1 << 32)

static bool tok_eq(const char *s, size_t n, const char *w)
{
    return w && strlen(w) == n && !strncasecmp(s, w, n);
}

static int parse_order(const char *s, size_t n)
{
    for (int i = 0; i < SGEMU_ORDER_COUNT; i++)
        if (tok_eq(s, n, order_names[i].name) || tok_eq(s, n, order_names[i].alt))
            return i;
    return -1;
}

static int parse_type(const char *s, size_t n)
{
    for (int i = 0; i < SGEMU_CHTYPE_COUNT; i++)
        if (tok_eq(s, n, type_names[i].name) || tok_eq(s, n, type_alts[i]))
            return i;
    return -1;
}

/* splitmix64, as for buffers */
static uint64_t mix(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Store channel value `i` (iota) or random bits into p. */
static void put_channel(sgemu_channel_type t, uint8_t *p, uint64_t v, bool random)
{
    uint32_t u = (uint32_t)v;
    if (t == SGEMU_CHTYPE_FLOAT) {
        float f = random ? (float)((v >> 40) * 0x1.0p-24) : (float)v;
        memcpy(&u, &f, 4);
    } else if (t == SGEMU_CHTYPE_HALF_FLOAT) {
        u = sgemu_float_to_half(random ? (float)((v >> 53) * 0x1.0p-11) : (float)(v % 2048));
    }
    memcpy(p, &u, chbytes[t]);
}

static int read_u(const char **p, const char *end, unsigned long *out)
{
    const char *s = *p;
    for (;;) {                   /* whitespace and # comments */
        while (s < end && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r'))
            s++;
        if (s < end && *s == '#') {
            while (s < end && *s != '\n')
                s++;
            continue;
        }
        break;
    }
    if (s >= end || *s < '0' || *s > '9')
        return -1;
    unsigned long v = 0;
    while (s < end && *s >= '0' && *s <= '9' && v < 100000000)
        v = v * 10 + (unsigned long)(*s++ - '0');
    *out = v;
    *p = s;
    return 0;
}

static bool ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcasecmp(s + a - b, suf);
}

/* Netpbm P5/P6 into *im (geometry given: must match; else taken). */
static int load_netpbm(const isa_arg *a, const char *path, sgemu_image *im, bool given)
{
    size_t len;
    char *data = cli_value_read_file(path, &len);
    if (!data)
        return SGEMU_EXIT_USER;
    const char *p = data, *end = data + len;
    unsigned long w, h, maxv;
    int rc = 0;
    if (len < 2 || p[0] != 'P' || (p[1] != '5' && p[1] != '6')) {
        rc = cli_value_error("argument '%s': '%s' is not a binary PGM (P5) or PPM (P6) file",
                       a->name, path);
        goto out;
    }
    bool colour = p[1] == '6';
    p += 2;
    if (read_u(&p, end, &w) || read_u(&p, end, &h) || read_u(&p, end, &maxv) ||
        p >= end || w == 0 || h == 0 || (maxv != 255 && maxv != 65535)) {
        rc = cli_value_error("argument '%s': bad netpbm header in '%s' (sgemu reads maxval 255 "
                       "or 65535)", a->name, path);
        goto out;
    }
    p++;                         /* the single whitespace after maxval */
    uint32_t cb = maxv == 255 ? 1 : 2, fch = colour ? 3 : 1;
    sgemu_channel_order order = colour ? SGEMU_ORDER_RGBA : SGEMU_ORDER_R;
    if (given) {
        if (im->width != w || im->height != h || im->order != order ||
            chbytes[im->chtype] != cb) {
            rc = cli_value_error("argument '%s': '%s' is %lux%lu %s with %u-byte channels, but "
                           "the argument says %ux%u %s %s", a->name, path, w, h,
                           order_names[order].name, cb, im->width, im->height,
                           order_names[im->order].name, type_names[im->chtype].name);
            goto out;
        }
    } else {
        im->width = (uint32_t)w;
        im->height = (uint32_t)h;
        im->order = (uint8_t)order;
        im->chtype = cb == 1 ? SGEMU_CHTYPE_UNSIGNED_INT8 : SGEMU_CHTYPE_UNSIGNED_INT16;
        im->elem_bytes = sgemu_image_elem_bytes(order, (sgemu_channel_type)im->chtype);
        im->pitch = im->width * im->elem_bytes;
    }
    if ((size_t)(end - p) < (size_t)w * h * fch * cb) {
        rc = cli_value_error("argument '%s': '%s' is truncated", a->name, path);
        goto out;
    }
    im->data = calloc((size_t)im->pitch * im->height, 1);
    if (!im->data) {
        rc = cli_value_error("out of memory");
        goto out;
    }
    const uint8_t *q = (const uint8_t *)p;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint8_t *e = im->data + (size_t)y * im->pitch + (size_t)x * im->elem_bytes;
            for (uint32_t c = 0; c < channels[order]; c++) {
                uint32_t v = (uint32_t)maxv;          /* alpha */
                if (c < fch) {
                    v = cb == 1 ? q[0] : (uint32_t)(q[0] << 8 | q[1]);
                    q += cb;
                }
                memcpy(e + c * cb, &v, cb);           /* little-endian host */
            }
        }
out:
    free(data);
    return rc;
}

int cli_make_image(const isa_arg *a, const char *spec, sgemu_argval *v)
{
    memset(v, 0, sizeof *v);
    v->kind = SGEMU_VAL_IMAGE;
    sgemu_image *im = &v->image;
    if (strncmp(spec, "image2d:", 8))
        return cli_value_error("argument '%s' is an image: expected image2d:WxH:ORDER:TYPE:"
                         "(zeros|iota|random:SEED|@FILE) or image2d:@FILE.pgm, got '%s'",
                         a->name, spec);
    const char *s = spec + 8;
    if (s[0] == '@') {
        if (!ends_with(s, ".pgm") && !ends_with(s, ".ppm"))
            return cli_value_error("argument '%s': image2d:@FILE needs a .pgm or .ppm file "
                             "(raw data needs WxH:ORDER:TYPE)", a->name);
        return load_netpbm(a, s + 1, im, false);
    }
    char *end;
    errno = 0;
    unsigned long w = strtoul(s, &end, 10), h = 0;
    if (end == s || (*end != 'x' && *end != 'X'))
        return cli_value_error("argument '%s': expected WxH after image2d:, got '%s'", a->name, s);
    const char *hs = end + 1;
    h = strtoul(hs, &end, 10);
    if (end == hs || *end != ':' || errno || w == 0 || h == 0 || w >= (1u << 24) ||
        h >= (1u << 24))
        return cli_value_error("argument '%s': bad image size in '%s' (1..16777215 each)",
                         a->name, spec);
    const char *os = end + 1, *oe = strchr(os, ':');
    int order = oe ? parse_order(os, (size_t)(oe - os)) : -1;
    if (order < 0)
        return cli_value_error("argument '%s': unknown channel order in '%s' (CL_R, CL_RG, CL_RGBA, CL_BGRA)",
                         a->name, spec);
    const char *ts = oe + 1, *te = strchr(ts, ':');
    int type = te ? parse_type(ts, (size_t)(te - ts)) : -1;
    if (type < 0)
        return cli_value_error("argument '%s': unknown channel type in '%s' (CL_UNSIGNED_INT8, "
                         "..., CL_FLOAT or uint8, ..., float)", a->name, spec);
    im->width = (uint32_t)w;
    im->height = (uint32_t)h;
    im->order = (uint8_t)order;
    im->chtype = (uint8_t)type;
    im->elem_bytes = sgemu_image_elem_bytes((sgemu_channel_order)order,
                                            (sgemu_channel_type)type);
    im->pitch = im->width * im->elem_bytes;
    const char *rest = te + 1;
    if (!strncmp(rest, "pitch=", 6)) {
        const char *ps = rest + 6;
        unsigned long p = strtoul(ps, &end, 10);
        if (end == ps || *end != ':' || p < im->pitch || p > UINT32_MAX)
            return cli_value_error("argument '%s': pitch must be at least %u bytes (width x "
                             "element bytes) in '%s'", a->name, im->pitch, spec);
        im->pitch = (uint32_t)p;
        rest = end + 1;
    }
    size_t bytes = (size_t)im->pitch * im->height;
    if (bytes > MAX_IMAGE_BYTES)
        return cli_value_error("argument '%s': image of %zu bytes is more than sgemu allows",
                         a->name, bytes);
    if (rest[0] == '@') {
        const char *path = rest + 1;
        if (ends_with(path, ".pgm") || ends_with(path, ".ppm"))
            return load_netpbm(a, path, im, true);
        size_t len;
        char *data = cli_value_read_file(path, &len);
        if (!data)
            return SGEMU_EXIT_USER;
        size_t row = (size_t)im->width * im->elem_bytes;
        if (len != bytes && len != row * im->height) {
            free(data);
            return cli_value_error("argument '%s': '%s' has %zu bytes; expected %zu (%u rows of "
                             "%zu) or %zu (rows of the pitch)", a->name, path, len,
                             row * im->height, im->height, row, bytes);
        }
        im->data = calloc(bytes, 1);
        if (!im->data) {
            free(data);
            return cli_value_error("out of memory");
        }
        size_t src_pitch = len == bytes ? im->pitch : row;
        for (uint32_t y = 0; y < im->height; y++)
            memcpy(im->data + (size_t)y * im->pitch, data + (size_t)y * src_pitch, row);
        free(data);
        return 0;
    }
    bool iota = !strcmp(rest, "iota"), zeros = !strcmp(rest, "zeros");
    bool random = !strncmp(rest, "random:", 7);
    uint64_t seed = 0;
    if (random) {
        const char *ss = rest + 7;
        errno = 0;
        seed = strtoull(ss, &end, 0);
        if (end == ss || *end || errno)
            return cli_value_error("argument '%s': bad seed in '%s'", a->name, spec);
    } else if (!iota && !zeros) {
        return cli_value_error("argument '%s': expected zeros, iota, random:SEED or @FILE at the "
                         "end of '%s'", a->name, spec);
    }
    im->data = calloc(bytes ? bytes : 1, 1);
    if (!im->data)
        return cli_value_error("out of memory allocating %zu bytes", bytes);
    uint32_t nch = channels[order], cb = chbytes[type];
    for (uint32_t y = 0; y < im->height && !zeros; y++)
        for (uint32_t x = 0; x < im->width; x++)
            for (uint32_t c = 0; c < nch; c++) {
                uint8_t *p = im->data + (size_t)y * im->pitch + (size_t)x * im->elem_bytes + c * cb;
                uint64_t val = random ? mix(&seed)
                                      : ((uint64_t)y * im->width + x) * nch + c;
                put_channel((sgemu_channel_type)type, p, val, random);
            }
    return 0;
}

static void format_channel(sgemu_channel_type t, const uint8_t *p, char *b, size_t n)
{
    uint32_t u = 0;
    memcpy(&u, p, chbytes[t]);
    switch (t) {
    case SGEMU_CHTYPE_SIGNED_INT8: case SGEMU_CHTYPE_SNORM_INT8:
        snprintf(b, n, "%d", (int8_t)u); break;
    case SGEMU_CHTYPE_SIGNED_INT16: case SGEMU_CHTYPE_SNORM_INT16:
        snprintf(b, n, "%d", (int16_t)u); break;
    case SGEMU_CHTYPE_SIGNED_INT32: snprintf(b, n, "%d", (int32_t)u); break;
    case SGEMU_CHTYPE_HALF_FLOAT: snprintf(b, n, "%.9g", (double)sgemu_half_to_float((uint16_t)u)); break;
    case SGEMU_CHTYPE_FLOAT: {
        float f;
        memcpy(&f, &u, 4);
        snprintf(b, n, "%.9g", (double)f);
        break;
    }
    default: snprintf(b, n, "%u", u); break;
    }
}

void cli_print_image(FILE *f, const isa_arg *a, const sgemu_argval *v)
{
    (void)a;
    const sgemu_image *im = &v->image;
    sgemu_channel_type t = (sgemu_channel_type)im->chtype;
    uint32_t nch = channels[im->order], cb = chbytes[t];
    char b[64];
    for (uint32_t y = 0; y < im->height; y++) {
        for (uint32_t x = 0; x < im->width; x++) {
            const uint8_t *e = im->data + (size_t)y * im->pitch + (size_t)x * im->elem_bytes;
            if (x)
                fputc(' ', f);
            for (uint32_t c = 0; c < nch; c++) {
                format_channel(t, e + c * cb, b, sizeof b);
                fprintf(f, "%s%s", c ? "," : "", b);
            }
        }
        fputc('\n', f);
    }
}

int cli_write_image(const char *path, const isa_arg *a, const sgemu_argval *v)
{
    const sgemu_image *im = &v->image;
    uint32_t cb = chbytes[im->chtype], nch = channels[im->order];
    bool pgm = ends_with(path, ".pgm"), ppm = ends_with(path, ".ppm");
    size_t row = (size_t)im->width * im->elem_bytes;
    if (!pgm && !ppm) {
        uint8_t *out = malloc(row * im->height + 1);
        if (!out)
            return cli_error("out of memory");
        for (uint32_t y = 0; y < im->height; y++)
            memcpy(out + y * row, im->data + (size_t)y * im->pitch, row);
        int rc = cli_write_atomic(path, out, row * im->height);
        free(out);
        return rc;
    }
    /* netpbm: integer / unorm channels of 8 or 16 bits */
    sgemu_channel_type t = (sgemu_channel_type)im->chtype;
    bool ok_type = cb <= 2 && t != SGEMU_CHTYPE_HALF_FLOAT && t != SGEMU_CHTYPE_SIGNED_INT8 &&
                   t != SGEMU_CHTYPE_SIGNED_INT16 && t != SGEMU_CHTYPE_SNORM_INT8 &&
                   t != SGEMU_CHTYPE_SNORM_INT16;
    if (!ok_type || (pgm && nch != 1) || (ppm && im->order != SGEMU_ORDER_RGBA))
        return cli_error("--out %s: image '%s' (%s %s) cannot be written as %s (PGM needs "
                         "CL_R, PPM CL_RGBA; 8/16-bit unsigned or unorm channels)", path,
                         a->name, order_names[im->order].name, type_names[t].name,
                         pgm ? "PGM" : "PPM");
    uint32_t fch = pgm ? 1 : 3;
    char head[64];
    int hl = snprintf(head, sizeof head, "P%c\n%u %u\n%u\n", pgm ? '5' : '6', im->width,
                      im->height, cb == 1 ? 255u : 65535u);
    size_t n = (size_t)hl + (size_t)im->width * im->height * fch * cb;
    uint8_t *out = malloc(n);
    if (!out)
        return cli_error("out of memory");
    memcpy(out, head, (size_t)hl);
    uint8_t *q = out + hl;
    for (uint32_t y = 0; y < im->height; y++)
        for (uint32_t x = 0; x < im->width; x++) {
            const uint8_t *e = im->data + (size_t)y * im->pitch + (size_t)x * im->elem_bytes;
            for (uint32_t c = 0; c < fch; c++) {
                uint32_t val = 0;
                memcpy(&val, e + c * cb, cb);
                if (cb == 1) {
                    *q++ = (uint8_t)val;
                } else {
                    *q++ = (uint8_t)(val >> 8);    /* netpbm is big-endian */
                    *q++ = (uint8_t)val;
                }
            }
        }
    int rc = cli_write_atomic(path, out, n);
    free(out);
    return rc;
}
