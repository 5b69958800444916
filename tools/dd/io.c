/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * io.c -- one read or one write of a side, by the method chosen when it
 * was opened (dd_io_choose()): a file or block device through dio_file
 * (buffered, direct, no-copy), SCSI READ/WRITE through sg, a stream with
 * read()/write(); a direct write's unaligned tail written buffered; dd's
 * records counted; an I/O error said as dd says it, on the device.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <unistd.h>

#include "tools/dd/dd.h"
#include "tools/kit/msg.h"
#include "tools/kit/scsi.h"

/*
 * dd's records of a call that moved n bytes in blocks of size: each whole
 * block a full record, a piece (or a block that failed: n = 0) a partial
 * one; and the bytes done so far (written, or read where nothing is
 * written).  Under the device's lock: the report's figures, read while
 * the run goes on.
 */
void
dd_count_records(struct dd_dev *d, int is_out, uint64_t n, uint64_t size)
{
	pthread_mutex_lock(&d->lock);
	if (is_out) {
		d->wfull += n / size;
		d->wpart += n % size != 0 || n == 0;
	} else {
		d->rfull += n / size;
		d->rpart += n % size != 0 || n == 0;
	}
	if (is_out || d->out.path == NULL)
		d->done += n;
	pthread_mutex_unlock(&d->lock);
}

/* Record the first error of a thread and stop its device. */
void DIOT_PRINTF(3, 4)
dd_wfail(struct dd_wctx *w, int err, const char *fmt, ...)
{
	va_list ap;

	if (w->err == 0) {
		w->err = err;
		va_start(ap, fmt);
		vsnprintf(w->errmsg, sizeof(w->errmsg), fmt, ap);
		va_end(ap);
	}
	pthread_mutex_lock(&w->d->lock);
	w->d->err = err;
	pthread_mutex_unlock(&w->d->lock);
}

/* How dd names a side in its messages: 'standard input' and 'standard
 * output' when if= or of= was not given, else the name, quoted as dd
 * quotes it (style: quote.c's; malloc'd). */
char *
dd_side_name(const struct dd *dd, const struct dd_side *s, int style)
{
	int is_in = s == &dd->devs[0].in, is_out = s == &dd->devs[0].out;

	if ((is_in && dd->std_in) || (is_out && dd->std_out))
		return dd_quote(is_in ? "standard input" : "standard output", style);
	return dd_quote(s->path, style);
}

/* dd's "NAME: cannot skip to specified offset" (a skip= past the end of
 * the input: said, unless status=none, and nothing is read). */
void
dd_say_cannot_skip(const struct dd *dd, const struct dd_side *s)
{
	char *name;

	if (dd->o.status == DD_STATUS_NONE)
		return;
	name = dd_side_name(dd, s, DD_Q_FILE);
	diot_warn("%s: cannot skip to specified offset", name);
	free(name);
}

/* dd's "error reading 'NAME': REASON" (or writing) for the run's report. */
void
dd_io_error(struct dd_wctx *w, const struct dd_side *s, int is_write, int err)
{
	char *name = dd_side_name(w->dd, s, DD_Q_NAME);

	dd_wfail(w, err, "error %s %s: %s", is_write ? "writing" : "reading", name,
	         dd_strerror(err));
	free(name);
}

/* Why a transfer asked to be direct was not (allow_dio from dio_devinfo). */
static void
explain_not_direct(const dio_scsi *c, const struct dd_side *s, char *buf, size_t len)
{
	if (dio_scsi_xfer_done(c) == DIO_SCSI_XFER_AUTO)
		snprintf(buf, len, "the OS chose the data path and does not report it");
	else if (s->allow_dio == DIO_TRI_NO)
		snprintf(buf, len, "%s is 0: the sg driver copies through its own buffer "
		         "(as root: echo 1 > %s)", s->allow_dio_path, s->allow_dio_path);
	else if (s->allow_dio == DIO_TRI_YES)
		snprintf(buf, len, "the sg driver fell back to indirect I/O although %s "
		         "is 1 (buffer alignment or size beyond what it maps directly)",
		         s->allow_dio_path);
	else
		snprintf(buf, len, "the driver did indirect I/O and gave no reason (the "
		         "sg driver's allow_dio setting is not known)");
}

/*
 * One SCSI READ or WRITE of len bytes at byte offset off: the bytes moved,
 * or a -errno.  A WRITE moves whole blocks only: of a length that is not a
 * multiple of bs (a file input that changed since it was checked) the
 * whole blocks are written, the rest is reported as an error, and the
 * count returned is what was written.
 */
