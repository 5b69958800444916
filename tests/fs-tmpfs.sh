#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# fs-tmpfs.sh -- the file system suite on tmpfs (/dev/shm), which accepts
# O_DIRECT since Linux 6.6 and refuses it before.
. "${top_srcdir:-.}/tests/lib.sh"

dir=${DIO_TMPFS_DIR:-/dev/shm}
[ -d "$dir" ] && [ -w "$dir" ] || skip "no writable $dir"
fstype=$(stat -f -c %T "$dir")
[ "$fstype" = tmpfs ] || skip "$dir is $fstype, not tmpfs"
direct=no
if backend_has_direct && [ "$DIO_BACKEND" = linux ] && [ "$(kernel_version)" -ge 6006 ]; then
	direct=yes
fi
# tmpfs pages are the file itself: residency says nothing about direct I/O.
check_fs "$dir" --direct $direct --pagecache no --fstype tmpfs
