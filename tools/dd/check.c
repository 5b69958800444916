/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check.c -- what the options mean together, before and after opening:
 * the operands against the mode and each other (dd_check_operands()),
 * the asynchronous engine (dd_choose_engine()), what needs the opened
 * devices (dd_check_opened()), and each device's plan: where it starts,
 * how many blocks, that they fit (dd_plan_device(), and dd_plan_stream()
 * for dd's loop).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/dd/dd.h"
#include "tools/kit/fmt.h"
#include "tools/kit/msg.h"

/* Decide the dio_aio engine for engine=aio|io_uring|posix-aio. */
void
dd_choose_engine(struct dd *dd)
{
	unsigned have = dio_aio_engines();
	dio_aio *probe;
	int err = 0;

	if (dd->o.engine == DD_ENG_URING) {
		if (!(have & (1u << DIO_AIO_IO_URING)))
			diot_usage_error("engine=io_uring: not part of this build (%s; configure "
			                 "found no liburing or --without-liburing); use "
			                 "engine=aio or engine=posix-aio",
			                 strcmp(dio_backend_name(), "linux") == 0
			                 ? "linux backend" : "io_uring is Linux only");
		dd->aio_engine = DIO_AIO_IO_URING;
	} else if (dd->o.engine == DD_ENG_POSIX) {
		if (!(have & (1u << DIO_AIO_POSIX)))
			diot_usage_error("engine=posix-aio: this C library has no POSIX AIO");
		dd->aio_engine = DIO_AIO_POSIX;
	} else if (have & (1u << DIO_AIO_IO_URING)) {
		probe = dio_aio_new((unsigned)dd->o.qd, DIO_AIO_IO_URING, &err);
		if (probe != NULL) {
			dd->aio_engine = DIO_AIO_IO_URING;
			dio_aio_free(probe);
			return;
		}
		snprintf(dd->engine_note, sizeof(dd->engine_note), "io_uring is compiled in but the "
		         "kernel refused it (%s): falling back to POSIX AIO", dd_strerror(err));
	} else {
		snprintf(dd->engine_note, sizeof(dd->engine_note), "io_uring is not available (not "
		         "compiled into this build of libdirectio, %s backend): falling back "
		         "to POSIX AIO", dio_backend_name());
	}
	if (dd->aio_engine < 0) {
		if (!(have & (1u << DIO_AIO_POSIX)))
			diot_die(DIOT_EXIT_FAIL, "engine=aio: no asynchronous engine in this "
			         "build (no io_uring, no POSIX AIO)");
		dd->aio_engine = DIO_AIO_POSIX;
	}
	if (dd->engine_note[0] != '\0')
		diot_warn("%s", dd->engine_note);
}

/* 1 if path is the null device (by device number, whatever its name). */
static int
is_dev_null(const char *path)
{
	struct stat a, b;

	return stat(path, &a) == 0 && S_ISCHR(a.st_mode) && stat("/dev/null", &b) == 0 &&
	       S_ISCHR(b.st_mode) && a.st_rdev == b.st_rdev;
}

/* A seek= past the largest file offset, where dd would cut the output
 * to it (a named output, no conv=notrunc): dd's refusal, before anything
 * is opened.  Elsewhere the run meets it, as dd's does (past_largest()). */
static void
check_seek(struct dd *dd)
{
	const struct dd_opts *o = &dd->o;

	if (o->oflag.seek_bytes || o->seek <= (uint64_t)INT64_MAX / o->obs)
		return;
	if (o->nof > 0 && !dd->std_out && !o->conv.notrunc && !o->oflag.notrunc)
		diot_die(DIOT_EXIT_FAIL, "offset too large: cannot truncate to a length of "
		         "seek=%" PRIu64 " (%" PRIu64 "-byte) blocks", o->seek, o->obs);
}

/*
 * skip= or seek= whose byte offset is past 2^63-1: as dd meets it, once
 * the outputs are open, the device's error ("NAME: cannot skip: Value too
 * large for defined data type"), said before dd's closing lines, and
 * nothing moved.  1 if so.
 */
static int
past_largest(struct dd *dd, struct dd_dev *d)
{
	const struct dd_opts *o = &dd->o;
	const struct dd_side *s;
	const char *what;
	char *name;

	if (d->in.path && !o->iflag.skip_bytes && o->skip > (uint64_t)INT64_MAX / o->ibs) {
		s = &d->in;
		what = "skip";
	} else if (d->out.path && !o->oflag.seek_bytes &&
	           o->seek > (uint64_t)INT64_MAX / o->obs) {
		s = &d->out;
		what = "seek";
	} else {
		return 0;
	}
	name = dd_side_name(dd, s, DD_Q_FILE);
	d->err = -EOVERFLOW;
	snprintf(d->errmsg, sizeof(d->errmsg), "%s: cannot %s: %s", name, what,
	         dd_strerror(EOVERFLOW));
	free(name);
	d->nblocks = d->ntransfers = 0;
	d->in_base = d->out_base = 0;
	return 1;
}

/* Anything that asks dio-dd's parallel or pass-through machinery (where
 * of=/dev/null keeps its meaning of nowhere: a read). */
static int
asks_parallel(const struct dd *dd)
{
	const struct dd_opts *o = &dd->o;

	return o->nif > 1 || o->thr > 1 || o->qd > 1 || o->engine_set || o->procs ||
	       o->bpt > 1 || o->iflag.nocopy || o->iflag.sg || o->rate || o->dio;
}

/*
 * dd's defaults (no mode= or mode=copy): no if= is standard input, no of=
 * standard output, as long as they are one input and one output, neither
 * a terminal, and no MPI rank's.  (The names are for messages and the
 * report; the lists own a copy, as args.c's do.)
 */
static void
default_streams(struct dd *dd)
{
	if (!dd->o.nif && dd->o.nof > 1)
		diot_usage_error("of= names %d outputs and if= is missing: standard input "
		                 "is one input; give mode=write to write a generated "
		                 "pattern to them, or if= with as many inputs", dd->o.nof);
	if (!dd->o.nof && dd->o.nif > 1)
		diot_usage_error("if= names %d inputs and of= is missing: standard output "
		                 "takes one; give mode=read to read them only, or of= with "
		                 "as many outputs", dd->o.nif);
	if (!dd->o.nif) {
		dd->o.ifs[0] = diot_strdupf("/dev/stdin");
		dd->o.nif = 1;
		dd->std_in = 1;
	}
	if (!dd->o.nof) {
		dd->o.ofs[0] = diot_strdupf("/dev/stdout");
		dd->o.nof = 1;
		dd->std_out = 1;
	}
	if ((dd->std_in || dd->std_out) && dd->mpi != NULL && dd->mpi->on)
		diot_usage_error("as MPI ranks, standard input and output are mpirun's: "
		                 "give if= and of= (or mode=read, mode=write)");
	if (dd->std_in && isatty(STDIN_FILENO))
		diot_usage_error("if= is not given, so the input is standard input, which "
		                 "is a terminal: give if=FILE, or mode=write to write a "
		                 "generated pattern");
	if (dd->std_out && isatty(STDOUT_FILENO))
		diot_usage_error("of= is not given, so the data would go to standard "
		                 "output, which is a terminal: give of=FILE, or mode=read "
		                 "to read only");
}

/* mode= (copy unless given) against the if= and of= it needs. */
static void
check_mode(struct dd *dd)
{
	if (!dd->o.mode_set)
		dd->o.mode = DD_MODE_COPY;
	switch (dd->o.mode) {
	case DD_MODE_READ:
		if (!dd->o.nif)
			diot_usage_error("mode=read needs if= (the files or devices to read)");
		if (dd->o.nof)
			diot_usage_error("mode=read reads to nowhere: drop of= (or use "
			                 "mode=copy)");
		break;
	case DD_MODE_WRITE:
		if (!dd->o.nof)
			diot_usage_error("mode=write needs of= (the files or devices to write)");
		if (dd->o.nif)
			diot_usage_error("mode=write writes a generated pattern: drop if= (or "
			                 "use mode=copy)");
		break;
	case DD_MODE_COPY:
		if (!dd->o.nif || !dd->o.nof)
			diot_usage_error("mode=copy needs both if= and of=");
		if (dd->o.nif != dd->o.nof)
			diot_usage_error("copy is pairwise: if= names %d input%s but of= names "
			                 "%d output%s", dd->o.nif, dd->o.nif == 1 ? "" : "s", dd->o.nof,
			                 dd->o.nof == 1 ? "" : "s");
		break;
	}
}

/* The operands of an input or an output the mode does not have; those
 * that are the same thing by two names (conv=notrunc, oflag=notrunc). */
static void
check_sides(struct dd *dd)
{
	if (dd->o.mode == DD_MODE_WRITE &&
	    (dd->o.iflag.direct || dd->o.iflag.nocopy || dd->o.iflag.sg))
		diot_usage_error("iflag= is given but there is no input (if=)");
	if (dd->o.mode == DD_MODE_READ &&
	    (dd->o.oflag.direct || dd->o.oflag.dsync || dd->o.oflag.sync || dd->o.oflag.sg ||
	     dd->o.oflag.notrunc || dd->o.oflag.append || dd->o.oflag.seek_bytes ||
	     dd->o.oflag.nocache))
		diot_usage_error("oflag= is given but there is no output (of=)");
	if (dd->o.mode == DD_MODE_READ &&
	    (dd->o.conv.fdatasync || dd->o.conv.fsync || dd->o.conv.notrunc ||
	     dd->o.conv.excl || dd->o.conv.nocreat))
		diot_usage_error("conv= names an output conversion but there is no output "
		                 "(of=)");
	if (dd->o.conv.notrunc)
		dd->o.oflag.notrunc = 1;
	if (dd->o.mode == DD_MODE_WRITE && dd->o.skip)
		diot_usage_error("skip= counts input blocks, and there is no input (if=); "
		                 "use seek= for the output");
	if (dd->o.mode == DD_MODE_READ && dd->o.seek)
		diot_usage_error("seek= counts output blocks, and there is no output (of=); "
		                 "use skip= for the input");
	if (dd->o.iflag.nocopy && dd->o.mode != DD_MODE_READ)
		diot_usage_error("iflag=nocopy drops the data in the kernel: it is for reads "
		                 "(if= without of=), not %s", dd_mode_name(dd));
}

/* engine= and qd= (qd= above 1 asks the asynchronous engine), and what
 * has no asynchronous form; --same-session without --processes. */
static void
check_engine(struct dd *dd)
{
	if (dd->o.qd > 1 && dd->o.engine_set && dd->o.engine == DD_ENG_SYNC)
		diot_usage_error("qd=%" PRIu64 " needs the asynchronous engine (engine=aio); "
		                 "engine=sync does one call at a time", dd->o.qd);
	if (dd->o.qd > 1 && !dd->o.engine_set)
		dd->o.engine = DD_ENG_AIO;
	if (dd->o.engine != DD_ENG_SYNC && dd->o.iflag.nocopy)
		diot_usage_error("iflag=nocopy has no asynchronous form: use engine=sync");
	if (dd->o.engine != DD_ENG_SYNC && (dd->o.iflag.sg || dd->o.oflag.sg))
		diot_usage_error("engine=%s: SCSI pass-through runs with engine=sync",
		                 dd_engine_words[dd->o.engine]);
	if (dd->o.same_session && !dd->o.procs)
		diot_usage_error("--same-session is about the worker processes of --processes; "
		                 "give both, or neither");
}

/* Names and sizes: an empty input name, a transfer over 1 GiB, a seek=
 * dd would refuse, more than 1024 threads. */
static void
check_sizes(struct dd *dd)
{
	int i;

	for (i = 0; i < dd->o.nif; i++)
		if (dd->o.ifs[i][0] == '\0')
			diot_usage_error("if=: empty name");
	if (dd->o.bs * dd->o.bpt > DD_MAX_TRANSFER)
		diot_usage_error("bs=%" PRIu64 " x bpt=%" PRIu64 " is %" PRIu64 " bytes per "
		                 "transfer; at most %llu (1 GiB)", dd->o.bs, dd->o.bpt,
		                 dd->o.bs * dd->o.bpt, (unsigned long long)DD_MAX_TRANSFER);
	check_seek(dd);
	if ((uint64_t)dd->o.thr *
	    (uint64_t)(dd->o.mode == DD_MODE_WRITE ? dd->o.nof : dd->o.nif) > 1024)
		diot_usage_error("thr=%" PRIu64 " on %d devices is more than 1024 threads",
		                 dd->o.thr, dd->o.mode == DD_MODE_WRITE ? dd->o.nof : dd->o.nif);
}

static void check_unchecked(const struct dd *dd);

void
dd_check_operands(struct dd *dd)
{
	char what[80];

	/* of=/dev/null (under any name) with dio-dd's parallel reads: nowhere,
	 * a read.  On a dd command line it is an output, written as dd does. */
	if (dd->o.nof == 1 && dd->o.nif && (!dd->o.mode_set || dd->o.mode == DD_MODE_READ) &&
	    is_dev_null(dd->o.ofs[0]) && (asks_parallel(dd) || dd->o.mode_set)) {
		dd->o.nof = 0;
		dd->o.mode = DD_MODE_READ;
		dd->o.mode_set = 1;     /* a read: no standard output below */
	}
	/* dd's standard input and output, where mode=read or mode=write does
	 * not say there is none */
	if (!dd->o.mode_set || dd->o.mode == DD_MODE_COPY)
		default_streams(dd);
	check_mode(dd);
	check_sides(dd);
	if (dd->o.oflag.force)
		dd->o.force = 1;
	check_engine(dd);
	check_sizes(dd);
	check_unchecked(dd);
	if (dd_cache_advice_void(&dd->o, dio_caps(), what, sizeof(what)))
		diot_warn("warning: %s %s nothing on this platform: posix_fadvise() does "
		          "not act here (illumos' only checks its arguments), so the page "
		          "cache is neither dropped nor advised; the run goes on without it",
		          what, strchr(what, ',') ? "do" : "does");
}

int
dd_cache_advice_void(const struct dd_opts *o, unsigned caps, char *what, size_t len)
{
	size_t at = 0;

	if (len == 0 || (caps & DIO_CAP_FADVISE))
		return 0;
	what[0] = '\0';
	if (o->iflag.nocache && o->nif > 0)
		at += (size_t)snprintf(what + at, len - at, "iflag=nocache");
	if (o->oflag.nocache && o->nof > 0 && at < len)
		at += (size_t)snprintf(what + at, len - at, "%soflag=nocache", at ? ", " : "");
	if (o->fadvise != 0 && at < len)
		at += (size_t)snprintf(what + at, len - at, "%sfadvise=%s", at ? ", " : "",
		                       dd_fadvise_words[o->fadvise]);
	return at > 0;
}

/*
 * --write-unchecked DEVICE: the second, explicit option that lets --force
 * write an output device whose in-use state cannot be told (open.c); it
 * names one of the of= devices (the same path or device number).  A
 * device in use is never written, whatever the options.
 */
static void
check_unchecked(const struct dd *dd)
{
	diot_out_unchecked_option(dd->o.write_unchecked, dd->o.force, "oflag=force",
	                          (const char *const *)dd->o.ofs, dd->o.nof, "of=");
}

/*
 * After opening: what needs the opened devices (sg only with engine=sync,
 * dio=1 only with an sg device), and each device's I/O label for the
 * report ("file->block", ...; "mixed" in the total if they differ).
 */
void
dd_check_opened(struct dd *dd)
{
	int i, sg_any = 0;

	for (i = 0; i < dd->ndevs; i++) {
		const char *a = dd_side_io(dd, &dd->devs[i].in, 1), *b = dd_side_io(dd, &dd->devs[i].out, 0);

		if (dd->devs[i].in.kind == DD_KIND_SG || dd->devs[i].out.kind == DD_KIND_SG)
			sg_any = 1;
		if (dd->o.engine != DD_ENG_SYNC &&
		    (dd->devs[i].in.kind == DD_KIND_SG || dd->devs[i].out.kind == DD_KIND_SG))
			dd_fail_setup(dd, DIOT_EXIT_USAGE, "engine=%s: '%s' is a SCSI generic device, "
			              "which dio-dd drives with engine=sync only",
			              dd_engine_words[dd->o.engine], dd->devs[i].name);
		if (a && b && strcmp(a, b) != 0)
			snprintf(dd->io_labels[i], sizeof(dd->io_labels[i]), "%s->%s", a, b);
		else
			snprintf(dd->io_labels[i], sizeof(dd->io_labels[i]), "%s", a ? a : b);
		if (i == 0)
			snprintf(dd->total_io, sizeof(dd->total_io), "%s", dd->io_labels[i]);
		else if (strcmp(dd->total_io, dd->io_labels[i]) != 0)
			snprintf(dd->total_io, sizeof(dd->total_io), "mixed");
	}
	if (dd->data_stdout && dd->o.format != DD_FMT_TABLE)
		dd_fail_setup(dd, DIOT_EXIT_USAGE, "-f %s: the data goes to standard output "
		              "(of= is not given, or names it), so the report cannot: give "
		              "of=FILE, or the table format (time=1 puts it on standard error)",
		              dd_format_words[dd->o.format]);
	if (dd->o.dio && !sg_any)
		dd_fail_setup(dd, DIOT_EXIT_USAGE, "dio=1 asks the sg driver for direct transfers: it "
		              "needs an sg device (for files and block devices use iflag=direct "
		              "or oflag=direct)");
}

/* Check a block size against a side's direct-I/O granularity. */
static void
check_direct_size(struct dd *dd, const struct dd_side *s, int is_out, uint64_t size)
{
	uint32_t g = s->align.offset_align;
	char a[32];

	if (s->f == NULL || dio_file_direct(s->f) == DIO_MECH_NONE)
		return;
	if (!is_out && s->align.read_offset_align)
		g = s->align.read_offset_align;
	if (g > 1 && size % g != 0)
		dd_fail_setup(dd, DIOT_EXIT_USAGE, "%s=%" PRIu64 " is not a multiple of the direct "
		              "I/O granularity of '%s' (%s, from %s); use %s=%s or a multiple "
		              "of it, or drop %sflag=direct", dd->o.bs_set ? "bs" : is_out ? "obs" : "ibs",
		              size, s->path, diot_fmt_iec(g, a, sizeof(a)),
		              dio_align_source_name((int)s->align.source),
		              dd->o.bs_set ? "bs" : is_out ? "obs" : "ibs", a, is_out ? "o" : "i");
}

static void
check_direct_align(struct dd *dd, const struct dd_side *s, int is_out)
{
	check_direct_size(dd, s, is_out, dd->o.bs);
}

/* bs against an sg device's block (as sgp_dd wants it: the device's
 * logical block) and against the direct I/O granularity of each side. */
static void
check_device_bs(struct dd *dd, const struct dd_dev *d)
{
	if (d->in.kind == DD_KIND_SG && dd->o.bs != d->in.sg_block)
		dd_fail_setup(dd, DIOT_EXIT_USAGE, "bs=%" PRIu64 " but '%s' has %" PRIu32
		              "-byte blocks: for SCSI pass-through bs must be the device's "
		              "block size (bs=%" PRIu32 "; bpt= sets the blocks per command)",
		              dd->o.bs, d->in.path, d->in.sg_block, d->in.sg_block);
	if (d->out.kind == DD_KIND_SG && dd->o.bs != d->out.sg_block)
		dd_fail_setup(dd, DIOT_EXIT_USAGE, "bs=%" PRIu64 " but '%s' has %" PRIu32
		              "-byte blocks: for SCSI pass-through bs must be the device's "
		              "block size (bs=%" PRIu32 "; bpt= sets the blocks per command)",
		              dd->o.bs, d->out.path, d->out.sg_block, d->out.sg_block);
	if (d->in.path)
		check_direct_align(dd, &d->in, 0);
	if (d->out.path)
		check_direct_align(dd, &d->out, 1);
}

/* How many blocks: count=, or to the end of the input (a file may grow:
 * read count= blocks or to its end; a device ends where it ends), or to
 * the end of an output device. */
static void
count_blocks(struct dd *dd, struct dd_dev *d)
{
	uint64_t avail, rem;

	if (d->in.path) {
		if (dd->o.skip * dd->o.bs > d->in.size &&
		    (d->in.kind == DD_KIND_FILE || d->in.size > 0)) {
			/* as dd: said, and nothing is read */
			dd_say_cannot_skip(dd, &d->in);
			rem = 0;
		} else {
			rem = d->in.size - dd->o.skip * dd->o.bs;
		}
		avail = rem / dd->o.bs + (rem % dd->o.bs != 0);
		if (!dd->o.count_set)
			d->nblocks = avail;
		else if (d->in.kind == DD_KIND_FILE || dd->o.count < avail)
			d->nblocks = dd->o.count;
		else
			d->nblocks = avail;
	} else if (dd->o.count_set) {
		d->nblocks = dd->o.count;
	} else if (d->out.kind != DD_KIND_FILE) {
		if (dd->o.seek * dd->o.bs > d->out.size)
			dd_fail_setup(dd, DIOT_EXIT_USAGE, "seek=%" PRIu64 " is beyond the end of "
			              "'%s' (%" PRIu64 " bytes)", dd->o.seek, d->out.path,
			              d->out.size);
		d->nblocks = (d->out.size - dd->o.seek * dd->o.bs) / dd->o.bs;
	} else {
		dd_fail_setup(dd, DIOT_EXIT_USAGE, "count= is needed to write a pattern to the "
		              "file '%s' (how many blocks of bs=%" PRIu64 ")", d->out.path,
		              dd->o.bs);
	}
}

/* The blocks counted against the largest file offset and the room of an
 * output device. */
static void
check_limits(struct dd *dd, struct dd_dev *d)
{
	uint64_t room, base;

	/* No offset of the run may pass 2^63-1 (a file's size may).  count=
	 * is at most what is read (dd's count=1E reads to the end): an input
	 * ends before; a pattern written that far is refused. */
	base = dd->o.skip > dd->o.seek ? dd->o.skip * dd->o.bs : dd->o.seek * dd->o.bs;
	if (d->nblocks > ((uint64_t)INT64_MAX - base) / dd->o.bs && d->in.path)
		d->nblocks = ((uint64_t)INT64_MAX - base) / dd->o.bs;
	if (d->nblocks > ((uint64_t)INT64_MAX - base) / dd->o.bs)
		dd_fail_setup(dd, DIOT_EXIT_USAGE, "'%s': %" PRIu64 " blocks of bs=%" PRIu64
		              " after seek= end beyond the largest file offset (2^63-1 "
		              "bytes); lower count=", d->name, d->nblocks, dd->o.bs);
	/* Room in an output device (in blocks: nothing can wrap). */
	room = d->out.size / dd->o.bs > dd->o.seek ? d->out.size / dd->o.bs - dd->o.seek : 0;
	if (d->out.path && d->out.kind != DD_KIND_FILE && d->nblocks > room)
		dd_fail_setup(dd, DIOT_EXIT_USAGE, "'%s' (%" PRIu64 " bytes) has room for %"
		              PRIu64 " blocks of %" PRIu64 " after seek=%" PRIu64 ", not %"
		              PRIu64 "; lower count=", d->out.path, d->out.size, room,
		              dd->o.bs, dd->o.seek, d->nblocks);
}

/* SCSI WRITE takes whole blocks: an input ending in a piece of one
 * cannot be copied to sg whole. */
static void
check_whole_blocks(struct dd *dd, const struct dd_dev *d)
{
	uint64_t rem;

	if (d->out.kind != DD_KIND_SG || !d->in.path || dd->o.skip * dd->o.bs > d->in.size)
		return;
	rem = d->in.size - dd->o.skip * dd->o.bs;
	if ((!dd->o.count_set || dd->o.count > rem / dd->o.bs) && rem % dd->o.bs != 0) {
		char hint[80] = "";

		if (rem / dd->o.bs > 0)
			snprintf(hint, sizeof(hint), "; count=%" PRIu64 " copies the "
			         "whole blocks only", rem / dd->o.bs);
		dd_fail_setup(dd, DIOT_EXIT_USAGE, "of= '%s' is written with SCSI WRITE "
		              "in whole blocks of %" PRIu64 " bytes, but the input '%s' "
		              "has %" PRIu64 " bytes to copy, %" PRIu64 " of them after "
		              "the last whole block: those cannot be written%s",
		              d->out.path, dd->o.bs, d->in.path, rem, rem % dd->o.bs, hint);
	}
}

/*
 * One opened device's plan: bs against an sg device's block, direct I/O
 * alignment, the byte offsets of skip= and seek=, how many blocks (count=,
 * or to the end of the input or of the output device), and that they fit
 * the output and the largest file offset.
 */
void
dd_plan_device(struct dd *dd, struct dd_dev *d)
{
	check_device_bs(dd, d);
	d->align = max_sz(max_sz((size_t)sysconf(_SC_PAGESIZE), d->in.align.mem_align),
	                  d->out.align.mem_align);
	if (past_largest(dd, d))
		return;
	/* skip*bs and seek*bs fit in int64 (past_largest()). */
	d->in_base = (int64_t)(dd->o.skip * dd->o.bs);
	d->out_base = (int64_t)(dd->o.seek * dd->o.bs);
	count_blocks(dd, d);
	check_limits(dd, d);
	check_whole_blocks(dd, d);
	if (d->in.path && d->nblocks == 0 && !(dd->o.count_set && dd->o.count == 0) &&
	    dd->o.skip * dd->o.bs <= d->in.size)
		diot_warn("if= '%s' %s: nothing to read (a file that does not report "
		          "its size, such as those under /proc, is read with count=)",
		          d->in.path, d->in.size == 0 ? "reports a size of 0 bytes"
		                                      : "has nothing after skip=");
	d->ntransfers = (d->nblocks + dd->o.bpt - 1) / dd->o.bpt;
}

/*
 * The plan of dd's loop (stream.c): the direct I/O granularity against
 * ibs and obs, where it starts in bytes (skip= in ibs blocks or bytes,
 * seek= in obs blocks or bytes), and the largest offset.
 */
void
dd_plan_stream(struct dd *dd, struct dd_dev *d)
{
	const struct dd_opts *o = &dd->o;
	uint64_t skip = o->iflag.skip_bytes ? o->skip : o->skip * o->ibs;
	uint64_t seek = o->oflag.seek_bytes ? o->seek : o->seek * o->obs;

	if (d->in.path)
		check_direct_size(dd, &d->in, 0, o->ibs);
	if (d->out.path)
		check_direct_size(dd, &d->out, 1, o->obs);
	if (d->in.path == NULL && !o->count_set && d->out.kind == DD_KIND_FILE)
		dd_fail_setup(dd, DIOT_EXIT_USAGE, "count= is needed to write a pattern to the "
		              "file '%s' (how many blocks of obs=%" PRIu64 ")", d->out.path, o->obs);
	d->align = max_sz(max_sz((size_t)sysconf(_SC_PAGESIZE), d->in.align.mem_align),
	                  d->out.align.mem_align);
	if (past_largest(dd, d))
		return;
	d->in_base = (int64_t)skip;
	d->out_base = (int64_t)seek;
	if (d->in.kind == DD_KIND_FILE && skip > d->in.size)
		dd_say_cannot_skip(dd, &d->in);
}
