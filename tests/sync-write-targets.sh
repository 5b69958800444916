#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# sync-write-targets.sh -- several TARGETs in one run, and names that are
# not plain text:
#  - --extend with two TARGETs writes each writer's transactions one after
#    the other, as with one TARGET: the transaction headers read back from
#    both files (shared and separate layouts) say writer, sequence and the
#    offset they were found at;
#  - a TARGET on a full file system (a small tmpfs, as root) is reported
#    as a failure (exit 1, "no space left"), not as transactions done;
#  - no TARGET may be another one's file, or a file another one's writers
#    write with --layout separate: the same name twice, ./a and a, a hard
#    link, a symbolic link, TARGET.1 besides TARGET with two writers; each
#    refused with both names, exit 2, the directory as it was;
#  - a TARGET named with a newline, a control character or bytes that are
#    not UTF-8: the table keeps one line per run (escapes), the JSON is
#    valid (json.loads; U+FFFD for the bytes), a message is one line;
#  - --label: UTF-8 only (a clear refusal), counted in characters;
#  - SIGINT during TARGET 1's turn: the point cut short is shown with its
#    partial figures and TARGET 2 "not run", as one TARGET's would be;
#  - a mounted device (as root, a loop device): refused as in use (exit
#    1) with or without --force, never told to pass --force, unchanged.
. "${top_srcdir:-.}/tests/lib.sh"
own_mounts "$@"

