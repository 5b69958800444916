#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# selftest-guest.sh -- the harness self-test, run inside the guest by
# selftest.sh through run-guest.sh.  Uses Debian's sg3_utils programs,
# sg-dio-probe and busybox.  Prints "ok"/"FAIL" per check, then
# "N passed, N failed"; exits 0 if none failed, else 1.

pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   - $*"; }
bad() { fail=$((fail + 1)); echo "FAIL - $*"; }
info() { echo "info - $*"; }
# check DESCRIPTION COMMAND...: passes when the command succeeds
check() {
	d=$1; shift
	if "$@" >/tmp/check.out 2>&1; then ok "$d"; else
		bad "$d"; sed 's/^/       /' /tmp/check.out | head -n 20; fi
}
# sense TEXT STATUS SG_RAW-ARGS...: sg_raw exits with STATUS, says TEXT
sense() {  # TEXT EXIT sg_raw ARGS...
	text=$1 want=$2; shift 2
	sg_raw "$@" >/tmp/sense.out 2>&1
	st=$?
	grep -i 'sense' /tmp/sense.out | sed 's/^/       /'
	[ "$st" -eq "$want" ] && has /tmp/sense.out "$text"
}
# has FILE PATTERN: the file has a line matching the pattern
has() { grep -q -- "$2" "$1"; }
up() { cut -d' ' -f1 /proc/uptime; }

t_start=$(up)
echo "selftest-guest: started at $t_start s uptime, kernel $(uname -r)"

# ----------------------------------------------------------- inventory
for v in DIO_QEMU_SG DIO_DEBUG_SG DIO_TCMU_SG; do
	eval "d=\${$v:-}"
	if [ -n "$d" ] && [ -c "$d" ]; then ok "$v=$d is a character device"
	else bad "$v='$d' is not a character device"; fi
done
for v in DIO_QEMU_SD DIO_DEBUG_SD DIO_TCMU_SD; do
	eval "d=\${$v:-}"
	if [ -n "$d" ] && [ -b "$d" ]; then ok "$v=$d is a block device"
	else bad "$v='$d' is not a block device"; fi
done
if [ -f "${DIO_DEVICES:-}" ] &&
    has "$DIO_DEVICES" "^DIO_TCMU_SG=$DIO_TCMU_SG\$"; then
	ok "inventory file $DIO_DEVICES"
else
	bad "inventory file ${DIO_DEVICES:-?}"
fi

T=$DIO_TCMU_SG
TSD=$DIO_TCMU_SD
tlog=$DIO_TCMU_LOG
mark() { echo "=== selftest: $*" >>"$tlog"; }

# ----------------------------------------------------------- sg_inq
inq() {  # DEV VENDOR PRODUCT
	sg_inq "$1" >/tmp/inq.out 2>&1 || return 1
	has /tmp/inq.out "Vendor identification: $2" &&
		has /tmp/inq.out "Product identification: $3"
}
check "sg_inq $DIO_QEMU_SG: QEMU HARDDISK" inq "$DIO_QEMU_SG" QEMU "QEMU HARDDISK"
check "sg_inq $DIO_DEBUG_SG: Linux scsi_debug" inq "$DIO_DEBUG_SG" Linux scsi_debug
check "sg_inq $T: LIBDIO TCMU RAMDISK" inq "$T" LIBDIO "TCMU RAMDISK"
check "sg_inq VPD 0x80 (serial) on TCMU" sh -c \
	"sg_vpd -p sn $T | grep -q 'Unit serial number: dio-tcmu-ramdisk'"
check "sg_inq VPD 0x83 (device id) on TCMU" sh -c \
	"sg_vpd -p di $T | grep -q 'T10 vendor identification'"
check "VPD 0x00 lists 0x00 0x80 0x83" sh -c \
	"sg_vpd -p sv $T | grep -qi 'Unit serial number' &&
	 sg_vpd -p sv $T | grep -qi 'Device identification'"

