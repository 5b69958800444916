#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# dio-dd-loop.sh -- needs root: dio-dd on loop devices (scratch images
# under the build directory), on a fresh ext4 and on a tmpfs:
#  - read, write and copy on 1 and 3 loop devices with 1 and 2 threads,
#    buffered, direct, no-copy and asynchronous (qd 8), copies verified
#    with cmp against the source device; reads say mode=read, pattern
#    writes mode=write; a device copied to standard output and from
#    standard input (dd's defaults);
#  - a device is refused without --force, a mounted one even with it,
#    and nothing is modified (checksum before and after); offsets past
#    2^63-1 refused as dd refuses them;
#  - direct I/O on ext4 and tmpfs files, with a bs below the granularity
#    refused with a message naming it;
#  - copies onto longer targets: an existing file is cut to the copy
#    (identical), a device keeps what lies beyond it;
#  - aliases refused: a device and a link to it, a loop device and its
#    image file, a disk and its partition (when the kernel reads the
#    partition table of a loop device); seek= beyond 2^63-1 bytes refused
#    without touching the device;
#  - a full tmpfs: the bytes reported by an asynchronous copy are the
#    bytes written, and the error names the write once; the buffered tail
#    of a direct asynchronous copy counts as a call;
#  - the image file of an attached loop device is in use: refused even
#    with --force; a device output is claimed for the whole run: mounting
#    it or writing it from another dio-dd meanwhile fails;
#  - doc/dio-dd.md's example (a direct copy between two loop devices,
#    time=1: the reads and the writes apart).
. "${top_srcdir:-.}/tests/lib.sh"
own_mounts "$@"

[ "$(uname -s)" = Linux ] || skip "loop devices and mounts are set up the Linux way"
need_root "dio-dd-loop.sh"
need_cmd losetup util-linux
DD=$tools/dio-dd
work=$(mktemp -d "$top_builddir/dd-loop.XXXXXX") || hard "mktemp"
work=$(cd "$work" && pwd)
devs=""
cleanup() {
	umount "$work/mnt" 2>/dev/null
	umount "$work/tmp" 2>/dev/null
	for d in $devs; do losetup -d "$d" 2>/dev/null; done
	rm -rf "$work"
}
trap cleanup EXIT INT TERM
fail=0 pass=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
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

# Six 16 MiB loop devices: L1..L3 sources (random data), L4..L6 targets.
i=1
while [ $i -le 6 ]; do
	if [ $i -le 3 ]; then
		head -c 16777216 /dev/urandom >"$work/img$i" || hard "image"
	else
		truncate -s 16M "$work/img$i"
	fi
	d=$(losetup -f --show "$work/img$i" 2>/dev/null) || skip "losetup failed (no loop devices here)"
	devs="$devs $d"
	eval "L$i=$d"
	i=$((i + 1))
done
S="$L1,$L2,$L3" T="$L4,$L5,$L6"
direct=yes
backend_has_direct || direct=no

# ------------------------------------------------------------ refusals
sum4=$(cksum <"$L4")
expect 2 "of= '$L4' is a device: its contents would be destroyed; pass --force" if="$L1" of="$L4"
if command -v mkfs.ext4 >/dev/null 2>&1; then
	# No lazy initialisation: a kernel thread writing inode tables
	# while mounted would change the checksum by itself.
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$L6" >/dev/null 2>&1 ||
		hard "mkfs.ext4"
	mkdir -p "$work/mnt"
	mount -o noinit_itable "$L6" "$work/mnt" || hard "mount"
	sync
	sum6=$(cksum <"$L6")
	if [ "$DIO_BACKEND" = posix ]; then
		expect 1 "cannot tell whether it is in use" of="$L6" mode=write bs=1M count=1 --force
	else
		expect 1 "refusing to write to '$L6': it is in use (mounted on $work/mnt (ext4))" \
			of="$L6" mode=write bs=1M count=1 --force
		expect 1 "it is in use" if="$L1" of="$L6" oflag=force,direct bs=1M
	fi
	sync
	[ "$(cksum <"$L6")" = "$sum6" ] && ok "mounted device unchanged (cksum)" ||
		bad "mounted device was modified"
