/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sysfs.c -- harness: the Linux backend's readers of sysfs attributes: the
 * first line of a file (dio__read_line_fp(), into a buffer of exactly the
 * size the first input byte picks, and of the 64 and 256 bytes the backend
 * uses), a number (dio__parse_u64()), queue/write_cache
 * (dio__parse_write_cache()) and queue/scheduler (dio__parse_scheduler()).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "os/linux-read.h"
#include "tests/fuzz/fuzz.h"

/* Set when a reader takes the line as what it reads. */
static int took;

static void
one_line(const uint8_t *data, size_t size, size_t len)
{
	struct dio_devinfo di;
	char *line = malloc(len ? len : 1);
	uint64_t v;
	uint32_t wc;
	FILE *fp;
	int r;

	if (line == NULL)
		return;
	fp = fuzz_stream(data, size);
	if (fp == NULL) {
		free(line);
		return;
	}
	r = dio__read_line_fp(fp, len ? line : NULL, len);
	fclose(fp);
	if (len == 0) {
		if (r != -EINVAL)
			abort();
		free(line);
		return;
	}
	if (r != 0 || memchr(line, '\0', len) == NULL)
		abort();
	r = dio__parse_u64(line, &v);
	if (r != 0 && r != -EINVAL && r != -ERANGE)
		abort();
	took |= r == 0;
	wc = dio__parse_write_cache(line);
	took |= wc != DIO_TRI_UNKNOWN;
	if (wc != DIO_TRI_UNKNOWN && wc != DIO_TRI_YES && wc != DIO_TRI_NO)
		abort();
	memset(&di, 0, sizeof(di));
	dio__parse_scheduler(line, &di);
	if (memchr(di.scheduler, '\0', sizeof(di.scheduler)) == NULL ||
	    memchr(di.schedulers, '\0', sizeof(di.schedulers)) == NULL)
		abort();
	took |= di.scheduler[0] != '\0';
	free(line);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	took = 0;
	one_line(data, size, 64);
	one_line(data, size, 256);
	one_line(data, size, size > 0 ? data[0] % 40 : 0);
	/* Accepted: a number, a write_cache or a scheduler list. */
	fuzz_verdict(took, NULL);
	return 0;
}
