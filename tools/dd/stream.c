/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stream.c -- dd's own loop, for one input and one output, one call at a
 * time: read ibs bytes (iflag=fullblock: until ibs or the end), pad a
 * short block with NULs to ibs (conv=sync), then write each block as it
 * came (bs=) or gather the blocks into writes of obs bytes (ibs=/obs=:
 * dd's reblocking); a read error is said and passed over with
 * conv=noerror.  Records are counted per call, as dd counts them.
 *
 * The positional engine (engine.c: transfer i at offset skip + i*bs, on
 * any number of threads) is the faster path for files and devices; this
 * one runs where it cannot: a side that is a stream (pipe, terminal,
 * /dev/zero, standard input or output), ibs != obs, byte counts and
 * offsets, conv=sync or noerror, fullblock, append (dd_stream_needed()).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "tools/dd/dd.h"
#include "tools/kit/clock.h"
#include "tools/kit/msg.h"

/* Why the run takes dd's loop (NULL: the positional engine serves). */
static const char *
stream_reason(const struct dd *dd, char *buf, size_t len)
{
	const struct dd_opts *o = &dd->o;
	const struct dd_dev *d = &dd->devs[0];

	if (d->in.kind == DD_KIND_STREAM || d->out.kind == DD_KIND_STREAM) {
		const struct dd_side *s = d->in.kind == DD_KIND_STREAM ? &d->in : &d->out;

		snprintf(buf, len, "%s '%s' is read or written in order, as a stream",
		         s == &d->in ? "if=" : "of=", s->path);
	} else if (o->ibs != o->obs) {
		snprintf(buf, len, "ibs=%" PRIu64 " and obs=%" PRIu64 " differ (reblocking)",
		         o->ibs, o->obs);
	} else if (o->conv.sync || o->conv.noerror) {
		snprintf(buf, len, "conv=%s", o->conv.sync ? "sync" : "noerror");
	} else if (o->iflag.count_bytes || o->iflag.skip_bytes || o->oflag.seek_bytes) {
		snprintf(buf, len, "%s counts bytes", o->iflag.count_bytes ? "iflag=count_bytes" :
		         o->iflag.skip_bytes ? "iflag=skip_bytes" : "oflag=seek_bytes");
	} else if (o->iflag.fullblock) {
		snprintf(buf, len, "iflag=fullblock");
	} else if (o->oflag.append) {
		snprintf(buf, len, "oflag=append");
	} else {
		return NULL;
	}
	return buf;
}

/*
 * Whether the run needs dd's loop; if so, it must be one device, one
 * thread, engine=sync, bpt=1 and no SCSI pass-through, or the run is
 * refused saying why.
 */
int
dd_stream_needed(const struct dd *dd, const char **why)
{
	static char reason[PATH_MAX + 80];
	const struct dd_opts *o = &dd->o;
	const char *r;
	int simple;

	*why = NULL;
	if (dd->ndevs != 1) {
		int i;

		/* One of several devices may be a stream: said the same way. */
		for (i = 0; i < dd->ndevs; i++) {
			const struct dd_dev *d = &dd->devs[i];

			if (d->in.kind == DD_KIND_STREAM || d->out.kind == DD_KIND_STREAM) {
				snprintf(reason, sizeof(reason), "%s '%s' is a stream (read or "
				         "written in order): it is copied alone, not as one of "
				         "several devices", d->in.kind == DD_KIND_STREAM ? "if=" : "of=",
				         d->in.kind == DD_KIND_STREAM ? d->in.path : d->out.path);
				*why = reason;
				return -1;
			}
		}
		r = stream_reason(dd, reason, sizeof(reason));
		if (r == NULL)
			return 0;
		*why = reason;
		return -1;
	}
	r = stream_reason(dd, reason, sizeof(reason));
	simple = o->thr == 1 && o->engine == DD_ENG_SYNC && o->bpt == 1 && !o->procs &&
	         !o->rate && dd->devs[0].in.kind != DD_KIND_SG &&
	         dd->devs[0].out.kind != DD_KIND_SG && !o->iflag.nocopy;
	/* A file that reports no size (/proc, /sys) is read to its end, as
	 * dd reads it, where the run can take dd's loop; the positional
	 * engine reads to the reported end (nothing) and says so. */
	if (r == NULL && simple && dd->devs[0].in.kind == DD_KIND_FILE && dd->devs[0].in.size == 0 &&
	    !o->count_set)
		return 1;
	if (r == NULL)
		return 0;
	*why = r;
	return simple ? 1 : -1;
}

/* One timed read call into the device's records. */
static int64_t
timed_read(struct dd_wctx *w, struct dd_side *s, unsigned char *buf, size_t len, int64_t off,
           int quiet)
{
	uint64_t t0 = diot_now_ns(), t1;
	int64_t n;

	if (quiet)
		n = s->kind == DD_KIND_STREAM ? dd_stream_read(s, buf, len, w->dd->stop)
		                        : dd_file_read(w, s, buf, len, off);
	else
		n = do_read(w, s, buf, len, off);
	t1 = diot_now_ns();
	diot_hist_add(&w->hist[DD_DIR_READ], t1 - t0);
	w->io_ns += t1 - t0;
	w->calls++;
	return n;
}

/*
 * One block of up to len bytes from the input: one read, or with
 * fullblock as many as it takes to fill len (or reach the end).  The
 * bytes read, 0 at the end, or -errno (with noerror: nothing said yet).
 */
static int64_t
read_block(struct dd_wctx *w, unsigned char *buf, size_t len, int64_t *off)
{
	struct dd *dd = w->dd;
	struct dd_side *s = &w->d->in;
	size_t got = 0;
	int64_t n;

	do {
		n = timed_read(w, s, buf + got, len - got, *off, dd->o.conv.noerror);
		if (n < 0)
			return got > 0 ? (int64_t)got : n;
		if (n == 0)
			break;
		got += (size_t)n;
		*off += n;
		if (dd->o.iflag.nocache)
			dd_drop_cache(s, *off - n, n);
	} while (dd->o.iflag.fullblock && got < len && !*dd->stop);
	return (int64_t)got;
}

/* Write n bytes at *off (streams: where they are), counted as a record
 * of the output (full when n is obs). */
static int
write_block(struct dd_wctx *w, unsigned char *buf, size_t n, int64_t *off)
{
	struct dd *dd = w->dd;
	struct dd_dev *d = w->d;
	uint64_t t0 = diot_now_ns(), t1;
	int64_t m;

	if (d->out.kind != DD_KIND_STREAM && dd_tail_needs_buffered(d, n))
		m = dd_write_tail_buffered(w, buf, n, *off);
	else
		m = do_write(w, &d->out, buf, n, *off);
	t1 = diot_now_ns();
	diot_hist_add(&w->hist[DD_DIR_WRITE], t1 - t0);
	w->io_ns += t1 - t0;
	w->calls++;
	if (m < 0)
		return -1;
	if (dd->o.oflag.nocache)
		dd_drop_cache(&d->out, *off, m);
	*off += m;
	w->wbytes += (uint64_t)m;
	w->bytes += (uint64_t)m;
	dd_count_records(d, 1, (uint64_t)m, dd->o.obs);
	return 0;
}

/*
 * conv=noerror: a read failed.  Say it (and the statistics so far, as dd
 * does), then pass over the block: a file or device is read on past it,
 * a stream where it is.  0 to go on; -1 when it cannot (a stream that
 * fails again and again gives nothing: the run ends after 1000 failures
 * in a row, where dd would loop).
 */
static int
passed_over(struct dd_wctx *w, int64_t err, size_t len, int64_t *off, unsigned *in_row)
{
	struct dd *dd = w->dd;
	struct dd_dev *d = w->d;

	if (dd->o.status != DD_STATUS_NONE) {
		char *name = dd_side_name(dd, &d->in, DD_Q_NAME);

		diot_warn("error reading %s: %s", name, dd_strerror((int)err));
		free(name);
		dd_say_statistics(dd);
	}
	if (d->in.kind != DD_KIND_STREAM)
		*off += (int64_t)len;
	if (++*in_row >= 1000) {
		char *name = dd_side_name(dd, &d->in, DD_Q_NAME);

		dd_wfail(w, (int)err, "error reading %s: %s (1000 times in a row: conv=noerror "
		         "gives up)", name, dd_strerror((int)err));
		free(name);
		return -1;
	}
	return 0;
}

/*
 * skip= and seek= on a stream, before the first block (timed with the
 * run, as dd's): the input is moved on where it can be, else read and
 * dropped (a short input: said, as dd, and nothing more is read); the
 * output is moved on where it can be, else the run fails, as dd's does.
 * 0, or -1 when the run cannot go on.
 */
static int
stream_skip_seek(struct dd_wctx *w, unsigned char *buf, size_t len)
{
	struct dd *dd = w->dd;
	struct dd_dev *d = w->d;
	uint64_t left = (uint64_t)d->in_base;
	int64_t n;

	if (d->in.kind == DD_KIND_STREAM && left > 0) {
		off_t at = d->in.seekable ? lseek(d->in.fd, 0, SEEK_CUR) : -1;
		struct stat st;

		if (at >= 0 && lseek(d->in.fd, (off_t)left, SEEK_CUR) >= 0) {
			/* a file (standard input from one): past its end, as dd */
			if (fstat(d->in.fd, &st) == 0 && S_ISREG(st.st_mode) &&
			    st.st_size - at < (off_t)left)
				dd_say_cannot_skip(dd, &d->in);
			left = 0;
		}
		while (left > 0 && !*dd->stop) {
			n = dd_stream_read(&d->in, buf, left < len ? (size_t)left : len, dd->stop);
			if (n < 0) {
				if (!*dd->stop)
					dd_io_error(w, &d->in, 0, (int)n);
				return -1;
			}
			if (n == 0) {
				dd_say_cannot_skip(dd, &d->in);
				break;
			}
			left -= (uint64_t)n;
		}
	}
	if (d->out.kind == DD_KIND_STREAM && d->out_base > 0 &&
	    lseek(d->out.fd, (off_t)d->out_base, SEEK_CUR) < 0) {
		int e = errno;
		char *name = dd_side_name(dd, &d->out, DD_Q_FILE);

		dd_wfail(w, -e, "%s: cannot seek: %s", name, dd_strerror(e));
		free(name);
		return -1;
	}
	return 0;
}

/*
 * Whether a short read followed by more data is worth dd's warning
 * "partial read (N bytes); suggest iflag=fullblock": as dd, where bs= is
 * given without iflag=fullblock and the run counts blocks (skip= or
 * count= of at least one block) or reads or writes directly.
 */
static int
warns_partial(const struct dd_opts *o)
{
	uint64_t skip = o->iflag.skip_bytes ? o->skip / o->ibs : o->skip;
	uint64_t count = o->iflag.count_bytes ? o->count / o->ibs : o->count;

	return o->bs_set && !o->iflag.fullblock &&
	       (skip > 0 || (o->count_set && count > 0) || o->iflag.direct || o->oflag.direct);
}

/* The bytes the next read asks: ibs, or what is left of count= bytes
 * (iflag=count_bytes); 0 when count= is reached. */
static size_t
next_ask(const struct dd_opts *o, uint64_t recs, uint64_t bytes_in)
{
	size_t ask = (size_t)o->ibs;

	if (o->count_set && o->iflag.count_bytes) {
		if (bytes_in >= o->count)
			return 0;
		if (o->count - bytes_in < ask)
			ask = (size_t)(o->count - bytes_in);
	} else if (o->count_set && recs >= o->count) {
		return 0;
	}
	return ask;
}

/* What read_input() says besides a block's length. */
enum { IN_END = -1, IN_NEXT = -2 };

/*
 * One block of the input into buf, at most ask bytes: its length (0: a
 * block passed over with conv=noerror, to be NULs with conv=sync);
 * IN_NEXT for a block passed over without conv=sync; IN_END at the end
 * of the input, a read error that ends the run (said) or a stop.  *prev
 * is the last read and *warn whether dd's partial read warning is still
 * to be given.
 */
static int64_t
read_input(struct dd_wctx *w, unsigned char *buf, size_t ask, int64_t *ioff,
           unsigned *in_row, int64_t *prev, int *warn)
{
	struct dd *dd = w->dd;
	const struct dd_opts *o = &dd->o;
	int64_t n = read_block(w, buf, ask, ioff);

	if (n < 0 && (!o->conv.noerror || (n == -EINTR && *dd->stop)))
		return IN_END;          /* said by do_read, or the run stops */
	if (n < 0) {
		*prev = n;
		if (passed_over(w, n, ask, ioff, in_row) < 0)
			return IN_END;
		if (!o->conv.sync)
			return IN_NEXT;
		n = 0;          /* a block of NULs, below */
	} else if (n == 0) {
		return IN_END;          /* the end of the input */
	} else {
		*in_row = 0;
		if (*warn && *prev > 0 && (size_t)*prev < ask) {
			*warn = 0;
			if (o->status != DD_STATUS_NONE)
				diot_warn("warning: partial read (%" PRId64 " byte%s); "
				          "suggest iflag=fullblock", *prev,
				          *prev == 1 ? "" : "s");
		}
		*prev = n;
	}
	w->rbytes += (uint64_t)n;
	return n;
}

/* dd's reblocking: the n bytes at buf gathered into obuf, a write of
 * each whole obs block as it fills (*pos: the bytes in obuf).  -1 if a
 * write failed. */
static int
reblock_out(struct dd_wctx *w, const unsigned char *buf, size_t n, unsigned char *obuf,
            size_t *pos, int64_t *ooff)
{
	size_t obs = (size_t)w->dd->o.obs, k, take;

	for (k = 0; k < n; k += take) {
		take = obs - *pos < n - k ? obs - *pos : n - k;
		memcpy(obuf + *pos, buf + k, take);
		*pos += take;
		if (*pos == obs) {
			*pos = 0;
			if (write_block(w, obuf, obs, ooff) < 0)
				return -1;
		}
	}
	return 0;
}

void
dd_run_stream(struct dd_wctx *w, unsigned char *buf)
{
	struct dd *dd = w->dd;
	struct dd_dev *d = w->d;
	const struct dd_opts *o = &dd->o;
	size_t ibs = (size_t)o->ibs, ask, pos = 0;
	/* reblocking: the output's blocks gather after the input's */
	unsigned char *obuf = buf + (ibs + d->align - 1) / d->align * d->align;
	int reblock = !o->bs_set && d->out.path != NULL;
	int64_t ioff = d->in_base, ooff = d->out_base, n;
	uint64_t recs = 0, bytes_in = 0;
	unsigned in_row = 0;
	int write_failed = 0, warn = warns_partial(o);
	int64_t prev = 0;       /* the last read (dd's partial read warning) */

	pthread_mutex_lock(&d->lock);
	dd->stream_thread = pthread_self();
	dd->stream_running = 1;
	pthread_mutex_unlock(&d->lock);
	if (stream_skip_seek(w, buf, ibs) < 0)
		goto out;

	while (!*dd->stop && !write_failed && !w->err) {
		ask = next_ask(o, recs, bytes_in);
		if (ask == 0)
			break;
		if (d->in.path == NULL) {
			/* mode=write: the stamped pattern */
			dd_stamp(buf, ask, (size_t)o->bs, (uint64_t)ooff);
			n = (int64_t)ask;
		} else {
			n = read_input(w, buf, ask, &ioff, &in_row, &prev, &warn);
			if (n == IN_END)
				break;
			if (n == IN_NEXT)
				continue;
		}
		recs++;
		bytes_in += (uint64_t)n;
		dd_count_records(d, 0, (uint64_t)n, ibs);   /* a failed block (0): partial */
		if (o->conv.sync && (size_t)n < ibs) {
			memset(buf + n, 0, ibs - (size_t)n);
			n = (int64_t)ibs;
		}
		if (d->out.path == NULL)
			w->bytes += (uint64_t)n;
		else if (!reblock)
			write_failed = write_block(w, buf, (size_t)n, &ooff) < 0;
		else
			write_failed = reblock_out(w, buf, (size_t)n, obuf, &pos, &ooff) < 0;
	}
	/* What is left of the last output block (also after a stop or a
	 * read error: what was read is written, as dd does). */
	if (reblock && pos > 0 && !write_failed && !*dd->stop)
		(void)write_block(w, obuf, pos, &ooff);
out:
	pthread_mutex_lock(&d->lock);
	dd->stream_running = 0;
	pthread_mutex_unlock(&d->lock);
}

/*
 * The run stops (a signal): dd's loop may wait in a read or write on a
 * pipe or terminal that nobody serves; SIGUSR2 (caught without restart,
 * main.c) ends that wait.  Called by the waiting parent at every tick
 * while stopping, so that a wait entered just after one wake-up gets the
 * next.
 */
void
dd_stream_wake(struct dd *dd)
{
	struct dd_dev *d = &dd->devs[0];

	if (!dd->stream)
		return;
	pthread_mutex_lock(&d->lock);
	if (dd->stream_running)
		pthread_kill(dd->stream_thread, SIGUSR2);
	pthread_mutex_unlock(&d->lock);
}
