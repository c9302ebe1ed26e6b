/* test_gen_timing.c - exact cycles of IGC's code in the timing model
 * (docs/timing-model.md, "The Gen path"): seven small kernels of
 * tests/gen/kernels compiled by ocloc for tgllp and timed on
 * tests/gen/timing.yaml, one work-group of one hardware thread each, the
 * cycle counts derived by hand below from the formulas of
 * docs/timing-model.md.  Skips (77) when ocloc or libiga64.so.1 is
 * missing.
 *
 * The config (round numbers): int and fp32 latency 4, interval 1, 8 lanes
 * a pass; mov latency 2; transcendental latency 16, interval 4, 8 lanes;
 * send latency 2, interval 1, 8 lanes; one instruction issued per cycle;
 * L1 30, L2 100, DRAM 300 cycles (end to end from the send's start), 64-B
 * lines, DRAM port 32 B/cycle; local memory latency 20, 16 banks of 4
 * bytes; barrier latency 20; dispatch latency 0.  An ALU instruction of
 * p = ceil(E / 8) passes issued at T completes at T + latency + (p - 1) x
 * interval and holds its pipe p x interval cycles; an instruction issues
 * at max(previous issue + 1, its sources ready, its pipe free); a load
 * missing every level completes at its start + 300; a store at its start
 * + 30; a fence's response at max(its pipe done, every earlier
 * instruction of the thread done).  The code is IGC's (ocloc 22.43), as
 * `--per-line` prints it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../cli/cli_harness.h"
#include "gen_skip.h"

#define CFG "--compiler igc --config tests/gen/timing.yaml --json"

/* The run's "timing" object: its cycles, and per pc its cycles and
 * stalls (-1: the pc did not issue); the bytes of the first `--out`
 * output (nout of them). */
typedef struct timed {
    long long cycles;
    long long pc_cycles[64], pc_stalls[64];
    char text[64][160];
    long long out[256];
    int nout;
} timed;

static long long num_after(const char *s, const char *key)
{
    const char *p = strstr(s, key);
    assert_non_null(p);
    return strtoll(p + strlen(key), NULL, 10);
}

static void run_timed(const char *args, timed *t)
{
    cli_result r = cli_run("run %s " CFG, args);
    if (r.status != 0)
        fprintf(stderr, "%s\n", r.err);
    assert_int_equal(r.status, 0);
    const char *tm = strstr(r.out, "\"timing\": {");
    assert_non_null(tm);
    t->cycles = num_after(tm, "\"cycles\": ");
    for (int i = 0; i < 64; i++) {
        t->pc_cycles[i] = t->pc_stalls[i] = -1;
        t->text[i][0] = 0;
    }
    for (const char *p = strstr(tm, "{\"pc\": "); p; p = strstr(p + 1, "{\"pc\": ")) {
        long long pc = strtoll(p + 7, NULL, 10);
        if (pc < 0 || pc >= 64)
            continue;
        const char *op = strstr(p, "\"op\": \"");
        const char *end = op ? strstr(op + 7, "\", \"count\"") : NULL;
        assert_non_null(end);
        snprintf(t->text[pc], sizeof t->text[pc], "%.*s", (int)(end - op - 7), op + 7);
        t->pc_cycles[pc] = num_after(end, "\"cycles\": ");
        t->pc_stalls[pc] = num_after(end, "\"stalls\": ");
    }
    t->nout = 0;
    const char *o = strstr(tm, "\"outputs\": {");
    o = o ? strchr(o, '[') : NULL;
    for (char *e; o && *o != ']' && t->nout < 256; o = e) {
        t->out[t->nout++] = strtoll(o + 1, &e, 10);
        if (e == o + 1)
            break;
    }
    cli_result_free(&r);
}

