#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# fs-builddir.sh -- the file system suite in the build directory (ext4 on
# the CI machine).
. "${top_srcdir:-.}/tests/lib.sh"

dir=$(cd "$top_builddir" && pwd)
fstype=$(stat -f -c %T "$dir" 2>/dev/null) || skip "stat -f unavailable"
direct=no
pagecache=yes
if backend_has_direct; then
	case $fstype in
	ext2/ext3|xfs|btrfs) direct=yes ;;
	tmpfs) [ "$(kernel_version)" -ge 6006 ] && direct=yes; pagecache=no ;;
	ramfs) direct=no ;;
	*) skip "build directory is on '$fstype': no known direct I/O expectation" ;;
	esac
fi
echo "build directory $dir is $fstype"
check_fs "$dir" --direct $direct --pagecache $pagecache
