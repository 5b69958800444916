#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# guest-scsi.sh -- libdirectio's SCSI tests inside the qemu test guest;
# run by tests/scsi-qemu.sh through tests/qemu/run-guest.sh, with
# /bin/guest-scsi-check and /bin/dio-rbuf put there by it.
#
# 1. guest-scsi-check: every CDB builder, parser and transfer mode against
#    the qemu disk, scsi_debug and the TCMU RAM disk (see its source).
# 2. dio-rbuf end to end on the same devices: READ BUFFER in each mode,
#    direct I/O with allow_dio off and on, block devices, devices without
#    READ BUFFER, --command read, --sweep in each format, --plot.
#
# Prints "ok"/"FAIL" per check and a count; exit 0 if none failed.

pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   - $*"; }
bad() { fail=$((fail + 1)); echo "FAIL - $*"; }
has() { grep -F -q -e "$2" "$1"; }
lines() { grep -c -e "$2" "$1"; }

# rbuf STATUS DESCRIPTION ARGS...: dio-rbuf exits with STATUS; its
# output (both streams) is left in /tmp/rbuf.out for the has checks.
rbuf() {
	want=$1 d=$2
	shift 2
	dio-rbuf "$@" >/tmp/rbuf.out 2>/tmp/rbuf.err
	st=$?
	cat /tmp/rbuf.err >>/tmp/rbuf.out
	if [ "$st" -eq "$want" ]; then
		ok "dio-rbuf $*: exit $st ($d)"
		return 0
	fi
	bad "dio-rbuf $*: exit $st, want $want ($d)"
	sed 's/^/       /' /tmp/rbuf.out | head -n 30
	return 1
}
# expect PATTERN DESCRIPTION: /tmp/rbuf.out has PATTERN
expect() {
	if has /tmp/rbuf.out "$1"; then ok "$2"; else
		bad "$2: no '$1' in:"; sed 's/^/       /' /tmp/rbuf.out | head -n 30; fi
}
allow_dio() { echo "$1" >/sys/module/sg/parameters/allow_dio; }

echo "guest-scsi: kernel $(uname -r)"
for v in DIO_QEMU_SG DIO_QEMU_SD DIO_DEBUG_SG DIO_DEBUG_SD DIO_TCMU_SG DIO_TCMU_SD; do
	eval "d=\${$v:-}"
	[ -n "$d" ] || { echo "FAIL - $v is not set"; exit 1; }
done

# ------------------------------------------------------------ library
guest-scsi-check
st=$?
if [ $st -eq 0 ]; then ok "guest-scsi-check"; else bad "guest-scsi-check (exit $st)"; fi

# ------------------------------------------------------------ dio-rbuf
T=$DIO_TCMU_SG TB=$DIO_TCMU_SD Q=$DIO_QEMU_SG QB=$DIO_QEMU_SD D=$DIO_DEBUG_SG
cap=$DIO_TCMU_BUFCAP
allow_dio 0

rbuf 0 "TCMU sg, indirect" -s 4M "$T"
expect "capacity $cap bytes" "reports the TCMU buffer capacity $cap"
expect "LIBDIO TCMU RAMDISK" "reports the INQUIRY identity"
expect "mode        indirect (done: indirect)" "indirect done"
expect "= 4194304 bytes (4 MiB)" "exact bytes of the transfer"
expect "MB/s (" "throughput in MB/s and MiB/s"
expect "CPU " "CPU utilisation"
expect "us per command on average (elapsed over commands)" "mean per command from the run's time"
rbuf 0 "TCMU sg, --command-times" --command-times -s 1M "$T"
expect "measured around each system call" "each command timed"
grep -Eq 'per command [0-9.]+ us on average, [0-9.]+ min, [0-9.]+ max' /tmp/rbuf.out &&
	ok "min and max per command" || bad "min and max per command: $(grep commands /tmp/rbuf.out)"

rbuf 0 "direct with allow_dio=0" -d -s 2M "$T"
expect "mode        direct (done: indirect)" "direct asked, indirect done"
expect "direct I/O was asked but not done for 32 of 32 commands" "counts the fallbacks"
expect "allow_dio is 0" "names allow_dio as the reason"
allow_dio 1
rbuf 0 "direct with allow_dio=1" -d -s 2M "$T"
expect "mode        direct (done: direct)" "direct done"
if has /tmp/rbuf.out "not done"; then bad "no fallback note when direct was done"; else
	ok "no fallback note when direct was done"; fi
allow_dio 0
rbuf 0 "no-copy" -q -s 2M "$T"
expect "mode        no-copy (done: no-copy)" "no-copy done"
rbuf 0 "mmap" -m -s 2M "$T"
expect "mode        mmap (done: mmap)" "mmap done"
rbuf 0 "smaller size, partial last command" -b 3000 -s 10000 "$T"
expect "4 commands of up to 3000 bytes" "4 commands for 10000 bytes of 3000"
expect "= 10000 bytes" "exactly the total"
rbuf 1 "size above the capacity" -b $((cap + 512)) "$T"
expect "exceeds the device's buffer capacity of $cap bytes" "names the capacity"
rbuf 1 "buffer id the device refuses" --buffer-id 3 "$T" ||:
# buffer id 3: descriptor mode answers zeros -> capacity 0
expect "capacity of 0 bytes for buffer id 3" "capacity 0 refused"

