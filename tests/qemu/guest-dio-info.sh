#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# guest-dio-info.sh -- dio-info on real kernel SCSI devices inside the qemu
# test guest; run by tests/dio-info-qemu.sh through tests/qemu/run-guest.sh
# with /bin/dio-info put there by it.
#
# The TCMU RAM disk (INQUIRY "LIBDIO" "TCMU RAMDISK", serial
# "dio-tcmu-ramdisk", caching page WCE=1), QEMU's scsi-hd (serial
# "dio-qemu-disk") and scsi_debug, through their sd and sg nodes: the
# INQUIRY identity, serial number, capacity and WCE, the sg node of each
# disk and the disk of each sg node, allow_dio 0 and then 1 with the advice
# changing, a kernel view of the cache that disagrees with the device, and
# advice commands that, run as printed, make their advice go away.
#
# Prints "ok"/"FAIL" per check and a count; exit 0 if none failed.  JSON
# reports are also printed between "BEGIN-JSON NAME" and "END-JSON" lines
# for the host to check with tests/dio-info-json.py.

pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   - $*"; }
bad() { fail=$((fail + 1)); echo "FAIL - $*"; }
allow_dio() { echo "$1" >/sys/module/sg/parameters/allow_dio; }

# info DESC ARGS...: dio-info exits 0; its output is left in /tmp/info.out.
info() {
	i_what=$1
	shift
	dio-info "$@" >/tmp/info.out 2>/tmp/info.err
	st=$?
	cat /tmp/info.err >>/tmp/info.out
	if [ "$st" -eq 0 ]; then ok "dio-info $*: exit 0 ($i_what)"; return 0; fi
	bad "dio-info $*: exit $st ($i_what)"
	sed 's/^/       /' /tmp/info.out | head -n 40
	return 1
}
# expect STRING DESC / expect_not STRING DESC: in /tmp/info.out or not.
expect() {
	if grep -F -q -e "$1" /tmp/info.out; then ok "$2"; else
		bad "$2: no '$1' in:"; sed 's/^/       /' /tmp/info.out | head -n 80; fi
}
expect_not() {
	if grep -F -q -e "$1" /tmp/info.out; then
		bad "$2: '$1' is there"; grep -F -e "$1" /tmp/info.out | head -n 3
	else ok "$2"; fi
}
# json NAME ARGS...: dio-info -f json, kept in /tmp/info.out and printed
# for the host's checker.
json() {
	j_name=$1
	shift
	info "json $j_name" -f json "$@" || return 1
	echo "BEGIN-JSON $j_name"
	cat /tmp/info.out
	echo "END-JSON"
}

echo "guest-dio-info: kernel $(uname -r)"
for v in DIO_QEMU_SG DIO_QEMU_SD DIO_DEBUG_SG DIO_DEBUG_SD DIO_TCMU_SG DIO_TCMU_SD; do
	eval "d=\${$v:-}"
	[ -n "$d" ] || { echo "FAIL - $v is not set"; exit 1; }
