/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_sw_compare.c -- sync-write --compare's loader, table and plot on
 * documents in memory (sw_cmp_memory, the entry a fuzzer drives): real
 * runs compared; hostile documents refused with a message, never an exit
 * (a number beyond a double, --compare's own output, points that are not
 * points, nesting, garbage); extreme finite numbers drawn small and
 * finite; 200000 distinct points aligned in linear time (Check's timeout
 * would catch the quadratic alignment of before); the table within 132
 * columns (runs in blocks; --wide: one table), text wrapped to a width,
 * a hint line per method naming the rows it covers (one for all methods
 * where nothing is durable); a run's summary (summary.c); the point a
 * signal cut short in a run of two TARGETs shown with its partial figures
 * and "not run"; results with "device" counts (issue 41): flush/txn per
 * run in the table, CSV and JSON, and the plot's chart of flushes by
 * writers with the values.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/sw/compare.h"
#include "tests/testutil.h"

/* A run's document with points of the given avg_us and mb_per_s. */
static char *
doc(const char *label, int npts, double avg, double mb)
{
	static const char *const meth[] = { "fdatasync", "dsync" };
	size_t cap = 4096 + (size_t)npts * 400, at;
	char *b = malloc(cap);
	int k;

	ck_assert_ptr_nonnull(b);
	at = (size_t)snprintf(b, cap, "{\"tool\": \"sync-write\", \"schema\": 1, "
	                      "\"label\": \"%s\", \"host\": \"h\", \"target\": {\"path\": "
	                      "\"/t/x\", \"kind\": \"new file\", \"fs\": \"ext4\", \"disk\": "
	                      "\"vda\"}, \"config\": {\"layout\": \"shared\", \"writers_are\": "
	                      "\"processes\", \"count\": 5, \"time_s\": null}, "
	                      "\"interrupted\": false, \"points\": [", label);
	for (k = 0; k < npts; k++)
		at += (size_t)snprintf(b + at, cap - at, "%s{\"method\": \"%s\", "
		                       "\"size_bytes\": %d, \"writers\": %d, \"status\": \"ok\", "
		                       "\"aggregate\": {\"txns\": 5, \"avg_us\": %.17g, "
		                       "\"p99_us\": %.17g, \"txn_per_s\": 1000, \"mb_per_s\": "
		                       "%.17g}, \"per_writer\": [{\"txns\": 5}]}", k ? ", " : "",
		                       meth[k % 2], 4096 << (k / 4 % 4), 1 << (k / 2 % 2),
		                       avg, avg, mb);
	snprintf(b + at, cap - at, "]}");
	return b;
}

/* sw_cmp_memory on two documents; returns its result, the report and the
 * plot in *out and *svg (freed by the caller), why in why. */
static int
run2(const char *a, const char *b, int format, char **out, char **svg, char *why,
     size_t wl)
{
	const char *texts[2] = { a, b };
	size_t lens[2] = { strlen(a), strlen(b) }, ol = 0, sl = 0;
	FILE *fo = open_memstream(out, &ol), *fs = open_memstream(svg, &sl);
	int rc;

	ck_assert_ptr_nonnull(fo);
	ck_assert_ptr_nonnull(fs);
	why[0] = '\0';
	rc = sw_cmp_memory(texts, lens, 2, NULL, format, fo, fs, why, wl);
	ck_assert_int_eq(fclose(fo), 0);
	ck_assert_int_eq(fclose(fs), 0);
	return rc;
}

