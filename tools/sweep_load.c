/* sweep_load.c - the sweep file (docs/sweeps.md) through libyaml's document
 * API, so every error names file:line:col; then the run set: per kernel the
 * cartesian product of its axes (zip groups advance together), minus
 * `exclude` matches, plus `include` points. */
#include "sweep.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

typedef struct ld {
    sw_sweep *s;
    yaml_document_t doc;
    int errors;
} ld;

static void err_at(ld *L, yaml_node_t *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void err_at(ld *L, yaml_node_t *n, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s:%lu:%lu: error: ", L->s->path,
            n ? (unsigned long)n->start_mark.line + 1 : 1ul,
            n ? (unsigned long)n->start_mark.column + 1 : 1ul);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);   // NOLINT(clang-analyzer-valist.Uninitialized): va_start is the line above
    va_end(ap);
    fputc('\n', stderr);
    L->errors++;
}

static yaml_node_t *node(ld *L, int id)
{
    return yaml_document_get_node(&L->doc, id);
}

static const char *scalar(yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* A value as text: a scalar, or a flat sequence joined with commas ([64, 64]). */
static char *value_text(ld *L, yaml_node_t *n)
{
    if (n->type == YAML_SCALAR_NODE)
        return strdup(scalar(n));
    if (n->type != YAML_SEQUENCE_NODE) {
        err_at(L, n, "expected a value or a list of numbers");
        return NULL;
    }
    char buf[SW_TEXT] = "";
    size_t len = 0;
    for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top;
         it++) {
        const char *v = scalar(node(L, *it));
        if (!v) {
            err_at(L, node(L, *it), "expected a number");
            return NULL;
        }
        len += (size_t)snprintf(buf + len, sizeof buf - (len < sizeof buf ? len : sizeof buf),
                                "%s%s", len ? "," : "", v);
        if (len >= sizeof buf) {
            err_at(L, n, "value too long");
            return NULL;
        }
    }
    return strdup(buf);
}

/* Resolve a path relative to the sweep file's folder. */
static void rel_path(const sw_sweep *s, const char *p, char *out, size_t n)
{
    size_t d = p[0] == '/' ? 0 : strlen(s->dir);
    if (d + 2 + strlen(p) > n) {       /* too long: keep it unresolved, the open fails */
        snprintf(out, n, "%.*s", (int)(n - 1), p);
        return;
    }
    if (!d)
        memcpy(out, p, strlen(p) + 1);
    else {
        memcpy(out, s->dir, d);
        out[d] = '/';
        memcpy(out + d + 1, p, strlen(p) + 1);
    }
}

