#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# sync-write-table.sh -- the text sync-write shows a person, on real runs:
#  - the default table fits a 132-column terminal: no line of a short
#    default run (every method and size, two writer counts, --per-writer),
#    nor of a run of three TARGETs, is wider; --wide has every column;
#  - a hint is said once per method and kind (and target), after the
#    table, naming the rows it covers: on a disk that says it spins,
#    exactly the rows of a durable method whose median is under 1 ms;
#    elsewhere none; "the device merged commits" exactly for the rows of
#    several writers whose flush/txn is 0.01 to 0.95;
#  - the progress line says the time elapsed and, once a point has run,
#    an estimate of the time left ("~... left"): with --progress off a
#    terminal a line as each point ends, on a terminal (script(1)) redrawn
#    in place, without an estimate while the first point runs;
#  - --help fits 80 columns and ends by naming the man page;
#  - a run of several methods ends with its summary: per size and writers
#    the fastest durable method of the table (lowest avg_us) and its cost
#    against none, recomputed here from the table's rows.
. "${top_srcdir:-.}/tests/lib.sh"

SW=$tools/sync-write
work=$(mktemp -d "$top_builddir/sw-table.XXXXXX") || hard "mktemp"
trap 'rm -rf "$work"' EXIT
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }

# The widest line of a file, in bytes (the runs' text is ASCII here).
widest() { LC_ALL=C awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$1"; }

# 1. --help ends with where the man page is, on lines of at most 80
# columns (a terminal's).
out=$("$SW" --help) || bad "--help: exit $?"
last=$(printf '%s\n' "$out" | tail -n 1)
case $last in
*"sync-write(1)"*) ok "--help ends naming the man page: $last" ;;
*) bad "--help's last line does not name sync-write(1): $last" ;;
esac
printf '%s\n' "$out" >"$work/help.txt"
[ "$(widest "$work/help.txt")" -le 80 ] && ok "--help: widest line $(widest "$work/help.txt") columns (<= 80)" ||
	bad "--help has lines wider than 80 columns: $(awk 'length($0) > 80' "$work/help.txt")"
printf '%s\n' "$out" | grep -q -- '--wide' && printf '%s\n' "$out" | grep -q -- '--progress' &&
	ok "--help names --wide and --progress" || bad "--help lacks --wide or --progress"

# 2. A short default run (every method and size), 2 writer counts, each
# writer's row: within 132 columns.
"$SW" -q -t 20ms -w 1,2 --per-writer --dir "$work" >"$work/d.txt" 2>"$work/d.err" ||
	{ bad "default run: exit $?: $(cat "$work/d.err")"; }
w=$(widest "$work/d.txt")
rows=$(grep -cE '^(none|fsync|fdatasync|dsync|sync|rwf-dsync|direct[+a-z-]*) ' "$work/d.txt")
[ "$w" -le 132 ] && [ "$rows" -ge 260 ] &&
	ok "a default run, -w 1,2 --per-writer: $rows rows, widest line $w columns (<= 132)" ||
	{ bad "default run: widest line $w columns, $rows rows:"; LC_ALL=C awk 'length($0) > 132' "$work/d.txt"; }

# Three TARGETs side by side (in blocks that fit), several methods.
"$SW" -q -n 5 -m fsync,dsync,direct+fdatasync -s 4k,1m -w 1,2 --label first \
	--label second --label "the third target" "$work/t1" "$work/t2" "$work/t3" \
	>"$work/m.txt" 2>"$work/m.err" || bad "3 TARGETs: exit $?: $(cat "$work/m.err")"
w=$(widest "$work/m.txt")
[ "$w" -le 132 ] && grep -q ' | run 3: the third target' "$work/m.txt" &&
	ok "3 TARGETs: every run shown, widest line $w columns (<= 132)" ||
	{ bad "3 TARGETs: widest line $w columns:"; cat "$work/m.txt"; }

# --wide: every column (min_us, p90_us, stdev_us, cpu_us, and what the
# disks saw per transaction), one table.
"$SW" -q --wide -n 5 -m none,fsync -s 4k --dir "$work" >"$work/w.txt" 2>&1 ||
	bad "--wide: exit $?: $(cat "$work/w.txt")"