START_TEST(test_runs)
{
	char *a = doc("one", 8, 100, 40), *b = doc("two", 8, 50, 80), *out, *svg, why[600];

	ck_assert_int_eq(run2(a, b, SW_FMT_TABLE, &out, &svg, why, sizeof(why)), 0);
	ck_assert_msg(strstr(out, "2 runs, 8 points in all of them") != NULL, "%s", out);
	ck_assert_msg(strstr(out, "    0.50") != NULL, "avg_x 0.50: %s", out);
	ck_assert_msg(strstr(svg, ">one: fdatasync<") != NULL, "%.400s", svg);
	free(out);
	free(svg);
	ck_assert_int_eq(run2(a, b, SW_FMT_JSON, &out, &svg, why, sizeof(why)), 0);
	ck_assert_ptr_nonnull(strstr(out, "\"document\": \"compare\""));
	/* Its own output is not a run. */
	free(svg);
	{
		char *csv, *svg2;

		ck_assert_int_eq(run2(a, out, SW_FMT_CSV, &csv, &svg2, why, sizeof(why)), -1);
		free(csv);
		free(svg2);
	}
	ck_assert_msg(strstr(why, "'input 2' is the output of --compare, not a run's "
	                      "result; compare the runs it was made from") != NULL, "%s", why);
	free(out);
	free(a);
	free(b);
}
END_TEST

/* Refused, said, not exited. */
START_TEST(test_refused)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
		{ "{\"tool\": \"sync-write\", \"schema\": 1, \"points\": [{\"method\": \"none\", "
		  "\"size_bytes\": 1, \"writers\": 1,\n \"aggregate\": {\"avg_us\": 1e400}}]}",
		  "'input 2': line 2, column 26: points[0].aggregate.avg_us: the number 1e400 is "
		  "beyond the range of a double" },
		{ "{\"tool\": \"sync-write\", \"schema\": 1, \"points\": [0, 1]}",
		  "points[0] is not a point (an object)" },
		{ "{\"tool\": \"sync-write\", \"schema\": 1, \"points\": [{}]}",
		  "points[0] is not a valid point" },
		{ "{\"tool\": \"sync-write\", \"schema\": 1, \"points\": [{\"method\": \"none\", "
		  "\"size_bytes\": 1e300, \"writers\": 1}]}", "points[0] is not a valid point" },
		{ "{\"tool\": \"sync-write\", \"schema\": 2, \"points\": []}", "schema 2" },
		{ "{\"tool\": \"sync-write\", \"document\": \"compare\", \"interleaved\": true}",
		  "is the output of a run of several TARGETs" },
		{ "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
		  "nested deeper than 64" },
		{ "[1, [2], {\"points\": []}]", "not a sync-write result" },
		{ "\xff\xfe garbage", "is not valid JSON" },
		{ "", "the text ends where a value was expected" },
	};
	char *a = doc("one", 2, 1, 1), *out, *svg, why[600];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_int_eq(run2(a, bad[i].text, SW_FMT_TABLE, &out, &svg, why,
		                      sizeof(why)), -1);
		ck_assert_msg(strstr(why, bad[i].why) != NULL, "%zu: '%s', want '%s'", i, why,
		              bad[i].why);
		free(out);
		free(svg);
	}
	free(a);
}
END_TEST

/* Any finite numbers: a small plot of finite numbers. */
START_TEST(test_extremes)
{
	static const double v[][2] = {
		{ 1.7976931348623157e308, 1.7976931348623157e308 }, { -1.7e308, 1.7e308 },
		{ 4.9406564584124654e-324, 1e-320 }, { 0, 0 }, { 1e300, 5e-324 }, { 7, 7 },
	};
	char *out, *svg, why[600];
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		char *a = doc("a", 8, v[i][0], v[i][1]), *b = doc("b", 1, v[i][1], v[i][0]);

		ck_assert_int_eq(run2(a, b, SW_FMT_TABLE, &out, &svg, why, sizeof(why)), 0);
		ck_assert_msg(strlen(svg) < 32768, "%zu: %zu bytes", i, strlen(svg));
		ck_assert_msg(strstr(svg, "nan") == NULL && strstr(svg, "inf") == NULL,
		              "%zu: %s", i, svg);
		free(out);
		free(svg);
		free(a);
		free(b);
	}
}
END_TEST

/* 200000 distinct points, twice: aligned in well under a second of CPU
 * (the quadratic alignment of before took minutes for these). */
