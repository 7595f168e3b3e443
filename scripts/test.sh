#!/usr/bin/env bash
# test.sh — build arenabench with warnings as errors and the address and
# undefined-behaviour sanitizers, then run every Criterion test binary.
# Ends with one Criterion-style synthesis line over all binaries.
#
# Environment: AB_SANITIZE=0 builds without sanitizers (faster);
# AB_BUILD_DIR overrides the build folder (default build/test or build/test-nosan).
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh --test || exit 1

san="address;undefined"
dir="${AB_BUILD_DIR:-build/test}"
if [ "${AB_SANITIZE:-1}" = "0" ]; then san=""; dir="${AB_BUILD_DIR:-build/test-nosan}"; fi

cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Debug -DARENABENCH_WERROR=ON \
      -DARENABENCH_SANITIZE="$san" -DBUILD_TESTING=ON >/dev/null || exit 1
cmake --build "$dir" -j "$(nproc)" >/dev/null 2>"$dir.build.log" || { cat "$dir.build.log"; exit 1; }

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:allocator_may_return_null=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
tested=0 passing=0 failing=0 crashing=0 skipped=0 bad=0
for t in "$dir"/test_*; do
    [ -x "$t" ] || continue
    name=$(basename "$t")
    log="$dir/$name.log"
    "$t" --verbose=0 -j"$(nproc)" >"$log" 2>&1
    rc=$?
    grep -E '^\[(SKIP|FAIL)\]|Synthesis|Assertion|ERROR|runtime error' "$log" || true
    line=$(grep -E 'Synthesis: Tested:' "$log" | tail -n 1)
    # Criterion counts a test whose worker leaked or hit undefined behaviour as
    # passing (the sanitizer reports after the verdict): such a report fails it here.
    if grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$log"; then
        echo "test.sh: $name: sanitizer report (see $log)"; bad=$((bad + 1))
    fi
    if [ -z "$line" ] || [ $rc -ne 0 ]; then
        echo "test.sh: $name exited $rc"; tail -n 30 "$log"; bad=$((bad + 1))
    fi
    # [====] Synthesis: Tested: 12 | Passing: 12 | Failing: 0 | Crashing: 0
    num() { echo "$line" | sed -n "s/.*$1: *\([0-9]*\).*/\1/p"; }
    tested=$((tested + $(num Tested || echo 0)))
    passing=$((passing + $(num Passing || echo 0)))
    failing=$((failing + $(num Failing || echo 0)))
    crashing=$((crashing + $(num Crashing || echo 0)))
    skipped=$((skipped + $(grep -c '^\[SKIP\]' "$log")))
done
[ $bad -gt 0 ] && failing=$((failing + bad))
echo "test.sh: $skipped skipped (see the [SKIP] lines above for why)"
echo "[====] Synthesis: Tested: $tested | Passing: $passing | Failing: $failing | Crashing: $crashing"
[ $failing -eq 0 ] && [ $crashing -eq 0 ] && [ $tested -gt 0 ]
