#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# sync-write-devcount-qemu.sh -- sync-write's per-point device counts (the
# block layer's writes, bytes and flushes) against what a real kernel's
# SCSI disk received: boots the qemu test guest with the TCMU RAM disk
# counting and logging every WRITE, WRITE with FUA and SYNCHRONIZE CACHE
# it executes (tests/qemu/tcmu-ramdisk.c -C) and runs
# tests/qemu/guest-sync-write-devcount.sh there (the kernel's accounting
# of known workloads; sync-write's points on the raw disk and ext4; the
# hints on a disk whose flushes are dropped or whose cache is hidden).
# Skips (77) without the harness, qemu or a kernel, and when sync-write
# has no device counts.
#
# Environment: DIO_DEVCOUNT_COUNT (transactions per writer and point,
# default 24) and the harness's own (DIO_QEMU_CACHE, DIO_QEMU_TIMEOUT...).
. "${top_srcdir:-.}/tests/lib.sh"

run=${DIO_QEMU_RUN_GUEST:-$top_srcdir/tests/qemu/run-guest.sh}
[ -f "$run" ] || skip "no qemu harness at $run"
[ "$DIO_BACKEND" = linux ] || skip "the guest runs Linux: needs the linux backend"
sw=$top_builddir/tests/qemu/sync-write-guest
[ -x "$sw" ] || hard "$sw is not built"
count=${DIO_DEVCOUNT_COUNT:-24}
case $count in ''|0|*[!0-9]*) hard "DIO_DEVCOUNT_COUNT takes a count of 1 or more, not '$count'" ;; esac
set -- -x "$sw:/bin/sync-write"
# the static copy starts faster under TCG (see Makefile.am)
sws=$top_builddir/tests/qemu/sync-write-static
[ -x "$sws" ] && set -- "$@" -x "$sws:/bin/sync-write-static"
# GNU dd for the known workloads (busybox's dd has no oflag=dsync)
gdd=$(command -v dd) || skip "no dd on the host"
"$gdd" --version 2>/dev/null | grep -q coreutils || skip "the host's dd is not GNU dd"
set -- "$@" -x "$gdd:/bin/gnu-dd"
pp=$(PATH=$PATH:/sbin:/usr/sbin command -v mkfs.ext4 2>/dev/null) ||
	skip "no mkfs.ext4 on the host (e2fsprogs)"
set -- "$@" -x "$pp:/bin/mkfs.ext4"
[ -f /etc/mke2fs.conf ] && set -- "$@" -f /etc/mke2fs.conf
sh "$run" -t "${DIO_QEMU_TIMEOUT:-900}" -M ext4,crc32c_generic \
	-R "-C /run/tcmu-count.log" "$@" \
	-- "$top_srcdir/tests/qemu/guest-sync-write-devcount.sh" "$count"
