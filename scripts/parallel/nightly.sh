#!/usr/bin/env bash
# nightly.sh (parallel) — the nightly over a few hosts with GNU parallel and ssh:
# shard I of N runs on one of the hosts (scripts/parallel/shard.sh: `arenabench run
# --shard I/N` into its own database, OUT/shard-I.db), parallel copies each
# database back (--return), then this machine merges them, writes the reports
# and compares, as scripts/nightly.sh does (scripts/slurm/merge.sbatch's steps).
# Planners, limits and tag are nightly.sh's (scripts/nightly-args.sh).
#
# Usage: scripts/parallel/nightly.sh --hosts H1,H2,... [--shards N] [--full]
#            [--remote-root DIR] [--bin PATH] [--out DIR] [--db F] [--reports DIR]
#            [SUITE_OR_DIR...]
#   --hosts H,...       GNU parallel's --sshlogin list: [user@]host, ':' is this machine,
#                       'K/host' runs K shards at once there (default 1)
#   --shards N          shards (default: one per host)
#   --full              nightly.sh --full's planners and limits
#   --remote-root DIR   the repository's folder on the hosts (default: the same as here)
#   --bin PATH          arenabench on the hosts, relative to the repository or absolute
#                       (default build/release/arenabench, built here when absent)
#   --out DIR           shard databases, relative to the repository (default
#                       out/parallel/<run key>); the same path on every host
#   --db F              the merged database (default $AB_DB or out/arenabench.db)
#   --reports DIR       report.md and report.html (default out)
#   SUITE_OR_DIR        relative to the repository (default suites)
# Each host needs the repository (same suites) at --remote-root, a built arenabench,
# and ssh without a password from here. Each shard runs -j (its CPUs) jobs.
# Exit status: as scripts/nightly.sh's (0 all well; 1 a check failed or a
# regression; 2 bad usage, a shard failed or a database is missing; 3 internal).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"

usage() { echo "parallel/nightly.sh: $1 (see scripts/parallel/nightly.sh --help)" >&2; exit 2; }
hosts="" shards="" full=0 rroot="$root" bin=build/release/arenabench out="" db="${AB_DB:-out/arenabench.db}" reports=out
suites=()
while [ $# -gt 0 ]; do
    case "$1" in
        --hosts|--shards|--remote-root|--bin|--out|--db|--reports)
            [ $# -ge 2 ] || usage "$1 needs a value"
            case "$1" in
                --hosts) hosts=$2 ;; --shards) shards=$2 ;; --remote-root) rroot=$2 ;;
                --bin) bin=$2 ;; --out) out=$2 ;; --db) db=$2 ;; --reports) reports=$2 ;;
            esac
            shift 2 ;;
        --full) full=1; shift ;;
        -h|--help) sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) usage "unknown option '$1'" ;;
        *) suites+=("$1"); shift ;;
    esac
done
[ -n "$hosts" ] || usage "--hosts is required (':' is this machine)"
IFS=, read -r -a hostlist <<< "$hosts"
[ -n "$shards" ] || shards=${#hostlist[@]}
[[ "$shards" =~ ^[1-9][0-9]{0,4}$ ]] || usage "--shards expects a positive integer, got '$shards'"
[ ${#suites[@]} -eq 0 ] && suites=(suites)
for s in "${suites[@]}"; do [ -e "$s" ] || usage "no such suite or folder: $s"; done
command -v parallel >/dev/null || { echo "parallel/nightly.sh: GNU parallel not found: apt-get install parallel" >&2; exit 2; }

if [ "$bin" = build/release/arenabench ] && [ ! -x "$bin" ]; then
    cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null || exit 3
    cmake --build build/release -j "$(nproc)" >/dev/null || exit 3
fi
case "$bin" in /*) rbin=$bin ;; *) rbin="$rroot/$bin" ;; esac

key="parallel-$(date -u +%Y%m%dT%H%M%SZ)-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
out=${out:-out/parallel/$key}
mkdir -p "$out" || exit 3

# One job per shard; parallel runs it on a free host (in --remote-root there) and
# copies back its database and exit code. --halt: the first failing shard stops all.
start=$SECONDS
returns=()    # (parallel warns about --return when every host is this machine)
for h in "${hostlist[@]}"; do
    [ "${h#*/}" = : ] || returns=(--return "$out/shard-{}.db" --return "$out/shard-{}.rc")
done
seq 1 "$shards" | parallel --will-cite -q -S "$hosts" -j 1 --workdir "$rroot" "${returns[@]}" \
    --halt now,fail=1 --tagstring 'shard {}' --line-buffer \
    scripts/parallel/shard.sh {} "$shards" "$key" "$out" "$full" "$rbin" "${suites[@]}"
prc=$?
[ $prc -eq 0 ] || { echo "parallel/nightly.sh: a shard failed (GNU parallel exit $prc)" >&2; exit 2; }
echo "parallel/nightly.sh: $shards shards on $hosts in $((SECONDS - start)) s; merging"

case "$out" in /*) aout=$out ;; *) aout="$root/$out" ;; esac
case "$db" in /*) ;; *) db="$root/$db" ;; esac
case "$reports" in /*) ;; *) reports="$root/$reports" ;; esac
case "$bin" in /*) lbin=$bin ;; *) lbin="$root/$bin" ;; esac
AB_ROOT="$root" AB_BIN="$lbin" AB_OUT="$aout" AB_SHARDS="$shards" AB_DB="$db" \
    AB_REPORTS="$reports" AB_FULL="$full" bash scripts/slurm/merge.sbatch
