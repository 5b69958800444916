/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * team.h -- a team of workers ("members") for the tools that measure with
 * several writers or devices at once (sync-write, dio-dd): members run as
 * threads or as processes, meet at a ready/go gate, leave their results in
 * memory the parent reads, and can be stopped through a shared flag.
 *
 * The contract:
 *
 *  - diot_team_new() makes a team of n members: a zeroed result area of
 *    n x result_size bytes (shared memory, MAP_SHARED|MAP_ANON, with
 *    DIOT_TEAM_PROCESSES; ordinary memory for threads), a stop flag and a
 *    go time in the same shared memory.  intr, when not NULL, is the tool's
 *    signal flag (a volatile sig_atomic_t its handler sets): the team reads
 *    it, never writes it.  A team runs once: make a new one for each run.
 *
 *  - diot_team_start() starts member k = 0..n-1 as fn(t, k, arg), in a
 *    thread or a forked process (fflush(NULL) first; the child leaves with
 *    _exit(0) when fn returns, so atexit handlers run in the parent only;
 *    with DIOT_TEAM_OWN_SESSION the child calls setsid() first, so that the
 *    terminal's signals reach the parent only).  If one cannot be started,
 *    the members already started are stopped, released and waited for, *failed
 *    is set to its index, and the -errno of pthread_create or fork is
 *    returned (the tool words the message).
 *
 *  - A member, when it has set itself up, calls diot_team_ready(t, k) once:
 *    it blocks until the parent opens the gate (returns 0) or the team is
 *    stopped first (returns -1).  A member that returns without calling it
 *    counts as ready and done.  After the gate, diot_team_go_ns(t) is the go
 *    time the parent recorded (diot_now_ns() clock).  Members poll
 *    diot_team_stopping(t): true once the stop flag is set, or (in the
 *    member's own address space) once *intr is set.
 *
 *  - The parent calls diot_team_await_ready(t): it returns once every member
 *    is ready or gone (a process that ended), or as soon as *intr is set (it
 *    then sets the stop flag, and with DIOT_TEAM_FORWARD_STOP sends SIGTERM
 *    to the member processes still running, once).  Then diot_team_go(t,
 *    go_ns) stores the go time (go_ns, or diot_now_ns() when 0), opens the
 *    gate and returns the time stored.
 *
 *  - diot_team_wait(t, tick_ms, tick, arg) waits until every member is done
 *    (threads joined, processes reaped), calling tick(arg) at least every
 *    tick_ms milliseconds (and whenever a member reports); once *intr is
 *    set it sets the stop flag and, with DIOT_TEAM_FORWARD_STOP, sends
 *    SIGTERM to the member processes still running (once).  With
 *    DIOT_TEAM_STOP_ON_DEATH, a member process that ends without finishing
 *    sets the stop flag for the others.
 *
 *  - diot_team_end(t, k, &code) says how member k ended: FINISHED (fn
 *    returned), SIGNAL (code: the signal that killed the process), EXIT
 *    (code: the status of an exit()/_exit() before fn returned), or NONE
 *    (never started or not waited for).  Each tool words its own message
 *    ("writer K was killed by signal N", "the process for 'X' exited with
 *    status S").
 *
 *  - diot_team_free() releases the team (after diot_team_wait()).
 *
 * Nesting (dio-dd: a process per device, each running several threads):
 * inside the member process make a thread team of its own for the inner
 * threads; start them, diot_team_await_ready(inner), then
 * diot_team_ready(outer, k), then diot_team_go(inner, diot_team_go_ns(outer))
 * so that every thread of every process shares the parent's go time, and
 * diot_team_wait(inner, ...) before returning.  The inner threads poll
 * diot_team_stopping(inner) || diot_team_stopping(outer).
 *
 * Not async-signal-safe; call from one controlling thread.  POSIX only.
 */
#ifndef DIO_TOOLS_TEAM_H
#define DIO_TOOLS_TEAM_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

/* diot_team_new() flags */
#define DIOT_TEAM_THREADS        0x0   /* members are threads (default)    */
#define DIOT_TEAM_PROCESSES      0x1   /* members are forked processes     */
#define DIOT_TEAM_OWN_SESSION    0x2   /* processes: setsid() in each      */
#define DIOT_TEAM_FORWARD_STOP   0x4   /* processes: SIGTERM them on *intr */
#define DIOT_TEAM_STOP_ON_DEATH  0x8   /* processes: one that dies stops all */

/* How a member ended (diot_team_end()). */
enum diot_team_how {
	DIOT_END_NONE = 0,      /* not started, or not waited for yet */
	DIOT_END_FINISHED,      /* its function returned              */
	DIOT_END_SIGNAL,        /* killed by signal *code             */
	DIOT_END_EXIT           /* exited with status *code before finishing */
};

struct diot_team;

typedef void diot_team_fn(struct diot_team *t, int k, void *arg);

/* NULL on failure (errno set). */
struct diot_team *diot_team_new(int n, size_t result_size, int flags,
                                const volatile sig_atomic_t *intr);
void diot_team_free(struct diot_team *t);

int diot_team_size(const struct diot_team *t);
/* Member k's result_size bytes (shared with the parent in process mode). */
void *diot_team_result(struct diot_team *t, int k);

/* 0, or -errno with *failed the member that could not be started. */
int diot_team_start(struct diot_team *t, diot_team_fn *fn, void *arg, int *failed);

/* Member side. */
int diot_team_ready(struct diot_team *t, int k);
uint64_t diot_team_go_ns(const struct diot_team *t);
int diot_team_stopping(const struct diot_team *t);

/* Parent side. */
void diot_team_stop(struct diot_team *t);
void diot_team_await_ready(struct diot_team *t);
uint64_t diot_team_go(struct diot_team *t, uint64_t go_ns);
void diot_team_wait(struct diot_team *t, int tick_ms, void (*tick)(void *), void *arg);
int diot_team_end(const struct diot_team *t, int k, int *code);

#endif
