#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# sync-write-ackcheck-hostile.sh -- --check against hostile logs and targets
# (issue 21).  Exit statuses: 0 every acknowledged transaction is there, 1
# some are lost (FAILED), 2 bad command line, 3 could not check.  Asserted,
# a part per class:
#   1. a file that reused the run's inode number is not the run's target
#      (3), a copy is checked, the run's own file with everything gone is
#      a loss (1); an old log without a birth stamp cannot say (3);
#   2. the four statuses are distinct;
#   3. a log that contradicts itself (slots, offsets, sizes) is malformed,
#      with its line number (3), and a log claiming a huge point is read
#      in little memory;
#   4. duplicate, unissued, out-of-order records are malformed (3);
#   5. offsets outside the run's region or device are malformed (3);
#   6. endless inputs (/dev/zero as log or target, a FIFO) end promptly (3);
#   7. logs of several runs: the newest run on the target is checked and
#      named; runs on different targets without a TARGET, and a log with
#      one run twice, are refused (3); the advice to append with --force
#      gives a log that checks;
#   8. a TARGET with a newline in its name is refused with --ack-log (2);
#   9. a target a later run wrote over is not a loss: wholly overwritten,
#      nothing could be checked (3); in part, the rest is checked (0); an
#      earlier run's transaction in an acknowledged slot is a loss (1); a
#      run of no known order (the same millisecond) is never a loss (3);
#  10. a device of the run's target's size that holds nothing of the run is
#      not taken as its target (3), the node the log names is (a loss when
#      nothing of the run is left, 1); of several runs in a log, the one whose
#      transactions the device holds is checked; an earlier run's
#      transaction on a device used again is a loss (1) (root, loop
#      devices: SKIP without);
#  11. a log ending in NUL bytes (a file system's tail after a power cut)
#      is checked, the tail ignored and said so; a NUL followed by more
#      records is malformed (3).
. "${top_srcdir:-.}/tests/lib.sh"

SW=$tools/sync-write
work=$(mktemp -d "$top_builddir/sw-ackh.XXXXXX") || hard "mktemp"
trap 'rm -rf "$work"' EXIT
fail=0

expect() { _w=$1 _p=$2; shift 2; expect_exit "$_w" "$_p" "$SW" "$@"; }
# --check bounded in time: a hang is a failure (124), not a stalled suite.
if command -v timeout >/dev/null 2>&1; then
	bounded() { timeout 60 "$@"; }
else
	bounded() { "$@"; }
fi
# A run of 20 fdatasync transactions of 4 KiB per writer (after 8 warm-up
# ones) in 64 KiB regions, 16 slots: the sequences wrap around.
sw_run() { "$SW" -q -m fdatasync -s 4k -n 20 --region 64k --keep "$@" >/dev/null; }
# A log: the header, an R line of a shared run (1 64 KiB region) on
# $work/f, then the lines given (printf format).
mklog() {
	{ printf '# sync-write ack-log 1\nR 1 shared 0 65536 %s\n' "$work/f"; printf "$@"; } \
		>"$work/x.log"
}
rid_of() { awk -v n="$2" '$1 == "R" && ++k == n { print $2 }' "$1"; }
ino_of() { ls -i "$1" | awk '{ print $1 }'; }

# ------------------------------------------------ 1. target identity
sw_run --ack-log "$work/r.log" "$work/f" || hard "the first run failed"
ino=$(awk '$1 == "T" { print $3 }' "$work/r.log")
birth=$(awk '$1 == "T" { print $5 }' "$work/r.log")
[ -n "$birth" ] || { echo "FAIL: the T line has no birth stamp: $(grep '^T' "$work/r.log")"; fail=1; }
expect 0 "OK: every acknowledged" --check "$work/r.log"
cp "$work/f" "$work/copy"
expect 0 "OK: every acknowledged" --check "$work/r.log" "$work/copy"
# An old log (T without the birth stamp) is still read.
sed 's/^\(T file [0-9]* [0-9]*\) [0-9]*$/\1/' "$work/r.log" >"$work/old.log"
expect 0 "OK: every acknowledged" --check "$work/old.log"
# A file of another inode holding nothing of the run: not its target.
head -c 65536 /dev/zero >"$work/z"
expect 3 "holds no transaction of run .*: it is not that run's target: it is another file" \
	--check "$work/r.log" "$work/z"
