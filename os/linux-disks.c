/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * linux-disks.c -- the disks under a path and their block-layer counters
 * (os/os.h: dio__os_disks_find(), dio__os_disk_counts(), behind
 * dio_disks_open() and dio_disks_read()).  sysfs is walked from the
 * path's block device down to the disks at the bottom: a partition to its
 * disk, a device with slaves/ (device-mapper, multipath, md) to each
 * slave, a loop device to the disk of its backing file.  Each disk's stat
 * file is held open and read again at offset 0 (sysfs writes the text
 * anew for each read from the start); os/linux-read.c parses it.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lib/internal.h"
#include "os/linux-read.h"
#include "os/linux.h"
#include "os/os.h"

/* Layers followed from the path to a disk (a loop device over a file on
 * dm over md over partitions is 5): past this, the walk calls it a loop. */
#define WALK_DEPTH 16

#define VIA_LEN sizeof(((struct dio_disk *)0)->via)
#define NAME_LEN sizeof(((struct dio_disk *)0)->name)

struct walk {
	const char *path;            /* what dio_disks_open() was given   */
	struct dio_disk *list;
	int *fds;
	unsigned n, max;
	char stack[WALK_DEPTH][NAME_LEN];  /* the names being walked: cycles */
	unsigned depth;
	char *why;
	size_t len;
};

static int
say(struct walk *w, int err, const char *fmt, ...) DIO__PRINTF(3, 4);

/* err, with why set as fmt says. */
static int
say(struct walk *w, int err, const char *fmt, ...)
{
	va_list ap;

	if (w->why != NULL && w->len > 0) {
		va_start(ap, fmt);
		vsnprintf(w->why, w->len, fmt, ap);
		va_end(ap);
	}
	return err;
}

/* A kernel name as the kernel gives them: printable, no blank, no '/',
 * not "." or "..", and short enough for dio_disk.name. */
static int
plain_name(const char *s)
{
	size_t i;

	if (s[0] == '\0' || strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
		return 0;
	for (i = 0; s[i] != '\0'; i++)
		if (i + 1 >= NAME_LEN || (unsigned char)s[i] < 0x21 ||
		    (unsigned char)s[i] > 0x7e || s[i] == '/')
			return 0;
	return 1;
}

/* s shown with what is not printable as \xNN, at most 40 bytes of it. */
static const char *
shown(const char *s, char *buf, size_t len)
{
	size_t o = 0, i;

	buf[0] = '\0';
	for (i = 0; s[i] != '\0' && i < 40 && o + 5 < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x20 && c <= 0x7e && c != '"' && c != '\\')
			buf[o++] = (char)c;
		else
			o += (size_t)snprintf(buf + o, len - o, "\\x%02x", c);
	}
	buf[o] = '\0';
	if (s[i] != '\0' && o + 4 < len)
		strcat(buf, "...");
	return buf;
}

static int
check_name(struct walk *w, const char *name, const char *where)
{
	char s[200];

	if (plain_name(name))
		return 0;
	return say(w, -EINVAL, "a kernel name that is not a plain disk name (printable, no "
	           "'/', under %u bytes) under %s: \"%s\"", (unsigned)NAME_LEN, where,
	           shown(name, s, sizeof(s)));
}

/* The last component of a path. */
static const char *
base(const char *p)
{
	const char *s = strrchr(p, '/');

	return s != NULL ? s + 1 : p;
}

/* The file system type of path, for a message ("unknown" when not found). */
static void
fs_name(const char *path, const struct stat *st, char *buf, size_t len)
{
	int fd = open(path, O_PATH | O_CLOEXEC);

	snprintf(buf, len, "unknown");
	if (fd < 0)
		return;
	if (dio__os_fs_type(fd, st, buf, len) != 0)
		snprintf(buf, len, "unknown");
	close(fd);
}

/* d's cache as the disk itself reports it: sd's cache_type, from the
 * caching mode page ("write back", "write through", "none", each maybe
 * followed by ", no read (daft)"). */
static uint32_t
device_cache(const char *sys)
{
	char p[PATH_MAX], name[64], line[64];

	snprintf(p, sizeof(p), "%s/device/scsi_disk", sys);
	if (!dio__first_entry(p, name, sizeof(name)))
		return DIO_TRI_UNKNOWN;
	snprintf(p, sizeof(p), "%s/device/scsi_disk/%s/cache_type", sys, name);
	if (dio__read_line(p, line, sizeof(line)) != 0)
		return DIO_TRI_UNKNOWN;
	if (strncmp(line, "write back", 10) == 0)
		return DIO_TRI_YES;
	if (strncmp(line, "write through", 13) == 0 || strncmp(line, "none", 4) == 0)
		return DIO_TRI_NO;
	return DIO_TRI_UNKNOWN;
}

