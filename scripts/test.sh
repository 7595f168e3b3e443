#!/usr/bin/env bash
# test.sh — build arenabench with warnings as errors and the address and
# undefined-behaviour sanitizers, then run every Criterion test program
# (CMakeLists.txt's AB_TEST_GROUPS: the test files grouped into a few).
# Ends with one Criterion-style synthesis line over all binaries.
#
# Usage: scripts/test.sh [--long]
#   --long   the property sweeps run many more cases (AB_TEST_LONG=1 in the
#            tests' environment, read by tests/support.c's abt_cases): minutes
#            more; not for CI. Without it, on an idle 2-vCPU VM, a clean
#            clone took 341 s at stop 41 with only the required packages
#            (365 s with MiniZinc and Chromium, whose tests then run; 678 s
#            before stop 37), build included (README, Tests); no test
#            depends on the machine's speed.
#
# Counting (the synthesis line): Criterion's own counts per binary (its Failing
# includes its Crashing); then, per binary, what Criterion did not count, once:
#   * no synthesis line (the binary itself crashed or was killed): 1 failing
#     and 1 crashing;
#   * sanitizer reports (AddressSanitizer, LeakSanitizer, UBSan; Criterion
#     counts a worker that reports after its verdict as passing) beyond one per
#     failing test (a failed assertion leaves its allocations to LeakSanitizer):
#     1 failing per extra report;
#   * a non-zero exit with none of the above: 1 failing.
# So one failing test counts 1.
#
# Environment: AB_SANITIZE=0 builds without sanitizers (faster);
# AB_BUILD_DIR overrides the build folder (default build/test or build/test-nosan);
# AB_TEST_BINARIES sets how many test binaries run side by side (default: the
# number of cores).
set -uo pipefail
cd "$(dirname "$0")/.."

case "${1:-}" in
    "") ;;
    --long) export AB_TEST_LONG=1 ;;
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "test.sh: unknown option '$1' (usage: scripts/test.sh [--long])" >&2; exit 2 ;;
esac

scripts/deps.sh --test || exit 1

san="address;undefined"
dir="${AB_BUILD_DIR:-build/test}"
if [ "${AB_SANITIZE:-1}" = "0" ]; then san=""; dir="${AB_BUILD_DIR:-build/test-nosan}"; fi

echo "test.sh: building the tests in $dir (${san:-no sanitizers}, -Werror), $(nproc) jobs" >&2
b0=$(date +%s)
# -O1 (the sanitizers' advice for tolerable speed; asserts stay on): on an
# idle 2-vCPU VM, clean clones, the build took 122 s against 66 s at -O0,
# and the tests 380 s against 460 s: 542 s in all against 568 s. -g1: line
# tables and function names, all a sanitizer's stack trace shows, without
# the variables' descriptions (about 12% less compile time than -g).
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-g1 -O1" -DARENABENCH_WERROR=ON \
      -DARENABENCH_SANITIZE="$san" -DBUILD_TESTING=ON >/dev/null || exit 1
cmake --build "$dir" -j "$(nproc)" >/dev/null 2>"$dir.build.log" || { cat "$dir.build.log"; exit 1; }
echo "test.sh: built in $(( $(date +%s) - b0 )) s" >&2

# The libFuzzer harnesses (fuzz/), for tests/test_fuzz_smoke.c (the program
# tests_fuzz): only when clang is present (the test skips otherwise), and only
# the fuzz targets. The build runs beside the other test programs (they leave
# the cores idle while their tests wait on children and clocks), and
# tests_fuzz starts once it is done.
fuzz_pid="" fuzz_rc="$dir.fuzz-build.rc"
rm -f "$fuzz_rc"
if command -v clang >/dev/null; then
    echo "test.sh: building the fuzz targets with clang in build-fuzz, beside the tests" >&2
    (
        f0=$(date +%s)
        mkdir -p build-fuzz
        cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
              -DARENABENCH_FUZZ=ON -DARENABENCH_WERROR=ON -DBUILD_TESTING=OFF >build-fuzz/build.log 2>&1 &&
            cmake --build build-fuzz -j "$(nproc)" --target fuzzers >>build-fuzz/build.log 2>&1
        rc=$?
        echo "test.sh: built the fuzz targets in $(( $(date +%s) - f0 )) s (exit $rc)" >&2
        echo $rc >"$fuzz_rc"
    ) &
    fuzz_pid=$!
    export AB_FUZZ_DIR="$PWD/build-fuzz"
else
    echo "test.sh: no clang: the fuzz smoke tests are skipped (fuzz/README.md)"
fi

# The tests' temporary folders (tests/support.c's abt_tmpdir, about a thousand
# a run) go into one folder of their own, removed when this script ends, so a
# run leaves nothing in the caller's TMPDIR. It is searchable by all (755), as
# /tmp is: munged, started by the Slurm selftest, refuses a socket below a
# folder that is not.
scratch=$(mktemp -d "${TMPDIR:-/tmp}/arenabench-test.XXXXXX") || exit 1
trap 'rm -rf "$scratch"' EXIT
chmod 755 "$scratch" || exit 1
export TMPDIR="$scratch"

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:allocator_may_return_null=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

# The number in "Name: N" of a synthesis line, 0 when absent.
num() { local v; v=$(echo "$1" | sed -n "s/.*$2: *\([0-9]*\).*/\1/p"); echo "${v:-0}"; }

