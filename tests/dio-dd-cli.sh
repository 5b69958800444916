#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# dio-dd-cli.sh -- dio-dd on files in the build directory (no root):
#  - dd's defaults: no if= is standard input, no of= standard output (a
#    copy through pipes and redirections, compared with cmp; the records
#    lines on standard error, the data alone on standard output); a
#    terminal there is refused; mode=read reads only, mode=write writes
#    the pattern; several if= (of=) with no of= (if=) refused;
#  - a table of bad operands, each with its own message and exit 2; dd's
#    exit 1 for an input that cannot be opened; count=0 and skip= past the
#    end as dd (0+0 records, exit 0);
#  - an existing file written over as dd (no --force); refusals (conv=excl,
#    conv=nocreat, a device without --force) touch nothing (checksum);
#  - read, write and copy with one and several files and threads, on the
#    sync engine and on every asynchronous engine of the build, the
#    copies verified with cmp; skip/seek/count; bs x bpt; the pattern's
#    offset stamps;
#  - no-copy reads (Linux) or their clear refusal (elsewhere);
#  - JSON (python3) with the documented keys, CSV columns, device bytes
#    adding up to the total;
#  - rate= roughly honoured; SIGINT gives partial results and exit 130;
#  - an output that is also an input or another output under another
#    name (symlink, hard link, ./x) is refused, nothing touched;
#  - skip=/seek= whose byte offsets would pass 2^63-1 are refused (they
#    used to wrap around to small offsets);
#  - an output file is truncated to seek*bs (a copy onto a longer file
#    is identical to its input) unless oflag=notrunc, as dd;
#  - a report that cannot be written (/dev/full) is exit 1; the engine
#    line is printed only when there is something to say; files that
#    report a size of 0 (/proc) say that nothing was read.
#  - largepages=: the page size reported (the system's large page, or the
#    base page with largepages=0);
#  - fadvise=: the advice reaches both files of a copy (strace), none is
#    given by default, and fadvise=random turns read-ahead off (fincore);
#  - bufoff=: bad values refused; where the buffers start, from the
#    addresses the read and write calls are given (strace): 32 bytes past
#    a page by default for buffered transfers, 0 with a direct side, the
#    value given otherwise; copies through offset buffers (every engine's
#    queue slots) identical to their input.
. "${top_srcdir:-.}/tests/lib.sh"

DD=$tools/dio-dd
[ -x "$DD" ] || hard "$DD is not built"
work=$(mktemp -d "$top_builddir/dd-cli.XXXXXX") || hard "mktemp"
trap 'rm -rf "$work"' EXIT INT TERM
cd "$work" || hard "cd"
fail=0 pass=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

# expect STATUS PATTERN ARGS...: exit status and a line of output/errors
# (both in out; standard input /dev/null)
expect() {
	want=$1 pat=$2; shift 2
	out=$("$DD" "$@" 2>&1 </dev/null); got=$?
	if [ "$got" -ne "$want" ] || ! printf '%s\n' "$out" | grep -q -F -- "$pat"; then
		bad "dio-dd $*: exit $got (want $want), output:"
		printf '%s\n' "$out" | sed 's/^/    /' | head -n 20
		echo "    (expected: $pat)"
	else
		ok "dio-dd $*: exit $got: $(printf '%s\n' "$out" | grep -F -- "$pat" | head -n 1)"
	fi
}

# line PATTERN: the last expect's output has a line matching PATTERN (grep)
line() { printf '%s\n' "$out" | grep -q -- "$1"; }

head -c 3000000 /dev/urandom >in1 || hard "no /dev/urandom"
head -c 2000000 /dev/urandom >in2
echo keep >existing
sum_before=$(cksum <existing)

# ------------------------------------------------------------ dd's defaults
# No of=: standard output, the data alone there; dd's three closing lines
# on standard error.
"$DD" if=in1 bs=4k >d1.out 2>d1.err </dev/null
st=$?
if [ $st -eq 0 ] && cmp -s in1 d1.out && grep -qx "732+1 records in" d1.err &&
   grep -qx "732+1 records out" d1.err &&
   grep -q "^3000000 bytes (3.0 MB, 2.9 MiB) copied, [0-9.e+-]* s, [0-9.]* [kMGT]*B/s\$" d1.err &&
   [ "$(wc -l <d1.err)" -eq 3 ]; then
	ok "if=in1 bs=4k >out: out is in1 (cmp), dd's lines on stderr: $(tail -n 1 d1.err)"
else
	bad "if=in1 bs=4k >out: exit $st, $(wc -c <d1.out) bytes out, stderr: $(cat d1.err)"
fi
# No if= either: standard input to standard output
"$DD" bs=1k <in1 >d2.out 2>d2.err
st=$?
[ $st -eq 0 ] && cmp -s in1 d2.out && grep -qx "2929+1 records out" d2.err &&
	ok "bs=1k <in1 >out: out is in1 (cmp), $(grep 'records out' d2.err)" ||
	bad "bs=1k <in1 >out: exit $st, $(wc -c <d2.out) bytes out, stderr: $(cat d2.err)"
# through pipes both ways
cat in1 | "$DD" bs=64k >d3.out 2>d3.err
st=$?
[ $st -eq 0 ] && cmp -s in1 d3.out && grep -q "^3000000 bytes .* copied" d3.err &&
	ok "a pipe into dio-dd bs=64k >out: out is in1 (cmp)" ||
	bad "a pipe into dio-dd: exit $st, $(wc -c <d3.out) bytes out, stderr: $(cat d3.err)"
"$DD" if=in2 bs=64k 2>d4.err </dev/null | cat >d4.out
cmp -s in2 d4.out && grep -q "^2000000 bytes .* copied" d4.err &&
	ok "dio-dd if=in2 bs=64k into a pipe: what came out is in2 (cmp)" ||
	bad "dio-dd if=in2 into a pipe: $(wc -c <d4.out) bytes, stderr: $(cat d4.err)"
# of= alone reads standard input
"$DD" of=d5.out count=2 <in1 >d5.std 2>d5.err
st=$?
head -c 1024 in1 >d5.ref
[ $st -eq 0 ] && cmp -s d5.ref d5.out && [ ! -s d5.std ] && grep -qx "2+0 records in" d5.err &&
	ok "of=out count=2 <in1: out is in1's first 1024 bytes, nothing on stdout" ||
	bad "of=out count=2 <in1: exit $st, $(wc -c <d5.out) bytes: $(cat d5.err)"
# mode=copy is the default: if= alone with it goes to standard output
"$DD" if=in1 mode=copy bs=64k >d6.out 2>d6.err </dev/null
st=$?
[ $st -eq 0 ] && cmp -s in1 d6.out && ok "if=in1 mode=copy >out: out is in1 (cmp)" ||
	bad "if=in1 mode=copy >out: exit $st: $(cat d6.err)"
# the time=1 table goes to stderr when the data has stdout
"$DD" if=in1 bs=64k time=1 >d7.out 2>d7.err </dev/null
st=$?
[ $st -eq 0 ] && cmp -s in1 d7.out && grep -q "^total " d7.err &&
	ok "if=in1 time=1 >out: out is in1 (cmp), the table on stderr" ||
	bad "if=in1 time=1 >out: exit $st, stderr: $(cat d7.err)"
# mode=read: read only, nothing on stdout, no records out
"$DD" if=in1 mode=read >r.out 2>r.err </dev/null
st=$?
[ $st -eq 0 ] && [ ! -s r.out ] && grep -qx "5859+1 records in" r.err && ! grep -q "records out" r.err &&
	ok "if=in1 mode=read: nothing on stdout, $(grep 'records in' r.err) on stderr" ||
	bad "if=in1 mode=read: exit $st, $(wc -c <r.out) bytes on stdout, stderr: $(cat r.err)"