static int64_t
sg_rw(struct dd_wctx *w, const struct dd_side *s, int write, void *buf, size_t len,
      int64_t off)
{
	struct dd *dd = w->dd;
	uint64_t lba = (uint64_t)off / dd->o.bs;
	uint32_t blocks = (uint32_t)(len / dd->o.bs);
	int fua = write && (dd->o.oflag.dsync || dd->o.oflag.sync);
	size_t whole = (size_t)blocks * (size_t)dd->o.bs;
	uint8_t cdb[16];
	char msg[400];
	int64_t done = 0, resid;
	int n, r;

	if (write && whole < len) {
		if (blocks > 0)
			done = sg_rw(w, s, 1, buf, whole, off);
		if (done >= 0)
			dd_wfail(w, -EINVAL, "of= '%s': the last %zu bytes of the input are not "
			         "a whole block of %" PRIu64 " bytes: not written (SCSI WRITE "
			         "takes whole blocks)", s->path, len - whole, dd->o.bs);
		return done;
	}

	if (!s->use16 && lba + blocks <= 0xffffffffull && blocks <= 0xffff)
		n = dio_cdb_rw10(cdb, write, (uint32_t)lba, blocks, fua);
	else
		n = dio_cdb_rw16(cdb, write, lba, blocks, fua);
	r = diot_scsi_run(w->sc, s->fd, cdb, n, write ? DIO_SCSI_DIR_OUT : DIO_SCSI_DIR_IN,
	            buf, whole, msg, sizeof(msg));
	w->sg_cmds++;
	if (r < 0) {
		dd_wfail(w, r, "%s of %" PRIu32 " blocks at LBA %" PRIu64 " of '%s': %s",
		         write ? "WRITE" : "READ", blocks, lba, s->path, msg);
		return r;
	}
	if (dd->o.dio && dio_scsi_xfer_done(w->sc) != DIO_SCSI_XFER_DIRECT) {
		w->sg_not_direct++;
		if (w->reason[0] == '\0')
			explain_not_direct(w->sc, s, w->reason, sizeof(w->reason));
	}
	resid = dio_scsi_resid(w->sc);
	if (resid < 0 || resid > (int64_t)whole)
		resid = resid < 0 ? 0 : (int64_t)whole;
	/* A short WRITE is a failure, counted as what was written. */
	if (write && resid > 0)
		dd_wfail(w, -EIO, "WRITE of %" PRIu32 " blocks at LBA %" PRIu64 " of '%s': the "
		         "device reports %" PRId64 " of %zu bytes not transferred", blocks, lba,
		         s->path, resid, whole);
	return (int64_t)whole - resid;
}

/*
 * The read and write of one side, one function per method, chosen once
 * per side when it is opened (dd_io_choose) rather than per call.
 */
static int64_t
read_sg(struct dd_wctx *w, const struct dd_side *s, void *buf, size_t len, int64_t off)
{
	return sg_rw(w, s, 0, buf, len, off);
}

static int64_t
write_sg(struct dd_wctx *w, const struct dd_side *s, void *buf, size_t len, int64_t off)
{
	return sg_rw(w, s, 1, buf, len, off);
}

/* No-copy: into the kernel and dropped. */
static int64_t
read_discard(struct dd_wctx *w, const struct dd_side *s, void *buf, size_t len, int64_t off)
{
	int64_t n = dio_read_discard(s->fd, off, len);

	(void)buf;
	if (n < 0)
		dd_io_error(w, s, 0, (int)n);
	return n;
}

/*
 * A stream (pipe, terminal, /dev/zero, standard input...): one read() of
 * up to len bytes, wherever the stream is (off is not used).  A short
 * read is what the stream had (dd's partial record), 0 its end.
 */
int64_t
dd_stream_read(const struct dd_side *s, void *buf, size_t len, const volatile sig_atomic_t *stop)
{
	ssize_t n;

	/* A signal that stops the run ends the wait (stream.c wakes it). */
	while ((n = read(s->fd, buf, len)) < 0 && errno == EINTR && !*stop)
		;
	return n < 0 ? -(int64_t)errno : (int64_t)n;
}

static int64_t
read_stream(struct dd_wctx *w, const struct dd_side *s, void *buf, size_t len, int64_t off)
{
	int64_t n = dd_stream_read(s, buf, len, w->dd->stop);

	(void)off;
	if (n < 0 && !(n == -EINTR && *w->dd->stop))
		dd_io_error(w, s, 0, (int)n);
	return n;
}

