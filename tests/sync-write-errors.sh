#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# sync-write-errors.sh -- bad input gets a specific error and a non-zero
# exit status, and touches nothing: every case runs in a scratch directory
# whose contents (a bystander file included) must be unchanged afterwards.
. "${top_srcdir:-.}/tests/lib.sh"

SW=$tools/sync-write
work=$(mktemp -d "$top_builddir/sw-errors.XXXXXX") || hard "mktemp"
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
fail=0
echo "precious data" > "$work/existing"
echo "rotated log" > "$work/existing.1"
echo "old results" > "$work/results.txt"
mkdir "$work/dir"
snapshot() { (cd "$work" && ls -lA --time-style=+%s . dir && cat existing existing.1 results.txt) 2>&1 | md5sum; }
before=$(snapshot)

bad() {  # STATUS PATTERN ARGS...
	want=$1 pat=$2; shift 2
	out=$(cd "$work" && "$SW" -q "$@" 2>&1 </dev/null)
	got=$?
	if [ $got -ne "$want" ] || ! printf '%s\n' "$out" | grep -q -- "$pat"; then
		echo "FAIL sync-write $*: exit $got (want $want), output:"
		printf '%s\n' "$out" | sed 's/^/    /'
		echo "    (expected to match: $pat)"
		fail=1
	else
		echo "ok   sync-write $*: $(printf '%s\n' "$out" | head -n 1)"
	fi
	now=$(snapshot)
	[ "$now" = "$before" ] || { echo "FAIL sync-write $*: the directory changed"; fail=1; before=$now; }
}

# sizes
bad 2 "size must be greater than 0"            -s 0
bad 2 "negative sizes are not allowed"         -s -1
bad 2 "unknown suffix 'kk'"                    -s 4kk
bad 2 "exponents are not supported"           -s 1e3
bad 2 "fractions are not supported"           -s 1.5k
bad 2 "too large"                              -s 99999999999999999999999
bad 2 "above the largest allowed, 1073741824"  -s 2g
bad 2 "runs backwards"                         -s 1m..4k
bad 2 "empty item 2 in the list"              -s 4k,,8k
bad 2 "not a size"                             -s k
bad 2 "--sizes '': empty list"                 -s ''
# a long value is echoed in part: the message still ends with what is allowed
bad 2 "unknown suffix 'kkkkkkkkkkkkkkkkkkkkkkkk\\.\\.\\.' (allowed: c=1, w=2, b=512; .* powers of 1000)$" \
	-s "4k,4$(printf 'k%.0s' $(seq 50))"
bad 2 "unknown method '$(printf 'x%.0s' $(seq 3000))' (allowed: all, none,.*or direct+ any of those; PostgreSQL's open_datasync and open_sync are dsync and sync)$" \
	-m "$(printf 'x%.0s' $(seq 3000))"
# methods, writers, times, formats, options
bad 2 "unknown method 'fdatasink'"             -m fdatasink
bad 2 "unknown method 'direct+direct'"         -m direct+direct
bad 2 "more than 64 items in the list (at most 64; there are 12 methods, and 'all' names every one)" \
	-m "$(printf 'fsync,%.0s' $(seq 64))none"
bad 2 "'fsync_writethrough' is PostgreSQL's F_FULLFSYNC (macOS) or _commit (Windows): sync-write has no such method; the nearest is fsync" \
	-m fsync_writethrough
bad 2 "item '0': out of range (1 to 256)"      -w 0
bad 2 "out of range (1 to 256)"               -w 257
bad 2 "not a decimal number"                   -w two
bad 2 "duration must be greater than 0"        -t 0
bad 2 "unknown unit 'x'"                       -t 5x
bad 2 "not a decimal number"                   -n -3
bad 2 "allowed are table, csv, json"           -f xml
bad 2 "allowed are 'shared' and 'separate'"    --layout striped
bad 2 "unknown option '--bogus'"               --bogus
bad 2 "option '--sizes' needs an argument"         --sizes
bad 2 "option '--verify' takes no argument"       --verify=yes
bad 2 "at most 8 are measured interleaved"    a b c d e f g h i
bad 2 "at least 64 bytes"                      --verify -s 16
bad 2 "smaller than the largest transaction"   --region 4k -s 8k
bad 2 "cannot be combined with a TARGET"       --dir dir newfile
# targets
bad 2 "is a directory: name a file to create, or use --dir" dir
bad 2 "exists and would be overwritten; pass --force" existing
bad 2 "cannot create 'missing/f': its directory 'missing' does not exist" missing/f
bad 2 "cannot create 'missing/deeper/f': its directory 'missing/deeper' does not exist" -o r.txt missing/deeper/f
bad 2 "cannot create 'existing/f': not a directory (a part of its path is a file)" existing/f
bad 2 "--dir 'nowhere': no such file or directory" --dir nowhere
# A device that is not a disk: the reason, and never --force, which would
# not help (it was advised, then refused).
bad 2 "^sync-write: '/dev/null' is a device that reports no size: not a disk sync-write can write to (a TARGET is a file or a disk)$" \
	/dev/null -n 1 -s 4k -m none
