#!/usr/bin/env bash
# selftest.sh — proves the Slurm glue on a real one-node Slurm cluster started on
# this machine: a private munged and slurmctld/slurmd (Debian's munge and
# slurm-wlm) configured for localhost (NodeName = `hostname -s`, CPUs=2), with
# their key, sockets, state, spool and logs in a temporary folder, on ports no
# one else uses. It runs the suites once on this machine (`arenabench run` with
# nightly.sh's planners and limits), then submits the same run with
# scripts/slurm/submit.sh (an array of N shards, then the dependent merge job),
# waits for the merge job (polling scontrol; deadline AB_SLURM_DEADLINE seconds,
# default 3600), and checks that the merged rows equal the single run's: suite
# (name and content hash), spec, status, arena, lower bound, k, ILP status,
# objective and bound, proof, nodes, checker verdict, capped and plan hash, and
# that the merge job's exit code is the single run's. Then it stops the daemons
# it started (by their pids) and removes the folder.
#
# Usage: scripts/slurm/selftest.sh [--shards N] [--bin PATH] [--keep] [SUITE_OR_DIR...]
#   --shards N   array tasks (default 4)
#   --bin PATH   the arenabench binary (default: build it in build/release)
#   --keep       keep the temporary folder (logs, databases) and say where
#   default suites: suites (all of them, as nightly.sh)
# Needs root (the daemons), munged, slurmctld, slurmd, sbatch, scontrol, sinfo
# and sqlite3: apt-get install slurm-wlm munge sqlite3. Slurm is optional for
# arenabench: scripts/deps.sh does not install it.
# Exit status: 0 the rows are equal; 1 they differ or a job failed; 2 bad usage
# or a missing prerequisite; 3 the cluster did not start or a deadline passed.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
PATH="$PATH:/usr/sbin:/sbin"    # Debian puts munged, slurmctld and slurmd there

usage() { echo "selftest.sh: $1 (usage: scripts/slurm/selftest.sh [--shards N] [--bin PATH] [--keep] [SUITE_OR_DIR...])" >&2; exit 2; }
shards=4 bin="" keep=0 suites=()
while [ $# -gt 0 ]; do
    case "$1" in
        --shards) [ $# -ge 2 ] && [[ "$2" =~ ^[1-9][0-9]{0,2}$ ]] || usage "--shards expects a positive integer"
                  shards=$2; shift 2 ;;
        --bin) [ $# -ge 2 ] || usage "--bin needs a value"; bin=$2; shift 2 ;;
        --keep) keep=1; shift ;;
        -h|--help) sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) usage "unknown option '$1'" ;;
        *) suites+=("$1"); shift ;;
    esac
