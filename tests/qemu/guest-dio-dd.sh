#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# guest-dio-dd.sh -- dio-dd's SCSI pass-through (sg) mode inside the qemu
# test guest; run by tests/dio-dd-qemu.sh with /bin/dio-dd put there.
#  - READ/WRITE through sg on the TCMU RAM disk and on scsi_debug, data
#    verified against the block device (read with O_DIRECT, so that no
#    stale page cache answers);
#  - copies sg -> sg and sg -> file, and a block device driven with
#    iflag=sg (SG_IO on /dev/sdX);
#  - dio=1 with allow_dio 0 (every command counted as "not done", the
#    reason printed) and 1 (done);
#  - bs must be the device's block size; JSON carries the sg counts;
#  - sg buffers start aligned (bufoff 0) unless bufoff= says otherwise,
#    which dio=1 refuses;
#  - an input that does not end on a block boundary is refused for an sg
#    output (SCSI WRITE takes whole blocks; the piece used to be dropped
#    silently), nothing written; count= copies the whole blocks;
#  - an sg node and its disk, a disk and its partitions are one device:
#    refused as input and output or as two outputs;
#  - an sg output is checked through its disk (swap on the disk: refused)
#    and its disk is held for the run (swapon meanwhile fails); an sg
#    node with no disk behind it (a scsi_debug tape) is not written;
#  - reads say mode=read, pattern writes mode=write (dd's defaults would
#    copy to standard output or from standard input); an sg device to
#    standard output (dd's loop: no SCSI commands) is refused.
# Prints ok/FAIL per check and a count; exit 0 if none failed.

pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   - $*"; }
bad() { fail=$((fail + 1)); echo "FAIL - $*"; }
# run STATUS DESCRIPTION ARGS...: output of both streams in /tmp/dd.out
run() {
	want=$1 d=$2
	shift 2
	dio-dd "$@" >/tmp/dd.out 2>&1
	st=$?
	if [ "$st" -eq "$want" ]; then ok "dio-dd $*: exit $st ($d)"; return 0; fi
	bad "dio-dd $*: exit $st, want $want ($d)"
	sed 's/^/       /' /tmp/dd.out | head -n 30
	return 1
}
expect() {
	if grep -F -q -e "$1" /tmp/dd.out; then ok "$2"; else
		bad "$2: no '$1' in:"; sed 's/^/       /' /tmp/dd.out | head -n 30; fi
}
allow_dio() { echo "$1" >/sys/module/sg/parameters/allow_dio; }
# blk DEV SKIP COUNT FILE: read 512-byte blocks of a block device, O_DIRECT,
# 64 KiB a read (a read a block took 8192 commands for 4 MiB: half a
# minute of scsi_debug's 1-jiffy delay, and the TCMU handler's CPU); a
# short read is a failure, not a shorter file to compare
blk() {
	dd if="$1" of="$4" bs=64k skip=$(($2 * 512)) count=$(($3 * 512)) \
		iflag=direct,skip_bytes,count_bytes 2>/dev/null
	[ "$(wc -c <"$4")" -eq $(($3 * 512)) ] ||
		bad "reading $3 blocks at $2 of $1: $(wc -c <"$4") bytes"
}

echo "guest-dio-dd: kernel $(uname -r)"
for v in DIO_TCMU_SG DIO_TCMU_SD DIO_DEBUG_SG DIO_DEBUG_SD; do
	eval "d=\${$v:-}"
	[ -n "$d" ] || { echo "FAIL - $v is not set"; exit 1; }
done
T=$DIO_TCMU_SG TB=$DIO_TCMU_SD D=$DIO_DEBUG_SG DB=$DIO_DEBUG_SD
B=${DIO_TCMU_BLOCK:-512}
allow_dio 0

# ------------------------------------------------------------ reads
run 0 "read the TCMU disk through sg" if="$T" mode=read bs="$B" bpt=128 count=16384 time=1
expect "16384+0 records in" "16384 blocks read"
expect "sg: 128 commands" "128 READ commands of 64 KiB"
expect "MB/s" "throughput"
run 0 "whole scsi_debug disk, 2 threads" if="$D" mode=read bs=512 bpt=64 thr=2
expect "16777216 bytes (17 MB, 16 MiB) copied" "read to the end (READ CAPACITY)"
run 0 "block device with iflag=sg" if="$TB" mode=read iflag=sg bs="$B" bpt=128 count=4096 time=1
expect "sg: 32 commands" "SG_IO on the block device"
run 2 "bs is not the block size" if="$T" mode=read bs=4096
expect "bs=4096 but '$T' has $B-byte blocks" "bs mismatch message"
run 2 "direct flag on sg" if="$T" mode=read bs="$B" iflag=direct
expect "for SCSI pass-through ask for direct transfers with dio=1" "iflag=direct on sg refused"
run 2 "aio on sg" if="$T" mode=read bs="$B" qd=4
expect "SCSI generic device, which dio-dd drives with engine=sync only" "aio on sg refused"
# dd's defaults: an sg device to standard output (dd's loop, read(2) and
# write(2) on a stream, has no SCSI commands) is refused
run 2 "sg to standard output" if="$T" bs="$B" count=8
expect "of= '/dev/stdout' is read or written in order, as a stream" "sg to standard output refused"

