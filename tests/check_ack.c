/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_ack.c -- acknowledgement records (tools/kit/ack*.c, with
 * sync-write's records, tools/sw/ackrec.c): to a file,
 * and through a listener on this machine's loopback: a record counts only
 * once the listener's log holds it, senders in several processes each
 * with a connection, bad addresses and lines, a listener that goes away;
 * the record reader's strict syntax; a log per run when runs come at
 * once; strays, floods that never read their answers, the cap on
 * connections, a stop and a full log, none of which loses an answered
 * record or writes a torn one.
 */
#include "config.h"

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/libdirectio.h"
#include "tools/kit/ack.h"
#include "tools/kit/mac.h"
#include "tools/sw/ackrec.h"
#include "tests/testutil.h"

struct server {
	int logfd, port, ret;
	struct diot_ack_listening l;
	volatile sig_atomic_t stop;
	struct diot_ack_serve_cfg cfg;
	struct diot_ack_stats st;
	char err[256];
	char logpath[512];
	char notes[2048];
	pthread_t thr;
	volatile sig_atomic_t done;     /* diot_ack_serve() returned */
};

/* The listeners' token here (any 16 to 64 bytes would do). */
static const struct diot_ack_token tok = { 32, {
	1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
	17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32 } };

/* The port of listening socket i, from its name ("ADDRESS:PORT"). */
static int
port_of(const struct diot_ack_listening *l, int i)
{
	const char *c = strrchr(l->name[i], ':');

	return c != NULL ? atoi(c + 1) : 0;
}

static void
take_note(void *arg, const char *msg)
{
	struct server *s = arg;
	size_t n = strlen(s->notes);

	snprintf(s->notes + n, sizeof(s->notes) - n, "%s\n", msg);
}

static void *
serve(void *p)
{
	struct server *s = p;

	s->ret = diot_ack_serve(&s->cfg, &s->stop, &s->st, s->err, sizeof(s->err));
	s->done = 1;
	return NULL;
}

/* A listener on loopback logging to a new file (hello_s, stall_s: 0 for
 * the defaults); server_go() has a thread serve it. */
static void
server_init(struct server *s, int hello_s, int stall_s)
{
	memset(s, 0, sizeof(*s));
	tu_path(s->logpath, sizeof(s->logpath), tu_dir(), "acklog");
	s->logfd = open(s->logpath, O_WRONLY | O_CREAT | O_EXCL | O_APPEND, 0644);
	ck_assert_int_ge(s->logfd, 0);
	ck_assert_msg(diot_ack_listen("127.0.0.1:0", &s->l, s->err, sizeof(s->err)) == 0,
	              "listen: %s", s->err);
	s->port = port_of(&s->l, 0);
	ck_assert_int_gt(s->port, 0);
	s->cfg.lfd = s->l.fd;
	s->cfg.nlfd = s->l.n;
	s->cfg.logfd = s->logfd;
	s->cfg.logpath = s->logpath;
	s->cfg.records = &sw_ackrec_records;
	s->cfg.token = &tok;
	s->cfg.hello_s = hello_s;
	s->cfg.stall_s = stall_s;
	s->cfg.note = take_note;
	s->cfg.note_arg = s;
	s->cfg.runs = 1;        /* returns once one run has ended */
}

static void
server_go(struct server *s)
{
	ck_assert_int_eq(pthread_create(&s->thr, NULL, serve, s), 0);
}

static void
server_start_t(struct server *s, int hello_s, int stall_s)
{
	server_init(s, hello_s, stall_s);
	server_go(s);
}

static void
server_start(struct server *s)
{
	server_start_t(s, 0, 0);
}

static void
server_join(struct server *s)
{
	pthread_join(s->thr, NULL);
	diot_ack_unlisten(&s->l);
	close(s->logfd);
}

/* A sender of run `run` (its hello answered). */
static void
sender(struct diot_ack *a, int port, uint64_t run)
{
	char spec[64], err[256];

	snprintf(spec, sizeof(spec), "tcp:127.0.0.1:%d", port);
	ck_assert_msg(diot_ack_open(a, spec, err, sizeof(err)) == 0, "%s", err);
	diot_ack_set_token(a, &tok);
	ck_assert_msg(diot_ack_set_run(a, run, err, sizeof(err)) == 0, "%s", err);
}

/* Send line on a's connection sealed as the next record (its MAC), not
 * waiting for the answer. */
static void
raw_sealed(struct diot_ack *a, const char *line, size_t len)
{
	char wire[DIOT_ACK_WIRE_MAX];
	size_t n = diot_ack_seal(a, line, len, wire);

	ck_assert_uint_gt(n, 0);
	a->seq++;
	ck_assert_int_eq(send(a->fd, wire, n, MSG_NOSIGNAL), (ssize_t)n);
}

/* A raw connection: the bytes a test writes are what the listener gets. */
static int
raw(int port)
{
	char spec[64], err[256];
	struct diot_ack a;

	snprintf(spec, sizeof(spec), "tcp:127.0.0.1:%d", port);
	ck_assert_msg(diot_ack_open(&a, spec, err, sizeof(err)) == 0, "%s", err);
	return a.fd;
}

static void
raw_send(int fd, const char *s, size_t n)
{
	ck_assert_int_eq(send(fd, s, n, MSG_NOSIGNAL), (ssize_t)n);
}

/* The connection was closed by the listener (EOF or a reset), within a
 * bounded wait. */
static int
closed_by_peer(int fd)
{
	struct pollfd p = { fd, POLLIN, 0 };
	char c[64];

	for (;;) {
		if (poll(&p, 1, 20000) != 1)
			return 0;
		if (recv(fd, c, sizeof(c), 0) <= 0)
			return 1;
	}
}

static char *
slurp_str(const char *path)
{
	size_t n;
	char *b = tu_slurp(path, &n), *s = malloc(n + 1);

	ck_assert_ptr_nonnull(s);
	if (n)
		memcpy(s, b, n);
	s[n] = '\0';
	free(b);
	return s;
}

static int
count_lines(const char *s, const char *prefix)
{
	int n = 0;
	size_t pl = strlen(prefix);

	for (; *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : s + strlen(s))
		n += strncmp(s, prefix, pl) == 0;
	return n;
}

static void
spec_of(char *buf, size_t len, int port)
{
	snprintf(buf, len, "tcp:127.0.0.1:%d", port);
}

START_TEST(test_file)
{
	char path[512], err[256], *s;
	struct diot_ack a, b;

	tu_path(path, sizeof(path), tu_dir(), "ackfile");
	ck_assert_int_eq(diot_ack_open(&a, path, err, sizeof(err)), 0);
	ck_assert_int_eq(a.kind, DIOT_ACK_FILE);
	ck_assert_int_eq(a.created, 1);
	ck_assert_int_eq(diot_ack_send(&a, "A 0 1 4096\n", 11), 0);
	ck_assert_int_eq(diot_ack_send(&a, "A 0 2 8192\n", 11), 0);
	/* Not a record: no newline, a NUL inside, empty. */
	ck_assert_int_eq(diot_ack_send(&a, "A 0 3", 5), -EINVAL);
	ck_assert_int_eq(diot_ack_send(&a, "A\0 3\n", 5), -EINVAL);
	ck_assert_int_eq(diot_ack_send(&a, "", 0), -EINVAL);
	diot_ack_close(&a);
	s = slurp_str(path);
	ck_assert_str_eq(s, "A 0 1 4096\nA 0 2 8192\n");
	free(s);
	/* An existing log is refused: it is another run's record. */
	ck_assert_int_eq(diot_ack_open(&b, path, err, sizeof(err)), -EEXIST);
	ck_assert_msg(strstr(err, "exists") != NULL, "%s", err);
	unlink(path);
}
END_TEST

/* The records' syntax, strictly: what sync-write writes, nothing else. */
START_TEST(test_record_syntax)
{
	static const char *const good[] = {
		"# sync-write ack-log 1\n", "R 1a2b shared 0 65536 /tmp/f\n",
		"R ffffffffffffffff separate 1 18446744073709551615 a b  c\n", "R 0 shared 1 1 x\n",
		"T file 123 0\n", "T device 0 1073741824\n", "T file 5 0 16060082551697615120\n", "P 0 fdatasync 4096 4 16\n",
		"P 2147483647 direct+dsync 1048576 256 18446744073709551615\n",
		"P 1 rwf-dsync 4096 1 1\n", "I 0 0 0\n", "A 255 18446744073709551615 0\n",
		"A 2147483647 0 7\n", "E\n",
	};
	static const char *const bad[] = {
		"", "\n", "E", "E \n", " E\n", "E\nE\n", "# sync-write ack-log 2\n",
		"# sync-write ack-log 1 \n", "#sync-write ack-log 1\n",
		"R 1A2B shared 0 1 p\n", "R 12345678901234567 shared 0 1 p\n",
		"R 1 both 0 1 p\n", "R 1 shared 2 1 p\n", "R 1 shared 0 01 p\n",
		"R 1 shared 0 1 \n", "R 1 shared 0 1\n", "R  1 shared 0 1 p\n", "R -1 shared 0 1 p\n",
		"R 1 shared 0 18446744073709551616 p\n", "T file -1 0\n",
		"T file 1 18446744073709551616\n", "T disk 1 0\n", "T file 1 0 \n",
		"T file  1 0\n", "T file 1\n", "T file 1 0 1 \n", "T file 1 0 1 2\n", "T file 1 0 01\n", "P 0 fdat sync 4096 4 16\n", "P 2147483648 m 1 1 1\n",
		"P 0 m 1 1\n", "P 0 m\xff 1 1 1\n", "P 0  1 1 1\n", "I 0 0\n", "I 0 0 0 0\n",
		"I +1 0 0\n", "I 00 0 0\n", "A 0 0 0x10\n", "A 2147483648 0 0\n", "X 0 0 0\n",
		"H 1 ab\n", "A\t0 0 0\n", "a 0 0 0\n", "A 0 0 0\r\n", "A 0 0 0",
	};
	char m64[128], m63[128];
	uint64_t run = 0;
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		ck_assert_msg(sw_ackrec_check(good[i], strlen(good[i]), NULL),
		              "refused: %s", good[i]);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(!sw_ackrec_check(bad[i], strlen(bad[i]), NULL),
		              "accepted: %s", bad[i]);
	ck_assert(!sw_ackrec_check("A 0\0 0 0\n", 9, NULL));
	ck_assert_int_eq(sw_ackrec_check("R abc shared 0 4096 /x\n", 23, &run), DIOT_ACK_REC_RUN);
	ck_assert_int_eq(sw_ackrec_check("E\n", 2, NULL), DIOT_ACK_REC_END);
	ck_assert_int_eq(sw_ackrec_check("A 0 0 0\n", 8, NULL), DIOT_ACK_REC_YES);
	ck_assert_uint_eq(run, 0xabc);
	snprintf(m63, sizeof(m63), "P 0 %063d 1 1 1\n", 0);
	snprintf(m64, sizeof(m64), "P 0 %064d 1 1 1\n", 0);
	ck_assert(sw_ackrec_check(m63, strlen(m63), NULL));
	ck_assert(!sw_ackrec_check(m64, strlen(m64), NULL));
	{
		static const char *const hbad[] = {
			"H 2 AB open hmac-sha256 000102030405060708090a0b0c0d0e0f\n",
			"H 2 ab open hmac-sha256 000102030405060708090a0b0c0d0e0\n",
			"H 2 ab open hmac-sha256 000102030405060708090A0B0C0D0E0F\n",
			"H 2 ab opened hmac-sha256 000102030405060708090a0b0c0d0e0f\n",
			"H 2 ab open hmac 000102030405060708090a0b0c0d0e0f\n",
			"H 2  ab open plain 000102030405060708090a0b0c0d0e0f\n",
			"H 2 12345678901234567 open plain 000102030405060708090a0b0c0d0e0f\n",
			"H 2 ab open plain 000102030405060708090a0b0c0d0e0f \n",
			"H 2 ab open plain 000102030405060708090a0b0c0d0e0f", "H 2\n", "H\n",
		};
		static const char h[] =
			"H 2 ab open hmac-sha256 000102030405060708090a0b0c0d0e0f\n";
		static const char j[] = "H 2 1 join plain ffffffffffffffffffffffffffffffff\n";
		unsigned char cn[DIOT_ACK_NONCE];
		int join = -1, plain = -1, ver = -1;

		ck_assert(diot_ack_hello_check(h, strlen(h), &run, &join, &plain, cn, &ver));
		ck_assert(run == 0xab && !join && !plain && ver == 0 && cn[15] == 15);
		ck_assert(diot_ack_hello_check(j, strlen(j), &run, &join, &plain, cn, &ver));
		ck_assert(run == 1 && join && plain && cn[0] == 0xff);
		for (i = 0; i < sizeof(hbad) / sizeof(hbad[0]); i++) {
			ck_assert_msg(!diot_ack_hello_check(hbad[i], strlen(hbad[i]), &run, &join,
			                                    &plain, cn, &ver), "accepted: %s", hbad[i]);
			ck_assert_int_eq(ver, 0);
		}
		/* An older sender's hello: refused, its version told. */
		ck_assert(!diot_ack_hello_check("H 1 ab\n", 7, &run, &join, &plain, cn, &ver));
		ck_assert_int_eq(ver, 1);
		ck_assert(!diot_ack_hello_check("H 3 ab x\n", 9, &run, &join, &plain, cn, &ver));
		ck_assert_int_eq(ver, 3);
	}
}
END_TEST

/* rd through the handshake of run (open, or with plain 1 AUTH plain),
 * the hello and proof made by the kit's sender functions on a (no socket
 * in it: a then seals records for rd). */
static void
reader_open(struct diot_ack_reader *rd, const struct diot_ack_records *rec,
            struct diot_ack *a, uint64_t run, int plain)
{
	char line[512], err[256];
	unsigned char sn[DIOT_ACK_NONCE];
	const char *l;
	size_t n, ll;

	diot_ack_reader_init(rd, rec, &tok);
	memset(a, 0, sizeof(*a));
	diot_ack_set_token(a, &tok);
	a->plain = plain || !diot_ack_has_mac();
	a->run = run;
	memset(a->cnonce, 0x5a, sizeof(a->cnonce));
	n = diot_ack_hello_line(a, line, sizeof(line));
	ck_assert_uint_eq(diot_ack_reader_put(rd, line, n), n);
	ck_assert_int_eq(diot_ack_reader_next(rd, &l, &ll), DIOT_ACK_HELLO);
	ck_assert_uint_eq(rd->run, run);
	/* The listener's turn: nothing more is taken until it answers. */
	ck_assert_int_eq(diot_ack_reader_next(rd, &l, &ll), DIOT_ACK_MORE);
	memset(sn, 0xa5, sizeof(sn));
	n = diot_ack_reader_challenge(rd, sn, line, sizeof(line));
	ck_assert_int_eq(diot_ack_read_challenge(a, line, n, err, sizeof(err)), 0);
	n = diot_ack_proof_line(a, line, sizeof(line));
	ck_assert_uint_eq(diot_ack_reader_put(rd, line, n), n);
	ck_assert_int_eq(diot_ack_reader_next(rd, &l, &ll), DIOT_ACK_PROOF);
	ck_assert_int_eq(diot_ack_reader_prove(rd, NULL, line, sizeof(line)), 0);
	ck_assert_int_eq(diot_ack_read_welcome(a, line, strlen(line), err, sizeof(err)), 0);
}

/* The lines of recs (len bytes), each sealed by a as the next record; a
 * last piece without its newline as it is.  Into wire; its length. */
static size_t
sealed(struct diot_ack *a, const char *recs, size_t len, char *wire)
{
	size_t at = 0, w = 0, n;
	const char *nl;

	while (at < len) {
		nl = memchr(recs + at, '\n', len - at);
		if (nl == NULL) {
			memcpy(wire + w, recs + at, len - at);
			return w + len - at;
		}
		n = diot_ack_seal(a, recs + at, (size_t)(nl - recs - at) + 1, wire + w);
		ck_assert_uint_gt(n, 0);
		a->seq++;
		w += n;
		at = (size_t)(nl - recs) + 1;
	}
	return w;
}

/* Feed wire (len bytes) to rd n bytes at a time; the kinds it says go
 * to kinds (ending in MORE or the bad reason). */
static int
feed_wire(struct diot_ack_reader *rd, const char *wire, size_t len, size_t step, int *kinds,
          int max)
{
	size_t at = 0;
	int nk = 0, k;
	const char *line;
	size_t ll;

	for (;;) {
		size_t n = len - at < step ? len - at : step;

		at += diot_ack_reader_put(rd, wire + at, n);
		while ((k = diot_ack_reader_next(rd, &line, &ll)) > 0) {
			ck_assert(ll > 0 && line[ll - 1] == '\n');
			ck_assert_int_lt(nk, max);
			kinds[nk++] = k;
		}
		if (k < 0 || at == len) {
			kinds[nk++] = k;
			return nk;
		}
	}
}

/* Records recs of run 0xab, sealed, after the handshake. */
static int
feed(struct diot_ack_reader *rd, const char *recs, size_t len, size_t step, int *kinds,
     int max, int plain)
{
	static char wire[8 * DIOT_ACK_WIRE_MAX];
	struct diot_ack a;
	size_t n;

	reader_open(rd, &sw_ackrec_records, &a, 0xab, plain);
	n = sealed(&a, recs, len, wire);
	return feed_wire(rd, wire, n, step, kinds, max);
}

/* Bytes as they come, from the connection's first. */
static int
feed_raw(struct diot_ack_reader *rd, const char *s, size_t len, int *kinds, int max)
{
	diot_ack_reader_init(rd, &sw_ackrec_records, &tok);
	return feed_wire(rd, s, len, 100, kinds, max);
}

START_TEST(test_reader)
{
	static const char stream[] = "R ab shared 0 4096 /f\nA 0 0 0\nE\nA 0 1";
	static char wire[4 * DIOT_ACK_WIRE_MAX];
	struct diot_ack_reader *rd = malloc(sizeof(*rd));
	struct diot_ack a;
	int k[16], n, i, plain;
	size_t step, w;
	char *big;
	const char *line;
	size_t len;

	ck_assert_ptr_nonnull(rd);
	/* The same lines whatever the bytes' grouping, with MACs or plain. */
	for (plain = 0; plain < 2; plain++)
		for (step = 1; step < 2 * sizeof(stream); step++) {
			n = feed(rd, stream, sizeof(stream) - 1, step, k, 15, plain);
			ck_assert_int_eq(n, 4);
			ck_assert_int_eq(k[0], DIOT_ACK_RECORD);
			ck_assert_int_eq(k[1], DIOT_ACK_RECORD);
			ck_assert_int_eq(k[2], DIOT_ACK_RECORD);
			ck_assert_int_eq(k[3], DIOT_ACK_MORE);
			ck_assert_uint_eq(rd->run, 0xab);
			ck_assert_int_eq(rd->ends, 1);
		}
	/* What cuts the connection, and stays so. */
	n = feed_raw(rd, "A 0 0 0\n", 8, k, 15);
	ck_assert_int_eq(k[n - 1], DIOT_ACK_BAD_HELLO);
	ck_assert_int_eq(diot_ack_reader_next(rd, &line, &len), DIOT_ACK_BAD_HELLO);
	ck_assert_uint_eq(diot_ack_reader_put(rd, "E\n", 2), 0);
	ck_assert_int_eq(diot_ack_reader_next(rd, &line, &len), DIOT_ACK_BAD_HELLO);
	n = feed_raw(rd, "H 1 ab\nE\n", 9, k, 15);
	ck_assert_int_eq(k[n - 1], DIOT_ACK_BAD_VERSION);
	ck_assert_int_eq(rd->version, 1);
	n = feed(rd, "R ac shared 0 1 p\n", 18, 100, k, 15, 0);
	ck_assert_int_eq(k[n - 1], DIOT_ACK_BAD_RUN);
	n = feed(rd, "H 2 ab open plain 5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a\n", 51, 3, k, 15, 0);
	ck_assert_int_eq(k[n - 1], DIOT_ACK_BAD_HELLO);
	n = feed(rd, "A 0 0 0\nE 0\n", 12, 2, k, 15, 0);
	ck_assert_int_eq(n, 2);
	ck_assert_int_eq(k[n - 1], DIOT_ACK_BAD_RECORD);
	n = feed(rd, "A 0 \0 0\n", 8, 100, k, 15, 0);
	ck_assert_int_eq(k[n - 1], DIOT_ACK_BAD_NUL);
	/* A record changed, replayed, reordered, or without its MAC. */
	if (!diot_ack_has_mac())
		goto long_lines;        /* plain: records carry none */
	reader_open(rd, &sw_ackrec_records, &a, 0xab, 0);
	w = sealed(&a, "A 0 0 0\n", 8, wire);
	wire[w - 2] = '1';
	ck_assert_int_eq(feed_wire(rd, wire, w, 100, k, 15), 1);
	ck_assert_int_eq(k[0], DIOT_ACK_BAD_MAC);
	reader_open(rd, &sw_ackrec_records, &a, 0xab, 0);
	w = sealed(&a, "A 0 0 0\n", 8, wire);
	memcpy(wire + w, wire, w);
	n = feed_wire(rd, wire, 2 * w, 100, k, 15);
	ck_assert_int_eq(n, 2);
	ck_assert_int_eq(k[0], DIOT_ACK_RECORD);
	ck_assert_int_eq(k[1], DIOT_ACK_BAD_MAC);
	reader_open(rd, &sw_ackrec_records, &a, 0xab, 0);
	w = sealed(&a, "A 0 0 0\n", 8, wire);
	sealed(&a, "A 0 1 0\n", 8, wire + w);      /* the same length */
	memcpy(wire + 2 * w, wire, w);
	n = feed_wire(rd, wire + w, 2 * w, 100, k, 15);
	ck_assert_int_eq(k[0], DIOT_ACK_BAD_MAC);
	reader_open(rd, &sw_ackrec_records, &a, 0xab, 0);
	n = feed_wire(rd, "A 0 0 0\n", 8, 100, k, 15);
	ck_assert_int_eq(k[0], DIOT_ACK_BAD_MAC);
	/* The longest record fits; one byte more does not. */
long_lines:
	big = malloc(DIOT_ACK_WIRE_MAX + 16);
	ck_assert_ptr_nonnull(big);
	memcpy(big, "R ab shared 0 1 ", 16);
	for (i = 16; i < DIOT_ACK_LINE_MAX - 1; i++)
		big[i] = 'p';
	big[DIOT_ACK_LINE_MAX - 1] = '\n';
	n = feed(rd, big, DIOT_ACK_LINE_MAX, 1000, k, 15, 0);
	ck_assert_int_eq(n, 2);
	ck_assert_int_eq(k[0], DIOT_ACK_RECORD);
	reader_open(rd, &sw_ackrec_records, &a, 0xab, 0);
	memset(big, 'p', DIOT_ACK_WIRE_MAX + 1);
	big[DIOT_ACK_WIRE_MAX] = '\n';
	n = feed_wire(rd, big, DIOT_ACK_WIRE_MAX + 1, 1000, k, 15);
	ck_assert_int_eq(k[n - 1], DIOT_ACK_BAD_LONG);
	ck_assert_str_ne(diot_ack_bad_name(NULL, DIOT_ACK_BAD_LONG), "?");
	for (i = 1; i < DIOT_ACK_BAD_COUNT; i++)
		ck_assert_str_ne(diot_ack_bad_name(NULL, -i), "?");
	ck_assert_str_eq(diot_ack_bad_name(&sw_ackrec_records, DIOT_ACK_BAD_RUN),
	                 "an R record of another run than its hello's");
	/* Without a tool's records the reader takes none (fails closed). */
	reader_open(rd, NULL, &a, 0xab, 0);
	w = sealed(&a, "E\n", 2, wire);
	n = feed_wire(rd, wire, w, 100, k, 15);
	ck_assert_int_eq(k[0], DIOT_ACK_BAD_RECORD);
	free(big);
	free(rd);
}
END_TEST

/* The proofs: a wrong token is refused; a join needs the run's key as
 * the opener derived it (the token alone does not do); the listener's
 * answers prove the token to the sender, record by record. */
START_TEST(test_proofs)
{
	static const struct diot_ack_token other = { 16, { 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,
	                                                   9, 9, 9, 9, 9 } };
	struct diot_ack_reader *rd = malloc(sizeof(*rd));
	struct diot_ack a, w;
	unsigned char rk[DIOT_ACK_KEY], sn[DIOT_ACK_NONCE];
	char line[512], err[256], forged[80];
	const char *l;
	size_t n, ll;
	int pass;

	ck_assert_ptr_nonnull(rd);
	if (!diot_ack_has_mac()) {
		free(rd);
		return;         /* plain only: no proofs to check (test_reader) */
	}
	reader_open(rd, &sw_ackrec_records, &a, 0x77, 0);
	memcpy(rk, rd->rk, sizeof(rk));
	ck_assert(a.has_rk && memcmp(a.rk, rk, sizeof(rk)) == 0);
	/* Answers: in order, from the listener's key; a refusal's reason. */
	ck_assert_uint_eq(diot_ack_reader_answer(rd, line, sizeof(line)), 2 + 2 * DIOT_ACK_TAG);
	ck_assert_int_eq(diot_ack_read_answer(&a, line, strlen(line)), 0);
	ck_assert_uint_eq(a.seq, 1);
	ck_assert_int_eq(diot_ack_read_answer(&a, line, strlen(line)), -EPROTO);
	ck_assert_int_eq(diot_ack_read_answer(&a, "+\n", 2), -EPROTO);
	ck_assert_int_eq(diot_ack_read_answer(&a, "-log full\n", 10), -ECONNREFUSED);
	ck_assert_str_eq(a.why, "log full");
	a.kind = DIOT_ACK_TCP;
	ck_assert_str_eq(diot_ack_strerror(&a, -ECONNREFUSED, line, sizeof(line)),
	                 "the listener refused the record: log full");
	a.kind = DIOT_ACK_NONE;
	/* A listener without the token cannot welcome a sender. */
	memset(forged, '0', sizeof(forged));
	forged[0] = '+';
	forged[1 + 2 * DIOT_ACK_KEY] = '\n';
	w = a;
	w.has_rk = 0;
	ck_assert_int_eq(diot_ack_read_welcome(&w, forged, 2 + 2 * DIOT_ACK_KEY, err,
	                                       sizeof(err)), -EPROTO);
	ck_assert_msg(strstr(err, "did not prove it has the token") != NULL, "%s", err);
	ck_assert_int_eq(diot_ack_read_challenge(&w, "C 12\n", 5, err, sizeof(err)), -EPROTO);
	/* A writer joins with the run's key; wrong keys and tokens fail. */
	for (pass = 0; pass < 4; pass++) {
		w = a;          /* the handle a writer inherits */
		if (pass == 3)
			diot_ack_set_token(&w, &other);
		w.join = 1;
		memset(w.cnonce, 0x11 + pass, sizeof(w.cnonce));
		diot_ack_reader_init(rd, &sw_ackrec_records, &tok);
		n = diot_ack_hello_line(&w, line, sizeof(line));
		diot_ack_reader_put(rd, line, n);
		ck_assert_int_eq(diot_ack_reader_next(rd, &l, &ll), DIOT_ACK_HELLO);
		ck_assert(rd->join);
		memset(sn, 0x22, sizeof(sn));
		n = diot_ack_reader_challenge(rd, sn, line, sizeof(line));
		ck_assert_int_eq(diot_ack_read_challenge(&w, line, n, err, sizeof(err)), 0);
		n = diot_ack_proof_line(&w, line, sizeof(line));
		diot_ack_reader_put(rd, line, n);
		ck_assert_int_eq(diot_ack_reader_next(rd, &l, &ll), DIOT_ACK_PROOF);
		if (pass == 0) {
			ck_assert_int_eq(diot_ack_reader_prove(rd, rk, line, sizeof(line)), 0);
			ck_assert_int_eq(diot_ack_read_welcome(&w, line, strlen(line), err,
			                                       sizeof(err)), 0);
			ck_assert_uint_eq(w.seq, 0);
		} else if (pass == 1) {
			/* The token, but no run of that id: another's run. */
			ck_assert_int_eq(diot_ack_reader_prove(rd, NULL, line, sizeof(line)),
			                 DIOT_ACK_BAD_STOLEN);
		} else if (pass == 2) {
			rk[0] ^= 1;
			ck_assert_int_eq(diot_ack_reader_prove(rd, rk, line, sizeof(line)),
			                 DIOT_ACK_BAD_STOLEN);
			rk[0] ^= 1;
		} else {
			ck_assert_int_eq(diot_ack_reader_prove(rd, rk, line, sizeof(line)),
			                 DIOT_ACK_BAD_TOKEN);
		}
	}
	/* An open with another token. */
	diot_ack_reader_init(rd, &sw_ackrec_records, &other);
	a.join = 0;
	n = diot_ack_hello_line(&a, line, sizeof(line));
	diot_ack_reader_put(rd, line, n);
	ck_assert_int_eq(diot_ack_reader_next(rd, &l, &ll), DIOT_ACK_HELLO);
	n = diot_ack_reader_challenge(rd, sn, line, sizeof(line));
	ck_assert_int_eq(diot_ack_read_challenge(&a, line, n, err, sizeof(err)), 0);
	n = diot_ack_proof_line(&a, line, sizeof(line));
	diot_ack_reader_put(rd, line, n);
	ck_assert_int_eq(diot_ack_reader_next(rd, &l, &ll), DIOT_ACK_PROOF);
	ck_assert_int_eq(diot_ack_reader_prove(rd, NULL, line, sizeof(line)),
	                 DIOT_ACK_BAD_TOKEN);
	ck_assert_int_eq(diot_ack_reader_next(rd, &l, &ll), DIOT_ACK_BAD_TOKEN);
	free(rd);
}
END_TEST

/* An ack log is never waited on: a FIFO is refused (with no reader, and
 * one made after the check would fail rather than wait), so are a
 * directory and an existing log unless appending. */
START_TEST(test_open_log)
{
	char path[512], err[256];
	struct diot_ack a;
	int fd;

	tu_path(path, sizeof(path), tu_dir(), "ackfifo");
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	ck_assert_int_lt(diot_ack_open_log(path, 1, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "FIFO") != NULL, "%s", err);
	ck_assert_int_lt(diot_ack_open_log(path, 0, err, sizeof(err)), 0);
	ck_assert_int_lt(diot_ack_open(&a, path, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "FIFO") != NULL, "%s", err);
	unlink(path);
	ck_assert_int_lt(diot_ack_open_log(tu_dir(), 1, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "directory") != NULL, "%s", err);
	fd = diot_ack_open_log(path, 0, err, sizeof(err));
	ck_assert_msg(fd >= 0, "%s", err);
	ck_assert_int_eq(write(fd, "E\n", 2), 2);
	close(fd);
	ck_assert_int_eq(diot_ack_open_log(path, 0, err, sizeof(err)), -EEXIST);
	fd = diot_ack_open_log(path, 1, err, sizeof(err));
	ck_assert_msg(fd >= 0, "%s", err);
	ck_assert_int_eq(write(fd, "E\n", 2), 2);
	ck_assert_int_eq(tu_getfl(fd) & O_NONBLOCK, 0);
	close(fd);
	ck_assert_int_eq(tu_file_size(path), 4);
	unlink(path);
	fd = diot_ack_open_log("/dev/null", 1, err, sizeof(err));
	ck_assert_msg(fd >= 0, "%s", err);
	close(fd);
}
END_TEST

START_TEST(test_listener_records)
{
	char line[64], *s;
	struct diot_ack a;
	struct server srv;
	int i;

	server_start(&srv);
	sender(&a, srv.port, 0x1234);
	ck_assert_int_eq(a.kind, DIOT_ACK_TCP);
	for (i = 0; i < 200; i++) {
		int n = snprintf(line, sizeof(line), "A 0 %d %d\n", i, i * 4096);

		ck_assert_int_eq(diot_ack_send(&a, line, (size_t)n), 0);
		/* Answered, so already in the listener's log. */
		if (i % 50 == 0) {
			s = slurp_str(srv.logpath);
			ck_assert_msg(strstr(s, line) != NULL, "record %d not in the log", i);
			free(s);
		}
	}
	diot_ack_close(&a);
	server_join(&srv);      /* the only sender left: the listener ends */
	ck_assert_int_eq(srv.ret, 0);
	ck_assert_uint_eq(srv.st.connections, 1);
	ck_assert_uint_eq(srv.st.records, 200);
	ck_assert_uint_eq(srv.st.bad + srv.st.slow + srv.st.stray + srv.st.refused, 0);
	ck_assert_int_eq(srv.st.nruns, 1);
	ck_assert_uint_eq(srv.st.runs[0].id, 0x1234);
	ck_assert_int_eq(srv.st.runs[0].log, 0);
	ck_assert_uint_eq(srv.st.runs[0].records, 200);
	ck_assert_int_eq(srv.st.runs[0].ended, 0);
	s = slurp_str(srv.logpath);
	ck_assert_int_eq(count_lines(s, "A 0 "), 200);
	ck_assert_msg(strncmp(s, "A 0 0 0\nA 0 1 4096\n", 19) == 0, "%.40s", s);
	free(s);
	unlink(srv.logpath);
}
END_TEST

/* Writer processes, each with a connection of its own after fork(), each
 * saying the run again. */
START_TEST(test_listener_processes)
{
	char err[256], *s;
	struct diot_ack a;
	struct server srv;
	pid_t pid[4];
	int k, st, parent_fd;

	server_start(&srv);
	sender(&a, srv.port, 0xabc);
	ck_assert_int_eq(diot_ack_send(&a, "P 0 fdatasync 4096 4 16\n", 24), 0);
	parent_fd = a.fd;
	for (k = 0; k < 4; k++) {
		pid[k] = fork();
		ck_assert_int_ge(pid[k], 0);
		if (pid[k] == 0) {
			char line[64];
			int i, bad = 0;

			if (diot_ack_reconnect(&a, err, sizeof(err)) != 0)
				_exit(3);
			if (a.fd == parent_fd)
				_exit(5);
			for (i = 0; i < 100; i++) {
				int n = snprintf(line, sizeof(line), "A %d %d %d\n", k, i, i);

				bad |= diot_ack_send(&a, line, (size_t)n) != 0;
			}
			_exit(bad ? 4 : 0);
		}
	}
	for (k = 0; k < 4; k++) {
		ck_assert_int_eq(waitpid(pid[k], &st, 0), pid[k]);
		ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "sender %d: %d", k, st);
	}
	ck_assert_int_eq(diot_ack_send(&a, "E\n", 2), 0);
	diot_ack_close(&a);
	server_join(&srv);
	ck_assert_int_eq(srv.ret, 0);
	ck_assert_uint_eq(srv.st.connections, 5);
	ck_assert_uint_eq(srv.st.records, 402);
	ck_assert_int_eq(srv.st.nruns, 1);
	ck_assert_int_eq(srv.st.runs[0].ended, 1);
	s = slurp_str(srv.logpath);
	for (k = 0; k < 4; k++) {
		char pre[8];

		snprintf(pre, sizeof(pre), "A %d ", k);
		ck_assert_int_eq(count_lines(s, pre), 100);
	}
	ck_assert_int_eq(count_lines(s, "P 0 "), 1);
	ck_assert_int_eq(count_lines(s, "E"), 1);
	free(s);
	unlink(srv.logpath);
}
END_TEST