/* The disk at the bottom: its facts, its stat file opened. */
static int
add_disk(struct walk *w, const char *sys, const char *name, const char *via)
{
	struct dio_disk *k;
	char p[PATH_MAX], line[64];
	unsigned i;
	int fd;

	for (i = 0; i < w->n; i++)
		if (strcmp(w->list[i].name, name) == 0)
			return 0;   /* two partitions of one disk, two layers over it */
	if (w->n == w->max)
		return say(w, -E2BIG, "more than %u disks under %s", w->max, w->path);
	snprintf(p, sizeof(p), "%s/stat", sys);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return say(w, DIO__ERR(errno), "cannot open the counters of %s (%s): %s",
		           name, p, dio_strerror(errno));
	k = &w->list[w->n];
	w->fds[w->n++] = fd;
	snprintf(k->name, sizeof(k->name), "%s", name);
	snprintf(k->via, sizeof(k->via), "%s%s", via, name);
	dio__devnode(sys, k->device, sizeof(k->device));
	snprintf(p, sizeof(p), "%s/queue", sys);
	dio__set_tri(p, "fua", &k->fua);
	dio__set_tri(p, "rotational", &k->rotational);
	snprintf(p, sizeof(p), "%s/queue/write_cache", sys);
	if (dio__read_line(p, line, sizeof(line)) == 0)
		k->write_cache = dio__parse_write_cache(line);
	k->device_cache = device_cache(sys);
	return 0;
}

static int walk_dev(struct walk *w, dev_t dev, const char *via);

