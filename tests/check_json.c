/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_json.c -- the tools' streaming JSON writer (tools/kit/json.c):
 * escaping of every class of byte, nesting and commas in both layouts,
 * numbers, every kind of misuse (-EINVAL, output still parseable), write
 * errors (-EIO), and a generated document read back by python3's json
 * module when python3 is there.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/kit/fmt.h"
#include "tools/kit/json.h"
#include "tests/testutil.h"

/* A writer on a memory stream; done() ends it and returns the text. */
struct mem {
	struct diot_json j;
	FILE *fp;
	char *buf;
	size_t len;
	int rc;
};

static void
start(struct mem *m, int indent)
{
	m->buf = NULL;
	m->len = 0;
	m->fp = open_memstream(&m->buf, &m->len);
	ck_assert_ptr_nonnull(m->fp);
	diot_json_init(&m->j, m->fp, indent);
}

static const char *
done(struct mem *m)
{
	m->rc = diot_json_end(&m->j);
	ck_assert_int_eq(fclose(m->fp), 0);
	return m->buf;
}

/* End m and check its text and return code. */
static void
expect(struct mem *m, const char *text, int rc)
{
	const char *got = done(m);

	ck_assert_str_eq(got, text);
	ck_assert_int_eq(m->rc, rc);
	free(m->buf);
}

/* The quoted form of one string, through diot_json_quote(). */
static char *
quote(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(fp);
	diot_json_quote(fp, s);
	fclose(fp);
	return buf;
}

static void
assert_quote(const char *s, const char *want)
{
	char *got = quote(s);

	ck_assert_str_eq(got, want);
	free(got);
}