/* timing_chain.cl at SIMD16 (pc: issue T -> done; r ready):
 *  0 (W) mov (8) r2 <- r0            T 0, mov 1 pass     -> 2
 *  1 (W) or (1) cr0                  T 1, int            -> 5
 *  2 (W) mul (1) acc0 <- r2.2        T 2 (int free at 2) -> 6
 *  3 (W) mach (1) r3 <- r2.1, acc0   T 6 (acc0), stall 3 -> 10
 *  4 (W) mov (1) r3.1 <- 1.0:f       T 7, fp32 (an immediate) -> 11 (r3 ready 11)
 *  5 add (16) r6 <- r3, r1           T 11, stall 3, 2 passes -> 11 + 4 + 1 = 16
 *  6 (W) mov (8) r127 <- r2          T 12                -> 14
 *  7 add (16) r6 <- r6, r4           T 16, stall 3       -> 21
 *  8 shl (16) r6 <- r6               T 21, stall 4       -> 26
 *  9 send read r9..r10 <- r6         T 26, one 64-B line missing everywhere -> 326
 * 10 mad (16) r11 <- r3.1, r9, r5.2  T 326, stall 299    -> 331
 * 11 math.sqt (16) r13 <- r11        T 331, 2 passes     -> 331 + 16 + 4 = 351
 * 12 send write <- r6, r13..r14      T 351, stall 19, store -> 381
 * 13 (W) send fence r8 <- r2         T 353 (send pipe busy 351-353, stall 1),
 *                                    pipe done 355, earlier work done 381 -> 381
 * 14 (W) mov (8) null <- r8          T 381               -> 383
 * 15 (W) send EOT <- r127            T 382               -> 384
 * cycles: the last completion, 384. */
static void chain(void **state)
{
    (void)state;
    timed t;
    run_timed("tests/gen/kernels/timing_chain.cl --global 16 --local 16"
              " --arg x=float:iota:16 --arg k=2", &t);
    assert_int_equal(t.cycles, 384);
    assert_non_null(strstr(t.text[11], "math.sqt (16|M0)"));
    assert_int_equal(t.pc_cycles[11], 20);      /* 16 + (2 - 1) x 4 */
    assert_non_null(strstr(t.text[9], "send.dc1 (16|M0)"));
    assert_int_equal(t.pc_cycles[9], 300);
    assert_int_equal(t.pc_stalls[10], 299);     /* the mad waits for the load */
    assert_int_equal(t.pc_cycles[13], 28);      /* the fence waits for the store */
}

/* timing_slm.cl at SIMD8:
 *  0 (W) mov (8) r2 <- r0            T 0   -> 2
 *  1 (W) or (1) cr0                  T 1   -> 5
 *  2 shl (8) r4 <- r1                T 2   -> 6
 *  3 send read r5 <- r4 (global)     T 6, stall 3, DRAM -> 306
 *  4 send SLM write <- r4, r5        T 306, 8 words in 8 banks: degree 1
 *                                    -> 306 + 20 = 326
 *  5 (W) SLM fence r6 <- r2          T 307, pipe done 309, earlier 326 -> 326
 *  6 (W) and (8) r7 <- r2.2          T 308 -> 312
 *  7 (W) mov (8) null <- r6          T 326, stall 17 -> 328
 *  8 (W) send.gtwy (1) <- r7         T 327 -> 329
 *  9 (W) sync.bar                    arrives at 328: the only thread,
 *                                    released at 328 + 20 = 348
 * 10 mul (8) acc0 <- r1, -4          T 348 -> 352
 * 11 (W) mov (8) r127 <- r2          T 349 -> 351
 * 12 add (8) r3 <- acc0, 28          T 352, stall 2 -> 356
 * 13 send SLM read r8 <- r3          T 356, stall 3, degree 1 -> 376
 * 14 send write <- r4, r8 (global)   T 376, stall 19, store -> 406
 * 15 (W) fence r9 <- r2              T 377, earlier work 406 -> 406
 * 16 (W) mov (8) null <- r9          T 406 -> 408
 * 17 (W) SLM fence r10 <- r2         T 407, pipe done 409 -> 409
 * 18 (W) mov (8) null <- r10         T 409 -> 411
 * 19 (W) send EOT <- r127            T 410 -> 412
 * cycles 412. */
