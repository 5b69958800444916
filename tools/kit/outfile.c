/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * outfile.c -- output-file safety shared by the tools (outfile.h).
 */
/* The descriptor passed to the guard rides in a control message
 * (msg_control, CMSG_SPACE): illumos declares those only for X/Open
 * (_XPG4_2, from _XOPEN_SOURCE 500 on), not for __EXTENSIONS__ alone,
 * which is all config.h gives there; glibc's _GNU_SOURCE already
 * implies them, and defines _XOPEN_SOURCE 700 itself. */
#ifndef _XOPEN_SOURCE
# define _XOPEN_SOURCE 700
#endif
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libdirectio.h"
#include "tools/kit/msg.h"
#include "tools/kit/outfile.h"

int
diot_out_create(const char *path, int force, int *err, char *why, size_t whylen)
{
	struct stat st;
	int fd;

	if (err != NULL)
		*err = 0;
	if (why != NULL && whylen > 0)
		why[0] = '\0';
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd >= 0) {
		close(fd);
		return 1;
	}
	if (errno != EEXIST) {
		if (err != NULL)
			*err = errno;
		return DIOT_OUT_CREATE_FAILED;
	}
	if (stat(path, &st) != 0) {
		if (err != NULL)
			*err = errno;
		return DIOT_OUT_STAT_FAILED;
	}
	if (S_ISDIR(st.st_mode))
		return DIOT_OUT_IS_DIR;
	if (!S_ISREG(st.st_mode))
		return DIOT_OUT_NOT_REGULAR;
	if (!force)
		return DIOT_OUT_EXISTS;
	if (access(path, W_OK) != 0) {
		if (err != NULL)
			*err = errno;
		return DIOT_OUT_NO_ACCESS;
	}
	/* force is for the file, not for a disk image somebody uses. */
	if (dio_device_in_use(path, why, whylen) == 1)
		return DIOT_OUT_IN_USE;
	return 0;
}

int
diot_out_open_results(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644), e;

	if (fd >= 0) {
		close(fd);
		return 1;
	}
	e = errno;
	if (e != EEXIST)
		return -e;
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

int
diot_out_writable(const char *path, char *why, size_t whylen)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return 0;       /* to be created (its directory is checked then) */
	if (S_ISREG(st.st_mode) || S_ISCHR(st.st_mode))
		return 0;
	if (S_ISDIR(st.st_mode)) {
		snprintf(why, whylen, "is a directory");
		return -EISDIR;
	}
	if (S_ISFIFO(st.st_mode)) {
		/* Opened and closed to be checked, then opened again to be
		 * written, a FIFO would end its reader's input early, or wait
		 * for ever when nothing reads it: write to standard output
		 * and pipe that instead. */
		snprintf(why, whylen, "is a FIFO: an output is a file or a character "
		         "device; for a pipe, write to standard output");
		return -ENXIO;
	}
	snprintf(why, whylen, "is neither a regular file nor a character device");
	return -EINVAL;
}

int
diot_out_dangling(const char *path, char *to, size_t len)
{
	struct stat st;
	ssize_t n;

	if (lstat(path, &st) != 0 || !S_ISLNK(st.st_mode) || stat(path, &st) == 0 ||
	    (errno != ENOENT && errno != ENOTDIR))
		return 0;
	if (len == 0)
		return 1;
	n = readlink(path, to, len - 1);
	to[n < 0 ? 0 : n] = '\0';
	return 1;
}

int
diot_out_same(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino && !S_ISCHR(sa.st_mode);
}

int
diot_out_unchecked(const char *dev, const char *path, int *err)
{
	struct stat sd, sp;

	*err = 0;
	if (stat(dev, &sd) != 0) {
		*err = errno;
		return DIOT_UNCHECKED_STAT_FAILED;
	}
	if (!S_ISBLK(sd.st_mode) && !S_ISCHR(sd.st_mode))
		return DIOT_UNCHECKED_NOT_DEVICE;
	if (strcmp(dev, path) == 0)
		return DIOT_UNCHECKED_SAME;
	return stat(path, &sp) == 0 && (sp.st_mode & S_IFMT) == (sd.st_mode & S_IFMT) &&
	       sp.st_rdev == sd.st_rdev ? DIOT_UNCHECKED_SAME : DIOT_UNCHECKED_OTHER;
}

