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

/*
 * Each reason's name and, where they name nothing, its words; NULL words
 * are made in dio_refusal_str() from what the refusal names.
 */
static const struct {
	const char *name, *words;
} dio__refusals[] = {
	[DIO_REFUSAL_NONE] = { "none", "" },
	[DIO_REFUSAL_ERROR] = { "error", NULL },
	[DIO_REFUSAL_NO_O_DIRECT] = { "no-o-direct", "this build has no O_DIRECT" },
	[DIO_REFUSAL_STATX_NO_DIO] = { "statx-no-dio",
		"statx reports no direct I/O alignment for it" },
	[DIO_REFUSAL_SETFL_EINVAL] = { "setfl-einval",
		"fcntl(F_SETFL, O_DIRECT) says EINVAL: the file system has no "
		"direct I/O" },
	[DIO_REFUSAL_O_DIRECT_DROPPED] = { "o-direct-dropped",
		"O_DIRECT did not stay set on the descriptor" },
	[DIO_REFUSAL_POSIX_BACKEND] = { "posix-backend",
		"the posix backend has no direct I/O" },
	[DIO_REFUSAL_RAW_CACHED] = { "raw-cached", NULL },
	[DIO_REFUSAL_BLOCK_NODE] = { "block-node",
		"a block device node goes through the cache; its raw /dev/rdsk "
		"node is direct" },
	[DIO_REFUSAL_NOT_FILE_OR_DISK] = { "not-file-or-disk",
		"neither a regular file nor a disk" },
	[DIO_REFUSAL_FS_ON_CACHED] = { "fs-on-cached", NULL },
	[DIO_REFUSAL_ZFS_IGNORES] = { "zfs-ignores",
		"ZFS accepts directio() and ignores it: every read and write goes "
		"through its cache" },
	[DIO_REFUSAL_FS_NOT_KNOWN] = { "fs-not-known", NULL },
	[DIO_REFUSAL_DIRECTIO_CALL] = { "directio-call", NULL },
	[DIO_REFUSAL_NO_DIRECTIO] = { "no-directio", "this build has no directio()" }
};

#define DIO__NREFUSALS (int)(sizeof(dio__refusals) / sizeof(dio__refusals[0]))

char *
dio_refusal_str(const struct dio_refusal *r, char *buf, size_t len)
{
	char cached[128], fs[sizeof(r->fs) + 1], driver[sizeof(r->driver) + 1];

	if (len == 0)
		return buf;
	buf[0] = '\0';
	if (r == NULL)
		return buf;
	if (r->reason < 0 || r->reason >= DIO__NREFUSALS) {
		snprintf(buf, len, "direct I/O refused for reason %d", r->reason);
		return buf;
	}
	if (dio__refusals[r->reason].words != NULL) {
		snprintf(buf, len, "%s", dio__refusals[r->reason].words);
		return buf;
	}
	/* The names as C strings even in a value the caller made up. */
	snprintf(fs, sizeof(fs), "%.*s", (int)sizeof(r->fs), r->fs);
	snprintf(driver, sizeof(driver), "%.*s", (int)sizeof(r->driver), r->driver);
	switch (r->reason) {
	case DIO_REFUSAL_ERROR:
		snprintf(buf, len, "%s", dio_strerror(r->err));
		break;
	case DIO_REFUSAL_RAW_CACHED:
		dio__cached_words(driver, cached, sizeof(cached));
		snprintf(buf, len, "%s: its raw node is not direct", cached);
		break;
	case DIO_REFUSAL_FS_ON_CACHED:
		dio__cached_words(driver, cached, sizeof(cached));
		snprintf(buf, len, "%s is on a device whose I/O is cached: %s", fs,
		         cached);
		break;
	case DIO_REFUSAL_FS_NOT_KNOWN:
		snprintf(buf, len, "%s is not known to honour directio() (ufs, nfs and "
		         "smbfs do)", fs);
		break;
	case DIO_REFUSAL_DIRECTIO_CALL:
		snprintf(buf, len, "directio(): %s", dio_strerror(r->sys_err));
		break;
	}
	return buf;
}

const char *
dio_refusal_name(int reason)
{
	if (reason < 0 || reason >= DIO__NREFUSALS)
		return "invalid";
	return dio__refusals[reason].name;
}