START_TEST(test_many)
{
	size_t n = 200000, cap = n * 64 + 4096, at, k;
	char *a = malloc(cap), *out, *svg, why[600];

	ck_assert_ptr_nonnull(a);
	at = (size_t)snprintf(a, cap, "{\"tool\": \"sync-write\", \"schema\": 1, \"points\": [");
	for (k = 0; k < n; k++)
		at += (size_t)snprintf(a + at, cap - at, "%s{\"method\":\"none\",\"size_bytes\":"
		                       "%zu,\"writers\":%zu,\"status\":\"ok\"}", k ? "," : "",
		                       k / 2 + 1, k % 2 + 1);
	snprintf(a + at, cap - at, "]}");
	ck_assert_int_eq(run2(a, a, SW_FMT_CSV, &out, &svg, why, sizeof(why)), 0);
	ck_assert_ptr_nonnull(strstr(out, "none,100000,2,2,"));
	free(out);
	free(svg);
	free(a);
}
END_TEST

/* The widest line of text (characters: bytes that do not continue a
 * UTF-8 sequence), and how many lines. */
static size_t
widest(const char *text, int *lines)
{
	size_t w = 0, max = 0;
	const char *p;

	*lines = 0;
	for (p = text; *p; p++) {
		if (*p == '\n') {
			max = w > max ? w : max;
			w = 0;
			++*lines;
		} else if (((unsigned char)*p & 0xc0) != 0x80) {
			w++;
		}
	}
	return w > max ? w : max;
}

/* 8 runs (labels of 40 characters, some not ASCII): without --wide no
 * line is wider than 132 columns and every run has its column group in
 * a block of the table; with --wide one table of all 8. */
START_TEST(test_table_width)
{
	static const char *const label[8] = {
		"run one, a label of forty characters ...", "два: forty characters in Cyrillic",
		"3", "four", "five", "six", "seven", "eight, forty characters long, to the end" };
	const char *texts[8];
	size_t lens[8], ol = 0;
	struct sw_opts o;
	char *out, why[600], want[64];
	int i, wide, lines;

	for (i = 0; i < 8; i++) {
		texts[i] = doc(label[i], 8, 100 + i, 40);
		lens[i] = strlen(texts[i]);
	}
	for (wide = 0; wide <= 1; wide++) {
		FILE *fo = open_memstream(&out, &ol);

		ck_assert_ptr_nonnull(fo);
		memset(&o, 0, sizeof(o));
		o.wide = wide;
		ck_assert_int_eq(sw_cmp_memory(texts, lens, 8, &o, SW_FMT_TABLE, fo, NULL, why,
		                               sizeof(why)), 0);
		ck_assert_int_eq(fclose(fo), 0);
		if (!wide)
			ck_assert_msg(widest(out, &lines) <= 132, "%zu columns:\n%s",
			              widest(out, &lines), out);
		else
			ck_assert_msg(widest(out, &lines) > 132, "--wide: %s", out);
		for (i = 0; i < 8; i++) {
			snprintf(want, sizeof(want), " | run %d: ", i + 1);
			ck_assert_msg(strstr(out, want) != NULL, "%s: %s", want, out);
		}
		/* The header of method, size_B and wr: once per block. */
		{
			const char *p = out;
			int blocks = 0;

			while ((p = strstr(p, "\nmethod ")) != NULL) {
				blocks++;
				p++;
			}
			ck_assert_msg(blocks == (wide ? 1 : 4), "%d blocks: %s", blocks, out);
		}
		free(out);
	}
	for (i = 0; i < 8; i++)
		free((char *)texts[i]);
}
END_TEST

/* Text wrapped to a width: no line wider (but a word longer than a line,
 * which stands alone), the words in order, one space apart; width 0: one
 * line. */
