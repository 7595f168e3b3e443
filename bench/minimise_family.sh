#!/bin/sh
# minimise_family.sh — canonical minimising with and without a parameter, on
# a list of the family's instances (bench_family gen), side by side.
#
#   bench/minimise_family.sh DIR LIST BUDGET [OTHER] > rows.txt
#   bench/minimise_family.sh --table rows.txt
#
# DIR is a directory written by `bench_family gen`; LIST names one of its
# files a line (bench/minimise_sample.txt is the 84 of bench/README.md,
# "Merged successions"). Each instance is minimised by bench_canonical with
# `-b BUDGET` and with `-b BUDGET,OTHER` (default OTHER: merge=off), one after
# the other; budgets should be nodes= so that the rows do not depend on the
# machine. A row: file | result nodes cpu | result nodes cpu, where a result
# is the proven optimum or [bound,best]. --table summarises rows per
# subfamily (the name up to its first '-'): how many each proved optimal,
# how many bests the first is better, worse or equal on, the mean gap
# best / bound - 1 of each, and the first's worst instance against the
# second.
#
# BC names bench_canonical (default: build-release/bench_canonical beside
# this script's folder).
set -eu

if [ "${1:-}" = "--table" ]; then
    [ $# -eq 2 ] || { echo "usage: $0 --table ROWS" >&2; exit 2; }
    awk -F'|' '
    function parse(f, r,   a) {
        gsub(/^ +| +$/, "", f); split(f, a, " "); r = a[1]
        if (substr(r, 1, 1) == "[") { gsub(/[\[\]]/, "", r); split(r, a, ","); LB = a[1]; UB = a[2]; OPT = 0 }
        else { LB = r; UB = r; OPT = 1 }
    }
    NF >= 3 {
        name = $1; gsub(/ /, "", name); split(name, s, "-"); sub_ = s[1]
        if (!(sub_ in n)) order[++k] = sub_
        parse($2); l1 = LB; u1 = UB; o1 = OPT
        parse($3); l2 = LB; u2 = UB; o2 = OPT
        n[sub_]++; p1[sub_] += o1; p2[sub_] += o2
        if (u1 < u2) better[sub_]++; else if (u1 > u2) worse[sub_]++; else same[sub_]++
        g1[sub_] += u1 / l1 - 1; g2[sub_] += u2 / l2 - 1
        if (u1 / u2 > w[sub_] + 0) { w[sub_] = u1 / u2; wn[sub_] = name }
    }
    END {
        print "| subfamily | instances | proven optimal: first / second | first better | worse | equal | mean gap, first | mean gap, second | worst of the first |"
        print "|---|---|---|---|---|---|---|---|---|"
        for (i = 1; i <= k; i++) {
            s_ = order[i]
            wv = (w[s_] > 1) ? sprintf("%s %+.2f%%", wn[s_], 100 * (w[s_] - 1)) : "-"
            printf "| %s | %d | %d / %d | %d | %d | %d | %.2f%% | %.2f%% | %s |\n", s_, n[s_], p1[s_], p2[s_],
                better[s_], worse[s_], same[s_], 100 * g1[s_] / n[s_], 100 * g2[s_] / n[s_], wv
        }
    }' "$2"
    exit 0
fi

[ $# -ge 3 ] || { echo "usage: $0 DIR LIST BUDGET [OTHER] | $0 --table ROWS" >&2; exit 2; }
dir=$1 list=$2 budget=$3 other=${4:-merge=off}
bc=${BC:-$(dirname "$0")/../build-release/bench_canonical}
[ -x "$bc" ] || { echo "$0: no bench_canonical at $bc (build-release, or set BC)" >&2; exit 2; }
one() { # FILE SPEC -> result nodes cpu
    "$bc" -b "$2" "$1" 2>&1 | tail -n 1 |
        awk '{ if (substr($3, 1, 1) == "[") print $3 $4, $7, $6; else print $3, $6, $5 }'
}
while IFS= read -r f; do
    [ -n "$f" ] || continue
    [ -f "$dir/$f" ] || { echo "$0: $dir/$f: no such instance (bench_family gen $dir)" >&2; exit 2; }
    echo "$f | $(one "$dir/$f" "$budget") | $(one "$dir/$f" "$budget,$other")"
done < "$list"
