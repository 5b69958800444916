#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# sync-write-formats.sh -- CSV has its documented columns (and no summary:
# every line is a point's), JSON parses and matches
# tools/sync-write.schema.json (its summary recomputed from its points; on
# tmpfs, why nothing is durable), the SVG renders in a real renderer, and
# the table has its header and one row per point.
. "${top_srcdir:-.}/tests/lib.sh"

need_cmd python3 python3
python3 -c 'import jsonschema' 2>/dev/null || skip "python3 module jsonschema missing (apt-get install python3-jsonschema)"
need_cmd rsvg-convert librsvg2-bin
SW=$tools/sync-write
work=$(mktemp -d "$top_builddir/sw-formats.XXXXXX") || hard "mktemp"
trap 'rm -rf "$work"' EXIT
fail=0
args="-q -m none,fdatasync,direct,rwf-dsync -s 512,48k -w 1,2 -n 10 --dir $work"

# CSV
"$SW" $args -f csv --per-writer -o "$work/r.csv" || { echo "FAIL csv run"; exit 1; }
hdr="point,method,size_bytes,writers,writer,status,txns,bytes,wall_s,avg_us,min_us,p50_us,p90_us,p99_us,p999_us,max_us,stddev_us,txn_per_s,mb_per_s,cpu_user_s,cpu_sys_s,cpu_us_per_txn,direct,sync_flag,commit,verify_checked,verify_ok,note,hint,dev_state,dev_writes_per_txn,dev_bytes_per_txn,dev_flushes_per_txn,dev_amplification"
[ "$(head -n 1 "$work/r.csv")" = "$hdr" ] || { echo "FAIL csv header"; fail=1; }
python3 - "$work/r.csv" <<'PY' || fail=1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
agg = [r for r in rows if r["writer"] == "all"]
assert len(agg) == 4 * 2 * 2, len(agg)
for r in rows:
    assert len(r) == 34 and None not in r, r
    assert r["dev_state"] in (("yes", "no", "busy") if r["writer"] == "all" else ("",)), r
    if r["status"] == "ok":
        assert int(r["txns"]) == 10 * (int(r["writers"]) if r["writer"] == "all" else 1), r
        assert float(r["avg_us"]) > 0 and 0 < float(r["min_us"]) <= float(r["p50_us"]) <= float(r["max_us"]), r
        assert int(r["bytes"]) == int(r["txns"]) * int(r["size_bytes"]), r
per = [r for r in rows if r["writer"] != "all"]
assert len(per) == sum(int(r["writers"]) for r in agg if r["status"] == "ok"), len(per)
print("ok   csv: %d rows, %d aggregate" % (len(rows), len(agg)))
PY

# JSON against the schema
"$SW" $args -f json -o "$work/r.json" || { echo "FAIL json run"; exit 1; }
python3 - "$work/r.json" "$top_srcdir/tools/sync-write.schema.json" <<'PY' || fail=1
import json, sys, jsonschema
doc = json.load(open(sys.argv[1]))
jsonschema.validate(doc, json.load(open(sys.argv[2])))
pts = doc["points"]
assert len(pts) == 16 and doc["schema"] == 1 and doc["tool"] == "sync-write"
for p in pts:
    if p["status"] == "ok":
        assert len(p["per_writer"]) == p["writers"]
        assert p["aggregate"]["txns"] == sum(w["txns"] for w in p["per_writer"])
print("ok   json: valid against the schema, %d points" % len(pts))
# The summary: per size and writers, in the points' order, the durable
# method of the lowest avg_us among the points measured whole, and none's.
durable = lambda m: m not in ("none", "direct")
rows = doc["summary"]["rows"]
assert doc["summary"]["by"] == "avg_us" and doc["summary"]["cannot_be_durable"] is None
keys = []
for p in pts:
    if (p["size_bytes"], p["writers"]) not in keys:
        keys.append((p["size_bytes"], p["writers"]))
assert [(r["size_bytes"], r["writers"]) for r in rows] == keys, rows
for r in rows:
    at = [p for p in pts if (p["size_bytes"], p["writers"]) == (r["size_bytes"], r["writers"])
          and p["status"] == "ok"]
    dur = [p for p in at if durable(p["method"])]
    none = [p for p in at if p["method"] == "none"]
    if not dur:
        assert r["method"] is None and r["avg_us"] is None, r
        continue
    best = min(dur, key=lambda p: p["aggregate"]["avg_us"])
    assert r["avg_us"] == best["aggregate"]["avg_us"] and r["method"] in \
        [p["method"] for p in dur if p["aggregate"]["avg_us"] == r["avg_us"]], (r, dur)
    if none:
        n = none[0]["aggregate"]["avg_us"]
        assert r["none_avg_us"] == n and abs(r["added_us"] - (r["avg_us"] - n)) < 1e-3 * r["avg_us"]
        assert abs(r["ratio"] - r["avg_us"] / n) < 1e-4 * r["ratio"], r