rbuf 0 "TCMU block device, indirect" -s 2M "$TB"
expect "(block device)" "says block device"
expect "mode        indirect (done: auto)" "the OS chose: auto"
rbuf 1 "direct on a block device" -d -s 1M "$TB"
expect "direct transfers need an sg character device" "explains why not"
rbuf 1 "mmap on a block device" -m -s 1M "$TB"
expect "no reserved buffer" "explains why not"

rbuf 1 "qemu disk has no READ BUFFER" "$Q"
expect "refused READ BUFFER (descriptor mode, buffer id 0): ILLEGAL REQUEST: invalid command operation code (asc 0x20 ascq 0x00)" "decoded sense"
expect "use --command read" "points to --command read"
rbuf 1 "scsi_debug has no READ BUFFER" "$D"
expect "ILLEGAL REQUEST: invalid command operation code" "decoded sense"
# A failure in the middle of a run, in the repeat loop and with
# --command-times: scsi_debug fails every 40th command.  Where its count
# stands when every_nth is set varies (the first command after it may
# fail), so a short run goes first to take that; dio-rbuf then sends
# fewer than 40 commands before its timed loop of 64.
for ct in "" --command-times; do
	echo 40 >/sys/bus/pseudo/drivers/scsi_debug/every_nth
	echo 0x10 >/sys/bus/pseudo/drivers/scsi_debug/opts
	dio-rbuf -c read -b 4K -s 4K "$D" >/dev/null 2>&1
	rbuf 1 "scsi_debug failing every 40th command $ct" $ct -c read -b 4K -s 256K "$D"
	echo 0 >/sys/bus/pseudo/drivers/scsi_debug/opts
	echo 0 >/sys/bus/pseudo/drivers/scsi_debug/every_nth
	grep -Eq 'command [0-9]+ of 64: the device answered' /tmp/rbuf.out &&
		ok "names the command that failed $ct" ||
		{ bad "names the command that failed $ct"; sed 's/^/       /' /tmp/rbuf.out; }
done
rbuf 0 "qemu disk, READ(10)" -c read -s 2M "$Q"
expect "READ(10) at LBA 0" "READ(10) described"
expect "= 2097152 bytes" "2 MiB read"
rbuf 0 "qemu block device, READ(10) at LBA 64, direct refused? no: indirect" -c read --lba 64 -b 8K -s 1M "$QB"
expect "128 commands of up to 8192 bytes" "8K commands"
rbuf 1 "READ(10) size not a block multiple" -c read -b 1000 "$Q"
expect "not a multiple of the 512-byte block" "block multiple required"

# sweep: table, csv, json, plot
rbuf 0 "sweep table with plot" --sweep -s 1M --plot /tmp/rbuf.svg "$T"
expect "Time in seconds (CPU utilisation) for a 1048576-byte (1 MiB) transfer" "sweep title"
expect "latency per command (implied)" "implied latency row"
expect "best throughput after latency" "after-latency row"
expect "fit: R" "fit rows"
expect "$(printf '%-12s' "$(( cap / 1024 )) KiB")" "the capacity is the top row"
if [ -s /tmp/rbuf.svg ] && has /tmp/rbuf.svg "<svg" && has /tmp/rbuf.svg "</svg>" &&
    [ "$(lines /tmp/rbuf.svg '<polyline')" -eq 4 ]; then
	ok "plot: SVG with 4 lines"
else
	bad "plot: SVG with 4 lines"; head -c 600 /tmp/rbuf.svg
fi
rbuf 0 "sweep csv" --sweep --sizes 32K,8K --modes indirect,direct,mmap -s 512K -f csv "$T"
n=$(lines /tmp/rbuf.out '^run,')
if [ "$n" -eq 6 ]; then ok "csv: 6 run records"; else bad "csv: $n run records, want 6"; fi
n=$(grep '^run,' /tmp/rbuf.out | awk -F, 'NF != 18 || $18 != ""' | wc -l)
if [ "$n" -eq 0 ]; then ok "csv: 18 fields, no errors"; else bad "csv: $n runs with errors"; fi
expect "summary,mmap,2," "csv: summary per mode"
rbuf 0 "sweep csv on the block device" --sweep --sizes 16K -s 64K -f csv "$TB"
# Unmeasured runs: the same 18 fields, the last one the (quoted) reason.
n=$(grep '^run,' /tmp/rbuf.out | cut -d'"' -f1 | awk -F, 'NF != 18' | wc -l)
if [ "$n" -eq 0 ]; then ok "csv: 18 fields in every run record"; else
	bad "csv: $n records without 18 fields"; cat /tmp/rbuf.out; fi
