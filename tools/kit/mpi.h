/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mpi.h -- the ranks of an MPI job as one more kind of team: a tool
 * started by mpirun/mpiexec joins the job, learns its rank and host,
 * meets the other ranks at barriers, and sends rank 0 fixed-size records
 * (histograms, statistics) that rank 0 merges.  Built on MPI (mpi.c) for
 * the MPI builds of the tools (sync-write-mpi, dio-dd-mpi: configure
 * --with-mpi), on nothing (mpi-none.c) for the tools themselves, so the
 * tools call it unconditionally and differ only in what they link.
 *
 * A tool not started by an MPI launcher never initialises MPI, even when
 * built with it: it is then the only rank of one, and runs as without.
 * Ranks are assumed to be the same build on the same kind of machine (the
 * records are sent as bytes).
 */
#ifndef DIOT_MPI_H
#define DIOT_MPI_H

#include <stddef.h>
#include <stdint.h>

#define DIOT_MPI_HOST_MAX 64

struct diot_mpi {
	int on;                        /* 1: a rank of a job of size >= 1     */
	int rank, size;                /* 0 and 1 when not on                 */
	char host[DIOT_MPI_HOST_MAX];  /* this rank's host (node name)        */
	char where[DIOT_MPI_HOST_MAX + 32]; /* "rank 2 on h2", for messages   */
	int told, heard;               /* stop messages sent, received (below) */
	void *pending;                 /* the sends of diot_mpi_tell_stop()   */
	int with0;                     /* this rank runs on rank 0's host     */
	char *on_host0;                /* rank 0: [size] each rank's with0    */
};

/* Was this process started by an MPI launcher (Open MPI, MPICH's hydra,
 * PMIx)?  Only the environment is looked at. */
int diot_mpi_launched(void);
/* The job's size and this process's rank as the launcher's environment
 * says (Open MPI's mpirun, PMI), or -1 where it does not. */
int diot_mpi_launched_size(void);
int diot_mpi_launched_rank(void);
/* Started by Slurm's srun as one of several tasks, but with no MPI plugin
 * (srun --mpi=none): each task would run the whole job alone. */
int diot_mpi_srun_without_pmi(void);

/* Join the job when launched by one and built with MPI; m describes the
 * rank (m->on 0, rank 0 of 1 otherwise).  A build without MPI launched
 * by mpirun fails with a message (each rank would run the whole job) that
 * names the MPI build, diot_prog with "-mpi".
 * From here on the kit's diot_die() aborts the whole job (MPI_Abort) and
 * messages name the rank and host.  Returns 0, or -1 with why filled. */
int diot_mpi_join(struct diot_mpi *m, int *argc, char ***argv, char *why, size_t wl);
/* Leave the job (MPI_Finalize) after a last barrier; nothing when not on.
 * status is what the rank exits with next: should MPI_Finalize not return
 * within DIOT_MPI_FINALIZE_S seconds (every rank passed the barrier, so
 * the launcher's process manager is what is gone: srun --mpi=pmi2 on a
 * node whose slurmd died), the rank says so once and exits with it. */
#define DIOT_MPI_FINALIZE_S 15
void diot_mpi_leave(struct diot_mpi *m, int status);

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

/*
 * One clock for the job: this rank's monotonic clock (diot_now_ns())
 * minus rank 0's, in ns, so that t - offset is time t on rank 0's clock.
 * A collective.  A rank on rank 0's host (the same node name) reads the
 * same clock (CLOCK_MONOTONIC is one per machine): 0 and 0.  The others
 * are answered by rank 0 in turn, eight pings each, while those not yet
 * served wait without spinning; the ping with the shortest round trip
 * gives the offset (rank 0 read its clock between the ping's send and
 * the answer's arrival), and *bound_ns half that round trip, the most the
 * offset can be off.  Rank 0 (and a job of one) gets 0 and 0.
 */
int64_t diot_mpi_clock_offset(const struct diot_mpi *m, uint64_t *bound_ns);

/*
 * Setup with one voice: fn(arg) is work every rank does on its own (no
 * collective inside: parsing, checking, opening its own files) that may
 * fail with diot_die() or diot_usage_error().  Its errors are held, not
 * said (msg.h: diot_hold_errors()); then the ranks compare: when any
 * failed, the first that did says its message once (without "rank R on
 * HOST" when every rank failed), and every rank leaves the job in order
 * (diot_mpi_leave(): no abort, no message from every rank, no launcher
 * banner beyond its note of the exit status) and exits with that rank's
 * status.  Returns when none failed.  Not on (alone): fn(arg), its
 * errors said and exiting at once, as ever.
 */
void diot_mpi_each(struct diot_mpi *m, void (*fn)(void *arg), void *arg);

/* Standard output of ranks other than 0 to /dev/null (what every rank
 * would print alike: --help, --version), and back: returns what to pass
 * to diot_mpi_unmute(). */
int diot_mpi_mute(const struct diot_mpi *m);
void diot_mpi_unmute(int saved);

/*
 * The same job on every rank: items are the tool's parsed options, each
 * a name as the user knows it ("-s/--size") and a canonical text of its
 * value.  A collective: rank 0 compares a digest of every item with its
 * own, and where a rank differs the job ends as by diot_mpi_each() with
 * one usage error naming the option, that rank and both values.  Every
 * rank passes the same names in the same order.
 */
struct diot_mpi_item {
	const char *name;
	const char *value;
};
void diot_mpi_same(struct diot_mpi *m, const struct diot_mpi_item *items, int n);

/* pattern with %r replaced by the rank, %h by the host and %% by %, into
 * out (len bytes): 0, or -ENAMETOOLONG.  Any other % stays as it is. */
int diot_mpi_expand(const struct diot_mpi *m, const char *pattern, char *out, size_t len);
/* Has pattern a %r or %h (as diot_mpi_expand() reads it: not "%%r")? */
int diot_mpi_has_pattern(const char *pattern);
/* Has pattern the conversion %conv ('r', 'h'), as diot_mpi_expand() reads it? */
int diot_mpi_pattern_has(const char *pattern, int conv);
/* A number a launcher put in the environment (v: the variable's value,
 * or NULL): a whole decimal number 0..INT_MAX, digits only; else -1. */
int diot_mpi_env_number(const char *v);

/* Was the tool built with MPI? (for --version and the tests) */
const char *diot_mpi_library(void);

#endif