START_TEST(test_wrapped)
{
	static const char text[] = "a few words, then /a/path/longer/than/the/width/of/"
	                           "the/lines/here/a/b and more words after it to wrap";
	char *out, *p, *joined;
	size_t ol = 0, n = 0;
	int lines;
	FILE *fo = open_memstream(&out, &ol);

	ck_assert_ptr_nonnull(fo);
	sw_put_wrapped(fo, "note: ", 6, text, 30);
	ck_assert_int_eq(fclose(fo), 0);
	ck_assert_msg(strncmp(out, "note: a few words, then\n", 24) == 0, "%s", out);
	ck_assert_msg(strstr(out, "\n      /a/path/longer/than/the/width/of/the/lines/here/a/b\n")
	              != NULL, "%s", out);
	widest(out, &lines);
	ck_assert_int_ge(lines, 4);
	/* Each line but the path's within 30 columns; joined, the text. */
	joined = calloc(1, strlen(out) + 1);
	ck_assert_ptr_nonnull(joined);
	for (p = strtok(out + 6, "\n"); p != NULL; p = strtok(NULL, "\n")) {
		ck_assert_msg(strlen(p) + (p == out + 6 ? 6 : 0) <= 30 || strchr(p, '/'),
		              "'%s'", p);
		while (*p == ' ')
			p++;
		n += (size_t)sprintf(joined + n, "%s%s", n ? " " : "", p);
	}
	ck_assert_str_eq(joined, text);
	free(joined);
	free(out);
	fo = open_memstream(&out, &ol);
	ck_assert_ptr_nonnull(fo);
	sw_put_wrapped(fo, "note: ", 6, text, 0);
	ck_assert_int_eq(fclose(fo), 0);
	ck_assert_int_eq(strcmp(out + 6, text) == 0 || (strncmp(out + 6, text, strlen(text)) == 0
	                 && strcmp(out + 6 + strlen(text), "\n") == 0), 1);
	free(out);
}
END_TEST

/* A hint line per method (and kind), after the table: the rows it covers
 * named by their sizes for each number of writers, the range of medians. */
START_TEST(test_hints)
{
	static const uint64_t sz[4] = { 512, 1024, 2048, 4096 };
	/* writers 1 then 2; none, fsync, dsync: which rows have the hint */
	static const int has[2][3][4] = {
		{ { 0, 0, 0, 0 }, { 1, 1, 0, 1 }, { 1, 1, 1, 1 } },
		{ { 0, 0, 0, 0 }, { 1, 1, 0, 1 }, { 0, 1, 1, 1 } },
	};
	static const char *const meth[3] = { "none", "fsync", "dsync" };
	struct sw_hint_row rows[24];
	const char *first;
	char *out;
	size_t ol = 0;
	int w, m, k, n = 0, lines;
	FILE *fo;

	memset(rows, 0, sizeof(rows));
	for (w = 0; w < 2; w++)
		for (m = 0; m < 3; m++)
			for (k = 0; k < 4; k++) {
				rows[n].method = meth[m];
				rows[n].size = sz[k];
				rows[n].writers = w + 1;
				rows[n].kind = has[w][m][k] ? SW_HINT_FAST_FLUSH : SW_HINT_NONE;
				rows[n].p50_us = 100.0 + 10 * n;
				n++;
			}
	fo = open_memstream(&out, &ol);
	ck_assert_ptr_nonnull(fo);
	sw_put_hints(fo, "", rows, n, "sdz", "ext4", NULL, 0, 0);
	ck_assert_int_eq(fclose(fo), 0);
	widest(out, &lines);
	/* a line per method, then why, once */
	ck_assert_msg(lines == 3, "%d lines: %s", lines, out);
	first = "hint: fsync at 512, 1024, 4096 B with 1 and 2 writers (6 rows): medians "
	        "140..290 us, faster than a flush can be\n";
	ck_assert_msg(strncmp(out, first, strlen(first)) == 0, "%s", out);
	ck_assert_msg(strstr(out, "\nhint: dsync at 512..4096 B with 1 writer; 1024..4096 B "
	                     "with 2 writers (7 rows): medians 180..330 us, faster") != NULL,
	              "%s", out);
	ck_assert_msg(strstr(out, "\n      a flush on a spinning disk (sdz says it spins) "
	                     "takes longer: ") != NULL, "%s", out);
	ck_assert_msg(strstr(strstr(out, "spinning disk") + 1, "spinning disk") == NULL,
	              "the reason said twice: %s", out);
	free(out);
	/* Wrapped to the table's width: the same, on lines within it. */
	fo = open_memstream(&out, &ol);
	ck_assert_ptr_nonnull(fo);
	sw_put_hints(fo, "run 2: ", rows, n, "sdz", "ext4", NULL, 0, SW_TABLE_COLS);
	ck_assert_int_eq(fclose(fo), 0);
	ck_assert_msg(widest(out, &lines) <= SW_TABLE_COLS && lines >= 4, "%s", out);
	ck_assert_msg(strncmp(out, "hint: run 2: fsync at 512, 1024, 4096 B", 39) == 0, "%s", out);
	free(out);
}
END_TEST