static void load_kernel(ld *L, yaml_node_t *m)
{
    sw_sweep *s = L->s;
    if (m->type != YAML_MAPPING_NODE) {
        err_at(L, m, "a kernel is a mapping with file, global, local and args");
        return;
    }
    if (s->nkernels == SW_MAX_KERNELS) {
        err_at(L, m, "at most %d kernels", SW_MAX_KERNELS);
        return;
    }
    sw_kernel *k = &s->kernels[s->nkernels++];
    yaml_node_t *file = NULL, *arg_node[SW_MAX_ARGS] = { NULL };
    for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
        yaml_node_t *kn = node(L, p->key), *vn = node(L, p->value);
        const char *key = scalar(kn);
        if (!key) {
            err_at(L, kn, "expected a key");
            continue;
        }
        if (!strcmp(key, "args")) {
            if (vn->type != YAML_MAPPING_NODE) {
                err_at(L, vn, "args: expected a mapping NAME: VALUE");
                continue;
            }
            for (yaml_node_pair_t *q = vn->data.mapping.pairs.start;
                 q < vn->data.mapping.pairs.top; q++) {
                const char *an = scalar(node(L, q->key));
                char *av = value_text(L, node(L, q->value));
                if (!an || !av || strlen(an) >= 64 || k->nargs == SW_MAX_ARGS) {
                    if (av)
                        err_at(L, node(L, q->key), "bad argument entry");
                    free(av);
                    continue;
                }
                snprintf(k->arg_name[k->nargs], 64, "%s", an);
                arg_node[k->nargs] = node(L, q->value);
                k->arg_val[k->nargs++] = av;
            }
            continue;
        }
        char *v = value_text(L, vn);
        if (!v)
            continue;
        if (!strcmp(key, "name"))
            snprintf(k->name, sizeof k->name, "%s", v);
        else if (!strcmp(key, "file")) {
            rel_path(s, v, k->path, sizeof k->path);
            file = vn;
        } else if (!strcmp(key, "global"))
            snprintf(k->global, sizeof k->global, "%s", v);
        else if (!strcmp(key, "local"))
            snprintf(k->local, sizeof k->local, "%s", v);
        else
            err_at(L, kn, "unknown kernel key '%s' (expected name, file, global, local, args)",
                   key);
        free(v);
    }
    if (!file) {
        err_at(L, m, "kernel without 'file'");
        return;
    }
    uint64_t d[3];
    if (!k->global[0])
        err_at(L, m, "kernel without 'global' (the NDRange)");
    else if (!cli_parse_dims(k->global, d))
        err_at(L, m, "global: expected X[,Y[,Z]], got '%s'", k->global);
    if (k->local[0] && !cli_parse_dims(k->local, d))
        err_at(L, m, "local: expected X[,Y[,Z]], got '%s'", k->local);
    if (!k->name[0]) {
        const char *b = strrchr(k->path, '/');
        snprintf(k->name, sizeof k->name, "%.*s", (int)sizeof k->name - 1, b ? b + 1 : k->path);
        char *dot = strrchr(k->name, '.');
        if (dot)
            *dot = 0;
    }
    for (uint32_t i = 0; i + 1 < s->nkernels; i++)
        if (!strcmp(s->kernels[i].name, k->name))
            err_at(L, m, "two kernels named '%s' (give one a 'name')", k->name);
    size_t pl = strlen(k->path);
    k->opencl_c = pl > 3 && !strcmp(k->path + pl - 3, ".cl");
    if (cli_load_kernel(k->path, &k->k)) {
        err_at(L, file, "cannot load kernel '%s'", k->path);
        return;
    }
    k->loaded = true;
    for (uint32_t i = 0; i < k->nargs; i++) {
        int ai = sgemu_kernel_arg_index(&k->k, k->arg_name[i]);
        char e[512];
        if (ai < 0)
            err_at(L, m, "kernel '%s' has no argument '%s'", k->k.name, k->arg_name[i]);
        else if (cli_check_value(&k->k.args[ai], k->arg_val[i], e, sizeof e))
            err_at(L, arg_node[i], "%s", e);     /* here, not in every run */
        else if (cli_value_type_mismatch(&k->k.args[ai], k->arg_val[i], e, sizeof e))
            fprintf(stderr, "%s:%lu:%lu: warning: %s\n", s->path,
                    arg_node[i] ? (unsigned long)arg_node[i]->start_mark.line + 1 : 1ul,
                    arg_node[i] ? (unsigned long)arg_node[i]->start_mark.column + 1 : 1ul, e);
    }
}

static bool all_digits(const char *v)
{
    if (!*v)
        return false;
    for (; *v; v++)
        if (*v < '0' || *v > '9')
            return false;
    return true;
}

/* Check one axis value where it stands in the file. */
static void check_value(ld *L, sw_axis *a, const char *v, yaml_node_t *at)
{
    uint64_t d[3];
    switch (a->kind) {
    case SW_AX_WIDTH:
        if (!all_digits(v) || atoi(v) < 1 || atoi(v) > 64)
            err_at(L, at, "width: expected 1..64, got '%s'", v);
        break;
    case SW_AX_GLOBAL:
    case SW_AX_LOCAL:
        if (!cli_parse_dims(v, d))
            err_at(L, at, "%s: expected X[,Y[,Z]], got '%s'", a->name, v);
        break;
    case SW_AX_ARG:            /* as each kernel with that argument takes it */
        for (uint32_t k = 0; k < L->s->nkernels; k++) {
            const sw_kernel *kn = &L->s->kernels[k];
            int ai = kn->loaded ? sgemu_kernel_arg_index(&kn->k, a->name + 4) : -1;
            char e[512];
            if (ai >= 0 && cli_check_value(&kn->k.args[ai], v, e, sizeof e)) {
                err_at(L, at, "%s (kernel '%s')", e, kn->name);
                break;
            }
        }
        break;
    case SW_AX_CONFIG: {
        emu_config c = L->s->base_cfg;
        char e[256];
        if (emu_config_set(&c, a->name, v, e, sizeof e))
            err_at(L, at, "%s", e);
        break;
    }
    case SW_AX_COMPILER: {
        const char *t = L->s->base_cfg.ocloc_target;
        if (strcmp(v, "sgemu") && strcmp(v, "igc"))
            err_at(L, at, "compiler: expected sgemu or igc, got '%s'", v);
        else if (!strcmp(v, "igc") && (!t[0] || !strcmp(t, "none")))
            err_at(L, at, "compiler: igc needs an Intel config; base '%s' names no "
                   "device.ocloc_target", L->s->base);
        break;
    }
    }
}

