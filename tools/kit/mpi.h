/*
 * mpi.h -- the ranks of an MPI job as one more kind of team: a tool
 * started by mpirun/mpiexec joins the job, learns its rank and host,
 * meets the other ranks at barriers, and sends rank 0 fixed-size records
 * (histograms, statistics) that rank 0 merges.  Built on MPI where
 * configure found one (mpi.c), on nothing otherwise (mpi-none.c), so the
 * tools call it unconditionally.
 *
 * A tool not started by an MPI launcher never initialises MPI, even when
 * built with it: it is then the only rank of one, and runs as without.
 * Ranks are assumed to be the same build on the same kind of machine (the
 * records are sent as bytes).
 */
#ifndef DIOT_MPI_H
#define DIOT_MPI_H

#include <stddef.h>

#define DIOT_MPI_HOST_MAX 64

struct diot_mpi {
	int on;                        /* 1: a rank of a job of size >= 1     */
	int rank, size;                /* 0 and 1 when not on                 */
	char host[DIOT_MPI_HOST_MAX];  /* this rank's host (node name)        */
	char where[DIOT_MPI_HOST_MAX + 32]; /* "rank 2 on h2", for messages   */
	int told, heard;               /* stop messages sent, received (below) */
	void *pending;                 /* the sends of diot_mpi_tell_stop()   */
};

/* Was this process started by an MPI launcher (Open MPI, MPICH's hydra,
 * PMIx)?  Only the environment is looked at. */
int diot_mpi_launched(void);

/* Join the job when launched by one and built with MPI; m describes the
 * rank (m->on 0, rank 0 of 1 otherwise).  A build without MPI launched
 * by mpirun fails with a message (each rank would run the whole job).
 * From here on the kit's diot_die() aborts the whole job (MPI_Abort) and
 * messages name the rank and host.  Returns 0, or -1 with why filled. */
int diot_mpi_join(struct diot_mpi *m, int *argc, char ***argv, char *why, size_t wl);
/* Leave the job (MPI_Finalize) after a last barrier; nothing when not on. */
void diot_mpi_leave(struct diot_mpi *m);

/* Every rank waits here for all the others. */
void diot_mpi_barrier(const struct diot_mpi *m);
/* Rank 0's len bytes of buf to every rank's buf. */
void diot_mpi_bcast(const struct diot_mpi *m, void *buf, size_t len);
/* Every rank's len bytes of mine, in rank order, into all (size x len
 * bytes, read at rank 0 only; the other ranks may pass NULL). */
void diot_mpi_gather(const struct diot_mpi *m, const void *mine, void *all, size_t len);
/* The largest of every rank's v, and their sum, at every rank. */
int diot_mpi_max(const struct diot_mpi *m, int v);
int diot_mpi_sum(const struct diot_mpi *m, int v);

/*
 * Stopping the others in the middle of something (a point), without a
 * collective they are not in: diot_mpi_tell_stop() sends every other rank
 * a stop message and returns at once (once per rank and phase); each
 * rank polls diot_mpi_stop_asked() (the rank that asked first, or -1).
 * At the end of the phase, with every rank there, diot_mpi_stop_settle()
 * receives the messages still on their way (tellers: how many ranks told,
 * e.g. diot_mpi_sum(m, m->told)) and completes the sends, so that none is
 * left for the next phase.
 */
void diot_mpi_tell_stop(struct diot_mpi *m);
int diot_mpi_stop_asked(struct diot_mpi *m);
void diot_mpi_stop_settle(struct diot_mpi *m, int tellers);

/* Was the tool built with MPI? (for --version and the tests) */
const char *diot_mpi_library(void);

#endif