/* Where nothing can be durable (tmpfs): one hint line for all the methods
 * of the rows that have it, saying why, and no line per method. */
START_TEST(test_hint_not_durable)
{
	static const char *const meth[3] = { "none", "fsync", "direct+dsync" };
	static const char *const why = "tmpfs keeps its files in memory only";
	struct sw_hint_row rows[6];
	char *out;
	size_t ol = 0;
	int m, k, n = 0, lines;
	FILE *fo;

	memset(rows, 0, sizeof(rows));
	for (m = 0; m < 3; m++)
		for (k = 0; k < 2; k++) {
			rows[n].method = meth[m];
			rows[n].size = 4096u << k;
			rows[n].writers = 1;
			rows[n].kind = m ? SW_HINT_NOT_DURABLE : SW_HINT_NONE;
			rows[n].p50_us = 1.2;
			n++;
		}
	fo = open_memstream(&out, &ol);
	ck_assert_ptr_nonnull(fo);
	sw_put_hints(fo, "run 2: ", rows, n, "", "tmpfs", why, 0, 0);
	ck_assert_int_eq(fclose(fo), 0);
	widest(out, &lines);
	ck_assert_msg(lines == 1 && strcmp(out, "hint: run 2: fsync, direct+dsync (4 rows): "
	              "nothing is durable here: tmpfs keeps its files in memory only\n")
	              == 0, "%s", out);
	free(out);
}
END_TEST

/* A point of the given method, size, writers, status and avg_us. */
static void
point(struct sw_point *p, const char *m, uint64_t size, int w, int status, double avg)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->method, sizeof(p->method), "%s", m);
	p->size = size;
	p->writers = w;
	p->status = status;
	p->durable = strcmp(m, "none") != 0 && strcmp(m, "direct") != 0;
	p->agg.txns = status == SW_NA ? 0 : 10;
	p->agg.avg_us = avg;
}

/* The summary: per size and writers in the table's order, the durable
 * method of the lowest avg_us among the points measured whole, and none
 * there; not a buffered method however fast, not an interrupted point. */
START_TEST(test_summary)
{
	struct sw_point pts[12];
	struct sw_summary s;

	point(&pts[0], "none", 4096, 1, SW_OK, 2);
	point(&pts[1], "none", 65536, 1, SW_OK, 12);
	point(&pts[2], "direct", 4096, 1, SW_OK, 1);           /* not durable */
	point(&pts[3], "direct", 65536, 1, SW_NA, 0);
	point(&pts[4], "fsync", 4096, 1, SW_OK, 150);
	point(&pts[5], "fsync", 65536, 1, SW_OK, 180);
	point(&pts[6], "dsync", 4096, 1, SW_OK, 120);
	point(&pts[7], "dsync", 65536, 1, SW_INTERRUPTED, 90);  /* partial */
	point(&pts[8], "none", 4096, 2, SW_NA, 0);
	point(&pts[9], "fsync", 4096, 2, SW_OK, 300);
	point(&pts[10], "dsync", 4096, 2, SW_NA, 0);
	pts[11].method[0] = '\0';                              /* never reached */
	sw_summarize(&s, pts, 12);
	ck_assert_int_eq(s.methods, 4);
	ck_assert_int_eq(s.n, 3);
	ck_assert_int_eq(s.with_best, 3);
	ck_assert_int_eq(s.with_none, 2);
	ck_assert(s.rows[0].size == 4096 && s.rows[0].writers == 1);
	ck_assert_ptr_eq(s.rows[0].best, &pts[6]);
	ck_assert_ptr_eq(s.rows[0].none, &pts[0]);
	ck_assert(s.rows[1].size == 65536 && s.rows[1].writers == 1);
	ck_assert_ptr_eq(s.rows[1].best, &pts[5]);
	ck_assert_ptr_eq(s.rows[1].none, &pts[1]);
	ck_assert(s.rows[2].size == 4096 && s.rows[2].writers == 2);
	ck_assert_ptr_eq(s.rows[2].best, &pts[9]);
	ck_assert_ptr_null(s.rows[2].none);
	sw_summary_free(&s);
}
END_TEST

