/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_jread.c -- the tools' JSON reader (tools/kit/jread.c): values,
 * nesting, string escapes, the strictness rules, where errors are, and a
 * round trip through the tools' JSON writer.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/kit/jread.h"
#include "tools/kit/json.h"

static struct diot_jr *
parse_ok(const char *text)
{
	struct diot_jr *v;
	char err[200];
	int r = diot_jr_parse(text, strlen(text), &v, err, sizeof(err));

	ck_assert_msg(r == 0, "'%s' refused: %s", text, err);
	return v;
}

START_TEST(test_values)
{
	struct diot_jr *v = parse_ok(" {\"a\": 1, \"b\": [true, false, null, -2.5e3, \"x\"],"
	                             " \"c\": {}, \"d\": [], \"e\": 0.125}\n");
	const struct diot_jr *b;

	ck_assert_int_eq(diot_jr_type(v), DIOT_JR_OBJ);
	ck_assert_int_eq(diot_jr_count(v), 5);
	ck_assert(diot_jr_num(diot_jr_get(v, "a"), 0) == 1);
	b = diot_jr_get(v, "b");
	ck_assert_int_eq(diot_jr_type(b), DIOT_JR_ARR);
	ck_assert_int_eq(diot_jr_count(b), 5);
	ck_assert_int_eq(diot_jr_bool(diot_jr_kid(b, 0), -1), 1);
	ck_assert_int_eq(diot_jr_bool(diot_jr_kid(b, 1), -1), 0);
	ck_assert_int_eq(diot_jr_type(diot_jr_kid(b, 2)), DIOT_JR_NULL);
	ck_assert(diot_jr_num(diot_jr_kid(b, 3), 0) == -2500);
	ck_assert_str_eq(diot_jr_str(diot_jr_kid(b, 4)), "x");
	ck_assert_int_eq(diot_jr_type(diot_jr_get(v, "c")), DIOT_JR_OBJ);
	ck_assert_int_eq(diot_jr_count(diot_jr_get(v, "d")), 0);
	ck_assert(diot_jr_num(diot_jr_get(v, "e"), 0) == 0.125);
	/* Lookups forgive what is absent or of another type. */
	ck_assert_ptr_null(diot_jr_get(v, "zz"));
	ck_assert_ptr_null(diot_jr_get(b, "a"));
	ck_assert_ptr_null(diot_jr_get(NULL, "a"));
	ck_assert(diot_jr_num(diot_jr_get(v, "b"), 7) == 7);
	ck_assert_ptr_null(diot_jr_str(diot_jr_get(v, "a")));
	ck_assert_int_eq(diot_jr_bool(NULL, 3), 3);
	diot_jr_free(v);
	/* A scalar is a document too. */
	v = parse_ok("42");
	ck_assert(diot_jr_num(v, 0) == 42);
	diot_jr_free(v);
}
END_TEST

START_TEST(test_strings)
{
	struct diot_jr *v = parse_ok("[\"q\\\"b\\\\s\\/n\\n t\\t\", \"\\u00e9\\u20ac\","
	                             " \"\\ud83d\\ude00\", \"raw \xc3\xa9\"]");

	ck_assert_str_eq(diot_jr_str(diot_jr_kid(v, 0)), "q\"b\\s/n\n t\t");
	ck_assert_str_eq(diot_jr_str(diot_jr_kid(v, 1)), "\xc3\xa9\xe2\x82\xac");
	ck_assert_str_eq(diot_jr_str(diot_jr_kid(v, 2)), "\xf0\x9f\x98\x80");
	ck_assert_str_eq(diot_jr_str(diot_jr_kid(v, 3)), "raw \xc3\xa9");
	diot_jr_free(v);
}
END_TEST

