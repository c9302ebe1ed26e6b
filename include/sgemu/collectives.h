/*
 * collectives.h - what a device config chooses for collectives (the
 * algorithm per family) and the micro-ops collectives and block I/O expand
 * into, as sgemu_launch.uop_listener and the timing model see them
 * (docs/collectives.md).
 */
#ifndef SGEMU_COLLECTIVES_H
#define SGEMU_COLLECTIVES_H

#include "isa.h"

#include <stdbool.h>
#include <stdint.h>

typedef enum coll_uop_kind {
#define COLL_UOP(E, name, pipe, start) COLL_UOP_##E,
#include "uops.def"
#undef COLL_UOP
    COLL_UOP_COUNT
} coll_uop_kind;

extern const char *const coll_uop_names[COLL_UOP_COUNT];

/* One micro-op as the timing model sees it. */
typedef struct coll_uop {
    uint8_t kind;          /* coll_uop_kind */
    uint8_t type;          /* element type (isa_type) */
    uint8_t binop;         /* ALU / HW_REDUCE: isa_binop */
    uint8_t space;         /* memory micro-ops: isa_space */
    uint16_t lanes;        /* execution width (lanes it operates on) */
    uint16_t sg;           /* index of the issuing subgroup in the group */
    uint32_t bytes;        /* memory micro-ops: bytes moved */
    uint32_t rows;         /* MEDIA_*: rows; else 1 */
    uint64_t addr;         /* memory micro-ops: first byte (local offset,
                              global address, or image byte x | y << 32) */
    uint32_t pitch;        /* MEDIA_*: image row pitch in bytes */
    uint32_t image;        /* MEDIA_*: image argument index */
    uint64_t mask;         /* lanes enabled, a bit per lane (lanes_mask) */
} coll_uop;

/* Algorithms per collective family, chosen by the device config. */
#define COLL_REDUCE_ALGOS(X) X(TREE, "tree") X(HW, "hw") X(SERIAL, "serial")
#define COLL_SCAN_ALGOS(X)   X(BLOCKED, "blocked") X(LOGSTEP, "logstep") X(SERIAL, "serial")
#define COLL_SHUFFLE_ALGOS(X) X(INDIRECT, "indirect") X(CROSSBAR, "crossbar")
#define COLL_WG_ALGOS(X)     X(SLM, "slm")
/* How a collective's steps decompose into micro-ops (collectives/lowering.def):
 * Intel's ALU on GRF regions, or NVIDIA's warp shuffles with ALU and
 * predicates. */
#define COLL_LOWERINGS(X)    X(REGION, "region") X(SHUFFLE, "shuffle")
#define COLL_NO_NAMES(X)

typedef struct coll_options {
    uint8_t reduce_algo;       /* COLL_REDUCE_ALGOS index */
    uint8_t scan_algo;         /* COLL_SCAN_ALGOS index */
    uint8_t shuffle_algo;      /* COLL_SHUFFLE_ALGOS index */
    uint8_t wg_algo;
    uint8_t lowering;          /* COLL_LOWERINGS index */
    uint16_t indirect_lanes;   /* lanes per register-indirect move (16 on Intel) */
    uint16_t hw_reduce_width;  /* lanes a HW_REDUCE covers (32 on NVIDIA) */
    uint32_t block_msg_bytes;  /* max bytes per buffer block message (128) */
    uint32_t media_block_width;/* bytes per row of a 2D message (32) */
    bool check;                /* --check: compare with the reference */
    bool undef;                /* --uninitialized: undefined results go to
                                  the note callback too (not printed) */
} coll_options;

/* Every option at its default (collectives/coll_keys.def). */
void coll_options_default(coll_options *o);

#endif
