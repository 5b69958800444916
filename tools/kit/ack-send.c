/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ack-send.c -- acknowledgement records sent: to a file (created
 * exclusively, or appended to), to standard output, or to a listener,
 * which answers each once it is in its log: the sender's side of
 * protocol 2 (the handshake, the records' MACs, the reading of the
 * listener's answers: ack.h).
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
#include "tools/kit/mac.h"
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

void
diot_ack_set_token(struct diot_ack *a, const struct diot_ack_token *t)
{
	a->token = *t;
	a->has_token = 1;
	a->plain = !diot_ack_has_mac();
}

/* One line from the listener (its '\n' included), into buf of n bytes;
 * the socket's time limit applies.  -ECONNRESET at its end, -EPROTO for
 * a line too long or more than one line (the listener says one at a
 * time: a line and only that is its answer). */
static int
recv_line(int fd, char *buf, size_t n, size_t *len)
{
	size_t k = 0;
	ssize_t r;
	char *nl;

	while (k < n) {
		r = recv(fd, buf + k, n - k, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0)
			return -ECONNRESET;
		if (r < 0)
			return timed_out(errno) ? -ETIMEDOUT : neg_errno();
		k += (size_t)r;
		if ((nl = memchr(buf, '\n', k)) != NULL) {
			*len = k;
			return nl + 1 == buf + k ? 0 : -EPROTO;
		}
	}
	return -EPROTO;
}

/* A refusal's reason ("-REASON\n"), printable, into why. */
static void
reason(const char *line, size_t len, char *why, size_t n)
{
	size_t i, k = 0;

	for (i = 1; i < len && k + 1 < n; i++)
		if (line[i] >= ' ' && line[i] < 127)
			why[k++] = line[i];
	why[k] = '\0';
	if (k == 0)
		snprintf(why, n, "no reason given");
}

/* Is line the listener's refusal of a's run?  -ECONNREFUSED with its
 * reason in err, else 0. */
static int
run_refused(const struct diot_ack *a, const char *line, size_t len, char *err,
            size_t errlen)
{
	char why[200];

	if (len < 2 || line[0] != '-' || line[len - 1] != '\n')
		return 0;
	reason(line, len - 1, why, sizeof(why));
	snprintf(err, errlen, "the listener at %s port %s refused the run: %s", a->host,
	         a->port, why);
	return -ECONNREFUSED;
}

size_t
diot_ack_hello_line(const struct diot_ack *a, char *out, size_t n)
{
	char cn[2 * DIOT_ACK_NONCE + 1];

	diot_hex(a->cnonce, DIOT_ACK_NONCE, cn);
	return (size_t)snprintf(out, n, "H %d %llx %s %s %s\n", DIOT_ACK_WIRE,
	                        (unsigned long long)a->run, a->join ? "join" : "open",
	                        a->plain ? DIOT_ACK_AUTH_PLAIN : DIOT_ACK_AUTH_MAC, cn);
}

size_t
diot_ack_proof_line(const struct diot_ack *a, char *out, size_t n)
{
	unsigned char t[DIOT_ACK_KEY], r[DIOT_ACK_KEY];
	char th[2 * DIOT_ACK_TOKEN_MAX + 1], rh[2 * DIOT_ACK_KEY + 1];

	if (a->plain) {
		diot_hex(a->token.key, a->token.len, th);
		return (size_t)snprintf(out, n, "P %s\n", th);
	}
	if (diot__ack_words_mac(a->token.key, a->token.len, a->join ? "join" : "open", a->run,
	                        a->cnonce, a->snonce, t) != 0)
		memset(t, 0, sizeof(t));
	diot_hex(t, sizeof(t), th);
	if (!a->join)
		return (size_t)snprintf(out, n, "P %s\n", th);
	if (diot__ack_words_mac(a->rk, DIOT_ACK_KEY, "join", a->run, a->cnonce, a->snonce,
	                        r) != 0)
		memset(r, 0, sizeof(r));
	diot_hex(r, sizeof(r), rh);
	return (size_t)snprintf(out, n, "P %s %s\n", th, rh);
}

int
diot_ack_read_challenge(struct diot_ack *a, const char *line, size_t len, char *err,
                        size_t errlen)
{
	if (run_refused(a, line, len, err, errlen) < 0)
		return -ECONNREFUSED;
	if (len == 3 + 2 * DIOT_ACK_NONCE && memcmp(line, "C ", 2) == 0 &&
	    line[len - 1] == '\n' && diot__ack_hex_exact(line + 2, 2 * DIOT_ACK_NONCE, a->snonce))
		return 0;
	snprintf(err, errlen, "the listener at %s port %s did not answer the hello of "
	         "protocol %d with a challenge", a->host, a->port, DIOT_ACK_WIRE);
	return -EPROTO;
}

int
diot_ack_read_welcome(struct diot_ack *a, const char *line, size_t len, char *err,
                      size_t errlen)
{
	unsigned char got[DIOT_ACK_KEY], want[DIOT_ACK_KEY];
	const struct diot_ack_token *t = &a->token;

	if (run_refused(a, line, len, err, errlen) < 0)
		return -ECONNREFUSED;
	if (a->plain && len == 2 && memcmp(line, "+\n", 2) == 0) {
		a->has_rk = 1;          /* plain: joined with the token itself */
		a->seq = 0;
		return 0;
	}
	if (a->plain || len != 2 + 2 * DIOT_ACK_KEY || line[0] != '+' ||
	    line[len - 1] != '\n' || !diot__ack_hex_exact(line + 1, 2 * DIOT_ACK_KEY, got) ||
	    diot__ack_words_mac(t->key, t->len, "listener", a->run, a->cnonce, a->snonce,
	                        want) != 0 || !diot_mac_equal(got, want, sizeof(got))) {
		snprintf(err, errlen, "the listener at %s port %s did not prove it has the "
		         "token: not the listener whose token this is", a->host, a->port);
		return -EPROTO;
	}
	if (diot__ack_words_mac(t->key, t->len, "session", a->run, a->cnonce, a->snonce,
	                        a->k) != 0 ||
	    (!a->join && diot__ack_words_mac(t->key, t->len, "run", a->run, a->cnonce,
	                                     a->snonce, a->rk) != 0)) {
		snprintf(err, errlen, "the MAC library failed");
		return -EIO;
	}
	a->has_rk = 1;
	a->seq = 0;
	return 0;
}

int
diot_ack_read_answer(struct diot_ack *a, const char *line, size_t len)
{
	unsigned char got[DIOT_ACK_TAG], want[DIOT_ACK_TAG];

	if (len >= 2 && line[0] == '-' && line[len - 1] == '\n') {
		reason(line, len - 1, a->why, sizeof(a->why));
		return -ECONNREFUSED;
	}
	if (a->plain ? len == 2 && memcmp(line, "+\n", 2) == 0 :
	    len == 2 + 2 * DIOT_ACK_TAG && line[0] == '+' && line[len - 1] == '\n' &&
	    diot__ack_hex_exact(line + 1, 2 * DIOT_ACK_TAG, got) &&
	    diot__ack_answer_tag(a->k, a->seq, want) == 0 &&
	    diot_mac_equal(got, want, sizeof(got))) {
		a->seq++;
		return 0;
	}
	return -EPROTO;
}

size_t
diot_ack_seal(const struct diot_ack *a, const char *line, size_t len, char *out)
{
	unsigned char tag[DIOT_ACK_TAG];

	if (len == 0 || len > DIOT_ACK_LINE_MAX)
		return 0;
	if (a->plain) {
		memcpy(out, line, len);
		return len;
	}
	if (diot__ack_record_tag(a->k, a->seq, line, len, tag) != 0)
		memset(tag, 0, sizeof(tag));
	diot_hex(tag, sizeof(tag), out);
	out[2 * DIOT_ACK_TAG] = ' ';
	memcpy(out + 2 * DIOT_ACK_TAG + 1, line, len);
	return 2 * DIOT_ACK_TAG + 1 + len;
}

/* Without a MAC library, a's connection must be between loopback
 * addresses: anyone on the path could forge its records otherwise. */
static int
plain_allowed(const struct diot_ack *a, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	if (!a->plain)
		return 0;
	if (getpeername(a->fd, (struct sockaddr *)&ss, &sl) == 0 &&
	    diot__ack_is_loopback((struct sockaddr *)&ss))
		return 0;
	snprintf(err, errlen, "built without a MAC library (configure found neither "
	         "OpenSSL's libcrypto nor libsodium): records sent to %s port %s would be "
	         "records anyone can forge; use a listener on loopback, or rebuild with "
	         "libssl-dev", a->host, a->port);
	return -EPERM;
}

/* Open or join a's run on its connection: the handshake (ack.h). */
static int
hello(struct diot_ack *a, char *err, size_t errlen)
{
	char line[2 * DIOT_ACK_TOKEN_MAX + 2 * DIOT_ACK_KEY + 16];
	size_t n;
	int r;

	if (!a->has_token) {
		snprintf(err, errlen, "no token for the listener at %s port %s", a->host,
		         a->port);
		return -EINVAL;
	}
	if ((r = plain_allowed(a, err, errlen)) < 0)
		return r;
	a->join = a->has_rk;
	if ((r = diot_random(a->cnonce, sizeof(a->cnonce))) < 0) {
		snprintf(err, errlen, "random bytes: %s", dio_strerror(r));
		return r;
	}
	n = diot_ack_hello_line(a, line, sizeof(line));
	r = diot__ack_write_all(a->fd, line, n, 1);
	if (r == 0)
		r = recv_line(a->fd, line, sizeof(line), &n);
	if (r == -ECONNRESET) {
		snprintf(err, errlen, "the listener at %s port %s cut the connection at the "
		         "hello: it may speak protocol 1 (this sender speaks protocol %d; "
		         "both ends need the same protocol)", a->host, a->port, DIOT_ACK_WIRE);
		return r;
	}
	if (r == 0)
		r = diot_ack_read_challenge(a, line, n, err, errlen);
	else
		snprintf(err, errlen, "the listener at %s port %s did not take the run's "
		         "hello: %s", a->host, a->port, dio_strerror(r));
	if (r < 0)
		return r;
	n = diot_ack_proof_line(a, line, sizeof(line));
	r = diot__ack_write_all(a->fd, line, n, 1);
	if (r == 0)
		r = recv_line(a->fd, line, sizeof(line), &n);
	if (r == 0)
		return diot_ack_read_welcome(a, line, n, err, errlen);
	snprintf(err, errlen, "the listener at %s port %s did not take the run's proof: "
	         "%s", a->host, a->port, dio_strerror(r));
	return r;
}

int
diot_ack_set_run(struct diot_ack *a, uint64_t run, char *err, size_t errlen)
{
	a->run = run;
	a->has_run = 1;
	a->has_rk = 0;
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
diot_ack_send(struct diot_ack *a, const char *line, size_t len)
{
	char wire[DIOT_ACK_WIRE_MAX], ans[128];
	size_t n;
	ssize_t r;

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
	n = diot_ack_seal(a, line, len, wire);
	r = diot__ack_write_all(a->fd, wire, n, 1);
	if (r < 0)
		return r == -EPIPE ? -ECONNRESET : (int)r;
	r = recv_line(a->fd, ans, sizeof(ans), &n);
	if (r < 0)
		return (int)r;
	return diot_ack_read_answer(a, ans, n);
}

const char *
diot_ack_strerror(const struct diot_ack *a, int r, char *buf, size_t n)
{
	if (a->kind == DIOT_ACK_TCP && r == -ECONNREFUSED)
		snprintf(buf, n, "the listener refused the record: %s",
		         a->why[0] ? a->why : "no reason given");
	else if (a->kind == DIOT_ACK_TCP && r == -EPROTO)
		snprintf(buf, n, "the listener's answer does not prove the token (not "
		         "the listener the run opened with?)");
	else if (a->kind == DIOT_ACK_TCP && r == -ETIMEDOUT)
		snprintf(buf, n, "%s (the listener did not answer a record in time)",
		         dio_strerror(r));
	else
		snprintf(buf, n, "%s", dio_strerror(r));
	return buf;
}

void
diot_ack_close(struct diot_ack *a)
{
	if (a->fd > STDERR_FILENO)
		close(a->fd);
	a->fd = -1;
	a->kind = DIOT_ACK_NONE;
}
