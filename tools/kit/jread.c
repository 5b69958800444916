/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * jread.c -- the JSON reader of jread.h: recursive descent over the text,
 * one value per call, run twice over the same text.  The first reading
 * checks everything and counts what is kept (values, bytes of strings,
 * and the size of each container, in the order they open); the second
 * fills one allocation of exactly that size, each container's elements
 * side by side, reserved when it opens.  Errors can only happen in the
 * first reading.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/kit/jread.h"

#define KEYCUT 64         /* a member's name as a path step: 63 bytes */

struct jp {
	const char *s;
	size_t n, i;
	int depth;
	int fill;                          /* the second reading           */
	int rc;                            /* the first error's code       */
	char *err;
	size_t errlen;
	diot_jr_keep_fn keep;
	void *arg;
	/* What is kept: counted by the first reading. */
	size_t nodes, strbytes;
	uint32_t *sizes;                   /* each kept container's, in order */
	size_t nsizes, capsizes, next_size;
	/* The allocation the second reading fills. */
	struct diot_jr *base;
	size_t next_node;
	char *str;
	size_t next_str;
	/* Where the reading is, for the keep function and for messages. */
	struct diot_jr_step path[DIOT_JR_MAX_DEPTH + 1];
	char keys[DIOT_JR_MAX_DEPTH + 1][KEYCUT];
	int npath;
};

/* The path as text: points[2].aggregate.mb_per_s (empty at the top). */
static void
path_text(const struct jp *p, char *b, size_t len)
{
	size_t at = 0;
	int k;

	b[0] = '\0';
	for (k = 0; k < p->npath && at < len; k++) {
		int w;

		if (p->path[k].key != NULL)
			w = snprintf(b + at, len - at, "%s%s", at ? "." : "", p->path[k].key);
		else
			w = snprintf(b + at, len - at, "[%zu]", p->path[k].index);
		if (w < 0)
			break;
		at += (size_t)w;
	}
}