static void slm_barrier(void **state)
{
    (void)state;
    timed t;
    run_timed("tests/gen/kernels/timing_slm.cl --global 8 --local 8 --arg x=int:iota:8", &t);
    assert_int_equal(t.cycles, 412);
    assert_non_null(strstr(t.text[4], "send.dc1 (8|M0) null r4 r5"));
    assert_int_equal(t.pc_cycles[4], 20);       /* SLM: latency 20, no conflict */
    assert_non_null(strstr(t.text[9], "sync.bar"));
    assert_int_equal(t.pc_stalls[10], 0);        /* the barrier's wait is not a stall of pc 10 */
    assert_int_equal(t.pc_cycles[13], 20);
}

/* timing_simd32.cl at SIMD32: 32-bit work in (16|M0) and (16|M16) halves.
 *  0 (W) mov (8) r3 <- r0            T 0  -> 2
 *  1 (W) or (1) cr0                  T 1  -> 5
 *  2 (W) mul (1) acc0 <- r3.2        T 2  -> 6
 *  3 (W) mach (1) r4 <- r3.1, acc0   T 6  -> 10
 *  4 (W) mov (8) r127 <- r3          T 7  -> 9
 *  5 add (16|M0) r5 <- r4, r1        T 10, int busy 10-12 -> 15
 *  6 add (16|M16) r9 <- r4, r2       T 12 (int pipe), stall 1 -> 17
 *  7 add (16|M0) r5 <- r5, r7        T 15 -> 20
 *  8 add (16|M16) r9 <- r9, r7       T 17 -> 22
 *  9 shl (16|M0) r5 <- r5            T 20 -> 25
 * 10 shl (16|M16) r9 <- r9           T 22 -> 27
 * 11 send read r11 <- r5             T 25, line 0 -> 325
 * 12 send read r13 <- r9             T 27, line 1: its DRAM start waits for
 *                                    line 0's 64 / 32 = 2 port cycles
 *                                    (25 + 2 = 27) -> 327
 * 13 math.exp (16|M0) r15 <- r11     T 325, transcendental busy 325-333 -> 345
 * 14 math.exp (16|M16) r17 <- r13    T 333 (pipe), stall 7 -> 353
 * 15 send write <- r5, r15           T 345 -> 375
 * 16 send write <- r9, r17           T 353 -> 383
 * 17 (W) fence r19 <- r3             T 355 (send pipe) -> 383
 * 18 (W) mov (8) null <- r19         T 383 -> 385
 * 19 (W) send EOT <- r127            T 384 -> 386
 * cycles 386. */
static void simd32_halves(void **state)
{
    (void)state;
    timed t;
    run_timed("tests/gen/kernels/timing_simd32.cl --global 32 --local 32"
              " --arg x=float:iota:32", &t);
    assert_int_equal(t.cycles, 386);
    assert_non_null(strstr(t.text[14], "math.exp (16|M16)"));
    assert_int_equal(t.pc_stalls[14], 7);       /* the first half holds the pipe */
    assert_int_equal(t.pc_stalls[6], 1);
    assert_int_equal(t.pc_cycles[12], 300);
}

