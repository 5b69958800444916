/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * open.c -- the devices of a run set up (dd_setup_devices()): each
 * side opened as what it is (a stream, a file or block device through
 * dio_open, an sg node), an output refused while in use, or a device
 * without --force, and a device output claimed for the run; the aliases
 * checked (alias.c); each device planned (check.c); where the buffers
 * start (bufoff=); everything closed at the end (dd_close_sides()).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "tools/dd/dd.h"
#include "tools/kit/msg.h"
#include "tools/kit/outfile.h"
#include "tools/kit/scsi.h"

/* ------------------------------------------------------------ opening */

/*
 * What a side of a run makes of a READ CAPACITY answer: its logical
 * block and capacity, and its size in bytes, which must fit an off_t.
 */
int
dd_sg_geometry(struct dd_side *s, uint64_t blocks, uint32_t blen, char *why, size_t len)
{
	if (blen == 0) {
		snprintf(why, len, "READ CAPACITY reports a block length of 0");
		return -1;
	}
	if (blocks > (uint64_t)INT64_MAX / blen) {
		snprintf(why, len, "READ CAPACITY reports %" PRIu64 " blocks of %" PRIu32
		         " bytes, more than 2^63-1 bytes", blocks, blen);
		return -1;
	}
	s->sg_block = blen;
	s->sg_blocks = blocks;
	s->size = blocks * blen;
	return 0;
}

/* READ CAPACITY(10), then (16) when the capacity needs it. */
static void
sg_capacity(struct dd *dd, struct dd_side *s)
{
	dio_scsi *c = dio_scsi_new();
	char msg[400];
	uint64_t blocks = 0;
	uint32_t blen = 0;
	int r;

	if (c == NULL)
		dd_fail_setup(dd, DIOT_EXIT_FAIL, "out of memory");
	r = diot_scsi_capacity(c, s->fd, &blocks, &blen, msg, sizeof(msg));
	dio_scsi_free(c);
	if (r < 0 || dd_sg_geometry(s, blocks, blen, msg, sizeof(msg)) < 0)
		dd_fail_setup(dd, DIOT_EXIT_FAIL, "'%s': %s", s->path, msg);
}

/* 1 if path is an sg node with no block device behind it (a tape, an
 * enclosure), as far as the library's device facts tell. */
static int
sg_without_disk(const char *path)
{
	struct dio_devinfo di;

	if (dio_devinfo(path, &di) < 0)
		return 0;
	return di.kind == DIO_DEVINFO_SG && di.device[0] == '\0';
}

/* --force and --write-unchecked name this output device: written though
 * whether it is in use cannot be told (check.c checked the option). */
static int
unchecked(const struct dd *dd, const struct dd_side *s)
{
	return diot_out_write_unchecked(dd->o.write_unchecked, dd->o.force, s->path);
}

/* Outputs claimed so far (names for the overlap message). */

/*
 * Hold a device output (an sg node: its disk) exclusively for the whole
 * run, so that nothing mounts it, swaps on it or claims it after the
 * check above.  Where the platform has no such claim the check is all.
 */
static void
hold_output_device(struct dd *dd, struct dd_side *s)
{
	int r = diot_out_claim_device(s->path);
	size_t l;

	if (r >= 0) {
		s->claim_fd = r;
		l = strlen(dd->claimed_names);
		if (l + 8 < sizeof(dd->claimed_names))
			snprintf(dd->claimed_names + l, sizeof(dd->claimed_names) - l, "%sof= '%s'",
			         dd->nclaimed ? ", " : "", s->path);
		dd->nclaimed++;
		return;
	}
	switch (r) {
	case -ENOTSUP:      /* no claims on this platform */
	case -ENOTBLK:      /* a character device that is no sg node: refused below */
		return;
	case -EBUSY:
		if (dd->nclaimed > 0)
			dd_fail_setup(dd, DIOT_EXIT_USAGE, "of= '%s' overlaps an output this run "
			              "already holds (%s): its exclusive claim failed: an "
			              "output must not be an input or another output", s->path,
			              dd->claimed_names);
		dd_fail_setup(dd, DIOT_EXIT_FAIL, "refusing to write to '%s': it is in use (the "
		              "exclusive claim failed: mounted, used or claimed since it was "
		              "checked)", s->path);
	case -ENODEV:
		dd_fail_setup(dd, DIOT_EXIT_FAIL, "refusing to write to '%s': the block device of "
		              "this SCSI generic node cannot be determined (no disk behind "
		              "it?), so it cannot be claimed", s->path);
	default:
		/* The claim fails for the reason the check could not be made (a
		 * device --write-unchecked names): the run goes on, unheld. */
		if (unchecked(dd, s)) {
			diot_out_warn_unheld(s->path, dd_strerror(r));
			return;
		}
		dd_fail_setup(dd, DIOT_EXIT_FAIL, "refusing to write to '%s': cannot claim it "
		              "for the run: %s", s->path, dd_strerror(r));
	}
}

