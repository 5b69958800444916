/*
 * mpi.c -- the kit's MPI team (mpi.h) on a real MPI: MPI_COMM_WORLD is
 * the team; byte records go through MPI_Bcast and MPI_Gather.  Chosen by
 * Automake when configure found an MPI (--with-mpi).
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include <mpi.h>

#include "tools/kit/mpi.h"
#include "tools/kit/outfile.h"
#include "tools/kit/util.h"

/* diot_die() in a rank: the whole job ends, not this rank alone (the
 * others would wait for it at the next barrier). */
static void
abort_job(int status)
{
	struct timespec forward = { 0, 200 * 1000 * 1000 };

	fflush(NULL);
	diot_out_remove_now();     /* MPI_Abort skips the at-exit removal */
	/* The launcher forwards our output through a pipe it stops reading
	 * once the job is aborted (MPICH's hydra): give the message time. */
	nanosleep(&forward, NULL);
	MPI_Abort(MPI_COMM_WORLD, status);
}

int
diot_mpi_join(struct diot_mpi *m, int *argc, char ***argv, char *why, size_t wl)
{
	struct utsname un;
	int r, provided = 0;

	memset(m, 0, sizeof(*m));
	m->size = 1;
	if (!diot_mpi_launched())
		return 0;
	/* Funneled: only the thread that joined calls MPI (writer threads,
	 * where a tool has them, never do). */
	r = MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
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
	/*
	 * The files this rank created and does not keep (rank 0: the job's
	 * target) go now, not at exit: once one rank has left with a non-zero
	 * status, the launcher (Open MPI's mpirun) kills those still running,
	 * and a rank 0 killed between the barrier and its exit handlers left
	 * the target of a failed job behind.
	 */
	diot_out_remove_now();
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

/* op over every rank's v, at every rank. */
static int
allreduce(const struct diot_mpi *m, int v, MPI_Op op)
{
	int r = v;

	if (m->on)
		MPI_Allreduce(&v, &r, 1, MPI_INT, op, MPI_COMM_WORLD);
	return r;
}

int
diot_mpi_max(const struct diot_mpi *m, int v)
{
	return allreduce(m, v, MPI_MAX);
}

int
diot_mpi_sum(const struct diot_mpi *m, int v)
{
	return allreduce(m, v, MPI_SUM);
}

#define STOP_TAG 7301

/* The sends in flight: a request and its one-int message per rank. */
struct pending {
	MPI_Request *req;
	int *msg;
};

void
diot_mpi_tell_stop(struct diot_mpi *m)
{
	struct pending *p;
	int i;

	if (!m->on || m->told)
		return;
	p = calloc(1, sizeof(*p));
	if (p != NULL) {
		p->req = calloc((size_t)m->size, sizeof(*p->req));
		p->msg = calloc((size_t)m->size, sizeof(*p->msg));
	}
	if (p == NULL || p->req == NULL || p->msg == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	for (i = 0; i < m->size; i++) {
		p->req[i] = MPI_REQUEST_NULL;
		p->msg[i] = m->rank;
		if (i != m->rank)
			MPI_Isend(&p->msg[i], 1, MPI_INT, i, STOP_TAG, MPI_COMM_WORLD, &p->req[i]);
	}
	m->pending = p;
	m->told = 1;
}

/* Receive one stop message (there is one); the rank that sent it. */
static int
take_stop(struct diot_mpi *m)
{
	MPI_Status st;
	int from = -1;

	MPI_Recv(&from, 1, MPI_INT, MPI_ANY_SOURCE, STOP_TAG, MPI_COMM_WORLD, &st);
	m->heard++;
	return from;
}

int
diot_mpi_stop_asked(struct diot_mpi *m)
{
	int flag = 0, first = -1, from;
	MPI_Status st;

	if (!m->on)
		return -1;
	for (;;) {
		MPI_Iprobe(MPI_ANY_SOURCE, STOP_TAG, MPI_COMM_WORLD, &flag, &st);
		if (!flag)
			return first;
		from = take_stop(m);
		if (first < 0)
			first = from;
	}
}

void
diot_mpi_stop_settle(struct diot_mpi *m, int tellers)
{
	struct pending *p = m->pending;

	if (!m->on)
		return;
	/* Every rank that told sent this one a message, except itself. */
	while (m->heard < tellers - (m->told ? 1 : 0))
		take_stop(m);
	if (p != NULL) {
		MPI_Status st;      /* (MPICH's MPI_Waitall with MPI_STATUSES_IGNORE
		                     * trips gcc's access checks) */
		int i;

		for (i = 0; i < m->size; i++)
			MPI_Wait(&p->req[i], &st);
		free(p->req);
		free(p->msg);
		free(p);
	}
	m->pending = NULL;
	m->told = m->heard = 0;
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
