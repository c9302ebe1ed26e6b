/* timing_report.c - the timing statistics as text (sgemu run's summary) and
 * as a JSON object (sgemu run --json). */
#include "timing.h"

static double ratio(uint64_t a, uint64_t b)
{
    return b ? (double)a / (double)b : 0;
}

/* pc's source line ("-"/"null": none) and name. */
static const char *inst_line(const sgemu_timing *t, const isa_kernel *k, uint32_t pc,
                             char *buf, size_t n, const char *none)
{
    if (!t->inst_text && k->inst[pc].line)
        snprintf(buf, n, "%u", k->inst[pc].line);
    else
        snprintf(buf, n, "%s", none);
    return buf;
}

static const char *inst_name(const sgemu_timing *t, const isa_kernel *k, uint32_t pc)
{
    if (t->inst_text)
        return t->inst_text[pc] ? t->inst_text[pc] : "?";
    return isa_ops[k->inst[pc].op].mnemonic;
}

/* s inside a JSON string (IGA's text has no control characters, but may
 * hold quotes in comments). */
static void json_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        if ((unsigned char)*s >= 0x20)
            fputc(*s, f);
    }
}

static uint64_t stall_total(const sgemu_timing *t)
{
    uint64_t s = 0;
    for (int i = 0; i < TM_STALL_COUNT; i++)
        s += t->stall[i];
    return s;
}

void tm_print(FILE *f, const sgemu_timing *t, const isa_kernel *k,
              const emu_config *cfg, bool per_line)
{
    fprintf(f, "timing (%s):\n", cfg->name);
    fprintf(f, "  cycles            %llu (%.3f us at %.0f MHz)\n",
            (unsigned long long)t->cycles, t->time_us, cfg->clock_mhz);
    fprintf(f, "  IPC               %.3f subgroup instructions/cycle\n", t->ipc);
    fprintf(f, "  SIMD efficiency   %.1f%%\n", 100 * t->simd_efficiency);
    fprintf(f, "  occupancy         achieved %.1f%%, theoretical %.1f%% "
            "(%u work-group%s/CU, %u thread slots, limited by %s)\n",
            100 * t->achieved_occupancy, 100 * t->theoretical_occupancy, t->wg_per_cu,
            t->wg_per_cu == 1 ? "" : "s", t->threads_per_cu, tm_limiter_names[t->limiter]);
    fprintf(f, "  registers         %u per thread%s%s\n", t->grf_regs_needed,
            t->large_grf ? " (large-GRF mode)" : "",
            !t->grf_overflow ? ""
            : t->spilled_regs ? " - DOES NOT FIT the GRF at this width (spills, charged)"
                              : " - DOES NOT FIT the GRF at this width (spill not modelled: "
                                "scheduler.allow_spill = 0)");
    if (t->spilled_regs)
        fprintf(f, "  spills            %u registers in scratch, %llu fills + %llu stores, "
                "%llu bytes\n", t->spilled_regs, (unsigned long long)t->spill_fills,
                (unsigned long long)t->spill_stores, (unsigned long long)t->spill_bytes_moved);
    uint64_t st = stall_total(t);
    fprintf(f, "  stalls            %llu thread-cycles:", (unsigned long long)st);
    for (int i = 0; i < TM_STALL_COUNT; i++)
        fprintf(f, " %s %.1f%%", tm_stall_names[i], 100 * ratio(t->stall[i], st));
    fputc('\n', f);
    /* caches have hit rates; DRAM and local memory have traffic only */
    for (int l = TM_LEVEL_L1; l <= TM_LEVEL_L2; l++) {
        fprintf(f, "  %-6s            %llu bytes, %llu line requests", tm_level_names[l],
                (unsigned long long)t->bytes[l], (unsigned long long)t->requests[l]);
        if (t->hits[l] + t->misses[l])
            fprintf(f, ", hit rate %.1f%% (%llu hits, %llu misses)",
                    100 * ratio(t->hits[l], t->hits[l] + t->misses[l]),
                    (unsigned long long)t->hits[l], (unsigned long long)t->misses[l]);
        else if (t->requests[l])
            fputs(" (stores and atomics only: no lookups)", f);
        fputc('\n', f);
    }
    fprintf(f, "  dram              %llu bytes, %llu line requests\n",
            (unsigned long long)t->bytes[TM_LEVEL_DRAM],
            (unsigned long long)t->requests[TM_LEVEL_DRAM]);
    fprintf(f, "  local             %llu bytes, %llu accesses, %llu bank-conflict cycles\n",
            (unsigned long long)t->bytes[TM_LEVEL_LOCAL],
            (unsigned long long)t->requests[TM_LEVEL_LOCAL],
            (unsigned long long)t->bank_conflict_cycles);
    uint32_t shown = t->ncu < 16 ? t->ncu : 16;
    fprintf(f, "  CU utilisation   ");
    for (uint32_t c = 0; c < shown; c++)
        fprintf(f, " %.0f%%", 100 * ratio(t->cu_busy_cycles[c], t->cycles));
    fprintf(f, "%s\n", shown < t->ncu ? " ..." : "");
    if (!per_line)
        return;
    fprintf(f, "  per instruction:  line  pc    count      lanes      cycles     stalls  op\n");
    for (uint32_t pc = 0; pc < t->ninst; pc++) {
        const tm_line_stats *s = &t->per_inst[pc];
        if (!s->count)
            continue;
        char line[12];
        fprintf(f, "                    %-5s %-5u %-10llu %-10llu %-10llu %-7llu %s\n",
                inst_line(t, k, pc, line, sizeof line, "-"), pc, (unsigned long long)s->count,
                (unsigned long long)s->lanes, (unsigned long long)s->cycles,
                (unsigned long long)s->stalls, inst_name(t, k, pc));
    }
}

