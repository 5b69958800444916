/*
 * json.h -- a streaming JSON writer for the tools' --format json.
 *
 * Nesting, commas, indentation and escaping are handled here, once: a
 * tool says what to write, in order, and never prints a comma or a brace
 * itself.  Every value call takes a key; the key is written inside an
 * object and must be NULL inside an array (and for the top-level value).
 * Misuse (a key in an array, none in an object, closing what is not
 * open, nesting deeper than DIOT_JSON_MAX_DEPTH) is a programming error:
 * it is recorded, the output stays well-formed as far as it can, and
 * diot_json_end() returns -EINVAL.
 *
 * Numbers: doubles are written with %.*g precision given at init (NaN
 * and infinities as null); integers exactly; diot_json_fixed() writes a
 * double with a fixed number of decimals (as a table shows it).
 */
#ifndef DIOT_JSON_H
#define DIOT_JSON_H

#include <stdint.h>
#include <stdio.h>

#define DIOT_JSON_MAX_DEPTH 16

struct diot_json {
	FILE *fp;
	int indent;                         /* spaces per level; 0: one line  */
	int depth;
	int count[DIOT_JSON_MAX_DEPTH];     /* members written at each level  */
	char kind[DIOT_JSON_MAX_DEPTH];     /* '{' or '[' at each level       */
	int misuse;                         /* a programming error was seen   */
};

/* Start a document on fp; indent 0 writes it on one line. */
void diot_json_init(struct diot_json *j, FILE *fp, int indent);

void diot_json_object(struct diot_json *j, const char *key);  /* { */
void diot_json_array(struct diot_json *j, const char *key);   /* [ */
void diot_json_close(struct diot_json *j);                     /* } or ] */

void diot_json_str(struct diot_json *j, const char *key, const char *v); /* NULL: null */
void diot_json_u64(struct diot_json *j, const char *key, uint64_t v);
void diot_json_i64(struct diot_json *j, const char *key, int64_t v);
void diot_json_double(struct diot_json *j, const char *key, double v);  /* %.15g */
void diot_json_fixed(struct diot_json *j, const char *key, double v, int decimals);
void diot_json_bool(struct diot_json *j, const char *key, int v);
void diot_json_null(struct diot_json *j, const char *key);

/*
 * End the document: close what is still open, write the final newline,
 * flush.  Returns 0, -EINVAL after misuse, or -EIO (errno kept) when the
 * stream reported a write error.
 */
int diot_json_end(struct diot_json *j);

#endif /* DIOT_JSON_H */
