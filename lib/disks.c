/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * disks.c -- the block-layer counters of the disks under a path
 * (dio_disks_open(), dio_disks_read(), dio_disk_counts_diff()): the
 * handle, the checks of the arguments and the difference of two reads.
 * Which disks, and what their counters say, is the backend's
 * (dio__os_disks_find(), dio__os_disk_counts()).
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "os/os.h"

struct dio_disks {
	unsigned n;
	int fd[DIO_DISKS_MAX];               /* what the backend reads each from */
	struct dio_disk disk[DIO_DISKS_MAX];
};

static int
say(char *why, size_t len, int err, const char *fmt, ...) DIO__PRINTF(4, 5);

static int
say(char *why, size_t len, int err, const char *fmt, ...)
{
	va_list ap;

	if (why != NULL && len > 0) {
		va_start(ap, fmt);
		vsnprintf(why, len, fmt, ap);
		va_end(ap);
	}
	return err;
}

int
dio__disks_open_stat(dio_disks **dp, const char *path, const struct stat *st, char *why,
                     size_t len)
{
	dio_disks *d;
	unsigned i;
	int r;

	d = calloc(1, sizeof(*d));
	if (d == NULL)
		return say(why, len, -ENOMEM, "out of memory");
	for (i = 0; i < DIO_DISKS_MAX; i++)
		d->fd[i] = -1;
	r = dio__os_disks_find(path, st, d->disk, d->fd, DIO_DISKS_MAX, why, len);
	if (r <= 0) {
		free(d);
		if (r == 0)
			r = -ENODEV;
		if (why != NULL && len > 0 && why[0] == '\0')
			say(why, len, r, "%s: %s", path, dio_strerror(r));
		return r;
	}
	d->n = (unsigned)r;
	*dp = d;
	return 0;
}

int
dio_disks_open(dio_disks **dp, const char *path, char *why, size_t len)
{
	struct stat st;

	if (why != NULL && len > 0)
		why[0] = '\0';
	if (dp == NULL)
		return say(why, len, -EINVAL, "no place for the handle (dp is NULL)");
	*dp = NULL;
	if (path == NULL || *path == '\0')
		return say(why, len, -EINVAL, "no path given");
	if (stat(path, &st) != 0)
		return say(why, len, DIO__ERR(errno), "cannot examine %s: %s", path,
		           dio_strerror(errno));
	return dio__disks_open_stat(dp, path, &st, why, len);
}

unsigned
dio_disks_count(const dio_disks *d)
{
	return d != NULL ? d->n : 0;
}

const struct dio_disk *
dio_disks_get(const dio_disks *d, unsigned i)
{
	return d != NULL && i < d->n ? &d->disk[i] : NULL;
}

int
dio_disks_read(dio_disks *d, struct dio_disk_counts *out, unsigned n)
{
	unsigned i;
	int got = 0;

	if (d == NULL || out == NULL || n < d->n)
		return -EINVAL;
	for (i = 0; i < d->n; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		(void)dio__os_disk_counts(d->fd[i], &out[i]);
		if (out[i].have & DIO_COUNTS_IO)
			got++;
	}
	return got;
}

void
dio_disks_close(dio_disks *d)
{
	unsigned i;

	if (d == NULL)
		return;
	for (i = 0; i < d->n; i++)
		if (d->fd[i] >= 0)
			close(d->fd[i]);
	free(d);
}

/* *dst = a - b of one counter, or -ERANGE with why naming it. */
static int
sub(uint64_t b, uint64_t a, uint64_t *dst, const char *what, char *why, size_t len)
{
	if (a < b)
		return say(why, len, -ERANGE, "counters went backwards: %s %llu -> %llu (the "
		           "disk was removed and added again, or its counters were reset)",
		           what, (unsigned long long)b, (unsigned long long)a);
	*dst = a - b;
	return 0;
}

/* The reason a read gave no write counters. */
static int
no_data(const struct dio_disk_counts *c, const char *which, char *why, size_t len)
{
	if (c->note[0] != '\0')
		return say(why, len, -ENODATA, "%s read: %s", which, c->note);
	if (c->err != 0)
		return say(why, len, -ENODATA, "%s read: %s", which, dio_strerror(c->err));
	return say(why, len, -ENODATA, "%s read has no write counters", which);
}

int
dio_disk_counts_diff(const struct dio_disk_counts *before,
                     const struct dio_disk_counts *after,
                     struct dio_disk_counts *delta, char *why, size_t len)
{
	struct dio_disk_counts t;
	char m[256] = "";    /* why, also when the caller gives none (t.note) */
	const size_t ml = sizeof(m);
	int r = 0;

	if (why != NULL && len > 0)
		why[0] = '\0';
	if (before == NULL || after == NULL || delta == NULL)
		return say(why, len, -EINVAL, "a NULL argument");
	memset(&t, 0, sizeof(t));
	if (!(before->have & DIO_COUNTS_IO) || before->err != 0)
		r = no_data(before, "the first", m, ml);
	else if (!(after->have & DIO_COUNTS_IO) || after->err != 0)
		r = no_data(after, "the second", m, ml);
	if (r == 0) {
		t.have = before->have & after->have;
		if ((r = sub(before->at_ns, after->at_ns, &t.at_ns, "the clock (ns)", m,
		             ml)) == 0 &&
		    (r = sub(before->read_ios, after->read_ios, &t.read_ios, "reads", m,
		             ml)) == 0 &&
		    (r = sub(before->read_sectors, after->read_sectors, &t.read_sectors,
		             "sectors read", m, ml)) == 0 &&
		    (r = sub(before->write_ios, after->write_ios, &t.write_ios, "writes", m,
		             ml)) == 0 &&
		    (r = sub(before->write_merges, after->write_merges, &t.write_merges,
		             "write merges", m, ml)) == 0 &&
		    (r = sub(before->write_sectors, after->write_sectors, &t.write_sectors,
		             "sectors written", m, ml)) == 0 &&
		    (r = sub(before->write_ms, after->write_ms, &t.write_ms, "write ms", m,
		             ml)) == 0 &&
		    (t.have & DIO_COUNTS_FLUSH)) {
			if ((r = sub(before->flush_ios, after->flush_ios, &t.flush_ios,
			             "flushes", m, ml)) == 0)
				r = sub(before->flush_ms, after->flush_ms, &t.flush_ms, "flush ms",
				        m, ml);
		}
	}
	if (r == 0) {
		/* A gauge, not a counter: as the second read saw it. */
		t.in_flight = after->in_flight;
		if (!(t.have & DIO_COUNTS_FLUSH))
			snprintf(t.note, sizeof(t.note), "%s",
			         after->note[0] != '\0' ? after->note :
			         before->note[0] != '\0' ? before->note : "no flush counts");
	} else {
		t.have = 0;
		t.err = r;
		snprintf(t.note, sizeof(t.note), "%s", m);
		say(why, len, r, "%s", m);
	}
	*delta = t;
	return r;
}
