#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# dio-dd-gnu.sh -- dd's own command lines, run through GNU dd and through
# dio-dd in one run, each in a directory of its own holding the same files
# (inputs, an existing output), and compared:
#  - every file of the two directories byte-identical afterwards (for
#    /dev/urandom sources: the same sizes);
#  - the "records in" and "records out" lines identical, and the transfer
#    line identical up to "copied" (the time and rate differ);
#  - the exit statuses identical; status=none: nothing on stderr from
#    either.
# The lines: the classic write (oflag=direct conv=fdatasync) and read
# (of=/dev/null) throughput lines, count/skip/seek in blocks and in bytes,
# a partial last block, conv=notrunc onto an existing file, oflag=append,
# ibs/obs reblocking, conv=sync, /dev/zero and /dev/urandom sources,
# standard input and output (files and pipes), status=none and noxfer,
# count=0, a skip past the end, inputs and outputs that are refused; and
# SIGUSR1 mid-run (the same lines from both), status=progress.
# GNU dd is needed (SKIP otherwise); direct I/O needs a file system that
# takes it (the build directory's; those lines say SKIP on one that
# does not).
. "${top_srcdir:-.}/tests/lib.sh"

DIODD=$tools/dio-dd
dd --version 2>/dev/null | grep -q coreutils || skip "GNU dd (coreutils) is not installed"
work=$(mktemp -d "$top_builddir/dd-gnu.XXXXXX") || hard "mktemp"
trap 'rm -rf "$work"' EXIT
fail=0 n=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }

# The starting files of each directory.
mkdir "$work/seed"
head -c 10000 /dev/urandom >"$work/seed/in10k"
head -c 3200000 /dev/urandom >"$work/seed/in3m"
head -c 6000 /dev/urandom >"$work/seed/exist"
# taken FILE: wait (20 s at most) until the tool has written FILE, that is,
# has read what came into its pipe before: the partial-read lines below
# send their second piece only then, so that it arrives as a read of its
# own however late the tool starts (a fixed pause was once too short
# under CI's load: dio-dd read both pieces at once).
cat >"$work/seed/taken" <<EOF
top_srcdir='$top_srcdir' top_builddir='$top_builddir'
. "\$top_srcdir/tests/lib.sh"
wait_for 20 "the tool to write \$1" test -s "\$1"
EOF
direct=1
if ! backend_has_direct; then
	direct=0
	echo "note: this build's backend does no direct I/O: the direct lines say SKIP"
elif ! dd if=/dev/zero of="$work/seed/probe" bs=4k count=1 oflag=direct 2>/dev/null; then
	direct=0
	echo "note: $top_builddir takes no O_DIRECT: the direct lines say SKIP"
fi
rm -f "$work/seed/probe"

# The records lines, the transfer line up to "copied", dd's warnings, and
# "exit N" (a tool's own status inside a pipeline, said by the line).
figures() {
	sed -n -e '/ records in$/p' -e '/ records out$/p' -e '/^exit [0-9]*$/p' \
	       -e 's/^[a-z-]*: \(warning: .*\)/\1/p' \
	       -e 's/^\([0-9]* bytes\{0,1\}\( ([^)]*)\)\{0,1\} copied\),.*/\1/p' "$1"
}

# case NAME [random] -- SHELL-WORDS: run the words through dd and dio-dd
# (DD stands for the tool) in sh -c, in a copy of seed/ each.
case_() {
	name=$1
	shift
	random=0
	if [ "$1" = random ]; then random=1; shift; fi
	[ "$1" = -- ] && shift
	line=$*
	n=$((n + 1))
	for t in gnu dio; do
		rm -rf "$work/$t"
		cp -a "$work/seed" "$work/$t"
		if [ $t = gnu ]; then tool=dd; else tool=$DIODD; fi
		(cd "$work/$t" && DD=$tool sh -c "$line" >"$work/$t.out" 2>"$work/$t.err")
		echo $? >"$work/$t.rc"
		figures "$work/$t.err" >"$work/$t.fig"
	done
	what=
	[ "$(cat "$work/gnu.rc")" = "$(cat "$work/dio.rc")" ] ||
		what="exit $(cat "$work/gnu.rc") (dd) vs $(cat "$work/dio.rc") (dio-dd);"
	cmp -s "$work/gnu.fig" "$work/dio.fig" ||
		what="$what lines: dd [$(tr '\n' '|' <"$work/gnu.fig")] dio-dd [$(tr '\n' '|' <"$work/dio.fig")];"
	for f in $(cd "$work/gnu" && ls) $(cd "$work/dio" && ls); do
		if [ $random = 1 ] && [ -f "$work/gnu/$f" ] && ! cmp -s "$work/seed/$f" "$work/gnu/$f" 2>/dev/null; then
			[ "$(wc -c <"$work/gnu/$f")" = "$(wc -c <"$work/dio/$f" 2>/dev/null)" ] ||
				what="$what $f: sizes differ;"
		elif ! cmp -s "$work/gnu/$f" "$work/dio/$f"; then
			what="$what $f differs;"
		fi
	done
	cmp -s "$work/gnu.out" "$work/dio.out" || what="$what standard output differs;"
	if [ -z "$what" ]; then
		ok "$name: $(tr '\n' '|' <"$work/dio.fig") exit $(cat "$work/dio.rc")"
	else
		bad "$name ($line):$what"
		sed 's/^/    dio-dd: /' "$work/dio.err"
	fi
}

