/* util.c -- helpers shared by the libdirectio tools. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tools/util.h"

const char *diot_prog = "dio";

void
diot_init(const char *argv0)
{
	const char *p = argv0 ? strrchr(argv0, '/') : NULL;

	diot_prog = p ? p + 1 : (argv0 ? argv0 : "dio");
	/* libtool wrappers run the real binary as lt-NAME */
	if (strncmp(diot_prog, "lt-", 3) == 0)
		diot_prog += 3;
}

static void
diot_vwarn(const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", diot_prog);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void
diot_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diot_vwarn(fmt, ap);
	va_end(ap);
}

void
diot_die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diot_vwarn(fmt, ap);
	va_end(ap);
	exit(status);
}

void
diot_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diot_vwarn(fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try '%s --help' for more information.\n", diot_prog);
	exit(DIOT_EXIT_USAGE);
}

struct diot_suffix {
	const char *name;
	uint64_t mult;
};

static const struct diot_suffix diot_suffixes[] = {
	{ "", 1 },
	{ "b", 512 },
	{ "k", 1ull << 10 }, { "K", 1ull << 10 }, { "KiB", 1ull << 10 },
	{ "kB", 1000 }, { "KB", 1000 },
	{ "m", 1ull << 20 }, { "M", 1ull << 20 }, { "MiB", 1ull << 20 },
	{ "MB", 1000000 },
	{ "g", 1ull << 30 }, { "G", 1ull << 30 }, { "GiB", 1ull << 30 },
	{ "GB", 1000000000 },
	{ "t", 1ull << 40 }, { "T", 1ull << 40 }, { "TiB", 1ull << 40 },
	{ "TB", 1000000000000ull },
};

#define DIOT_SUFFIX_HELP "b=512, k/K/KiB=1024, kB/KB=1000, m/M/MiB, MB, g/G/GiB, GB, t/T/TiB, TB"

static int
diot_err(char *err, size_t errlen, const char *fmt, ...) DIOT_PRINTF(3, 4);

static int
diot_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (errlen > 0) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* Parse leading decimal digits; -1 on overflow or no digits. */
static int
diot_digits(const char *s, uint64_t *v, const char **end)
{
	uint64_t x = 0;
	const char *p = s;

	if (!isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p); p++) {
		unsigned d = (unsigned)(*p - '0');

		if (x > (UINT64_MAX - d) / 10)
			return -2;
		x = x * 10 + d;
	}
	*v = x;
	*end = p;
	return 0;
}

int
diot_parse_size(const char *s, uint64_t *out, int allow_zero, uint64_t max,
                char *err, size_t errlen)
{
	const char *end;
	uint64_t v;
	size_t i;
	int r;

	if (s == NULL || *s == '\0')
		return diot_err(err, errlen, "empty size");
	if (*s == '-')
		return diot_err(err, errlen, "'%s': negative sizes are not allowed", s);
	r = diot_digits(s, &v, &end);
	if (r == -1)
		return diot_err(err, errlen, "'%s': not a size (expected digits with an "
		                "optional suffix: " DIOT_SUFFIX_HELP ")", s);
	if (r == -2)
		return diot_err(err, errlen, "'%s': number too large", s);
	if (*end == '.' || *end == 'e' || *end == 'E')
		return diot_err(err, errlen, "'%s': sizes are whole numbers of bytes "
		                "(no fractions or exponents)", s);
	for (i = 0; i < sizeof(diot_suffixes) / sizeof(diot_suffixes[0]); i++)
		if (strcmp(end, diot_suffixes[i].name) == 0)
			break;
	if (i == sizeof(diot_suffixes) / sizeof(diot_suffixes[0]))
		return diot_err(err, errlen, "'%s': unknown suffix '%s' (allowed: "
		                DIOT_SUFFIX_HELP ")", s, end);
	if (v != 0 && diot_suffixes[i].mult > UINT64_MAX / v)
		return diot_err(err, errlen, "'%s': number too large", s);
	v *= diot_suffixes[i].mult;
	if (v == 0 && !allow_zero)
		return diot_err(err, errlen, "'%s': size must be greater than 0", s);
	if (v > max)
		return diot_err(err, errlen, "'%s' is %llu bytes: the largest allowed is "
		                "%llu", s, (unsigned long long)v, (unsigned long long)max);
	*out = v;
	return 0;
}

int
diot_parse_uint(const char *s, uint64_t *out, uint64_t min, uint64_t max,
                char *err, size_t errlen)
{
	const char *end;
	uint64_t v;
	int r;

	if (s == NULL || *s == '\0')
		return diot_err(err, errlen, "empty number");
	r = diot_digits(s, &v, &end);
	if (r == -2)
		return diot_err(err, errlen, "'%s': number too large", s);
	if (r == -1 || *end != '\0')
		return diot_err(err, errlen, "'%s': not a whole number", s);
	if (v < min || v > max)
		return diot_err(err, errlen, "'%s': must be between %llu and %llu", s,
		                (unsigned long long)min, (unsigned long long)max);
	*out = v;
	return 0;
}

