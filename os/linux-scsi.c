/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * linux-scsi.c -- Linux SCSI pass-through: SG_IO (the sg v3 interface) on
 * sg character devices and on block devices that accept it.  Built
 * without <scsi/sg.h> it holds nothing, and os/scsi-none.c serves instead.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#ifdef HAVE_SCSI_SG_H
# include <scsi/sg.h>
#endif

#include "lib/internal.h"
#include "os/linux-read.h"
#include "os/os.h"

#ifdef HAVE_SCSI_SG_H

/*
 * The sg driver's character major, fixed by the kernel (SCSI_GENERIC_MAJOR
 * in <linux/major.h>).  Only sg implements the sg v3 flags: direct I/O,
 * no user copy and the mmap'd reserved buffer.  Block devices (sd, sr)
 * and st take SG_IO through the block layer, which ignores those flags
 * and chooses by itself between mapping the user pages and copying.
 */
#define DIO__SG_MAJOR 21

/* glibc's <scsi/sg.h> predates the mmap flag; the value is the sg v3 ABI
 * (the kernel's include/uapi/scsi/sg.h). */
#ifndef SG_FLAG_MMAP_IO
# define SG_FLAG_MMAP_IO 4
#endif

/* Low 3 bits of driver_status: DRIVER_OK 0 .. DRIVER_HARD 7; 0x08 is
 * DRIVER_SENSE, which only says that sense data came back. */
#define DIO__DRIVER_STATUS_MASK 0x07

/*
 * The SCSI midlayer of older kernels marks a RESERVATION CONFLICT status
 * with host byte DID_NEXUS_FAILURE (11h) as well (newer ones keep that in
 * a byte of their own that sg does not pass on).  The device answered:
 * that is a status, not a transport failure.
 */
#define DIO__DID_NEXUS_FAILURE 0x11

static int
dio__sg_resv_conflict(const sg_io_hdr_t *h)
{
	return h->host_status == DIO__DID_NEXUS_FAILURE &&
	       h->status == DIO_SCSI_STATUS_RESERVATION_CONFLICT;
}

enum { DIO__KIND_OTHER, DIO__KIND_SG, DIO__KIND_BLOCK };

/* Tests only (linux-read.h): SG_IO to a function instead of the kernel. */
int (*dio__sg_io_hook)(int fd, struct sg_io_hdr *h);

static int
dio__scsi_kind(int fd, struct stat *st)
{
	if (fstat(fd, st) != 0)
		return DIO__ERR(errno);
	if (S_ISCHR(st->st_mode) && major(st->st_rdev) == DIO__SG_MAJOR)
		return DIO__KIND_SG;
	if (S_ISBLK(st->st_mode))
		return DIO__KIND_BLOCK;
	return DIO__KIND_OTHER;
}

/* Does fd take SG_IO?  SG_GET_VERSION_NUM is answered by sg and by the
 * block layer's SCSI ioctls alike. */
static int
dio__sg_probe(int fd)
{
	int v = 0;

	return ioctl(fd, SG_GET_VERSION_NUM, &v) == 0 && v >= 30000;
}

int
dio__os_scsi_probe(int fd, const struct stat *st, const char *path)
{
	if (!dio__sg_probe(fd))
		return dio__fail(NULL, -ENOTTY, "scsi open %s: %s that does not take "
		                 "SG_IO", path, dio__kind_name(st));
	return 0;
}

int
dio__os_scsi_xfer_ok(int xfer)
{
	(void)xfer;
	return 0;       /* all four exist; the device type decides at exec */
}

/* SG_IO on fd failed with errno e: say why in r->detail, return -errno.
 * st is fd's fstat() result, or has st_mode 0 when not taken yet. */