# Sanitizer reports in a log: one per process that wrote ASan/LSan's
# "==PID==ERROR:" line, plus one per UBSan "runtime error:".
reports() {
    local asan ubsan
    asan=$(grep -oE '^==[0-9]+==ERROR: (Address|Leak)Sanitizer' "$1" | cut -d= -f3 | sort -u | wc -l)
    ubsan=$(grep -c 'runtime error:' "$1")
    echo $((asan + ubsan))
}

# The binaries run AB_TEST_BINARIES at a time (default: the number of cores),
# each with Criterion's -j<cores> workers: a binary of a few tests leaves
# cores idle, so two side by side fill them. Each writes its log, its exit
# status and its wall seconds; the logs are read in name order afterwards, so
# the output and the counts do not depend on which one finished first.
# Longest first (the times of the previous run in this build folder, when
# there is one), so a long binary does not start last.
par="${AB_TEST_BINARIES:-$(nproc)}"
times="$dir/test-times.txt"
order() {
    local t
    for t in "$dir"/tests_*; do
        [ -x "$t" ] || continue
        local n s
        n=$(basename "$t")
        s=$(awk -v n="$n" '$1 == n { print $2 }' "$times" 2>/dev/null)
        echo "${s:-0} $t"
    done | sort -k1,1nr -k2,2 | cut -d' ' -f2-
}
run_one() {
    local t=$1 name log t0
    name=$(basename "$t")
    log="$dir/$name.log"
    t0=$SECONDS
    "$t" --verbose=0 -j"$(nproc)" >"$log" 2>&1
    local rc=$?
    echo $rc >"$log.rc"
    echo $((SECONDS - t0)) >"$log.secs"
    echo "test.sh: ran $name in $((SECONDS - t0)) s (exit $rc)" >&2
}
# The test programs running now (the fuzz build is not one).
running() {
    local n=0 p
    for p in $(jobs -rp); do [ "$p" = "$fuzz_pid" ] || n=$((n + 1)); done
    echo $n
}
# tests_fuzz, once the fuzz build has ended; exits when that build failed.
fuzz_started=""
start_fuzz_tests() {
    [ -n "$fuzz_started" ] && return
    fuzz_started=1
    if [ -n "$fuzz_pid" ]; then
        wait "$fuzz_pid"
        if [ "$(cat "$fuzz_rc" 2>/dev/null)" != "0" ]; then
            cat build-fuzz/build.log
            echo "test.sh: the fuzz targets did not build (build-fuzz/build.log above)" >&2
            wait
            exit 1
        fi
    fi
    rm -f "$dir/tests_fuzz.log.rc" "$dir/tests_fuzz.log.secs"
    run_one "$dir/tests_fuzz" &
}
start=$SECONDS
nbin=$(order | wc -l)
echo "test.sh: running $nbin test binaries, $par at a time" >&2
while IFS= read -r t; do
    if [ "$(basename "$t")" = tests_fuzz ]; then continue; fi
    rm -f "$dir/$(basename "$t").log.rc" "$dir/$(basename "$t").log.secs"
    while [ "$(running)" -ge "$par" ]; do
        wait -n
        if [ -s "$fuzz_rc" ] || [ -z "$fuzz_pid" ]; then start_fuzz_tests; fi
    done
    run_one "$t" &
done < <(order)
start_fuzz_tests
wait
: >"$times.new"

tested=0 passing=0 failing=0 crashing=0 skipped=0
for t in "$dir"/tests_*; do
    [ -x "$t" ] || continue
    name=$(basename "$t")
    log="$dir/$name.log"
    rc=$(cat "$log.rc" 2>/dev/null || echo 255)
    secs=$(cat "$log.secs" 2>/dev/null || echo 0)
    echo "$name $secs" >>"$times.new"
    grep -E '^\[(SKIP|FAIL)\]|Synthesis|Assertion|ERROR|runtime error' "$log" || true
    line=$(grep -E 'Synthesis: Tested:' "$log" | tail -n 1)
    skipped=$((skipped + $(grep -c '^\[SKIP\]' "$log")))
    if [ -z "$line" ]; then
        echo "test.sh: $name exited $rc without a synthesis: counted as 1 crashing (see $log)"
        tail -n 30 "$log"
        tested=$((tested + 1)) failing=$((failing + 1)) crashing=$((crashing + 1))
        continue
    fi
    # [====] Synthesis: Tested: 12 | Passing: 12 | Failing: 0 | Crashing: 0
    f=$(num "$line" Failing)
    tested=$((tested + $(num "$line" Tested)))
    passing=$((passing + $(num "$line" Passing)))
    failing=$((failing + f))
    crashing=$((crashing + $(num "$line" Crashing)))
    extra=$(( $(reports "$log") - f ))
    if [ $extra -gt 0 ]; then
        echo "test.sh: $name: $extra sanitizer report(s) beyond its failing tests: counted as failing (see $log)"
        tested=$((tested + extra)) failing=$((failing + extra))
    elif [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "test.sh: $name exited $rc with no failing test: counted as 1 failing (see $log)"
        tail -n 30 "$log"
        tested=$((tested + 1)) failing=$((failing + 1))
    fi
    echo "test.sh: $name: $secs s"
done
mv "$times.new" "$times"
echo "test.sh: $skipped skipped (see the [SKIP] lines above for why)${AB_TEST_LONG:+; long mode (AB_TEST_LONG=1)}"
echo "test.sh: the tests took $((SECONDS - start)) s"
echo "[====] Synthesis: Tested: $tested | Passing: $passing | Failing: $failing | Crashing: $crashing"
[ $failing -eq 0 ] && [ $crashing -eq 0 ] && [ $tested -gt 0 ]