else
	echo "note: no mkfs.ext4: mounted-device refusal not tested"
fi
[ "$(cksum <"$L4")" = "$sum4" ] && ok "refused device unchanged (cksum)" || bad "refused device was modified"

# ------------------------------------------------------------ ext4 and tmpfs files
if mountpoint -q "$work/mnt" 2>/dev/null; then
	head -c 2500000 /dev/urandom >"$work/mnt/src"
	if [ $direct = yes ]; then
		expect 0 "copied" if="$work/mnt/src" of="$work/mnt/dst" bs=4k bpt=16 iflag=direct oflag=direct
		cmp -s "$work/mnt/src" "$work/mnt/dst" && ok "ext4: direct copy identical" || bad "ext4: direct copy differs"
		expect 2 "bs=1000 is not a multiple of the direct I/O granularity of '$work/mnt/src'" \
			if="$work/mnt/src" mode=read bs=1000 iflag=direct
		expect 0 "records out" if="$work/mnt/src" of="$work/mnt/dst2" bs=64k qd=8 iflag=direct oflag=direct
		cmp -s "$work/mnt/src" "$work/mnt/dst2" && ok "ext4: direct aio copy identical" || bad "ext4: direct aio copy differs"
		# the last 1440 bytes go through a buffered descriptor: a call on
		# either engine (611 reads + 611 writes)
		for e in sync aio; do
			"$DD" if="$work/mnt/src" of="$work/mnt/dst-$e" bs=4k oflag=direct engine=$e \
				--format json >"$work/calls-$e.json" 2>&1 || bad "tail copy engine=$e failed"
			c=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['total']['calls'])" \
				"$work/calls-$e.json" 2>/dev/null)
			[ "$c" = 1222 ] && cmp -s "$work/mnt/src" "$work/mnt/dst-$e" &&
				ok "ext4: direct copy with a buffered tail, engine=$e: 1222 calls, identical" ||
				bad "ext4: direct copy with a buffered tail, engine=$e: calls '$c'"
			rm -f "$work/mnt/dst-$e"
		done
		rm -f "$work/mnt/dst" "$work/mnt/dst2"
	else
		expect 1 "refuses direct I/O" if="$work/mnt/src" mode=read bs=4k iflag=direct
	fi
	# a longer existing file is cut to the copy (dd truncates too)
	head -c 4000000 /dev/urandom >"$work/mnt/longer"
	expect 0 "2500000 bytes (2.5 MB, 2.4 MiB) copied" if="$work/mnt/src" of="$work/mnt/longer" bs=64k --force \
		$( [ $direct = yes ] && echo oflag=direct )
	cmp -s "$work/mnt/src" "$work/mnt/longer" && ok "ext4: copy onto a longer file identical" ||
		bad "ext4: copy onto a longer file: $(wc -c <"$work/mnt/longer") bytes, not the input"
	umount "$work/mnt"