# The classic throughput lines.
if [ $direct = 1 ]; then
	case_ "write: /dev/zero, oflag=direct conv=fdatasync" -- \
		'$DD if=/dev/zero of=out bs=1M count=8 oflag=direct conv=fdatasync'
	case_ "read: iflag=direct to /dev/null" -- '$DD if=in3m of=/dev/null bs=64k iflag=direct'
	# A size that is not a multiple of 512: the read after the short last
	# one fails with EINVAL (an unaligned offset), which is the end.
	case_ "read: iflag=direct, 10000 bytes" -- '$DD if=in10k of=/dev/null bs=4k iflag=direct'
	case_ "read: iflag=direct, 4000 bytes" -- 'head -c 4000 in10k >in4000; $DD if=in4000 of=/dev/null bs=4k iflag=direct'
	case_ "copy: iflag=direct, 10000 bytes" -- '$DD if=in10k of=out bs=4k iflag=direct'
	case_ "copy: iflag=direct,fullblock" -- '$DD if=in10k of=out bs=4k iflag=direct,fullblock'
	case_ "copy: iflag=direct oflag=direct" -- '$DD if=in10k of=out bs=4k iflag=direct oflag=direct'
	case_ "copy: iflag=direct, ibs/obs" -- '$DD if=in10k of=out ibs=4k obs=8k iflag=direct'
	case_ "read: iflag=direct, skip=, 10000 bytes" -- '$DD if=in10k of=/dev/null bs=4k skip=1 iflag=direct'
else
	echo "SKIP: the direct lines (no direct I/O here: see the note above)"