done
[ ${#suites[@]} -eq 0 ] && suites=(suites)
for s in "${suites[@]}"; do [ -e "$s" ] || usage "no such suite or folder: $s"; done
[ "$(id -u)" -eq 0 ] || { echo "selftest.sh: must run as root (it starts munged, slurmctld and slurmd)" >&2; exit 2; }
for c in munged munge slurmctld slurmd sbatch scontrol sinfo sqlite3; do
    command -v "$c" >/dev/null || { echo "selftest.sh: $c not found: apt-get install slurm-wlm munge sqlite3" >&2; exit 2; }
done

if [ -z "$bin" ]; then
    cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null || exit 3
    cmake --build build/release -j "$(nproc)" >/dev/null || exit 3
    bin=build/release/arenabench
fi
case "$bin" in /*) ;; *) bin="$root/$bin" ;; esac
[ -x "$bin" ] || usage "not an executable: $bin"

t=$(mktemp -d "${TMPDIR:-/tmp}/ab-slurm.XXXXXX") || exit 3
chmod 755 "$t"    # munged wants every folder above its socket searchable by all
mkdir -p "$t/munge" "$t/state" "$t/spool" "$t/log" "$t/out" "$t/reports" && chmod 755 "$t/munge" || exit 3

# Stops the daemons this script started, by the pids they wrote, and waits for
# them to go; removes the folder unless --keep.
stop() {
    local f p n
    for f in "$t/slurmd.pid" "$t/slurmctld.pid" "$t/munge/munged.pid"; do
        p=$(cat "$f" 2>/dev/null) || continue
        [[ "$p" =~ ^[0-9]+$ ]] && kill "$p" 2>/dev/null || continue
        for ((n = 0; n < 300 && $(kill -0 "$p" 2>/dev/null && echo 1 || echo 0); n++)); do sleep 0.1; done
        kill -0 "$p" 2>/dev/null && kill -9 "$p" 2>/dev/null
    done
    if [ $keep -eq 1 ]; then echo "selftest.sh: kept $t" >&2; else rm -rf "$t"; fi
}
trap stop EXIT
trap 'exit 3' INT TERM

# Two free TCP ports (nothing answers on them), for slurmctld and slurmd.
free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for ((try = 0; ; try++)); do
    port=$((20000 + (RANDOM % 10000) * 2))
    free "$port" && free $((port + 1)) && break
    [ $try -lt 50 ] || { echo "selftest.sh: no free pair of ports" >&2; exit 3; }
done

head -c 1024 /dev/urandom > "$t/munge/munge.key" && chmod 400 "$t/munge/munge.key" || exit 3
munged --key-file="$t/munge/munge.key" --socket="$t/munge/munge.sock" \
       --pid-file="$t/munge/munged.pid" --log-file="$t/munge/munged.log" \
       --seed-file="$t/munge/munged.seed" ||
    { echo "selftest.sh: munged did not start:" >&2; tail -n 5 "$t/munge/munged.log" >&2; exit 3; }

host=$(hostname -s)
cat > "$t/slurm.conf" <<CONF
# A one-node cluster for scripts/slurm/selftest.sh (generated)
ClusterName=abselftest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$t/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$t/state
SlurmdSpoolDir=$t/spool
SlurmctldPidFile=$t/slurmctld.pid
SlurmdPidFile=$t/slurmd.pid
SlurmctldLogFile=$t/log/slurmctld.log
SlurmdLogFile=$t/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MinJobAge=86400
ReturnToService=2
MpiDefault=none
NodeName=$host NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=abselftest Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$t/slurm.conf"
unset SBATCH_PARTITION SBATCH_ACCOUNT SBATCH_TIMELIMIT
slurmctld -i -f "$SLURM_CONF" && slurmd -f "$SLURM_CONF" -N "$host" ||
    { echo "selftest.sh: slurmctld or slurmd did not start (logs in $t/log)" >&2; keep=1; exit 3; }
for ((n = 0; n < 600; n++)); do   # up to 60 s for the node to register
    [ "$(sinfo -h -n "$host" -o %t 2>/dev/null)" = idle ] && break
    sleep 0.1
done
[ "$(sinfo -h -n "$host" -o %t 2>/dev/null)" = idle ] ||
    { echo "selftest.sh: the node did not come up (sinfo: $(sinfo -h 2>&1)); logs kept in $t/log" >&2; keep=1; exit 3; }
echo "selftest.sh: one-node cluster up on $host (ports $port, $((port + 1))), $t"

# The reference: one run on this machine.
full=0
. scripts/nightly-args.sh
s0=$SECONDS
"$bin" run -q --db "$t/single.db" --tag "$tag" -j 2 "${planners[@]}" "${limits[@]}" "${suites[@]}"
single_rc=$?
single_s=$((SECONDS - s0))
[ $single_rc -le 1 ] || { echo "selftest.sh: the single run failed (exit $single_rc)" >&2; exit 1; }

s0=$SECONDS
ids=$(scripts/slurm/submit.sh --shards "$shards" --bin "$bin" --out "$t/out" --db "$t/merged.db" \
      --reports "$t/reports" "${suites[@]}") || { echo "selftest.sh: submit.sh failed" >&2; exit 1; }
echo "$ids"
array=$(echo "$ids" | sed -n 's/^array job //p')
merge=$(echo "$ids" | sed -n 's/^merge job //p')
[ -n "$array" ] && [ -n "$merge" ] || { echo "selftest.sh: submit.sh printed no job ids" >&2; exit 1; }

state() { scontrol -o show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | sort -u | paste -sd, -; }
deadline=$((SECONDS + ${AB_SLURM_DEADLINE:-3600}))
while :; do
    st=$(state "$merge")
    case "$st" in COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|BOOT_FAIL|DEADLINE) break ;; esac
    [ $SECONDS -lt $deadline ] ||
        { echo "selftest.sh: the merge job is still $st after ${AB_SLURM_DEADLINE:-3600} s" >&2; keep=1; exit 3; }
    sleep 2
done
slurm_s=$((SECONDS - s0))
merge_rc=$(scontrol -o show job "$merge" | sed -n 's/.* ExitCode=\([0-9]*\):.*/\1/p')
echo "selftest.sh: array job $array: $(state "$array"); merge job $merge: $st, exit $merge_rc"
for f in "$t"/out/shard-*.log; do grep -H 'nightly.sbatch' "$f"; done
sed 's/^/merge.log: /' "$t/out/merge.log"
[ "$st" = COMPLETED ] || [ "$st" = FAILED ] || { echo "selftest.sh: the merge job did not run to its end ($st)" >&2; keep=1; exit 1; }

# The rows that must not depend on where or how a job ran.
rows() {
    sqlite3 -separator '|' "$1" "SELECT s.name, s.hash, r.spec, r.status, r.arena, r.lower_bound, r.k,
        r.ilp_status, r.ilp_objective, r.ilp_bound, r.proven_by, r.nodes, r.verdict, r.capped, r.plan
        FROM results r JOIN suites s ON s.id = r.suite ORDER BY s.name, s.hash, r.spec"
}
rows "$t/single.db" > "$t/single.rows" && rows "$t/merged.db" > "$t/merged.rows" || exit 3
runs=$(sqlite3 "$t/merged.db" "SELECT count(*) || ' run, hosts ' || group_concat(host) || ', ' || status FROM runs")
n1=$(wc -l < "$t/single.rows") n2=$(wc -l < "$t/merged.rows")
echo "selftest.sh: single run: $n1 rows in $single_s s (exit $single_rc); Slurm, $shards shards: $n2 rows in $slurm_s s (merge exit $merge_rc); merged database: $runs"
ok=1
[ "$n1" -gt 0 ] || { echo "selftest.sh: the single run has no rows" >&2; ok=0; }
diff "$t/single.rows" "$t/merged.rows" > "$t/rows.diff" ||
    { echo "selftest.sh: the merged rows differ from the single run's (< single, > merged):" >&2; head -n 40 "$t/rows.diff" >&2; ok=0; }
[ "$merge_rc" = "$single_rc" ] ||
    { echo "selftest.sh: the merge job exited $merge_rc, the single run $single_rc" >&2; ok=0; }
[ $ok -eq 1 ] || { keep=1; exit 1; }
echo "selftest.sh: ok: the $n2 merged rows equal the single run's"