fi
mkdir -p "$work/tmp"
if mount -t tmpfs -o size=64m tmpfs "$work/tmp" 2>/dev/null; then
	head -c 3000000 /dev/urandom >"$work/tmp/src"
	expect 0 "copied" if="$work/tmp/src" of="$work/tmp/dst" bs=64k thr=2
	cmp -s "$work/tmp/src" "$work/tmp/dst" && ok "tmpfs: copy identical" || bad "tmpfs: copy differs"
	if [ $direct = yes ]; then
		out=$("$DD" if="$work/tmp/src" of="$work/tmp/d2" bs=4k iflag=direct oflag=direct 2>&1)
		st=$?
		if [ $st -eq 0 ]; then
			cmp -s "$work/tmp/src" "$work/tmp/d2" && ok "tmpfs: direct copy identical" || bad "tmpfs: direct copy differs"
		elif echo "$out" | grep -q "refuses direct I/O"; then
			ok "tmpfs without O_DIRECT (kernel $(uname -r)): refused clearly: $out"
		else
			bad "tmpfs direct: exit $st: $out"
		fi
	fi
	umount "$work/tmp"
	# A full file system: copied bytes are the bytes written, whatever
	# the reads in flight did; the error names the write once.
	mount -t tmpfs -o size=1m tmpfs "$work/tmp" || hard "mount tmpfs"
	head -c 3000000 /dev/urandom >"$work/big"
	engines=$("$DD" --version | sed 's/.*aio engines://')
	for e in sync $engines; do
		good=yes
		for n in 1 2 3 4 5; do
			rm -f "$work/tmp/o"
			"$DD" if="$work/big" of="$work/tmp/o" engine=$e $( [ $e = sync ] || echo qd=64 ) \
				--format json >"$work/full.json" 2>"$work/full.err"
			st=$?
			python3 - "$work/full.json" <<'PY' || good="no (exit $st, run $n: $(head -c 300 "$work/full.json"))"
import json, sys
t = json.load(open(sys.argv[1]))["total"]
out = t["records_out"]["full"] * 512
assert t["status"] == "error" and t["bytes"] == out, (t["bytes"], out)
PY
			[ $st -eq 1 ] || good="no (exit $st)"
			grep -q "write of .*write of" "$work/full.err" && good="no: $(cat "$work/full.err")"
			[ "$good" = yes ] || break
		done
		[ "$good" = yes ] && ok "full tmpfs, engine=$e: bytes copied = bytes written (5 runs): $(head -n 1 "$work/full.err")" ||
			bad "full tmpfs, engine=$e: $good"
	done
	umount "$work/tmp"
else
	echo "note: cannot mount tmpfs: tmpfs case not run"
fi

# ------------------------------------------------------------ aliases
ln -s "$L4" "$work/l4link"
sum4=$(cksum <"$L4")
expect 2 "of= '$work/l4link' and of= '$L4' are the same device: an output must not be" \
	of="$L4,$work/l4link" mode=write bs=1M count=1 --force
expect 2 "of= '$work/l4link' and if= '$L4' are the same device" if="$L4" of="$work/l4link" --force
# seek past 2^63-1 bytes: it used to wrap to the start of the device
expect 1 "offset too large: cannot truncate to a length of seek=4503599627370496 (4096-byte) blocks" \
	if="$L1" of="$L4" bs=4096 seek=4503599627370496 --force
expect 1 "offset too large: cannot truncate to a length of seek=4503599627370496 (4096-byte) blocks" \
	of="$L4" mode=write bs=4096 seek=4503599627370496 --force
# (where the backend cannot tell whether a device is in use, that refusal
# comes first: the device is not opened for writing at all)
if [ "$DIO_BACKEND" = posix ]; then
	expect 1 "refusing to write to '$L4': cannot tell whether it is in use" \
		of="$L4" mode=write bs=4096 seek=4503599627370496 --force conv=notrunc
else
	expect 1 "cannot seek: Value too large for defined data type" \
		of="$L4" mode=write bs=4096 seek=4503599627370496 --force conv=notrunc
fi
[ "$(cksum <"$L4")" = "$sum4" ] && ok "aliased and overflowing runs left $L4 unchanged" ||
	bad "$L4 was modified"


