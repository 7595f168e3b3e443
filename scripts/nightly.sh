#!/usr/bin/env bash
# nightly.sh — the main job: build arenabench in Release, run the default
# planners (ours and the peers': tflm-greedy, usmp-greedy-by-size,
# usmp-greedy-by-conflicts, tflite-gpu-greedy-by-size, xla-best-fit,
# executorch-greedy; executorch-naive, which reuses nothing, and usmp-hill-climb, a
# minute on 10k tensors, only with --full) over the default suites into
# out/arenabench.db (tag nightly),
# compare with the previous nightly, and write out/report.md and
# out/report.html.
#
# Exits non-zero when a plan is invalid, a planner crashed or errored, an
# arena fell below a suite's known optimum (exit 1 from run), or compare
# found a regression against the previous nightly (exit 1 from compare).
#
# The default run also runs the exact planners, each on a deterministic budget
# with time only as a safety cap, so its rows do not depend on the machine's
# load: exact cover (100k search nodes, 30 s CPU cap), the canonical search
# (150k nodes, 45 s CPU cap: random-10k, the only suite it does not finish,
# stops at 150k nodes, about 17 s, before the cap), the subset lower bound
# (windows around the peaks solved by GLPK, 200 branch-and-bound nodes a
# window, 30 s cap) and the ILP (GLPK, 2000 branch-and-bound nodes, 40 s cap)
# on suites of at most 300 arena tensors. A row its cap stopped says capped:
# time, and compare lists it apart (an ok row turned timeout by the wall
# clock, with CPU to spare: "capped under load", not a regression).
# Every job is limited by its CPU time (60 s, --cpu-limit), not the wall
# clock, which is only a safety cap (600 s): a busy machine does not turn a
# row into a timeout. A job the safety cap stopped all the same, with less
# than 90% of it in CPU, is run again alone once the others are done
# (--rerun-wall-capped), and its row says so. Fast planners are run 3 times (or for 0.5 s) and keep
# min, median and max.
# Proofs of optimality that disagree (exact cover and canonical at k = 1, ILP,
# lower bound) fail the run, and every gap in the report is measured against
# the best proven bound. The coarsening trade-off (exact cover at several k,
# drawn in the HTML report) is a separate run: see README.md, "Coarsening".
#
# Usage: scripts/nightly.sh [--full] [SUITE_OR_DIR...]
#   --full   every planner (--planners all) with longer limits
#   default suites: every folder of suites/ (examples, models, peers, generated,
#   real: idealloc's traces, about 45 s of the nightly's run on 2 cores)
# Environment: AB_DB (default out/arenabench.db), AB_JOBS (default: CPUs).
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh || exit 1

full=0
args=()
for a in "$@"; do
    case "$a" in
        --full) full=1 ;;
        -h|--help) sed -n '2,40p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) args+=("$a") ;;
    esac
done
[ ${#args[@]} -eq 0 ] && args=(suites)

dir=build/release
echo "nightly.sh: building arenabench (Release) in $dir, $(nproc) jobs: about a minute the first time" >&2
b0=$(date +%s)
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null || exit 3
cmake --build "$dir" -j "$(nproc)" >/dev/null || exit 3
echo "nightly.sh: built in $(( $(date +%s) - b0 )) s; running the default suites" >&2
ab="$dir/arenabench"

db="${AB_DB:-out/arenabench.db}"
mkdir -p "$(dirname "$db")" out
. scripts/nightly-args.sh    # planners, limits, tag (shared with scripts/slurm, scripts/parallel)

start=$(date +%s)
"$ab" run --db "$db" --tag "$tag" -j "${AB_JOBS:-$(nproc)}" "${planners[@]}" "${limits[@]}" "${args[@]}"
run_rc=$?
[ $run_rc -ge 2 ] && { echo "nightly.sh: run failed (exit $run_rc)" >&2; exit $run_rc; }

"$ab" report --db "$db" --run latest --format md -o out/report.md || exit 3
"$ab" report --db "$db" --run latest --format html -o out/report.html || exit 3

# The compare is kept beside the reports (out/compare.md): the report says
# what this run did, the compare whether it regressed; rows a busy machine's
# wall clock stopped are listed there apart ("capped under load"), not failed.
"$ab" compare --db "$db" --tag "$tag" | tee out/compare.md
cmp_rc=${PIPESTATUS[0]}
end=$(date +%s)
echo "nightly.sh: $((end - start)) s; reports in out/report.md and out/report.html, the compare in out/compare.md"
[ $run_rc -ne 0 ] && echo "nightly.sh: the run found invalid plans or failing planners (see above)" >&2
[ $cmp_rc -eq 1 ] && echo "nightly.sh: compare found regressions against the previous nightly" >&2
[ $cmp_rc -ge 2 ] && { echo "nightly.sh: compare failed (exit $cmp_rc)" >&2; exit $cmp_rc; }
if [ $run_rc -eq 0 ] && [ $cmp_rc -eq 0 ]; then
    echo "nightly.sh: verdict: passed (run exit 0, compare exit 0)"
else
    echo "nightly.sh: verdict: FAILED (run exit $run_rc, compare exit $cmp_rc)" >&2
fi
[ $run_rc -eq 0 ] && [ $cmp_rc -eq 0 ]
