/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * linux.h -- what the files of the Linux backend share.  Internal (dio__,
 * hidden in the shared library); os/os.h says which file serves which
 * part of the contract.
 */
#ifndef DIO_OS_LINUX_H
#define DIO_OS_LINUX_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* statx() with STATX_DIOALIGN: the DIOALIGN capability, the refusal of
 * direct I/O that it reports (linux-file.c) and the alignment
 * (linux-align.c). */
#if defined(HAVE_STATX) && HAVE_DECL_STATX && HAVE_DECL_STATX_DIOALIGN
# define DIO__HAVE_DIOALIGN 1
#else
# define DIO__HAVE_DIOALIGN 0
#endif

/* linux-devinfo.c: small files of sysfs and /proc. */

/*
 * For tests only (tests/fuzz/devinfo.c): a directory that stands for / in
 * every path of sysfs, /proc, /run/udev and /dev that the device facts and
 * the in-use checks read, so that a test can build the tree they read.
 * "" (the default) is the system's own.  Set before any call, never in a
 * program.
 */
extern const char *dio__linux_root;

/* The path that fmt (printf-style, an absolute path) names under
 * dio__linux_root, into buf (len bytes, truncated as snprintf() does):
 * buf. */
const char *dio__sys_path(char *buf, size_t len, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;

/* The first line of the file path, trailing white space removed: 0 or
 * -errno. */
int dio__read_line(const char *path, char *buf, size_t len);

/* The number in the file dir/attr (dio__parse_u64): 0 with *v set, or
 * -errno. */
int dio__read_u64(const char *dir, const char *attr, uint64_t *v);

/* The first entry of directory dir that does not start with a dot (the
 * only one, where sysfs has one): 1 with its name in buf, 0 if none. */
int dio__first_entry(const char *dir, char *buf, size_t len);

/* Does path exist (stat())? */
int dio__exists(const char *path);

/* *field = DIO_TRI_YES or NO as the number in dir/attr is non-zero or
 * zero; left alone when it cannot be read. */
void dio__set_tri(const char *dir, const char *attr, uint32_t *field);

/* "/dev/NAME" from the DEVNAME of the sysfs directory sysdir's uevent
 * into buf: 1 found, 0 not. */
int dio__devnode(const char *sysdir, char *buf, size_t len);

/* The block device of the file system whose device number is dev: dev
 * itself when sysfs has it, else the mount's source when that is a block
 * device (btrfs and others give files an anonymous device number): 1
 * with *bdev set, 0 when there is none. */
int dio__fs_blockdev(dev_t dev, dev_t *bdev);

#endif /* DIO_OS_LINUX_H */
