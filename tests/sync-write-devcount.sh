#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# sync-write-devcount.sh -- what the disks under the target saw per point
# (tools/sw/devcount.c), on this machine's real disk (the build tree's
# file system) and its block-layer counters:
#  - fdatasync of 4 KiB, 1 writer: about one cache flush per transaction
#    (0.9..1.1), at least 4096 bytes written per transaction, the
#    transactions counted with the warm-up's, the baseline's interval and
#    the window said; dsync likewise;
#  - none (no commit): fewer than 0.1 flushes per transaction, or "busy"
#    with the reason if writeback or another process wrote meanwhile;
#  - 4 writers of fdatasync: at most 1.05 flushes per transaction (the
#    block layer merges concurrent flushes; the value is printed);
#  - a target on tmpfs: "no", "no local disk"; the table says n/a and why;
#  - the JSON validates against tools/sync-write.schema.json, the CSV has
#    the dev_ columns, the table the flush/txn column;
#  - --baseline 0 subtracts nothing (baseline null), --baseline 0.2s idles
#    that long, a bad value is a usage error;
#  - a writer of direct, synchronous writes (dd oflag=direct,dsync) on the
#    same disk during a point of none: "busy", naming the other I/O;
#  - 2 MPI ranks of 1 writer each on this host, one disk: the job counts
#    the disk once (about one flush per transaction, not two), and its
#    transactions are both ranks'.
# Without a flush counter (Linux before 5.5) or on a build tree in memory
# the test says SKIP.
. "${top_srcdir:-.}/tests/lib.sh"

SW=$tools/sync-write
[ "$(uname -s)" = Linux ] || skip "the block layer's counters are read on Linux only"
need_cmd python3 python3
work=$(mktemp -d "$top_builddir/sw-devcount.XXXXXX") || hard "mktemp"
bg=
trap '[ -n "$bg" ] && kill "$bg" 2>/dev/null; rm -rf "$work" ${mpi_session:+"$mpi_session"}' EXIT
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }
note() { echo "note $*"; }

fs=$(stat -f -c %T "$work")
case $fs in
tmpfs|ramfs|nfs*|fuse*|overlayfs) skip "the build tree is on $fs: no local disk under it to count" ;;
esac
# The disk's counters must have the flush fields (17 of them, Linux 5.5).
probe=$("$SW" -q -m fdatasync -s 4k -n 5 --dir "$work" -f json 2>&1) ||
	hard "sync-write on $work: $probe"
why=$(printf '%s\n' "$probe" | python3 -c '
import json, sys
d = json.load(sys.stdin)["points"][0]["device"]
if d["counted"] == "no":
    print(d["why"])
elif d["flushes"] is None:
    print("the kernel counts no flushes of " + ", ".join(k["name"] for k in d["disks"]))')
[ -z "$why" ] || skip "the disks under $work cannot be counted: $why"

# json FILE PYTHON: PYTHON run with d (the document), pts (its points),
# dev(i) (point i's device block); it prints "ok"/"FAIL" lines itself.
json() {
	python3 - "$1" <<EOF || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
pts = d["points"]
def dev(i):
    return pts[i]["device"]
failed = 0
def ok(m): print("ok   " + m)
def bad(m):
    global failed
    failed = 1
    print("FAIL " + m)
$2
sys.exit(failed)
EOF
}

# measured NAME LOW GOOD SAY ARGS...: sw ARGS -f json, at most 8 times,
# until the first point's device block x is counted and makes the python
# expression GOOD true.  LOW is about the raw counts, which other I/O can
# only raise (the point's own transactions, at least one flush each...):
# any try, busy or not, that fails it fails the test.  GOOD is about the
# figures less the baseline: this machine's disk is shared with whatever
# else runs (other tests, with their fsyncs), whose bursts a 0.05 s
# baseline cannot always foresee, so a try that is busy or fails GOOD is
# tried again, and if every one does, that is said (the disk was too busy
# to count here), not failed.  SAY describes a try.  The document of the
# last try is in $work/NAME.json; held=1 if one held.
sw() { "$SW" "$@"; }
measured() {
	name=$1 low=$2 good=$3 say=$4; shift 4
	tries= held=0
	for try in 1 2 3 4 5 6 7 8; do
		sw -q "$@" -f json -o "$work/$name.json" 2>"$work/$name.err" ||
			{ bad "$name: exit $?: $(cat "$work/$name.err")"; return 1; }
		line=$(python3 -c '
import json, sys
x = json.load(open(sys.argv[1]))["points"][0]["device"]
if x["counted"] == "no":
    print("no " + x["why"])
elif not eval(sys.argv[2]):
    print("low raw %s writes, %s bytes, %s flushes, %s transactions" % (x["writes"], x["bytes"], x["flushes"], x["txns"]))
elif x["counted"] == "busy":
    print("busy " + x["why"])
else:
    print(("good " if eval(sys.argv[3]) else "poor ") + eval(sys.argv[4]))
' "$work/$name.json" "$low" "$good" "$say")
		case $line in
		"good "*) ok "$name: ${line#good } (try $try)"; held=1; return 0 ;;
		"low "*) bad "$name: ${line#low } (try $try; $low fails)"; return 1 ;;
		"no "*) bad "$name: not counted: ${line#no }"; return 1 ;;
		esac
		tries="$tries${tries:+; }$line"
		sleep 0.5
	done
	note "$name: the disk was too busy with other I/O to count, 8 tries: $tries"
	return 1
}

