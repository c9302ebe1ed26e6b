/* detect_out.c - the detectors' counts in `sgemu run`'s summary and JSON
 * (docs/cli.md, "Detectors"); their reports are printed by the engine. */
#include "cli.h"

#include <stdio.h>

void cli_detect_print(FILE *f, uint32_t detect, const sgemu_stats *s)
{
    if (detect & SGEMU_DETECT_RACES)
        fprintf(f, "  races        %llu accesses checked (%llu local, %llu global), "
                "%llu racing pairs%s\n", (unsigned long long)s->race_checked,
                (unsigned long long)(s->race_checked - s->race_global_checked),
                (unsigned long long)s->race_global_checked, (unsigned long long)s->races,
                s->race_unchecked ? ", global shadow full" : "");
    if (detect & SGEMU_DETECT_UNINIT)
        fprintf(f, "  uninit.      %llu loads checked (%llu local, %llu private), %llu of "
                "unwritten bytes\n", (unsigned long long)s->uninit_checked,
                (unsigned long long)(s->uninit_checked - s->uninit_private_checked),
                (unsigned long long)s->uninit_private_checked,
                (unsigned long long)s->uninit_reads);
    if (detect & SGEMU_DETECT_UNINIT)
        fprintf(f, "  undefined    %llu lanes checked, %llu uses of an undefined collective "
                "result\n", (unsigned long long)s->undef_checked,
                (unsigned long long)s->undef_uses);
}

void cli_detect_json(FILE *f, uint32_t detect, const sgemu_stats *s)
{
    if (!detect)
        return;
    fprintf(f, ", \"detectors\": {");
    const char *sep = "";
    if (detect & SGEMU_DETECT_RACES) {
        fprintf(f, "\"races\": {\"checked\": %llu, \"found\": %llu, \"global\": %llu, "
                "\"unchecked\": %llu}",
                (unsigned long long)s->race_checked, (unsigned long long)s->races,
                (unsigned long long)s->race_global_checked,
                (unsigned long long)s->race_unchecked);
        sep = ", ";
    }
    if (detect & SGEMU_DETECT_UNINIT)
        fprintf(f, "%s\"uninitialized\": {\"checked\": %llu, \"found\": %llu, "
                "\"private\": %llu, \"undefined_checked\": %llu, \"undefined_uses\": %llu}",
                sep, (unsigned long long)s->uninit_checked,
                (unsigned long long)s->uninit_reads,
                (unsigned long long)s->uninit_private_checked,
                (unsigned long long)s->undef_checked, (unsigned long long)s->undef_uses);
    fprintf(f, "}");
}
