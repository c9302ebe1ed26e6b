#!/usr/bin/env bash
# install_check.sh BUILD_DIR - install into a scratch prefix and build a
# program against sgemu.pc, as a user of libsgemu would: it compiles an
# OpenCL C kernel, runs it at two sub-group widths with the timing model and
# prints the cycles, checking every result.  The program has a config.h of
# its own, which sgemu's headers must not shadow.
set -euo pipefail
build=$(cd "$1" && pwd)
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
DESTDIR="$dest" meson install -C "$build" --quiet >/dev/null
option() {
    meson introspect "$build" --buildoptions | python3 -c \
        'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"]==sys.argv[1]][0])' "$1"
}
prefix=$(option prefix)
export PKG_CONFIG_PATH="$dest$prefix/$(option libdir)/pkgconfig"
export PKG_CONFIG_SYSROOT_DIR="$dest"
cflags=$(pkg-config --cflags sgemu)
case "$cflags" in
*include/sgemu*) echo "install_check: sgemu.pc adds sgemu's own header folder: $cflags" >&2; exit 1 ;;
esac
for h in coll.h lanes.h record.h timing_model.h spirv.h; do
    if [ -e "$dest$prefix/$(option includedir)/sgemu/$h" ]; then
        echo "install_check: internal header $h is installed" >&2
        exit 1
    fi
done
mkdir "$dest/user"
cat > "$dest/user/config.h" <<'C'
#define USER_CONFIG 1
C
cat > "$dest/user/user.c" <<'C'
#include "config.h"
#include <sgemu/sgemu.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#if !defined(USER_CONFIG) || SGEMU_VERSION_NUMBER < 100
#error "sgemu's headers shadow the program's config.h, or no version"
#endif

static const char src[] =
    "kernel void sums(global const int *in, global int *out, global int *width)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    out[i] = sub_group_reduce_add(in[i]);\n"
    "    if (i == 0)\n"
    "        *width = get_sub_group_size();\n"
    "}\n";

enum { N = 256, LOCAL = 64 };

/* One run at sub-group width w; returns the cycles, 0 on any failure. */
static uint64_t run_at(const isa_kernel *k, const emu_config *cfg, uint32_t w)
{
    int in[N], out[N], width = 0;
    for (int i = 0; i < N; i++) {
        in[i] = i;
        out[i] = -1;
    }
    sgemu_argval args[3] = { sgemu_arg_buffer(in, sizeof in), sgemu_arg_buffer(out, sizeof out),
                             sgemu_arg_buffer(&width, sizeof width) };
    const int a_out = sgemu_kernel_arg_index(k, "out");
    const sgemu_launch launch = { .dims = 1, .global = { N, 1, 1 }, .local = { LOCAL, 1, 1 },
                                  .local_given = true, .sg_width = w,
                                  .max_instructions = 1000000, .timing = true };
    sgemu_stats st;
    sgemu_fault f;
    uint64_t cycles = 0;
    if (sgemu_run(k, cfg, &launch, args, &st, &f) != SGEMU_EXIT_OK) {
        fprintf(stderr, "run at width %u: %s\n", w, f.msg);
    } else if (a_out != 1 || width != (int)w || st.sg_width != w || !st.timing) {
        fprintf(stderr, "width %u: kernel saw %d, stats %u, arg 'out' at %d\n", w, width,
                st.sg_width, a_out);
    } else {
        cycles = st.timing->cycles;
        for (int i = 0; i < N; i++) {
            const int first = i / (int)w * (int)w;   /* the sub-group's first item */
            const int want = (int)w * first + (int)(w * (w - 1) / 2);
            if (out[i] != want) {
                fprintf(stderr, "width %u: out[%d] = %d, expected %d\n", w, i, out[i], want);
                cycles = 0;
                break;
            }
        }
    }
    sgemu_stats_free(&st);
    return cycles;
}

int main(void)
{
    isa_kernel k;
    isa_diags d;
    emu_config cfg;
    sgemu_fault f;
    memset(&d, 0, sizeof d);
    const sgemu_load_opts opts = { .entry = "sums" };
    if (sgemu_kernel_from_memory("sums.cl", SGEMU_SOURCE_OPENCL_C, src, sizeof src - 1, &opts, &k,
                                 NULL, &d, &f)) {
        if (d.count)
            isa_diags_print(&d, stderr);
        else
            fprintf(stderr, "%s\n", f.msg);
        return 1;
    }
    if (emu_config_load_named("default", &cfg, &d)) {
        isa_diags_print(&d, stderr);
        return 1;
    }
    int rc = 0;
    const uint32_t widths[2] = { 8, 16 };
    for (int i = 0; i < 2; i++) {
        const uint64_t cycles = run_at(&k, &cfg, widths[i]);
        if (!cycles)
            rc = 1;
        else
            printf("sgemu %s: kernel %s at width %2u: %" PRIu64 " cycles\n",
                   sgemu_version_string(), k.name, widths[i], cycles);
    }
    isa_kernel_free(&k);
    isa_diags_free(&d);
    return rc;
}
C
cc -std=c11 -Wall -Wextra -Werror -I"$dest/user" -o "$dest/user/user" "$dest/user/user.c" \
    $(pkg-config --cflags --libs --static sgemu)
"$dest/user/user"
