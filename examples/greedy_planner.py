#!/usr/bin/env python3
"""A planner for arenabench's `external` protocol, in plain Python (no packages).

    arenabench plan -p "external:cmd='python3 examples/greedy_planner.py {input} {output}',name=py-greedy" SUITE

The protocol (README.md, "Your own planner"):
  input   MiniMalloc CSV, a header then one row per tensor:
              id,lower,upper,size[,alignment][,offset]
          id is the tensor's name; [lower, upper) is its live range, half-open
          (upper = the suite's inclusive end + 1); alignment, when present, is
          a power of two the offset must be a multiple of; offset, when
          present and not empty, is a fixed offset the plan must keep.
  output  CSV with a header naming at least `id` and `offset`, one row per
          input id (other columns are ignored).
  exit    0 when the output is written; non-zero says "no plan" (with
          capacity=bisect: "not at this capacity").
A capacity, when the command names {capacity}, is an extra argument; this
planner ignores it and returns its plan (arenabench checks it against the
capacity).

The method: fixed tensors first, then the others by decreasing size (ties by
longer life, then input order), each at the lowest aligned offset where it
overlaps no placed tensor that is live at the same time: greedy by size,
first fit.
"""
import csv
import sys


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    head = [h.strip() for h in rows[0]]
    col = {name: i for i, name in enumerate(head)}
    tensors = []
    for k, r in enumerate(rows[1:]):
        if not r or all(not x.strip() for x in r):
            continue
        align = int(r[col["alignment"]]) if "alignment" in col and r[col["alignment"]].strip() else 1
        fixed = r[col["offset"]].strip() if "offset" in col else ""
        tensors.append({
            "id": r[col["id"]].strip(),
            "lower": int(r[col["lower"]]),
            "upper": int(r[col["upper"]]),
            "size": int(r[col["size"]]),
            "align": max(align, 1),
            "fixed": int(fixed) if fixed else None,
            "index": k,
        })
    return tensors


def plan(tensors):
    placed = []  # (lower, upper, offset, end)
    order = sorted(tensors, key=lambda t: (t["fixed"] is None, -t["size"],
                                           -(t["upper"] - t["lower"]), t["index"]))
    for t in order:
        if t["fixed"] is not None:
            t["offset"] = t["fixed"]
        else:
            live = sorted((p for p in placed if p[0] < t["upper"] and t["lower"] < p[1]),
                          key=lambda p: p[2])
            off = 0
            for p in live:
                off = -(-off // t["align"]) * t["align"]
                if off + t["size"] <= p[2]:
                    break
                off = max(off, p[3])
            t["offset"] = -(-off // t["align"]) * t["align"]
        placed.append((t["lower"], t["upper"], t["offset"], t["offset"] + t["size"]))
    return tensors


def main():
    if len(sys.argv) < 3:
        print("usage: greedy_planner.py INPUT OUTPUT [CAPACITY]", file=sys.stderr)
        return 2
    tensors = plan(read(sys.argv[1]))
    with open(sys.argv[2], "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "lower", "upper", "size", "offset"])
        for t in tensors:
            w.writerow([t["id"], t["lower"], t["upper"], t["size"], t["offset"]])
    return 0


if __name__ == "__main__":
    sys.exit(main())
