/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ufs-rules.c -- an LD_PRELOAD shim that makes libdirectio answer a
 * program the way the illumos backend answers on UFS, on a Linux file:
 * the file system is "ufs", direct I/O is directio() advice, and
 * dio_align's direct_limits holds UFS's requests that go buffered anyway
 * (doc/illumos.md, section 2).  The product's tool then runs for real, on
 * real files, and tests/sync-write-ufs-rules.sh sees what it makes of
 * those answers.  For tests, never installed.
 *
 * Environment:
 *   DIO_UFS_LIMITS  direct_limits to report (a number; default the UFS set)
 *   DIO_UFS_LOG     a file to which every dio_file_set_direct(OFF) call
 *                   appends a line "off PID"
 *   DIO_UFS_NO_FADVISE=1  dio_caps() without DIO_CAP_FADVISE, as the
 *                   illumos backend answers (its libc's posix_fadvise()
 *                   does nothing)
 *   DIO_UFS_COMMIT_FLUSH, DIO_UFS_WRITE_CACHE, DIO_UFS_SYNC_ALWAYS,
 *   DIO_UFS_DIRECT_STABLE  dio_tri values (0 unknown, 1 no, 2 yes) that
 *                   dio_devinfo() reports for those fields, as the illumos
 *                   backend does (UFS: commit_flush no; a disk whose
 *                   DKIOCGETWCE says on or cannot answer; ZFS sync=always;
 *                   NFS); unset: the real answer
 * It says "ufs-rules: loaded" on standard error, so that a test can tell
 * that it was.
 */
#undef _FORTIFY_SOURCE
#define _GNU_SOURCE 1

#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libdirectio.h"

static void *
next(const char *name)
{
	void *p = dlsym(RTLD_NEXT, name);

	if (p == NULL) {
		fprintf(stderr, "ufs-rules: no %s to wrap\n", name);
		_exit(99);
	}
	return p;
}

__attribute__((constructor)) static void
loaded(void)
{
	static const char msg[] = "ufs-rules: loaded\n";

	if (write(2, msg, sizeof(msg) - 1) < 0)
		return;
}

/* The number in environment variable name (any base strtoul reads), or
 * dflt where it is unset or empty. */
static uint32_t
env_u32(const char *name, uint32_t dflt)
{
	const char *e = getenv(name);

	return e != NULL && *e != '\0' ? (uint32_t)strtoul(e, NULL, 0) : dflt;
}

static uint32_t
limits(void)
{
	return env_u32("DIO_UFS_LIMITS", DIO_DLIM_SYNC_EXTEND | DIO_DLIM_SYNC_HOLES |
	                                 DIO_DLIM_MAPPED | DIO_DLIM_CACHED);
}

int
dio_file_align(const dio_file *f, struct dio_align *a)
{
	int (*real)(const dio_file *, struct dio_align *) =
		(int (*)(const dio_file *, struct dio_align *))next("dio_file_align");
	int r = real(f, a);

	if (r == 0)
		a->direct_limits = limits();
	return r;
}

int
dio_fs_type(int fd, char *buf, size_t len)
{
	(void)fd;
	if (buf == NULL || len == 0)
		return -22;
	snprintf(buf, len, "ufs");
	return 0;
}

/* O_DIRECT is what the Linux library did; UFS would have used advice. */
int
dio_file_direct(const dio_file *f)
{
	int (*real)(const dio_file *) = (int (*)(const dio_file *))next("dio_file_direct");
	int m = real(f);

	return m == DIO_MECH_O_DIRECT ? DIO_MECH_DIRECTIO : m;
}

int
dio_file_set_direct(dio_file *f, int direct)
{
	int (*real)(dio_file *, int) = (int (*)(dio_file *, int))next("dio_file_set_direct");
	const char *log = getenv("DIO_UFS_LOG");
	char line[64];
	int fd, r = real(f, direct);

	if (direct == DIO_DIRECT_OFF && log != NULL && *log != '\0') {
		fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
		if (fd >= 0) {
			int n = snprintf(line, sizeof(line), "off %ld\n", (long)getpid());

			if (write(fd, line, (size_t)n) < 0)
				r = r < 0 ? r : -5;
			close(fd);
		}
	}
	if (r == DIO_MECH_O_DIRECT)
		r = DIO_MECH_DIRECTIO;
	return r;
}

unsigned
dio_caps(void)
{
	unsigned (*real)(void) = (unsigned (*)(void))next("dio_caps");
	const char *e = getenv("DIO_UFS_NO_FADVISE");

	return e != NULL && strcmp(e, "1") == 0 ? real() & ~(unsigned)DIO_CAP_FADVISE
	                                        : real();
}

int
dio_devinfo(const char *path, struct dio_devinfo *o)
{
	int (*real)(const char *, struct dio_devinfo *) =
		(int (*)(const char *, struct dio_devinfo *))next("dio_devinfo");
	int r = real(path, o);

	if (r < 0)
		return r;
	o->commit_flush = env_u32("DIO_UFS_COMMIT_FLUSH", o->commit_flush);
	o->write_cache = env_u32("DIO_UFS_WRITE_CACHE", o->write_cache);
	o->sync_always = env_u32("DIO_UFS_SYNC_ALWAYS", o->sync_always);
	o->direct_stable = env_u32("DIO_UFS_DIRECT_STABLE", o->direct_stable);
	return r;
}
