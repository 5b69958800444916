/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * compare-load.c -- sync-write --compare's reading of a saved run (a
 * document -f json wrote) from memory into a struct cmp_run
 * (sw_cmp_load): parsed keeping only what is compared (jread.h's keep
 * function: the points' per-writer figures are checked but take no
 * memory), checked (a sync-write result of schema 1, or a clear refusal),
 * then the run's description and each point read, with its "device"
 * block (what the disks saw).  Nothing here exits: a document that is not
 * a run's result is said in why, so that a fuzzer can drive it on any
 * bytes.  compare.c names and aligns the runs read, and calls
 * sw_cmp_dev_keep for a run measured now.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/kit/jread.h"
#include "tools/sw/compare.h"

/* A string of the document (or dflt), with control characters made '?':
 * it is printed on terminals and drawn in SVG. */
static void
copy_str(char *dst, size_t len, const struct diot_jr *v, const char *dflt)
{
	const char *s = diot_jr_str(v);
	char *p;

	snprintf(dst, len, "%s", s ? s : dflt);
	for (p = dst; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
}

/* A count of the "device" block: a whole number from 0 to 2^53, or -1
 * (null, absent or not one). */
static double
dev_count(const struct diot_jr *v, const char *key)
{
	double x = diot_jr_num(diot_jr_get(v, key), -1);

	return x >= 0 && x <= 9007199254740992.0 && x == floor(x) ? x : -1;
}

/* A per-transaction figure: finite and >= 0, or -1. */
static double
dev_figure(const struct diot_jr *v, const char *key)
{
	double x = diot_jr_num(diot_jr_get(v, key), -1);

	return isfinite(x) && x >= 0 ? x : -1;
}

/*
 * A point's "device" block (what the disks saw) into d: as written, or
 * SW_DEV_NA with why where the document has none (an older sync-write's)
 * or one that does not hold together.  The disks are not kept.
 */
static void
load_device(const struct diot_jr *v, struct sw_devcount *d)
{
	const char *st = diot_jr_str(diot_jr_get(v, "counted"));
	const struct diot_jr *b = diot_jr_get(v, "baseline");
	double txns = dev_count(v, "txns"), w = dev_count(v, "writes");
	double by = dev_count(v, "bytes"), fl = dev_count(v, "flushes");

	memset(d, 0, sizeof(*d));
	d->state = SW_DEV_NA;
	if (diot_jr_type(v) != DIOT_JR_OBJ || st == NULL) {
		snprintf(d->why, sizeof(d->why), "not counted (a result of a sync-write "
		         "that did not count the disks)");
		return;
	}
	copy_str(d->why, sizeof(d->why), diot_jr_get(v, "why"), "");
	if (strcmp(st, "no") == 0) {
		if (d->why[0] == '\0')
			snprintf(d->why, sizeof(d->why), "not counted");
		d->txns = txns >= 0 ? (uint64_t)txns : 0;
		return;
	}
	if ((strcmp(st, "yes") != 0 && strcmp(st, "busy") != 0) || txns < 0 || w < 0 ||
	    by < 0) {
		snprintf(d->why, sizeof(d->why), "the result's device counts are not "
		         "valid");
		return;
	}
	d->state = strcmp(st, "yes") == 0 ? SW_DEV_COUNTED : SW_DEV_BUSY;
	d->txns = (uint64_t)txns;
	d->writes = (uint64_t)w;
	d->sectors = (uint64_t)(by / 512);
	d->flushes_known = fl >= 0;
	d->flushes = fl >= 0 ? (uint64_t)fl : 0;
	if (diot_jr_type(b) == DIOT_JR_OBJ) {
		d->base_s = dev_figure(b, "seconds") > 0 ? dev_figure(b, "seconds") : 0;
		d->base_writes = dev_count(b, "writes") > 0 ? (uint64_t)dev_count(b, "writes") : 0;
		d->base_sectors = dev_count(b, "bytes") > 0 ? (uint64_t)(dev_count(b, "bytes") /
		                                                         512) : 0;
		d->base_flushes = dev_count(b, "flushes") > 0 ? (uint64_t)dev_count(b, "flushes")
		                                              : 0;
	}
	if (d->state != SW_DEV_COUNTED)
		return;
	d->writes_per_txn = dev_figure(v, "writes_per_txn");
	d->bytes_per_txn = dev_figure(v, "bytes_per_txn");
	d->flushes_per_txn = dev_figure(v, "flushes_per_txn");
	d->amplification = dev_figure(v, "amplification");
	if (d->flushes_per_txn < 0)          /* null: no flush counter */
		d->flushes_known = 0, d->flushes_per_txn = 0;
	if (d->writes_per_txn < 0 || d->bytes_per_txn < 0 || d->amplification < 0) {
		d->state = SW_DEV_NA;
		snprintf(d->why, sizeof(d->why), "the result's device counts are not "
		         "valid");
	}
}

/* What a compared point keeps of device counts d. */
void
sw_cmp_dev_keep(struct cmp_dev *k, const struct sw_devcount *d)
{
	k->state = d->state;
	k->flushes_known = d->flushes_known;
	k->writes_per_txn = d->writes_per_txn;
	k->bytes_per_txn = d->bytes_per_txn;
	k->flushes_per_txn = d->flushes_per_txn;
	k->amplification = d->amplification;
}

/* Point k of the document; -1 (with why) if it is not a point. */
static int
load_point(const struct diot_jr *v, struct cmp_point *p, int k, char *why, size_t wl)
{
	struct sw_devcount dv;
	const struct diot_jr *a = diot_jr_get(v, "aggregate");
	const char *m = diot_jr_str(diot_jr_get(v, "method"));
	double size = diot_jr_num(diot_jr_get(v, "size_bytes"), -1);
	double wr = diot_jr_num(diot_jr_get(v, "writers"), -1);

	memset(p, 0, sizeof(*p));
	if (m == NULL || m[0] == '\0' || strlen(m) >= sizeof(p->method) || size < 1 ||
	    size > 1e15 || size != floor(size) || wr < 1 || wr > SW_MAX_WRITERS ||
	    wr != floor(wr)) {
		snprintf(why, wl, "points[%d] is not a valid point: it needs a method (a "
		         "name of at most %zu bytes), size_bytes (a whole number, 1 to 10^15) "
		         "and writers (1 to %d)", k, sizeof(p->method) - 1, SW_MAX_WRITERS);
		return -1;
	}
	copy_str(p->method, sizeof(p->method), diot_jr_get(v, "method"), "?");
	p->size = (uint64_t)size;
	p->writers = (int)wr;
	copy_str(p->status, sizeof(p->status), diot_jr_get(v, "status"), "?");
	p->measured = strcmp(p->status, "ok") == 0 && diot_jr_type(a) == DIOT_JR_OBJ &&
	              diot_jr_num(diot_jr_get(a, "txns"), 0) > 0;
	p->partial = strcmp(p->status, "interrupted") == 0 &&
	             diot_jr_type(a) == DIOT_JR_OBJ &&
	             diot_jr_num(diot_jr_get(a, "txns"), 0) > 0;
	p->avg_us = diot_jr_num(diot_jr_get(a, "avg_us"), NAN);
	p->p50_us = diot_jr_num(diot_jr_get(a, "p50_us"), NAN);
	p->p99_us = diot_jr_num(diot_jr_get(a, "p99_us"), NAN);
	p->p999_us = diot_jr_num(diot_jr_get(a, "p999_us"), NAN);
	p->max_us = diot_jr_num(diot_jr_get(a, "max_us"), NAN);
	p->txn_per_s = diot_jr_num(diot_jr_get(a, "txn_per_s"), NAN);
	p->mb_per_s = diot_jr_num(diot_jr_get(a, "mb_per_s"), NAN);
	p->cpu_us = diot_jr_num(diot_jr_get(a, "cpu_us_per_txn"), NAN);
	load_device(diot_jr_get(v, "device"), &dv);
	sw_cmp_dev_keep(&p->dev, &dv);
	p->dev_block = diot_jr_type(diot_jr_get(v, "device")) == DIOT_JR_OBJ;
	return 0;
}

/* The run of a parsed document; -1 (with why) if it is not one. */
static int
load_doc(const struct diot_jr *d, struct cmp_run *r, char *why, size_t wl)
{
	const struct diot_jr *t = diot_jr_get(d, "target"), *c = diot_jr_get(d, "config");
	const struct diot_jr *pts = diot_jr_get(d, "points");
	const char *tool = diot_jr_str(diot_jr_get(d, "tool"));
	const char *doc = diot_jr_str(diot_jr_get(d, "document"));
	double schema = diot_jr_num(diot_jr_get(d, "schema"), 0);
	char layout[16], mode[16];
	int i, n;

	/* A comparison (--compare -f json, or a run of several TARGETs) holds
	 * the points of several runs, not one run's. */
	if (tool != NULL && strcmp(tool, "sync-write") == 0 && doc != NULL &&
	    strcmp(doc, "compare") == 0) {
		snprintf(why, wl, "is the output of %s, not a run's result; compare the runs "
		         "it was made from%s", diot_jr_bool(diot_jr_get(d, "interleaved"), 0) ?
		         "a run of several TARGETs (their comparison)" : "--compare",
		         diot_jr_bool(diot_jr_get(d, "interleaved"), 0) ? " (run each TARGET "
		         "with its own -f json -o FILE)" : "");
		return -1;
	}
	if (tool == NULL || strcmp(tool, "sync-write") != 0 || doc != NULL ||
	    diot_jr_type(pts) != DIOT_JR_ARR) {
		snprintf(why, wl, "not a sync-write result (write one with -f json -o FILE)");
		return -1;
	}
	if (schema != 1) {
		snprintf(why, wl, "a sync-write result of schema %g; this sync-write reads "
		         "schema 1", schema);
		return -1;
	}
	copy_str(r->label, sizeof(r->label), diot_jr_get(d, "label"), "");
	r->labelled = r->label[0] != '\0';
	copy_str(r->host, sizeof(r->host), diot_jr_get(d, "host"), "");
	copy_str(r->started, sizeof(r->started), diot_jr_get(d, "started"), "");
	copy_str(r->os, sizeof(r->os), diot_jr_get(d, "os"), "");
	copy_str(r->backend, sizeof(r->backend), diot_jr_get(d, "backend"), "");
	copy_str(r->target, sizeof(r->target), diot_jr_get(t, "path"), "?");
	copy_str(r->kind, sizeof(r->kind), diot_jr_get(t, "kind"), "?");
	copy_str(r->fs, sizeof(r->fs), diot_jr_get(t, "fs"), "?");
	copy_str(r->disk, sizeof(r->disk), diot_jr_get(t, "disk"), "");
	copy_str(layout, sizeof(layout), diot_jr_get(c, "layout"), "?");
	copy_str(mode, sizeof(mode), diot_jr_get(c, "writers_are"), "?");
	if (diot_jr_num(diot_jr_get(c, "count"), 0) > 0)
		snprintf(r->config, sizeof(r->config), "%s layout, %s, %.15g transactions per "
		         "writer", layout, mode, diot_jr_num(diot_jr_get(c, "count"), 0));
	else
		snprintf(r->config, sizeof(r->config), "%s layout, %s, %g s per point", layout,
		         mode, diot_jr_num(diot_jr_get(c, "time_s"), 0));
	r->interrupted = diot_jr_bool(diot_jr_get(d, "interrupted"), 0);
	n = diot_jr_count(pts);
	r->pts = calloc((size_t)n + 1, sizeof(*r->pts));
	if (r->pts == NULL) {
		snprintf(why, wl, "out of memory (%d points)", n);
		return -1;
	}
	for (i = 0; i < n; i++)
		if (load_point(diot_jr_kid(pts, i), &r->pts[r->npts++], i, why, wl) < 0)
			return -1;
	return 0;
}

/*
 * What --compare keeps of a document: the run's description and, of each
 * point, what the table and the plot show, each only if it has the type
 * it should (a 50 MB array where a name should be is checked and left
 * out).  The rest (per_writer, per_rank, per_host, verify, notes) is
 * checked but takes no memory.
 */
struct keep {
	const char *name;
	int type;
};

static int
keep_in(const struct keep *k, const char *name, int type)
{
	for (; k->name != NULL; k++)
		if (strcmp(k->name, name) == 0)
			return type == k->type ||
			       (k->type == DIOT_JR_NUM && type == DIOT_JR_NULL);
	return 0;
}

static int
keep_member(const struct diot_jr_step *path, int n, int type, void *arg)
{
	static const struct keep top[] = {
		{ "tool", DIOT_JR_STR }, { "document", DIOT_JR_STR },
		{ "interleaved", DIOT_JR_BOOL }, { "schema", DIOT_JR_NUM },
		{ "label", DIOT_JR_STR }, { "host", DIOT_JR_STR }, { "started", DIOT_JR_STR },
		{ "os", DIOT_JR_STR }, { "backend", DIOT_JR_STR }, { "target", DIOT_JR_OBJ },
		{ "config", DIOT_JR_OBJ }, { "interrupted", DIOT_JR_BOOL },
		{ "points", DIOT_JR_ARR }, { NULL, 0 } };
	static const struct keep target[] = {
		{ "path", DIOT_JR_STR }, { "kind", DIOT_JR_STR }, { "fs", DIOT_JR_STR },
		{ "disk", DIOT_JR_STR }, { NULL, 0 } };
	static const struct keep config[] = {
		{ "layout", DIOT_JR_STR }, { "writers_are", DIOT_JR_STR },
		{ "count", DIOT_JR_NUM }, { "time_s", DIOT_JR_NUM }, { NULL, 0 } };
	static const struct keep point[] = {
		{ "method", DIOT_JR_STR }, { "size_bytes", DIOT_JR_NUM },
		{ "writers", DIOT_JR_NUM }, { "status", DIOT_JR_STR },
		{ "aggregate", DIOT_JR_OBJ }, { "device", DIOT_JR_OBJ }, { NULL, 0 } };
	static const struct keep device[] = {
		{ "counted", DIOT_JR_STR }, { "why", DIOT_JR_STR }, { "txns", DIOT_JR_NUM },
		{ "writes", DIOT_JR_NUM }, { "bytes", DIOT_JR_NUM }, { "flushes", DIOT_JR_NUM },
		{ "writes_per_txn", DIOT_JR_NUM }, { "bytes_per_txn", DIOT_JR_NUM },
		{ "flushes_per_txn", DIOT_JR_NUM }, { "amplification", DIOT_JR_NUM },
		{ "baseline", DIOT_JR_OBJ }, { NULL, 0 } };
	static const struct keep baseline[] = {
		{ "seconds", DIOT_JR_NUM }, { "writes", DIOT_JR_NUM }, { "bytes", DIOT_JR_NUM },
		{ "flushes", DIOT_JR_NUM }, { NULL, 0 } };
	static const struct keep aggregate[] = {
		{ "txns", DIOT_JR_NUM }, { "avg_us", DIOT_JR_NUM }, { "p50_us", DIOT_JR_NUM },
		{ "p99_us", DIOT_JR_NUM }, { "p999_us", DIOT_JR_NUM },
		{ "max_us", DIOT_JR_NUM }, { "txn_per_s", DIOT_JR_NUM },
		{ "mb_per_s", DIOT_JR_NUM }, { "cpu_us_per_txn", DIOT_JR_NUM },
		{ NULL, 0 } };
	const char *last = path[n - 1].key;
	long *not_object = arg;

	if (path[0].key == NULL)                    /* the document is an array */
		return 0;
	if (n == 1)
		return keep_in(top, last, type);
	if (n == 2 && strcmp(path[0].key, "target") == 0)
		return keep_in(target, last, type);
	if (n == 2 && strcmp(path[0].key, "config") == 0)
		return keep_in(config, last, type);
	if (n == 2 && type != DIOT_JR_OBJ && *not_object < 0)   /* a point? */
		*not_object = (long)path[1].index;
	if (n == 2)
		return type == DIOT_JR_OBJ;
	if (last == NULL)                           /* not kept above */
		return 0;
	if (n == 3)                                 /* a member of a point */
		return keep_in(point, last, type);
	if (n >= 4 && strcmp(path[2].key, "device") == 0)   /* what the disks saw */
		return n == 4 ? keep_in(device, last, type)
		       : n == 5 && path[3].key != NULL && strcmp(path[3].key, "baseline") == 0 &&
		         keep_in(baseline, last, type);
	return n == 4 && keep_in(aggregate, last, type);
}

int
sw_cmp_load(struct cmp_run *r, const char *file, const char *text, size_t len,
            int give_text, char *why, size_t wl)
{
	struct diot_jr *d;
	char what[400];
	long not_object = -1;
	int rc;

	memset(r, 0, sizeof(*r));
	r->file = file;
	rc = diot_jr_parse_keep(text, len, keep_member, &not_object, &d, what,
	                        sizeof(what));
	if (give_text)
		free((char *)text);
	if (rc == -EINVAL) {
		snprintf(why, wl, "'%s' is not valid JSON: %s", file, what);
		return -1;
	}
	if (rc < 0) {                   /* -ERANGE, -EFBIG, -ENOMEM */
		snprintf(why, wl, "'%s': %s", file, what);
		return -1;
	}
	rc = load_doc(d, r, what, sizeof(what));
	if (rc == 0 && not_object >= 0) {
		snprintf(what, sizeof(what), "points[%ld] is not a point (an object)",
		         not_object);
		rc = -1;
	}
	diot_jr_free(d);
	if (rc < 0) {
		snprintf(why, wl, "'%s'%s%s", file, strncmp(what, "is ", 3) == 0 ? " " : ": ",
		         what);
		free(r->pts);
		r->pts = NULL;
		r->npts = 0;
		return -1;
	}
	return 0;
}