void
diot_out_unchecked_option(const char *dev, int force, const char *force_alt,
                          const char *const *outs, int n, const char *out)
{
	int i, e = 0, r = DIOT_UNCHECKED_OTHER;

	if (dev == NULL)
		return;
	if (!force)
		diot_usage_error("--write-unchecked '%s' needs --force%s%s%s: it only "
		                 "widens --force, to a device whose use cannot be checked",
		                 dev, force_alt ? " (or " : "", force_alt ? force_alt : "",
		                 force_alt ? ")" : "");
	if (*dev == '\0')
		diot_usage_error("--write-unchecked is an empty string: name the %s device",
		                 out);
	for (i = 0; i < n && r == DIOT_UNCHECKED_OTHER; i++)
		r = diot_out_unchecked(dev, outs[i], &e);
	switch (r) {
	case DIOT_UNCHECKED_SAME:
		return;
	case DIOT_UNCHECKED_STAT_FAILED:
		diot_usage_error("--write-unchecked '%s': %s (it names the %s device whose "
		                 "use cannot be checked)", dev, dio_strerror(-e), out);
	case DIOT_UNCHECKED_NOT_DEVICE:
		diot_usage_error("--write-unchecked '%s' is not a device: it is for %s %s "
		                 "that is a block or character device", dev,
		                 strchr("AEIOU", out[0]) || strncmp(out, "of", 2) == 0 ?
		                 "an" : "a", out);
	default:
		if (n == 0)
			diot_usage_error("--write-unchecked '%s' names no output: no %s is "
			                 "given", dev, out);
		diot_usage_error("--write-unchecked '%s' is not %s %s device: it names "
		                 "the %s device to write unchecked", dev,
		                 n == 1 ? "the" : "one of the", out, out);
	}
}

int
diot_out_write_unchecked(const char *dev, int force, const char *path)
{
	int e;

	return force && dev != NULL &&
	       diot_out_unchecked(dev, path, &e) == DIOT_UNCHECKED_SAME;
}

void
diot_out_warn_unchecked(const char *path, const char *err, const char *detail)
{
	diot_warn("warning: writing '%s' unchecked (--write-unchecked): whether it is "
	          "in use cannot be told (%s%s%s); if it is mounted or otherwise used, "
	          "its data is destroyed", path, err, detail[0] ? ": " : "", detail);
}

void
diot_out_warn_unheld(const char *path, const char *err)
{
	diot_warn("warning: '%s' is not held for the run either (its exclusive claim "
	          "failed: %s): nothing keeps it from being mounted meanwhile", path, err);
}

int
diot_out_claim_device(const char *path)
{
	return dio_device_claim(path);
}

static struct diot_outlist *at_exit_list;
static void guard_tell(int op, uint32_t n, const char *path);

void
diot_out_init(struct diot_outlist *l)
{
	memset(l, 0, sizeof(*l));
}

int
diot_out_created(struct diot_outlist *l, const char *path)
{
	char *copy;

	if (l->n == l->cap) {
		int cap = l->cap ? 2 * l->cap : 8;
		char **p = realloc(l->path, (size_t)cap * sizeof(*p));
		int *k;

		if (p == NULL)
			return -1;
		l->path = p;
		k = realloc(l->keep, (size_t)cap * sizeof(*k));
		if (k == NULL)
			return -1;
		l->keep = k;
		l->cap = cap;
	}
	copy = strdup(path);
	if (copy == NULL)
		return -1;
	l->path[l->n] = copy;
	l->keep[l->n] = 0;
	if (l == at_exit_list)
		guard_tell('+', (uint32_t)strlen(copy), copy);
	return l->n++;
}

/* Entry idx (all: -1) kept at level at least how. */
static void
keep_as(struct diot_outlist *l, int idx, int how)
{
	int i;

	for (i = 0; i < l->n; i++)
		if ((idx < 0 || i == idx) && l->keep[i] < how)
			l->keep[i] = how;
	if (l == at_exit_list)
		guard_tell(how == DIOT_OUT_KEEP_ALWAYS ? 'a' : 'k',
		           idx < 0 ? UINT32_MAX : (uint32_t)idx, NULL);
}

void
diot_out_keep(struct diot_outlist *l, int idx)
{
	keep_as(l, idx, 1);
}

void
diot_out_keep_always(struct diot_outlist *l, int idx)
{
	keep_as(l, idx, DIOT_OUT_KEEP_ALWAYS);
}

