/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * compare.h -- sync-write --compare's model: saved runs (compare-load.c
 * reads them), aligned on the points they share (compare.c), and reported
 * side by side (compare-report.c).
 */
#ifndef SW_COMPARE_H
#define SW_COMPARE_H

#include <stdint.h>
#include <stdio.h>

#include "tools/sw/sw.h"

/* What a compared point keeps of its device counts (sw_devcount's
 * fields of the same names): the figures shown, not the disks nor the
 * reason (a sw_devcount a point would make a million-point result take
 * gigabytes). */
struct cmp_dev {
	int state;               /* SW_DEV_*                              */
	int flushes_known;
	double writes_per_txn, bytes_per_txn, flushes_per_txn, amplification;
};

/* One point of a saved run: what the comparison shows of it. */
struct cmp_point {
	char method[32];
	uint64_t size;
	int writers;
	int measured;            /* status ok with an aggregate              */
	int partial;             /* interrupted, with an aggregate of what it
	                          * measured (the table shows it, marked)   */
	int not_run;             /* a point of several TARGETs' run that the
	                          * run was stopped before (status
	                          * "interrupted", no figures)              */
	char status[16];         /* "ok", "n/a", "error", "interrupted"      */
	double avg_us, p50_us, p99_us, p999_us, max_us, txn_per_s, mb_per_s, cpu_us;
	int hint_kind;           /* SW_HINT_* (measured now; a saved run: none) */
	struct cmp_dev dev;      /* what the disks saw (a saved run: its
	                          * "device" block; none: SW_DEV_NA)     */
	/* Where the point's counts came from, and its device hints: */
	int dev_block;           /* 1: measured now, or its result has a
	                          * "device" block (0: an older result's) */
	int dev_hint_kind[SW_POINT_DEV_HINTS];  /* measured now; a saved run: none */
	const char *dev_disks;   /* measured now: the sw_point's; else NULL  */
};

/* A saved run (one --format json document). */
struct cmp_run {
	const char *file;
	char label[SW_LABEL_BYTES + 16]; /* its --label, or made from what it ran on */
	int labelled;                    /* the label is the run's own           */
	char host[256], started[32], os[300], backend[32];
	char target[512], kind[32], fs[64], disk[64];
	char config[160];                /* layout, writers are, time or count   */
	char not_durable[300];           /* why nothing is durable (measured now) */
	int interrupted;
	struct cmp_point *pts;
	int npts;
};

/* The comparison: the runs, and the points shown (index into each run's
 * pts, -1 where that run lacks it, which only left-out points have). */
struct cmp_key {
	const char *method;      /* a point's (in a run's pts)      */
	uint64_t size;
	int writers;
	int shared;              /* in every run */
	int *at;                 /* [nruns], in c->at              */
};

struct cmp {
	struct cmp_run *runs;
	int nruns;
	int interleaved;         /* measured in one run, point by point     */
	struct cmp_key *keys;    /* shared first, in the first run's order */
	int nkeys, nshared;
	int *at;                 /* the keys' at, side by side              */
	int quiet;               /* sw_cmp_prepare says nothing (a fuzzer) */
	int wide;                /* --wide: one table, lines of any length  */
};

/*
 * compare-load.c and compare.c (none of it exits on what a document holds):
 * - sw_cmp_load (compare-load.c): the run saved in text[0..len) (a
 *   document -f json wrote; file names it in messages and is kept as
 *   r->file); 0, or -1 with why ("'a.json': line 12, column 19:
 *   points[0].aggregate.mb_per_s: ...").  With give_text, text is the
 *   caller's malloc()ed copy, freed as soon as it is parsed (before the
 *   run is built: less memory at the peak).
 * - sw_cmp_dev_keep (compare-load.c): what a compared point keeps of
 *   device counts d, for a saved point and one measured now alike.
 * - sw_cmp_from_run: a target's results as a run to compare (file NULL);
 *   sw_cmp_not_run: a point it was stopped before.
 * - sw_cmp_prepare: the names and the alignment (-m, -s, -w of o pick the
 *   points; o NULL: all); says why nothing is shared (unless c->quiet);
 *   0, or -1 when out of memory.
 * - sw_cmp_release: what they allocated (c->runs too).
 * - sw_cmp_memory (compare-memory.c): all of --compare on n documents in
 *   memory, for a fuzzer or a test: loaded, prepared (o as above),
 *   reported in format (SW_FMT_*) to out and plotted to plot (either NULL:
 *   not made).  Returns 0, or -1 with why.  Prints nothing, never exits.
 */
int sw_cmp_load(struct cmp_run *r, const char *file, const char *text, size_t len,
                int give_text, char *why, size_t wl);
void sw_cmp_dev_keep(struct cmp_dev *k, const struct sw_devcount *d);
void sw_cmp_from_run(struct cmp_run *r, const struct sw_run *run,
                     const struct sw_point *pts, int n);
/* sw_cmp_from_run's run r gets key's point (of another TARGET) as one it
 * did not run: its run was stopped before its turn (r's points are
 * those of the run, so there is room for it). */
void sw_cmp_not_run(struct cmp_run *r, const struct sw_point *key);
int sw_cmp_prepare(struct cmp *c, const struct sw_opts *o);
void sw_cmp_release(struct cmp *c);
int sw_cmp_memory(const char *const *texts, const size_t *lens, int n,
                  const struct sw_opts *o, int format, FILE *out, FILE *plot,
                  char *why, size_t wl);

/* compare-main.c: the report in o's format and the plot (returns 0, or -1
 * if an output could not be written, said). */
int sw_cmp_report(const struct sw_opts *o, FILE *fp, const struct cmp *c);

/* compare-report.c */
void sw_cmp_table(FILE *fp, const struct cmp *c);
void sw_cmp_csv(FILE *fp, const struct cmp *c);
void sw_cmp_json(FILE *fp, const struct cmp *c);
int sw_cmp_plot(const char *path, const struct cmp *c);
int sw_cmp_plot_fp(FILE *fp, const struct cmp *c);
/* run k's value over run 0's, NaN where either is missing or 0 */
double sw_cmp_ratio(double v, double first);

/* plot.c: sw_plot() to a stream (0, or -1 if fp reported an error). */
int sw_plot_fp(FILE *fp, const char *what, const struct sw_point *pts, int n);

#endif
