/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mpi.c -- the kit's MPI team (mpi.h) on a real MPI: MPI_COMM_WORLD is
 * the team; byte records go through MPI_Ibcast and MPI_Igather, waited
 * for without spinning (wait_quietly()).  Chosen by Automake when
 * configure found an MPI (--with-mpi).
 */
#include "config.h"

#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <mpi.h>

#include "tools/kit/clock.h"
#include "tools/kit/mpi.h"
#include "tools/kit/msg.h"
#include "tools/kit/outfile.h"

/* diot_die() in a rank: the whole job ends, not this rank alone (the
 * others would wait for it at the next barrier). */
static void
abort_job(int status)
{
	struct timespec forward = { 0, 200 * 1000 * 1000 };

	fflush(NULL);
	diot_out_guard_exit(status);   /* what its guard says of this rank */
	/* MPI_Abort skips the at-exit removal; and the job did not end, so
	 * its results go, as its guard would remove them (all but what the
	 * user asked to keep always: the evidence). */
	diot_out_remove_unfinished();
	/* The launcher forwards our output through a pipe it stops reading
	 * once the job is aborted (MPICH's hydra): give the message time. */
	nanosleep(&forward, NULL);
	MPI_Abort(MPI_COMM_WORLD, status);
}

/* ------------------------------------------------------------ waiting */

/*
 * Wait for req without spinning.  MPI's blocking calls poll (Open MPI's
 * TCP transport: a system call a turn), and a rank that waits -- at a
 * barrier, or for the other ranks to end their run before the point's
 * results meet -- would take the processors from the ranks still writing
 * (on a loaded or oversubscribed host, whole scheduler slices).  Naps
 * from 50 us, doubling to 1 ms: a long wait costs next to no processor
 * time, a short one little latency.  The clock's ping-pong, which times
 * round trips, stays on the blocking calls.
 */
static void
wait_quietly(MPI_Request *req)
{
	struct timespec nap = { 0, 50 * 1000 };
	int flag = 0;

	for (;;) {
		MPI_Test(req, &flag, MPI_STATUS_IGNORE);
		if (flag)
			return;
		nanosleep(&nap, NULL);
		if (nap.tv_nsec < 1000 * 1000)
			nap.tv_nsec *= 2;
	}
}

/* MPI_Barrier, MPI_Bcast, MPI_Gather and MPI_Allreduce on MPI_COMM_WORLD,
 * waited for quietly. */
static void
quiet_barrier(void)
{
	MPI_Request req;

	MPI_Ibarrier(MPI_COMM_WORLD, &req);
	wait_quietly(&req);
}

static void
quiet_bcast(void *buf, int count, MPI_Datatype type, int root)
{
	MPI_Request req;

	MPI_Ibcast(buf, count, type, root, MPI_COMM_WORLD, &req);
	wait_quietly(&req);
}

static void
quiet_gather(const void *mine, int count, MPI_Datatype type, void *all)
{
	MPI_Request req;

	MPI_Igather(mine, count, type, all, count, type, 0, MPI_COMM_WORLD, &req);
	wait_quietly(&req);
}

static void
quiet_allreduce(const void *in, void *out, MPI_Datatype type, MPI_Op op)
{
	MPI_Request req;

	MPI_Iallreduce(in, out, 1, type, op, MPI_COMM_WORLD, &req);
	wait_quietly(&req);
}

/* ------------------------------------------------------------ the team */

