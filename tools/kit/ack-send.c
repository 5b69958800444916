/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ack-send.c -- acknowledgement records sent: to a file (created
 * exclusively, or appended to), to standard output, or to a listener,
 * which answers each once it is in its log (ack.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "lib/libdirectio.h"
#include "tools/kit/ack.h"
#include "tools/kit/ack-private.h"
#include "tools/kit/outfile.h"

static int
connect_to(const char *host, const char *port, char *err, size_t errlen)
{
	char what[320];

	snprintf(what, sizeof(what), "cannot connect to the listener at %s port %s",
	         host, port);
	return diot__ack_tcp_socket(host, port, 0, what, err, errlen);
}

static int
is_symlink(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
}

static int
refuse_link(const char *path, char *err, size_t errlen)
{
	snprintf(err, errlen, "'%s' is a symbolic link: an ack log is never written "
	         "through one (a link planted there would send the records elsewhere); "
	         "name the file itself", path);
	return -ELOOP;
}

int
diot_ack_open_log(const char *path, int append, char *err, size_t errlen)
{
	char why[200];
	struct stat st;
	int fd, r;

	/* Refused before the open when it is there already... */
	if (is_symlink(path))
		return refuse_link(path, err, errlen);
	if (diot_out_writable(path, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "'%s' %s", path, why);
		return -EINVAL;
	}
	/*
	 * ...and a FIFO made in between does not make the open wait.  Never
	 * through a symbolic link (O_NOFOLLOW, also for one planted after
	 * the check: the records, or an append of --force, would go where it
	 * points), and readable by its owner only (0600: a log carries the
	 * run's id).
	 */
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NONBLOCK | O_NOCTTY | O_CLOEXEC |
	          O_NOFOLLOW | (append ? 0 : O_EXCL), 0600);
	if (fd < 0) {
		r = neg_errno();
		if (r == -ELOOP || (r == -EEXIST && is_symlink(path)))
			return refuse_link(path, err, errlen);
		if (r == -EEXIST)
			snprintf(err, errlen, "'%s' exists: an ack log is one run's record; "
			         "name a new file", path);
		else
			snprintf(err, errlen, "'%s': %s", path, dio_strerror(r));
		return r;
	}
	if (fstat(fd, &st) != 0 || !(S_ISREG(st.st_mode) || S_ISCHR(st.st_mode))) {
		close(fd);
		snprintf(err, errlen, "'%s' is neither a regular file nor a character "
		         "device", path);
		return -EINVAL;
	}
	/* Writes to it wait as they should (a terminal, say). */
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
		r = neg_errno();
		close(fd);
		snprintf(err, errlen, "'%s': %s", path, dio_strerror(r));
		return r;
	}
	return fd;
}

int
diot_ack_open(struct diot_ack *a, const char *spec, char *err, size_t errlen)
{
	int r;

	memset(a, 0, sizeof(*a));
	a->fd = -1;
	if (strcmp(spec, "-") == 0) {
		a->kind = DIOT_ACK_STDOUT;
		a->fd = STDOUT_FILENO;
		return 0;
	}
	if (diot_ack_is_tcp(spec)) {
		r = diot__ack_split_host_port(spec + 4, 1, a->host, sizeof(a->host), a->port,
		                    sizeof(a->port), err, errlen);
		if (r < 0)
			return r;
		r = connect_to(a->host, a->port, err, errlen);
		if (r < 0)
			return r;
		a->kind = DIOT_ACK_TCP;
		a->fd = r;
		return diot_ack_set_answer_time(a, DIOT_ACK_ANSWER_S);
	}
	if (strlen(spec) >= sizeof(a->path)) {
		snprintf(err, errlen, "'%s': path too long", spec);
		return -ENAMETOOLONG;
	}
	r = diot_ack_open_log(spec, 0, err, errlen);
	if (r < 0)
		return r;
	a->fd = r;
	a->kind = DIOT_ACK_FILE;
	a->created = 1;
	snprintf(a->path, sizeof(a->path), "%s", spec);
	return 0;
}

/* Receive one byte; the socket's time limit applies. */
static int
recv_byte(int fd, char *c)
{
	ssize_t r;

	while ((r = recv(fd, c, 1, 0)) < 0 && errno == EINTR)
		;
	if (r == 0)
		return -ECONNRESET;
	if (r < 0)
		return errno == EAGAIN || errno == EWOULDBLOCK ? -ETIMEDOUT : neg_errno();
	return 0;
}