bad 2 "'/dev/null' is a device that reports no size" /dev/null -n 1 -s 4k -m none --force
bad 2 "^sync-write: '/dev/zero' is a device that reports no size: not a disk" /dev/zero
bad 2 "^sync-write: --extend needs a file, not a device$" --extend /dev/zero
bad 2 "--no-prefill: '.*existing' is shorter than the 67108864 bytes" --no-prefill --force -s 4k existing
bad 3 "is not a sync-write ack log" --check existing
# option combinations
bad 2 "--time and --count exclude each other" -t 1s -n 5
bad 2 "--no-prefill is for overwriting" --no-prefill --extend --force existing
bad 2 "--no-prefill needs an existing TARGET" --no-prefill
bad 2 "the TARGET is an empty string" ''
bad 2 "--ack-log - takes standard output" --ack-log -
# a refused run touches none of the files it was given
bad 2 "--ack-log '/nonexistent/dir/log': no such file" --force -s 4k -n 1 --ack-log /nonexistent/dir/log existing
bad 2 "exists and would be overwritten" -o results.txt -s 4k -n 1 existing
bad 2 "exists and would be overwritten" -o new-results.txt --plot new.svg -s 4k -n 1 existing
bad 2 "'.*existing.1' exists: --layout separate writes" --force --layout separate -w 2 -s 4k -n 1 existing
bad 3 "cannot open ack log 'nolog'" --check nolog
# Names that cannot be what they name: a symbolic link to nothing (as the
# TARGET, --dir or an output) is said to be one, and where it points; no
# file is made where it points.  Two options naming one file (before
# either exists) are said to; neither is made.
ln -s gone.dat "$work/dangling"
ln -s /nonexistent/dir/f "$work/dangling-far"
before=$(snapshot)
bad 2 "^sync-write: TARGET 'dangling' is a dangling symbolic link: it points to 'gone.dat', which does not exist; name the file itself, or remove the link$" \
	-n 1 -s 4k -m none dangling
bad 2 "TARGET 'dangling' is a dangling symbolic link" -n 1 -s 4k -m none --force dangling
bad 2 "TARGET 'dangling-far' is a dangling symbolic link: it points to '/nonexistent/dir/f'" \
	-n 1 -s 4k -m none dangling-far
bad 2 "^sync-write: --output 'dangling' is a dangling symbolic link: it points to 'gone.dat', which does not exist; name the file itself, or remove the link$" \
	-n 1 -s 4k -m none -o dangling
bad 2 "--plot 'dangling-far' is a dangling symbolic link: it points to '/nonexistent/dir/f'" \
	-n 1 -s 4k -m none --plot dangling-far
bad 2 "--ack-log 'dangling' is a dangling symbolic link: it points to 'gone.dat'" \
	-n 1 -s 4k -m none --ack-log dangling
bad 2 "--dir 'dangling-far' is a dangling symbolic link: it points to '/nonexistent/dir/f', which does not exist; name the directory itself" \
	-n 1 -s 4k -m none --dir dangling-far
bad 2 "^sync-write: --output 'r.txt' and --ack-log 'r.txt' are the same file: each output needs a file of its own$" \
	-n 1 -s 4k -m none -o r.txt --ack-log r.txt
bad 2 "--output 'r.txt' and --ack-log './r.txt' are the same file" -n 1 -s 4k -m none -o r.txt --ack-log ./r.txt
bad 2 "--output 'r.txt' and --ack-log 'dir/../r.txt' are the same file" -n 1 -s 4k -m none -o r.txt --ack-log dir/../r.txt
bad 2 "--ack-log 'new.log' and the TARGET 'new.log' are the same file" -n 1 -s 4k -m none --ack-log new.log new.log
bad 2 "--output 'existing' and --ack-log 'existing' are the same file" -n 1 -s 4k -m none -o existing --ack-log existing --force
# (a character device takes any number of outputs)
out=$(cd "$work" && "$SW" -q -n 1 -s 4k -m none -o /dev/null --plot /dev/null 2>&1) &&
	echo "ok   -o /dev/null --plot /dev/null: exit 0" ||
	{ echo "FAIL -o /dev/null --plot /dev/null: exit $?: $out"; fail=1; }

