/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * msg.c -- the tools' messages and exits (declared in msg.h): the
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

#include "tools/kit/json.h"
#include "tools/kit/msg.h"

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

void
diot_die_by_signal(int sig)
{
	sigset_t set;

	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	_exit(128 + sig);       /* (not reached) */
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

/* s with its control characters made visible (\n, \t, \r, \xHH), and
 * every byte that is not UTF-8 as \xHH, so that a message or a table is
 * one line and readable whatever a name in it holds (a TARGET with a
 * newline, a path in another encoding); with quoted, a quote and a
 * backslash as \' and \\ too (the inside of diot_quoted()'s quotes).
 * Into dst when not NULL.  Returns the length. */
static size_t
visible_into(char *dst, const char *s, int quoted)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0, u;
	int e;

	for (; *p; p += u ? u : 1) {
		u = *p >= 0x20 && *p != 0x7f ? diot_utf8_len(p) : 0;
		if (u > 0 && !(quoted && (*p == '\'' || *p == '\\'))) {
			if (dst)
				memcpy(dst + n, p, u);
			n += u;
			continue;
		}
		e = u > 0 ? *p : *p == '\n' ? 'n' : *p == '\t' ? 't' : *p == '\r' ? 'r' : 'x';
		u = 1;
		if (dst) {
			dst[n] = '\\';
			dst[n + 1] = (char)e;
			if (e == 'x') {
				dst[n + 2] = hex[*p >> 4];
				dst[n + 3] = hex[*p & 15];
			}
		}
		n += e == 'x' ? 4 : 2;
	}
	return n;
}

/* Does name s need diot_quoted()'s quotes? */
static int
needs_quotes(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t u;

	if (*p == '\0')
		return 1;
	for (; *p; p += u) {
		u = *p > 0x20 && *p != 0x7f ? diot_utf8_len(p) : 0;
		if (u == 0 || *p == '\'' || *p == '\\')
			return 1;
	}
	return 0;
}

char *
diot_quoted(const char *s)
{
	char *q;
	size_t n;
	int quote;

	if (s == NULL)
		s = "";
	quote = needs_quotes(s);
	n = visible_into(NULL, s, quote);
	q = malloc(n + 3);
	if (q == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	if (!quote) {
		memcpy(q, s, n + 1);
		return q;
	}
	q[0] = '\'';
	visible_into(q + 1, s, 1);
	q[n + 1] = '\'';
	q[n + 2] = '\0';
	return q;
}

char *
diot_visible(const char *s)
{
	char *v;
	size_t n;

	if (s == NULL)
		s = "";
	n = visible_into(NULL, s, 0);
	v = malloc(n + 1);
	if (v == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	visible_into(v, s, 0);
	v[n] = '\0';
	return v;
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
	size_t lb = visible_into(NULL, body, 0), n = lp + 2 + lw + lb + 1, at;
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
	at = (size_t)snprintf(line, n + 1, "%s: ", diot_prog);
	if (where != NULL)
		at += (size_t)snprintf(line + at, n + 1 - at, "%s: ", where);
	at += visible_into(line + at, body, 0);
	line[at++] = '\n';
	fwrite(line, 1, at, stderr);
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

void
diot_warn_job(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diot_vsay(NULL, fmt, ap);
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
	va_list ap;

	va_start(ap, fmt);
	diot_vdie(status, fmt, ap);     /* does not return */
}

void
diot_vdie(int status, const char *fmt, va_list ap)
{
	char *body = diot_vfmt(fmt, ap);

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