# The run's own file, everything gone (zeroed in place): a loss, since its
# inode and birth stamp say it is the run's file.
if [ "$birth" != 0 ]; then
	cp "$work/f" "$work/f.saved"
	dd if=/dev/zero of="$work/f" bs=65536 count=1 conv=notrunc 2>/dev/null
	expect 1 "FAILED: 16 acknowledged transactions are not on stable storage" \
		--check "$work/r.log"
	# without the stamp, the same inode holding nothing cannot be told from
	# a new file that got the number
	expect 3 "cannot say whether it is" --check "$work/old.log"
	cp "$work/f.saved" "$work/f"
else
	echo "SKIP part: the file system under $work keeps no birth stamp"
fi
# Inode reuse for real: remove the target, make files until one gets its
# number (ext4 gives a freed inode again; tmpfs never does).
rm -f "$work/f"
i=0 reused=
while [ $i -lt 200 ]; do
	: >"$work/n$i"
	if [ "$(ino_of "$work/n$i")" = "$ino" ]; then reused=$work/n$i; break; fi
	i=$((i + 1))
done
if [ -n "$reused" ] && [ "$birth" != 0 ]; then
	expect 3 "holds no transaction of run .*: it is not that run's target: it has the inode number of the run's target .* but another birth stamp" \
		--check "$work/r.log" "$reused"
	expect 3 "cannot say whether it is" --check "$work/old.log" "$reused"
elif [ -n "$reused" ]; then
	expect 3 "cannot say whether it is" --check "$work/r.log" "$reused"
else
	echo "SKIP part: no new file got inode $ino back in 200 tries (not ext4?)"
fi
# The same, forged: a log whose T line names a file (z) of no transaction
# of the run by its inode number, with the run's target's birth stamp.
sed "s/^T file [0-9]* /T file $(ino_of "$work/z") /" "$work/r.log" >"$work/forged.log"
if [ "$birth" != 0 ] && [ "$(awk '$1 == "T" { print $5 }' "$work/r.log")" != 0 ]; then
	expect 3 "another birth stamp" --check "$work/forged.log" "$work/z"
fi
rm -f "$work"/n* "$work/f.saved"

# ------------------------------------------------ 2. exit statuses
sw_run --ack-log "$work/ok.log" "$work/f" --force || hard "run"
expect 0 "^OK: every acknowledged" --check "$work/ok.log" "$work/f"
off=$(awk '$1 == "A" { o = $4 } END { print o }' "$work/ok.log")
cp "$work/f" "$work/f.saved"
dd if=/dev/zero of="$work/f" bs=4096 seek=$((off / 4096)) count=1 conv=notrunc 2>/dev/null
expect 1 "^FAILED: 1 acknowledged transactions" --check "$work/ok.log" "$work/f"
cp "$work/f.saved" "$work/f"
expect 2 "takes one TARGET" --check "$work/ok.log" "$work/f" "$work/z"
expect 3 "cannot open ack log" --check "$work/nolog"
expect 3 "is a directory" --check "$work/ok.log" "$work"

# ------------------------------------------------ 3. self-contradiction
mklog 'P 0 m 4096 1 17\n'
expect 3 "x.log:3: malformed P line: 17 slots, but the run's 65536-byte region .* holds 16 4096-byte" \
	--check "$work/x.log"
mklog 'P 0 m 8192 1 16\n'
expect 3 "x.log:3: malformed P line: 16 slots" --check "$work/x.log"
mklog 'P 0 m 4096 1 16\nI 0 0 4096\n'
expect 3 "x.log:4: malformed I line: writer 0's transaction 0 at offset 4096, but the run's layout puts it at 0" \
	--check "$work/x.log"
mklog 'P 0 m 4096 2 16\nI 1 0 0\n'
expect 3 "x.log:4: malformed I line: writer 1's transaction 0 at offset 0, but the run's layout puts it at 65536" \
	--check "$work/x.log"
mklog 'T file 1 4096 0\n'
expect 3 "x.log:3: malformed T line: a file has 0 as DEVICE-BYTES" --check "$work/x.log"
mklog 'P 0 m 4096 1 16\nR 2 shared 0 65536 f\n'
expect 3 "x.log:4: malformed R line: a run has one" --check "$work/x.log"
mklog 'P 1 m 4096 1 16\nP 0 m 4096 1 16\n'
expect 3 "x.log:4: malformed P line: point 0 after point 1" --check "$work/x.log"
# A log that claims a point of 256 writers of 2^44 slots each: read in
# little memory (no table of slots), and its target checked by the one
# slot its records name.
printf '# sync-write ack-log 1\nR 1 shared 0 1125899906842624 %s\nP 0 m 64 256 17592186044416\nI 255 17592186044415 %s\nA 255 17592186044415 %s\n' \
	"$work/f" 288230376151711680 288230376151711680 >"$work/huge.log"
