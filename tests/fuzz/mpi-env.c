/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mpi-env.c -- harness: what the kit's MPI team reads of the environment
 * a launcher made (tools/kit/mpi-common.c): whether one started this
 * process (Open MPI's OMPI_COMM_WORLD_*, MPICH's PMI_*, PMIx's PMIX_RANK),
 * the job's size and this process's rank, and srun without an MPI plugin
 * (SLURM_PROCID, SLURM_NTASKS, SLURM_NPROCS).  The input: a byte whose
 * bits say which of the eight variables are set, then their values in
 * that order, separated by NUL bytes; they are set with setenv() and
 * removed again.  Every answer is compared with this harness's own
 * reading: a number is digits only, 0 to INT_MAX.
 */
#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz.h"
#include "tools/kit/mpi.h"

static const char *const var[] = {
	"OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK", "PMI_SIZE", "PMI_RANK",
	"PMIX_RANK", "SLURM_PROCID", "SLURM_NTASKS", "SLURM_NPROCS"
};
#define NVAR (sizeof(var) / sizeof(var[0]))
enum { OMPI_SIZE, OMPI_RANK, PMI_SIZE, PMI_RANK, PMIX_RANK, SLURM_PROCID,
       SLURM_NTASKS, SLURM_NPROCS };

/* A launcher's number as mpi.h says, written plainly: -1 if v is not. */
static long long
number(const char *v)
{
	long long n = 0;

	if (v == NULL || *v == '\0')
		return -1;
	for (; *v; v++) {        /* (leading zeros are a number too) */
		if (*v < '0' || *v > '9')
			return -1;
		n = n * 10 + (*v - '0');
		if (n > INT_MAX)
			return -1;
	}
	return n;
}

/* The first of the variables order names (the kit's order) set to a number. */
static long long
first(const char *const *val, const int *order, int n)
{
	long long v;
	int i;

	for (i = 0; i < n; i++)
		if ((v = number(val[order[i]])) >= 0)
			return v;
	return -1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int sizes[] = { OMPI_SIZE, PMI_SIZE };
	static const int ranks[] = { OMPI_RANK, PMI_RANK, PMIX_RANK };
	const char *val[NVAR];
	unsigned set = (unsigned)fuzz_take(&data, &size, 1);
	char *all = fuzz_string(data, size), *p;
	const char *tasks;
	size_t i;
	int launched, srun, numbers;

	if (all == NULL)
		return 0;
	/* The values: the input split at NUL bytes, one per variable set
	 * (those past the input's end are empty). */
	for (i = 0, p = all; i < NVAR; i++) {
		val[i] = NULL;
		if (!(set & (1u << i)))
			continue;
		val[i] = p;
		if (setenv(var[i], p, 1) != 0)
			abort();
		p += strlen(p);
		if (p < all + size)
			p++;
	}
	launched = val[OMPI_SIZE] || val[PMI_SIZE] || val[PMIX_RANK] || val[PMI_RANK];
	if (diot_mpi_launched() != launched)
		abort();
	if (diot_mpi_launched_size() != first(val, sizes, 2) ||
	    diot_mpi_launched_rank() != first(val, ranks, 3))
		abort();
	tasks = val[SLURM_NTASKS] ? val[SLURM_NTASKS] : val[SLURM_NPROCS];
	srun = val[SLURM_PROCID] && number(tasks) > 1 && !launched;
	if (diot_mpi_srun_without_pmi() != srun)
		abort();
	numbers = 1;
	for (i = 0; i < NVAR; i++) {
		if (diot_mpi_env_number(val[i]) != number(val[i]))
			abort();
		if (val[i] != NULL && number(val[i]) < 0)
			numbers = 0;
	}
	fuzz_verdict(numbers, "a launcher's variable that is not a whole number up to INT_MAX");
	for (i = 0; i < NVAR; i++)
		unsetenv(var[i]);
	free(all);
	return 0;
}
