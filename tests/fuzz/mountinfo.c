/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mountinfo.c -- harness: the Linux backend's readers of
 * /proc/self/mountinfo (dio__mountinfo_next(), which the in-use check,
 * dio_fs_type() and the device facts of a file use) and of /proc/swaps
 * (dio__swaps_next()), on the input as the file's text.  Every field read
 * must end inside its buffer, and the readers must end at the input's end.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "os/linux-read.h"
#include "tests/fuzz/fuzz.h"

#define ENDS_IN(a) (memchr((a), '\0', sizeof(a)) != NULL)

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dio__mount m;
	char name[1024];
	size_t entries = 0, found;
	FILE *fp;

	fp = fuzz_stream(data, size);
	if (fp == NULL)
		return 0;
	while (dio__mountinfo_next(fp, &m)) {
		if (!ENDS_IN(m.mnt) || !ENDS_IN(m.fstype) || !ENDS_IN(m.source) ||
		    m.mnt[0] == '\0')
			abort();
		/* An entry is a line: never more entries than lines. */
		if (++entries > size)
			abort();
	}
	fclose(fp);
	found = entries;

	fp = fuzz_stream(data, size);
	if (fp == NULL)
		return 0;
	entries = 0;
	while (dio__swaps_next(fp, name, sizeof(name))) {
		if (!ENDS_IN(name) || name[0] != '/' || ++entries > size)
			abort();
	}
	fclose(fp);
	/* A mount or a swap area read. */
	fuzz_verdict(found + entries > 0, NULL);
	return 0;
}
