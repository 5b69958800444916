/*
 * msg.c -- the tools' messages and exits (declared in util.h): the
 * program name, "PROG: message" on standard error in one write, the exit
 * statuses, the stop signals, and the hook that lets a rank of an MPI job
 * name itself and end the whole job instead of itself.
 */
#include "config.h"

#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/kit/util.h"

/* ------------------------------------------------------------ messages */

const char *diot_prog = "dio";

void
diot_init(const char *argv0)
{
	const char *p = argv0 ? strrchr(argv0, '/') : NULL;

	diot_prog = p ? p + 1 : (argv0 ? argv0 : "dio");
	/* libtool wrappers run the real binary as lt-NAME */
	if (strncmp(diot_prog, "lt-", 3) == 0)
		diot_prog += 3;
}

void
diot_catch_stop_signals(void (*handler)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

static const char *diot_where;
static void (*diot_end)(int);
static pid_t diot_end_pid;

void
diot_set_where(const char *where, void (*end)(int status))
{
	diot_where = where;
	diot_end = end;
	diot_end_pid = getpid();
}

/* exit(status), or the job's own end (see diot_set_where). */
static void diot_exit(int status) DIOT_NORETURN;

static void
diot_exit(int status)
{
	if (diot_end != NULL && getpid() == diot_end_pid)
		diot_end(status);
	exit(status);
}

/* A formatted string in a buffer of its own size (malloc'd), or NULL
 * when memory is short: no message is ever cut to a fixed size. */
static char *
diot_vfmt(const char *fmt, va_list ap)
{
	va_list aq;
	char *s;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0 || (s = malloc((size_t)n + 1)) == NULL)
		return NULL;
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	return s;
}

/* "PROG: [WHERE: ]body\n" on standard error, the whole line in one
 * write: a launcher that forwards the output of many processes (mpirun)
 * then never splits or loses part of it.  The line is as long as it
 * needs (a path of PATH_MAX bytes and the reason after it); should
 * memory be short, the pieces are written one after the other, whole. */
static void
diot_say(const char *where, const char *body)
{
	size_t lp = strlen(diot_prog), lw = where ? strlen(where) + 2 : 0;
	size_t lb = strlen(body), n = lp + 2 + lw + lb + 1;
	char *line = malloc(n + 1);

	fflush(stderr);
	if (line == NULL) {
		fprintf(stderr, "%s: ", diot_prog);
		if (where != NULL)
			fprintf(stderr, "%s: ", where);
		fputs(body, stderr);
		fputc('\n', stderr);
		return;
	}
	if (where != NULL)
		snprintf(line, n + 1, "%s: %s: %s\n", diot_prog, where, body);
	else
		snprintf(line, n + 1, "%s: %s\n", diot_prog, body);
	fwrite(line, 1, n, stderr);
	free(line);
}

/* The body of a message said at once (format, or the format itself
 * should memory be too short to format it: still the words). */
static void
diot_vsay(const char *where, const char *fmt, va_list ap)
{
	char *body = diot_vfmt(fmt, ap);

	diot_say(where, body ? body : fmt);
	free(body);
}

static void
diot_vwarn(const char *fmt, va_list ap)
{
	diot_vsay(diot_where, fmt, ap);
}

void
diot_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diot_vwarn(fmt, ap);
	va_end(ap);
}

/* ------------------------------------------------------------ held errors */

static struct diot_held *diot_held_now;
static pid_t diot_held_pid;

void
diot_hold_errors(struct diot_held *h)
{
	diot_held_now = h;
	diot_held_pid = getpid();
	if (h != NULL) {
		h->status = 0;
		h->usage = 0;
		h->job = 0;
		h->msg = NULL;
	}
}

/* A fatal message while errors are held: into the holder (the body
 * malloc'd, kept to the exit that follows), and back to its setjmp.
 * Returns when nothing holds them (in this process). */
static void
diot_held_fatal(int status, int usage, char *body)
{
	struct diot_held *h = diot_held_now;

	if (h == NULL || getpid() != diot_held_pid)
		return;
	diot_held_now = NULL;
	h->msg = body != NULL ? body : "out of memory (formatting a message)";
	h->status = status;
	h->usage = usage;
	longjmp(h->jb, 1);
}

void
diot_say_held(const struct diot_held *h, int with_where)
{
	diot_say(with_where ? diot_where : NULL, h->msg ? h->msg : "");
	if (h->usage)
		fprintf(stderr, "Try '%s --help' for more information.\n", diot_prog);
}

void
diot_die(int status, const char *fmt, ...)
{
	char *body;
	va_list ap;

	va_start(ap, fmt);
	body = diot_vfmt(fmt, ap);
	va_end(ap);
	diot_held_fatal(status, 0, body);
	diot_say(diot_where, body ? body : fmt);
	diot_exit(status);
}

void
diot_usage_error(const char *fmt, ...)
{
	char *body;
	va_list ap;

	va_start(ap, fmt);
	body = diot_vfmt(fmt, ap);
	va_end(ap);
	diot_held_fatal(DIOT_EXIT_USAGE, 1, body);
	diot_say(diot_where, body ? body : fmt);
	fprintf(stderr, "Try '%s --help' for more information.\n", diot_prog);
	diot_exit(DIOT_EXIT_USAGE);
}
