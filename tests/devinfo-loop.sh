#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# devinfo-loop.sh -- dio_devinfo() on real loop devices: one with 512-byte
# sectors (16 MiB, a 10 MiB partition, buffered), one with 4096-byte
# sectors (32 MiB, direct I/O to its backing file, ext4 mounted), checked
# by tests/check_devinfo against sysfs.  Needs root and the linux backend;
# skips (77) with the reason otherwise.
. "${top_srcdir:-.}/tests/lib.sh"
own_mounts "$@"

[ "$DIO_BACKEND" = linux ] || skip "device facts are read the Linux way only"
[ "$(uname -s)" = Linux ] || skip "loop devices are Linux-only"
need_root devinfo-loop.sh
need_cmd losetup util-linux
need_cmd mkfs.ext4 e2fsprogs

work=$(mktemp -d "${TMPDIR:-/tmp}/dio-devinfo.XXXXXX") || hard "mktemp failed"
d512= d4k= mnt=
cleanup() {
	[ -n "$mnt" ] && umount "$mnt" 2>/dev/null
	[ -n "$d4k" ] && losetup -d "$d4k" 2>/dev/null
	[ -n "$d512" ] && losetup -d "$d512" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 99' INT TERM

# A DOS partition table with one Linux partition: sectors 2048..22527.
# le32 N: N as 4 little-endian bytes in printf octal escapes.
le32() {
	printf '\\%03o\\%03o\\%03o\\%03o' $(($1 & 255)) $(($1 >> 8 & 255)) \
		$(($1 >> 16 & 255)) $(($1 >> 24 & 255))
}
truncate -s 16M "$work/img512" || hard "truncate failed"
# shellcheck disable=SC2059 # the format is built from escapes
printf "\\000\\040\\041\\000\\203\\376\\377\\377$(le32 2048)$(le32 20480)" |
	dd of="$work/img512" bs=1 seek=446 conv=notrunc 2>/dev/null || hard "dd failed"
printf '\125\252' | dd of="$work/img512" bs=1 seek=510 conv=notrunc 2>/dev/null ||
	hard "dd failed"
d512=$(losetup -f --show -P "$work/img512" 2>&1) || skip "losetup failed: $d512"
# Kernels without the msdos partition parser: partx adds it with BLKPG.
# The kernel's scan ends before losetup does (its sysfs entry is there);
# the device node follows, from devtmpfs.
part=
if { [ -e "/sys/class/block/${d512#/dev/}p1" ] ||
     { command -v partx >/dev/null 2>&1 && partx -a "$d512" 2>/dev/null; }; } &&
   wait_for 60 "the partition ${d512}p1" test -b "${d512}p1"; then
	part=${d512}p1
else
	echo "devinfo-loop: no partition on $d512: the partition check is left out"
fi

truncate -s 32M "$work/img4k" || hard "truncate failed"
d4k=$(losetup -f --show --sector-size 4096 --direct-io=on "$work/img4k" 2>&1) ||
	skip "losetup --sector-size 4096 --direct-io=on failed: $d4k"
[ "$(cat "/sys/block/${d4k#/dev/}/loop/dio")" = 1 ] ||
	skip "the backing file system refuses direct I/O for $d4k"
mkfs.ext4 -q -F "$d4k" >/dev/null 2>&1 || hard "mkfs.ext4 $d4k failed"
mnt=$work/mnt
mkdir "$mnt" && mount "$d4k" "$mnt" || hard "mount $d4k failed"

echo "devinfo-loop: $d512 (partition ${part:-none}), $d4k on $mnt"
"$top_builddir/tests/check_devinfo" --dev512 "$d512" --img512 "$work/img512" \
	${part:+--part "$part"} --dev4k "$d4k" --img4k "$work/img4k" --mnt "$mnt"
