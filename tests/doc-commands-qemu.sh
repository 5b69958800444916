#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# doc-commands-qemu.sh -- the documents' commands that name SCSI disks and
# loop devices (doc-commands.sh's 'guest' runner), run as printed in the
# qemu test guest (tests/qemu/guest-doc-commands.sh) with dio-rbuf,
# dio-dd and dio-info put there.  Skips (77) without the harness, qemu or a kernel.
# Environment: as tests/scsi-qemu.sh.
. "${top_srcdir:-.}/tests/lib.sh"

run=${DIO_QEMU_RUN_GUEST:-$top_srcdir/tests/qemu/run-guest.sh}
[ -f "$run" ] || skip "no qemu harness at $run"
[ "$DIO_BACKEND" = linux ] || skip "the guest runs Linux: needs the linux backend"
rbuf=$top_builddir/tests/qemu/dio-rbuf-guest
dd_bin=$top_builddir/tests/qemu/dio-dd-guest
info=$top_builddir/tests/qemu/dio-info-guest
for p in "$rbuf" "$dd_bin" "$info"; do
	[ -x "$p" ] || hard "$p is not built"
done
list=$(mktemp "${TMPDIR:-/tmp}/doc-guest.XXXXXX") || hard "mktemp"
trap 'rm -f "$list"' EXIT
sh "$top_srcdir/tests/doc-commands.sh" --list guest >"$list" || hard "doc-commands.sh --list failed"
[ -s "$list" ] || hard "the documents show no command for the guest"
sh "$run" -t "${DIO_QEMU_TIMEOUT:-900}" -B 1M -m 1536 -M loop \
	-x "$rbuf:/bin/dio-rbuf" -x "$dd_bin:/bin/dio-dd" -x "$info:/bin/dio-info" -f "$list:/etc/doc-commands.list" \
	-- "$top_srcdir/tests/qemu/guest-doc-commands.sh" /etc/doc-commands.list
