/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ackrec.c -- sync-write's ack-log records (ackrec.h has the format): the
 * one place that writes them and the one parser that reads them, for the
 * listener's strict check and for --check (acklog.c).  The transport --
 * a file, standard output or a listener, and the listener itself -- is
 * tools/kit/ack*.c, which knows nothing of what a record says.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tools/kit/ack.h"
#include "tools/kit/msg.h"
#include "tools/sw/ackrec.h"

/* ------------------------------------------------------------ writing */

static int DIOT_PRINTF(2, 3)
send_record(struct diot_ack *a, const char *fmt, ...)
{
	char line[DIOT_ACK_LINE_MAX];
	va_list ap;
	int n;

	if (a->kind == DIOT_ACK_NONE)
		return 0;
	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n <= 0 || (size_t)n >= sizeof(line))
		return -ENAMETOOLONG;
	return diot_ack_send(a, line, (size_t)n);
}

int
sw_ackrec_version(struct diot_ack *a)
{
	return send_record(a, "%s\n", SW_ACKREC_VERSION);
}

int
sw_ackrec_run(struct diot_ack *a, uint64_t run_id, int separate, int extend,
              uint64_t region, const char *path)
{
	return send_record(a, "R %llx %s %d %" PRIu64 " %s\n", (unsigned long long)run_id,
	                   separate ? "separate" : "shared", extend, region, path);
}

int
sw_ackrec_target(struct diot_ack *a, int is_dev, uint64_t ino, uint64_t dev_bytes,
                 uint64_t birth)
{
	return send_record(a, "T %s %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
	                   is_dev ? "device" : "file", ino, dev_bytes, birth);
}

int
sw_ackrec_point(struct diot_ack *a, int point, const char *method, uint64_t size,
                int writers, uint64_t slots)
{
	return send_record(a, "P %d %s %" PRIu64 " %d %" PRIu64 "\n", point, method, size,
	                   writers, slots);
}

int
sw_ackrec_issued(struct diot_ack *a, int writer, uint64_t seq, uint64_t off)
{
	return send_record(a, "I %d %" PRIu64 " %" PRIu64 "\n", writer, seq, off);
}

int
sw_ackrec_acked(struct diot_ack *a, int writer, uint64_t seq, uint64_t off)
{
	return send_record(a, "A %d %" PRIu64 " %" PRIu64 "\n", writer, seq, off);
}

int
sw_ackrec_end(struct diot_ack *a)
{
	return send_record(a, "E\n");
}

/* ------------------------------------------------------------ reading */

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

/* One of two words, then a space: *which is 0 for a, 1 for b. */
static int
word2(struct cur *c, const char *a, const char *b, int *which)
{
	struct cur k = *c;

	if (lit(&k, a) && lit(&k, " ")) {
		*c = k;
		*which = 0;
		return 1;
	}
	k = *c;
	if (lit(&k, b) && lit(&k, " ")) {
		*c = k;
		*which = 1;
		return 1;
	}
	return 0;
}

/* The first field (the record's letter, and whatever --check has let
 * follow it up to the space), then the space. */
static int
tag(struct cur *c, struct sw_ackrec *rec)
{
	const char *s = memchr(c->p, ' ', (size_t)(c->end - c->p));

	if (s == NULL)
		return 0;
	if (s - c->p != 1)
		rec->as_written = 0;
	c->p = s + 1;
	return 1;
}

/* A decimal number as printf writes it: no sign, no leading zero, at
 * most max; followed by a space (consumed) or the end (last). */
static int
dec(struct cur *c, uint64_t max, int last, uint64_t *out)
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
	*out = v;
	return last ? c->p == c->end : lit(c, " ");
}

/* An int-sized decimal (POINT, WRITERS, WRITER), then a space. */
static int
dec_int(struct cur *c, int *out)
{
	uint64_t v;

	if (!dec(c, INT_MAX, 0, &v))
		return 0;
	*out = (int)v;
	return 1;
}

/* A run id in hex, then a space: as written, 1 to 16 digits 0-9a-f; as
 * --check reads it, up to 20 digits of either case that fit 64 bits. */
