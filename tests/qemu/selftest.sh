#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# selftest.sh -- self-test of the qemu SCSI harness: boots the guest once
# (run-guest.sh) and runs selftest-guest.sh there, which checks the three
# disks with Debian's sg3_utils (sg_inq, sg_readcap, sg_rbuf, sg_dd, ...),
# READ/WRITE BUFFER on the TCMU disk, direct I/O through sg, and the sense
# data of errors.  Prints the guest's report and the timings.
#
# Exit status: 0 pass, 1 a check failed, 77 skip (no qemu, busybox,
# sg3_utils or kernel: "SKIP: reason"), 99 the guest did not report.
# Environment: as run-guest.sh (DIO_QEMU_CACHE, DIO_QEMU_TIMEOUT, ...).
set -u

here=$(cd "$(dirname "$0")" && pwd)

for p in sg_inq sg_readcap sg_rbuf sg_dd sg_raw sg_vpd sg_modes sg_sync \
    sg_turs sg_requests sg_luns sg_write_buffer; do
	command -v "$p" >/dev/null 2>&1 ||
		{ echo "SKIP: no $p (apt-get install sg3-utils)"; exit 77; }
done

t0=$(date +%s)
sh "$here/run-guest.sh" "$@" -- "$here/selftest-guest.sh"
status=$?
t1=$(date +%s)
echo "selftest.sh: exit status $status, $((t1 - t0)) s in all"
exit "$status"
