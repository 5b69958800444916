#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# sync-write-compare.sh -- sync-write --compare of saved runs: real runs on
# two targets (as root: ext4 on this disk and xfs on a loop device; without
# root: this disk and tmpfs), the table's column groups and ratios checked
# against the saved numbers, CSV and JSON (against
# tools/sync-write-compare.schema.json), the plot rendered, mismatched runs
# aligned on what they share with the rest listed, -m/-s/-w picking points,
# labels; and the refusals (too few results, not JSON, another tool's
# JSON, an output that is an input, options of a measuring run); hostile
# inputs (issue 21): numbers beyond a double, extreme finite numbers in the
# plot, memory for 50 MB inputs, comparisons given as runs, standard
# output into an input, an interrupted run of several TARGETs, a stop
# signal during --compare.
. "${top_srcdir:-.}/tests/lib.sh"
own_mounts "$@"

need_cmd python3 python3
python3 -c 'import jsonschema' 2>/dev/null || skip "python3 module jsonschema missing (apt-get install python3-jsonschema)"
need_cmd rsvg-convert librsvg2-bin
SW=$tools/sync-write
work=$(mktemp -d "$top_builddir/sw-compare.XXXXXX") || hard "mktemp"
dev= mnt=
cleanup() {
	[ -n "$mnt" ] && umount "$mnt" 2>/dev/null
	[ -n "$dev" ] && losetup -d "$dev" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT INT TERM
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }

# The second target: xfs on a loop device as root, else tmpfs.
second=/dev/shm
if [ "$(id -u)" -eq 0 ] && [ "$(uname -s)" = Linux ] && command -v mkfs.xfs >/dev/null 2>&1; then
	truncate -s 320M "$work/img" &&
	dev=$(losetup -f --show "$work/img" 2>/dev/null) &&
	mkfs.xfs -q -f "$dev" >/dev/null 2>&1 && mkdir "$work/mnt" &&
	mount "$dev" "$work/mnt" && mnt=$work/mnt && second=$mnt
	[ -n "$mnt" ] || echo "note: no xfs on a loop device here; the second target is tmpfs"
else
	echo "note: the second target is tmpfs (xfs on a loop device needs root and mkfs.xfs)"
fi
[ -d "$second" ] && [ -w "$second" ] || skip "no second file system to compare with ($second)"
echo "targets: $(df -PT "$work" | awk 'NR==2 {print $2}') ($work) and $(df -PT "$second" | awk 'NR==2 {print $2}') ($second)"

args="-q -s 4k,64k -w 1,2 -n 20"
"$SW" $args -m fdatasync,dsync,none --label "this disk" -f json -o "$work/a.json" --dir "$work" ||
	hard "run on $work"
"$SW" $args -m fdatasync,dsync,fsync -f json -o "$work/b.json" --dir "$second" ||
	hard "run on $second"

# 1. The table: header lines, the groups, a row per shared point (2
#    methods x 2 sizes x 2 writer counts), the ratios from the numbers.
out=$("$SW" --compare "$work/a.json" "$work/b.json" 2>&1) || bad "compare exit $?: $out"
printf '%s\n' "$out" >"$work/t.txt"
printf '%s\n' "$out" | sed -n 1,12p
grep -q '^sync-write --compare: 2 runs, 8 points in all of them' "$work/t.txt" &&
	ok "table: 2 runs, 8 shared points" || bad "table: first line: $(head -n 1 "$work/t.txt")"
grep -q "^run 1: this disk = $work/a.json:" "$work/t.txt" && ok "table: run 1 by its --label" ||
	bad "table: run 1's line"
fs2=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["target"]["fs"])' "$work/b.json")
# A backend that cannot tell the file system (posix) names the run "file in DIR".
case $fs2 in unknown*) fs2=file ;; esac
grep -q "^run 2: $fs2 [a-z]" "$work/t.txt" && ok "table: run 2 named by what it ran on ($fs2 ...)" ||
	bad "table: run 2's name: $(grep '^run 2' "$work/t.txt")"
python3 - "$work/t.txt" "$work/a.json" "$work/b.json" <<'PY' || fail=1
import json, sys
rows = [l.split() for l in open(sys.argv[1]) if l.startswith(("fdatasync ", "dsync "))]
a, b = (json.load(open(f)) for f in sys.argv[2:4])
def agg(d, m, s, w):
    return [p for p in d["points"] if (p["method"], p["size_bytes"], p["writers"]) == (m, s, w)][0]["aggregate"]
