/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * target.c -- sync-write's target: a temporary file, a file to create (or
 * an existing one with --force), or a device (with --force, never one in
 * use, held for the run); the writers' regions; the files of --layout
 * separate; the prefill that makes the regions written blocks; and where
 * each transaction goes.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/kit/fmt.h"
#include "tools/kit/msg.h"
#include "tools/kit/outfile.h"
#include "tools/sw/sw.h"
#include "tools/sw/txn.h"

const char *
sw_file_of(const struct sw_ctx *c, int k)
{
	return (c->o->layout == SW_LAYOUT_SEPARATE && k > 0) ? c->tg.extra[k] : c->tg.path;
}

/* Offset of transaction j of writer k (slots: transactions per region). */
uint64_t
sw_txn_offset(const struct sw_ctx *c, uint64_t slots, int writers, uint64_t size,
              int k, uint64_t j)
{
	const struct sw_opts *o = c->o;

	return sw_layout_offset(o->layout == SW_LAYOUT_SEPARATE, o->extend, o->region, slots,
	                        writers, size, k, j);
}

/*
 * Before a point: a fresh, empty file to extend, or no cached pages (so
 * that every point starts alike: writes smaller than a page read it
 * first, and on NFS and smbfs direct requests are not served through the
 * cache).  The drop is posix_fadvise(); where it does nothing (illumos),
 * that is said once, and point.c hints at the direct rows it concerns.
 */
void
sw_prepare_point(const struct sw_ctx *c, int W)
{
	static int said;
	int k, n = c->o->layout == SW_LAYOUT_SEPARATE ? W : 1, fd;

	if (!(dio_caps() & DIO_CAP_FADVISE) && !c->o->extend && !said) {
		said = 1;
		diot_warn("note: the page cache cannot be dropped on this platform "
		          "(posix_fadvise() does nothing here): each point starts with "
		          "the pages the prefill and earlier points left cached, not "
		          "with none, so writes smaller than a page find it cached "
		          "instead of reading it first, and where the file system "
		          "serves direct requests through its cache (NFS, smbfs) "
		          "direct rows after buffered ones may not be direct (their "
		          "hint says so)");
	}

	for (k = 0; k < n; k++) {
		fd = open(sw_file_of(c, k), O_RDWR);
		if (fd < 0)
			diot_die(DIOT_EXIT_FAIL, "reopen %s: %s", sw_file_of(c, k),
			         dio_strerror(errno));
		if (c->o->extend && ftruncate(fd, 0) != 0)
			diot_die(DIOT_EXIT_FAIL, "truncate %s: %s", sw_file_of(c, k),
			         dio_strerror(errno));
		fsync(fd);
#ifdef POSIX_FADV_DONTNEED
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
#endif
		close(fd);
	}
}

/*
 * Before a point on a device: what earlier points left dirty in its
 * cache (buffered writes without a commit: none, direct refused) is
 * written back now, before the disks' idle interval, so that no later
 * point's device counts carry it (an O_DIRECT write first writes back
 * the cached pages of its range).  Each rank its own device.
 */
void
sw_writeback_device(const struct sw_ctx *c)
{
	int fd = open(c->tg.path, O_RDONLY | O_NONBLOCK);

	if (fd < 0)
		diot_die(DIOT_EXIT_FAIL, "reopen %s: %s", c->tg.path, dio_strerror(errno));
	/* A character device (illumos' raw disk) has no cache to write
	 * back: EINVAL there is nothing to do. */
	if (fsync(fd) != 0 && errno != EINVAL && errno != ENOTSUP)
		diot_die(DIOT_EXIT_FAIL, "fsync %s before a point: %s", c->tg.path,
		         dio_strerror(errno));
	close(fd);
}

/* A file the run created is removed at exit, unless --keep. */
static void
created(struct sw_ctx *c, const char *path)
{
	if (!c->o->keep && diot_out_created(c->created, path) < 0)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
}

/* Create path exclusively (ours), or accept an existing regular file with
 * --force.  Returns 1 if created. */
