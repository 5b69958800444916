/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * illumos-config.h -- the config.h that ./configure produces on an illumos
 * (x86_64-pc-solaris2.11) host with gcc, as far as the syntax check of
 * .ci/illumos-check needs it.  Kept by hand: update it when configure.ac
 * gains a probe that the backend or portable code tests.
 */
#define PACKAGE_VERSION "0.2.90"
#define DIO_BACKEND_NAME "sunos"
/* AC_USE_SYSTEM_EXTENSIONS */
#define __EXTENSIONS__ 1
#define _ALL_SOURCE 1
#define _POSIX_PTHREAD_SEMANTICS 1
#define _TANDEM_SOURCE 1
#define _HPUX_ALT_XOPEN_SOCKET_API 1
#define _NETBSD_SOURCE 1
#define _OPENBSD_SOURCE 1
#define _DARWIN_C_SOURCE 1
/* AC_SYS_LARGEFILE on a 64-bit build adds nothing; on i386 it would add: */
#if !defined(__x86_64__) && !defined(__amd64__)
# define _FILE_OFFSET_BITS 64
#endif
/* sys/fcntl.h declares O_DIRECT (0x2000000) outside _STRICT_SYMBOLS. */
#define HAVE_DECL_O_DIRECT 1
#define HAVE_DECL_O_DSYNC 1
#define HAVE_DECL_O_SYNC 1
#define HAVE_DECL_O_RSYNC 1
#define HAVE_DECL_FDATASYNC 1
#define HAVE_FDATASYNC 1
#define HAVE_DECL_POSIX_FALLOCATE 1
#define HAVE_POSIX_FALLOCATE 1
#define HAVE_DECL_DIRECTIO 1
#define HAVE_DIRECTIO 1
#define HAVE_DECL_DIRECTIO_ON 1
#define HAVE_DECL_STATX 0
#define HAVE_DECL_STATX_DIOALIGN 0
#define HAVE_DECL_STATX_DIO_READ_ALIGN 0
#define HAVE_DECL_RWF_DSYNC 0
#define HAVE_DECL_RWF_SYNC 0
#define HAVE_MINCORE 1
#define HAVE_SYS_SCSI_IMPL_USCSI_H 1
#define HAVE_SYS_DKIO_H 1
#define HAVE_SYS_STATVFS_H 1
/* dio-dd: POSIX AIO is in illumos libc (aio.h); no liburing there. */
#define HAVE_AIO_H 1
#define HAVE_AIO_READ 1
#define HAVE_AIO_WRITE 1
#define HAVE_AIO_SUSPEND 1
#define HAVE_AIO_CANCEL 1
#define HAVE_LIBDISKMGT_H 1
#define HAVE_ZONE_H 1
#define HAVE_DM_INUSE 1
