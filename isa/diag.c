/* diag.c - collected assembler/validator diagnostics, printed as
 * file:line:col: error: message, sorted by position. */
#include "isa.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Stored messages are bounded so that fuzzed garbage cannot exhaust memory;
 * past the limit one final note says so. */
#define DIAG_MAX 10000u

static void push(isa_diags *d, uint32_t line, uint32_t col, const char *msg)
{
    if (d->count >= d->cap) {
        uint32_t cap = d->cap ? d->cap * 2 : 16;
        isa_diag *n = realloc(d->items, (size_t)cap * sizeof *n);
        if (!n)
            return;
        d->items = n;
        d->cap = cap;
    }
    isa_diag *it = &d->items[d->count++];
    it->line = line;
    it->col = col;
    snprintf(it->msg, sizeof it->msg, "%s", msg);
}

void isa_diags_add(isa_diags *d, uint32_t line, uint32_t col, const char *fmt, ...)
{
    if (!d || d->count > DIAG_MAX)
        return;
    if (d->count == DIAG_MAX) {
        push(d, line, col, "too many errors; the rest are not shown");
        return;
    }
    char msg[sizeof d->items[0].msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    push(d, line, col, msg);
}

static int by_pos(const void *a, const void *b)
{
    const isa_diag *x = a, *y = b;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    if (x->col != y->col)
        return x->col < y->col ? -1 : 1;
    return 0;
}

/* file:line:col: error: text; line 0 is a message without a position in
 * the file (a SPIR-V instruction that no source line covers). */
static void print_one(FILE *f, const char *file, const isa_diag *d)
{
    if (d->line)
        fprintf(f, "%s:%u:%u: error: %s\n", file, d->line, d->col, d->msg);
    else
        fprintf(f, "%s: error: %s\n", file, d->msg);
}

void isa_diags_print(const isa_diags *d, void *stdio_file)
{
    FILE *f = stdio_file ? stdio_file : stderr;
    if (!d || !d->count)
        return;
    const char *file = d->file[0] ? d->file : "<input>";
    isa_diag *s = malloc((size_t)d->count * sizeof *s);
    if (!s) {
        /* out of memory: print them unsorted rather than not at all */
        for (uint32_t i = 0; i < d->count; i++)
            print_one(f, file, &d->items[i]);
        return;
    }
    memcpy(s, d->items, (size_t)d->count * sizeof *s);
    /* Insertion order breaks ties: sort a copy stably by (line, col, index). */
    for (uint32_t i = 1; i < d->count; i++) {
        isa_diag t = s[i];
        uint32_t j = i;
        while (j > 0 && by_pos(&s[j - 1], &t) > 0) {
            s[j] = s[j - 1];
            j--;
        }
        s[j] = t;
    }
    for (uint32_t i = 0; i < d->count; i++)
        print_one(f, file, &s[i]);
    free(s);
}

void isa_diags_free(isa_diags *d)
{
    if (!d)
        return;
    free(d->items);
    d->items = NULL;
    d->count = d->cap = 0;
}