/* Record the first error, with the line and column of the current place. */
static int
fail(struct jp *p, int code, const char *fmt, ...)
{
	size_t k, line = 1, col = 1;
	char what[200];
	va_list ap;

	if (p->rc != 0)
		return -1;
	p->rc = code;
	for (k = 0; k < p->i && k < p->n; k++) {
		if (p->s[k] == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(p->err, p->errlen, "line %zu, column %zu: %s", line, col, what);
	return -1;
}

static void
skip_ws(struct jp *p)
{
	while (p->i < p->n && (p->s[p->i] == ' ' || p->s[p->i] == '\t' ||
	                       p->s[p->i] == '\n' || p->s[p->i] == '\r'))
		p->i++;
}

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The code point cp as UTF-8 in b; returns its length. */
static size_t
put_utf8(char *b, unsigned long cp)
{
	if (cp < 0x80) {
		b[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		b[0] = (char)(0xc0 | (cp >> 6));
		b[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		b[0] = (char)(0xe0 | (cp >> 12));
		b[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	b[0] = (char)(0xf0 | (cp >> 18));
	b[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	b[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	b[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

static int
hex4(struct jp *p, unsigned long *v)
{
	int k;

	*v = 0;
	for (k = 0; k < 4; k++, p->i++) {
		char c = p->i < p->n ? p->s[p->i] : '\0';
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
		        c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;

		if (d < 0)
			return fail(p, -EINVAL, "\\u needs four hexadecimal digits");
		*v = *v * 16 + (unsigned long)d;
	}
	return 0;
}

/* The escape after a backslash (p->i on the letter), decoded into b
 * (at most 4 bytes); returns its length, or -1. */
static int
escape(struct jp *p, char *b)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *e;
	unsigned long cp, lo;
	char c = p->i < p->n ? p->s[p->i] : '\0';

	if (c != '\0' && c != 'u' && (e = strchr(from, c)) != NULL) {
		b[0] = to[e - from];
		p->i++;
		return 1;
	}
	if (c != 'u')
		return fail(p, -EINVAL, "unknown escape in a string (allowed: \\\" \\\\ \\/ \\b "
		            "\\f \\n \\r \\t \\uXXXX)");
	p->i++;
	if (hex4(p, &cp) < 0)
		return -1;
	if (cp >= 0xdc00 && cp <= 0xdfff)
		return fail(p, -EINVAL, "a lone low surrogate \\u%04lx", cp);
	if (cp >= 0xd800 && cp <= 0xdbff) {
		if (p->i + 1 >= p->n || p->s[p->i] != '\\' || p->s[p->i + 1] != 'u')
			return fail(p, -EINVAL, "a high surrogate without its low half");
		p->i += 2;
		if (hex4(p, &lo) < 0)
			return -1;
		if (lo < 0xdc00 || lo > 0xdfff)
			return fail(p, -EINVAL, "a high surrogate without its low half");
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	}
	if (cp == 0)
		return fail(p, -EINVAL, "a string holds NUL (\\u0000), which is not accepted "
		            "here");
	return (int)put_utf8(b, cp);
}

/*
 * A string (p->i on the opening quote), decoded: its first cap - 1 bytes
 * into dst (if not NULL) and a NUL after them.  Returns the whole decoded
 * length (the raw text's at most), or -1.
 */
static long
string(struct jp *p, char *dst, size_t cap)
{
	size_t start = p->i, len = 0;
	char b[4];

	for (p->i++;;) {
		unsigned char c;
		int l = 1;

		if (p->i >= p->n) {
			p->i = start;
			return fail(p, -EINVAL, "a string that is never closed");
		}
		c = (unsigned char)p->s[p->i];
		if (c == '"')
			break;
		if (c < 0x20)
			return fail(p, -EINVAL, "a control character (0x%02x) inside a string", c);
		if (c == '\\') {
			p->i++;
			if ((l = escape(p, b)) < 0)
				return -1;
		} else {
			b[0] = (char)c;
			p->i++;
		}
		if (dst != NULL && len + (size_t)l < cap)
			memcpy(dst + len, b, (size_t)l);
		len += (size_t)l;
	}
	p->i++;
	if (dst != NULL && cap > 0)
		dst[len < cap ? len : cap - 1] = '\0';
	return (long)len;
}

static int
number(struct jp *p, double *out)
{
	size_t start = p->i;
	char buf[64], where[300];

	if (p->i < p->n && p->s[p->i] == '-')
		p->i++;
	if (p->i >= p->n || !is_digit(p->s[p->i]))
		return fail(p, -EINVAL, "a number needs a digit here");
	if (p->s[p->i] == '0' && p->i + 1 < p->n && is_digit(p->s[p->i + 1]))
		return fail(p, -EINVAL, "a number with a leading zero");
	while (p->i < p->n && is_digit(p->s[p->i]))
		p->i++;
	if (p->i < p->n && p->s[p->i] == '.') {
		p->i++;
		if (p->i >= p->n || !is_digit(p->s[p->i]))
			return fail(p, -EINVAL, "a digit must follow the decimal point");
		while (p->i < p->n && is_digit(p->s[p->i]))
			p->i++;
	}
	if (p->i < p->n && (p->s[p->i] == 'e' || p->s[p->i] == 'E')) {
		p->i++;
		if (p->i < p->n && (p->s[p->i] == '+' || p->s[p->i] == '-'))
			p->i++;
		if (p->i >= p->n || !is_digit(p->s[p->i]))
			return fail(p, -EINVAL, "an exponent needs a digit");
		while (p->i < p->n && is_digit(p->s[p->i]))
			p->i++;
	}
	if (p->i - start >= sizeof(buf)) {
		p->i = start;
		return fail(p, -EINVAL, "a number longer than %zu characters",
		            sizeof(buf) - 1);
	}
	memcpy(buf, p->s + start, p->i - start);
	buf[p->i - start] = '\0';
	errno = 0;
	*out = strtod(buf, NULL);
	/* Too large for a double: strtod() says infinity, which no JSON is. */
	if (errno == ERANGE && (*out > 1 || *out < -1)) {
		p->i = start;
		path_text(p, where, sizeof(where));
		return fail(p, -ERANGE, "%s%sthe number %.40s%s is beyond the range of a double "
		            "(at most about 1.8e308 either way)", where, where[0] ? ": " : "",
		            buf, strlen(buf) > 40 ? "..." : "");
	}
	return 0;
}

/* The next container size: recorded by the first reading (reserved when
 * the container opens, set when it closes), used by the second. */
static long
size_slot(struct jp *p)
{
	if (p->nsizes == p->capsizes) {
		size_t nc = p->capsizes ? p->capsizes * 2 : 64;
		uint32_t *s = realloc(p->sizes, nc * sizeof(*s));

		if (s == NULL)
			return fail(p, -ENOMEM, "out of memory");
		p->sizes = s;
		p->capsizes = nc;
	}
	p->sizes[p->nsizes] = 0;
	return (long)p->nsizes++;
}

/* Write a kept string of the second reading into the allocation and
 * point *rel (an offset from v) at it. */
static int
store_string(struct jp *p, struct diot_jr *v, int is_key)
{
	char *dst = p->str + p->next_str;
	long l = string(p, dst, (size_t)-1);

	if (l < 0)
		return -1;
	p->next_str += (size_t)l + 1;
	if (is_key)
		v->key = (int32_t)(dst - (char *)v);
	else
		v->u.rel = dst - (char *)v;
	return 0;
}

static int value(struct jp *p, struct diot_jr *v, int kept);

/* The type of the value ahead, by its first character (-1: none). */
static int
peek_type(struct jp *p)
{
	skip_ws(p);
	if (p->i >= p->n)
		return -1;
	switch (p->s[p->i]) {
	case '{':
		return DIOT_JR_OBJ;
	case '[':
		return DIOT_JR_ARR;
	case '"':
		return DIOT_JR_STR;
	case 't':
	case 'f':
		return DIOT_JR_BOOL;
	case 'n':
		return DIOT_JR_NULL;
	default:
		return p->s[p->i] == '-' || is_digit(p->s[p->i]) ? DIOT_JR_NUM : -1;
	}
}

/*
 * An array or object (p->i on its opening bracket).  kept: it is part of
 * the tree (in the second reading v is its place); else it is only
 * checked.
 */
static int
container(struct jp *p, struct diot_jr *v, int kept, char close)
{
	int obj = close == '}';
	long slot = -1;
	uint32_t nkept = 0;
	struct diot_jr *kids = NULL;
	struct diot_jr_step *step;

	if (++p->depth > DIOT_JR_MAX_DEPTH)
		return fail(p, -EINVAL, "nested deeper than %d", DIOT_JR_MAX_DEPTH);
	if (kept && !p->fill && (slot = size_slot(p)) < 0)
		return -1;
	if (kept && p->fill) {
		uint32_t k = p->sizes[p->next_size++];

		kids = p->base + p->next_node;
		p->next_node += k;
		v->tn = (uint32_t)(obj ? DIOT_JR_OBJ : DIOT_JR_ARR) | k << 3;
		v->u.rel = (char *)kids - (char *)v;
	}
	step = &p->path[p->npath++];
	step->key = NULL;
	step->index = 0;
	p->i++;
	skip_ws(p);
	if (p->i < p->n && p->s[p->i] == close) {
		p->i++;
		goto done;
	}
	for (;; step->index++) {
		size_t keyat = 0;
		int keep = kept;

		skip_ws(p);
		if (obj) {
			if (p->i >= p->n || p->s[p->i] != '"')
				return fail(p, -EINVAL, "expected a key (a string) in an object");
			keyat = p->i;
			if (string(p, p->keys[p->npath - 1], KEYCUT) < 0)
				return -1;
			step->key = p->keys[p->npath - 1];
			skip_ws(p);
			if (p->i >= p->n || p->s[p->i] != ':')
				return fail(p, -EINVAL, "expected ':' after a key");
			p->i++;
		}
		if (keep && p->keep != NULL)
			keep = p->keep(p->path, p->npath, peek_type(p), p->arg) != 0;
		if (keep && !p->fill) {
			p->nodes++;
			if (obj)
				p->strbytes += (size_t)(p->i - keyat);   /* >= the name + NUL */
		}
		if (keep && p->fill) {
			struct diot_jr *k = &kids[nkept];

			memset(k, 0, sizeof(*k));
			if (obj) {
				size_t after = p->i;

				p->i = keyat;
				store_string(p, k, 1);
				p->i = after;
			}
			if (value(p, k, 1) < 0)
				return -1;
		} else if (value(p, NULL, keep) < 0) {
			return -1;
		}
		if (keep)
			nkept++;
		skip_ws(p);
		if (p->i < p->n && p->s[p->i] == ',') {
			p->i++;
			continue;
		}
		if (p->i < p->n && p->s[p->i] == close) {
			p->i++;
			break;
		}
		return fail(p, -EINVAL, "expected ',' or '%c'", close);
	}
done:
	p->npath--;
	p->depth--;
	if (slot >= 0)
		p->sizes[slot] = nkept;
	return 0;
}

static int
word(struct jp *p, const char *w)
{
	size_t l = strlen(w);

	if (p->n - p->i < l || memcmp(p->s + p->i, w, l) != 0)
		return 0;
	p->i += l;
	return 1;
}

/* One value; v is its place in the second reading if kept, else NULL. */
static int
value(struct jp *p, struct diot_jr *v, int kept)
{
	size_t at;
	double num;
	char c;
	long l;

	skip_ws(p);
	if (p->i >= p->n)
		return fail(p, -EINVAL, "the text ends where a value was expected");
	c = p->s[p->i];
	if (c == '{')
		return container(p, v, kept, '}');
	if (c == '[')
		return container(p, v, kept, ']');
	if (c == '"') {
		if (v != NULL) {
			v->tn = DIOT_JR_STR;
			return store_string(p, v, 0);
		}
		at = p->i;
		if ((l = string(p, NULL, 0)) < 0)
			return -1;
		if (kept)
			p->strbytes += p->i - at;    /* >= the decoded text + NUL */
		return 0;
	}
	if (c == '-' || is_digit(c)) {
		if (number(p, &num) < 0)
			return -1;
		if (v != NULL) {
			v->tn = DIOT_JR_NUM;
			v->u.num = num;
		}
		return 0;
	}
	if (word(p, "true") || word(p, "false")) {
		if (v != NULL)
			v->tn = DIOT_JR_BOOL | (uint32_t)(c == 't') << 3;
		return 0;
	}
	if (word(p, "null")) {
		if (v != NULL)
			v->tn = DIOT_JR_NULL;
		return 0;
	}
	return fail(p, -EINVAL, "unexpected '%c' where a value was expected", c);
}

void
diot_jr_free(struct diot_jr *v)
{
	free(v);
}

int
diot_jr_parse_keep(const char *text, size_t len, diot_jr_keep_fn keep, void *arg,
                   struct diot_jr **out, char *err, size_t errlen)
{
	struct jp *p = calloc(1, sizeof(*p));
	char spare[8];
	size_t bytes;
	int rc;

	*out = NULL;
	if (err != NULL && errlen > 0)
		err[0] = '\0';
	if (p == NULL) {
		if (err != NULL && errlen > 0)
			snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	p->s = text;
	p->n = len;
	p->err = err != NULL && errlen > 0 ? err : spare;
	p->errlen = err != NULL && errlen > 0 ? errlen : sizeof(spare);
	p->keep = keep;
	p->arg = arg;
	if (len > DIOT_JR_MAX_TEXT) {
		fail(p, -EFBIG, "a text of %zu bytes; at most %zu are read", len,
		     DIOT_JR_MAX_TEXT);
		goto out;
	}
	/* The first reading: check, count. */
	p->nodes = 1;
	if (value(p, NULL, 1) < 0)
		goto out;
	skip_ws(p);
	if (p->i != p->n) {
		fail(p, -EINVAL, "text after the end of the document");
		goto out;
	}
	/* Offsets within the tree are 32 bits for names. */
	bytes = p->nodes * sizeof(struct diot_jr) + p->strbytes;
	if (p->nodes > (size_t)INT32_MAX / sizeof(struct diot_jr) || bytes > INT32_MAX) {
		p->i = 0;
		fail(p, -EFBIG, "too many values to read (%zu)", p->nodes);
		goto out;
	}
	p->base = calloc(1, bytes);
	if (p->base == NULL) {
		p->i = 0;
		fail(p, -ENOMEM, "out of memory (%zu bytes for %zu values)", bytes, p->nodes);
		goto out;
	}
	/* The second reading: fill. */
	p->fill = 1;
	p->i = 0;
	p->next_node = 1;
	p->str = (char *)(p->base + p->nodes);
	value(p, p->base, 1);
	*out = p->base;
out:
	rc = p->rc;
	free(p->sizes);
	free(p);
	return rc;
}

int
diot_jr_parse(const char *text, size_t len, struct diot_jr **out, char *err, size_t errlen)
{
	return diot_jr_parse_keep(text, len, NULL, NULL, out, err, errlen);
}

int
diot_jr_type(const struct diot_jr *v)
{
	return v != NULL ? (int)(v->tn & 7) : -1;
}

int
diot_jr_count(const struct diot_jr *v)
{
	int t = diot_jr_type(v);

	return t == DIOT_JR_ARR || t == DIOT_JR_OBJ ? (int)(v->tn >> 3) : 0;
}

const struct diot_jr *
diot_jr_kid(const struct diot_jr *v, int i)
{
	if (i < 0 || i >= diot_jr_count(v))
		return NULL;
	return (const struct diot_jr *)((const char *)v + v->u.rel) + i;
}

const char *
diot_jr_key(const struct diot_jr *v)
{
	return v != NULL && v->key != 0 ? (const char *)v + v->key : NULL;
}

const struct diot_jr *
diot_jr_get(const struct diot_jr *v, const char *key)
{
	int i, n = diot_jr_type(v) == DIOT_JR_OBJ ? diot_jr_count(v) : 0;

	for (i = 0; i < n; i++) {
		const struct diot_jr *k = diot_jr_kid(v, i);

		if (strcmp(diot_jr_key(k), key) == 0)
			return k;
	}
	return NULL;
}

double
diot_jr_num(const struct diot_jr *v, double dflt)
{
	return diot_jr_type(v) == DIOT_JR_NUM ? v->u.num : dflt;
}

const char *
diot_jr_str(const struct diot_jr *v)
{
	return diot_jr_type(v) == DIOT_JR_STR ? (const char *)v + v->u.rel : NULL;
}

int
diot_jr_bool(const struct diot_jr *v, int dflt)
{
	return diot_jr_type(v) == DIOT_JR_BOOL ? (int)(v->tn >> 3) : dflt;
}
