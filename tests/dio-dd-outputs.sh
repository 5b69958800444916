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

DD=$tools/dio-dd
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

# both RC TEXT -- LINE: LINE (sh -c words, $DD naming the tool; run twice
# with TWICE=1) through dd and through dio-dd, each in its own copy of
# seed/: both exit RC, say the same on standard error (dio-dd's name put
# back to dd's, the transfer line's time and rate dropped), write the
# same standard output and leave the same files; TEXT (a fixed string)
# is in dio-dd's standard error.
both() {
	_rc=$1 _text=$2
	shift 2
	[ "$1" = -- ] && shift
	for _t in gnu dio; do
		rm -rf "$_t"
		cp -a seed "$_t"
		if [ $_t = gnu ]; then _tool=dd; else _tool=$DD; fi
		(cd "$_t" && DD=$_tool sh -c "$*" >../$_t.out 2>../$_t.err
		 _r=$?
		 if [ "${TWICE:-0}" = 1 ]; then
			DD=$_tool sh -c "$*" >../$_t.out 2>../$_t.err
			_r=$?
		 fi
		 echo $_r >../$_t.rc)
		sed -e 's/^dio-dd: /dd: /' -e 's/ copied, .*/ copied/' $_t.err >$_t.cmp
	done
	_what=
	[ "$(cat gnu.rc)" = "$_rc" ] && [ "$(cat dio.rc)" = "$_rc" ] ||
		_what="exit $(cat gnu.rc) (dd) and $(cat dio.rc) (dio-dd), want $_rc;"
	cmp -s gnu.cmp dio.cmp || _what="$_what standard error differs;"
	cmp -s gnu.out dio.out || _what="$_what standard output differs;"
	grep -q -F -- "$_text" dio.err || _what="$_what no '$_text';"
	for _f in $(ls -A gnu) $(ls -A dio); do
		if [ -f "gnu/$_f" ] && ! [ -L "gnu/$_f" ] && ! cmp -s "gnu/$_f" "dio/$_f"; then
			_what="$_what $_f differs;"
		elif [ -e "dio/$_f" ] && ! [ -e "gnu/$_f" ]; then
			_what="$_what $_f made by dio-dd only;"
		fi
	done
	if [ -z "$_what" ]; then
		ok "${TWICE:+twice: }$*: exit $_rc, $(head -n 1 dio.err)"
	else
		bad "${TWICE:+twice: }$*: $_what"
		sed 's/^/    dd:     /' gnu.err
		sed 's/^/    dio-dd: /' dio.err
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

mkdir seed
head -c 10000 /dev/urandom >seed/in10k
head -c 6000 /dev/urandom >seed/exist
head -c 20000 /dev/urandom >seed/long
ln -s nowhere seed/dangling
mkfifo seed/fifo

# ------------------------------------------------------------ conv=excl
both 1 "dio-dd: failed to open '/dev/null': File exists" -- \
	'$DD if=in10k of=/dev/null conv=excl'
both 1 "dio-dd: failed to open 'exist': File exists" -- '$DD if=in10k of=exist conv=excl'
both 1 "dio-dd: failed to open 'exist': File exists" -- \
	'$DD if=in10k of=exist conv=excl,notrunc bs=1k count=1'
both 1 "dio-dd: failed to open 'dangling': File exists" -- '$DD if=in10k of=dangling conv=excl'
[ -e dio/nowhere ] && bad "conv=excl created the target of a dangling link" ||
	ok "conv=excl: nothing created through the dangling link"
both 1 "dio-dd: failed to open 'fifo': File exists" -- '$DD if=in10k of=fifo conv=excl'
both 1 "dio-dd: failed to open 'new': No such file or directory" -- \
	'$DD if=in10k of=new conv=nocreat'
both 1 "dio-dd: failed to open 'dangling': No such file or directory" -- \
	'$DD if=in10k of=dangling conv=nocreat'
both 1 "dio-dd: failed to open 'nodir/new': No such file or directory" -- \
	'$DD if=in10k of=nodir/new'
both 1 "dio-dd: failed to open 'in10k/new': Not a directory" -- '$DD if=in10k of=in10k/new'
both 1 "dio-dd: cannot combine excl and nocreat" -- '$DD if=in10k of=new conv=excl,nocreat'

# ------------------------------------------------------------ files written over
# As dd: cut to 0 (O_TRUNC), to seek= blocks (ftruncate), or kept whole
# (conv=notrunc); every line twice in a row gives the same as dd's.
both 0 "2+1 records out" -- '$DD if=in10k of=exist bs=4k'
both 0 "2+1 records out" -- '$DD if=in10k of=long bs=4k'
both 0 "2+1 records out" -- '$DD if=in10k of=long bs=4k seek=1'
both 0 "2+1 records out" -- '$DD if=in10k of=long bs=4k conv=notrunc'
both 0 "2+1 records out" -- '$DD if=in10k of=long bs=4k seek=3 conv=notrunc'
both 0 "copied" -- '$DD if=in10k of=long bs=1000 seek=777 oflag=seek_bytes'
both 0 "copied" -- '$DD if=in10k of=long bs=1000 seek=7777 oflag=seek_bytes'
both 0 "copied" -- '$DD if=in10k of=long ibs=1000 obs=3000 seek=2'
both 0 "copied" -- '$DD if=in10k of=long bs=4k oflag=append'
both 0 "copied" -- '$DD if=in10k of=long bs=4k oflag=append conv=notrunc'
both 0 "0+0 records out" -- '$DD if=in10k of=long bs=4k count=0'
both 0 "0+0 records out" -- '$DD if=in10k of=long bs=4k count=0 seek=2'
both 0 "5+0 records out" -- '$DD if=/dev/zero of=long bs=1k count=5 conv=fdatasync'
both 0 "2+1 records out" -- '$DD if=in10k of=exist bs=4k conv=nocreat'
TWICE=1 both 0 "2+1 records out" -- '$DD if=in10k of=out bs=4k'
TWICE=1 both 0 "2+1 records out" -- '$DD if=in10k of=out bs=4k conv=fsync'
TWICE=1 both 0 "2+1 records out" -- '$DD if=in10k of=long bs=4k seek=1'
TWICE=1 both 0 "copied" -- '$DD if=in10k of=long bs=4k oflag=append conv=notrunc'
TWICE=1 both 0 "2+1 records out" -- '$DD if=in10k bs=4k >out'
TWICE=1 both 0 "5+0 records out" -- 'cat in10k | $DD of=out bs=1k count=5 iflag=fullblock'

# of=/dev/stdout with standard output on a file (a new open of the file:
# cut, then written from its start), and the timing table then goes to
# standard error, not into the data.
both 0 "2+1 records out" -- '$DD if=in10k of=/dev/stdout bs=4k >out'
both 0 "2+1 records out" -- '$DD if=in10k of=/dev/stdout bs=4k >exist'
both 0 "2+1 records out" -- '$DD if=in10k of=/dev/stdout bs=4k >>exist'
"$DD" if=seed/in10k of=/dev/stdout bs=4k time=1 >t.out 2>t.err
rc=$?
if [ $rc = 0 ] && cmp -s seed/in10k t.out && grep -q '^total ' t.err; then
	ok "of=/dev/stdout >file time=1: the file is the input, the table on standard error"
else
	bad "of=/dev/stdout >file time=1: exit $rc, $(cmp seed/in10k t.out 2>&1)"
fi

# The README's example, as printed, twice in a row (1 GiB each time; its
# direct I/O needs a file system that takes it: the build directory's),
# and a 4 MiB one through both tools.
if backend_has_direct && dd if=/dev/zero of=probe bs=4k count=1 oflag=direct 2>/dev/null; then
	for i in 1 2; do
		"$DD" if=/dev/zero of=big.file bs=1M count=1024 oflag=direct conv=fdatasync \
			>readme.out 2>readme.err
		rc=$?
		if [ $rc = 0 ] && grep -qx '1024+0 records out' readme.err &&
		   [ "$(wc -c <big.file)" = 1073741824 ]; then
			ok "the README's example, run $i: exit 0, 1024+0 records out, 1 GiB"
		else
			bad "the README's example, run $i: exit $rc: $(cat readme.err)"
		fi
	done
	rm -f big.file
	TWICE=1 both 0 "4+0 records out" -- \
		'$DD if=/dev/zero of=big.file bs=1M count=4 oflag=direct conv=fdatasync'
else
	echo "SKIP: the README's example (oflag=direct): $top_builddir takes no O_DIRECT"
	TWICE=1 both 0 "4+0 records out" -- '$DD if=/dev/zero of=big.file bs=1M count=4 conv=fdatasync'
fi
rm -f probe

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