int
diot_mpi_join(struct diot_mpi *m, int *argc, char ***argv, char *why, size_t wl)
{
	struct utsname un;
	int r, provided = 0;

	memset(m, 0, sizeof(*m));
	m->size = 1;
	if (diot_mpi_srun_without_pmi()) {
		snprintf(why, wl, "started by srun as one of %s tasks without an MPI "
		         "plugin: every task would run the whole job alone (srun "
		         "--mpi=pmix, or --mpi=pmi2)", getenv("SLURM_NTASKS") ?
		         getenv("SLURM_NTASKS") : getenv("SLURM_NPROCS"));
		return -1;
	}
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
	if (m->size == 1 && diot_mpi_launched_size() > 1) {
		/* Another MPI's launcher: each process is a job of one and would
		 * run the whole job alone.  The launcher's rank 0 says so and
		 * fails; the others leave quietly with 0: a launcher ends the job
		 * at the first non-zero exit, and one of theirs could cut rank 0
		 * off before it spoke (seen with Open MPI's mpirun).  The
		 * launcher's status is rank 0's. */
		int said = diot_mpi_launched_rank() == 0;

		MPI_Finalize();
		if (!said)
			exit(0);
		snprintf(why, wl, "started by a launcher of %d processes, but this build's "
		         "MPI (%s) sees a job of 1: start it with that MPI's own launcher "
		         "(mpirun, mpiexec)", diot_mpi_launched_size(), diot_mpi_library());
		return -1;
	}
	m->on = 1;
	if (uname(&un) == 0)
		snprintf(m->host, sizeof(m->host), "%s", un.nodename);
	else
		snprintf(m->host, sizeof(m->host), "unknown");
	snprintf(m->where, sizeof(m->where), "rank %d on %s", m->rank, m->host);
	diot_set_where(m->where, abort_job);
	/* Which ranks read rank 0's clock (diot_mpi_clock_offset()). */
	{
		char host0[DIOT_MPI_HOST_MAX];
		char mine;

		memcpy(host0, m->host, sizeof(host0));
		quiet_bcast(host0, (int)sizeof(host0), MPI_CHAR, 0);
		mine = strcmp(host0, m->host) == 0;
		m->with0 = mine;
		if (m->rank == 0 && (m->on_host0 = malloc((size_t)m->size)) == NULL)
			diot_die(DIOT_EXIT_FAIL, "out of memory");
		quiet_gather(&mine, 1, MPI_CHAR, m->on_host0);
	}
	return 0;
}

/* The watchdog of MPI_Finalize (diot_mpi_leave()): what to say, and the
 * status to leave with, should it not return. */
static char finalize_said[DIOT_MPI_HOST_MAX + 256];
static int finalize_status;

static void *
finalize_watch(void *arg)
{
	struct timespec t = { DIOT_MPI_FINALIZE_S, 0 };
	ssize_t w;

	(void)arg;
	while (nanosleep(&t, &t) != 0)
		;
	w = write(STDERR_FILENO, finalize_said, strlen(finalize_said));
	(void)w;
	_exit(finalize_status);
}

void
diot_mpi_leave(struct diot_mpi *m, int status)
{
	pthread_t watch;
	pthread_attr_t at;

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
	quiet_barrier();
	/* Every rank got here: the job ended in order, its results stay
	 * should a rank be killed from now on (outfile.h's guard). */
	diot_out_guard_done();
	diot_set_where(NULL, NULL);
	fflush(NULL);
	snprintf(finalize_said, sizeof(finalize_said), "%s: %s: MPI_Finalize has not "
	         "returned in %d s (the launcher's process manager is gone: a node's "
	         "slurmd?); leaving without it\n", diot_prog, m->where, DIOT_MPI_FINALIZE_S);
	finalize_status = status;
	/* (without a thread, MPI_Finalize is not bounded: as before) */
	if (pthread_attr_init(&at) == 0) {
		pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
		pthread_create(&watch, &at, finalize_watch, NULL);
		pthread_attr_destroy(&at);
	}
	MPI_Finalize();
	free(m->on_host0);
	m->on_host0 = NULL;
	m->on = 0;
}

void
diot_mpi_barrier(const struct diot_mpi *m)
{
	if (m->on)
		quiet_barrier();
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
		quiet_bcast(buf, count_of(len), MPI_BYTE, 0);
}

void
diot_mpi_gather(const struct diot_mpi *m, const void *mine, void *all, size_t len)
{
	if (!m->on) {
		if (all != NULL && all != mine)
			memcpy(all, mine, len);
		return;
	}
	quiet_gather(mine, count_of(len), MPI_BYTE, m->rank == 0 ? all : NULL);
}

