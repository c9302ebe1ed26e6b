/* link.h - several SPIR-V modules into one for clLinkProgram. */
#ifndef SGEMU_ICD_LINK_H
#define SGEMU_ICD_LINK_H

#include <stddef.h>
#include <stdint.h>

/* Link modules mods[0..n) (lens in bytes) with spirv-link.  Returns 0 with
 * the module in *spv (malloc'd), 1 when they do not link, 2 when spirv-link
 * is not installed, -1 on a system error; *log (malloc'd, may be NULL)
 * holds spirv-link's messages. */
int icd_link_spirv(const uint8_t *const *mods, const size_t *lens, unsigned n, uint8_t **spv,
                   size_t *spv_len, char **log);

#endif
