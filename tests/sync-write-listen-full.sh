#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# sync-write-listen-full.sh -- a listener whose log's file system fills
# (a 512 KiB tmpfs) does not end: the run whose record could not be
# written fails (exit 1) and its log keeps every answered record whole,
# checked by --check; the listener names the log and ENOSPC, refuses that
# run from then on, and goes on serving: once there is room again, a
# second run through the same listener passes --check.  SIGTERM then ends
# it with exit 1 (a run's log failed) and the summary.  Root (a mount),
# SKIP without.
. "${top_srcdir:-.}/tests/lib.sh"

SW=$tools/sync-write
[ "$(id -u)" -eq 0 ] || skip "a small file system to fill needs root (mount -t tmpfs)"
work=$(mktemp -d "$top_builddir/sw-full.XXXXXX") || hard "mktemp"
mkdir "$work/mnt"
mount -t tmpfs -o size=512k,mode=0700 dio-test-full "$work/mnt" 2>/dev/null ||
	{ rm -rf "$work"; skip "cannot mount a tmpfs here"; }
cleanup() {
	[ -n "${lpid:-}" ] && kill "$lpid" 2>/dev/null && wait "$lpid" 2>/dev/null
	umount "$work/mnt"
	rm -rf "$work"
}
trap cleanup EXIT
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }

# Room for the second run, taken now and given back after the first fills
# the rest.
dd if=/dev/zero of="$work/mnt/filler" bs=64k count=2 2>/dev/null || hard "filler"
log=$work/mnt/l.log
# (its words in $work/l.err, off the file system that fills)
"$SW" --listen 127.0.0.1:0 --ack-log "$log" 2>"$work/l.err" &
lpid=$!
listener_port "$work/l.err"
DIO_ACK_TOKEN=$(cat "$log.token") || hard "the listener wrote no token"
export DIO_ACK_TOKEN

# 1. A run that fills the log's file system (method none: records fast).
out=$("$SW" -q -m none -s 4k -w 2 -t 60s --region 1m --keep \
	--ack-log "tcp:127.0.0.1:$port" "$work/fa" 2>&1)
st=$?
[ $st -eq 1 ] && ok "the run whose log filled its file system fails: exit 1" ||
	bad "the run: exit $st: $out"
grep -qi "run [0-9a-f]*: refused from now on: writing its log '$log': no space left on device" \
	"$work/l.err" && ok "the listener names the log and ENOSPC" ||
	bad "the listener's words: $(cat "$work/l.err")"
kill -0 "$lpid" 2>/dev/null && ok "the listener is still serving" ||
	bad "the listener ended: $(cat "$work/l.err")"
[ -z "$(tail -c 1 "$log")" ] && ok "the log ends with a whole record ($(wc -l <"$log") lines)" ||
	bad "the log ends in a partial record: $(tail -c 40 "$log" | od -c | tail -n 3)"
out=$("$SW" --check "$log" "$work/fa" 2>&1); st=$?
# The run never ended (no E): its acknowledged transactions are checked.
[ $st -eq 0 ] && echo "$out" | grep -q "^OK: every" &&
	ok "--check of the filled log: every answered record whole, all on the target" ||
	bad "--check of the filled log: exit $st: $out"

# 2. Room again: the same listener serves a second run.
rm -f "$work/mnt/filler"
out=$("$SW" -q -m none -s 4k -w 2 -n 50 --region 64k --keep \
	--ack-log "tcp:127.0.0.1:$port" "$work/fb" 2>&1) &&
	ok "a second run through the same listener passes" || bad "the second run: $out"
lb=$(grep -l "^R .* $work/fb\$" "$log".* 2>/dev/null | head -n 1)
out=$("$SW" --check "${lb:-none}" "$work/fb" 2>&1) && echo "$out" | grep -q "^OK: every" &&
	ok "--check of the second run's log" || bad "--check of the second run: $out"

# 3. The end: SIGTERM, exit 1 (a run's log failed), said.
kill -TERM "$lpid"; wait "$lpid"; st=$?; lpid=
[ $st -eq 1 ] && grep -q "1 run's log failed" "$work/l.err" &&
	grep -q "records in '$log'.*; refused: writing its log" "$work/l.err" &&
	ok "SIGTERM: exit 1, the failed log named in the summary" ||
	bad "the end: exit $st: $(cat "$work/l.err")"
exit $fail