/* op over every rank's v, at every rank. */
static int
allreduce(const struct diot_mpi *m, int v, MPI_Op op)
{
	int r = v;

	if (m->on)
		quiet_allreduce(&v, &r, MPI_INT, op);
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
	MPI_Request req;
	int from = -1;

	MPI_Irecv(&from, 1, MPI_INT, MPI_ANY_SOURCE, STOP_TAG, MPI_COMM_WORLD, &req);
	wait_quietly(&req);
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
		int i;

		for (i = 0; i < m->size; i++)
			wait_quietly(&p->req[i]);
		free(p->req);
		free(p->msg);
		free(p);
	}
	m->pending = NULL;
	m->told = m->heard = 0;
}

/* ------------------------------------------------------------ one clock */

#define CLOCK_TAG 7302
#define CLOCK_PINGS 8

/* Rank 0's go to rank k; every rank at one place (no spinning: a rank
 * whose writers are done must not take the processor from those of
 * another rank still writing). */
static void
wait_turn(void)
{
	MPI_Request req;
	int token;

	MPI_Irecv(&token, 1, MPI_INT, 0, CLOCK_TAG, MPI_COMM_WORLD, &req);
	wait_quietly(&req);
}

int64_t
diot_mpi_clock_offset(const struct diot_mpi *m, uint64_t *bound_ns)
{
	uint64_t a, b, t0, best = UINT64_MAX;
	int64_t off = 0;
	int i, k, ping = 0;

	*bound_ns = 0;
	if (!m->on || m->size == 1)
		return 0;
	quiet_barrier();    /* every rank's writers are done */
	if (m->rank == 0) {
		for (k = 1; k < m->size; k++) {
			if (m->on_host0[k])
				continue;
			MPI_Send(&ping, 1, MPI_INT, k, CLOCK_TAG, MPI_COMM_WORLD);
			for (i = 0; i < CLOCK_PINGS; i++) {
				MPI_Recv(&ping, 1, MPI_INT, k, CLOCK_TAG, MPI_COMM_WORLD,
				         MPI_STATUS_IGNORE);
				t0 = diot_now_ns();
				MPI_Send(&t0, (int)sizeof(t0), MPI_BYTE, k, CLOCK_TAG,
				         MPI_COMM_WORLD);
			}
		}
		quiet_barrier();
		return 0;
	}
	if (m->with0) {     /* rank 0's host: rank 0's clock */
		quiet_barrier();
		return 0;
	}
	wait_turn();
	for (i = 0; i < CLOCK_PINGS; i++) {
		a = diot_now_ns();
		MPI_Send(&ping, 1, MPI_INT, 0, CLOCK_TAG, MPI_COMM_WORLD);
		MPI_Recv(&t0, (int)sizeof(t0), MPI_BYTE, 0, CLOCK_TAG, MPI_COMM_WORLD,
		         MPI_STATUS_IGNORE);
		b = diot_now_ns();
		if (b - a < best) {
			best = b - a;
			off = (int64_t)(a + (b - a) / 2) - (int64_t)t0;
		}
	}
	quiet_barrier();
	*bound_ns = (best + 1) / 2;
	return off;
}

/* ------------------------------------------------------------ one voice */

/* Every rank with what it held (h->status 0: nothing failed): when any
 * failed, the first says it once, and all leave in order and exit. */
static void
agree(struct diot_mpi *m, struct diot_held *h)
{
	int first, failed, mine, status;

	mine = h->status ? m->rank : m->size;
	quiet_allreduce(&mine, &first, MPI_INT, MPI_MIN);
	if (first == m->size)
		return;
	failed = h->status != 0;
	quiet_allreduce(MPI_IN_PLACE, &failed, MPI_INT, MPI_SUM);
	status = h->status;
	quiet_bcast(&status, 1, MPI_INT, first);
	if (m->rank == first) {
		diot_say_held(h, failed < m->size && !h->job);
		fflush(NULL);
	}
	diot_mpi_leave(m, status);
	exit(status);
}

void
diot_mpi_each(struct diot_mpi *m, void (*fn)(void *arg), void *arg)
{
	struct diot_held h;

	if (!m->on) {
		fn(arg);
		return;
	}
	diot_hold_errors(&h);
	if (setjmp(h.jb) == 0) {
		fn(arg);
		diot_hold_errors(NULL);
	}
	agree(m, &h);
}