grep -q '^method  *size_B  *wr  *txns  *avg_us  *min_us  *p50_us  *p90_us  *p99_us  *p99.9_us  *max_us  *stdev_us  *txn/s  *MB/s  *cpu_us  *flush/txn  *dev_wr/txn  *dev_KiB/txn  *amplif  *direct  *sync$' "$work/w.txt" &&
	[ "$(widest "$work/w.txt")" -gt 132 ] && ok "--wide: every column ($(widest "$work/w.txt") columns)" ||
	{ bad "--wide's header:"; cat "$work/w.txt"; }
grep -q '^method  *size_B  *wr  *txns  *avg_us  *p50_us  *p99_us  *p99.9_us  *max_us  *txn/s  *MB/s  *flush/txn  *direct  *sync$' "$work/d.txt" &&
	ok "the default header: method size_B wr txns avg_us p50_us p99_us p99.9_us max_us txn/s MB/s flush/txn direct sync" ||
	bad "the default header: $(grep '^method' "$work/d.txt")"
expect_exit 2 "--wide is for the table" "$SW" --wide -f csv -n 1 -m none -s 4k --dir "$work"

# 3. Hints: one line per method and kind (per target), none under a row.
#    A kind is what the line says after its rows ("medians", "the device
#    merged commits", "the device wrote", "not durable"...).
# A hint line's method and kind: the method, and its text up to the first
# figure ("medians ", "the device merged commits: ", "the device wrote ").
kinds() { sed -n 's/^hint: \(\(run [0-9]*: \)*[^ ]*\) at .* rows*): \([^0-9]*\).*/\1 \3/p' "$1"; }
n=$(grep -c '^hint: ' "$work/d.txt")
dup=$(kinds "$work/d.txt" | sort | uniq -d)
under=$(grep -c '^  *hint: ' "$work/d.txt")
[ -z "$dup" ] && [ "$under" -eq 0 ] && ok "hints: $n line(s), at most one per method and kind, none under a row" ||
	bad "hints said more than once (${dup:-none twice}) or under rows ($under)"
dup=$(kinds "$work/m.txt" | sort | uniq -d)
[ -z "$dup" ] && ok "3 TARGETs: at most one hint per target, method and kind ($(grep -c '^hint: ' "$work/m.txt") in all)" ||
	bad "3 TARGETs: hints said twice: $dup"
# Which rows a hint covers: on a disk that says it spins (not a loop
# device's file), exactly those of a durable method with a median under
# 1 ms, by size and writers, and the range of their medians; elsewhere no
# hint at all.
if command -v python3 >/dev/null 2>&1; then
	rot=$("$tools/dio-info" -f json "$work" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)["device"]
print("yes" if d["rotational"] is True and not d["loop_backing_file"] else "no")' 2>/dev/null)
	python3 - "$work/d.txt" "${rot:-no}" <<'PY' || fail=1
import re, sys
text = open(sys.argv[1]).read().split("\n")
rot = sys.argv[2] == "yes"
durable = {"fsync", "fdatasync", "dsync", "sync", "rwf-dsync", "direct+dsync",
           "direct+fdatasync", "direct+fsync", "direct+sync", "direct+rwf-dsync"}
rows, hints, order, merged, fi = [], {}, {}, {}, None
for i, line in enumerate(text):
    f = line.split()
    if line.startswith("method ") and "flush/txn" in f:
        fi = f.index("flush/txn")
    if len(f) >= 13 and f[0] in durable | {"none", "direct"} and f[1].isdigit() and f[3].isdigit():
        fl = f[fi] if fi is not None else "n/a"
        rows.append((f[0], int(f[1]), int(f[2]), float(f[5]),
                     float(fl) if fl not in ("n/a", "busy") else None))
    if line.startswith("hint: ") and ": nothing is durable here: " not in line:
        whole = line          # (a build tree on tmpfs: that hint is section 4's)
        for cont in text[i + 1:]:            # wrapped: 6 spaces
            if not cont.startswith("      "):
                break
            whole += " " + cont.strip()
        m = re.match(r"hint: (\S+) at (.*) \((\d+) rows?\): (.*)", whole)
        assert m, "a hint line that does not say its rows: " + whole
        if m.group(4).startswith("the device merged commits: "):
            merged[m.group(1)] = m
            continue
        if not m.group(4).startswith("median"):   # the other device kinds
            continue
        m = re.match(r"hint: (\S+) at (.*) \((\d+) rows?\): medians? (\d+)(?:\.\.(\d+))? us", whole)
        assert m, "a hint line that does not say its rows: " + whole
        hints[m.group(1)] = m