/* Two TARGETs, stopped by a signal during the first one's turn at the
 * second point: that point is a row, with TARGET 1's partial figures and
 * TARGET 2 "not run", and a note under it; the run with a partial point
 * is not said to have none. */
START_TEST(test_interleaved_interrupted)
{
	struct sw_point a[2], b[2];
	struct sw_run ra, rb;
	struct cmp c;
	char *out;
	size_t ol = 0;
	FILE *fo;

	memset(&ra, 0, sizeof(ra));
	ra.target = "a";
	ra.target_kind = "new file";
	ra.fstype = "ext4";
	ra.layout = "shared";
	ra.mode = "processes";
	ra.time_s = 1;
	ra.interrupted = 1;
	rb = ra;
	rb.target = "b";
	point(&a[0], "none", 4096, 1, SW_OK, 1.5);
	point(&b[0], "none", 4096, 1, SW_OK, 3.0);
	point(&a[1], "fsync", 4096, 1, SW_INTERRUPTED, 123.4);
	memset(&b[1], 0, sizeof(b[1]));                       /* not reached */
	memset(&c, 0, sizeof(c));
	c.interleaved = 1;
	c.quiet = 1;
	c.nruns = 2;
	c.runs = calloc(2, sizeof(*c.runs));
	ck_assert_ptr_nonnull(c.runs);
	sw_cmp_from_run(&c.runs[0], &ra, a, 2);
	sw_cmp_from_run(&c.runs[1], &rb, b, 2);
	sw_cmp_not_run(&c.runs[1], &a[1]);
	ck_assert_int_eq(sw_cmp_prepare(&c, NULL), 0);
	ck_assert_int_eq(c.nshared, 2);
	fo = open_memstream(&out, &ol);
	ck_assert_ptr_nonnull(fo);
	sw_cmp_table(fo, &c);
	ck_assert_int_eq(fclose(fo), 0);
	ck_assert_msg(strstr(out, "fsync                 4096   1 |     123.4 ") != NULL &&
	              strstr(out, "|   not run         -         -         -       -       "
	                     "-\n") != NULL,
	              "%s", out);
	ck_assert_msg(strstr(out, "\n                 interrupted: run 1 was stopped by a "
	                     "signal: its figures are partial; run 2 was not run") != NULL,
	              "%s", out);
	sw_cmp_release(&c);
	free(out);
}
END_TEST

/* A run's document whose fdatasync points at 4096 B, 1, 2 and 4 writers
 * carry "device" blocks: counted[k] ("yes", "no", "busy", or NULL: no
 * block, an older result) with flushes[k] per transaction (< 0: null). */