static void load_axes(ld *L, yaml_node_t *m)
{
    sw_sweep *s = L->s;
    if (m->type != YAML_MAPPING_NODE) {
        err_at(L, m, "axes: expected a mapping AXIS: [values]");
        return;
    }
    for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
        yaml_node_t *kn = node(L, p->key), *vn = node(L, p->value);
        const char *name = scalar(kn);
        if (!name || strlen(name) >= sizeof s->axes[0].name) {
            err_at(L, kn, "expected an axis name");
            continue;
        }
        if (s->naxes == SW_MAX_AXES) {
            err_at(L, kn, "at most %d axes", SW_MAX_AXES);
            return;
        }
        for (uint32_t i = 0; i < s->naxes; i++)
            if (!strcmp(s->axes[i].name, name))
                err_at(L, kn, "axis '%s' given twice", name);
        sw_axis *a = &s->axes[s->naxes++];
        bool known = true;
        snprintf(a->name, sizeof a->name, "%s", name);
        a->line = (uint32_t)kn->start_mark.line + 1;
        a->col = (uint32_t)kn->start_mark.column + 1;
        a->zip = -1;
        if (!strcmp(name, "width") || !strcmp(name, "sg") || !strcmp(name, "subgroup_width") ||
            !strcmp(name, "device.subgroup_width"))
            a->kind = SW_AX_WIDTH;
        else if (!strcmp(name, "global"))
            a->kind = SW_AX_GLOBAL;
        else if (!strcmp(name, "local"))
            a->kind = SW_AX_LOCAL;
        else if (!strcmp(name, "compiler")) {
            a->kind = SW_AX_COMPILER;
            bool any = false;
            for (uint32_t k = 0; k < s->nkernels; k++)
                any |= s->kernels[k].opencl_c;
            if (!any)
                err_at(L, kn, "axis 'compiler': no kernel is OpenCL C (a .cl file)");
        } else if (!strncmp(name, "arg.", 4)) {
            a->kind = SW_AX_ARG;
            bool any = false;
            for (uint32_t k = 0; k < s->nkernels; k++)
                any |= s->kernels[k].loaded &&
                       sgemu_kernel_arg_index(&s->kernels[k].k, name + 4) >= 0;
            if (!any)
                err_at(L, kn, "no kernel has an argument '%s'", name + 4);
        } else {
            a->kind = SW_AX_CONFIG;
            emu_config c = s->base_cfg;
            char e[256];
            if (emu_config_set(&c, name, "0", e, sizeof e) && strstr(e, "unknown config key")) {
                const char *near = strstr(e, " (did you mean");
                err_at(L, kn, "unknown axis '%s'%s: not width, compiler, global, local, "
                       "arg.NAME or a config key (docs/config.md)", name, near ? near : "");
                known = false;   /* its values cannot be checked: one message, not one each */
            }
        }
        if (vn->type != YAML_SEQUENCE_NODE || vn->data.sequence.items.top ==
                                                  vn->data.sequence.items.start) {
            err_at(L, vn, "axis '%s': expected a non-empty list of values", name);
            continue;
        }
        size_t n = (size_t)(vn->data.sequence.items.top - vn->data.sequence.items.start);
        a->vals = calloc(n, sizeof *a->vals);
        for (yaml_node_item_t *it = vn->data.sequence.items.start;
             a->vals && it < vn->data.sequence.items.top; it++) {
            yaml_node_t *e = node(L, *it);
            char *v = value_text(L, e);
            if (!v)
                continue;
            if (known)
                check_value(L, a, v, e);
            for (uint32_t i = 0; i < a->nvals; i++)
                if (!strcmp(a->vals[i], v))   // NOLINT(clang-analyzer-core.NonNullParamChecker): vals[0..nvals) are set
                    err_at(L, e, "axis '%s': value '%s' listed twice", name, v);
            a->vals[a->nvals++] = v;
        }
    }
}

