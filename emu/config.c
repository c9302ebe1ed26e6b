/*
 * config.c - device configs from YAML through the key table
 * (emu/config_keys.def): the same rows drive defaults, parsing, range checks,
 * emu_config_dump and the docs check in tests/emu/test_config.c.
 *
 * A file is loaded with libyaml's document API, so every problem carries the
 * node's mark; all problems are collected, not only the first.  `extends:`
 * loads the base first (a layer), then this file's keys override it; the
 * checks that need the whole picture (required keys, default width in the
 * widths list) run once on the merged result.
 */
#include "config.h"

#include <yaml.h>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef enum cfg_kind { CFG_U32, CFG_F64, CFG_STR, CFG_WIDTHS, CFG_ENUM } cfg_kind;

typedef struct cfg_key {
    const char *path;
    cfg_kind kind;
    size_t offset, size;
    double min, max;
    const char *def;            /* YAML text of the default; NULL: required */
    const char *const *names;   /* ENUM values in order, NULL-terminated */
    const char *unit, *doc;
} cfg_key;

#define CFG_NO_NAMES(X)
#define CFG_NAME(E, n) n,
/* Compile-time check that a field fits its kind (a negative array size fails). */
#define CFG_FITS_U32(sz) ((sz) == 1 || (sz) == 2 || (sz) == 4)
#define CFG_FITS_ENUM(sz) CFG_FITS_U32(sz)
#define CFG_FITS_F64(sz) ((sz) == sizeof(double))
#define CFG_FITS_STR(sz) ((sz) > 1)
#define CFG_FITS_WIDTHS(sz) ((sz) % sizeof(uint32_t) == 0)
#define CFG_SIZE(kind, field)                                                          \
    (sizeof(((emu_config *)0)->field) +                                                \
     0 * sizeof(char[CFG_FITS_##kind(sizeof(((emu_config *)0)->field)) ? 1 : -1]))
#define CFG_KEY(path, kind, field, min, max, def, names, unit, doc)                  \
    { path, CFG_##kind, offsetof(emu_config, field), CFG_SIZE(kind, field),           \
      min, max, def, (const char *const[]){ names(CFG_NAME) NULL }, unit, doc },
static const cfg_key cfg_keys[] = {
#include "config_keys.def"
};
#undef CFG_KEY
#undef CFG_NAME

enum { CFG_NKEYS = sizeof cfg_keys / sizeof cfg_keys[0] };

/* A WIDTHS field is a uint32_t array followed by its uint32_t count. */
_Static_assert(offsetof(emu_config, nwidths) ==
               offsetof(emu_config, widths) + sizeof(((emu_config *)0)->widths),
               "nwidths must follow widths");

#define CFG_MAX_DEPTH 16        /* extends chain */
#define CFG_MSG 200

/* Bounded string append/copy (paths may be long; messages get truncated). */
static void cfg_append(char *dst, size_t cap, const char *src)
{
    size_t n = strlen(dst), m = strlen(src);
    if (n + 1 >= cap)
        return;
    if (m > cap - n - 1)
        m = cap - n - 1;
    memcpy(dst + n, src, m);
    dst[n + m] = 0;
}

static void cfg_copy(char *dst, size_t cap, const char *src)
{
    dst[0] = 0;
    cfg_append(dst, cap, src);
}

/* ---------------------------------------------------------- field access */

static void *cfg_field(emu_config *cfg, const cfg_key *k)
{
    return (char *)cfg + k->offset;
}

static const void *cfg_cfield(const emu_config *cfg, const cfg_key *k)
{
    return (const char *)cfg + k->offset;
}

static uint32_t cfg_get_uint(const emu_config *cfg, const cfg_key *k)
{
    const void *p = cfg_cfield(cfg, k);
    switch (k->size) {
    case 1: return *(const uint8_t *)p;
    case 2: return *(const uint16_t *)p;
    default: return *(const uint32_t *)p;
    }
}

static void cfg_set_uint(emu_config *cfg, const cfg_key *k, uint32_t v)
{
    void *p = cfg_field(cfg, k);
    switch (k->size) {
    case 1: *(uint8_t *)p = (uint8_t)v; break;
    case 2: *(uint16_t *)p = (uint16_t)v; break;
    default: *(uint32_t *)p = v; break;
    }
}

static uint32_t *cfg_widths(emu_config *cfg, const cfg_key *k, uint32_t **count)
{
    uint32_t *w = cfg_field(cfg, k);
    *count = (uint32_t *)((char *)w + k->size);
    return w;
}

static const cfg_key *cfg_find(const char *path)
{
    for (size_t i = 0; i < CFG_NKEYS; i++)
        if (strcmp(cfg_keys[i].path, path) == 0)
            return &cfg_keys[i];
    return NULL;
}

/* A section is a path that prefixes some key ("device", "pipes.alu"). */
static bool cfg_is_section(const char *path)
{
    size_t n = strlen(path);
    for (size_t i = 0; i < CFG_NKEYS; i++)
        if (strncmp(cfg_keys[i].path, path, n) == 0 && cfg_keys[i].path[n] == '.')
            return true;
    return false;
}

/* ------------------------------------------------------- scalar parsing */

/* Decimal digits only: YAML's other integer forms are not worth the surprise. */
static bool cfg_parse_uint(const char *s, size_t n, uint64_t *out)
{
    uint64_t v = 0;
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        if (v > (UINT64_MAX - 9) / 10)
            v = UINT64_MAX / 2;            /* saturate: out of any range */
        else
            v = v * 10 + (uint64_t)(s[i] - '0');
    }
    *out = v;
    return true;
}

static bool cfg_parse_f64(const char *s, size_t n, double *out)
{
    char buf[64], *end;
    if (n == 0 || n >= sizeof buf)
        return false;
    memcpy(buf, s, n);
    buf[n] = 0;
    errno = 0;
    *out = strtod(buf, &end);
    return end == buf + n && errno == 0 && isfinite(*out);
}

static int cfg_enum_index(const cfg_key *k, const char *s, size_t n)
{
    for (int i = 0; k->names[i]; i++)
        if (strlen(k->names[i]) == n && memcmp(k->names[i], s, n) == 0)
            return i;
    return -1;
}

static void cfg_enum_choices(const cfg_key *k, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = 0;
    for (int i = 0; k->names[i] && len < cap; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? ", " : "", k->names[i]);
}

/* Store one scalar; on a problem write a message to err and return false.
 * `plain`: unquoted in the YAML (numbers must be). */
static bool cfg_set_scalar(emu_config *cfg, const cfg_key *k, const char *s, size_t n,
                           bool plain, char *err)
{
    uint64_t u;
    double d;
    int e;
    switch (k->kind) {
    case CFG_U32:
        if (!plain || !cfg_parse_uint(s, n, &u)) {
            snprintf(err, CFG_MSG, "%s: expected an unsigned integer", k->path);
            return false;
        }
        if ((double)u < k->min || (double)u > k->max) {
            snprintf(err, CFG_MSG, "%s must be in %.0f..%.0f", k->path, k->min, k->max);
            return false;
        }
        cfg_set_uint(cfg, k, (uint32_t)u);
        return true;
    case CFG_F64:
        if (!plain || !cfg_parse_f64(s, n, &d)) {
            snprintf(err, CFG_MSG, "%s: expected a number", k->path);
            return false;
        }
        if (d < k->min || d > k->max) {
            snprintf(err, CFG_MSG, "%s must be in %g..%g", k->path, k->min, k->max);
            return false;
        }
        *(double *)cfg_field(cfg, k) = d;
        return true;
    case CFG_STR:
        if (plain && (n == 0 || (n == 1 && s[0] == '~') ||
                      (n == 4 && (!memcmp(s, "null", 4) || !memcmp(s, "Null", 4) ||
                                  !memcmp(s, "NULL", 4))))) {
            snprintf(err, CFG_MSG, "%s: expected a string", k->path);
            return false;
        }
        if (n == 0) {
            snprintf(err, CFG_MSG, "%s must not be empty", k->path);
            return false;
        }
        if (n >= k->size || memchr(s, 0, n)) {
            snprintf(err, CFG_MSG, "%s: at most %zu bytes, no NUL", k->path, k->size - 1);
            return false;
        }
        memset(cfg_field(cfg, k), 0, k->size);   /* whole field: configs compare by bytes */
        memcpy(cfg_field(cfg, k), s, n);
        return true;
    case CFG_ENUM:
        if ((e = cfg_enum_index(k, s, n)) < 0) {
            char choices[120];
            cfg_enum_choices(k, choices, sizeof choices);
            snprintf(err, CFG_MSG, "%s: unknown value '%.*s' (expected one of: %s)", k->path,
                     (int)(n > 40 ? 40 : n), s, choices);
            return false;
        }
        cfg_set_uint(cfg, k, (uint32_t)e);
        return true;
    case CFG_WIDTHS:
        break;
    }
    snprintf(err, CFG_MSG, "%s: expected a list of unsigned integers", k->path);
    return false;
}

/* Sorted ascending, no duplicates, 1..EMU_MAX_WIDTHS entries. */
static bool cfg_set_widths(emu_config *cfg, const cfg_key *k, const uint32_t *v, uint32_t n,
                           char *err)
{
    uint32_t *count, *w = cfg_widths(cfg, k, &count);
    uint32_t cap = (uint32_t)(k->size / sizeof *w), tmp[64];
    if (n == 0) {
        snprintf(err, CFG_MSG, "%s must list at least one width", k->path);
        return false;
    }
    if (n > cap) {
        snprintf(err, CFG_MSG, "%s: at most %u widths", k->path, cap);
        return false;
    }
    memcpy(tmp, v, n * sizeof *v);
    for (uint32_t i = 1; i < n; i++)           /* insertion sort: n <= 8 */
        for (uint32_t j = i; j > 0 && tmp[j - 1] > tmp[j]; j--) {
            uint32_t t = tmp[j];
            tmp[j] = tmp[j - 1];
            tmp[j - 1] = t;
        }
    for (uint32_t i = 1; i < n; i++)
        if (tmp[i] == tmp[i - 1]) {
            snprintf(err, CFG_MSG, "%s: width %u listed twice", k->path, tmp[i]);
            return false;
        }
    memcpy(w, tmp, n * sizeof *w);
    *count = n;
    return true;
}

/* ------------------------------------------------------------- defaults */

/* Defaults are YAML text; they never fail (tests load every default). */
static void cfg_apply_default(emu_config *cfg, const cfg_key *k)
{
    char err[CFG_MSG];
    if (k->kind == CFG_WIDTHS) {
        uint32_t v[64], n = 0;
        for (const char *p = k->def; *p && n < 64;) {
            if (*p >= '0' && *p <= '9')
                v[n++] = (uint32_t)strtoul(p, (char **)&p, 10);
            else
                p++;
        }
        cfg_set_widths(cfg, k, v, n, err);
    } else {
        cfg_set_scalar(cfg, k, k->def, strlen(k->def), true, err);
    }
}

void emu_config_init(emu_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    for (size_t i = 0; i < CFG_NKEYS; i++)
        if (cfg_keys[i].def)
            cfg_apply_default(cfg, &cfg_keys[i]);
}

/* ---------------------------------------------------------------- loading */

typedef struct cfg_pos { uint32_t line, col; } cfg_pos;   /* 1-based; 0: none */

typedef struct cfg_load {
    emu_config *cfg;
    bool set[CFG_NKEYS];          /* given by some layer */
    cfg_pos where[CFG_NKEYS];     /* value position in the top file */
    cfg_pos extends;              /* the top file's extends value */
    char chain[CFG_MAX_DEPTH][300]; /* identities of the layers being loaded */
    char shown[CFG_MAX_DEPTH][300]; /* ... and their names in messages */
    int depth;
    bool broken;                  /* some layer is not YAML: skip the merged checks */
} cfg_load;

static cfg_pos cfg_mark(yaml_mark_t m)
{
    return (cfg_pos){ (uint32_t)m.line + 1, (uint32_t)m.column + 1 };
}

static void cfg_err(isa_diags *d, yaml_mark_t m, const char *msg)
{
    cfg_pos p = cfg_mark(m);
    isa_diags_add(d, p.line, p.col, "%s", msg);
}

/* Reader errors carry a byte offset only. */
static cfg_pos cfg_offset_pos(const char *text, size_t len, size_t off)
{
    cfg_pos p = { 1, 1 };
    for (size_t i = 0; i < off && i < len; i++) {
        if (text[i] == '\n') {
            p.line++;
            p.col = 1;
        } else {
            p.col++;
        }
    }
    return p;
}

static void cfg_yaml_error(const yaml_parser_t *ps, const char *text, size_t len, isa_diags *d)
{
    cfg_pos p;
    const char *problem = ps->problem ? ps->problem : "unknown problem";
    if (ps->error == YAML_MEMORY_ERROR) {
        isa_diags_add(d, 1, 1, "out of memory while reading YAML");
        return;
    }
    if (ps->error == YAML_READER_ERROR) {
        p = cfg_offset_pos(text, len, ps->problem_offset);
        isa_diags_add(d, p.line, p.col, "invalid YAML: %s", problem);
        return;
    }
    p = cfg_mark(ps->problem_mark);
    if (ps->context)
        isa_diags_add(d, p.line, p.col, "invalid YAML: %s (%s at %u:%u)", problem, ps->context,
                      (unsigned)ps->context_mark.line + 1, (unsigned)ps->context_mark.column + 1);
    else
        isa_diags_add(d, p.line, p.col, "invalid YAML: %s", problem);
}

/* The edit distance of a and b when it is below limit, else some value
 * >= limit: lengths that differ by limit or more, or a row whose every
 * entry reached limit, end it early (an unknown key is compared with every
 * key, and fuzzed files hold thousands of them). */
static size_t cfg_edit_distance(const char *a, const char *b, size_t limit)
{
    size_t la = strlen(a), lb = strlen(b), row[128];
    if (la >= 127 || lb >= 127 || (la > lb ? la - lb : lb - la) >= limit)
        return limit;
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0], low;
        row[0] = low = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
            if (best < low)
                low = best;
        }
        if (low >= limit)               /* rows never decrease their minimum */
            return limit;
    }
    return row[lb];
}

