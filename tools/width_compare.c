/* width_compare.c - `sgemu run --sg A,B,... --compare`: the global buffers
 * and images of the same launch at several sub-group widths, compared
 * element by element (docs/cli.md, "Width dependence"). */
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One argument's bytes after each width's run. */
typedef struct cmp_buf {
    uint32_t arg;
    isa_type t;
    size_t n;              /* bytes (the same at every width) */
    uint8_t *data[CLI_COMPARE_MAX];
} cmp_buf;

struct cli_compare {
    uint32_t nw, width[CLI_COMPARE_MAX];
    uint32_t nbuf;
    cmp_buf *buf;
};

/* The arguments a kernel may write: global buffers and images. */
static bool compared(const isa_kernel *k, const sgemu_argval *v, uint32_t i)
{
    return (k->args[i].kind == ISA_ARG_GLOBAL && v[i].kind == SGEMU_VAL_BUFFER) ||
           v[i].kind == SGEMU_VAL_IMAGE;
}

cli_compare *cli_compare_new(void)
{
    return calloc(1, sizeof(cli_compare));
}

void cli_compare_free(cli_compare *c)
{
    if (!c)
        return;
    for (uint32_t b = 0; b < c->nbuf; b++)
        for (uint32_t w = 0; w < c->nw; w++)
            free(c->buf[b].data[w]);
    free(c->buf);
    free(c);
}

int cli_compare_add(cli_compare *c, const isa_kernel *k, const sgemu_argval *v,
                    uint32_t width)
{
    if (c->nw == CLI_COMPARE_MAX)
        return 0;
    if (c->nw == 0) {
        c->buf = calloc(k->narg ? k->narg : 1, sizeof *c->buf);
        if (!c->buf)
            return cli_error("out of memory for --compare");
        for (uint32_t i = 0; i < k->narg; i++) {
            if (!compared(k, v, i))
                continue;
            cmp_buf *b = &c->buf[c->nbuf++];
            b->arg = i;
            b->t = v[i].kind == SGEMU_VAL_IMAGE ? ISA_T_U8 : (isa_type)k->args[i].type;
            if (b->t >= ISA_T_COUNT || !isa_types[b->t].bytes)
                b->t = ISA_T_U8;
            b->n = v[i].kind == SGEMU_VAL_IMAGE
                       ? (size_t)v[i].image.pitch * v[i].image.height : v[i].bytes;
        }
    }
    const uint32_t w = c->nw++;
    c->width[w] = width;
    for (uint32_t j = 0; j < c->nbuf; j++) {
        cmp_buf *b = &c->buf[j];
        const sgemu_argval *a = &v[b->arg];
        const uint8_t *src = a->kind == SGEMU_VAL_IMAGE ? a->image.data : a->data;
        b->data[w] = malloc(b->n ? b->n : 1);
        if (!b->data[w])
            return cli_error("out of memory for --compare");
        if (b->n)
            memcpy(b->data[w], src, b->n);
    }
    return 0;
}

/* The relative tolerance of a float type (docs/cli.md): sums and
 * reductions at another width add in another order. */
static double tolerance(isa_type t)
{
    switch (isa_types[t].bytes) {
    case 2:  return 1e-2;
    case 4:  return 1e-5;
    default: return 1e-12;
    }
}

static double as_double(isa_type t, const uint8_t *p)
{
    char buf[64];
    cli_format_value(t, p, buf, sizeof buf);
    return strtod(buf, NULL);
}

/* How far apart two float elements are, relative to the larger one: 0
 * when equal (both NaN too), INFINITY when one is NaN or infinite. */
static double rel_diff(isa_type t, const uint8_t *a, const uint8_t *b)
{
    const double x = as_double(t, a), y = as_double(t, b);
    if (isnan(x) && isnan(y))
        return 0;
    if (x == y)
        return 0;
    if (!isfinite(x) || !isfinite(y))
        return INFINITY;
    const double m = fabs(x) > fabs(y) ? fabs(x) : fabs(y);
    return fabs(x - y) / m;
}