done
T=$DIO_TCMU_SD TG=$DIO_TCMU_SG Q=$DIO_QEMU_SD QG=$DIO_QEMU_SG D=$DIO_DEBUG_SD DG=$DIO_DEBUG_SG
tn=${T#/dev/} dn=${D#/dev/} qn=${Q#/dev/}
blocks=$((DIO_TCMU_SIZE / DIO_TCMU_BLOCK))
allow_dio 0

# ------------------------------------------------------------ TCMU RAM disk
info "TCMU sd" "$T"
expect "vendor               LIBDIO" "TCMU: INQUIRY vendor"
expect "product              TCMU RAMDISK" "TCMU: INQUIRY product"
expect "revision             0001" "TCMU: INQUIRY revision"
expect "peripheral type      0 (disk)" "TCMU: peripheral type"
expect "unit serial number   dio-tcmu-ramdisk" "TCMU: VPD 80h serial"
expect "capacity             $blocks blocks of $DIO_TCMU_BLOCK bytes" "TCMU: READ CAPACITY"
expect "WCE                  1 (write cache enabled)" "TCMU: WCE=1 from the caching page"
expect "RCD                  0" "TCMU: RCD=0"
expect "sg node              $TG" "TCMU: the sg node of $T"
expect "SCSI address         $DIO_TCMU_HCTL" "TCMU: SCSI address"
expect "settings in          /sys/block/$tn/queue" "TCMU: settings directory"
expect "allow_dio            0 (direct I/O requests done indirectly)" "allow_dio 0 shown"
expect "* allow-dio: allow_dio is 0: sg commands on $TG" "allow-dio advice"
expect "now         echo 1 > /sys/module/sg/parameters/allow_dio" "how to allow it now"
expect "options sg allow_dio=1" "how to allow it persistently (sg is a module here)"
expect "* write-cache:" "write-cache advice"
expect "WCE=1 in the caching mode page" "the advice names WCE=1"
expect "sdparm --clear=WCE $T" "how to turn the cache off"
json tcmu-sd "$T"
expect '"vendor": "LIBDIO"' "json: vendor"
expect '"product": "TCMU RAMDISK"' "json: product"
expect '"serial": "dio-tcmu-ramdisk"' "json: serial"
expect '"wce": true' "json: wce"
expect '"node": "'"$TG"'"' "json: sg node"
expect '"allow_dio": false' "json: allow_dio false"
expect '"module": true' "json: sg is a module"
expect '"scsi_address": "'"$DIO_TCMU_HCTL"'"' "json: scsi address"

info "TCMU sg" "$TG"
expect "$TG: character device" "sg node is a character device"
expect "block device         $T" "the disk of $TG is $T"
expect "vendor               LIBDIO" "INQUIRY through the sg node"
expect "not applicable: an sg node moves data by SCSI command" "no O_DIRECT question on sg"
expect_not "* sg-node:" "no sg-node advice for the sg node itself"
json tcmu-sg "$TG"
expect '"kind": "sg device"' "json: an sg device"
expect '"path": "'"$T"'"' "json: its disk"
expect '"version_string": "3.' "json: sg driver version 3.x"

# allow_dio 1: the advice changes.
allow_dio 1
info "TCMU sd, allow_dio 1" "$T"
expect "allow_dio            1 (direct I/O allowed)" "allow_dio 1 shown"
expect_not "* allow-dio:" "no allow-dio advice with allow_dio 1"
expect "* sg-direct: allow_dio is 1: sg direct I/O on $TG" "sg-direct note instead"
json tcmu-sd-allow "$T"
expect '"allow_dio": true' "json: allow_dio true"
allow_dio 0

# The kernel told the cache is write through while the device says WCE=1
# ("temporary" changes only the kernel's view, nothing is sent).
ct=/sys/class/scsi_disk/$DIO_TCMU_HCTL/cache_type
if [ -w "$ct" ] && echo "temporary write through" >"$ct" 2>/dev/null; then
	info "TCMU sd, kernel view write through" "$T"
	expect "write_cache          write through" "the kernel's view: write through"
	expect "* write-cache-mismatch:" "mismatch advice"
	json tcmu-mismatch "$T"
	echo "temporary write back" >"$ct"
	info "TCMU sd, kernel view write back again" "$T"
	expect_not "* write-cache-mismatch:" "no mismatch advice once they agree"
else
	bad "cannot set $ct"
fi

# ------------------------------------------------------------ QEMU scsi-hd
info "QEMU sd" "$Q"
expect "vendor               QEMU" "QEMU: vendor"
expect "product              QEMU HARDDISK" "QEMU: product"
expect "unit serial number   dio-qemu-disk" "QEMU: serial from -device scsi-hd,serial="
expect "sg node              $QG" "QEMU: the sg node of $Q"
expect "WCE                  1" "QEMU: WCE"
json qemu-sd "$Q"
json qemu-sg "$QG"
# A rotational disk with little read-ahead: the advised command works.
echo 1 >"/sys/block/$qn/queue/rotational"
echo 128 >"/sys/block/$qn/queue/read_ahead_kb"
info "QEMU sd, read_ahead_kb 128" "$Q"
expect "* read-ahead: $qn is rotational and read_ahead_kb is 128 KiB" "read-ahead advice"
cmd=$(sed -n 's/^      now         \(echo [0-9]* > .*read_ahead_kb\)$/\1/p' /tmp/info.out)
if [ -n "$cmd" ] && sh -c "$cmd"; then
	info "QEMU sd after '$cmd'" "$Q"
	expect_not "* read-ahead:" "the read-ahead advice is gone after running it"
else
	bad "no runnable read-ahead command"
fi
echo 128 >"/sys/block/$qn/queue/read_ahead_kb"

# ------------------------------------------------------------ scsi_debug
info "scsi_debug sd" "$D"
expect "vendor               Linux" "scsi_debug: vendor"
expect "product              scsi_debug" "scsi_debug: product"
expect "sg node              $DG" "scsi_debug: the sg node of $D"
json debug-sd "$D"
json debug-sg "$DG"
# max_sectors_kb: lower it, follow the advice, and it is gone.
old=$(cat "/sys/block/$dn/queue/max_sectors_kb")
echo 64 >"/sys/block/$dn/queue/max_sectors_kb"
info "scsi_debug sd, max_sectors_kb 64" "$D"
expect "* max-sectors: requests to $dn are capped at max_sectors_kb = 64 KiB" "max-sectors advice"
expect "ATTR{queue/max_sectors_kb}=" "the udev rule"
expect "SUBSYSTEM==\"block\", ENV{DEVTYPE}==\"disk\", ATTRS{wwid}==" "the rule matches the wwid"
cmd=$(sed -n 's/^      now         \(echo [0-9]* > .*max_sectors_kb\)$/\1/p' /tmp/info.out)
json debug-max-sectors "$D"
if [ -n "$cmd" ] && sh -c "$cmd"; then
	info "scsi_debug sd after '$cmd'" "$D"
	expect_not "* max-sectors:" "the max-sectors advice is gone after running it"
else
	bad "no runnable max_sectors_kb command"
fi
echo "$old" >"/sys/block/$dn/queue/max_sectors_kb"

# A file on a file system on the scsi_debug disk: the disk under it.  The
# guest loads no file system module, so this runs only with a kernel that
# has ext2 (or ext4) built in (DIO_QEMU_KERNEL_ENV).
if ! grep -q -w -e ext2 -e ext4 /proc/filesystems; then
	echo "SKIP - no ext2/ext4 in the guest kernel (a module it does not load):" \
		"no file on a file system on $D"
elif command -v mke2fs >/dev/null 2>&1 && mke2fs -q "$D" >/dev/null 2>&1 &&
    mkdir -p /mnt/d && mount -t ext2 "$D" /mnt/d; then
	echo data >/mnt/d/file
	info "a file on $D" /mnt/d/file
	expect "block device         $D" "the file's block device"
	expect "in use               mounted on /mnt/d" "the disk is in use"
	expect "sg node              $DG" "and its sg node"
	expect "vendor               Linux" "INQUIRY of the disk under the file"
	json file-on-debug /mnt/d/file
	umount /mnt/d
else
	bad "mke2fs or mount of $D failed"
fi

echo "guest-dio-info: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
