/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * devcount.c -- what the disks under the target saw during a point: their
 * block-layer counters (libdirectio.h: dio_disks_open()) read before the
 * writers go and after they all end, less the other I/O that an idle
 * interval just before the point (the baseline, --baseline) says the
 * disks do in that time; per transaction issued, warm-up included.  A
 * point whose window the baseline says is more than SW_DEV_BUSY_SHARE
 * other I/O is "busy"; where nothing can be counted, n/a with the reason
 * (never 0).  The ranks of an MPI job each count their own disks and
 * rank 0 sums them, a disk of one host once (sw_dev_merge()).
 *
 * Cost: dio_disks_read() is one pread() per disk; three reads per point
 * (two without a baseline), none while the writers write.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "tools/kit/clock.h"
#include "tools/kit/msg.h"
#include "tools/sw/sw.h"

/* The disks of a target, opened at its first point, and the point's reads. */
struct sw_devs {
	dio_disks *d;             /* NULL: not counted (why)             */
	char why[300];
	unsigned n;
	int based;                /* c0 holds the baseline's first read  */
	int read;                 /* c1 and c2 were read for this point   */
	char host[DIOT_MPI_HOST_MAX];
	struct dio_disk_counts c0[SW_DEV_DISKS], c1[SW_DEV_DISKS], c2[SW_DEV_DISKS];
};

const char *
sw_dev_state_name(int state)
{
	return state == SW_DEV_COUNTED ? "yes" : state == SW_DEV_BUSY ? "busy" : "no";
}