static int
dio__sg_io_failed(struct dio__scsi_req *r, int fd, struct stat *st, int e)
{
	r->cache_fd = -1;       /* learn the descriptor afresh next time */
	if (st->st_mode == 0)
		(void)fstat(fd, st);
	if ((e == ENOTTY || e == EINVAL) && !dio__sg_probe(fd)) {
		snprintf(r->detail, r->detail_len, "SG_IO: %s: %s that does "
		         "not take SCSI commands", dio_strerror(e),
		         dio__kind_name(st));
		return -ENOTTY;
	}
	switch (e) {
	case EPERM:
	case EACCES:
		snprintf(r->detail, r->detail_len, "SG_IO: %s: the kernel lets "
		         "this command through only with write access or "
		         "CAP_SYS_RAWIO", dio_strerror(e));
		break;
	case ENOMEM:
		snprintf(r->detail, r->detail_len, "SG_IO: %s: the driver could "
		         "not get a %zu-byte buffer%s", dio_strerror(e), r->len,
		         r->xfer == DIO_SCSI_XFER_MMAP ? " (mmap transfers must fit "
		         "the reserved buffer)" : "");
		break;
	case EBUSY:
		snprintf(r->detail, r->detail_len, "SG_IO: %s%s", dio_strerror(e),
		         r->xfer == DIO_SCSI_XFER_MMAP ? ": the reserved buffer is "
		         "in use by another command on this descriptor" : "");
		break;
	case EIO:
		snprintf(r->detail, r->detail_len, "SG_IO: %s (on a block device: "
		         "%zu bytes may exceed the queue's largest transfer)",
		         dio_strerror(e), r->len);
		break;
	default:
		snprintf(r->detail, r->detail_len, "SG_IO: %s", dio_strerror(e));
		break;
	}
	return DIO__ERR(e);
}

int
dio__os_scsi_exec(struct dio__scsi_req *r, int fd)
{
	struct sg_io_hdr h;
	struct stat st;
	uint64_t t0, t1, n;
	int kind, rc, timed;

	/* The descriptor's kind decides what the modes may do; learn it once
	 * per descriptor and command object, not with an fstat per command. */
	if (r->cache_fd == fd) {
		kind = r->cache_kind;
		st.st_mode = 0;
	} else if (dio__sg_io_hook != NULL) {
		kind = DIO__KIND_SG;
		memset(&st, 0, sizeof(st));
	} else {
		kind = dio__scsi_kind(fd, &st);
		if (kind < 0) {
			snprintf(r->detail, r->detail_len, "fstat: %s", dio_strerror(kind));
			return kind;
		}
		r->cache_fd = fd;
		r->cache_kind = kind;
	}
	if (kind != DIO__KIND_SG && r->xfer != DIO_SCSI_XFER_INDIRECT) {
		if (st.st_mode == 0 && fstat(fd, &st) != 0)
			return DIO__ERR(errno);
		if (!dio__sg_probe(fd)) {
			snprintf(r->detail, r->detail_len, "%s does not take SCSI "
			         "commands", dio__kind_name(&st));
			return -ENOTTY;
		}
		snprintf(r->detail, r->detail_len, "%s transfers need an sg character "
		         "device; this is %s, whose SG_IO the block layer serves with "
		         "its own data path", dio_scsi_xfer_name(r->xfer),
		         dio__kind_name(&st));
		return -ENOTSUP;
	}

	memset(&h, 0, sizeof(h));
	h.interface_id = 'S';
	switch (r->dir) {
	case DIO_SCSI_DIR_IN:  h.dxfer_direction = SG_DXFER_FROM_DEV; break;
	case DIO_SCSI_DIR_OUT: h.dxfer_direction = SG_DXFER_TO_DEV; break;
	default:               h.dxfer_direction = SG_DXFER_NONE; break;
	}
	h.cmd_len = (unsigned char)r->cdb_len;
	h.cmdp = (unsigned char *)(uintptr_t)r->cdb;
	h.mx_sb_len = DIO_SCSI_SENSE_MAX;
	h.sbp = r->sense;
	h.dxfer_len = (unsigned int)r->len;
	h.dxferp = r->buf;
	h.timeout = r->timeout_ms;
	switch (r->xfer) {
	case DIO_SCSI_XFER_DIRECT:  h.flags = SG_FLAG_DIRECT_IO; break;
	case DIO_SCSI_XFER_NO_COPY: h.flags = SG_FLAG_NO_DXFER; break;
	case DIO_SCSI_XFER_MMAP:    h.flags = SG_FLAG_MMAP_IO; h.dxferp = NULL; break;
	}

	/* One command is timed around the system call (sg_io_hdr.duration
	 * counts whole milliseconds); repetitions take the driver's figure
	 * and read no clock, so that a timing loop pays for nothing but the
	 * ioctl.  The driver leaves the request fields of h as they were. */
	timed = r->count == 1;
	t0 = t1 = 0;
	for (n = 0; n < r->count; n++) {
		if (timed)
			t0 = dio__now_ns();
		rc = dio__sg_io_hook != NULL ? dio__sg_io_hook(fd, &h) : ioctl(fd, SG_IO, &h);
		if (timed)
			t1 = dio__now_ns();
		if (rc < 0)
			return dio__sg_io_failed(r, fd, &st, errno);
		r->status = h.status;
		r->host_status = h.host_status;
		r->driver_status = h.driver_status;
		r->transport = (h.host_status != 0 && !dio__sg_resv_conflict(&h)) ||
		               (h.driver_status & DIO__DRIVER_STATUS_MASK) != 0;
		r->resid = h.resid;
		if (kind != DIO__KIND_SG)
			r->xfer_done = DIO_SCSI_XFER_AUTO;
		else if (r->xfer == DIO_SCSI_XFER_DIRECT && r->len > 0 &&
		         r->dir != DIO_SCSI_DIR_NONE)
			r->xfer_done = (h.info & SG_INFO_DIRECT_IO_MASK) == SG_INFO_DIRECT_IO ?
			               DIO_SCSI_XFER_DIRECT : DIO_SCSI_XFER_INDIRECT;
		else
			r->xfer_done = r->xfer;
		if (!dio__scsi_req_good(r))
			break;
		r->good++;
		r->resid_sum += (uint64_t)(h.resid > 0 ? h.resid : 0);
		if (r->xfer == DIO_SCSI_XFER_DIRECT && r->xfer_done != DIO_SCSI_XFER_DIRECT)
			r->not_direct++;
	}
	r->sense_len = h.sb_len_wr;
	if (timed) {
		r->duration_ns = t1 - t0;
		r->duration_source = DIO_SCSI_TIME_MEASURED;
	} else {
		r->duration_ns = (uint64_t)h.duration * 1000000u;
		r->duration_source = DIO_SCSI_TIME_KERNEL;
	}
	return 0;
}

