/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ack-reader.c -- the line reader: what a listener takes from one
 * connection's bytes (ack.h): lines, the hello first, then only what the
 * tool's check says is a record (struct diot_ack_records); no socket in
 * it (tests/fuzz/ack-record.c feeds it).
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tools/kit/ack.h"

/* The hello: "H 1 ", then the run id in 1 to 16 hex digits, lower case,
 * then the newline; nothing else. */
int
diot_ack_hello_check(const char *line, size_t len, uint64_t *run)
{
	char v[16];
	size_t k = (size_t)snprintf(v, sizeof(v), "H %d ", DIOT_ACK_WIRE), i;
	unsigned d;

	if (len < k + 2 || len - 1 - k > 16 || memcmp(line, v, k) != 0 ||
	    line[len - 1] != '\n')
		return 0;
	*run = 0;
	for (i = k; i < len - 1; i++) {
		if (line[i] >= '0' && line[i] <= '9')
			d = (unsigned)(line[i] - '0');
		else if (line[i] >= 'a' && line[i] <= 'f')
			d = (unsigned)(line[i] - 'a' + 10);
		else
			return 0;
		*run = (*run << 4) | d;
	}
	return 1;
}

const char *
diot_ack_bad_name(const struct diot_ack_records *rec, int why)
{
	switch (why) {
	case DIOT_ACK_BAD_LONG: return "a line longer than the longest record";
	case DIOT_ACK_BAD_NUL: return "a NUL byte in a line";
	case DIOT_ACK_BAD_RECORD: return "a line that is not a record";
	case DIOT_ACK_BAD_HELLO: return "no hello first (a sender older than this "
	                                "listener?), or a second hello";
	case DIOT_ACK_BAD_RUN: return rec != NULL && rec->other_run != NULL ? rec->other_run :
	                              "a record of another run than its hello's";
	default: return "?";
	}
}

void
diot_ack_reader_init(struct diot_ack_reader *rd, const struct diot_ack_records *rec)
{
	rd->rec = rec;
	rd->hello = rd->bad = rd->ends = 0;
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
	int v;

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
	/* What is a record, the tool says; without it, nothing is. */
	v = rd->rec != NULL && rd->rec->check != NULL ? rd->rec->check(p, n, &run) :
	    DIOT_ACK_REC_NO;
	if (v == DIOT_ACK_REC_NO)
		return rd->bad = DIOT_ACK_BAD_RECORD;
	if (v == DIOT_ACK_REC_RUN && run != rd->run)
		return rd->bad = DIOT_ACK_BAD_RUN;
	rd->ends = v == DIOT_ACK_REC_END;
	rd->start += n;
	*line = p;
	*len = n;
	return DIOT_ACK_RECORD;
}