# mode=write: the pattern, standard input untouched
"$DD" of=mw mode=write count=2 <in1 >mw.out 2>mw.err
st=$?
s0=$(head -c 23 mw 2>/dev/null) s1=$(dd if=mw bs=512 skip=1 count=1 2>/dev/null | head -c 23)
[ $st -eq 0 ] && [ "$(wc -c <mw)" -eq 1024 ] && [ "$s0" = "dio-dd 0000000000000000" ] &&
	[ "$s1" = "dio-dd 0000000000000200" ] && grep -qx "2+0 records out" mw.err &&
	! grep -q "records in" mw.err &&
	ok "of=mw mode=write count=2: 1024 bytes of the pattern ('$s0', '$s1'), stdin not read" ||
	bad "of=mw mode=write count=2: exit $st, '$s0' '$s1', stderr: $(cat mw.err)"
# several inputs or outputs cannot share the one standard stream
expect 2 "if= names 2 inputs and of= is missing: standard output takes one; give mode=read" \
	if=in1,in2
expect 2 "of= names 2 outputs and if= is missing: standard input is one input; give mode=write" \
	of=new1,new2 count=1
[ -e new1 ] || [ -e new2 ] && bad "a refused run created new1 or new2" ||
	ok "several of= without if=: nothing created"
# a terminal as the input or the output that was not named is refused
if command -v script >/dev/null 2>&1 && script -qec true /dev/null </dev/null >/dev/null 2>&1; then
	on_tty() { script -qec "$*; echo \"exit \$?\"" /dev/null </dev/null 2>&1 | tr -d '\r'; }
	out=$(on_tty "\"$DD\" of=tty-new count=1")
	if line "if= is not given, so the input is standard input, which is a terminal" &&
	   line "^exit 2\$" && [ ! -e tty-new ]; then
		ok "of= alone on a terminal: exit 2, nothing created"
	else
		bad "of= alone on a terminal: $out"
	fi
	out=$(on_tty "\"$DD\" if=in1 count=1")
	line "of= is not given, so the data would go to standard output, which is a terminal" &&
		line "^exit 2\$" && ok "if= alone on a terminal: exit 2" ||
		bad "if= alone on a terminal: $out"
	out=$(on_tty "\"$DD\" if=in1 mode=read count=1")
	line "^1+0 records in" && line "^exit 0\$" && ok "if= mode=read on a terminal: read" ||
		bad "if= mode=read on a terminal: $out"
else
	echo "SKIP standard input or output a terminal: no util-linux script(1)"
fi

# ------------------------------------------------------------ bad operands
# dd's numbers, refused as dd refuses them (exit 1; tests/dio-dd-messages.sh
# compares many more with dd); dio-dd's own limit: 1 GiB a call
expect 1 "dio-dd: invalid number: '0'" if=in1 mode=read bs=0
expect 1 "dio-dd: invalid number: '4kk'" if=in1 mode=read bs=4kk
expect 1 "dio-dd: invalid number: '1.5k'" if=in1 mode=read bs=1.5k
expect 2 "bs=2G: 2147483648 bytes is more than dio-dd moves in one call; at most 1073741824" \
	if=in1 mode=read bs=2G
expect 1 "dio-dd: invalid number: '-1'" if=in1 mode=read count=-1
# dd's products
expect 0 "6144 bytes (6.1 kB, 6.0 KiB) copied" if=in1 mode=read bs=2x512 count=2x3
line "^6+0 records in\$" && ok "bs=2x512 count=2x3: 6+0 records in" || bad "bs=2x512 count=2x3: $out"
# count=0 as dd: nothing transferred, exit 0; the output made, empty
expect 0 "0+0 records out" if=in1 of=z0 count=0
line "^0+0 records in\$" && [ -f z0 ] && [ ! -s z0 ] &&
	ok "count=0: 0+0 records in and out, of= created empty" || bad "count=0: $out"
expect 0 "0+0 records in" if=in1 mode=read count=0
expect 2 "thr='0': out of range (1 to 64)" if=in1 mode=read thr=0
expect 2 "qd='0': out of range (1 to 1024)" if=in1 mode=read qd=0
expect 2 "bpt='0': out of range" if=in1 mode=read bpt=0
expect 2 "time='2': out of range (0 to 1)" if=in1 mode=read time=2
expect 2 "iflag=bogus: unknown flag 'bogus' (allowed: direct, dsync, sync, nocache, sg, count_bytes, skip_bytes, fullblock, nocopy)" \
	if=in1 mode=read iflag=bogus
expect 2 "oflag=fast: unknown flag 'fast' (allowed: direct, dsync, sync, nocache, sg, seek_bytes, append, force, notrunc)" \
	of=new1 mode=write count=1 oflag=fast
# dsync and sync are input flags too, as dd's
expect 0 "5859+1 records in" if=in1 mode=read iflag=dsync,sync
expect 2 "iflag=append: 'append' is an output flag (use oflag=append)" if=in1 mode=read iflag=append
expect 2 "oflag=nocopy: 'nocopy' is an input flag (use iflag=nocopy)" of=new1 mode=write count=1 oflag=nocopy
expect 2 "copy is pairwise: if= names 1 input but of= names 2 outputs" if=in1 of=a,b
expect 2 "if='in1,,in2': empty item in the list" if=in1,,in2 mode=read
expect 2 "if= given twice" if=in1 if=in2 mode=read
expect 2 "unknown operand 'foo' (allowed: if, of, bs, ibs, obs, count, skip (iseek), seek (oseek), conv," foo=bar
expect 2 "operands are KEY=VALUE" in1
expect 2 "qd=2 needs the asynchronous engine (engine=aio)" if=in1 mode=read qd=2 engine=sync
expect 2 "engine='warp': unknown value 'warp' (allowed: sync, aio, io_uring, posix-aio)" if=in1 mode=read engine=warp
expect 2 "mode='fast': unknown value 'fast' (allowed: read, write, copy)" if=in1 mode=fast
expect 2 "mode=write needs of=" if=in1 mode=write
expect 2 "mode=read needs if=" of=new1 mode=read
expect 2 "rate='fast': not a size" if=in1 mode=read rate=fast
expect 2 "dio=1 asks the sg driver for direct transfers: it needs an sg device" if=in1 mode=read dio=1
expect 2 "iflag=nocopy drops the data in the kernel: it is for reads" if=in1 of=new1 iflag=nocopy
expect 2 "iflag=nocopy has no asynchronous form" if=in1 mode=read iflag=nocopy qd=4
expect 2 "count= is needed to write a pattern to the file 'new1'" of=new1 mode=write
expect 2 "skip= counts input blocks, and there is no input" of=new1 mode=write count=1 skip=1
expect 2 "seek= counts output blocks, and there is no output" if=in1 mode=read seek=1
expect 2 "oflag= is given but there is no output" if=in1 mode=read oflag=direct
expect 2 "conv= names an output conversion but there is no output" if=in1 mode=read conv=fsync
# skip= past the end of a file, as dd: said, nothing read, exit 0
expect 0 "dio-dd: in1: cannot skip to specified offset" if=in1 mode=read skip=99999
line "^0+0 records in\$" && ok "skip= past the end: 0+0 records in" || bad "skip= past the end: $out"
expect 0 "dio-dd: in1: cannot skip to specified offset" if=in1 of=sk0 skip=99999
line "^0+0 records out\$" && [ -f sk0 ] && [ ! -s sk0 ] &&
	ok "skip= past the end of a copy's input: 0+0 records out, of= empty" ||
	bad "skip= past the end of a copy's input: $out"