/* The key closest to `path` by edit distance, if it is a close typo. */
static const cfg_key *cfg_nearest_key(const char *path)
{
    const cfg_key *best = NULL;
    size_t bestd = 3;                          /* suggest only close typos */
    for (size_t i = 0; i < CFG_NKEYS; i++) {
        size_t dist = cfg_edit_distance(path, cfg_keys[i].path, bestd);
        if (dist < bestd) {
            bestd = dist;
            best = &cfg_keys[i];
        }
    }
    return best;
}

static void cfg_unknown_key(isa_diags *d, yaml_mark_t m, const char *path)
{
    const cfg_key *best = cfg_nearest_key(path);
    cfg_pos p = cfg_mark(m);
    if (best)
        isa_diags_add(d, p.line, p.col, "unknown key '%s' (did you mean '%s'?)", path, best->path);
    else
        isa_diags_add(d, p.line, p.col, "unknown key '%s'", path);
}

static bool cfg_plain(const yaml_node_t *n)
{
    return n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
}

static void cfg_value(cfg_load *L, yaml_document_t *doc, const cfg_key *k, yaml_node_t *v,
                      isa_diags *d, bool top)
{
    char err[CFG_MSG];
    bool ok;
    size_t i = (size_t)(k - cfg_keys);
    L->set[i] = true;                          /* given, even if wrong: not "missing" */
    if (k->kind == CFG_WIDTHS) {
        uint32_t vals[64], n = 0;
        bool bad = false;
        if (v->type != YAML_SEQUENCE_NODE) {
            snprintf(err, CFG_MSG, "%s: expected a list of unsigned integers", k->path);
            cfg_err(d, v->start_mark, err);
            return;
        }
        for (yaml_node_item_t *it = v->data.sequence.items.start;
             it < v->data.sequence.items.top; it++) {
            yaml_node_t *e = yaml_document_get_node(doc, *it);
            uint64_t u;
            if (!e || e->type != YAML_SCALAR_NODE || !cfg_plain(e) ||
                !cfg_parse_uint((const char *)e->data.scalar.value, e->data.scalar.length, &u)) {
                snprintf(err, CFG_MSG, "%s: expected a list of unsigned integers", k->path);
                cfg_err(d, e ? e->start_mark : v->start_mark, err);
                bad = true;
            } else if ((double)u < k->min || (double)u > k->max) {
                snprintf(err, CFG_MSG, "%s: widths must be in %.0f..%.0f", k->path, k->min, k->max);
                cfg_err(d, e->start_mark, err);
                bad = true;
            } else if (n < 64) {
                vals[n++] = (uint32_t)u;
            }
        }
        if (bad)
            return;
        ok = cfg_set_widths(L->cfg, k, vals, n, err);
    } else if (v->type != YAML_SCALAR_NODE) {
        static const char *const what[] = {
            [CFG_U32] = "an unsigned integer", [CFG_F64] = "a number",
            [CFG_STR] = "a string", [CFG_ENUM] = "a name", [CFG_WIDTHS] = "a list" };
        snprintf(err, CFG_MSG, "%s: expected %s", k->path, what[k->kind]);
        ok = false;
    } else {
        ok = cfg_set_scalar(L->cfg, k, (const char *)v->data.scalar.value,
                            v->data.scalar.length, cfg_plain(v), err);
    }
    if (!ok) {
        cfg_err(d, v->start_mark, err);
        return;
    }
    if (top)
        L->where[i] = cfg_mark(v->start_mark);
}

