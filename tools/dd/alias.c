/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * alias.c -- the names of a run that reach the same thing: each if= and
 * of= identified (a file by device and inode, a new output by its
 * directory and name, a device by its number, its disk and a loop
 * device's image), and an output that is also an input, or another
 * output, refused (dd_check_aliases(), from open.c); a device that
 * stores nothing (/dev/null) is no alias.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "tools/dd/dd.h"
#include "tools/kit/msg.h"

/*
 * A character device that stores nothing (/dev/null, /dev/zero,
 * /dev/full) or a terminal (fd >= 0 that is one): writing it destroys
 * nothing, so it needs no --force, and being an input and an output at
 * once (dd </dev/null >/dev/null) is no alias.
 */
int
dd_stores_nothing(const struct stat *st, int fd)
{
	static const char *const names[] = { "/dev/null", "/dev/zero", "/dev/full" };
	struct stat m;
	size_t i;

	if (!S_ISCHR(st->st_mode))
		return 0;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (stat(names[i], &m) == 0 && S_ISCHR(m.st_mode) && m.st_rdev == st->st_rdev)
			return 1;
	return fd >= 0 && isatty(fd);
}

static int
devno_eq(const struct dd_devno *a, const struct dd_devno *b)
{
	return a->set && b->set && a->chr == b->chr && a->rdev == b->rdev;
}

static void
devno_of(const char *path, struct dd_devno *n)
{
	struct stat st;

	if (path[0] != '\0' && stat(path, &st) == 0 &&
	    (S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode))) {
		n->set = 1;
		n->chr = S_ISCHR(st.st_mode) != 0;
		n->rdev = st.st_rdev;
	}
}

static void
get_ident(struct dd *dd, struct dd_ident *id, const char *label, const char *path, int is_out)
{
	struct dio_devinfo di;
	struct stat st;
	char dir[PATH_MAX], target[PATH_MAX];
	const char *slash;
	ssize_t n;
	int e;

	memset(id, 0, sizeof(*id));
	id->label = label;
	id->path = path;
	if (stat(path, &st) != 0) {
		e = errno;
		/* (an input was opened already: only an output gets here) */
		if (!is_out || e != ENOENT)
			dd_fail_setup(dd, DIOT_EXIT_FAIL, "failed to open %s: %s",
			              dd_quote_kept(path, DD_Q_NAME), dd_strerror(e));
		if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
			n = readlink(path, target, sizeof(target) - 1);
			target[n > 0 ? (size_t)n : 0] = '\0';
			dd_fail_setup(dd, DIOT_EXIT_USAGE, "of= '%s' is a symbolic link to '%s', which "
			              "does not exist: name the file itself (dio-dd does not "
			              "create files through a link)", path, target);
		}
		/* A new file: its directory must exist. */
		slash = strrchr(path, '/');
		if (slash == NULL) {
			snprintf(dir, sizeof(dir), ".");
			id->base = path;
		} else {
			if ((size_t)(slash - path) >= sizeof(dir))
				dd_fail_setup(dd, DIOT_EXIT_FAIL, "failed to open %s: %s",
				              dd_quote_kept(path, DD_Q_NAME), dd_strerror(ENAMETOOLONG));
			memcpy(dir, path, (size_t)(slash - path));
			dir[slash - path] = '\0';
			if (dir[0] == '\0')
				snprintf(dir, sizeof(dir), "/");
			id->base = slash + 1;
		}
		/* As dd's open(2) says it: "No such file or directory", "Not a
		 * directory" (exit 1). */
		e = stat(dir, &st) != 0 ? errno : !S_ISDIR(st.st_mode) ? ENOTDIR : 0;
		if (e != 0)
			dd_fail_setup(dd, DIOT_EXIT_FAIL, "failed to open %s: %s",
			              dd_quote_kept(path, DD_Q_NAME), dd_strerror(e));
		id->type = DD_ID_NEW;
		id->dev = st.st_dev;
		id->ino = st.st_ino;
		return;
	}
	if (!S_ISBLK(st.st_mode) && !S_ISCHR(st.st_mode)) {
		id->type = DD_ID_FILE;
		id->dev = st.st_dev;
		id->ino = st.st_ino;
		return;
	}
	id->type = DD_ID_DEV;
	id->nothing = dd_stores_nothing(&st, -1);
	id->node.set = 1;
	id->node.chr = S_ISCHR(st.st_mode) != 0;
	id->node.rdev = st.st_rdev;
	if (S_ISBLK(st.st_mode))
		id->blk = id->node;
	/* Without device facts (the posix backend) the node alone must do. */
	if (dio_devinfo(path, &di) < 0 && di.kind == DIO_DEVINFO_NONE)
		return;
	if (di.kind == DIO_DEVINFO_SG && !id->blk.set) {
		devno_of(di.device, &id->blk);
		if (id->blk.chr)
			memset(&id->blk, 0, sizeof(id->blk));
	}
	if (id->blk.set)
		devno_of(di.disk, &id->disk);
	if (di.loop_backing[0] != '\0' && stat(di.loop_backing, &st) == 0 &&
	    S_ISREG(st.st_mode)) {
		id->has_back = 1;
		id->back_dev = st.st_dev;
		id->back_ino = st.st_ino;
	}
}

