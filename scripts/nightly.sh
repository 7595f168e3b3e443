#!/usr/bin/env bash
# nightly.sh — build arenabench in Release and plan every example suite with
# every planner, checking each plan with the oracle; prints a table and writes
# it to results/report.md. Exits 1 when a plan is invalid, misses its suite's
# expectations, or a planner fails.
#
# (Today this drives `arenabench plan`; the harness-runs issue turns it into
#  `arenabench run` into SQLite with compare against the previous night.)
#
# Usage: scripts/nightly.sh [SUITE_DIR...]   (default: suites/examples)
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh || exit 1

dir=build/release
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null || exit 3
cmake --build "$dir" -j "$(nproc)" >/dev/null || exit 3
ab="$dir/arenabench"

dirs=("$@")
[ ${#dirs[@]} -eq 0 ] && dirs=(suites/examples)
mapfile -t suites < <(find "${dirs[@]}" -name '*.yaml' -type f | LC_ALL=C sort)
mapfile -t planners < <("$ab" planners | awk '/^[a-z]/ {print $1}')

mkdir -p results
report=results/report.md
fail=0
{
    echo "# arenabench nightly — $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo
    echo "Revision $(git rev-parse --short HEAD 2>/dev/null || echo unknown), host $(hostname)."
    echo
    echo "| suite | planner | arena | lower bound | gap | check |"
    echo "|---|---|---:|---:|---:|---|"
} >"$report"

for s in "${suites[@]}"; do
    for p in "${planners[@]}"; do
        out=$("$ab" plan -p "$p" "$s" 2>&1)
        rc=$?
        arena=$(echo "$out" | awk '$1 == "arena" {print $2}')
        bound=$(echo "$out" | awk '$1 == "bound" {print $2}')
        gap=$(echo "$out" | awk '$1 == "gap" {print $2}')
        check=$(echo "$out" | awk '$1 == "check" {$1 = ""; print substr($0, 2)}')
        if [ $rc -ne 0 ]; then
            fail=1
            check="FAILED (exit $rc): $(echo "$out" | grep -E 'arenabench:|INVALID' | head -n 2 | tr '\n' ' ')"
        fi
        echo "| $(basename "$s" .yaml) | $p | ${arena:--} | ${bound:--} | ${gap:--} | ${check:--} |" >>"$report"
    done
done

cat "$report"
echo
echo "nightly.sh: report written to $report"
[ $fail -eq 0 ] || { echo "nightly.sh: some plans failed (see the table)" >&2; exit 1; }
