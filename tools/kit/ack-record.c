/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ack-record.c -- the record reader: what a listener takes from one
 * connection's bytes, the hello and the records' syntax checked strictly
 * (ack.h), with no socket in it (tests/fuzz/ack-record.c feeds it).
 */
#include "config.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tools/kit/ack.h"

/* A cursor over one line, its newline excluded. */
struct cur {
	const char *p, *end;
};

static int
lit(struct cur *c, const char *s)
{
	size_t n = strlen(s);

	if ((size_t)(c->end - c->p) < n || memcmp(c->p, s, n) != 0)
		return 0;
	c->p += n;
	return 1;
}

/* One of two words, then a space. */
static int
word2(struct cur *c, const char *a, const char *b)
{
	struct cur k = *c;

	if (lit(&k, a) && lit(&k, " ")) {
		*c = k;
		return 1;
	}
	k = *c;
	if (lit(&k, b) && lit(&k, " ")) {
		*c = k;
		return 1;
	}
	return 0;
}

/* A decimal number as printf writes it: no sign, no leading zero, at
 * most max; followed by a space (consumed) or the end (last). */
static int
dec(struct cur *c, uint64_t max, int last)
{
	uint64_t v = 0;
	const char *s = c->p;

	if (s == c->end || *s < '0' || *s > '9')
		return 0;
	if (*s == '0' && s + 1 < c->end && s[1] >= '0' && s[1] <= '9')
		return 0;
	for (; s < c->end && *s >= '0' && *s <= '9'; s++) {
		unsigned d = (unsigned)(*s - '0');

		if (v > (max - d) / 10)
			return 0;
		v = v * 10 + d;
	}
	c->p = s;
	return last ? c->p == c->end : lit(c, " ");
}

/* A run id: 1 to 16 hex digits, lower case. */
static int
hex(struct cur *c, uint64_t *v)
{
	const char *s = c->p;
	int n = 0;

	*v = 0;
	for (; s < c->end && ((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')); s++) {
		if (++n > 16)
			return 0;
		*v = (*v << 4) | (uint64_t)(*s <= '9' ? *s - '0' : *s - 'a' + 10);
	}
	c->p = s;
	return n > 0;
}

/* A method's name, then a space. */
static int
method(struct cur *c)
{
	const char *s = c->p;

	while (s < c->end && s - c->p < 64 && ((*s >= 'a' && *s <= 'z') ||
	       (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_' ||
	       *s == '+' || *s == '.' || *s == '-'))
		s++;
	if (s == c->p || s - c->p > 63)
		return 0;
	c->p = s;
	return lit(c, " ");
}

/* One line of len bytes, '\n' last and nowhere else, no NUL: its cursor. */
static int
one_line(const char *line, size_t len, struct cur *c)
{
	if (len < 2 || len > DIOT_ACK_LINE_MAX || line[len - 1] != '\n' ||
	    memchr(line, '\n', len - 1) != NULL || memchr(line, '\0', len) != NULL)
		return 0;
	c->p = line;
	c->end = line + len - 1;
	return 1;
}

int
diot_ack_record_check(const char *line, size_t len, uint64_t *run)
{
	const uint64_t u64 = UINT64_MAX, i32 = INT_MAX;
	struct cur c;
	uint64_t rid;

	if (!one_line(line, len, &c))
		return 0;
	switch (line[0]) {
	case '#':
		return lit(&c, "# sync-write ack-log 1") && c.p == c.end;
	case 'R':
		if (!(lit(&c, "R ") && hex(&c, &rid) && lit(&c, " ") &&
		      word2(&c, "shared", "separate") && word2(&c, "0", "1") &&
		      dec(&c, u64, 0) && c.p < c.end))   /* PATH: the rest */
			return 0;
		if (run != NULL)
			*run = rid;
		return 1;
	case 'T':                       /* BIRTH: newer senders' */
		if (!(lit(&c, "T ") && word2(&c, "file", "device") && dec(&c, u64, 0)))
			return 0;
		if (memchr(c.p, ' ', (size_t)(c.end - c.p)) == NULL)
			return dec(&c, u64, 1);
		return dec(&c, u64, 0) && dec(&c, u64, 1);
	case 'P':
		return lit(&c, "P ") && dec(&c, i32, 0) && method(&c) && dec(&c, u64, 0) &&
		       dec(&c, i32, 0) && dec(&c, u64, 1);
	case 'I':
	case 'A':
		c.p++;
		return lit(&c, " ") && dec(&c, i32, 0) && dec(&c, u64, 0) && dec(&c, u64, 1);
	case 'E':
		return len == 2;
	default:
		return 0;
	}
}

int
diot_ack_hello_check(const char *line, size_t len, uint64_t *run)
{
	struct cur c;
	char v[16];

	snprintf(v, sizeof(v), "H %d ", DIOT_ACK_WIRE);
	return one_line(line, len, &c) && lit(&c, v) && hex(&c, run) && c.p == c.end;
}

const char *
diot_ack_bad_name(int why)
{
	switch (why) {
	case DIOT_ACK_BAD_LONG: return "a line longer than the longest record";
	case DIOT_ACK_BAD_NUL: return "a NUL byte in a line";
	case DIOT_ACK_BAD_RECORD: return "a line that is not a record";
	case DIOT_ACK_BAD_HELLO: return "no hello first (a sender older than this "
	                                "listener?), or a second hello";
	case DIOT_ACK_BAD_RUN: return "an R record of another run than its hello's";
	default: return "?";
	}
}

void
diot_ack_reader_init(struct diot_ack_reader *rd)
{
	rd->hello = rd->bad = 0;
	rd->run = 0;
	rd->start = rd->used = 0;
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

int
diot_ack_reader_next(struct diot_ack_reader *rd, const char **line, size_t *len)
{
	const char *p = rd->buf + rd->start, *nl;
	size_t n = rd->used - rd->start;
	uint64_t run = 0;

	if (rd->bad)
		return rd->bad;
	nl = memchr(p, '\n', n);
	if (nl == NULL)
		/* No newline in a full buffer: longer than any record. */
		return n >= sizeof(rd->buf) ? (rd->bad = DIOT_ACK_BAD_LONG) : DIOT_ACK_MORE;
	n = (size_t)(nl - p) + 1;
	if (memchr(p, '\0', n) != NULL)
		return rd->bad = DIOT_ACK_BAD_NUL;
	if (!rd->hello) {
		if (!diot_ack_hello_check(p, n, &run))
			return rd->bad = DIOT_ACK_BAD_HELLO;
		rd->hello = 1;
		rd->run = run;
		rd->start += n;
		*line = p;
		*len = n;
		return DIOT_ACK_HELLO;
	}
	if (p[0] == 'H')
		return rd->bad = DIOT_ACK_BAD_HELLO;
	if (!diot_ack_record_check(p, n, &run))
		return rd->bad = DIOT_ACK_BAD_RECORD;
	if (p[0] == 'R' && run != rd->run)
		return rd->bad = DIOT_ACK_BAD_RUN;
	rd->start += n;
	*line = p;
	*len = n;
	return DIOT_ACK_RECORD;
}
