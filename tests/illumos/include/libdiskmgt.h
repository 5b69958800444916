/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libdiskmgt.h -- TEST DOUBLE (tests/illumos) of the one libdiskmgt call
 * the backend makes, dm_inuse(), with the dm_who_type_t of illumos-gate
 * usr/src/lib/libdiskmgt/common/libdiskmgt.h (367731f), written anew.
 * Answered by tests/illumos/double.c (config.h renames it).
 */
#ifndef DIO_DBL_LIBDISKMGT_H
#define DIO_DBL_LIBDISKMGT_H

#include <sys/swap.h>           /* as the real one does */

typedef enum {
	DM_WHO_MKFS = 0,
	DM_WHO_ZPOOL,
	DM_WHO_ZPOOL_FORCE,
	DM_WHO_FORMAT,
	DM_WHO_SWAP,
	DM_WHO_DUMP,
	DM_WHO_ZPOOL_SPARE
} dm_who_type_t;

int dm_inuse(char *dev_name, char **msg, dm_who_type_t who, int *errp);

#endif
