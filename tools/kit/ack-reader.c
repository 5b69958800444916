/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ack-reader.c -- the line reader: what a listener takes from one
 * connection's bytes (ack.h): lines, the hello first, then the proof of
 * the token (and, to join a run, of the run's key), then only records
 * whose MAC holds and that the tool's check says are records (struct
 * diot_ack_records); and the listener's lines back (the challenge, its
 * own proof, each answer).  No socket in it: tests/fuzz/ack-record.c
 * feeds it.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tools/kit/ack.h"
#include "tools/kit/ack-private.h"
#include "tools/kit/mac.h"

enum { RD_HELLO, RD_HELLO_TAKEN, RD_PROOF, RD_PROOF_TAKEN, RD_RECORDS };

/* Does p (of n bytes left) start with word w and a space?  Moves past. */
static int
word(const char **p, size_t *n, const char *w)
{
	size_t k = strlen(w);

	if (*n < k + 1 || memcmp(*p, w, k) != 0 || (*p)[k] != ' ')
		return 0;
	*p += k + 1;
	*n -= k + 1;
	return 1;
}

/* The hello: "H 2 RUNID open|join AUTH CNONCE\n", nothing else. */
int
diot_ack_hello_check(const char *line, size_t len, uint64_t *run, int *join, int *plain,
                     unsigned char *cnonce, int *version)
{
	const char *p = line;
	size_t n = len, i;
	unsigned v = 0, d;

	*version = 0;
	if (len < 3 || line[len - 1] != '\n' || !word(&p, &n, "H"))
		return 0;
	for (i = 0; i < n && i < 4 && p[i] >= '0' && p[i] <= '9'; i++)
		v = v * 10 + (unsigned)(p[i] - '0');
	if (i == 0 || i == 4 || i >= n || (p[i] != ' ' && p[i] != '\n'))
		return 0;
	if (v != DIOT_ACK_WIRE) {
		*version = (int)v;
		return 0;
	}
	p += i + 1;
	n -= i + 1;
	*run = 0;
	for (i = 0; i < n && p[i] != ' '; i++) {
		if (p[i] >= '0' && p[i] <= '9')
			d = (unsigned)(p[i] - '0');
		else if (p[i] >= 'a' && p[i] <= 'f')
			d = (unsigned)(p[i] - 'a' + 10);
		else
			return 0;
		*run = (*run << 4) | d;
	}
	if (i == 0 || i > 16 || i == n)
		return 0;
	p += i + 1;
	n -= i + 1;
	if (word(&p, &n, "open"))
		*join = 0;
	else if (word(&p, &n, "join"))
		*join = 1;
	else
		return 0;
	if (word(&p, &n, DIOT_ACK_AUTH_MAC))
		*plain = 0;
	else if (word(&p, &n, DIOT_ACK_AUTH_PLAIN))
		*plain = 1;
	else
		return 0;
	return n == 2 * DIOT_ACK_NONCE + 1 && diot__ack_hex_exact(p, 2 * DIOT_ACK_NONCE, cnonce);
}

const char *
diot_ack_bad_name(const struct diot_ack_records *rec, int why)
{
	switch (why) {
	case DIOT_ACK_BAD_LONG: return "a line longer than the longest record";
	case DIOT_ACK_BAD_NUL: return "a NUL byte in a line";
	case DIOT_ACK_BAD_RECORD: return "a line that is not a record";
	case DIOT_ACK_BAD_HELLO: return "no hello first, no proof after it, or a second "
	                                "hello";
	case DIOT_ACK_BAD_RUN: return rec != NULL && rec->other_run != NULL ? rec->other_run :
	                              "a record of another run than its hello's";
	case DIOT_ACK_BAD_VERSION: return "a hello of another protocol version";
	case DIOT_ACK_BAD_TOKEN: return "a proof without the listener's token";
	case DIOT_ACK_BAD_STOLEN: return "a run it did not open and cannot prove it joins "
	                                 "(another's run)";
	case DIOT_ACK_BAD_MAC: return "a record whose MAC fails (changed, replayed or "
	                              "reordered)";
	default: return "?";
	}
}

void
diot_ack_reader_init(struct diot_ack_reader *rd, const struct diot_ack_records *rec,
                     const struct diot_ack_token *token)
{
	memset(rd, 0, offsetof(struct diot_ack_reader, buf));
	rd->rec = rec;
	rd->token = token;
	rd->state = RD_HELLO;
}

