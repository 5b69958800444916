/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * msg.h -- the tools' messages and exits (tools/kit/msg.c): the program
 * name, "PROG: message" on standard error, the exit statuses, the stop
 * signals, errors held instead of said (the ranks of an MPI job), and
 * the printf and noreturn attributes the kit's declarations carry.
 *
 * Only diot_warn(), diot_warn_job(), diot_die() and diot_usage_error()
 * print (and the last two exit).  Everything is diot_-prefixed.
 */
#ifndef DIOT_MSG_H
#define DIOT_MSG_H

#include <setjmp.h>
#include <stdarg.h>

#if defined(__GNUC__)
# define DIOT_PRINTF(f, a) __attribute__((format(printf, f, a)))
# define DIOT_NORETURN __attribute__((noreturn))
#else
# define DIOT_PRINTF(f, a)
# define DIOT_NORETURN
#endif

/* Exit statuses shared by the tools. */
#define DIOT_EXIT_FAIL  1   /* the run failed (I/O error, device said no...) */
#define DIOT_EXIT_USAGE 2   /* bad command line                              */

/* ------------------------------------------------------------ messages */

/* The program name used in messages (set once by diot_init()). */
extern const char *diot_prog;
void diot_init(const char *argv0);
/* SIGINT, SIGTERM and SIGHUP (a closed terminal) call handler, which
 * should only note the signal: the tools stop their run cleanly (partial
 * results, files removed) and exit 128 + the signal. */
void diot_catch_stop_signals(void (*handler)(int));
/* End the process by signal sig, as the signal's default action would
 * (the shell sees 128 + sig): its default restored and sig unblocked,
 * then raised.  Async-signal-safe, so a handler may call it; stdio is not
 * flushed (a caller outside a handler that wants it flushes first). */
void diot_die_by_signal(int sig) DIOT_NORETURN;
/* "PROG: message\n" on stderr, in one write; never cut, whatever its
 * length (a path of PATH_MAX bytes keeps the reason after it). */
void diot_warn(const char *fmt, ...) DIOT_PRINTF(1, 2);
/* diot_warn() of the whole job, without the where of diot_set_where():
 * the rank that speaks for the job (rank 0) saying what another rank met
 * ("rank 1 on h2: writer 1 ..."), which its own where would misattribute. */
void diot_warn_job(const char *fmt, ...) DIOT_PRINTF(1, 2);
/* A copy of s (NULL: "") for a message or a table, malloc'd: control
 * characters as \n, \t, \r or \xHH, bytes that are not UTF-8 as \xHH
 * (every message goes through it: one line, whatever a name holds).
 * Out of memory: diot_die(). */
char *diot_visible(const char *s);
/* A name (a path, a device) for a table or a report: as it is when it
 * is printable UTF-8 text without a space, a quote or a backslash;
 * otherwise in single quotes, with a quote as \', a backslash as \\,
 * a newline, tab or carriage return as \n, \t, \r and any other
 * control character or byte that is not UTF-8 as \xHH ('' for an empty
 * name): one column and one line whatever the name holds, and its bytes
 * can be told back.  malloc'd; out of memory: diot_die(). */
char *diot_quoted(const char *s);
/* diot_warn() then exit(status). */
void diot_die(int status, const char *fmt, ...) DIOT_PRINTF(2, 3) DIOT_NORETURN;
/* diot_die() with a va_list (a tool's own fatal-error wrapper). */
void diot_vdie(int status, const char *fmt, va_list ap) DIOT_NORETURN;
/* Usage error: message, a hint to --help, exit DIOT_EXIT_USAGE. */
void diot_usage_error(const char *fmt, ...) DIOT_PRINTF(1, 2) DIOT_NORETURN;
/* For a tool that is one of several processes of a job (MPI ranks):
 * where (e.g. "rank 2 on h2") follows the program name in every message,
 * and diot_die() and diot_usage_error() call end(status) instead of
 * exit(), in the process that set it only (e.g. to abort the whole job
 * rather than leave the others waiting).  NULLs restore the default. */
void diot_set_where(const char *where, void (*end)(int status));

/*
 * Errors held, not said: between diot_hold_errors(h) and the next fatal
 * message, diot_die() and diot_usage_error() (in this process, not in its
 * forked children) format their message into h->msg (without the "PROG: "
 * prefix), set h->status and h->usage, stop holding and longjmp(h->jb, 1)
 * instead of printing and exiting.  The caller calls setjmp(h->jb) itself
 * before the work that may fail (C99: as the whole condition of an if):
 *
 *     diot_hold_errors(&h);
 *     if (setjmp(h.jb) == 0) { ... work ...; diot_hold_errors(NULL); }
 *     ... h.status says whether it failed ...
 *
 * For the ranks of an MPI job (tools/kit/mpi.h: diot_mpi_each()), so
 * that an error every rank meets is said once, and the job ends in order.
 * diot_say_held() prints a held message as diot_die() would have, with or
 * without the where of diot_set_where().
 */
struct diot_held {
	jmp_buf jb;
	int status;             /* 0: nothing failed                        */
	int usage;              /* a usage error: the hint to --help follows */
	int job;                /* about the whole job: said without where  */
	const char *msg;        /* the message (malloc'd, any length), or NULL */
};
void diot_hold_errors(struct diot_held *h);
void diot_say_held(const struct diot_held *h, int with_where);

/* Room for any message the kit's helpers write into a caller's buffer
 * (the parsers of parse.h, diot_getopt() of opt.h, ...). */
#define DIOT_ERR_MAX 256

#endif /* DIOT_MSG_H */
