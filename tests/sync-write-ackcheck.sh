#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# sync-write-ackcheck.sh -- --ack-log and --check: after the writer is
# killed mid-run (SIGKILL: no cleanup, as in a crash), every acknowledged
# transaction is found on the file; damage to an acknowledged transaction
# (a corrupted byte, a zeroed block) is detected and fails the check
# (exit 1); a log or a target that cannot be checked exits 3, never 1.
# tests/sync-write-ackcheck-hostile.sh has the hostile logs and targets.
. "${top_srcdir:-.}/tests/lib.sh"

SW=$tools/sync-write
work=$(mktemp -d "$top_builddir/sw-ack.XXXXXX") || hard "mktemp"
trap 'rm -rf "$work"' EXIT
fail=0

expect() { _w=$1 _p=$2; shift 2; expect_exit "$_w" "$_p" "$SW" "$@"; }

# 1. A crash in the middle of a run (threads: one process to kill).
"$SW" -q --threads -m fdatasync -s 4k -w 2 -t 30s --region 256k \
	--ack-log "$work/ack.log" "$work/f" >/dev/null 2>&1 &
pid=$!
# killed once both writers have acknowledgements logged, over 50 in all
acked() {
	[ -f "$1" ] && [ "$(grep -c '^A ' "$1")" -gt 50 ] && grep -q '^A 0 ' "$1" && grep -q '^A 1 ' "$1"
}
wait_for 60 "over 50 acknowledgements of both writers in $work/ack.log" acked "$work/ack.log"
kill -KILL $pid
wait $pid 2>/dev/null
[ -f "$work/f" ] || { echo "FAIL: the target vanished"; exit 1; }
acks=$(grep -c '^A ' "$work/ack.log")
[ "$acks" -gt 50 ] || { echo "FAIL: only $acks acknowledgements logged"; exit 1; }
expect 0 "OK: every acknowledged transaction is on stable storage" --check "$work/ack.log"

# 2. Corrupt one byte of the newest acknowledged transaction of writer 1.
line=$(grep '^A 1 ' "$work/ack.log" | tail -n 1)
off=$(echo "$line" | awk '{ print $4 }')
# A value the byte does not hold (writing a fixed one would change nothing
# one time in 256).
b=$(od -An -tu1 -j $((off + 100)) -N 1 "$work/f" | tr -d ' ')
printf "\\$(printf '%03o' $(((b + 1) % 256)))" |
	dd of="$work/f" bs=1 seek=$((off + 100)) conv=notrunc 2>/dev/null
[ "$(od -An -tu1 -j $((off + 100)) -N 1 "$work/f" | tr -d ' ')" != "$b" ] ||
	hard "the byte at $((off + 100)) did not change"
expect 1 "lost: 0; corrupt: 1" --check "$work/ack.log"

# 3. Zero another acknowledged transaction (writer 0): a lost write.
line=$(grep '^A 0 ' "$work/ack.log" | tail -n 1)
off=$(echo "$line" | awk '{ print $4 }')
dd if=/dev/zero of="$work/f" bs=4096 seek=$((off / 4096)) count=1 conv=notrunc 2>/dev/null
expect 1 "lost: 1; corrupt: 1" --check "$work/ack.log" "$work/f"

# 3b. A transaction issued after the acknowledged one does not excuse a
#     slot that was lost entirely (zeros are no torn write): the log of a
#     run of 16 slots as it was when its writer had just issued the
#     transaction after the last one acknowledged, which goes to the slot
#     of the one acknowledged 16 before; that slot zeroed.
"$SW" -q -m fdatasync -s 4k -n 20 --region 64k --keep --ack-log "$work/ack3.log" \
	"$work/f3" >/dev/null || hard "the run of 16 slots"
n=$(grep -n '^A 0 ' "$work/ack3.log" | tail -n 1 | cut -d: -f1)
head -n "$n" "$work/ack3.log" > "$work/ack2.log"
seq=$(tail -n 1 "$work/ack2.log" | awk '{ print $3 + 1 }')
off=$(( (seq % 16) * 4096 ))
echo "I 0 $seq $off" >> "$work/ack2.log"
expect 0 "in flight (issued, not acknowledged): 1, holding the new data 0, the old 1" \
	--check "$work/ack2.log" "$work/f3"