print("ok   json: summary of %d rows: the fastest durable point and its cost against none" % len(rows))
PY
# and the schema rejects what it should
python3 - "$work/r.json" "$top_srcdir/tools/sync-write.schema.json" <<'PY' || fail=1
import json, sys, jsonschema
doc = json.load(open(sys.argv[1])); schema = json.load(open(sys.argv[2]))
doc["points"][0]["status"] = "great"
try:
    jsonschema.validate(doc, schema)
    raise SystemExit("schema accepted a bad status")
except jsonschema.ValidationError:
    print("ok   json: schema rejects an invalid document")
doc = json.load(open(sys.argv[1]))
doc["summary"]["rows"][0]["method"] = "none"
try:
    jsonschema.validate(doc, schema)
    raise SystemExit("schema accepted none as the fastest durable method")
except jsonschema.ValidationError:
    print("ok   json: schema rejects a summary whose fastest durable method is none")
PY
# Where nothing can be durable (tmpfs): the summary says why, and has no
# rows; each durable point has the hint, none has not.
shm=${DIO_TEST_TMPFS:-/dev/shm}
if [ "$DIO_BACKEND" = posix ]; then
	echo "skipped: json on tmpfs (the posix backend cannot tell file systems apart: sync-write-table.sh checks what it says)"
elif [ "$(stat -f -c %T "$shm" 2>/dev/null)" = tmpfs ] && [ -w "$shm" ]; then
	"$SW" -q -m none,fdatasync,direct+dsync -s 4k -n 10 --dir "$shm" -f json -o "$work/shm.json" ||
		{ echo "FAIL json run on tmpfs"; fail=1; }
	python3 - "$work/shm.json" "$top_srcdir/tools/sync-write.schema.json" <<'PY' || fail=1
import json, sys, jsonschema
doc = json.load(open(sys.argv[1]))
jsonschema.validate(doc, json.load(open(sys.argv[2])))
why = doc["summary"]["cannot_be_durable"]
assert why and why.startswith("tmpfs keeps its files in memory only") and doc["summary"]["rows"] == [], doc["summary"]
for p in doc["points"]:
    if p["status"] == "ok":
        assert (p["hint"] == "nothing is durable here: " + why) == (p["method"] != "none"), p
print("ok   json on tmpfs: cannot_be_durable '%s', no summary rows, a hint on each durable point" % why)
PY
else
	echo "skipped: json on tmpfs ($shm is not a writable tmpfs; set DIO_TEST_TMPFS)"
fi

# SVG: renders to a PNG of the documented size (3 charts with 2 writer counts)
"$SW" $args -f table --plot "$work/r.svg" >"$work/r.txt" || { echo "FAIL plot run"; exit 1; }
rsvg-convert "$work/r.svg" -o "$work/r.png" || { echo "FAIL rsvg-convert"; fail=1; }
python3 - "$work/r.png" "$work/r.svg" <<'PY' || fail=1
import struct, sys
d = open(sys.argv[1], "rb").read()
assert d[:8] == b"\x89PNG\r\n\x1a\n"
w, h = struct.unpack(">II", d[16:24])
# a fourth chart where the disks' flushes were counted (issue 41)
flush = open(sys.argv[2]).read().count("Cache flushes per transaction") > 0
assert (w, h) == (900, 1840 if flush else 1380), (w, h, flush)
print("ok   svg: renders as a %dx%d PNG (%d bytes)" % (w, h, len(d)))
PY
want=12
grep -q 'Cache flushes per transaction' "$work/r.svg" && want=16
grep -c '<polyline' "$work/r.svg" | grep -qx $want || { echo "FAIL svg: expected $want lines (4 methods x $((want / 4)) charts)"; fail=1; }
# The flushes' chart: a point per row of the table at 48 KiB whose
# flush/txn was counted, on its method's line, in the table's order of
# values (1 and 2 writers).
python3 - "$work/r.svg" "$work/r.txt" <<'PY' || fail=1
import re, sys
svg, txt = open(sys.argv[1]).read(), open(sys.argv[2]).read().split("\n")
fi, vals = None, {}
for line in txt:
    f = line.split()
    if f[:1] == ["method"] and "flush/txn" in f:
        fi = f.index("flush/txn")
    elif fi is not None and len(f) > fi and f[1:2] == ["49152"] and re.match(r"^\d+\.\d\d$", f[fi]):
        vals.setdefault(f[0], []).append((int(f[2]), float(f[fi])))
at = svg.find("Cache flushes per transaction")
if at < 0:
    assert not vals, "no flushes chart, yet the table has counts at 48 KiB: %s" % vals
    print("ok   svg: no flushes chart (nothing counted here)")
    sys.exit(0)
