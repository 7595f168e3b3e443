#!/usr/bin/env bash
# shard.sh — one shard of the nightly on one host, for scripts/parallel/nightly.sh
# (GNU parallel runs it on each host, in the repository's folder there):
#   shard.sh I N RUN_KEY OUT FULL BIN SUITE_OR_DIR...
# runs `BIN run --shard I/N --run-key RUN_KEY --db OUT/shard-I.db` with
# nightly.sh's planners and limits (scripts/nightly-args.sh; FULL 1 for --full),
# writing OUT/shard-I.db.part and renaming it into place, and OUT/shard-I.rc (the
# run's exit code) when the run ends with 0 or 1. Exit status: 0 then; the run's
# code (2 or 3) otherwise; 2 bad usage.
set -uo pipefail
[ $# -ge 7 ] || { echo "shard.sh: usage: shard.sh I N RUN_KEY OUT FULL BIN SUITE_OR_DIR..." >&2; exit 2; }
i=$1 n=$2 key=$3 out=$4 full=$5 bin=$6
shift 6
[[ "$i" =~ ^[1-9][0-9]*$ && "$n" =~ ^[1-9][0-9]*$ ]] && [ "$i" -le "$n" ] ||
    { echo "shard.sh: bad shard '$i/$n'" >&2; exit 2; }
[ -x "$bin" ] || { echo "shard.sh: $(hostname -s): not an executable: $bin" >&2; exit 2; }
. scripts/nightly-args.sh || exit 2
mkdir -p "$out" || exit 3
db="$out/shard-$i.db"
rm -f "$db.part" "$db.part-journal" "$db.part-wal" "$db.part-shm"
echo "shard.sh: shard $i/$n on $(hostname -s), run key $key" >&2
"$bin" run -q --db "$db.part" --tag "$tag" --run-key "$key" --shard "$i/$n" \
    -j "${AB_JOBS:-$(nproc)}" "${planners[@]}" "${limits[@]}" "$@"
rc=$?
[ $rc -ge 2 ] && { rm -f "$db.part"; echo "shard.sh: shard $i/$n: run failed (exit $rc)" >&2; exit $rc; }
echo $rc > "$out/shard-$i.rc.part" && mv -f "$out/shard-$i.rc.part" "$out/shard-$i.rc" &&
    mv -f "$db.part" "$db" || { echo "shard.sh: cannot write $db" >&2; exit 3; }
echo "shard.sh: shard $i/$n done on $(hostname -s) (run exit $rc)" >&2