/* What is not a record ends the connection, unanswered and unlogged: a
 * line too long, a NUL, a line of no record's syntax, a record before the
 * hello, a hello not of this protocol, an R record of another run, a
 * second hello, a record without its MAC.  A sender of protocol 1 is told
 * both versions.  The other senders go on. */
START_TEST(test_listener_bad_lines)
{
	static const char *const bad[] = {     /* sealed, after the hello */
		"hello world\n", "A 2\0 0\n", "R 78 shared 0 4096 /f\n",
		"H 2 77 join plain 00000000000000000000000000000000\n", "A 1 5 0 \n",
		"A 1 05 0\n",
	};
	static const char *const raw_bad[] = { "A 1 5 0\n", "H 2 77\n" };
	char *big, *s, why[512], err[256];
	struct diot_ack b, w;
	struct server srv;
	size_t i;
	ssize_t got;
	int fd;

	server_start(&srv);
	sender(&b, srv.port, 0x77);
	ck_assert_int_eq(diot_ack_send(&b, "A 1 0 0\n", 8), 0);
	/* A writer's connection (it joins the run), then a line too long. */
	w = b;
	ck_assert_msg(diot_ack_reconnect(&w, err, sizeof(err)) == 0, "%s", err);
	big = malloc(DIOT_ACK_WIRE_MAX + 10);
	memset(big, 'x', DIOT_ACK_WIRE_MAX + 10);
	ck_assert_int_gt(send(w.fd, big, DIOT_ACK_WIRE_MAX + 10, MSG_NOSIGNAL), 0);
	ck_assert(closed_by_peer(w.fd));
	close(w.fd);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		w = b;
		ck_assert_msg(diot_ack_reconnect(&w, err, sizeof(err)) == 0, "%s", err);
		raw_sealed(&w, bad[i], i == 1 ? 7 : strlen(bad[i]));
		ck_assert_msg(closed_by_peer(w.fd), "'%s' not cut", bad[i]);
		close(w.fd);
		ck_assert_int_eq(diot_ack_send(&b, "A 1 1 0\n", 8), 0);
	}
	for (i = 0; i < sizeof(raw_bad) / sizeof(raw_bad[0]); i++) {
		fd = raw(srv.port);
		raw_send(fd, raw_bad[i], strlen(raw_bad[i]));
		ck_assert_msg(closed_by_peer(fd), "'%s' not cut", raw_bad[i]);
		close(fd);
		ck_assert_int_eq(diot_ack_send(&b, "A 1 1 0\n", 8), 0);
	}
	/* A record without its MAC: cut, counted apart. */
	if (diot_ack_has_mac()) {
		w = b;
		ck_assert_msg(diot_ack_reconnect(&w, err, sizeof(err)) == 0, "%s", err);
		raw_send(w.fd, "A 1 9 0\n", 8);
		ck_assert(closed_by_peer(w.fd));
		close(w.fd);
	}
	/* Protocol 1's hello: told why, in words that name both versions. */
	fd = raw(srv.port);
	raw_send(fd, "H 1 77\n", 7);
	got = recv(fd, why, sizeof(why) - 1, MSG_WAITALL);
	ck_assert_int_gt(got, 0);
	why[got] = '\0';
	ck_assert_msg(strncmp(why, "-this listener speaks ack protocol 2 (libdirectio ", 50) == 0 &&
	              strstr(why, "the sender spoke protocol 1") != NULL, "%s", why);
	close(fd);
	ck_assert_int_eq(diot_ack_send(&b, "A 1 1 0\n", 8), 0);
	diot_ack_close(&b);
	server_join(&srv);
	ck_assert_uint_eq(srv.st.bad, 1 + sizeof(bad) / sizeof(bad[0]) +
	                              sizeof(raw_bad) / sizeof(raw_bad[0]));
	ck_assert_uint_eq(srv.st.bad_mac, diot_ack_has_mac() ? 1 : 0);
	ck_assert_uint_eq(srv.st.old, 1);
	ck_assert_uint_eq(srv.st.bad_token + srv.st.stolen, 0);
	ck_assert_uint_eq(srv.st.records, 2 + sizeof(bad) / sizeof(bad[0]) +
	                                  sizeof(raw_bad) / sizeof(raw_bad[0]));
	s = slurp_str(srv.logpath);
	ck_assert_int_eq(count_lines(s, "A 1 1 0"), 1 + (int)(sizeof(bad) / sizeof(bad[0]) +
	                 sizeof(raw_bad) / sizeof(raw_bad[0])));
	ck_assert_int_eq(count_lines(s, "A 1 0 0"), 1);
	ck_assert_int_eq(count_lines(s, "A 1 9 0"), 0);
	ck_assert_msg(strstr(srv.notes, "not a record") != NULL, "%s", srv.notes);
	ck_assert_msg(!diot_ack_has_mac() || strstr(srv.notes, "MAC") != NULL, "%s", srv.notes);
	free(s);
	free(big);
	unlink(srv.logpath);
}
END_TEST

