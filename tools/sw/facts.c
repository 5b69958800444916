/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * facts.c -- what the target's facts (dio_devinfo, dio_align, dio_caps)
 * mean for a run, as pure functions of those facts: whether anything
 * written can be durable (or that cannot be told), which rows without a
 * commit are commits all the same, and how the prefill must write.
 * target.c and point.c ask; tests/check_sw_facts.c hands them facts made
 * by hand (illumos ones included).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "tools/sw/sw.h"

#define CANNOT_TELL "cannot tell whether commits are durable: "
/* The remedy said where the target itself can be made durable. */
#define REMEDY "turn the write cache off (format -e: cache, write_cache, disable)"

void
sw_durability(char *why, size_t len, int is_dev, const char *fstype,
              const struct dio_devinfo *di)
{
	static const char *const in_memory[] = { "tmpfs", "ramfs", "rootfs" };
	const char *disk;
	char who[200];
	size_t i;

	if (len == 0)
		return;
	why[0] = '\0';
	for (i = 0; !is_dev && i < sizeof(in_memory) / sizeof(in_memory[0]); i++)
		if (strcmp(fstype, in_memory[i]) == 0) {
			snprintf(why, len, "%s keeps its files in memory only: nothing "
			         "written to it survives a power cut or a reboot, whatever "
			         "the method", fstype);
			return;
		}
	if (di == NULL)
		return;
	if (di->sync_disabled == DIO_TRI_YES) {
		snprintf(why, len, "the ZFS %s has sync=disabled: it acknowledges every "
		         "commit without making anything durable", is_dev ? "volume"
		         : "dataset");
		return;
	}
	if (di->commit_flush != DIO_TRI_NO)
		return;
	disk = di->name[0] ? di->name : "the disk";
	/* Nothing sends the flush (illumos UFS; a ramdisk): durable only if
	 * the disk keeps no volatile cache. */
	if (is_dev)
		snprintf(who, sizeof(who), "no commit sends %s a cache flush", disk);
	else
		snprintf(who, sizeof(who), "%s sends no cache flush to %s", fstype, disk);
	if (di->write_cache == DIO_TRI_YES)
		snprintf(why, len, "%s, whose volatile write cache is on: a power cut can "
		         "lose what commits acknowledged; " REMEDY, who);
	else if (di->write_cache == DIO_TRI_UNKNOWN)
		snprintf(why, len, CANNOT_TELL "%s, and whether its write cache is on "
		         "could not be read (dio-info says what can be); with it off, "
		         "commits are durable", who);
}

int
sw_durability_unknown(const char *why)
{
	return why != NULL && strncmp(why, CANNOT_TELL, strlen(CANNOT_TELL)) == 0;
}

int
sw_durability_remedied(const char *why)
{
	return why != NULL && strstr(why, REMEDY) != NULL;
}

const char *
sw_durable_lead(const char *why)
{
	return sw_durability_unknown(why) ? "" : "nothing is durable here: ";
}

int
sw_nocommit_hint(const struct sw_method *m, int sync_always, int direct_stable)
{
	if (m->commit != DIO_COMMIT_NONE || m->sync != DIO_SYNC_NONE)
		return SW_HINT_NONE;
	if (sync_always == DIO_TRI_YES)
		return SW_HINT_SYNC_ALWAYS;
	if (m->direct && direct_stable == DIO_TRI_YES)
		return SW_HINT_STABLE_DIRECT;
	return SW_HINT_NONE;
}

int
sw_prefill_direct(const struct dio_align *al)
{
	return (al->direct_limits & DIO_DLIM_CACHED_ANY) != 0;
}

int
sw_point_cached(const struct dio_align *al, int cached, int direct)
{
	return direct && (al->direct_limits & DIO_DLIM_CACHED_ANY) && cached;
}

int
sw_cached_at_start(int cached, unsigned caps)
{
	/* sw_prepare_point() drops the cache before every point where
	 * posix_fadvise() acts; elsewhere what earlier points left stays. */
	return (caps & DIO_CAP_FADVISE) ? 0 : cached;
}
