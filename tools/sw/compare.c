/*
 * compare.c -- sync-write --compare RESULT.json...: read saved runs (the
 * documents -f json wrote), name each, align them on the points they
 * share, and hand them to the reports (compare-report.c).
 *
 * The path: the outputs are claimed (-o, --plot: distinct from each other
 * and from every input) -> each input is read and checked (a sync-write
 * result of schema 1, or a clear refusal) -> labels (the run's --label,
 * else what it ran on) -> keys (method, size, writers) in the first run's
 * order, shared ones first -> table, CSV or JSON, and the plot.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/kit/jread.h"
#include "tools/kit/util.h"
#include "tools/sw/compare.h"

#define CMP_MAX_BYTES (64u << 20)   /* a saved result is far smaller */

/* The whole of a file (or a pipe: <(ssh host cat run.json) works). */
static char *
slurp(const char *path, size_t *len, int *err)
{
	size_t cap = 1 << 16, n = 0;
	char *b = malloc(cap), *nb;
	ssize_t r;
	int fd = open(path, O_RDONLY);

	*err = 0;
	if (fd < 0 || b == NULL) {
		*err = fd < 0 ? errno : ENOMEM;
		if (fd >= 0)
			close(fd);
		free(b);
		return NULL;
	}
	for (;;) {
		if (n == cap) {
			if (cap >= CMP_MAX_BYTES) {
				*err = EFBIG;
				break;
			}
			nb = realloc(b, cap *= 2);
			if (nb == NULL) {
				*err = ENOMEM;
				break;
			}
			b = nb;
		}
		r = read(fd, b + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			*err = errno;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (*err) {
		free(b);
		return NULL;
	}
	*len = n;
	return b;
}

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

/* One point of the document; -1 (with why) if it is not a point. */
static int
load_point(const struct diot_jr *v, struct cmp_point *p, char *why, size_t wl)
{
	const struct diot_jr *a = diot_jr_get(v, "aggregate");
	const char *m = diot_jr_str(diot_jr_get(v, "method"));
	double size = diot_jr_num(diot_jr_get(v, "size_bytes"), -1);
	double wr = diot_jr_num(diot_jr_get(v, "writers"), -1);

	memset(p, 0, sizeof(*p));
	if (m == NULL || strlen(m) >= sizeof(p->method) || size < 1 || size > 1e15 ||
	    size != floor(size) || wr < 1 || wr > SW_MAX_WRITERS || wr != floor(wr)) {
		snprintf(why, wl, "a point without a valid method, size_bytes or writers");
		return -1;
	}
	snprintf(p->method, sizeof(p->method), "%s", m);
	p->size = (uint64_t)size;
	p->writers = (int)wr;
	copy_str(p->status, sizeof(p->status), diot_jr_get(v, "status"), "?");
	p->measured = strcmp(p->status, "ok") == 0 && a != NULL && a->type == DIOT_JR_OBJ &&
	              diot_jr_num(diot_jr_get(a, "txns"), 0) > 0;
	p->avg_us = diot_jr_num(diot_jr_get(a, "avg_us"), NAN);
	p->p50_us = diot_jr_num(diot_jr_get(a, "p50_us"), NAN);
	p->p99_us = diot_jr_num(diot_jr_get(a, "p99_us"), NAN);
	p->p999_us = diot_jr_num(diot_jr_get(a, "p999_us"), NAN);
	p->max_us = diot_jr_num(diot_jr_get(a, "max_us"), NAN);
	p->txn_per_s = diot_jr_num(diot_jr_get(a, "txn_per_s"), NAN);
	p->mb_per_s = diot_jr_num(diot_jr_get(a, "mb_per_s"), NAN);
	p->cpu_us = diot_jr_num(diot_jr_get(a, "cpu_us_per_txn"), NAN);
	return 0;
}

/* The run of a parsed document; -1 (with why) if it is not one. */
static int
load_doc(const struct diot_jr *d, struct cmp_run *r, char *why, size_t wl)
{
	const struct diot_jr *t = diot_jr_get(d, "target"), *c = diot_jr_get(d, "config");
	const struct diot_jr *pts = diot_jr_get(d, "points");
	const char *tool = diot_jr_str(diot_jr_get(d, "tool"));
	double schema = diot_jr_num(diot_jr_get(d, "schema"), 0);
	char layout[16], mode[16];
	int i;

	if (tool == NULL || strcmp(tool, "sync-write") != 0 || pts == NULL ||
	    pts->type != DIOT_JR_ARR) {
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
		snprintf(r->config, sizeof(r->config), "%s layout, %s, %g transactions per "
		         "writer", layout, mode, diot_jr_num(diot_jr_get(c, "count"), 0));
	else
		snprintf(r->config, sizeof(r->config), "%s layout, %s, %g s per point", layout,
		         mode, diot_jr_num(diot_jr_get(c, "time_s"), 0));
	r->interrupted = diot_jr_bool(diot_jr_get(d, "interrupted"), 0);
	r->pts = calloc((size_t)pts->nkids + 1, sizeof(*r->pts));
	if (r->pts == NULL) {
		snprintf(why, wl, "out of memory");
		return -1;
	}
	for (i = 0; i < pts->nkids; i++)
		if (load_point(&pts->kids[i], &r->pts[r->npts++], why, wl) < 0)
			return -1;
	return 0;
}

/* Read and check the run saved in file; exits on a file that is not one. */
static void
load_run(const char *file, struct cmp_run *r)
{
	struct diot_jr *d;
	char why[300];
	size_t len = 0;
	int e, rc;
	char *text = slurp(file, &len, &e);

	memset(r, 0, sizeof(*r));
	r->file = file;
	if (text == NULL)
		diot_die(DIOT_EXIT_USAGE, "--compare: cannot read '%s': %s", file,
		         e == EFBIG ? "larger than any saved result (64 MiB)" : dio_strerror(-e));
	rc = diot_jr_parse(text, len, &d, why, sizeof(why));
	free(text);
	if (rc < 0)
		diot_die(DIOT_EXIT_USAGE, "--compare: '%s' is not valid JSON: %s", file, why);
	rc = load_doc(d, r, why, sizeof(why));
	diot_jr_free(d);
	if (rc < 0)
		diot_die(DIOT_EXIT_USAGE, "--compare: '%s': %s", file, why);
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
static void
name_runs(struct cmp *c)
{
	char *alike = calloc((size_t)c->nruns + 1, 1);
	int i, k, hosts = 0;

	if (alike == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
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
}

/* Is p among the points -m, -s and -w ask for (all, if not given)? */
static int
wanted(const struct sw_opts *o, const struct cmp_point *p)
{
	int i, ok;

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

/* The keys of every wanted point of every run; shared ones first, each
 * group in the order of the first run that has it. */
static void
align(struct cmp *c, const struct sw_opts *o)
{
	int r, i, k, total = 0;
	struct cmp_key *keys, tmp;

	for (r = 0; r < c->nruns; r++)
		total += c->runs[r].npts;
	keys = calloc((size_t)total + 1, sizeof(*keys));
	if (keys == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	for (r = 0; r < c->nruns; r++)
		for (i = 0; i < c->runs[r].npts; i++) {
			const struct cmp_point *p = &c->runs[r].pts[i];

			if (!wanted(o, p))
				continue;
			for (k = 0; k < c->nkeys; k++)
				if (strcmp(keys[k].method, p->method) == 0 &&
				    keys[k].size == p->size && keys[k].writers == p->writers)
					break;
			if (k == c->nkeys) {
				snprintf(keys[k].method, sizeof(keys[k].method), "%s", p->method);
				keys[k].size = p->size;
				keys[k].writers = p->writers;
				keys[k].at = malloc((size_t)c->nruns * sizeof(int));
				if (keys[k].at == NULL)
					diot_die(DIOT_EXIT_FAIL, "out of memory");
				memset(keys[k].at, 0xff, (size_t)c->nruns * sizeof(int));
				c->nkeys++;
			}
			keys[k].at[r] = i;
		}
	/* Stable: shared keys to the front. */
	for (k = 0; k < c->nkeys; k++) {
		keys[k].shared = 1;
		for (r = 0; r < c->nruns; r++)
			if (keys[k].at[r] < 0)
				keys[k].shared = 0;
		if (!keys[k].shared)
			continue;
		tmp = keys[k];
		memmove(&keys[c->nshared + 1], &keys[c->nshared],
		        (size_t)(k - c->nshared) * sizeof(*keys));
		keys[c->nshared++] = tmp;
	}
	c->keys = keys;
}

double
sw_cmp_ratio(double v, double first)
{
	if (!isfinite(v) || !isfinite(first) || first == 0)
		return NAN;
	return v / first;
}

/* -o and --plot: writable, distinct from each other and from every input
 * (a comparison must not write over the results it reads). */
static void
claim(const struct sw_opts *o, struct sw_outputs *out)
{
	int i;

	diot_out_init(&out->created);
	diot_out_remove_at_exit(&out->created);
	for (i = 0; i < o->noperands; i++) {
		if (o->output && strcmp(o->output, "-") != 0 &&
		    diot_out_same(o->output, o->operands[i]))
			diot_usage_error("--output '%s' is the result '%s' being compared: "
			                 "name a new file", o->output, o->operands[i]);
		if (o->plot && diot_out_same(o->plot, o->operands[i]))
			diot_usage_error("--plot '%s' is the result '%s' being compared: name "
			                 "a new file", o->plot, o->operands[i]);
	}
	if (o->plot)
		sw_open_results_file(out, o->plot, "--plot");
	if (o->output && strcmp(o->output, "-") != 0)
		sw_open_results_file(out, o->output, "--output");
	sw_distinct_outputs(o);     /* once they exist, so that they can be told apart */
	signal(SIGPIPE, SIG_IGN);
}

void
sw_cmp_release(struct cmp *c)
{
	int i;

	for (i = 0; i < c->nruns; i++)
		free(c->runs[i].pts);
	for (i = 0; i < c->nkeys; i++)
		free(c->keys[i].at);
	free(c->keys);
	free(c->runs);
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
	for (i = 0; i < n; i++) {
		struct cmp_point *p = &r->pts[i];
		const struct sw_stats *s = &pts[i].agg;
		static const char *const status[] = { "ok", "n/a", "error", "interrupted" };

		snprintf(p->method, sizeof(p->method), "%s", pts[i].method);
		p->size = pts[i].size;
		p->writers = pts[i].writers;
		snprintf(p->status, sizeof(p->status), "%s", status[pts[i].status & 3]);
		p->measured = pts[i].status == SW_OK && s->txns > 0;
		p->avg_us = s->avg_us;
		p->p50_us = s->p50_us;
		p->p99_us = s->p99_us;
		p->p999_us = s->p999_us;
		p->max_us = s->max_us;
		p->txn_per_s = s->txn_per_s;
		p->mb_per_s = s->mb_per_s;
		p->cpu_us = s->cpu_us_per_txn;
	}
	r->npts = n;
}

void
sw_cmp_prepare(struct cmp *c, const struct sw_opts *o)
{
	name_runs(c);
	align(c, o);
	if (c->nshared == 0)
		diot_warn("%s: the runs share no point%s", c->interleaved ? "sync-write" :
		          "--compare", o->methods_given || o->sizes_given || o->writers_given
		          ? " among those -m, -s, -w pick" : "");
}

int
sw_cmp_report(const struct sw_opts *o, FILE *fp, const struct cmp *c)
{
	int bad = 0;

	if (o->format == SW_FMT_CSV)
		sw_cmp_csv(fp, c);
	else if (o->format == SW_FMT_JSON)
		sw_cmp_json(fp, c);
	else
		sw_cmp_table(fp, c);
	if (o->plot && c->nshared == 0) {
		diot_warn("--plot '%s': no point is in every run: nothing to draw", o->plot);
		bad = 1;
	} else if (o->plot && sw_cmp_plot(o->plot, c) != 0) {
		diot_warn("--plot '%s': cannot write the plot: %s", o->plot,
		          dio_strerror(-errno));
		bad = 1;
	}
	if (sw_close_results(o, fp) != 0)
		bad = 1;
	return bad ? -1 : 0;
}

int
sw_compare_main(const struct sw_opts *o, struct sw_outputs *out)
{
	struct cmp c;
	FILE *fp;
	int i, r;

	claim(o, out);
	memset(&c, 0, sizeof(c));
	c.nruns = o->noperands;
	c.runs = calloc((size_t)c.nruns, sizeof(*c.runs));
	if (c.runs == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	for (i = 0; i < c.nruns; i++)
		load_run(o->operands[i], &c.runs[i]);
	sw_cmp_prepare(&c, o);
	fp = sw_open_results(o, out);
	r = sw_cmp_report(o, fp, &c);
	sw_cmp_release(&c);
	return r < 0 ? DIOT_EXIT_FAIL : 0;
}
