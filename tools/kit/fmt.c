/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fmt.c -- the tools' output formats; see fmt.h.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/kit/fmt.h"
#include "tools/kit/json.h"
#include "tools/kit/msg.h"

static const char *const diot_iec[] = { "bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };

char *
diot_fmt_iec(uint64_t bytes, char *buf, size_t len)
{
	uint64_t unit = 1;
	int u = 0;

	while (u < 6 && bytes >= unit * 1024) {
		unit *= 1024;
		u++;
	}
	if (bytes % unit == 0)
		snprintf(buf, len, "%llu %s", (unsigned long long)(bytes / unit), diot_iec[u]);
	else
		snprintf(buf, len, "%.1f %s", (double)bytes / (double)unit, diot_iec[u]);
	return buf;
}

char *
diot_fmt_short(uint64_t bytes, char *buf, size_t len)
{
	static const char letters[] = "KMGTPE";
	int u = -1;

	while (u < 5 && bytes != 0 && bytes % 1024 == 0) {
		bytes /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, "%llu", (unsigned long long)bytes);
	else
		snprintf(buf, len, "%llu%c", (unsigned long long)bytes, letters[u]);
	return buf;
}

char *
diot_strdupf(const char *fmt, ...)
{
	va_list ap;
	char *t;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	t = n < 0 ? NULL : malloc((size_t)n + 1);
	if (t == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	va_start(ap, fmt);
	vsnprintf(t, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return t;
}

char *
diot_join(const char *const *v, int n, const char *sep)
{
	size_t len = 1;
	char *t;
	int i;

	for (i = 0; i < n; i++)
		len += strlen(v[i]) + strlen(sep);
	t = malloc(len);
	if (t == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	t[0] = '\0';
	for (i = 0; i < n; i++) {
		if (i)
			strcat(t, sep);
		strcat(t, v[i]);
	}
	return t;
}

/* Kept for the tools that still call it; json.c does the escaping. */
void
diot_json_string(FILE *fp, const char *s)
{
	diot_json_quote(fp, s ? s : "");
}

void
diot_csv_field(FILE *fp, const char *s)
{
	const char *p;

	if (s == NULL)
		return;
	if (strpbrk(s, ",\"\n\r") == NULL) {
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (p = s; *p; p++) {
		if (*p == '"')
			fputc('"', fp);
		fputc(*p, fp);
	}
	fputc('"', fp);
}

void
diot_xml_text(FILE *fp, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;

	for (; p && *p; p += n ? n : 1) {
		n = 1;
		switch (*p) {
		case '<':  fputs("&lt;", fp); break;
		case '>':  fputs("&gt;", fp); break;
		case '&':  fputs("&amp;", fp); break;
		case '"':  fputs("&quot;", fp); break;
		case '\'': fputs("&apos;", fp); break;
		case '\t': case '\n': case '\r': fputc(*p, fp); break;
		default:
			/* XML 1.0 has no other control characters, and its text
			 * is UTF-8 here: U+FFFD for what is neither (as JSON). */
			if (*p < 0x20 || (n = diot_utf8_len(p)) == 0)
				fputs("&#xFFFD;", fp);
			else
				fwrite(p, 1, n, fp);
		}
	}
}

void
diot_put_cols(FILE *fp, const char *s, int width, int pad)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t n;
	int cols = 0;

	for (; *p && cols < width; p += n, cols++) {
		n = diot_utf8_len(p);
		if (n == 0)
			n = 1;
		fwrite(p, 1, n, fp);
	}
	for (; pad && cols < width; cols++)
		fputc(' ', fp);
}

/* Kept for the tools that still call it; json.c formats the number. */
void
diot_json_num(FILE *fp, double v)
{
	diot_json_number(fp, v, 6);
}