/* Two runs at once: the first run's records in the log, the second's in
 * a log of its own (LOG.RUNID), said in a note; none mixed. */
START_TEST(test_listener_two_runs)
{
	char err[256], path2[600], line[64], *s, *t;
	struct diot_ack a, a2, b, b2;
	struct server srv;
	int i, n;

	server_init(&srv, 0, 0);
	srv.cfg.runs = 2;
	server_go(&srv);
	sender(&a, srv.port, 0xa1);
	sender(&b, srv.port, 0xb2);
	ck_assert_int_eq(diot_ack_send(&a, "# sync-write ack-log 1\n", 23), 0);
	ck_assert_int_eq(diot_ack_send(&b, "# sync-write ack-log 1\n", 23), 0);
	a2 = a;
	b2 = b;
	ck_assert_msg(diot_ack_reconnect(&a2, err, sizeof(err)) == 0, "%s", err);
	ck_assert_msg(diot_ack_reconnect(&b2, err, sizeof(err)) == 0, "%s", err);
	for (i = 0; i < 50; i++) {
		n = snprintf(line, sizeof(line), "A 0 %d 0\n", i);
		ck_assert_int_eq(diot_ack_send(&a2, line, (size_t)n), 0);
		n = snprintf(line, sizeof(line), "A 1 %d 0\n", i);
		ck_assert_int_eq(diot_ack_send(&b2, line, (size_t)n), 0);
	}
	diot_ack_close(&a2);
	diot_ack_close(&b2);
	ck_assert_int_eq(diot_ack_send(&b, "E\n", 2), 0);
	ck_assert_int_eq(diot_ack_send(&a, "E\n", 2), 0);
	diot_ack_close(&b);
	diot_ack_close(&a);
	server_join(&srv);
	ck_assert_int_eq(srv.ret, 0);
	ck_assert_int_eq(srv.st.nruns, 2);
	ck_assert_int_eq(srv.st.runs[0].log, 0);
	ck_assert_int_eq(srv.st.runs[1].log, 1);
	ck_assert_uint_eq(srv.st.runs[1].id, 0xb2);
	ck_assert(srv.st.runs[0].ended && srv.st.runs[1].ended);
	snprintf(path2, sizeof(path2), "%s.b2", srv.logpath);
	ck_assert_msg(strstr(srv.notes, path2) != NULL, "%s", srv.notes);
	s = slurp_str(srv.logpath);
	t = slurp_str(path2);
	ck_assert_int_eq(count_lines(s, "A 0 "), 50);
	ck_assert_int_eq(count_lines(s, "A 1 "), 0);
	ck_assert_int_eq(count_lines(t, "A 1 "), 50);
	ck_assert_int_eq(count_lines(t, "A 0 "), 0);
	ck_assert_msg(strncmp(s, "# sync-write ack-log 1\n", 23) == 0, "%.30s", s);
	ck_assert_msg(strncmp(t, "# sync-write ack-log 1\n", 23) == 0, "%.30s", t);
	free(s);
	free(t);
	unlink(srv.logpath);
	unlink(path2);
}
END_TEST