/* Refused, with the place and the reason. */
START_TEST(test_refused)
{
	static const struct {
		const char *text, *where, *why;
	} bad[] = {
		{ "", "line 1, column 1", "ends where a value" },
		{ "{\"a\": 1,}", "column 9", "expected a key" },
		{ "[1, 2,]", "column 7", "unexpected ']'" },
		{ "{\"a\" 1}", "column 6", "expected ':'" },
		{ "[1 2]", "column 4", "expected ',' or ']'" },
		{ "{\n \"a\": 01}", "line 2, column 7", "leading zero" },
		{ "[1.]", "column 4", "decimal point" },
		{ "[1e]", "column 4", "exponent" },
		{ "[-]", "column 3", "needs a digit" },
		{ "NaN", "column 1", "unexpected 'N'" },
		{ "[tru]", "column 2", "unexpected 't'" },
		{ "\"abc", "column 1", "never closed" },
		{ "\"a\\qb\"", "column 4", "unknown escape" },
		{ "\"\\u12\"", "column 6", "four hexadecimal" },
		{ "\"\\u0000\"", "column 8", "NUL" },
		{ "\"\\udc00\"", "", "lone low surrogate" },
		{ "\"\\ud800x\"", "", "without its low half" },
		{ "\"a\tb\"", "column 3", "control character (0x09)" },
		{ "{} {}", "column 4", "text after the end" },
		{ "// c\n{}", "column 1", "unexpected '/'" },
		{ "['a']", "column 2", "unexpected '''" },
	};
	char err[200], deep[200];
	struct diot_jr *v;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		ck_assert_msg(diot_jr_parse(bad[i].text, strlen(bad[i].text), &v, err,
		                            sizeof(err)) == -EINVAL, "'%s' accepted", bad[i].text);
		ck_assert_ptr_null(v);
		ck_assert_msg(strstr(err, bad[i].where) && strstr(err, bad[i].why),
		              "'%s': '%s', want '%s' and '%s'", bad[i].text, err, bad[i].where,
		              bad[i].why);
	}
	/* Depth: 64 levels are read, 65 refused. */
	memset(deep, '[', 64);
	memset(deep + 64, ']', 64);
	ck_assert_int_eq(diot_jr_parse(deep, 128, &v, err, sizeof(err)), 0);
	diot_jr_free(v);
	memset(deep, '[', 65);
	memset(deep + 65, ']', 65);
	ck_assert_int_eq(diot_jr_parse(deep, 130, &v, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "nested deeper than 64") != NULL, "%s", err);
	/* A NUL byte in the text is a character like any other: refused. */
	ck_assert_int_eq(diot_jr_parse("[1,\0 2]", 7, &v, err, sizeof(err)), -EINVAL);
	/* No room for a message is no crash. */
	ck_assert_int_eq(diot_jr_parse("[", 1, &v, NULL, 0), -EINVAL);
}
END_TEST

/* A number a double cannot hold is refused where it is, by line and by
 * member; one too small is read as what strtod() makes of it. */
START_TEST(test_range)
{
	static const struct {
		const char *text, *where, *num;
	} big[] = {
		{ "{\"points\": [{\"a\": 1},\n {\"aggregate\": {\"mb_per_s\": 1e400}}]}",
		  "line 2, column 29: points[1].aggregate.mb_per_s: ", "1e400" },
		{ "[11e308]", "line 1, column 2: [0]: ", "11e308" },
		{ "{\"x\": -1.8e308}", "line 1, column 7: x: ", "-1.8e308" },
		{ "1e99999999999999999999", "line 1, column 1: the number", "1e9999" },
	};
	struct diot_jr *v;
	char err[300];
	size_t i;

	for (i = 0; i < sizeof(big) / sizeof(big[0]); i++) {
		ck_assert_int_eq(diot_jr_parse(big[i].text, strlen(big[i].text), &v, err,
		                               sizeof(err)), -ERANGE);
		ck_assert_ptr_null(v);
		ck_assert_msg(strstr(err, big[i].where) != NULL && strstr(err, big[i].num) &&
		              strstr(err, "beyond the range of a double"), "'%s': '%s'",
		              big[i].text, err);
	}
	/* Refused in a member a keep function leaves out, too. */
	ck_assert_int_eq(diot_jr_parse_keep("{\"skip\": [1e400]}", 17, NULL, NULL, &v, err,
	                                    sizeof(err)), -ERANGE);
	/* The largest and smallest doubles are read. */
	v = parse_ok("[1.7976931348623157e308, -1.7e308, 5e-324, 1e-400, 0e999999]");
	ck_assert(diot_jr_num(diot_jr_kid(v, 0), 0) == 1.7976931348623157e308);
	ck_assert(diot_jr_num(diot_jr_kid(v, 1), 0) == -1.7e308);
	ck_assert(diot_jr_num(diot_jr_kid(v, 2), 0) > 0);
	ck_assert(diot_jr_num(diot_jr_kid(v, 3), 1) == 0);
	ck_assert(diot_jr_num(diot_jr_kid(v, 4), 1) == 0);
	for (i = 0; i < 5; i++)
		ck_assert(isfinite(diot_jr_num(diot_jr_kid(v, (int)i), NAN)));
	diot_jr_free(v);
}
END_TEST

/* Keep only "a" at the top, the objects in it, and their "b". */
static int
keep_ab(const struct diot_jr_step *path, int n, int type, void *arg)
{
	int *calls = arg;

	(*calls)++;
	if (n == 1)
		return strcmp(path[0].key, "a") == 0;
	if (n == 2)
		return path[1].key == NULL && type == DIOT_JR_OBJ;
	if (n == 3 && path[1].key == NULL && path[1].index < 2)
		return strcmp(path[2].key, "b") == 0;
	return 1;
}

