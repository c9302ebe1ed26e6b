/* fault.c - kernel fault messages: every fault names the kernel, the
 * instruction's source line, the work-item and, for memory, the address. */
#include "emu_private.h"

#include <stdio.h>
#include <string.h>

void emu_workitem_ids(const emu_run *run, const emu_sg *sg, uint32_t lane,
                      uint64_t gid[3], uint64_t lid[3])
{
    const emu_wg *wg = run->wg;
    uint64_t lin = (uint64_t)sg->id * run->width + lane;
    lid[0] = lin % wg->local_size[0];
    lid[1] = (lin / wg->local_size[0]) % wg->local_size[1];
    lid[2] = lin / (wg->local_size[0] * wg->local_size[1]);
    for (int d = 0; d < 3; d++)
        gid[d] = wg->group_id[d] * run->local[d] + lid[d] + run->offset[d];
}

int emu_fault_at(emu_run *run, uint64_t addr)
{
    sgemu_fault *f = run->fault;
    if (f->code == SGEMU_EXIT_OK) {  /* the fault about to be raised, not a kept one */
        f->has_addr = true;
        f->addr = addr;
    }
    return 0;
}

int emu_fault(emu_run *run, int code, const emu_sg *sg, uint32_t lane,
              uint32_t pc, const char *fmt, ...)
{
    sgemu_fault *f = run->fault;
    if (f->code != SGEMU_EXIT_OK)
        return f->code;               /* keep the first fault */
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);

    snprintf(f->what, sizeof f->what, "%s", what);
    snprintf(f->kernel, sizeof f->kernel, "%s", run->k->name);
    char where[512] = "";
    if (pc < run->k->ninst) {
        f->line = run->k->inst[pc].line;
        char text[200];
        isa_format_inst(run->k, &run->k->inst[pc], text, sizeof text);
        char pos[320];
        isa_inst_where(run->k, &run->k->inst[pc], pos, sizeof pos);
        snprintf(where, sizeof where, "\n  at %.300s: %s", pos, text);
    }
    char who[512] = "";
    if (sg && run->wg) {
        f->has_item = true;
        f->subgroup = sg->id;
        memcpy(f->group_id, run->wg->group_id, sizeof f->group_id);
        if (lane != UINT32_MAX) {
            uint64_t gid[3], lid[3];
            emu_workitem_ids(run, sg, lane, gid, lid);
            f->has_lane = true;
            f->lane = lane;
            memcpy(f->global_id, gid, sizeof gid);
            memcpy(f->local_id, lid, sizeof lid);
            snprintf(who, sizeof who,
                     "\n  work-item global (%llu,%llu,%llu) local (%llu,%llu,%llu) "
                     "group (%llu,%llu,%llu), sub-group %u lane %u",
                     (unsigned long long)gid[0], (unsigned long long)gid[1],
                     (unsigned long long)gid[2], (unsigned long long)lid[0],
                     (unsigned long long)lid[1], (unsigned long long)lid[2],
                     (unsigned long long)run->wg->group_id[0],
                     (unsigned long long)run->wg->group_id[1],
                     (unsigned long long)run->wg->group_id[2], sg->id, lane);
        } else {
            snprintf(who, sizeof who, "\n  group (%llu,%llu,%llu), sub-group %u",
                     (unsigned long long)run->wg->group_id[0],
                     (unsigned long long)run->wg->group_id[1],
                     (unsigned long long)run->wg->group_id[2], sg->id);
        }
    }
    f->code = code;
    /* precisions keep the worst case inside msg[1024] */
    snprintf(f->msg, sizeof f->msg, "kernel '%.63s': %.400s%.300s%.240s", run->k->name, what,
             where, who);
    return code;
}