/* A log that is not a regular file (/dev/null here, standard output in
 * the tool) takes one run: another is refused at its hello, with the
 * reason. */
START_TEST(test_listener_one_run_log)
{
	char err[256];
	struct diot_ack a, b;
	struct server srv;

	server_init(&srv, 0, 0);
	close(srv.logfd);
	unlink(srv.logpath);
	srv.logfd = open("/dev/null", O_WRONLY);
	ck_assert_int_ge(srv.logfd, 0);
	srv.cfg.logfd = srv.logfd;
	srv.cfg.logpath = "/dev/null";
	server_go(&srv);
	sender(&a, srv.port, 1);
	ck_assert_int_eq(diot_ack_send(&a, "E\n", 2), 0);
	{
		char spec[64];

		snprintf(spec, sizeof(spec), "tcp:127.0.0.1:%d", srv.port);
		ck_assert_int_eq(diot_ack_open(&b, spec, err, sizeof(err)), 0);
	}
	/* Without a token: refused here, before a word goes out. */
	ck_assert_int_eq(diot_ack_set_run(&b, 2, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "no token") != NULL, "%s", err);
	diot_ack_set_token(&b, &tok);
	ck_assert_int_eq(diot_ack_set_run(&b, 2, err, sizeof(err)), -ECONNREFUSED);
	ck_assert_msg(strstr(err, "refused the run: this listener logs one run") != NULL,
	              "%s", err);
	diot_ack_close(&b);
	ck_assert_int_eq(diot_ack_send(&a, "E\n", 2), 0);
	diot_ack_close(&a);
	server_join(&srv);
	ck_assert_int_eq(srv.ret, 0);
	ck_assert_uint_eq(srv.st.refused, 1);
	ck_assert_uint_eq(srv.st.records, 2);
}
END_TEST

