/* SPDX-License-Identifier: BSD-2-Clause */
/* json.c -- the tools' streaming JSON writer (see json.h). */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "tools/kit/json.h"

/* ------------------------------------------------------------ text */

size_t
diot_utf8_len(const unsigned char *p)
{
	uint32_t cp;
	size_t n, i;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, cp = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, cp = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, cp = p[0] & 0x07;
	else
		return 0;               /* a continuation byte, C0, C1, F5..FF */
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;       /* cut short (the NUL ends it too) */
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;               /* overlong, beyond Unicode, a surrogate */
	return n;
}

size_t
diot_utf8_invalid(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t bad = 0, n;

	for (; s != NULL && *p; p += n ? n : 1)
		if ((n = diot_utf8_len(p)) == 0)
			bad++;
	return bad;
}

void
diot_json_quote(FILE *fp, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;

	if (s == NULL) {
		fputs("null", fp);
		return;
	}
	fputc('"', fp);
	for (; *p; p += n ? n : 1) {
		n = 1;
		switch (*p) {
		case '"':  fputs("\\\"", fp); break;
		case '\\': fputs("\\\\", fp); break;
		case '\b': fputs("\\b", fp); break;
		case '\f': fputs("\\f", fp); break;
		case '\n': fputs("\\n", fp); break;
		case '\r': fputs("\\r", fp); break;
		case '\t': fputs("\\t", fp); break;
		default:
			if (*p < 0x20) {
				fprintf(fp, "\\u%04x", (unsigned)*p);
			} else if ((n = diot_utf8_len(p)) == 0) {
				/* Not UTF-8 (a path is bytes): U+REPLACEMENT
				 * CHARACTER for the byte, so that the document
				 * stays valid JSON. */
				fputs("\\ufffd", fp);
			} else {
				fwrite(p, 1, n, fp);
			}
		}
	}
	fputc('"', fp);
}

static int
clamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

void
diot_json_number(FILE *fp, double v, int precision)
{
	if (isnan(v) || isinf(v))
		fputs("null", fp);
	else if (v == floor(v) && fabs(v) < 1e15)
		fprintf(fp, "%.0f", v);
	else
		fprintf(fp, "%.*g", clamp(precision, 1, 17), v);
}

/* ------------------------------------------------------------ structure */

void
diot_json_init(struct diot_json *j, FILE *fp, int indent)
{
	int i;

	j->fp = fp;
	j->indent = indent;
	j->depth = 0;
	for (i = 0; i < DIOT_JSON_MAX_DEPTH; i++) {
		j->count[i] = 0;
		j->kind[i] = 0;
	}
	j->misuse = 0;
	j->precision = 15;
	j->top = 0;
	j->skip = 0;
	j->ended = 0;
	if (indent < 0) {
		j->misuse = 1;
		j->indent = 0;
	}
}

void
diot_json_precision(struct diot_json *j, int digits)
{
	if (digits < 1 || digits > 17)
		j->misuse = 1;
	j->precision = clamp(digits, 1, 17);
}

static void
newline(struct diot_json *j, int level)
{
	int n = j->indent * level;

	fputc('\n', j->fp);
	while (n-- > 0)
		fputc(' ', j->fp);
}

/*
 * Everything a value writes before itself: the comma, the line break and
 * indentation, the key.  Returns 0 when the value is to be written, -1
 * when it must be left out (misuse that cannot be repaired, or inside a
 * container that was left out).
 */
