#!/usr/bin/env bash
# install_check.sh BUILD_DIR - install into a scratch prefix and build a
# program against sgemu.pc, as a user of libsgemu would.
set -euo pipefail
build=$(cd "$1" && pwd)
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
DESTDIR="$dest" meson install -C "$build" --quiet >/dev/null
prefix=$(meson introspect "$build" --buildoptions | python3 -c \
    'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"]=="prefix"][0])')
libdir=$(meson introspect "$build" --buildoptions | python3 -c \
    'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"]=="libdir"][0])')
export PKG_CONFIG_PATH="$dest$prefix/$libdir/pkgconfig"
export PKG_CONFIG_SYSROOT_DIR="$dest"
cat > "$dest/user.c" <<'C'
#include <sgemu.h>
#include <stdio.h>
#include <string.h>
int main(void)
{
    static const char src[] = ".kernel k\n.arg out global u32\n"
        "    mov.u32 r0, %global_id.x\n    st.global.u32 [%out + r0*4], r0\n    ret\n";
    isa_kernel k; isa_diags d; emu_config cfg;
    memset(&d, 0, sizeof d);
    if (isa_assemble("k", src, sizeof src - 1, &k, &d) || emu_config_load_default(&cfg, &d))
        return 1;
    unsigned out[16] = { 0 };
    sgemu_argval v = { .kind = SGEMU_VAL_BUFFER, .data = (unsigned char *)out, .bytes = sizeof out };
    sgemu_launch L = { .dims = 1, .global = { 16, 1, 1 }, .max_instructions = 1000 };
    sgemu_stats st; sgemu_fault f;
    if (sgemu_run(&k, &cfg, &L, &v, &st, &f)) { fprintf(stderr, "%s\n", f.msg); return 1; }
    for (int i = 0; i < 16; i++) if (out[i] != (unsigned)i) return 1;
    puts("installed libsgemu works");
    return 0;
}
C
cc -std=c11 -o "$dest/user" "$dest/user.c" $(pkg-config --cflags --libs --static sgemu)
"$dest/user"
