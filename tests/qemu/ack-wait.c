/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ack-wait.c -- wait until a sync-write ack log holds N acknowledgements,
 * for the qemu power-cut test (tests/qemu/guest-sync-write-powercut.sh).
 *
 * usage: ack-wait LOG N PID [stop]
 *
 * Looks at LOG every 5 ms, reading what was appended since the last look,
 * until it holds N acknowledgements ("A " records), the process PID has
 * gone (or is a zombie), or 90 s have passed.  With "stop", PID is then
 * stopped (SIGSTOP) and every thread of it seen stopped before LOG is
 * read a last time.  Prints one line:
 *
 *     WHY ACKS ENDED ALIVE
 *
 * WHY 0: N reached, 1: PID gone, 2: 90 s passed; ACKS the acknowledgements
 * in LOG; ENDED 1 when LOG holds the end record ("E"), else 0; ALIVE 1
 * when PID is there and not a zombie.  A LOG that does not exist yet
 * holds none.
 *
 * The test's shell looked with two processes (grep, usleep) every 20 ms
 * and took a third of the guest's one CPU from the writers it waited for.
 * Like pc-ctl, run-guest.sh links it statically where it can.
 *
 * Exit status: 0 (the line was printed), 2 on usage or system errors.
 */
#if !defined(_GNU_SOURCE)
#define _GNU_SOURCE 1
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#define LOOK_NS 5000000L        /* between looks */
#define LIMIT_S 90              /* the longest wait */

/* What the log held at the last look. */
struct log {
	const char *path;
	off_t off;              /* bytes read */
	long long acks;
	int ended;
	int col;                /* characters into the current line (0-2) */
	char c0;                /* and its first */
};

static int usage(void)
{
	fputs("usage: ack-wait LOG N PID [stop]\n", stderr);
	return 2;
}

/* A decimal number in [0, max], or -1. */
static long long number(const char *s, long long max)
{
	long long v = 0;

	if (*s == '\0')
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (*s - '0');
		if (v > max)
			return -1;
	}
	return v;
}

static void line_end(struct log *g)
{
	if (g->col == 1 && g->c0 == 'E')
		g->ended = 1;
	g->col = 0;
}

/* Read what was appended since the last look.  A log that shrank was
 * made anew: it is read from its start. */
static int look(struct log *g)
{
	char buf[4096];
	struct stat st;
	ssize_t n, i;
	int fd;

	fd = open(g->path, O_RDONLY);
	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	if (fstat(fd, &st) == 0 && st.st_size < g->off) {
		g->off = 0;
		g->acks = 0;
		g->ended = 0;
		g->col = 0;
	}
	while ((n = pread(fd, buf, sizeof buf, g->off)) > 0) {
		for (i = 0; i < n; i++) {
			char c = buf[i];

			if (c == '\n') {
				line_end(g);
				continue;
			}
			if (g->col == 0)
				g->c0 = c;
			else if (g->col == 1 && g->c0 == 'A' && c == ' ')
				g->acks++;
			if (g->col < 2)
				g->col++;
		}
		g->off += n;
	}
	close(fd);
	return n < 0 ? -1 : 0;
}

/* The state letter of /proc/PID[/task/TID]/stat, or 0 if it is gone. */
static char state(const char *stat_path)
{
	char buf[512], *p;
	ssize_t n;
	int fd;

	fd = open(stat_path, O_RDONLY);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	p = strrchr(buf, ')');          /* the name may hold anything */
	if (p == NULL || p[1] != ' ')
		return 0;
	return p[2];
}

static int alive(long long pid)
{
	char path[64];
	char s;

	snprintf(path, sizeof path, "/proc/%lld/stat", pid);
	s = state(path);
	return s != 0 && s != 'Z' && s != 'X';
}

/* Whether every thread of PID is stopped (or gone). */
static int all_stopped(long long pid)
{
	struct dirent *e;
	char dir[64], path[64 + sizeof e->d_name + 8];
	int stopped = 1;
	DIR *d;

	snprintf(dir, sizeof dir, "/proc/%lld/task", pid);
	d = opendir(dir);
	if (d == NULL)
		return 1;
	while (stopped && (e = readdir(d)) != NULL) {
		char s;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s/stat", dir, e->d_name);
		s = state(path);
		if (s != 0 && s != 'T' && s != 't' && s != 'Z' && s != 'X')
			stopped = 0;
	}
	closedir(d);
	return stopped;
}

static void pause_ns(long ns)
{
	struct timespec t = { 0, ns };

	while (nanosleep(&t, &t) < 0 && errno == EINTR)
		;
}

int main(int argc, char **argv)
{
	struct log g;
	struct timespec t0, t;
	long long want, pid;
	int why, stop = 0, i;

	if (argc < 4 || argc > 5)
		return usage();
	if ((want = number(argv[2], 1LL << 62)) < 0 ||
	    (pid = number(argv[3], 1LL << 30)) <= 0)
		return usage();
	if (argc == 5) {
		if (strcmp(argv[4], "stop") != 0)
			return usage();
		stop = 1;
	}
	memset(&g, 0, sizeof g);
	g.path = argv[1];
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		if (look(&g) < 0) {
			fprintf(stderr, "ack-wait: %s: %s\n", g.path,
			    strerror(errno));
			return 2;
		}
		if (g.acks >= want) {
			why = 0;
			break;
		}
		if (!alive(pid)) {
			why = 1;
			break;
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec >= LIMIT_S) {
			why = 2;
			break;
		}
		pause_ns(LOOK_NS);
	}
	if (stop && kill((pid_t)pid, SIGSTOP) == 0) {
		/* a second at most for every thread to stop */
		for (i = 0; i < 1000 && !all_stopped(pid); i++)
			pause_ns(1000000L);
	}
	if (look(&g) < 0) {
		fprintf(stderr, "ack-wait: %s: %s\n", g.path, strerror(errno));
		return 2;
	}
	/* a last line without its newline */
	if (g.col == 1 && g.c0 == 'E')
		g.ended = 1;
	printf("%d %lld %d %d\n", why, g.acks, g.ended, alive(pid));
	return fflush(stdout) == 0 ? 0 : 2;
}