# an input that cannot be opened: exit 1, as dd
expect 1 "failed to open '/nonexistent/x': No such file or directory" if=/nonexistent/x mode=read
expect 1 "failed to open '/nonexistent/x': No such file or directory" if=/nonexistent/x of=new1
expect 1 "dio-dd: error reading '.': Is a directory" if=. mode=read
expect 2 "if= 'in1': iflag=sg needs a block or sg device, not a file" if=in1 mode=read iflag=sg
expect 2 "bs=1048576 x bpt=2048 is 2147483648 bytes per transfer; at most" if=in1 mode=read bs=1M bpt=2048
expect 2 "--format 'xml': unknown value 'xml' (allowed: table, csv, json)" if=in1 mode=read --format xml
expect 2 "of= 'o' and of= 'o' name the same file" if=in1,in2 of=o,o
# every operand once, like if=
expect 2 "mode= given twice ('mode=read'): give each operand once" if=in1 mode=read mode=read
expect 2 "engine= given twice" if=in1 mode=read engine=sync engine=aio
expect 2 "bs= given twice" if=in1 mode=read bs=512 bs=4k
expect 2 "count= given twice" if=in1 mode=read count=1 count=2
# conv=, iflag= and oflag= add up, as dd's
expect 0 "1+0 records out" of=new1 mode=write count=1 oflag=dsync oflag=sync conv=fsync conv=notrunc
rm -f new1
expect 2 "--format given twice" if=in1 mode=read --format json --format csv
expect 2 "iflag=notrunc: 'notrunc' is an output flag" if=in1 mode=read iflag=notrunc
expect 2 "oflag= is given but there is no output" if=in1 mode=read oflag=notrunc
# offsets past 2^63-1 (they used to wrap: seek=2^55+1 wrote at byte 512):
# as dd, a seek= it would cut the output to is refused before anything is
# opened; a skip= is met by the run (outputs made, the lines said, exit 1)
expect 1 "dio-dd: offset too large: cannot truncate to a length of seek=36028797018963969 (512-byte) blocks" \
	of=new1 mode=write bs=512 seek=36028797018963969 count=2
expect 1 "offset too large: cannot truncate to a length of seek=9223372036854775807 (512-byte)" \
	of=new1 mode=write seek=9223372036854775807 count=1
expect 1 "dio-dd: new1: cannot seek: Value too large for defined data type" \
	of=new1 mode=write seek=9223372036854775807 count=1 conv=notrunc
rm -f new1
expect 2 "'new1': 2 blocks of bs=1 after seek= end beyond the largest file offset" \
	of=new1 mode=write bs=1 seek=9223372036854775806 count=2
expect 1 "dio-dd: in1: cannot skip: Value too large for defined data type" \
	if=in1 mode=read bs=4096 skip=4503599627370496
expect 1 "dio-dd: in1: cannot skip: Value too large for defined data type" \
	if=in1 of=new1 bs=4096 skip=2251799813685248
[ -f new1 ] && [ ! -s new1 ] && ok "skip= past 2^63-1: of= made empty, as dd" ||
	bad "skip= past 2^63-1: of= not made empty"
rm -f new1
# of= names that cannot be made: refused before anything is opened
# (as dd says them: exit 1, open(2)'s reason in the C locale's words)
expect 1 "dio-dd: failed to open '/nonexistent/x': No such file or directory" if=in1 of=/nonexistent/x
expect 1 "dio-dd: failed to open 'in1/x': Not a directory" if=in1 of=in1/x
ln -s nowhere dangling
expect 2 "of= 'dangling' is a symbolic link to 'nowhere', which does not exist" if=in1 of=dangling
[ -e nowhere ] && bad "a dangling of= link was followed" || ok "a dangling of= link: nothing created"
[ -e new1 ] || [ -e o ] && bad "a refused run left an output file behind" || ok "refused runs created nothing"

# ------------------------------------------------------------ aliases
# An output that is also an input (or another output) under any name.
head -c 5000 /dev/urandom >al-a
head -c 3000 /dev/urandom >al-b
cp al-a al-a.ref
cp al-b al-b.ref
ln -s al-a al-link
ln al-b al-hard
expect 2 "of= 'al-b' and if= 'al-b' are the same file: an output must not be an input" \
	if=al-a,al-b of=al-b,al-a --force
expect 2 "of= 'al-a' and if= 'al-a' are the same file" if=al-a of=al-a --force
expect 2 "of= 'al-link' and if= 'al-a' are the same file" if=al-a of=al-link --force
expect 2 "of= 'al-hard' and if= 'al-b' are the same file" if=al-b of=al-hard --force
expect 2 "of= 'al-a' and of= './al-link' are the same file" of=./al-link,al-a mode=write count=1 --force
expect 2 "of= './al-new' and of= 'al-new' name the same file" if=al-a,al-b of=al-new,./al-new
expect 2 "of= '../$(basename "$work")/al-new' and of= 'al-new' name the same file" \
	of=al-new,"../$(basename "$work")/al-new" mode=write count=1
cmp -s al-a al-a.ref && cmp -s al-b al-b.ref && [ ! -e al-new ] &&
	ok "aliases refused: inputs unchanged, nothing created" || bad "an alias run changed a file"
expect 0 "copied" if=al-a,al-a of=al-c,al-d   # one input read twice is fine

# ------------------------------------------------------------ refusals
# dd's conv=excl (the output must be new) and conv=nocreat (it must exist): exit 1
# (said as dd says them: tests/dio-dd-outputs.sh compares them with dd's)
expect 1 "dio-dd: failed to open 'existing': File exists" if=in1 of=existing conv=excl
expect 1 "dio-dd: failed to open 'nc-new': No such file or directory" if=in1 of=nc-new conv=nocreat
[ -e nc-new ] && bad "conv=nocreat created its output" || ok "conv=nocreat: nothing created"
# a refused iflag=direct says the backend's own reason, as the library
# keeps it (dio_open_why()): procfs has no direct I/O on Linux, and the
# posix backend has none anywhere
backend=$("$DD" --version | sed -n 's/.*backend \([a-z]*\).*/\1/p')
case $backend in
linux) why="fcntl(F_SETFL, O_DIRECT) says EINVAL: the file system has no direct I/O" ;;
posix) why="the posix backend has no direct I/O" ;;
*) why= ;;
esac
if [ -z "$why" ]; then
	echo "SKIP refused iflag=direct: no /proc file known to refuse it on the $backend backend"
elif [ -r /proc/self/status ]; then
	expect 1 "if= '/proc/self/status': iflag=direct: this file system or platform ($backend backend) refuses direct I/O: $why" \
		if=/proc/self/status of=/dev/null iflag=direct
else
	echo "SKIP refused iflag=direct: no /proc/self/status"
fi
# a device that holds data needs --force; one where the data goes nowhere
# (/dev/null) does not: writing it destroys nothing
expect 2 "of= '/dev/urandom' is a device: what it holds would be overwritten; pass --force" \
	of=/dev/urandom mode=write count=1
expect 0 "1+0 records out" of=/dev/null mode=write count=1
[ "$(cksum <existing)" = "$sum_before" ] && ok "existing file unchanged (cksum)" ||
	bad "existing file was modified"
# an existing file is written as dd writes it (cut first): no --force
expect 0 "1+0 records out" of=existing mode=write count=1
[ "$(wc -c <existing)" -eq 512 ] && ok "an existing file written over: cut to 512 bytes" ||
	bad "an existing file written over: $(wc -c <existing) bytes, not 512"
expect 0 "1+0 records out" of=existing mode=write count=1 oflag=force
expect 0 "1+0 records out" of=existing mode=write count=1 --force