# ----------------------------------------------------------- sg_readcap
cap() {  # DEV BLOCKS BLOCKSIZE
	sg_readcap "$1" >/tmp/cap.out 2>&1 || return 1
	has /tmp/cap.out "Number of logical blocks=$2\$" &&
		has /tmp/cap.out "Logical block length=$3 bytes"
}
check "sg_readcap $DIO_QEMU_SG: 131072 x 512" cap "$DIO_QEMU_SG" 131072 512
check "sg_readcap $DIO_DEBUG_SG: 32768 x 512" cap "$DIO_DEBUG_SG" 32768 512
tblocks=$((DIO_TCMU_SIZE / DIO_TCMU_BLOCK))
check "sg_readcap $T: $tblocks x $DIO_TCMU_BLOCK" cap "$T" "$tblocks" "$DIO_TCMU_BLOCK"
check "sg_readcap --16 $T" sh -c "sg_readcap --16 $T | grep -q 'Number of logical blocks=$tblocks\$'"

# ----------------------------------------------------------- caching
sdn=${TSD#/dev/}
check "TCMU disk cache_type is write back (WCE=1, RCD=0)" sh -c \
	"grep -qx 'write back' /sys/block/$sdn/device/scsi_disk/*/cache_type"
check "TCMU disk supports FUA (DPOFUA=1)" sh -c \
	"grep -qx 1 /sys/block/$sdn/device/scsi_disk/*/FUA"
check "MODE SENSE(10) caching page: WCE set" sh -c \
	"sg_modes -p 8 $T | grep -q '^ 00     08 12 04'"
check "MODE SENSE(6) caching page: WCE set" sh -c \
	"sg_modes -6 -p 8 $T | grep -q '^ 00     08 12 04'"

# ----------------------------------------------------------- sg_rbuf
buf=$DIO_TCMU_BUFCAP
echo 0 >/sys/module/sg/parameters/allow_dio 2>/dev/null
# rbuf WANT-DIO-MSG MIB OPTIONS...: read MIB MiB (sg_rbuf's default:
# 200) in buffer-sized pieces; the default once, the variants 16 MiB (the
# same commands, fewer of them: each 200 MiB costs seconds under TCG)
rbuf() {
	want=$1 mib=$2; shift 2
	[ "$mib" = 200 ] || set -- -s "${mib}m" "$@"
	t0=$(up)
	sg_rbuf "$@" "$T" >/tmp/rbuf.out 2>&1 || return 1
	t1=$(up)
	sed 's/^/       /' /tmp/rbuf.out
	echo "       ($(awk "BEGIN { print $t1 - $t0 }") s)"
	has /tmp/rbuf.out "buffer capacity=$buf, offset boundary=0" &&
	has /tmp/rbuf.out "Read $mib MiB (actual: $((mib * 1048576)) bytes), buffer size=" &&
	case $want in
	dio-not-done) has /tmp/rbuf.out "direct IO requested but not done" ;;
	*) ! has /tmp/rbuf.out "not done" ;;
	esac
}
check "sg_rbuf $T (default)" rbuf - 200
check "sg_rbuf -q $T (quick: no copy to user space)" rbuf - 16 -q
check "sg_rbuf -d $T with allow_dio=0: direct IO not done" rbuf dio-not-done 16 -d
check "sg_rbuf -t $T (timed)" rbuf - 16 -t

# ----------------------------------------------------------- direct I/O
p=/sys/module/sg/parameters/allow_dio
check "sg has $p" test -f "$p"
check "writing 1 to allow_dio sticks" sh -c "echo 1 > $p && grep -qx 1 $p"
check "sg_rbuf -d $T with allow_dio=1: direct IO done" rbuf - 16 -d
for d in "$T" "$DIO_DEBUG_SG" "$DIO_QEMU_SG"; do
	check "SG_FLAG_DIRECT_IO READ(10) 64 KiB on $d: SG_INFO_DIRECT_IO" \
		sh -c "sg-dio-probe -r $d | tee /dev/stderr | grep -q direct=yes"