typedef enum { V_EQUAL, V_TOLERANCE, V_DIFFERS } verdict;
static const char *const verdict_names[] = { "equal", "tolerance", "differs" };

/* Element e of b at every width, grouped by value: "7 at SIMD8, SIMD16;
 * 9 at SIMD32" (text) or {"8": "7", ...} (JSON). */
static void print_values(FILE *f, const cli_compare *c, const cmp_buf *b, size_t e, bool json)
{
    const size_t es = isa_types[b->t].bytes;
    bool done[CLI_COMPARE_MAX] = { false };
    const char *sep = "";
    for (uint32_t w = 0; w < c->nw; w++) {
        char val[64];
        cli_format_value(b->t, b->data[w] + e * es, val, sizeof val);
        if (json) {
            fprintf(f, "%s\"%u\": ", w ? ", " : "", c->width[w]);
            cli_json_string(f, val);
            continue;
        }
        if (done[w])
            continue;
        fprintf(f, "%s%s at SIMD%u", sep, val, c->width[w]);
        for (uint32_t o = w + 1; o < c->nw; o++)
            if (!memcmp(b->data[o] + e * es, b->data[w] + e * es, es)) {
                fprintf(f, ", SIMD%u", c->width[o]);
                done[o] = true;
            }
        sep = "; ";
    }
}

int cli_compare_report(const cli_compare *c, const isa_kernel *k, FILE *text, FILE *json)
{
    int rc = 0;
    if (json)
        fprintf(json, ", \"compare\": [");
    for (uint32_t j = 0; j < c->nbuf; j++) {
        const cmp_buf *b = &c->buf[j];
        const size_t es = isa_types[b->t].bytes, ne = b->n / es;
        const bool fl = isa_types[b->t].is_float;
        verdict v = V_EQUAL;
        size_t at = 0;
        double worst = 0;
        for (size_t e = 0; e < ne && v != V_DIFFERS; e++) {
            for (uint32_t w = 1; w < c->nw; w++) {
                const uint8_t *x = b->data[0] + e * es, *y = b->data[w] + e * es;
                if (!memcmp(x, y, es))
                    continue;
                const double d = fl ? rel_diff(b->t, x, y) : INFINITY;
                if (d > tolerance(b->t) || !fl) {
                    v = V_DIFFERS;
                    at = e;
                    break;
                }
                v = V_TOLERANCE;
                if (d > worst) {
                    worst = d;
                    at = e;
                }
            }
        }
        if (v == V_EQUAL && b->n % es) {   /* bytes past the last whole element */
            for (uint32_t w = 1; w < c->nw; w++)
                if (memcmp(b->data[0] + ne * es, b->data[w] + ne * es, b->n % es))
                    v = V_DIFFERS, at = ne;
        }
        if (v == V_DIFFERS)
            rc = CLI_EXIT_DIFFERS;
        const char *name = k->args[b->arg].name;
        if (text) {
            fprintf(text, "sgemu: compare: buffer '%s': ", name);
            if (v == V_EQUAL) {
                fprintf(text, "equal at every width\n");
            } else {
                if (v == V_DIFFERS)
                    fprintf(text, "element %zu differs: ", at);
                else
                    fprintf(text, "equal within the float tolerance %g (reduction order); "
                            "largest relative difference %.3g, element %zu: ",
                            tolerance(b->t), worst, at);
                print_values(text, c, b, at, false);
                fputc('\n', text);
            }
        }
        if (json) {
            fprintf(json, "%s{\"buffer\": ", j ? ", " : "");
            cli_json_string(json, name);
            fprintf(json, ", \"verdict\": \"%s\"", verdict_names[v]);
            if (v == V_EQUAL) {
                fprintf(json, ", \"element\": null, \"values\": null");
            } else {
                fprintf(json, ", \"element\": %zu, \"values\": {", at);
                print_values(json, c, b, at, true);
                fputc('}', json);
            }
            if (v == V_TOLERANCE)
                fprintf(json, ", \"relative_difference\": %.6g}", worst);
            else
                fprintf(json, ", \"relative_difference\": null}");
        }
    }
    if (json)
        fputc(']', json);
    return rc;
}