# ------------------------------------------------------------ truncation
# A copy onto a longer existing file is the input, nothing of the old tail
# left (dd truncates to seek*bs); oflag=notrunc keeps the tail.
head -c 9000 /dev/urandom >long-old
cp long-old long1
expect 0 "4+1 records out" if=al-b of=long1 bs=700
cmp -s al-b long1 && ok "copy onto a longer file: identical ($(wc -c <long1) bytes)" ||
	bad "copy onto a longer file: $(wc -c <long1) bytes, not the input"
cp long-old long2
cp long-old long2.ref
expect 0 "4+1 records out" if=al-b of=long2 bs=700 seek=2
dd if=al-b of=long2.ref bs=700 seek=2 2>/dev/null
cmp -s long2 long2.ref && ok "seek=2 onto a longer file: as dd (cut to seek*bs, then written)" ||
	bad "seek=2 onto a longer file differs from dd ($(wc -c <long2) bytes)"
cp long-old long3
cp long-old long3.ref
expect 0 "4+1 records out" if=al-b of=long3 bs=700 seek=1 oflag=notrunc
dd if=al-b of=long3.ref bs=700 seek=1 conv=notrunc 2>/dev/null
cmp -s long3 long3.ref && ok "oflag=notrunc: the old tail stays, as dd conv=notrunc" ||
	bad "oflag=notrunc differs from dd conv=notrunc"
cp long-old long4
expect 0 "2+0 records out" of=long4 mode=write bs=1000 count=2
[ "$(wc -c <long4)" -eq 2000 ] && ok "write mode onto a longer file: 2000 bytes" ||
	bad "write mode onto a longer file: $(wc -c <long4) bytes"

# ------------------------------------------------------------ read, write, copy
expect 0 "5859+1 records in" if=in1 mode=read
expect 0 "3000000 bytes (3.0 MB, 2.9 MiB) copied" if=in1 mode=read bs=4k bpt=3
expect 0 "732+1 records in" if=in1 mode=read bs=4k bpt=3
expect 0 "2 devices x 3 threads" if=in1,in2 mode=read bs=64k thr=3 time=1
expect 0 "read: if= only, read to nowhere" --help
# --help fits 80 columns and ends naming the man page
"$DD" --help >help.out
wide=$(awk 'length($0) > 80 { n++ } END { print n + 0 }' help.out)
[ "$wide" = 0 ] && tail -n 1 help.out | grep -q 'See dio-dd(1)' &&
	ok "--help: $(wc -l <help.out) lines within 80 columns, the last: $(tail -n 1 help.out)" ||
	bad "--help: $wide lines wider than 80 columns; the last: $(tail -n 1 help.out)"
# of=/dev/null: on a dd command line an output as any (dd's), written;
# with dio-dd's own operands (mode=read here) nowhere: a read
expect 0 "1000+0 records out" if=in1 of=/dev/null count=1000
line "^1000+0 records in\$" && ok "if=in1 of=/dev/null count=1000: 1000+0 records in and out" ||
	bad "if=in1 of=/dev/null count=1000: $out"
expect 0 "1000+0 records in" if=in1 of=/dev/null mode=read count=1000
line "records out" && bad "of=/dev/null mode=read: $out" || ok "of=/dev/null mode=read: no records out"
expect 0 "1000+0 records in" if=in1 of=/dev/null mode=read count=1000 thr=2
# ... and with thr=, qd=, several inputs (no mode=): nowhere too
expect 0 "1000+0 records in" if=in1 of=/dev/null count=1000 thr=2
line "records out" && bad "of=/dev/null thr=2: $out" || ok "of=/dev/null thr=2: a read"
expect 0 "2000+0 records in" if=in1,in2 of=/dev/null count=1000
# devices that store nothing are no alias of themselves (dd </dev/null >/dev/null)
out=$("$DD" </dev/null 2>&1 >/dev/null) && echo "$out" | grep -q "^0+0 records out" &&
	ok "standard input and output both /dev/null: 0+0 records" || bad "</dev/null >/dev/null: $out"
expect 0 "3+0 records out" if=/dev/zero of=/dev/zero count=3
# a file that reports no size (/proc) is read to its end, as dd reads it
"$DD" if=/proc/version of=procv </dev/null 2>procv.err &&
	cat /proc/version | cmp -s procv - &&
	ok "if=/proc/version: read to its end" ||
	bad "if=/proc/version: exit $?, $(wc -c <procv) bytes: $(cat procv.err)"

expect 0 "5859+1 records out" if=in1 of=c1
cmp -s in1 c1 && ok "copy in1 -> c1 identical" || bad "copy in1 -> c1 differs"
expect 0 "copied" if=in1,in2 of=c2,c3 bs=8k bpt=4 thr=4
cmp -s in1 c2 && cmp -s in2 c3 && ok "two pairs, 4 threads each: identical" ||
	bad "two-pair copy differs"

# skip/seek/count in blocks of bs
expect 0 "10+0 records out" if=in1 of=c4 bs=1000 skip=7 seek=3 count=10
dd if=in1 of=ref4 bs=1000 skip=7 seek=3 count=10 2>/dev/null
cmp -s c4 ref4 && ok "skip=7 seek=3 count=10 bs=1000 as dd" || bad "skip/seek/count differ from dd"
# write a pattern: every block and every 4 KiB in it stamped with its
# output offset
expect 0 "8+0 records out" of=w1 mode=write bs=4k count=8 seek=2 bpt=3
sz=$(wc -c <w1)
[ "$sz" -eq $((10 * 4096)) ] && ok "write: file is seek+count blocks ($sz bytes)" || bad "write: size $sz"
stamp=$(dd if=w1 bs=512 skip=24 count=1 2>/dev/null | head -c 23)
[ "$stamp" = "dio-dd 0000000000003000" ] && ok "stamp at 12288: '$stamp'" || bad "stamp at 12288: '$stamp'"
# the whole layout, for block sizes below, at, between and above 4 KiB,
# transfers of several blocks, a short last transfer, and queue slots:
# a stamp exactly at every block start and every 4 KiB into a block
# where a whole stamp fits, nowhere else; none for blocks under 24 bytes
for a in "bs=512 count=21 bpt=4 seek=3" "bs=1000 count=9 bpt=4 seek=3" "bs=4k count=7 seek=1" \
	 "bs=6000 count=5 bpt=2" "bs=128k count=3" "bs=16 count=10" "bs=8k count=9 qd=4"; do
	rm -f wl
	# shellcheck disable=SC2086
	"$DD" of=wl mode=write $a >/dev/null 2>wl.err || { bad "write $a: $(cat wl.err)"; continue; }
	r=$(python3 - wl $a <<'PY' 2>&1
import re, sys
a = dict(kv.split("=") for kv in sys.argv[2:])
bs = int(a["bs"][:-1]) * 1024 if a["bs"].endswith("k") else int(a["bs"])
seek, n = int(a.get("seek", 0)), int(a["count"])
want = set()
if bs >= 24:
    for b in range(seek * bs, (seek + n) * bs, bs):
        want.update(range(b, b + bs - 23, 4096))
d = open(sys.argv[1], "rb").read()
found = {m.start() for m in re.finditer(rb"dio-dd [0-9a-f]{16}\n", d)}
wrong = sorted(q for q in want if d[q:q + 24] != b"dio-dd %016x\n" % q)
extra = sorted(found - want)
print("%d stamps, %d wrong %s, %d elsewhere %s" % (len(want), len(wrong), wrong[:3], len(extra), extra[:3]))
sys.exit(1 if wrong or extra or len(d) != (seek + n) * bs else 0)
PY
)
	[ $? -eq 0 ] && ok "write $a: stamp layout ($r)" || bad "write $a: stamp layout: $r"
