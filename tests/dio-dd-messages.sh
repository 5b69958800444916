#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# dio-dd-messages.sh -- dd's number grammar and messages, table-driven:
# every line of the table below is run through GNU dd (coreutils 9.x; SKIP
# without it) and through dio-dd, in the C locale, each in a fresh copy of
# the same files, and compared: the exit status, standard error with the
# program's name swapped (and the transfer line's time and rate dropped),
# standard output and the files left.  The table holds numbers dd takes
# (suffixes, B for bytes, one x product, 0x with its warning) and those it
# refuses (bs=1m, 2x, 2xx2, negative, 2^64, overflowing products), offsets
# past 2^63-1 (refused or met as dd meets them), and the messages scripts
# grep: names dd quotes ('a b', "it's", $'\n'), the C locale's strerror
# text, 'standard input'/'standard output'.
. "${top_srcdir:-.}/tests/lib.sh"

DD=$tools/dio-dd
dd --version 2>/dev/null | grep -q coreutils || skip "GNU dd (coreutils) is not installed"
LC_ALL=C
export LC_ALL
work=$(mktemp -d "$top_builddir/dd-messages.XXXXXX") || hard "mktemp"
work=$(cd "$work" && pwd)
trap 'rm -rf "$work"' EXIT INT TERM
cd "$work" || hard "cd $work"
fail=0 n=0
nl='
'

mkdir seed
head -c 10000 /dev/urandom >seed/in
cp seed/in "seed/a b"
cp seed/in "seed/it's"
cp seed/in "seed/a${nl}b"
cp seed/in "seed/a:b"
mkdir seed/dir

# run LINE: LINE (sh -c words; DD is the tool) through both, compared.
run() {
	n=$((n + 1))
	for t in gnu dio; do
		rm -rf "$t"
		cp -a seed "$t"
		if [ $t = gnu ]; then tool=dd; else tool=$DD; fi
		(cd "$t" && DD=$tool sh -c "$1" >../$t.out 2>../$t.err </dev/null; echo $? >../$t.rc)
		sed -e 's/^dio-dd: /dd: /' -e 's/ copied, .*/ copied/' $t.err >$t.cmp
	done
	what=
	[ "$(cat gnu.rc)" = "$(cat dio.rc)" ] ||
		what="exit $(cat gnu.rc) (dd) and $(cat dio.rc) (dio-dd);"
	cmp -s gnu.cmp dio.cmp || what="$what standard error differs;"
	cmp -s gnu.out dio.out || what="$what standard output differs;"
	for f in $(cd gnu && ls) $(cd dio && ls); do
		if [ -f "gnu/$f" ] && ! cmp -s "gnu/$f" "dio/$f"; then
			what="$what $f differs;"
		elif [ -e "dio/$f" ] && ! [ -e "gnu/$f" ]; then
			what="$what $f made by dio-dd only;"
		fi
	done
	if [ -z "$what" ]; then
		echo "ok   $1: exit $(cat dio.rc): $(head -n 1 dio.err)"
	else
		echo "FAIL $1: $what"
		sed 's/^/    dd:     /' gnu.err
		sed 's/^/    dio-dd: /' dio.err
		fail=1
	fi
}

# The table: one dd command line a line ($DD is the tool; '#' comments).
while IFS= read -r line; do
	case $line in ''|'#'*) continue ;; esac
	run "$line"
