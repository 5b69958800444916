/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dio-rbuf -- time SCSI READ BUFFER through libdirectio: ask the device
 * for its buffer capacity (READ BUFFER descriptor mode), read the buffer
 * over and over (data mode) until a total is reached, and report elapsed
 * time, throughput, commands per second and CPU utilisation, for each of
 * the transfer modes indirect, direct, no-copy and mmap.  --sweep repeats
 * that over buffer sizes and derives the per-command latency and the
 * bandwidth, as in the sg driver's direct/indirect I/O study.  Devices
 * without READ BUFFER can be timed with READ(10) of a few blocks instead.
 *
 * READ BUFFER reads the device's buffer memory, READ(10) the medium: the
 * tool never writes.
 *
 * The stages, in the order of a run: args.c (options), device.c (open,
 * probes), measure.c (the timed runs, derived figures), report.c (table,
 * CSV, JSON, plot); rbuf.h is the model they pass around.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/kit/fmt.h"
#include "tools/kit/msg.h"
#include "tools/kit/outfile.h"
#include "tools/rbuf/rbuf.h"

static void setup_io(struct dev *d, const struct opts *o, size_t big, struct io *io);
static struct run *time_all(const struct dev *d, const struct opts *o, struct io *io,
                            int *measured, int *hard);
static void free_io(struct io *io);

/* The files this run created, removed at exit unless kept. */
static struct diot_outlist outs;

/* The plot file is made (or found writable) before the device is even
 * opened, so that a --plot into a missing directory or onto a read-only
 * file system is refused at once, not after the whole sweep; a run that
 * fails removes it again. */
static void
claim_plot(const struct opts *o)
{
	int r;

	diot_out_init(&outs);
	diot_out_remove_at_exit(&outs);
	if (o->plot == NULL)
		return;
	r = diot_out_open_results(o->plot);
	if (r < 0)
		diot_usage_error("--plot '%s': %s", o->plot, dio_strerror(r));
	if (r == 1 && diot_out_created(&outs, o->plot) < 0)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
}

int
main(int argc, char **argv)
{
	struct opts o;
	struct dev d;
	struct io io;
	struct run *runs;
	struct summary sum[NMODES];
	size_t m, big;
	int measured = 0, hard = 0, r;

	diot_init(RBUF_PROG);
	if ((r = rbuf_parse_args(argc, argv, &o)) >= 0)
		return r;      /* --help, --version */
	claim_plot(&o);
	memset(&d, 0, sizeof(d));
	rbuf_open_device(&d, &o);
	rbuf_probe_inquiry(&d, &o);
	if (o.command == CMD_RBUF)
		rbuf_probe_buffer(&d, &o);
	else
		rbuf_probe_capacity(&d, &o);
	if (!o.sweep) {
		o.modes[0] = o.mode;
		o.nmodes = 1;
	}
	big = rbuf_choose_sizes(&d, &o);
	setup_io(&d, &o, big, &io);

	runs = time_all(&d, &o, &io, &measured, &hard);
	for (m = 0; m < o.nmodes; m++)
		rbuf_summarise(runs, &o, m, &sum[m]);
	rbuf_report(&d, &o, runs, o.nsizes * o.nmodes, sum);
	if (o.plot) {
		r = rbuf_write_plot(o.plot, &d, &o, runs);
		if (r < 0)
			diot_die(DIOT_EXIT_FAIL, "%s: cannot write the plot: %s", o.plot,
			         dio_strerror(r));
		rbuf_note(o.verbose, 1, "plot written to %s", o.plot);
	}
	diot_out_keep(&outs, -1);

	free_io(&io);
	free(runs);
	close(d.fd);
	if (measured == 0) {
		diot_warn("%s: nothing could be measured", d.path);
		return DIOT_EXIT_FAIL;
	}
	return hard ? DIOT_EXIT_FAIL : 0;
}

/*
 * The buffer and command objects for the runs.  sg serves indirect
 * transfers that fit from its reserved buffer and maps that buffer for
 * mmap: size it for the largest command (o->sizes[big]).
 */
static void
setup_io(struct dev *d, const struct opts *o, size_t big, struct io *io)
{
	size_t len = (size_t)o->sizes[big];
	void *map = NULL;

	memset(io, 0, sizeof(*io));
	if (d->reserved >= 0) {
		int64_t got = dio_scsi_reserve(d->fd, len);

		rbuf_note(o->verbose, 1, "sg reserved buffer: asked %llu bytes, have %lld",
		          (unsigned long long)o->sizes[big], (long long)got);
		if (got >= 0)
			d->reserved = got;
	}
	io->buf = dio_alloc(len, 0);
	io->c = dio_scsi_new();
	if (io->buf == NULL || io->c == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory for a %llu-byte buffer",
		         (unsigned long long)o->sizes[big]);
	memset(io->buf, 0, len);
	if (rbuf_mode_index(o, DIO_SCSI_XFER_MMAP) < 0)
		return;
	io->cmap = dio_scsi_new();
	if (io->cmap == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	io->map_err = dio_scsi_mmap_buf(io->cmap, d->fd, len, &map);
	if (io->map_err < 0)
		dio_scsi_errdetail(io->cmap, io->map_detail, sizeof(io->map_detail));
	else
		rbuf_note(o->verbose, 1, "mapped %llu bytes of the reserved buffer at %p",
		          (unsigned long long)o->sizes[big], map);
}

/*
 * Every (size, mode) run, size-major.  A single run that fails ends the
 * program; a sweep goes on and counts measured and hard-failed runs.
 */
static struct run *
time_all(const struct dev *d, const struct opts *o, struct io *io, int *measured,
         int *hard)
{
	struct run *runs = calloc(o->nsizes * o->nmodes, sizeof(*runs)), *r;
	char a[32];
	size_t i, m;

	if (runs == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	for (i = 0; i < o->nsizes; i++) {
		for (m = 0; m < o->nmodes; m++) {
			r = rbuf_run_at(runs, o, i, m);
			r->mode = o->modes[m];
			r->size = o->sizes[i];
			rbuf_measure(d, o, r, io);
			if (r->measured)
				(*measured)++;
			else if (!r->unsupported)
				(*hard)++;
			if (!r->measured && !o->sweep)
				diot_die(DIOT_EXIT_FAIL, "%s: %s %s of %llu bytes (%s): %s",
				         d->path, rbuf_command_name(o),
				         dio_scsi_xfer_name(r->mode),
				         (unsigned long long)r->size,
				         diot_fmt_iec(r->size, a, sizeof(a)), r->why);
		}
	}
	return runs;
}

static void
free_io(struct io *io)
{
	dio_scsi_free(io->cmap);
	dio_scsi_free(io->c);
	dio_free(io->buf);
}