/* fadvise=: the advice for the whole file or device, or the run stops. */
static void
give_advice(struct dd *dd, const struct dd_side *s, int is_out)
{
#ifdef POSIX_FADV_SEQUENTIAL
	static const int advice[] = { 0, POSIX_FADV_NORMAL, POSIX_FADV_SEQUENTIAL,
	                              POSIX_FADV_RANDOM };
	int r = posix_fadvise(s->fd, 0, 0, advice[dd->o.fadvise]);

	if (r != 0)
		dd_fail_setup(dd, DIOT_EXIT_FAIL, "%s '%s': fadvise=%s: posix_fadvise: %s",
		              is_out ? "of=" : "if=", s->path, dd_fadvise_words[dd->o.fadvise],
		              dd_strerror(-r));
#else
	(void)s;
	(void)is_out;
#endif
}

/* dd's "failed to open 'NAME': REASON" (exit 1), the reason in the C
 * locale's words. */
static void DIOT_NORETURN
fail_open(struct dd *dd, const char *path, int err)
{
	dd_fail_setup(dd, DIOT_EXIT_FAIL, "failed to open %s: %s", dd_quote_kept(path, DD_Q_NAME),
	              dd_strerror(err));
}

/*
 * conv=excl and conv=nocreat, as dd's open(2) answers them, for every
 * named output before anything is opened for writing: with excl (O_CREAT
 * | O_EXCL) anything at that name is "File exists" -- a device, /dev/null,
 * a FIFO, a dangling symbolic link as much as a file --; with nocreat (no
 * O_CREAT) a missing one is "No such file or directory".
 */
static void
check_create_rules(struct dd *dd)
{
	struct stat st;
	int i;

	for (i = 0; i < dd->ndevs; i++) {
		const struct dd_side *s = &dd->devs[i].out;

		if (s->path == NULL || s->std >= 0)
			continue;
		if (dd->o.conv.excl && lstat(s->path, &st) == 0)
			fail_open(dd, s->path, EEXIST);
		if (dd->o.conv.nocreat && stat(s->path, &st) != 0)
			fail_open(dd, s->path, errno);
	}
}

/* An output in use is refused, and so is one the system cannot tell
 * about (fail closed); for a file, -ENOTSUP (the platform keeps no such
 * record of files) is no answer, and it is written as dd writes it. */
static void
refuse_in_use(struct dd *dd, const struct dd_side *s)
{
	char why[PATH_MAX + 256];   /* the in-use text may name a mount point */
	int r;

	why[0] = '\0';
	r = dio_device_in_use(s->path, why, sizeof(why));
	if (r == 1)
		dd_fail_setup(dd, DIOT_EXIT_FAIL, "refusing to write to '%s': it is in use "
		              "(%s)", s->path, why);
	if (r >= 0 || (r == -ENOTSUP && s->kind == DD_KIND_FILE))
		return;
	/* --force and --write-unchecked naming it: written, and said so. */
	if (unchecked(dd, s)) {
		diot_out_warn_unchecked(s->path, dd_strerror(r), why);
		return;
	}
	dd_fail_setup(dd, DIOT_EXIT_FAIL, "refusing to write to '%s': cannot tell "
	              "whether it is in use (%s%s%s)%s", s->path, dd_strerror(r),
	              why[0] ? ": " : "", why, dd->o.force && s->kind != DD_KIND_FILE ?
	              DIOT_OUT_UNCHECKED_ADVICE : "");
}

