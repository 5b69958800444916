#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# dio-dd-mpi.sh -- dio-dd-mpi, dio-dd's MPI build, as the ranks of an MPI
# job, on the test hosts of tests/mpi-lib.sh (two network namespaces as
# root, this host otherwise):
# operands with %r (rank) and %h (host) give each rank its own files; rank
# 0 reports every rank's devices ("RANK@HOST:PATH") and a total that is
# the sum of the bytes and calls and the merge of the histograms (mean
# weighted by calls, max the largest, p50 between the devices'); one
# output for all ranks is refused; a rank that cannot open its input
# ends the job, named; the total's MB/s is the job's bytes over its span;
# an error of every rank is said once; a rank started with other
# operands is refused, named; a job's ranks take no standard input or
# output for a missing if= or of= (reads and writes say mode=).
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/mpi-lib.sh"

DD=$tools/dio-dd-mpi
mpi_test dd-mpi

# 1. Write: a file per rank, through %r and %h.
run 4 "$DD" of="$work/out.%h.%r" mode=write bs=64k count=100 time=1 -f json >"$work/w.json" 2>"$work/w.err"
rc=$?
n=$(ls "$work"/out.* 2>/dev/null | wc -l)
if [ $rc -eq 0 ] && [ "$n" -eq 4 ]; then
	ok "4 ranks wrote of=out.%h.%r: $(cd "$work" && ls out.* | tr '\n' ' ')"
else
	bad "4 ranks writing: exit $rc, $n files"; cat "$work/w.err"
fi
for f in "$work"/out.*; do
	[ "$(wc -c <"$f")" -eq $((100 * 65536)) ] || bad "$f: $(wc -c <"$f") bytes, want $((100 * 65536))"
done

# 2. Read them back, each rank its own; the totals are the job's.
run 4 "$DD" if="$work/out.%h.%r" mode=read bs=64k -f json >"$work/r.json" 2>"$work/r.err"
rc=$?
[ $rc -eq 0 ] || { bad "4 ranks reading: exit $rc"; cat "$work/r.err"; }
for j in w r; do
	python3 - "$work/$j.json" "$hosts" <<'EOF' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
hosts = sys.argv[2].split()
devs, tot = d["devices"], d["total"]
res = []
def check(what, good, detail):
    print(("ok   " if good else "FAIL ") + what + ": " + detail)
    res.append(good)
