/* gen_iga.c - load libiga64 (Intel's ISA library) at run time.  dlopen keeps
 * the rest of sgemu free of it: only the Gen path needs the library, and it
 * says which package to install when it is missing. */
#include "gen_iga.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static gen_iga lib;
static char open_err[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* The symbols, in the order of gen_iga's function pointers. */
#define GEN_IGA_SYMS(X) \
    X(kv_create) X(kv_delete) X(kv_get_inst_size) X(kv_has_inst_opt) \
    X(kv_get_inst_targets) X(kv_get_inst_syntax) X(kv_get_send_descs) \
    X(kv_get_message_type) X(kv_get_message_sfid) X(kv_get_message_len) \
    X(kv_get_execution_size) X(kv_get_number_sources) X(kv_get_opcode) \
    X(kv_get_subfunction) X(kv_get_has_destination) X(kv_get_destination_register) \
    X(kv_get_destination_sub_register) X(kv_get_destination_data_type) \
    X(kv_get_destination_register_type) X(kv_get_destination_register_kind) \
    X(kv_get_source_register) X(kv_get_source_sub_register) X(kv_get_source_data_type) \
    X(kv_get_source_register_type) X(kv_get_source_register_kind) \
    X(kv_get_channel_offset) X(kv_get_mask_control) X(kv_get_destination_region) \
    X(kv_get_source_region) X(kv_get_source_immediate) \
    X(kv_get_source_indirect_imm_off) X(kv_get_destination_indirect_imm_off) \
    X(kv_get_flag_modifier) X(kv_get_source_modifier) X(kv_get_destination_modifier) \
    X(kv_get_flag_register) X(kv_get_flag_sub_register) X(kv_get_predicate) \
    X(kv_get_is_inverse_predicate) X(kv_get_swsb_info) X(iga_opspec_from_op) X(iga_opspec_mnemonic)

static void load(void)
{
    void *dl = dlopen("libiga64.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!dl) {
        snprintf(open_err, sizeof open_err,
                 "cannot load Intel's ISA library libiga64.so.1 (Debian package libigc1): %s",
                 dlerror());
        return;
    }
    gen_iga l = { .dl = dl };
    /* dlsym returns void *; the POSIX-sanctioned copy into a function pointer */
#define X(name)                                                                 \
    {                                                                           \
        void *p = dlsym(dl, #name);                                             \
        if (!p) {                                                               \
            snprintf(open_err, sizeof open_err,                                 \
                     "libiga64.so.1 lacks %s (a KernelView API of iga/kv.h)", #name); \
            dlclose(dl);                                                        \
            return;                                                             \
        }                                                                       \
        memcpy(&l.name, &p, sizeof p);                                          \
    }
    GEN_IGA_SYMS(X)
#undef X
    lib = l;
}

const gen_iga *gen_iga_open(char *err, size_t errcap)
{
    pthread_once(&once, load);
    if (lib.dl)
        return &lib;
    if (err && errcap)
        snprintf(err, errcap, "%s", open_err);
    return NULL;
}