START_TEST(test_keep)
{
	const char *text = "{\"z\": [1, 2, {\"b\": 3}], \"a\": [{\"b\": \"x\", \"c\": [5]}, "
	                   "{\"c\": 1}, 7, [8]], \"y\": \"long string left out\"}";
	const struct diot_jr *a;
	struct diot_jr *v;
	char err[200];
	int calls = 0;

	ck_assert_int_eq(diot_jr_parse_keep(text, strlen(text), keep_ab, &calls, &v, err,
	                                    sizeof(err)), 0);
	/* Asked in both readings: 3 top members, a's 4 elements, and the 3
	 * members of its objects. */
	ck_assert_int_eq(calls, 2 * 10);
	ck_assert_int_eq(diot_jr_count(v), 1);
	ck_assert_str_eq(diot_jr_key(diot_jr_kid(v, 0)), "a");
	a = diot_jr_get(v, "a");
	ck_assert_int_eq(diot_jr_count(a), 2);
	ck_assert_int_eq(diot_jr_count(diot_jr_kid(a, 0)), 1);
	ck_assert_str_eq(diot_jr_str(diot_jr_get(diot_jr_kid(a, 0), "b")), "x");
	ck_assert_ptr_null(diot_jr_get(diot_jr_kid(a, 0), "c"));
	ck_assert_int_eq(diot_jr_count(diot_jr_kid(a, 1)), 0);
	ck_assert_ptr_null(diot_jr_get(v, "z"));
	/* Lookups of what is not there. */
	ck_assert_ptr_null(diot_jr_kid(a, 2));
	ck_assert_ptr_null(diot_jr_kid(a, -1));
	ck_assert_ptr_null(diot_jr_kid(NULL, 0));
	ck_assert_ptr_null(diot_jr_key(v));
	ck_assert_int_eq(diot_jr_type(NULL), -1);
	diot_jr_free(v);
}
END_TEST

/* The tree is compact: 16 bytes a value, in one allocation of the size
 * needed; a million values read (16 MB, where it was 48 MB and more). */
START_TEST(test_compact)
{
	size_t n = 1000000, i;
	char *text = malloc(2 * n + 2), err[200];
	struct diot_jr *v;

	ck_assert_uint_eq(sizeof(struct diot_jr), 16);
	ck_assert_ptr_nonnull(text);
	text[0] = '[';
	for (i = 0; i < n; i++) {
		text[1 + 2 * i] = '7';
		text[2 + 2 * i] = i + 1 < n ? ',' : ']';
	}
	ck_assert_int_eq(diot_jr_parse(text, 2 * n + 1, &v, err, sizeof(err)), 0);
	ck_assert_int_eq(diot_jr_count(v), (int)n);
	ck_assert(diot_jr_num(diot_jr_kid(v, (int)n - 1), 0) == 7);
	diot_jr_free(v);
	/* Longer than DIOT_JR_MAX_TEXT: refused before reading (the text is not
	 * looked at, so its size alone is enough to pass). */
	ck_assert_int_eq(diot_jr_parse(text, DIOT_JR_MAX_TEXT + 1, &v, err, sizeof(err)),
	                 -EFBIG);
	ck_assert_msg(strstr(err, "at most") != NULL, "%s", err);
	free(text);
}
END_TEST

/* What the tools' writer writes, the reader reads back the same. */
START_TEST(test_round_trip)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct diot_json j;
	struct diot_jr *v;
	const struct diot_jr *a;

	ck_assert_ptr_nonnull(fp);
	diot_json_init(&j, fp, 2);
	diot_json_object(&j, NULL);
	diot_json_str(&j, "s", "tab\there \"quoted\" \x01 \xc3\xa9");
	diot_json_double(&j, "d", 1234.5678901234);
	diot_json_i64(&j, "i", -9007199254740991LL);
	diot_json_array(&j, "a");
	diot_json_null(&j, NULL);
	diot_json_bool(&j, NULL, 1);
	diot_json_close(&j);
	diot_json_close(&j);
	ck_assert_int_eq(diot_json_end(&j), 0);
	fclose(fp);
	v = parse_ok(buf);
	ck_assert_str_eq(diot_jr_str(diot_jr_get(v, "s")), "tab\there \"quoted\" \x01 \xc3\xa9");
	ck_assert(fabs(diot_jr_num(diot_jr_get(v, "d"), 0) - 1234.5678901234) < 1e-9);
	ck_assert(diot_jr_num(diot_jr_get(v, "i"), 0) == -9007199254740991.0);
	a = diot_jr_get(v, "a");
	ck_assert_int_eq(diot_jr_count(a), 2);
	ck_assert_int_eq(diot_jr_type(diot_jr_kid(a, 0)), DIOT_JR_NULL);
	ck_assert_int_eq(diot_jr_bool(diot_jr_kid(a, 1), 0), 1);
	diot_jr_free(v);
	free(buf);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("jread");
	TCase *tc = tcase_create("jread");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, test_values);
	tcase_add_test(tc, test_strings);
	tcase_add_test(tc, test_refused);
	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_range);
	tcase_add_test(tc, test_keep);
	tcase_add_test(tc, test_compact);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? 0 : 1;
}