void
diot_out_remove_created(struct diot_outlist *l)
{
	while (l->n > 0) {
		l->n--;
		if (!l->keep[l->n])
			unlink(l->path[l->n]);
		free(l->path[l->n]);
	}
	free(l->path);
	free(l->keep);
	memset(l, 0, sizeof(*l));
	if (l == at_exit_list)
		guard_tell('c', 0, NULL);
}

static void
remove_at_exit(void)
{
	if (at_exit_list != NULL)
		diot_out_remove_created(at_exit_list);
}

void
diot_out_remove_now(void)
{
	remove_at_exit();
}

void
diot_out_remove_unfinished(void)
{
	int i;

	for (i = 0; at_exit_list != NULL && i < at_exit_list->n; i++)
		at_exit_list->keep[i] = at_exit_list->keep[i] == DIOT_OUT_KEEP_ALWAYS;
	remove_at_exit();
}

void
diot_out_remove_at_exit(struct diot_outlist *l)
{
	if (at_exit_list == NULL)
		atexit(remove_at_exit);
	at_exit_list = l;
}

/* ------------------------------------------------------------ the guard */

/*
 * The socket to the guard, and what goes over it: a byte saying what,
 * a 32-bit number, and for '+' and 'n' that many bytes of text.
 *   '+' LEN PATH   an entry registered (appended, as in the list)
 *   'k' IDX        entry IDX kept (UINT32_MAX: all of them)
 *   'a' IDX        entry IDX kept always, even if the process is killed
 *   'c' 0          the list removed by the process itself (forget it)
 *   'd' 0          the run ended in order: kept entries stay
 *   'x' STATUS     the process exits with STATUS, not in order
 *   'n' LEN WHO\0AFTER   what to say of an end not in order, with the
 *                  descriptor to say it on (SCM_RIGHTS, on the 'n')
 * A signal handler cannot write on that stream (the process may be in the
 * middle of a message, in another thread): a stop signal goes to the
 * guard as one byte down a pipe of its own (guard_sig), from the process
 * that made the guard only (guard_owner): its writers, forked processes
 * that inherit the handler, may be stopped by a launcher's signal to the
 * process group after the process itself was killed, and that is no word
 * to the process (Open MPI's orted signals the group of a rank it lost).
 */
static int guard_fd = -1, guard_sig = -1;
static pid_t guard_owner = -1;

/* All of len bytes sent (out) or received: 0, or -1 (the peer is gone). */
static int
all_of(int fd, void *buf, size_t len, int out)
{
	char *p = buf;
	ssize_t n;

	while (len > 0) {
		n = out ? send(fd, p, len, MSG_NOSIGNAL) : recv(fd, p, len, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* The head of a message (and text), with descriptor fd (-1: none) sent
 * along on the head's bytes. */
static void
guard_send(int op, uint32_t n, const char *text, int fd)
{
	unsigned char head[5];
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} cm;
	struct msghdr msg;
	struct iovec iov;
	ssize_t sent = 0;

	if (guard_fd < 0)
		return;
	head[0] = (unsigned char)op;
	memcpy(head + 1, &n, sizeof(n));
	if (fd >= 0) {
		memset(&msg, 0, sizeof(msg));
		memset(&cm, 0, sizeof(cm));
		iov.iov_base = head;
		iov.iov_len = sizeof(head);
		msg.msg_iov = &iov;
		msg.msg_iovlen = 1;
		msg.msg_control = cm.buf;
		msg.msg_controllen = sizeof(cm.buf);
		CMSG_FIRSTHDR(&msg)->cmsg_level = SOL_SOCKET;
		CMSG_FIRSTHDR(&msg)->cmsg_type = SCM_RIGHTS;
		CMSG_FIRSTHDR(&msg)->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(CMSG_FIRSTHDR(&msg)), &fd, sizeof(int));
		do
			sent = sendmsg(guard_fd, &msg, MSG_NOSIGNAL);
		while (sent < 0 && errno == EINTR);
	}
	if (sent < 0 ||
	    all_of(guard_fd, head + sent, sizeof(head) - (size_t)sent, 1) < 0 ||
	    (text != NULL && all_of(guard_fd, (char *)text, n, 1) < 0)) {
		close(guard_fd);      /* the guard is gone: nothing more to tell */
		guard_fd = -1;
	}
}

static void
guard_tell(int op, uint32_t n, const char *path)
{
	guard_send(op, n, path, -1);
}

/* len bytes to fd (a pipe, a terminal, a file), as far as they go. */
static void
all_of_write(int fd, const char *p, size_t len)
{
	ssize_t n;

	while (len > 0) {
		n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		p += n;
		len -= (size_t)n;
	}
}

/* A message's head, taking a descriptor sent along (*fd, the last one
 * kept): 0, or -1 (the process is gone). */
static int
guard_head(int fd, unsigned char *head, size_t len, int *passed)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} cm;
	struct cmsghdr *ch;
	struct msghdr msg;
	struct iovec iov;
	ssize_t n;
	int got;

	while (len > 0) {
		memset(&msg, 0, sizeof(msg));
		iov.iov_base = head;
		iov.iov_len = len;
		msg.msg_iov = &iov;
		msg.msg_iovlen = 1;
		msg.msg_control = cm.buf;
		msg.msg_controllen = sizeof(cm.buf);
		n = recvmsg(fd, &msg, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		for (ch = CMSG_FIRSTHDR(&msg); ch != NULL; ch = CMSG_NXTHDR(&msg, ch))
			if (ch->cmsg_level == SOL_SOCKET && ch->cmsg_type == SCM_RIGHTS &&
			    ch->cmsg_len >= CMSG_LEN(sizeof(int))) {
				memcpy(&got, CMSG_DATA(ch), sizeof(got));
				if (*passed >= 0)
					close(*passed);
				*passed = got;
			}
		head += n;
		len -= (size_t)n;
	}
	return 0;
}

