/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * output.c -- sync-write's output files: claimed (checked, or created and
 * listed for removal) before the target is touched, told apart from each
 * other and from the TARGETs, then the run's once it goes ahead (the
 * results stream opened, and closed at the end).  main.c, interleave.c
 * and compare-main.c claim them; run.c opens the results.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/kit/msg.h"
#include "tools/kit/outfile.h"
#include "tools/sw/ackrec.h"
#include "tools/sw/sw.h"

/* An output that is a symbolic link to nothing: refused with where it
 * points (no file is made through a link). */
static void
refuse_dangling(const char *opt, const char *path)
{
	char to[PATH_MAX];

	if (diot_out_dangling(path, to, sizeof(to)))
		diot_usage_error("%s '%s' is a dangling symbolic link: it points to '%s', "
		                 "which does not exist; name the file itself, or remove the "
		                 "link", opt, path, to);
}

/* Open path for writing without truncating it; remember it if created. */
void
sw_open_results_file(struct sw_outputs *out, const char *path, const char *opt)
{
	char why[200];
	int r;

	refuse_dangling(opt, path);
	r = diot_out_writable(path, why, sizeof(why));
	if (r < 0)
		diot_usage_error("%s '%s' %s", opt, path, why);
	r = diot_out_open_results(path);

	if (r < 0)
		diot_usage_error("%s '%s': %s", opt, path, dio_strerror(r));
	if (r == 1)
		out->kept[out->nkept++] = diot_out_created(&out->created, path);
}

/*
 * Every file named on the command line is checked, or created, before the
 * target is touched, and nothing is truncated yet: a run refused later
 * leaves them as they were and removes those it created (at exit, with
 * the target files this run created unless --keep).  Writer processes
 * leave with _exit() and skip this.  Then the signals are caught.
 */
void
sw_claim_outputs(struct sw_ctx *c, struct sw_outputs *out)
{
	const struct sw_opts *o = c->o;

	/* A record is a line: the R record's path cannot hold a newline. */
	if (o->ack_log && ((o->target && strchr(o->target, '\n')) ||
	                   (o->target == NULL && o->dir && strchr(o->dir, '\n'))))
		diot_usage_error("--ack-log: the %s has a newline in its name, which the "
		                 "log's records (lines) cannot hold: rename it", o->target ?
		                 "TARGET" : "--dir");
	diot_out_init(&out->created);
	diot_out_remove_at_exit(&out->created);
	c->created = &out->created;
	sw_distinct_outputs(o);     /* by name, before any is made */
	if (o->plot && SW_RANK0(c))
		sw_open_results_file(out, o->plot, "--plot");
	if (o->output && strcmp(o->output, "-") != 0 && SW_RANK0(c))
		sw_open_results_file(out, o->output, "--output");
	if (o->ack_log && diot_ack_is_tcp(o->ack_log)) {
		char why[600];
		struct diot_ack_token tok;
		int r = o->ack_token ? diot_ack_token_read(o->ack_token, &tok, why, sizeof(why)) :
		        diot_ack_token_env(&tok, why, sizeof(why));

		if (r == 0 && o->ack_token == NULL)
			diot_usage_error("--ack-log %s needs the listener's token: --ack-token "
			                 "FILE (the file the listener wrote, mode 0600) or "
			                 "DIO_ACK_TOKEN=HEX in the environment", o->ack_log);
		if (r < 0)
			diot_usage_error("%s%s", o->ack_token ? "--ack-token " : "", why);
		r = diot_ack_open(&c->ack, o->ack_log, why, sizeof(why));
		if (r == -EINVAL)
			diot_usage_error("--ack-log %s", why);
		diot_ack_set_token(&c->ack, &tok);
		memset(&tok, 0, sizeof(tok));
		/* Every connection says the run: the listener logs each run apart. */
		if (r == 0)
			r = diot_ack_set_run(&c->ack, c->run_id, why, sizeof(why));
		/* The log's first line at once: the listener keeps a run that has
		 * logged (and so stays up) while this one sets its target up. */
		if (r == 0 && (r = sw_ackrec_version(&c->ack)) < 0)
			diot_ack_strerror(&c->ack, r, why, sizeof(why));
		c->ack_header_sent = r == 0;
		if (r < 0)
			diot_die(DIOT_EXIT_FAIL, "--ack-log '%s': %s", o->ack_log, why);
	} else if (o->ack_log && strcmp(o->ack_log, "-") != 0) {
		char why[200];
		struct stat lst;

		refuse_dangling("--ack-log", o->ack_log);
		if (diot_out_writable(o->ack_log, why, sizeof(why)) < 0)
			diot_usage_error("--ack-log '%s' %s", o->ack_log, why);
		c->ack.kind = DIOT_ACK_FILE;
		/* (never waits: a FIFO made since the check above is refused) */
		c->ack.fd = diot_ack_open_log(o->ack_log, o->force, why, sizeof(why));
		if (c->ack.fd < 0)
			diot_die(DIOT_EXIT_USAGE, "--ack-log %s%s", why,
			         c->ack.fd == -EEXIST ? " (pass --force to append to an "
			         "existing log)" : "");
		if (!o->force) {
			out->kept[out->nkept] = diot_out_created(&out->created, o->ack_log);
			out->ack_entry = out->kept[out->nkept++] + 1;
		}
		/* --ack-commit: each record fdatasync()ed; a device (/dev/null)
		 * cannot commit, and saying so beats failing at the first. */
		c->ack.commit = o->ack_commit;
		if (o->ack_commit && (fstat(c->ack.fd, &lst) != 0 || !S_ISREG(lst.st_mode)))
			diot_usage_error("--ack-commit: --ack-log '%s' is not a regular file: "
			                 "it cannot commit", o->ack_log);
	} else if (o->ack_log) {
		c->ack.kind = DIOT_ACK_STDOUT;
		c->ack.fd = STDOUT_FILENO;
	}
	sw_distinct_outputs(o);     /* and once they exist (links to each other) */
	sw_catch_signals();
}

