#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# scsi-qemu.sh -- the SCSI pass-through and dio-rbuf on real kernel SCSI
# devices: boots the qemu test guest (tests/qemu/run-guest.sh) with the
# qemu disk, scsi_debug and the TCMU RAM disk, and runs
# tests/qemu/guest-scsi.sh there with tests/qemu/guest-scsi-check and a
# copy of dio-rbuf.  Skips (77) without the harness, qemu or a kernel.
#
# Environment: DIO_QEMU_RUN_GUEST (the harness's run-guest.sh), and the
# harness's own (DIO_QEMU_CACHE, DIO_QEMU_KERNEL_ENV, DIO_QEMU_TIMEOUT...).
. "${top_srcdir:-.}/tests/lib.sh"

run=${DIO_QEMU_RUN_GUEST:-$top_srcdir/tests/qemu/run-guest.sh}
[ -f "$run" ] || skip "no qemu harness at $run"
[ "$DIO_BACKEND" = linux ] || skip "the guest runs Linux: needs the linux backend"
check=$top_builddir/tests/qemu/guest-scsi-check
rbuf=$top_builddir/tests/qemu/dio-rbuf-guest
for p in "$check" "$rbuf"; do
	[ -x "$p" ] || hard "$p is not built"
done
sh "$run" -t "${DIO_QEMU_TIMEOUT:-900}" \
	-x "$check:/bin/guest-scsi-check" -x "$rbuf:/bin/dio-rbuf" \
	-- "$top_srcdir/tests/qemu/guest-scsi.sh"
