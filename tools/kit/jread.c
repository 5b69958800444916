/*
 * jread.c -- the JSON reader of jread.h: recursive descent over the text,
 * one value per call, containers grown by doubling.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/kit/jread.h"

struct jp {
	const char *s;
	size_t n, i;
	int depth;
	int nomem;
	char *err;
	size_t errlen;
};

/* Record the first error, with the line and column of the current place. */
static int
fail(struct jp *p, const char *fmt, ...)
{
	size_t k, line = 1, col = 1;
	char what[200];
	va_list ap;

	if (p->err[0] != '\0')
		return -1;
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

/* Append the code point cp to b as UTF-8. */
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
			return fail(p, "\\u needs four hexadecimal digits");
		*v = *v * 16 + (unsigned long)d;
	}
	return 0;
}

/* The escape after a backslash (p->i on the letter), decoded into b. */
static int
escape(struct jp *p, char *b, size_t *len)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *e;
	unsigned long cp, lo;
	char c = p->i < p->n ? p->s[p->i] : '\0';

	if (c != '\0' && c != 'u' && (e = strchr(from, c)) != NULL) {
		b[(*len)++] = to[e - from];
		p->i++;
		return 0;
	}
	if (c != 'u')
		return fail(p, "unknown escape in a string (allowed: \\\" \\\\ \\/ \\b \\f \\n "
		            "\\r \\t \\uXXXX)");
	p->i++;
	if (hex4(p, &cp) < 0)
		return -1;
	if (cp >= 0xdc00 && cp <= 0xdfff)
		return fail(p, "a lone low surrogate \\u%04lx", cp);
	if (cp >= 0xd800 && cp <= 0xdbff) {
		if (p->i + 1 >= p->n || p->s[p->i] != '\\' || p->s[p->i + 1] != 'u')
			return fail(p, "a high surrogate without its low half");
		p->i += 2;
		if (hex4(p, &lo) < 0)
			return -1;
		if (lo < 0xdc00 || lo > 0xdfff)
			return fail(p, "a high surrogate without its low half");
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	}
	if (cp == 0)
		return fail(p, "a string holds NUL (\\u0000), which is not accepted here");
	*len += put_utf8(b + *len, cp);
	return 0;
}

/* A string (p->i on the opening quote) into a new allocation. */
static char *
string(struct jp *p)
{
	size_t start = ++p->i, len = 0;
	char *b;

	/* The decoded text is never longer than the raw text. */
	while (p->i < p->n && p->s[p->i] != '"')
		p->i += p->s[p->i] == '\\' ? 2 : 1;
	if (p->i >= p->n) {
		p->i = start - 1;
		fail(p, "a string that is never closed");
		return NULL;
	}
	b = malloc(p->i - start + 1);
	if (b == NULL) {
		p->nomem = 1;
		fail(p, "out of memory");
		return NULL;
	}
	for (p->i = start; p->s[p->i] != '"';) {
		unsigned char c = (unsigned char)p->s[p->i];

		if (c < 0x20) {
			fail(p, "a control character (0x%02x) inside a string", c);
			free(b);
			return NULL;
		}
		if (c != '\\') {
			b[len++] = (char)c;
			p->i++;
			continue;
		}
		p->i++;
		if (escape(p, b, &len) < 0) {
			free(b);
			return NULL;
		}
	}
	p->i++;
	b[len] = '\0';
	return b;
}

static int
number(struct jp *p, double *out)
{
	size_t start = p->i;
	char buf[64];

	if (p->i < p->n && p->s[p->i] == '-')
		p->i++;
	if (p->i >= p->n || !is_digit(p->s[p->i]))
		return fail(p, "a number needs a digit here");
	if (p->s[p->i] == '0' && p->i + 1 < p->n && is_digit(p->s[p->i + 1]))
		return fail(p, "a number with a leading zero");
	while (p->i < p->n && is_digit(p->s[p->i]))
		p->i++;
	if (p->i < p->n && p->s[p->i] == '.') {
		p->i++;
		if (p->i >= p->n || !is_digit(p->s[p->i]))
			return fail(p, "a digit must follow the decimal point");
		while (p->i < p->n && is_digit(p->s[p->i]))
			p->i++;
	}
	if (p->i < p->n && (p->s[p->i] == 'e' || p->s[p->i] == 'E')) {
		p->i++;
		if (p->i < p->n && (p->s[p->i] == '+' || p->s[p->i] == '-'))
			p->i++;
		if (p->i >= p->n || !is_digit(p->s[p->i]))
			return fail(p, "an exponent needs a digit");
		while (p->i < p->n && is_digit(p->s[p->i]))
			p->i++;
	}
	if (p->i - start >= sizeof(buf)) {
		p->i = start;
		return fail(p, "a number longer than %zu characters", sizeof(buf) - 1);
	}
	memcpy(buf, p->s + start, p->i - start);
	buf[p->i - start] = '\0';
	*out = strtod(buf, NULL);
	return 0;
}

static int value(struct jp *p, struct diot_jr *v);