# ------------------------------------------------------------ writes, verified
run 2 "device needs --force" of="$T" mode=write bs="$B" count=8
expect "pass --force" "refused without --force"
run 0 "write the pattern through sg" of="$T" mode=write bs="$B" bpt=32 seek=100 count=2048 --force time=1
expect "2048+0 records out" "2048 blocks written"
blk "$TB" 100 2048 /tmp/w.bin
s=$(dd if=/tmp/w.bin bs=512 skip=5 count=1 2>/dev/null | head -c 23)
exp=$(printf 'dio-dd %016x' $(( (100 + 5) * 512 )))
[ "$s" = "$exp" ] && ok "block device shows the sg write: '$s'" || bad "stamp '$s', want '$exp'"
run 0 "write with FUA (oflag=dsync)" of="$T" mode=write bs="$B" bpt=8 count=64 oflag=dsync --force
grep -q "cdb 2a 08" "$DIO_TCMU_LOG" && ok "WRITE(10) with FUA reached the device" ||
	bad "no WRITE(10) FUA in $DIO_TCMU_LOG"

# ------------------------------------------------------------ copies, verified
run 0 "copy sg -> sg (TCMU to scsi_debug)" if="$T" of="$D" bs=512 bpt=64 count=8192 --force
blk "$TB" 0 8192 /tmp/a.bin
blk "$DB" 0 8192 /tmp/b.bin
cmp -s /tmp/a.bin /tmp/b.bin && ok "sg copy identical on the block devices" || bad "sg copy differs"
run 0 "copy sg -> file" if="$D" of=/tmp/c.bin bs=512 bpt=128 count=8192
cmp -s /tmp/b.bin /tmp/c.bin && ok "sg -> file identical to the block device" || bad "sg -> file differs"
run 0 "copy file -> sg with skip/seek" if=/tmp/c.bin of="$T" bs=512 bpt=16 skip=10 seek=3000 count=500 --force
blk "$TB" 3000 500 /tmp/d.bin
dd if=/tmp/c.bin bs=512 skip=10 count=500 2>/dev/null >/tmp/e.bin
cmp -s /tmp/d.bin /tmp/e.bin && ok "skip=10 seek=3000 count=500 through sg" || bad "skip/seek through sg"

# ------------------------------------------------------------ partial blocks to sg
# Known contents at seek=5000, then inputs that end inside a block.
run 0 "pattern at seek=5000" of="$T" mode=write bs="$B" seek=5000 count=4 --force
blk "$TB" 5000 4 /tmp/before.bin
head -c $((2 * B - 24)) /dev/urandom >/tmp/part.bin
run 2 "input ends inside a block" if=/tmp/part.bin of="$T" bs="$B" seek=5000 --force
expect "has $((2 * B - 24)) bytes to copy, $((B - 24)) of them after the last whole block" \
	"partial last block refused with its size"
expect "count=1 copies the whole blocks only" "the message says how to copy the whole blocks"
head -c 300 /dev/urandom >/tmp/small.bin
run 2 "input smaller than a block" if=/tmp/small.bin of="$T" bs="$B" seek=5000 --force
expect "has 300 bytes to copy, 300 of them after the last whole block" "300-byte input refused"
blk "$TB" 5000 4 /tmp/after.bin
cmp -s /tmp/before.bin /tmp/after.bin && ok "refused partial copies wrote nothing" ||
	bad "a refused partial copy changed the disk"
run 0 "count=1: the whole block only" if=/tmp/part.bin of="$T" bs="$B" seek=5000 count=1 --force
expect "1+0 records out" "one record out"
expect "$B bytes" "bytes reported = bytes written"
blk "$TB" 5000 1 /tmp/one.bin
head -c "$B" /tmp/part.bin | cmp -s - /tmp/one.bin && ok "the whole block reached the disk" ||
	bad "count=1 block differs"