/* Whether a and b reach the same data: 1 with a message in msg. */
int
dd_overlap(const struct dd_ident *a, const struct dd_ident *b, char *msg, size_t len)
{
	const struct dd_ident *t;

	if (a->type == DD_ID_DEV && b->type != DD_ID_DEV) {
		t = a;   /* the file first */
		a = b;
		b = t;
	}
	if (a->type == DD_ID_NEW && b->type == DD_ID_NEW) {
		if (a->dev == b->dev && a->ino == b->ino && strcmp(a->base, b->base) == 0) {
			snprintf(msg, len, "%s '%s' and %s '%s' name the same file", a->label,
			         a->path, b->label, b->path);
			return 1;
		}
		return 0;
	}
	if (a->type == DD_ID_FILE && b->type == DD_ID_FILE) {
		if (a->dev == b->dev && a->ino == b->ino) {
			snprintf(msg, len, "%s '%s' and %s '%s' are the same file", a->label,
			         a->path, b->label, b->path);
			return 1;
		}
		return 0;
	}
	if (a->type == DD_ID_FILE && b->type == DD_ID_DEV) {
		if (b->has_back && b->back_dev == a->dev && b->back_ino == a->ino) {
			snprintf(msg, len, "%s '%s' is the image file of the loop device %s '%s'",
			         a->label, a->path, b->label, b->path);
			return 1;
		}
		return 0;
	}
	if (a->type != DD_ID_DEV || b->type != DD_ID_DEV)
		return 0;
	if (devno_eq(&a->node, &b->node) || devno_eq(&a->blk, &b->blk)) {
		snprintf(msg, len, "%s '%s' and %s '%s' are the same device", a->label,
		         a->path, b->label, b->path);
		return 1;
	}
	/* A whole disk and one of its partitions. */
	if (devno_eq(&a->disk, &b->blk) && !devno_eq(&a->disk, &a->blk)) {
		snprintf(msg, len, "%s '%s' is a partition of %s '%s'", a->label, a->path,
		         b->label, b->path);
		return 1;
	}
	if (devno_eq(&b->disk, &a->blk) && !devno_eq(&b->disk, &b->blk)) {
		snprintf(msg, len, "%s '%s' is the whole disk holding %s '%s'", a->label,
		         a->path, b->label, b->path);
		return 1;
	}
	return 0;
}

/* Every output against every input and every other output.  (The array
 * is global so that it stays reachable when a refusal exits.) */

void
dd_check_aliases(struct dd *dd)
{
	char msg[PATH_MAX * 2 + 200];
	int i, j, n = 0, first_out;
	struct dd_ident *id;

	id = dd->idents = calloc((size_t)dd->ndevs * 2, sizeof(*id));
	if (id == NULL)
		dd_fail_setup(dd, DIOT_EXIT_FAIL, "out of memory");
	for (i = 0; i < dd->ndevs; i++)
		if (dd->devs[i].in.path)
			get_ident(dd, &id[n++], "if=", dd->devs[i].in.path, 0);
	first_out = n;
	for (i = 0; i < dd->ndevs; i++)
		if (dd->devs[i].out.path)
			get_ident(dd, &id[n++], "of=", dd->devs[i].out.path, 1);
	for (i = first_out; i < n; i++)
		for (j = 0; j < i; j++)
			if (!id[i].nothing && !id[j].nothing && dd_overlap(&id[i], &id[j], msg, sizeof(msg)))
				dd_fail_setup(dd, DIOT_EXIT_USAGE, "%s: an output must not be an input or "
				              "another output", msg);
	free(dd->idents);
	dd->idents = NULL;
}