/* Strays -- a connection closed at once, one that sends garbage, one that
 * says nothing -- do not end the listener (nor count as a run ended); the
 * run that comes after is served, the silent one is cut, and once the run
 * is done the listener ends. */
START_TEST(test_listener_strays)
{
	struct diot_ack a;
	struct server srv;
	struct timespec t0, t1;
	int fd, quiet;

	server_start_t(&srv, 1, 0);
	close(raw(srv.port));
	fd = raw(srv.port);
	raw_send(fd, "GET / HTTP/1.0\r\n\r\n", 18);
	ck_assert(closed_by_peer(fd));
	close(fd);
	quiet = raw(srv.port);
	sender(&a, srv.port, 0x5);     /* still there */
	ck_assert_int_eq(diot_ack_send(&a, "A 0 0 0\n", 8), 0);
	close(raw(srv.port));           /* during the run */
	ck_assert_int_eq(diot_ack_send(&a, "A 0 1 0\n", 8), 0);
	ck_assert(closed_by_peer(quiet));       /* cut at hello_s, 1 s */
	close(quiet);
	ck_assert(!srv.done);                   /* strays ended nothing */
	diot_ack_close(&a);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	server_join(&srv);              /* the run has ended */
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ck_assert_msg(t1.tv_sec - t0.tv_sec < 10, "the listener took %ld s to end",
	              (long)(t1.tv_sec - t0.tv_sec));
	ck_assert_int_eq(srv.ret, 0);
	ck_assert_uint_eq(srv.st.records, 2);
	ck_assert_uint_eq(srv.st.stray, 3);
	ck_assert_uint_eq(srv.st.bad, 1);
	unlink(srv.logpath);
}
END_TEST

/* Past the cap on connections, when every connection's run has logged,
 * a new one is refused with the reason (not closed silently: its sender
 * would blame the versions). */
START_TEST(test_listener_cap)
{
	char spec[64], err[256];
	struct diot_ack a, b, c;
	struct server srv;

	server_init(&srv, 0, 0);
	srv.cfg.max_conns = 2;
	server_go(&srv);
	sender(&a, srv.port, 1);
	ck_assert_int_eq(diot_ack_send(&a, "# sync-write ack-log 1\n", 23), 0);
	b = a;                          /* a writer of the run: it has logged */
	ck_assert_msg(diot_ack_reconnect(&b, err, sizeof(err)) == 0, "%s", err);
	snprintf(spec, sizeof(spec), "tcp:127.0.0.1:%d", srv.port);
	ck_assert_int_eq(diot_ack_open(&c, spec, err, sizeof(err)), 0);
	diot_ack_set_token(&c, &tok);
	ck_assert_int_eq(diot_ack_set_run(&c, 2, err, sizeof(err)), -ECONNREFUSED);
	ck_assert_msg(strstr(err, "refused the run: listener full: 2 connections") != NULL,
	              "%s", err);
	diot_ack_close(&c);
	ck_assert_int_eq(diot_ack_send(&b, "A 0 0 0\n", 8), 0);
	ck_assert_int_eq(diot_ack_send(&a, "E\n", 2), 0);
	diot_ack_close(&a);
	diot_ack_close(&b);
	server_join(&srv);
	ck_assert_int_eq(srv.ret, 0);
	ck_assert_uint_eq(srv.st.refused, 1);
	ck_assert_uint_eq(srv.st.idle, 0);
	ck_assert_uint_eq(srv.st.records, 3);
	unlink(srv.logpath);
}
END_TEST

/* A raw connection that says run's hello and takes its answer. */
static int
raw_hello(int port, uint64_t run)
{
	struct diot_ack a;

	sender(&a, port, run);
	return a.fd;
}

/* Connections that say a hello and nothing more: at the cap, the oldest
 * gives its place to a new one; and they do not keep the listener once
 * the run that logged is done. */
START_TEST(test_listener_idle)
{
	struct diot_ack a;
	struct server srv;
	int x, y;

	server_init(&srv, 0, 0);
	srv.cfg.max_conns = 2;
	server_go(&srv);
	x = raw_hello(srv.port, 0x70);
	y = raw_hello(srv.port, 0x71);
	sender(&a, srv.port, 0x9);     /* takes x's place */
	ck_assert(closed_by_peer(x));
	close(x);
	ck_assert_int_eq(diot_ack_send(&a, "E\n", 2), 0);
	diot_ack_close(&a);
	server_join(&srv);              /* y, silent, does not hold it */
	ck_assert(closed_by_peer(y));
	close(y);
	ck_assert_int_eq(srv.ret, 0);
	ck_assert_uint_eq(srv.st.idle, 1);
	ck_assert_uint_eq(srv.st.refused, 0);
	ck_assert_int_eq(srv.st.nruns, 1);
	ck_assert_uint_eq(srv.st.runs[0].id, 0x9);
	ck_assert_uint_eq(srv.st.runs[0].records, 1);
	unlink(srv.logpath);
}
END_TEST

/* More hellos than the listener takes runs, each closed with no record:
 * none takes a place, and a real run after them is served and ends it. */
START_TEST(test_listener_hello_runs)
{
	struct diot_ack a;
	struct server srv;
	int i;

	server_start(&srv);
	for (i = 0; i < DIOT_ACK_MAX_RUNS + 36; i++)
		close(raw_hello(srv.port, 0xdead0000u + (unsigned)i));
	sender(&a, srv.port, 0xbeef);
	ck_assert_int_eq(diot_ack_send(&a, "A 0 0 0\n", 8), 0);
	ck_assert_int_eq(diot_ack_send(&a, "E\n", 2), 0);
	diot_ack_close(&a);
	server_join(&srv);
	ck_assert_int_eq(srv.ret, 0);
	ck_assert_uint_eq(srv.st.refused, 0);
	ck_assert_int_eq(srv.st.nruns, 1);
	ck_assert_uint_eq(srv.st.runs[0].id, 0xbeef);
	ck_assert_int_eq(srv.st.runs[0].log, 0);
	ck_assert_uint_eq(srv.st.runs[0].records, 2);
	ck_assert_int_eq(srv.st.runs[0].ended, 1);
	unlink(srv.logpath);
}
END_TEST

static void
on_usr1(int sig)
{
	(void)sig;
}

/* The log is a pipe nobody reads: the listener's write waits; a stop (a
 * signal) still ends it, at once. */