# ------------------------------------------------------------ one device, two names
run 2 "sg node and its disk" if="$TB" of="$T" bs="$B" count=8 --force
expect "of= '$T' and if= '$TB' are the same device" "sg and sd are one device (copy)"
run 2 "sg node and its disk as outputs" of="$TB,$T" mode=write bs="$B" count=8 --force
expect "of= '$T' and of= '$TB' are the same device" "sg and sd are one device (outputs)"
Q=${DIO_QEMU_SD:-}
if [ -n "$Q" ] && [ -b "$Q" ]; then
	# An MBR with two partitions of type 83h on the scratch qemu disk.
	le32() { v=$1; printf "\\$(printf %03o $((v & 255)))\\$(printf %03o $(((v >> 8) & 255)))\\$(printf %03o $(((v >> 16) & 255)))\\$(printf %03o $(((v >> 24) & 255)))"; }
	part() {  # ENTRY START SECTORS
		{ printf '\000\377\377\377\203\377\377\377'; le32 "$2"; le32 "$3"; } |
			dd of="$Q" bs=1 seek=$((446 + 16 * $1)) conv=notrunc 2>/dev/null
	}
	part 0 2048 4096
	part 1 6144 8192
	printf '\125\252' | dd of="$Q" bs=1 seek=510 conv=notrunc 2>/dev/null
	sync
	blockdev --rereadpt "$Q" 2>/dev/null
	i=0
	while [ $i -lt 300 ] && ! [ -b "${Q}2" ]; do sleep 0.2; i=$((i + 1)); done  # 60 s
	if [ -b "${Q}1" ] && [ -b "${Q}2" ]; then
		sum=$(dd if="$Q" bs=1M count=8 iflag=direct 2>/dev/null | md5sum)
		run 2 "disk and partition as outputs" of="$Q,${Q}2" mode=write bs=4096 count=1 --force
		expect "of= '${Q}2' is a partition of of= '$Q'" "partition of the disk (outputs)"
		run 2 "partition in, disk out" if="${Q}1" of="$Q" --force
		expect "of= '$Q' is the whole disk holding if= '${Q}1'" "disk holding the input partition"
		run 2 "disk in, partition out" if="$Q" of="${Q}1" --force
		expect "of= '${Q}1' is a partition of if= '$Q'" "partition of the input disk"
		[ "$(dd if="$Q" bs=1M count=8 iflag=direct 2>/dev/null | md5sum)" = "$sum" ] &&
			ok "refused runs left the disk unchanged" || bad "the disk changed"
		run 0 "one partition to the other" if="${Q}1" of="${Q}2" bs=64k --force
		expect "2097152 bytes (2.1 MB, 2.0 MiB) copied" "partitions are separate"
	else
		bad "no partitions ${Q}1 ${Q}2 after writing an MBR to $Q"
	fi
else
	bad "DIO_QEMU_SD is not set"
fi

# ------------------------------------------------------------ dio=1
allow_dio 0
run 0 "dio=1, allow_dio=0" if="$T" mode=read bs="$B" bpt=128 count=4096 dio=1 time=1
expect "direct I/O was asked (dio=1) but not done for 32 of them" "all 32 counted as not done"
expect "allow_dio is 0" "the reason names allow_dio"
allow_dio 1
run 0 "dio=1, allow_dio=1" if="$T" mode=read bs="$B" bpt=128 count=4096 dio=1 time=1
expect "but not done for 0 of them" "direct done for every command"
run 0 "dio=1 copy to scsi_debug" if="$T" of="$D" bs=512 bpt=64 count=2048 dio=1 --force time=1
expect "but not done for 0 of them" "direct copy: done"
blk "$TB" 0 2048 /tmp/f.bin
blk "$DB" 0 2048 /tmp/g.bin
cmp -s /tmp/f.bin /tmp/g.bin && ok "direct sg copy identical" || bad "direct sg copy differs"
allow_dio 0
run 0 "json" if="$T" mode=read bs="$B" bpt=64 count=1024 dio=1 --format json
expect '"sg": {"commands": 16, "direct_asked": true, "direct_not_done": 16, "reason":' "JSON sg object"
expect '"io": "sg-dio"' "JSON io sg-dio"
# bufoff=: sg buffers start aligned by default (pass-through maps an
# aligned buffer; a block device's SG_IO copies through a bounce buffer
# otherwise); an offset is taken without dio=1 and refused with it
expect '"buffer_offset": 0,' "JSON buffer_offset 0 for sg with dio=1"
run 0 "json, sg without dio" if="$T" mode=read bs="$B" bpt=64 count=64 --format json
expect '"buffer_offset": 0,' "JSON buffer_offset 0 for sg"
run 0 "json, iflag=sg on the block device" if="$TB" mode=read iflag=sg bs="$B" bpt=64 count=64 --format json
expect '"buffer_offset": 0,' "JSON buffer_offset 0 for SG_IO on a block device"
run 0 "bufoff=32, sg without dio" if="$T" mode=read bs="$B" bpt=64 count=64 bufoff=32 --format json
expect '"buffer_offset": 32,' "JSON buffer_offset 32 when asked for"
run 2 "bufoff=32 with dio=1" if="$T" mode=read bs="$B" bpt=64 count=64 bufoff=32 dio=1
expect "bufoff=32: direct transfers need buffers aligned to" "bufoff=32 refused with dio=1"

