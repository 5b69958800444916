/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * config.h -- TEST DOUBLE (tests/illumos) for tests/check_sunos: found
 * before the build's config.h (-iquote), it includes that one, then says
 * what configure finds on illumos, and reroutes the illumos calls of the
 * backend (and the path and descriptor calls that must see the fake
 * device nodes) to tests/illumos/double.c with function-like macros, so
 * that struct stat and friends are untouched.  The double passes
 * whatever it has not scripted to the real call.
 */
#include_next "config.h"

#ifndef DIO_DBL_CONFIG_H
#define DIO_DBL_CONFIG_H

/* What configure finds on illumos (.ci/illumos-config.h). */
#undef DIO_BACKEND_NAME
#define DIO_BACKEND_NAME "sunos"
#undef HAVE_DIRECTIO
#define HAVE_DIRECTIO 1
#undef HAVE_DECL_DIRECTIO
#define HAVE_DECL_DIRECTIO 1
#undef HAVE_DECL_DIRECTIO_ON
#define HAVE_DECL_DIRECTIO_ON 1
#undef HAVE_SYS_DKIO_H
#define HAVE_SYS_DKIO_H 1
#undef HAVE_SYS_SCSI_IMPL_USCSI_H
#define HAVE_SYS_SCSI_IMPL_USCSI_H 1
#undef HAVE_LIBDISKMGT_H
#define HAVE_LIBDISKMGT_H 1
#undef HAVE_DM_INUSE
#define HAVE_DM_INUSE 1
#undef HAVE_ZONE_H
#define HAVE_ZONE_H 1
#undef HAVE_LIBURING
#undef DIO_HAVE_LIBURING

/* zfs(8) is a script the test writes. */
#define DIO__ZFS_PATH dio_dbl_zfs_path()

/* Every header that declares a rerouted call, before the macros. */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/ioctl.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/statvfs.h>
#include <sys/mnttab.h>
#include <sys/swap.h>
#include <libdiskmgt.h>
#include <dlfcn.h>
#include <zone.h>

#include "double.h"

/* illumos sys/fcntl.h: directio(3C) advice. */
#define DIRECTIO_OFF 0
#define DIRECTIO_ON 1

#define open(...) dio_dbl_open(__VA_ARGS__)
#define close(fd) dio_dbl_close(fd)
#define stat(p, b) dio_dbl_stat(p, b)
#define fstat(fd, b) dio_dbl_fstat(fd, b)
#define opendir(p) dio_dbl_opendir(p)
#define realpath(p, r) dio_dbl_realpath(p, r)
#define fopen(p, m) dio_dbl_fopen(p, m)
#define fclose(fp) dio_dbl_fclose(fp)
#define ioctl(...) dio_dbl_ioctl(__VA_ARGS__)
#define fstatvfs(fd, b) dio_dbl_fstatvfs(fd, b)
#define directio(fd, a) dio_dbl_directio(fd, a)
#define getextmntent(fp, m, l) dio_dbl_getextmntent(fp, m, l)
#define hasmntopt(m, o) dio_dbl_hasmntopt(m, o)
#define swapctl(c, a) dio_dbl_swapctl(c, a)
#define dm_inuse(n, m, w, e) dio_dbl_dm_inuse(n, m, (int)(w), e)
#define fsync(fd) dio_dbl_fsync(fd)
#define fdatasync(fd) dio_dbl_fdatasync(fd)
#define geteuid() dio_dbl_geteuid()
#define getzoneid() dio_dbl_getzoneid()
#define dlopen(n, m) dio_dbl_dlopen(n, m)
#define dlclose(h) dio_dbl_dlclose(h)

#endif