# Transactions smaller than the 64-byte verification header are fine
# without --verify (the sanitizer build checks that nothing overflows).
out=$(cd "$work" && "$SW" -q -m none,fdatasync -s 16,48 -n 3 --region 64k 2>&1) ||
	{ echo "FAIL sync-write -s 16,48: $out"; fail=1; }
echo "$out" | grep -q '^fdatasync  *16  *1  *3 ' || { echo "FAIL sync-write -s 16,48: no row: $out"; fail=1; }
before=$(snapshot)

# Outputs: two naming one file are a usage error (nothing written, no file
# left); a FIFO or a directory is refused instead of waited on; a results
# or plot write that fails is a failed run.
bad 2 "--output 'o.txt' and --plot 'o.txt' are the same file" -m none -s 4k -n 1 -o o.txt --plot o.txt
bad 2 "--output 'results.txt' and --plot 'results.txt' are the same file" -m none -s 4k -n 1 -o results.txt --plot results.txt
bad 2 "--output 'existing' and the TARGET 'existing' are the same file" -m none -s 4k -n 1 -o existing --force existing
bad 2 "--plot 'results.txt' and --ack-log 'results.txt' are the same file" -m none -s 4k -n 1 --plot results.txt --ack-log results.txt --force
mkfifo "$work/fifo" && before=$(snapshot)
bad 2 "--output 'fifo' is a FIFO" -m none -s 4k -n 1 -o fifo
bad 2 "--plot 'fifo' is a FIFO" -m none -s 4k -n 1 --plot fifo
bad 2 "--ack-log 'fifo' is a FIFO" -m none -s 4k -n 1 --ack-log fifo
bad 2 "--output 'dir' is a directory" -m none -s 4k -n 1 -o dir
bad 1 "--output '/dev/full': cannot write the results: no space left on device" -m none -s 4k -n 1 -o /dev/full
bad 1 "--plot '/dev/full': cannot write the plot: no space left on device" -m none -s 4k -n 1 -o /dev/null --plot /dev/full
out=$(cd "$work" && "$SW" -q -m none -s 4k -n 1 2>&1 >/dev/full); st=$?
[ $st -eq 1 ] && echo "$out" | grep -q "standard output: cannot write the results: no space" &&
	echo "ok   sync-write > /dev/full: exit 1" || { echo "FAIL sync-write > /dev/full: exit $st: $out"; fail=1; }
out=$(cd "$work" && "$SW" -q -m none -s 4k -n 1 --force existing 2>&1 >>"$work/existing"); st=$?
[ $st -eq 2 ] && echo "$out" | grep -q "standard output (the results) and the TARGET 'existing' are the same file" &&
	echo "ok   sync-write existing >> existing: exit 2" || { echo "FAIL stdout onto the target: exit $st: $out"; fail=1; }
before=$(snapshot)
# Slurm's srun without an MPI plugin starts every task as a job of one:
# each would run the whole job alone; refused, with or without MPI built.
out=$(cd "$work" && SLURM_PROCID=0 SLURM_NTASKS=4 "$SW" -q -m none -s 4k -n 1 2>&1); st=$?
[ $st -eq 2 ] && echo "$out" | grep -q "srun\|without MPI" && [ "$(snapshot)" = "$before" ] &&
	echo "ok   srun --mpi=none -n 4 sync-write: exit 2: $out" ||
	{ echo "FAIL srun without an MPI plugin: exit $st: $out"; fail=1; }

if [ "$(id -u)" -ne 0 ]; then
	chmod a-w "$work/dir" "$work/existing"
	before=$(snapshot)     # the modes just changed are not the tool's doing
	bad 1 "cannot create 'dir/f': permission denied" dir/f
	# An existing file that cannot be written: the reason, not --force
	# (which would not help).
	bad 1 "^sync-write: 'existing': permission denied$" existing
	chmod u+w "$work/dir" "$work/existing"
	before=$(snapshot)
else
	echo "SKIP: files this user cannot write: root can write them all (run as a user)"
fi
exit $fail
