/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * devinfo.c -- dio_devinfo(): the device facts behind a path.  The
 * portable part only classifies the path; every fact comes from the
 * backend's dio__os_devinfo().
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"
#include "os/os.h"

int
dio_devinfo(const char *path, struct dio_devinfo *out)
{
	struct stat st;

	if (out == NULL)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (path == NULL || *path == '\0')
		return -EINVAL;
	if (stat(path, &st) != 0)
		return DIO__ERR(errno);
	if (S_ISBLK(st.st_mode))
		out->kind = DIO_DEVINFO_BLOCK;
	else if (S_ISCHR(st.st_mode))
		out->kind = DIO_DEVINFO_CHAR;
	else
		out->kind = DIO_DEVINFO_FILE;   /* also FIFOs and sockets: their file system */
	return dio__os_devinfo(path, &st, out);
}

const char *
dio_devinfo_kind_name(int kind)
{
	switch (kind) {
	case DIO_DEVINFO_FILE:  return "file";
	case DIO_DEVINFO_BLOCK: return "block device";
	case DIO_DEVINFO_SG:    return "sg device";
	case DIO_DEVINFO_CHAR:  return "character device";
	default:                return "none";
	}
}

const char *
dio_tri_name(int tri)
{
	switch (tri) {
	case DIO_TRI_NO:  return "no";
	case DIO_TRI_YES: return "yes";
	default:          return "unknown";
	}
}