/* timing_carry.cl at SIMD8: addc writes r10 and the carry in acc0, which
 * the mov of pc 12 waits for (an instruction's every destination).
 *  0 (W) mov (8) r2 <- r0            T 0   -> 2
 *  1 (W) or (1) cr0                  T 1   -> 5
 *  2 (W) mul (1) acc0 <- r2.2        T 2   -> 6
 *  3 (W) mach (1) r5 <- acc0         T 6, stall 3 -> 10 (r5, acc0)
 *  4 (W) mov (2) r3 <- r5.2          T 10, stall 3 -> 12
 *  5 add (8) acc0 <- r5, r1          T 11  -> 15
 *  6 (W) mov (8) r127 <- r2          T 12  -> 14
 *  7 add (8) acc0 <- acc0, r4        T 15, stall 2 -> 19
 *  8 shl (8) r7 <- acc0              T 19, stall 3 -> 23
 *  9 send read r8..r9 <- r7          T 23, one 64-B line missing everywhere -> 323
 * 10 addc (8) r10 <- r8, r3.0        T 323, stall 299 -> 327 (r10, acc0)
 * 11 add (8) r11 <- r9, r3.1         T 324 (int pipe free at 324) -> 328
 * 12 mov (8) r12 <- acc0             T 327 (the carry), stall 2 -> 329
 * 13 mov (8) r13 <- r10              T 328 -> 330
 * 14 add (8) r14 <- r12, r11         T 329 -> 333
 * 15 send write <- r7, r13..r14      T 333, stall 3, store -> 363
 * 16 (W) fence r15 <- r2             T 334, earlier work 363 -> 363
 * 17 (W) mov (8) null <- r15         T 363, stall 28 -> 365
 * 18 (W) send EOT <- r127            T 364 -> 366
 * cycles 366 (timing only addc's register: pc 12 at 325, 365). */
static void carry_acc(void **state)
{
    (void)state;
    timed t;
    run_timed("tests/gen/kernels/timing_carry.cl --global 8 --local 8"
              " --arg x=ulong:iota:8 --arg k=0x100000000", &t);
    assert_int_equal(t.cycles, 366);
    assert_non_null(strstr(t.text[10], "addc (8|M0) r10.0"));
    assert_non_null(strstr(t.text[12], "mov (8|M0) r12.0<1>:ud acc0.0"));
    assert_int_equal(t.pc_stalls[12], 2);       /* waits for addc's acc0 */
    assert_int_equal(t.pc_stalls[3], 3);        /* mach waits for mul's acc0 */
}

/* timing_flag.cl at SIMD8: the cmp writes only f0.0 (a null register
 * destination), and the predicated mov of pc 11 waits for that flag.
 *  0 (W) mov (8) r2 <- r0            T 0   -> 2
 *  1 (W) or (1) cr0                  T 1   -> 5
 *  2 (W) mul (1) acc0 <- r2.2        T 2   -> 6
 *  3 (W) mach (1) r3 <- acc0         T 6, stall 3 -> 10
 *  4 (W) mov (8) r127 <- r2          T 7   -> 9
 *  5 add (8) acc0 <- r3, r1          T 10, stall 2 -> 14
 *  6 add (8) acc0 <- acc0, r4        T 14, stall 3 -> 18
 *  7 shl (8) r6 <- acc0              T 18, stall 3 -> 22
 *  8 send read r7 <- r6              T 22, one 64-B line missing everywhere -> 322
 *  9 cmp (8) (gt)f0.0 null <- r7     T 322, stall 299 -> 326 (f0.0)
 * 10 mul (8) r7 <- r7, 7             T 323 -> 327
 * 11 (~f0.0) mov (8) r7 <- 9:f       T 326 (the flag), stall 2, fp32 -> 330
 * 12 send write <- r6, r7            T 330, stall 3, store -> 360
 * 13 (W) fence r8 <- r2              T 331, earlier work 360 -> 360
 * 14 (W) mov (8) null <- r8          T 360, stall 28 -> 362
 * 15 (W) send EOT <- r127            T 361 -> 363
 * cycles 363 (without the flag's dependence pc 11 issues at 324: 361). */