sizes = {}
for r in rows:
    sizes.setdefault((r[0], r[2]), []).append(r[1])
def expand(method, text):
    """'512, 2048..8192 B with 1 and 2 writers' or '... B with 1 writer; ...' -> {(size, wr)}"""
    got = set()
    parts = text.split("; ")
    for part in parts:
        m = re.match(r"(.*) B with (.*) writers?$", part)
        assert m, part
        wrs = [int(x) for x in re.split(r", | and ", m.group(2))]
        for w in wrs:
            order = sizes[(method, w)]
            for item in m.group(1).split(", "):
                if ".." in item:
                    a, b = (int(x) for x in item.split(".."))
                    got |= {(s, w) for s in order[order.index(a):order.index(b) + 1]}
                else:
                    got.add((int(item), w))
    return got
for method in sorted(durable | {"none", "direct"}):
    want = {(r[1], r[2]) for r in rows if r[0] == method and rot and method in durable
            and r[3] < 1000}
    edge = {(r[1], r[2]) for r in rows if r[0] == method and 999.9 <= r[3] <= 1000.1}
    m = hints.get(method)
    got = expand(method, m.group(2)) if m else set()
    assert (got ^ want) <= edge, "%s: the hint covers %s, the rows under 1 ms are %s" % (
        method, sorted(got), sorted(want))
    if m:
        assert int(m.group(3)) == len(got), (method, m.group(3), len(got))
        med = [r[3] for r in rows if r[0] == method and (r[1], r[2]) in got]
        lo, hi = int(m.group(4)), int(m.group(5) or m.group(4))
        assert abs(lo - min(med)) <= 1 and abs(hi - max(med)) <= 1, (method, lo, hi, med)
        print("ok   hint for %s: %s row(s), %s (medians %s us)" % (method, m.group(3),
              m.group(2), m.group(4) + (".." + m.group(5) if m.group(5) else "")))
print("ok   hints name exactly the rows of a durable method under 1 ms (spinning disk: %s; %d hint lines)"
      % (sys.argv[2], len(hints)))
# "The device merged commits" (issue 41): exactly the rows of a durable
# method with several writers whose flush/txn (as printed) is 0.01 to
# 0.95, not counting the ones the rounding puts on the edge.
for method in sorted(durable):
    want = {(r[1], r[2]) for r in rows if r[0] == method and r[2] > 1 and
            r[4] is not None and 0.01 <= r[4] < 0.95}
    edge = {(r[1], r[2]) for r in rows if r[0] == method and r[4] is not None and
            (r[4] in (0.01, 0.95) or r[4] < 0.01)}
    m = merged.get(method)
    got = expand(method, m.group(2)) if m else set()
    assert (got ^ want) <= edge, "%s: the merged hint covers %s, the rows of 0.01 to 0.95 " \
        "flushes per transaction with several writers are %s" % (method, sorted(got), sorted(want))
    if m:
        assert int(m.group(3)) == len(got), (method, m.group(3), len(got))
print("ok   'the device merged commits' names exactly the rows of several writers under "
      "0.95 flushes per transaction (%d line(s); %d rows with a flush count)"
      % (len(merged), len([r for r in rows if r[4] is not None])))
PY
else
	echo "skipped: which rows the hints cover (no python3)"
fi

