#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# dio-rbuf.sh -- dio-rbuf without a SCSI device: --help and --version,
# usage errors (exit 2), bad values (exit 2, with the specific message),
# and refusal of anything that is not a SCSI device (exit 1).  The tool on
# real devices is tested by tests/qemu/guest-scsi.sh inside a guest.
. "${top_srcdir:-.}/tests/lib.sh"

prog="$tools/dio-rbuf"
[ -x "$prog" ] || hard "$prog not built"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dio-rbuf-test.XXXXXX") || hard "mktemp"
trap 'rm -rf "$tmp"' EXIT
fails=0

# expect STATUS PATTERN ARGS...: run the tool, check the exit status and
# that stdout+stderr contain PATTERN (a fixed string).
expect() {
	want=$1 pattern=$2
	shift 2
	"$prog" "$@" >"$tmp/out" 2>&1
	got=$?
	if [ "$got" -ne "$want" ]; then
		echo "FAIL: dio-rbuf $*: exit $got, want $want"; cat "$tmp/out"
		fails=$((fails + 1))
	elif ! grep -F -q -e "$pattern" "$tmp/out"; then
		echo "FAIL: dio-rbuf $*: output lacks '$pattern':"; cat "$tmp/out"
		fails=$((fails + 1))
	else
		echo "ok: dio-rbuf $* -> $got"
	fi
}

# Help and version go to stdout and succeed.
expect 0 "Usage: dio-rbuf [OPTIONS] DEVICE" --help
expect 0 "--sweep" -h
expect 0 "kB, KB, MB, GB, TB, PB, EB: powers of 1000" --help
"$prog" --help 2>/dev/null | grep -q "Exit status" || { echo "FAIL: --help not on stdout"; fails=$((fails + 1)); }
expect 0 "dio-rbuf (libdirectio) " --version
expect 0 "backend $DIO_BACKEND" -V

# Usage errors: exit 2 and a pointer to --help.
expect 2 "no DEVICE given"
expect 2 "Try 'dio-rbuf --help'"
expect 2 "unknown option '--bogus'" --bogus /dev/null
expect 2 "unknown option '-x'" -x /dev/null
expect 2 "option '--size' needs an argument" /dev/null --size
expect 2 "option '--sweep' takes no argument" --sweep=yes /dev/null
expect 2 "one DEVICE only (got 'a' and 'b')" a b
expect 2 "--sweep chooses sizes and modes itself" --sweep -b 4k /dev/null
expect 2 "--sweep chooses sizes and modes itself" --sweep -q /dev/null
expect 2 "--sizes and --modes need --sweep" --sizes 4k /dev/null
expect 2 "--plot needs --sweep" --plot "$tmp/p.svg" /dev/null
expect 2 "--lba goes with --command read" --lba 8 /dev/null
expect 2 "--buffer-id goes with --command rbuf" -c read --buffer-id 1 /dev/null
# sg_rbuf's command line: -t takes no value there.  A size given to it
# (dio-rbuf's first spelling of the bytes per run, with -s SIZE per command
# and -b N the buffer id) is a usage error that says what to write, in
# every spelling, before any complaint about the other values (-b 0 was a
# buffer id), and whether or not a DEVICE follows.
hint="-t takes no value, as in sg_rbuf (dio-rbuf always times); for"
expect 2 "'-t 4m': $hint 4m bytes per run write: -s 4m (-s OVERALL is the bytes per run)" -t 4m /dev/null
expect 2 "'-t 4m': $hint 4m bytes per run write: -s 4m" /dev/null -t 4m
expect 2 "'-t 10000': $hint 10000 bytes per run write: -s 10000" -t 10000
expect 2 "'-t1M': $hint 1M bytes per run write: -s 1M" -t1M /dev/null
expect 2 "'-t=1M': $hint 1M bytes per run write: -s 1M" -dt=1M /dev/null
expect 2 "'--time=1M': $hint 1M bytes per run write: -s 1M" --time=1M /dev/null
expect 2 "'--time 1M': $hint 1M bytes per run write: -s 1M" --time 1M /dev/null
expect 2 "'-t 1M': $hint 1M bytes per run write: -b 64k -s 1M (-s OVERALL is the bytes per run, -b EACH the bytes per command)" -s 64k -t 1M /dev/null
expect 2 "'-t 1M': $hint 1M bytes per run write: -b 64k -s 1M --buffer-id 0 (-s OVERALL is the bytes per run, -b EACH the bytes per command, --buffer-id N the buffer id)" -b 0 -s 64k -t 1M /dev/null
expect 2 "Try 'dio-rbuf --help'" -t 1M /dev/null
# A size operand without -t, and -t before a file named like a size: no -t hint.
expect 2 "one DEVICE only (got '4m' and '/dev/null'); a size is not an operand: the bytes per run are -s OVERALL, the bytes per command -b EACH" 4m /dev/null
: >"$tmp/64k"
(cd "$tmp" && "$prog" -t 64k) >"$tmp/out" 2>&1
if [ $? -eq 1 ] && grep -q "64k: not a device (a regular file)" "$tmp/out"; then
	echo "ok: dio-rbuf -t 64k, a file called 64k: the file is the DEVICE (exit 1)"
