/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * jread.c -- harness: the tools' JSON reader (tools/kit/jread.c), on the
 * input as a document: diot_jr_parse(), then every value of the tree read
 * back (types, counts, kids, keys, numbers, strings, lookups); and
 * diot_jr_parse_keep() with a keep function that drops members by their
 * path, as --compare's does.  Numbers must be finite (the reader refuses
 * the others), strings C strings, and an error must say where.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz.h"
#include "tools/kit/jread.h"

static void
walk(const struct diot_jr *v, int depth)
{
	const struct diot_jr *k;
	const char *key, *s;
	int i, n, t = diot_jr_type(v);

	if (t < DIOT_JR_NULL || t > DIOT_JR_OBJ || depth > DIOT_JR_MAX_DEPTH + 1)
		abort();
	if (t == DIOT_JR_NUM && !isfinite(diot_jr_num(v, 0)))
		abort();
	if (t == DIOT_JR_STR && ((s = diot_jr_str(v)) == NULL || strlen(s) > DIOT_JR_MAX_TEXT))
		abort();
	(void)diot_jr_bool(v, -1);
	n = diot_jr_count(v);
	if (n < 0 || ((t != DIOT_JR_ARR && t != DIOT_JR_OBJ) && n != 0))
		abort();
	for (i = 0; i < n; i++) {
		k = diot_jr_kid(v, i);
		if (k == NULL)
			abort();
		key = diot_jr_key(k);
		if ((t == DIOT_JR_OBJ) != (key != NULL))
			abort();
		if (key != NULL && diot_jr_get(v, key) == NULL)
			abort();
		walk(k, depth + 1);
	}
	if (diot_jr_kid(v, n) != NULL || diot_jr_kid(v, -1) != NULL)
		abort();
	(void)diot_jr_get(v, "points");
}

/* Keep what the path's hash says: a different subset at each depth. */
static int
keep_some(const struct diot_jr_step *path, int n, int type, void *arg)
{
	unsigned h = *(const unsigned *)arg;
	const char *c;

	if (n < 1 || type < -1 || type > DIOT_JR_OBJ)
		abort();
	if (path[n - 1].key != NULL)
		for (c = path[n - 1].key; *c; c++)
			h = h * 33u + (unsigned char)*c;
	else
		h = h * 33u + (unsigned)path[n - 1].index;
	return (h >> 3) % 3 != 0;
}

static void
check_err(int r, const char *err, size_t errlen)
{
	if (r != -EINVAL && r != -ERANGE && r != -EFBIG && r != -ENOMEM)
		abort();
	if (err[0] == '\0' || memchr(err, '\0', errlen) == NULL)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct diot_jr *v = NULL;
	char err[300];
	unsigned seed = (unsigned)size;
	int r;

	err[0] = '\0';
	r = diot_jr_parse((const char *)data, size, &v, err, sizeof(err));
	if (r == 0) {
		if (v == NULL)
			abort();
		walk(v, 0);
		diot_jr_free(v);
	} else {
		check_err(r, err, sizeof(err));
	}
	fuzz_verdict(r == 0, err);
	v = NULL;
	err[0] = '\0';
	r = diot_jr_parse_keep((const char *)data, size, keep_some, &seed, &v, err,
	                       sizeof(err));
	if (r == 0) {
		walk(v, 0);
		diot_jr_free(v);
	} else {
		check_err(r, err, sizeof(err));
	}
	/* No room for the message: nothing written, still refused. */
	r = diot_jr_parse((const char *)data, size, &v, NULL, 0);
	if (r == 0)
		diot_jr_free(v);
	return 0;
}
