/*
 * os.h -- the contract between the portable library (lib/) and one OS
 * backend (os/linux.c, os/sunos.c, os/posix.c).  Each backend implements
 * every function here; Makefile.am compiles exactly one of them.  lib/
 * holds no OS #ifdef: anything that differs by OS goes through this file.
 *
 * All functions take plain descriptors and return >= 0 or -errno.
 */
#ifndef DIO_OS_H
#define DIO_OS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/stat.h>

#include "libdirectio.h"

/* dio_cap bits this backend provides (compile-time facts). */
unsigned dio__os_caps(void);

/*
 * Turn direct I/O on or off for fd.  Returns the dio_mech now in effect,
 * -ENOTSUP when the file system or platform refuses direct I/O (state is
 * unchanged), or another -errno.
 */
int dio__os_set_direct(int fd, int on);

/* Direct I/O state of fd as a dio_mech, or -ENOTSUP if it cannot be read. */
int dio__os_get_direct(int fd);

/*
 * One write of len bytes at off that completes with a data sync of the
 * bytes written (Linux pwritev2 RWF_DSYNC).  Returns the bytes written
 * (possibly short) or -errno; -ENOTSUP if not available (nothing written).
 */
int64_t dio__os_pwrite_dsync(int fd, const void *buf, size_t len, int64_t off);

/*
 * Fill the alignment facts for fd, whose fstat() result is st.  *a is
 * zeroed by the caller; preferred_io is preset from st_blksize.
 */
int dio__os_align(int fd, const struct stat *st, struct dio_align *a);

/*
 * Whether the device path (whose stat() result is st, a block or character
 * device) is in use; see dio_device_in_use().  why/len as there.
 */
int dio__os_device_in_use(const char *path, const struct stat *st, char *why,
                          size_t len);

/* File system type name of fd (st is its fstat()); see dio_fs_type(). */
int dio__os_fs_type(int fd, const struct stat *st, char *buf, size_t len);

#endif /* DIO_OS_H */
