/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * util.h -- helpers shared by the libdirectio command-line tools (the
 * convenience library tools/kit/libdiokit.la): option parsing, number and
 * size parsing with specific error messages, formatting, clocks and CPU
 * time, a least-squares fit, and CSV/XML text escaping (JSON: json.h; the
 * two JSON helpers here are kept only until the tools stop calling them).
 *
 * Conventions: parsers return 0 or a negative errno value (-EINVAL for bad
 * syntax, -ERANGE for out-of-range values) and write a message without the
 * offending option name into err (errlen bytes, may be 0), so that a tool
 * can print "tool: --size '4kk': unknown suffix 'kk' (allowed: ...)".
 * Only diot_warn(), diot_die() and diot_usage_error() print (and the last
 * two exit).  Everything is diot_-prefixed.
 */
#ifndef DIO_TOOLS_UTIL_H
#define DIO_TOOLS_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
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

/* ------------------------------------------------------------ messages */

/* The program name used in messages (set once by diot_init()). */
extern const char *diot_prog;
void diot_init(const char *argv0);
/* SIGINT, SIGTERM and SIGHUP (a closed terminal) call handler, which
 * should only note the signal: the tools stop their run cleanly (partial
 * results, files removed) and exit 128 + the signal. */
void diot_catch_stop_signals(void (*handler)(int));
/* "PROG: message\n" on stderr, in one write; never cut, whatever its
 * length (a path of PATH_MAX bytes keeps the reason after it). */
void diot_warn(const char *fmt, ...) DIOT_PRINTF(1, 2);
/* A copy of s (NULL: "") for a message or a table, malloc'd: control
 * characters as \n, \t, \r or \xHH, bytes that are not UTF-8 as \xHH
 * (every message goes through it: one line, whatever a name holds).
 * Out of memory: diot_die(). */
char *diot_visible(const char *s);
/* diot_warn() then exit(status). */
void diot_die(int status, const char *fmt, ...) DIOT_PRINTF(2, 3) DIOT_NORETURN;
/* diot_die() with a va_list (a tool's own fatal-error wrapper). */
void diot_vdie(int status, const char *fmt, va_list ap) DIOT_NORETURN;
/* Usage error: message, a hint to --help, exit DIOT_EXIT_USAGE. */
void diot_usage_error(const char *fmt, ...) DIOT_PRINTF(1, 2) DIOT_NORETURN;
/* For a tool that is one of several processes of a job (MPI ranks):
 * where (e.g. "rank 2 on h2") follows the program name in every message,
 * and diot_die() and diot_usage_error() call end(status) instead of
 * exit(), in the process that set it only (e.g. to abort the whole job
 * rather than leave the others waiting).  NULLs restore the default. */
void diot_set_where(const char *where, void (*end)(int status));

/*
 * Errors held, not said: between diot_hold_errors(h) and the next fatal
 * message, diot_die() and diot_usage_error() (in this process, not in its
 * forked children) format their message into h->msg (without the "PROG: "
 * prefix), set h->status and h->usage, stop holding and longjmp(h->jb, 1)
 * instead of printing and exiting.  The caller calls setjmp(h->jb) itself
 * before the work that may fail (C99: as the whole condition of an if):
 *
 *     diot_hold_errors(&h);
 *     if (setjmp(h.jb) == 0) { ... work ...; diot_hold_errors(NULL); }
 *     ... h.status says whether it failed ...
 *
 * For the ranks of an MPI job (tools/kit/mpi.h: diot_mpi_each()), so
 * that an error every rank meets is said once, and the job ends in order.
 * diot_say_held() prints a held message as diot_die() would have, with or
 * without the where of diot_set_where().
 */
struct diot_held {
	jmp_buf jb;
	int status;             /* 0: nothing failed                        */
	int usage;              /* a usage error: the hint to --help follows */
	int job;                /* about the whole job: said without where  */
	const char *msg;        /* the message (malloc'd, any length), or NULL */
};
void diot_hold_errors(struct diot_held *h);
void diot_say_held(const struct diot_held *h, int with_where);

/* Room for any message these helpers write. */
#define DIOT_ERR_MAX 256

/* ------------------------------------------------------------ options */