static int axis_index(const sw_sweep *s, const char *name)
{
    for (uint32_t i = 0; i < s->naxes; i++)
        if (!strcmp(s->axes[i].name, name))
            return (int)i;
    return -1;
}

static void load_zip(ld *L, yaml_node_t *m)
{
    sw_sweep *s = L->s;
    if (m->type != YAML_SEQUENCE_NODE) {
        err_at(L, m, "zip: expected a list of axis lists ([[a, b], ...])");
        return;
    }
    int group = 0;
    for (yaml_node_item_t *it = m->data.sequence.items.start; it < m->data.sequence.items.top;
         it++, group++) {
        yaml_node_t *g = node(L, *it);
        if (g->type != YAML_SEQUENCE_NODE) {
            err_at(L, g, "zip: each entry is a list of axis names");
            continue;
        }
        uint32_t len = 0;
        for (yaml_node_item_t *j = g->data.sequence.items.start; j < g->data.sequence.items.top;
             j++) {
            yaml_node_t *an = node(L, *j);
            const char *name = scalar(an);
            int ai = name ? axis_index(s, name) : -1;
            if (ai < 0) {
                err_at(L, an, "zip: no axis '%s'", name ? name : "?");
                continue;
            }
            if (s->axes[ai].zip >= 0) {
                err_at(L, an, "zip: axis '%s' is in two zip groups", name);
                continue;
            }
            if (len && s->axes[ai].nvals != len)
                err_at(L, an, "zip: axis '%s' has %u values, the group's first has %u", name,
                       s->axes[ai].nvals, len);
            len = s->axes[ai].nvals;
            s->axes[ai].zip = group;
        }
    }
}

static sw_rule *load_rules(ld *L, yaml_node_t *m, const char *what, uint32_t *count)
{
    sw_sweep *s = L->s;
    if (m->type != YAML_SEQUENCE_NODE) {
        err_at(L, m, "%s: expected a list of mappings AXIS: VALUE", what);
        return NULL;
    }
    size_t n = (size_t)(m->data.sequence.items.top - m->data.sequence.items.start);
    sw_rule *r = calloc(n + 1, sizeof *r);
    if (!r)
        return NULL;
    for (yaml_node_item_t *it = m->data.sequence.items.start; it < m->data.sequence.items.top;
         it++) {
        yaml_node_t *g = node(L, *it);
        if (g->type != YAML_MAPPING_NODE) {
            err_at(L, g, "%s: each rule is a mapping AXIS: VALUE", what);
            continue;
        }
        sw_rule *ru = &r[(*count)++];
        ru->line = (uint32_t)g->start_mark.line + 1;
        ru->col = (uint32_t)g->start_mark.column + 1;
        for (yaml_node_pair_t *p = g->data.mapping.pairs.start; p < g->data.mapping.pairs.top;
             p++) {
            yaml_node_t *kn = node(L, p->key);
            const char *name = scalar(kn);
            char *v = value_text(L, node(L, p->value));
            if (!name || !v) {
                free(v);
                continue;
            }
            int ai = axis_index(s, name);
            bool ok = !strcmp(name, "kernel") || ai >= 0;
            if (!ok) {
                err_at(L, kn, "%s: no axis '%s' (axes and 'kernel' may be named)", what, name);
            } else if (ai >= 0) {
                bool found = false;
                for (uint32_t i = 0; i < s->axes[ai].nvals; i++)
                    found |= !strcmp(s->axes[ai].vals[i], v);
                if (!found)
                    err_at(L, node(L, p->value), "%s: '%s' is not a value of axis '%s'", what,
                           v, name);
            } else {
                bool found = false;
                for (uint32_t i = 0; i < s->nkernels; i++)
                    found |= !strcmp(s->kernels[i].name, v);
                if (!found)
                    err_at(L, node(L, p->value), "%s: no kernel named '%s'", what, v);
            }
            if (ru->n <= SW_MAX_AXES) {
                snprintf(ru->axis[ru->n], sizeof ru->axis[0], "%s", name);
                ru->val[ru->n++] = v;
            } else {
                free(v);
            }
        }
    }
    return r;
}

