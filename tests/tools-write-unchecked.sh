#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tools-write-unchecked.sh -- --write-unchecked DEVICE, the second option
# --force needs before dio-dd or sync-write writes a device whose in-use
# state cannot be told:
#  - usage errors (exit 2, saying what is wrong and what is allowed):
#    without --force, naming a file, a missing path, another device, twice;
#  - as root, a real "cannot tell": a loop device owned by nobody, mode
#    0200, written by nobody (setpriv): the in-use check's exclusive open
#    for reading is refused (EACCES), so dio_device_in_use() cannot tell.
#    --force alone: refused (exit 1), nothing written; --force
#    --write-unchecked naming it (by its path or by another node of the
#    same number): written, with a warning naming it and the reason;
#    sync-write (which needs to read as well) gets past the check with
#    the warning and fails at its open;
#  - a device in use (backing another loop device) is refused with the
#    options, by both tools, and nothing is written.
. "${top_srcdir:-.}/tests/lib.sh"

DD=$tools/dio-dd
SW=$tools/sync-write
LC_ALL=C
export LC_ALL
fail=0
ok() { printf 'ok   %s\n' "$*"; }
bad() { printf 'FAIL %s\n' "$*"; fail=1; }

# 1. Usage errors (any user).
work=$(mktemp -d "$top_builddir/write-unchecked.XXXXXX") || hard "mktemp"
work=$(cd "$work" && pwd)
L= L2=
cleanup() {
	[ -n "$L2" ] && losetup -d "$L2" 2>/dev/null
	[ -n "$L" ] && losetup -d "$L" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT INT TERM
: >"$work/file"
expect_exit 2 "write-unchecked '/dev/null' needs --force (or oflag=force)" \
	"$DD" if=/dev/zero of=/dev/null count=1 --write-unchecked=/dev/null
expect_exit 2 "write-unchecked '$work/file' is not a device: it is for an of= that is a block" \
	"$DD" if=/dev/zero of=/dev/null count=1 --force --write-unchecked="$work/file"
expect_exit 2 "write-unchecked '$work/none': no such file or directory (it names the of= device" \
	"$DD" if=/dev/zero of=/dev/null count=1 --force --write-unchecked="$work/none"
expect_exit 2 "write-unchecked '/dev/zero' is not the of= device: it names the of= device" \
	"$DD" if=/dev/zero of=/dev/null count=1 --force --write-unchecked=/dev/zero
expect_exit 2 "write-unchecked given twice" \
	"$DD" if=/dev/zero of=/dev/null count=1 --force --write-unchecked=/dev/null \
	--write-unchecked=/dev/null
expect_exit 2 "write-unchecked '/dev/null' needs --force: it only widens --force" \
	"$SW" --write-unchecked /dev/null "$work/t"
expect_exit 2 "write-unchecked '$work/file' is not a device: it is for a TARGET" \
	"$SW" --force --write-unchecked "$work/file" "$work/file"
expect_exit 2 "write-unchecked '/dev/zero' is not the TARGET device: it names the TARGET device" \
	"$SW" --force --write-unchecked /dev/zero "$work/t"
expect_exit 2 "write-unchecked '/dev/zero' names no output: no TARGET is given" \
	"$SW" --force --write-unchecked=/dev/zero
expect_exit 2 "compare shows saved results" \
	"$SW" --compare --write-unchecked /dev/zero a.json b.json

# 2. A real "cannot tell" (root: loop devices, setpriv to nobody), where
# the backend can tell otherwise (the posix backend never can).
if [ "$DIO_BACKEND" != linux ]; then
	echo "SKIP parts 2 and 3: the $DIO_BACKEND backend cannot tell for any device"
	exit $fail
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP part 2: needs root (loop devices, a node owned by nobody)"
	exit $fail
fi
command -v losetup >/dev/null 2>&1 || { echo "SKIP part 2: no losetup"; exit $fail; }
command -v setpriv >/dev/null 2>&1 || { echo "SKIP part 2: no setpriv"; exit $fail; }
id nobody >/dev/null 2>&1 || { echo "SKIP part 2: no user nobody"; exit $fail; }
chmod 755 "$work"
head -c 1048576 /dev/zero >"$work/img"
L=$(losetup -f --show "$work/img" 2>/dev/null) || { echo "SKIP part 2: losetup failed"; exit $fail; }
chown nobody "$L" && chmod 0200 "$L" || hard "chown/chmod $L"
nob() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
nob true 2>/dev/null || { echo "SKIP part 2: setpriv to nobody failed"; exit $fail; }
nob "$DD" --version >/dev/null 2>&1 ||
	{ echo "SKIP part 2: nobody cannot run the build tree's dio-dd"; exit $fail; }
head -c 8192 /dev/urandom >"$work/data"
chmod 644 "$work/data"
# (the device itself is read, not its backing file: what was written
# reaches the file only when the device's cache is written back, at its
# last close, which another process holding it open defers)
unchanged() { cmp -s -n 8192 "$L" /dev/zero; }

expect_exit 1 "refusing to write to '$L': cannot tell whether it is in use (Permission denied); to write it all the same, name it with --write-unchecked as well as --force" \
	nob "$DD" if="$work/data" of="$L" bs=4k --force
unchanged && ok "nothing written without --write-unchecked" || bad "$L written without --write-unchecked"
expect_exit 0 "warning: writing '$L' unchecked (--write-unchecked): whether it is in use cannot be told (Permission denied)" \
	nob "$DD" if="$work/data" of="$L" bs=4k --force --write-unchecked="$L"
cmp -s -n 8192 "$L" "$work/data" && ok "dio-dd wrote $L unchecked" ||
	bad "$L does not hold what dio-dd --write-unchecked wrote"
# Another node of the same device number names it too.
set -- $(stat -c '%t %T' "$L")
mknod "$work/alias" b "$((0x$1))" "$((0x$2))" || hard "mknod"
head -c 8192 /dev/urandom >"$work/data2"
chmod 644 "$work/data2"
expect_exit 0 "writing '$L' unchecked" \
	nob "$DD" if="$work/data2" of="$L" bs=4k oflag=force --write-unchecked="$work/alias"
cmp -s -n 8192 "$L" "$work/data2" && ok "named by another node: written" ||
	bad "named by another node: $L not written"
expect_exit 1 "refusing to write to '$L': cannot tell whether it is in use (permission denied); to write it all the same" \
	nob "$SW" --force -m none -s 4k -n 2 "$L"
expect_exit 1 "warning: writing '$L' unchecked (--write-unchecked): whether it is in use cannot be told (permission denied)" \
	nob "$SW" --force --write-unchecked "$L" -m none -s 4k -n 2 "$L"
expect_exit 1 "cannot open '$L' for writing: permission denied" \
	nob "$SW" --force --write-unchecked "$L" -m none -s 4k -n 2 "$L"

# 3. In use (it backs another loop device): never written.
chown root "$L" && chmod 0660 "$L"
dd if=/dev/zero of="$L" bs=8192 count=1 conv=notrunc 2>/dev/null
L2=$(losetup -f --show "$L" 2>/dev/null) || { echo "SKIP part 3: losetup on $L failed"; exit $fail; }
expect_exit 1 "refusing to write to '$L': it is in use (backs the loop device" \
	"$DD" if="$work/data" of="$L" bs=4k --force --write-unchecked="$L"
expect_exit 1 "refusing to write to '$L': it is in use (backs the loop device" \
	"$SW" --force --write-unchecked "$L" -m none -s 4k -n 2 "$L"
unchanged && ok "the device in use was not written" || bad "the device in use was written"
exit $fail