fi
case_ "write: /dev/zero, conv=fdatasync" -- '$DD if=/dev/zero of=out bs=1M count=8 conv=fdatasync'
case_ "read: to /dev/null" -- '$DD if=in3m of=/dev/null bs=1M'
case_ "copy" -- '$DD if=in3m of=out bs=1M'
case_ "copy, conv=fsync" -- '$DD if=in3m of=out bs=256k conv=fsync'
# Blocks and pieces.
case_ "a partial last block" -- '$DD if=in10k of=out bs=4k'
case_ "count=" -- '$DD if=in10k of=out bs=4k count=2'
case_ "skip= count=" -- '$DD if=in10k of=out bs=1k skip=3 count=4'
case_ "seek= count=" -- '$DD if=in10k of=out bs=1k seek=5 count=2'
case_ "skip= seek= with suffixes" -- '$DD if=in3m of=out bs=1K skip=1K seek=2 count=100'
case_ "a product: bs=2x1k" -- '$DD if=in10k of=out bs=2x1k count=3'
case_ "count=1K blocks past the end" -- '$DD if=in10k of=out bs=1k count=1K'
case_ "count=0" -- '$DD if=in10k of=out bs=4k count=0'
case_ "skip past the end" -- '$DD if=in10k of=out bs=4k skip=5'
# An existing output.
case_ "conv=notrunc into an existing file" -- '$DD if=in10k of=exist bs=1k seek=2 count=3 conv=notrunc'
case_ "conv=notrunc, whole" -- '$DD if=in10k of=exist bs=512 conv=notrunc'
case_ "oflag=append conv=notrunc" -- '$DD if=in10k of=exist bs=4k oflag=append conv=notrunc'
# Bytes.
case_ "iflag=count_bytes" -- '$DD if=in10k of=out bs=1000 count=2500 iflag=count_bytes'
case_ "iflag=skip_bytes" -- '$DD if=in10k of=out bs=1000 skip=1234 iflag=skip_bytes'
case_ "oflag=seek_bytes" -- '$DD if=in10k of=out bs=1000 seek=777 count=3 oflag=seek_bytes'
# Reblocking and padding.
case_ "ibs < obs" -- '$DD if=in10k of=out ibs=1000 obs=4096'
case_ "ibs > obs" -- '$DD if=in10k of=out ibs=4096 obs=1000'
case_ "conv=sync pads the last block" -- '$DD if=in10k of=out bs=3000 conv=sync'
case_ "conv=sync,noerror on a good input" -- '$DD if=in10k of=out bs=3000 conv=sync,noerror'
# Character devices.
case_ "/dev/zero" -- '$DD if=/dev/zero of=out bs=4k count=5'
case_ "/dev/urandom" random -- '$DD if=/dev/urandom of=out bs=4k count=5'
case_ "/dev/zero to /dev/null, 1000 blocks" -- '$DD if=/dev/zero of=/dev/null bs=1k count=1000'
# Standard input and output.
case_ "standard input from a file" -- '$DD of=out bs=4k <in10k'
case_ "standard output to a file" -- '$DD if=in10k bs=4k >out'
case_ "neither if= nor of=" -- '$DD bs=1k <in10k >out'
case_ "a pipe in, fullblock" -- 'cat in3m | $DD of=out bs=64k iflag=fullblock'
case_ "a pipe in, ibs/obs" -- 'cat in3m | $DD of=out ibs=4096 obs=65536 iflag=fullblock'
case_ "a pipe out" -- '$DD if=in3m bs=64k | cat >out'
case_ "skip= on a pipe (read and dropped)" -- 'cat in10k | $DD of=out bs=1k skip=2'
case_ "skip= past the end of a pipe" -- 'cat in10k | $DD of=out bs=4k skip=5'
case_ "seek= on a pipe out (cannot seek)" -- '{ $DD if=in10k bs=1k seek=1 count=2; echo "exit $?" >&2; } | cat >out'
case_ "skip= on standard input from a file" -- '$DD of=out bs=1k skip=3 <in10k'
# dd's "warning: partial read (N bytes); suggest iflag=fullblock": a short
# read from a pipe, then more, with bs= and count= (not with fullblock;
# there the tool writes nothing until a block is whole, and the pieces'
# timing does not matter: a pause)
case_ "a partial read warned of" -- \
	'{ head -c 1000 in10k; sh taken out; tail -c 5000 in10k; } | $DD of=out bs=4k count=2'
case_ "a partial read of 1 byte" -- \
	'{ head -c 1 in10k; sh taken out; tail -c 5000 in10k; } | $DD of=out bs=4k count=3 status=noxfer'
case_ "a partial read, status=none" -- \
	'{ head -c 1 in10k; sh taken out; tail -c 5000 in10k; } | $DD of=out bs=4k count=3 status=none'
case_ "a partial read, no count=: no warning" -- \
	'{ head -c 1000 in10k; sh taken out; tail -c 5000 in10k; } | $DD of=out bs=4k'
case_ "a partial read, fullblock: no warning" -- \
	'{ head -c 1000 in10k; sleep 0.3; tail -c 5000 in10k; } | $DD of=out bs=4k count=2 iflag=fullblock'
case_ "/dev/stdin and /dev/stdout named" -- '$DD if=/dev/stdin of=/dev/stdout bs=4k <in10k | cat >out'
# What is said.
case_ "status=none" -- '$DD if=in10k of=out bs=4k status=none'
if [ -s "$work/dio.err" ] || [ -s "$work/gnu.err" ]; then
	bad "status=none: something on stderr: $(cat "$work/gnu.err" "$work/dio.err")"
else
	ok "status=none: nothing on stderr from either"
fi
case_ "status=noxfer" -- '$DD if=in10k of=out bs=4k status=noxfer'
case_ "oflag=dsync" -- '$DD if=in10k of=out bs=4k oflag=dsync'
case_ "iflag=nocache oflag=nocache" -- '$DD if=in10k of=out bs=4k iflag=nocache oflag=nocache'
# Failures: the same exit status.
case_ "an input that does not exist" -- '$DD if=missing of=out bs=4k'
case_ "conv=excl onto an existing file" -- '$DD if=in10k of=exist conv=excl'
case_ "conv=nocreat, no output" -- '$DD if=in10k of=new conv=nocreat'
case_ "a full device: /dev/full" -- '$DD if=in10k of=/dev/full bs=4k'