/* An existing output, before anything is opened for writing: a file is
 * written as dd writes it, unless it is in use (a disk image behind a
 * loop device, --force or not); a device only with --force, and never
 * while it is in use (mounted, swapped on, held); a device is claimed
 * for the run. */
static void
check_existing_output(struct dd *dd, struct dd_side *s, const struct stat *st)
{
	if (s->kind == DD_KIND_FILE) {
		refuse_in_use(dd, s);
		return;
	}
	if (!dd->o.force)
		dd_fail_setup(dd, DIOT_EXIT_USAGE, "of= '%s' is a device: its contents "
		              "would be destroyed; pass --force (or oflag=force) to "
		              "allow that", s->path);
	/* An sg node is checked through its disk: one whose disk
	 * cannot be found cannot be checked, and is not written. */
	if (S_ISCHR(st->st_mode) && sg_without_disk(s->path))
		dd_fail_setup(dd, DIOT_EXIT_FAIL, "refusing to write to '%s': the block "
		              "device of this SCSI generic node cannot be determined "
		              "(no disk behind it?), so whether it is in use cannot "
		              "be checked", s->path);
	refuse_in_use(dd, s);
	hold_output_device(dd, s);
}

/* Is st the object of descriptor fd (standard input or output)? */
static int
is_fd(const struct stat *st, int fd)
{
	struct stat f;

	return fstat(fd, &f) == 0 && f.st_dev == st->st_dev && f.st_ino == st->st_ino &&
	       (f.st_mode & S_IFMT) == (st->st_mode & S_IFMT);
}


/*
 * A stream: standard input/output itself (std), or a pipe, FIFO,
 * terminal or character device opened by name; read and written in
 * order.  Direct I/O, SCSI and no-copy flags do not apply.
 */
static void
open_stream(struct dd *dd, struct dd_side *s, int is_out, const struct stat *st)
{
	const struct dd_side_flags *fl = is_out ? &dd->o.oflag : &dd->o.iflag;
	const char *key = is_out ? "of=" : "if=";
	int fd;

	s->kind = DD_KIND_STREAM;
	if (fl->direct || fl->sg || fl->nocopy)
		dd_fail_setup(dd, DIOT_EXIT_USAGE, "%s '%s' is %s: %sflag=%s is for files and "
		              "block devices", key, s->path, s->std >= 0 ? (is_out ?
		              "standard output" : "standard input") : S_ISFIFO(st->st_mode) ?
		              "a pipe" : "a character device", is_out ? "o" : "i",
		              fl->direct ? "direct" : fl->sg ? "sg" : "nocopy");
	if (is_out && s->std < 0 && S_ISCHR(st->st_mode) && !dd_stores_nothing(st, -1) &&
	    !dd->o.force)
		dd_fail_setup(dd, DIOT_EXIT_USAGE, "of= '%s' is a device: what it holds would be "
		              "overwritten; pass --force (or oflag=force) to allow that", s->path);
	if (s->std >= 0) {
		fd = dup(s->std);
	} else {
		int flags = (is_out ? O_WRONLY : O_RDONLY) | O_NOCTTY;

		if (is_out && fl->append)
			flags |= O_APPEND;
		fd = open(s->path, flags);
	}
	/* (an open of a FIFO waits for its other end: a stop signal then
	 * ends dio-dd as it ends dd) */
	if (fd < 0 && errno == EINTR && *dd->stop)
		dd_stop_setup(dd);
	if (fd < 0)
		fail_open(dd, s->path, errno);
	(void)fcntl(fd, F_SETFD, FD_CLOEXEC);
	s->fd = fd;
	s->seekable = lseek(fd, 0, SEEK_CUR) >= 0;
	if (is_out && (s->std == 1 || is_fd(st, STDOUT_FILENO)))
		dd->data_stdout = 1;
}

/*
 * What an existing path (or a new output, !exists) is: a stream (1: a
 * directory as an input, a pipe, FIFO, socket, standard input/output by
 * another name, a character device that takes no SCSI commands), or a
 * file, block or sg device (0, s->kind set); what cannot be opened at all
 * stops the run here, before anything is opened for writing.
 */
