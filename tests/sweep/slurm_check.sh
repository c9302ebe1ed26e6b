#!/usr/bin/env bash
# slurm_check.sh SGEMU SRC TMP - start a one-node Slurm (slurm-wlm + munge,
# /work/shared/reference/slurm-single-node.md), run a sweep as an array job
# through tools/slurm/sweep-array.sbatch, merge, compare with an unsharded
# run.  Exit 0 same, 1 different, 77 skipped (reason on stdout).  Stops all
# it started, by pid, also on failure or SIGTERM; waits at most
# SGEMU_SLURM_TIMEOUT seconds (default 80) for Slurm.
set -u
sgemu=$1 src=$2 tmp=$3
deadline=$((SECONDS + ${SGEMU_SLURM_TIMEOUT:-80}))
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    [ "${SGEMU_SLURM_INSTALL:-0}" = 1 ] || skip "slurm-wlm/munge not installed (bash tools/dev.sh test installs them; or set SGEMU_SLURM_INSTALL=1 to apt-get them as root)"
    [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null || skip "not root with apt-get: cannot install slurm-wlm"
    DEBIAN_FRONTEND=noninteractive timeout 300 apt-get install -y -qq slurm-wlm munge >/dev/null 2>&1 \
        || skip "apt-get install slurm-wlm munge failed"
fi
[ "$(id -u)" = 0 ] || skip "slurmd needs root (SlurmdUser=root)"
command -v flock >/dev/null || skip "flock (util-linux) missing"

# Slurm's ports are machine-wide: one test at a time (a build dir and its
# sanitizer twin may run this concurrently).
exec 9>/tmp/sgemu-slurm-test.lock
flock -w 60 9 || skip "another sgemu Slurm test held /tmp/sgemu-slurm-test.lock for 60 s"

st=$tmp/slurm; mkdir -p "$st/spool" "$st/state"
pids=() job=""
stop() {   # kill pids, then wait up to 5 s before SIGKILL
    local p i
    for p in "$@"; do kill "$p" 2>/dev/null; done
    for i in $(seq 1 50); do
        local alive=0
        for p in "$@"; do kill -0 "$p" 2>/dev/null && alive=1; done
        [ $alive = 0 ] && return
        sleep 0.1
    done
    for p in "$@"; do kill -9 "$p" 2>/dev/null; done
}
cleanup() {
    # slurm clients retry a dead slurmctld for seconds: bound each call
    if [ -n "$job" ] && [ ${#pids[@]} -gt 0 ] && kill -0 "${pids[-2]}" 2>/dev/null; then
        timeout 2 scancel "$job" 2>/dev/null
        for i in $(seq 1 8); do timeout 2 squeue -h -j "$job" 2>/dev/null | grep -q . || break; sleep 0.25; done
    fi
    local i r=()   # newest first: slurmd, slurmctld, munged
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do r+=("${pids[i]}"); done
    [ ${#r[@]} -gt 0 ] && stop "${r[@]}"
}
trap cleanup EXIT
trap 'echo "FAIL: interrupted"; exit 1' INT TERM HUP

mkdir -p /run/munge && chown munge /run/munge 2>/dev/null
if [ ! -s /etc/munge/munge.key ]; then
    head -c 1024 /dev/urandom > /etc/munge/munge.key && chown munge /etc/munge/munge.key && chmod 400 /etc/munge/munge.key
fi
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then   # else use the running munged
    mpid=/run/munge/sgemu-test-$$.pid   # a folder the munge user can reach
    rm -f "$mpid"
    runuser -u munge -- /usr/sbin/munged --pid-file="$mpid" >"$st/munged.log" 2>&1 9>&- \
        || skip "munged does not start here ($(tail -1 "$st/munged.log"))"
    for i in $(seq 1 20); do [ -s "$mpid" ] && break; sleep 0.1; done
    [ -s "$mpid" ] && pids+=("$(cat "$mpid")")
    munge -n 2>/dev/null | unmunge >/dev/null 2>&1 || skip "munged does not answer ($(tail -1 "$st/munged.log"))"
fi
host=$(hostname -s)
cat > "$st/slurm.conf" <<CONF
ClusterName=sgemutest
SlurmctldHost=$host
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$st/state
SlurmdSpoolDir=$st/spool
SlurmctldPidFile=$st/slurmctld.pid
SlurmdPidFile=$st/slurmd.pid
SlurmctldLogFile=$st/slurmctld.log
SlurmdLogFile=$st/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES State=UP MaxTime=INFINITE
CONF
export SLURM_CONF=$st/slurm.conf
t0=$SECONDS
slurmctld -D -f "$SLURM_CONF" >"$st/slurmctld.out" 2>&1 9>&- & pids+=($!)
slurmd -D -f "$SLURM_CONF" >"$st/slurmd.out" 2>&1 9>&- & pids+=($!)
for i in $(seq 1 40); do timeout 2 sinfo -h -o %t 2>/dev/null | grep -q idle && break; sleep 0.25; done
timeout 2 sinfo -h -o %t 2>/dev/null | grep -q idle \
    || skip "slurmctld/slurmd did not start: $(tail -1 "$st/slurmctld.log" 2>/dev/null) / $(tail -1 "$st/slurmd.log" 2>/dev/null)"
echo "slurm: one node idle after $((SECONDS - t0)) s"

timeout 60 "$sgemu" sweep "$tmp/s.yaml" -q -o "$tmp/full" || fail "unsharded sweep failed"
job=$(SWEEP=$tmp/s.yaml OUT=$tmp/arr SGEMU=$sgemu timeout 10 sbatch --parsable --array=1-3 -D "$tmp" \
      "$src/tools/slurm/sweep-array.sbatch" 2>&1) || skip "sbatch refused the job: $job"
job=${job%%;*}
t0=$SECONDS
while timeout 5 squeue -h -j "$job" 2>/dev/null | grep -q .; do
    [ $SECONDS -lt $deadline ] || fail "array job $job still queued/running at the deadline: $(squeue -h -j "$job" 2>&1 | head -3)"
    sleep 0.25
done
echo "slurm: array job $job (3 tasks) finished in $((SECONDS - t0)) s"
for k in 1 2 3; do
    [ -s "$tmp/arr/shard-$k/results.csv" ] \
        || fail "array task $k wrote no results: $(cat "$tmp"/sgemu-sweep-*_"$k".log 2>/dev/null | tail -3)"
done
"$sgemu" sweep merge "$tmp"/arr/shard-* -o "$tmp/arr/merged" || fail "merge failed"
cmp "$tmp/full/results.csv" "$tmp/arr/merged/results.csv" || fail "merged results.csv differs"
cmp "$tmp/full/results.json" "$tmp/arr/merged/results.json" || fail "merged results.json differs"
echo "slurm: merged shards == unsharded run"
