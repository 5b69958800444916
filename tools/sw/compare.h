/*
 * compare.h -- sync-write --compare's model: saved runs (compare.c reads
 * them), aligned on the points they share, and reported side by side
 * (compare-report.c).
 */
#ifndef SW_COMPARE_H
#define SW_COMPARE_H

#include <stdint.h>
#include <stdio.h>

#include "tools/sw/sw.h"

/* One point of a saved run: what the comparison shows of it. */
struct cmp_point {
	char method[32];
	uint64_t size;
	int writers;
	int measured;            /* status ok (or partial) with an aggregate */
	char status[16];         /* "ok", "n/a", "error", "interrupted"      */
	double avg_us, p50_us, p99_us, p999_us, max_us, txn_per_s, mb_per_s, cpu_us;
};

/* A saved run (one --format json document). */
struct cmp_run {
	const char *file;
	char label[SW_LABEL_BYTES + 16]; /* its --label, or made from what it ran on */
	int labelled;                    /* the label is the run's own           */
	char host[256], started[32], os[300], backend[32];
	char target[512], kind[32], fs[64], disk[64];
	char config[160];                /* layout, writers are, time or count   */
	int interrupted;
	struct cmp_point *pts;
	int npts;
};

/* The comparison: the runs, and the points shown (index into each run's
 * pts, -1 where that run lacks it, which only left-out points have). */
struct cmp_key {
	char method[32];
	uint64_t size;
	int writers;
	int *at;                 /* [nruns] */
	int shared;              /* in every run */
};

struct cmp {
	struct cmp_run *runs;
	int nruns;
	int interleaved;         /* measured in one run, point by point     */
	struct cmp_key *keys;    /* shared first, in the first run's order */
	int nkeys, nshared;
};

/* compare.c: a target's results as a run to compare (file NULL); then
 * the names and the alignment (-m, -s, -w of o pick the points); the
 * report in o's format and the plot (returns 0, or -1 if an output could
 * not be written, said); and the release of what they allocated. */
void sw_cmp_from_run(struct cmp_run *r, const struct sw_run *run,
                     const struct sw_point *pts, int n);
void sw_cmp_prepare(struct cmp *c, const struct sw_opts *o);
int sw_cmp_report(const struct sw_opts *o, FILE *fp, const struct cmp *c);
void sw_cmp_release(struct cmp *c);

/* compare-report.c */
void sw_cmp_table(FILE *fp, const struct cmp *c);
void sw_cmp_csv(FILE *fp, const struct cmp *c);
void sw_cmp_json(FILE *fp, const struct cmp *c);
int sw_cmp_plot(const char *path, const struct cmp *c);
/* run k's value over run 0's, NaN where either is missing or 0 */
double sw_cmp_ratio(double v, double first);

#endif
