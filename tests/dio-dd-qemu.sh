#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# dio-dd-qemu.sh -- dio-dd's sg mode on real kernel SCSI devices: boots the
# qemu test guest (tests/qemu/run-guest.sh) and runs
# tests/qemu/guest-dio-dd.sh there with a copy of dio-dd built -no-install
# (tests/qemu/dio-dd-guest).  Skips (77) without the harness, qemu or a
# kernel.  Environment: as tests/scsi-qemu.sh.
. "${top_srcdir:-.}/tests/lib.sh"

run=${DIO_QEMU_RUN_GUEST:-$top_srcdir/tests/qemu/run-guest.sh}
[ -f "$run" ] || skip "no qemu harness at $run"
[ "$DIO_BACKEND" = linux ] || skip "the guest runs Linux: needs the linux backend"
dd_bin=$top_builddir/tests/qemu/dio-dd-guest
[ -x "$dd_bin" ] || hard "$dd_bin is not built"
sh "$run" -t "${DIO_QEMU_TIMEOUT:-900}" -x "$dd_bin:/bin/dio-dd" \
	-- "$top_srcdir/tests/qemu/guest-dio-dd.sh"
