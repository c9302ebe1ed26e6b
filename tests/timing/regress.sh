#!/bin/bash
# regress.sh SGEMU OUTDIR - timing-model regression outputs: every example
# kernel (examples/*.sgasm, calibration/, images/) is run with the command in
# its header comment on several configs, recorded and replayed;
# the JSON of each run and replay goes to OUTDIR.  Compare two OUTDIRs with
# `diff -r` (cycles, stalls and all statistics must be identical).
set -u
S=$(realpath "$1"); O=$(realpath -m "$2"); mkdir -p "$O"
cd "$(dirname "$0")/../.."
# CONFIGS: config files to compare on (default: the bundled devices and the
# stress configs of tests/timing/configs, which exercise corner cases of the
# issue loop: several units per pipe, wide issue, barriers released at once)
CONFIGS=${CONFIGS:-"$(echo configs/{default,test-simple,nvidia-h100,intel-xe-hpg,intel-xe-hpc,intel-gen9-gt2}.yaml) $(ls tests/timing/configs/*.yaml)"}
for f in examples/*.sgasm examples/calibration/*.sgasm examples/images/*.sgasm; do
    # header command: ';   sgemu run ...' plus '\' continuation lines
    cmd=$(awk '/^; *sgemu run/ && !done {on=1}
               on { l=$0; sub(/^; */, "", l); c = (l ~ /\\ *$/); sub(/\\ *$/, "", l);
                    printf "%s ", l; if (!c) { on=0; done=1 } }' "$f")
    [ -z "$cmd" ] && continue
    cmd=${cmd%%(*}                       # trailing remarks
    cmd=$(echo "$cmd" | sed -E 's/--record +[^ ]+//; s/^sgemu run //')
    cmd=$(echo "$cmd" | sed -E 's/--config +[^ ]+//')
    # files the command writes (--out NAME=FILE) go to OUTDIR, not the tree
    cmd=$(echo "$cmd" | sed -E "s#(--out +[A-Za-z0-9_]+=)([^ ]+)#\1$O/\2#g")
    n=$(echo "$f" | tr / _)
    for cf in $CONFIGS; do
        c=$(basename "$cf" .yaml)
        eval "\"$S\" run $cmd --config $cf --record \"$O/$n.trace\" --json" \
            > "$O/$n.$c.json" 2>&1
        [ -f "$O/$n.trace" ] && "$S" replay "$O/$n.trace" --config $cf --json 2>&1 | sed "s|$O/||g" > "$O/$n.$c.replay.json"
        rm -f "$O/$n.trace"
    done
done
