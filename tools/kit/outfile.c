/*
 * outfile.c -- output-file safety shared by the tools (outfile.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libdirectio.h"
#include "tools/kit/outfile.h"

int
diot_out_create(const char *path, int force, int *err, char *why, size_t whylen)
{
	struct stat st;
	int fd;

	if (err != NULL)
		*err = 0;
	if (why != NULL && whylen > 0)
		why[0] = '\0';
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd >= 0) {
		close(fd);
		return 1;
	}
	if (errno != EEXIST) {
		if (err != NULL)
			*err = errno;
		return DIOT_OUT_CREATE_FAILED;
	}
	if (stat(path, &st) != 0) {
		if (err != NULL)
			*err = errno;
		return DIOT_OUT_STAT_FAILED;
	}
	if (S_ISDIR(st.st_mode))
		return DIOT_OUT_IS_DIR;
	if (!S_ISREG(st.st_mode))
		return DIOT_OUT_NOT_REGULAR;
	if (!force)
		return DIOT_OUT_EXISTS;
	if (access(path, W_OK) != 0) {
		if (err != NULL)
			*err = errno;
		return DIOT_OUT_NO_ACCESS;
	}
	/* force is for the file, not for a disk image somebody uses. */
	if (dio_device_in_use(path, why, whylen) == 1)
		return DIOT_OUT_IN_USE;
	return 0;
}

int
diot_out_open_results(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644), e;

	if (fd >= 0) {
		close(fd);
		return 1;
	}
	e = errno;
	if (e != EEXIST)
		return -e;
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

int
diot_out_writable(const char *path, char *why, size_t whylen)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return 0;       /* to be created (its directory is checked then) */
	if (S_ISREG(st.st_mode) || S_ISCHR(st.st_mode))
		return 0;
	if (S_ISDIR(st.st_mode)) {
		snprintf(why, whylen, "is a directory");
		return -EISDIR;
	}
	if (S_ISFIFO(st.st_mode)) {
		/* Opened and closed to be checked, then opened again to be
		 * written, a FIFO would end its reader's input early, or wait
		 * for ever when nothing reads it: write to standard output
		 * and pipe that instead. */
		snprintf(why, whylen, "is a FIFO: an output is a file or a character "
		         "device; for a pipe, write to standard output");
		return -ENXIO;
	}
	snprintf(why, whylen, "is neither a regular file nor a character device");
	return -EINVAL;
}

int
diot_out_same(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino && !S_ISCHR(sa.st_mode);
}

int
diot_out_claim_device(const char *path)
{
	return dio_device_claim(path);
}

void
diot_out_init(struct diot_outlist *l)
{
	memset(l, 0, sizeof(*l));
}

int
diot_out_created(struct diot_outlist *l, const char *path)
{
	char *copy;

	if (l->n == l->cap) {
		int cap = l->cap ? 2 * l->cap : 8;
		char **p = realloc(l->path, (size_t)cap * sizeof(*p));
		int *k;

		if (p == NULL)
			return -1;
		l->path = p;
		k = realloc(l->keep, (size_t)cap * sizeof(*k));
		if (k == NULL)
			return -1;
		l->keep = k;
		l->cap = cap;
	}
	copy = strdup(path);
	if (copy == NULL)
		return -1;
	l->path[l->n] = copy;
	l->keep[l->n] = 0;
	return l->n++;
}

void
diot_out_keep(struct diot_outlist *l, int idx)
{
	int i;

	for (i = 0; i < l->n; i++)
		if (idx < 0 || i == idx)
			l->keep[i] = 1;
}

void
diot_out_remove_created(struct diot_outlist *l)
{
	while (l->n > 0) {
		l->n--;
		if (!l->keep[l->n])
			unlink(l->path[l->n]);
		free(l->path[l->n]);
	}
	free(l->path);
	free(l->keep);
	memset(l, 0, sizeof(*l));
}

static struct diot_outlist *at_exit_list;

static void
remove_at_exit(void)
{
	if (at_exit_list != NULL)
		diot_out_remove_created(at_exit_list);
}

void
diot_out_remove_now(void)
{
	remove_at_exit();
}

void
diot_out_remove_at_exit(struct diot_outlist *l)
{
	if (at_exit_list == NULL)
		atexit(remove_at_exit);
	at_exit_list = l;
}