const char *sw_value(const sw_sweep *s, const sw_point *p, uint32_t a)
{
    return p->v[a] == UINT32_MAX ? NULL : s->axes[a].vals[p->v[a]];
}

static bool applies(const sw_sweep *s, uint32_t kernel, uint32_t a)
{
    const sw_axis *ax = &s->axes[a];
    if (ax->kind == SW_AX_COMPILER)   /* IGC builds OpenCL C, not sgemu's ISA or SPIR-V */
        return s->kernels[kernel].opencl_c;
    return ax->kind != SW_AX_ARG ||
           sgemu_kernel_arg_index(&s->kernels[kernel].k, ax->name + 4) >= 0;
}

static bool rule_matches(const sw_sweep *s, const sw_rule *r, const sw_point *p)
{
    for (uint32_t i = 0; i < r->n; i++) {
        if (!strcmp(r->axis[i], "kernel")) {
            if (strcmp(s->kernels[p->kernel].name, r->val[i]))
                return false;
            continue;
        }
        int ai = axis_index(s, r->axis[i]);
        const char *v = ai >= 0 ? sw_value(s, p, (uint32_t)ai) : NULL;
        if (!v || strcmp(v, r->val[i]))
            return false;
    }
    return true;
}

static bool same_point(const sw_point *a, const sw_point *b, uint32_t naxes)
{
    if (a->kernel != b->kernel)
        return false;
    for (uint32_t i = 0; i < naxes; i++)
        if (a->v[i] != b->v[i])
            return false;
    return true;
}

static int push_point(sw_sweep *s, const sw_point *p, uint64_t *cap)
{
    if (s->npoints == *cap) {
        uint64_t nc = *cap ? *cap * 2 : 64;
        sw_point *np = realloc(s->points, nc * sizeof *np);
        if (!np)
            return -1;
        s->points = np;
        *cap = nc;
    }
    s->points[s->npoints++] = *p;
    return 0;
}

#define SW_MAX_POINTS 1000000u