/* A scalar key of a mapping and its pair's index, for the duplicate check. */
typedef struct cfg_keyref {
    const unsigned char *s;
    size_t len, at;
} cfg_keyref;

static int cfg_keyref_cmp(const void *a, const void *b)
{
    const cfg_keyref *x = a, *y = b;
    if (x->len != y->len)
        return x->len < y->len ? -1 : 1;
    int c = x->len ? memcmp(x->s, y->s, x->len) : 0;
    if (c)
        return c;
    return x->at < y->at ? -1 : x->at > y->at;
}

/* dup[i]: pair i repeats the key of an earlier pair.  Sorted, not pairwise:
 * a mapping of thousands of keys (fuzzed input) stays O(n log n).  Returns
 * NULL (no memory) or a bool array to free. */
static bool *cfg_duplicates(yaml_document_t *doc, const yaml_node_t *map)
{
    size_t n = (size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start), m = 0;
    bool *dup = calloc(n ? n : 1, sizeof *dup);
    cfg_keyref *refs = malloc((n ? n : 1) * sizeof *refs);
    if (!dup || !refs) {
        free(dup);
        free(refs);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        const yaml_node_t *kn = yaml_document_get_node(doc, map->data.mapping.pairs.start[i].key);
        if (kn && kn->type == YAML_SCALAR_NODE)
            refs[m++] = (cfg_keyref){ kn->data.scalar.value, kn->data.scalar.length, i };
    }
    if (m > 1)
        qsort(refs, m, sizeof *refs, cfg_keyref_cmp);
    for (size_t i = 1; i < m; i++)
        dup[refs[i].at] = refs[i].len == refs[i - 1].len &&
                          (refs[i].len == 0 || memcmp(refs[i].s, refs[i - 1].s, refs[i].len) == 0);
    free(refs);
    return dup;
}

