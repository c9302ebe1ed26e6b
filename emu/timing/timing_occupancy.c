/* timing_occupancy.c - how many work-groups fit on one compute unit: thread
 * slots, registers (per-thread GRF or a shared register file, with the
 * large-GRF trade of threads for registers) and local memory. */
#include "sgemu.h"
#include "timing_model.h"

#include <stdio.h>

const char *const tm_limiter_names[TM_LIMIT_COUNT] = {
#define X(E, n) n,
    TM_LIMITERS(X)
#undef X
};

static uint32_t div_up(uint64_t a, uint64_t b)
{
    return b ? (uint32_t)((a + b - 1) / b) : 0;
}

uint32_t tm_grf_budget_bytes(const emu_config *cfg, uint32_t width)
{
    uint64_t bpr = cfg->grf_bytes_per_reg ? cfg->grf_bytes_per_reg : 32;
    uint64_t regs = cfg->grf_regs_per_thread;
    if (!cfg->timing.grf_bytes_per_cu && cfg->large_grf_regs > regs)
        regs = cfg->large_grf_regs;
    uint64_t b = regs * bpr / (width ? width : 1);
    return b > UINT32_MAX ? UINT32_MAX : (uint32_t)(b ? b : 1);
}

void tm_occupancy(const emu_config *cfg, const isa_kernel *k, uint32_t width,
                  uint32_t wg_items, uint32_t local_bytes, uint64_t wg_total,
                  sgemu_timing *t)
{
    const emu_timing_cfg *tc = &cfg->timing;
    uint32_t bpr = cfg->grf_bytes_per_reg ? cfg->grf_bytes_per_reg : 32;
    uint32_t need = div_up((uint64_t)k->grf_bytes_per_lane * width, bpr);
    if (need == 0)
        need = 1;
    uint32_t slots = cfg->threads_per_cu;
    uint32_t sgs = div_up(wg_items ? wg_items : 1, width);
    uint32_t by_grf = UINT32_MAX;
    t->width = width;
    t->grf_regs_needed = need;
    t->large_grf = false;
    t->grf_overflow = false;
    t->spill_bytes = 0;

    if (tc->grf_bytes_per_cu) {
        /* one register file shared by the threads of a CU (NVIDIA style) */
        uint64_t per_thread = (uint64_t)need * bpr;
        if (need > cfg->grf_regs_per_thread) {
            t->grf_overflow = true;
            t->spill_bytes = (uint64_t)(need - cfg->grf_regs_per_thread) * bpr;
            per_thread = (uint64_t)cfg->grf_regs_per_thread * bpr;
        }
        by_grf = (uint32_t)(tc->grf_bytes_per_cu / per_thread);   // NOLINT(clang-analyzer-core.DivideZero): need >= 1 register, bpr >= 1 byte
        if (by_grf > slots)
            by_grf = slots;
    } else if (need > cfg->grf_regs_per_thread) {
        if (cfg->large_grf_regs && need <= cfg->large_grf_regs) {
            t->large_grf = true;
            slots = cfg->large_grf_threads ? cfg->large_grf_threads : slots;
        } else {
            uint32_t have = cfg->large_grf_regs > cfg->grf_regs_per_thread
                ? cfg->large_grf_regs : cfg->grf_regs_per_thread;
            t->grf_overflow = true;
            t->spill_bytes = (uint64_t)(need - have) * bpr;
            if (cfg->large_grf_regs) {
                t->large_grf = true;
                slots = cfg->large_grf_threads ? cfg->large_grf_threads : slots;
            }
        }
    }
    t->threads_per_cu = slots;
    t->grf_threads_per_cu = by_grf == UINT32_MAX ? slots : by_grf;
    t->unfit = TM_LIMIT_NONE;
    if (sgs > slots)
        t->unfit = TM_LIMIT_THREADS;
    else if (by_grf != UINT32_MAX && sgs > by_grf)
        t->unfit = TM_LIMIT_GRF;

    uint32_t by_threads = sgs ? slots / sgs : 0;
    uint32_t wg = by_threads;
    tm_limiter lim = TM_LIMIT_THREADS;
    uint32_t by_grf_wg = by_grf == UINT32_MAX ? UINT32_MAX : by_grf / sgs;   // NOLINT(clang-analyzer-core.DivideZero): a work-group has >= 1 sub-group
    if (by_grf_wg < wg) {
        wg = by_grf_wg;
        lim = TM_LIMIT_GRF;
    }
    if (local_bytes) {
        uint32_t by_local = cfg->local_mem_per_cu / local_bytes;
        if (by_local < wg) {
            wg = by_local;
            lim = TM_LIMIT_LOCAL;
        }
    }
    if (tc->max_wg_per_cu && tc->max_wg_per_cu < wg) {
        wg = tc->max_wg_per_cu;
        lim = TM_LIMIT_WG_SLOTS;
    }
    if (wg == 0)
        wg = 1;     /* unfit: tm_check_fit refuses the launch; local memory: the engine */
    uint64_t per_cu_work = div_up(wg_total, cfg->compute_units ? cfg->compute_units : 1);
    if (per_cu_work < wg) {
        lim = TM_LIMIT_WORK;
        wg = (uint32_t)(per_cu_work ? per_cu_work : 1);
    }
    t->wg_per_cu = wg;
    t->limiter = lim;
    uint64_t resident = (uint64_t)wg * sgs;
    if (resident > slots)
        resident = slots;
    t->theoretical_occupancy = slots ? (double)resident / slots : 0;
}

int tm_check_fit(const emu_config *cfg, const sgemu_timing *t, uint32_t width,
                 uint32_t wg_items, char *msg, size_t msgn)
{
    uint32_t sgs = div_up(wg_items ? wg_items : 1, width);
    if (t->unfit == TM_LIMIT_THREADS) {
        snprintf(msg, msgn, "work-group of %u work-items needs %u sub-groups of width %u, but a "
                 "compute unit of '%s' has %u thread slots (%s%s): at most %u work-items per "
                 "work-group at this width (CL_INVALID_WORK_GROUP_SIZE)",
                 wg_items, sgs, width, cfg->name, t->threads_per_cu,
                 t->large_grf ? "device.large_grf_threads_per_compute_unit"
                              : "device.threads_per_compute_unit",
                 t->large_grf ? ", large-GRF mode" : "", t->threads_per_cu * width);
        return SGEMU_EXIT_USER;
    }
    if (t->unfit == TM_LIMIT_GRF) {
        snprintf(msg, msgn, "work-group of %u work-items needs %u sub-groups of %u registers, "
                 "but the register file of a compute unit of '%s' "
                 "(scheduler.grf_bytes_per_compute_unit = %u) holds only %u such threads: at "
                 "most %u work-items per work-group (CL_INVALID_WORK_GROUP_SIZE)",
                 wg_items, sgs, t->grf_regs_needed, cfg->name, cfg->timing.grf_bytes_per_cu,
                 t->grf_threads_per_cu, t->grf_threads_per_cu * width);
        return SGEMU_EXIT_USER;
    }
    return 0;
}
