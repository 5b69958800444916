#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# fs-loop.sh KIND -- the file system suite on a scratch loop device:
#   ext4      fresh ext4 on a 512-byte-sector loop device
#   ext4-journal  the same mounted data=journal: the kernel refuses direct
#             I/O there (statx STATX_DIOALIGN says 0) though fcntl(F_SETFL,
#             O_DIRECT) accepts it, so DIRECT_ON must fail
#   xfs       fresh xfs on a 4096-byte-sector loop device (offsets 4096)
#   ramfs     a ramfs mount, which refuses direct I/O
#   blockdev  the raw 4096-byte-sector loop device itself
# Needs root; skips (77) with the reason otherwise.
. "${top_srcdir:-.}/tests/lib.sh"
own_mounts "$@"

kind=${1:?usage: fs-loop.sh ext4|ext4-journal|xfs|ramfs|blockdev}
[ "$DIO_BACKEND" = linux ] || [ "$DIO_BACKEND" = posix ] ||
	skip "loop devices are set up the Linux way only"
[ "$(uname -s)" = Linux ] || skip "loop device scripts are Linux-only"
need_root "fs-loop.sh $kind"

work=$(mktemp -d "${TMPDIR:-/tmp}/dio-loop.XXXXXX") || hard "mktemp failed"
dev=
mnt=
cleanup() {
	[ -n "$mnt" ] && umount "$mnt" 2>/dev/null
	[ -n "$dev" ] && losetup -d "$dev" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT INT TERM

make_loop() {  # SECTOR_SIZE SIZE_MB
	truncate -s "${2}M" "$work/img" || hard "truncate failed"
	dev=$(losetup -f --show --sector-size "$1" "$work/img" 2>&1) ||
		skip "losetup failed: $dev"
}

direct=no
backend_has_direct && direct=yes
# What a refusal of direct I/O is called (dio_refusal_name()) where the
# kernel's own refusal is meant: the posix backend refuses all alike.
refusal() {
	if [ "$DIO_BACKEND" = posix ]; then echo posix-backend; else echo "$1"; fi
}
case $kind in
ext4)
	need_cmd mkfs.ext4 e2fsprogs
	make_loop 512 64
	mkfs.ext4 -q -F "$dev" >/dev/null 2>&1 || hard "mkfs.ext4 $dev failed"
	mnt=$work/mnt; mkdir "$mnt"
	mount "$dev" "$mnt" || hard "mount $dev failed"
	check_fs "$mnt" --direct $direct --align $([ $direct = yes ] && echo 512 || echo 0) \
		--fstype ext4 --mounted-dev "$dev"
	;;
ext4-journal)
	need_cmd mkfs.ext4 e2fsprogs
	make_loop 512 64
	mkfs.ext4 -q -F "$dev" >/dev/null 2>&1 || hard "mkfs.ext4 $dev failed"
	mnt=$work/mnt; mkdir "$mnt"
	mount -o data=journal "$dev" "$mnt" || skip "cannot mount ext4 with data=journal"
	check_fs "$mnt" --direct no --fstype ext4 --refusal "$(refusal statx-no-dio)"
	;;
xfs)
	need_cmd mkfs.xfs xfsprogs
	make_loop 4096 320
	mkfs.xfs -q -f "$dev" >/dev/null 2>&1 || hard "mkfs.xfs $dev failed"
	mnt=$work/mnt; mkdir "$mnt"
	mount "$dev" "$mnt" || skip "cannot mount xfs (kernel without xfs?)"
	check_fs "$mnt" --direct $direct --align $([ $direct = yes ] && echo 4096 || echo 0) \
		--fstype xfs --mounted-dev "$dev"
	;;
ramfs)
	mnt=$work/mnt; mkdir "$mnt"
	mount -t ramfs none "$mnt" || skip "cannot mount ramfs"
	check_fs "$mnt" --direct no --fstype ramfs --refusal "$(refusal setfl-einval)"
	;;
blockdev)
	make_loop 4096 16
	check_fs "$dev" --direct $direct --align $([ $direct = yes ] && echo 4096 || echo 0)
	;;
*) hard "unknown kind $kind" ;;
esac