SW=$tools/sync-write
work=$(mktemp -d "$top_builddir/sw-targets.XXXXXX") || hard "mktemp"
full= mounted= loopdev=
cleanup() {
	[ -n "$full" ] && umount "$full" 2>/dev/null
	[ -n "$mounted" ] && umount "$mounted" 2>/dev/null
	[ -n "$loopdev" ] && losetup -d "$loopdev" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT INT TERM
fail=0
ok() { printf 'ok   %s\n' "$*"; }
bad() { printf 'FAIL %s\n' "$*"; fail=1; }
have_py=yes
command -v python3 >/dev/null 2>&1 || have_py=

expect() { _w=$1 _p=$2; shift 2; expect_exit "$_w" "$_p" "$SW" -q "$@"; }

# The transactions found in FILE... (size S): "file index writer seq offset"
# per block; checks that every block holds a transaction of this run whose
# stamped offset is where it was found, and that writer W's sequence numbers
# are 0, 1, 2... in the order of the file (separate: one writer per file).
check_headers() {  # WHAT SIZE WRITERS-PER-FILE WANT-BLOCKS FILE...
	_what=$1 _size=$2 _wpf=$3 _want=$4; shift 4
	python3 - "$_size" "$_wpf" "$_want" "$@" <<'PY'
import struct, sys
size, wpf, want = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
for path in sys.argv[4:]:
    data = open(path, "rb").read()
    if len(data) != want * size:
        sys.exit("%s: %d bytes, want %d transactions of %d" % (path, len(data), want, size))
    run = None
    for i in range(want):
        magic, rid, pw, seq, off, sz = struct.unpack("<8sQQQQQ", data[i * size:i * size + 48])
        writer = pw & 0xffffffff
        if magic != b"SYNCWRT1" or sz != size:
            sys.exit("%s: block %d holds no transaction" % (path, i))
        if run is None:
            run = rid
        if rid != run:
            sys.exit("%s: block %d is of another run" % (path, i))
        if off != i * size:
            sys.exit("%s: block %d (offset %d) holds writer %d's transaction %d "
                     "stamped for offset %d" % (path, i, i * size, writer, seq, off))
        if wpf > 1 and (writer != i % wpf or seq != i // wpf):
            sys.exit("%s: block %d is writer %d seq %d, want writer %d seq %d"
                     % (path, i, writer, seq, i % wpf, i // wpf))
        if wpf == 1 and seq != i:
            sys.exit("%s: block %d is seq %d" % (path, i, seq))
PY
}

# 1. --extend with two TARGETs: the offsets really written.
if [ -n "$have_py" ]; then
	if "$SW" -q -m fdatasync -s 4k -w 2 -n 6 --warmup 2 --extend --verify --keep \
		"$work/e1" "$work/e2" >"$work/out" 2>&1 &&
	   check_headers shared 4096 2 16 "$work/e1" "$work/e2"; then
		ok "--extend, 2 TARGETs, shared: 2 writers x 8 transactions appended in each file"
	else
		bad "--extend, 2 TARGETs, shared:"; cat "$work/out"
	fi
	rm -f "$work"/e1* "$work"/e2*
	if "$SW" -q -m fdatasync -s 4k -w 2 -n 5 --warmup 1 --extend --layout separate \
		--verify --keep "$work/e1" "$work/e2" >"$work/out" 2>&1 &&
	   check_headers separate 4096 1 6 "$work/e1" "$work/e1.1" "$work/e2" "$work/e2.1"; then
		ok "--extend, 2 TARGETs, separate: 6 transactions appended in each writer's file"
	else
		bad "--extend, 2 TARGETs, separate:"; cat "$work/out"
	fi
	rm -f "$work"/e1* "$work"/e2*
else
	echo "SKIP: the transactions read back: no python3"
fi

# 2. A full file system as one of two TARGETs: a failure, not a result.
if [ "$(uname -s)" = Linux ] && [ "$(id -u)" -eq 0 ]; then
	mkdir "$work/full"
	if mount -t tmpfs -o size=512k tmpfs "$work/full" 2>/dev/null; then
		full=$work/full
		expect 1 "TARGET 2 '$full/t': writer 0, method none, 65536-byte transaction [0-9]* at offset [0-9]*: .*no space left on device" \
			-m none -s 64k -n 40 --extend "$work/ok" "$full/t"
		[ -z "$(ls -A "$full")" ] && [ ! -e "$work/ok" ] &&
			ok "full file system: the run's files are removed" ||
			bad "full file system: files left: $(ls -A "$full" "$work")"
		umount "$full" && full=
	else
		echo "SKIP: a full file system: cannot mount a tmpfs here"
	fi
else
	echo "SKIP: a full file system: needs root on Linux (mount a small tmpfs)"
fi

# 3. TARGETs that are one file, or one another's writers write.
mkdir "$work/c"
echo "precious" >"$work/c/keep"
echo "other" >"$work/c/keep.1"
ln "$work/c/keep" "$work/c/hard"
ln -s keep "$work/c/soft"
ln -s a.dat.1 "$work/c/dangling"
snap() { (cd "$work/c" && ls -lA --time-style=+%s && cat keep keep.1) | cksum; }
before=$(snap)
same="are the same file: each TARGET (and each file its writers write with --layout separate) must be a file or device of its own"
expect 2 "'a.dat.1' (TARGET 1's file for its writer 1, --layout separate) and TARGET 2 'a.dat.1' $same" \
	-n 1 -s 4k -m none --layout separate -w 2 --force a.dat a.dat.1
expect 2 "TARGET 1 'a.dat.1' and 'a.dat.1' (TARGET 2's file for its writer 1, --layout separate)" \
	-n 1 -s 4k -m none --layout separate -w 1,2 --force a.dat.1 a.dat
expect 2 "'$work/c/keep.1' (TARGET 1's file for its writer 1, --layout separate) and TARGET 2 '$work/c/../c/keep.1'" \
	-n 1 -s 4k -m none --layout separate -w 2 --force "$work/c/keep" "$work/c/../c/keep.1"
expect 2 "TARGET 1 'a.dat' and TARGET 2 './a.dat' $same" -n 1 -s 4k -m none a.dat ./a.dat
expect 2 "TARGET 1 '$work/c/../c/n1' and TARGET 2 '$work/c/n1'" -n 1 -s 4k -m none "$work/c/../c/n1" "$work/c/n1"
expect 2 "TARGET 1 '$work/c/keep' and TARGET 2 '$work/c/hard' $same" \
	-n 1 -s 4k -m none --force "$work/c/keep" "$work/c/hard"
expect 2 "TARGET 1 '$work/c/soft' and TARGET 3 '$work/c/keep'" \
	-n 1 -s 4k -m none --force "$work/c/soft" "$work/new" "$work/c/keep"
expect 2 "'$work/c/a.dat.1' (TARGET 1's file for its writer 1, --layout separate) and TARGET 2 '$work/c/dangling'" \
	-n 1 -s 4k -m none --layout separate -w 2 --force "$work/c/a.dat" "$work/c/dangling"
# A writer's file that is an output of the run.
expect 2 "--output '$work/c/o.1' is '$work/c/o.1', the file --layout separate writes for writer 1 of TARGET '$work/c/o'" \
	-n 1 -s 4k -m none --layout separate -w 2 -o "$work/c/o.1" "$work/c/o"
expect 2 "--plot '$work/c/q.1' is '$work/c/q.1', the file --layout separate writes for writer 1 of TARGET '$work/c/q'" \
	-n 1 -s 4k -m none --layout separate -w 2 --plot "$work/c/q.1" "$work/c/p" "$work/c/q"
[ "$(snap)" = "$before" ] && [ ! -e "$work/new" ] && [ ! -e "$work/c/a.dat" ] &&
	[ ! -e "$work/c/a.dat.1" ] && ok "refused TARGETs: nothing made, nothing changed" ||
	bad "refused TARGETs left or changed files: $(ls -A "$work" "$work/c")"
# Apart, they run (and their writers' files go at the end).
expect 0 "^none  *4096  *2 " -n 2 -s 4k -m none --layout separate -w 2 "$work/p" "$work/p.2"
[ -z "$(ls "$work" | grep '^p')" ] && ok "TARGETs p and p.2: all 4 files removed" ||
	bad "files left: $(ls "$work")"

# 4. Names that are not plain text: a newline, a control character,
# bytes that are not UTF-8.
nl=$(printf 'new\nline')
odd=$(printf 'bad\377x\001y')
cd "$work" || hard "cd $work"
"$SW" -q -n 2 -s 4k -m none "$nl" "$odd" >"$work/t.out" 2>&1 ||
	{ bad "odd names: the run failed:"; cat "$work/t.out"; }
if grep -q '^run 1: .*new\\nline' "$work/t.out" && grep -q '^run 2: .*bad\\xffx\\x01y' "$work/t.out" &&
   ! grep -q '^line' "$work/t.out"; then
	ok "odd names: one table line per run, escaped (new\\nline, bad\\xffx\\x01y)"
else
	bad "odd names: the table:"; cat "$work/t.out"
fi
"$SW" -q -n 2 -s 4k -m none -f json "$nl" >"$work/one.json" 2>&1 || bad "odd name, -f json: $(cat "$work/one.json")"
"$SW" -q -n 2 -s 4k -m none -f json -o "$work/two.json" "$nl" "$odd" 2>"$work/err" ||
	bad "odd names, -f json: $(cat "$work/err")"
grep -qxF "sync-write: TARGET 'bad\\xffx\\x01y': 1 byte of the name is not UTF-8: the JSON results write it as U+FFFD" "$work/err" &&
	ok "odd names, -f json: a warning says which name is not UTF-8" ||
	bad "odd names, -f json: no warning for the name that is not UTF-8: $(cat "$work/err")"
if [ -n "$have_py" ]; then
	python3 - "$work/one.json" "$work/two.json" <<'PY' && ok "odd names: JSON valid, newline kept, bytes as U+FFFD" || fail=1
import json, sys
one = json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))
two = json.loads(open(sys.argv[2], "rb").read().decode("utf-8"))
assert one["target"]["path"] == "new\nline", one["target"]
paths = [r["target"] for r in two["runs"]]
assert paths == ["new\nline", "bad\ufffdx\x01y"], paths
PY
fi
expect 2 "TARGET 1 'new\\\\nline' and TARGET 2 'new\\\\nline' are the same file" -n 1 "$nl" "$nl"
out=$("$SW" -q -n 1 "$nl" "$nl" 2>&1)
[ "$(printf '%s\n' "$out" | wc -l)" -eq 2 ] && ok "a message naming 'new<newline>line' is one line (and the --help hint)" ||
	bad "the message is not one line: $out"
cd - >/dev/null || true

# 5. --label: UTF-8, counted in characters.
expect 2 "--label: byte 2 (0xff) is not UTF-8" -n 1 --label "$(printf 'a\377b')" "$work/l1"
expect 2 "--label: byte 1 (0xc0) is not UTF-8" -n 1 --label "$(printf '\300\257')" "$work/l1"
expect 2 "--label: control characters are not allowed" -n 1 --label "$(printf 'a\302\205b')" "$work/l1"
e40=$(printf 'é%.0s' $(seq 40))
expect 2 "--label '${e40}é': 41 characters, at most 40 allowed" -n 1 --label "${e40}é" "$work/l1"
expect 0 "^label:   $e40 " -n 1 -s 4k -m none --label "$e40" "$work/l1"
if [ -n "$have_py" ]; then
	"$SW" -q -n 1 -s 4k -m none -f json --label "$e40" "$work/l1" >"$work/l.json" &&
	python3 - "$work/l.json" "$e40" <<'PY' && ok "--label of 40 two-byte characters: in the JSON as given" || fail=1
import json, sys
d = json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))
assert d["label"] == sys.argv[2] and len(d["label"]) == 40, d["label"]
PY
fi
g40=$(printf 'αβγδεζηθικ%.0s' 1 2 3 4)
"$SW" -q -n 1 -s 4k -m none --label "$g40" --label "$e40" "$work/l1" "$work/l2" >"$work/g.out" 2>&1 ||
	bad "two TARGETs with 40-character labels: $(cat "$work/g.out")"
