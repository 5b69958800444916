#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""ab-compare.py -- two builds of a tool against each other, from the
--json files of repeated short bench runs (each run measures the tool
against its peers in pairs, so the peers' ratios take out the drift
between runs).

  # old and new build, alternating, a few times each:
  bench/sync-write-bench.py --quick --sync-write OLD/tools/sync-write --json old-1.json
  bench/sync-write-bench.py --quick --sync-write NEW/tools/sync-write --json new-1.json
  ...
  bench/ab-compare.py sync-write 'old-*.json' 'new-*.json'

  bench/ab-compare.py dio-dd 'ddold-*.json' 'ddnew-*.json'   (dio-dd-bench.py)

For every row it prints the tool's ratio against its peer (median over the
runs of each run's own figure) for both builds and new/old, then the
geometric mean of new/old over the rows (for sync-write oriented so that
above 1 is faster, as for dio-dd).  Reading it: with --quick the single
rows move by 10-20% between runs; the mean over the rows is what says
whether a build is slower.
"""
import glob
import json
import statistics as st
import sys


def load(pattern):
    files = sorted(glob.glob(pattern))
    if not files:
        sys.exit("ab-compare: no files match '%s'" % pattern)
    return [json.load(open(f)) for f in files]


def med(xs):
    return st.median(list(xs))


def sync_write(old, new):
    rows = []
    for row in old[0]["latency"]:
        def ratio(d, row=row):  # minloop's time over sync-write's: above 1 is faster
            return (med(x["mean_us"] for x in d["latency"][row]["minloop"]) /
                    med(x["mean_us"] for x in d["latency"][row]["sync-write"]))
        rows.append(("latency " + row, "minloop", ratio))
    for row in old[0]["tps"]:
        def ratio(d, row=row):  # sync-write's transactions/s over fio's
            return (med(x["tps"] for x in d["tps"][row]["sync-write"]) /
                    med(x["tps"] for x in d["tps"][row]["fio"]))
        rows.append(("tps " + row, "fio", ratio))
    return rows


def dio_dd(old, new):
    rows = []
    for i, r in enumerate(old[0]["rows"]):
        name = "%s %s %dx qd%d" % (r["rw"], r["mode"], r["devices"], r["qd"])
        rows.append((name, r["peer"], lambda d, i=i: d["rows"][i]["median_pair_ratio"]))
    return rows


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("sync-write", "dio-dd"):
        sys.exit("usage: ab-compare.py sync-write|dio-dd 'OLD-GLOB' 'NEW-GLOB'")
    old, new = load(sys.argv[2]), load(sys.argv[3])
    rows = (sync_write if sys.argv[1] == "sync-write" else dio_dd)(old, new)
    print("%s: %d runs of the old build, %d of the new; ratios against the peer, "
          "above 1 is faster" % (sys.argv[1], len(old), len(new)))
    print("%-34s %-8s %8s %8s %8s" % ("row", "peer", "old", "new", "new/old"))
    changes = []
    for name, peer, ratio in rows:
        o, n = med(ratio(d) for d in old), med(ratio(d) for d in new)
        changes.append(n / o)
        print("%-34s %-8s %8.3f %8.3f %8.3f" % (name, peer, o, n, n / o))
    print("geometric mean of new/old over %d rows: %.3f" % (len(rows), st.geometric_mean(changes)))


if __name__ == "__main__":
    main()
