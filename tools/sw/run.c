/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * run.c -- the life of a target's run, shared by main.c (one TARGET) and
 * interleave.c (several): its context made, the run begun (the results
 * opened, the ack log's run and target records), its description, every
 * point in turn (point.c) with the progress line's plan, and what it
 * allocated released.
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "tools/kit/clock.h"
#include "tools/kit/msg.h"
#include "tools/sw/ackrec.h"
#include "tools/sw/check.h"
#include "tools/sw/sw.h"

void
sw_ctx_init(struct sw_ctx *c, struct sw_opts *o, const volatile sig_atomic_t *sig)
{
	memset(c, 0, sizeof(*c));
	c->o = o;
	c->sig = sig;
	c->ack.kind = DIOT_ACK_NONE;
	c->ack.fd = -1;
	c->tg.claim_fd = -1;
	/* A job of one until sw_ranks_init() says otherwise (several TARGETs
	 * never call it): every writer count of a point is W x ranks.n. */
	c->ranks.n = 1;
	c->ranks.stopped_by = -1;
	/* Time-ordered (check.h, SW_RID_MAKE): --check tells a later run
	 * that wrote over the target from an earlier one a disk kept. */
	{
		struct timespec now;
		uint64_t ms;

		if (clock_gettime(CLOCK_REALTIME, &now) == 0)
			ms = (uint64_t)now.tv_sec * 1000u + (uint64_t)now.tv_nsec / 1000000u;
		else
			ms = (uint64_t)time(NULL) * 1000u;
		c->run_id = SW_RID_MAKE(ms, diot_now_ns() ^ ((uint64_t)getpid() * 2654435761u));
	}
}

/* What a target's run allocated, freed before main returns (the files to
 * remove at exit are in the outputs' own list). */
void
sw_release(struct sw_ctx *c, struct sw_point *pts, int n)
{
	int i;

	for (i = 0; pts != NULL && i < n; i++) {
		free(pts[i].per);
		free(pts[i].hosts);
		free(pts[i].per_rank);
	}
	free(pts);
	sw_ranks_free(c);
	sw_dev_close(c);
	for (i = 0; i < SW_MAX_WRITERS; i++)
		free(c->tg.extra[i]);
}

/* The run goes ahead: from here on the outputs are the run's. */
FILE *
sw_begin_run(struct sw_ctx *c, struct sw_outputs *out)
{
	const struct sw_opts *o = c->o;
	FILE *fp = NULL;
	struct stat st;
	uint64_t birth = 0;
	int r, fd;

	if (SW_RANK0(c))
		fp = sw_open_results(o, out);
	else                    /* a rank other than 0 reports nothing: its */
		sw_keep_outputs(out);  /* output is its ack log */
	/* With --keep the ack log is the evidence of the kept target: it
	 * stays whatever ends the run (a rank of an MPI job killed: its
	 * guard keeps it), and --check tells how far the run got. */
	if (o->keep && out->ack_entry > 0)
		diot_out_keep_always(&out->created, out->ack_entry - 1);
	sw_ranks_say_end(c);

	if (SW_ACK_ON(c)) {
		if (strchr(c->tg.path, '\n') != NULL)  /* sw_claim_outputs() refused it */
			diot_die(DIOT_EXIT_FAIL, "--ack-log: a newline in the target's name");
		r = c->ack_header_sent ? 0 : sw_ackrec_version(&c->ack);
		if (r == 0)
			r = sw_ackrec_run(&c->ack, c->run_id, o->layout == SW_LAYOUT_SEPARATE,
			                  o->extend, o->region, c->tg.path);
		/* The target's identity, so that --check knows it again: its
		 * inode, a device's size, a file's birth stamp (another file
		 * that gets the inode number later has another; 0: unknown). */
		fd = open(c->tg.path, O_RDONLY | O_NONBLOCK);
		if (fd >= 0 && !c->tg.is_dev && dio_file_birth(fd, &birth) < 0)
			birth = 0;
		if (r == 0 && (fd >= 0 ? fstat(fd, &st) : stat(c->tg.path, &st)) == 0)
			r = sw_ackrec_target(&c->ack, c->tg.is_dev, (uint64_t)st.st_ino,
			                     c->tg.is_dev ? c->tg.dev_bytes : 0, birth);
		if (fd >= 0)
			close(fd);
		if (r < 0) {
			char why[300];

			diot_die(DIOT_EXIT_FAIL, "--ack-log '%s': %s", o->ack_log,
			         diot_ack_strerror(&c->ack, r, why, sizeof(why)));
		}
	}
	/* The progress line: on a terminal, or anywhere with --progress. */
	c->progress_on = !o->quiet && (o->progress || isatty(STDERR_FILENO)) &&
	                 SW_RANK0(c);
	return fp;
}

/* The run description every format prints. */
void
sw_describe_run(const struct sw_ctx *c, struct sw_run *run)
{
	const struct sw_opts *o = c->o;
	const struct sw_target *tg = &c->tg;
	struct utsname un;
	time_t now = time(NULL);
	struct tm tm;

	memset(run, 0, sizeof(*run));
	run->version = dio_version_string();
	run->backend = dio_backend_name();
	run->target = tg->path;
	run->target_kind = tg->is_dev ? "device" : (o->target ? (tg->created ? "new file"
	                   : "existing file") : "temporary file");
	run->fstype = tg->fstype;
	run->mem_align = tg->align.mem_align;
	run->offset_align = tg->align.offset_align;
	run->align_source = dio_align_source_name((int)tg->align.source);
	run->region = o->region;
	run->layout = o->layout == SW_LAYOUT_SEPARATE ? "separate" : "shared";
	run->mode = o->threads ? "threads" : "processes";
	run->extend = o->extend;
	run->time_s = o->count ? 0 : (double)o->time_ns / 1e9;
	run->count = o->count;
	run->warmup = o->warmup;
	run->verify = o->verify;
	run->label = o->label;
	run->disk = tg->disk;
	run->not_durable = tg->not_durable;
	run->fs_unknown = tg->fs_unknown;
	run->ranks = &c->ranks;
	run->mpi_library = c->ranks.mpi && c->ranks.mpi->on ? diot_mpi_library() : NULL;
	if (uname(&un) == 0) {
		snprintf(run->os, sizeof(run->os), "%s %s %s", un.sysname, un.release,
		         un.machine);
		snprintf(run->host, sizeof(run->host), "%s", un.nodename);
	} else {
		snprintf(run->os, sizeof(run->os), "unknown");
		snprintf(run->host, sizeof(run->host), "unknown");
	}
	if (gmtime_r(&now, &tm) == NULL ||
	    strftime(run->started, sizeof(run->started), "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(run->started, sizeof(run->started), "unknown");
}

/* The progress line's account: how many points, and which of them will
 * run writers (those not n/a here, on each target). */
static void
plan_progress(struct sw_ctx *c, int nt, struct sw_progress *g)
{
	const struct sw_opts *o = c[0].o;
	struct sw_point *scratch = calloc(1, sizeof(*scratch));
	int w, mi, si, k;

	if (scratch == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	memset(g, 0, sizeof(*g));
	g->steps = o->nwriters * o->nmethods * o->nsizes * nt;
	g->targets = nt;
	for (w = 0; w < o->nwriters; w++)
		for (mi = 0; mi < o->nmethods; mi++)
			for (si = 0; si < o->nsizes; si++)
				for (k = 0; k < nt; k++) {
					scratch->size = o->sizes[si];
					scratch->writers = (int)o->writers[w];
					if (!sw_point_na(&c[k], scratch, &o->methods[mi]))
						g->planned++;
				}
	free(scratch);
	g->tty = isatty(STDERR_FILENO);
	g->t0 = diot_now_ns();
	for (k = 0; k < nt; k++)
		c[k].prog = g;
}

/* Every point, writers outermost, until one says the run must stop; with
 * several targets (nt > 1, c[k] and pts[k] each), each point on every
 * target in turn, and no report until the end. */
void
sw_run_points(struct sw_ctx *c, int nt, FILE *fp, struct sw_point **pts, int *npoints)
{
	const struct sw_opts *o = c[0].o;
	struct sw_progress prog;
	int w, mi, si, k, idx = 0, fatal = 0;

	plan_progress(c, nt, &prog);
	for (w = 0; w < o->nwriters && !fatal; w++) {
		for (mi = 0; mi < o->nmethods && !fatal; mi++) {
			for (si = 0; si < o->nsizes && !fatal; si++) {
				for (k = 0; k < nt && !fatal; k++) {
					struct sw_point *p = &pts[k][idx];

					p->index = idx;
					snprintf(p->method, sizeof(p->method), "%s",
					         o->methods[mi].name);
					p->size = o->sizes[si];
					p->writers = (int)o->writers[w];
					*npoints = idx + 1;
					prog.step++;
					if (sw_run_point(&c[k], p, &o->methods[mi]) != 0)
						fatal = 1;
				}
				/* A reader that left (a closed pipe) stops the run at
				 * once; the ranks of an MPI job stop together at the
				 * next point, as for a signal (sw_stop_run()). */
				if (nt == 1 && fp != NULL) {
					sw_report_point(fp, o->format, pts[0] + idx, o->per_writer,
					                o->per_host, o->wide);
					if (sw_flush_results(fp) < 0 && *c[0].sig && c[0].ranks.n == 1)
						fatal = 1;
				}
				idx++;
			}
		}
	}
	for (k = 0; k < nt; k++)
		c[k].prog = NULL;
}