/* FNV-1a, 64 bits: a digest of an item's value. */
static uint64_t
digest(const char *s)
{
	uint64_t h = 14695981039346656037ull;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ull;
	}
	return h;
}

#define SAME_TAG 7303

void
diot_mpi_same(struct diot_mpi *m, const struct diot_mpi_item *items, int n)
{
	struct diot_held h;
	struct {
		char where[sizeof(m->where)];
		char value[512];
	} theirs;
	uint64_t *mine, *all = NULL;
	size_t row = (size_t)n + 1;
	int who[2] = { -1, -1 }, r, i;

	if (!m->on || m->size == 1)
		return;
	mine = calloc(row, sizeof(*mine));
	if (m->rank == 0)
		all = calloc(row * (size_t)m->size, sizeof(*all));
	if (mine == NULL || (m->rank == 0 && all == NULL))
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	/* First what every rank runs (the program, its items' names and
	 * number), in a record of one size whatever the program: another
	 * program's ranks are told apart before records of other sizes
	 * would meet. */
	mine[0] = digest(diot_prog);
	for (i = 0; i < n; i++)
		mine[0] = mine[0] * 31 + digest(items[i].name);
	mine[0] ^= (uint64_t)n;
	diot_mpi_gather(m, &mine[0], all, sizeof(mine[0]));
	for (r = 1; m->rank == 0 && r < m->size && who[0] < 0; r++)
		if (all[r] != mine[0])
			who[0] = r;
	quiet_bcast(who, 2, MPI_INT, 0);
	if (who[0] < 0) {        /* then the value of every item */
		for (i = 0; i < n; i++)
			mine[i + 1] = digest(items[i].value ? items[i].value : "");
		quiet_gather(mine, count_of(sizeof(*mine) * row), MPI_BYTE, all);
		for (r = 1; m->rank == 0 && r < m->size && who[0] < 0; r++)
			for (i = 1; i < (int)row; i++)
				if (all[(size_t)r * row + (size_t)i] != mine[i]) {
					who[0] = r;
					who[1] = i - 1;
					break;
				}
		quiet_bcast(who, 2, MPI_INT, 0);
	}
	free(mine);
	free(all);
	if (who[0] < 0)
		return;
	/* The rank that differs tells rank 0 where it is and its value. */
	memset(&theirs, 0, sizeof(theirs));
	if (m->rank == who[0]) {
		snprintf(theirs.where, sizeof(theirs.where), "%s", m->where);
		if (who[1] >= 0 && items[who[1]].value != NULL)
			snprintf(theirs.value, sizeof(theirs.value), "%s", items[who[1]].value);
		MPI_Send(&theirs, (int)sizeof(theirs), MPI_BYTE, 0, SAME_TAG, MPI_COMM_WORLD);
	}
	diot_hold_errors(&h);
	if (setjmp(h.jb) == 0) {
		if (m->rank == 0) {
			MPI_Recv(&theirs, (int)sizeof(theirs), MPI_BYTE, who[0], SAME_TAG,
			         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			theirs.where[sizeof(theirs.where) - 1] = '\0';
			theirs.value[sizeof(theirs.value) - 1] = '\0';
			if (who[1] < 0)
				diot_usage_error("%s runs another program than rank 0 (%s): "
				                 "every rank of a job runs the same program and "
				                 "options", theirs.where, diot_prog);
			diot_usage_error("%s was started with %s '%s', rank 0 with '%s': "
			                 "every rank of a job runs the same options",
			                 theirs.where, items[who[1]].name, theirs.value,
			                 items[who[1]].value ? items[who[1]].value : "");
		}
		diot_hold_errors(NULL);
	}
	h.job = 1;          /* about the job, not about rank 0 */
	agree(m, &h);
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
		/* MPICH: "MPICH Version:<TAB>4.0.2": blanks made one space. */
		{
			char *r, *w;

			for (r = w = name; *r; r++)
				if ((*r != ' ' && *r != '\t') || (w > name && w[-1] != ' '))
					*w++ = *r == '\t' ? ' ' : *r;
			*w = '\0';
		}
	}
	return name;
}