if [ -n "$have_py" ]; then
	python3 - "$work/g.out" <<'PY' && ok "labels of 40 two-byte characters: the side-by-side table is UTF-8, its headings cut by characters" || fail=1
import sys
text = open(sys.argv[1], "rb").read().decode("utf-8")   # a cut character fails here
head = [l for l in text.splitlines() if " | run 1: " in l]
assert head and "run 2: " in head[0], text
PY
fi
[ ! -e "$work/l1" ] || bad "--label runs left $work/l1"

# 6. SIGINT during TARGET 1's turn at its second point (fdatasync), once
# it has measured transactions: as with one TARGET, the points measured
# whole are rows, and so is the point cut short, with TARGET 1's partial
# figures (TARGET 2: "not run") and a note saying so; only TARGET 2 is
# said to have measured nothing of it; exit 130, the run's files removed.
if linux_proc; then
	mkdir "$work/i"
	"$SW" --progress -m none,fdatasync -s 4k -t 4s --region 4M "$work/i/a" "$work/i/b" \
		>"$work/i.out" 2>"$work/i.err" &
	pid=$!
	# The first point done on both TARGETs (--progress: a line as each
	# ends), and the second's writer on TARGET 1 past its 8 warm-up
	# transactions (a writer process starts with wchar 0).
	in_third() {
		[ "$(grep -c '^\[[12]/4\] ' "$work/i.err")" -eq 2 ] || return 1
		_k=$(children $pid)
		# shellcheck disable=SC2086
		[ -n "$_k" ] && [ "$(io_bytes wchar $_k)" -ge 65536 ]
	}
	wait_for 60 "TARGET 1's fdatasync point" in_third || fail=1
	kill -INT $pid; wait $pid; rc=$?
	# (each group ends with flush/txn: a figure, n/a, busy; "-" not run)
	if [ $rc -eq 130 ] && grep -q '^none  *4096  *1 |  *[0-9.]*  *[0-9.]*  *[0-9]*  *[0-9.a-z/]* |  *[0-9.]*  *[0-9.]*  *[0-9]*  *[0-9.a-z/]*  *[0-9.]*  *[0-9.]*$' "$work/i.out" &&
	   grep -q '^fdatasync  *4096  *1 |  *[0-9.]*  *[0-9.]*  *[0-9]*  *[0-9.a-z/]* |   not run  *-  *-  *-  *-  *-$' "$work/i.out" &&
	   grep -q '^  *interrupted: run 1 was stopped by a signal: its figures are partial; run 2 was not run: the run was stopped before$' "$work/i.out" &&
	   ! grep -q "TARGET [12] .*interrupted before" "$work/i.err" && [ -z "$(ls -A "$work/i")" ]; then
		ok "SIGINT, 2 TARGETs: exit 130, the points measured and the one cut short shown ($(grep '^fdatasync ' "$work/i.out" | tr -s ' '))"
	else
		bad "SIGINT, 2 TARGETs: exit $rc:"; cat "$work/i.out" "$work/i.err"; ls -A "$work/i"
	fi
