/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * scsi-none.c -- the SCSI pass-through part of the OS contract where
 * there is none: the posix backend, and linux or sunos built without
 * their pass-through header (<scsi/sg.h>, <sys/scsi/impl/uscsi.h>).
 * Every operation says so rather than pretending that a command ran;
 * configure puts the reason in DIO_SCSI_NONE_WHY.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>

#include "lib/internal.h"
#include "os/os.h"

#ifndef DIO_SCSI_NONE_WHY
# define DIO_SCSI_NONE_WHY "no SCSI pass-through in this build"
#endif

int
dio__os_scsi_probe(int fd, const struct stat *st, const char *path)
{
	(void)fd; (void)st;
	return dio__fail(NULL, -ENOTSUP, "scsi open %s: " DIO_SCSI_NONE_WHY, path);
}

int
dio__os_scsi_xfer_ok(int xfer)
{
	(void)xfer;
	return -ENOTSUP;
}

int
dio__os_scsi_exec(struct dio__scsi_req *r, int fd)
{
	(void)fd;
	snprintf(r->detail, r->detail_len, "%s", DIO_SCSI_NONE_WHY);
	return -ENOTSUP;
}

int64_t
dio__os_scsi_reserve(int fd, size_t len)
{
	(void)fd; (void)len;
	return -ENOTSUP;
}

int
dio__os_scsi_mmap(int fd, size_t len, void **addr)
{
	(void)fd; (void)len; (void)addr;
	return -ENOTSUP;
}