static void cmp_flag(void **state)
{
    (void)state;
    timed t;
    run_timed("tests/gen/kernels/timing_flag.cl --global 8 --local 8"
              " --arg x=int:iota:8 --arg k=3", &t);
    assert_int_equal(t.cycles, 363);
    assert_non_null(strstr(t.text[9], "cmp (8|M0) (gt)f0.0 null"));
    assert_non_null(strstr(t.text[11], "(~f0.0) mov (8|M0) r7.0"));
    assert_int_equal(t.pc_stalls[11], 2);       /* waits for the cmp's flag */
    assert_int_equal(t.pc_stalls[12], 3);
}

/* timing_tokens.cl at SIMD8: seventeen stores, each setting a software
 * scoreboard token; the seventeenth takes $0 while the first, which holds
 * it, is still in flight, and waits for it (a mov of an immediate runs on
 * fp32).
 *  0 (W) mov (8) r2 <- r0            T 0  -> 2
 *  1 (W) or (1) cr0                  T 1  -> 5
 *  2 (W) mul (1) acc0 <- r2.2        T 2  -> 6
 *  3 (W) mach (1) r3 <- acc0         T 6, stall 3 -> 10
 *  4 mov (8) r8 <- 0:f               T 7  -> 11
 *  5 add (8) acc0 <- r3, r1          T 10, stall 2 -> 14
 *  6 mov (8) r10 <- 1:f              T 11 -> 15
 *  7 add (8) acc0 <- acc0, r4        T 14, stall 2 -> 18
 *  8 mov (8) r12 <- 2:f              T 15 -> 19
 *  9 shl (8) r7 <- acc0              T 18, stall 2 -> 22
 * 10-23 mov (8) r14, r16 .. r40      T 19 .. 32 -> r40 at 36
 * 24-39 add (8) r9, r11 .. r39 <- r7 T 33 .. 48 -> r39 at 52
 * 40-55 send write <- r7 + 2j, r8 + 2j, {$j}: T 49 .. 64, stores -> 79 .. 94
 * 56 send write <- r39, r40 {$0}     T 79 (pc 40's $0), stall 14 -> 109
 * 57 (W) mov (8) r127 <- r2          T 80 -> 82
 * 58 (W) fence r41 <- r2 {$1}        T 81 ($1 free at 80), earlier work 109 -> 109
 * 59 (W) mov (8) null <- r41         T 109, stall 27 -> 111
 * 60 (W) send EOT <- r127            T 110 -> 112
 * cycles 112 (without the token pc 56 issues at 65: 98). */
static void token_reuse(void **state)
{
    (void)state;
    timed t;
    run_timed("tests/gen/kernels/timing_tokens.cl --global 8 --local 8 --arg x=int:zeros:136", &t);
    assert_int_equal(t.cycles, 112);
    assert_non_null(strstr(t.text[40], "{$0}"));
    assert_non_null(strstr(t.text[56], "{@1,$0}"));
    assert_int_equal(t.pc_stalls[56], 14);      /* $0 is free when pc 40 completes */
    assert_int_equal(t.pc_stalls[55], 0);
    assert_int_equal(t.pc_cycles[58], 28);
}

