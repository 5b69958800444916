/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * interleave.c -- sync-write TARGET TARGET...: several targets measured in
 * one run, each point on every target in turn (1, 2, 1, 2, ...), so that
 * what drifts while a run goes on (other load, the host's caches, thermal
 * state) falls on all of them alike.  The results are reported side by
 * side, as --compare reports saved runs (compare-report.c).
 *
 * The path: a context per target (its own copy of the options, with its
 * TARGET and --label) -> the outputs claimed once -> every target set up
 * (refused if two are one file) -> the points (run.c's sw_run_points
 * with all the contexts) -> the comparison, the plot, the exit status.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tools/kit/msg.h"
#include "tools/kit/outfile.h"
#include "tools/sw/compare.h"

/* Two TARGETs that are one file (or one device), or one that is a file
 * another's writers write (--layout separate), would be measured against
 * each other's writes: refused once all exist (target.c; the run's new
 * files are removed at exit). */
static void
distinct_targets(const struct sw_ctx *c, int nt)
{
	sw_targets_apart(c, nt);
}

/* The comparison of what the targets measured; the exit status. */
static int
report(struct sw_ctx *c, int nt, FILE *fp, struct sw_run *runs, struct sw_point **pts,
       int n)
{
	const struct sw_opts *o = c[0].o;
	struct cmp cmp;
	int k, r, error = 0;

	memset(&cmp, 0, sizeof(cmp));
	cmp.interleaved = 1;
	cmp.nruns = nt;
	cmp.runs = calloc(SW_MAX_TARGETS, sizeof(*cmp.runs));
	if (cmp.runs == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	for (k = 0; k < nt; k++) {
		runs[k].interrupted = *c[k].sig != 0;
		for (r = 0; r < n; r++)
			if (pts[k][r].status == SW_ERROR) {
				diot_warn("TARGET %d '%s': %s", k + 1, runs[k].target,
				          pts[k][r].note);
				error = 1;
			}
		sw_cmp_from_run(&cmp.runs[k], &runs[k], pts[k], n);
		/* Stopped on an earlier TARGET's turn at the last point: that
		 * point is shown for every TARGET, not left out. */
		if (n > 0 && pts[k][n - 1].method[0] == '\0')
			sw_cmp_not_run(&cmp.runs[k], &pts[0][n - 1]);
	}
	if (sw_cmp_prepare(&cmp, o) < 0)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	r = sw_cmp_report(o, fp, &cmp);
	sw_cmp_release(&cmp);
	if (*c[0].sig)
		return 128 + (int)*c[0].sig;
	return error || r < 0 ? DIOT_EXIT_FAIL : 0;
}

int
sw_interleave_main(struct sw_opts *o, struct sw_outputs *out,
                   const volatile sig_atomic_t *sig)
{
	static struct sw_opts ok[SW_MAX_TARGETS];
	static struct sw_ctx c[SW_MAX_TARGETS];
	static struct sw_run runs[SW_MAX_TARGETS];
	static struct sw_point *pts[SW_MAX_TARGETS];
	int nt = o->noperands, k, total, n = 0, r;
	FILE *fp;

	for (k = 0; k < nt; k++) {
		ok[k] = *o;
		ok[k].target = o->operands[k];
		ok[k].label = o->nlabels ? o->labels[k] : NULL;
		sw_ctx_init(&c[k], &ok[k], sig);
		c[k].created = &out->created;
	}
	sw_claim_outputs(&c[0], out);
	for (k = 0; k < nt && !*sig; k++) {
		c[k].created = &out->created;
		sw_setup_target(&c[k], o->writers[o->nwriters - 1], o->sizes[o->nsizes - 1]);
	}
	if (*sig) {
		for (k = 0; k < nt; k++)
			sw_release(&c[k], NULL, 0);
		return 128 + (int)*sig;
	}
	distinct_targets(c, nt);
	fp = sw_begin_run(&c[0], out);
	total = o->nwriters * o->nmethods * o->nsizes;
	for (k = 0; k < nt; k++) {
		c[k].progress_on = c[0].progress_on;
		sw_describe_run(&c[k], &runs[k]);
		pts[k] = calloc((size_t)total, sizeof(*pts[k]));
		if (pts[k] == NULL)
			diot_die(DIOT_EXIT_FAIL, "out of memory");
	}
	sw_run_points(c, nt, fp, pts, &n);
	r = report(c, nt, fp, runs, pts, n);
	for (k = 0; k < nt; k++)
		sw_release(&c[k], pts[k], total);
	free(o->methods);
	free(o->sizes);
	free(o->writers);
	return r;
}