assert len(rows) == 8, rows
# Results with device counts (issue 41) add flush/txn to each run's group.
fl = any("flush/txn" in l for l in open(sys.argv[1]))
def dev(d, m, s, w):
    p = [p for p in d["points"] if (p["method"], p["size_bytes"], p["writers"]) == (m, s, w)][0]
    v = p.get("device")
    if v is None:
        return "-"
    if v["counted"] != "yes":
        return {"no": "n/a", "busy": "busy"}[v["counted"]]
    return "n/a" if v["flushes_per_txn"] is None else "%.2f" % max(v["flushes_per_txn"], 0)
for r in rows:
    m, s, w = r[0], int(r[1]), int(r[2])
    pa, pb = agg(a, m, s, w), agg(b, m, s, w)
    # method size wr | avg p99 tps [flush] | avg p99 tps [flush] avg_x tps_x
    g2 = 8 + fl
    assert float(r[4]) == round(pa["avg_us"], 1) and float(r[g2]) == round(pb["avg_us"], 1), r
    if fl:
        assert r[7] == dev(a, m, s, w) and r[g2 + 3] == dev(b, m, s, w), r
    assert abs(float(r[g2 + 3 + fl]) - pb["avg_us"] / pa["avg_us"]) <= 0.0051, (r, pb["avg_us"] / pa["avg_us"])
    assert abs(float(r[g2 + 4 + fl]) - pb["txn_per_s"] / pa["txn_per_s"]) <= 0.0051, r
print("ok   table: 8 rows; averages, both ratios%s are the saved runs' numbers" % (" and flush/txn" if fl else ""))
PY
for m in none fsync; do
	n=$(grep -c "^  $m  .*: only in run" "$work/t.txt")
	[ "$n" -eq 4 ] && ok "table: the 4 $m points one run lacks are listed, not compared" ||
		bad "table: $n $m points listed as left out, want 4"
done

# 2. CSV and JSON.
"$SW" --compare "$work/a.json" "$work/b.json" -f csv -o "$work/c.csv" || bad "csv exit $?"
python3 - "$work/c.csv" <<'PY' || fail=1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 16, len(rows)
assert [r["run"] for r in rows[:2]] == ["1", "2"] and rows[0]["label"] == "this disk", rows[:2]
for r in rows:
    if r["run"] == "1":
        assert float(r["avg_ratio"]) == 1, r
    else:
        assert float(r["avg_ratio"]) > 0, r
print("ok   csv: 16 rows (8 points x 2 runs), run 1's ratios are 1")
PY
"$SW" --compare "$work/a.json" "$work/b.json" -f json -o "$work/c.json" || bad "json exit $?"
python3 - "$work/c.json" "$top_srcdir/tools/sync-write-compare.schema.json" <<'PY' || fail=1
import json, sys, jsonschema
d = json.load(open(sys.argv[1]))
jsonschema.validate(d, json.load(open(sys.argv[2])))
assert len(d["points"]) == 8 and len(d["left_out"]) == 8, (len(d["points"]), len(d["left_out"]))
assert all(len(p["runs"]) == 2 for p in d["points"])
assert d["runs"][0]["labelled"] and not d["runs"][1]["labelled"]
assert sorted(tuple(l["in_runs"]) for l in d["left_out"]) == [(1,)] * 4 + [(2,)] * 4
print("ok   json: valid against the compare schema; 8 points, 8 left out with their runs")
PY

# 3. The plot: one line per run and shared method in each of 3 charts.
"$SW" --compare "$work/a.json" "$work/b.json" --plot "$work/c.svg" >/dev/null || bad "plot exit $?"
# A fourth chart (flushes per transaction) where a run's points were
# counted (issue 41): a line per run and method there too.
n=$(grep -c '<polyline' "$work/c.svg")
want=12
grep -q 'Cache flushes per transaction' "$work/c.svg" && want=16
[ "$n" -eq $want ] && ok "svg: $n lines (2 runs x 2 methods x $((want / 4)) charts)" ||
	bad "svg: $n lines, want $want"
grep -q '>this disk: fdatasync<' "$work/c.svg" && ok "svg: lines named 'label: method'" ||
	bad "svg: no 'this disk: fdatasync' legend"
rsvg-convert "$work/c.svg" -o "$work/c.png" && ok "svg: renders ($(wc -c <"$work/c.png") bytes of PNG)" ||
	bad "svg: rsvg-convert failed"