START_TEST(test_listener_stop_blocked_log)
{
	char line[80], fill[512];
	struct sigaction sa;
	struct server srv;
	struct diot_ack f;
	int p[2], i, ln, full = 0, queued = -1;

	ck_assert_int_eq(pipe(p), 0);
#ifdef F_SETPIPE_SZ
	fcntl(p[1], F_SETPIPE_SZ, 4096);
#endif
	/* The pipe filled first, until a write of one byte would wait: then
	 * the listener's write of its first record waits, whatever the
	 * system.  (Records alone need not fill it to its size: Linux counts
	 * a pipe's room in pages, and a small write that does not merge into
	 * the last one's page waits with most of the pipe free.) */
	memset(fill, 'f', sizeof(fill));
	ck_assert_int_eq(fcntl(p[1], F_SETFL, fcntl(p[1], F_GETFL) | O_NONBLOCK), 0);
	for (ln = (int)sizeof(fill); ln > 0; ln = ln > 1 ? ln / 2 : 0) {
		ssize_t w;

		while ((w = write(p[1], fill, (size_t)ln)) > 0)
			full += (int)w;
		ck_assert_msg(errno == EAGAIN || errno == EWOULDBLOCK, "write: %s",
		              strerror(errno));
	}
	ck_assert_int_eq(fcntl(p[1], F_SETFL, fcntl(p[1], F_GETFL) & ~O_NONBLOCK), 0);
	ck_assert_int_gt(full, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;        /* no SA_RESTART: as sync-write's */
	sigemptyset(&sa.sa_mask);
	ck_assert_int_eq(sigaction(SIGUSR1, &sa, NULL), 0);
	server_init(&srv, 0, 0);
	close(srv.logfd);
	unlink(srv.logpath);
	srv.logfd = p[1];
	srv.cfg.logfd = p[1];
	srv.cfg.logpath = NULL;         /* as standard output */
	server_go(&srv);
	sender(&f, srv.port, 5);
	ln = snprintf(line, sizeof(line), "I 2147483647 18446744073709551615 "
	              "18446744073709551615\n");
	/* Records, their answers left unread: the first one read takes the
	 * run's log (runs[0].log 0, set just before its write), and that
	 * write waits. */
	for (i = 0; i < 4; i++)
		raw_sealed(&f, line, (size_t)ln);
	for (i = 0; i < 2000 && !(srv.st.nruns == 1 && srv.st.runs[0].log == 0); i++) {
		struct pollfd q = { -1, 0, 0 };

		poll(&q, 0, 10);
	}
	ck_assert_msg(srv.st.nruns == 1 && srv.st.runs[0].log == 0,
	              "the listener did not take the first record to its log");
	ck_assert_int_eq(ioctl(p[0], FIONREAD, &queued), 0);
	ck_assert_int_eq(queued, full);
	ck_assert_msg(!srv.done, "the listener ended with its log full");
	srv.stop = 1;
	for (i = 0; i < 500 && !srv.done; i++) {
		struct pollfd q = { -1, 0, 0 };

		pthread_kill(srv.thr, SIGUSR1);
		poll(&q, 0, 10);
	}
	ck_assert_msg(srv.done, "the listener did not stop while its log write waited");
	server_join(&srv);
	ck_assert_int_eq(srv.ret, 0);
	/* Nothing of a record written: the write waited until the stop. */
	ck_assert_int_eq(ioctl(p[0], FIONREAD, &queued), 0);
	ck_assert_int_eq(queued, full);
	ck_assert_uint_eq(srv.st.records, 0);
	close(f.fd);
	close(p[0]);
}
END_TEST

/* A client that sends records without reading the answers stops being
 * read, then is cut after the stall time; meanwhile another sender's
 * every record is answered promptly. */
START_TEST(test_listener_flood)
{
	char line[64], path2[600];
	struct diot_ack a;
	struct server srv;
	struct timespec t0, t1;
	double worst = 0;
	int i, n, st, p[2];
	pid_t pid;

	signal(SIGPIPE, SIG_IGN);
	server_init(&srv, 0, 2);
	srv.cfg.runs = 2;               /* the flood's run ends too, when cut */
	server_go(&srv);
	sender(&a, srv.port, 0x600d);  /* first: the log is its */
	ck_assert_int_eq(diot_ack_send(&a, "A 0 0 0\n", 8), 0);
	ck_assert_int_eq(pipe(p), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		/* The flood: hello, then records, never reading an answer. */
		static char chunk[8 * 8192];
		char spec[64], err[256];
		struct diot_ack f;
		int fd, k, small = 4096;

		/* Not the listener's sockets: a copy here would keep the
		 * connection open once the listener closed it. */
		for (fd = 3; fd < 1024; fd++)
			if (fd != p[1])
				close(fd);
		spec_of(spec, sizeof(spec), srv.port);
		if (diot_ack_open(&f, spec, err, sizeof(err)) != 0)
			_exit(2);
		diot_ack_set_token(&f, &tok);
		if (diot_ack_set_run(&f, 0xbad, err, sizeof(err)) != 0)
			_exit(2);
		fd = f.fd;

		/* Its answers fill its kernel's buffers sooner. */
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));
		if (write(p[1], "x", 1) != 1)
			_exit(3);
		for (;;) {
			size_t at = 0;

			/* Records sealed in order: each one the listener takes. */
			for (k = 0; k < 1024 && at + 64 < sizeof(chunk); k++) {
				at += diot_ack_seal(&f, "A 0 1 0\n", 8, chunk + at);
				f.seq++;
			}
			if (send(fd, chunk, at, MSG_NOSIGNAL) <= 0)
				break;
		}
		_exit(0);       /* cut: its sends fail */
	}
	close(p[1]);
	ck_assert_int_eq(read(p[0], line, 1), 1);
	for (i = 1; i < 300; i++) {
		double took;

		n = snprintf(line, sizeof(line), "A 0 %d 0\n", i);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		ck_assert_int_eq(diot_ack_send(&a, line, (size_t)n), 0);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		took = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
		if (took > worst)
			worst = took;
	}
	/* Well under the stall time: the flood did not hold it up. */
	ck_assert_msg(worst < 1.5, "a record waited %.2f s for its answer", worst);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);   /* cut, bounded */
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "flooder: %d", st);
	close(p[0]);
	ck_assert_int_eq(diot_ack_send(&a, "E\n", 2), 0);
	diot_ack_close(&a);
	server_join(&srv);
	ck_assert_int_eq(srv.ret, 0);
	ck_assert_uint_eq(srv.st.slow, 1);
	ck_assert_uint_eq(srv.st.runs[0].records, 301);
	snprintf(path2, sizeof(path2), "%s.bad", srv.logpath);
	unlink(path2);
	unlink(srv.logpath);
}
END_TEST

/* Stopped (a signal, in the tool): every answered record is in the log,
 * and no line begun and not finished is. */
START_TEST(test_listener_stop)
{
	char line[64], *s;
	struct diot_ack a;
	struct server srv;
	int i, n;

	server_start(&srv);
	sender(&a, srv.port, 0x57);
	for (i = 0; i < 100; i++) {
		n = snprintf(line, sizeof(line), "I 0 %d 0\n", i);
		ck_assert_int_eq(diot_ack_send(&a, line, (size_t)n), 0);
	}
	ck_assert_int_eq(send(a.fd, "A 0 99 ", 7, MSG_NOSIGNAL), 7);
	srv.stop = 1;
	server_join(&srv);
	ck_assert_int_eq(srv.ret, 0);
	diot_ack_close(&a);
	s = slurp_str(srv.logpath);
	ck_assert_int_eq(count_lines(s, "I 0 "), 100);
	ck_assert_int_eq((int)strlen(s), 10 * 8 + 90 * 9);
	ck_assert(s[strlen(s) - 1] == '\n');
	free(s);
	unlink(srv.logpath);
}
END_TEST

/* The log cannot take a record (a file size limit here; a full disk):
 * the run is refused with the reason (the listener goes on), the record
 * written in part is cut off the log again, and every record answered
 * before is there, whole. */
START_TEST(test_listener_log_full)
{
	char line[64], *s;
	struct diot_ack a;
	struct server srv;
	int i, n, st, answered = 0;
	pid_t pid;

	signal(SIGPIPE, SIG_IGN);
	memset(&srv, 0, sizeof(srv));
	tu_path(srv.logpath, sizeof(srv.logpath), tu_dir(), "acklog");
	srv.logfd = open(srv.logpath, O_WRONLY | O_CREAT | O_EXCL | O_APPEND, 0644);
	ck_assert_int_ge(srv.logfd, 0);
	ck_assert_int_eq(diot_ack_listen("127.0.0.1:0", &srv.l, srv.err, sizeof(srv.err)), 0);
	srv.port = port_of(&srv.l, 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct rlimit rl = { 205, 205 };
		struct diot_ack_serve_cfg cfg;
		static struct diot_ack_stats fst;
		int r;

		signal(SIGXFSZ, SIG_IGN);
		if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
			_exit(3);
		memset(&cfg, 0, sizeof(cfg));
		cfg.lfd = srv.l.fd;
		cfg.nlfd = srv.l.n;
		cfg.logfd = srv.logfd;
		cfg.logpath = srv.logpath;
		cfg.records = &sw_ackrec_records;
		cfg.runs = 1;
		cfg.token = &tok;
		r = diot_ack_serve(&cfg, NULL, &fst, srv.err, sizeof(srv.err));
		_exit(r == 0 && fst.failed == 1 && fst.runs[0].refused == DIOT_ACK_FAILED &&
		      strstr(fst.runs[0].why, "writing its log") &&
		      strstr(fst.runs[0].why, dio_strerror(-EFBIG)) ? 0 : 4);
	}
	sender(&a, srv.port, 0xf);
	for (i = 0; i < 100; i++) {
		n = snprintf(line, sizeof(line), "A 0 %d 4096\n", i);
		if (diot_ack_send(&a, line, (size_t)n) != 0)
			break;
		answered++;
	}
	diot_ack_close(&a);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "listener: %d", st);
	ck_assert_int_lt(answered, 100);
	s = slurp_str(srv.logpath);
	ck_assert_int_eq(count_lines(s, "A 0 "), answered);
	ck_assert(strlen(s) > 0 && s[strlen(s) - 1] == '\n');
	free(s);
	diot_ack_unlisten(&srv.l);
	close(srv.logfd);
	unlink(srv.logpath);
}
END_TEST

