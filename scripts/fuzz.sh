#!/usr/bin/env bash
# fuzz.sh — build the libFuzzer harnesses of fuzz/ with clang (in build-fuzz/)
# and run each for a while, one after the other, printing per harness its
# executions, coverage (cov: edges, ft: features) and crashes.
#
# Usage: scripts/fuzz.sh [--time S] [--runs N] [--no-build] [NAME...]
#   --time S     seconds per harness (default 60)
#   --runs N     stop a harness after N executions too (default: no limit)
#   --no-build   run the harnesses already in build-fuzz/ as they are
#   NAME       harnesses to run (default all): tflite onnx suite minimalloc plan_csv spec
#
# Each harness starts from fuzz/seeds/NAME/ and its corpus build-fuzz/corpus/NAME/
# (kept between runs, not in git), with the dictionary fuzz/dict/NAME.dict.
# A crash, timeout (60 s an input), leak or out-of-memory (2 GB) stops the
# harness and its input is saved as fuzz/regressions/NAME/crash-<sha1> (or
# timeout-, leak-, oom-): fix the bug, then give the file a name saying what it
# was; tests/test_fuzz_smoke.c replays every file there through every harness.
# Exit status: 0 no crash, 1 a crash in some harness, 2 bad usage, 3 the build
# failed. Needs clang and libclang-rt-14-dev (fuzz/README.md): when clang is
# missing and we are root, they are installed with apt-get.
set -uo pipefail
cd "$(dirname "$0")/.."

all=(tflite onnx suite minimalloc plan_csv spec)
time=60 runs=-1 build=1 names=()
while [ $# -gt 0 ]; do
    case "$1" in
        --time) [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: --time needs a positive number of seconds" >&2; exit 2; }
                time=$2; shift 2 ;;
        --runs) [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: --runs needs a positive count" >&2; exit 2; }
                runs=$2; shift 2 ;;
        --no-build) build=0; shift ;;
        -h|--help) sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "fuzz.sh: unknown option '$1' (usage: scripts/fuzz.sh [--time S] [--runs N] [--no-build] [NAME...])" >&2; exit 2 ;;
        *) found=0
           for a in "${all[@]}"; do [ "$a" = "$1" ] && found=1; done
           [ $found = 1 ] || { echo "fuzz.sh: unknown harness '$1' (harnesses: ${all[*]})" >&2; exit 2; }
           names+=("$1"); shift ;;
    esac
done
[ ${#names[@]} -gt 0 ] || names=("${all[@]}")

dir=build-fuzz
if [ $build = 1 ]; then
    if ! command -v clang >/dev/null; then
        if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
            echo "fuzz.sh: installing clang and libclang-rt-14-dev with apt-get"
            apt-get install -y clang libclang-rt-14-dev >/dev/null || { echo "fuzz.sh: apt-get failed" >&2; exit 3; }
        else
            echo "fuzz.sh: clang is missing: apt-get install clang libclang-rt-14-dev (as root)" >&2
            exit 3
        fi
    fi

    cmake -S . -B "$dir" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
          -DARENABENCH_FUZZ=ON -DARENABENCH_WERROR=ON -DBUILD_TESTING=OFF >/dev/null || exit 3
    targets=()
    for n in "${names[@]}"; do targets+=(--target "fuzz_$n"); done
    cmake --build "$dir" -j "$(nproc)" "${targets[@]}" >"$dir/build.log" 2>&1 || { cat "$dir/build.log"; exit 3; }
fi
for n in "${names[@]}"; do
    [ -x "$dir/fuzz_$n" ] || { echo "fuzz.sh: $dir/fuzz_$n is not built" >&2; exit 3; }
done

crashed=0
printf '%-11s %12s %8s %8s %8s %8s  %s\n' harness executions seconds cov ft corpus crashes
for n in "${names[@]}"; do
    mkdir -p "$dir/corpus/$n" "fuzz/regressions/$n"
    log="$dir/$n.log"
    before=$(ls "fuzz/regressions/$n" | wc -l)
    t0=$SECONDS
    "$dir/fuzz_$n" -max_total_time="$time" -runs="$runs" -timeout=60 -report_slow_units=30 -rss_limit_mb=2048 \
        -print_final_stats=1 -dict="fuzz/dict/$n.dict" -artifact_prefix="fuzz/regressions/$n/" \
        "$dir/corpus/$n" "fuzz/seeds/$n" >"$log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -n 1)
    cov=$(echo "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
    ft=$(echo "$last" | sed -n 's/.*ft: \([0-9]*\).*/\1/p')
    corp=$(echo "$last" | sed -n 's/.*corp: \([0-9]*\).*/\1/p')
    new=$(( $(ls "fuzz/regressions/$n" | wc -l) - before ))
    if [ $rc -ne 0 ] || [ $new -gt 0 ]; then
        crashed=1
        [ -n "$execs" ] || execs=$(echo "$last" | sed -n 's/^#\([0-9]*\).*/\1/p')
    fi
    printf '%-11s %12s %8s %8s %8s %8s  %s\n' "$n" "${execs:-?}" $((SECONDS - t0)) "${cov:-?}" \
        "${ft:-?}" "${corp:-?}" "$([ $rc -ne 0 ] || [ $new -gt 0 ] && echo "1 (exit $rc; see $log)" || echo 0)"
    if [ $rc -ne 0 ] || [ $new -gt 0 ]; then
        grep -E 'ERROR|runtime error|round trip|unexpected|differs|Test unit written' "$log" | head -n 5 | sed 's/^/    /'
    fi
done
exit $crashed
