/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * os.h -- the contract between the portable library (lib/) and one OS
 * backend (os/linux-*.c with os/linux.h; os/sunos.c with the os/sunos-*.c
 * files os/sunos.h lists; os/posix.c).  Each backend implements every
 * function here; Makefile.am compiles exactly one of them, with
 * os/scsi-none.c for the SCSI part when the build has no pass-through and
 * os/linux-uring.c or os/uring-none.c for the io_uring part.  lib/ holds
 * no OS #ifdef: anything that differs by OS goes through this file.
 *
 * Which file serves which part (dio__os_ left out of the names):
 *
 *   functions                      linux               sunos
 *   caps, set_direct, get_direct,  os/linux-file.c     os/sunos.c
 *     pwrite_dsync, fs_type,       (flush_open, flush:
 *     flush_open, flush,           os/sunos-disk.c)
 *     file_birth, read_discard,
 *     large_page_size, large_pages
 *   align                          os/linux-align.c    os/sunos.c
 *   scsi_probe, scsi_xfer_ok,      os/linux-scsi.c     os/sunos-scsi.c
 *     scsi_exec, scsi_reserve,
 *     scsi_mmap
 *   device_in_use, device_claim    os/linux-inuse.c    os/sunos-inuse.c
 *                                                      (swap and libdiskmgt:
 *                                                      os/sunos-swap.c)
 *   devinfo                        os/linux-devinfo.c  os/sunos-disk.c
 *   disks_find, disk_counts        os/linux-disks.c    os/sunos-disk.c
 *   (disk names, /etc/mnttab: os/sunos-names.c, for the sunos files)
 *   uring_ops                      os/linux-uring.c    os/uring-none.c
 *
 * Behind the Linux files: os/linux-read.c parses what the kernel and udev
 * write (os/linux-read.h), and os/linux.h declares the few helpers the
 * files share.  os/posix.c serves everything but the SCSI part
 * (os/scsi-none.c) and io_uring (os/uring-none.c).  dio__scsi_req_good()
 * (below) is inline here, so that the backends call nothing of lib/scsi.c.
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
 * Turn direct I/O on or off for fd.  Returns the dio_mech now in effect
 * (a mechanism that cannot be turned off, such as a raw disk, also for
 * on == 0), -ENOTSUP when the file system or platform refuses or ignores
 * direct I/O (state is unchanged), or another -errno.
 * why may be NULL; otherwise the caller zeroes it, and every -ENOTSUP
 * fills it through dio__refuse() (lib/internal.h) with the reason, a
 * DIO_REFUSAL_* other than NONE and ERROR, and what the reason names:
 * the file system type, the driver, the errno of the call it reports.
 * The words are lib/refusal.c's (dio_refusal_str()), not the backend's.
 * Another -errno leaves why alone: the caller records it as
 * DIO_REFUSAL_ERROR.
 */
int dio__os_set_direct(int fd, int on, struct dio_refusal *why);

/*
 * Direct I/O in effect on fd as a dio_mech, or -ENOTSUP if it cannot be
 * read (advice that leaves no trace, such as directio()).
 */
int dio__os_get_direct(int fd);

/*
 * One write of len bytes at off that completes with a data sync of the
 * bytes written (Linux pwritev2 RWF_DSYNC).  Returns the bytes written
 * (possibly short) or -errno; -ENOTSUP if not available (nothing written).
 */
int64_t dio__os_pwrite_dsync(int fd, const void *buf, size_t len, int64_t off);

/*
 * Where committing fd (fsync(), fdatasync(), an O_DSYNC or O_SYNC write)
 * does not by itself make the device flush its volatile write cache, but
 * a separate request can (illumos device nodes: specfs passes no sync to
 * the driver and flushes on fsync() only when it saw a write since the
 * last one): the descriptor dio__os_flush() sends that request on, fd
 * itself or a new one the caller closes (path, the name fd was opened
 * by, helps find it where it is not NULL).  -ENOTSUP where the kernel's
 * commit is all there is to do (Linux, where fsync() of a block device
 * flushes; files everywhere); another -errno when a flush is needed but
 * no descriptor for it could be opened.  st is fd's fstat().
 */
int dio__os_flush_open(int fd, const struct stat *st, const char *path);