# ------------------------------------------------------------ devices
if [ $direct = yes ]; then dflag=direct; else dflag=; fi
run_copy() {  # DESCRIPTION ARGS...
	desc=$1; shift
	expect 0 "50331648 bytes (50 MB, 48 MiB) copied" if="$S" of="$T" --force "$@"
	n=1 good=yes
	for s in $L1 $L2 $L3; do
		eval "t=\$L$((n + 3))"
		cmp -s "$s" "$t" || good=no
		n=$((n + 1))
	done
	[ $good = yes ] && ok "$desc: 3 copies identical" || bad "$desc: a copy differs"
	for t in $L4 $L5 $L6; do
		"$DD" of="$t" mode=write bs=1M --force >/dev/null 2>&1  # overwrite with the pattern
	done
}
expect 0 "16777216 bytes (17 MB, 16 MiB) copied" if="$L1" mode=read bs=1M
expect 0 "50331648 bytes (50 MB, 48 MiB) copied" if="$S" mode=read bs=64k thr=2
if [ "$DIO_BACKEND" = linux ]; then
	expect 0 "50331648 bytes (50 MB, 48 MiB) copied" if="$S" mode=read bs=64k iflag=nocopy
else
	expect 1 "not supported" if="$S" mode=read bs=64k iflag=nocopy
fi
# dd's defaults on a device: to standard output, from standard input
"$DD" if="$L1" bs=64k 2>"$work/so.err" </dev/null | cmp -s - "$L1" &&
	grep -qx "256+0 records out" "$work/so.err" &&
	ok "if=$L1 bs=64k to standard output: the device's bytes (cmp), 256+0 records out" ||
	bad "if=$L1 to standard output: $(cat "$work/so.err")"
if [ "$DIO_BACKEND" = posix ]; then
	# No portable way to tell whether a device is in use: never written.
	expect 1 "cannot tell whether it is in use" if="$S" of="$T" --force bs=1M
	echo "$pass passed, $fail failed"
	[ $fail -eq 0 ]
	exit
fi
# a loop device and its image file are the same data
sum4=$(cksum <"$work/img4")
expect 2 "if= '$work/img4' is the image file of the loop device of= '$L4'" if="$work/img4" of="$L4" --force
expect 2 "of= '$work/img1' is the image file of the loop device if= '$L1'" if="$L1" of="$work/img1" --force
[ "$(cksum <"$work/img4")" = "$sum4" ] && ok "image file unchanged" || bad "image file was modified"
# the image file of a loop device in use is refused, --force or not
sum5=$(cksum <"$work/img5")
expect 1 "refusing to write to '$work/img5': it is in use (backs the loop device $L5)" \
	of="$work/img5" mode=write bs=4k count=1 --force
expect 1 "it is in use (backs the loop device $L5)" if="$L1" of="$work/img5" bs=1M count=1 --force
[ "$(cksum <"$work/img5")" = "$sum5" ] && ok "image file of $L5 unchanged" || bad "image file of $L5 was modified"
# A device output is held for the whole run: a mount or another writer
# meanwhile fails (the check alone could be raced).
if command -v mkfs.ext4 >/dev/null 2>&1; then
	mkfs.ext4 -q -F "$L4" >/dev/null 2>&1 || hard "mkfs.ext4 $L4"
	"$DD" of="$L4" mode=write bs=64k seek=64 count=64 rate=1M --force >"$work/held.out" 2>&1 &
	ddpid=$!
	# under way: its first block written (it claims the device before)
	wrote_block() { [ "$(io_bytes wchar "$1")" -ge 65536 ]; }
	wait_for 60 "dio-dd to write its first block to $L4" wrote_block $ddpid ||
		bad "dio-dd did not start writing to $L4"
	if mount "$L4" "$work/mnt" 2>"$work/mount.err"; then
		bad "$L4 could be mounted while dio-dd wrote to it"
		umount "$work/mnt"
	else
		ok "mount of $L4 during the run refused: $(head -n 1 "$work/mount.err")"
	fi
	expect 1 "refusing to write to '$L4': it is in use" of="$L4" mode=write bs=64k count=1 --force
	wait $ddpid
	st=$?
	[ $st -eq 0 ] && grep -q "64+0 records out" "$work/held.out" &&
		ok "the held run finished: $(grep 'records out' "$work/held.out")" ||
		bad "the held run: exit $st: $(cat "$work/held.out")"
	mount "$L4" "$work/mnt" 2>/dev/null && ok "after the run $L4 can be mounted again" ||
		bad "$L4 still held after the run"
	umount "$work/mnt" 2>/dev/null