/* A new element at the end of v's kids. */
static struct diot_jr *
add_kid(struct jp *p, struct diot_jr *v, int *cap)
{
	if (v->nkids == *cap) {
		int nc = *cap ? *cap * 2 : 8;
		struct diot_jr *k = realloc(v->kids, (size_t)nc * sizeof(*k));

		if (k == NULL) {
			p->nomem = 1;
			fail(p, "out of memory");
			return NULL;
		}
		v->kids = k;
		*cap = nc;
	}
	memset(&v->kids[v->nkids], 0, sizeof(v->kids[0]));
	return &v->kids[v->nkids++];
}

/* An array or object (p->i on its opening bracket). */
static int
container(struct jp *p, struct diot_jr *v, char close)
{
	int cap = 0, obj = close == '}';
	struct diot_jr *k;

	if (++p->depth > DIOT_JR_MAX_DEPTH)
		return fail(p, "nested deeper than %d", DIOT_JR_MAX_DEPTH);
	v->type = obj ? DIOT_JR_OBJ : DIOT_JR_ARR;
	p->i++;
	skip_ws(p);
	if (p->i < p->n && p->s[p->i] == close) {
		p->i++;
		p->depth--;
		return 0;
	}
	for (;;) {
		char *key = NULL;

		skip_ws(p);
		if (obj) {
			if (p->i >= p->n || p->s[p->i] != '"')
				return fail(p, "expected a key (a string) in an object");
			if ((key = string(p)) == NULL)
				return -1;
			skip_ws(p);
			if (p->i >= p->n || p->s[p->i] != ':') {
				free(key);
				return fail(p, "expected ':' after a key");
			}
			p->i++;
		}
		if ((k = add_kid(p, v, &cap)) == NULL) {
			free(key);
			return -1;
		}
		k->key = key;
		if (value(p, k) < 0)
			return -1;
		skip_ws(p);
		if (p->i < p->n && p->s[p->i] == ',') {
			p->i++;
			continue;
		}
		if (p->i < p->n && p->s[p->i] == close) {
			p->i++;
			p->depth--;
			return 0;
		}
		return fail(p, "expected ',' or '%c'", close);
	}
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

static int
value(struct jp *p, struct diot_jr *v)
{
	char c;

	skip_ws(p);
	if (p->i >= p->n)
		return fail(p, "the text ends where a value was expected");
	c = p->s[p->i];
	if (c == '{')
		return container(p, v, '}');
	if (c == '[')
		return container(p, v, ']');
	if (c == '"') {
		v->type = DIOT_JR_STR;
		v->str = string(p);
		return v->str != NULL ? 0 : -1;
	}
	if (c == '-' || is_digit(c)) {
		v->type = DIOT_JR_NUM;
		return number(p, &v->num);
	}
	if (word(p, "true") || word(p, "false")) {
		v->type = DIOT_JR_BOOL;
		v->b = c == 't';
		return 0;
	}
	if (word(p, "null")) {
		v->type = DIOT_JR_NULL;
		return 0;
	}
	return fail(p, "unexpected '%c' where a value was expected", c);
}

static void
free_kids(struct diot_jr *v)
{
	int i;

	for (i = 0; i < v->nkids; i++)
		free_kids(&v->kids[i]);
	free(v->kids);
	free(v->str);
	free(v->key);
}

void
diot_jr_free(struct diot_jr *v)
{
	if (v == NULL)
		return;
	free_kids(v);
	free(v);
}

int
diot_jr_parse(const char *text, size_t len, struct diot_jr **out, char *err, size_t errlen)
{
	struct jp p;
	struct diot_jr *v = calloc(1, sizeof(*v));
	char spare[8];

	memset(&p, 0, sizeof(p));
	p.s = text;
	p.n = len;
	p.err = err != NULL && errlen > 0 ? err : spare;
	p.errlen = err != NULL && errlen > 0 ? errlen : sizeof(spare);
	p.err[0] = '\0';
	*out = NULL;
	if (v == NULL)
		return -ENOMEM;
	if (value(&p, v) == 0) {
		skip_ws(&p);
		if (p.i == p.n) {
			*out = v;
			return 0;
		}
		fail(&p, "text after the end of the document");
	}
	diot_jr_free(v);
	return p.nomem ? -ENOMEM : -EINVAL;
}

const struct diot_jr *
diot_jr_get(const struct diot_jr *v, const char *key)
{
	int i;

	if (v == NULL || v->type != DIOT_JR_OBJ)
		return NULL;
	for (i = 0; i < v->nkids; i++)
		if (strcmp(v->kids[i].key, key) == 0)
			return &v->kids[i];
	return NULL;
}

double
diot_jr_num(const struct diot_jr *v, double dflt)
{
	return v != NULL && v->type == DIOT_JR_NUM ? v->num : dflt;
}

const char *
diot_jr_str(const struct diot_jr *v)
{
	return v != NULL && v->type == DIOT_JR_STR ? v->str : NULL;
}

int
diot_jr_bool(const struct diot_jr *v, int dflt)
{
	return v != NULL && v->type == DIOT_JR_BOOL ? v->b : dflt;
}