/* What the guard learnt of the process's end. */
struct guard_end {
	int done;                 /* ended in order                          */
	int sig;                  /* a stop signal it was asked to stop by   */
	int status;               /* the status it said it exits with, or -1 */
	int say_fd;               /* where to say an end not in order, or -1 */
	char *who, *after;        /* what to say                              */
};

/* The stop signals that came down the pipe (non-blocking). */
static void
guard_signals(int sigfd, struct guard_end *e)
{
	unsigned char b;

	while (sigfd >= 0 && read(sigfd, &b, 1) == 1)
		e->sig = b;
}

/* The one line of an end not in order (see outfile.h). */
static void
guard_say(const struct guard_end *e)
{
	char how[160], *line;
	size_t len;

	if (e->done || e->say_fd < 0 || e->sig)
		return;
	if (e->status >= 0)
		snprintf(how, sizeof(how), "exited with status %d before the job ended in "
		         "order", e->status);
	else
		snprintf(how, sizeof(how), "was lost: it ended without a word before the "
		         "job ended in order (killed by SIGKILL, or it crashed)");
	len = strlen(e->who) + strlen(how) + strlen(e->after) + 8;
	if ((line = malloc(len)) == NULL)
		return;
	snprintf(line, len, "%s %s; %s\n", e->who, how, e->after);
	all_of_write(e->say_fd, line, strlen(line));
	free(line);
}

