/*
 * util.h -- helpers shared by the libdirectio tools: number and list
 * parsing with dd/sg3_utils size suffixes, durations, formatting, JSON
 * string output and error reporting.  Not part of the library's API.
 */
#ifndef DIOT_UTIL_H
#define DIOT_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#if defined(__GNUC__)
# define DIOT_PRINTF(f, a) __attribute__((format(printf, f, a)))
# define DIOT_NORETURN __attribute__((noreturn))
#else
# define DIOT_PRINTF(f, a)
# define DIOT_NORETURN
#endif

/* Exit statuses shared by the tools. */
#define DIOT_EXIT_FAIL  1   /* the run failed (I/O error, device said no...) */
#define DIOT_EXIT_USAGE 2   /* bad command line                              */

/* The program name used in messages (set once by diot_init()). */
extern const char *diot_prog;
void diot_init(const char *argv0);

/* "PROG: message\n" on stderr. */
void diot_warn(const char *fmt, ...) DIOT_PRINTF(1, 2);
/* diot_warn() then exit(status). */
void diot_die(int status, const char *fmt, ...) DIOT_PRINTF(2, 3) DIOT_NORETURN;
/* Usage error: message, a hint to --help, exit DIOT_EXIT_USAGE. */
void diot_usage_error(const char *fmt, ...) DIOT_PRINTF(1, 2) DIOT_NORETURN;

/*
 * Parse a size: decimal digits with an optional suffix.
 *   b = 512;  k K KiB = 2^10;  m M MiB = 2^20;  g G GiB = 2^30;  t T TiB = 2^40
 *   kB KB = 10^3;  MB = 10^6;  GB = 10^9;  TB = 10^12
 * Rejects empty strings, signs, spaces, fractions and exponents ("1e3"),
 * unknown suffixes ("4kk"), 0 (unless allow_zero) and anything above max.
 * Returns 0, or -1 with a specific message in err.
 */
int diot_parse_size(const char *s, uint64_t *out, int allow_zero, uint64_t max,
                    char *err, size_t errlen);

/* A plain unsigned decimal integer in [min, max]. */
int diot_parse_uint(const char *s, uint64_t *out, uint64_t min, uint64_t max,
                    char *err, size_t errlen);

/*
 * A duration: a decimal number (fraction allowed) with an optional unit
 * ns, us, ms, s (default), m, h.  Must be > 0 and at most max_s seconds.
 * Result in nanoseconds.
 */
int diot_parse_duration(const char *s, uint64_t *ns, double max_s, char *err,
                        size_t errlen);

/*
 * A list of sizes: comma-separated items, each a size or a doubling range
 * "A..B" (A, 2A, 4A, ... up to B inclusive).  Duplicates are dropped and
 * the result is sorted.  *out is malloc'd.  Returns the count, or -1 with a
 * message in err.
 */
int diot_parse_size_list(const char *s, uint64_t **out, int allow_zero,
                         uint64_t max, char *err, size_t errlen);

/* The same for plain integers (writers: "1,2,4,8" or "1..8"). */
int diot_parse_uint_list(const char *s, uint64_t **out, uint64_t min,
                         uint64_t max, char *err, size_t errlen);

/*
 * Human-readable binary size: "512 B", "48 KiB", "1 MiB", "1.5 MiB".
 * Returns buf.
 */
char *diot_fmt_size(uint64_t bytes, char *buf, size_t len);

/* Monotonic time in nanoseconds. */
uint64_t diot_now_ns(void);

/* Write s as a JSON string literal (with quotes) to fp. */
void diot_json_str(FILE *fp, const char *s);

/* Write s as a CSV field (quoted if it needs it) to fp. */
void diot_csv_str(FILE *fp, const char *s);

/* Write a double as JSON (null for NaN/inf). */
void diot_json_num(FILE *fp, double v);

#endif
