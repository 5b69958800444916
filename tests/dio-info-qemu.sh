#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# dio-info-qemu.sh -- dio-info on real kernel SCSI devices: boots the qemu
# test guest (tests/qemu/run-guest.sh) with the qemu disk, scsi_debug and
# the TCMU RAM disk and runs tests/qemu/guest-dio-info.sh there with a
# copy of dio-info; then checks every JSON report the guest printed with
# tests/dio-info-json.py (documented keys, advice exactly when its fact
# holds).  Skips (77) without the harness, qemu or a kernel.
#
# Environment: DIO_QEMU_RUN_GUEST (the harness's run-guest.sh), and the
# harness's own (DIO_QEMU_CACHE, DIO_QEMU_KERNEL_ENV, DIO_QEMU_TIMEOUT...).
. "${top_srcdir:-.}/tests/lib.sh"

run=${DIO_QEMU_RUN_GUEST:-$top_srcdir/tests/qemu/run-guest.sh}
[ -f "$run" ] || skip "no qemu harness at $run"
[ "$DIO_BACKEND" = linux ] || skip "the guest runs Linux: needs the linux backend"
info=$top_builddir/tests/qemu/dio-info-guest
[ -x "$info" ] || hard "$info is not built"

out=$(mktemp "${TMPDIR:-/tmp}/dio-info-qemu.XXXXXX") || hard "mktemp failed"
trap 'rm -f "$out" "$out.json"' EXIT
sh "$run" -t "${DIO_QEMU_TIMEOUT:-600}" -x "$info:/bin/dio-info" \
	-- "$top_srcdir/tests/qemu/guest-dio-info.sh" >"$out"
st=$?
# The reports are long: show the checks, not the JSON.
sed '/^BEGIN-JSON /,/^END-JSON$/d' "$out"
[ $st -eq 0 ] || exit $st

command -v python3 >/dev/null 2>&1 || { echo "SKIP - no python3: JSON reports not checked"; exit 0; }
n=0 bad=0
for name in $(sed -n 's/^BEGIN-JSON //p' "$out"); do
	sed -n "/^BEGIN-JSON $name\$/,/^END-JSON\$/p" "$out" | sed '1d;$d' >"$out.json"
	n=$((n + 1))
	if python3 "$top_srcdir/tests/dio-info-json.py" <"$out.json"; then
		echo "ok   - json $name: documented keys, advice exactly when its fact holds"
	else
		echo "FAIL - json $name"; bad=$((bad + 1))
	fi
done
[ $n -gt 0 ] || { echo "FAIL - the guest printed no JSON report"; exit 1; }
echo "dio-info-qemu: $n JSON reports checked, $bad failed"
[ $bad -eq 0 ]
