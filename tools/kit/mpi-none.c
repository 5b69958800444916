/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mpi-none.c -- the kit's MPI team (mpi.h) without MPI, as sync-write and
 * dio-dd always are (their MPI builds, sync-write-mpi and dio-dd-mpi, link
 * mpi.c): every process is the only rank of a job of one.  Started by an
 * MPI launcher, each process would run the whole job on its own: that is
 * refused, naming the MPI build to start instead.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/kit/mpi.h"
#include "tools/kit/msg.h"

int
diot_mpi_join(struct diot_mpi *m, int *argc, char ***argv, char *why, size_t wl)
{
	(void)argc;
	(void)argv;
	memset(m, 0, sizeof(*m));
	m->size = 1;
	if (diot_mpi_launched() || diot_mpi_srun_without_pmi()) {
		snprintf(why, wl, "started by an MPI launcher, but this is the build "
		         "without MPI (every rank would run the whole job alone): "
		         "start %s-mpi, the MPI build (Debian package "
		         "directio-tools-mpi; from source: configure --with-mpi)",
		         diot_prog);
		return -1;
	}
	return 0;
}

void
diot_mpi_leave(struct diot_mpi *m, int status)
{
	(void)status;
	m->on = 0;
}

void
diot_mpi_barrier(const struct diot_mpi *m)
{
	(void)m;
}

void
diot_mpi_bcast(const struct diot_mpi *m, void *buf, size_t len)
{
	(void)m;
	(void)buf;
	(void)len;
}

void
diot_mpi_gather(const struct diot_mpi *m, const void *mine, void *all, size_t len)
{
	(void)m;
	if (all != NULL && all != mine)
		memcpy(all, mine, len);
}

int
diot_mpi_max(const struct diot_mpi *m, int v)
{
	(void)m;
	return v;
}

int
diot_mpi_sum(const struct diot_mpi *m, int v)
{
	(void)m;
	return v;
}

void
diot_mpi_tell_stop(struct diot_mpi *m)
{
	m->told = 1;
}

int
diot_mpi_stop_asked(struct diot_mpi *m)
{
	(void)m;
	return -1;
}

void
diot_mpi_stop_settle(struct diot_mpi *m, int tellers)
{
	(void)tellers;
	m->told = m->heard = 0;
}

int64_t
diot_mpi_clock_offset(const struct diot_mpi *m, uint64_t *bound_ns)
{
	(void)m;
	*bound_ns = 0;
	return 0;
}

void
diot_mpi_each(struct diot_mpi *m, void (*fn)(void *arg), void *arg)
{
	(void)m;
	fn(arg);
}

void
diot_mpi_same(struct diot_mpi *m, const struct diot_mpi_item *items, int n)
{
	(void)m;
	(void)items;
	(void)n;
}

const char *
diot_mpi_library(void)
{
	return NULL;
}
