/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * minloop.c -- the physical limit for bench/sync-write-bench.py: the least
 * a program can do per synchronous transaction, pwrite() and the commit,
 * in a loop over a prepared file, with no per-transaction timing.
 *
 *   minloop FILE SIZE METHOD SECONDS [REGION]
 *   METHOD: fdatasync | fsync | dsync | direct+fdatasync | direct+dsync | ...
 *
 * Prints: txns=N elapsed_s=E mean_us=M cpu_us_per_txn=C user_us_per_txn=U
 * Deliberately plain POSIX + O_DIRECT; no libdirectio.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double
cpu(double *user)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	*user = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
	return *user + (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

int
main(int argc, char **argv)
{
	size_t size;
	long long region, off = 0, n = 0;
	const char *m;
	int fd, flags = O_WRONLY, commit = 0;    /* 1 fdatasync, 2 fsync */
	double secs, t0, t1, c0, c1, u0, u1, deadline;
	void *buf;

	if (argc < 5) {
		fprintf(stderr, "usage: minloop FILE SIZE METHOD SECONDS [REGION]\n");
		return 2;
	}
	size = strtoul(argv[2], NULL, 0);
	m = argv[3];
	secs = atof(argv[4]);
	region = argc > 5 ? atoll(argv[5]) : 64LL << 20;
	if (strncmp(m, "direct+", 7) == 0) {
		flags |= O_DIRECT;
		m += 7;
	}
	if (strcmp(m, "fdatasync") == 0)
		commit = 1;
	else if (strcmp(m, "fsync") == 0)
		commit = 2;
	else if (strcmp(m, "dsync") == 0)
		flags |= O_DSYNC;
	else if (strcmp(m, "sync") == 0)
		flags |= O_SYNC;
	else if (strcmp(m, "none") != 0) {
		fprintf(stderr, "minloop: unknown method %s\n", argv[3]);
		return 2;
	}
	fd = open(argv[1], flags);
	if (fd < 0 || posix_memalign(&buf, 4096, size) != 0) {
		perror(argv[1]);
		return 1;
	}
	memset(buf, 0x5a, size);
	region -= region % (long long)size;
	c0 = cpu(&u0);
	t0 = now();
	deadline = t0 + secs;
	do {
		for (int i = 0; i < 16; i++) {   /* read the clock every 16 */
			if (pwrite(fd, buf, size, off) != (ssize_t)size) {
				perror("pwrite");
				return 1;
			}
			if ((commit == 1 && fdatasync(fd) != 0) ||
			    (commit == 2 && fsync(fd) != 0)) {
				perror("sync");
				return 1;
			}
			off += (long long)size;
			if (off >= region)
				off = 0;
			n++;
		}
		t1 = now();
	} while (t1 < deadline);
	c1 = cpu(&u1);
	printf("txns=%lld elapsed_s=%.6f mean_us=%.3f cpu_us_per_txn=%.3f "
	       "user_us_per_txn=%.3f\n", n, t1 - t0, (t1 - t0) / (double)n * 1e6,
	       (c1 - c0) / (double)n * 1e6, (u1 - u0) / (double)n * 1e6);
	close(fd);
	return 0;
}
