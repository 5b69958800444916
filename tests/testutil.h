/* SPDX-License-Identifier: BSD-2-Clause */
/* testutil.h -- helpers shared by the Check test programs. */
#ifndef DIO_TESTUTIL_H
#define DIO_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>

/* Directory tests create their files in: $DIO_TEST_DIR, else ".". */
const char *tu_dir(void);

/* A fresh, not yet existing path "<dir>/<tag>.<pid>.<n>" (static buffer
 * per call is not used: writes into buf of size len). */
char *tu_path(char *buf, size_t len, const char *dir, const char *tag);

/* Fill buf with a pattern derived from seed. */
void tu_fill(void *buf, size_t len, uint32_t seed);

/* Size of the file at path, or -1. */
int64_t tu_file_size(const char *path);

/* Read the whole file at path into a malloc'd buffer; *len gets its size. */
void *tu_slurp(const char *path, size_t *len);

/* fcntl(F_GETFL) of fd. */
int tu_getfl(int fd);

/*
 * How many of the pages of [0, len) of the file at path are resident in the
 * page cache, measured with mmap + mincore; -1 if it cannot be measured.
 */
long tu_resident_pages(const char *path, size_t len);

/* Exit 77 with a SKIP line naming the reason. */
void tu_skip(const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((noreturn, format(printf, 1, 2)))
#endif
	;

/* /sys/block/NAME/ATTR's first line, trailing newline and blanks taken
 * away, into buf ("" when it cannot be read): buf. */
char *tu_sysfs(const char *name, const char *attr, char *buf, size_t len);

/* Run a Check suite runner and return the process exit status. */
struct SRunner;
int tu_run(struct SRunner *sr);

#endif