# 1. fdatasync, 4 KiB, 1 writer: a flush per transaction.
measured fdatasync 'x["txns"] == 208 and x["flushes"] >= 208 and x["bytes"] >= 208 * 4096' \
	'0.9 <= x["flushes_per_txn"] <= 1.1 and x["bytes_per_txn"] >= 4096' \
	'"%.3f flushes per transaction (0.9..1.1), %.0f bytes (>= 4096), %d transactions (200 + 8 warm-up)" % (x["flushes_per_txn"], x["bytes_per_txn"], x["txns"])' \
	-m fdatasync -s 4k -w 1 -n 200 --dir "$work"
[ "$held" = 1 ] && json "$work/fdatasync.json" '
x = dev(0)
(ok if x["writes"] >= x["flushes"] >= 1 else bad)("fdatasync: raw %d writes >= %d flushes (a flush is a write of 0 sectors too)" % (x["writes"], x["flushes"]))
(ok if x["baseline"] and x["baseline"]["seconds"] >= 0.049 else bad)("fdatasync: a baseline of %s s" % (x["baseline"] and x["baseline"]["seconds"]))
w = x["window_ns"]
(ok if w[1] > w[0] > 0 else bad)("fdatasync: window %s (ns)" % w)
(ok if len(x["disks"]) >= 1 and all(k["writes"] >= 1 for k in x["disks"]) else bad)("fdatasync: disks " + ", ".join("%s (write cache %s, fua %s)" % (k["name"], k["write_cache"], k["fua"]) for k in x["disks"]))
'

# O_DSYNC overwrites: a flush each, or FUA writes where the disk takes them.
measured dsync 'x["txns"] == 208 and x["bytes"] >= 208 * 4096 and (x["flushes"] >= 208 or all(k["fua"] == "yes" for k in x["disks"]))' \
	'0.9 <= x["flushes_per_txn"] <= 1.1 or all(k["fua"] == "yes" for k in x["disks"])' \
	'"%.3f flushes per transaction" % x["flushes_per_txn"]' \
	-m dsync -s 4k -w 1 -n 200 --dir "$work"

# 2. none: no commit, no flush (or busy, said).
"$SW" -q -m none -s 4k -w 1 -n 2000 --dir "$work" -f json -o "$work/none.json" 2>"$work/none.err" ||
	bad "none: exit $?: $(cat "$work/none.err")"
json "$work/none.json" '
x = dev(0)
if x["counted"] == "yes":
    (ok if x["flushes_per_txn"] < 0.1 else bad)("none: %.4f flushes per transaction (< 0.1)" % x["flushes_per_txn"])
elif x["counted"] == "busy":
    (ok if "other I/O" in x["why"] else bad)("none: busy, with the reason: " + x["why"])
else:
    bad("none: not counted: " + x["why"])
'

# 3. 4 writers of fdatasync: flushes merged, never more than one each.
measured w4 'x["txns"] == 4 * 208 and x["flushes"] >= 1 and x["bytes"] >= 4 * 208 * 4096' \
	'0 < x["flushes_per_txn"] <= 1.05' \
	'"%.3f flushes per transaction (<= 1.05), %d transactions (4 x 208)" % (x["flushes_per_txn"], x["txns"])' \
	-m fdatasync -s 4k -w 4 -n 200 --dir "$work"

