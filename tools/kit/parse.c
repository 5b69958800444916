/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * parse.c -- the tools' parsers of option values; see parse.h.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/kit/msg.h"
#include "tools/kit/parse.h"

/* The most of a given value a parser's message repeats. */
#define DIOT_ECHO_MAX 24

static int
diot_err(char *err, size_t errlen, int code, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;

static int
diot_err(char *err, size_t errlen, int code, const char *fmt, ...)
{
	va_list ap;

	if (err != NULL && errlen > 0) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return code;
}

struct diot_suffix {
	const char *text;
	uint64_t mult;
};

static const struct diot_suffix diot_suffixes[] = {
	{ "c", 1 }, { "w", 2 }, { "b", 512 },
	{ "k", 1024 }, { "K", 1024 }, { "KiB", 1024 },
	{ "m", 1024ull * 1024 }, { "M", 1024ull * 1024 }, { "MiB", 1024ull * 1024 },
	{ "g", 1024ull * 1024 * 1024 }, { "G", 1024ull * 1024 * 1024 },
	{ "GiB", 1024ull * 1024 * 1024 },
	{ "t", 1024ull * 1024 * 1024 * 1024 }, { "T", 1024ull * 1024 * 1024 * 1024 },
	{ "TiB", 1024ull * 1024 * 1024 * 1024 },
	{ "kB", 1000 }, { "KB", 1000 },
	{ "MB", 1000ull * 1000 },
	{ "GB", 1000ull * 1000 * 1000 },
	{ "TB", 1000ull * 1000 * 1000 * 1000 },
	{ "P", 1ull << 50 }, { "PiB", 1ull << 50 }, { "PB", 1000000000000000ull },
	{ "E", 1ull << 60 }, { "EiB", 1ull << 60 }, { "EB", 1000000000000000000ull },
};

const char *
diot_size_suffixes(void)
{
	return "c=1, w=2, b=512; k, K, KiB, m, M, MiB, g, G, GiB, t, T, TiB, P, PiB, "
	       "E, EiB: powers of 1024; kB, KB, MB, GB, TB, PB, EB: powers of 1000";
}

/* Digits at s into *v; returns the count, or -ERANGE on overflow. */
static int
diot_digits(const char *s, uint64_t *v)
{
	int n = 0;

	*v = 0;
	while (s[n] >= '0' && s[n] <= '9') {
		unsigned d = (unsigned)(s[n] - '0');

		if (*v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		*v = *v * 10 + d;
		n++;
	}
	return n;
}

int
diot_parse_size(const char *s, uint64_t *out, char *err, size_t errlen)
{
	uint64_t v;
	const char *suf;
	size_t i;
	int n;

	if (s == NULL || *s == '\0')
		return diot_err(err, errlen, -EINVAL, "empty size");
	if (*s == '-')
		return diot_err(err, errlen, -EINVAL, "negative sizes are not allowed");
	n = diot_digits(s, &v);
	if (n == -ERANGE)
		return diot_err(err, errlen, -ERANGE, "too large (at most %llu bytes)",
		                (unsigned long long)UINT64_MAX);
	if (n == 0)
		return diot_err(err, errlen, -EINVAL, "not a size: expected decimal "
		                "digits and an optional suffix (%s)", diot_size_suffixes());
	suf = s + n;
	if (*suf == '\0') {
		*out = v;
		return 0;
	}
	if ((*suf == '.' || *suf == ',') && suf[1] >= '0' && suf[1] <= '9')
		return diot_err(err, errlen, -EINVAL, "fractions are not supported; "
		                "use a smaller unit (e.g. 1536K for 1.5M)");
	if ((*suf == 'e' || *suf == 'E') && suf[1] >= '0' && suf[1] <= '9')
		return diot_err(err, errlen, -EINVAL, "exponents are not supported; "
		                "write the number out or use a suffix (e.g. 1k)");
	for (i = 0; i < sizeof(diot_suffixes) / sizeof(diot_suffixes[0]); i++) {
		if (strcmp(suf, diot_suffixes[i].text) != 0)
			continue;
		if (v > UINT64_MAX / diot_suffixes[i].mult)
			return diot_err(err, errlen, -ERANGE, "too large (at most %llu "
			                "bytes)", (unsigned long long)UINT64_MAX);
		*out = v * diot_suffixes[i].mult;
		return 0;
	}
	/* What was given is echoed up to DIOT_ECHO_MAX bytes, so that the
	 * message (err is DIOT_ERR_MAX bytes) always ends with what is allowed. */
	return diot_err(err, errlen, -EINVAL, "unknown suffix '%.*s%s' (allowed: %s)",
	                DIOT_ECHO_MAX, suf, strlen(suf) > DIOT_ECHO_MAX ? "..." : "",
	                diot_size_suffixes());
}

int
diot_parse_size_range(const char *s, uint64_t min, uint64_t max, uint64_t *out,
                      char *err, size_t errlen)
{
	uint64_t v;
	int r = diot_parse_size(s, &v, err, errlen);

	if (r < 0)
		return r;
	if (v < min)
		return min == 1 ? diot_err(err, errlen, -ERANGE, "size must be greater than 0")
		                : diot_err(err, errlen, -ERANGE, "%llu bytes is below the "
		                           "smallest allowed, %llu", (unsigned long long)v,
		                           (unsigned long long)min);
	if (v > max)
		return diot_err(err, errlen, -ERANGE, "%llu bytes is above the largest "
		                "allowed, %llu", (unsigned long long)v, (unsigned long long)max);
	*out = v;
	return 0;
}

static int
diot_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The list parser behind diot_parse_size_list() and diot_parse_uint_list(). */
static int
diot_parse_list(const char *s, int sizes, uint64_t min, uint64_t max,
                uint64_t **out, char *err, size_t errlen)
{
	char item[64], sub[DIOT_ERR_MAX], *dots;
	const char *p, *comma;
	uint64_t *v = NULL, *nv, a, b, x;
	size_t n = 0, cap = 0, len, i, j, k = 0;
	int r;

	*out = NULL;
	if (s == NULL || *s == '\0')
		return diot_err(err, errlen, -EINVAL, "empty list");
	for (p = s;; p = comma + 1) {
		comma = strchr(p, ',');
		len = comma ? (size_t)(comma - p) : strlen(p);
		k++;
		if (len == 0) {
			r = diot_err(err, errlen, -EINVAL, "empty item %zu in the list", k);
			goto fail;
		}
		if (len >= sizeof(item)) {
			r = diot_err(err, errlen, -EINVAL, "item %zu is too long", k);
			goto fail;
		}
		memcpy(item, p, len);
		item[len] = '\0';
		dots = strstr(item, "..");
		if (dots != NULL)
			*dots = '\0';
#define DIOT_ONE(str, dst) (sizes ? diot_parse_size_range(str, min, max, dst, sub, sizeof(sub)) \
                                  : diot_parse_uint(str, min, max, dst, sub, sizeof(sub)))
		if ((r = DIOT_ONE(item, &a)) < 0) {
			r = diot_err(err, errlen, r, "item '%s': %s", item, sub);
			goto fail;
		}
		b = a;
		if (dots != NULL) {
			if ((r = DIOT_ONE(dots + 2, &b)) < 0) {
				r = diot_err(err, errlen, r, "item '%s': %s", dots + 2, sub);
				goto fail;
			}
			if (b < a || a == 0) {
				r = diot_err(err, errlen, -EINVAL, "range '%s..%s' %s", item,
				             dots + 2, a == 0 ? "cannot double from 0"
				                              : "runs backwards");
				goto fail;
			}
		}
#undef DIOT_ONE
		for (x = a; x <= b; x *= 2) {
			if (n == cap) {
				cap = cap ? 2 * cap : 16;
				nv = realloc(v, cap * sizeof(*v));
				if (nv == NULL) {
					r = diot_err(err, errlen, -ENOMEM, "out of memory");
					goto fail;
				}
				v = nv;
			}
			v[n++] = x;
			if (x > UINT64_MAX / 2)
				break;
		}
		if (comma == NULL)
			break;
	}
	qsort(v, n, sizeof(*v), diot_cmp_u64);
	for (i = j = 0; i < n; i++)
		if (j == 0 || v[j - 1] != v[i])
			v[j++] = v[i];
	*out = v;
	return (int)j;
fail:
	free(v);
	return r;
}

int
diot_parse_size_list(const char *s, uint64_t min, uint64_t max, uint64_t **out,
                     char *err, size_t errlen)
{
	return diot_parse_list(s, 1, min, max, out, err, errlen);
}

int
diot_parse_uint_list(const char *s, uint64_t min, uint64_t max, uint64_t **out,
                     char *err, size_t errlen)
{
	return diot_parse_list(s, 0, min, max, out, err, errlen);
}

int
diot_parse_duration(const char *s, double max_s, uint64_t *ns, char *err,
                    size_t errlen)
{
	static const struct { const char *u; double mult; } units[] = {
		{ "", 1e9 }, { "s", 1e9 }, { "ms", 1e6 }, { "us", 1e3 }, { "ns", 1 },
		{ "m", 60e9 }, { "min", 60e9 }, { "h", 3600e9 },
	};
	const char *p = s;
	double v = 0, scale = 1;
	int digits = 0;
	size_t i;

	if (s == NULL || *s == '\0')
		return diot_err(err, errlen, -EINVAL, "empty duration");
	for (; *p >= '0' && *p <= '9'; p++, digits++)
		v = v * 10 + (*p - '0');
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++, digits++)
			v += (*p - '0') * (scale /= 10);
	if (digits == 0)
		return diot_err(err, errlen, -EINVAL, "not a duration (expected a number "
		                "with an optional unit ns, us, ms, s, m, h)");
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(p, units[i].u) == 0)
			break;
	if (i == sizeof(units) / sizeof(units[0]))
		return diot_err(err, errlen, -EINVAL, "unknown unit '%s' (allowed: ns, us, "
		                "ms, s, m, h)", p);
	v *= units[i].mult;
	if (v < 1)
		return diot_err(err, errlen, -ERANGE, "duration must be greater than 0");
	if (v > max_s * 1e9)
		return diot_err(err, errlen, -ERANGE, "at most %g s allowed", max_s);
	*ns = (uint64_t)v;
	return 0;
}