/* Expand per kernel: slots are single axes or zip groups, last slot fastest. */
static int expand(ld *L)
{
    sw_sweep *s = L->s;
    uint64_t cap = 0;
    for (uint32_t k = 0; k < s->nkernels; k++) {
        int slot_of[SW_MAX_AXES] = { 0 }, nslots = 0;   /* naxes entries set below */
        uint32_t slot_len[SW_MAX_AXES], slot_zip[SW_MAX_AXES];
        for (uint32_t a = 0; a < s->naxes; a++) {
            slot_of[a] = -1;
            if (!applies(s, k, a))
                continue;
            int z = s->axes[a].zip;
            for (int j = 0; z >= 0 && j < nslots; j++)
                if ((int)slot_zip[j] == z)
                    slot_of[a] = j;
            if (slot_of[a] < 0) {
                slot_of[a] = nslots;
                slot_len[nslots] = s->axes[a].nvals;
                slot_zip[nslots] = z >= 0 ? (uint32_t)z : UINT32_MAX;
                nslots++;
            }
        }
        uint32_t idx[SW_MAX_AXES] = { 0 };
        for (;;) {
            sw_point p;
            p.kernel = k;
            for (uint32_t a = 0; a < SW_MAX_AXES; a++)
                p.v[a] = a < s->naxes && slot_of[a] >= 0 ? idx[slot_of[a]] : UINT32_MAX;
            bool out = false;
            for (uint32_t r = 0; r < s->nexclude && !out; r++)
                out = rule_matches(s, &s->exclude[r], &p);
            if (!out && (s->npoints >= SW_MAX_POINTS || push_point(s, &p, &cap))) {
                err_at(L, NULL, "run set too large (more than %u runs)", SW_MAX_POINTS);
                return -1;
            }
            int j = nslots - 1;
            while (j >= 0 && ++idx[j] == slot_len[j])
                idx[j--] = 0;
            if (j < 0)
                break;
        }
    }
    for (uint32_t r = 0; r < s->ninclude; r++) {
        const sw_rule *ru = &s->include[r];
        for (uint32_t k = 0; k < s->nkernels; k++) {
            sw_point p;
            p.kernel = k;
            for (uint32_t a = 0; a < SW_MAX_AXES; a++)
                p.v[a] = a < s->naxes && applies(s, k, a) ? 0 : UINT32_MAX;
            bool named_kernel = false, fits = true;
            for (uint32_t i = 0; i < ru->n; i++) {
                if (!strcmp(ru->axis[i], "kernel")) {
                    named_kernel = true;
                    fits &= !strcmp(s->kernels[k].name, ru->val[i]);
                    continue;
                }
                int ai = axis_index(s, ru->axis[i]);
                if (ai < 0 || p.v[ai] == UINT32_MAX) {
                    fits = false;
                    continue;
                }
                for (uint32_t v = 0; v < s->axes[ai].nvals; v++)
                    if (!strcmp(s->axes[ai].vals[v], ru->val[i]))
                        p.v[ai] = v;
            }
            (void)named_kernel;
            if (!fits)
                continue;
            bool dup = false;
            for (uint64_t i = 0; i < s->npoints && !dup; i++)
                dup = same_point(&s->points[i], &p, s->naxes);
            if (!dup && push_point(s, &p, &cap))
                return -1;
        }
    }
    if (!s->npoints)
        err_at(L, NULL, "the run set is empty (every point excluded?)");
    return s->npoints ? 0 : -1;
}

void sw_point_key(const sw_sweep *s, const sw_point *p, char *buf, size_t n)
{
    size_t len = (size_t)snprintf(buf, n, "kernel=%s", s->kernels[p->kernel].name);
    for (uint32_t a = 0; a < s->naxes && len < n; a++) {
        const char *v = sw_value(s, p, a);
        if (v)
            len += (size_t)snprintf(buf + len, n - len, ";%s=%s", s->axes[a].name, v);
    }
}

static int load_base(ld *L, yaml_node_t *vn)
{
    sw_sweep *s = L->s;
    const char *v = scalar(vn);
    if (!v) {
        err_at(L, vn, "base: expected a config name or file");
        return -1;
    }
    isa_diags d;
    memset(&d, 0, sizeof d);
    int errs;
    if (emu_config_bundled(v)) {
        snprintf(s->base, sizeof s->base, "%s", v);
        errs = emu_config_load_bundled(v, &s->base_cfg, &d);
    } else {
        rel_path(s, v, s->base, sizeof s->base);
        errs = emu_config_load_file(s->base, &s->base_cfg, &d);
    }
    if (errs) {
        isa_diags_print(&d, stderr);
        const char *near = emu_config_bundled_nearest(v);
        err_at(L, vn, "cannot load base config '%s'%s%s%s", v,
               near ? " (did you mean the bundled '" : "", near ? near : "", near ? "'?)" : "");
    }
    isa_diags_free(&d);
    return errs ? -1 : 0;
}

int sw_load(const char *path, sw_sweep *s)
{
    size_t len;
    char *text = cli_read_file(path, &len);
    if (!text) {
        memset(s, 0, sizeof *s);
        return SGEMU_EXIT_USER;
    }
    int rc = sw_load_text(path, text, len, s);
    free(text);
    return rc;
}