static char *
devdoc(const char *label, const char *const counted[3], const double flushes[3])
{
	size_t cap = 8192, at;
	char *b = malloc(cap), f[32];
	int k;

	ck_assert_ptr_nonnull(b);
	at = (size_t)snprintf(b, cap, "{\"tool\": \"sync-write\", \"schema\": 1, "
	                      "\"label\": \"%s\", \"target\": {\"path\": \"/dev/sdb\", "
	                      "\"kind\": \"device\", \"fs\": \"block device\", \"disk\": "
	                      "\"sdb\"}, \"config\": {\"layout\": \"shared\", \"writers_are\": "
	                      "\"processes\", \"count\": 100}, \"points\": [", label);
	for (k = 0; k < 3; k++) {
		at += (size_t)snprintf(b + at, cap - at, "%s{\"method\": \"fdatasync\", "
		                       "\"size_bytes\": 4096, \"writers\": %d, \"status\": "
		                       "\"ok\", \"aggregate\": {\"txns\": 100, \"avg_us\": "
		                       "%d, \"p99_us\": 900, \"txn_per_s\": 2000, "
		                       "\"mb_per_s\": 8}", k ? ", " : "", 1 << k, 500 + k);
		if (flushes[k] < 0)
			snprintf(f, sizeof(f), "null");
		else
			snprintf(f, sizeof(f), "%.17g", flushes[k]);
		if (counted[k] != NULL && strcmp(counted[k], "yes") == 0)
			at += (size_t)snprintf(b + at, cap - at, ", \"device\": {\"counted\": "
			                       "\"yes\", \"txns\": 100, \"writes\": 200, "
			                       "\"bytes\": 819200, \"flushes\": 100, "
			                       "\"writes_per_txn\": 2, \"bytes_per_txn\": 8192, "
			                       "\"flushes_per_txn\": %s, \"amplification\": 2}",
			                       f);
		else if (counted[k] != NULL)
			at += (size_t)snprintf(b + at, cap - at, ", \"device\": {\"counted\": "
			                       "\"%s\", \"why\": \"other I/O\", \"txns\": 100, "
			                       "\"writes\": 900, \"bytes\": 8192000, \"flushes\": "
			                       "700, \"flushes_per_txn\": null}", counted[k]);
		at += (size_t)snprintf(b + at, cap - at, "}");
	}
	snprintf(b + at, cap - at, "]}");
	return b;
}

/* The y of the points of the first line after title in svg, into y[0..n). */
static int
line_ys(const char *svg, const char *title, double *y, int n)
{
	const char *p = strstr(svg, title);
	int k = 0;

	if (p == NULL || (p = strstr(p, "<polyline")) == NULL ||
	    (p = strstr(p, "points=\"")) == NULL)
		return 0;
	p += 8;
	while (k < n && *p != '"') {
		double x;
		int used = 0;

		if (sscanf(p, "%lf,%lf%n", &x, &y[k], &used) != 2 || used == 0)
			break;
		k++;
		p += used;
		while (*p == ' ')
			p++;
	}
	return k;
}

/* Results with "device" blocks: the table's flush/txn per run (the
 * figure, n/a, busy; "-" for a result without counts), CSV's and JSON's
 * fields, and the plot's chart of flushes per transaction by writers
 * with the values; without any block, no column. */
