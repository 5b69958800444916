/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * facts.c -- what the target's facts (dio_devinfo, dio_align, dio_caps)
 * mean for a run, as pure functions of those facts: whether anything
 * written can be durable (or that cannot be told), which rows without a
 * commit are commits all the same, and how the prefill must write.
 * What the disks' counters over a point suggest (the device hints).
 * target.c and point.c ask; tests/check_sw_facts.c hands them facts made
 * by hand (illumos ones included).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/kit/fmt.h"
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

/* ------------------------------------------------------------ device */

/*
 * What the block layer's counters over a point say (devcount.c fills
 * sw_devcount; issue 41).  Fail closed: a hint says what is not durable
 * or what the numbers show, never that a commit is durable; a point the
 * counters could not count (n/a, busy) gets none.
 */

static int
durable_method(const struct sw_method *m)
{
	return m->commit != DIO_COMMIT_NONE || m->sync != DIO_SYNC_NONE;
}

static int
counted(const struct sw_devcount *d)
{
	return d->state == SW_DEV_COUNTED && d->txns > 0 && d->ndisks > 0;
}

int
sw_dev_can_fua(const struct sw_devcount *d, const struct sw_method *m)
{
	int i;

	/* Only a write with a sync flag can go as a FUA write (Linux sends
	 * REQ_FUA for O_DSYNC/O_SYNC writes where the queue says write back
	 * and takes FUA; else it flushes).  A commit (fsync, fdatasync)
	 * always flushes. */
	if (m->sync == DIO_SYNC_NONE || d->ndisks <= 0)
		return 0;
	for (i = 0; i < d->ndisks && i < SW_DEV_DISKS; i++)
		if (d->disks[i].write_cache != DIO_TRI_YES || d->disks[i].fua != DIO_TRI_YES)
			return 0;
	return 1;
}

int
sw_dev_flush_hint(const struct sw_devcount *d, const struct sw_method *m, int writers)
{
	if (!counted(d) || !d->flushes_known || !durable_method(m))
		return SW_HINT_NONE;
	if (d->flushes_per_txn < SW_DEV_NO_FLUSH) {
		if (d->cache_hidden)
			return SW_HINT_DEV_CACHE_HIDDEN;
		if (d->volatile_cache == DIO_TRI_YES && !sw_dev_can_fua(d, m))
			return SW_HINT_DEV_NO_FLUSH;
		return SW_HINT_NONE;
	}
	/* Fewer flushes than commits, yet some: below SW_DEV_NO_FLUSH is
	 * the case above (no flush at all), not a merge. */
	if (writers > 1 && d->flushes_per_txn < SW_DEV_MERGED_BELOW)
		return SW_HINT_DEV_MERGED;
	return SW_HINT_NONE;
}

int
sw_dev_amp_hint(const struct sw_devcount *d, const struct sw_method *m)
{
	/* Only a durable method's bytes are its transactions': a buffered
	 * row's writeback falls wherever the kernel puts it (the next
	 * point's window, say). */
	if (!counted(d) || !durable_method(m) || !(d->amplification >= SW_DEV_AMPLIFIED))
		return SW_HINT_NONE;
	return SW_HINT_DEV_AMPLIFIED;
}

void
sw_dev_disk_names(char *names, size_t len, const struct sw_devcount *d, int kind)
{
	size_t at = 0;
	int i, hosts = 0, n = d->ndisks < SW_DEV_DISKS ? d->ndisks : SW_DEV_DISKS;

	if (len == 0)
		return;
	names[0] = '\0';
	for (i = 1; i < n; i++)
		hosts |= strcmp(d->disks[i].host, d->disks[0].host) != 0;
	for (i = 0; i < n; i++) {
		const struct sw_dev_disk *k = &d->disks[i];
		int r;

		if (kind == SW_HINT_DEV_CACHE_HIDDEN ? !(k->write_cache == DIO_TRI_NO &&
		                                         k->device_cache == DIO_TRI_YES)
		    : !(k->write_cache == DIO_TRI_YES || k->device_cache == DIO_TRI_YES))
			continue;
		r = snprintf(names + at, len - at, "%s%s%s%s", at ? ", " : "", k->name,
		             hosts ? " on " : "", hosts ? k->host : "");
		if (r < 0 || (size_t)r >= len - at) {
			names[at] = '\0';       /* whole names only */
			break;
		}
		at += (size_t)r;
	}
	if (names[0] == '\0')
		snprintf(names, len, "the disk");
}