names = [x["name"] for x in devs]
want = ["%d@%s:" % (r, hosts[0] if len(hosts) == 1 else hosts[r // 2]) for r in range(4)]
check(d["mode"] + " rows", len(devs) == 4 and all(n.startswith(w) for n, w in zip(names, want)),
      ", ".join(names))
check(d["mode"] + " mpi", d["mpi"]["ranks"] == 4 and
      ["%d@%s:" % (r, h) for r, h in enumerate(d["mpi"]["hosts"])] == want,
      "%s, hosts %s" % (d["mpi"]["library"], d["mpi"]["hosts"]))
check(d["mode"] + " bytes", tot["bytes"] == sum(x["bytes"] for x in devs) == 4 * 100 * 65536,
      "total %d = the sum of the ranks' devices" % tot["bytes"])
lat = lambda x: x["read" if d["mode"] == "read" else "write"]["latency_us"]
calls = [x["calls"] for x in devs]
check(d["mode"] + " calls", tot["calls"] == sum(calls) == 400, "%d calls" % tot["calls"])
# Each host's disks are not gathered: every row's operand says so, never 0.
side = "if" if d["mode"] == "read" else "of"
check(d["mode"] + " disks", tot["disks"] is None and all(
    x["disks"][side]["counted"] == "no" and "MPI job" in x["disks"][side]["why"]
    for x in devs), devs[0]["disks"][side].get("why", "?"))
# The job's rate is its bytes over its span (first start to last end on
# one clock), which covers every rank's own window: never a sum of rates.
check(d["mode"] + " span", tot["wall_s"] >= max(x["wall_s"] for x in devs) - 1e-4 and
      abs(tot["mb_per_s"] - tot["bytes"] / tot["wall_s"] / 1e6) <= 0.01 * tot["mb_per_s"],
      "%.3f MB/s = %d bytes / %.6f s, the devices' windows %s s" %
      (tot["mb_per_s"], tot["bytes"], tot["wall_s"], ", ".join("%.6f" % x["wall_s"] for x in devs)))
mean = sum(lat(x)["mean"] * c for x, c in zip(devs, calls)) / sum(calls)
check(d["mode"] + " merged latency",
      abs(lat(tot)["mean"] - mean) <= 1e-3 * mean + 0.01 and
      lat(tot)["max"] == max(lat(x)["max"] for x in devs) and
      min(lat(x)["p50"] for x in devs) <= lat(tot)["p50"] <= max(lat(x)["p50"] for x in devs),
      "mean %.1f us (the calls-weighted mean of the ranks' %.1f), max %.1f, p50 %.1f"
      % (lat(tot)["mean"], mean, lat(tot)["max"], lat(tot)["p50"]))
sys.exit(0 if all(res) else 1)
EOF
done

# 3. Refused: one output for every rank; a rank without its input.
expect_exit 2 "4 ranks would write one output: put %r" run 4 "$DD" of="$work/one" mode=write count=1
[ -e "$work/one" ] && bad "the refused job created $work/one"
rm -f "$work"/out.*.3
out=$(run 4 "$DD" if="$work/out.%h.%r" of="$work/copy.%r" bs=64k 2>&1)
rc=$?
if [ $rc -ne 0 ] && printf '%s\n' "$out" | grep -q "rank 3 on [^ ]*: .*out\..*\.3" &&
   [ -z "$(ls "$work"/copy.* 2>/dev/null)" ]; then
	ok "a rank without its input ends the job, the other ranks' outputs removed: exit $rc: $(printf '%s\n' "$out" | grep 'rank 3 on' | head -n 1)"
else
	bad "a rank without its input: exit $rc, left: $(ls "$work"/copy.* 2>/dev/null)"
	printf '%s\n' "$out" | sed 's/^/    /'
fi

# 4. One voice and one job: an error of every rank said once; a rank
#    started with another operand named, every rank ending.
out=$(run 4 "$DD" of="$work/x.%r" mode=write bs=0 2>&1)
rc=$?
n=$(printf '%s\n' "$out" | grep -c "^dio-dd-mpi: invalid number: '0'")
[ $rc -eq 1 ] && [ "$n" -eq 1 ] && ok "bs=0 on 4 ranks: said once (dd's words), exit 1" ||
	{ bad "bs=0 on 4 ranks: exit $rc, said $n times"; printf '%s\n' "$out" | sed 's/^/    /'; }
# dd's defaults (no if=: standard input, no of=: standard output) are
# mpirun's streams in a job: refused, said once, nothing made
out=$(run 4 "$DD" of="$work/z.%r" count=1 2>&1)
rc=$?
n=$(printf '%s\n' "$out" | grep -c "^dio-dd-mpi: as MPI ranks, standard input and output are mpirun's: give if= and of= (or mode=read, mode=write)")
[ $rc -eq 2 ] && [ "$n" -eq 1 ] && [ -z "$(ls "$work"/z.* 2>/dev/null)" ] &&
	ok "of= without if= or mode= on 4 ranks: said once, exit 2, nothing made" ||
	{ bad "of= without if= on 4 ranks: exit $rc, said $n times"; printf '%s\n' "$out" | sed 's/^/    /'; }
out=$(RANK1_ARGS="bs=4k" run 2 "$each" "$DD" of="$work/y.%r" mode=write count=10 2>&1)
rc=$?
if [ $rc -eq 2 ] && printf '%s\n' "$out" | grep -q "rank 1 on [^ ]* was started with bs= '4096', rank 0 with '512'" &&
   [ -z "$(ls "$work"/y.* 2>/dev/null)" ]; then
	ok "rank 1 with bs=4k: exit 2, nothing written: $(printf '%s\n' "$out" | grep 'was started')"
else
	bad "rank 1 with bs=4k: exit $rc"; printf '%s\n' "$out" | sed 's/^/    /'
fi

exit $fail