char *
diot_ack_reader_room(struct diot_ack_reader *rd, size_t *room)
{
	if (rd->start > 0) {
		memmove(rd->buf, rd->buf + rd->start, rd->used - rd->start);
		rd->used -= rd->start;
		rd->start = 0;
	}
	*room = rd->bad ? 0 : sizeof(rd->buf) - rd->used;
	return rd->buf + rd->used;
}

void
diot_ack_reader_add(struct diot_ack_reader *rd, size_t n)
{
	rd->used += n;
}

size_t
diot_ack_reader_put(struct diot_ack_reader *rd, const void *p, size_t n)
{
	size_t room;
	char *to = diot_ack_reader_room(rd, &room);

	if (n > room)
		n = room;
	if (n)
		memcpy(to, p, n);
	rd->used += n;
	return n;
}

/* The proof line: "P HEX" (open; plain: the token), "P HEX HEX" (join). */
static int
proof_check(struct diot_ack_reader *rd, const char *p, size_t n)
{
	const size_t k = 2 * DIOT_ACK_KEY;
	int b;

	if (!word(&p, &n, "P"))
		return 0;
	n--;                    /* the newline */
	if (rd->plain) {
		b = n <= 2 * DIOT_ACK_TOKEN_MAX ? diot_unhex(p, n, rd->proof, sizeof(rd->proof)) :
		    -1;
		rd->proof_len = b > 0 ? (size_t)b : 0;
		return b > 0;
	}
	rd->proof_len = DIOT_ACK_KEY;
	if (!rd->join)
		return n == k && diot__ack_hex_exact(p, k, rd->proof);
	return n == 2 * k + 1 && p[k] == ' ' && diot__ack_hex_exact(p, k, rd->proof) &&
	       diot__ack_hex_exact(p + k + 1, k, rd->rproof);
}

/* A record line: "MAC RECORD" (or RECORD alone, plain); the MAC checked
 * against the connection's key and the record's number.  0: good. */
static int
record_mac(struct diot_ack_reader *rd, const char **p, size_t *n)
{
	unsigned char got[DIOT_ACK_TAG], want[DIOT_ACK_TAG];
	const size_t k = 2 * DIOT_ACK_TAG;

	if (rd->plain)
		return 0;
	if (*n < k + 2 || (*p)[k] != ' ' || !diot__ack_hex_exact(*p, k, got))
		return -1;
	*p += k + 1;
	*n -= k + 1;
	if (diot__ack_record_tag(rd->k, rd->seq, *p, *n, want) != 0 ||
	    !diot_mac_equal(got, want, sizeof(got)))
		return -1;
	return 0;
}

int
diot_ack_reader_next(struct diot_ack_reader *rd, const char **line, size_t *len)
{
	const char *p = rd->buf + rd->start, *nl;
	size_t n = rd->used - rd->start;
	uint64_t run = 0;
	int v;

	if (rd->bad)
		return rd->bad;
	if (rd->state == RD_HELLO_TAKEN || rd->state == RD_PROOF_TAKEN)
		return DIOT_ACK_MORE;   /* the listener's turn */
	nl = memchr(p, '\n', n);
	if (nl == NULL)
		/* No newline in a full buffer: longer than any line. */
		return n >= sizeof(rd->buf) ? (rd->bad = DIOT_ACK_BAD_LONG) : DIOT_ACK_MORE;
	n = (size_t)(nl - p) + 1;
	if (memchr(p, '\0', n) != NULL)
		return rd->bad = DIOT_ACK_BAD_NUL;
	rd->start += n;
	*line = p;
	*len = n;
	switch (rd->state) {
	case RD_HELLO:
		if (!diot_ack_hello_check(p, n, &rd->run, &rd->join, &rd->plain, rd->cnonce,
		                          &rd->version))
			return rd->bad = rd->version ? DIOT_ACK_BAD_VERSION : DIOT_ACK_BAD_HELLO;
		rd->state = RD_HELLO_TAKEN;
		return DIOT_ACK_HELLO;
	case RD_PROOF:
		if (!proof_check(rd, p, n))
			return rd->bad = DIOT_ACK_BAD_HELLO;
		rd->state = RD_PROOF_TAKEN;
		return DIOT_ACK_PROOF;
	default:
		break;
	}
	if (record_mac(rd, &p, &n) != 0)
		return rd->bad = DIOT_ACK_BAD_MAC;
	if (p[0] == 'H')
		return rd->bad = DIOT_ACK_BAD_HELLO;
	/* What is a record, the tool says; without it, nothing is. */
	v = n <= DIOT_ACK_LINE_MAX && rd->rec != NULL && rd->rec->check != NULL ?
	    rd->rec->check(p, n, &run) : DIOT_ACK_REC_NO;
	if (v == DIOT_ACK_REC_NO)
		return rd->bad = DIOT_ACK_BAD_RECORD;
	if (v == DIOT_ACK_REC_RUN && run != rd->run)
		return rd->bad = DIOT_ACK_BAD_RUN;
	rd->ends = v == DIOT_ACK_REC_END;
	rd->seq++;
	*line = p;
	*len = n;
	return DIOT_ACK_RECORD;
}

