#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# claim-loop.sh -- dio_device_in_use() and dio_device_claim() on loop
# devices: a file or device that backs a loop device is in use; a claimed
# device cannot be mounted or claimed again until released.  Root only.
. "${top_srcdir:-.}/tests/lib.sh"

[ "$DIO_BACKEND" = linux ] || skip "exclusive claims and loop backing are Linux's"
need_root "claim-loop.sh"
need_cmd mkfs.ext4 e2fsprogs
work=$(mktemp -d "${TMPDIR:-/tmp}/dio-claim.XXXXXX") || hard "mktemp"
l0= l1=
cleanup() {
	umount "$work/mnt" 2>/dev/null
	[ -n "$l1" ] && losetup -d "$l1" 2>/dev/null
	[ -n "$l0" ] && losetup -d "$l0" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT INT TERM
truncate -s 32M "$work/img" && : > "$work/plain" && mkdir "$work/mnt" || hard "setup"
l0=$(losetup -f --show "$work/img") || skip "losetup failed"
mkfs.ext4 -q -F "$l0" >/dev/null 2>&1 || hard "mkfs.ext4"
l1=$(losetup -f --show "$l0") || skip "losetup of a loop device failed"
"$top_builddir/tests/check_claim" "$work/img" "$l0" "$l1" "$work/plain" "$work/mnt"