/* The bounds: a run whose next record would pass max_log_bytes is
 * refused from then on (its log holds what it had, whole), a run past
 * max_runs is refused at its hello, each with words naming the option;
 * the other run goes on and the listener with it.  Every record answered
 * was committed: fdatasync() calls counted, each for one or more. */
START_TEST(test_listener_bounds)
{
	char err[256], line[64], path2[600], *s;
	struct diot_ack a, b, c;
	struct server srv;
	int i, n;

	signal(SIGPIPE, SIG_IGN);
	server_init(&srv, 0, 0);
	srv.cfg.max_runs = 2;
	srv.cfg.max_log_bytes = 95;
	srv.cfg.runs = 2;
	server_go(&srv);
	sender(&a, srv.port, 0xa);
	sender(&b, srv.port, 0xb);
	for (i = 0; i < 10; i++) {      /* 8 bytes each: 80 of a's 95 */
		n = snprintf(line, sizeof(line), "A 0 %d 0\n", i);
		ck_assert_int_eq(diot_ack_send(&a, line, (size_t)n), 0);
	}
	ck_assert_int_eq(diot_ack_send(&b, "A 1 0 0\n", 8), 0);
	/* A third run: past max_runs once a and b have logged. */
	spec_of(line, sizeof(line), srv.port);
	ck_assert_int_eq(diot_ack_open(&c, line, err, sizeof(err)), 0);
	diot_ack_set_token(&c, &tok);
	ck_assert_int_eq(diot_ack_set_run(&c, 0xc, err, sizeof(err)), -ECONNREFUSED);
	ck_assert_msg(strstr(err, "bound reached: --max-runs 2") != NULL, "%s", err);
	diot_ack_close(&c);
	/* 9 more bytes pass for a (89), the next 9 would not (95 < 98). */
	ck_assert_int_eq(diot_ack_send(&a, "A 0 10 0\n", 9), 0);
	ck_assert_int_ne(diot_ack_send(&a, "A 0 11 0\n", 9), 0);
	diot_ack_close(&a);
	for (i = 1; i < 10; i++) {      /* b goes on: 8 bytes each, 80 */
		n = snprintf(line, sizeof(line), "A 1 %d 0\n", i);
		ck_assert_int_eq(diot_ack_send(&b, line, (size_t)n), 0);
	}
	diot_ack_close(&b);
	server_join(&srv);
	ck_assert_int_eq(srv.ret, 0);
	ck_assert_int_eq(srv.st.runs[0].refused, DIOT_ACK_BOUND);
	ck_assert_msg(strstr(srv.st.runs[0].why, "--max-log-bytes 95") != NULL, "%s",
	              srv.st.runs[0].why);
	ck_assert_uint_eq(srv.st.over_bytes, 1);
	ck_assert_uint_eq(srv.st.over_runs, 1);
	ck_assert_uint_eq(srv.st.failed, 0);
	s = slurp_str(srv.logpath);
	ck_assert_int_eq(count_lines(s, "A 0 "), 11);
	ck_assert_int_eq((int)strlen(s), 89);
	free(s);
	/* Every record logged was committed, and the calls were counted. */
	ck_assert_uint_eq(srv.st.committed, srv.st.records);
	ck_assert(srv.st.commits > 0 && srv.st.commits <= srv.st.records);
	snprintf(path2, sizeof(path2), "%s.b", srv.logpath);
	s = slurp_str(path2);
	ck_assert_int_eq(count_lines(s, "A 1 "), 10);
	free(s);
	unlink(path2);
	unlink(srv.logpath);
}
END_TEST

/* The listener stops: the next record fails, it is not counted. */
START_TEST(test_listener_gone)
{
	char spec[64], err[256];
	struct diot_ack a;
	struct server srv;
	int r;

	signal(SIGPIPE, SIG_IGN);
	server_start(&srv);
	spec_of(spec, sizeof(spec), srv.port);
	sender(&a, srv.port, 9);
	ck_assert_int_eq(diot_ack_send(&a, "A 0 0 0\n", 8), 0);
	srv.stop = 1;
	server_join(&srv);
	r = diot_ack_send(&a, "A 0 1 0\n", 8);
	ck_assert_msg(r == -ECONNRESET || r == -EPIPE, "send after the listener ended: %d", r);
	diot_ack_close(&a);
	/* Nobody listens there any more. */
	r = diot_ack_open(&a, spec, err, sizeof(err));
	ck_assert_int_eq(r, -ECONNREFUSED);
	ck_assert_msg(strstr(err, "cannot connect to the listener") != NULL, "%s", err);
	unlink(srv.logpath);
}
END_TEST

/* A listener that takes the connection but never answers (hung, stopped,
 * or a silent network): the send fails after the answer time, it does not
 * wait for ever. */