void
sw_dev_hint_text(char *buf, size_t len, int kind, const struct sw_devcount *d,
                 const char *disks, int writers, uint64_t size, int is_dev)
{
	switch (kind) {
	case SW_HINT_DEV_NO_FLUSH:
		snprintf(buf, len, "not durable: %.2f flushes per transaction reached %s, "
		         "whose write cache is volatile: likely a file system mounted with "
		         "barrier=0 or nobarrier, or a layer that drops flushes",
		         d->flushes_per_txn > 0 ? d->flushes_per_txn : 0.0, disks);
		break;
	case SW_HINT_DEV_CACHE_HIDDEN:
		snprintf(buf, len, "not durable: %.2f flushes per transaction reached %s: "
		         "the disk's queue/write_cache says write through while the device "
		         "reports a write-back cache: the kernel sends it no flush",
		         d->flushes_per_txn > 0 ? d->flushes_per_txn : 0.0, disks);
		break;
	case SW_HINT_DEV_MERGED:
		snprintf(buf, len, "the device merged commits: %.2f flushes per transaction "
		         "at %d writers (the block layer sent one flush for several "
		         "writers' commits)", d->flushes_per_txn, writers);
		break;
	case SW_HINT_DEV_AMPLIFIED:
		snprintf(buf, len, "the device wrote %.0f bytes per transaction of %" PRIu64
		         " (x%.2f)%s", d->bytes_per_txn, size, d->amplification, is_dev ?
		         "; on a device no file system adds metadata: these are the bytes "
		         "the block layer counted" : ": e.g. a journal block with each "
		         "commit");
		break;
	default:
		if (len > 0)
			buf[0] = '\0';
	}
}

char *
sw_dev_hint_why(int kind, const char *disks, int is_dev)
{
	char *cmds = NULL, *t, *why;
	const char *p = disks ? disks : "";

	switch (kind) {
	case SW_HINT_DEV_NO_FLUSH:
		return diot_strdupf("no cache flush reached %s, whose write cache is "
		                    "volatile: a power cut can lose what these commits "
		                    "acknowledged; likely a file system mounted with "
		                    "barrier=0 or nobarrier, or a layer that drops flushes "
		                    "(dio-info says what the disk reports)", p);
	case SW_HINT_DEV_CACHE_HIDDEN:
		/* The command that puts each back, for the names of this host
		 * (a name "sdb on h1" is said as it is). */
		while (*p != '\0') {
			size_t n = strcspn(p, ",");

			t = diot_strdupf("%s%secho \"write back\" > /sys/block/%.*s/queue/"
			                 "write_cache", cmds ? cmds : "", cmds ? "; " : "",
			                 (int)n, p);
			free(cmds);
			cmds = t;
			p += n;
			p += strspn(p, ", ");
		}
		why = diot_strdupf("the disk's queue/write_cache says write through while "
		                   "the device reports a write-back cache: the kernel sends "
		                   "it no flush, and a power cut can lose what these commits "
		                   "acknowledged; to put it back: %s", cmds ? cmds :
		                   "echo \"write back\" > /sys/block/DISK/queue/write_cache");
		free(cmds);
		return why;
	case SW_HINT_DEV_MERGED:
		return diot_strdupf("fewer flushes than commits: the block layer sent one "
		                    "flush for several writers' commits (group commit at "
		                    "the device); each commit still waited for a flush");
	case SW_HINT_DEV_AMPLIFIED:
		return diot_strdupf(is_dev ? "device bytes per transaction over its size: "
		                    "on a device no file system adds metadata; these are the "
		                    "bytes the block layer counted" : "device bytes per "
		                    "transaction over its size: the file system wrote more "
		                    "than the transaction, e.g. a journal block with each "
		                    "commit");
	default:
		return diot_strdupf("%s", "");
	}
}
