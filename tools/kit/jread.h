/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * jread.h -- a small JSON reader (RFC 8259) for the tools' own saved
 * results: sync-write --compare reads the documents --format json wrote.
 *
 * The whole document is parsed into a tree of values.  Strict: one value
 * with nothing but white space after it; no comments, trailing commas,
 * single quotes, leading zeros, NaN or bare words.  Strings are decoded
 * (escapes, \uXXXX with surrogate pairs, to UTF-8); a string that holds
 * NUL (\u0000) is refused, since the tools keep strings as C strings.
 * Numbers are doubles: one too large for a double (1e400) is refused, with
 * where it is ("points[2].aggregate.mb_per_s"); one too small becomes 0 or
 * a subnormal, as strtod() makes it.  Containers nest at most
 * DIOT_JR_MAX_DEPTH deep; texts longer than DIOT_JR_MAX_TEXT are refused.
 * Errors say where: "line 3, column 14: expected ':' after a key".
 *
 * Memory: the text is read twice, once to check it and count, once to
 * fill one allocation of exactly the size needed: 16 bytes per value kept
 * plus its decoded strings (so at most about 8 times the text, for a text
 * of nothing but "0,"; a saved result takes less than its text).  A keep
 * function (diot_jr_parse_keep) leaves out the members and elements a
 * reader does not want: they are checked like the rest, but take no
 * memory.  Nothing is
 * printed and nothing exits: a fuzzer may call these on any bytes.
 */
#ifndef DIOT_JREAD_H
#define DIOT_JREAD_H

#include <stddef.h>
#include <stdint.h>

#define DIOT_JR_MAX_DEPTH 64
#define DIOT_JR_MAX_TEXT ((size_t)128 << 20)

enum diot_jr_type { DIOT_JR_NULL, DIOT_JR_BOOL, DIOT_JR_NUM, DIOT_JR_STR, DIOT_JR_ARR,
                    DIOT_JR_OBJ };

/* A value: read it through the functions below.  The tree is one
 * allocation; its parts refer to each other by offsets from themselves. */
struct diot_jr {
	int32_t key;              /* a member: where its name is; 0: none   */
	uint32_t tn;              /* type (3 bits), then kids, or the bool  */
	union {
		double num;           /* DIOT_JR_NUM                           */
		int64_t rel;          /* DIOT_JR_STR, _ARR, _OBJ: where        */
	} u;
};

/* Where a member is, for a keep function and in messages: the steps from
 * the document down, each a member's name (key) or an array index (key
 * NULL).  A name is cut to its first 63 bytes here. */
struct diot_jr_step {
	const char *key;
	size_t index;
};

/* Keep the member or element at path[n - 1] (1), or check it and leave it
 * out (0).  type is what it is (a diot_jr_type, by its first character;
 * -1 if that is no value's, which the reading then refuses).  Called for
 * every member and element of every container kept, the same way for the
 * same text (it is called in both readings). */
typedef int (*diot_jr_keep_fn)(const struct diot_jr_step *path, int n, int type,
                               void *arg);

/* Parse text[0..len) into *out (free with diot_jr_free()).  Returns 0, or
 * with where and what in err (errlen bytes, may be 0): -EINVAL (not JSON
 * as this reader takes it), -ERANGE (a number beyond a double's range),
 * -EFBIG (longer than DIOT_JR_MAX_TEXT), -ENOMEM. */
int diot_jr_parse(const char *text, size_t len, struct diot_jr **out, char *err,
                  size_t errlen);
int diot_jr_parse_keep(const char *text, size_t len, diot_jr_keep_fn keep, void *arg,
                       struct diot_jr **out, char *err, size_t errlen);
void diot_jr_free(struct diot_jr *v);

/* Reading values; each accepts NULL and the wrong type.  The type (-1 for
 * NULL); the number of elements or members of an array or object (else
 * 0) and the i-th of them (NULL if there is none); a member's name (NULL
 * if v is not a member). */
int diot_jr_type(const struct diot_jr *v);
int diot_jr_count(const struct diot_jr *v);
const struct diot_jr *diot_jr_kid(const struct diot_jr *v, int i);
const char *diot_jr_key(const struct diot_jr *v);
/* The member key of an object (the first, if it has several; NULL if v
 * is not an object or has no such member); v's number or dflt when v is
 * not a number; v's string or NULL; v's truth or dflt. */
const struct diot_jr *diot_jr_get(const struct diot_jr *v, const char *key);
double diot_jr_num(const struct diot_jr *v, double dflt);
const char *diot_jr_str(const struct diot_jr *v);
int diot_jr_bool(const struct diot_jr *v, int dflt);

#endif