static int
claim_file(struct sw_ctx *c, const char *path)
{
	char why[PATH_MAX + 256];   /* the in-use text may name a mount point */
	int e, r = diot_out_create(path, c->o->force, &e, why, sizeof(why));
	const char *slash = strrchr(path, '/');

	switch (r) {
	case 1:
		created(c, path);
		return 1;
	case 0:
		return 0;
	case DIOT_OUT_CREATE_FAILED:
		/* A directory that is not there is a bad name (exit 2), as
		 * --dir's; permissions and read-only mounts fail the run. */
		if (e == ENOENT && slash != NULL)
			diot_die(DIOT_EXIT_USAGE, "cannot create '%s': its directory '%.*s' "
			         "does not exist", path, slash == path ? 1 : (int)(slash - path),
			         path);
		if (e == ENOTDIR)
			diot_die(DIOT_EXIT_USAGE, "cannot create '%s': %s (a part of its "
			         "path is a file)", path, dio_strerror(-e));
		diot_die(DIOT_EXIT_FAIL, "cannot create '%s': %s", path, dio_strerror(e));
	case DIOT_OUT_IS_DIR:
		diot_die(DIOT_EXIT_USAGE, "'%s' is a directory: name a file to create, or "
		         "use --dir %s for a temporary file there", path, path);
	case DIOT_OUT_NOT_REGULAR:
		diot_die(DIOT_EXIT_USAGE, "'%s' is neither a regular file nor a block "
		         "device", path);
	case DIOT_OUT_EXISTS:
		/* --force is advised only where it would help: not for a file
		 * that cannot be written, nor for a disk image in use. */
		if (access(path, W_OK) != 0)
			diot_die(DIOT_EXIT_FAIL, "'%s': %s", path, dio_strerror(-errno));
		if (dio_device_in_use(path, why, sizeof(why)) == 1)
			diot_die(DIOT_EXIT_FAIL, "refusing to write to '%s': it is in use (%s)",
			         path, why);
		diot_die(DIOT_EXIT_USAGE, "'%s' exists and would be overwritten; pass "
		         "--force to allow that, or name a new file", path);
	case DIOT_OUT_IN_USE:
		diot_die(DIOT_EXIT_FAIL, "refusing to write to '%s': it is in use (%s)",
		         path, why);
	default:    /* stat or access failed */
		diot_die(DIOT_EXIT_FAIL, "'%s': %s", path, dio_strerror(e));
	}
}

/*
 * Write zeros over [0, len) of path, in 1 MiB pieces, and sync.  Where
 * the file system serves direct requests through the cache while the
 * file has any cached page (NFS, smbfs), through a direct handle, so that
 * the prefill leaves none (len is a multiple of the direct I/O
 * granularity: size_regions()); elsewhere buffered.  c->tg.cached says
 * whether pages may be left.
 */