static int
classify_side(struct dd *dd, struct dd_side *s, int is_out, int exists, const struct stat *st)
{
	const struct dd_side_flags *fl = is_out ? &dd->o.oflag : &dd->o.iflag;
	int r;

	/* A directory, as dd meets it: an output cannot be opened for
	 * writing; an input opens, and its first read fails ("error reading
	 * 'DIR': Is a directory", after the records lines). */
	if (exists && S_ISDIR(st->st_mode) && is_out)
		fail_open(dd, s->path, EISDIR);
	if (exists && S_ISDIR(st->st_mode))
		return 1;
	/* /dev/stdin, /dev/stdout, /dev/fd/N naming a pipe or terminal: the
	 * descriptor itself. */
	if (exists && !S_ISREG(st->st_mode) && !S_ISBLK(st->st_mode) &&
	    is_fd(st, is_out ? STDOUT_FILENO : STDIN_FILENO))
		s->std = is_out ? STDOUT_FILENO : STDIN_FILENO;
	if (exists && (S_ISFIFO(st->st_mode) || S_ISSOCK(st->st_mode) || s->std >= 0))
		return 1;
	if (exists && S_ISCHR(st->st_mode))
		s->kind = DD_KIND_SG;
	else if (exists && S_ISBLK(st->st_mode))
		s->kind = fl->sg ? DD_KIND_SG : DD_KIND_BLOCK;
	else if (!exists || S_ISREG(st->st_mode))
		s->kind = DD_KIND_FILE;
	else
		dd_fail_setup(dd, DIOT_EXIT_USAGE, "%s '%s' is neither a file, a pipe nor a device",
		              is_out ? "of=" : "if=", s->path);
	if (fl->sg && s->kind == DD_KIND_FILE)
		dd_fail_setup(dd, DIOT_EXIT_USAGE, "%s '%s': %sflag=sg needs a block or sg device, "
		              "not a file", is_out ? "of=" : "if=", s->path, is_out ? "o" : "i");
	/* A character device that takes no SCSI commands (/dev/zero,
	 * /dev/null, /dev/urandom, a terminal): a stream. */
	if (s->kind == DD_KIND_SG && S_ISCHR(st->st_mode) && !fl->sg && !dd->o.dio) {
		r = dio_scsi_open(s->path, 1);
		if (r == -ENOTTY || r == -ENOTSUP)
			return 1;
		if (r >= 0)
			close(r);
	}
	return 0;
}

/* An sg node (or a block device with iflag/oflag=sg): SCSI pass-through,
 * its capacity, and with dio=1 whether the driver allows direct
 * transfers. */
static void
open_sg_side(struct dd *dd, struct dd_side *s, int is_out)
{
	const struct dd_side_flags *fl = is_out ? &dd->o.oflag : &dd->o.iflag;
	int r;

	if (fl->direct)
		dd_fail_setup(dd, DIOT_EXIT_USAGE, "%s '%s': %sflag=direct is for files and "
		              "block devices; for SCSI pass-through ask for direct "
		              "transfers with dio=1", is_out ? "of=" : "if=", s->path,
		              is_out ? "o" : "i");
	if (fl->nocopy)
		dd_fail_setup(dd, DIOT_EXIT_USAGE, "if= '%s': iflag=nocopy is for files and "
		              "block devices, not SCSI pass-through", s->path);
	r = dio_scsi_open(s->path, !is_out);
	if (r == -ENOTSUP)
		dd_fail_setup(dd, DIOT_EXIT_FAIL, "%s '%s': SCSI pass-through is not supported "
		              "by this build (%s backend)", is_out ? "of=" : "if=", s->path,
		              dio_backend_name());
	if (r == -ENOTTY)
		dd_fail_setup(dd, DIOT_EXIT_USAGE, "%s '%s' is a character device that does not "
		              "accept SCSI pass-through (dio-dd reads and writes files, "
		              "block devices and SCSI generic devices)",
		              is_out ? "of=" : "if=", s->path);
	if (r < 0)
		dd_fail_setup(dd, DIOT_EXIT_FAIL, "%s '%s': %s", is_out ? "of=" : "if=",
		              s->path, dd_strerror(r));
	s->fd = r;
	sg_capacity(dd, s);
	if (dd->o.dio) {
		/* Why the driver may not do direct transfers, asked now:
		 * the threads only report it. */
		struct dio_devinfo di;

		dio_devinfo(s->path, &di);
		s->allow_dio = di.allow_dio;
		snprintf(s->allow_dio_path, sizeof(s->allow_dio_path), "%s",
		         di.allow_dio_path);
	}
}