[ "$(wc -c <"$work/huge.log")" -lt 300 ] || hard "huge.log is not small"
if sanitized; then
	echo "note: an AddressSanitizer build: checked without the 200 MB address-space limit"
	expect_exit 3 "holds no transaction of run 1" "$SW" --check "$work/huge.log"
else
	expect_exit 3 "holds no transaction of run 1" sh -c "ulimit -v 200000; exec \"$SW\" --check \"$work/huge.log\""
fi

# ------------------------------------------------ 4. records out of order
mklog 'P 0 m 4096 1 16\nI 0 3 12288\nA 0 3 12288\nI 0 3 12288\n'
expect 3 "x.log:6: malformed I line: writer 0 issues transaction 3 after 3" --check "$work/x.log"
mklog 'P 0 m 4096 1 16\nI 0 3 12288\nA 0 3 12288\nI 0 3 16384\n'
expect 3 "x.log:6: malformed I line: writer 0's transaction 3 at offset 16384" --check "$work/x.log"
mklog 'P 0 m 4096 1 16\nA 0 3 12288\n'
expect 3 "x.log:4: malformed A line: writer 0 acknowledges transaction 3, which it did not issue just before (no I line" \
	--check "$work/x.log"
mklog 'P 0 m 4096 1 16\nA 0 3 12288\nI 0 3 12288\n'
expect 3 "x.log:4: malformed A line" --check "$work/x.log"
mklog 'P 0 m 4096 1 16\nI 0 3 12288\nI 0 4 16384\n'
expect 3 "x.log:5: malformed I line: writer 0 issues transaction 4 while transaction 3 is not acknowledged" \
	--check "$work/x.log"
mklog 'P 0 m 4096 1 16\nI 0 3 12288\nA 0 3 12288\nA 0 3 12288\n'
expect 3 "x.log:6: malformed A line: .*its last issued was acknowledged already" --check "$work/x.log"
mklog 'P 0 m 4096 1 16\nI 0 3 12288\nA 0 3 12288\nI 0 5 20480\n'
expect 3 "x.log:6: malformed I line: writer 0 issues transaction 5 after 3" --check "$work/x.log"
mklog 'P 0 m 4096 1 16\nI 0 3 12288\nA 0 3 12288\nE\nI 0 4 16384\n'
expect 3 "x.log:7: malformed I line: after the run's E line" --check "$work/x.log"
# Records of several writers interleave: a real run of 3 writers checks.
sw_run -w 3 --threads --ack-log "$work/w3.log" "$work/w3" || hard "3 writers"
[ "$(awk '$1 == "I" || $1 == "A" { print $2 }' "$work/w3.log" | uniq | wc -l)" -gt 3 ] ||
	echo "note: the 3 writers' records did not interleave this time"
expect 0 "^OK: every acknowledged" --check "$work/w3.log"

# ------------------------------------------------ 5. offsets outside
printf '# sync-write ack-log 1\nR 1 shared 1 65536 %s\nP 0 m 4096 1 16\nI 0 16 65536\n' "$work/f" >"$work/x.log"
expect 3 "x.log:4: malformed I line: transaction 16 of writer 0, but with --extend a writer stops at its region's 16 slots" \
	--check "$work/x.log"
printf '# sync-write ack-log 1\nR 1 shared 0 65536 /dev/sdx\nT device 5 8192 0\nP 0 m 4096 1 16\nI 0 2 8192\n' >"$work/x.log"
expect 3 "x.log:5: malformed I line: offset 8192 is beyond the end of the device (8192 bytes" \
	--check "$work/x.log"
mklog 'P 0 m 4096 1 16\nI 0 99 1000000000\n'
expect 3 "x.log:4: malformed I line: writer 0's transaction 99 at offset 1000000000, but the run's layout puts it at 12288" \
	--check "$work/x.log"

