#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# powercut-qemu.sh -- the TCMU RAM disk's volatile write cache and power
# cuts (tests/qemu/tcmu-ramdisk.c, tests/qemu/powercut.sh): boots the
# qemu test guest (tests/qemu/run-guest.sh) with the ext4 module and
# mkfs.ext4/e2fsck when the host has them, and runs
# tests/qemu/guest-powercut.sh there.  Skips (77) without the harness,
# qemu, a kernel or sg_raw.
#
# Environment: DIO_QEMU_RUN_GUEST (the harness's run-guest.sh), and the
# harness's own (DIO_QEMU_CACHE, DIO_QEMU_KERNEL_ENV, DIO_QEMU_TIMEOUT...).
. "${top_srcdir:-.}/tests/lib.sh"

run=${DIO_QEMU_RUN_GUEST:-$top_srcdir/tests/qemu/run-guest.sh}
[ -f "$run" ] || skip "no qemu harness at $run"
[ "$DIO_BACKEND" = linux ] || skip "the guest runs Linux: needs the linux backend"
command -v sg_raw >/dev/null 2>&1 || skip "no sg_raw on the host (sg3-utils)"
set --
for p in mkfs.ext4 e2fsck; do
	pp=$(PATH=$PATH:/sbin:/usr/sbin command -v "$p" 2>/dev/null) &&
		set -- "$@" -x "$pp:/bin/$p"
done
[ -f /etc/mke2fs.conf ] && set -- "$@" -f /etc/mke2fs.conf
sh "$run" -t "${DIO_QEMU_TIMEOUT:-900}" -M ext4,crc32c_generic \
	-f "$top_srcdir/tests/qemu/powercut.sh:/lib/powercut.sh" "$@" \
	-- "$top_srcdir/tests/qemu/guest-powercut.sh"
