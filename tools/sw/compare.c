/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * compare.c -- sync-write --compare's model: the runs to compare (saved
 * ones read by compare-load.c, or measured now: sw_cmp_from_run) named,
 * and aligned on the points they share, for the reports
 * (compare-report.c).  Nothing on the way from a document's bytes to the
 * reports exits, so that a fuzzer can drive the loader, the table and
 * the plot on any bytes (sw_cmp_memory, compare-memory.c).  The command
 * itself (files, outputs, signals) is compare-main.c.
 *
 * The path: each input read (compare-load.c) -> labels (the run's
 * --label, else what it ran on) -> keys (method, size, writers) in the
 * first run's order, shared ones first -> table, CSV or JSON, and the
 * plot.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/kit/msg.h"
#include "tools/sw/compare.h"

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

	sw_cmp_dev_keep(&p->dev, &q->dev);
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
