/*
 * mpi.c -- the kit's MPI team (mpi.h) on a real MPI: MPI_COMM_WORLD is
 * the team; byte records go through MPI_Bcast and MPI_Gather.  Chosen by
 * Automake when configure found an MPI (--with-mpi).
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include <mpi.h>

#include "tools/kit/mpi.h"
#include "tools/kit/outfile.h"
#include "tools/kit/util.h"

/* diot_die() in a rank: the whole job ends, not this rank alone (the
 * others would wait for it at the next barrier). */
static void
abort_job(int status)
{
	fflush(NULL);
	diot_out_remove_now();     /* MPI_Abort skips the at-exit removal */
	MPI_Abort(MPI_COMM_WORLD, status);
}

int
diot_mpi_join(struct diot_mpi *m, int *argc, char ***argv, char *why, size_t wl)
{
	struct utsname un;
	int r;

	memset(m, 0, sizeof(*m));
	m->size = 1;
	if (!diot_mpi_launched())
		return 0;
	r = MPI_Init(argc, argv);
	if (r != MPI_SUCCESS) {
		snprintf(why, wl, "MPI_Init failed (error %d)", r);
		return -1;
	}
	/* Errors of the calls below end the job (MPI's default handler). */
	MPI_Comm_rank(MPI_COMM_WORLD, &m->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &m->size);
	m->on = 1;
	if (uname(&un) == 0)
		snprintf(m->host, sizeof(m->host), "%s", un.nodename);
	else
		snprintf(m->host, sizeof(m->host), "unknown");
	snprintf(m->where, sizeof(m->where), "rank %d on %s", m->rank, m->host);
	diot_set_where(m->where, abort_job);
	return 0;
}

void
diot_mpi_leave(struct diot_mpi *m)
{
	if (!m->on)
		return;
	MPI_Barrier(MPI_COMM_WORLD);
	diot_set_where(NULL, NULL);
	MPI_Finalize();
	m->on = 0;
}

void
diot_mpi_barrier(const struct diot_mpi *m)
{
	if (m->on)
		MPI_Barrier(MPI_COMM_WORLD);
}

/* Records here are small (a few histograms): well under INT_MAX bytes. */
static int
count_of(size_t len)
{
	if (len > (size_t)INT_MAX)
		diot_die(DIOT_EXIT_FAIL, "an MPI record of %zu bytes is too large", len);
	return (int)len;
}

void
diot_mpi_bcast(const struct diot_mpi *m, void *buf, size_t len)
{
	if (m->on)
		MPI_Bcast(buf, count_of(len), MPI_BYTE, 0, MPI_COMM_WORLD);
}

void
diot_mpi_gather(const struct diot_mpi *m, const void *mine, void *all, size_t len)
{
	if (!m->on) {
		if (all != NULL && all != mine)
			memcpy(all, mine, len);
		return;
	}
	MPI_Gather(mine, count_of(len), MPI_BYTE, m->rank == 0 ? all : NULL,
	           count_of(len), MPI_BYTE, 0, MPI_COMM_WORLD);
}

int
diot_mpi_max(const struct diot_mpi *m, int v)
{
	int r = v;

	if (m->on)
		MPI_Allreduce(&v, &r, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	return r;
}

const char *
diot_mpi_library(void)
{
	static char name[MPI_MAX_LIBRARY_VERSION_STRING];
	int len = 0;
	char *nl;

	if (name[0] == '\0' && MPI_Get_library_version(name, &len) == MPI_SUCCESS) {
		nl = strchr(name, '\n');
		if (nl != NULL)
			*nl = '\0';
		nl = strchr(name, ',');    /* Open MPI: "Open MPI v4.1.4, package: ..." */
		if (nl != NULL)
			*nl = '\0';
	}
	return name;
}
