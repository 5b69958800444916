/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * util.c -- the harnesses' input helpers (fuzz.h).
 */
#include "config.h"

#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/fuzz/fuzz.h"
#include "tools/kit/msg.h"

char *
fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s == NULL)
		return NULL;
	if (size > 0)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

FILE *
fuzz_stream(const uint8_t *data, size_t size)
{
	/* fmemopen() reads its buffer in place: the input is not changed. */
	static char empty[1];

	return fmemopen(size > 0 ? (void *)(uintptr_t)data : empty, size, "r");
}

int
fuzz_argv(const uint8_t *data, size_t size, const char *argv0, int max, char ***argv)
{
	size_t i, words = 1, a0 = strlen(argv0) + 1;
	char **v, *text;
	int n = 0;

	for (i = 0; i < size; i++)
		if (data[i] == '\0')
			words++;
	if (words > (size_t)max)
		words = (size_t)max;
	v = malloc((words + 2) * sizeof(*v) + a0 + size + 1);
	if (v == NULL)
		return -1;
	text = (char *)(v + words + 2);
	memcpy(text, argv0, a0);
	v[n++] = text;
	text += a0;
	if (size > 0)
		memcpy(text, data, size);
	text[size] = '\0';
	if (size > 0) {
		v[n++] = text;
		for (i = 0; i < size && (size_t)n <= words; i++)
			if (text[i] == '\0' && i + 1 < size)
				v[n++] = text + i + 1;
		if ((size_t)n > words + 1)
			n = (int)words + 1;
	}
	v[n] = NULL;
	*argv = v;
	return n;
}

void
fuzz_quiet(void)
{
	static int done;
	int fd;

	if (done)
		return;
	done = 1;
	fflush(stdout);
	fd = open("/dev/null", O_WRONLY);
	if (fd < 0)
		return;
	(void)dup2(fd, 1);
	if (fd > 2)
		close(fd);
}

uint64_t
fuzz_take(const uint8_t **data, size_t *size, size_t n)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < n && i < 8; i++)
		if (i < *size)
			v |= (uint64_t)(*data)[i] << (8 * i);
	if (n > *size)
		n = *size;
	*data += n;
	*size -= n;
	return v;
}

void
fuzz_held_free(struct diot_held *h)
{
	/* Every held message is malloc'd but one: the kit's own text for a
	 * message it could not format (tools/kit/msg.c, diot_held_fatal()). */
	if (h->msg != NULL && strcmp(h->msg, "out of memory (formatting a message)") != 0)
		free((void *)(uintptr_t)h->msg);
	h->msg = NULL;
}

static char workdir[PATH_MAX];

static int
remove_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	if (f->level > 0)
		remove(path);
	return 0;
}

void
fuzz_workdir_clear(void)
{
	if (workdir[0] != '\0')
		nftw(workdir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void
workdir_remove(void)
{
	fuzz_workdir_clear();
	if (workdir[0] != '\0')
		rmdir(workdir);
}

const char *
fuzz_workdir(void)
{
	const char *t = getenv("TMPDIR");

	if (workdir[0] != '\0')
		return workdir;
	if (t == NULL || *t == '\0')
		t = access("/dev/shm", W_OK | X_OK) == 0 ? "/dev/shm" : "/tmp";
	snprintf(workdir, sizeof(workdir), "%s/dio-fuzz.XXXXXX", t);
	if (mkdtemp(workdir) == NULL) {
		workdir[0] = '\0';
		return NULL;
	}
	atexit(workdir_remove);
	return workdir;
}

int
fuzz_workpath(const char *name, char *buf, size_t len)
{
	const char *dir = fuzz_workdir();

	if (dir == NULL || (size_t)snprintf(buf, len, "%s/%s", dir, name) >= len)
		return -1;
	return 0;
}

const char *
fuzz_workdirs(const char *rel, char *buf, size_t len)
{
	const char *dir = fuzz_workdir();
	char *p;

	snprintf(buf, len, "%s/%s", dir != NULL ? dir : ".", rel);
	for (p = buf + strlen(dir != NULL ? dir : ".") + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		mkdir(buf, 0755);
		*p = '/';
	}
	return buf;
}

void
fuzz_workfile(const char *rel, const uint8_t *data, size_t len)
{
	char path[PATH_MAX];
	int fd = open(fuzz_workdirs(rel, path, sizeof(path)), O_WRONLY | O_CREAT | O_TRUNC,
	              0644);

	if (fd < 0)
		return;
	if (len > 0 && write(fd, data, len) < 0)
		len = 0;
	close(fd);
}

void
fuzz_verdict(int accepted, const char *why)
{
	static int say = -1;

	if (say < 0)
		say = getenv("DIO_FUZZ_VERDICT") != NULL;
	if (!say)
		return;
	if (accepted == FUZZ_UNJUDGED)
		fprintf(stderr, "fuzz: not judged: %.300s\n", why != NULL ? why : "");
	else if (accepted)
		fprintf(stderr, "fuzz: accepted\n");
	else if (why != NULL && *why != '\0')
		fprintf(stderr, "fuzz: refused: %.300s\n", why);
	else
		fprintf(stderr, "fuzz: refused\n");
}
