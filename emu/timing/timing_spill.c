/* timing_spill.c - GRF overflow: which registers spill and the fills and
 * stores their instructions cost. */
#include "timing_private.h"

/* ---- spilling: registers r >= spill_first live in per-thread scratch ----
 * Register r of slot t of CU ci sits at scratch(ci, t) + r x W x 4 (one
 * 32-bit value per lane).  Each distinct spilled source is a W x 4-byte block load
 * on the send pipe from the issue; the instruction starts when all are back.
 * Each spilled destination is a block store on the send pipe when the
 * result is ready (it does not delay the result). */
static uint64_t spill_addr(const tm_model *m, uint32_t ci, uint32_t t, uint32_t reg)
{
    uint64_t slot = (uint64_t)ci * m->slots + t;
    return ((uint64_t)0x3000 << 40) +
           (slot * m->L->k->nreg + reg) * (uint64_t)m->L->width * 4;
}

uint64_t tm_spill_fill(tm_model *m, uint32_t ci, uint32_t t, const tm_inst *ti, uint64_t T)
{
    tm_cu *c = &m->cu[ci];
    uint32_t bytes = m->L->width * 4, passes = tm_passes(m->tc, TM_PIPE_SEND, m->L->width, 4);
    uint64_t done = T;
    uint32_t seen[64], ns = 0;
    for (uint32_t i = 0; i < ti->nsrc; i++)
        for (uint32_t j = 0; j < ti->src[i].n; j++) {
            uint32_t r = ti->src[i].first + j;
            if (r < m->spill_first || r >= m->L->k->nreg)
                continue;
            uint32_t q = 0;
            while (q < ns && seen[q] != r)
                q++;
            if (q < ns)
                continue;           /* one fill per distinct register */
            if (ns < 64)
                seen[ns++] = r;
            uint64_t s = occupy(m, c, t, TM_PIPE_SEND, T, passes);
            done = max64(done, tm_mem_block(&m->mem, ci, s, ISA_SPACE_GLOBAL,
                                            spill_addr(m, ci, t, r), bytes, false));
            m->st->spill_fills++;
            m->st->spill_bytes_moved += bytes;
        }
    return done;
}

void tm_spill_store(tm_model *m, uint32_t ci, uint32_t t, const tm_inst *ti, uint64_t at)
{
    tm_cu *c = &m->cu[ci];
    uint32_t bytes = m->L->width * 4, passes = tm_passes(m->tc, TM_PIPE_SEND, m->L->width, 4);
    for (uint32_t j = 0; j < ti->dst.n; j++) {
        uint32_t r = ti->dst.first + j;
        if (r < m->spill_first || r >= m->L->k->nreg)
            continue;
        uint64_t s = occupy(m, c, t, TM_PIPE_SEND, at, passes);
        tm_mem_block(&m->mem, ci, s, ISA_SPACE_GLOBAL, spill_addr(m, ci, t, r), bytes, true);
        m->st->spill_stores++;
        m->st->spill_bytes_moved += bytes;
    }
}

/* Which registers spill, and how many each instruction reads and writes.
 * The spilled share of the registers is the share of the GRF demand that
 * does not fit: nspill = ceil(nreg x spill_bytes / (need x bytes per
 * register)), the highest-numbered ones. */
void tm_spill_plan(tm_model *m)
{
    const isa_kernel *k = m->L->k;
    const emu_config *cfg = m->L->cfg;
    m->spill_first = UINT32_MAX;
    if (!m->st->grf_overflow || !m->tc->allow_spill || !k->nreg)
        return;
    uint64_t bpr = cfg->grf_bytes_per_reg ? cfg->grf_bytes_per_reg : 32;
    uint64_t demand = (uint64_t)m->st->grf_regs_needed * bpr;
    uint64_t ns = demand ? ((uint64_t)k->nreg * m->st->spill_bytes + demand - 1) / demand : 0;
    if (ns > k->nreg)
        ns = k->nreg;
    m->st->spilled_regs = (uint32_t)ns;
    m->spill_first = k->nreg - (uint32_t)ns;
    for (uint32_t pc = 0; pc < k->ninst; pc++) {
        tm_inst *ti = &m->inst[pc];
        if (ti->kind != TM_K_ALU && ti->kind != TM_K_MEM && ti->kind != TM_K_ATOMIC)
            continue;
        uint32_t f = 0, sp = 0;
        for (uint32_t i = 0; i < ti->nsrc; i++)
            for (uint32_t j = 0; j < ti->src[i].n; j++) {
                uint32_t r = ti->src[i].first + j;
                f += r >= m->spill_first && r < k->nreg;
            }
        for (uint32_t j = 0; j < ti->dst.n; j++) {
            uint32_t r = ti->dst.first + j;
            sp += r >= m->spill_first && r < k->nreg;
        }
        ti->fills = (uint8_t)(f < 255 ? f : 255);
        ti->spills = (uint8_t)(sp < 255 ? sp : 255);
    }
}