/* The guard: follow the list until the socket closes, then remove. */
static void
guard_main(int fd, int sigfd)
{
	struct diot_outlist l;
	struct guard_end e = { 0, 0, -1, -1, NULL, NULL };
	struct pollfd pf[2];
	unsigned char head[5];
	uint32_t n;
	int i;
	char *path;

	diot_out_init(&l);
	pf[0].fd = fd;
	pf[0].events = POLLIN;
	pf[1].fd = sigfd;
	pf[1].events = POLLIN;
	for (;;) {
		if (poll(pf, sigfd >= 0 ? 2 : 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (sigfd >= 0 && pf[1].revents != 0) {
			guard_signals(sigfd, &e);
			if (pf[1].revents & (POLLHUP | POLLERR))
				pf[1].fd = -1;       /* (every writer end closed) */
		}
		if (pf[0].revents == 0)
			continue;
		if (guard_head(fd, head, sizeof(head), &e.say_fd) < 0)
			break;
		memcpy(&n, head + 1, sizeof(n));
		path = NULL;
		if (head[0] == '+' || head[0] == 'n') {
			if (n > 1u << 20 || (path = malloc((size_t)n + 1)) == NULL)
				break;
			if (all_of(fd, path, n, 0) < 0) {
				free(path);
				break;
			}
			path[n] = '\0';
		}
		if (head[0] == '+') {
			diot_out_created(&l, path);
		} else if (head[0] == 'n') {
			free(e.who);
			e.who = path;                /* WHO\0AFTER */
			e.after = path + strlen(path) + (strlen(path) < n);
			path = NULL;
		} else if (head[0] == 'k' || head[0] == 'a') {
			keep_as(&l, n == UINT32_MAX ? -1 : (int)n,
			        head[0] == 'a' ? DIOT_OUT_KEEP_ALWAYS : 1);
		} else if (head[0] == 'c') {
			diot_out_keep(&l, -1);
			diot_out_remove_created(&l);     /* forgets: keeps all */
		} else if (head[0] == 'd') {
			e.done = 1;
			/* Nothing to say: the launcher's pipe is let go at once
			 * (its reader waits for every holder, and a writer stuck
			 * in the kernel keeps this guard waiting). */
			if (e.say_fd >= 0)
				close(e.say_fd);
			e.say_fd = -1;
		} else if (head[0] == 'x') {
			e.status = (int)n;
		}
		free(path);
	}
	guard_signals(sigfd, &e);     /* (one sent just before the end) */
	/* The process ended: in order, its kept files stay; otherwise the run
	 * did not end and nothing it created is a result, but for what it
	 * asked to keep always (the evidence of a run that did not end). */
	for (i = 0; !e.done && i < l.n; i++)
		l.keep[i] = l.keep[i] == DIOT_OUT_KEEP_ALWAYS;
	diot_out_remove_created(&l);
	if (e.who != NULL)
		guard_say(&e);
	free(e.who);
}

int
diot_out_guard(void)
{
	int sv[2], sp[2], fd, e;
	pid_t pid;

	if (guard_fd >= 0)
		return 0;
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
		return -errno;
	if (pipe(sp) != 0) {
		e = errno;
		close(sv[0]);
		close(sv[1]);
		return -e;
	}
	pid = fork();
	if (pid < 0) {
		e = errno;
		close(sv[0]);
		close(sv[1]);
		close(sp[0]);
		close(sp[1]);
		return -e;
	}
	if (pid == 0) {
		long max = sysconf(_SC_OPEN_MAX);

		/* Out of the launcher's way: a session of its own (a signal to
		 * the job's process group does not reach it), no descriptor of
		 * the process's but its socket (the launcher's pipes would stay
		 * open), the stop signals ignored (it ends with the process). */
		setsid();
		diot_catch_stop_signals(SIG_IGN);
		signal(SIGPIPE, SIG_IGN);
		fd = open("/dev/null", O_RDWR);
		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
		}
		if (max < 0 || max > 65536)
			max = 65536;
		for (fd = 3; fd < max; fd++)
			if (fd != sv[1] && fd != sp[0])
				close(fd);
		fcntl(sp[0], F_SETFL, O_NONBLOCK);
		guard_main(sv[1], sp[0]);
		_exit(0);
	}
	close(sv[1]);
	close(sp[0]);
	/* Not inherited by programs this process may run; a handler never
	 * waits on a full pipe (the guard has the signal already). */
	fcntl(sv[0], F_SETFD, FD_CLOEXEC);
	fcntl(sp[1], F_SETFD, FD_CLOEXEC);
	fcntl(sp[1], F_SETFL, O_NONBLOCK);
	guard_fd = sv[0];
	guard_sig = sp[1];
	guard_owner = getpid();
	/* The list may exist already. */
	if (at_exit_list != NULL) {
		int i;

		for (i = 0; i < at_exit_list->n; i++) {
			guard_tell('+', (uint32_t)strlen(at_exit_list->path[i]),
			           at_exit_list->path[i]);
			if (at_exit_list->keep[i])
				guard_tell(at_exit_list->keep[i] == DIOT_OUT_KEEP_ALWAYS ?
				           'a' : 'k', (uint32_t)i, NULL);
		}
	}
	return 0;
}

void
diot_out_guard_done(void)
{
	guard_tell('d', 0, NULL);
}

int
diot_out_guard_say(const char *who, const char *after)
{
	size_t lw = strlen(who), la = strlen(after);
	char *text;

	if (guard_fd < 0 || (text = malloc(lw + la + 2)) == NULL)
		return -1;
	memcpy(text, who, lw + 1);
	memcpy(text + lw + 1, after, la + 1);
	guard_send('n', (uint32_t)(lw + 1 + la), text, STDERR_FILENO);
	free(text);
	return guard_fd < 0 ? -1 : 0;
}

void
diot_out_guard_signal(int sig)
{
	int saved = errno;
	unsigned char b = (unsigned char)sig;

	if (guard_sig >= 0 && getpid() == guard_owner && write(guard_sig, &b, 1) < 0) {
		/* full (the guard has a signal already) or gone: no matter */
	}
	errno = saved;
}

void
diot_out_guard_exit(int status)
{
	guard_tell('x', (uint32_t)status, NULL);
}
