#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# sync-write-ack-commit.sh -- --ack-commit commits every record of a local
# --ack-log FILE before it counts: strace shows one fdatasync() of the log
# per record with it (writer processes and threads), none without; it is
# refused where it cannot commit (a device, standard output, a listener).
. "${top_srcdir:-.}/tests/lib.sh"

SW=$tools/sync-write
command -v strace >/dev/null 2>&1 || skip "counting the log's commits needs strace"
work=$(mktemp -d "$top_builddir/sw-ackc.XXXXXX") || hard "mktemp"
trap 'rm -rf "$work"' EXIT
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }

# commits MODE OPTION...: run under strace; the log's fdatasync() calls
# (strace -y names each descriptor's file) and the log's records.
commits() {
	_mode=$1; shift
	rm -f "$work/f" "$work/c.log" "$work/trace"
	# (LeakSanitizer cannot run under ptrace: sanitizer builds)
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -f -y -o "$work/trace" -e trace=fdatasync \
		"$SW" -q $_mode -m none -s 4k -w 2 -n 20 --region 64k --keep --ack-log "$work/c.log" \
		"$@" "$work/f" >"$work/out" 2>&1 || { bad "the run: $(cat "$work/out")"; return; }
	# (a call another process interrupts shows as "<unfinished ...>")
	n=$(grep -c "fdatasync([0-9]*<[^>]*/c\.log>" "$work/trace")
	k=$(wc -l <"$work/c.log")
}
for mode in --processes --threads; do
	opt=$mode; [ "$mode" = --processes ] && opt=
	commits "$opt" --ack-commit
	[ "$k" -gt 80 ] && [ "$n" -eq "$k" ] &&
		ok "$mode --ack-commit: $n commits of the log for its $k records" ||
		bad "$mode --ack-commit: $n commits of the log, $k records"
	out=$("$SW" --check "$work/c.log" "$work/f" 2>&1) && echo "$out" | grep -q "^OK: every" &&
		ok "$mode --ack-commit: the log checks" || bad "$mode: --check: $out"
	commits "$opt"
	[ "$k" -gt 80 ] && [ "$n" -eq 0 ] && ok "$mode without it: no commit of the log ($k records)" ||
		bad "$mode without it: $n commits of the log, $k records"
done

expect_exit 2 "not a regular file: it cannot commit" "$SW" -q -m none -s 4k -n 1 --force \
	--ack-commit --ack-log /dev/null "$work/g"
expect_exit 2 "--ack-commit needs --ack-log FILE" "$SW" -q -m none -s 4k -n 1 --ack-commit \
	--ack-log - -o "$work/r" "$work/g"
expect_exit 2 "--ack-commit needs --ack-log FILE" "$SW" -q -m none -s 4k -n 1 --ack-commit \
	--ack-log tcp:127.0.0.1:7 "$work/g"
expect_exit 2 "--ack-commit needs --ack-log FILE" "$SW" -q -m none -s 4k -n 1 --ack-commit \
	"$work/g"
exit $fail
