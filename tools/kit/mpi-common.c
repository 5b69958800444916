/*
 * mpi-common.c -- what both builds of the kit's MPI team share (mpi.h):
 * whether a launcher started this process.
 */
#include "config.h"

#include <stdlib.h>

#include "tools/kit/mpi.h"

int
diot_mpi_launched(void)
{
	/* Open MPI's mpirun, MPICH's hydra (PMI), and PMIx-based launchers. */
	static const char *const vars[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE",
		                                "PMIX_RANK", "PMI_RANK" };
	size_t i;

	for (i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		if (getenv(vars[i]) != NULL)
			return 1;
	return 0;
}