done
rm -f wl wl.err
# stamps on both sides of 4 GiB, where the upper eight digits change
# within one buffer (a sparse file: 2 MiB written)
expect 0 "2+0 records out" of=w4g mode=write bs=1M seek=4095 count=2
s_lo=$(dd if=w4g bs=512 skip=$((8 * 1024 * 1024 - 8)) count=1 2>/dev/null | head -c 23)
s_hi=$(dd if=w4g bs=512 skip=$((8 * 1024 * 1024 + 8)) count=1 2>/dev/null | head -c 24 | od -An -c -w24 | tr -d ' ')
[ "$s_lo" = "dio-dd 00000000fffff000" ] && [ "$s_hi" = "dio-dd0000000100001000\n" ] &&
	ok "stamps across 4 GiB: '$s_lo', 'dio-dd 0000000100001000' and its newline" ||
	bad "stamps across 4 GiB: '$s_lo', '$s_hi'"
rm -f w4g

# every asynchronous engine this build has, and auto
engines=$("$DD" --version | sed 's/.*aio engines://')
for e in aio $engines; do
	expect 0 "records out" if=in1,in2 of=a1-$e,a2-$e bs=16k qd=8 thr=2 engine=$e time=1 2>&1
	cmp -s in1 a1-$e && cmp -s in2 a2-$e && ok "engine=$e qd=8 copy identical" ||
		bad "engine=$e copy differs"
	expect 0 "16+0 records out" of=aw-$e mode=write bs=64k count=16 qd=4 engine=$e
	s1=$(dd if=aw-$e bs=512 skip=1000 count=1 2>/dev/null | head -c 23)
	[ "$(wc -c <aw-$e)" -eq 1048576 ] && [ "$s1" = "dio-dd 000000000007d000" ] &&
		ok "engine=$e write: 1 MiB, stamp at 512000 '$s1'" ||
		bad "engine=$e write: $(wc -c <aw-$e) bytes, stamp at 512000 '$s1'"
	"$DD" of=sw-$e mode=write bs=64k count=16 >/dev/null 2>&1
	cmp -s aw-$e sw-$e && ok "engine=$e writes the same pattern as engine=sync" ||
		bad "engine=$e pattern differs from sync"
done
# engine=io_uring / posix-aio: nothing to say, so nothing on stderr but
# dd's closing lines
for e in $engines; do
	out=$("$DD" if=in1 mode=read bs=64k engine=$e 2>&1 >/dev/null </dev/null)
	rest=$(printf '%s\n' "$out" | grep -v -e "^45+1 records in\$" -e "^3000000 bytes .* copied, ")
	[ -z "$rest" ] && line "^45+1 records in\$" && ok "engine=$e: no warning line" ||
		bad "engine=$e printed '$out'"
done
echo "$engines" | grep -q io_uring || {
	out=$("$DD" if=in1 mode=read qd=4 2>&1 >/dev/null </dev/null)
	echo "$out" | grep -q "falling back to POSIX AIO" &&
		ok "no io_uring: engine=aio says it falls back ($out)" || bad "no fallback message: $out"
	expect 2 "engine=io_uring: not part of this build" if=in1 mode=read engine=io_uring
}

# no-copy
if [ "$DIO_BACKEND" = linux ]; then
	expect 0 "5000000 bytes (5.0 MB, 4.8 MiB) copied" if=in1,in2 mode=read iflag=nocopy bs=1M thr=2 count=3
else
	expect 1 "not supported" if=in1 mode=read iflag=nocopy bs=1M
fi

# ------------------------------------------------------------ formats
"$DD" if=in1,in2 mode=read bs=64k thr=2 --format json >j.json </dev/null || bad "json run failed"
if command -v python3 >/dev/null 2>&1; then
	python3 - j.json <<'PY' && ok "json: documented keys, device bytes add up" || bad "json check"
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("tool", "version", "backend", "mode", "io", "engine", "engine_note", "qd",
          "threads", "bs", "bpt", "transfer_bytes", "skip", "seek", "count",
          "rate_bytes_per_s", "dio", "interrupted", "devices", "total",
          "cpu_user_s", "cpu_sys_s"):
    assert k in d, k
row = ("name", "input", "output", "io", "bytes", "records_in", "records_out", "calls",
       "wall_s", "io_s", "mb_per_s", "mib_per_s", "read", "write", "cpu_s",
       "sg", "status", "error", "disks")
for dev in d["devices"] + [d["total"]]:
    for k in row:
        assert k in dev, k
    r = dev["read"]
    assert dev["write"] is None, dev["write"]     # a read: reads only
    for k in ("mean", "p50", "p90", "p99", "max"):
        assert k in r["latency_us"], k
    assert sum(b["calls"] for b in r["histogram"]) == r["calls"] == dev["calls"]
    assert r["bytes"] == dev["bytes"]
    assert r["latency_us"]["p50"] <= r["latency_us"]["p99"] <= r["latency_us"]["max"] * 1.01
assert d["tool"] == "dio-dd" and d["mode"] == "read" and d["threads"] == 2
assert sum(x["bytes"] for x in d["devices"]) == d["total"]["bytes"] == 5000000
assert d["total"]["wall_s"] >= max(x["wall_s"] for x in d["devices"])
PY
fi
"$DD" if=in1,in2 of=k1,k2 bs=64k --format csv >c.csv || bad "csv run failed"
hdr=$(head -n 1 c.csv)
[ "$hdr" = "row,device,input,output,mode,io,engine,qd,threads,bs,bpt,bytes,records_in_full,records_in_partial,records_out_full,records_out_partial,calls,wall_s,io_s,mb_per_s,mib_per_s,read_calls,read_bytes,read_lat_mean_us,read_lat_p50_us,read_lat_p90_us,read_lat_p99_us,read_lat_max_us,write_calls,write_bytes,write_lat_mean_us,write_lat_p50_us,write_lat_p90_us,write_lat_p99_us,write_lat_max_us,cpu_s,cpu_user_s,cpu_sys_s,sg_commands,sg_direct_not_done,status,error" ] &&
	ok "csv header" || bad "csv header: $hdr"
awk -F, 'NR > 1 && NF != 42 { bad = 1 } $1 == "device" { s += $12 } $1 == "total" { t = $12 }
	$1 != "row" && ($22 + $29 != $17 || $23 != $12 || $30 != $12) { bad = 1 }
	END { exit !(bad == 0 && s == t && t == 5000000) }' c.csv &&
	ok "csv: 42 columns per row, reads and writes apart, device bytes add up to the total" ||
	bad "csv rows: $(cat c.csv)"

# time=1 and JSON keep a copy's reads and writes apart (as fio does): a
# latency row and a histogram for each, never one of every call mixed.
# in1 is 3000000 bytes: 46 calls of 64 KiB each way (the last partial).
"$DD" if=in1 of=t1 bs=64k time=1 >t1.out 2>t1.err </dev/null
st=$?
if [ $st -eq 0 ] && grep -q '^in1->t1 *read  *46  *3000000 ' t1.out &&
   grep -q '^in1->t1 *write  *46  *3000000 ' t1.out &&
   grep -qx 'latency histogram, reads (46 calls):' t1.out &&
   grep -qx 'latency histogram, writes (46 calls):' t1.out && ! grep -q 'every call' t1.out; then
	ok "time=1 on a copy: 46 reads and 46 writes apart, a histogram each"
else
	bad "time=1 on a copy: exit $st:"
	sed 's/^/    /' t1.out
fi
"$DD" if=in1,in2 of=t1,t2 bs=64k time=1 >t2.out 2>t2.err </dev/null
grep -q '^total *read  *77 ' t2.out && grep -q '^total *write  *77 ' t2.out &&
	grep -qx 'latency histogram, writes on in2->t2 (31 calls):' t2.out &&
	grep -qx 'latency histogram, reads on every device (77 calls):' t2.out &&
	ok "time=1 on two copies: each device's and the total's reads and writes apart" ||
	{ bad "time=1 on two copies:"; sed 's/^/    /' t2.out; }