done
check "SG_FLAG_DIRECT_IO READ BUFFER 64 KiB on $T: SG_INFO_DIRECT_IO" \
	sh -c "sg-dio-probe -b $T | tee /dev/stderr | grep -q direct=yes"
echo 0 >"$p"
check "with allow_dio=0 the same READ(10) is indirect" \
	sh -c "sg-dio-probe -r $T | tee /dev/stderr | grep -q direct=no"

# ----------------------------------------------------------- READ BUFFER fails elsewhere
notsupp() {  # DEV
	sg_rbuf "$1" >/tmp/nb.out 2>&1
	st=$?
	sed 's/^/       /' /tmp/nb.out
	[ "$st" -eq 9 ] && has /tmp/nb.out "Illegal Request" &&
		has /tmp/nb.out "Invalid command operation code"
}
check "sg_rbuf $DIO_DEBUG_SG (scsi_debug): ILLEGAL REQUEST, invalid opcode" \
	notsupp "$DIO_DEBUG_SG"
check "sg_rbuf $DIO_QEMU_SG (qemu scsi-hd): ILLEGAL REQUEST, invalid opcode" \
	notsupp "$DIO_QEMU_SG"

# ----------------------------------------------------------- data through the TCMU disk
mark data
dd if=/dev/urandom of=/tmp/pat bs=65536 count=16 2>/dev/null
check "O_DIRECT write of 1 MiB at 1 MiB to $TSD" \
	dd if=/tmp/pat of="$TSD" bs=65536 seek=16 oflag=direct
echo 3 >/proc/sys/vm/drop_caches
check "O_DIRECT read back, same data" sh -c \
	"dd if=$TSD of=/tmp/back bs=65536 skip=16 count=16 iflag=direct &&
	 cmp /tmp/pat /tmp/back"
check "read back through sg ($T) with sg_dd, same data" sh -c \
	"sg_dd if=$T of=/tmp/back2 bs=512 skip=2048 count=2048 &&
	 cmp /tmp/pat /tmp/back2"
check "buffered write + fsync, drop caches, read back" sh -c \
	"dd if=/tmp/pat of=$TSD bs=4096 seek=1024 conv=fsync &&
	 echo 3 > /proc/sys/vm/drop_caches &&
	 dd if=$TSD of=/tmp/back3 bs=4096 skip=1024 count=256 && cmp /tmp/pat /tmp/back3"
check "the last block is readable, the one after is not" sh -c \
	"dd if=$TSD of=/dev/null bs=$DIO_TCMU_BLOCK skip=$((tblocks - 1)) count=1 iflag=direct &&
	 ! sg_dd if=$T of=/dev/null bs=$DIO_TCMU_BLOCK skip=$tblocks count=1"
mark fua
check "WRITE(10) with FUA through sg_dd oflag=fua" \
	sg_dd if=/dev/zero of="$T" bs=512 count=8 oflag=fua
check "the FUA bit reached the handler (cdb 2a 08)" has "$tlog" "cdb 2a 08 "
check "SYNCHRONIZE CACHE(10)" sg_sync "$T"
check "SYNCHRONIZE CACHE(16)" sg_sync --16 "$T"

# ----------------------------------------------------------- READ/WRITE BUFFER
mark buffer
dd if=/dev/urandom of=/tmp/bpat bs="$buf" count=1 2>/dev/null
check "WRITE BUFFER mode 02h ($buf bytes)" \
	sg_write_buffer -m data -l "$buf" -I /tmp/bpat "$T"
hex3() { printf '%02x %02x %02x' $(($1 >> 16 & 255)) $(($1 >> 8 & 255)) $(($1 & 255)); }
check "READ BUFFER mode 02h returns it" sh -c \
	"sg_raw -r $buf -o /tmp/bback $T 3c 02 00 00 00 00 $(hex3 "$buf") 00 &&
	 cmp /tmp/bpat /tmp/bback"
dd if=/dev/urandom of=/tmp/bpat2 bs=512 count=1 2>/dev/null
check "WRITE BUFFER mode 02h at offset 4096" \
	sg_write_buffer -m data -o 4096 -l 512 -I /tmp/bpat2 "$T"