# SIGUSR1 mid-run (a pipe that gives one block, waits, gives another):
# the statistics so far, then the run goes on to its end; the same lines
# from both.
# The second block goes in only once the statistics were said (a flag
# file), so that a loaded machine cannot change what is said.
for t in gnu dio; do
	if [ $t = gnu ]; then tool=dd; else tool=$DIODD; fi
	rm -f "$work/u.$t" "$work/u.$t.err" "$work/go"
	{ head -c 4096 "$work/seed/in10k"
	  while [ ! -e "$work/go" ]; do sleep 0.1; done
	  tail -c 4096 "$work/seed/in10k"; } |
		"$tool" of="$work/u.$t" bs=4k 2>"$work/u.$t.err" &
	pid=$!
	wait_for 60 "the first block in $work/u.$t" \
		eval '[ -f "$work/u.$t" ] && [ "$(wc -c <"$work/u.$t")" = 4096 ]'
	kill -USR1 $pid
	wait_for 60 "the statistics of $tool" grep -qs 'records in' "$work/u.$t.err"
	: >"$work/go"
	wait $pid
	echo $? >"$work/u.$t.rc"
	figures "$work/u.$t.err" >"$work/u.$t.fig"
done
if [ "$(cat "$work/u.gnu.rc")" = 0 ] && [ "$(cat "$work/u.dio.rc")" = 0 ] &&
   [ "$(grep -c 'records in' "$work/u.dio.fig")" = 2 ] &&
   cmp -s "$work/u.gnu.fig" "$work/u.dio.fig" && cmp -s "$work/u.gnu" "$work/u.dio"; then
	ok "SIGUSR1: the statistics so far, the run goes on: $(tr '\n' '|' <"$work/u.dio.fig")"
else
	bad "SIGUSR1: exit $(cat "$work/u.gnu.rc") / $(cat "$work/u.dio.rc"); dd said" \
		"$(tr '\n' '|' <"$work/u.gnu.err"); dio-dd said $(tr '\n' '|' <"$work/u.dio.err")"
fi

# status=progress on a run that stalls (until the line is seen): a
# transfer line so far, in whole seconds, over itself (a carriage return),
# while the run waits (dd says it only after its next write); then dd's
# closing lines.
rm -f "$work/p.out" "$work/p.err" "$work/go"
{ head -c 4096 "$work/seed/in10k"
  while [ ! -e "$work/go" ]; do sleep 0.1; done
  tail -c 4096 "$work/seed/in10k"; } |
	"$DIODD" of="$work/p.out" bs=4k status=progress 2>"$work/p.err" &
pid=$!
cr=$(printf '\r')
wait_for 60 "a progress line with the first block" \
	grep -qs "${cr}4096 bytes (4.1 kB, 4.0 KiB) copied, [0-9]* s, " "$work/p.err"
: >"$work/go"
wait $pid
rc=$?
if [ $rc = 0 ] && grep -q "${cr}4096 bytes (4.1 kB, 4.0 KiB) copied, [0-9]* s, " "$work/p.err" &&
   tr '\r' '\n' <"$work/p.err" | tail -n 3 | head -n 2 | tr '\n' '|' | grep -q '^2+0 records in|2+0 records out|$'; then
	ok "status=progress: a line while the run waited, then the closing lines"
else
	bad "status=progress: exit $rc: $(od -c "$work/p.err" | head -n 12)"
fi