/* Files and block devices through dio_open: direct I/O and synchronous
 * writes as the flags ask, a new output created, its size, fadvise=. */
static void
open_file_side(struct dd *dd, struct dd_side *s, int is_out, int exists, const struct stat *st)
{
	const struct dd_side_flags *fl = is_out ? &dd->o.oflag : &dd->o.iflag;
	struct dio_refusal why;
	char words[256];
	int r, sync, flags;

	flags = is_out ? DIO_O_WRONLY : DIO_O_RDONLY;
	if (is_out && !exists)
		flags |= DIO_O_CREAT | DIO_O_EXCL;
	sync = fl->sync ? DIO_SYNC_FULL : fl->dsync ? DIO_SYNC_DATA : DIO_SYNC_NONE;
	r = dio_open_why(&s->f, s->path, (unsigned)flags,
	                 fl->direct ? DIO_DIRECT_ON : DIO_DIRECT_OFF, sync, 0644, &why);
	/* The backend's own reason, as the library keeps it (dio_open(3)). */
	if (r == -ENOTSUP && fl->direct && why.reason != DIO_REFUSAL_NONE)
		dd_fail_setup(dd, DIOT_EXIT_FAIL, "%s '%s': %sflag=direct: this file system or "
		              "platform (%s backend) refuses direct I/O: %s",
		              is_out ? "of=" : "if=", s->path, is_out ? "o" : "i",
		              dio_backend_name(), dio_refusal_str(&why, words, sizeof(words)));
	if (r == -ENOTSUP && sync != DIO_SYNC_NONE)
		dd_fail_setup(dd, DIOT_EXIT_FAIL, "of= '%s': oflag=%s is not supported here",
		              s->path, fl->sync ? "sync" : "dsync");
	if (r == -EEXIST)
		dd_fail_setup(dd, DIOT_EXIT_FAIL, "of= '%s' appeared while dio-dd was starting; "
		              "not overwriting it", s->path);
	if (r < 0)
		fail_open(dd, s->path, r);
	s->created = dio_file_created(s->f);
	if (s->created && diot_out_created(&dd->created, s->path) < 0) {
		dio_close(s->f);
		s->f = NULL;
		unlink(s->path);
		dd_fail_setup(dd, DIOT_EXIT_FAIL, "of= '%s': out of memory", s->path);
	}
	s->fd = dio_file_fd(s->f);
	/* of=/dev/stdout (or the file's own name) with standard output
	 * redirected to the file: the data goes there, the report does not. */
	if (is_out && exists && S_ISREG(st->st_mode) && is_fd(st, STDOUT_FILENO))
		dd->data_stdout = 1;
	dio_file_align(s->f, &s->align);
	/* No read-ahead hint unless asked (fio gives POSIX_FADV_SEQUENTIAL by
	 * default, which doubles the window): buffered reads measure the
	 * device as it is set up, read_ahead_kb included, as dd does and as
	 * dio-info reports it. */
	if (dd->o.fadvise != 0)
		give_advice(dd, s, is_out);
	if (s->kind == DD_KIND_BLOCK)
		s->size = s->align.device_bytes;
	else if (exists)
		s->size = (uint64_t)st->st_size;
}

/* Open one side.  is_out: output (write) side. */
static void
open_side(struct dd *dd, struct dd_side *s, int is_out)
{
	struct stat st;
	int exists;

	if (s->std >= 0) {
		if (fstat(s->std, &st) != 0)
			dd_fail_setup(dd, DIOT_EXIT_FAIL, "standard %s: %s", is_out ? "output" :
			              "input", dd_strerror(-errno));
		open_stream(dd, s, is_out, &st);
		return;
	}
	exists = stat(s->path, &st) == 0;
	if (!exists && (!is_out || errno != ENOENT))
		fail_open(dd, s->path, errno);
	if (classify_side(dd, s, is_out, exists, &st)) {
		open_stream(dd, s, is_out, &st);
		return;
	}

	/* Refusals for outputs come before anything is opened for writing. */
	if (is_out && exists)
		check_existing_output(dd, s, &st);

	if (s->kind == DD_KIND_SG)
		open_sg_side(dd, s, is_out);
	else
		open_file_side(dd, s, is_out, exists, &st);
}