/* Whether an option takes an argument. */
enum diot_arg { DIOT_NO_ARG = 0, DIOT_REQ_ARG = 1 };

/* One option: long name without "--" (or NULL), short letter (or 0). */
struct diot_opt {
	const char *name;
	int letter;
	int arg;        /* diot_arg */
	int id;         /* > 0, returned by diot_getopt() */
};

/* Values diot_getopt() returns besides an option's id. */
enum {
	DIOT_OPT_END = 0,       /* no more arguments                        */
	DIOT_OPT_ERROR = -1,    /* usage error: message in st->err          */
	DIOT_OPT_OPERAND = -2   /* an operand (non-option): st->arg         */
};

struct diot_optstate {
	int ind;                /* next argv index; start at 1              */
	int sub;                /* position inside bundled short options    */
	int only_operands;      /* after "--"                               */
	const char *arg;        /* the option's argument or the operand     */
	char name[64];          /* how the option was spelled: "--size", "-s" */
	char err[DIOT_ERR_MAX];
};

/* Start parsing argv[1..]. */
void diot_getopt_init(struct diot_optstate *st);

/*
 * Next option or operand.  Accepts "--name value", "--name=value",
 * "-s value", "-svalue", bundled flags "-dv", and operands anywhere
 * ("--" ends the options).  opts ends with an entry whose id is 0.
 * Long names match exactly: "--siz" is an unknown option.
 *
 * Why not getopt_long() (checked against glibc 2.36 and illumos-gate's
 * usr/src/lib/libc/port/gen/getopt_long.c, 2025-02):
 * - it always accepts unambiguous abbreviations ("--siz" is --size; its
 *   FLAG_ABBREV is set for getopt_long and getopt_long_only on illumos,
 *   and glibc has no switch either; only illumos' getopt_clip() turns it
 *   off, and that one stops at the first operand and requires a short
 *   letter for every long option).  The tools would accept what they
 *   refuse today, and a new option sharing a prefix would break scripts.
 * - its state is global: optind, optarg, optopt, opterr, plus hidden
 *   statics in libc (illumos: place, nonopt_start/end, optreset; a reset
 *   in mid-parse needs the optind = 0 convention); the tools pass all
 *   state as arguments and read no globals.
 * - it prints its own messages unless opterr = 0, in each libc's words
 *   with argv[0] ("illegal option -- x" on illumos; "invalid option --
 *   'x'", "unrecognized option '--nope'" on glibc); with opterr = 0 an
 *   unknown long option leaves optopt 0 and the caller must dig the text
 *   out of argv[optind - 1].  Here err says "unknown option '--nope'",
 *   "option '-s' needs an argument" the same everywhere, naming the
 *   option as spelled.
 * What getopt_long() could do: operands in order, anywhere (a leading '-'
 * in the option string returns each as option 1 on both libcs, on
 * illumos overriding POSIXLY_CORRECT), dd-style operands (just operands),
 * "--", "-" as an operand, bundles and "-svalue".
 */
int diot_getopt(int argc, char *const *argv, const struct diot_opt *opts,
                struct diot_optstate *st);

/* ------------------------------------------------------------ numbers */

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

/* ------------------------------------------------------------ formatting */

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

/* ------------------------------------------------------------ time */

/* CLOCK_MONOTONIC in seconds, and in nanoseconds. */
double diot_now(void);
uint64_t diot_now_ns(void);

/* User and system CPU seconds used by this process so far. */
int diot_cpu_times(double *user, double *sys);

/* The same for getrusage()'s WHO (RUSAGE_SELF, RUSAGE_CHILDREN, ...);
 * -errno if getrusage() fails (then *user and *sys are left alone). */
int diot_rusage_times(int who, double *user, double *sys);

/* ------------------------------------------------------------ statistics */

/*
 * Least squares without intercept: y ~ a * x1 + b * x2 over n points.
 * *r2 gets the coefficient of determination 1 - SS_res / SS_tot (1 when
 * the points are all equal and fit exactly).  Returns 0, or -EDOM when
 * there are fewer than 2 points or x1, x2 are collinear.
 */
int diot_fit2(const double *x1, const double *x2, const double *y, size_t n,
              double *a, double *b, double *r2);

#endif /* DIO_TOOLS_UTIL_H */
