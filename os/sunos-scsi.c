/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sunos-scsi.c -- Solaris/illumos SCSI pass-through: USCSICMD (uscsi(4I)).
 *
 * The target driver (sd, st, sgen) builds a buf and runs it through
 * physio: the user pages are locked and the HBA DMAs into them directly,
 * unless its DMA attributes force a bounce buffer.  That is the only path,
 * so there is no direct / no-copy / mmap choice to make (those modes give
 * -ENOTSUP) and the transfer done is reported as DIO_SCSI_XFER_AUTO: the
 * OS chose, and does not say.
 */
#include "config.h"

#include <sys/types.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <stropts.h>
#include <sys/stat.h>
#ifdef HAVE_SYS_SCSI_IMPL_USCSI_H
# include <sys/scsi/impl/uscsi.h>
#endif

#include "lib/internal.h"
#include "os/os.h"

#ifdef HAVE_SYS_SCSI_IMPL_USCSI_H

/* No status: what uscsi_status holds when the driver wrote none back
 * (the command failed before it reached the device, or was never sent). */
#define DIO__USCSI_NO_STATUS (-1)

/*
 * Devices are not probed with a command: USCSIMAXXFER is missing from
 * older target drivers that do take USCSICMD, and any real command could
 * clear a unit attention meant for someone else.  A non-SCSI device shows
 * up at the first dio_scsi_exec() as -ENOTTY.
 */
int
dio__os_scsi_probe(int fd, const struct stat *st, const char *path)
{
	(void)fd; (void)st; (void)path;
	return 0;
}

int
dio__os_scsi_xfer_ok(int xfer)
{
	return xfer == DIO_SCSI_XFER_INDIRECT ? 0 : -ENOTSUP;
}

/* USCSICMD failed with errno e (not EIO): say why, return -errno. */
static int
dio__uscsi_failed(struct dio__scsi_req *r, int e)
{
	switch (e) {
	case ENOTTY:
		snprintf(r->detail, r->detail_len, "USCSICMD: %s: not a SCSI target "
		         "driver's raw node (a block node, blkdev, lofi and cmdk take "
		         "no USCSICMD)", dio_strerror(e));
		return -ENOTTY;
	case ENXIO:
		snprintf(r->detail, r->detail_len, "USCSICMD: %s: the unit is gone or "
		         "detached", dio_strerror(e));
		return -ENXIO;
	case EPERM:
		snprintf(r->detail, r->detail_len, "USCSICMD: %s: needs the "
		         "sys_devices privilege", dio_strerror(e));
		break;
	case EACCES:
		snprintf(r->detail, r->detail_len, "USCSICMD: %s: the device is "
		         "reserved by another initiator", dio_strerror(e));
		break;
	case EAGAIN:
		snprintf(r->detail, r->detail_len, "USCSICMD: %s: a format is in "
		         "progress", dio_strerror(e));
		break;
	default:
		snprintf(r->detail, r->detail_len, "USCSICMD: %s", dio_strerror(e));
		break;
	}
	return DIO__ERR(e);
}

int
dio__os_scsi_exec(struct dio__scsi_req *r, int fd)
{
	struct uscsi_cmd u;
	unsigned secs;
	uint64_t t0, t1, n;
	int rc, e;

	if (r->xfer != DIO_SCSI_XFER_INDIRECT) {
		snprintf(r->detail, r->detail_len, "%s transfers do not exist with "
		         "USCSICMD (physio already DMAs into the user pages)",
		         dio_scsi_xfer_name(r->xfer));
		return -ENOTSUP;
	}
	memset(&u, 0, sizeof(u));
	/* DIAGNOSE: no retries, the first error is returned; ISOLATE: a
	 * command that fails is not retried either (sd; it does not keep the
	 * command apart from the driver's own queue); SILENT: no console
	 * messages; RQENABLE: the sense data of CHECK CONDITION in rqbuf. */
	u.uscsi_flags = USCSI_ISOLATE | USCSI_DIAGNOSE | USCSI_SILENT | USCSI_RQENABLE;
	u.uscsi_flags |= r->dir == DIO_SCSI_DIR_IN ? USCSI_READ : USCSI_WRITE;
	secs = r->timeout_ms / 1000 + (r->timeout_ms % 1000 != 0);
	u.uscsi_timeout = (short)(secs > SHRT_MAX ? SHRT_MAX : secs);
	u.uscsi_cdb = (caddr_t)(uintptr_t)r->cdb;
	u.uscsi_cdblen = (uchar_t)r->cdb_len;
	if (r->dir != DIO_SCSI_DIR_NONE) {
		u.uscsi_bufaddr = (caddr_t)r->buf;
		u.uscsi_buflen = r->len;
	}
	u.uscsi_rqbuf = (caddr_t)r->sense;
	u.uscsi_rqlen = DIO_SCSI_SENSE_MAX;

	/* uscsi reports no duration: every command is timed around the
	 * ioctl, repetitions too. */
	for (n = 0; n < r->count; n++) {
		/* The driver writes back only what it learned, and nothing
		 * when the command never became a packet: reset the outputs,
		 * or the last command's GOOD would stand for this one. */
		u.uscsi_status = DIO__USCSI_NO_STATUS;
		u.uscsi_resid = 0;
		u.uscsi_rqstatus = 0xff;
		u.uscsi_rqresid = u.uscsi_rqlen;
		r->transport = 0;
		r->sense_len = 0;
		t0 = dio__now_ns();
		rc = ioctl(fd, USCSICMD, &u);
		t1 = dio__now_ns();
		if (rc < 0) {
			e = errno;
			if (e != EIO)
				return dio__uscsi_failed(r, e);
			/* EIO is how sd reports any command that did not end
			 * GOOD: with a SCSI status the device answered; without
			 * one, the HBA or the driver failed it (timeout, reset,
			 * gone). */
			if (u.uscsi_status == DIO__USCSI_NO_STATUS || u.uscsi_status == 0)
				r->transport = 1;
		} else if (u.uscsi_status == DIO__USCSI_NO_STATUS) {
			u.uscsi_status = 0;     /* success without a status: GOOD */
		}
		/* sd hands the status byte on masked with STATUS_MASK (0x3E):
		 * the reserved and vendor bits are already gone. */
		r->status = u.uscsi_status > 0 && u.uscsi_status <= 0xff ?
		            u.uscsi_status : 0;
		if (r->status == DIO_SCSI_STATUS_CHECK_CONDITION &&
		    u.uscsi_rqresid < u.uscsi_rqlen)
			r->sense_len = (size_t)(u.uscsi_rqlen - u.uscsi_rqresid);
		r->resid = (int64_t)u.uscsi_resid;
		r->duration_ns = t1 - t0;
		if (!dio__scsi_req_good(r))
			break;
		r->good++;
		r->resid_sum += (uint64_t)u.uscsi_resid;
	}
	r->duration_source = DIO_SCSI_TIME_MEASURED;
	r->xfer_done = DIO_SCSI_XFER_AUTO;
	return 0;
}

/* There is no reserved buffer to size or map behind USCSICMD. */
int64_t
dio__os_scsi_reserve(int fd, size_t len)
{
	(void)fd; (void)len;
	return -ENOTSUP;
}

int
dio__os_scsi_mmap(int fd, size_t len, void **addr)
{
	(void)fd; (void)len; (void)addr;
	return -ENOTSUP;
}

#endif /* HAVE_SYS_SCSI_IMPL_USCSI_H: else os/scsi-none.c */