else
	echo "SKIP: SIGINT with 2 TARGETs: waiting for the writers needs Linux's /proc"
fi

# 7. A mounted device: refused with the reason (in use, exit 1), with or
# without --force, and never told to pass --force (which would not help);
# the device unchanged.  Unmounted, --force is what it needs, and said.
if [ "$(uname -s)" != Linux ] || [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: a mounted device: needs root on Linux (a loop device, mount)"
elif ! command -v mkfs.ext4 >/dev/null 2>&1; then
	echo "SKIP: a mounted device: no mkfs.ext4 (install e2fsprogs)"
else
	truncate -s 16M "$work/img"
	if dev=$(losetup -f --show "$work/img" 2>/dev/null); then
		loopdev=$dev
		mkdir "$work/m"
		mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$dev" >/dev/null 2>&1 ||
			hard "mkfs.ext4 $dev"
		mount -o ro "$dev" "$work/m" && mounted=$work/m || hard "mount $dev"
		sum=$(cksum <"$dev")
		if [ "$DIO_BACKEND" = posix ]; then
			why="refusing to write to '$dev': cannot tell whether it is in use (operation not supported: this platform gives no portable way to tell whether a device is mounted)"
		else
			why="refusing to write to '$dev': it is in use (mounted on $work/m (ext4))"
		fi
		for force in "" --force; do
			out=$("$SW" -q -n 1 -s 4k -m none $force "$dev" 2>&1); rc=$?
			# What cannot be told, with --force, is advised the second
			# option that would name it.
			w=$why
			[ "$DIO_BACKEND" = posix ] && [ -n "$force" ] &&
				w="$why; to write it all the same, name it with --write-unchecked as well as --force"
			if [ $rc -eq 1 ] && [ "$out" = "sync-write: $w" ]; then
				ok "mounted device${force:+, $force}: exit 1: $out"
			else
				bad "mounted device${force:+, $force}: exit $rc (want 1, '$w'): $out"
			fi
		done
		[ "$(cksum <"$dev")" = "$sum" ] && ok "mounted device: unchanged" ||
			bad "mounted device: its contents changed"
		umount "$work/m" && mounted=
		if [ "$DIO_BACKEND" != posix ]; then
			expect 2 "^sync-write: '$dev' is a device: its contents would be destroyed; pass --force to allow that$" \
				-n 1 -s 4k -m none "$dev"
		fi
		losetup -d "$dev" && loopdev=
	else
		echo "SKIP: a mounted device: losetup found no free loop device"
	fi
fi
exit $fail