/* Flush the device's volatile write cache through fd (from
 * dio__os_flush_open()), waiting for it.  0, or -errno. */
int dio__os_flush(int fd);

/*
 * Fill the alignment facts for fd, whose fstat() result is st.  *a is
 * zeroed by the caller; preferred_io is preset from st_blksize.
 */
int dio__os_align(int fd, const struct stat *st, struct dio_align *a);

/* ------------------------------------------------------------ SCSI */

/*
 * One SCSI command as lib/scsi.c hands it to the backend.  The caller has
 * validated it (CDB present, 6..16 bytes; buf non-NULL when len > 0 except
 * for NO_COPY and MMAP; for MMAP, len fits the mapping made on this fd) and
 * zeroed every output field.
 */
struct dio__scsi_req {
	/* in */
	const uint8_t *cdb;
	size_t cdb_len;
	int dir;                 /* dio_scsi_dir                                   */
	void *buf;               /* user buffer; NULL for NO_COPY / MMAP           */
	size_t len;              /* data length in bytes                           */
	unsigned timeout_ms;     /* > 0                                            */
	int xfer;                /* dio_scsi_xfer asked                            */
	uint64_t count;          /* repetitions, >= 1 (dio_scsi_exec_repeat)       */
	uint8_t *sense;          /* DIO_SCSI_SENSE_MAX bytes                       */
	char *detail;            /* on failure: why, without the errno text        */
	size_t detail_len;
	/* in and out: what the backend learned about a descriptor (e.g. its
	 * kind), kept by the command object so that the hot path does not
	 * ask the kernel again for every command; fd -1 means nothing known.
	 * dio_scsi_clear() forgets it. */
	int cache_fd;
	int cache_kind;
	/* out */
	int status;              /* SCSI status byte                               */
	int host_status;         /* OS specific; 0 where there is none             */
	int driver_status;
	int transport;           /* 1: the HBA or driver failed the command        */
	int64_t resid;
	size_t sense_len;
	uint64_t duration_ns;
	int duration_source;     /* dio_scsi_time_source                           */
	int xfer_done;           /* dio_scsi_xfer really used                      */
	uint64_t good;           /* repetitions that completed GOOD                */
	uint64_t resid_sum;      /* their residuals                                */
	uint64_t not_direct;     /* of those, DIRECT asked and not done            */
};

/* Did the command whose outputs r holds complete GOOD (or CONDITION MET)?
 * Here, not in lib/scsi.c, so that the backends call nothing of the file
 * that calls them (tests/no-circles.sh). */
static inline int
dio__scsi_req_good(const struct dio__scsi_req *r)
{
	return !r->transport && (r->status == DIO_SCSI_STATUS_GOOD ||
	                         r->status == DIO_SCSI_STATUS_CONDITION_MET);
}

/*
 * Does the freshly opened device fd (path, whose fstat() is st: a block or
 * character device) take this OS's pass-through ioctl?  Returns 0, -ENOTTY
 * for a device that does not, -ENOTSUP without SCSI support, or another
 * -errno; failures are logged with a detail (dio__fail).  dio_scsi_open()
 * does the portable part: open, fstat, device or not.
 */
int dio__os_scsi_probe(int fd, const struct stat *st, const char *path);

/*
 * 0 if the platform can be asked for transfer mode xfer (dio_scsi_xfer),
 * -ENOTSUP if never (a given device may still refuse it at exec time).
 */
int dio__os_scsi_xfer_ok(int xfer);

/*
 * Run r on fd r->count times back to back and wait for each, stopping at
 * the first that does not complete GOOD (dio__scsi_req_good); r's outputs
 * describe the last one run, r->good and the sums the GOOD ones.  With
 * count 1 the duration is measured around the system call; with more, an
 * OS that reports durations (Linux) is taken at its word and no clock is
 * read.  Returns 0 when every command run went to the device and back,
 * whatever it answered; -errno when one could not be submitted or the OS
 * failed it, with r->detail set.
 * An OS that reports a device answer as an error (illumos: EIO with a
 * SCSI status) is normalised here to 0.
 */
int dio__os_scsi_exec(struct dio__scsi_req *r, int fd);