void tm_print_json(FILE *f, const sgemu_timing *t, const isa_kernel *k)
{
    fprintf(f, "{\"cycles\": %llu, \"time_us\": %.6f, \"ipc\": %.6f, "
            "\"instructions\": %llu, \"uops\": %llu, \"simd_efficiency\": %.6f, ",
            (unsigned long long)t->cycles, t->time_us, t->ipc,
            (unsigned long long)t->instructions, (unsigned long long)t->uops,
            t->simd_efficiency);
    fprintf(f, "\"occupancy\": {\"achieved\": %.6f, \"theoretical\": %.6f, "
            "\"work_groups_per_cu\": %u, \"thread_slots\": %u, \"limiter\": \"%s\", "
            "\"grf_registers\": %u, \"large_grf\": %s, \"grf_overflow\": %s, "
            "\"spill_bytes\": %llu}, ",
            t->achieved_occupancy, t->theoretical_occupancy, t->wg_per_cu,
            t->threads_per_cu, tm_limiter_names[t->limiter], t->grf_regs_needed,
            t->large_grf ? "true" : "false", t->grf_overflow ? "true" : "false",
            (unsigned long long)t->spill_bytes);
    fprintf(f, "\"spill\": {\"registers\": %u, \"fills\": %llu, \"stores\": %llu, "
            "\"bytes\": %llu}, ", t->spilled_regs, (unsigned long long)t->spill_fills,
            (unsigned long long)t->spill_stores, (unsigned long long)t->spill_bytes_moved);
    fputs("\"stalls\": {", f);
    for (int i = 0; i < TM_STALL_COUNT; i++)
        fprintf(f, "%s\"%s\": %llu", i ? ", " : "", tm_stall_names[i],
                (unsigned long long)t->stall[i]);
    fputs("}, \"memory\": {", f);
    for (int l = 0; l < TM_LEVEL_COUNT; l++)
        fprintf(f, "%s\"%s\": {\"bytes\": %llu, \"requests\": %llu, \"hits\": %llu, "
                "\"misses\": %llu}",
                l ? ", " : "", tm_level_names[l], (unsigned long long)t->bytes[l],
                (unsigned long long)t->requests[l],
                (unsigned long long)t->hits[l], (unsigned long long)t->misses[l]);
    fprintf(f, ", \"bank_conflict_cycles\": %llu}, \"cu_utilisation\": [",
            (unsigned long long)t->bank_conflict_cycles);
    for (uint32_t c = 0; c < t->ncu; c++)
        fprintf(f, "%s%.4f", c ? ", " : "", ratio(t->cu_busy_cycles[c], t->cycles));
    fputs("], \"per_instruction\": [", f);
    bool first = true;
    for (uint32_t pc = 0; pc < t->ninst; pc++) {
        const tm_line_stats *s = &t->per_inst[pc];
        if (!s->count)
            continue;
        char line[12];
        fprintf(f, "%s{\"pc\": %u, \"line\": %s, \"op\": \"", first ? "" : ", ", pc,
                inst_line(t, k, pc, line, sizeof line, "null"));
        json_text(f, inst_name(t, k, pc));
        fprintf(f, "\", \"count\": %llu, "
                "\"lanes\": %llu, \"cycles\": %llu, \"stalls\": %llu}",
                (unsigned long long)s->count, (unsigned long long)s->lanes,
                (unsigned long long)s->cycles, (unsigned long long)s->stalls);
        first = false;
    }
    fprintf(f, "], \"trace_events\": %llu, \"trace_dropped\": %llu}",
            (unsigned long long)t->trace_events, (unsigned long long)t->trace_dropped);
}