# 4. tmpfs: no local disk, said (JSON, table).
if [ -d /dev/shm ] && [ "$(stat -f -c %T /dev/shm)" = tmpfs ]; then
	shm=$(mktemp -d /dev/shm/sw-devcount.XXXXXX) || hard "mktemp /dev/shm"
	"$SW" -q -m fdatasync -s 4k -n 20 --dir "$shm" -f json -o "$work/shm.json" 2>&1 ||
		bad "tmpfs: exit $?"
	"$SW" -q -m fdatasync,none -s 4k -n 20 --dir "$shm" >"$work/shm.txt" 2>&1 ||
		bad "tmpfs table: exit $?"
	rm -rf "$shm"
	json "$work/shm.json" '
x = dev(0)
(ok if x["counted"] == "no" and "no local disk" in x["why"] else bad)("tmpfs: counted %s: %s" % (x["counted"], x.get("why")))
(ok if x["writes"] is None and x["flushes_per_txn"] is None and x["disks"] == [] else bad)("tmpfs: null counts, never 0 (%s, %s)" % (x["writes"], x["flushes_per_txn"]))
'
	row=$(grep '^fdatasync ' "$work/shm.txt")
	[ "$(printf '%s\n' "$row" | awk '{ print $12 }')" = n/a ] &&
		grep -q '^flush/txn: n/a (2 rows): no local disk' "$work/shm.txt" &&
		ok "tmpfs table: flush/txn n/a, and why once: $(grep '^flush/txn:' "$work/shm.txt")" ||
		{ bad "tmpfs table:"; cat "$work/shm.txt"; }
else
	note "no tmpfs at /dev/shm: the no-local-disk case is not run"
fi

# 5. The formats: JSON against the schema, CSV's columns, the table's.
if python3 -c 'import jsonschema' 2>/dev/null; then
	for f in fdatasync none w4 shm; do
		[ -f "$work/$f.json" ] || continue
		python3 - "$top_srcdir/tools/sync-write.schema.json" "$work/$f.json" <<'EOF' || fail=1
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))
print("ok   %s is valid against tools/sync-write.schema.json" % sys.argv[2].split("/")[-1])
EOF
	done
else
	note "no python3 module jsonschema: the documents are not checked against the schema"
fi
"$SW" -q -m fdatasync,none -s 4k -n 100 --dir "$work" -f csv -o "$work/r.csv" 2>&1 ||
	bad "csv: exit $?"
python3 - "$work/r.csv" <<'EOF' || fail=1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
cols = ["dev_state", "dev_writes_per_txn", "dev_bytes_per_txn", "dev_flushes_per_txn", "dev_amplification"]
missing = [c for c in cols if c not in rows[0]]
assert not missing, "FAIL csv lacks " + ", ".join(missing)
r = rows[0]
assert r["method"] == "fdatasync" and r["dev_state"] in ("yes", "busy"), "FAIL csv: %s" % r
if r["dev_state"] == "yes":
    f = float(r["dev_flushes_per_txn"])   # (other I/O only adds: the upper bound is 1.'s)
    assert 0.9 <= f, "FAIL csv: fdatasync dev_flushes_per_txn %s" % f
    print("ok   csv: the dev_ columns; fdatasync dev_flushes_per_txn %s" % r["dev_flushes_per_txn"])
else:
    assert r["dev_flushes_per_txn"] == "", "FAIL csv: a busy row with figures: %s" % r
    print("ok   csv: the dev_ columns; fdatasync busy, its figures empty")
EOF
"$SW" -q -m fdatasync -s 4k -n 100 --dir "$work" >"$work/t.txt" 2>&1 || bad "table: exit $?"
hdr=$(grep '^method ' "$work/t.txt")
cell=$(grep '^fdatasync ' "$work/t.txt" | awk '{ print $12 }')
case $hdr in
*" flush/txn "*) ;;
*) bad "table header without flush/txn: $hdr" ;;
esac
if [ "$cell" = busy ] || python3 -c 'import sys; sys.exit(not float(sys.argv[1]) >= 0.9)' "$cell" 2>/dev/null; then
	ok "table: flush/txn $cell for fdatasync"