/* Do a and b name one file: by name (./r.txt and r.txt, which need not
 * exist yet), or as existing files (links)?  A character device
 * (/dev/null) takes any number of outputs. */
static int
same_file(const char *a, const char *b)
{
	struct stat st;
	char *ca, *cb;
	int same;

	if (diot_out_same(a, b))
		return 1;
	if (stat(a, &st) == 0 && S_ISCHR(st.st_mode))
		return 0;
	ca = sw_path_canonical(a);
	cb = sw_path_canonical(b);
	same = strcmp(ca, cb) == 0;
	free(ca);
	free(cb);
	return same;
}

/*
 * Two outputs that are one file would write over each other: the results
 * (-o, or standard output redirected to a file), the plot, the ack log
 * and an existing TARGET (or its separate files) must all differ.  Said
 * before any output is made (by name), and again once they exist.
 */
void
sw_distinct_outputs(const struct sw_opts *o)
{
	const char *name[4 + SW_MAX_TARGETS], *path[4 + SW_MAX_TARGETS];
	struct stat a, b;
	int n = 0, i, k;

	if (o->output && strcmp(o->output, "-") != 0) {
		name[n] = "--output"; path[n++] = o->output;
	}
	if (o->plot) {
		name[n] = "--plot"; path[n++] = o->plot;
	}
	if (o->ack_log && strcmp(o->ack_log, "-") != 0 && !diot_ack_is_tcp(o->ack_log)) {
		name[n] = "--ack-log"; path[n++] = o->ack_log;
	}
	for (k = 0; k < o->noperands && k < SW_MAX_TARGETS && !o->compare; k++) {
		static const char *const tname[SW_MAX_TARGETS] = { "TARGET 1", "TARGET 2",
			"TARGET 3", "TARGET 4", "TARGET 5", "TARGET 6", "TARGET 7", "TARGET 8" };

		name[n] = o->noperands > 1 ? tname[k] : "the TARGET";
		path[n++] = o->operands[k];
	}
	for (i = 0; i < n; i++)
		for (k = i + 1; k < n; k++)
			if (same_file(path[i], path[k]))
				diot_usage_error("%s '%s' and %s '%s' are the same file: each "
				                 "%s a file of its own", name[i], path[i], name[k],
				                 path[k], strncmp(name[i], "TARGET", 6) == 0 ?
				                 "TARGET must be" : "output needs");
	/* The results on standard output, redirected into one of them? */
	if ((o->output == NULL || strcmp(o->output, "-") == 0) &&
	    fstat(STDOUT_FILENO, &a) == 0 && S_ISREG(a.st_mode))
		for (i = 0; i < n; i++)
			if (stat(path[i], &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
				diot_usage_error("standard output (the results) and %s '%s' are "
				                 "the same file: each output needs a file of its "
				                 "own", name[i], path[i]);
}

/* The claimed outputs are the run's from now on: kept at exit. */
void
sw_keep_outputs(struct sw_outputs *out)
{
	int i;

	for (i = 0; i < out->nkept; i++)
		diot_out_keep(&out->created, out->kept[i]);
}

/* The run goes ahead: the claimed outputs are the run's from now on (kept
 * at exit), and the results stream is opened (standard output or -o). */
FILE *
sw_open_results(const struct sw_opts *o, struct sw_outputs *out)
{
	FILE *fp = stdout;

	sw_keep_outputs(out);
	if (o->output && strcmp(o->output, "-") != 0) {
		fp = fopen(o->output, "w");
		if (fp == NULL)
			diot_die(DIOT_EXIT_FAIL, "--output '%s': %s", o->output,
			         dio_strerror(errno));
	}
	return fp;
}

/* The results' reader left (a write to a closed pipe failed: EPIPE). */
static int reader_gone;

/* A failed write of the results: their reader left?  Then the run stops
 * as a signal would stop it (SIGPIPE's), and nothing is said. */
static int
gone(int err)
{
	if (err != EPIPE)
		return 0;
	reader_gone = 1;
	sw_stop_run(SIGPIPE);
	return 1;
}

int
sw_flush_results(FILE *fp)
{
	if (fflush(fp) == 0 && !ferror(fp))
		return 0;
	gone(errno);
	return -1;
}

/* Flush and close the results (fp: standard output or --output); a
 * write that failed is said, and is the run's failure: returns -1.  A
 * reader that left is not a failure to say: -1, quietly. */
int
sw_close_results(const struct sw_opts *o, FILE *fp)
{
	int bad = 0;

	if (reader_gone || ((fflush(fp) != 0 || ferror(fp)) && gone(errno))) {
		if (fp != stdout)
			fclose(fp);
		return -1;
	}
	if (ferror(fp)) {
		diot_warn("%s%s%s: cannot write the results: %s", fp == stdout ?
		          "standard output" : "--output '", fp == stdout ? "" : o->output,
		          fp == stdout ? "" : "'", dio_strerror(-errno));
		bad = 1;
	}
	if (fp != stdout && fclose(fp) != 0 && !bad) {
		diot_warn("--output '%s': cannot write the results: %s", o->output,
		          dio_strerror(-errno));
		bad = 1;
	}
	return bad ? -1 : 0;
}

/* A filter whose reader left ends quietly, killed by SIGPIPE: the files
 * the run made (and does not keep) go first, as at any exit. */
int
sw_exit_status(int status)
{
	if (!reader_gone)
		return status;
	diot_out_remove_now();
	diot_die_by_signal(SIGPIPE);    /* as a filter: status 141, unsaid */
}
