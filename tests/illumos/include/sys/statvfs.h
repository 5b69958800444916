/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sys/statvfs.h -- TEST DOUBLE (tests/illumos): illumos' struct statvfs,
 * which has f_basetype (the file system type name), as in illumos-gate
 * usr/src/uts/common/sys/statvfs.h (367731f), written anew.  It replaces
 * glibc's header for the programs built against the double, and
 * fstatvfs() is answered by tests/illumos/double.c (config.h reroutes it).
 */
#ifndef DIO_DBL_SYS_STATVFS_H
#define DIO_DBL_SYS_STATVFS_H

#include <sys/types.h>

#define _FSTYPSZ 16
#define FSTYPSZ _FSTYPSZ

typedef struct statvfs {
	unsigned long f_bsize;
	unsigned long f_frsize;
	fsblkcnt_t f_blocks;
	fsblkcnt_t f_bfree;
	fsblkcnt_t f_bavail;
	fsfilcnt_t f_files;
	fsfilcnt_t f_ffree;
	fsfilcnt_t f_favail;
	unsigned long f_fsid;
	char f_basetype[_FSTYPSZ];      /* "ufs", "zfs", "nfs", "tmpfs"... */
	unsigned long f_flag;
	unsigned long f_namemax;
	char f_fstr[32];
} statvfs_t;

int fstatvfs(int fd, struct statvfs *buf);

#endif
