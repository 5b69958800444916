/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * quote.c -- dd's way of naming things in its messages, for the messages
 * dio-dd says as dd says them (scripts grep them): the error text of the
 * C locale ("No such file or directory"), a file name quoted for the
 * shell ('a b', "it's", 'a'$'\n''b'; at a message's start only where
 * the shell needs it), an operand's value quoted as C
 * quotes it ('2x', 'a\tb').  dio-dd sets no locale, so these are the
 * texts GNU dd gives under LC_ALL=C: bytes outside printable ASCII are
 * escaped, never passed to the terminal.
 */
#include "config.h"

#include <ctype.h>
#include <locale.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "tools/dd/dd.h"
#include "tools/kit/msg.h"

static locale_t c_locale;
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;

static void
make_c_locale(void)
{
	c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
}

const char *
dd_strerror(int err)
{
	const char *s = NULL;

	if (err < 0)
		err = -err;
	pthread_once(&c_locale_once, make_c_locale);
	if (c_locale != (locale_t)0)
		s = strerror_l(err, c_locale);
	/* (no C locale object: the library's own words) */
	return s != NULL ? s : dio_strerror(err);
}

/* The escape of byte c after a backslash: a letter, or 3 octal digits. */
static size_t
escape(char *dst, unsigned char c)
{
	static const char letters[] = "\aa\bb\ff\nn\rr\tt\vv";
	const char *l = memchr(letters, c, sizeof(letters) - 1);

	if (c != 0 && l != NULL && (l - letters) % 2 == 0) {
		if (dst) {
			dst[0] = '\\';
			dst[1] = l[1];
		}
		return 2;
	}
	if (dst) {
		dst[0] = '\\';
		dst[1] = (char)('0' + (c >> 6));
		dst[2] = (char)('0' + ((c >> 3) & 7));
		dst[3] = (char)('0' + (c & 7));
	}
	return 4;
}

static int
printable(unsigned char c)
{
	return c >= 0x20 && c < 0x7f;
}

/* Put n bytes of s at dst + *at (dst NULL: count only). */
static void
put(char *dst, size_t *at, const char *s, size_t n)
{
	if (dst)
		memcpy(dst + *at, s, n);
	*at += n;
}

/*
 * A file name as dd's messages quote it: in single quotes; in double
 * quotes when it holds a single quote and nothing the shell expands
 * inside double quotes; a single quote otherwise as \', and anything
 * not printable in $'...' with C's escapes.  Into dst (NULL: only
 * counted); the length.
 */
static size_t
quote_name(char *dst, const char *s)
{
	enum { OUT, SQ, DQ } st = SQ;
	const unsigned char *p = (const unsigned char *)s;
	size_t at = 0;
	int has_quote = 0, plain = 1;

	for (; *p; p++) {
		has_quote |= *p == '\'';
		plain &= printable(*p) && strchr("$`\"\\!", *p) == NULL;
	}
	if (has_quote && plain) {
		put(dst, &at, "\"", 1);
		put(dst, &at, s, strlen(s));
		put(dst, &at, "\"", 1);
		return at;
	}
	put(dst, &at, "'", 1);
	for (p = (const unsigned char *)s; *p; p++) {
		if (*p == '\'') {
			if (st != OUT)
				put(dst, &at, "'", 1);
			put(dst, &at, "\\'", 2);
			st = OUT;
		} else if (printable(*p)) {
			if (st == DQ)
				put(dst, &at, "'", 1);
			if (st != SQ)
				put(dst, &at, "'", 1);
			put(dst, &at, (const char *)p, 1);
			st = SQ;
		} else {
			if (st == SQ)
				put(dst, &at, "'", 1);
			if (st != DQ)
				put(dst, &at, "$'", 2);
			at += escape(dst ? dst + at : NULL, *p);
			st = DQ;
		}
	}
	if (st != OUT)
		put(dst, &at, "'", 1);
	return at;
}

/* An operand's value as dd's messages quote it: '...' with C's escapes
 * (\', \\, \n, \ooo). */
static size_t
quote_value(char *dst, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t at = 0;

	put(dst, &at, "'", 1);
	for (; *p; p++) {
		if (*p == '\'' || *p == '\\') {
			put(dst, &at, "\\", 1);
			put(dst, &at, (const char *)p, 1);
		} else if (printable(*p)) {
			put(dst, &at, (const char *)p, 1);
		} else {
			at += escape(dst ? dst + at : NULL, *p);
		}
	}
	put(dst, &at, "'", 1);
	return at;
}

/*
 * A file name at the start of a dd message ("NAME: cannot seek"): as it
 * is when the shell would take it as it is, else quoted as quote_name()
 * quotes (a colon, '=', a space, a glob or a quote; '#' and '~' first).
 */
static size_t
quote_file(char *dst, const char *s)
{
	const char *p;
	size_t at = 0;

	for (p = s; *p; p++)
		if (!(isalnum((unsigned char)*p) || strchr("%+,-./@]{}_", *p) != NULL ||
		      (p > s && (*p == '#' || *p == '~'))))
			break;
	if (*s == '\0' || *p != '\0')
		return quote_name(dst, s);
	put(dst, &at, s, strlen(s));
	return at;
}

char *
dd_quote(const char *s, int style)
{
	size_t (*q)(char *, const char *) = style == DD_Q_VALUE ? quote_value :
	                                    style == DD_Q_FILE ? quote_file : quote_name;
	size_t n = q(NULL, s);
	char *t = malloc(n + 1);

	if (t == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	q(t, s);
	t[n] = '\0';
	return t;
}

/* For the messages of the setup, which end the run (one thread): the
 * quoted text stays reachable until the next call, so that an error held
 * instead of said (msg.h) leaves nothing behind. */
const char *
dd_quote_kept(const char *s, int style)
{
	static char *kept;

	free(kept);
	kept = dd_quote(s, style);
	return kept;
}
