/*
 * msg.c -- the tools' messages and exits (declared in util.h): the
 * program name, "PROG: message" on standard error in one write, the exit
 * statuses, the stop signals, and the hook that lets a rank of an MPI job
 * name itself and end the whole job instead of itself.
 */
#include "config.h"

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

/* The whole line in one write: a launcher that forwards the output of
 * many processes (mpirun) then never splits or loses part of it. */
static void
diot_vwarn(const char *fmt, va_list ap)
{
	char line[4096];
	int n;

	if (diot_where != NULL)
		n = snprintf(line, sizeof(line), "%s: %s: ", diot_prog, diot_where);
	else
		n = snprintf(line, sizeof(line), "%s: ", diot_prog);
	if (n < 0 || (size_t)n >= sizeof(line))
		n = 0;
	n += vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	if (n < 0 || (size_t)n > sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	fflush(stderr);
	fwrite(line, 1, (size_t)n, stderr);
}

void
diot_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diot_vwarn(fmt, ap);
	va_end(ap);
}

void
diot_die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diot_vwarn(fmt, ap);
	va_end(ap);
	diot_exit(status);
}

void
diot_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diot_vwarn(fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try '%s --help' for more information.\n", diot_prog);
	diot_exit(DIOT_EXIT_USAGE);
}
