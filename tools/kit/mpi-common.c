/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mpi-common.c -- what both builds of the kit's MPI team share (mpi.h):
 * whether a launcher started this process, and the names of a rank's
 * files (%r, %h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/kit/mpi.h"

int
diot_mpi_launched(void)
{
	/* Open MPI's mpirun, MPICH's hydra (PMI), and PMIx-based launchers
	 * (Open MPI 5's prterun, Slurm's srun --mpi=pmix; srun --mpi=pmi2
	 * sets PMI_RANK). */
	static const char *const vars[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE",
		                                "PMIX_RANK", "PMI_RANK" };
	size_t i;

	for (i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		if (getenv(vars[i]) != NULL)
			return 1;
	return 0;
}

int
diot_mpi_env_number(const char *v)
{
	long n = 0;

	if (v == NULL || *v == '\0')
		return -1;
	/* Digits only, and no more than an int holds (atoi() would wrap a
	 * larger one into any size, and take "2x" for 2). */
	for (; *v; v++) {
		if (*v < '0' || *v > '9' || n > (INT_MAX - (*v - '0')) / 10)
			return -1;
		n = n * 10 + (*v - '0');
	}
	return (int)n;
}

/* The first of vars that the launcher set to a number, or -1. */
static int
env_number(const char *const *vars, size_t n)
{
	size_t i;
	int v;

	for (i = 0; i < n; i++)
		if ((v = diot_mpi_env_number(getenv(vars[i]))) >= 0)
			return v;
	return -1;
}

int
diot_mpi_launched_size(void)
{
	static const char *const vars[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE" };

	return env_number(vars, sizeof(vars) / sizeof(vars[0]));
}

int
diot_mpi_launched_rank(void)
{
	static const char *const vars[] = { "OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK" };

	return env_number(vars, sizeof(vars) / sizeof(vars[0]));
}

int
diot_mpi_srun_without_pmi(void)
{
	const char *n = getenv("SLURM_NTASKS");

	if (n == NULL)
		n = getenv("SLURM_NPROCS");
	return getenv("SLURM_PROCID") != NULL && diot_mpi_env_number(n) > 1 &&
	       !diot_mpi_launched();
}

/* The conversion at s ('r', 'h' or '%'), or 0 for a character of its
 * own: the one reading of a pattern, by diot_mpi_expand() and by
 * diot_mpi_pattern_has() (so that "%%r", which expands to "%r" on every
 * rank, is not taken for a name with the rank in it). */
static int
conv_at(const char *s)
{
	return s[0] == '%' && (s[1] == 'r' || s[1] == 'h' || s[1] == '%') ? s[1] : 0;
}

int
diot_mpi_pattern_has(const char *pattern, int conv)
{
	const char *s;
	int c;

	for (s = pattern; *s; s++)
		if ((c = conv_at(s)) != 0) {
			if (c == conv)
				return 1;
			s++;
		}
	return 0;
}

int
diot_mpi_has_pattern(const char *pattern)
{
	return diot_mpi_pattern_has(pattern, 'r') || diot_mpi_pattern_has(pattern, 'h');
}

int
diot_mpi_expand(const struct diot_mpi *m, const char *pattern, char *out, size_t len)
{
	char num[16];
	size_t n = 0, k;
	const char *s, *rep;

	if (len == 0)
		return -ENAMETOOLONG;
	for (s = pattern; *s; s++) {
		switch (conv_at(s)) {
		case 'r':
			snprintf(num, sizeof(num), "%d", m->rank);
			rep = num;
			break;
		case 'h':
			rep = m->host[0] ? m->host : "localhost";
			break;
		case '%':
			rep = "%";
			break;
		default:
			rep = NULL;
		}
		if (rep != NULL) {
			s++;
			k = strlen(rep);
		} else {
			rep = s;
			k = 1;
		}
		if (n + k >= len)
			return -ENAMETOOLONG;
		memcpy(out + n, rep, k);
		n += k;
	}
	out[n] = '\0';
	return 0;
}

int
diot_mpi_mute(const struct diot_mpi *m)
{
	int saved, fd;

	if (!m->on || m->rank == 0)
		return -1;
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	fd = open("/dev/null", O_WRONLY);
	if (saved < 0 || fd < 0 || dup2(fd, STDOUT_FILENO) < 0) {
		if (saved >= 0)
			close(saved);
		saved = -1;
	}
	if (fd >= 0)
		close(fd);
	return saved;
}

void
diot_mpi_unmute(int saved)
{
	if (saved < 0)
		return;
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
}
