#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# sync-write-devices.sh -- needs root: block devices and full or read-only
# file systems.
#  - a loop device is refused without --force, refused while mounted
#    with or without --force (as in use: --force is not advised), and
#    measured (and verified) with --force when free;
#  - a full file system (a 2 MiB tmpfs) stops the run with a message naming
#    writer, method and offset, keeps the partial results, exits 1, and
#    leaves nothing behind; preparing a too large region fails the same way;
#  - a read-only file system gives a specific error.
. "${top_srcdir:-.}/tests/lib.sh"
own_mounts "$@"

[ "$(uname -s)" = Linux ] || skip "loop devices and mounts are set up the Linux way"
need_root "sync-write-devices.sh"
need_cmd mkfs.ext4 e2fsprogs
SW=$tools/sync-write
work=$(mktemp -d "${TMPDIR:-/tmp}/sw-dev.XXXXXX") || hard "mktemp"
dev=
cleanup() {
	umount "$work/mnt" 2>/dev/null
	umount "$work/full" 2>/dev/null
	umount "$work/ro" 2>/dev/null
	[ -n "$dev" ] && losetup -d "$dev" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT INT TERM
fail=0

expect() { _w=$1 _p=$2; shift 2; expect_exit "$_w" "$_p" "$SW" -q "$@"; }

truncate -s 32M "$work/img"
dev=$(losetup -f --show "$work/img") || skip "losetup failed"
mkdir "$work/mnt" "$work/full" "$work/ro"

# Devices.  Without --force, a free device is told to pass it; where it
# cannot be told whether a device is free (posix), that is said first:
# --force would not help.
if [ "$DIO_BACKEND" = posix ]; then
	expect 1 "cannot tell whether it is in use" "$dev"
else
	expect 2 "is a device: its contents would be destroyed; pass --force" "$dev"
fi
mkfs.ext4 -q -F "$dev" >/dev/null 2>&1 || hard "mkfs.ext4"
mount "$dev" "$work/mnt" || hard "mount"
if [ "$DIO_BACKEND" = posix ]; then
	# No portable way to tell whether a device is mounted: always refused.
	expect 1 "cannot tell whether it is in use" --force "$dev"
	umount "$work/mnt"
	expect 1 "cannot tell whether it is in use" --force "$dev"
	dev_tests=no
else
	expect 1 "refusing to write to '$dev': it is in use (mounted on $work/mnt (ext4))" --force "$dev"
	expect 1 "refusing to write to '$dev': it is in use (mounted on $work/mnt (ext4))$" "$dev"
	umount "$work/mnt"
	dev_tests=yes
fi
if [ $dev_tests = yes ]; then
	expect 0 "^direct+dsync  *4096  *2  *100 " --force -m fdatasync,direct+dsync -s 4k,64k -w 2 -n 50 --verify "$dev"
	expect 0 "verify: 32 slots checked, 32 ok, 0 missing" --force -m direct+dsync -s 64k -w 2 -n 40 --region 1m --verify "$dev"
	expect 2 "do not fit on '$dev'" --force -w 4 --region 16m -s 4k "$dev"
	expect 2 "--extend needs a file" --force --extend -s 4k "$dev"
	# The image file behind the loop device is in use, --force or not.
	expect 1 "refusing to write to '$work/img': it is in use (backs the loop device $dev)" \
		--force -s 4k -n 1 "$work/img"
	expect 1 "refusing to write to '$work/img': it is in use (backs the loop device $dev)$" \
		-s 4k -n 1 "$work/img"
	# The device is held for the whole run: a mount meanwhile fails.
	# (-t 60s, stopped by SIGTERM once tried: a loaded machine may take
	# seconds to see the writer, and the run must still be on then)
	"$SW" -q --force -m fdatasync -s 4k -t 60s "$dev" >/dev/null 2>&1 &
	swpid=$!
	# under way: a writer process has written (the device is claimed before
	# the target is prepared and the writers start)
	has_writer() {
		for _p in $(children "$1"); do
			[ "$(io_bytes wchar "$_p")" -gt 0 ] && return 0
		done
		return 1
	}
	wait_for 60 "sync-write's writer process on $dev" has_writer $swpid ||
		{ echo "FAIL: sync-write on $dev did not start its writer"; fail=1; }
	# (the run overwrites the file system, so only "busy" proves the claim)
	if mount "$dev" "$work/mnt" 2>"$work/mount.err"; then
		umount "$work/mnt"; echo "FAIL: $dev could be mounted during the run"; fail=1
	elif grep -q 'busy\|in use' "$work/mount.err"; then
		echo "ok   mounting $dev during the run fails: $(head -n 1 "$work/mount.err")"
	else
		echo "FAIL: mount failed for another reason: $(cat "$work/mount.err")"; fail=1
	fi
	gone $swpid && { echo "FAIL: the run on $dev ended before it was stopped"; fail=1; }
	kill -TERM $swpid
	wait $swpid
	st=$?
	[ $st -eq 143 ] || { echo "FAIL: the run on $dev, stopped by SIGTERM: exit $st"; fail=1; }
	# A 4096-byte-sector device too small for the default regions: the
	# shrunk regions stay aligned for direct I/O (and 6 KiB is n/a).
	losetup -d "$dev"; dev=
	truncate -s 32M "$work/img4k"
	dev=$(losetup -f --show --sector-size 4096 "$work/img4k") || hard "losetup 4096"
	expect 0 "^direct  *4096  *4 " --force -w 4 -s 4k,6k -m direct -n 20 --verify "$dev"
	expect 0 "^direct  *6144  *4  n/a: 6 KiB is not a multiple of the direct I/O granularity" \
		--force -w 4 -s 4k,6k -m direct -n 20 "$dev"
fi

# A full file system: during the run, and while preparing the region.
mount -t tmpfs -o size=2m tmpfs "$work/full" || hard "mount tmpfs"
expect 1 "writer 0, method none, 65536-byte transaction [0-9]* at offset [0-9]*: .*no space left on device" \
	--extend -m none,fdatasync -s 64k -t 3s --region 8m --dir "$work/full"
expect 1 "^none  *65536  *1 " --extend -m none,fdatasync -s 64k -t 3s --region 8m --dir "$work/full"
expect 1 "error: writer 0" --extend -m none -s 64k -t 3s --region 8m --dir "$work/full"
[ -z "$(ls -A "$work/full")" ] || { echo "FAIL: files left on the full fs: $(ls -A "$work/full")"; fail=1; }
expect 1 "preparing .*(8388608 bytes): .*no space left on device" -m none -s 64k --region 8m --dir "$work/full"
[ -z "$(ls -A "$work/full")" ] || { echo "FAIL: files left after preparing: $(ls -A "$work/full")"; fail=1; }

# A read-only file system
mount -t tmpfs -o ro tmpfs "$work/ro" || hard "mount ro tmpfs"
expect 1 "cannot create a temporary file in '$work/ro': read-only file system" --dir "$work/ro"
expect 1 "cannot create '$work/ro/f': read-only file system" "$work/ro/f"
exit $fail
