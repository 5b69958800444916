/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * json.h -- a streaming JSON writer for the tools' --format json.
 *
 * Nesting, commas, indentation and escaping are handled here, once: a
 * tool says what to write, in order, and never prints a comma or a brace
 * itself.  Every value call takes a key; the key is written inside an
 * object and must be NULL inside an array (and for the top-level value).
 * Misuse (a key in an array, none in an object, closing what is not
 * open, nesting deeper than DIOT_JSON_MAX_DEPTH, a second top-level
 * value, a value after diot_json_end()) is a programming error: it is
 * recorded, the output stays well-formed as far as it can, and
 * diot_json_end() returns -EINVAL.  How it stays well-formed: a key in an
 * array or at the top level is dropped; a missing key in an object is
 * written as ""; a close with nothing open, a second top-level value and
 * a container nested too deep (with everything inside it, up to its
 * close) are not written at all.
 *
 * Strings (RFC 8259): '"' and '\\' are escaped, control characters
 * 0x00-0x1f are written as \b \f \n \r \t or \u00xx, every other byte
 * (DEL and bytes >= 0x80, i.e. UTF-8 as it is) is passed through.
 *
 * Numbers: integers are written exactly.  diot_json_double() writes a
 * value that is integral and below 1e15 in magnitude as an integer
 * ("%.0f", so 1000000 and not 1e+06), anything else with "%.*g", 15
 * significant digits unless diot_json_precision() sets another number;
 * NaN and infinities are written as null.  diot_json_fixed() writes a
 * double with a fixed number of decimals (as a table shows it), NaN and
 * infinities as null too.
 *
 * Layout: indent 0 writes the document on one line ({"a": 1, "b": [2, 3]});
 * indent n writes every member on a line of its own, n spaces per level.
 * Empty containers are {} and [] in both layouts.
 */
#ifndef DIOT_JSON_H
#define DIOT_JSON_H

#include <stdint.h>
#include <stdio.h>

#define DIOT_JSON_MAX_DEPTH 16

/* Fields are the writer's own; read none of them. */
struct diot_json {
	FILE *fp;
	int indent;                         /* spaces per level; 0: one line  */
	int depth;                          /* containers open                */
	int count[DIOT_JSON_MAX_DEPTH];     /* members written at each level  */
	char kind[DIOT_JSON_MAX_DEPTH];     /* '{' or '[' at each level       */
	int misuse;                         /* a programming error was seen   */
	int precision;                      /* %.*g digits of diot_json_double */
	int top;                            /* top-level values begun         */
	int skip;                           /* refused containers still open  */
	int ended;                          /* diot_json_end() was called     */
};

/* Start a document on fp; indent 0 writes it on one line. */
void diot_json_init(struct diot_json *j, FILE *fp, int indent);

/* Significant digits (1..17) diot_json_double() uses from now on; 15 after
 * diot_json_init().  Out of range is misuse (the nearest is used). */
void diot_json_precision(struct diot_json *j, int digits);

void diot_json_object(struct diot_json *j, const char *key);  /* { */
void diot_json_array(struct diot_json *j, const char *key);   /* [ */
void diot_json_close(struct diot_json *j);                     /* } or ] */

void diot_json_str(struct diot_json *j, const char *key, const char *v); /* NULL: null */
void diot_json_u64(struct diot_json *j, const char *key, uint64_t v);
void diot_json_i64(struct diot_json *j, const char *key, int64_t v);
void diot_json_double(struct diot_json *j, const char *key, double v);
/* decimals 0..17; out of range is misuse (the nearest is used). */
void diot_json_fixed(struct diot_json *j, const char *key, double v, int decimals);
void diot_json_bool(struct diot_json *j, const char *key, int v);
void diot_json_null(struct diot_json *j, const char *key);

/*
 * End the document: close what is still open (not misuse), write the
 * final newline, flush.  Returns 0; -EIO (errno as the failing write left
 * it) when the stream reported a write error; else -EINVAL after misuse,
 * including a document with no value at all (then "null" is written).
 */
int diot_json_end(struct diot_json *j);

/*
 * The escaping and number formatting the writer uses, for text that is
 * not written through a struct diot_json (fmt.c's diot_json_string()
 * and diot_json_num() are built on them).
 *   diot_json_quote:  s as a JSON string, quotes included (NULL: null).
 *   diot_json_number: v as diot_json_double() writes it with the given
 *                     precision (1..17).
 */
void diot_json_quote(FILE *fp, const char *s);
/*
 * Strings are bytes (a path, a label), JSON text is UTF-8: diot_json_quote
 * copies well-formed UTF-8 as it is (DEL too: JSON allows it), writes
 * every control character as an escape (\n, \t, ... or \u00XX), and
 * every byte that is not
 * part of well-formed UTF-8 (RFC 3629: no overlong forms, surrogates or
 * code points above U+10FFFF) as \ufffd, U+FFFD REPLACEMENT CHARACTER:
 * the document is valid JSON whatever the string.
 *   diot_utf8_len:     the length (1-4) of the well-formed UTF-8 sequence
 *                      at p, or 0 when the byte at p does not start one.
 *   diot_utf8_invalid: how many bytes of s (NULL: none) are not part of
 *                      well-formed UTF-8, i.e. written as U+FFFD.
 */
size_t diot_utf8_len(const unsigned char *p);
size_t diot_utf8_invalid(const char *s);
void diot_json_number(FILE *fp, double v, int precision);

#endif /* DIOT_JSON_H */