static void
devs_open(struct sw_ctx *c)
{
	struct sw_devs *v = calloc(1, sizeof(*v));
	struct utsname un;
	char why[256] = "";
	int r;

	if (v == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	c->devs = v;
	if (c->ranks.mpi != NULL && c->ranks.mpi->on)
		snprintf(v->host, sizeof(v->host), "%s", c->ranks.mpi->host);
	else if (uname(&un) == 0)
		snprintf(v->host, sizeof(v->host), "%s", un.nodename);
	r = dio_disks_open(&v->d, c->tg.path, why, sizeof(why));
	if (r < 0) {
		v->d = NULL;
		snprintf(v->why, sizeof(v->why), "%s", why[0] ? why : dio_strerror(r));
		return;
	}
	v->n = dio_disks_count(v->d);
	if (v->n > SW_DEV_DISKS) {
		snprintf(v->why, sizeof(v->why), "%u disks under the target: sync-write "
		         "counts at most %d", v->n, SW_DEV_DISKS);
		dio_disks_close(v->d);
		v->d = NULL;
	}
}

void
sw_dev_close(struct sw_ctx *c)
{
	if (c->devs != NULL)
		dio_disks_close(c->devs->d);
	free(c->devs);
	c->devs = NULL;
}

/* Idle for ns, unless the run is stopped. */
static void
idle(const struct sw_ctx *c, uint64_t ns)
{
	uint64_t end = diot_now_ns() + ns, now;
	struct timespec ts;

	while (!*c->sig && (now = diot_now_ns()) < end) {
		ts.tv_sec = (time_t)((end - now) / 1000000000u);
		ts.tv_nsec = (long)((end - now) % 1000000000u);
		nanosleep(&ts, NULL);
	}
}

void
sw_dev_before(struct sw_ctx *c)
{
	struct sw_devs *v;

	if (c->devs == NULL)
		devs_open(c);
	v = c->devs;
	v->based = v->read = 0;
	if (v->d == NULL)
		return;
	if (c->o->baseline_ns > 0) {
		dio_disks_read(v->d, v->c0, SW_DEV_DISKS);
		idle(c, c->o->baseline_ns);
		v->based = 1;
	}
	dio_disks_read(v->d, v->c1, SW_DEV_DISKS);
}

void
sw_dev_after(struct sw_ctx *c)
{
	struct sw_devs *v = c->devs;

	if (v == NULL || v->d == NULL)
		return;
	dio_disks_read(v->d, v->c2, SW_DEV_DISKS);
	v->read = 1;
}

static void
na(struct sw_devcount *dv, const char *fmt, const char *a, const char *b)
{
	dv->state = SW_DEV_NA;
	snprintf(dv->why, sizeof(dv->why), fmt, a, b);
}

void
sw_dev_point(const struct sw_ctx *c, struct sw_devcount *dv, uint64_t txns, uint64_t size)
{
	const struct sw_devs *v = c->devs;
	struct dio_disk_counts w, b;
	char why[200];
	unsigned i;

	memset(dv, 0, sizeof(*dv));
	dv->txns = txns;
	dv->state = SW_DEV_COUNTED;
	if (v == NULL || v->d == NULL) {
		na(dv, "%s%s", v ? v->why : "the point ran no writers", "");
		return;
	}
	if (!v->read) {
		na(dv, "%s%s", "the counters were not read after the point", "");
		return;
	}
	dv->from_ns = v->c1[0].at_ns;
	dv->to_ns = v->c2[0].at_ns;
	for (i = 0; i < v->n; i++) {
		const struct dio_disk *dk = dio_disks_get(v->d, i);
		struct sw_dev_disk *o = &dv->disks[dv->ndisks++];

		snprintf(o->name, sizeof(o->name), "%s", dk->name);
		snprintf(o->host, sizeof(o->host), "%s", v->host);
		o->write_cache = (int)dk->write_cache;
		o->device_cache = (int)dk->device_cache;
		o->fua = (int)dk->fua;
		if (dio_disk_counts_diff(&v->c1[i], &v->c2[i], &w, why, sizeof(why)) < 0) {
			na(dv, "%s: %s", dk->name, why);
			return;
		}
		o->writes = w.write_ios;
		o->sectors = w.write_sectors;
		o->flushes = w.flush_ios;
		o->flushes_known = (w.have & DIO_COUNTS_FLUSH) != 0;
		o->window_s = (double)w.at_ns / 1e9;
		if (!v->based)
			continue;
		if (dio_disk_counts_diff(&v->c0[i], &v->c1[i], &b, why, sizeof(why)) < 0) {
			na(dv, "%s (the idle interval before the point): %s", dk->name, why);
			return;
		}
		o->base_writes = b.write_ios;
		o->base_sectors = b.write_sectors;
		o->base_flushes = b.flush_ios;
		o->flushes_known &= (b.have & DIO_COUNTS_FLUSH) != 0;
		o->base_s = (double)b.at_ns / 1e9;
	}
	sw_dev_sum(dv, txns, size);
}

/* What is left of raw once the expected other I/O is taken: never < 0. */
static double
less(uint64_t raw, double other)
{
	return (double)raw > other ? (double)raw - other : 0;
}

void
sw_dev_sum(struct sw_devcount *dv, uint64_t txns, uint64_t size)
{
	double ow = 0, os = 0, of = 0, win = 0;
	int i, vol_yes = 0, vol_no = 1, fua_yes = 1, fua_no = 0;

	dv->txns = txns;
	if (dv->state == SW_DEV_NA)
		return;
	dv->writes = dv->sectors = dv->flushes = 0;
	dv->base_writes = dv->base_sectors = dv->base_flushes = 0;
	dv->base_s = 0;
	dv->flushes_known = dv->ndisks > 0;
	dv->cache_hidden = 0;
	for (i = 0; i < dv->ndisks; i++) {
		const struct sw_dev_disk *d = &dv->disks[i];
		double scale = d->base_s > 0 ? d->window_s / d->base_s : 0;

		dv->writes += d->writes;
		dv->sectors += d->sectors;
		dv->flushes += d->flushes;
		dv->flushes_known &= d->flushes_known != 0;
		dv->base_writes += d->base_writes;
		dv->base_sectors += d->base_sectors;
		dv->base_flushes += d->base_flushes;
		if (d->base_s > dv->base_s)
			dv->base_s = d->base_s;
		if (d->window_s > win)
			win = d->window_s;
		ow += (double)d->base_writes * scale;
		os += (double)d->base_sectors * scale;
		of += (double)d->base_flushes * scale;
		vol_yes |= d->write_cache == DIO_TRI_YES || d->device_cache == DIO_TRI_YES;
		vol_no &= d->write_cache == DIO_TRI_NO && d->device_cache == DIO_TRI_NO;
		dv->cache_hidden |= d->device_cache == DIO_TRI_YES && d->write_cache == DIO_TRI_NO;
		fua_yes &= d->fua == DIO_TRI_YES;
		fua_no |= d->fua == DIO_TRI_NO;
	}
	dv->volatile_cache = vol_yes ? DIO_TRI_YES : vol_no && dv->ndisks ? DIO_TRI_NO
	                     : DIO_TRI_UNKNOWN;
	dv->fua = fua_no ? DIO_TRI_NO : fua_yes && dv->ndisks ? DIO_TRI_YES : DIO_TRI_UNKNOWN;
	if (!dv->flushes_known)
		of = 0;
	if (txns == 0) {
		dv->state = SW_DEV_NA;
		snprintf(dv->why, sizeof(dv->why), "no transaction was issued");
		return;
	}
	/* Other I/O above the share of what the window saw: the counts are
	 * mostly not the point's. */
	if (ow + of > SW_DEV_BUSY_SHARE * (double)(dv->writes + dv->flushes) ||
	    os > SW_DEV_BUSY_SHARE * (double)dv->sectors) {
		dv->state = SW_DEV_BUSY;
		snprintf(dv->why, sizeof(dv->why), "other I/O on the disk: in the idle "
		         "%.3f s before the point it did %" PRIu64 " writes (%" PRIu64
		         " bytes), which over the point's %.3f s is %.0f writes (%.0f bytes), "
		         "more than %.0f%% of the %" PRIu64 " writes (%" PRIu64 " bytes) seen",
		         dv->base_s, dv->base_writes, dv->base_sectors * 512, win, ow,
		         os * 512, SW_DEV_BUSY_SHARE * 100, dv->writes, dv->sectors * 512);
	} else {
		dv->state = SW_DEV_COUNTED;
		dv->why[0] = '\0';
	}
	dv->writes_per_txn = less(dv->writes, ow) / (double)txns;
	dv->bytes_per_txn = less(dv->sectors, os) * 512 / (double)txns;
	dv->flushes_per_txn = dv->flushes_known ? less(dv->flushes, of) / (double)txns : 0;
	dv->amplification = size ? dv->bytes_per_txn / (double)size : 0;
}

void
sw_dev_merge(struct sw_devcount *job, const struct sw_devcount *each,
             const char (*host)[DIOT_MPI_HOST_MAX], int n, uint64_t size)
{
	uint64_t txns = 0;
	int i, k, j;

	memset(job, 0, sizeof(*job));
	job->state = SW_DEV_COUNTED;
	for (i = 0; i < n; i++)
		txns += each[i].txns;
	for (i = 0; i < n; i++) {
		const struct sw_devcount *e = &each[i];

		if (e->state == SW_DEV_NA) {
			job->state = SW_DEV_NA;
			snprintf(job->why, sizeof(job->why), "host %s: %s", host[i], e->why);
			job->txns = txns;
			return;
		}
		if (i == 0) {
			job->from_ns = e->from_ns;
			job->to_ns = e->to_ns;
		}
		for (k = 0; k < e->ndisks; k++) {
			for (j = 0; j < job->ndisks; j++)
				if (strcmp(job->disks[j].host, e->disks[k].host) == 0 &&
				    strcmp(job->disks[j].name, e->disks[k].name) == 0)
					break;
			if (j < job->ndisks)
				continue;       /* a lower rank of its host counted it */
			if (job->ndisks == SW_DEV_DISKS) {
				job->state = SW_DEV_NA;
				snprintf(job->why, sizeof(job->why), "more than %d disks under "
				         "the ranks' targets", SW_DEV_DISKS);
				job->txns = txns;
				return;
			}
			job->disks[job->ndisks++] = e->disks[k];
		}
	}
	sw_dev_sum(job, txns, size);
}
