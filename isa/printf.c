/* printf.c - OpenCL C printf formats: the pieces of a format string and the
 * layout of the argument record a printf call leaves (OpenCL C 3.0,
 * 6.15.14.3).  The SPIR-V front end stores the arguments in that layout,
 * the engine copies the record (emu/printf.c) and formats it at the end of
 * the launch; all three read the layout from here. */
#include "isa.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(char *err, size_t errn, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t errn, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errn, fmt, ap);
    va_end(ap);
    return -1;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* A decimal number at fmt[*i] (advances *i); -1 when too large. */
static int32_t number(const char *fmt, size_t len, size_t *i)
{
    int64_t v = 0;
    while (*i < len && is_digit(fmt[*i])) {
        v = v * 10 + (fmt[*i] - '0');
        if (v > 100000)
            return -1;
        (*i)++;
    }
    return (int32_t)v;
}

static int put(isa_printf_conv *out, unsigned max, unsigned n, const isa_printf_conv *c)
{
    if (out && n < max)
        out[n] = *c;
    return 1;
}

int isa_printf_parse(const char *fmt, size_t len, isa_printf_conv *out, unsigned max,
                     uint32_t *rec_bytes, char *err, size_t errn)
{
    unsigned n = 0;
    uint64_t rec = 0;
    size_t i = 0;
    while (i < len) {
        isa_printf_conv c;
        memset(&c, 0, sizeof c);
        c.width = c.prec = -1;
        c.vec = 1;
        c.pos = (uint32_t)i;
        if (fmt[i] != '%') {
            while (i < len && fmt[i] != '%')
                i++;
            c.len = (uint32_t)(i - c.pos);
            n += put(out, max, n, &c);
            continue;
        }
        i++;
        static const char flag_chars[] = "-+ #0";   /* bit k: ISA_PF_* 1 << k */
        for (;; i++) {
            const char *f = i < len && fmt[i] ? strchr(flag_chars, fmt[i]) : NULL;
            if (!f)
                break;
            c.flags |= (uint8_t)(1u << (f - flag_chars));
        }
        if (i < len && fmt[i] == '*')
            c.width = -2, i++;
        else if (i < len && is_digit(fmt[i]) && (c.width = number(fmt, len, &i)) < 0)
            return fail(err, errn, "field width too large (at byte %zu)", i);
        if (i < len && fmt[i] == '.') {
            i++;
            if (i < len && fmt[i] == '*')
                c.prec = -2, i++;
            else if ((c.prec = number(fmt, len, &i)) < 0)
                return fail(err, errn, "precision too large (at byte %zu)", i);
        }
        if (i < len && fmt[i] == 'v') {
            i++;
            int32_t v = number(fmt, len, &i);
            if (v != 2 && v != 3 && v != 4 && v != 8 && v != 16)
                return fail(err, errn, "vector specifier v%d: the vector length must be "
                            "2, 3, 4, 8 or 16 (at byte %zu)", v, i);
            c.vec = (uint8_t)v;
        }
        if (i + 1 < len && fmt[i] == 'h' && fmt[i + 1] == 'h')
            c.lenmod = ISA_PF_LEN_HH, i += 2;
        else if (i + 1 < len && fmt[i] == 'h' && fmt[i + 1] == 'l')
            c.lenmod = ISA_PF_LEN_HL, i += 2;
        else if (i < len && fmt[i] == 'h')
            c.lenmod = ISA_PF_LEN_H, i++;
        else if (i < len && fmt[i] == 'l')
            c.lenmod = ISA_PF_LEN_L, i++;
        if (i >= len)
            return fail(err, errn, "the conversion specification at byte %u has no "
                        "conversion specifier", c.pos);
        if (strchr("lLjzt", fmt[i]) && fmt[i])
            return fail(err, errn, "the length modifier %s%c is not in OpenCL C (at byte %u)",
                        c.lenmod == ISA_PF_LEN_L ? "l" : "", fmt[i], c.pos);
        c.conv = fmt[i++];
        c.len = (uint32_t)(i - c.pos);
        const char *cv = c.conv ? strchr("diouxXfFeEgGaAcsp%", c.conv) : NULL;
        if (!cv)
            return fail(err, errn, "'%%%c' is not an OpenCL C printf conversion (at byte %u)",
                        c.conv >= 0x20 && c.conv < 0x7f ? c.conv : '?', c.pos);
        const bool is_int = strchr("diouxX", c.conv) != NULL;
        const bool is_flt = strchr("fFeEgGaA", c.conv) != NULL;
        if (c.conv == '%') {
            if (c.vec > 1 || c.lenmod || c.flags || c.width != -1 || c.prec != -1)
                return fail(err, errn, "'%%%%' takes no flags, width, precision, vector or "
                            "length (at byte %u)", c.pos);
            n += put(out, max, n, &c);
            continue;
        }
        if (c.vec > 1) {
            if (!is_int && !is_flt)
                return fail(err, errn, "a vector specifier applies only to d, i, o, u, x, X, "
                            "a, A, e, E, f, F, g and G, not '%%%c' (at byte %u)", c.conv, c.pos);
            if (is_flt && c.lenmod == ISA_PF_LEN_HH)
                return fail(err, errn, "hh does not apply to a floating-point vector "
                            "(at byte %u): h is halfn, hl floatn, l doublen", c.pos);
            /* without a length modifier a vector takes the scalar default
             * type, int or double (as clang-14's format check reads it) */
            static const uint8_t eb[] = { 4, 1, 2, 4, 8 };
            c.elem_bytes = !c.lenmod && is_flt ? 8 : eb[c.lenmod];
            c.elem_float = is_flt;
        } else {
            if (c.lenmod == ISA_PF_LEN_HL)
                return fail(err, errn, "the hl length modifier needs a vector specifier "
                            "(at byte %u)", c.pos);
            if (c.lenmod && !is_int && !(is_flt && c.lenmod == ISA_PF_LEN_L))
                return fail(err, errn, "length modifier %s does not apply to '%%%c' "
                            "(at byte %u)", c.lenmod == ISA_PF_LEN_L ? "l" :
                            c.lenmod == ISA_PF_LEN_H ? "h" : "hh", c.conv, c.pos);
            if (is_flt) {
                c.elem_bytes = 8;          /* a scalar float arrives as a double */
                c.elem_float = true;
            } else if (c.conv == 's' || c.conv == 'p') {
                c.elem_bytes = 8;          /* the pointer */
            } else {
                c.elem_bytes = c.lenmod == ISA_PF_LEN_L ? 8 : 4;  /* after promotion */
            }
        }
        /* the '*' ints come first, in the order of the arguments */
        if (c.width == -2) {
            rec = (rec + 3) / 4 * 4;
            c.width_off = (uint32_t)rec;
            rec += 4;
        }
        if (c.prec == -2) {
            rec = (rec + 3) / 4 * 4;
            c.prec_off = (uint32_t)rec;
            rec += 4;
        }
        rec = (rec + c.elem_bytes - 1) / c.elem_bytes * c.elem_bytes;
        c.off = (uint32_t)rec;
        rec += (uint64_t)c.elem_bytes * c.vec;
        if (rec > 65536)
            return fail(err, errn, "the arguments take more than 64 KiB");
        n += put(out, max, n, &c);
    }
    if (n > 65536)
        return fail(err, errn, "too many conversions");
    *rec_bytes = (uint32_t)((rec + 7) / 8 * 8);
    return (int)n;
}

int isa_printf_add(isa_kernel *k, const char *fmt, size_t len, char *err, size_t errn)
{
    uint32_t rec;
    if (memchr(fmt, 0, len))
        return fail(err, errn, "the format holds a NUL byte");
    if (isa_printf_parse(fmt, len, NULL, 0, &rec, err, errn) < 0)
        return -1;
    for (uint32_t i = 0; i < k->nprintf; i++)
        if (k->printf_fmts[i].len == len && !memcmp(k->printf_fmts[i].text, fmt, len))
            return (int)i;
    if (k->nprintf >= 65536)
        return fail(err, errn, "more than 65536 printf formats");
    isa_printf_fmt *nf = realloc(k->printf_fmts, (k->nprintf + 1) * sizeof *nf);
    if (!nf)
        return -2;
    k->printf_fmts = nf;
    char *t = malloc(len + 1);
    if (!t)
        return -2;
    memcpy(t, fmt, len);
    t[len] = 0;
    nf[k->nprintf] = (isa_printf_fmt){ .text = t, .len = (uint32_t)len, .rec_bytes = rec };
    return (int)k->nprintf++;
}