# 4. The summary, at the end of a run of several methods: a row per size
# and number of writers (in the table's order), the durable method of the
# lowest avg_us among the table's rows, none's avg_us there, and the cost
# (+us and x) of the one over the other, recomputed from the table's rows
# (printed to 0.1 us: the choice may differ only between rows that print
# alike).  -q leaves it (it is a result, not progress); one method alone
# has none (its rows are the answer).
if command -v python3 >/dev/null 2>&1; then
	python3 - "$work/d.txt" <<'PY' || fail=1
import sys
text = open(sys.argv[1]).read().split("\n")
durable = {"fsync", "fdatasync", "dsync", "sync", "rwf-dsync", "direct+dsync",
           "direct+fdatasync", "direct+fsync", "direct+sync", "direct+rwf-dsync"}
rows = {}
for line in text:
    f = line.split()
    if len(f) >= 13 and (f[0] in durable or f[0] in ("none", "direct")) and f[1].isdigit() and f[3].isdigit():
        rows.setdefault((int(f[1]), int(f[2])), {})[f[0]] = float(f[4])
at = [i for i, l in enumerate(text) if l.startswith("summary: ")]
assert len(at) == 1, "want one summary, got %d" % len(at)
head = [i for i in range(at[0], len(text)) if text[i].split()[:3] == ["size_B", "wr", "fastest"]]
assert head, "no summary header"
got = []
for line in text[head[0] + 1:]:
    f = line.split()
    if len(f) != 7 or not f[0].isdigit():
        break
    got.append(f)
keys = list(rows)                 # the table's order: writers, then sizes
assert [(int(f[0]), int(f[1])) for f in got] == keys, (got, keys)
for f in got:
    key = (int(f[0]), int(f[1]))
    dur = {m: a for m, a in rows[key].items() if m in durable}
    best = min(dur.values())
    a, n, plus, x = float(f[3]), float(f[4]), float(f[5]), float(f[6])
    assert f[2] in dur and dur[f[2]] == best == a, (key, f, dur)
    assert n == rows[key]["none"], (key, f, rows[key])
    assert abs(plus - (a - n)) <= 0.15, (key, f)
    err = (0.05 / n + 0.05 / a) * a / n + 0.05
    assert abs(x - a / n) <= err, (key, f, a / n)
print("ok   summary: %d rows, each the fastest durable row and its cost against none" % len(got))
PY
else
	echo "skipped: the summary recomputed (no python3)"
fi
"$SW" -q -n 5 -m fsync -s 4k,8k --dir "$work" >"$work/one.txt" 2>&1 || bad "one method: exit $?"
grep -q '^summary' "$work/one.txt" && bad "one method: a summary: $(cat "$work/one.txt")" ||
	ok "one method: no summary (its rows are the answer)"
# On a file system in memory nothing is durable: said in a hint line for
# all the durable methods and in the summary, which then has no rows.  A
# backend that cannot tell file systems apart (posix) says that it cannot
# tell, in the summary.
shm=${DIO_TEST_TMPFS:-/dev/shm}
if [ "$DIO_BACKEND" = posix ]; then
	"$SW" -q -n 20 -m none,fsync -s 4k --dir "$shm" >"$work/shm.txt" 2>&1 ||
		bad "posix backend: exit $?: $(cat "$work/shm.txt")"
	said=$(sed -n '/^summary: /,/^ *size_B /p' "$work/shm.txt" | tr -s ' \n' '  ')
	if printf '%s\n' "$said" | grep -q "cannot tell whether anything there can be durable"; then
		ok "posix backend: the summary says that it cannot tell whether anything is durable"
	else
		bad "posix backend: the summary does not say that it cannot tell:"; cat "$work/shm.txt"
	fi
elif [ "$(stat -f -c %T "$shm" 2>/dev/null)" = tmpfs ] && [ -w "$shm" ]; then
	"$SW" -q -n 20 -m none,fsync,dsync -s 4k --dir "$shm" >"$work/shm.txt" 2>&1 ||
		bad "tmpfs run: exit $?: $(cat "$work/shm.txt")"
	if grep -q '^hint: fsync, dsync (2 rows): nothing is durable here: tmpfs keeps its files in memory only' "$work/shm.txt" &&
	   grep -q '^summary: nothing is durable here: tmpfs keeps its files in memory only' "$work/shm.txt" &&
	   ! grep -q 'fastest durable' "$work/shm.txt"; then
		ok "tmpfs: '$(grep '^summary' "$work/shm.txt")'"
	else
		bad "tmpfs: the hint or the summary does not say that nothing is durable:"; cat "$work/shm.txt"
	fi