static int
by_name(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

/* A loop device's backing file, to the disk it is on. */
static int
walk_backing(struct walk *w, const char *name, const char *backing, const char *via)
{
	char next[VIA_LEN], p[PATH_MAX], fs[64], s[200];
	struct stat st;
	dev_t bdev;

	snprintf(next, sizeof(next), "%s%s > %s > ", via, name, backing);
	dio__sys_path(p, sizeof(p), "%s", backing);
	if (backing[0] != '/' || stat(p, &st) != 0)
		return say(w, -ENODEV, "disk not found: %s%s's backing file \"%s\" cannot be "
		           "examined: %s", via, name, shown(backing, s, sizeof(s)),
		           backing[0] != '/' ? "not an absolute path" : dio_strerror(errno));
	if (S_ISBLK(st.st_mode))
		return walk_dev(w, st.st_rdev, next);
	if (!dio__fs_blockdev(st.st_dev, &bdev)) {
		fs_name(p, &st, fs, sizeof(fs));
		return say(w, -ENODEV, "no local disk: %s%s > %s is on %s", via, name,
		           backing, fs);
	}
	return walk_dev(w, bdev, next);
}

/*
 * The block device whose sysfs directory is sys (a real path), to the
 * disks at the bottom; via is the way here ("loop0 > /srv/x.img > ").
 */
static int
walk_dir(struct walk *w, const char *sys_in, const char *via)
{
	char sys[PATH_MAX], next[VIA_LEN], p[PATH_MAX], sub[PATH_MAX];
	char line[PATH_MAX], name[NAME_LEN];
	char (*slaves)[NAME_LEN] = NULL;
	struct dirent *e;
	size_t nslaves = 0, i;
	DIR *dir;
	int r = 0;

	snprintf(sys, sizeof(sys), "%s", sys_in);
	if ((r = check_name(w, base(sys), "/sys/block")) != 0)
		return r;
	snprintf(next, sizeof(next), "%s", via);
	snprintf(p, sizeof(p), "%s/partition", sys);
	if (dio__exists(p)) {
		/* A partition: its disk is the directory it is in. */
		snprintf(next, sizeof(next), "%s%s > ", via, base(sys));
		*strrchr(sys, '/') = '\0';
		if ((r = check_name(w, base(sys), "/sys/block")) != 0)
			return r;
	}
	snprintf(name, sizeof(name), "%s", base(sys));
	for (i = 0; i < w->depth; i++)
		if (strcmp(w->stack[i], name) == 0)
			return say(w, -ELOOP, "disk not found: a cycle: %s%s", next, name);
	if (w->depth == WALK_DEPTH)
		return say(w, -ELOOP, "disk not found: more than %d layers: %s%s",
		           WALK_DEPTH, next, name);
	snprintf(w->stack[w->depth++], NAME_LEN, "%s", name);

	/* device-mapper (multipath too), md: each slave, in name order. */
	snprintf(p, sizeof(p), "%s/slaves", sys);
	if ((dir = opendir(p)) != NULL) {
		while (r == 0 && (e = readdir(dir)) != NULL) {
			if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
				continue;
			if ((r = check_name(w, e->d_name, p)) != 0)
				break;
			if (nslaves == DIO_DISKS_MAX) {
				r = say(w, -E2BIG, "more than %d devices under %s", DIO_DISKS_MAX,
				        name);
				break;
			}
			if (nslaves % 8 == 0) {
				void *m = realloc(slaves, (nslaves + 8) * sizeof(*slaves));

				if (m == NULL) {
					r = -ENOMEM;
					break;
				}
				slaves = m;
			}
			snprintf(slaves[nslaves++], NAME_LEN, "%s", e->d_name);
		}
		closedir(dir);
		if (r == 0 && nslaves > 0)
			qsort(slaves, nslaves, sizeof(*slaves), by_name);
	}
	if (r == 0 && nslaves > 0) {
		char mine[VIA_LEN];

		snprintf(mine, sizeof(mine), "%s%s > ", next, name);
		for (i = 0; r == 0 && i < nslaves; i++) {
			snprintf(p, sizeof(p), "%s/slaves/%s", sys, slaves[i]);
			if (realpath(p, sub) == NULL)
				r = say(w, -ENODEV, "disk not found: %s%s: %s", mine, slaves[i],
				        dio_strerror(errno));
			else
				r = walk_dir(w, sub, mine);
		}
	} else if (r == 0) {
		snprintf(p, sizeof(p), "%s/loop/backing_file", sys);
		if (dio__read_line(p, line, sizeof(line)) == 0 && line[0] != '\0')
			r = walk_backing(w, name, line, next);
		else
			r = add_disk(w, sys, name, next);
	}
	free(slaves);
	w->depth--;
	return r;
}

/* Block device dev (a layer below the path: via says how it was reached). */
static int
walk_dev(struct walk *w, dev_t dev, const char *via)
{
	char link[PATH_MAX], sys[PATH_MAX];

	dio__sys_path(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if (realpath(link, sys) == NULL)
		return say(w, -ENODEV, "disk not found: %sblock device %u:%u has no %s: %s",
		           via, major(dev), minor(dev), link, dio_strerror(errno));
	return walk_dir(w, sys, via);
}

int
dio__os_disks_find(const char *path, const struct stat *st, struct dio_disk *list,
                   int *fds, unsigned max, char *why, size_t len)
{
	struct walk w;
	char fs[64];
	dev_t dev;
	unsigned i;
	int r;

	memset(&w, 0, sizeof(w));
	w.path = path;
	w.list = list;
	w.fds = fds;
	w.max = max;
	w.why = why;
	w.len = len;
	if (S_ISCHR(st->st_mode))
		return say(&w, -ENODEV, "no local disk: %s is a character device, whose I/O "
		           "the block layer does not count", path);
	if (S_ISBLK(st->st_mode)) {
		dev = st->st_rdev;
	} else if (!dio__fs_blockdev(st->st_dev, &dev)) {
		fs_name(path, st, fs, sizeof(fs));
		return say(&w, -ENODEV, "no local disk: %s is on %s", path, fs);
	}
	r = walk_dev(&w, dev, "");
	if (r < 0) {
		for (i = 0; i < w.n; i++)
			close(fds[i]);
		return r;
	}
	return (int)w.n;
}

int
dio__os_disk_counts(int fd, struct dio_disk_counts *c)
{
	char buf[1024];   /* 17 numbers of 20 digits and their blanks fit */
	ssize_t n;

	n = pread(fd, buf, sizeof(buf) - 1, 0);
	c->at_ns = dio__now_ns();
	if (n < 0) {
		c->err = DIO__ERR(errno);
		snprintf(c->note, sizeof(c->note), "the stat file cannot be read: %s",
		         dio_strerror(errno));
		return c->err;
	}
	buf[n] = '\0';
	if (memchr(buf, '\0', (size_t)n) != NULL) {
		c->err = -EPROTO;
		snprintf(c->note, sizeof(c->note), "the stat file holds a NUL byte");
		return c->err;
	}
	dio__parse_disk_stat(buf, c);
	return c->err;
}