check "READ BUFFER mode 02h at offset 4096 returns it" sh -c \
	"sg_raw -r 512 -o /tmp/bback2 $T 3c 02 00 00 10 00 00 02 00 00 &&
	 cmp /tmp/bpat2 /tmp/bback2"
check "READ BUFFER mode 03h: capacity $buf, offset boundary 0" sh -c \
	"sg_raw -r 4 $T 3c 03 00 00 00 00 00 00 04 00 2>&1 |
	 grep -q ' 00     00 $(hex3 "$buf")'"
# shellcheck disable=SC2046 # hex3 prints three words
check "WRITE BUFFER past the capacity: INVALID FIELD IN CDB" \
	sense "Invalid field in cdb" 5 -s 512 -i /tmp/bpat2 "$T" \
	3b 02 00 $(hex3 $((buf - 256))) 00 02 00 00
printf 'libdirectio echo test' >/tmp/echo
check "READ BUFFER mode 0Bh: echo buffer capacity 252" sh -c \
	"sg_raw -r 4 $T 3c 0b 00 00 00 00 00 00 04 00 2>&1 | grep -q ' 00     00 00 00 fc'"
check "WRITE BUFFER mode 0Ah (echo), 21 bytes" \
	sg_write_buffer -m echo -l 21 -I /tmp/echo "$T"
check "READ BUFFER mode 0Ah returns the same 21 bytes" sh -c \
	"sg_raw -r 21 -o /tmp/eback $T 3c 0a 00 00 00 00 00 00 15 00 &&
	 cmp /tmp/echo /tmp/eback"
check "sg_rbuf -e (echo buffer mode)" sh -c \
	"sg_rbuf -e -s 1m $T | grep -q 'echo buffer capacity=252'"

# ----------------------------------------------------------- errors and sense
mark errors
check "unknown opcode (FORMAT UNIT): 20h/00h" \
	sense "Invalid command operation code" 9 "$T" 04 00 00 00 00 00
check "MODE SELECT(6) is rejected" \
	sense "Invalid command operation code" 9 -s 12 -i /dev/zero "$T" 15 10 00 00 0c 00
# shellcheck disable=SC2046 # four bytes of the LBA, as four words
check "READ(10) past the end: 21h/00h" \
	sense "Logical block address out of range" 22 -r 512 "$T" \
	28 00 $(printf '%02x %02x %02x %02x' $((tblocks >> 24 & 255)) \
	$((tblocks >> 16 & 255)) $((tblocks >> 8 & 255)) $((tblocks & 255))) 00 00 01 00
check "READ BUFFER mode 1Ch: 24h/00h with field pointer" \
	sense "Invalid field in cdb" 5 -r 64 "$T" 3c 1c 00 00 00 00 00 00 40 00
check "INQUIRY of an unknown VPD page: 24h/00h" \
	sense "Invalid field in cdb" 5 -r 64 "$T" 12 01 b0 00 40 00
check "TEST UNIT READY" sg_turs "$T"
check "REQUEST SENSE: no sense" sh -c "sg_requests $T 2>&1 | grep -q 'No Sense'"
check "REPORT LUNS: LUN 0" sh -c "sg_luns $T | grep -q '0000000000000000'"

# ----------------------------------------------------------- what the kernel keeps
if has "$tlog" "cdb a0 "; then
	info "REPORT LUNS reached tcmu-ramdisk"
else
	info "REPORT LUNS was answered by the kernel (not in the handler log)"
fi
info "opcodes the handler saw: $(sed -n 's/^cmd [0-9]* cdb \([0-9a-f][0-9a-f]\).*/\1/p' \
	"$tlog" | sort | uniq -c | awk '{ printf "%s x%s ", $2, $1 }')"

t_end=$(up)
echo "selftest-guest: done at $t_end s uptime ($(awk "BEGIN { print $t_end - $t_start }") s of checks)"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