size_t
diot_ack_reader_challenge(struct diot_ack_reader *rd, const unsigned char *snonce,
                          char *out, size_t n)
{
	char hex[2 * DIOT_ACK_NONCE + 1];

	memcpy(rd->snonce, snonce, DIOT_ACK_NONCE);
	rd->state = RD_PROOF;
	diot_hex(snonce, DIOT_ACK_NONCE, hex);
	return (size_t)snprintf(out, n, "C %s\n", hex);
}

/* HMAC(key, "dio-ack 2 WHAT ...") of rd's run and nonces equals want? */
static int
proves(const struct diot_ack_reader *rd, const void *key, size_t klen, const char *what,
       const unsigned char *want)
{
	unsigned char m[DIOT_ACK_KEY];

	return diot__ack_words_mac(key, klen, what, rd->run, rd->cnonce, rd->snonce, m) == 0 &&
	       diot_mac_equal(m, want, sizeof(m));
}

int
diot_ack_reader_prove(struct diot_ack_reader *rd, const unsigned char *rk, char *out,
                      size_t n)
{
	const struct diot_ack_token *t = rd->token;
	unsigned char lp[DIOT_ACK_KEY];
	char hex[2 * DIOT_ACK_KEY + 1];

	if (rd->bad)
		return rd->bad;
	if (rd->state != RD_PROOF_TAKEN || t == NULL)
		return rd->bad = DIOT_ACK_BAD_TOKEN;
	if (rd->plain) {
		/* Loopback only (the listener checks the peer): the token itself. */
		if (rd->proof_len != t->len || !diot_mac_equal(rd->proof, t->key, t->len))
			return rd->bad = DIOT_ACK_BAD_TOKEN;
		rd->state = RD_RECORDS;
		snprintf(out, n, "+\n");
		return 0;
	}
	if (!proves(rd, t->key, t->len, rd->join ? "join" : "open", rd->proof))
		return rd->bad = DIOT_ACK_BAD_TOKEN;
	if (rd->join && (rk == NULL || !proves(rd, rk, DIOT_ACK_KEY, "join", rd->rproof)))
		return rd->bad = DIOT_ACK_BAD_STOLEN;
	if ((!rd->join && diot__ack_words_mac(t->key, t->len, "run", rd->run, rd->cnonce,
	                                      rd->snonce, rd->rk) != 0) ||
	    diot__ack_words_mac(t->key, t->len, "session", rd->run, rd->cnonce, rd->snonce,
	                        rd->k) != 0 ||
	    diot__ack_words_mac(t->key, t->len, "listener", rd->run, rd->cnonce, rd->snonce,
	                        lp) != 0)
		return rd->bad = DIOT_ACK_BAD_TOKEN;
	rd->state = RD_RECORDS;
	diot_hex(lp, sizeof(lp), hex);
	snprintf(out, n, "+%s\n", hex);
	return 0;
}

size_t
diot_ack_reader_answer(struct diot_ack_reader *rd, char *out, size_t n)
{
	unsigned char tag[DIOT_ACK_TAG];
	char hex[2 * DIOT_ACK_TAG + 1];

	if (rd->plain) {
		rd->answered++;
		return (size_t)snprintf(out, n, "+\n");
	}
	if (diot__ack_answer_tag(rd->k, rd->answered++, tag) != 0)
		memset(tag, 0, sizeof(tag));    /* fails the sender's check */
	diot_hex(tag, sizeof(tag), hex);
	return (size_t)snprintf(out, n, "+%s\n", hex);
}