int64_t
dio__os_scsi_reserve(int fd, size_t len)
{
	struct stat st;
	int kind, have = 0, want;

	kind = dio__scsi_kind(fd, &st);
	if (kind < 0)
		return kind;
	if (kind != DIO__KIND_SG)
		return -ENOTSUP;
	if (ioctl(fd, SG_GET_RESERVED_SIZE, &have) != 0)
		return DIO__ERR(errno);
	if (have >= 0 && (size_t)have >= len)
		return have;
	if (len > (size_t)INT32_MAX)
		return -EINVAL;
	want = (int)len;
	/* EBUSY: the buffer is mapped (or in use) and cannot change. */
	if (ioctl(fd, SG_SET_RESERVED_SIZE, &want) != 0)
		return DIO__ERR(errno);
	if (ioctl(fd, SG_GET_RESERVED_SIZE, &have) != 0)
		return DIO__ERR(errno);
	return have;
}

int
dio__os_scsi_mmap(int fd, size_t len, void **addr)
{
	struct stat st;
	int kind, fl, prot = PROT_READ;
	void *p;

	kind = dio__scsi_kind(fd, &st);
	if (kind < 0)
		return kind;
	if (kind != DIO__KIND_SG)
		return -ENOTSUP;
	fl = fcntl(fd, F_GETFL);
	if (fl < 0)
		return DIO__ERR(errno);
	if ((fl & O_ACCMODE) != O_RDONLY)
		prot |= PROT_WRITE;
	p = mmap(NULL, len, prot, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return DIO__ERR(errno);
	*addr = p;
	return 0;
}

#endif /* HAVE_SCSI_SG_H: else os/scsi-none.c */