/*
 * Where the buffers start (bufoff=).  When every transfer goes through the
 * page cache the kernel copies between its pages and the buffer, and those
 * copies (x86 rep movsb) were measured 5-10% faster with a buffer that does
 * not start on a cache line (bench/bufoff-bench.py): the default there is
 * 32, which keeps every narrower alignment.  Anything else starts aligned
 * by default: a direct transfer (iflag/oflag=direct, or sg with dio=1)
 * needs its buffer on the side's memory alignment, so a given offset must
 * be a multiple of it; SCSI pass-through on a block device maps an aligned
 * buffer and copies through a bounce buffer otherwise.
 */
static void
set_buffer_offset(struct dd *dd)
{
	size_t need = 0, a;
	const char *who = NULL;
	int i, k, cached = 1;

	for (i = 0; i < dd->ndevs; i++)
		for (k = 0; k < 2; k++) {
			const struct dd_side *s = k ? &dd->devs[i].out : &dd->devs[i].in;

			if (s->path == NULL)
				continue;
			if (s->kind == DD_KIND_SG)
				a = dd->o.dio ? (size_t)sysconf(_SC_PAGESIZE) : 0;
			else
				a = (k ? dd->o.oflag.direct : dd->o.iflag.direct) ?
				    max_sz(s->align.mem_align, 1) : 0;
			if (s->kind == DD_KIND_SG || a)
				cached = 0;
			if (a > need) {     /* powers of two: the largest serves all */
				need = a;
				who = s->path;
			}
		}
	if (!dd->o.bufoff_set) {
		dd->buf_off = cached ? 32 : 0;
		return;
	}
	if (need && dd->o.bufoff % need != 0)
		dd_fail_setup(dd, DIOT_EXIT_USAGE, "bufoff=%" PRIu64 ": direct transfers need "
		              "buffers aligned to %zu bytes (the memory alignment of '%s'); "
		              "give a multiple of %zu, or 0", dd->o.bufoff, need, who, need);
	dd->buf_off = (size_t)dd->o.bufoff;
}

/* A device's lock; in shared memory under --processes, though only the
 * threads of the one process that drives the device take it. */
static void
init_lock(struct dd *dd, pthread_mutex_t *m)
{
	pthread_mutexattr_t a;

	pthread_mutexattr_init(&a);
	if (dd->o.procs)
		pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
	pthread_mutex_init(m, &a);
	pthread_mutexattr_destroy(&a);
}

static void choose_loop(struct dd *dd);

