/*
 * coll.h - collectives and block I/O as micro-ops.
 *
 * A collective instruction is expanded, for the algorithm the device config
 * selects, into a sequence of micro-ops; executing those micro-ops produces
 * the values the kernel sees, and each micro-op is handed to a sink so the
 * timing model can charge it.  collectives/ knows lanes/ and isa/ only: the
 * engine passes memory access and configuration in the structs below.
 * The micro-op record and the options a config chooses are public
 * (include/sgemu/collectives.h).
 */
#ifndef SGEMU_COLL_H
#define SGEMU_COLL_H

#include "collectives.h"
#include "isa.h"
#include "lanes.h"

#include <stdint.h>

/* Where micro-ops go (the engine records them for timing; tests count). */
typedef struct coll_sink {
    void *user;
    void (*emit)(void *user, const coll_uop *u);
    /* n records at once, as n calls of emit would (optional: NULL = emit) */
    void (*emit_n)(void *user, const coll_uop *u, uint32_t n);
} coll_sink;

/* The micro-ops of the scans and reductions of one run, by shape (shape.c):
 * they depend on the width, the enabled lanes, the instruction and the
 * run's algorithms, never on the values.  The engine owns one per host
 * thread, zeroed; NULL in coll_env runs every collective micro-op by
 * micro-op. */
#define COLL_SHAPE_UOPS 24
#define COLL_SHAPES 8
typedef struct coll_shape {
    uint64_t en;               /* enabled lanes */
    uint32_t op, type, width;  /* isa_op, isa_type, lanes */
    uint32_t n;                /* records; 0: entry unused; > COLL_SHAPE_UOPS: too many */
    coll_uop u[COLL_SHAPE_UOPS];
} coll_shape;
typedef struct coll_shapes {
    coll_shape e[COLL_SHAPES];
    uint32_t next;             /* entry the next new shape replaces */
} coll_shapes;

/* Memory access for block I/O and work-group exchanges (provided by emu/).
 * Return 0, or non-zero on a fault (out of bounds); `addr` is an address in
 * `space` (images: see coll_image). */
typedef struct coll_memory {
    void *user;
    int (*read)(void *user, isa_space space, uint64_t addr, void *dst, uint32_t n);
    int (*write)(void *user, isa_space space, uint64_t addr, const void *src, uint32_t n);
    /* images: geometry of kernel argument `arg` */
    int (*image_info)(void *user, uint32_t arg, uint32_t *width, uint32_t *height,
                      uint32_t *elem_bytes, uint32_t *pitch);
} coll_memory;

/* The work-items a collective runs over: one subgroup (SG/NU/CL scope) or
 * every subgroup of a work-group (WG scope). */
typedef struct coll_group {
    uint32_t nsg;
    lanes_sg **sg;             /* register state of each subgroup */
    const lanes_mask *active;  /* lanes executing the instruction, per subgroup */
    uint32_t local_size[3];    /* work-group shape (WG broadcast ids) */
    uint32_t wg_items;         /* work-items in the work-group */
    uint32_t first_sg;         /* sub-group id of sg[0] within its work-group */
} coll_group;

/* Problems found while executing a collective.  The engine turns them into
 * messages naming the kernel, source line and work-items. */
#define COLL_STATUSES(X) \
    X(OK, "ok") \
    X(DIVERGENT, "collective reached by only some work-items") \
    X(NONUNIFORM_ID, "broadcast id differs between work-items") \
    X(ID_RANGE, "broadcast id out of range") \
    X(SHUFFLE_RANGE, "shuffle index out of range") \
    X(INACTIVE_SRC, "shuffle reads an inactive or missing work-item") \
    X(NONUNIFORM_PTR, "block I/O pointer differs between work-items") \
    X(MISALIGNED, "misaligned block I/O address") \
    X(PARTIAL_SG, "block I/O in a partial sub-group") \
    X(OUT_OF_BOUNDS, "out-of-bounds access") \
    X(CHECK_MISMATCH, "micro-op result differs from the reference") \
    X(NO_MEMORY, "out of memory") \
    X(UNSUPPORTED, "unsupported type or form") \
    X(MEDIA_SHAPE, "media block width or height not allowed")

typedef enum coll_status {
#define X(E, msg) COLL_##E,
    COLL_STATUSES(X)
#undef X
    COLL_STATUS_COUNT
} coll_status;

extern const char *const coll_status_text[COLL_STATUS_COUNT];

typedef struct coll_report {
    coll_status status;
    uint32_t sg;               /* subgroup index in the group */
    uint32_t lane;             /* lane of the first work-item involved */
    int64_t value;             /* the index / id / address involved */
    bool fatal;                /* errors stop the run; undefined-result
                                  notes (check mode) do not */
} coll_report;

/* Execute collective or block-I/O instruction `in` over group `g`.
 * Results are written to the destination registers of the active lanes.
 * Returns COLL_OK or the first fatal status; notes (undefined results in
 * check mode) go to `notes` through `note` when non-NULL. */
typedef struct coll_env {
    const lanes_env *lanes;
    const coll_options *opt;
    const coll_memory *mem;
    const coll_sink *sink;
    uint8_t *scratch_slm;      /* work-group exchange area (>= 8 * nsg * 16 bytes) */
    uint32_t scratch_slm_bytes;
    void (*note)(void *user, const coll_report *r);
    void *note_user;
    coll_shapes *shapes;       /* or NULL (see coll_shapes) */
} coll_env;

coll_status coll_execute(const coll_env *env, const isa_inst *in,
                         coll_group *g, coll_report *report);

/* Image addresses of coll_memory read/write (space ISA_SPACE_IMAGE): one
 * access stays inside one row; byte x and row y are >= 0 and < 2^24. */
#define COLL_IMAGE_ADDR(arg, y, xbytes) \
    (((uint64_t)(arg) << 48) | ((uint64_t)(y) << 24) | (uint64_t)(xbytes))
#define COLL_IMAGE_ADDR_ARG(a) ((uint32_t)((a) >> 48))
#define COLL_IMAGE_ADDR_Y(a)   ((uint32_t)(((a) >> 24) & 0xffffffu))
#define COLL_IMAGE_ADDR_X(a)   ((uint32_t)((a) & 0xffffffu))

#endif
