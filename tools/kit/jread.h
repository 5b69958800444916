/*
 * jread.h -- a small JSON reader (RFC 8259) for the tools' own saved
 * results: sync-write --compare reads the documents --format json wrote.
 *
 * The whole document is parsed into a tree of values.  Strict: one value
 * with nothing but white space after it; no comments, trailing commas,
 * single quotes, leading zeros, NaN or bare words.  Strings are decoded
 * (escapes, \uXXXX with surrogate pairs, to UTF-8); a string that holds
 * NUL (\u0000) is refused, since the tools keep strings as C strings.
 * Containers nest at most DIOT_JR_MAX_DEPTH deep.  Numbers are doubles.
 * Errors say where: "line 3, column 14: expected ':' after a key".
 */
#ifndef DIOT_JREAD_H
#define DIOT_JREAD_H

#include <stddef.h>

#define DIOT_JR_MAX_DEPTH 64

enum diot_jr_type { DIOT_JR_NULL, DIOT_JR_BOOL, DIOT_JR_NUM, DIOT_JR_STR, DIOT_JR_ARR,
                    DIOT_JR_OBJ };

struct diot_jr {
	int type;                 /* diot_jr_type                            */
	int b;                    /* DIOT_JR_BOOL                            */
	double num;               /* DIOT_JR_NUM                             */
	char *str;                /* DIOT_JR_STR                             */
	char *key;                /* a member of an object: its name         */
	struct diot_jr *kids;     /* DIOT_JR_ARR, DIOT_JR_OBJ: the elements  */
	int nkids;
};

/* Parse text[0..len) into *out (free with diot_jr_free()).  Returns 0, or
 * -EINVAL (with where and what in err) or -ENOMEM. */
int diot_jr_parse(const char *text, size_t len, struct diot_jr **out, char *err,
                  size_t errlen);
void diot_jr_free(struct diot_jr *v);

/* Lookups that accept NULL and the wrong type: the member key of an object
 * (NULL if v is not an object or has no such member); v's number or dflt
 * when v is not a number; v's string or NULL; v's truth or dflt. */
const struct diot_jr *diot_jr_get(const struct diot_jr *v, const char *key);
double diot_jr_num(const struct diot_jr *v, double dflt);
const char *diot_jr_str(const struct diot_jr *v);
int diot_jr_bool(const struct diot_jr *v, int dflt);

#endif