# 4. Picking points; the same run twice gets told apart; a pipe as input.
# (--wide: the 3 runs in one table, so the point's row is there once.)
out=$("$SW" --compare "$work/a.json" "$work/b.json" "$work/b.json" -m dsync -s 4k -w 2 --wide 2>&1)
printf '%s\n' "$out" | grep -q '3 runs, 1 point in all' &&
	[ "$(printf '%s\n' "$out" | grep -c '^dsync  *4096   2 ')" -eq 1 ] &&
	ok "-m dsync -s 4k -w 2 picks the one point" || bad "picking: $out"
printf '%s\n' "$out" | grep -q '^run 3: .* #3 = ' && ok "the same run twice: run 3 is '... #3'" ||
	bad "duplicate labels: $(printf '%s\n' "$out" | grep '^run 3')"
out=$(cat "$work/b.json" | "$SW" --compare "$work/a.json" /dev/stdin 2>&1) &&
	printf '%s\n' "$out" | grep -q '8 points in all' && ok "a result read from a pipe" ||
	bad "pipe input: $out"
out=$("$SW" --compare "$work/a.json" "$work/b.json" -m none 2>&1) &&
	printf '%s\n' "$out" | grep -q 'the runs share no point among those -m, -s, -w pick' &&
	ok "no shared point: said, not an error" || bad "no shared point: $out"

# A hostile label (a terminal escape, a newline) is shown harmlessly.
python3 - "$work/b.json" "$work/h.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d["label"] = "\x1b[2Jx\ny"
json.dump(d, open(sys.argv[2], "w"))
PY
out=$("$SW" --compare "$work/a.json" "$work/h.json" 2>&1)
printf '%s\n' "$out" | grep -q '^run 2: ?\[2Jx?y = ' && ! printf '%s' "$out" | grep -q "$(printf '\033')" &&
	ok "control characters of a result's label are shown as '?'" || bad "hostile label: $out"

# 5. Refusals: exit 2, the reason, and inputs untouched.
expect() { _w=$1 _p=$2; shift 2; expect_exit "$_w" "$_p" "$SW" "$@"; }
sum=$(cksum <"$work/a.json")
printf '{"tool": "sync-write",\n "schema": 1, "points": [1,]}' >"$work/bad.json"
"$tools/dio-info" -f json "$work" >"$work/info.json" 2>/dev/null
expect 2 "needs at least two results" --compare "$work/a.json"
expect 2 "line 2, column 28: unexpected ']'" --compare "$work/a.json" "$work/bad.json"
expect 2 "not a sync-write result" --compare "$work/a.json" "$work/info.json"
expect 2 "cannot read '$work/none.json': no such file" --compare "$work/a.json" "$work/none.json"
expect 2 "cannot read '$work': is a directory" --compare "$work/a.json" "$work"
expect 2 "is the result '$work/a.json' being compared" --compare "$work/a.json" "$work/b.json" -o "$work/a.json"
expect 2 "is the result '$work/b.json' being compared" --compare "$work/a.json" "$work/b.json" --plot "$work/b.json"
expect 2 "are the same file" --compare "$work/a.json" "$work/b.json" -o "$work/x" --plot "$work/x"
expect 2 "it takes only -m, -s, -w" --compare "$work/a.json" "$work/b.json" -n 5
expect 2 "it takes only -m, -s, -w" --compare "$work/a.json" "$work/b.json" --label x
expect 2 "at most 40 allowed" --label 12345678901234567890123456789012345678901 -n 1 "$work/t1"
expect 2 "control characters are not allowed" --label "$(printf 'a\tb')" -n 1 "$work/t1"
# 6. Several TARGETs in one run, measured interleaved: reported side by
#    side, each point on every target in turn (strace shows the writers'
#    opens alternate), the same file twice refused.
out=$("$SW" -q -m fdatasync,dsync -s 4k,64k -n 20 --label one --label two -f json \
	-o "$work/i.json" "$work/i1" "$second/i2.$$" 2>&1) || bad "interleaved run: $out"
python3 - "$work/i.json" "$top_srcdir/tools/sync-write-compare.schema.json" <<'PY' || fail=1
import json, sys, jsonschema
d = json.load(open(sys.argv[1]))
jsonschema.validate(d, json.load(open(sys.argv[2])))
assert d["interleaved"] is True and [r["label"] for r in d["runs"]] == ["one", "two"], d["runs"]
assert all(r["file"] is None for r in d["runs"])
assert len(d["points"]) == 4 and not d["left_out"]
assert all(x["status"] == "ok" and x["avg_us"] > 0 for p in d["points"] for x in p["runs"])
print("ok   interleaved: JSON valid, 2 targets by their labels, 4 points measured on both")
PY
[ ! -e "$work/i1" ] && [ ! -e "$second/i2.$$" ] && ok "interleaved: the targets it created are removed" ||
	bad "interleaved: targets left behind"
out=$("$SW" -q -m fdatasync -s 4k,8k -n 5 "$work/i1" "$second/i2.$$" 2>&1)
printf '%s\n' "$out" | grep -q '^sync-write: 2 targets measured interleaved (each point on every target in turn' &&
	ok "interleaved: the table says so" || bad "interleaved table: $out"
if command -v strace >/dev/null 2>&1; then
	strace -f -qq -e trace=openat -o "$work/st" "$SW" -q -m fdatasync,dsync -s 4k,8k -n 5 \
		"$work/i1" "$second/i2.$$" >/dev/null 2>&1
	seq=$(grep -o "\"[^\"]*/i[12][.0-9]*\"" "$work/st" | sed 's/.*\/i\([12]\).*/\1/' | uniq | tr -d '\n')
	case $seq in
	*1212121*) ok "interleaved: opens alternate between the targets point by point ($seq)" ;;
	*) bad "interleaved: the order of opens is $seq, want 1, 2, 1, 2, ..." ;;
	esac