static int
hex(struct cur *c, uint64_t *v, struct sw_ackrec *rec)
{
	const char *s = c->p;
	int n = 0, upper = 0;
	unsigned d;

	*v = 0;
	for (; s < c->end; s++) {
		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (*s >= 'a' && *s <= 'f')
			d = (unsigned)(*s - 'a' + 10);
		else if (*s >= 'A' && *s <= 'F') {
			d = (unsigned)(*s - 'A' + 10);
			upper = 1;
		} else
			break;
		if (++n > 20 || *v > (UINT64_MAX >> 4))
			return 0;
		*v = (*v << 4) | d;
	}
	if (n == 0)
		return 0;
	if (n > 16 || upper)
		rec->as_written = 0;
	c->p = s;
	return lit(c, " ");
}

/* A method's name, then a space: as written, [a-zA-Z0-9_+.-]{1,63}; as
 * --check reads it, any bytes but a space. */
static int
method(struct cur *c, struct sw_ackrec *rec)
{
	const char *s = c->p;

	for (; s < c->end && *s != ' '; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_' || *s == '+' || *s == '.' ||
		      *s == '-'))
			rec->as_written = 0;
	if (s == c->p)
		return 0;
	if (s - c->p > 63)
		rec->as_written = 0;
	rec->method = c->p;
	rec->method_len = (size_t)(s - c->p);
	c->p = s;
	return lit(c, " ");
}

int
sw_ackrec_parse(const char *line, size_t len, struct sw_ackrec *rec)
{
	struct cur c;

	memset(rec, 0, sizeof(*rec));
	rec->type = len > 0 ? (unsigned char)line[0] : 0;
	rec->as_written = 1;
	c.p = line;
	c.end = line + len;
	switch (rec->type) {
	case '#':
		return lit(&c, SW_ACKREC_VERSION) && c.p == c.end;
	case 'R':
		if (!(tag(&c, rec) && hex(&c, &rec->run_id, rec) &&
		      word2(&c, "shared", "separate", &rec->separate) &&
		      word2(&c, "0", "1", &rec->extend) &&
		      dec(&c, UINT64_MAX, 0, &rec->region) && c.p < c.end))
			return 0;
		rec->path = c.p;                /* PATH: the rest */
		rec->path_len = (size_t)(c.end - c.p);
		return 1;
	case 'T':                               /* BIRTH: newer senders' */
		if (!(tag(&c, rec) && word2(&c, "file", "device", &rec->is_dev) &&
		      dec(&c, UINT64_MAX, 0, &rec->ino)))
			return 0;
		if (memchr(c.p, ' ', (size_t)(c.end - c.p)) == NULL)
			return dec(&c, UINT64_MAX, 1, &rec->dev_bytes);
		return dec(&c, UINT64_MAX, 0, &rec->dev_bytes) &&
		       dec(&c, UINT64_MAX, 1, &rec->birth);
	case 'P':
		return tag(&c, rec) && dec_int(&c, &rec->point) && method(&c, rec) &&
		       dec(&c, UINT64_MAX, 0, &rec->size) && dec_int(&c, &rec->writers) &&
		       dec(&c, UINT64_MAX, 1, &rec->slots);
	case 'I':
	case 'A':
		return tag(&c, rec) && dec_int(&c, &rec->writer) &&
		       dec(&c, UINT64_MAX, 0, &rec->seq) && dec(&c, UINT64_MAX, 1, &rec->off);
	case 'E':
		return len == 1;
	default:
		return 0;
	}
}

int
sw_ackrec_check(const char *line, size_t len, uint64_t *run)
{
	struct sw_ackrec rec;

	if (len < 2 || len > DIOT_ACK_LINE_MAX || line[len - 1] != '\n' ||
	    memchr(line, '\n', len - 1) != NULL || memchr(line, '\0', len) != NULL)
		return DIOT_ACK_REC_NO;
	if (!sw_ackrec_parse(line, len - 1, &rec) || !rec.as_written)
		return DIOT_ACK_REC_NO;
	if (rec.type == 'R') {
		if (run != NULL)
			*run = rec.run_id;
		return DIOT_ACK_REC_RUN;
	}
	return rec.type == 'E' ? DIOT_ACK_REC_END : DIOT_ACK_REC_YES;
}

const struct diot_ack_records sw_ackrec_records = {
	sw_ackrec_check,
	"an R record of another run than its hello's"
};