"$DD" if=in1 mode=read bs=64k time=1 >t3.out 2>/dev/null </dev/null
grep -q '^in1 *read  *46 ' t3.out && ! grep -q '^in1 *write ' t3.out &&
	! grep -q 'histogram, writes' t3.out &&
	ok "time=1 on a read: reads only" || { bad "time=1 on a read:"; sed 's/^/    /' t3.out; }
if command -v python3 >/dev/null 2>&1; then
	"$DD" if=in1 of=t1 bs=64k -f json >t4.json </dev/null
	python3 - t4.json <<'PY' && ok "json: a copy's reads and writes apart, each with its histogram" ||
import json, sys
d = json.load(open(sys.argv[1]))
for x in d["devices"] + [d["total"]]:
    r, w = x["read"], x["write"]
    assert r["calls"] == w["calls"] == 46 and r["calls"] + w["calls"] == x["calls"], x
    assert r["bytes"] == w["bytes"] == x["bytes"] == 3000000, x
    for y in (r, w):
        assert sum(b["calls"] for b in y["histogram"]) == y["calls"], y
        assert y["latency_us"]["p50"] <= y["latency_us"]["max"] * 1.01, y
PY
		bad "json: reads and writes: $(head -c 600 t4.json)"
fi

# A name with a newline, a tab or a space keeps the table one line a row,
# in one column: quoted, as dio-dd(1) says ('a\nb').
nlname="n$(printf '\nl')"
cp in2 "$nlname"
"$DD" if="$nlname" mode=read bs=64k time=1 >t5.out 2>/dev/null </dev/null
grep -q "^'n\\\\nl' *read  *31 " t5.out && grep -q "^'n\\\\nl' *[0-9]" t5.out &&
	[ "$(grep -c "^l' " t5.out)" = 0 ] && ok "a newline in a name: one row, shown as 'n\\nl'" ||
	{ bad "a newline in a name splits the table:"; sed 's/^/    /' t5.out; }
cp in2 "a b"
"$DD" if="a b" mode=read bs=64k time=1 >t6.out 2>/dev/null </dev/null
grep -q "^'a b' *2000000 " t6.out && ok "a space in a name: one column, shown as 'a b'" ||
	{ bad "a space in a name:"; sed 's/^/    /' t6.out; }
rm -f "$nlname" "a b" t1 t2

# ------------------------------------------------------------ odd inputs and outputs
# of= the null device under another name is /dev/null: with mode=read
# nowhere (a read), as of=/dev/null; on a dd command line written
ln -s /dev/null nul
expect 0 "1000+0 records in" if=in1 of=nul mode=read count=1000
line "records out" && bad "of= a link to /dev/null, mode=read: $out" ||
	ok "of= a link to /dev/null, mode=read: a read, no records out"
expect 0 "1000+0 records out" if=in1 of=nul count=1000
[ -c nul ] && ok "of= a link to /dev/null: the link stays" || bad "the /dev/null link was replaced"
# a file that reports a size of 0 (/proc): says that nothing was read;
# copied to standard output (dd's loop) it is read to its end
if [ -r /proc/self/status ]; then
	# (with dio-dd's threads the positional engine reads to the reported end)
	expect 0 "reports a size of 0 bytes: nothing to read" if=/proc/self/status mode=read thr=2
	line "^0 bytes copied, " && line "^0+0 records in\$" &&
		ok "if=/proc/self/status mode=read thr=2: 0 bytes" ||
		bad "if=/proc/self/status mode=read thr=2: $out"
	expect 0 "records in" if=/proc/self/status mode=read
	line "^0 bytes copied, " && bad "if=/proc/self/status mode=read: $out" ||
		ok "if=/proc/self/status mode=read: read to its end (dd's loop)"
	expect 0 "records in" if=/proc/self/status mode=read count=64
	"$DD" if=/proc/self/status >ps.out 2>ps.err </dev/null
	st=$?
	[ $st -eq 0 ] && grep -q "^Name:" ps.out && grep -q "^State:" ps.out &&
		ok "if=/proc/self/status >out: read to its end ($(wc -c <ps.out) bytes)" ||
		bad "if=/proc/self/status >out: exit $st, $(wc -c <ps.out) bytes: $(cat ps.err)"
fi
# a report that cannot be written is a failure; so is data that cannot
if [ -c /dev/full ]; then
	"$DD" if=in1 mode=read time=1 >/dev/full 2>err.out
	st=$?
	[ $st -eq 1 ] && grep -q "cannot write to standard output" err.out &&
		ok "report to /dev/full: exit 1 ($(grep 'cannot write' err.out))" ||
		bad "report to /dev/full: exit $st: $(cat err.out)"
	"$DD" if=in1 >/dev/full 2>err.out </dev/null
	st=$?
	[ $st -eq 1 ] && grep -q "error writing .*: No space left on device" err.out &&
		grep -q "^0+0 records out\$" err.out &&
		ok "data to /dev/full: exit 1 ($(grep 'error writing' err.out))" ||
		bad "data to /dev/full: exit $st: $(cat err.out)"
	"$DD" if=in1 mode=read --format json >/dev/full 2>/dev/null
	st=$?
	[ $st -eq 1 ] && ok "json to /dev/full: exit 1" || bad "json to /dev/full: exit $st"
	"$DD" --help >/dev/full 2>/dev/null
	st=$?
	[ $st -eq 1 ] && ok "--help to /dev/full: exit 1" || bad "--help to /dev/full: exit $st"
fi

# ------------------------------------------------------------ rate, signals
# The run's own time, from its report (expect leaves the output in out):
# rate= paces the transfers from the run's start, while the wall clock
# around it also counts starting the program, which a loaded machine
# makes slow.
expect 0 "2097152 bytes (2.1 MB, 2.0 MiB) copied" if=in1 mode=read bs=64k count=32 rate=4M
d=$(printf '%s\n' "$out" | sed -n 's/.* copied, \([0-9.e+-]*\) s,.*/\1/p')
awk -v d="${d:-0}" 'BEGIN { exit !(d >= 0.4 && d < 2.5) }' &&
	ok "rate=4M: 2 MiB took $d s (ideal 0.48)" ||
	bad "rate=4M: 2 MiB took ${d:-?} s (want 0.4 to 2.5)"
# running PID [WORKERS]: dio-dd (PID) is under way: it catches the stop
# signals (it does once its devices are open, just before the transfers)
# and, given WORKERS (--processes), it has that many worker processes and
# each of them has read (a process starts with nothing read: its rchar
# counts its own reads).
running() {
	catches "$1" INT && catches "$1" HUP || return 1
	[ -n "${2:-}" ] || return 0
	_kids=$(children "$1")
	[ "$(echo $_kids | wc -w)" -eq "$2" ] || return 1
	for _k in $_kids; do
		[ "$(io_bytes rchar "$_k")" -gt 0 ] || return 1
	done
}
# interrupted LABEL OPERAND...: SIGINT during a slow run gives the partial
# results and exit 130 (SIG=HUP: a closed terminal, exit 129); WORKERS=N:
# the signal comes once the N worker processes of --processes are reading
interrupted() {
	label=$1; shift
	sig=${SIG:-INT} num=$([ "${SIG:-INT}" = HUP ] && echo 1 || echo 2)
	"$DD" "$@" >sig.out 2>sig.err &
	pid=$!
	wait_for 60 "dio-dd to be under way (${WORKERS:-no} workers)" running $pid ${WORKERS:-} ||
		bad "${label}SIG$sig: dio-dd was not under way"
	kill -$sig $pid
	wait $pid
	st=$?
	if [ $st -eq $((128 + num)) ] && grep -q "^total" sig.out &&
	   grep -q "^[0-9]*+[0-9]* records in\$" sig.err &&
	   grep -q "interrupted by signal $num" sig.err; then
		ok "${label}SIG$sig: exit $st with partial results ($(grep 'records in' sig.err))"
	else
		bad "${label}SIG$sig: exit $st"; cat sig.out sig.err | sed 's/^/    /'
	fi
}
if linux_proc; then
interrupted "" if=in1 mode=read bs=4k rate=64k time=1
SIG=HUP interrupted "" if=in1 mode=read bs=4k rate=64k time=1
else
	echo "SKIP interrupted runs: waiting for dio-dd to be under way needs Linux's /proc"
fi

# ------------------------------------------------------------ --processes
expect 0 "a process per device" if=in1,in2 of=p1,p2 bs=8k bpt=4 thr=2 time=1 --processes
cmp -s in1 p1 && cmp -s in2 p2 && ok "--processes thr=2: both copies identical" ||
	bad "--processes copy differs"
"$DD" if=in1,in2 mode=read bs=64k --processes --format json >pj.out 2>pj.err
python3 - pj.out "$(($(wc -c <in1) + $(wc -c <in2)))" <<'PY' && ok "--processes json: processes true, every byte counted" || bad "--processes json: $(cat pj.err)"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["processes"] is True, d["processes"]
assert d["total"]["bytes"] == int(sys.argv[2]), (d["total"]["bytes"], sys.argv[2])
assert d["total"]["status"] == "ok"
assert all(x["bytes"] > 0 and x["calls"] > 0 for x in d["devices"])
PY
if linux_proc; then
# SIGINT reaches the workers, which have sessions of their own
WORKERS=2 interrupted "--processes, " if=in1,in2 mode=read bs=4k rate=64k time=1 --processes
WORKERS=2 interrupted "--processes --same-session, " if=in1,in2 mode=read bs=4k rate=64k time=1 \
	--processes --same-session
expect 2 "--same-session is about the worker processes of --processes" if=in1 mode=read --same-session
# Sessions: each worker its own (as fio's jobs), or all in dio-dd's.
sid() { awk '{ print $6 }' "/proc/$1/stat" 2>/dev/null; }
for ss in "" --same-session; do
	"$DD" if=in1,in2 mode=read bs=4k rate=64k --processes $ss >ps.out 2>ps.err &
	pid=$!
	# (a worker that reads has passed its setsid(), if it makes one)
	wait_for 60 "dio-dd's 2 workers to read" running $pid 2
	kids=$(children $pid)
	n=0 same=0
	for k in $kids; do
		n=$((n + 1))
		[ "$(sid "$k")" = "$(sid "$pid")" ] && same=$((same + 1))
	done
	kill -INT $pid
	wait $pid
	if [ -z "$ss" ] && [ $n -eq 2 ] && [ $same -eq 0 ]; then
		ok "--processes: 2 workers, each in a session of its own"
	elif [ -n "$ss" ] && [ $n -eq 2 ] && [ $same -eq 2 ]; then
		ok "--processes --same-session: 2 workers in dio-dd's session"
	else
		bad "--processes $ss: $n workers, $same in dio-dd's session"
	fi
done
else
	echo "SKIP --processes signals and sessions: they need Linux's /proc"
fi
"$DD" if=in1 mode=read bs=64k --processes --same-session --format json >pj.out 2>pj.err &&
python3 -c 'import json, sys; d = json.load(open("pj.out")); assert d["worker_sessions"] == "one", d' &&
"$DD" if=in1 mode=read bs=64k --processes --format json >pj.out 2>pj.err &&
python3 -c 'import json, sys; d = json.load(open("pj.out")); assert d["worker_sessions"] == "each", d' &&
"$DD" if=in1 mode=read bs=64k --format json >pj.out 2>pj.err &&
python3 -c 'import json, sys; d = json.load(open("pj.out")); assert d["worker_sessions"] is None, d' &&
	ok "json: worker_sessions each / one / null" || bad "json worker_sessions: $(cat pj.err)"
if linux_proc; then
# a worker that dies is reported as that device's error
"$DD" if=in1,in2 mode=read bs=4k rate=64k time=1 --processes >pk.out 2>pk.err &
pid=$!
wait_for 60 "dio-dd's 2 workers to read" running $pid 2
kill -KILL $(children $pid | head -n 1)
wait $pid
st=$?
if [ $st -eq 1 ] && grep -q "was killed by signal 9" pk.err && [ -z "$(children $pid)" ]; then
	ok "--processes, a worker killed: exit 1, '$(grep -o "the process for .* signal 9" pk.err)'"
else
	bad "--processes, a worker killed: exit $st"; cat pk.out pk.err | sed 's/^/    /'
fi
else
	echo "SKIP --processes, a worker killed: finding the worker needs Linux's /proc"
fi

# ------------------------------------------------------------ largepages=
expect 2 "largepages='2': out of range (0 to 1)" if=in1 mode=read largepages=2
# the buffers' page size: the system's large page (Linux: transparent huge
# pages unless switched off), the base page with largepages=0
ps=$(getconf PAGESIZE)
thp=/sys/kernel/mm/transparent_hugepage
want=$ps
if [ -r $thp/enabled ] && [ -r $thp/hpage_pmd_size ] && ! grep -q '\[never\]' $thp/enabled &&
   "$DD" --version | grep -q "backend linux"; then
	want=$(cat $thp/hpage_pmd_size)
fi
"$DD" if=in1 mode=read bs=64k iflag=direct --format json >lp.out 2>lp.err ||
"$DD" if=in1 mode=read bs=64k --format json >lp.out 2>lp.err
got1=$(python3 -c 'import json; print(json.load(open("lp.out"))["buffer_page_bytes"])' 2>&1)
"$DD" if=in1 mode=read bs=64k largepages=0 --format json >lp.out 2>lp.err
got0=$(python3 -c 'import json; print(json.load(open("lp.out"))["buffer_page_bytes"])' 2>&1)
if [ "$got1" = "$want" ] && [ "$got0" = "$ps" ]; then
	ok "buffer_page_bytes: $got1 by default, $got0 with largepages=0"
else
	bad "buffer_page_bytes: '$got1' by default (want $want), '$got0' with largepages=0 (want $ps)"
fi
line=$("$DD" if=in1 mode=read bs=64k time=1 2>/dev/null | head -n 1)
if [ "$want" = "$ps" ] || printf '%s\n' "$line" | grep -q "buffers on .* pages"; then
	ok "table: '$line'"
else
	bad "table's first line does not name the large pages: '$line'"
fi

# ------------------------------------------------------------ fadvise=
expect 2 "fadvise='seq': unknown value 'seq' (allowed: none, normal, sequential, random)" \
	if=in1 mode=read fadvise=seq
expect 2 "fadvise= given twice" if=in1 mode=read fadvise=random fadvise=none
"$DD" if=in1 mode=read bs=64k fadvise=random --format json >fj.out 2>fj.err &&
python3 -c 'import json; d = json.load(open("fj.out")); assert d["fadvise"] == "random", d' &&
"$DD" if=in1 mode=read bs=64k --format json >fj.out 2>fj.err &&
python3 -c 'import json; d = json.load(open("fj.out")); assert d["fadvise"] == "none", d' &&
	ok "json: fadvise random / none" || bad "json fadvise: $(cat fj.err)"
# The advice is given to every file of a copy, once, and none without fadvise=.
if command -v strace >/dev/null 2>&1; then
	for adv in none normal sequential random; do
		rm -f fcopy
		# LeakSanitizer cannot run under ptrace (sanitizer builds)
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -qq -o fa.strace -e trace=openat,fadvise64 \
			"$DD" if=in1 of=fcopy bs=64k fadvise=$adv >/dev/null 2>fa.err
		st=$?
		ADV=$(echo $adv | tr a-z A-Z)
		# fds of in1 and fcopy, and the fds that got the advice
		fds=$(sed -n 's/.*openat(.*"\(in1\|fcopy\)".*= \([0-9][0-9]*\)$/\2/p' fa.strace |
		      sort -n | tr '\n' ' ')
		adv_fds=$(sed -n "s/.*fadvise64(\([0-9]*\), 0, 0, POSIX_FADV_$ADV) *= 0\$/\1/p" \
		          fa.strace | sort -n | tr '\n' ' ')
		calls=$(grep -c 'fadvise64(' fa.strace)
		if [ $st -ne 0 ] || ! cmp -s in1 fcopy; then
			bad "fadvise=$adv copy: exit $st: $(cat fa.err)"
		elif [ $adv = none ] && [ "$calls" -eq 0 ]; then
			ok "fadvise=none (the default): no posix_fadvise call"
		elif [ $adv != none ] && [ "$calls" -eq 2 ] && [ -n "$fds" ] &&
		     [ "$adv_fds" = "$fds" ]; then
			ok "fadvise=$adv: POSIX_FADV_$ADV on both files of a copy (fds $fds)"
		else
			bad "fadvise=$adv: $calls calls, advised fds '$adv_fds', file fds '$fds'"
			sed 's/^/    /' fa.strace | grep -v ENOENT | tail -n 8
		fi
	done
else
	echo "SKIP fadvise= system calls: strace is not installed"
fi
# and it takes effect: POSIX_FADV_RANDOM turns read-ahead off (Linux), so
# a cold read of 4 KiB leaves 4 KiB cached, where the default reads ahead
cold_read() {
	python3 -c 'import os, sys; fd = os.open(sys.argv[1], os.O_RDONLY); \
os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)' in1 &&
	"$DD" if=in1 mode=read bs=4k count=1 "$@" >/dev/null 2>&1 &&
	fincore -b -n -o RES in1 | tr -d " "
}
if [ "$(uname -s)" != Linux ] || ! command -v fincore >/dev/null 2>&1; then
	echo "SKIP fadvise=random read-ahead: needs Linux and fincore (util-linux)"
else
	res_none=$(cold_read) res_rand=$(cold_read fadvise=random)
	if [ -z "$res_none" ] || [ "$res_none" -le 4096 ]; then
		echo "SKIP fadvise=random read-ahead: this file system reads no ahead" \
		     "(a cold 4 KiB read left ${res_none:-?} bytes cached)"
	elif [ "$res_rand" = 4096 ]; then
		ok "fadvise=random: a cold 4 KiB read caches 4096 bytes (default: $res_none)"
	else
		bad "fadvise=random: a cold 4 KiB read cached $res_rand bytes (default: $res_none)"
	fi
fi

# ------------------------------------------------------------ bufoff=
expect 2 "bufoff='4096': out of range (0 to 4095)" if=in1 mode=read bufoff=4096
expect 2 "bufoff='x': not a decimal number" if=in1 mode=read bufoff=x
expect 2 "bufoff= given twice ('bufoff=0'): give each operand once" if=in1 mode=read bufoff=32 bufoff=0
out=$("$DD" if=in1 mode=read bs=64k iflag=direct bufoff=32 2>&1); st=$?
if [ $st -eq 2 ] && printf '%s\n' "$out" |
   grep -q "bufoff=32: direct transfers need buffers aligned to [0-9]* bytes (the memory alignment of 'in1'); give a multiple of"; then
	ok "bufoff=32 iflag=direct: exit 2: $out"
elif printf '%s\n' "$out" | grep -q "refuses direct I/O"; then
	echo "SKIP bufoff= with iflag=direct: this file system refuses direct I/O ($out)"
else
	bad "bufoff=32 iflag=direct: exit $st: $out"
fi
# JSON buffer_offset: 32 for buffered transfers, 0 with a direct side
# (where the file system takes direct I/O), the value given otherwise
json_off() {
	"$DD" if=in1 mode=read bs=64k --format json "$@" >bo.out 2>bo.err &&
	python3 -c 'import json; print(json.load(open("bo.out"))["buffer_offset"])'
}
got=$(json_off)/$(json_off bufoff=0)/$(json_off bufoff=100)
if [ "$got" = 32/0/100 ]; then
	ok "json buffer_offset: $got (default, bufoff=0, bufoff=100)"
else
	bad "json buffer_offset: '$got' (want 32/0/100): $(cat bo.err)"
fi
if "$DD" if=in1 mode=read bs=64k iflag=direct count=1 >/dev/null 2>&1; then
	got=$(json_off iflag=direct)
	[ "$got" = 0 ] && ok "json buffer_offset with iflag=direct: 0" ||
		bad "json buffer_offset with iflag=direct: '$got' (want 0)"
fi
line=$("$DD" if=in1 mode=read bs=64k time=1 2>/dev/null | head -n 1)
case $line in
*" 32 bytes in (bufoff=)"*) ok "table: '$line'" ;;
*) bad "table's first line does not give the buffer offset: '$line'" ;;
esac
# Copies through offset buffers: the sync engine and every queue's slots
for eng in sync $("$DD" --help | sed -n 's/.*engine=\(sync|[a-z_|-]*\).*/\1/p' |
                 tr '|' ' ' | sed 's/sync//'); do
	rm -f bocopy
	qd=""; [ $eng = sync ] || qd="qd=4"
	if "$DD" if=in1 of=bocopy bs=64k bufoff=4000 engine=$eng $qd >bo.out 2>bo.err &&
	   cmp -s in1 bocopy; then
		ok "copy with bufoff=4000, engine=$eng${qd:+ $qd}: identical"
	elif grep -q "not part of this build\|not available\|not supported\|cannot set up" bo.err; then
		echo "SKIP copy with bufoff=4000, engine=$eng: $(head -n 1 bo.err)"
	else
		bad "copy with bufoff=4000, engine=$eng${qd:+ $qd}: $(cat bo.err)"
	fi