static void cfg_mapping(cfg_load *L, yaml_document_t *doc, yaml_node_t *map, const char *prefix,
                        isa_diags *d, bool top)
{
    bool *dups = cfg_duplicates(doc, map);
    if (!dups) {
        cfg_err(d, map->start_mark, "out of memory while reading YAML");
        return;
    }
    for (yaml_node_pair_t *pr = map->data.mapping.pairs.start; pr < map->data.mapping.pairs.top;
         pr++) {
        yaml_node_t *kn = yaml_document_get_node(doc, pr->key);
        yaml_node_t *vn = yaml_document_get_node(doc, pr->value);
        char path[256];
        if (!kn || !vn)
            continue;
        if (kn->type != YAML_SCALAR_NODE) {
            cfg_err(d, kn->start_mark, "keys must be plain names");
            continue;
        }
        const char *key = (const char *)kn->data.scalar.value;
        size_t klen = kn->data.scalar.length;
        snprintf(path, sizeof path, "%s%s%.*s", prefix, *prefix ? "." : "",
                 (int)(klen > 200 ? 200 : klen), key);
        if (dups[pr - map->data.mapping.pairs.start]) {
            cfg_pos p = cfg_mark(kn->start_mark);
            isa_diags_add(d, p.line, p.col, "duplicate key '%s'", path);
            continue;
        }
        if (!*prefix && strcmp(path, "extends") == 0)
            continue;                          /* handled before the keys */
        const cfg_key *k = cfg_find(path);
        if (k) {
            cfg_value(L, doc, k, vn, d, top);
        } else if (cfg_is_section(path)) {
            if (vn->type == YAML_MAPPING_NODE) {
                cfg_mapping(L, doc, vn, path, d, top);
            } else {
                cfg_pos p = cfg_mark(vn->start_mark);
                isa_diags_add(d, p.line, p.col, "'%s' must be a mapping of keys", path);
            }
        } else {
            cfg_unknown_key(d, kn->start_mark, path);
        }
    }
    free(dups);
}