else
	echo "skipped: no strace to see the order of opens"
fi
touch "$work/same"
expect 2 "TARGET 1 '$work/same' and TARGET 2 '$work/../$(basename "$work")/same' are the same file" \
	-q -n 1 --force "$work/same" "$work/../$(basename "$work")/same"
expect 2 "TARGET 1 '$work/new' and TARGET 2 '$work/new' are the same file" \
	-q -n 1 --force "$work/new" "$work/new"
[ ! -e "$work/new" ] && ok "a refused interleaved run removed what it created" || bad "left $work/new"
expect 2 "1 --label for 2 TARGETs" -q -n 1 --label a "$work/t1" "$work/t2"
expect 2 "run each with its own --ack-log" -q -n 1 --ack-log "$work/l" "$work/t1" "$work/t2"
expect 2 "at most 8 are measured interleaved" -q -n 1 a b c d e f g h i
expect 2 "and TARGET 2 '$work/a.json' are the same file" -q -n 1 "$work/t1" "$work/a.json" -o "$work/a.json" --force

# 7. Hostile inputs (issue 21).
# 7a. A number beyond a double (which the schema cannot rule out) is refused
#     by file, member and line, and nothing is drawn.
python3 - "$work/a.json" "$work/inf.json" "$work/inf2.json" <<'PY'
import sys
t = open(sys.argv[1]).read()
i = t.index('"mb_per_s": '); j = t.index(',', i)
open(sys.argv[2], "w").write(t[:i] + '"mb_per_s": 1e400' + t[j:])
open(sys.argv[3], "w").write(t[:i] + '"mb_per_s": 11e308' + t[j:])
PY
python3 - "$top_srcdir/tools/sync-write.schema.json" "$work/a.json" "$work/inf.json" <<'PY' || fail=1
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.validate(json.load(open(sys.argv[2])), schema)
try:
    jsonschema.validate(json.load(open(sys.argv[3])), schema)    # 1e400 reads as inf
    print("FAIL the schema accepts mb_per_s 1e400")
    sys.exit(1)
except jsonschema.ValidationError as e:
    print("ok   the schema refuses mb_per_s 1e400 (%s)" % e.message)
PY
line=$(grep -n '1e400' "$work/inf.json" | cut -d: -f1)
expect 2 "'$work/inf.json': line $line, column [0-9]*: points\[0\]\.aggregate\.mb_per_s: the number 1e400 is beyond the range of a double" \
	--compare "$work/a.json" "$work/inf.json" --plot "$work/inf.svg"
expect 2 "'$work/inf2.json': line $line, .*the number 11e308 is beyond" --compare "$work/inf2.json" "$work/a.json"
[ ! -e "$work/inf.svg" ] && ok "a refused comparison leaves no plot" || bad "$work/inf.svg left behind"

# 7b. Any finite numbers: the plot ends, stays small, has no nan or inf,
#     and renders (before: 1.7e308 spun in the axis code for ever).
python3 - "$work/a.json" "$work" <<'PY'
import json, sys
cases = {"huge": [1.7e308], "neg": [-1.7e308], "tiny": [5e-324], "mixed": [1.7e308, 5e-324, -1.7e308, 0],
         "same": [3.0], "zero": [0.0], "one": [1e300]}