fi
# a disk and its partitions, where the kernel reads an MBR on a loop device
le32() { v=$1; printf "\\$(printf %03o $((v & 255)))\\$(printf %03o $(((v >> 8) & 255)))\\$(printf %03o $(((v >> 16) & 255)))\\$(printf %03o $(((v >> 24) & 255)))"; }
part() {  # IMAGE ENTRY START SECTORS: an MBR entry of type 83h
	{ printf '\000\377\377\377\203\377\377\377'; le32 "$3"; le32 "$4"; } |
		dd of="$1" bs=1 seek=$((446 + 16 * $2)) conv=notrunc 2>/dev/null
}
truncate -s 8M "$work/pimg"
part "$work/pimg" 0 2048 4096
part "$work/pimg" 1 6144 8192
printf '\125\252' | dd of="$work/pimg" bs=1 seek=510 conv=notrunc 2>/dev/null
P=$(losetup -f --show -P "$work/pimg" 2>/dev/null) && devs="$devs $P"
if [ -n "$P" ] && [ -b "${P}p1" ] && [ -b "${P}p2" ]; then
	sump=$(cksum <"$P")
	expect 2 "of= '${P}p2' is a partition of of= '$P'" of="$P,${P}p2" mode=write bs=4k count=1 --force
	expect 2 "of= '$P' is the whole disk holding if= '${P}p1'" if="${P}p1" of="$P" --force
	expect 2 "is the whole disk holding" if="$P" of="${P}p1" --force
	[ "$(cksum <"$P")" = "$sump" ] && ok "disk and partitions unchanged" || bad "partitioned device was modified"
	expect 0 "2097152 bytes (2.1 MB, 2.0 MiB) copied" if="${P}p1" of="${P}p2" --force bs=64k
else
	echo "note: no partitions on a loop device here (kernel $(uname -r) reads no MBR?): the guest test covers disks and partitions"
fi
run_copy "buffered, 1 thread" bs=1M
run_copy "buffered, 2 threads, bs=4k bpt=16" bs=4k bpt=16 thr=2
if [ -n "$dflag" ]; then
	expect 0 "50331648 bytes (50 MB, 48 MiB) copied" if="$S" mode=read bs=1M iflag=direct
	expect 0 "50331648 bytes (50 MB, 48 MiB) copied" if="$S" mode=read bs=1M iflag=direct qd=8
	run_copy "direct, 2 threads" bs=256k thr=2 iflag=direct oflag=direct
	run_copy "direct, aio qd=8" bs=128k qd=8 iflag=direct oflag=direct
	expect 2 "bs=256 is not a multiple of the direct I/O granularity of '$L1'" if="$L1" mode=read bs=256 iflag=direct
fi
# writes: the pattern lands at seek, the device keeps its size
expect 0 "4+0 records out" of="$L4" mode=write bs=1M seek=2 count=4 --force
stamp=$(dd if="$L4" bs=512 skip=$((2 * 2048 + 8)) count=1 2>/dev/null | head -c 23)
[ "$stamp" = "dio-dd 0000000000201000" ] && ok "write at seek=2 (1 MiB blocks) stamped '$stamp'" ||
	bad "write stamp: '$stamp'"
expect 2 "has room for 4 blocks of 1048576 after seek=12, not 5" of="$L4" mode=write bs=1M seek=12 count=5 --force
# a process per device: both devices written, stamped, and free afterwards
expect 0 "8+0 records out" of="$L4,$L5" mode=write bs=1M seek=1 count=4 --force --processes
s4=$(dd if="$L4" bs=512 skip=$((2048 + 8)) count=1 2>/dev/null | head -c 23)
s5=$(dd if="$L5" bs=512 skip=$((4 * 2048 + 2040)) count=1 2>/dev/null | head -c 23)
[ "$s4" = "dio-dd 0000000000101000" ] && [ "$s5" = "dio-dd 00000000004ff000" ] &&
	ok "--processes: both devices stamped ('$s4', '$s5')" || bad "--processes stamps: '$s4', '$s5'"