static void
prefill(struct sw_ctx *c, const char *path, uint64_t len)
{
	const size_t piece = 1 << 20;
	int direct = sw_prefill_direct(&c->tg.align);
	char *zero = dio_alloc(piece, 0);
	uint64_t off;
	dio_file *f;
	int64_t r = 0;
	int rr;

	if (zero == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	memset(zero, 0, piece);
	rr = dio_open(&f, path, DIO_O_WRONLY, direct ? DIO_DIRECT_TRY : DIO_DIRECT_OFF,
	              DIO_SYNC_NONE, 0);
	if (rr < 0)
		diot_die(DIOT_EXIT_FAIL, "open %s: %s", path, dio_strerror(rr));
	if (!direct || dio_file_direct(f) == DIO_MECH_NONE)
		c->tg.cached = SW_CACHED_PREFILL;
	for (off = 0; off < len && !*c->sig; off += piece) {
		r = dio_pwrite(f, zero, (size_t)(len - off < piece ? len - off : piece),
		               (int64_t)off);
		if (r < 0)
			break;
	}
	if (r >= 0)
		r = dio_commit(f, DIO_COMMIT_FSYNC);
	if (r < 0) {
		char d[300];

		dio_file_errdetail(f, d, sizeof(d));
		dio_close(f);
		diot_die(DIOT_EXIT_FAIL, "preparing %s (%" PRIu64 " bytes): %s", path, len,
		         d[0] ? d : dio_strerror((int)r));
	}
	if (dio_file_direct(f) == DIO_MECH_DIRECTIO)   /* advice outlives the fd */
		(void)dio_file_set_direct(f, DIO_DIRECT_OFF);
	dio_close(f);
	dio_free(zero);
}

static uint64_t
gcd_u64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* A TARGET or --dir that is a symbolic link to nothing: refused with
 * where it points (sync-write makes no file or directory through a link;
 * the name is what was wrong, exit 2). */
static void
refuse_dangling(const char *what, const char *path)
{
	char to[PATH_MAX];

	if (diot_out_dangling(path, to, sizeof(to)))
		diot_die(DIOT_EXIT_USAGE, "%s '%s' is a dangling symbolic link: it points "
		         "to '%s', which does not exist; name the %s itself, or remove the "
		         "link", what, path, to, strcmp(what, "--dir") == 0 ? "directory"
		         : "file");
}

/* A temporary file in --dir (or here). */
static void
make_temporary(struct sw_ctx *c)
{
	const char *d = c->o->dir ? c->o->dir : ".";
	struct stat st;
	int fd;

	refuse_dangling("--dir", d);
	if (stat(d, &st) != 0)
		diot_die(DIOT_EXIT_USAGE, "--dir '%s': %s", d, dio_strerror(errno));
	if (!S_ISDIR(st.st_mode))
		diot_die(DIOT_EXIT_USAGE, "--dir '%s' is not a directory", d);
	if (snprintf(c->tg.path, sizeof(c->tg.path), "%s/sync-write.XXXXXX", d) >=
	    (int)sizeof(c->tg.path))
		diot_die(DIOT_EXIT_FAIL, "cannot create a temporary file in '%s': %s", d,
		         dio_strerror(ENAMETOOLONG));
	fd = mkstemp(c->tg.path);
	if (fd < 0)
		diot_die(DIOT_EXIT_FAIL, "cannot create a temporary file in '%s': %s",
		         d, dio_strerror(errno));
	close(fd);
	c->tg.created = 1;
	created(c, c->tg.path);
}

/* A device in use (mounted, swap, held) is not written, nor one of which
 * that cannot be told (fail closed) -- unless --force and
 * --write-unchecked name it: then it is written, and say (1: the first
 * check, before it is opened for writing) has a warning say why it could
 * not be checked. */
static int
unchecked(const struct sw_ctx *c, const char *path)
{
	return diot_out_write_unchecked(c->o->write_unchecked, c->o->force, path);
}

static void
refuse_in_use(const struct sw_ctx *c, const char *path, int say)
{
	char why[PATH_MAX + 256];   /* the in-use text may name a mount point */
	int r;

	why[0] = '\0';
	r = dio_device_in_use(path, why, sizeof(why));
	if (r == 1)
		diot_die(DIOT_EXIT_FAIL, "refusing to write to '%s': it is in use (%s)",
		         path, why);
	if (r >= 0)
		return;
	if (unchecked(c, path)) {
		if (say)
			diot_out_warn_unchecked(path, dio_strerror(r), why);
		return;
	}
	diot_die(DIOT_EXIT_FAIL, "refusing to write to '%s': cannot tell "
	         "whether it is in use (%s%s%s)%s", path, dio_strerror(r),
	         why[0] ? ": " : "", why, c->o->force ? DIOT_OUT_UNCHECKED_ADVICE : "");
}

/*
 * A device, before anything is written or even opened for writing: every
 * reason --force would not help is said first (and never the advice to
 * pass it): options a device cannot take, a device that holds no data
 * (/dev/null, /dev/zero: no size), one in use (mounted, swap, held) or
 * of which that cannot be told.  Then, without --force, the advice.
 * (With it, hold_device() checks again and holds the device.)
 */
static void
device_refusal(const struct sw_ctx *c)
{
	const struct sw_opts *o = c->o;
	const char *path = c->tg.path;
	struct dio_align al;
	dio_file *f;

	if (o->extend)
		diot_die(DIOT_EXIT_USAGE, "--extend needs a file, not a device");
	if (o->layout == SW_LAYOUT_SEPARATE)
		diot_die(DIOT_EXIT_USAGE, "--layout separate needs files, not a device");
	/* Read-only: its size (a device that cannot be opened so is said
	 * by the open for writing, with --force). */
	if (dio_open(&f, path, DIO_O_RDONLY, DIO_DIRECT_OFF, DIO_SYNC_NONE, 0) == 0) {
		memset(&al, 0, sizeof(al));
		dio_file_align(f, &al);
		dio_close(f);
		if (al.device_bytes == 0)
			diot_die(DIOT_EXIT_USAGE, "'%s' is a device that reports no size: "
			         "not a disk sync-write can write to (a TARGET is a file or a "
			         "disk)", path);
	}
	refuse_in_use(c, path, 1);
	if (access(path, W_OK) != 0)
		diot_die(DIOT_EXIT_FAIL, "cannot open '%s' for writing: %s", path,
		         dio_strerror(-errno));
	if (!o->force)
		diot_die(DIOT_EXIT_USAGE, "'%s' is a device: its contents would be "
		         "destroyed; pass --force to allow that", path);
}

/* Name the target: a temporary file, a device, or a file to claim. */
static void
choose_target(struct sw_ctx *c, struct stat *st)
{
	const struct sw_opts *o = c->o;

	if (o->target == NULL) {
		make_temporary(c);
	} else if (strlen(o->target) >= sizeof(c->tg.path)) {
		diot_die(DIOT_EXIT_USAGE, "TARGET '%s': %s (%zu bytes; a path has at "
		         "most %zu)", o->target, dio_strerror(-ENAMETOOLONG),
		         strlen(o->target), sizeof(c->tg.path) - 1);
	} else if (stat(o->target, st) == 0 && (S_ISBLK(st->st_mode) ||
	                                        S_ISCHR(st->st_mode))) {
		snprintf(c->tg.path, sizeof(c->tg.path), "%s", o->target);
		c->tg.is_dev = 1;
		device_refusal(c);
	} else {
		refuse_dangling("TARGET", o->target);
		snprintf(c->tg.path, sizeof(c->tg.path), "%s", o->target);
		c->tg.created = claim_file(c, o->target);
	}
}

/* What the target supports: direct I/O, alignment, size, file system. */
/* Is the disk under the target a spinning one (for the speed hint)?  A
 * loop device's rotational flag says nothing about the disk below it.
 * And can the target be durable at all? */
static void
disk_facts(struct sw_target *tg)
{
	struct dio_devinfo di;
	int r = dio_devinfo(tg->path, &di);

	tg->rotational = DIO_TRI_UNKNOWN;
	tg->sync_always = r < 0 ? DIO_TRI_UNKNOWN : (int)di.sync_always;
	tg->direct_stable = r < 0 || tg->is_dev ? DIO_TRI_UNKNOWN : (int)di.direct_stable;
	/* Said only where known (fail closed: tmpfs, ramfs, ZFS sync=disabled,
	 * no flush to a disk that caches) or where it cannot be told; else
	 * nothing, which is no promise either (facts.c). */
	sw_durability(tg->not_durable, sizeof(tg->not_durable), tg->is_dev, tg->fstype,
	              r < 0 ? NULL : &di);
	if (r < 0 || di.loop_backing[0])
		return;
	tg->rotational = (int)di.rotational;
	snprintf(tg->disk, sizeof(tg->disk), "%s", di.name);
}

static void
probe_target(struct sw_ctx *c, const struct stat *st)
{
	struct sw_target *tg = &c->tg;
	dio_file *f;
	int r;

	r = dio_open(&f, tg->path, DIO_O_RDWR, DIO_DIRECT_OFF, DIO_SYNC_NONE, 0);
	if (r < 0)
		diot_die(DIOT_EXIT_FAIL, "cannot open '%s' for writing: %s", tg->path,
		         dio_strerror(r));
	r = dio_file_set_direct(f, DIO_DIRECT_ON);
	if (r == -ENOTSUP || r == -EINVAL) {
		struct dio_refusal why;

		tg->direct_refused = r;
		dio_file_refusal(f, &why);
		dio_refusal_str(&why, tg->direct_why, sizeof(tg->direct_why));
	} else if (r < 0) {
		diot_die(DIOT_EXIT_FAIL, "cannot turn direct I/O on for '%s': %s",
		         tg->path, dio_strerror(r));
	} else if (r == DIO_MECH_DIRECTIO) {
		/* Advice kept on the file (illumos directio()): the writers set
		 * it again for the direct methods; buffered ones must not
		 * inherit it from this probe. */
		(void)dio_file_set_direct(f, DIO_DIRECT_OFF);
	}
	dio_file_align(f, &tg->align);
	tg->dev_bytes = tg->align.device_bytes;
	tg->fs_unknown = 0;
	if (tg->is_dev) {
		snprintf(tg->fstype, sizeof(tg->fstype), "%s device",
		         tg->align.is_device && S_ISBLK(st->st_mode) ? "block" : "character");
	} else if (dio_fs_type(dio_file_fd(f), tg->fstype, sizeof(tg->fstype)) < 0) {
		snprintf(tg->fstype, sizeof(tg->fstype), "unknown file system");
		tg->fs_unknown = 1;
	}
	dio_close(f);
	disk_facts(tg);
}

/* A device, only opened so far and never written: make sure it is free,
 * and hold it for the whole run. */
static void
hold_device(struct sw_ctx *c)
{
	struct sw_target *tg = &c->tg;

	if (tg->dev_bytes == 0)
		diot_die(DIOT_EXIT_USAGE, "'%s' is a device that reports no size: "
		         "not a disk sync-write can write to", tg->path);
	refuse_in_use(c, tg->path, 0);
	/* So that nobody mounts it meanwhile (where the platform can:
	 * elsewhere the check above is all). */
	tg->claim_fd = diot_out_claim_device(tg->path);
	if (tg->claim_fd == -EBUSY)
		diot_die(DIOT_EXIT_FAIL, "refusing to write to '%s': it is in use "
		         "(the exclusive claim failed)", tg->path);
	/* The claim fails for the reason the check could not be made (a
	 * device --write-unchecked names): the run goes on, unheld. */
	if (tg->claim_fd < 0 && tg->claim_fd != -ENOTSUP && unchecked(c, tg->path))
		diot_out_warn_unheld(tg->path, dio_strerror(tg->claim_fd));
	else if (tg->claim_fd < 0 && tg->claim_fd != -ENOTSUP)
		diot_die(DIOT_EXIT_FAIL, "cannot claim '%s': %s", tg->path,
		         dio_strerror(tg->claim_fd));
}

/* Regions: a multiple of the largest size and of the direct I/O
 * granularity (their least common multiple), so that every region starts
 * aligned and every transaction of an aligned size stays so. */
static void
size_regions(struct sw_ctx *c, uint64_t max_writers, uint64_t max_size)
{
	struct sw_opts *o = c->o;
	const struct sw_target *tg = &c->tg;
	uint64_t g = tg->align.offset_align > 1 ? tg->align.offset_align : 1;
	uint64_t unit = max_size / gcd_u64(max_size, g) * g;

	if (!o->region_set)
		o->region = SW_DEFAULT_REGION;
	o->region -= o->region % unit;
	if (o->region < unit)
		o->region = unit;
	if (!tg->is_dev || o->region * max_writers <= tg->dev_bytes)
		return;
	if (o->region_set)
		diot_die(DIOT_EXIT_USAGE, "%" PRIu64 " writers x --region %" PRIu64
		         " bytes do not fit on '%s' (%" PRIu64 " bytes)",
		         max_writers, o->region, tg->path, tg->dev_bytes);
	o->region = tg->dev_bytes / max_writers;
	o->region -= o->region % unit;
	if (o->region < unit)
		diot_die(DIOT_EXIT_USAGE, "'%s' (%" PRIu64 " bytes) is too small "
		         "for %" PRIu64 " writers of %" PRIu64 "-byte transactions",
		         tg->path, tg->dev_bytes, max_writers, max_size);
}

/* A writer's file (--layout separate) that is an output of the run
 * (-o, --plot, --ack-log, claimed before the target): refused, naming
 * both. */
static void
output_named(const struct sw_ctx *c, const char *path, int k)
{
	const struct sw_opts *o = c->o;
	const char *opt[3] = { "--output", "--plot", "--ack-log" };
	const char *val[3];
	int i;

	val[0] = o->output;
	val[1] = o->plot;
	val[2] = o->ack_log;
	for (i = 0; i < 3; i++)
		if (val[i] != NULL && (strcmp(val[i], path) == 0 || diot_out_same(val[i], path)))
			diot_die(DIOT_EXIT_USAGE, "%s '%s' is '%s', the file --layout separate "
			         "writes for writer %d of TARGET '%s': name another output or "
			         "TARGET", opt[i], val[i], path, k, c->tg.path);
}

/* --layout separate: TARGET.1 ... TARGET.W-1, never an existing file. */
static void
separate_files(struct sw_ctx *c, uint64_t max_writers)
{
	struct sw_target *tg = &c->tg;
	struct stat st;
	int k;

	for (k = 1; k < (int)max_writers; k++) {
		size_t len = strlen(tg->path) + 16;

		tg->extra[k] = malloc(len);
		if (tg->extra[k] == NULL)
			diot_die(DIOT_EXIT_FAIL, "out of memory");
		snprintf(tg->extra[k], len, "%s.%d", tg->path, k);
		/* --force is for the TARGET named: files that only share its
		 * name are never overwritten (nor is a symbolic link followed,
		 * even one that points nowhere yet). */
		if (lstat(tg->extra[k], &st) == 0)
			output_named(c, tg->extra[k], k);
		if (lstat(tg->extra[k], &st) == 0)
			diot_die(DIOT_EXIT_USAGE, "'%s' exists: --layout separate "
			         "writes %s.1 ... %s.%d besides the TARGET; remove it or "
			         "name another TARGET", tg->extra[k], tg->path, tg->path,
			         (int)max_writers - 1);
		claim_file(c, tg->extra[k]);
	}
}

/* Overwrite mode: write the regions once so that the transactions
 * overwrite allocated, written blocks (no unwritten extents).  With
 * --no-prefill an existing file is taken as it is, but it must at least
 * be long enough. */
static void
fill_regions(struct sw_ctx *c, uint64_t max_writers)
{
	const struct sw_opts *o = c->o;
	int k, sep = o->layout == SW_LAYOUT_SEPARATE;
	struct stat st;

	if (o->extend || c->tg.is_dev)
		return;
	if (o->no_prefill) {
		c->tg.cached = SW_CACHED_UNKNOWN;
		for (k = 0; k < (sep ? (int)max_writers : 1); k++) {
			uint64_t need = sep ? o->region : o->region * max_writers;

			if (stat(sw_file_of(c, k), &st) != 0 || (uint64_t)st.st_size < need)
				diot_die(DIOT_EXIT_USAGE, "--no-prefill: '%s' is shorter than the "
				         "%" PRIu64 " bytes the writers overwrite", sw_file_of(c, k),
				         need);
		}
		return;
	}
	if (sep) {
		prefill(c, c->tg.path, o->region);
		for (k = 1; k < (int)max_writers; k++)
			prefill(c, c->tg.extra[k], o->region);
	} else {
		prefill(c, c->tg.path, o->region * max_writers);
	}
}

/*
 * Does a writer's file have a hole once prepared?  Where a file system
 * buffers synchronous writes to a file with holes even with direct I/O on
 * (UFS, dio_align's DIO_DLIM_SYNC_HOLES), direct O_SYNC/O_DSYNC methods
 * are then not what they say (point.c).
 */
static void
find_holes(struct sw_ctx *c, uint64_t max_writers)
{
#ifdef SEEK_HOLE
	int k, n = c->o->layout == SW_LAYOUT_SEPARATE ? (int)max_writers : 1;
	struct stat st;
	off_t h;
	int fd;

	if (c->tg.is_dev || !(c->tg.align.direct_limits & DIO_DLIM_SYNC_HOLES))
		return;
	for (k = 0; k < n && !c->tg.holes; k++) {
		fd = open(sw_file_of(c, k), O_RDONLY | O_NOCTTY | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (fstat(fd, &st) == 0 && st.st_size > 0) {
			h = lseek(fd, 0, SEEK_HOLE);
			c->tg.holes = h >= 0 && h < st.st_size;
		}
		close(fd);
	}
#else
	(void)c; (void)max_writers;
#endif
}

/*
 * Take back the direct I/O advice a direct point's writers left on their
 * files (illumos directio() is kept on the file, not the descriptor), so
 * that the next buffered point is buffered.  The files are the run's own.
 */
void
sw_target_advice_off(const struct sw_ctx *c, int writers)
{
	int k, n = c->o->layout == SW_LAYOUT_SEPARATE ? writers : 1;
	dio_file *f;

	for (k = 0; k < n; k++) {
		if (dio_open(&f, sw_file_of(c, k), DIO_O_RDONLY, DIO_DIRECT_OFF,
		             DIO_SYNC_NONE, 0) < 0)
			continue;
		(void)dio_file_set_direct(f, DIO_DIRECT_OFF);
		dio_close(f);
	}
}

void
sw_setup_target(struct sw_ctx *c, uint64_t max_writers, uint64_t max_size)
{
	struct stat st;

	memset(&st, 0, sizeof(st));
	choose_target(c, &st);
	probe_target(c, &st);
	if (c->tg.is_dev)
		hold_device(c);
	size_regions(c, max_writers, max_size);
	if (c->o->layout == SW_LAYOUT_SEPARATE)
		separate_files(c, max_writers);
	fill_regions(c, max_writers);
	find_holes(c, max_writers);
}