for name, vals in cases.items():
    d = json.load(open(sys.argv[1]))
    if name == "one":
        d["points"] = d["points"][:1]
    for k, p in enumerate(d["points"]):
        if p["aggregate"]:
            for m in ("avg_us", "mb_per_s", "txn_per_s", "p99_us"):
                p["aggregate"][m] = vals[k % len(vals)]
    json.dump(d, open("%s/x-%s.json" % (sys.argv[2], name), "w"))
PY
for x in huge neg tiny mixed same zero one; do
	rm -f "$work/x.svg"
	if out=$(timeout 60 "$SW" --compare "$work/x-$x.json" "$work/b.json" --plot "$work/x.svg" 2>&1 >"$work/x.txt"); then
		sz=$(wc -c <"$work/x.svg")
		if [ "$sz" -lt 100000 ] && ! grep -qi 'nan\|inf' "$work/x.svg" &&
			rsvg-convert "$work/x.svg" -o "$work/x.png" 2>/dev/null; then
			ok "extreme numbers ($x): the plot ends, $sz bytes, finite, renders"
		else
			bad "extreme numbers ($x): $sz bytes, $(grep -ci 'nan\|inf' "$work/x.svg") nan/inf"
		fi
	else
		bad "extreme numbers ($x): exit $? $out"
	fi
done

# 7c. Memory bounded by what the input justifies (before: 1.2 GB for 50 MB):
#     50 MB of numbers in a member --compare does not show, and 50 MB of a
#     million distinct points (aligned in linear time, not quadratic); more
#     than 64 MiB is refused.
python3 - "$work/a.json" "$work/flat.json" "$work/many.json" <<'PY'
import json, sys
t = json.dumps(json.load(open(sys.argv[1])))
open(sys.argv[2], "w").write(t[:-1] + ', "junk": [' + ",".join(["0"] * 25000000) + "]}")
i = t.index('"points": [') + len('"points": [')
pts = ",".join('{"method":"none","size_bytes":%d,"writers":1}' % (k + 1) for k in range(1000000))
open(sys.argv[3], "w").write(t[:i] + pts + "," + t[i:])
PY
if sanitized; then
	# (AddressSanitizer's shadow and quarantine: peak memory says nothing)
	echo "note: an AddressSanitizer build: the peak-memory bounds are not asserted"
	for name in flat many; do
		timeout 300 "$SW" --compare "$work/a.json" "$work/$name.json" >/dev/null 2>&1 &&
			ok "a large result ($name) compared" || bad "a large result ($name): exit $?"
	done