START_TEST(test_escape_classes)
{
	assert_quote("", "\"\"");
	assert_quote(NULL, "null");
	assert_quote("plain text 123", "\"plain text 123\"");
	assert_quote("a\"b", "\"a\\\"b\"");
	assert_quote("a\\b", "\"a\\\\b\"");
	assert_quote("/", "\"/\"");                     /* no need to escape */
	assert_quote("\b\f\n\r\t", "\"\\b\\f\\n\\r\\t\"");
	assert_quote("\x01\x02\x1b\x1f", "\"\\u0001\\u0002\\u001b\\u001f\"");
	assert_quote("\x7f", "\"\x7f\"");               /* DEL is not a control here */
	assert_quote("\xc2\xb5s \xe2\x82\xac", "\"\xc2\xb5s \xe2\x82\xac\"");  /* UTF-8 */
	assert_quote("\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"");      /* 4 bytes */
	/* Not UTF-8 (a path is bytes): U+FFFD for each such byte, the rest
	 * kept, so that the document is valid JSON whatever the string. */
	assert_quote("\x80\xfe\xff", "\"\\ufffd\\ufffd\\ufffd\"");
	assert_quote("a\xff" "b", "\"a\\ufffdb\"");
	assert_quote("\xc0\xaf", "\"\\ufffd\\ufffd\"");              /* overlong '/' */
	assert_quote("\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\"");     /* overlong */
	assert_quote("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"");     /* a surrogate */
	assert_quote("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");  /* > U+10FFFF */
	assert_quote("\xe2\x82", "\"\\ufffd\\ufffd\"");              /* cut short */
	assert_quote("\xe2\x82\n", "\"\\ufffd\\ufffd\\n\"");
	ck_assert_uint_eq(diot_utf8_invalid("ok \xc2\xb5 \xff\xfe"), 2);
	ck_assert_uint_eq(diot_utf8_invalid("\xe2\x82\xac"), 0);
	ck_assert_uint_eq(diot_utf8_invalid(NULL), 0);
}
END_TEST

START_TEST(test_escape_every_byte)
{
	char in[2] = { 0, 0 }, want[16];
	int c;

	for (c = 1; c < 256; c++) {
		in[0] = (char)c;
		switch (c) {
		case '"':  strcpy(want, "\"\\\"\""); break;
		case '\\': strcpy(want, "\"\\\\\""); break;
		case 8:    strcpy(want, "\"\\b\""); break;
		case 9:    strcpy(want, "\"\\t\""); break;
		case 10:   strcpy(want, "\"\\n\""); break;
		case 12:   strcpy(want, "\"\\f\""); break;
		case 13:   strcpy(want, "\"\\r\""); break;
		default:
			if (c < 0x20)
				snprintf(want, sizeof(want), "\"\\u%04x\"", c);
			else if (c >= 0x80)     /* alone, no such byte is UTF-8 */
				strcpy(want, "\"\\ufffd\"");
			else
				snprintf(want, sizeof(want), "\"%c\"", c);
		}
		assert_quote(in, want);
	}
}
END_TEST

/* The same document in both layouts. */
static void
nested_doc(struct diot_json *j)
{
	diot_json_object(j, NULL);
	diot_json_str(j, "tool", "t");
	diot_json_array(j, "runs");
	diot_json_object(j, NULL);
	diot_json_u64(j, "size", 4096);
	diot_json_bool(j, "ok", 1);
	diot_json_close(j);
	diot_json_object(j, NULL);
	diot_json_bool(j, "ok", 0);
	diot_json_null(j, "why");
	diot_json_close(j);
	diot_json_array(j, NULL);
	diot_json_close(j);
	diot_json_object(j, NULL);
	diot_json_close(j);
	diot_json_close(j);
	diot_json_object(j, "empty");
	diot_json_close(j);
	diot_json_array(j, "list");
	diot_json_i64(j, NULL, -1);
	diot_json_str(j, NULL, "x");
	diot_json_close(j);
	diot_json_close(j);
}

START_TEST(test_nesting_one_line)
{
	struct mem m;

	start(&m, 0);
	nested_doc(&m.j);
	expect(&m, "{\"tool\": \"t\", \"runs\": [{\"size\": 4096, \"ok\": true}, "
	       "{\"ok\": false, \"why\": null}, [], {}], \"empty\": {}, "
	       "\"list\": [-1, \"x\"]}\n", 0);
}
END_TEST

START_TEST(test_nesting_indented)
{
	struct mem m;

	start(&m, 2);
	nested_doc(&m.j);
	expect(&m,
	       "{\n"
	       "  \"tool\": \"t\",\n"
	       "  \"runs\": [\n"
	       "    {\n"
	       "      \"size\": 4096,\n"
	       "      \"ok\": true\n"
	       "    },\n"
	       "    {\n"
	       "      \"ok\": false,\n"
	       "      \"why\": null\n"
	       "    },\n"
	       "    [],\n"
	       "    {}\n"
	       "  ],\n"
	       "  \"empty\": {},\n"
	       "  \"list\": [\n"
	       "    -1,\n"
	       "    \"x\"\n"
	       "  ]\n"
	       "}\n", 0);

	start(&m, 4);
	diot_json_array(&m.j, NULL);
	diot_json_u64(&m.j, NULL, 1);
	diot_json_close(&m.j);
	expect(&m, "[\n    1\n]\n", 0);
}
END_TEST

START_TEST(test_empty_and_scalars)
{
	struct mem m;

	start(&m, 0);
	diot_json_object(&m.j, NULL);
	diot_json_close(&m.j);
	expect(&m, "{}\n", 0);

	start(&m, 2);
	diot_json_object(&m.j, NULL);
	diot_json_close(&m.j);
	expect(&m, "{}\n", 0);

	start(&m, 0);
	diot_json_array(&m.j, NULL);
	diot_json_close(&m.j);
	expect(&m, "[]\n", 0);

	start(&m, 2);
	diot_json_array(&m.j, NULL);
	diot_json_close(&m.j);
	expect(&m, "[]\n", 0);

	/* A scalar is a document too. */
	start(&m, 2);
	diot_json_str(&m.j, NULL, "only");
	expect(&m, "\"only\"\n", 0);

	/* Keys are escaped like values. */
	start(&m, 0);
	diot_json_object(&m.j, NULL);
	diot_json_u64(&m.j, "a\"b\n", 1);
	diot_json_close(&m.j);
	expect(&m, "{\"a\\\"b\\n\": 1}\n", 0);
}
END_TEST

START_TEST(test_numbers)
{
	struct mem m;

	start(&m, 0);
	diot_json_array(&m.j, NULL);
	diot_json_u64(&m.j, NULL, UINT64_MAX);
	diot_json_u64(&m.j, NULL, 0);
	diot_json_i64(&m.j, NULL, INT64_MIN);
	diot_json_i64(&m.j, NULL, INT64_MAX);
	diot_json_double(&m.j, NULL, 0.1);
	diot_json_double(&m.j, NULL, 1.5);
	diot_json_double(&m.j, NULL, -0.25);
	diot_json_double(&m.j, NULL, 1.0 / 3.0);
	diot_json_double(&m.j, NULL, 1e6);              /* integral: exact */
	diot_json_double(&m.j, NULL, 999999999999999.0);
	diot_json_double(&m.j, NULL, 1e15);             /* from 1e15: %g */
	diot_json_double(&m.j, NULL, 1.25e-7);
	diot_json_double(&m.j, NULL, NAN);
	diot_json_double(&m.j, NULL, INFINITY);
	diot_json_double(&m.j, NULL, -INFINITY);
	diot_json_close(&m.j);
	expect(&m, "[18446744073709551615, 0, -9223372036854775808, "
	       "9223372036854775807, 0.1, 1.5, -0.25, 0.333333333333333, 1000000, "
	       "999999999999999, 1e+15, 1.25e-07, null, null, null]\n", 0);

	/* Precision: 6 is what the tools' tables and diot_json_num() use. */
	start(&m, 0);
	diot_json_precision(&m.j, 6);
	diot_json_array(&m.j, NULL);
	diot_json_double(&m.j, NULL, 1.0 / 3.0);
	diot_json_double(&m.j, NULL, 123456789.5);
	diot_json_double(&m.j, NULL, 123456789.0);
	diot_json_precision(&m.j, 17);
	diot_json_double(&m.j, NULL, 0.1);
	diot_json_close(&m.j);
	expect(&m, "[0.333333, 1.23457e+08, 123456789, 0.10000000000000001]\n", 0);

	/* Fixed decimals, as a table shows them. */
	start(&m, 0);
	diot_json_array(&m.j, NULL);
	diot_json_fixed(&m.j, NULL, 3.14159, 2);
	diot_json_fixed(&m.j, NULL, 1e6, 3);
	diot_json_fixed(&m.j, NULL, -1.5, 1);
	diot_json_fixed(&m.j, NULL, 7.75, 0);
	diot_json_fixed(&m.j, NULL, NAN, 3);
	diot_json_fixed(&m.j, NULL, -INFINITY, 3);
	diot_json_close(&m.j);
	expect(&m, "[3.14, 1000000.000, -1.5, 8, null, null]\n", 0);
}
END_TEST

/* fmt.c's old JSON helpers are the writer's escaping and number format. */
START_TEST(test_old_helpers)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(fp);
	diot_json_string(fp, "a\"\x01");
	fputc(' ', fp);
	diot_json_string(fp, NULL);
	fputc(' ', fp);
	diot_json_num(fp, 1e6);
	fputc(' ', fp);
	diot_json_num(fp, 1.0 / 3.0);
	fputc(' ', fp);
	diot_json_num(fp, NAN);
	fputc(' ', fp);
	diot_json_number(fp, 2.0 / 3.0, 4);
	fclose(fp);
	ck_assert_str_eq(buf, "\"a\\\"\\u0001\" \"\" 1000000 0.333333 null 0.6667");
	free(buf);
}
END_TEST

/* ------------------------------------------------------------ misuse */

START_TEST(test_misuse_keys)
{
	struct mem m;

	/* A key inside an array is dropped. */
	start(&m, 0);
	diot_json_array(&m.j, NULL);
	diot_json_u64(&m.j, "x", 1);
	diot_json_u64(&m.j, NULL, 2);
	diot_json_close(&m.j);
	expect(&m, "[1, 2]\n", -EINVAL);

	/* No key inside an object: written as "". */
	start(&m, 0);
	diot_json_object(&m.j, NULL);
	diot_json_u64(&m.j, NULL, 1);
	diot_json_array(&m.j, NULL);
	diot_json_close(&m.j);
	diot_json_close(&m.j);
	expect(&m, "{\"\": 1, \"\": []}\n", -EINVAL);

	/* A key at the top level is dropped. */
	start(&m, 2);
	diot_json_object(&m.j, "top");
	diot_json_close(&m.j);
	expect(&m, "{}\n", -EINVAL);

	start(&m, 0);
	diot_json_u64(&m.j, "top", 5);
	expect(&m, "5\n", -EINVAL);
}
END_TEST

START_TEST(test_misuse_structure)
{
	struct mem m;
	int i;

	/* Closing what is not open. */
	start(&m, 0);
	diot_json_close(&m.j);
	diot_json_array(&m.j, NULL);
	diot_json_close(&m.j);
	diot_json_close(&m.j);
	expect(&m, "[]\n", -EINVAL);

	/* A second top-level value, with all it holds, is left out. */
	start(&m, 0);
	diot_json_object(&m.j, NULL);
	diot_json_close(&m.j);
	diot_json_object(&m.j, NULL);
	diot_json_u64(&m.j, "a", 1);
	diot_json_array(&m.j, "b");
	diot_json_close(&m.j);
	diot_json_close(&m.j);
	diot_json_u64(&m.j, NULL, 3);
	expect(&m, "{}\n", -EINVAL);

	/* Nesting deeper than DIOT_JSON_MAX_DEPTH: the level too many and
	 * its contents are left out, the rest goes on. */
	start(&m, 0);
	for (i = 0; i < DIOT_JSON_MAX_DEPTH; i++)
		diot_json_array(&m.j, NULL);
	diot_json_object(&m.j, NULL);          /* one too many */
	diot_json_u64(&m.j, "lost", 1);
	diot_json_array(&m.j, "lost too");
	diot_json_close(&m.j);
	diot_json_close(&m.j);                  /* closes the refused one */
	diot_json_u64(&m.j, NULL, 7);
	for (i = 0; i < DIOT_JSON_MAX_DEPTH; i++)
		diot_json_close(&m.j);
	{
		char want[128];
		size_t n = 0;

		for (i = 0; i < DIOT_JSON_MAX_DEPTH; i++)
			want[n++] = '[';
		n += (size_t)sprintf(want + n, "7");
		for (i = 0; i < DIOT_JSON_MAX_DEPTH; i++)
			want[n++] = ']';
		strcpy(want + n, "\n");
		expect(&m, want, -EINVAL);
	}

	/* Exactly DIOT_JSON_MAX_DEPTH levels are fine. */
	start(&m, 0);
	for (i = 0; i < DIOT_JSON_MAX_DEPTH; i++)
		diot_json_array(&m.j, NULL);
	done(&m);
	ck_assert_int_eq(m.rc, 0);
	free(m.buf);

	/* Nothing written at all: "null", still a document. */
	start(&m, 2);
	expect(&m, "null\n", -EINVAL);
}
END_TEST

START_TEST(test_end_closes_and_after_end)
{
	struct mem m;

	/* diot_json_end() closing what is open is not misuse (error paths). */
	start(&m, 0);
	diot_json_object(&m.j, NULL);
	diot_json_array(&m.j, "a");
	diot_json_u64(&m.j, NULL, 1);
	expect(&m, "{\"a\": [1]}\n", 0);

	start(&m, 2);
	diot_json_object(&m.j, NULL);
	diot_json_array(&m.j, "a");
	diot_json_u64(&m.j, NULL, 1);
	expect(&m, "{\n  \"a\": [\n    1\n  ]\n}\n", 0);

	/* Anything after the end is left out; a second end says -EINVAL. */
	start(&m, 0);
	diot_json_u64(&m.j, NULL, 1);
	ck_assert_int_eq(diot_json_end(&m.j), 0);
	diot_json_object(&m.j, NULL);
	diot_json_u64(&m.j, "a", 2);
	diot_json_close(&m.j);
	diot_json_null(&m.j, NULL);
	expect(&m, "1\n", -EINVAL);
}
END_TEST

START_TEST(test_misuse_arguments)
{
	struct mem m;

	start(&m, 0);
	diot_json_array(&m.j, NULL);
	diot_json_fixed(&m.j, NULL, 1.5, -1);   /* clamped to 0 decimals */
	diot_json_close(&m.j);
	expect(&m, "[2]\n", -EINVAL);

	start(&m, 0);
	diot_json_fixed(&m.j, NULL, 0.5, 18);   /* clamped to 17 */
	expect(&m, "0.50000000000000000\n", -EINVAL);

	start(&m, 0);
	diot_json_precision(&m.j, 0);           /* clamped to 1 */
	diot_json_double(&m.j, NULL, 0.25);
	expect(&m, "0.2\n", -EINVAL);

	start(&m, 0);
	diot_json_precision(&m.j, 18);
	diot_json_double(&m.j, NULL, 0.5);
	expect(&m, "0.5\n", -EINVAL);

	start(&m, -3);                          /* one line */
	diot_json_array(&m.j, NULL);
	diot_json_u64(&m.j, NULL, 1);
	diot_json_u64(&m.j, NULL, 2);
	diot_json_close(&m.j);
	expect(&m, "[1, 2]\n", -EINVAL);
}
END_TEST

/* ------------------------------------------------------------ write errors */

static void
write_some(struct diot_json *j)
{
	int i;

	diot_json_object(j, NULL);
	diot_json_array(j, "values");
	for (i = 0; i < 2000; i++)              /* more than one stdio buffer */
		diot_json_u64(j, NULL, (uint64_t)i);
	diot_json_close(j);
	diot_json_close(j);
}

START_TEST(test_write_error_full)
{
	struct diot_json j;
	FILE *fp = fopen("/dev/full", "w");

	if (fp == NULL)
		return;                         /* no /dev/full here */
	diot_json_init(&j, fp, 2);
	write_some(&j);
	errno = 0;
	ck_assert_int_eq(diot_json_end(&j), -EIO);
	ck_assert_int_eq(errno, ENOSPC);
	fclose(fp);

	/* A small document fails at the final flush. */
	fp = fopen("/dev/full", "w");
	ck_assert_ptr_nonnull(fp);
	diot_json_init(&j, fp, 0);
	diot_json_u64(&j, NULL, 1);
	ck_assert_int_eq(diot_json_end(&j), -EIO);
	ck_assert_int_eq(errno, ENOSPC);
	fclose(fp);
}
END_TEST

START_TEST(test_write_error_closed)
{
	struct diot_json j;
	FILE *fp = tmpfile();

	ck_assert_ptr_nonnull(fp);
	diot_json_init(&j, fp, 0);
	diot_json_object(&j, NULL);
	diot_json_str(&j, "a", "b");
	ck_assert_int_eq(close(fileno(fp)), 0);  /* closed underneath */
	write_some(&j);
	diot_json_close(&j);
	ck_assert_int_eq(diot_json_end(&j), -EIO);
	ck_assert_int_eq(errno, EBADF);
	fclose(fp);
}
END_TEST

/* An I/O error is reported before misuse. */
START_TEST(test_write_error_and_misuse)
{
	struct diot_json j;
	FILE *fp = fopen("/dev/full", "w");

	if (fp == NULL)
		return;
	diot_json_init(&j, fp, 0);
	diot_json_close(&j);
	diot_json_u64(&j, NULL, 1);
	ck_assert_int_eq(diot_json_end(&j), -EIO);
	fclose(fp);
}
END_TEST

/* ------------------------------------------------------------ python3 */

START_TEST(test_python_reads_it)
{
	char path[4096], cmd[8192], text[128];
	struct diot_json j;
	FILE *fp;
	int i, rc;

	if (system("python3 -c 'import json' >/dev/null 2>&1") != 0) {
		fprintf(stderr, "check_json: no python3, document not read back\n");
		return;
	}
	tu_path(path, sizeof(path), tu_dir(), "check_json");
	fp = fopen(path, "w");
	ck_assert_ptr_nonnull(fp);
	for (i = 0; i < 127; i++)
		text[i] = (char)(i + 1);       /* every ASCII byte but NUL */
	text[127] = '\0';
	diot_json_init(&j, fp, 2);
	diot_json_object(&j, NULL);
	diot_json_str(&j, "ascii", text);
	diot_json_str(&j, "utf8", "\xc2\xb5s \xe2\x82\xac");
	diot_json_u64(&j, "u64max", UINT64_MAX);
	diot_json_i64(&j, "i64min", INT64_MIN);
	diot_json_double(&j, "third", 1.0 / 3.0);
	diot_json_double(&j, "nan", NAN);
	diot_json_fixed(&j, "fixed", 2.5, 3);
	diot_json_array(&j, "nest");
	diot_json_array(&j, NULL);
	diot_json_object(&j, NULL);
	diot_json_close(&j);
	diot_json_close(&j);
	diot_json_bool(&j, NULL, 1);
	diot_json_null(&j, NULL);
	diot_json_close(&j);
	diot_json_object(&j, "empty");
	ck_assert_int_eq(diot_json_end(&j), 0);
	fclose(fp);

	snprintf(cmd, sizeof(cmd),
	         "python3 -c '"
	         "import json, sys\n"
	         "d = json.load(open(sys.argv[1], encoding=\"utf-8\"))\n"
	         "want = {\"ascii\": \"\".join(chr(c) for c in range(1, 128)),\n"
	         "  \"utf8\": \"\\u00b5s \\u20ac\", \"u64max\": 2**64 - 1,\n"
	         "  \"i64min\": -2**63, \"third\": 0.333333333333333, \"nan\": None,\n"
	         "  \"fixed\": 2.5, \"nest\": [[{}], True, None], \"empty\": {}}\n"
	         "sys.exit(0 if d == want else \"got %%r\" %% d)' '%s'", path);
	rc = system(cmd);
	unlink(path);
	ck_assert_int_eq(rc, 0);
}
END_TEST

static Suite *
json_suite(void)
{
	Suite *s = suite_create("json");
	TCase *tc = tcase_create("writer");

	tcase_add_test(tc, test_escape_classes);
	tcase_add_test(tc, test_escape_every_byte);
	tcase_add_test(tc, test_nesting_one_line);
	tcase_add_test(tc, test_nesting_indented);
	tcase_add_test(tc, test_empty_and_scalars);
	tcase_add_test(tc, test_numbers);
	tcase_add_test(tc, test_old_helpers);
	tcase_add_test(tc, test_misuse_keys);
	tcase_add_test(tc, test_misuse_structure);
	tcase_add_test(tc, test_end_closes_and_after_end);
	tcase_add_test(tc, test_misuse_arguments);
	tcase_add_test(tc, test_write_error_full);
	tcase_add_test(tc, test_write_error_closed);
	tcase_add_test(tc, test_write_error_and_misuse);
	suite_add_tcase(s, tc);
	/* Two python3 starts: seconds on a loaded machine (Check's default
	 * of 4 s ran out in a CI run with four builds side by side). */
	tc = tcase_create("python");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_python_reads_it);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(srunner_create(json_suite()));
}