/* timing_image.cl at SIMD8: image messages are memory accesses in the
 * model's image space (image argument a at (0x1000 + a) << 40, row y at
 * y x pitch): the sampler's ld_lz and the typed write at each lane's
 * texel, the media block read's row as one 2D message.
 * blk: 8x1 R uint32 (pitch 32), src: 8x2 RGBA uint32 (pitch 128), dst:
 * 8x1 RGBA uint32 (pitch 128).
 *  0 (W) mov (8) r2 <- r0            T 0   -> 2
 *  1 (W) or (1) cr0                  T 1   -> 5
 *  2 (W) mul (1) acc0 <- r2.2        T 2   -> 6
 *  3 (W) mach (1) r3 <- acc0         T 6, stall 3 -> 10
 *  4 mov (8) r14 <- 1 (v)            T 7, fp32 (an immediate) -> 11
 *  5 add (8) acc0 <- r3, r1          T 10, stall 2 -> 14
 *  6 (W) mov (8) r9 <- r2            T 11  -> 13
 *  7 add (8) r7 <- acc0, r4          T 14, stall 2 -> 18
 *  8 (W) mov (2) r9 <- 0 (x, y)      T 15, fp32 -> 19
 *  9 send.smpl ld_lz r10..r13 <- r7, r14, {$0}
 *                                    T 18, stall 2: texels (x, 1), x = 0..7,
 *                                    bytes 128..255 of src: 2 lines missing
 *                                    everywhere, the first 18 -> 318, the
 *                                    second's DRAM start waits 64 / 32 port
 *                                    cycles: 20 -> 320
 * 10 (W) mov (1) r9.2 <- 31 (32x1)   T 19, fp32 -> 23
 * 11 (W) mov (8) r127 <- r2          T 20  -> 22
 * 12 send.dc1 media block read r8 <- r9, {$1}
 *                                    T 23, stall 2: one row of 32 bytes at
 *                                    (0, 0) of blk, one line: 23 -> 323
 * 13 sync.nop {$1.dst}               T 323 (the media block's token), stall
 *                                    299 -> 324 (an issue cycle)
 * 14 add (8) r15 <- r10, r8 {$0.dst} T 324 -> 328
 * 15-17 add (8) r16..r18             T 325, 326, 327 -> 329, 330, 331
 * 18 send.dc1 typed write <- r7, r15..r18
 *                                    T 331, stall 3: texels (x, 0), bytes
 *                                    0..127 of dst, 2 lines stored: L1
 *                                    port 331, 332 -> 361, 362
 * 19 (W) fence r19 <- r2             T 332, earlier work 362 -> 362
 * 20 (W) mov (8) null <- r19         T 362, stall 29 -> 364
 * 21 (W) send EOT <- r127            T 363 -> 365
 * cycles 365 (timed as sends of the send pipe's latency, 2 cycles each,
 * the image messages would give 39). */
static void image_messages(void **state)
{
    (void)state;
    timed t;
    run_timed("tests/gen/kernels/timing_image.cl --global 8 --local 8"
              " --arg blk=image2d:8x1:R:uint32:iota --arg src=image2d:8x2:RGBA:uint32:iota"
              " --arg dst=image2d:8x1:RGBA:uint32:zeros --out dst", &t);
    assert_int_equal(t.cycles, 365);
    /* dst(x, 0) = src(x, 1) + blk(x, 0), channel by channel, iota images
     * holding their 32-bit channels' index: (8 + x) x 4 + c + x, one
     * little-endian byte each (a typed write of row 0: the payload is u
     * alone) */
    assert_int_equal(t.nout, 8 * 4 * 4);
    for (int b = 0; b < t.nout; b++) {
        int x = b / 16, c = b / 4 % 4;
        assert_int_equal(t.out[b], b % 4 ? 0 : (8 + x) * 4 + c + x);
    }
    assert_non_null(strstr(t.text[9], "send.smpl (8|M0) r10"));
    assert_int_equal(t.pc_cycles[9], 302);      /* two lines from DRAM */
    assert_non_null(strstr(t.text[12], "media block read"));
    assert_int_equal(t.pc_cycles[12], 300);     /* one row, one line */
    assert_int_equal(t.pc_stalls[13], 299);     /* the media block's token */
    assert_non_null(strstr(t.text[18], "typed surface write"));
    assert_int_equal(t.pc_cycles[18], 31);      /* two lines stored */
    assert_int_equal(t.pc_cycles[19], 30);      /* the fence waits for them */
}

int main(void)
{
    if (!gen_tests_can_run())
        return 77;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(chain),
        cmocka_unit_test(slm_barrier),
        cmocka_unit_test(simd32_halves),
        cmocka_unit_test(carry_acc),
        cmocka_unit_test(cmp_flag),
        cmocka_unit_test(token_reuse),
        cmocka_unit_test(image_messages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