else
	echo "skipped: a run on tmpfs ($shm is not a writable tmpfs; set DIO_TEST_TMPFS)"
fi

# 5. The progress line.  Off a terminal: nothing, unless --progress; then a
# line as each point ends, with the time elapsed and "~... left" (an
# estimate from the points done, that one included).
"$SW" -t 50ms -m none,fsync -s 4k,64k -o "$work/p.txt" --dir "$work" 2>"$work/p0.err" ||
	bad "run without --progress: exit $?"
[ ! -s "$work/p0.err" ] && ok "off a terminal, no progress line without --progress" ||
	bad "off a terminal without --progress: $(cat "$work/p0.err")"
"$SW" --progress -t 50ms -m none,fsync -s 4k,64k -o "$work/p.txt" --dir "$work" 2>"$work/p.err" ||
	bad "--progress: exit $?: $(cat "$work/p.err")"
n=$(grep -c '^\[[1-4]/4\] [a-z]*, [0-9]* KiB, 1 writer: [0-9]* transactions; [0-9.hms]* elapsed, ~[0-9.hms]* left$' "$work/p.err")
if [ "$n" -eq 4 ] && [ "$(wc -l <"$work/p.err")" -eq 4 ] && tail -n 1 "$work/p.err" | grep -q '~0.0s left$'; then
	ok "--progress off a terminal: a line per point; the first '$(head -n 1 "$work/p.err")', the last '$(tail -n 1 "$work/p.err")'"
else
	bad "--progress off a terminal:"; cat "$work/p.err"
fi
# With --count the running point's share of its transactions is known.
"$SW" --progress -n 50 -m none,fsync -s 4k -w 1,2 -o "$work/p.txt" --dir "$work" 2>"$work/c.err" ||
	bad "--progress -n 50: exit $?"
[ "$(grep -c ' writers\{0,1\}: [0-9]* transactions; [0-9.hms]* elapsed, ~[0-9.hms]* left$' "$work/c.err")" -eq 4 ] &&
	ok "--progress -n 50: a line per point, each with an estimate" ||
	{ bad "--progress -n 50:"; cat "$work/c.err"; }
expect_exit 2 "--quiet and --progress exclude each other" "$SW" -q --progress -n 1 -m none -s 4k --dir "$work"
# On a terminal (util-linux script(1) gives one): redrawn in place with
# carriage returns, the elapsed time and, after the first point, "~... left".
if script --version 2>/dev/null | grep -q util-linux; then
	SHELL=/bin/sh script -qfec "'$SW' -t 0.6s -m none,fsync -s 4k,64k -o '$work/s.txt' --dir '$work'" \
		"$work/tty.raw" >/dev/null 2>&1 </dev/null
	tr '\r' '\n' <"$work/tty.raw" | grep -a '^\[' >"$work/tty.lines"
	if grep -q '^\[1/4\] none, 4 KiB, 1 writer: [0-9]* transactions; [0-9.]*s elapsed *$' "$work/tty.lines" &&
	   grep -q '^\[[2-4]/4\] .* elapsed, ~[0-9.hms]* left *$' "$work/tty.lines" &&
	   ! grep '^\[1/4\]' "$work/tty.lines" | grep -q left; then
		ok "on a terminal: redrawn in place ($(wc -l <"$work/tty.lines") times), e.g. '$(grep left "$work/tty.lines" | tail -n 1 | sed 's/ *$//')'"
	else
		bad "on a terminal, the progress line:"; cat -v "$work/tty.raw" | head -c 2000
	fi
else
	echo "skipped: the progress line on a terminal (no util-linux script)"
fi
exit $fail
