/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * parse.h -- the tools' parsers of option values (tools/kit/parse.c):
 * sizes with their suffixes, plain numbers, lists and doubling ranges of
 * either, durations, and words from a fixed list.
 *
 * Conventions: parsers return 0 or a negative errno value (-EINVAL for bad
 * syntax, -ERANGE for out-of-range values) and write a message without the
 * offending option name into err (errlen bytes, may be 0; DIOT_ERR_MAX of
 * msg.h is room for any), so that a tool can print
 * "tool: --size '4kk': unknown suffix 'kk' (allowed: ...)".  They never
 * print.
 */
#ifndef DIOT_PARSE_H
#define DIOT_PARSE_H

#include <stddef.h>
#include <stdint.h>

/*
 * A size in bytes: decimal digits and an optional suffix,
 *   b = 512;  k, K, KiB = 1024;  M, MiB = 1024^2;  G, GiB = 1024^3;
 *   T, TiB = 1024^4;  kB, KB = 1000;  MB = 1000^2;  GB = 1000^3;  TB = 1000^4.
 * No sign, blanks, fractions or hexadecimal.
 */
int diot_parse_size(const char *s, uint64_t *out, char *err, size_t errlen);

/* A size in [min, max]; below 1 the message says "must be greater than 0". */
int diot_parse_size_range(const char *s, uint64_t min, uint64_t max, uint64_t *out,
                          char *err, size_t errlen);

/*
 * A comma-separated list of sizes in [min, max]; an item "A..B" is the
 * doubling range A, 2A, 4A, ... up to B.  The result is sorted ascending
 * without duplicates, in a malloc'd *out.  Returns the count or -errno.
 */
int diot_parse_size_list(const char *s, uint64_t min, uint64_t max, uint64_t **out,
                         char *err, size_t errlen);

/* The same for plain numbers: "1,2,4,8" or "1..8". */
int diot_parse_uint_list(const char *s, uint64_t min, uint64_t max, uint64_t **out,
                         char *err, size_t errlen);

/*
 * A duration: a decimal number (fraction allowed) with an optional unit
 * ns, us, ms, s (default), m, h; more than 0 and at most max_s seconds.
 * Result in nanoseconds.
 */
int diot_parse_duration(const char *s, double max_s, uint64_t *ns, char *err,
                        size_t errlen);

/* The suffixes diot_parse_size() accepts, for usage text and errors. */
const char *diot_size_suffixes(void);

/* A plain unsigned decimal number in [min, max]. */
int diot_parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out,
                    char *err, size_t errlen);

/*
 * Look word up in a NULL-terminated list of names; *index gets its
 * position.  The error lists the allowed words.
 */
int diot_parse_word(const char *s, const char *const *words, int *index,
                    char *err, size_t errlen);

#endif /* DIOT_PARSE_H */