else
	bad "table: flush/txn '$cell' for fdatasync:"; cat "$work/t.txt"
fi
"$SW" -q --wide -m fdatasync -s 4k -n 20 --dir "$work" >"$work/w.txt" 2>&1 || bad "--wide: exit $?"
grep -q 'flush/txn  *dev_wr/txn  *dev_KiB/txn  *amplif ' "$work/w.txt" &&
	ok "--wide: flush/txn dev_wr/txn dev_KiB/txn amplif" || { bad "--wide header:"; cat "$work/w.txt"; }

# 6. --baseline.
"$SW" -q -m fdatasync -s 4k -n 100 --baseline 0 --dir "$work" -f json -o "$work/b0.json" 2>&1 ||
	bad "--baseline 0: exit $?"
json "$work/b0.json" '
x = dev(0)
(ok if x["counted"] == "yes" and x["baseline"] is None and x["flushes_per_txn"] >= 0.9 else bad)("--baseline 0: counted %s, baseline %s, %s flushes per transaction, nothing subtracted" % (x["counted"], x["baseline"], x["flushes_per_txn"]))
'
"$SW" -q -m fdatasync -s 4k -n 20 --baseline 0.2s --dir "$work" -f json -o "$work/b2.json" 2>&1 ||
	bad "--baseline 0.2s: exit $?"
json "$work/b2.json" '
x = dev(0)
b = x["baseline"]
(ok if b is not None and 0.2 <= b["seconds"] < 1 else bad)("--baseline 0.2s: an idle interval of %s s" % (b and b["seconds"]))
'
expect_exit 2 "baseline 'soon'" "$SW" --baseline soon -n 1 -m none -s 4k --dir "$work"
expect_exit 2 "baseline '-1'" "$SW" --baseline -1 -n 1 -m none -s 4k --dir "$work"

# 7. Other I/O during a point: a writer of direct synchronous writes on
# the same file system, started before the baseline: busy, named.
if dd --help 2>/dev/null | grep -q 'oflag'; then
	dd if=/dev/zero of="$work/other" bs=64k count=20000 oflag=direct,dsync 2>/dev/null &
	bg=$!
	sleep 0.3
	"$SW" -q -m none -s 4k -t 0.5s --dir "$work" -f json -o "$work/busy.json" 2>&1 ||
		bad "busy: exit $?"
	kill "$bg" 2>/dev/null
	wait "$bg" 2>/dev/null
	bg=
	rm -f "$work/other"
	json "$work/busy.json" '
x = dev(0)
(ok if x["counted"] == "busy" and "other I/O" in x["why"] and x["flushes_per_txn"] is None else bad)("a point of none beside dd oflag=direct,dsync: %s: %s" % (x["counted"], x.get("why", "%s flushes per transaction" % x["flushes_per_txn"])))
(ok if x["writes"] > 0 and x["baseline"]["writes"] > 0 else bad)("busy: raw %s writes in the window, %s in the baseline" % (x["writes"], x["baseline"]["writes"]))
'
else
	note "no dd with oflag: the busy case is not run"
fi

# 8. Two MPI ranks on this host, one disk: counted once.
if [ -n "$MPIEXEC" ] && [ -x "$MPIEXEC" ] && [ -x "$tools/sync-write-mpi" ]; then
	. "$top_srcdir/tests/mpi-lib.sh"
	mpi_need
	mpi_own_session
	mpi_mode=local         # ranks on this host: one disk, one host
	chmod 777 "$work"
	mpi_write_run "$work"
	sw() { timeout 300 "$mpi_run" 2 "$tools/sync-write-mpi" "$@"; }
	measured mpi 'x["txns"] == 2 * 208 and x["flushes"] >= 1 and x["bytes"] >= 2 * 208 * 4096 and len(x["disks"]) == len(set((k["host"], k["name"]) for k in x["disks"]))' \
		'0.3 <= x["flushes_per_txn"] <= 1.1' \
		'"%.3f flushes per transaction (the disk once: <= 1.1, not ~2), %d transactions (2 x 208), disks %s" % (x["flushes_per_txn"], x["txns"], [(k["host"], k["name"]) for k in x["disks"]])' \
		-m fdatasync -s 4k -w 1 -n 200 --dir "$work"
else
	note "no MPI build (configure --with-mpi): the MPI case is not run"
fi

exit $fail