int
diot_parse_duration(const char *s, uint64_t *ns, double max_s, char *err,
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
		return diot_err(err, errlen, "empty duration");
	for (; isdigit((unsigned char)*p); p++, digits++)
		v = v * 10 + (*p - '0');
	if (*p == '.')
		for (p++; isdigit((unsigned char)*p); p++, digits++)
			v += (*p - '0') * (scale /= 10);
	if (digits == 0)
		return diot_err(err, errlen, "'%s': not a duration (expected a number "
		                "with an optional unit ns, us, ms, s, m, h)", s);
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(p, units[i].u) == 0)
			break;
	if (i == sizeof(units) / sizeof(units[0]))
		return diot_err(err, errlen, "'%s': unknown unit '%s' (allowed: ns, us, "
		                "ms, s, m, h)", s, p);
	v *= units[i].mult;
	if (v < 1)
		return diot_err(err, errlen, "'%s': duration must be greater than 0", s);
	if (v > max_s * 1e9)
		return diot_err(err, errlen, "'%s': at most %g s allowed", s, max_s);
	*ns = (uint64_t)v;
	return 0;
}

static int
diot_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Shared list parser: item parser is sizes or plain integers. */
static int
diot_parse_list(const char *s, uint64_t **out, int sizes, uint64_t min,
                uint64_t max, char *err, size_t errlen)
{
	char *copy, *item, *save = NULL, *dots;
	uint64_t *v = NULL, a, b, x;
	size_t n = 0, cap = 0, i, j;
	char sub[256];

	*out = NULL;
	if (s == NULL || *s == '\0')
		return diot_err(err, errlen, "'' is empty");
	if (s[strlen(s) - 1] == ',' || *s == ',' || strstr(s, ",,"))
		return diot_err(err, errlen, "'%s': empty item in list", s);
	copy = strdup(s);
	if (copy == NULL)
		return diot_err(err, errlen, "out of memory");
	for (item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		dots = strstr(item, "..");
		if (dots)
			*dots = '\0';
#define DIOT_ONE(str, dst) \
	(sizes ? diot_parse_size(str, dst, min == 0, max, sub, sizeof(sub)) \
	       : diot_parse_uint(str, dst, min, max, sub, sizeof(sub)))
		if (DIOT_ONE(item, &a) != 0)
			goto bad;
		b = a;
		if (dots) {
			if (DIOT_ONE(dots + 2, &b) != 0)
				goto bad;
			if (b < a) {
				snprintf(sub, sizeof(sub), "range '%s..%s' runs backwards",
				         item, dots + 2);
				goto bad;
			}
			if (a == 0) {
				snprintf(sub, sizeof(sub), "range '%s..%s' cannot double "
				         "from 0", item, dots + 2);
				goto bad;
			}
		}
		for (x = a; x <= b; x *= 2) {
			if (n == cap) {
				uint64_t *nv;

				cap = cap ? cap * 2 : 16;
				nv = realloc(v, cap * sizeof(*v));
				if (nv == NULL) {
					snprintf(sub, sizeof(sub), "out of memory");
					goto bad;
				}
				v = nv;
			}
			v[n++] = x;
			if (x > UINT64_MAX / 2)
				break;
		}
#undef DIOT_ONE
	}
	free(copy);
	qsort(v, n, sizeof(*v), diot_cmp_u64);
	for (i = j = 0; i < n; i++)
		if (j == 0 || v[j - 1] != v[i])
			v[j++] = v[i];
	*out = v;
	return (int)j;
bad:
	free(copy);
	free(v);
	return diot_err(err, errlen, "%s", sub);
}

int
diot_parse_size_list(const char *s, uint64_t **out, int allow_zero, uint64_t max,
                     char *err, size_t errlen)
{
	return diot_parse_list(s, out, 1, allow_zero ? 0 : 1, max, err, errlen);
}

int
diot_parse_uint_list(const char *s, uint64_t **out, uint64_t min, uint64_t max,
                     char *err, size_t errlen)
{
	return diot_parse_list(s, out, 0, min, max, err, errlen);
}

char *
diot_fmt_size(uint64_t bytes, char *buf, size_t len)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	double v = (double)bytes;
	int u = 0;

	while (v >= 1024 && u < 5) {
		v /= 1024;
		u++;
	}
	if (u == 0 || v == floor(v))
		snprintf(buf, len, "%.0f %s", v, unit[u]);
	else
		snprintf(buf, len, "%.3g %s", v, unit[u]);
	return buf;
}

uint64_t
diot_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void
diot_json_str(FILE *fp, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	fputc('"', fp);
	for (; *p; p++) {
		switch (*p) {
		case '"':  fputs("\\\"", fp); break;
		case '\\': fputs("\\\\", fp); break;
		case '\n': fputs("\\n", fp); break;
		case '\r': fputs("\\r", fp); break;
		case '\t': fputs("\\t", fp); break;
		default:
			if (*p < 0x20)
				fprintf(fp, "\\u%04x", *p);
			else
				fputc(*p, fp);
		}
	}
	fputc('"', fp);
}

void
diot_csv_str(FILE *fp, const char *s)
{
	const char *p;

	if (s == NULL)
		s = "";
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
diot_json_num(FILE *fp, double v)
{
	if (isnan(v) || isinf(v))
		fputs("null", fp);
	else if (v == floor(v) && fabs(v) < 1e15)
		fprintf(fp, "%.0f", v);
	else
		fprintf(fp, "%.6g", v);
}
