/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * compare.c -- sync-write --compare's model: saved runs (the documents -f
 * json wrote) read from memory, named, and aligned on the points they
 * share, for the reports (compare-report.c).  Nothing on the way from a
 * document's bytes to the reports exits: a document that is not a run's
 * result is said in a message (sw_cmp_load), so that a fuzzer can drive
 * the loader, the table and the plot on any bytes (sw_cmp_memory,
 * compare-memory.c).  The command itself (files, outputs, signals) is
 * compare-main.c.
 *
 * The path: each input is parsed keeping only what is compared (jread.h's
 * keep function: the points' per-writer figures are checked but take no
 * memory) and checked (a sync-write result of schema 1, or a clear
 * refusal) -> labels (the run's --label, else what it ran on) -> keys
 * (method, size, writers) in the first run's order, shared ones first ->
 * table, CSV or JSON, and the plot.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/kit/jread.h"
#include "tools/kit/msg.h"
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
static void
dev_keep(struct cmp_dev *k, const struct sw_devcount *d)
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
	dev_keep(&p->dev, &dv);
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

/* The file system as a run's name says it: "unknown file system" (a
 * backend that cannot tell, as posix) says "file". */
static const char *
fs_word(const struct cmp_run *r)
{
	return strncmp(r->fs, "unknown", 7) == 0 ? "file" : r->fs;
}

/* Runs without a --label are named by what they ran on: "ext4 on vda",
 * with the host when the runs come from several; names left equal get
 * their run number. */
static int
name_runs(struct cmp *c)
{
	char *alike = calloc((size_t)c->nruns + 1, 1);
	int i, k, hosts = 0;

	if (alike == NULL)
		return -1;
	for (i = 1; i < c->nruns; i++)
		if (strcmp(c->runs[i].host, c->runs[0].host) != 0)
			hosts = 1;
	for (i = 0; i < c->nruns; i++) {
		struct cmp_run *r = &c->runs[i];
		char dir[sizeof(r->target)], where[24], *slash;

		if (r->labelled)
			continue;
		/* A temporary file's name says nothing; its directory's does. */
		snprintf(dir, sizeof(dir), "%s", r->target);
		slash = strrchr(dir, '/');
		if (strcmp(r->kind, "temporary file") != 0)
			snprintf(where, sizeof(where), "%.20s", slash ? slash + 1 : dir);
		else if (slash == NULL)
			snprintf(where, sizeof(where), "in .");
		else if (slash == dir)
			snprintf(where, sizeof(where), "in /");
		else {
			*slash = '\0';
			slash = strrchr(dir, '/');
			snprintf(where, sizeof(where), "in %.17s", slash ? slash + 1 : dir);
		}
		snprintf(r->label, sizeof(r->label), "%.12s %s%.12s%s%.12s", fs_word(r),
		         r->disk[0] ? "on " : "", r->disk[0] ? r->disk : where,
		         hosts ? " @" : "", hosts ? r->host : "");
	}
	/* Made names alike (two files on one disk): the files' names instead. */
	for (i = 0; i < c->nruns; i++)
		for (k = 0, alike[i] = 0; k < c->nruns; k++)
			if (k != i && !c->runs[i].labelled &&
			    strcmp(c->runs[i].kind, "temporary file") != 0 &&
			    strcmp(c->runs[i].label, c->runs[k].label) == 0)
				alike[i] = 1;
	for (i = 0; i < c->nruns; i++)
		if (alike[i]) {
			const char *slash = strrchr(c->runs[i].target, '/');

			snprintf(c->runs[i].label, sizeof(c->runs[i].label), "%.12s %.26s",
			         fs_word(&c->runs[i]), slash ? slash + 1 : c->runs[i].target);
		}
	for (i = 0; i < c->nruns; i++)
		for (k = i + 1; k < c->nruns; k++)
			if (strcmp(c->runs[i].label, c->runs[k].label) == 0) {
				char t[sizeof(c->runs[k].label)];

				snprintf(t, sizeof(t), "%.*s #%d", SW_LABEL_BYTES, c->runs[k].label,
				         k + 1);
				memcpy(c->runs[k].label, t, sizeof(t));
			}
	free(alike);
	return 0;
}

/* Is p among the points -m, -s and -w ask for (all, if not given)? */
static int
wanted(const struct sw_opts *o, const struct cmp_point *p)
{
	int i, ok;

	if (o == NULL)
		return 1;
	for (i = 0, ok = !o->methods_given; i < o->nmethods && !ok; i++)
		ok = strcmp(o->methods[i].name, p->method) == 0;
	if (!ok)
		return 0;
	for (i = 0, ok = !o->sizes_given; i < o->nsizes && !ok; i++)
		ok = o->sizes[i] == p->size;
	if (!ok)
		return 0;
	for (i = 0, ok = !o->writers_given; i < o->nwriters && !ok; i++)
		ok = o->writers[i] == (uint64_t)p->writers;
	return ok;
}

/* A key's hash (FNV-1a over the method, then the size and writers). */
static uint64_t
key_hash(const char *method, uint64_t size, int writers)
{
	uint64_t h = 1469598103934665603ull;
	const unsigned char *s = (const unsigned char *)method;

	for (; *s; s++)
		h = (h ^ *s) * 1099511628211ull;
	h = (h ^ size) * 1099511628211ull;
	return (h ^ (uint64_t)(unsigned)writers) * 1099511628211ull;
}

/*
 * The keys of every wanted point of every run; shared ones first, each
 * group in the order of the first run that has it.  Keys are found in a
 * hash table (open addressing, at most half full), so that runs of many
 * points align in time linear in their number; each key's at is a row of
 * one block.  Returns -1 when out of memory.
 */
static int
align(struct cmp *c, const struct sw_opts *o)
{
	size_t total = 0, cap = 16, mask, h, nr = (size_t)c->nruns;
	int r, i, k, *table = NULL;
	struct cmp_key *keys = NULL, *sorted = NULL;

	for (r = 0; r < c->nruns; r++)
		total += (size_t)c->runs[r].npts;
	while (cap < 2 * total + 2)
		cap *= 2;
	mask = cap - 1;
	keys = calloc(total + 1, sizeof(*keys));
	table = malloc(cap * sizeof(*table));
	c->at = malloc((total + 1) * nr * sizeof(int));
	if (keys == NULL || table == NULL || c->at == NULL)
		goto nomem;
	memset(table, 0xff, cap * sizeof(*table));
	for (r = 0; r < c->nruns; r++)
		for (i = 0; i < c->runs[r].npts; i++) {
			const struct cmp_point *p = &c->runs[r].pts[i];

			if (!wanted(o, p))
				continue;
			for (h = key_hash(p->method, p->size, p->writers) & mask;
			     (k = table[h]) >= 0; h = (h + 1) & mask)
				if (keys[k].size == p->size && keys[k].writers == p->writers &&
				    strcmp(keys[k].method, p->method) == 0)
					break;
			if (k < 0) {
				k = c->nkeys++;
				keys[k].method = p->method;
				keys[k].size = p->size;
				keys[k].writers = p->writers;
				keys[k].at = c->at + (size_t)k * nr;
				memset(keys[k].at, 0xff, nr * sizeof(int));
				table[h] = k;
			}
			keys[k].at[r] = i;
		}
	free(table);
	table = NULL;
	/* Stable: shared keys to the front (through a second array: a
	 * move per key, not a shift). */
	sorted = malloc(((size_t)c->nkeys + 1) * sizeof(*sorted));
	if (sorted == NULL)
		goto nomem;
	for (k = 0; k < c->nkeys; k++) {
		keys[k].shared = 1;
		for (r = 0; r < c->nruns && keys[k].shared; r++)
			if (keys[k].at[r] < 0)
				keys[k].shared = 0;
		if (keys[k].shared)
			sorted[c->nshared++] = keys[k];
	}
	for (i = c->nshared, k = 0; k < c->nkeys; k++)
		if (!keys[k].shared)
			sorted[i++] = keys[k];
	free(keys);
	c->keys = sorted;
	return 0;
nomem:
	free(table);
	free(keys);
	free(c->at);
	c->at = NULL;
	c->nkeys = c->nshared = 0;
	return -1;
}

double
sw_cmp_ratio(double v, double first)
{
	if (!isfinite(v) || !isfinite(first) || first == 0)
		return NAN;
	return v / first;
}

void
sw_cmp_release(struct cmp *c)
{
	int i;

	for (i = 0; i < c->nruns && c->runs != NULL; i++)
		free(c->runs[i].pts);
	free(c->at);
	free(c->keys);
	free(c->runs);
	memset(c, 0, sizeof(*c));
}

/* A point measured now: its device counts and hints, as load_device()
 * reads a result's. */
static void
dev_of_run(struct cmp_point *p, const struct sw_point *q)
{
	int k;

	dev_keep(&p->dev, &q->dev);
	p->dev_block = 1;
	for (k = 0; k < SW_POINT_DEV_HINTS; k++)
		p->dev_hint_kind[k] = q->dev_hint_kind[k];
	p->dev_disks = q->dev_disks;   /* the run's points outlive the report */
}

void
sw_cmp_from_run(struct cmp_run *r, const struct sw_run *run, const struct sw_point *pts,
                int n)
{
	int i;

	memset(r, 0, sizeof(*r));
	snprintf(r->label, sizeof(r->label), "%s", run->label ? run->label : "");
	r->labelled = run->label != NULL;
	snprintf(r->host, sizeof(r->host), "%s", run->host);
	snprintf(r->started, sizeof(r->started), "%s", run->started);
	snprintf(r->os, sizeof(r->os), "%s", run->os);
	snprintf(r->backend, sizeof(r->backend), "%s", run->backend);
	snprintf(r->target, sizeof(r->target), "%s", run->target);
	snprintf(r->kind, sizeof(r->kind), "%s", run->target_kind);
	snprintf(r->fs, sizeof(r->fs), "%s", run->fstype);
	snprintf(r->disk, sizeof(r->disk), "%s", run->disk ? run->disk : "");
	snprintf(r->not_durable, sizeof(r->not_durable), "%s", run->not_durable ?
	         run->not_durable : "");
	if (run->count)
		snprintf(r->config, sizeof(r->config), "%s layout, %s, %llu transactions per "
		         "writer", run->layout, run->mode, (unsigned long long)run->count);
	else
		snprintf(r->config, sizeof(r->config), "%s layout, %s, %g s per point",
		         run->layout, run->mode, run->time_s);
	r->interrupted = run->interrupted;
	r->pts = calloc((size_t)n + 1, sizeof(*r->pts));
	if (r->pts == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	for (i = 0, r->npts = 0; i < n; i++) {
		struct cmp_point *p = &r->pts[r->npts];
		const struct sw_stats *s = &pts[i].agg;
		static const char *const status[] = { "ok", "n/a", "error", "interrupted" };

		/* A point this target never reached (the run was stopped on an
		 * earlier target's turn) is not one of its points. */
		if (pts[i].method[0] == '\0' || pts[i].writers < 1)
			continue;
		r->npts++;
		snprintf(p->method, sizeof(p->method), "%s", pts[i].method);
		p->size = pts[i].size;
		p->writers = pts[i].writers;
		snprintf(p->status, sizeof(p->status), "%s", status[pts[i].status & 3]);
		p->measured = pts[i].status == SW_OK && s->txns > 0;
		p->partial = pts[i].status == SW_INTERRUPTED && s->txns > 0;
		p->avg_us = s->avg_us;
		p->p50_us = s->p50_us;
		p->p99_us = s->p99_us;
		p->p999_us = s->p999_us;
		p->max_us = s->max_us;
		p->txn_per_s = s->txn_per_s;
		p->mb_per_s = s->mb_per_s;
		p->cpu_us = s->cpu_us_per_txn;
		p->hint_kind = pts[i].hint_kind;
		dev_of_run(p, &pts[i]);
	}
}

void
sw_cmp_not_run(struct cmp_run *r, const struct sw_point *key)
{
	struct cmp_point *p = &r->pts[r->npts++];

	memset(p, 0, sizeof(*p));
	snprintf(p->method, sizeof(p->method), "%s", key->method);
	p->size = key->size;
	p->writers = key->writers;
	snprintf(p->status, sizeof(p->status), "interrupted");
	p->not_run = 1;
	p->dev.state = SW_DEV_NA;        /* the point did not run */
}

/* What run r is called in messages: "TARGET 2 'x'" or "'b.json'". */
static void
run_name(const struct cmp *c, int r, char *b, size_t len)
{
	if (c->interleaved || c->runs[r].file == NULL)
		snprintf(b, len, "TARGET %d '%s'", r + 1, c->runs[r].target);
	else
		snprintf(b, len, "'%s'", c->runs[r].file);
}

/*
 * Why nothing is compared, said: a run without a measured point (an
 * interrupted run says so), else the points -m, -s, -w pick, else runs
 * of different points.
 */
static void
say_nothing_shared(const struct cmp *c, const struct sw_opts *o)
{
	const char *who = c->interleaved ? "" : "--compare: ";
	int r, i, empty = 0;
	char name[600];

	for (r = 0; r < c->nruns; r++) {
		int measured = 0;

		for (i = 0; i < c->runs[r].npts; i++)
			measured += c->runs[r].pts[i].measured || c->runs[r].pts[i].partial;
		if (measured > 0)
			continue;
		empty = 1;
		run_name(c, r, name, sizeof(name));
		if (c->runs[r].interrupted)
			diot_warn("%s%s: the run was interrupted before %s point was "
			          "measured%s", who, name, c->runs[r].npts ? "any" : "its first",
			          c->runs[r].npts ? "" : " (it has no point)");
		else
			diot_warn("%s%s has no measured point (%d point%s, none with status "
			          "ok)", who, name, c->runs[r].npts, c->runs[r].npts == 1 ? "" : "s");
	}
	if (c->nshared > 0 || empty)
		return;
	diot_warn("%sthe runs share no point%s", who, o != NULL && (o->methods_given ||
	          o->sizes_given || o->writers_given) ? " among those -m, -s, -w pick" : "");
}

int
sw_cmp_prepare(struct cmp *c, const struct sw_opts *o)
{
	c->wide = o != NULL && o->wide;
	if (name_runs(c) < 0 || align(c, o) < 0) {
		if (!c->quiet)
			diot_warn("out of memory");
		return -1;
	}
	if (!c->quiet)
		say_nothing_shared(c, o);
	return 0;
}
