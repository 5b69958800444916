/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fmt.h -- the tools' output formats (tools/kit/fmt.c): sizes as text,
 * formatted and joined strings, table columns, and text escaped for CSV
 * and XML (and two JSON writers kept until the tools use json.h alone).
 */
#ifndef DIOT_FMT_H
#define DIOT_FMT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tools/kit/msg.h"      /* DIOT_PRINTF */

/*
 * A size in binary units: "256 KiB", "1 MiB", "4096 KiB"... exact when
 * bytes is a multiple of the unit, else one decimal ("1.5 MiB"); below
 * 1 KiB plain bytes ("512 bytes").  Returns buf.
 */
char *diot_fmt_iec(uint64_t bytes, char *buf, size_t len);

/* Short size label for tables and plots: "512K", "4M", "1000" (bytes). */
char *diot_fmt_short(uint64_t bytes, char *buf, size_t len);

/* A formatted string, malloc'd (out of memory: diot_die()). */
char *diot_strdupf(const char *fmt, ...) DIOT_PRINTF(1, 2);
/* v[0..n-1] joined by sep, malloc'd (out of memory: diot_die()). */
char *diot_join(const char *const *v, int n, const char *sep);

/*
 * Write s as a JSON string, quotes included (NULL: "").  To be removed
 * once unused: new code writes JSON with tools/kit/json.h, whose
 * diot_json_quote() this calls.
 */
void diot_json_string(FILE *fp, const char *s);

/* Write at most width characters of s (UTF-8: a character is a code
 * point, never cut; any other byte counts as one), then, with pad, spaces
 * up to width: a table's column, as printf's "%-*.*s" would be for ASCII. */
void diot_put_cols(FILE *fp, const char *s, int width, int pad);

/* Write s as one CSV field (quoted when it holds , " or a newline). */
void diot_csv_field(FILE *fp, const char *s);

/*
 * Write a number as JSON: integral values below 1e15 as integers, others
 * with %.6g, NaN and infinities as null.  To be removed once unused: it is
 * json.h's diot_json_number(fp, v, 6) (diot_json_double() after
 * diot_json_precision(j, 6) in the writer).
 */
void diot_json_num(FILE *fp, double v);

/* Write s with XML's special characters escaped; control characters
 * other than tab and newline, and bytes that are not UTF-8, as U+FFFD. */
void diot_xml_text(FILE *fp, const char *s);

#endif /* DIOT_FMT_H */