# ------------------------------------------------ 6. endless inputs
expect_exit 3 "neither a regular file nor a block device" bounded "$SW" --check "$work/ok.log" /dev/zero
expect_exit 3 "ack log '/dev/zero' is a device" bounded "$SW" --check /dev/zero
expect_exit 3 "not a sync-write ack log" sh -c "head -c 100000000 /dev/zero | $(command -v timeout >/dev/null && echo timeout 60) \"$SW\" --check -"
{ cat "$work/ok.log"; head -c 100000 /dev/zero | tr '\0' 'A'; } >"$work/long.log"
expect 3 "malformed line: longer than" --check "$work/long.log"
mkfifo "$work/fifo" || hard "mkfifo"
expect_exit 3 "neither a regular file nor a block device" bounded "$SW" --check "$work/ok.log" "$work/fifo"
# a writer file of a separate layout that is a FIFO: refused, not read
sw_run -w 2 --layout separate --ack-log "$work/sep.log" "$work/s" || hard "separate run"
expect 0 "^OK: every acknowledged" --check "$work/sep.log"
rm -f "$work/s.1" && mkfifo "$work/s.1"
expect_exit 3 "writer 1's file: '$work/s.1' is neither a regular file" bounded "$SW" --check "$work/sep.log"
# that file gone, where the target is the run's by its birth stamp: lost
rm -f "$work/s.1"
if [ "$birth" != 0 ]; then
	expect 1 "s.1: no such file: all of writer 1's transactions are missing" --check "$work/sep.log"
else
	expect 3 "writer 1's file: '$work/s.1': no such file" --check "$work/sep.log"
fi

# ------------------------------------------------ 7. several runs in a log
sw_run --ack-log "$work/two.log" "$work/t" || hard "run 1 of two"
expect 2 "pass --force to append" -q -m none -s 4k -n 1 --ack-log "$work/two.log" "$work/t-new"
# the advice followed: the log holds both runs
sw_run --force --ack-log "$work/two.log" "$work/t" || hard "run 2 of two"
[ "$(grep -c '^R ' "$work/two.log")" = 2 ] || { echo "FAIL: two.log does not hold 2 runs"; fail=1; }
expect 0 "the log holds 2 runs; run $(rid_of "$work/two.log" 2) (lines [0-9]*-[0-9]*) is checked: the newest run on" \
	--check "$work/two.log"
expect 0 "^OK: every acknowledged" --check "$work/two.log" "$work/t"
# runs on two targets, the first cut short by a crash before the second
# was appended
sw_run --ack-log "$work/gh.log" "$work/g" || hard "run on g"
grep -v '^E$' "$work/gh.log" | head -c -3 >"$work/gh2.log" && mv "$work/gh2.log" "$work/gh.log"
sw_run --force --ack-log "$work/gh.log" "$work/h" || hard "run on h"
expect 3 "the log holds 2 runs on different targets .*: name the TARGET" --check "$work/gh.log"
expect 0 "run $(rid_of "$work/gh.log" 1) (lines 1-[0-9]*) is checked" --check "$work/gh.log" "$work/g"
expect 0 "last line was cut short (the crash): ignored" --check "$work/gh.log" "$work/g"
expect 0 "run $(rid_of "$work/gh.log" 2) .* is checked" --check "$work/gh.log" "$work/h"
expect 3 "is not the target of any of the 2 runs" --check "$work/gh.log" "$work/z"
cat "$work/ok.log" "$work/ok.log" >"$work/dup.log"
expect 3 "have the same run id" --check "$work/dup.log" "$work/f"

# ------------------------------------------------ 8. a newline in a name
nl='
'
expect 2 "newline in its name" -q -m none -s 4k -n 1 --ack-log "$work/nl.log" "$work/a${nl}b"
[ -e "$work/a${nl}b" ] && { echo "FAIL: the refused run created its TARGET"; fail=1; }
[ -e "$work/nl.log" ] && { echo "FAIL: the refused run created its ack log"; fail=1; }

