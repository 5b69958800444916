/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * targets-apart.c -- sync-write TARGET TARGET...: no TARGET may be a file
 * another one writes (interleave.c; args.c checks the names).
 */
#include "config.h"

#include <errno.h>
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

/*
 * Several TARGETs are measured against each other, so none may be a file
 * another one writes: not the same file under two names (./a and a, a
 * hard or symbolic link), nor a file one of them derives for its writers
 * with --layout separate (TARGET 2 a.dat.1 besides TARGET 1 a.dat of two
 * writers).  Checked by name before anything is created (a usage error
 * naming both), and by device and inode once every file exists.
 */

/* The files of TARGET t: k 0 the TARGET, k >= 1 its writer k's. */
static char *
file_name(const char *target, int k)
{
	return k == 0 ? diot_strdupf("%s", target) : diot_strdupf("%s.%d", target, k);
}

static char *
file_what(const char *target, int t, int k)
{
	if (k == 0)
		return diot_strdupf("TARGET %d '%s'", t + 1, target);
	return diot_strdupf("'%s.%d' (TARGET %d's file for its writer %d, --layout "
	                    "separate)", target, k, t + 1, k);
}

static void DIOT_NORETURN
collide(const char *const *targets, int t1, int k1, int t2, int k2)
{
	/* Said from a buffer of its own, so that nothing allocated is left
	 * behind when the error is held (TARGETs are at most PATH_MAX). */
	static char msg[3 * PATH_MAX + 512];
	char *a = file_what(targets[t1], t1, k1), *b = file_what(targets[t2], t2, k2);

	snprintf(msg, sizeof(msg), "%s and %s are the same file: each TARGET (and each "
	         "file its writers write with --layout separate) must be a file or "
	         "device of its own", a, b);
	free(a);
	free(b);
	diot_usage_error("%s", msg);
}

/* The directory of path resolved, and its last name (sw.h). */
char *
sw_path_canonical(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir, *real, *r;

	if (slash == NULL)
		dir = diot_strdupf(".");
	else if (slash == path)
		dir = diot_strdupf("/");
	else
		dir = diot_strdupf("%.*s", (int)(slash - path), path);
	real = realpath(dir, NULL);
	free(dir);
	if (real == NULL)
		return diot_strdupf("%s", path);
	r = diot_strdupf("%s%s%s", real, strcmp(real, "/") == 0 ? "" : "/",
	                 slash ? slash + 1 : path);
	free(real);
	return r;
}

/* k when name is base.k for a writer k in [1, W), else 0. */
static int
derived(const char *base, const char *name, int W)
{
	size_t lb = strlen(base);
	const char *p;
	long k = 0;

	if (strncmp(name, base, lb) != 0 || name[lb] != '.')
		return 0;
	p = name + lb + 1;
	if (*p < '1' || *p > '9')
		return 0;
	for (; *p >= '0' && *p <= '9' && k < W; p++)
		k = k * 10 + (*p - '0');
	return *p == '\0' && k < W ? (int)k : 0;
}

/* An existing file's identity: a device by its number. */
struct tfile {
	int t, k;
	dev_t dev;
	ino_t ino;
};

static int
identify(const char *path, int t, int k, struct tfile *f)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return 0;
	f->t = t;
	f->k = k;
	if (S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode)) {
		f->dev = st.st_rdev;
		f->ino = (ino_t)(S_ISCHR(st.st_mode) ? 1 : 0);
	} else {
		f->dev = st.st_dev;
		f->ino = st.st_ino;
	}
	return 1;
}

/* Every existing file of names[t] (W files each) against the other
 * TARGETs' ones. */
static void
apart_by_inode(const char *const *targets, int nt, int W, const char *const *paths)
{
	struct tfile *f = calloc((size_t)nt * (size_t)W, sizeof(*f));
	int t, k, n = 0, i, j;

	if (f == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	for (t = 0; t < nt; t++)
		for (k = 0; k < W; k++) {
			const char *p = paths ? paths[t * W + k] : NULL;
			char *own;

			if (paths != NULL && p == NULL)
				continue;
			own = p ? NULL : file_name(targets[t], k);

			n += identify(p ? p : own, t, k, &f[n]);
			free(own);
		}
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (f[i].t != f[j].t && f[i].dev == f[j].dev && f[i].ino == f[j].ino) {
				struct tfile x = f[i], y = f[j];

				free(f);
				collide(targets, x.t, x.k, y.t, y.k);
			}
	free(f);
}

void
sw_targets_named_apart(const struct sw_opts *o)
{
	const char *const *tg = o->operands;
	int nt = o->noperands, W = 1, i, m, k, a = -1, ak = 0, b = 0, bk = 0;
	char *canon[SW_MAX_TARGETS];

	if (nt < 2 || nt > SW_MAX_TARGETS)
		return;
	if (o->layout == SW_LAYOUT_SEPARATE && o->nwriters > 0)
		W = (int)o->writers[o->nwriters - 1];
	for (i = 0; i < nt; i++)
		canon[i] = sw_path_canonical(tg[i]);
	/* The first collision is said once the names are freed (collide()
	 * leaves, and a held error must leave nothing allocated). */
	for (i = 0; i < nt && a < 0; i++)
		for (m = i + 1; m < nt && a < 0; m++) {
			if (strcmp(canon[i], canon[m]) == 0)
				a = i, ak = 0, b = m, bk = 0;
			else if ((k = derived(canon[i], canon[m], W)) > 0)
				a = i, ak = k, b = m, bk = 0;
			else if ((k = derived(canon[m], canon[i], W)) > 0)
				a = i, ak = 0, b = m, bk = k;
		}
	for (i = 0; i < nt; i++)
		free(canon[i]);
	if (a >= 0)
		collide(tg, a, ak, b, bk);
	apart_by_inode(tg, nt, W, NULL);
}

void
sw_targets_apart(const struct sw_ctx *c, int nt)
{
	const char *targets[SW_MAX_TARGETS];
	const char **paths;
	int W = 1, t, k;

	if (nt < 2 || nt > SW_MAX_TARGETS)
		return;
	if (c[0].o->layout == SW_LAYOUT_SEPARATE && c[0].o->nwriters > 0)
		W = (int)c[0].o->writers[c[0].o->nwriters - 1];
	paths = calloc((size_t)nt * (size_t)W, sizeof(*paths));
	if (paths == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	for (t = 0; t < nt; t++) {
		targets[t] = c[t].o->target ? c[t].o->target : c[t].tg.path;
		for (k = 0; k < W; k++)
			paths[t * W + k] = k == 0 ? c[t].tg.path : c[t].tg.extra[k];
	}
	apart_by_inode(targets, nt, W, paths);
	free(paths);
}
