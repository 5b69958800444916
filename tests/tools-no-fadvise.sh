#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tools-no-fadvise.sh -- where posix_fadvise() does nothing (illumos,
# whose libc's only checks its arguments: no DIO_CAP_FADVISE), dio-dd
# says once that iflag=/oflag=nocache and fadvise= do nothing and goes on
# (the bytes are copied, exit 0), and sync-write says once that the page
# cache cannot be dropped between points.  Where it acts (Linux, with
# either backend), neither is said.  The illumos answer is given to the
# tools by the LD_PRELOAD shim of tests/ufs-rules.c (DIO_UFS_NO_FADVISE),
# built with the linux backend.
. "${top_srcdir:-.}/tests/lib.sh"

DD=$tools/dio-dd
SW=$tools/sync-write
LC_ALL=C
export LC_ALL
fail=0
ok() { printf 'ok   %s\n' "$*"; }
bad() { printf 'FAIL %s\n' "$*"; fail=1; }
[ "$(uname -s)" = Linux ] || skip "whether posix_fadvise acts is known here on Linux only"
shim=
la=$top_builddir/tests/ufs-rules.la
if [ "$DIO_BACKEND" = linux ] && [ -f "$la" ] && ! sanitized; then
	shim=$top_builddir/tests/.libs/$(sed -n "s/^dlname='\(.*\)'$/\1/p" "$la")
	[ -f "$shim" ] || hard "no shared object of $la (at $shim)"
fi
work=$(mktemp -d "$top_builddir/no-fadvise.XXXXXX") || hard "mktemp"
trap 'rm -rf "$work"' EXIT INT TERM
head -c 65536 /dev/urandom >"$work/in"

# cases WHAT ACTS [ENV...]: every case, the tools run under env ENV...
cases() {
what=$1 acts=$2
shift 2
pre="env $*"

# dd_case NAME WANT ARGS...: dio-dd ARGS copies in to out (exit 0, the
# bytes); its warning names WANT where posix_fadvise does nothing.
dd_case() {
	_n=$1 _want=$2; shift 2
	rm -f "$work/out"
	$pre "$DD" if="$work/in" of="$work/out" bs=4k "$@" 2>"$work/$_n.err"
	_rc=$?
	[ $_rc -eq 0 ] && cmp -s "$work/in" "$work/out" && ok "$what $_n: copied, exit 0" ||
		bad "$_n: exit $_rc or the copy differs: $(cat "$work/$_n.err")"
	_w=$(grep -c 'nothing on this platform' "$work/$_n.err")
	if [ $acts = 1 ]; then
		[ "$_w" = 0 ] && ok "$what $_n: no warning where posix_fadvise acts" ||
			bad "$_n: warned where posix_fadvise acts: $(cat "$work/$_n.err")"
	elif [ "$_w" = 1 ] && grep -q "^dio-dd: warning: $_want nothing on this platform: posix_fadvise() does not act here" "$work/$_n.err"; then
		ok "$what $_n: one warning: $(grep 'nothing on this platform' "$work/$_n.err")"
	else
		bad "$_n: expected one warning naming '$_want': $(cat "$work/$_n.err")"
	fi
}
dd_case onocache "oflag=nocache does" oflag=nocache
dd_case inocache "iflag=nocache does" iflag=nocache
dd_case all "iflag=nocache, oflag=nocache, fadvise=sequential do" iflag=nocache \
	oflag=nocache fadvise=sequential
# Nothing asked: nothing said, whatever the backend.
rm -f "$work/out"
$pre "$DD" if="$work/in" of="$work/out" bs=4k 2>"$work/plain.err"
grep -q 'nothing on this platform' "$work/plain.err" &&
	bad "a warning without nocache or fadvise=: $(cat "$work/plain.err")" ||
	ok "$what no warning without nocache or fadvise="

# sync-write: the note once, for a run of several points.
$pre "$SW" -q -m none,fsync -s 4k,8k -n 4 --warmup 1 --dir "$work" >"$work/sw.out" 2>"$work/sw.err" ||
	bad "sync-write failed: $(cat "$work/sw.err")"
n=$(grep -c 'the page cache cannot be dropped on this platform' "$work/sw.err")
if [ $acts = 1 ]; then
	[ "$n" = 0 ] && ok "$what sync-write: no note where the cache is dropped" ||
		bad "sync-write noted where the cache is dropped: $(cat "$work/sw.err")"
else
	[ "$n" = 1 ] && ok "$what sync-write: the note once for 4 points" ||
		bad "sync-write: the note $n times: $(cat "$work/sw.err")"
fi
}

cases "[as built]" 1
if [ -n "$shim" ]; then
	cases "[illumos' answer]" 0 LD_PRELOAD="$shim" DIO_UFS_NO_FADVISE=1
else
	echo "note: the illumos answer is not given here (no shim: $DIO_BACKEND backend or a sanitized build)"
fi
exit $fail