expect ',"exec opcode 0x3c on fd 3: direct transfers need an sg character device' "csv: the reason in the error field"
rbuf 0 "sweep json on the block device" --sweep --sizes 16K,4K -s 256K -f json "$TB"
expect '"device_kind": "block device"' "json: device kind"
expect '"mode": "direct", "size": 16384, "measured": false, "unsupported": true' "json: direct n/a on a block device"
expect '"mode_done": "auto"' "json: indirect done auto"
expect '"summary": [' "json: summary"
rbuf 0 "READ(10) sweep on scsi_debug" -c read --sweep --sizes 16K,4K -s 128K "$D"
expect "READ(10) at LBA 0" "read sweep"

# A device that stops answering: the timeout shows as a transport error.
S=/sys/bus/pseudo/drivers/scsi_debug
echo 1 >$S/every_nth && echo 4 >$S/opts
rbuf 1 "scsi_debug ignoring commands" -c read --timeout 1 "$D"
expect "READ CAPACITY(10) failed: transport error (host status 0x3" "timeout reported as a transport error"
echo 0 >$S/opts && echo 0 >$S/every_nth
rbuf 0 "scsi_debug answers again" -c read -s 64K "$D"

# ------------------------------------------------------------ sg_rbuf's lines
# The same sg_rbuf command line through sg_rbuf and through dio-rbuf: the
# TCMU disk counts the READ BUFFER (data or echo) commands and bytes it
# answered.  sg_rbuf sends OVERALL / EACH whole commands (dropping a
# remainder); dio-rbuf sends one untimed command first, the same whole
# commands, and the remainder as a last, shorter one; so for each line
# dio-rbuf must have made the disk answer exactly that much more.
rb_counts() {   # "commands bytes" the TCMU disk has answered so far
	sg_raw "$T" c1 04 00 00 00 00 00 00 00 00 >/dev/null 2>&1
	grep 'READ BUFFER [0-9]* commands' "$DIO_TCMU_LOG" | tail -n 1 |
		sed -n 's/.*READ BUFFER \([0-9]*\) commands \([0-9]*\) bytes.*/\1 \2/p'
}
# sg_line EACH OVERALL OPTIONS...: run the OPTIONS through both tools.
sg_line() {
	each=$1 all=$2
	shift 2
	line="$*"
	c0=$(rb_counts)
	sg_rbuf "$@" "$T" >/tmp/sg.out 2>&1; s1=$?
	c1=$(rb_counts)
	dio-rbuf "$@" "$T" >/tmp/rbuf.out 2>&1; s2=$?
	c2=$(rb_counts)
	set -- $c0 $c1 $c2
	[ -n "$6" ] || { bad "$line: the TCMU disk's counts cannot be read"; return; }
	sgc=$(($3 - $1)) sgb=$(($4 - $2)) dc=$(($5 - $3)) db=$(($6 - $4))
	whole=$((all / each)) rem=$((all % each))
	per=$((sgc > 0 ? sgb / sgc : 0))
	rb=$((rem < per ? rem : per))
	xc=$((1 + whole + (rem > 0))) xb=$((per + sgb + rb))
	if [ $s1 -eq 0 ] && [ $s2 -eq 0 ] && [ $sgc -eq $whole ] && [ $dc -eq $xc ] &&
	    [ $db -eq $xb ]; then
		ok "sg_rbuf $line: $sgc commands, $sgb bytes; dio-rbuf: $dc, $db (1 untimed$([ $rem -gt 0 ] && echo ", 1 of the remainder"))"
	else
		bad "sg_rbuf $line: $sgc commands, $sgb bytes, exit $s1; dio-rbuf: $dc, $db, exit $s2 (want $xc, $xb)"
		sed 's/^/       /' /tmp/sg.out /tmp/rbuf.out | head -n 20
	fi
	if grep -q '^time to read data from buffer was [0-9.]* secs, [0-9.]* MB/sec, [0-9.]* IOPS$' /tmp/rbuf.out; then
		ok "dio-rbuf $line prints sg_rbuf's time line"
	else
		bad "dio-rbuf $line: no sg_rbuf time line:"; sed 's/^/       /' /tmp/rbuf.out
	fi
}
if command -v sg_rbuf >/dev/null && command -v sg_raw >/dev/null && [ -n "${DIO_TCMU_LOG:-}" ]; then
	allow_dio 1
	sg_line "$cap" 1048576 -t -s 1048576
	sg_line 4096 262144 -t -b 4096 -s 262144
	sg_line "$cap" 1048576 -t -q -s 1048576
	sg_line 16384 524288 -t -d -b 16384 -s 524288
	sg_line "$cap" 1048576 -t -m -s 1048576
	sg_line "$cap" 131072 -t -d -q -s 131072
	sg_line 8192 196608 --time --buffer=8192 --size=196608 --dio
	sg_line 3000 10000 -t -b 3000 -s 10000
	ecap=$(sg_rbuf -e -s 1 "$T" 2>&1 | sed -n 's/.*echo buffer capacity=\([0-9]*\).*/\1/p')
	sg_line "${ecap:-252}" 4096 -t -e -s 4096
	allow_dio 0
else
	echo "SKIP - no sg_rbuf, sg_raw or TCMU log: sg_rbuf's command lines not compared"
fi

echo "guest-scsi: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
