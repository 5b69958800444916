/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz.h -- what the harnesses of tests/fuzz/ share.  Each harness is one
 * libFuzzer entry point, LLVMFuzzerTestOneInput(), that feeds the input to
 * one parser of the project.  Built with --enable-fuzzing it is linked
 * with libFuzzer (clang -fsanitize=fuzzer); otherwise with replay.c, a
 * main() that feeds it every file of the corpus and reproducer
 * directories given, which is what 'make check' runs (tests/fuzz/replay.sh).
 *
 * A harness must not exit, print much, or leave anything behind: the
 * parsers that end the process on an error are called with the kit's
 * errors held (tools/kit/msg.h: diot_hold_errors()).
 */
#ifndef DIO_TESTS_FUZZ_H
#define DIO_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tools/kit/msg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a NUL-terminated string (a NUL inside ends it early), malloc'd;
 * NULL when out of memory. */
char *fuzz_string(const uint8_t *data, size_t size);

/* A read-only stream of exactly the input's bytes; NULL when it cannot be
 * made.  fclose() it. */
FILE *fuzz_stream(const uint8_t *data, size_t size);

/*
 * The input as the words of a command line: split at each NUL byte (a
 * trailing NUL ends the last word, not an empty one), after argv[0], at
 * most max words.  *argv gets a malloc'd, NULL-terminated vector whose
 * words are in the same allocation; free(*argv) frees everything.
 * Returns argc, or -1 when out of memory.
 */
int fuzz_argv(const uint8_t *data, size_t size, const char *argv0, int max,
              char ***argv);

/* Standard output to /dev/null for the rest of the process (usage texts
 * of --help, reports): once.  Standard error stays, for the sanitizers. */
void fuzz_quiet(void);

/* A little-endian number of n bytes (n <= 8) taken from the front of the
 * input (*data, *size advance; missing bytes read as 0). */
uint64_t fuzz_take(const uint8_t **data, size_t *size, size_t n);

/*
 * What the harness made of this input, once, at its end: accepted (1, a
 * valid input of the format the harness reads, taken as such) or refused
 * (0), and why when the reader said (why: NULL or "" when not).  Said on
 * standard error, as "fuzz: accepted" or "fuzz: refused[: WHY]", when
 * DIO_FUZZ_VERDICT is set in the environment: tests/fuzz/replay.sh
 * runs each seed so and fails on a seed of corpus/NAME/ that is refused
 * and on one of corpus/NAME/bad/ that is accepted, so that the seeds stay
 * inputs of today's formats.  FUZZ_UNJUDGED: this build cannot read
 * inputs of this kind (a MAC without a MAC library), said as "fuzz: not
 * judged: WHY"; the replay counts it, and fails on neither.
 */
#define FUZZ_UNJUDGED (-1)
void fuzz_verdict(int accepted, const char *why);

/*
 * A directory of this process's own for the files a harness makes,
 * dio-fuzz.XXXXXX under $TMPDIR, else under /dev/shm where this process
 * may write there (a file system in memory: a harness that makes a tree
 * per input runs 60 times faster there than on a disk), else under /tmp.
 * Made at the first call, removed with all it holds at exit; NULL when
 * it cannot be made.
 */
const char *fuzz_workdir(void);

/* fuzz_workdir()/name into buf: 0, or -1 when it cannot be made. */
int fuzz_workpath(const char *name, char *buf, size_t len);

/* fuzz_workdir()/rel into buf (len bytes), the directories on its way
 * made (a tree a harness builds): buf. */
const char *fuzz_workdirs(const char *rel, char *buf, size_t len);

/* The file fuzz_workdir()/rel, its directories made, holding exactly
 * data[0 .. len) (nothing when it cannot be made). */
void fuzz_workfile(const char *rel, const uint8_t *data, size_t len);

/* Everything in fuzz_workdir() removed (the directory stays). */
void fuzz_workdir_clear(void);

/* After a held error (diot_hold_errors()): free the message the kit
 * keeps for the exit that would follow (a harness holds thousands). */
void fuzz_held_free(struct diot_held *h);

#endif