chart = svg[at:svg.find("</g>", at)]
lines = re.findall(r'<polyline [^>]*points="([^"]*)"', chart)
names = re.findall(r'font-size="12">([^<]*)</text>', chart)
got = {n: [tuple(map(float, p.split(","))) for p in pts.split()] for n, pts in zip(names, lines)}
for m, v in vals.items():
    assert len(got.get(m, [])) == len(v), (m, got.get(m), v)
    if len(v) == 2 and abs(v[0][1] - v[1][1]) >= 0.05:   # higher value, smaller y
        assert (v[0][1] > v[1][1]) == (got[m][0][1] < got[m][1][1]), (m, v, got[m])
assert sum(len(p) for p in got.values()) == sum(len(v) for v in vals.values()), (got, vals)
print("ok   svg: flushes chart has the table's %d counted points at 48 KiB, in order"
      % sum(len(v) for v in vals.values()))
PY

# table: header, then one row per point
grep -q '^method  *size_B  *wr  *txns  *avg_us' "$work/r.txt" || { echo "FAIL table header"; fail=1; }
n=$(grep -cE '^(none|fdatasync|direct|rwf-dsync) ' "$work/r.txt")
[ "$n" -eq 16 ] || { echo "FAIL table: $n rows, want 16"; cat "$work/r.txt"; fail=1; }
[ $fail -eq 0 ] && echo "ok   table: header and 16 rows"

# The table's sync column says how the sync is carried, in the JSON's words.
"$SW" -q -m none,fsync,fdatasync,dsync,sync,rwf-dsync,direct+fsync -s 4k -n 5 "$work/s" >"$work/s.txt" ||
	{ echo "FAIL sync column run"; fail=1; }
for pair in none:none fsync:fsync fdatasync:fdatasync dsync:O_DSYNC sync:O_SYNC \
    rwf-dsync:rwf-dsync direct+fsync:fsync; do
	m=${pair%%:*} w=${pair#*:}
	# A method this backend cannot run is a row that says n/a and why.
	if awk -v m="$m" '$1 == m && / n\/a: / { f = 1 } END { exit !f }' "$work/s.txt"; then
		echo "skipped: $m cannot run here ($(awk -v m="$m" '$1 == m' "$work/s.txt" | sed 's/.* n\/a: //'))"
		continue
	fi
	got=$(awk -v m="$m" '$1 == m { print $NF }' "$work/s.txt")
	[ "$got" = "$w" ] && echo "ok   table: $m carries its sync as $w" ||
		{ echo "FAIL table: $m's sync column is '$got', want $w"; fail=1; }
done

# PostgreSQL's names (wal_sync_method, pg_test_fsync): open_datasync is
# dsync and open_sync sync; the rows say those names, in the order first
# named, and a method named both ways is measured once.
"$SW" -q -m open_datasync,fdatasync,fsync,open_sync,dsync,direct+open_datasync,direct+open_sync \
	-s 4k -n 5 "$work/pg" >"$work/pg.txt" 2>&1 || { echo "FAIL aliases: $(cat "$work/pg.txt")"; fail=1; }
got=$(awk '$2 == 4096 { printf "%s ", $1 }' "$work/pg.txt")
if [ "$got" = "dsync fdatasync fsync sync direct+dsync direct+sync " ] &&
   awk '$1 == "dsync" && $2 == 4096' "$work/pg.txt" | grep -q ' O_DSYNC$' &&
   awk '$1 == "sync" && $2 == 4096' "$work/pg.txt" | grep -q ' O_SYNC$'; then
	echo "ok   PostgreSQL's names: rows $got"
else
	echo "FAIL PostgreSQL's names: rows '$got':"; cat "$work/pg.txt"; fail=1
fi

# The speed hint: exactly on a durable method whose median is under 1 ms
# on a disk that says it spins (not a loop device), never on 'none'.
rot=$("$tools/dio-info" -f json "$work" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)["device"]
print("yes" if d["rotational"] is True and not d["loop_backing_file"] else "no")')
"$SW" -q -m none,fdatasync -s 4k -n 50 -f json -o "$work/h.json" "$work/h" ||
	{ echo "FAIL hint run"; fail=1; }
python3 - "$work/h.json" "$rot" <<'PY' || fail=1
import json, sys
r = json.load(open(sys.argv[1]))
gone = r["summary"]["cannot_be_durable"]     # a build tree on tmpfs
for p in r["points"]:
    want = (sys.argv[2] == "yes" and p["method"] != "none"
            and p["aggregate"]["p50_us"] < 1000) or bool(gone and p["method"] != "none")
    got = p["hint"] is not None
    assert got == want, "%s: hint %r, want one: %s (spinning disk: %s)" % (
        p["method"], p["hint"], want, sys.argv[2])
    print("ok   hint for %s: %s (median %.0f us, spinning disk: %s)" % (
        p["method"], "yes" if got else "no", p["aggregate"]["p50_us"], sys.argv[2]))
PY
exit $fail