dd if=/dev/zero of="$work/f3" bs=4096 seek=$((off / 4096)) count=1 conv=notrunc 2>/dev/null
expect 1 "lost: 1; corrupt: 0" --check "$work/ack2.log" "$work/f3"

# 3c. Malformed logs are refused, not trusted.
printf '# sync-write ack-log 1\nR 1 shared 0 65536 %s\nP 0 none 16 1 4\nA 0 0 0\n' "$work/f" > "$work/bad.log"
expect 3 "bad.log:3: malformed P line" --check "$work/bad.log"
printf '# sync-write ack-log 1\nR 1 shared 0 65536 %s\nP 0 none 4096 4 4611686018427387904\n' "$work/f" > "$work/bad.log"
expect 3 "bad.log:3: malformed P line: 4611686018427387904 slots, but the run's 65536-byte region" \
	--check "$work/bad.log"
printf '# sync-write ack-log 1\nR 1 shared 0 65536 %s\nP 0 none 4096 1 16\n' "$work/f" > "$work/bad.log"
expect 3 "no acknowledged transaction to check" --check "$work/bad.log"

# 4. A clean run with --keep checks too, and says it ended cleanly.
rm -f "$work/f" "$work/ack.log"
expect 0 "^dsync  *4096  *1  *30 " -q -m fdatasync,dsync -s 4k -n 30 --keep --ack-log "$work/ack.log" "$work/f"
expect 0 "OK: every acknowledged" --check "$work/ack.log"
expect 0 "(the run had ended cleanly)" --check "$work/ack.log"
# an existing log is not overwritten without --force
expect 2 "pass --force to append" -q -m none -s 4k -n 1 --ack-log "$work/ack.log" "$work/g"
[ -e "$work/g" ] && { echo "FAIL: target left behind after the refusal"; fail=1; }

# 5. The target must be the run's: another run's file, a directory or a
#    character device are named as such (exit 3), never counted as losses.
expect 0 "writer 0: 30 acknowledged slots; newest acknowledged transaction found: 37; none missing" \
	--check "$work/ack.log"
expect 0 "in flight (issued, not acknowledged): 0" --check "$work/ack.log"
rm -f "$work/h"
"$SW" -q -m fdatasync -s 4k -n 30 --keep --ack-log "$work/other.log" "$work/h" >/dev/null ||
	hard "second run"
expect 3 "'$work/h' holds no transaction of run [0-9a-f]* in any slot the log names: it is not that run's target" \
	--check "$work/ack.log" "$work/h"
expect 3 "is a directory, not the run's target" --check "$work/ack.log" "$work"
expect 3 "neither a regular file nor a block device" --check "$work/ack.log" /dev/zero
expect 3 "target '$work/nothing': no such file" --check "$work/ack.log" "$work/nothing"

# 6. A malformed log is refused with the line number: a NUL byte, a number
#    too large, a line of a megabyte, an unknown record, a writer out of
#    range; a last line cut short by the crash is ignored, and said so.
lines=$(wc -l < "$work/ack.log")
bad_at() {  # TEXT: the log with TEXT inserted as line 6
	{ head -n 5 "$work/ack.log"; printf "$1"; tail -n $((lines - 5)) "$work/ack.log"; } > "$work/m.log"
}
bad_at 'A 0 1\0002 4096\n'
expect 3 "m.log:6: malformed line: it holds a NUL byte" --check "$work/m.log"
bad_at 'A 0 123456789012345678901234567890 4096\n'
expect 3 "m.log:6: malformed A line" --check "$work/m.log"
{ head -n 5 "$work/ack.log"; printf 'A 0 1 %01000000d\n' 9; tail -n $((lines - 5)) "$work/ack.log"; } > "$work/m.log"
expect 3 "m.log:6: malformed line: longer than 4352 bytes" --check "$work/m.log"
bad_at 'Z 0\n'
expect 3 "m.log:6: malformed line: unknown record 'Z 0'" --check "$work/m.log"
bad_at 'A 7 1 4096\n'
expect 3 "m.log:6: malformed A line" --check "$work/m.log"
head -c -3 "$work/ack.log" > "$work/m.log"
expect 0 "last line was cut short (the crash): ignored" --check "$work/m.log"
exit $fail