# ------------------------------------------------ 9. a later run wrote over
# (fdatasync runs of 50 transactions in a 64 KiB region: 16 slots, all
# written again by each run)
sw9() { "$SW" -q --keep -m fdatasync -s 4k -n 50 --region 64k "$@" >/dev/null; }
sw9 --ack-log "$work/a.log" "$work/o" || hard "run a"
cp "$work/o" "$work/o.a"
sw9 --force --ack-log "$work/b.log" "$work/o" || hard "run b"
ra=$(rid_of "$work/a.log" 1) rb=$(rid_of "$work/b.log" 1)
# Without a birth stamp (a backend that has none: POSIX, illumos) the
# file holding only b's transactions cannot be told from a new file that
# reused the inode number: also exit 3, said so.
nostamp="without a birth stamp (the log records none) nothing tells"
if [ "$(awk '$1 == "T" { print $5 }' "$work/a.log")" = 0 ]; then
	echo "note: no birth stamps here ($("$SW" --version | sed -n 's/.*, \(backend .*\)/\1/p'))"
	stamps=no
else
	stamps=yes
fi
if [ $stamps = yes ]; then
	expect 3 "16 slots overwritten by a later run $rb" --check "$work/a.log" "$work/o"
	expect 3 "could not check: another run ($rb) wrote over this target since run $ra" \
		--check "$work/a.log" "$work/o"
else
	expect 3 "$nostamp" --check "$work/a.log" "$work/o"
fi
expect 0 "^OK: every acknowledged transaction is on" --check "$work/b.log" "$work/o"
# the ids order the runs: both marked (bit 63), b's time part (the hex
# digits but the last 5) the larger
case $ra$rb in
[89a-f]???????????????[89a-f]???????????????) ;;
*) echo "FAIL: run ids $ra, $rb are not 16 hex digits with bit 63 set"; fail=1 ;;
esac
[ "${ra%?????}" != "${rb%?????}" ] &&
	[ "$(printf '%s\n%s\n' "${ra%?????}" "${rb%?????}" | LC_ALL=C sort | tail -n 1)" = "${rb%?????}" ] ||
	{ echo "FAIL: run id $rb (the later run) does not order after $ra"; fail=1; }
# in part: a run of 1 transaction (8 warm-up) on a's image, not prefilled:
# slots 0-8 overwritten, a's 7 others checked
cp "$work/o.a" "$work/p"
# (no T line: an old log; the file is the run's by the transactions on it)
awk '$1 != "T"' "$work/a.log" | sed "s|65536 $work/o\$|65536 $work/p|" >"$work/pa.log"
"$SW" -q --keep --force --no-prefill -m fdatasync -s 4k -n 1 --region 64k "$work/p" >/dev/null ||
	hard "the partial run"
expect 0 "OK: every acknowledged transaction that could be verified (7 of 16)" \
	--check "$work/pa.log" "$work/p"
expect 0 "9 slots overwritten by a later run" --check "$work/pa.log" "$work/p"
# an earlier run's transaction where b's newest acknowledged one belongs
# (what a lying disk leaves on a file or device used again): a loss
off=$(awk '$1 == "A" { o = $4 } END { print o }' "$work/b.log")
cp "$work/o" "$work/o.b"
dd if="$work/o.a" of="$work/o" bs=4096 skip=$((off / 4096)) seek=$((off / 4096)) count=1 \
	conv=notrunc 2>/dev/null
expect 1 "at offset $off was acknowledged but is a transaction of an earlier run" \
	--check "$work/b.log" "$work/o"
expect 1 "^FAILED: 1 acknowledged transactions" --check "$work/b.log" "$work/o"
cp "$work/o.b" "$work/o"
# a run id of the same millisecond (another low part): no order, never a loss
case $rb in *0) rx=${rb%?}1 ;; *) rx=${rb%?}0 ;; esac
sed "s/^R $rb /R $rx /" "$work/b.log" >"$work/x9.log"
[ $stamps = yes ] && x9="16 slots hold a transaction of run $rb, which cannot be told to be earlier or later" ||
	x9=$nostamp
expect 3 "$x9" --check "$work/x9.log" "$work/o"
# an id that is not time-ordered (an older sync-write's): no order either
sed "s/^R $rb /R 1234 /" "$work/b.log" >"$work/x9.log"
[ $stamps = yes ] && x9="could not check: another run ($rb) wrote over" || x9=$nostamp
expect 3 "$x9" --check "$work/x9.log" "$work/o"

# ------------------------------------------------ 10. devices
L0= L1=
if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null 2>&1; then
	echo "SKIP part 10: loop devices need root and losetup"