expect 0 "8+0 records out" of="$L4,$L5" mode=write bs=1M count=4 --force --processes
expect 0 "16+0 records out" of="$L4" mode=write bs=1M --force $( [ -n "$dflag" ] && echo oflag=direct )
head -c 1000000 /dev/urandom >"$work/si"
"$DD" of="$L4" bs=64k --force <"$work/si" >"$work/si.out" 2>"$work/si.err"
st=$?
dd if="$L4" bs=1000000 count=1 2>/dev/null | cmp -s - "$work/si" &&
	[ $st -eq 0 ] && grep -qx "15+1 records out" "$work/si.err" &&
	ok "of=$L4 bs=64k <file: the file at the device's start (cmp), 15+1 records out" ||
	bad "of=$L4 <file: exit $st: $(cat "$work/si.err")"
# skip/seek/count on devices, compared with dd
expect 0 "100+0 records out" if="$L1" of="$L5" bs=4k skip=10 seek=20 count=100 --force
dd if="$L1" bs=4096 skip=10 count=100 2>/dev/null >"$work/a"
dd if="$L5" bs=4096 skip=20 count=100 2>/dev/null >"$work/b"
cmp -s "$work/a" "$work/b" && ok "skip=10 seek=20 count=100 on devices as dd" || bad "skip/seek on devices"
# a copy onto a longer device writes its start and leaves the rest
head -c 4194304 /dev/urandom >"$work/img7"
L7=$(losetup -f --show "$work/img7") || hard "losetup"
devs="$devs $L7"
"$DD" of="$L5" mode=write bs=1M --force >/dev/null 2>&1
tail5=$(dd if="$L5" bs=1M skip=4 2>/dev/null | cksum)
expect 0 "4194304 bytes (4.2 MB, 4.0 MiB) copied" if="$L7" of="$L5" bs=64k --force
dd if="$L5" bs=1M count=4 2>/dev/null | cmp -s - "$work/img7" &&
	[ "$(dd if="$L5" bs=1M skip=4 2>/dev/null | cksum)" = "$tail5" ] &&
	ok "4 MiB onto a 16 MiB device: the copy at the start, the rest unchanged" ||
	bad "4 MiB onto a 16 MiB device: wrong"
# per-device and total agree
"$DD" if="$S" mode=read bs=256k thr=2 --format json >"$work/j" &&
	python3 -c "
import json,sys; d=json.load(open('$work/j'))
assert len(d['devices']) == 3 and sum(x['bytes'] for x in d['devices']) == d['total']['bytes'] == 3 * 16777216
" && ok "3 devices: bytes add up in JSON" || bad "3 devices JSON"

# doc/dio-dd.md's example, as printed but for the devices' names: a direct
# copy of one loop device to another with time=1, its reads and writes
# each in a latency row and a histogram of their own.
if [ -n "$dflag" ]; then
	"$DD" if="$L1" of="$L4" bs=1M iflag=direct oflag=direct --force time=1 \
		>"$work/doc.out" 2>"$work/doc.err" </dev/null
	st=$?
	if [ $st -eq 0 ] && cmp -s "$L1" "$L4" && grep -qx '16+0 records out' "$work/doc.err" &&
	   grep -q "^$L1->$L4 *read  *16  *16777216 " "$work/doc.out" &&
	   grep -q "^$L1->$L4 *write  *16  *16777216 " "$work/doc.out" &&
	   grep -qx 'latency histogram, reads (16 calls):' "$work/doc.out" &&
	   grep -qx 'latency histogram, writes (16 calls):' "$work/doc.out"; then
		ok "doc/dio-dd.md's example: a direct copy, reads and writes apart"
	else
		bad "doc/dio-dd.md's example: exit $st"
		sed 's/^/    /' "$work/doc.err" "$work/doc.out"
	fi
fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