START_TEST(test_device)
{
	static const char *const yes[3] = { "yes", "yes", "yes" };
	static const char *const mixed[3] = { "busy", "no", "yes" };
	static const char *const none[3] = { NULL, NULL, NULL };
	static const double f1[3] = { 1.0, 0.85, 0.70 }, f2[3] = { -1, -1, -1 };
	char *a = devdoc("honest", yes, f1), *b = devdoc("busy", mixed, f2);
	char *c = devdoc("old", none, f2), *out, *svg, why[600];
	double y[4];

	ck_assert_int_eq(run2(a, b, SW_FMT_TABLE, &out, &svg, why, sizeof(why)), 0);
	ck_assert_msg(strstr(out, "    avg_us    p99_us     txn/s flush/txn |    avg_us    "
	                     "p99_us     txn/s flush/txn   avg_x txn/s_x\n") != NULL, "%s", out);
	ck_assert_msg(strstr(out, "fdatasync             4096   1 |     500.0     900.0      "
	                     "2000      1.00 |     500.0     900.0      2000      busy    "
	                     "1.00    1.00\n") != NULL, "%s", out);
	ck_assert_msg(strstr(out, "fdatasync             4096   2 |     501.0     900.0      "
	                     "2000      0.85 |     501.0     900.0      2000       n/a") != NULL,
	              "%s", out);
	/* counted, but the kernel keeps no flush count: n/a, never 0 */
	ck_assert_msg(strstr(out, "2000      0.70 |     502.0     900.0      2000       n/a")
	              != NULL, "%s", out);
	/* The chart: 1, 2, 4 writers at 1.00, 0.85, 0.70: evenly spaced on
	 * both axes (x is log 2), falling. */
	ck_assert_msg(strstr(svg, "Cache flushes per transaction against writers, 4 KiB "
	                     "transactions (block layer counts)") != NULL, "%.300s", svg);
	ck_assert_int_eq(line_ys(svg, "Cache flushes per transaction", y, 4), 3);
	ck_assert_msg(y[0] < y[1] && y[1] < y[2], "%g %g %g", y[0], y[1], y[2]);
	ck_assert_msg(y[1] - y[0] > 0 && (y[1] - y[0]) - (y[2] - y[1]) < 0.2 &&
	              (y[2] - y[1]) - (y[1] - y[0]) < 0.2, "%g %g %g", y[0], y[1], y[2]);
	free(out);
	free(svg);

	ck_assert_int_eq(run2(a, b, SW_FMT_CSV, &out, &svg, why, sizeof(why)), 0);
	ck_assert_msg(strstr(out, ",txn_per_s_ratio,dev_state,dev_flushes_per_txn\n") != NULL,
	              "%s", out);
	ck_assert_msg(strstr(out, ",1,1,yes,1\n") != NULL && strstr(out, ",busy,\n") != NULL &&
	              strstr(out, ",yes,0.7\n") != NULL && strstr(out, ",no,\n") != NULL,
	              "%s", out);
	free(out);
	free(svg);
	ck_assert_int_eq(run2(a, b, SW_FMT_JSON, &out, &svg, why, sizeof(why)), 0);
	ck_assert_msg(strstr(out, "\"device\": \"yes\",\n") != NULL &&
	              strstr(out, "\"flushes_per_txn\": 0.85\n") != NULL &&
	              strstr(out, "\"device\": \"busy\",\n") != NULL, "%s", out);
	free(out);
	free(svg);

	/* An older result beside: "-" in its group; two older: no column, no
	 * chart. */
	ck_assert_int_eq(run2(a, c, SW_FMT_TABLE, &out, &svg, why, sizeof(why)), 0);
	ck_assert_msg(strstr(out, "2000      1.00 |     500.0     900.0      2000         -")
	              != NULL, "%s", out);
	free(out);
	free(svg);
	ck_assert_int_eq(run2(c, c, SW_FMT_TABLE, &out, &svg, why, sizeof(why)), 0);
	ck_assert_msg(strstr(out, "flush/txn") == NULL, "%s", out);
	ck_assert_msg(strstr(svg, "Cache flushes") == NULL, "chart without counts");
	free(out);
	free(svg);
	free(a);
	free(b);
	free(c);
}
END_TEST

static Suite *
compare_suite(void)
{
	Suite *s = suite_create("sw_compare");
	TCase *tc = tcase_create("sw_compare");

	tcase_set_timeout(tc, 60);     /* a loaded machine; quadratic would be hours */
	tcase_add_test(tc, test_runs);
	tcase_add_test(tc, test_refused);
	tcase_add_test(tc, test_extremes);
	tcase_add_test(tc, test_many);
	tcase_add_test(tc, test_table_width);
	tcase_add_test(tc, test_wrapped);
	tcase_add_test(tc, test_hints);
	tcase_add_test(tc, test_hint_not_durable);
	tcase_add_test(tc, test_summary);
	tcase_add_test(tc, test_interleaved_interrupted);
	tcase_add_test(tc, test_device);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(srunner_create(compare_suite()));
}