/* All len bytes to a stream, however many write() calls it takes. */
static int64_t
write_stream(struct dd_wctx *w, const struct dd_side *s, void *buf, size_t len, int64_t off)
{
	size_t done = 0;
	ssize_t n;

	(void)off;
	while (done < len) {
		n = write(s->fd, (const char *)buf + done, len - done);
		if (n < 0 && errno == EINTR && *w->dd->stop)
			return -EINTR;  /* the run stops: nobody took the rest */
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int e = n < 0 ? errno : EIO;

			dd_io_error(w, s, 1, -e);
			return -e;
		}
		done += (size_t)n;
	}
	return (int64_t)done;
}

/*
 * One read of a direct input, as dd reads: a single pread(2), a short
 * one being what there was.  At the end of a file whose size is not a
 * multiple of the granularity the next read starts at an unaligned
 * offset and fails with EINVAL: right after a short read that is the end
 * of the file, as dd takes it (0).
 */
static int64_t
read_direct(struct dd_wctx *w, const struct dd_side *s, void *buf, size_t len, int64_t off)
{
	ssize_t n;

	while ((n = pread(s->fd, buf, len, (off_t)off)) < 0 && errno == EINTR)
		;
	if (n < 0 && errno == EINVAL && w->prev_nread > 0 && (size_t)w->prev_nread < len)
		n = 0;
	else if (n < 0)
		n = -errno;
	w->prev_nread = n;
	return n;
}

/* A read of a file or block device (nothing said): the bytes, 0 at its
 * end, or -errno. */
int64_t
dd_file_read(struct dd_wctx *w, const struct dd_side *s, void *buf, size_t len, int64_t off)
{
	if (dio_file_direct(s->f) != DIO_MECH_NONE)
		return read_direct(w, s, buf, len, off);
	return dio_pread(s->f, buf, len, off);
}

static int64_t
read_file(struct dd_wctx *w, const struct dd_side *s, void *buf, size_t len, int64_t off)
{
	int64_t n = dd_file_read(w, s, buf, len, off);

	if (n < 0)
		dd_io_error(w, s, 0, (int)n);
	return n;
}

static int64_t
write_file(struct dd_wctx *w, const struct dd_side *s, void *buf, size_t len, int64_t off)
{
	int64_t n = dio_pwrite(s->f, buf, len, off);

	if (n < 0)
		dd_io_error(w, s, 1, (int)n);
	return n;
}

void
dd_io_choose(const struct dd_opts *opt, struct dd_side *s, int is_out)
{
	if (s->kind == DD_KIND_STREAM)
		s->xfer = is_out ? write_stream : read_stream;
	else if (s->kind == DD_KIND_SG)
		s->xfer = is_out ? write_sg : read_sg;
	else if (is_out)
		s->xfer = write_file;
	else
		s->xfer = opt->iflag.nocopy ? read_discard : read_file;
}

/*
 * A direct output cannot take the last, short piece of an input whose
 * length is not a multiple of its granularity: like dd, write that tail
 * through a buffered descriptor of the same file.  Returns 1 if it did.
 */
int
dd_tail_needs_buffered(const struct dd_dev *d, size_t n)
{
	uint32_t g = d->out.align.offset_align;

	return d->out.f != NULL && dio_file_direct(d->out.f) != DIO_MECH_NONE && g > 1 &&
	       n % g != 0;
}

int64_t
dd_write_tail_buffered(struct dd_wctx *w, const void *buf, size_t n, int64_t off)
{
	struct dd_dev *d = w->d;
	int fd = open(d->out.path, O_WRONLY);
	ssize_t m = -1;
	size_t done = 0;

	if (fd >= 0) {
		while (done < n) {
			m = pwrite(fd, (const char *)buf + done, n - done,
			           (off_t)(off + (int64_t)done));
			if (m < 0 && errno == EINTR)
				continue;
			if (m <= 0)
				break;
			done += (size_t)m;
		}
	}
	if (fd < 0 || done < n) {
		int e = errno ? errno : EIO;

		dd_io_error(w, &d->out, 1, -e);
		if (fd >= 0)
			close(fd);
		return -e;
	}
	close(fd);
	return (int64_t)n;
}

/* iflag=/oflag=nocache: the page cache of what was just moved is dropped
 * (clean pages only, as dd: a written page stays until it is written
 * back). */
void
dd_drop_cache(const struct dd_side *s, int64_t off, int64_t len)
{
#ifdef POSIX_FADV_DONTNEED
	if (s->kind == DD_KIND_FILE || s->kind == DD_KIND_BLOCK)
		(void)posix_fadvise(s->fd, (off_t)off, (off_t)len, POSIX_FADV_DONTNEED);
#else
	(void)s;
	(void)off;
	(void)len;
#endif
}
