/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * compare-main.c -- the command sync-write --compare RESULT.json...: the
 * outputs claimed (-o, --plot, and standard output: none may be an input),
 * each input read whole (a file, or a pipe: <(ssh host cat run.json)
 * works) up to CMP_MAX_BYTES, loaded (compare-load.c), aligned
 * (compare.c), reported (compare-report.c).  A stop signal (SIGINT,
 * SIGTERM, SIGHUP) ends it with 128 + the signal, removing the outputs it
 * made, before or while they are written: a comparison is whole or not
 * there.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/kit/msg.h"
#include "tools/kit/outfile.h"
#include "tools/sw/compare.h"

/* A saved result is far smaller: the largest sweep sync-write can run
 * with its per-writer figures, pretty-printed, is about this size. */
#define CMP_MAX_BYTES ((size_t)64 << 20)

static volatile sig_atomic_t cmp_sig;

static void
on_signal(int sig)
{
	cmp_sig = sig;
}

/* Stopped by a signal: the outputs go (those made are removed at exit;
 * those opened for writing are partial), and 128 + the signal. */
static void
stop(const struct sw_opts *o, int written)
{
	struct stat st;
	const char *what[2];
	int i;

	if (!cmp_sig)
		return;
	what[0] = o->output && strcmp(o->output, "-") != 0 ? o->output : NULL;
	what[1] = o->plot;
	for (i = 0; i < 2 && written; i++)
		if (what[i] != NULL && lstat(what[i], &st) == 0 && S_ISREG(st.st_mode))
			unlink(what[i]);
	diot_die(128 + (int)cmp_sig, "--compare: stopped by %s%s",
	         cmp_sig == SIGINT ? "SIGINT" : cmp_sig == SIGTERM ? "SIGTERM" : "SIGHUP",
	         !what[0] && !what[1] ? "" : written ? "; the outputs are removed" :
	         "; no output is written");
}

/* The whole of a file (or a pipe), at most CMP_MAX_BYTES (EFBIG beyond);
 * a stop signal ends the reading (EINTR). */
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
			if (cap > CMP_MAX_BYTES) {
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
		if (r < 0 && errno == EINTR && !cmp_sig)
			continue;
		if (r < 0)
			*err = errno;
		if (r <= 0)
			break;
		n += (size_t)r;
		if (n > CMP_MAX_BYTES) {
			*err = EFBIG;
			break;
		}
	}
	close(fd);
	if (*err) {
		free(b);
		return NULL;
	}
	*len = n;
	return b;
}

/* Read, check and load the run saved in file; exits on a file that is not
 * one.  The text goes once parsed, before the run is built from the tree. */
static void
load_run(const struct sw_opts *o, const char *file, struct cmp_run *r)
{
	char why[700];
	size_t len = 0;
	int e, rc;
	char *text = slurp(file, &len, &e);

	stop(o, 0);
	if (text == NULL)
		diot_die(DIOT_EXIT_USAGE, "--compare: cannot read '%s': %s", file,
		         e == EFBIG ? "larger than any saved result (at most 64 MiB are read)" :
		         dio_strerror(-e));
	rc = sw_cmp_load(r, file, text, len, 1, why, sizeof(why));
	stop(o, 0);
	if (rc < 0)
		diot_die(DIOT_EXIT_USAGE, "--compare: %s", why);
}

/* Is standard output one of the inputs (sync-write --compare a b >> a)?
 * A terminal or /dev/null is never an input. */
static void
stdout_not_input(const struct sw_opts *o)
{
	struct stat out, in;
	int i;

	if ((o->output != NULL && strcmp(o->output, "-") != 0) ||
	    fstat(STDOUT_FILENO, &out) != 0 || S_ISCHR(out.st_mode))
		return;
	for (i = 0; i < o->noperands; i++)
		if (stat(o->operands[i], &in) == 0 && in.st_dev == out.st_dev &&
		    in.st_ino == out.st_ino)
			diot_usage_error("standard output is the result '%s' being compared: "
			                 "the table would be written into its own input; send "
			                 "it elsewhere (or use -o FILE)", o->operands[i]);
}

/* -o and --plot: writable, distinct from each other and from every input
 * (a comparison must not write over the results it reads); nor standard
 * output.  Nothing is written before all of them pass. */
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
	stdout_not_input(o);
	diot_catch_stop_signals(on_signal);
	signal(SIGPIPE, SIG_IGN);
	if (o->plot)
		sw_open_results_file(out, o->plot, "--plot");
	if (o->output && strcmp(o->output, "-") != 0)
		sw_open_results_file(out, o->output, "--output");
	sw_distinct_outputs(o);     /* once they exist, so that they can be told apart */
	stop(o, 0);
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
		load_run(o, o->operands[i], &c.runs[i]);
	if (sw_cmp_prepare(&c, o) < 0)
		diot_die(DIOT_EXIT_FAIL, "--compare: out of memory");
	stop(o, 0);
	fp = sw_open_results(o, out);
	r = sw_cmp_report(o, fp, &c);
	sw_cmp_release(&c);
	stop(o, 1);
	return r < 0 ? DIOT_EXIT_FAIL : 0;
}