START_TEST(test_listener_silent)
{
	char spec[64], err[256];
	struct diot_ack a;
	struct timespec t0, t1;
	double took;
	struct diot_ack_listening l;
	int port, r, first;

	/* Listens, never accepts. */
	ck_assert_msg(diot_ack_listen("127.0.0.1:0", &l, err, sizeof(err)) == 0, "%s", err);
	port = port_of(&l, 0);
	spec_of(spec, sizeof(spec), port);
	ck_assert_msg(diot_ack_open(&a, spec, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(a.answer_s, DIOT_ACK_ANSWER_S);
	ck_assert_int_eq(diot_ack_set_answer_time(&a, 0), -EINVAL);
	ck_assert_int_eq(diot_ack_set_answer_time(&a, 3601), -EINVAL);
	ck_assert_int_eq(diot_ack_set_answer_time(&a, 1), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	r = diot_ack_send(&a, "A 0 0 0\n", 8);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	took = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	ck_assert_int_eq(r, -ETIMEDOUT);
	ck_assert_msg(took >= 0.9 && took < 10, "the send gave up after %.2f s, want ~1", took);
	/* A connection made for a writer keeps the handle's answer time. */
	first = a.fd;
	ck_assert_msg(diot_ack_reconnect(&a, err, sizeof(err)) == 0, "%s", err);
	close(first);
	ck_assert_int_eq(diot_ack_send(&a, "A 0 0 0\n", 8), -ETIMEDOUT);
	diot_ack_close(&a);
	diot_ack_unlisten(&l);
}
END_TEST

START_TEST(test_addresses)
{
	static const char *const bad[] = {
		"tcp:", "tcp:host", "tcp::7070", "tcp:host:", "tcp:host:0", "tcp:host:65536",
		"tcp:host:7x", "tcp:[::1", "tcp:[::1]7070", "tcp:[]:7070", "tcp:a:b:7070",
	};
	char err[256];
	struct diot_ack_listening l;
	struct diot_ack a;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		ck_assert_msg(diot_ack_open(&a, bad[i], err, sizeof(err)) == -EINVAL,
		              "'%s' accepted", bad[i]);
		ck_assert_msg(err[0] != '\0', "'%s': no message", bad[i]);
	}
	ck_assert(diot_ack_is_tcp("tcp:h:1"));
	ck_assert(!diot_ack_is_tcp("./tcp:h:1"));
	ck_assert_int_eq(diot_ack_listen("70000", &l, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(diot_ack_listen("x", &l, err, sizeof(err)), -EINVAL);
	/* IPv6 loopback where the machine has it. */
	if (diot_ack_listen("[::1]:0", &l, err, sizeof(err)) == 0) {
		ck_assert_int_eq(l.n, 1);
		ck_assert_int_gt(port_of(&l, 0), 0);
		ck_assert_msg(strncmp(l.name[0], "[::1]:", 6) == 0, "%s", l.name[0]);
		ck_assert(l.loopback[0]);
		diot_ack_unlisten(&l);
	}
	/* A port alone: loopback only, both families where there are both,
	 * one port on each; never a wildcard address. */
	ck_assert_msg(diot_ack_listen("0", &l, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_ge(l.n, 1);
	ck_assert_msg(strncmp(l.name[0], "127.0.0.1:", 10) == 0, "%s", l.name[0]);
	for (i = 0; i < (size_t)l.n; i++) {
		ck_assert_msg(l.loopback[i], "%s is not loopback", l.name[i]);
		ck_assert_int_eq(port_of(&l, (int)i), port_of(&l, 0));
	}
	ck_assert_msg(l.n == 2 || l.note[0] != '\0', "one socket and no word why");
	diot_ack_unlisten(&l);
	/* 0.0.0.0 only when named, and then said as it is. */
	ck_assert_msg(diot_ack_listen("0.0.0.0:0", &l, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(l.n, 1);
	ck_assert_msg(strncmp(l.name[0], "0.0.0.0:", 8) == 0, "%s", l.name[0]);
	ck_assert(!l.loopback[0]);
	diot_ack_unlisten(&l);
	/* A port in use is refused with the reason. */
	ck_assert_int_eq(diot_ack_listen("127.0.0.1:0", &l, err, sizeof(err)), 0);
	{
		struct diot_ack_listening l2;
		char spec[32];

		snprintf(spec, sizeof(spec), "127.0.0.1:%d", port_of(&l, 0));
		ck_assert_int_eq(diot_ack_listen(spec, &l2, err, sizeof(err)), -EADDRINUSE);
		ck_assert_msg(strstr(err, "--listen") != NULL, "%s", err);
		/* And so is a port alone, whose 127.0.0.1 is taken. */
		ck_assert_int_eq(diot_ack_listen(spec + 10, &l2, err, sizeof(err)), -EADDRINUSE);
	}
	diot_ack_unlisten(&l);
}
END_TEST

/* Connections that lack the token, or the run's key, are refused with
 * the reason and counted; nothing of theirs is logged; the run goes on. */
START_TEST(test_listener_auth)
{
	static const struct diot_ack_token other = { 16, { 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
	                                                   7, 7, 7, 7, 7 } };
	char spec[64], err[512], path2[600], *s;
	struct diot_ack a, x;
	struct server srv;

	server_init(&srv, 0, 0);
	srv.cfg.runs = 2;       /* 0x44's and 0x42's */
	server_go(&srv);
	sender(&a, srv.port, 0x42);
	ck_assert_int_eq(diot_ack_send(&a, "A 0 0 0\n", 8), 0);
	spec_of(spec, sizeof(spec), srv.port);
	/* The token, and a run id seen in a log: cannot open it again... */
	ck_assert_int_eq(diot_ack_open(&x, spec, err, sizeof(err)), 0);
	diot_ack_set_token(&x, &tok);
	ck_assert_int_eq(diot_ack_set_run(&x, 0x42, err, sizeof(err)), -ECONNREFUSED);
	ck_assert_msg(strstr(err, "run 42 is already open") != NULL, "%s", err);
	diot_ack_close(&x);
	/* ...nor join it without the run's key. */
	if (diot_ack_has_mac()) {
		ck_assert_int_eq(diot_ack_open(&x, spec, err, sizeof(err)), 0);
		diot_ack_set_token(&x, &tok);
		x.run = 0x42;
		x.has_run = 1;
		x.has_rk = 1;
		memset(x.rk, 0x33, sizeof(x.rk));
		close(x.fd);
		ck_assert_int_eq(diot_ack_reconnect(&x, err, sizeof(err)), -ECONNREFUSED);
		ck_assert_msg(strstr(err, "does not prove the run's key") != NULL, "%s", err);
	}
	/* Another token. */
	ck_assert_int_eq(diot_ack_open(&x, spec, err, sizeof(err)), 0);
	diot_ack_set_token(&x, &other);
	ck_assert_int_eq(diot_ack_set_run(&x, 0x43, err, sizeof(err)), -ECONNREFUSED);
	ck_assert_msg(strstr(err, "does not show this listener's token") != NULL, "%s", err);
	diot_ack_close(&x);
	/* Plain, from loopback: taken (a sender built without a MAC library). */
	ck_assert_int_eq(diot_ack_open(&x, spec, err, sizeof(err)), 0);
	diot_ack_set_token(&x, &tok);
	x.plain = 1;
	ck_assert_msg(diot_ack_set_run(&x, 0x44, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(diot_ack_send(&x, "A 0 5 0\n", 8), 0);
	diot_ack_close(&x);
	ck_assert_int_eq(diot_ack_send(&a, "E\n", 2), 0);
	diot_ack_close(&a);
	server_join(&srv);
	ck_assert_int_eq(srv.ret, 0);
	ck_assert_uint_eq(srv.st.stolen, diot_ack_has_mac() ? 2 : 1);
	ck_assert_uint_eq(srv.st.bad_token, 1);
	ck_assert_uint_eq(srv.st.records, 3);
	s = slurp_str(srv.logpath);
	ck_assert_str_eq(s, "A 0 0 0\nE\n");
	free(s);
	unlink(srv.logpath);
	snprintf(path2, sizeof(path2), "%s.44", srv.logpath);
	s = slurp_str(path2);
	ck_assert_str_eq(s, "A 0 5 0\n");
	free(s);
	unlink(path2);
}
END_TEST

/* The fuzz seeds of the ack harnesses are today's protocol, whole: each
 * connection of tests/fuzz/corpus/ack-record/ is taken to its last byte by
 * a reader as tests/fuzz/ack-record.c drives it, and each listener's talk
 * of corpus/ack-answer/ read by a sender as ack-answer.c does, to a last
 * line that is an answer or a refusal.  (A seed refused early tests
 * nothing past where it stops: remake them with tests/fuzz/ack-seeds.py.) */
START_TEST(test_fuzz_seeds)
{
	const char *top = getenv("top_srcdir");
	unsigned char sn[DIOT_ACK_NONCE], rk[DIOT_ACK_KEY];
	struct diot_ack_reader *rd = malloc(sizeof(*rd));
	char dir[4096], path[4400], out[128], err[256];
	struct dirent *e;
	int h, seeds = 0;
	DIR *d;

	ck_assert_ptr_nonnull(rd);
	memset(sn, 0xa5, sizeof(sn));
	memset(rk, 0x33, sizeof(rk));
	for (h = 0; h < 2; h++) {
		snprintf(dir, sizeof(dir), "%s/tests/fuzz/corpus/%s", top ? top : ".",
		         h ? "ack-answer" : "ack-record");
		d = opendir(dir);
		ck_assert_msg(d != NULL, "%s: %s", dir, strerror(errno));
		while ((e = readdir(d)) != NULL) {
			const char *line;
			size_t n, len, at = 0;
			char *b;
			int k, step = 0, r = 0, plain = strstr(e->d_name, "plain") != NULL;

			if (e->d_name[0] == '.' || strcmp(e->d_name, "bad") == 0)
				continue;       /* (bad/: inputs to be refused) */
			if (!plain && strstr(e->d_name, "run-refused") == NULL &&
			    !diot_ack_has_mac())
				continue;       /* with MACs: this build cannot make them */
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			b = tu_slurp(path, &n);
			seeds++;
			if (h == 0) {
				diot_ack_reader_init(rd, &sw_ackrec_records, &tok);
				ck_assert_uint_eq(diot_ack_reader_put(rd, b, n), n);
				while ((k = diot_ack_reader_next(rd, &line, &len)) > 0) {
					if (k == DIOT_ACK_HELLO)
						diot_ack_reader_challenge(rd, sn, out, sizeof(out));
					else if (k == DIOT_ACK_PROOF)
						ck_assert_msg(diot_ack_reader_prove(rd, rk, out,
						              sizeof(out)) == 0, "%s: proof", path);
					else
						diot_ack_reader_answer(rd, out, sizeof(out));
				}
				ck_assert_msg(k == DIOT_ACK_MORE && rd->start == rd->used &&
				              rd->seq > 0, "%s: cut (%d) after %llu records", path, k,
				              (unsigned long long)rd->seq);
			} else {
				struct diot_ack a;

				memset(&a, 0, sizeof(a));
				diot_ack_set_token(&a, &tok);
				a.plain = plain;
				a.run = 0xab;
				memset(a.cnonce, 0x5a, sizeof(a.cnonce));
				while (at < n && r == 0) {
					const char *nl = memchr(b + at, '\n', n - at);

					len = nl ? (size_t)(nl - b - at) + 1 : n - at;
					r = step == 0 ? diot_ack_read_challenge(&a, b + at, len, err, sizeof(err)) :
					    step == 1 ? diot_ack_read_welcome(&a, b + at, len, err, sizeof(err)) :
					    diot_ack_read_answer(&a, b + at, len);
					at += len;
					step++;
				}
				ck_assert_msg(at == n && (r == 0 || (r == -ECONNREFUSED &&
				              b[n - len] == '-')), "%s: line %d refused (%d)", path, step,
				              r);
			}
			free(b);
		}
		closedir(d);
	}
	ck_assert_int_ge(seeds, diot_ack_has_mac() ? 8 : 3);
	free(rd);
}
END_TEST

/* HMAC-SHA-256 against RFC 4231's test case 2, and the hex and compare
 * helpers around it. */
START_TEST(test_mac)
{
	static const char want[] =
		"5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843";
	unsigned char m[DIOT_MAC_LEN], b[4], r1[16], r2[16];
	char hex[2 * DIOT_MAC_LEN + 1];
	int e;

	unsigned char k20[20], k131[131];

	e = diot_mac("Jefe", 4, "what do ya want for nothing?", 28, m);
	if (diot_mac_library() == NULL) {
		ck_assert_int_eq(e, -ENOSYS);
	} else {
		ck_assert_int_eq(e, 0);
		diot_hex(m, sizeof(m), hex);
		ck_assert_str_eq(hex, want);
		/* Test case 1 (a 20-byte key), 6 (a key longer than a block). */
		memset(k20, 0x0b, sizeof(k20));
		ck_assert_int_eq(diot_mac(k20, sizeof(k20), "Hi There", 8, m), 0);
		diot_hex(m, sizeof(m), hex);
		ck_assert_str_eq(hex, "b0344c61d8db38535ca8afceaf0bf12b"
		                      "881dc200c9833da726e9376c2e32cff7");
		memset(k131, 0xaa, sizeof(k131));
		ck_assert_int_eq(diot_mac(k131, sizeof(k131), "Test Using Larger Than Block-Size "
		                          "Key - Hash Key First", 54, m), 0);
		diot_hex(m, sizeof(m), hex);
		ck_assert_str_eq(hex, "60e431591ee0b67f0d8a26aacbf5b77f"
		                      "8e0bc6213728c5140546040f0ee37f54");
	}
	ck_assert_int_eq(diot_unhex("0aFf", 4, b, sizeof(b)), 2);
	ck_assert(b[0] == 0x0a && b[1] == 0xff);
	ck_assert_int_eq(diot_unhex("0aF", 3, b, sizeof(b)), -1);
	ck_assert_int_eq(diot_unhex("0g", 2, b, sizeof(b)), -1);
	ck_assert_int_eq(diot_unhex("0011223344", 10, b, sizeof(b)), -1);
	ck_assert(diot_mac_equal("abcd", "abcd", 4));
	ck_assert(!diot_mac_equal("abcd", "abce", 4));
	ck_assert_int_eq(diot_random(r1, sizeof(r1)), 0);
	ck_assert_int_eq(diot_random(r2, sizeof(r2)), 0);
	ck_assert(!diot_mac_equal(r1, r2, sizeof(r1)));
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("ack");
	TCase *tc = tcase_create("ack");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_mac);
	tcase_add_test(tc, test_fuzz_seeds);
	tcase_add_test(tc, test_file);
	tcase_add_test(tc, test_record_syntax);
	tcase_add_test(tc, test_reader);
	tcase_add_test(tc, test_proofs);
	tcase_add_test(tc, test_open_log);
	tcase_add_test(tc, test_listener_records);
	tcase_add_test(tc, test_listener_processes);
	tcase_add_test(tc, test_listener_bad_lines);
	tcase_add_test(tc, test_listener_auth);
	tcase_add_test(tc, test_listener_two_runs);
	tcase_add_test(tc, test_listener_one_run_log);
	tcase_add_test(tc, test_listener_strays);
	tcase_add_test(tc, test_listener_cap);
	tcase_add_test(tc, test_listener_idle);
	tcase_add_test(tc, test_listener_hello_runs);
	tcase_add_test(tc, test_listener_stop_blocked_log);
	tcase_add_test(tc, test_listener_flood);
	tcase_add_test(tc, test_listener_stop);
	tcase_add_test(tc, test_listener_log_full);
	tcase_add_test(tc, test_listener_bounds);
	tcase_add_test(tc, test_listener_gone);
	tcase_add_test(tc, test_listener_silent);
	tcase_add_test(tc, test_addresses);
	suite_add_tcase(s, tc);
	return tu_run(srunner_create(s));
}
