/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_tools.c -- the tools' shared helpers (tools/kit/parse.c, opt.c,
 * fmt.c, msg.c, clock.c, fit.c): size and number parsing with their exact
 * messages, the option parser, formatting and escaping, and the
 * least-squares fit dio-rbuf's sweep relies on.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/kit/clock.h"
#include "tools/kit/fit.h"
#include "tools/kit/fmt.h"
#include "tools/kit/msg.h"
#include "tools/kit/opt.h"
#include "tools/kit/parse.h"
#include "tests/testutil.h"

static void
assert_size(const char *s, uint64_t want)
{
	char err[DIOT_ERR_MAX] = "";
	uint64_t v = 12345;

	ck_assert_msg(diot_parse_size(s, &v, err, sizeof(err)) == 0, "'%s': %s", s, err);
	ck_assert_msg(v == want, "'%s' gave %llu, want %llu", s, (unsigned long long)v,
	              (unsigned long long)want);
}

static void
assert_size_err(const char *s, int code, const char *msg)
{
	char err[DIOT_ERR_MAX] = "";
	uint64_t v = 777;

	ck_assert_int_eq(diot_parse_size(s, &v, err, sizeof(err)), code);
	ck_assert_msg(strstr(err, msg) != NULL, "'%s': error '%s' lacks '%s'", s, err, msg);
	ck_assert_uint_eq(v, 777);      /* untouched on failure */
}

START_TEST(test_size_suffixes)
{
	assert_size("0", 0);
	assert_size("4096", 4096);
	assert_size("1b", 512);
	assert_size("4k", 4096);
	assert_size("4K", 4096);
	assert_size("4KiB", 4096);
	assert_size("4kB", 4000);
	assert_size("4KB", 4000);
	assert_size("3M", 3u << 20);
	assert_size("3MiB", 3u << 20);
	assert_size("3MB", 3000000);
	assert_size("2G", 2ull << 30);
	assert_size("2GiB", 2ull << 30);
	assert_size("2GB", 2000000000ull);
	assert_size("1T", 1ull << 40);
	assert_size("1TiB", 1ull << 40);
	assert_size("1TB", 1000000000000ull);
	assert_size("200MiB", 209715200ull);
	assert_size("18446744073709551615", UINT64_MAX);
	assert_size("16777215T", 16777215ull << 40);
	/* dd's own: c (bytes), w (2-byte words), P and E */
	assert_size("7c", 7);
	assert_size("3w", 6);
	assert_size("2P", 2ull << 50);
	assert_size("1EB", 1000000000000000000ull);
}
END_TEST

START_TEST(test_size_errors)
{
	assert_size_err("4kk", -EINVAL, "unknown suffix 'kk' (allowed: c=1, w=2, b=512; k, "
	                "K, KiB, m, M, MiB, g, G, GiB, t, T, TiB, P, PiB, E, EiB: powers of "
	                "1024; kB, KB, MB, GB, TB, PB, EB: powers of 1000)");
	assert_size_err("4mb", -EINVAL, "unknown suffix 'mb'");
	assert_size_err("4 K", -EINVAL, "unknown suffix ' K'");
	assert_size_err("4Kib", -EINVAL, "unknown suffix 'Kib'");
	assert_size_err("", -EINVAL, "empty size");
	assert_size_err(NULL, -EINVAL, "empty size");
	assert_size_err("K", -EINVAL, "not a size");
	assert_size_err("-1", -EINVAL, "negative sizes are not allowed");
	assert_size_err("1e3", -EINVAL, "exponents are not supported");
	assert_size_err(" 1", -EINVAL, "not a size");
	assert_size_err("0x10", -EINVAL, "unknown suffix 'x10'");
	assert_size_err("1.5M", -EINVAL, "fractions are not supported");
	assert_size_err("18446744073709551616", -ERANGE, "too large");
	assert_size_err("16777216T", -ERANGE, "too large");
	assert_size_err("99999999999999999999999999", -ERANGE, "too large");
	/* A NULL or empty message buffer is allowed. */
	{
		uint64_t v;

		ck_assert_int_eq(diot_parse_size("4kk", &v, NULL, 0), -EINVAL);
	}
}
END_TEST