else
	truncate -s 8M "$work/d0" "$work/d1"
	L0=$(losetup -f --show "$work/d0" 2>/dev/null) &&
		L1=$(losetup -f --show "$work/d1" 2>/dev/null) || L1=
	trap 'for l in $L0 $L1; do losetup -d "$l"; done; rm -rf "$work"' EXIT
	if [ -z "$L0" ] || [ -z "$L1" ]; then
		echo "SKIP part 10: no loop device (losetup -f failed)"
	else
		sw10() { "$SW" -q --force -m fdatasync -s 4k -n 50 --region 64k "$@" >/dev/null; }
		if ! out=$(sw10 --ack-log "$work/dev.log" "$L0" 2>&1); then
			case $out in
			*"cannot tell whether it is in use"*)
				echo "SKIP part 10: this backend writes no device ($out)" ;;
			*) hard "run on $L0: $out" ;;
			esac
		else
		expect 3 "holds no transaction of run .*: cannot say whether it is: it is a device of the size of the run's target ($L0, 8388608 bytes).*if it is the run's target, everything was lost" \
			--check "$work/dev.log" "$L1"
		expect 0 "^OK: every acknowledged" --check "$work/dev.log" "$L0"
		# the device node the log names, everything of the run gone: a
		# loss (what a power cut leaves on a disk of a volatile cache)
		dd if="$L0" of="$work/d0.keep" bs=65536 count=1 2>/dev/null
		dd if=/dev/zero of="$L0" bs=65536 count=1 conv=notrunc,fsync 2>/dev/null
		expect 1 "FAILED: 16 acknowledged transactions" --check "$work/dev.log" "$L0"
		dd if="$work/d0.keep" of="$L0" bs=65536 count=1 conv=notrunc,fsync 2>/dev/null
		# a second run in the log, on the other device of that size
		sw10 --ack-log "$work/dev.log" "$L1" || hard "run on $L1"
		expect 0 "run $(rid_of "$work/dev.log" 1) (lines 1-[0-9]*) is checked: the newest run on '$L0' (it holds transactions of that run)" \
			--check "$work/dev.log" "$L0"
		expect 0 "run $(rid_of "$work/dev.log" 2) .* is checked" --check "$work/dev.log" "$L1"
		# the device used again, and the later run's newest acknowledged
		# transaction lost, the earlier run's left: a loss
		dd if="$L0" of="$work/d0.img" bs=65536 count=1 2>/dev/null
		sw10 --ack-log "$work/dev2.log" "$L0" || hard "second run on $L0"
		off=$(awk '$1 == "A" { o = $4 } END { print o }' "$work/dev2.log")
		dd if="$work/d0.img" of="$L0" bs=4096 skip=$((off / 4096)) seek=$((off / 4096)) count=1 \
			conv=notrunc,fsync 2>/dev/null
		expect 1 "was acknowledged but is a transaction of an earlier run" \
			--check "$work/dev2.log" "$L0"
		# the earlier run's log on the device the later run wrote over:
		# the one slot put back is checked, the others are the later run's
		expect 0 "15 slots overwritten by a later run $(rid_of "$work/dev2.log" 1)" \
			--check "$work/dev.log" "$L0"
		expect 0 "OK: every acknowledged transaction that could be verified (1 of 16)" \
			--check "$work/dev.log" "$L0"
		fi
	fi
fi

# ------------------------------------------------ 11. a tail of NUL bytes
head -n -1 "$work/b.log" >"$work/z.log" && head -c 300 /dev/zero >>"$work/z.log"
expect 0 "the log ends in NUL bytes .*: ignored" --check "$work/z.log" "$work/o"
expect 0 "^OK: every acknowledged" --check "$work/z.log" "$work/o"
# a line cut short, then NULs longer than any record
{ head -n -1 "$work/b.log"; printf 'A 0 5'; head -c 20000 /dev/zero; } >"$work/z.log"
expect 0 "the log ends in NUL bytes" --check "$work/z.log" "$work/o"
# NULs in the middle, records after them: malformed, with the line
n=$(($(wc -l <"$work/b.log") - 2))
{ head -n $n "$work/b.log"; head -c 30 /dev/zero; echo; tail -n 2 "$work/b.log"; } >"$work/z.log"
expect 3 "z.log:$((n + 1)): malformed line: it holds a NUL byte with more than NUL bytes after it" \
	--check "$work/z.log" "$work/o"
{ head -n $n "$work/b.log"; head -c 30 /dev/zero; echo; } >"$work/z.log"
expect 3 "z.log:$((n + 1)): malformed line: it holds a NUL byte" --check "$work/z.log" "$work/o"
exit $fail