# A pipe whose reader never reads, and a FIFO whose writer never writes:
# the run waits in its write or read, as dd does, and a stop signal still
# ends it at once, with dd's lines so far (exit 128 + the signal).
stopped_in_wait() {     # SIG SIGNUMBER WHAT COMMAND...
	_sig=$1 _num=$2 _what=$3
	shift 3
	"$@" 2>"$work/w.err" &
	_pid=$!
	# (once it catches the signal, where /proc says; it then waits)
	if linux_proc; then
		wait_for 60 "dio-dd to catch SIG$_sig" catches $_pid "$_sig"
	fi
	sleep 1
	kill -"$_sig" $_pid 2>/dev/null
	if wait_for 10 "dio-dd to end after SIG$_sig" gone $_pid; then
		wait $_pid
		_rc=$?
		_want=$((128 + _num))
		if [ $_rc = $_want ] && grep -q 'records in$' "$work/w.err"; then
			ok "$_what: SIG$_sig ended the wait, exit $_rc, the lines so far said"
		else
			bad "$_what: exit $_rc (want $_want): $(cat "$work/w.err")"
		fi
	else
		bad "$_what: still there 10 s after SIG$_sig"
		kill -KILL $_pid 2>/dev/null
	fi
}
mkfifo "$work/never-read" "$work/never-written"
sleep 60 <"$work/never-read" &
holder=$!
stopped_in_wait INT 2 "a reader that never reads" "$DIODD" if=/dev/zero of="$work/never-read" bs=1M
kill $holder 2>/dev/null
sleep 60 >"$work/never-written" &
holder=$!
stopped_in_wait TERM 15 "a writer that never writes" "$DIODD" if="$work/never-written" of=/dev/null
kill $holder 2>/dev/null

# A stop signal while the tool waits to open a FIFO (nobody at its other
# end), or in a write nobody reads: dd and dio-dd end the same way, dying
# by the signal (the shell sees 128 + it); SIGINT says dd's lines (none
# with status=none), SIGTERM and SIGHUP nothing.  Both are started with
# SIGINT at its default (a background job's is ignored, and dd then
# leaves it so).
sig_case() {    # SIG WHAT OPERANDS...
	_sig=$1 _what=$2
	shift 2
	for t in gnu dio; do
		if [ $t = gnu ]; then tool=dd; else tool=$DIODD; fi
		rm -f "$work/sf" "$work/sig.$t.err"
		mkfifo "$work/sf"
		(cd "$work" && exec env --default-signal=INT "$tool" "$@" 2>"$work/sig.$t.err") &
		_pid=$!
		if linux_proc; then
			wait_for 60 "$tool to catch SIGINT" catches $_pid INT
		fi
		sleep 0.5
		kill -"$_sig" $_pid
		wait_for 10 "$tool to end after SIG$_sig" gone $_pid || kill -KILL $_pid
		wait $_pid
		echo $? >"$work/sig.$t.rc"
		sed -e 's/^dio-dd: /dd: /' -e 's/ copied, .*/ copied/' "$work/sig.$t.err" >"$work/sig.$t.cmp"
	done
	if [ "$(cat "$work/sig.gnu.rc")" = "$(cat "$work/sig.dio.rc")" ] &&
	   cmp -s "$work/sig.gnu.cmp" "$work/sig.dio.cmp"; then
		ok "SIG$_sig $_what: exit $(cat "$work/sig.dio.rc") and the same lines as dd" \
			"($(tr '\n' '|' <"$work/sig.dio.cmp"))"
	else
		bad "SIG$_sig $_what: exit $(cat "$work/sig.gnu.rc") (dd) and" \
			"$(cat "$work/sig.dio.rc") (dio-dd); dd said $(tr '\n' '|' <"$work/sig.gnu.err")," \
			"dio-dd said $(tr '\n' '|' <"$work/sig.dio.err")"
	fi
}
if env --default-signal=INT true 2>/dev/null; then
	sig_case INT "waiting to open if= a FIFO" if=sf of=/dev/null
	sig_case TERM "waiting to open if= a FIFO" if=sf of=/dev/null
	sig_case HUP "waiting to open if= a FIFO" if=sf of=/dev/null
	sig_case INT "waiting to open if= a FIFO, status=none" if=sf of=/dev/null status=none
	sig_case INT "waiting to open if= a FIFO, status=noxfer" if=sf of=out status=noxfer
	sig_case INT "waiting to open of= a FIFO" if=/dev/zero of=sf
	sig_case TERM "waiting to open of= a FIFO" if=/dev/zero of=sf
	[ -e "$work/out" ] && bad "a run stopped before it started left its output" ||
		ok "a run stopped while opening: no output made"
	# (the FIFO's other end held by a reader that never reads)
	sleep 60 <"$work/never-read" &
	holder=$!
	sig_case INT "in a write nobody reads, status=none" if=/dev/zero of=never-read bs=1M status=none
	kill $holder 2>/dev/null
else
	echo "SKIP: stop signals while opening (env --default-signal: coreutils 8.31 or later)"
fi

echo "$n command lines compared"
[ $n -ge 25 ] || bad "only $n command lines"
exit $fail