static int
begin_value(struct diot_json *j, const char *key)
{
	int d = j->depth;

	if (j->skip > 0)
		return -1;
	if (j->ended) {
		j->misuse = 1;
		return -1;
	}
	if (d == 0) {
		if (key != NULL)
			j->misuse = 1;          /* the key is dropped */
		if (j->top++ > 0) {
			j->misuse = 1;          /* a second document */
			return -1;
		}
		return 0;
	}
	if (j->count[d - 1] > 0)
		fputc(',', j->fp);
	if (j->indent > 0)
		newline(j, d);
	else if (j->count[d - 1] > 0)
		fputc(' ', j->fp);
	j->count[d - 1]++;
	if (j->kind[d - 1] == '{') {
		if (key == NULL) {
			j->misuse = 1;
			key = "";
		}
		diot_json_quote(j->fp, key);
		fputs(": ", j->fp);
	} else if (key != NULL) {
		j->misuse = 1;                  /* the key is dropped */
	}
	return 0;
}

static void
open_container(struct diot_json *j, const char *key, char kind)
{
	if (j->skip > 0) {
		j->skip++;
		return;
	}
	if (j->depth >= DIOT_JSON_MAX_DEPTH && !j->ended) {
		/* Too deep: this container and all it holds are left out. */
		j->misuse = 1;
		j->skip = 1;
		return;
	}
	if (begin_value(j, key) < 0) {
		if (!j->ended)
			j->skip = 1;            /* a second top-level document */
		return;
	}
	fputc(kind, j->fp);
	j->kind[j->depth] = kind;
	j->count[j->depth] = 0;
	j->depth++;
}

void
diot_json_object(struct diot_json *j, const char *key)
{
	open_container(j, key, '{');
}

void
diot_json_array(struct diot_json *j, const char *key)
{
	open_container(j, key, '[');
}

void
diot_json_close(struct diot_json *j)
{
	int d = j->depth;

	if (j->skip > 0) {
		j->skip--;
		return;
	}
	if (d == 0 || j->ended) {
		j->misuse = 1;
		return;
	}
	if (j->count[d - 1] > 0 && j->indent > 0)
		newline(j, d - 1);
	fputc(j->kind[d - 1] == '{' ? '}' : ']', j->fp);
	j->depth--;
}

/* ------------------------------------------------------------ values */

void
diot_json_str(struct diot_json *j, const char *key, const char *v)
{
	if (begin_value(j, key) == 0)
		diot_json_quote(j->fp, v);
}

void
diot_json_u64(struct diot_json *j, const char *key, uint64_t v)
{
	if (begin_value(j, key) == 0)
		fprintf(j->fp, "%" PRIu64, v);
}

void
diot_json_i64(struct diot_json *j, const char *key, int64_t v)
{
	if (begin_value(j, key) == 0)
		fprintf(j->fp, "%" PRId64, v);
}

void
diot_json_double(struct diot_json *j, const char *key, double v)
{
	if (begin_value(j, key) == 0)
		diot_json_number(j->fp, v, j->precision);
}

void
diot_json_fixed(struct diot_json *j, const char *key, double v, int decimals)
{
	if (decimals < 0 || decimals > 17)
		j->misuse = 1;
	if (begin_value(j, key) < 0)
		return;
	if (isnan(v) || isinf(v))
		fputs("null", j->fp);
	else
		fprintf(j->fp, "%.*f", clamp(decimals, 0, 17), v);
}

void
diot_json_bool(struct diot_json *j, const char *key, int v)
{
	if (begin_value(j, key) == 0)
		fputs(v ? "true" : "false", j->fp);
}

void
diot_json_null(struct diot_json *j, const char *key)
{
	if (begin_value(j, key) == 0)
		fputs("null", j->fp);
}

int
diot_json_end(struct diot_json *j)
{
	if (j->ended) {
		j->misuse = 1;
		return -EINVAL;
	}
	/* Containers left out for misuse have no output to close. */
	j->skip = 0;
	while (j->depth > 0)
		diot_json_close(j);
	if (j->top == 0) {
		j->misuse = 1;
		fputs("null", j->fp);
	}
	fputc('\n', j->fp);
	j->ended = 1;
	if (fflush(j->fp) != 0 || ferror(j->fp))
		return -EIO;
	return j->misuse ? -EINVAL : 0;
}
