#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""mpi-merged.py RESULT.json TIMES-DIR HOSTS WRITERS-PER-RANK

For tests/sync-write-mpi.sh: the statistics rank 0 merged from the ranks'
histograms against the raw times every writer dumped (DIO_SW_TIMES):
count, mean, min and max exactly; p50, p90, p99 and p99.9 equal to what
one histogram of all the raw times gives (tools/kit/hist.c's buckets) and
within its resolution of the raw values; per host the same from that
host's writers; the job's and each host's rates their work over their
span.  Prints ok/FAIL lines; exits 1 on any FAIL.
"""
import glob
import json
import math
import os
import sys

doc = json.load(open(sys.argv[1]))
tdir = sys.argv[2]
hosts = sys.argv[3].split()
W = int(sys.argv[4])
point = doc["points"][0]
agg = point["aggregate"]
ranks = doc["mpi"]["ranks"]
results = []


def check(what, good, detail):
    print(("ok   " if good else "FAIL ") + what + ": " + detail)
    results.append(good)


# The kit's histogram: exact below 256 ns, then 128 buckets per power of 2;
# a quantile is the middle of the bucket holding it, kept in [min, max].
def index(ns):
    if ns < 256:
        return ns
    e = ns.bit_length() - 1
    return 256 + (e - 8) * 128 + (ns >> (e - 7)) - 128


def bucket_range(i):
    if i < 256:
        return i, i
    e = 8 + (i - 256) // 128
    lo = (128 + (i - 256) % 128) << (e - 7)
    return lo, lo + (1 << (e - 7)) - 1


def rank_of(ts, q):
    return max(1, math.ceil(q * len(ts)))


def quantile(ts, q):
    lo, hi = bucket_range(index(ts[rank_of(ts, q) - 1]))
    return min(max((lo + hi) / 2, ts[0]), ts[-1])


def close(a, b):
    # the JSON keeps 6 significant digits
    return abs(a - b) <= 1e-5 * max(abs(a), abs(b)) + 1e-3


def times_of(writers):
    ts = []
    for w in writers:
        with open(os.path.join(tdir, "p0.w%d" % w)) as f:
            ts += [int(line) for line in f]
    return sorted(ts)


files = glob.glob(os.path.join(tdir, "p0.w*"))
check("raw times", len(files) == ranks * W,
      "%d writers' files (%d ranks x %d)" % (len(files), ranks, W))
ts = times_of(range(ranks * W))
n = len(ts)
check("count", agg["txns"] == n, "%d merged, %d raw" % (agg["txns"], n))
check("mean", close(agg["avg_us"], sum(ts) / n / 1e3),
      "%.3f us merged, %.3f us from the raw times" % (agg["avg_us"], sum(ts) / n / 1e3))
check("min and max", close(agg["min_us"], ts[0] / 1e3) and close(agg["max_us"], ts[-1] / 1e3),
      "%.1f .. %.1f us" % (agg["min_us"], agg["max_us"]))
for key, q in (("p50_us", .5), ("p90_us", .9), ("p99_us", .99), ("p999_us", .999)):
    want = quantile(ts, q) / 1e3
    raw = ts[rank_of(ts, q) - 1] / 1e3
    check(key, close(agg[key], want) and abs(agg[key] - raw) <= 0.004 * raw + 1e-3,
          "%.3f us merged = %.3f us of one histogram of all raw times (raw value %.3f us)"
          % (agg[key], want, raw))
check("writers", point["writers"] == ranks * W and point["ranks"] == ranks and
      len(point["per_writer"]) == ranks * W,
      "%d writers of %d ranks, as many per-writer rows" % (ranks * W, ranks))
pw = point["per_writer"]
check("writer rows", all(w["rank"] == k // W and w["host"] == doc["mpi"]["hosts"][k // W]
                         for k, w in enumerate(pw)),
      "per_writer[k] names rank k div %d and its host" % W)
got = [h["host"] for h in point["per_host"]]
check("per host", got == hosts, "rows %s for hosts %s" % (got, hosts))
rank_hosts = doc["mpi"]["hosts"]
for h in hosts:
    row = [r for r in point["per_host"] if r["host"] == h][0]
    ws = [r * W + k for r in range(ranks) if rank_hosts[r] == h for k in range(W)]
    hts = times_of(ws)
    s = row["stats"]
    check("host " + h, row["writers"] == len(ws) and s["txns"] == len(hts) and
          close(s["p99_us"], quantile(hts, .99) / 1e3) and
          close(s["avg_us"], sum(hts) / len(hts) / 1e3),
          "%d writers, %d txns, p99 %.3f us, avg %.3f us from its writers' raw times"
          % (row["writers"], s["txns"], s["p99_us"], s["avg_us"]))
# The job's rates: its work over its span, the span at least each rank's
# own window (less the clock's error), each host's the same way.
span, err = agg["span_s"], point["clock_error_us"] / 1e6
check("span", agg["wall_s"] == span and
      all(span >= r["wall_s"] - err - 1e-6 for r in point["per_rank"]),
      "%.6f s, the ranks' own windows %s s (clock error %.1f us)" %
      (span, ", ".join("%.6f" % r["wall_s"] for r in point["per_rank"]), point["clock_error_us"]))
for what, s in [("job", agg)] + [("host " + h["host"], h["stats"]) for h in point["per_host"]]:
    check(what + " rates", close(s["txn_per_s"], s["txns"] / s["span_s"]) and
          close(s["mb_per_s"], s["bytes"] / s["span_s"] / 1e6),
          "%.1f txn/s = %d txns / %.6f s span; %.3f MB/s" %
          (s["txn_per_s"], s["txns"], s["span_s"], s["mb_per_s"]))
check("per rank", len(point["per_rank"]) == ranks and
      sum(r["txns"] for r in point["per_rank"]) == agg["txns"],
      "%d ranks' own figures, %d txns in all" % (len(point["per_rank"]), agg["txns"]))

# What IOR's latency would have been: the minimum over tasks of each
# task's mean.
means = [sum(r) / len(r) for r in (times_of(range(k * W, k * W + W)) for k in range(ranks))]
print("note what IOR's figure (min over ranks of each rank's mean) would say: %.1f us; "
      "merged: mean %.1f us, p50 %.1f, p99 %.1f, p99.9 %.1f, max %.1f us"
      % (min(means) / 1e3, agg["avg_us"], agg["p50_us"], agg["p99_us"], agg["p999_us"],
         agg["max_us"]))
sys.exit(0 if all(results) else 1)
