/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * disks.c -- what the disks under each operand saw over a run: the block
 * layer's write requests, bytes and cache flushes (and reads), per disk,
 * for time=1's table and the JSON.  One dio_disks_open() per operand
 * once every device is open, one read just before the workers are
 * released and one after the last has ended (its conv=fsync included),
 * so a count is the run's window.  No idle baseline is taken: a copy is
 * one long window, not a point repeated, and a baseline would delay
 * every run; the counts are raw, and I/O of others to the same disks in
 * the window is in them (dio-dd(1) says so).  Nothing here changes dd's
 * own lines: without time=1 or JSON nothing is opened.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/dd/dd.h"

#define MPI_WHY "an MPI job: each rank's disks are counted on its host and not " \
	"gathered to rank 0"

static int
wanted(const struct dd *dd)
{
	return dd->o.time || dd->o.format == DD_FMT_JSON;
}

const char *
dd_disks_absent(const struct dd *dd)
{
	if (dd->mpi != NULL && dd->mpi->on)
		return MPI_WHY;
	return "not counted";
}

/* Find the disks under side s (is_out: an of=) into k. */
static void
open_side(const struct dd *dd, const struct dd_side *s, struct dd_disks *k)
{
	int r;

	memset(k, 0, sizeof(*k));
	if (s->kind == DD_KIND_NONE)
		return;                 /* no such operand in this mode */
	k->state = DD_DISKS_NA;
	if (dd->mpi != NULL && dd->mpi->on) {
		snprintf(k->why, sizeof(k->why), "%s", MPI_WHY);
		return;
	}
	if (s->kind == DD_KIND_STREAM || s->path == NULL) {
		snprintf(k->why, sizeof(k->why), "%s", s->std >= 0 ?
		         "standard input or output: no disk of its own" :
		         "not a file or block device (a pipe, terminal or character device)");
		return;
	}
	r = dio_disks_open(&k->h, s->path, k->why, sizeof(k->why));
	if (r < 0) {
		if (k->why[0] == '\0')
			snprintf(k->why, sizeof(k->why), "%s", dio_strerror(r));
		k->h = NULL;
		return;
	}
	k->n = dio_disks_count(k->h);
	k->seen = calloc(k->n, sizeof(*k->seen));
	if (k->seen == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	k->state = DD_DISKS_COUNTED;
}

void
dd_disks_open(struct dd *dd)
{
	int i;

	if (!wanted(dd))
		return;
	for (i = 0; i < dd->ndevs; i++) {
		open_side(dd, &dd->devs[i].in, &dd->devs[i].disks[0]);
		open_side(dd, &dd->devs[i].out, &dd->devs[i].disks[1]);
	}
}

/* Read k's disks into a scratch array: 0, or -1 with k n/a. */
static int
read_all(struct dd_disks *k, struct dio_disk_counts *c)
{
	int r = dio_disks_read(k->h, c, k->n);

	if (r < 0) {
		snprintf(k->why, sizeof(k->why), "reading the counters: %s", dio_strerror(r));
		k->state = DD_DISKS_NA;
		return -1;
	}
	return 0;
}

/* Each counted operand's disks, into before (after: 0) or the delta. */
static void
read_each(struct dd *dd, int after)
{
	struct dio_disk_counts *c;
	char why[300];
	unsigned m;
	int i, k;

	for (i = 0; i < dd->ndevs; i++)
		for (k = 0; k < 2; k++) {
			struct dd_disks *s = &dd->devs[i].disks[k];

			if (s->state != DD_DISKS_COUNTED)
				continue;
			c = calloc(s->n, sizeof(*c));
			if (c == NULL)
				diot_die(DIOT_EXIT_FAIL, "out of memory");
			if (read_all(s, c) == 0)
				for (m = 0; m < s->n; m++) {
					struct dd_disk_seen *e = &s->seen[m];

					e->disk = dio_disks_get(s->h, m);
					if (!after) {
						e->before = c[m];
						continue;
					}
					/* A disk that cannot be counted makes the
					 * operand n/a: never a partial sum. */
					if (dio_disk_counts_diff(&e->before, &c[m], &e->delta, why,
					                         sizeof(why)) < 0) {
						snprintf(s->why, sizeof(s->why), "%s: %s",
						         e->disk->name, why);
						s->state = DD_DISKS_NA;
						break;
					}
				}
			if (s->n > 0 && s->state == DD_DISKS_COUNTED) {
				if (after)
					s->to_ns = c[0].at_ns;
				else
					s->from_ns = c[0].at_ns;
			}
			free(c);
		}
}

void
dd_disks_before(struct dd *dd)
{
	read_each(dd, 0);
}

void
dd_disks_after(struct dd *dd)
{
	read_each(dd, 1);
}

void
dd_disks_close(struct dd *dd)
{
	int i, k;

	for (i = 0; i < dd->ndevs; i++)
		for (k = 0; k < 2; k++) {
			struct dd_disks *s = &dd->devs[i].disks[k];

			/* the disks' names stay with the report: close after it */
			dio_disks_close(s->h);
			s->h = NULL;
			free(s->seen);
			s->seen = NULL;
			s->n = 0;
		}
}
