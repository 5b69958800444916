/* SPDX-License-Identifier: BSD-2-Clause */
/* testutil.c -- helpers shared by the Check test programs. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/testutil.h"

const char *
tu_dir(void)
{
	const char *d = getenv("DIO_TEST_DIR");

	return d && *d ? d : ".";
}

char *
tu_path(char *buf, size_t len, const char *dir, const char *tag)
{
	static unsigned counter;

	snprintf(buf, len, "%s/dio-test-%s.%ld.%u", dir ? dir : tu_dir(), tag,
	         (long)getpid(), counter++);
	unlink(buf);
	return buf;
}

void
tu_fill(void *buf, size_t len, uint32_t seed)
{
	unsigned char *p = buf;
	uint32_t x = seed * 2654435761u + 1;
	size_t i;

	for (i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = (unsigned char)x;
	}
}

int64_t
tu_file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (int64_t)st.st_size : -1;
}

void *
tu_slurp(const char *path, size_t *len)
{
	int64_t sz = tu_file_size(path);
	char *buf;
	FILE *fp;

	*len = 0;
	if (sz < 0 || (fp = fopen(path, "rb")) == NULL)
		return NULL;
	buf = malloc((size_t)sz + 1);
	if (buf != NULL)
		*len = fread(buf, 1, (size_t)sz, fp);
	fclose(fp);
	return buf;
}

int
tu_getfl(int fd)
{
	return fcntl(fd, F_GETFL);
}

long
tu_resident_pages(const char *path, size_t len)
{
#ifdef HAVE_MINCORE
	long ps = sysconf(_SC_PAGESIZE);
	size_t npages = (len + (size_t)ps - 1) / (size_t)ps, i;
	unsigned char *vec;
	long resident = 0;
	void *map;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return -1;
	vec = calloc(npages, 1);
	if (vec == NULL || mincore(map, len, (void *)vec) != 0) {
		free(vec);
		munmap(map, len);
		return -1;
	}
	for (i = 0; i < npages; i++)
		resident += vec[i] & 1;
	free(vec);
	munmap(map, len);
	return resident;
#else
	(void)path; (void)len;
	return -1;
#endif
}

void
tu_skip(const char *fmt, ...)
{
	va_list ap;

	fputs("SKIP: ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
	exit(77);
}

int
tu_run(SRunner *sr)
{
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

char *
tu_sysfs(const char *name, const char *attr, char *buf, size_t len)
{
	char path[512];
	FILE *fp;
	size_t n;

	snprintf(path, sizeof(path), "/sys/block/%s/%s", name, attr);
	buf[0] = '\0';
	fp = fopen(path, "r");
	if (fp == NULL)
		return buf;
	if (fgets(buf, (int)len, fp) == NULL)
		buf[0] = '\0';
	fclose(fp);
	n = strlen(buf);
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return buf;
}

