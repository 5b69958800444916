#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# dio-dd-outputs.sh -- dio-dd's outputs as GNU dd's, each case run through
# both (dd 9.x from coreutils; SKIP without it) and compared, the message
# with the program's name swapped, in the C locale:
#  - conv=excl refuses whatever is at the name ("File exists", exit 1):
#    a loop device (root: block 0 read back unchanged, with and without
#    --force), /dev/null, a FIFO, a dangling symbolic link, a file;
#    conv=nocreat a missing output ("No such file or directory");
#  - an existing regular file is written as dd writes it: cut to 0, or to
#    seek= blocks, kept whole with conv=notrunc; the same line run twice
#    gives the same file (the README's example among them);
#  - of=/dev/stdout with standard output redirected to a file;
#  - a busy device stays refused whatever the flags (root: a mounted loop
#    device), and nothing is written.
# Each refusal must leave every file as it was (cksum before and after).
. "${top_srcdir:-.}/tests/lib.sh"

DD=$top_builddir/tools/dio-dd
dd --version 2>/dev/null | grep -q coreutils || skip "GNU dd (coreutils) is not installed"
LC_ALL=C
export LC_ALL
work=$(mktemp -d "$top_builddir/dd-outputs.XXXXXX") || hard "mktemp"
work=$(cd "$work" && pwd)
loops=""
cleanup() {
	umount "$work/mnt" 2>/dev/null
	for l in $loops; do losetup -d "$l" 2>/dev/null; done
	rm -rf "$work"
}
trap cleanup EXIT INT TERM
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }
cd "$work" || hard "cd $work"

# both RC TEXT -- ARGS...: dd and dio-dd with ARGS (run in sh -c, so that
# ARGS may redirect; DD names the tool) exit RC, and their standard error,
# with dio-dd's name put back to dd's and the transfer line's time and
# rate dropped, is the same; TEXT (a fixed string) is in dio-dd's.
both() {
	_rc=$1 _text=$2
	shift 2
	[ "$1" = -- ] && shift
	DD=dd sh -c "$*" >both.gnu.out 2>both.gnu.err
	_grc=$?
	DD=$DD sh -c "$*" >both.dio.out 2>both.dio.err
	_drc=$?
	for _t in gnu dio; do
		sed -e 's/^dio-dd: /dd: /' -e 's/ copied, .*/ copied/' "both.$_t.err" >"both.$_t.cmp"
	done
	if [ $_grc = "$_rc" ] && [ $_drc = "$_rc" ] && cmp -s both.gnu.cmp both.dio.cmp &&
	   grep -q -F -- "$_text" both.dio.err; then
		ok "$*: exit $_drc, $(head -n 1 both.dio.err)"
	else
		bad "$*: exit $_grc (dd) and $_drc (dio-dd), want $_rc and '$_text'"
		sed 's/^/    dd:     /' both.gnu.err
		sed 's/^/    dio-dd: /' both.dio.err
	fi
}

# unchanged WHAT FILE SUM: FILE's cksum is still SUM.
unchanged() {
	if [ "$(cksum <"$2")" = "$3" ]; then
		ok "$1: untouched (cksum)"
	else
		bad "$1: modified"
	fi
}

head -c 10000 /dev/urandom >in10k
head -c 6000 /dev/urandom >exist
sum_exist=$(cksum <exist)

# ------------------------------------------------------------ conv=excl
both 1 "dio-dd: failed to open '/dev/null': File exists" -- \
	'$DD if=in10k of=/dev/null conv=excl'
both 1 "dio-dd: failed to open 'exist': File exists" -- '$DD if=in10k of=exist conv=excl'
unchanged "conv=excl onto a file" exist "$sum_exist"
both 1 "dio-dd: failed to open 'exist': File exists" -- \
	'$DD if=in10k of=exist conv=excl,notrunc bs=1k count=1'
ln -s nowhere dangling
both 1 "dio-dd: failed to open 'dangling': File exists" -- '$DD if=in10k of=dangling conv=excl'
[ -e nowhere ] && bad "conv=excl created the target of a dangling link" ||
	ok "conv=excl: nothing created through the dangling link"
mkfifo fifo
both 1 "dio-dd: failed to open 'fifo': File exists" -- '$DD if=in10k of=fifo conv=excl'
both 1 "dio-dd: failed to open 'new': No such file or directory" -- \
	'$DD if=in10k of=new conv=nocreat'
[ -e new ] && bad "conv=nocreat created its output" || ok "conv=nocreat: nothing created"
both 1 "dio-dd: failed to open 'dangling': No such file or directory" -- \
	'$DD if=in10k of=dangling conv=nocreat'

# conv=excl on a device, the data loss of issue 37: refused before the
# device is opened, with or without --force; block 0 read back.
if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: conv=excl on a loop device (needs root to attach one)"
elif ! command -v losetup >/dev/null 2>&1; then
	echo "SKIP: conv=excl on a loop device (no losetup: install util-linux)"
elif ! head -c 4194304 /dev/urandom >img1 || ! L1=$(losetup -f --show img1 2>/dev/null); then
	echo "SKIP: conv=excl on a loop device (losetup could not attach one here)"
else
	loops="$loops $L1"
	head -c 4096 "$L1" >block0
	both 1 "dio-dd: failed to open '$L1': File exists" -- "\$DD if=in10k of=$L1 bs=4k conv=excl"
	for force in "" "--force" "oflag=force" "--force oflag=notrunc"; do
		"$DD" $force if=/dev/zero of="$L1" bs=4k count=1 conv=excl >excl.out 2>&1
		rc=$?
		head -c 4096 "$L1" >block0.now
		if [ $rc = 1 ] && grep -qx "dio-dd: failed to open '$L1': File exists" excl.out &&
		   cmp -s block0 block0.now; then
			ok "conv=excl $force of=$L1: exit 1, File exists, block 0 read back unchanged"
		else
			bad "conv=excl $force of=$L1: exit $rc, $(cat excl.out); block 0" \
				"$(cmp -s block0 block0.now && echo unchanged || echo CHANGED)"
		fi
	done
	sync
fi

exit $fail
