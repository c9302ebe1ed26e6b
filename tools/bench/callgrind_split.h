/*
 * callgrind_split.h - a callgrind output file's Ir split by component of
 * sgemu (scheduler, issue, memory model, ...), by the source file of the
 * function each cost belongs to.
 */
#ifndef SGEMU_BENCH_CALLGRIND_SPLIT_H
#define SGEMU_BENCH_CALLGRIND_SPLIT_H

#include <stdint.h>

typedef enum bench_comp {
#define COMP(id, title) BENCH_COMP_##id,
#include "components.def"
#undef COMP
    BENCH_NCOMP
} bench_comp;

/* the component's column title */
const char *bench_comp_title(bench_comp c);

/* Adds the self cost (Ir) of every function in the callgrind output file
 * at path to its component's entry of ir[]; the total to *total.  0, or -1
 * when the file cannot be read. */
int callgrind_split(const char *path, uint64_t ir[BENCH_NCOMP], uint64_t *total);

#endif
