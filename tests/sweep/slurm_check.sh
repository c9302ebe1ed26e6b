#!/usr/bin/env bash
# slurm_check.sh SGEMU SRC TMP - start a one-node Slurm (slurm-wlm + munge,
# /work/shared/reference/slurm-single-node.md), run a sweep as an array job
# through tools/slurm/sweep-array.sbatch, merge, compare with an unsharded
# run.  Exit 0 same, 1 different, 77 skipped (reason on stdout).  Stops all
# it started, by pid.
set -u
sgemu=$1 src=$2 tmp=$3
skip() { echo "SKIP: $*"; exit 77; }
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    [ "${SGEMU_SLURM_INSTALL:-0}" = 1 ] || skip "slurm-wlm/munge not installed (set SGEMU_SLURM_INSTALL=1 to apt-get them as root)"
    [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null || skip "not root with apt-get: cannot install slurm-wlm"
    DEBIAN_FRONTEND=noninteractive timeout 300 apt-get install -y -qq slurm-wlm munge >/dev/null 2>&1 \
        || skip "apt-get install slurm-wlm munge failed"
fi
[ "$(id -u)" = 0 ] || skip "slurmd needs root (SlurmdUser=root)"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; sleep 0.5; for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done; }
trap cleanup EXIT
st=$tmp/slurm; mkdir -p "$st/spool" "$st/state"
mkdir -p /run/munge && chown munge /run/munge 2>/dev/null
if [ ! -s /etc/munge/munge.key ]; then
    head -c 1024 /dev/urandom > /etc/munge/munge.key && chown munge /etc/munge/munge.key && chmod 400 /etc/munge/munge.key
fi
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    runuser -u munge -- /usr/sbin/munged -F >"$st/munged.log" 2>&1 &
    pids+=($!)
    sleep 1
    munge -n | unmunge >/dev/null 2>&1 || skip "munged does not start here ($(tail -1 "$st/munged.log"))"
fi
host=$(hostname -s)
cat > "$st/slurm.conf" <<CONF
ClusterName=sgemutest
SlurmctldHost=$host
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
slurmctld -D -f "$SLURM_CONF" >/dev/null 2>&1 & pids+=($!)
slurmd -D -f "$SLURM_CONF" >/dev/null 2>&1 & pids+=($!)
for i in $(seq 1 20); do sinfo -h -o %t 2>/dev/null | grep -q idle && break; sleep 0.5; done
sinfo -h -o %t 2>/dev/null | grep -q idle || skip "slurmctld/slurmd did not start ($(tail -1 "$st/slurmctld.log" 2>/dev/null))"
"$sgemu" sweep "$tmp/s.yaml" -q -o "$tmp/full" || exit 1
job=$(SWEEP=$tmp/s.yaml OUT=$tmp/arr SGEMU=$sgemu sbatch --parsable --array=1-3 -D "$tmp" \
      "$src/tools/slurm/sweep-array.sbatch") || skip "sbatch refused the job"
for i in $(seq 1 60); do squeue -h -j "$job" 2>/dev/null | grep -q . || break; sleep 0.5; done
"$sgemu" sweep merge "$tmp"/arr/shard-* -o "$tmp/arr/merged" || exit 1
cmp "$tmp/full/results.csv" "$tmp/arr/merged/results.csv" && cmp "$tmp/full/results.json" "$tmp/arr/merged/results.json"