void
dd_setup_devices(struct dd *dd)
{
	int i;

	dd->ndevs = dd->o.mode == DD_MODE_WRITE ? dd->o.nof : dd->o.nif;
	if (dd->o.procs) {
		/* The devices' results are written by the worker processes:
		 * shared memory, zeroed like calloc's. */
		void *m = mmap(NULL, (size_t)dd->ndevs * sizeof(*dd->devs), PROT_READ | PROT_WRITE,
		               MAP_SHARED | MAP_ANON, -1, 0);

		dd->devs = m == MAP_FAILED ? NULL : m;
	} else {
		dd->devs = calloc((size_t)dd->ndevs, sizeof(*dd->devs));
	}
	if (dd->devs == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	for (i = 0; i < dd->ndevs; i++) {
		struct dd_dev *d = &dd->devs[i];

		d->index = i;
		d->in.fd = d->out.fd = -1;
		d->in.claim_fd = d->out.claim_fd = -1;
		d->in.std = dd->std_in && i == 0 ? STDIN_FILENO : -1;
		d->out.std = dd->std_out && i == 0 ? STDOUT_FILENO : -1;
		d->active = (int)dd->o.thr;
		d->in.path = dd->o.mode != DD_MODE_WRITE ? dd->o.ifs[i] : NULL;
		d->out.path = dd->o.mode != DD_MODE_READ ? dd->o.ofs[i] : NULL;
		snprintf(d->name, sizeof(d->name), "%s%s%s", d->in.path ? d->in.path : "",
		         d->in.path && d->out.path ? "->" : "", d->out.path ? d->out.path : "");
		init_lock(dd, &d->lock);
		diot_hist_reset(&d->hist[DD_DIR_READ]);
		diot_hist_reset(&d->hist[DD_DIR_WRITE]);
	}
	/* Inputs first: they decide counts; outputs are created last. */
	for (i = 0; i < dd->ndevs; i++)
		if (dd->devs[i].in.path) {
			open_side(dd, &dd->devs[i].in, 0);
			dd_io_choose(&dd->o, &dd->devs[i].in, 0);
		}
	check_create_rules(dd);
	dd_check_aliases(dd);
	for (i = 0; i < dd->ndevs; i++)
		if (dd->devs[i].out.path) {
			open_side(dd, &dd->devs[i].out, 1);
			dd_io_choose(&dd->o, &dd->devs[i].out, 1);
		}

	choose_loop(dd);
	set_buffer_offset(dd);
	/* Every check passed: now an output file is cut as dd cuts it (dd's
	 * O_TRUNC, or its ftruncate() to seek=), so that a copy onto a longer
	 * file leaves nothing of it behind; with oflag=append and conv=notrunc
	 * the writing starts at its end. */
	for (i = 0; i < dd->ndevs; i++) {
		struct dd_dev *d = &dd->devs[i];
		struct dd_side *s = &d->out;
		struct stat st;
		int64_t len;

		if (s->path == NULL || s->kind != DD_KIND_FILE)
			continue;
		if (dd->o.oflag.append && dd->o.oflag.notrunc && fstat(s->fd, &st) == 0)
			d->out_base = (int64_t)st.st_size;
		if (dd->o.oflag.notrunc)
			continue;
		/* dd: a seek= of whole output blocks is kept (ftruncate to it);
		 * less than one block (oflag=seek_bytes) is cut to 0 (O_TRUNC),
		 * the writing starting at seek= all the same. */
		len = dd->o.oflag.seek_bytes && dd->o.seek < dd->o.obs ? 0 : d->out_base;
		if (ftruncate(s->fd, (off_t)len) != 0)
			dd_fail_setup(dd, DIOT_EXIT_FAIL, "failed to truncate to %" PRId64 " bytes in "
			              "output file %s: %s", len, dd_quote_kept(s->path, DD_Q_NAME),
			              dd_strerror(errno));
	}
}

/*
 * Which loop runs: dd's own (stream.c) where the run needs it, and can
 * have it, or the positional engine; each device's plan with it.
 */
static void
choose_loop(struct dd *dd)
{
	const char *why;
	int i, r = dd_stream_needed(dd, &why);

	if (r < 0)
		dd_fail_setup(dd, DIOT_EXIT_USAGE, "%s: that is copied by one thread, one call at "
		              "a time (dd's way): drop %s", why,
		              dd->ndevs > 1 ? "the other devices" : dd->o.thr > 1 ? "thr=" :
		              dd->o.engine != DD_ENG_SYNC ? "engine= and qd=" : dd->o.bpt > 1 ?
		              "bpt=" : dd->o.procs ? "--processes" : dd->o.rate ? "rate=" :
		              dd->o.iflag.nocopy ? "iflag=nocopy" : "SCSI pass-through (sg)");
	dd->stream = r;
	if (dd->stream) {
		size_t a;

		dd_plan_stream(dd, &dd->devs[0]);
		a = dd->devs[0].align;
		dd->tsize = (size_t)((dd->o.ibs + a - 1) / a * a + dd->o.obs);
		return;
	}
	dd->tsize = (size_t)(dd->o.bs * dd->o.bpt);
	for (i = 0; i < dd->ndevs; i++)
		dd_plan_device(dd, &dd->devs[i]);
}

/* Close every side (buffered data stays in the page cache, as dd), then
 * release the claimed output devices. */
void
dd_close_sides(struct dd *dd)
{
	int i;

	for (i = 0; i < dd->ndevs; i++) {
		if (dd->devs[i].in.f)
			dio_close(dd->devs[i].in.f);
		else if (dd->devs[i].in.fd >= 0)
			close(dd->devs[i].in.fd);
		if (dd->devs[i].out.f)
			dio_close(dd->devs[i].out.f);
		else if (dd->devs[i].out.fd >= 0)
			close(dd->devs[i].out.fd);
		/* The device is released only now that nothing writes to it. */
		if (dd->devs[i].out.claim_fd >= 0)
			close(dd->devs[i].out.claim_fd);
	}
}