int
diot_parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out,
                char *err, size_t errlen)
{
	uint64_t v;
	int n;

	if (s == NULL || *s == '\0')
		return diot_err(err, errlen, -EINVAL, "empty number");
	n = diot_digits(s, &v);
	if (n == -ERANGE)
		return diot_err(err, errlen, -ERANGE, "out of range (%llu to %llu)",
		                (unsigned long long)min, (unsigned long long)max);
	if (n == 0 || s[n] != '\0')
		return diot_err(err, errlen, -EINVAL, "not a decimal number");
	if (v < min || v > max)
		return diot_err(err, errlen, -ERANGE, "out of range (%llu to %llu)",
		                (unsigned long long)min, (unsigned long long)max);
	*out = v;
	return 0;
}

int
diot_parse_word(const char *s, const char *const *words, int *index,
                char *err, size_t errlen)
{
	char list[DIOT_ERR_MAX];
	size_t pos = 0;
	int i;

	for (i = 0; words[i] != NULL; i++) {
		if (s != NULL && strcmp(s, words[i]) == 0) {
			*index = i;
			return 0;
		}
	}
	list[0] = '\0';
	for (i = 0; words[i] != NULL && pos < sizeof(list); i++) {
		int k = snprintf(list + pos, sizeof(list) - pos, "%s%s", i ? ", " : "",
		                 words[i]);

		if (k < 0)
			break;
		pos += (size_t)k;
	}
	if (s == NULL)
		s = "";
	return diot_err(err, errlen, -EINVAL, "unknown value '%.*s%s' (allowed: %s)",
	                DIOT_ECHO_MAX, s, strlen(s) > DIOT_ECHO_MAX ? "..." : "", list);
}
