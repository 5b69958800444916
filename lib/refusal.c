/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * refusal.c -- a refusal of direct I/O as a value (struct dio_refusal):
 * how a backend fills one (dio__refuse()), the words for each reason and
 * the reasons' names.  The words are the ones the backends wrote as text
 * before the reason became a value, byte for byte: tools quote them, and
 * dio_file_errdetail() ends with them.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

int
dio__refuse(struct dio_refusal *why, int reason, int sys_err, const char *fs,
            const char *driver)
{
	if (why != NULL) {
		memset(why, 0, sizeof(*why));
		why->reason = reason;
		why->err = -ENOTSUP;
		why->sys_err = sys_err;
		if (fs != NULL)
			snprintf(why->fs, sizeof(why->fs), "%s", fs);
		if (driver != NULL)
			snprintf(why->driver, sizeof(why->driver), "%s", driver);
	}
	return -ENOTSUP;
}

/*
 * Why a disk of this driver is not direct although its raw node is one
 * (os/sunos-disk.c: dio__sunos_cached_driver() says which drivers).
 */
static void
dio__cached_words(const char *driver, char *buf, size_t len)
{
	if (strcmp(driver, "zvol") == 0)
		snprintf(buf, len, "a zvol's reads and writes go through the ZFS ARC");
	else if (strcmp(driver, "lofi") == 0)
		snprintf(buf, len, "lofi reads and writes its backing file through "
		         "that file's page cache");
	else if (strcmp(driver, "ramdisk") == 0)
		snprintf(buf, len, "a ramdisk is kernel memory: there is no device "
		         "to go to");
	else
		snprintf(buf, len, "the I/O of driver %s ends in a cache", driver);
}

char *
dio_refusal_str(const struct dio_refusal *r, char *buf, size_t len)
{
	char cached[128];

	if (len == 0)
		return buf;
	buf[0] = '\0';
	if (r == NULL)
		return buf;
	switch (r->reason) {
	case DIO_REFUSAL_NONE:
		break;
	case DIO_REFUSAL_ERROR:
		snprintf(buf, len, "%s", dio_strerror(r->err));
		break;
	case DIO_REFUSAL_NO_O_DIRECT:
		snprintf(buf, len, "this build has no O_DIRECT");
		break;
	case DIO_REFUSAL_STATX_NO_DIO:
		snprintf(buf, len, "statx reports no direct I/O alignment for it");
		break;
	case DIO_REFUSAL_SETFL_EINVAL:
		snprintf(buf, len, "fcntl(F_SETFL, O_DIRECT) says EINVAL: the "
		         "file system has no direct I/O");
		break;
	case DIO_REFUSAL_O_DIRECT_DROPPED:
		snprintf(buf, len, "O_DIRECT did not stay set on the descriptor");
		break;
	case DIO_REFUSAL_POSIX_BACKEND:
		snprintf(buf, len, "the posix backend has no direct I/O");
		break;
	case DIO_REFUSAL_RAW_CACHED:
		dio__cached_words(r->driver, cached, sizeof(cached));
		snprintf(buf, len, "%s: its raw node is not direct", cached);
		break;
	case DIO_REFUSAL_BLOCK_NODE:
		snprintf(buf, len, "a block device node goes through the cache; its "
		         "raw /dev/rdsk node is direct");
		break;
	case DIO_REFUSAL_NOT_FILE_OR_DISK:
		snprintf(buf, len, "neither a regular file nor a disk");
		break;
	case DIO_REFUSAL_FS_ON_CACHED:
		dio__cached_words(r->driver, cached, sizeof(cached));
		snprintf(buf, len, "%s is on a device whose I/O is cached: %s", r->fs,
		         cached);
		break;
	case DIO_REFUSAL_ZFS_IGNORES:
		snprintf(buf, len, "ZFS accepts directio() and ignores it: every read "
		         "and write goes through its cache");
		break;
	case DIO_REFUSAL_FS_NOT_KNOWN:
		snprintf(buf, len, "%s is not known to honour directio() (ufs, nfs and "
		         "smbfs do)", r->fs);
		break;
	case DIO_REFUSAL_DIRECTIO_CALL:
		snprintf(buf, len, "directio(): %s", dio_strerror(r->sys_err));
		break;
	case DIO_REFUSAL_NO_DIRECTIO:
		snprintf(buf, len, "this build has no directio()");
		break;
	default:
		snprintf(buf, len, "direct I/O refused for reason %d", r->reason);
		break;
	}
	return buf;
}

const char *
dio_refusal_name(int reason)
{
	switch (reason) {
	case DIO_REFUSAL_NONE:             return "none";
	case DIO_REFUSAL_ERROR:            return "error";
	case DIO_REFUSAL_NO_O_DIRECT:      return "no-o-direct";
	case DIO_REFUSAL_STATX_NO_DIO:     return "statx-no-dio";
	case DIO_REFUSAL_SETFL_EINVAL:     return "setfl-einval";
	case DIO_REFUSAL_O_DIRECT_DROPPED: return "o-direct-dropped";
	case DIO_REFUSAL_POSIX_BACKEND:    return "posix-backend";
	case DIO_REFUSAL_RAW_CACHED:       return "raw-cached";
	case DIO_REFUSAL_BLOCK_NODE:       return "block-node";
	case DIO_REFUSAL_NOT_FILE_OR_DISK: return "not-file-or-disk";
	case DIO_REFUSAL_FS_ON_CACHED:     return "fs-on-cached";
	case DIO_REFUSAL_ZFS_IGNORES:      return "zfs-ignores";
	case DIO_REFUSAL_FS_NOT_KNOWN:     return "fs-not-known";
	case DIO_REFUSAL_DIRECTIO_CALL:    return "directio-call";
	case DIO_REFUSAL_NO_DIRECTIO:      return "no-directio";
	}
	return "invalid";
}