elif /usr/bin/time -v true >/dev/null 2>&1; then
	for f in flat:150000 many:400000; do
		name=${f%%:*} limit=${f#*:}
		timeout 300 /usr/bin/time -v "$SW" --compare "$work/a.json" "$work/$name.json" >/dev/null 2>"$work/time.txt"
		rc=$? rss=$(awk '/Maximum resident/ {print $NF}' "$work/time.txt")
		mb=$(($(wc -c <"$work/$name.json") / 1000000))
		[ $rc -eq 0 ] && [ "${rss:-999999999}" -lt $limit ] &&
			ok "a $mb MB result ($name): exit 0, peak RSS $rss kB (limit $limit kB)" ||
			bad "a $mb MB result ($name): exit $rc, peak RSS $rss kB (limit $limit kB)"
	done
else
	echo "skipped: no GNU time (/usr/bin/time -v) to measure the peak memory"
	timeout 300 "$SW" --compare "$work/a.json" "$work/many.json" >/dev/null 2>&1 &&
		ok "a million points compared in time" || bad "a million points: exit $?"
fi
rm -f "$work/flat.json" "$work/many.json"
truncate -s 65M "$work/big.json"
expect 2 "cannot read '$work/big.json': larger than any saved result (at most 64 MiB are read)" \
	--compare "$work/a.json" "$work/big.json"
rm -f "$work/big.json"

# 7d. A comparison is not a run: --compare's own JSON, and a run of
#     several TARGETs (before: accepted, '? ? @' everywhere).
expect 2 "'$work/c.json' is the output of --compare, not a run's result; compare the runs it was made from" \
	--compare "$work/a.json" "$work/c.json"
expect 2 "'$work/i.json' is the output of a run of several TARGETs (their comparison), not a run's result" \
	--compare "$work/i.json" "$work/a.json"

# 7e. Standard output into an input (>> a.json) is refused before anything
#     is written.
cp "$work/a.json" "$work/a2.json"
sum2=$(cksum <"$work/a2.json")
"$SW" --compare "$work/a2.json" "$work/b.json" >>"$work/a2.json" 2>"$work/err"; rc=$?
[ $rc -eq 2 ] && grep -q "standard output is the result '$work/a2.json' being compared" "$work/err" &&
	[ "$(cksum <"$work/a2.json")" = "$sum2" ] &&
	ok ">> into an input: exit 2, said, the input unchanged" ||
	bad ">> into an input: exit $rc, $(cat "$work/err")"
"$SW" --compare "$work/b.json" "$work/a2.json" -o - >>"$work/a2.json" 2>"$work/err"; rc=$?
[ $rc -eq 2 ] && [ "$(cksum <"$work/a2.json")" = "$sum2" ] && ok "-o - >> into an input: exit 2" ||
	bad "-o - >> into an input: exit $rc, $(cat "$work/err")"

# 7f. A run of several TARGETs stopped in TARGET 1's first point, once
#     it has measured transactions: that point is shown for both (TARGET
#     1 partial, TARGET 2 not run; in the JSON both "interrupted", not
#     left out), and only TARGET 2 is said to have no point measured
#     (before: both were, and "0 points", blaming -m/-s/-w).  The first
#     point has begun when both targets are prefilled (4 MiB each) and the
#     program (not the libtool wrapper around it, whose subshells come and
#     go) has children, the writers, which have written 8 warm-up and 8
#     measured transactions.
"$SW" -q -m fdatasync -s 4k,8k -t 60 --region 4M -f json -o "$work/ij.json" "$work/j1" \
	"$second/j2.$$" >/dev/null 2>"$work/ij.err" &
pid=$! n=0
in_point() {
	case $(readlink "/proc/$pid/exe" 2>/dev/null) in *sync-write*) ;; *) return 1 ;; esac
	[ "$(stat -c %s "$second/j2.$$" 2>/dev/null)" = 4194304 ] || return 1
	_k=$(ps -o pid= --ppid $pid 2>/dev/null)
	# shellcheck disable=SC2086
	[ -n "$_k" ] && [ "$(io_bytes wchar $_k)" -ge 65536 ]
}
wait_for 60 "the first point of the run of 2 TARGETs" in_point
kill -TERM $pid; wait $pid; rc=$?
if [ $rc -eq 143 ] && grep -q "TARGET 2 '$second/j2.$$': the run was interrupted before any point was measured" "$work/ij.err" &&
	! grep -q "TARGET 1" "$work/ij.err" && ! grep -q -- "-m, -s, -w" "$work/ij.err" &&
	python3 - "$work/ij.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert [(p["method"], p["size_bytes"], [r["status"] for r in p["runs"]]) for p in d["points"]] == \
    [("fdatasync", 4096, ["interrupted", "interrupted"])] and d["left_out"] == [], d
PY
then
	ok "an interrupted run of 2 TARGETs shows the point cut short and says which has no point: $(tail -n 1 "$work/ij.err")"
else
	bad "interrupted run of 2 TARGETs: exit $rc: $(cat "$work/ij.err"; cat "$work/ij.json")"
fi
rm -f "$second/j2.$$" "$work/j1"

# 7g. A stop signal during --compare (an input that is a FIFO nobody
#     writes): exit 143, and the outputs it made are gone (before: an
#     empty -o file).
mkfifo "$work/fifo"
"$SW" --compare "$work/a.json" "$work/fifo" -o "$work/o.json" --plot "$work/o.svg" 2>"$work/o.err" &
pid=$! n=0
wait_for 60 "--compare to create its -o" test -e "$work/o.json"
kill -TERM $pid; wait $pid; rc=$?
[ $rc -eq 143 ] && [ ! -e "$work/o.json" ] && [ ! -e "$work/o.svg" ] &&
	grep -q "stopped by SIGTERM" "$work/o.err" &&
	ok "SIGTERM during --compare: exit 143, its -o and --plot removed" ||
	bad "SIGTERM during --compare: exit $rc, $(ls "$work"/o.* 2>/dev/null) $(cat "$work/o.err")"

[ "$(cksum <"$work/a.json")" = "$sum" ] && ok "the inputs are as they were" || bad "a.json changed"
[ ! -e "$work/t1" ] && [ ! -e "$work/x" ] && ok "refused runs created nothing" || bad "a refused run left files"
exit $fail
