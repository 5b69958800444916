/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * replay.c -- main() for a harness built without libFuzzer: every operand
 * is a file, or a directory whose files (not its subdirectories, not its
 * dot files) are each given to LLVMFuzzerTestOneInput() once.  Operands
 * that start with '-' are libFuzzer options (-runs=0...) and ignored, so
 * that tests/fuzz/replay.sh calls both builds the same way.  Exit 0 when
 * every input ran (a crash ends the process), 2 when one could not be read.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/fuzz/fuzz.h"

static int
run_file(const char *path, long *count)
{
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, n;
	FILE *fp = fopen(path, "rb");

	if (fp == NULL) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (;;) {
		if (len == cap) {
			uint8_t *nb = realloc(buf, cap ? cap * 2 : 4096);

			if (nb == NULL) {
				fprintf(stderr, "replay: %s: out of memory\n", path);
				free(buf);
				fclose(fp);
				return -1;
			}
			buf = nb;
			cap = cap ? cap * 2 : 4096;
		}
		n = fread(buf + len, 1, cap - len, fp);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(fp)) {
		fprintf(stderr, "replay: %s: read error\n", path);
		free(buf);
		fclose(fp);
		return -1;
	}
	fclose(fp);
	/* A copy of exactly len bytes, so that AddressSanitizer sees a read
	 * past the input's end as libFuzzer would. */
	{
		uint8_t *exact = malloc(len ? len : 1);

		if (exact == NULL) {
			free(buf);
			return -1;
		}
		if (len > 0)
			memcpy(exact, buf, len);
		free(buf);
		/* Which input the harness's verdict is about, as libFuzzer
		 * says it (tests/fuzz/replay.sh reads them). */
		if (getenv("DIO_FUZZ_VERDICT") != NULL)
			fprintf(stderr, "Running: %s\n", path);
		LLVMFuzzerTestOneInput(exact, len);
		free(exact);
	}
	(*count)++;
	return 0;
}

int
main(int argc, char **argv)
{
	char path[PATH_MAX];
	struct dirent *e;
	struct stat st;
	long count = 0;
	int i, bad = 0;
	DIR *d;

	for (i = 1; i < argc; i++) {
		if (argv[i][0] == '-')
			continue;
		if (stat(argv[i], &st) != 0) {
			fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(errno));
			bad = 1;
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			if (run_file(argv[i], &count) < 0)
				bad = 1;
			continue;
		}
		d = opendir(argv[i]);
		if (d == NULL) {
			fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(errno));
			bad = 1;
			continue;
		}
		while ((e = readdir(d)) != NULL) {
			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", argv[i], e->d_name);
			if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
				continue;
			if (run_file(path, &count) < 0)
				bad = 1;
		}
		closedir(d);
	}
	fprintf(stderr, "replay: %ld inputs run\n", count);
	return bad ? 2 : 0;
}