done <<'EOF'
# Numbers dd takes
$DD if=in of=out bs=4k count=2
$DD if=in of=out bs=2x1k count=3
$DD if=in of=out bs=1xM
$DD if=in of=out bs=M
$DD if=in of=out count=K
$DD if=in of=out count=2x2
$DD if=in of=out count=1b
$DD if=in of=out count=1w
$DD if=in of=out count=1c
$DD if=in of=out bs=1kB
$DD if=in of=out bs=1KB
$DD if=in of=out bs=1KiB
$DD if=in of=out bs=1KD
$DD if=in of=out count=' 2'
$DD if=in of=out count=+2
$DD if=in of=out count=007
$DD if=in of=out count=1E
$DD if=in of=out count=1Ex7
$DD if=in of=out count=4611686018427387904x1
$DD if=in of=out count=9223372036854775807
# B: count=, skip=, seek= in bytes (count_bytes, skip_bytes, seek_bytes)
$DD if=in of=out count=1B
$DD if=in of=out count=1000B
$DD if=in of=out count=1kB
$DD if=in of=out count=1KiB
$DD if=in of=out count=1bB
$DD if=in of=out count=1Bx2
$DD if=in of=out skip=3B
$DD if=in of=out seek=7B count=2
# 0x: dd's warning, and 0
$DD if=in of=out count=0x1000
$DD if=in of=out count=0xK
$DD if=in of=out count=0x0
$DD if=in of=out count=00x1
$DD if=in of=out count=0x99999999999999999999
# Numbers dd refuses: "invalid number", exit 1
$DD if=in of=out bs=1m
$DD if=in of=out bs=1g
$DD if=in of=out bs=1t
$DD if=in of=out count=2x
$DD if=in of=out count=2xx2
$DD if=in of=out count=2x3x4
$DD if=in of=out count=x2
$DD if=in of=out count=0x
$DD if=in of=out count=2x1B
$DD if=in of=out count=1xB
$DD if=in of=out count=-1
$DD if=in of=out count=' -1'
$DD if=in of=out count=-0
$DD if=in of=out count=
$DD if=in of=out count=1e
$DD if=in of=out count=1e3
$DD if=in of=out count=1.5
$DD if=in of=out count=1Ki
$DD if=in of=out count=1iB
$DD if=in of=out count=1D
$DD if=in of=out count=1kBB
$DD if=in of=out count=1q
$DD if=in of=out bs=0
$DD if=in of=out ibs=0
$DD if=in of=out obs=0x1
$DD if=in of=out bs=4kk
$DD if=in of=out count="a'b"
$DD if=in of=out count='a\b'
$DD if=in of=out count="$(printf 'a\tb')"
# Overflows: "Value too large for defined data type"
$DD if=in of=out count=18446744073709551616
$DD if=in of=out skip=18446744073709551616
$DD if=in of=out seek=18446744073709551616
$DD if=in of=out count=9223372036854775808
$DD if=in of=out count=99999999999999999999q
$DD if=in of=out count=1Y
$DD if=in of=out count=1Z
$DD if=in of=out count=1Ex8
$DD if=in of=out count=4611686018427387904x2
$DD if=in of=out bs=9223372036854775807
# Offsets past 2^63-1
$DD if=in of=out seek=4611686018427387904
$DD if=in of=out bs=4096 seek=2251799813685248
$DD if=in of=out seek=4611686018427387904 conv=notrunc
$DD if=in seek=4611686018427387904 >out
$DD if=in of=out skip=4611686018427387904
$DD of=out skip=4611686018427387904 <in
$DD if=in of=out bs=512 skip=18014398509481984
# Messages: names, quoting, the C locale's words
$DD if=missing of=out
$DD if='a b' of=out bs=4k skip=5
$DD if="it's" of=out bs=4k skip=5
$DD if="$(printf 'a\nb')" of=out bs=4k skip=5
$DD if=a:b of=out bs=4k skip=5
$DD if=in of=out bs=4k skip=5
$DD of=out bs=4k skip=5 <in
$DD of=out bs=4k skip=1 <in
$DD if=in of=out bs=4k skip=5 status=none
$DD of=out bs=4k skip=5 status=none <in
$DD if='no such' of=out
$DD if="no'such" of=out
$DD if="$(printf 'no\tsuch')" of=out
$DD if="$(printf 'no\351such')" of=out
$DD if=in of=nodir/out
$DD if=in of=in/out
$DD if=in of=dir
$DD if=dir of=out
$DD if=in of=out conv=excl,nocreat
$DD if=in of=in2 conv=nocreat
$DD if=in of=/dev/full bs=4k
$DD if=in bs=1k seek=1 count=2 | cat >out
$DD if=in of=out bs=4k oflag=append
EOF

echo "$n command lines compared"
[ $n -ge 90 ] || { echo "FAIL only $n command lines"; fail=1; }
exit $fail