static char *cfg_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0, n = 0;
    if (!f)
        return NULL;
    for (;;) {
        if (n == cap) {
            char *nb = realloc(buf, cap = cap ? cap * 2 : 4096);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    bool bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

static void cfg_layer(cfg_load *L, const char *ident, const char *shown, const char *text,
                      size_t len, const char *dir, isa_diags *d);

/* Load base `name` of a layer whose extends value is `v`; its problems are
 * reported at `v`, naming the base's own position.  A base that cannot be
 * loaded at all marks the load broken (the merged checks would be noise). */
static void cfg_extends(cfg_load *L, yaml_node_t *v, const char *dir, isa_diags *d)
{
    char name[128], ident[300], shown[300], bdir[300], msg[CFG_MSG];
    const char *text = NULL;
    char *owned = NULL;
    size_t len = 0;
    cfg_pos at = cfg_mark(v->start_mark);
    bool was_broken = L->broken;
    L->broken = true;                          /* until the base is found */
    if (v->type != YAML_SCALAR_NODE || v->data.scalar.length == 0 ||
        v->data.scalar.length >= sizeof name) {
        isa_diags_add(d, at.line, at.col, "extends: expected the name of a config");
        return;
    }
    memcpy(name, v->data.scalar.value, v->data.scalar.length);
    name[v->data.scalar.length] = 0;
    if (dir) {
        snprintf(bdir, sizeof bdir, "%s/%.*s.yaml", dir, 120, name);
        if ((owned = cfg_read_file(bdir, &len))) {
            char *rp = realpath(bdir, NULL);
            cfg_copy(ident, sizeof ident, rp ? rp : bdir);
            cfg_copy(shown, sizeof shown, bdir);
            free(rp);
            text = owned;
            *strrchr(bdir, '/') = 0;           /* bdir: the base's folder */
        }
    }
    if (!text) {
        const emu_bundled_config *b = NULL;
        for (const emu_bundled_config *c = emu_bundled_configs; c->name; c++)
            if (strcmp(c->name, name) == 0)
                b = c;
        if (!b) {
            isa_diags_add(d, at.line, at.col,
                          "extends: no config '%s' (neither %s.yaml beside this file nor a "
                          "bundled config)", name, name);
            return;
        }
        snprintf(ident, sizeof ident, "bundled/%s.yaml", name);
        cfg_copy(shown, sizeof shown, ident);
        text = b->text;
        len = b->len;
    }
    for (int i = 0; i <= L->depth; i++) {
        if (strcmp(L->chain[i], ident) != 0)
            continue;
        cfg_copy(msg, sizeof msg, "extends cycle:");
        for (int j = i; j <= L->depth; j++) {
            cfg_append(msg, sizeof msg, " ");
            cfg_append(msg, sizeof msg, L->shown[j]);
            cfg_append(msg, sizeof msg, " ->");
        }
        cfg_append(msg, sizeof msg, " ");
        cfg_append(msg, sizeof msg, shown);
        isa_diags_add(d, at.line, at.col, "%s", msg);
        free(owned);
        return;
    }
    if (L->depth + 1 >= CFG_MAX_DEPTH) {
        isa_diags_add(d, at.line, at.col, "extends: chain deeper than %d configs", CFG_MAX_DEPTH);
        free(owned);
        return;
    }
    L->broken = was_broken;
    isa_diags sub;
    memset(&sub, 0, sizeof sub);
    cfg_copy(sub.file, sizeof sub.file, shown);
    L->depth++;
    cfg_layer(L, ident, shown, text, len, owned ? bdir : NULL, &sub);
    L->depth--;
    for (uint32_t i = 0; i < sub.count; i++)
        isa_diags_add(d, at.line, at.col, "in base config %s:%u:%u: %s", shown,
                      sub.items[i].line, sub.items[i].col, sub.items[i].msg);
    isa_diags_free(&sub);
    free(owned);
}

static void cfg_layer(cfg_load *L, const char *ident, const char *shown, const char *text,
                      size_t len, const char *dir, isa_diags *d)
{
    yaml_parser_t ps;
    yaml_document_t doc, extra;
    bool top = L->depth == 0;
    cfg_copy(L->chain[L->depth], sizeof L->chain[0], ident);
    cfg_copy(L->shown[L->depth], sizeof L->shown[0], shown);
    if (!yaml_parser_initialize(&ps)) {
        isa_diags_add(d, 1, 1, "out of memory while reading YAML");
        return;
    }
    yaml_parser_set_input_string(&ps, (const unsigned char *)text, len);
    if (!yaml_parser_load(&ps, &doc)) {
        L->broken = true;
        cfg_yaml_error(&ps, text, len, d);
        yaml_parser_delete(&ps);
        return;
    }
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (root) {
        /* a config is one document: look for a second one */
        if (!yaml_parser_load(&ps, &extra)) {
            L->broken = true;
            cfg_yaml_error(&ps, text, len, d);
        } else {
            yaml_node_t *r2 = yaml_document_get_root_node(&extra);
            if (r2)
                cfg_err(d, r2->start_mark, "a config is a single YAML document");
            yaml_document_delete(&extra);
        }
    }
    if (root && root->type != YAML_MAPPING_NODE) {
        L->broken = true;                      /* nothing loaded: "missing" would be noise */
        cfg_err(d, root->start_mark, "a config must be a mapping of sections (device:, ...)");
    } else if (root) {
        for (yaml_node_pair_t *pr = root->data.mapping.pairs.start;
             pr < root->data.mapping.pairs.top; pr++) {
            yaml_node_t *kn = yaml_document_get_node(&doc, pr->key);
            if (kn && kn->type == YAML_SCALAR_NODE && kn->data.scalar.length == 7 &&
                memcmp(kn->data.scalar.value, "extends", 7) == 0) {
                yaml_node_t *vn = yaml_document_get_node(&doc, pr->value);
                if (top)
                    L->extends = cfg_mark(vn->start_mark);
                cfg_extends(L, vn, dir, d);
                break;                         /* a second one is a duplicate */
            }
        }
        cfg_mapping(L, &doc, root, "", d, top);
    }
    yaml_document_delete(&doc);
    yaml_parser_delete(&ps);
}

/* Checks on the merged config; positions point at the top file's value, or
 * its extends line, or 1:1. */
static cfg_pos cfg_where(const cfg_load *L, const char *path)
{
    const cfg_key *k = cfg_find(path);
    cfg_pos p = L->where[k - cfg_keys];
    if (p.line)
        return p;
    if (L->extends.line)
        return L->extends;
    return (cfg_pos){ 1, 1 };
}

static void cfg_check(const cfg_load *L, isa_diags *d)
{
    const emu_config *c = L->cfg;
    for (size_t i = 0; i < CFG_NKEYS; i++)
        if (!cfg_keys[i].def && !L->set[i])
            isa_diags_add(d, 1, 1, "missing required key '%s'", cfg_keys[i].path);
    if (!emu_config_supports_width(c, c->default_width)) {
        cfg_pos p = cfg_where(L, "device.default_subgroup_width");
        if (!L->where[cfg_find("device.default_subgroup_width") - cfg_keys].line &&
            L->where[cfg_find("device.subgroup_widths") - cfg_keys].line)
            p = cfg_where(L, "device.subgroup_widths");
        char list[80];
        size_t n = 0;
        for (uint32_t i = 0; i < c->nwidths && n < sizeof list; i++)
            n += (size_t)snprintf(list + n, sizeof list - n, "%s%u", i ? ", " : "", c->widths[i]);
        isa_diags_add(d, p.line, p.col,
                      "device.default_subgroup_width %u is not in device.subgroup_widths [%s]",
                      c->default_width, list);
    }
    if ((c->large_grf_regs == 0) != (c->large_grf_threads == 0)) {
        cfg_pos p = cfg_where(L, c->large_grf_regs ? "device.large_grf_registers_per_thread"
                                                   : "device.large_grf_threads_per_compute_unit");
        isa_diags_add(d, p.line, p.col,
                      "device.large_grf_registers_per_thread and "
                      "device.large_grf_threads_per_compute_unit must both be 0 or both set");
    }
}

static int cfg_load_top(const char *ident, const char *shown, const char *text, size_t len,
                        const char *dir,
                        emu_config *cfg, isa_diags *diags)
{
    cfg_load *L = calloc(1, sizeof *L);
    uint32_t before = diags->count;
    if (!L) {
        isa_diags_add(diags, 1, 1, "out of memory");
        return (int)(diags->count - before);
    }
    emu_config_init(cfg);
    L->cfg = cfg;
    cfg_layer(L, ident, shown, text, len, dir, diags);
    if (!L->broken)
        cfg_check(L, diags);
    free(L);
    return (int)(diags->count - before);
}

int emu_config_load_text(const char *name, const char *text, size_t len, emu_config *cfg,
                         isa_diags *diags)
{
    cfg_copy(diags->file, sizeof diags->file, name);
    return cfg_load_top(name, name, text, len, NULL, cfg, diags);
}

int emu_config_load_file(const char *path, emu_config *cfg, isa_diags *diags)
{
    size_t len = 0;
    char *text = cfg_read_file(path, &len), dir[256], *ident;
    const int read_errno = errno;     /* emu_config_init below may change errno */
    cfg_copy(diags->file, sizeof diags->file, path);
    if (!text) {
        emu_config_init(cfg);
        isa_diags_add(diags, 1, 1, "cannot read config: %s",
                      strerror(read_errno ? read_errno : EIO));
        return 1;
    }
    cfg_copy(dir, sizeof dir, path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = 0;
    else
        snprintf(dir, sizeof dir, ".");
    ident = realpath(path, NULL);
    int n = cfg_load_top(ident ? ident : path, path, text, len, dir, cfg, diags);
    free(ident);
    free(text);
    return n;
}

/* The bundled configs are constant text: each one that loads cleanly is
 * parsed once per process and copied after that (a sweep loads its base per
 * file, the tools per run).  emu_config holds no pointers. */
#define CFG_CACHED 32
static struct {
    bool ready;
    emu_config cfg;
} cfg_cache[CFG_CACHED];
static pthread_mutex_t cfg_cache_lock = PTHREAD_MUTEX_INITIALIZER;

static bool cfg_cached_bundled(size_t i, const char *ident, emu_config *cfg)
{
    if (i >= CFG_CACHED)
        return false;
    pthread_mutex_lock(&cfg_cache_lock);
    if (!cfg_cache[i].ready) {
        isa_diags d;
        memset(&d, 0, sizeof d);
        const emu_bundled_config *c = &emu_bundled_configs[i];
        /* not cached when it fails (out of memory too): the caller parses
         * again and gets the messages */
        cfg_cache[i].ready = cfg_load_top(ident, ident, c->text, c->len, NULL,
                                          &cfg_cache[i].cfg, &d) == 0;
        isa_diags_free(&d);
    }
    bool ok = cfg_cache[i].ready;
    if (ok)
        *cfg = cfg_cache[i].cfg;
    pthread_mutex_unlock(&cfg_cache_lock);
    return ok;
}

int emu_config_load_bundled(const char *name, emu_config *cfg, isa_diags *diags)
{
    char ident[300];
    snprintf(ident, sizeof ident, "bundled/%s.yaml", name);
    cfg_copy(diags->file, sizeof diags->file, ident);
    for (const emu_bundled_config *c = emu_bundled_configs; c->name; c++)
        if (strcmp(c->name, name) == 0) {
            if (cfg_cached_bundled((size_t)(c - emu_bundled_configs), ident, cfg))
                return 0;
            return cfg_load_top(ident, ident, c->text, c->len, NULL, cfg, diags);
        }
    emu_config_init(cfg);
    const char *near = emu_config_bundled_nearest(name);
    if (near)
        isa_diags_add(diags, 1, 1, "no bundled config named '%s' (did you mean '%s'?)", name,
                      near);
    else
        isa_diags_add(diags, 1, 1, "no bundled config named '%s'", name);
    return 1;
}

const char *emu_config_bundled_nearest(const char *name)
{
    const char *best = NULL;
    size_t bestd = 4;                          /* close typos only */
    for (const emu_bundled_config *c = emu_bundled_configs; c->name; c++) {
        size_t dist = cfg_edit_distance(name, c->name, bestd);
        if (dist < bestd) {
            bestd = dist;
            best = c->name;
        }
    }
    return best;
}

int emu_config_load_named(const char *name_or_path, emu_config *cfg, isa_diags *diags)
{
    if (access(name_or_path, F_OK) != 0 && emu_config_bundled(name_or_path))
        return emu_config_load_bundled(name_or_path, cfg, diags);
    return emu_config_load_file(name_or_path, cfg, diags);
}

int emu_config_load_default(emu_config *cfg, isa_diags *diags)
{
    return emu_config_load_bundled("default", cfg, diags);
}

const char *emu_config_bundled(const char *name)
{
    for (const emu_bundled_config *c = emu_bundled_configs; c->name; c++)
        if (strcmp(c->name, name) == 0)
            return c->text;
    return NULL;
}

bool emu_config_supports_width(const emu_config *cfg, uint32_t width)
{
    for (uint32_t i = 0; i < cfg->nwidths && i < EMU_MAX_WIDTHS; i++)
        if (cfg->widths[i] == width)
            return true;
    return false;
}

/* ---------------------------------------------------------------- dump */

static void cfg_dump_string(const char *s, FILE *f)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20 || *p == 0x7f)
            fprintf(f, "\\x%02x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

/* Shortest text that reads back to the same double, without exponents for
 * ordinary magnitudes (1980, not 1.98e+03). */
static void cfg_dump_f64(double v, FILE *f)
{
    char buf[64];
    bool plain = fabs(v) >= 1e-4 && fabs(v) < 1e15;
    for (int prec = plain ? 0 : 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, plain ? "%.*f" : "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    fputs(buf, f);
}

void emu_config_dump(const emu_config *cfg, FILE *f)
{
    const char *prev = "";
    for (size_t i = 0; i < CFG_NKEYS; i++) {
        const cfg_key *k = &cfg_keys[i];
        /* headers for the sections this path enters (shared prefix skipped) */
        size_t common = 0, depth = 0;
        for (size_t j = 0; k->path[j] && k->path[j] == prev[j]; j++)
            if (k->path[j] == '.')
                common = j + 1;
        for (size_t j = 0; j < common; j++)
            depth += k->path[j] == '.';
        const char *p = k->path + common, *dot;
        while ((dot = strchr(p, '.'))) {
            fprintf(f, "%*s%.*s:\n", (int)(2 * depth), "", (int)(dot - p), p);
            depth++;
            p = dot + 1;
        }
        fprintf(f, "%*s%s: ", (int)(2 * depth), "", p);
        switch (k->kind) {
        case CFG_U32: fprintf(f, "%u", cfg_get_uint(cfg, k)); break;
        case CFG_F64: cfg_dump_f64(*(const double *)cfg_cfield(cfg, k), f); break;
        case CFG_STR: cfg_dump_string(cfg_cfield(cfg, k), f); break;
        case CFG_ENUM: {
            uint32_t v = cfg_get_uint(cfg, k), n = 0;
            while (k->names[n])
                n++;
            if (v < n)
                fputs(k->names[v], f);
            else
                fprintf(f, "%u", v);
            break;
        }
        case CFG_WIDTHS: {
            const uint32_t *w = cfg_cfield(cfg, k);
            const uint32_t *n = (const uint32_t *)((const char *)w + k->size);
            fputc('[', f);
            for (uint32_t j = 0; j < *n && j < k->size / sizeof *w; j++)
                fprintf(f, "%s%u", j ? ", " : "", w[j]);
            fputc(']', f);
            break;
        }
        }
        if (*k->unit)
            fprintf(f, "  # %s", k->unit);
        fputc('\n', f);
        prev = k->path;
    }
}

int emu_config_set(emu_config *cfg, const char *path, const char *value, char *err,
                   size_t errn)
{
    const cfg_key *k = cfg_find(path);
    char msg[CFG_MSG];
    if (!k) {
        const cfg_key *near = cfg_is_section(path) ? NULL : cfg_nearest_key(path);
        snprintf(err, errn, "unknown config key '%s'%s%s%s", path,
                 cfg_is_section(path) ? " (a section, not a key)" : near ? " (did you mean '" : "",
                 near ? near->path : "", near ? "'?)" : "");
        return -1;
    }
    if (k->kind == CFG_WIDTHS) {
        uint32_t v[64], n = 0;
        const char *p = value;
        while (*p) {
            if (*p >= '0' && *p <= '9') {
                unsigned long u = strtoul(p, (char **)&p, 10);
                if (u < k->min || u > k->max || n == 64) {
                    snprintf(err, errn, "%s: widths must be in %.0f..%.0f", path, k->min,
                             k->max);
                    return -1;
                }
                v[n++] = (uint32_t)u;
            } else if (strchr("[], ", *p)) {
                p++;
            } else {
                snprintf(err, errn, "%s: expected a list of unsigned integers", path);
                return -1;
            }
        }
        if (!cfg_set_widths(cfg, k, v, n, msg)) {
            snprintf(err, errn, "%s", msg);
            return -1;
        }
        return 0;
    }
    if (!cfg_set_scalar(cfg, k, value, strlen(value), true, msg)) {
        snprintf(err, errn, "%s", msg);
        return -1;
    }
    return 0;
}