/* Say a's run on its connection and take the listener's answer. */
static int
hello(const struct diot_ack *a, char *err, size_t errlen)
{
	char line[64], why[160];
	size_t k = 0;
	int n, r;
	char c;

	n = snprintf(line, sizeof(line), "H %d %llx\n", DIOT_ACK_WIRE,
	             (unsigned long long)a->run);
	r = diot__ack_write_all(a->fd, line, (size_t)n, 1);
	if (r == 0)
		r = recv_byte(a->fd, &c);
	if (r == 0 && c == '+')
		return 0;
	if (r == 0 && c == '-') {
		/* Its reason, to the newline (cut short if it is long). */
		while (k + 1 < sizeof(why) && recv_byte(a->fd, &why[k]) == 0 && why[k] != '\n')
			if (why[k] >= ' ' && why[k] < 127)
				k++;
		why[k] = '\0';
		snprintf(err, errlen, "the listener at %s port %s refused the run: %s",
		         a->host, a->port, k ? why : "no reason given");
		return -ECONNREFUSED;
	}
	if (r == 0)
		r = -EPROTO;
	snprintf(err, errlen, "the listener at %s port %s did not take the run's hello: %s%s",
	         a->host, a->port, dio_strerror(r), r == -ECONNRESET ? " (a listener "
	         "older than this sender? Both need the same sync-write)" : "");
	return r;
}

int
diot_ack_set_run(struct diot_ack *a, uint64_t run, char *err, size_t errlen)
{
	a->run = run;
	a->has_run = 1;
	if (a->kind != DIOT_ACK_TCP || a->fd < 0)
		return 0;
	return hello(a, err, errlen);
}

int
diot_ack_reconnect(struct diot_ack *a, char *err, size_t errlen)
{
	int fd, r;

	if (a->kind != DIOT_ACK_TCP)
		return 0;
	fd = connect_to(a->host, a->port, err, errlen);
	if (fd < 0)
		return fd;
	a->fd = fd;
	r = diot_ack_set_answer_time(a, a->answer_s);
	if (r == 0 && a->has_run)
		r = hello(a, err, errlen);
	else if (r < 0)
		snprintf(err, errlen, "the connection to the listener: %s", dio_strerror(r));
	if (r < 0) {
		close(fd);
		a->fd = -1;
	}
	return r;
}

int
diot_ack_set_answer_time(struct diot_ack *a, int seconds)
{
	struct timeval tv;

	if (seconds < 1 || seconds > 3600)
		return -EINVAL;
	a->answer_s = seconds;
	if (a->kind != DIOT_ACK_TCP || a->fd < 0)
		return 0;
	tv.tv_sec = seconds;
	tv.tv_usec = 0;
	if (setsockopt(a->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) != 0 ||
	    setsockopt(a->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) != 0)
		return neg_errno();
	return 0;
}

int
diot_ack_send(const struct diot_ack *a, const char *line, size_t len)
{
	ssize_t r;
	char c;

	if (a->kind == DIOT_ACK_NONE || a->fd < 0)
		return 0;
	if (len == 0 || len > DIOT_ACK_LINE_MAX || line[len - 1] != '\n' ||
	    memchr(line, '\0', len) != NULL)
		return -EINVAL;
	if (a->kind != DIOT_ACK_TCP) {
		/* One write() per record: whole or an error, never two halves. */
		while ((r = write(a->fd, line, len)) < 0 && errno == EINTR)
			;
		if (r < 0)
			return neg_errno();
		if ((size_t)r != len)
			return -EIO;
		if (a->commit && fdatasync(a->fd) != 0)
			return neg_errno();
		return 0;
	}
	r = diot__ack_write_all(a->fd, line, len, 1);
	if (r < 0)
		return r == -EPIPE ? -ECONNRESET : (int)r;
	while ((r = recv(a->fd, &c, 1, 0)) < 0 && errno == EINTR)
		;
	if (r == 0)
		return -ECONNRESET;
	if (r < 0)
		return timed_out(errno) ? -ETIMEDOUT : neg_errno();
	return c == '+' ? 0 : -EPROTO;
}

void
diot_ack_close(struct diot_ack *a)
{
	if (a->fd > STDERR_FILENO)
		close(a->fd);
	a->fd = -1;
	a->kind = DIOT_ACK_NONE;
}