int sw_load_text(const char *path, const char *text, size_t len, sw_sweep *s)
{
    memset(s, 0, sizeof *s);
    snprintf(s->path, sizeof s->path, "%s", path);
    const char *slash = strrchr(path, '/');
    if (slash)
        snprintf(s->dir, sizeof s->dir, "%.*s", (int)(slash - path), path);
    ld L;
    memset(&L, 0, sizeof L);
    L.s = s;
    yaml_parser_t ps;
    yaml_parser_initialize(&ps);
    yaml_parser_set_input_string(&ps, (const unsigned char *)text, len);
    if (!yaml_parser_load(&ps, &L.doc)) {
        fprintf(stderr, "%s:%lu:%lu: error: %s\n", path,
                (unsigned long)ps.problem_mark.line + 1,
                (unsigned long)ps.problem_mark.column + 1,
                ps.problem ? ps.problem : "YAML syntax error");
        yaml_parser_delete(&ps);
        return SGEMU_EXIT_USER;
    }
    yaml_parser_delete(&ps);
    yaml_node_t *root = yaml_document_get_root_node(&L.doc);
    if (!root || root->type != YAML_MAPPING_NODE) {
        err_at(&L, root, "a sweep file is a mapping with base, kernels and axes");
        yaml_document_delete(&L.doc);
        return SGEMU_EXIT_USER;
    }
    /* base first: axes are checked against it */
    yaml_node_t *base = NULL, *kernels = NULL, *axes = NULL, *zip = NULL, *excl = NULL,
                *incl = NULL;
    for (yaml_node_pair_t *p = root->data.mapping.pairs.start;
         p < root->data.mapping.pairs.top; p++) {
        yaml_node_t *kn = node(&L, p->key), *vn = node(&L, p->value);
        const char *key = scalar(kn);
        if (!key)
            err_at(&L, kn, "expected a key");
        else if (!strcmp(key, "base"))
            base = vn;
        else if (!strcmp(key, "kernels"))
            kernels = vn;
        else if (!strcmp(key, "axes"))
            axes = vn;
        else if (!strcmp(key, "zip"))
            zip = vn;
        else if (!strcmp(key, "exclude"))
            excl = vn;
        else if (!strcmp(key, "include"))
            incl = vn;
        else if (strcmp(key, "description"))
            err_at(&L, kn, "unknown key '%s' (expected base, kernels, axes, zip, exclude, "
                   "include, description)", key);
    }
    if (base)
        load_base(&L, base);
    else {
        isa_diags d;
        memset(&d, 0, sizeof d);
        emu_config_load_default(&s->base_cfg, &d);
        isa_diags_free(&d);
        snprintf(s->base, sizeof s->base, "default");
    }
    if (!kernels || kernels->type != YAML_SEQUENCE_NODE)
        err_at(&L, kernels ? kernels : root, "'kernels' must be a list of kernels");
    else
        for (yaml_node_item_t *it = kernels->data.sequence.items.start;
             it < kernels->data.sequence.items.top; it++)
            load_kernel(&L, node(&L, *it));
    if (axes)
        load_axes(&L, axes);
    if (zip)
        load_zip(&L, zip);
    if (excl)
        s->exclude = load_rules(&L, excl, "exclude", &s->nexclude);
    if (incl)
        s->include = load_rules(&L, incl, "include", &s->ninclude);
    if (!L.errors && !s->nkernels)
        err_at(&L, root, "no kernels");
    if (!L.errors)
        expand(&L);
    yaml_document_delete(&L.doc);
    return L.errors ? SGEMU_EXIT_USER : 0;
}

static void free_rules(sw_rule *r, uint32_t n)
{
    for (uint32_t i = 0; r && i < n; i++)
        for (uint32_t j = 0; j < r[i].n; j++)
            free(r[i].val[j]);
    free(r);
}

void sw_free(sw_sweep *s)
{
    for (uint32_t k = 0; k < s->nkernels; k++) {
        for (uint32_t i = 0; i < s->kernels[k].nargs; i++)
            free(s->kernels[k].arg_val[i]);
        if (s->kernels[k].loaded)
            isa_kernel_free(&s->kernels[k].k);
    }
    for (uint32_t a = 0; a < s->naxes; a++) {
        for (uint32_t i = 0; i < s->axes[a].nvals; i++)
            free(s->axes[a].vals[i]);
        free(s->axes[a].vals);
    }
    free_rules(s->exclude, s->nexclude);
    free_rules(s->include, s->ninclude);
    free(s->points);
    memset(s, 0, sizeof *s);
}
