#!/usr/bin/env bash
# submit.sh — the nightly on a Slurm cluster: submits scripts/slurm/nightly.sbatch
# as an array job of N shards (--array=1-N, each `arenabench run --shard I/N` into
# its own database), then scripts/slurm/merge.sbatch with
# --dependency=afterok:<array job> (merge, report, compare), and prints the two
# job ids. Planners, limits and tag are scripts/nightly.sh's (scripts/nightly-args.sh).
#
# Usage: scripts/slurm/submit.sh [--shards N] [--cpus C] [--full] [--bin PATH]
#                                [--out DIR] [--db F] [--reports DIR] [SUITE_OR_DIR...]
#   --shards N     array tasks, one shard each (default 4)
#   --cpus C       CPUs per shard (sbatch --cpus-per-task; run -j C) (default 2)
#   --full         nightly.sh --full's planners and limits (tag nightly-full)
#   --bin PATH     the arenabench binary to run (default: build it in build/release)
#   --out DIR      shard databases and job logs (default out/slurm/<run key>)
#   --db F         the merged database (default $AB_DB or out/arenabench.db)
#   --reports DIR  where the merge job writes report.md and report.html (default out)
#   SUITE_OR_DIR   relative to the repository, as for nightly.sh (default suites)
# The repository, the binary and the output folders must be on a file system every
# node sees. Other sbatch options come from sbatch's own environment variables
# (SBATCH_PARTITION, SBATCH_ACCOUNT, SBATCH_TIMELIMIT, ...).
# Prints: "array job A" and "merge job M" (stdout); the merge job's exit code is
# the nightly's verdict (see merge.sbatch). Exit status: 0 submitted; 2 bad usage;
# 3 the build or sbatch failed.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"

usage() { echo "submit.sh: $1 (usage: scripts/slurm/submit.sh [--shards N] [--cpus C] [--full] [--bin PATH] [--out DIR] [--db F] [--reports DIR] [SUITE_OR_DIR...])" >&2; exit 2; }
abspath() { case "$1" in /*) echo "$1" ;; *) echo "$root/$1" ;; esac; }
posint() { [[ "$2" =~ ^[1-9][0-9]{0,4}$ ]] || usage "$1 expects a positive integer, got '$2'"; }

shards=4 cpus=2 full=0 bin="" out="" db="${AB_DB:-out/arenabench.db}" reports=out
suites=()
while [ $# -gt 0 ]; do
    case "$1" in
        --shards) [ $# -ge 2 ] || usage "--shards needs a value"; posint --shards "$2"; shards=$2; shift 2 ;;
        --cpus) [ $# -ge 2 ] || usage "--cpus needs a value"; posint --cpus "$2"; cpus=$2; shift 2 ;;
        --full) full=1; shift ;;
        --bin) [ $# -ge 2 ] || usage "--bin needs a value"; bin=$2; shift 2 ;;
        --out) [ $# -ge 2 ] || usage "--out needs a value"; out=$2; shift 2 ;;
        --db) [ $# -ge 2 ] || usage "--db needs a value"; db=$2; shift 2 ;;
        --reports) [ $# -ge 2 ] || usage "--reports needs a value"; reports=$2; shift 2 ;;
        -h|--help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        --) shift; suites+=("$@"); break ;;
        -*) usage "unknown option '$1'" ;;
        *) suites+=("$1"); shift ;;
    esac
done
[ ${#suites[@]} -eq 0 ] && suites=(suites)
for s in "${suites[@]}"; do [ -e "$s" ] || usage "no such suite or folder: $s"; done
command -v sbatch >/dev/null || { echo "submit.sh: sbatch not found (is Slurm's client installed?)" >&2; exit 3; }

if [ -z "$bin" ]; then
    dir=build/release
    cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null || exit 3
    cmake --build "$dir" -j "$(nproc)" >/dev/null || exit 3
    bin="$dir/arenabench"
fi
bin=$(abspath "$bin")
[ -x "$bin" ] || usage "not an executable: $bin"

key="slurm-$(date -u +%Y%m%dT%H%M%SZ)-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
out=$(abspath "${out:-out/slurm/$key}")
mkdir -p "$out" || exit 3
common="ALL,AB_ROOT=$root,AB_BIN=$bin,AB_OUT=$out,AB_FULL=$full"
for p in "$root" "$bin" "$out" "$(abspath "$db")" "$(abspath "$reports")"; do
    case "$p" in *,*) usage "a path with a comma cannot be exported to the jobs: $p" ;; esac
done

array=$(sbatch --parsable --array="1-$shards" --cpus-per-task="$cpus" --chdir="$root" \
        --export="$common,AB_RUN_KEY=$key" -o "$out/shard-%a.log" \
        scripts/slurm/nightly.sbatch "${suites[@]}") ||
    { echo "submit.sh: sbatch of the array job failed" >&2; exit 3; }
array=${array%%;*}
merge=$(sbatch --parsable --dependency="afterok:$array" --kill-on-invalid-dep=yes --chdir="$root" \
        --export="$common,AB_SHARDS=$shards,AB_DB=$(abspath "$db"),AB_REPORTS=$(abspath "$reports")" \
        -o "$out/merge.log" scripts/slurm/merge.sbatch) ||
    { echo "submit.sh: sbatch of the merge job failed; cancel the array job with: scancel $array" >&2; exit 3; }
merge=${merge%%;*}
echo "array job $array"
echo "merge job $merge"
echo "submit.sh: $shards shards of run key $key; logs and shard databases in $out" >&2