else
	echo "FAIL: dio-rbuf -t 64k with a file called 64k:"; cat "$tmp/out"; fails=$((fails + 1))
fi
expect 1 "$tmp/file2: no such file or directory" -t "$tmp/file2"

# Bad values: exit 2 (a usage error) with the parser's specific message.
expect 2 "dio-rbuf: --size '4kk': unknown suffix 'kk' (allowed: c=1, w=2, b=512; k, K, KiB, m, M, MiB, g, G, GiB, t, T, TiB, P, PiB, E, EiB: powers of 1024; kB, KB, MB, GB, TB, PB, EB: powers of 1000)" --size 4kk /dev/null
expect 2 "dio-rbuf: -s '4kk': unknown suffix 'kk'" -s 4kk /dev/null
expect 2 "dio-rbuf: --size '1.5M': fractions are not supported" --size=1.5M /dev/null
expect 2 "dio-rbuf: --size '0': must be at least 1 byte" --size 0 /dev/null
expect 2 "dio-rbuf: --total '-5': negative sizes are not allowed" --total -5 /dev/null
expect 2 "dio-rbuf: -b '99999999999999999999': too large" -b 99999999999999999999 /dev/null
expect 2 "dio-rbuf: --buffer '0': must be at least 1 byte" --buffer=0 /dev/null
expect 2 "dio-rbuf: --sizes '4k,,8k': empty item 2 in the list" --sweep --sizes 4k,,8k /dev/null
expect 2 "dio-rbuf: --sizes '4k,8x': item '8x': unknown suffix 'x'" --sweep --sizes 4k,8x /dev/null
expect 2 "unknown value 'foo' (allowed: indirect, direct, no-copy, mmap)" --sweep --modes direct,foo /dev/null
expect 2 "a mode is listed twice" --sweep --modes direct,direct /dev/null
expect 2 "unknown value 'xml' (allowed: table, csv, json)" -f xml /dev/null
expect 2 "unknown value 'write' (allowed: rbuf, read)" --command write /dev/null
expect 2 "dio-rbuf: --buffer-id '256': out of range (0 to 255)" --buffer-id 256 /dev/null
expect 2 "dio-rbuf: --timeout '0': out of range (1 to 3600)" --timeout 0 /dev/null
expect 2 "dio-rbuf: --lba 'x': not a decimal number" -c read --lba x /dev/null

# Not devices, or not SCSI devices: a clear refusal, exit 1.
: >"$tmp/file"
expect 1 "$tmp/file: not a device (a regular file)" "$tmp/file"
expect 1 "$tmp: not a device (a directory)" "$tmp"
expect 1 "$tmp/missing: no such file or directory" "$tmp/missing"
if [ "$DIO_BACKEND" = posix ]; then
	expect 1 "/dev/null: this build has no SCSI pass-through (libdirectio backend posix)" /dev/null
else
	expect 1 "/dev/null: not a SCSI device" /dev/null
	expect 1 "/dev/null: not a SCSI device" -c read /dev/null
	expect 1 "/dev/null: not a SCSI device" --sweep /dev/null
	# sg_rbuf's options, short and long, all accepted together (-m
	# overrides -q and -d there and here): the device is what is refused.
	expect 1 "/dev/null: not a SCSI device" -b 4k -s 1m -t -d -q -m -e -v /dev/null
	expect 1 "/dev/null: not a SCSI device" --buffer=4k --size=1m --time --dio --quick --mmap --echo /dev/null
	expect 1 "/dev/null: not a SCSI device" -d -m /dev/null
fi
# A loop device is a block device that does not take SG_IO.
# Debian's loop nodes are root:disk 0660: without the right to open one,
# there is nothing to check (dio-rbuf then says "permission denied").
if [ "$DIO_BACKEND" = linux ] && [ -b /dev/loop0 ] && [ -r /dev/loop0 ]; then
	expect 1 "/dev/loop0: not a SCSI device" /dev/loop0
elif [ "$DIO_BACKEND" = linux ] && [ -b /dev/loop0 ]; then
	echo "skipped: dio-rbuf /dev/loop0: this user may not open /dev/loop0"
fi
# Refused before any output file is made.
[ ! -e "$tmp/p.svg" ] || { echo "FAIL: a plot was written"; fails=$((fails + 1)); }
# --plot is claimed before the device is opened (not after the whole
# sweep): into a missing directory, a usage error that comes before the
# device's refusal; a plot file made for a run that fails is removed.
expect 2 "--plot '$tmp/missing/p.svg': no such file or directory" --sweep --plot "$tmp/missing/p.svg" /dev/null
expect 2 "--plot '$tmp' is a directory" --sweep --plot "$tmp" /dev/null
expect 1 "/dev/null: " --sweep --plot "$tmp/p2.svg" /dev/null
[ ! -e "$tmp/p2.svg" ] || { echo "FAIL: a failed run left its plot file"; fails=$((fails + 1)); }
echo old >"$tmp/p3.svg"
expect 1 "/dev/null: " --sweep --plot "$tmp/p3.svg" /dev/null
[ "$(cat "$tmp/p3.svg")" = old ] || { echo "FAIL: a failed run changed an existing plot file"; fails=$((fails + 1)); }

[ "$fails" -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
exit 0