done
# The addresses the calls get: page offset of every pread/pwrite buffer
if command -v strace >/dev/null 2>&1; then
	buf_offsets() {
		rm -f bocopy
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -qq -o bo.strace -e trace=pread64,pwrite64 -e raw=pread64,pwrite64 \
			"$DD" if=in1 of=bocopy bs=64k "$@" >/dev/null 2>bo.err || return 1
		# pread64(fd, buf, count, offset): the buffer's offset in its page,
		# for the 64 KiB transfers (not the loader's and the library's reads)
		sed -n 's/.*p\(read\|write\)64(0x[0-9a-f]*, 0x\([0-9a-f]*\), 0x10000,.*/\2/p' bo.strace |
		while read -r a; do echo $(( 0x$a % ps )); done | sort -u | tr '\n' ' '
	}
	for case in ":32 " "bufoff=0:0 " "bufoff=100:100 " "bufoff=4095:4095 "; do
		args=${case%%:*} want=${case#*:}
		got=$(buf_offsets $args)
		if [ "$got" = "$want" ]; then
			ok "copy ${args:-(default)}: every read and write buffer at page offset $got"
		else
			bad "copy ${args:-(default)}: buffers at page offsets '$got' (want '$want'): $(cat bo.err)"
		fi
	done
	if "$DD" if=in1 mode=read bs=64k iflag=direct count=1 >/dev/null 2>&1; then
		got=$(buf_offsets iflag=direct)
		[ "$got" = "0 " ] && ok "iflag=direct copy: buffers page-aligned" ||
			bad "iflag=direct copy: buffers at page offsets '$got' (want 0)"
	fi
else
	echo "SKIP bufoff= buffer addresses: strace is not installed"
fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