START_TEST(test_size_list_and_numbers)
{
	uint64_t n64 = 0;
	char err[DIOT_ERR_MAX];
	uint64_t *list = NULL;
	int idx = -1;
	static const char *const words[] = { "table", "csv", "json", NULL };

	/* lists: sorted, without duplicates, doubling ranges, bounds */
	ck_assert_int_eq(diot_parse_size_list("512K,4k,1000,4096", 1, UINT64_MAX, &list,
	                                      err, sizeof(err)), 3);
	ck_assert_uint_eq(list[0], 1000);
	ck_assert_uint_eq(list[1], 4096);
	ck_assert_uint_eq(list[2], 524288);
	free(list);
	ck_assert_int_eq(diot_parse_size_list("4k..32k,48k,1m..1m", 1, UINT64_MAX, &list,
	                                      err, sizeof(err)), 6);
	ck_assert_uint_eq(list[3], 32768);
	ck_assert_uint_eq(list[4], 49152);
	ck_assert_uint_eq(list[5], 1048576);
	free(list);
	ck_assert_int_eq(diot_parse_size_list("4k,,8k", 1, UINT64_MAX, &list, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_null(list);
	ck_assert_str_eq(err, "empty item 2 in the list");
	ck_assert_int_eq(diot_parse_size_list("4k,8q", 1, UINT64_MAX, &list, err, sizeof(err)),
	                 -EINVAL);
	ck_assert_msg(strncmp(err, "item '8q': unknown suffix 'q'", 29) == 0, "%s", err);
	ck_assert_int_eq(diot_parse_size_list("1m..4k", 1, UINT64_MAX, &list, err, sizeof(err)),
	                 -EINVAL);
	ck_assert_str_eq(err, "range '1m..4k' runs backwards");
	ck_assert_int_eq(diot_parse_size_list("0", 1, 100, &list, err, sizeof(err)), -ERANGE);
	ck_assert_str_eq(err, "item '0': size must be greater than 0");
	ck_assert_int_eq(diot_parse_size_list("2g", 1, 1u << 30, &list, err, sizeof(err)),
	                 -ERANGE);
	ck_assert_str_eq(err, "item '2g': 2147483648 bytes is above the largest allowed, "
	                 "1073741824");
	ck_assert_int_eq(diot_parse_size_list("4k,", 1, UINT64_MAX, &list, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(diot_parse_size_list("", 1, 100, &list, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(diot_parse_uint_list("1..8,3", 1, 256, &list, err, sizeof(err)), 5);
	ck_assert_uint_eq(list[2], 3);
	ck_assert_uint_eq(list[4], 8);
	free(list);
	ck_assert_int_eq(diot_parse_uint_list("0,1", 1, 256, &list, err, sizeof(err)), -ERANGE);
	ck_assert_str_eq(err, "item '0': out of range (1 to 256)");

	/* durations */
	ck_assert_int_eq(diot_parse_duration("1.5ms", 10, &n64, err, sizeof(err)), 0);
	ck_assert_uint_eq(n64, 1500000);
	ck_assert_int_eq(diot_parse_duration("2", 10, &n64, err, sizeof(err)), 0);
	ck_assert_uint_eq(n64, 2000000000u);
	ck_assert_int_eq(diot_parse_duration("0", 10, &n64, err, sizeof(err)), -ERANGE);
	ck_assert_int_eq(diot_parse_duration("1m", 10, &n64, err, sizeof(err)), -ERANGE);
	ck_assert_str_eq(err, "at most 10 s allowed");
	ck_assert_int_eq(diot_parse_duration("5x", 10, &n64, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "unknown unit 'x' (allowed: ns, us, ms, s, m, h)");
	ck_assert_int_eq(diot_parse_duration("ms", 10, &n64, err, sizeof(err)), -EINVAL);

	ck_assert_int_eq(diot_parse_uint("255", 0, 255, &n64, err, sizeof(err)), 0);
	ck_assert_uint_eq(n64, 255);
	ck_assert_int_eq(diot_parse_uint("256", 0, 255, &n64, err, sizeof(err)), -ERANGE);
	ck_assert_str_eq(err, "out of range (0 to 255)");
	ck_assert_int_eq(diot_parse_uint("0", 1, 9, &n64, err, sizeof(err)), -ERANGE);
	ck_assert_int_eq(diot_parse_uint("12a", 0, 255, &n64, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "not a decimal number");
	ck_assert_int_eq(diot_parse_uint("4k", 0, 1u << 20, &n64, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(diot_parse_uint("99999999999999999999999", 0, 9, &n64, err,
	                                 sizeof(err)), -ERANGE);

	ck_assert_int_eq(diot_parse_word("csv", words, &idx, err, sizeof(err)), 0);
	ck_assert_int_eq(idx, 1);
	ck_assert_int_eq(diot_parse_word("xml", words, &idx, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "unknown value 'xml' (allowed: table, csv, json)");
}
END_TEST

/* A writable argv (main's type) from string literals; free with free_argv(). */
static char **
make_argv(const char *const *lit)
{
	size_t n = 0, i;
	char **v;

	while (lit[n] != NULL)
		n++;
	v = calloc(n + 1, sizeof(*v));
	ck_assert_ptr_nonnull(v);
	for (i = 0; i < n; i++) {
		v[i] = strdup(lit[i]);
		ck_assert_ptr_nonnull(v[i]);
	}
	return v;
}

static void
free_argv(char **v)
{
	size_t i;

	for (i = 0; v[i] != NULL; i++)
		free(v[i]);
	free(v);
}

enum { O_SIZE = 1, O_VERB, O_SWEEP, O_DIRECT };
static const struct diot_opt topts[] = {
	{ "size", 's', DIOT_REQ_ARG, O_SIZE },
	{ "verbose", 'v', DIOT_NO_ARG, O_VERB },
	{ "sweep", 0, DIOT_NO_ARG, O_SWEEP },
	{ "direct", 'd', DIOT_NO_ARG, O_DIRECT },
	{ NULL, 0, 0, 0 }
};

START_TEST(test_getopt)
{
	static const char *const lit[] = { "prog", "-dv", "--size=4k", "DEV", "-s", "8k",
	                                   "-s16k", "--sweep", "--", "-v", NULL };
	char **argv = make_argv(lit);
	int argc = 10;
	struct diot_optstate st;

	diot_getopt_init(&st);
	ck_assert_int_eq(diot_getopt(argc, argv, topts, &st), O_DIRECT);
	ck_assert_str_eq(st.name, "-d");
	ck_assert_int_eq(diot_getopt(argc, argv, topts, &st), O_VERB);
	ck_assert_int_eq(diot_getopt(argc, argv, topts, &st), O_SIZE);
	ck_assert_str_eq(st.arg, "4k");
	ck_assert_str_eq(st.name, "--size");
	ck_assert_int_eq(diot_getopt(argc, argv, topts, &st), DIOT_OPT_OPERAND);
	ck_assert_str_eq(st.arg, "DEV");
	ck_assert_int_eq(diot_getopt(argc, argv, topts, &st), O_SIZE);
	ck_assert_str_eq(st.arg, "8k");
	ck_assert_str_eq(st.name, "-s");
	ck_assert_int_eq(diot_getopt(argc, argv, topts, &st), O_SIZE);
	ck_assert_str_eq(st.arg, "16k");
	ck_assert_int_eq(diot_getopt(argc, argv, topts, &st), O_SWEEP);
	/* After "--" everything is an operand. */
	ck_assert_int_eq(diot_getopt(argc, argv, topts, &st), DIOT_OPT_OPERAND);
	ck_assert_str_eq(st.arg, "-v");
	ck_assert_int_eq(diot_getopt(argc, argv, topts, &st), DIOT_OPT_END);
	free_argv(argv);
}
END_TEST

START_TEST(test_getopt_errors)
{
	static const char *const l1[] = { "prog", "--nope", NULL };
	static const char *const l2[] = { "prog", "--size", NULL };
	static const char *const l3[] = { "prog", "--verbose=3", NULL };
	static const char *const l4[] = { "prog", "-vx", NULL };
	static const char *const l5[] = { "prog", "-s", NULL };
	static const char *const l6[] = { "prog", "-", NULL };
	static const char *const l7[] = { "prog", "--siz", "4k", "--s", NULL };
	char **a1 = make_argv(l1), **a2 = make_argv(l2), **a3 = make_argv(l3);
	char **a4 = make_argv(l4), **a5 = make_argv(l5), **a6 = make_argv(l6);
	char **a7 = make_argv(l7);
	struct diot_optstate st;

	diot_getopt_init(&st);
	ck_assert_int_eq(diot_getopt(2, a1, topts, &st), DIOT_OPT_ERROR);
	ck_assert_str_eq(st.err, "unknown option '--nope'");
	diot_getopt_init(&st);
	ck_assert_int_eq(diot_getopt(2, a2, topts, &st), DIOT_OPT_ERROR);
	ck_assert_str_eq(st.err, "option '--size' needs an argument");
	diot_getopt_init(&st);
	ck_assert_int_eq(diot_getopt(2, a3, topts, &st), DIOT_OPT_ERROR);
	ck_assert_str_eq(st.err, "option '--verbose' takes no argument");
	diot_getopt_init(&st);
	ck_assert_int_eq(diot_getopt(2, a4, topts, &st), O_VERB);
	ck_assert_int_eq(diot_getopt(2, a4, topts, &st), DIOT_OPT_ERROR);
	ck_assert_str_eq(st.err, "unknown option '-x'");
	ck_assert_int_eq(diot_getopt(2, a4, topts, &st), DIOT_OPT_END);
	diot_getopt_init(&st);
	ck_assert_int_eq(diot_getopt(2, a5, topts, &st), DIOT_OPT_ERROR);
	ck_assert_str_eq(st.err, "option '-s' needs an argument");
	diot_getopt_init(&st);
	ck_assert_int_eq(diot_getopt(2, a6, topts, &st), DIOT_OPT_OPERAND);
	ck_assert_str_eq(st.arg, "-");
	/* No abbreviations (getopt_long would take "--siz" for --size). */
	diot_getopt_init(&st);
	ck_assert_int_eq(diot_getopt(4, a7, topts, &st), DIOT_OPT_ERROR);
	ck_assert_str_eq(st.err, "unknown option '--siz'");
	ck_assert_int_eq(diot_getopt(4, a7, topts, &st), DIOT_OPT_OPERAND);
	ck_assert_str_eq(st.arg, "4k");
	ck_assert_int_eq(diot_getopt(4, a7, topts, &st), DIOT_OPT_ERROR);
	ck_assert_str_eq(st.err, "unknown option '--s'");
	free_argv(a7);
	free_argv(a1);
	free_argv(a2);
	free_argv(a3);
	free_argv(a4);
	free_argv(a5);
	free_argv(a6);
}
END_TEST

START_TEST(test_formatting)
{
	char b[64];
	char *mem = NULL;
	size_t len = 0;
	FILE *fp;

	ck_assert_str_eq(diot_fmt_iec(512, b, sizeof(b)), "512 bytes");
	ck_assert_str_eq(diot_fmt_iec(262144, b, sizeof(b)), "256 KiB");
	ck_assert_str_eq(diot_fmt_iec(209715200, b, sizeof(b)), "200 MiB");
	ck_assert_str_eq(diot_fmt_iec(1536 * 1024, b, sizeof(b)), "1.5 MiB");
	ck_assert_str_eq(diot_fmt_iec(1ull << 40, b, sizeof(b)), "1 TiB");
	ck_assert_str_eq(diot_fmt_short(4096, b, sizeof(b)), "4K");
	ck_assert_str_eq(diot_fmt_short(524288, b, sizeof(b)), "512K");
	ck_assert_str_eq(diot_fmt_short(3u << 20, b, sizeof(b)), "3M");
	ck_assert_str_eq(diot_fmt_short(1000, b, sizeof(b)), "1000");

	fp = open_memstream(&mem, &len);
	ck_assert_ptr_nonnull(fp);
	diot_json_string(fp, "a\"b\\c\n\x01");
	fputc('|', fp);
	diot_csv_field(fp, "plain");
	fputc('|', fp);
	diot_csv_field(fp, "a,\"b\"");
	fputc('|', fp);
	diot_xml_text(fp, "<a & 'b'>");
	fputc('|', fp);
	diot_xml_text(fp, "\xc3\xa9\t\x01\xff");    /* UTF-8, tab; U+FFFD for the rest */
	fclose(fp);
	ck_assert_str_eq(mem, "\"a\\\"b\\\\c\\n\\u0001\"|plain|\"a,\"\"b\"\"\"|"
	                 "&lt;a &amp; &apos;b&apos;&gt;|\xc3\xa9\t&#xFFFD;&#xFFFD;");
	free(mem);
}
END_TEST

START_TEST(test_fit)
{
	/* The study's shape: fixed transfer, more commands at smaller sizes;
	 * time = commands * 500 us + bytes / 70 MB/s exactly. */
	const double bytes = 1073741824.0;
	const double sizes[6] = { 524288, 262144, 32768, 16384, 8192, 4096 };
	double x1[6], x2[6], y[6], a, b, r2;
	size_t i;

	for (i = 0; i < 6; i++) {
		x1[i] = bytes / sizes[i];
		x2[i] = bytes;
		y[i] = x1[i] * 500e-6 + bytes / 70e6;
	}
	ck_assert_int_eq(diot_fit2(x1, x2, y, 6, &a, &b, &r2), 0);
	ck_assert_msg(fabs(a - 500e-6) < 1e-9, "latency %g", a);
	ck_assert_msg(fabs(1.0 / b - 70e6) < 1.0, "bandwidth %g", 1.0 / b);
	ck_assert_msg(fabs(r2 - 1.0) < 1e-9, "r2 %g", r2);

	/* Noise lowers R² but keeps the estimate close. */
	y[0] *= 1.02;
	y[5] *= 0.99;
	ck_assert_int_eq(diot_fit2(x1, x2, y, 6, &a, &b, &r2), 0);
	ck_assert_msg(r2 < 1.0 && r2 > 0.99, "r2 %g", r2);
	ck_assert_msg(fabs(a - 500e-6) < 20e-6, "latency %g", a);

	/* Too few points, or collinear columns, cannot be fitted. */
	ck_assert_int_eq(diot_fit2(x1, x2, y, 1, &a, &b, &r2), -EDOM);
	ck_assert_int_eq(diot_fit2(x2, x2, y, 6, &a, &b, &r2), -EDOM);
}
END_TEST

START_TEST(test_clocks)
{
	double t0 = diot_now(), t1, u = -1, s = -1;
	volatile double x = 0;
	long i;

	for (i = 0; i < 2000000; i++)
		x += (double)i;
	t1 = diot_now();
	ck_assert(t1 >= t0);
	ck_assert_int_eq(diot_cpu_times(&u, &s), 0);
	ck_assert(u >= 0 && s >= 0);
	ck_assert(x > 0);
}
END_TEST

/* Messages are never cut, and stay one line whatever the names in them. */
START_TEST(test_messages)
{
	static char body[20001], got[20100];
	char tmpl[] = "/tmp/check_tools.XXXXXX", *v;
	int fd = mkstemp(tmpl), saved = dup(2);
	ssize_t n;

	ck_assert_int_ge(fd, 0);
	unlink(tmpl);
	memset(body, 'p', sizeof(body) - 1);
	memcpy(body + sizeof(body) - 8, ": why", 6);    /* the reason at the end */
	fflush(stderr);
	ck_assert_int_eq(dup2(fd, 2), 2);
	diot_warn("%s", body);
	diot_warn("a '%s' b", "new\nline\t\x01\x7f\xff\xc3\xa9");
	fflush(stderr);
	dup2(saved, 2);
	n = pread(fd, got, sizeof(got) - 1, 0);
	close(fd);
	ck_assert_int_gt(n, 0);
	got[n] = '\0';
	ck_assert_uint_eq(strlen(diot_prog) + 2 + strlen(body) + 1 +
	                  strlen(diot_prog) + 2 + strlen("a 'new\\nline\\t\\x01\\x7f\\xff\xc3\xa9' b") + 1,
	                  (size_t)n);
	ck_assert(strncmp(got + strlen(diot_prog) + 2, body, strlen(body)) == 0);
	ck_assert(strstr(got, ": why\n") != NULL);
	ck_assert(strstr(got, ": a 'new\\nline\\t\\x01\\x7f\\xff\xc3\xa9' b\n") != NULL);

	v = diot_visible("ok \xc3\xa9\r\x1b\xc0\xaf");
	ck_assert_str_eq(v, "ok \xc3\xa9\\r\\x1b\\xc0\\xaf");
	free(v);
	v = diot_visible(NULL);
	ck_assert_str_eq(v, "");
	free(v);
}
END_TEST

/* A table column of UTF-8 text: characters, not bytes, never cut inside. */
START_TEST(test_columns)
{
	char *mem = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&mem, &len);

	ck_assert_ptr_nonnull(fp);
	diot_put_cols(fp, "\xce\xb1\xce\xb2\xce\xb3\xce\xb4", 3, 1);   /* 4 Greek letters */
	fputc('|', fp);
	diot_put_cols(fp, "ab", 4, 1);
	fputc('|', fp);
	diot_put_cols(fp, "ab", 4, 0);
	fputc('|', fp);
	diot_put_cols(fp, "\xffz", 1, 1);
	fputc('|', fp);
	diot_put_cols(fp, NULL, 2, 1);
	fclose(fp);
	ck_assert_str_eq(mem, "\xce\xb1\xce\xb2\xce\xb3|ab  |ab|\xff|  ");
	free(mem);
}
END_TEST

static Suite *
tools_suite(void)
{
	Suite *s = suite_create("tools");
	TCase *tc = tcase_create("util");

	tcase_add_test(tc, test_size_suffixes);
	tcase_add_test(tc, test_size_errors);
	tcase_add_test(tc, test_size_list_and_numbers);
	tcase_add_test(tc, test_getopt);
	tcase_add_test(tc, test_getopt_errors);
	tcase_add_test(tc, test_formatting);
	tcase_add_test(tc, test_fit);
	tcase_add_test(tc, test_clocks);
	tcase_add_test(tc, test_messages);
	tcase_add_test(tc, test_columns);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(srunner_create(tools_suite()));
}