/*
 * Ask the driver to keep a reserved buffer of at least len bytes on fd
 * (Linux sg).  Returns the size reserved now (possibly less than len: the
 * driver caps it), or -ENOTSUP where there is no reserved buffer, or
 * -errno.  Never shrinks the buffer.
 */
int64_t dio__os_scsi_reserve(int fd, size_t len);

/*
 * Map len bytes (a page multiple, within the reserved buffer) of fd's
 * reserved buffer; readable, and writable when fd is open for writing.
 * Returns 0 with *addr set, -ENOTSUP where there is no such thing, or
 * -errno.  Undone with munmap().
 */
int dio__os_scsi_mmap(int fd, size_t len, void **addr);

/*
 * Whether the device or regular file path (whose stat() result is st) is
 * in use; see dio_device_in_use().  why/len as there.
 */
int dio__os_device_in_use(const char *path, const struct stat *st, char *why,
                          size_t len);

/*
 * Claim the device path (stat st: a block or character device) as
 * dio_device_claim() says: the claiming descriptor, or -errno.
 */
int dio__os_device_claim(const char *path, const struct stat *st);

/* File system type name of fd (st is its fstat()); see dio_fs_type(). */
int dio__os_fs_type(int fd, const struct stat *st, char *buf, size_t len);

/*
 * The birth stamp of the file open as fd (st is its fstat()); see
 * dio_file_birth().  0 with *stamp set (never 0), -ENOTSUP where the file
 * system or the platform keeps nothing that tells one incarnation of an
 * inode from the next, or another -errno.
 */
int dio__os_file_birth(int fd, const struct stat *st, uint64_t *stamp);

/* ------------------------------------------------------------ devices */

/*
 * Device facts for path, whose stat() result is st; see dio_devinfo().
 * *out is zeroed by the caller, which has set out->kind to FILE, BLOCK or
 * CHAR from st (the backend may refine CHAR to SG).  Returns 0 (facts may
 * still be unknown), -ENOTSUP where the platform has none, or -errno.
 */
int dio__os_devinfo(const char *path, const struct stat *st, struct dio_devinfo *out);

/* ------------------------------------------------------------ block-layer counters */

/*
 * The disks whose block-layer counters show the I/O to path (stat() st):
 * see dio_disks_open().  Fills list[0 .. n-1] (zeroed by the caller) and
 * opens into fds[i] what dio__os_disk_counts() reads disk i from; at most
 * max.  Returns n >= 1, or -errno with why (len bytes, may be NULL or 0)
 * saying what was wrong, nothing left open.
 */
int dio__os_disks_find(const char *path, const struct stat *st, struct dio_disk *list,
                       int *fds, unsigned max, char *why, size_t len);

/*
 * Disk fd's counters now (fd from dio__os_disks_find()) into *c, zeroed by
 * the caller: have, the counters, at_ns (CLOCK_MONOTONIC, taken at the
 * read); on failure err (a -errno) and note.  Returns c->err.
 */
int dio__os_disk_counts(int fd, struct dio_disk_counts *c);

/* ------------------------------------------------------------ discard reads */

/*
 * Read len bytes of fd at off into the kernel and drop them, with no copy
 * to user memory (see dio_read_discard(); the caller checked off >= 0).
 * One attempt: returns the bytes done (possibly short, 0 at end of file)
 * or -errno; -ENOTSUP where there is no such path.
 */
int64_t dio__os_read_discard(int fd, int64_t off, size_t len);

/* ------------------------------------------------------------ memory */

/*
 * The large page size dio_alloc_large() asks for: a power of two above
 * the base page, or 0 when the platform has none to offer (or they are
 * switched off).
 */
size_t dio__os_large_page_size(void);

/*
 * Ask for [p, p + len) to be backed with pages of size pg (from
 * dio__os_large_page_size(); p and len are multiples of it).  0, -ENOTSUP
 * or -errno; the memory stays usable either way.
 */
int dio__os_large_pages(void *p, size_t len, size_t pg);

/* ------------------------------------------------------------ io_uring */

/*
 * The io_uring engine of dio_aio (lib/aio-engine.h: its setup may fail
 * where the kernel refuses, -ENOSYS, -EPERM), or NULL where there is none
 * (not compiled in).
 */
struct dio__aio_ops;
const struct dio__aio_ops *dio__os_uring_ops(void);

#endif /* DIO_OS_H */