# ------------------------------------------------------------ sg outputs in use
# Swap on the scsi_debug disk: its sg node must not be written.
if mkswap "$DB" >/dev/null 2>&1 && swapon "$DB" 2>/dev/null; then
	blk "$DB" 0 16 /tmp/swap-before.bin
	run 1 "sg node of a disk in use as swap" of="$D" mode=write bs=512 count=8 --force
	expect "refusing to write to '$D': it is in use (its disk $DB: active swap" "swap on the disk refuses its sg node"
	blk "$DB" 0 16 /tmp/swap-after.bin
	cmp -s /tmp/swap-before.bin /tmp/swap-after.bin && ok "the swap area is unchanged" ||
		bad "the swap area was overwritten"
	swapoff "$DB"
else
	bad "cannot set up swap on $DB"
fi
# The disk of an sg output is held during the run: swapon meanwhile fails.
if mkswap "$TB" >/dev/null 2>&1; then
	dio-dd of="$T" mode=write bs="$B" bpt=8 seek=8192 count=4096 rate=512k --force >/tmp/held.out 2>&1 &
	ddpid=$!
	# under way: holding the disk $TB (claimed before the sg node is
	# opened to write), up to 60 s
	i=0
	until ls -l "/proc/$ddpid/fd" 2>/dev/null | grep -q -- "-> $TB\$" &&
	      ls -l "/proc/$ddpid/fd" 2>/dev/null | grep -q -- "-> $T\$"; do
		i=$((i + 1)); [ $i -lt 600 ] || { bad "dio-dd did not open $TB and $T"; break; }
		sleep 0.1
	done
	if swapon "$TB" 2>/tmp/swapon.err; then
		bad "swapon $TB succeeded while dio-dd wrote to $T"
		swapoff "$TB"
	else
		ok "swapon $TB during the run refused: $(head -n 1 /tmp/swapon.err)"
	fi
	wait $ddpid
	st=$?
	[ $st -eq 0 ] && grep -q "4096+0 records out" /tmp/held.out && ok "the held sg run finished" ||
		{ bad "the held sg run: exit $st"; sed 's/^/       /' /tmp/held.out; }
	swapon "$TB" 2>/dev/null && { ok "after the run $TB is free again"; swapoff "$TB"; } ||
		bad "$TB still held after the run"
else
	bad "mkswap $TB failed"
fi
# An sg node with no disk (scsi_debug with peripheral type 1, a tape).
sdbg=/sys/bus/pseudo/drivers/scsi_debug
if [ -w "$sdbg/add_host" ] && [ -w "$sdbg/ptype" ]; then
	old=$(ls /sys/class/scsi_generic)
	# (INQUIRY answers with the current ptype: keep it until the end.)
	echo 1 >"$sdbg/ptype" && echo 1 >"$sdbg/add_host"
	tape=
	i=0
	while [ -z "$tape" ] && [ $i -lt 600 ]; do   # 60 s
		for n in $(ls /sys/class/scsi_generic); do
			echo "$old" | grep -qx "$n" || tape=/dev/$n
		done
		[ -n "$tape" ] && [ -c "$tape" ] || { tape=; sleep 0.1; }
		i=$((i + 1))
	done
	if [ -n "$tape" ]; then
		ls "/sys/class/scsi_generic/${tape#/dev/}/device/block" >/dev/null 2>&1 &&
			bad "$tape has a disk: not the tape asked for"
		run 1 "sg node without a disk" of="$tape" mode=write bs=512 count=1 --force
		expect "the block device of this SCSI generic node cannot be determined" \
			"an sg node with no disk is not written"
	else
		bad "no sg node appeared for a scsi_debug tape"
	fi
	echo -1 >"$sdbg/add_host"
	echo 0 >"$sdbg/ptype"
else
	echo "note: $sdbg/add_host or ptype not writable: no disk-less sg node tested"
fi

echo "guest-dio-dd: $pass passed, $fail failed"
[ $fail -eq 0 ]
