/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_sw_facts.c -- what sync-write makes of its target's facts
 * (tools/sw/facts.c), with facts made by hand where Linux cannot make
 * them (illumos UFS sends no flush, ZFS sync=always and sync=disabled on
 * a zvol, NFS's stable direct writes, NFS's cached direct requests, a
 * platform whose posix_fadvise does nothing): the durability text and its
 * lead, the hint of rows without a commit and its lines under the table,
 * the prefill's mode and the cached pages a direct row may meet; the
 * device hints from block-layer counts made by hand (no flush to a
 * volatile cache, a hidden cache, merged commits, amplified bytes) and
 * their lines; and the
 * kit's --write-unchecked match (tools/kit/outfile.c) on real nodes.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/kit/outfile.h"
#include "tools/sw/sw.h"
#include "tests/testutil.h"

static struct dio_devinfo
facts(int sync_disabled, int commit_flush, int write_cache, const char *name)
{
	struct dio_devinfo di;

	memset(&di, 0, sizeof(di));
	di.sync_disabled = (uint32_t)sync_disabled;
	di.commit_flush = (uint32_t)commit_flush;
	di.write_cache = (uint32_t)write_cache;
	snprintf(di.name, sizeof(di.name), "%s", name);
	return di;
}

/* In-memory file systems, ZFS sync=disabled for a dataset and a volume. */
START_TEST(test_not_durable)
{
	struct dio_devinfo di = facts(DIO_TRI_NO, DIO_TRI_UNKNOWN, DIO_TRI_YES, "sda");
	char why[300];

	sw_durability(why, sizeof(why), 0, "tmpfs", NULL);
	ck_assert_msg(strncmp(why, "tmpfs keeps its files in memory only: ", 38) == 0, "%s",
	              why);
	ck_assert_str_eq(sw_durable_lead(why), "nothing is durable here: ");
	sw_durability(why, sizeof(why), 0, "ramfs", &di);
	ck_assert_msg(strncmp(why, "ramfs keeps", 11) == 0, "%s", why);
	/* a device is no file system in memory, whatever its name says */
	sw_durability(why, sizeof(why), 1, "tmpfs", &di);
	ck_assert_str_eq(why, "");
	/* Linux ext4: nothing known, nothing said */
	sw_durability(why, sizeof(why), 0, "ext4", &di);
	ck_assert_str_eq(why, "");
	sw_durability(why, sizeof(why), 0, "ext4", NULL);
	ck_assert_str_eq(why, "");

	di.sync_disabled = DIO_TRI_YES;
	sw_durability(why, sizeof(why), 0, "zfs", &di);
	ck_assert_msg(strstr(why, "the ZFS dataset has sync=disabled: it acknowledges "
	                     "every commit without making anything durable") == why, "%s", why);
	/* a zvol: a device, said as well now (it was skipped before) */
	sw_durability(why, sizeof(why), 1, "block device", &di);
	ck_assert_msg(strstr(why, "the ZFS volume has sync=disabled") == why, "%s", why);
	ck_assert_int_eq(sw_durability_unknown(why), 0);
}
END_TEST

/* illumos UFS: nothing sends the flush.  With the cache on: not durable,
 * the remedy said; unknown: cannot tell, with its own lead (none); off or
 * a flush sent: nothing said. */
START_TEST(test_commit_flush)
{
	struct dio_devinfo di = facts(DIO_TRI_NO, DIO_TRI_NO, DIO_TRI_YES, "sd3");
	char why[300], hint[400];

	sw_durability(why, sizeof(why), 0, "ufs", &di);
	ck_assert_str_eq(why, "ufs sends no cache flush to sd3, whose volatile write cache "
	                 "is on: a power cut can lose what commits acknowledged; turn the "
	                 "write cache off (format -e: cache, write_cache, disable)");
	ck_assert_int_eq(sw_durability_unknown(why), 0);
	snprintf(hint, sizeof(hint), "%s%s", sw_durable_lead(why), why);
	ck_assert_msg(strncmp(hint, "nothing is durable here: ufs sends no cache flush to "
	                      "sd3", 56) == 0, "%s", hint);

	di.write_cache = DIO_TRI_UNKNOWN;
	sw_durability(why, sizeof(why), 0, "ufs", &di);
	ck_assert_msg(strncmp(why, "cannot tell whether commits are durable: ufs sends no "
	                      "cache flush to sd3, and whether its write cache is on could "
	                      "not be read", 116) == 0, "%s", why);
	ck_assert_int_eq(sw_durability_unknown(why), 1);
	ck_assert_str_eq(sw_durable_lead(why), "");
	ck_assert_msg(strlen(why) < sizeof(why) - 1, "cut: %s", why);

	di.name[0] = '\0';          /* no disk name: "the disk" */
	sw_durability(why, sizeof(why), 0, "ufs", &di);
	ck_assert_msg(strstr(why, "no cache flush to the disk, and whether its") != NULL,
	              "%s", why);
	/* A device nothing flushes (an illumos ramdisk). */
	snprintf(di.name, sizeof(di.name), "ramdisk1");
	sw_durability(why, sizeof(why), 1, "", &di);
	ck_assert_msg(strncmp(why, "cannot tell whether commits are durable: no commit "
	                      "sends ramdisk1 a cache flush, and", 84) == 0, "%s", why);
	di.name[0] = '\0';

	di.write_cache = DIO_TRI_NO;  /* nothing to flush: durable */
	sw_durability(why, sizeof(why), 0, "ufs", &di);
	ck_assert_str_eq(why, "");
	di.write_cache = DIO_TRI_YES; /* the flush is sent: durable */
	di.commit_flush = DIO_TRI_YES;
	sw_durability(why, sizeof(why), 1, "block device", &di);
	ck_assert_str_eq(why, "");
	di.commit_flush = DIO_TRI_UNKNOWN;
	sw_durability(why, sizeof(why), 0, "ufs", &di);
	ck_assert_str_eq(why, "");
	/* sync=disabled wins over the flush */
	di.sync_disabled = DIO_TRI_YES;
	di.commit_flush = DIO_TRI_NO;
	sw_durability(why, sizeof(why), 0, "zfs", &di);
	ck_assert_msg(strstr(why, "sync=disabled") != NULL, "%s", why);
}
END_TEST

/* A method as methods.c makes it: direct, its sync flag and its commit. */
static struct sw_method
method(const char *name, int direct, int sync, int commit)
{
	struct sw_method m;

	memset(&m, 0, sizeof(m));
	snprintf(m.name, sizeof(m.name), "%s", name);
	m.direct = direct;
	m.sync = sync;
	m.commit = commit;
	return m;
}

/* Rows without a commit where every write is one (sync=always), or where
 * a direct write is a stable one (NFS on illumos). */
START_TEST(test_nocommit)
{
	struct sw_method none = method("none", 0, DIO_SYNC_NONE, DIO_COMMIT_NONE);
	struct sw_method direct = method("direct", 1, DIO_SYNC_NONE, DIO_COMMIT_NONE);
	struct sw_method fsync = method("fsync", 0, DIO_SYNC_NONE, DIO_COMMIT_FSYNC);
	struct sw_method dd = method("direct+dsync", 1, DIO_SYNC_DATA, DIO_COMMIT_NONE);

	ck_assert_int_eq(sw_nocommit_hint(&none, DIO_TRI_YES, DIO_TRI_UNKNOWN),
	                 SW_HINT_SYNC_ALWAYS);
	ck_assert_int_eq(sw_nocommit_hint(&direct, DIO_TRI_YES, DIO_TRI_YES),
	                 SW_HINT_SYNC_ALWAYS);
	ck_assert_int_eq(sw_nocommit_hint(&fsync, DIO_TRI_YES, DIO_TRI_YES), SW_HINT_NONE);
	ck_assert_int_eq(sw_nocommit_hint(&dd, DIO_TRI_YES, DIO_TRI_YES), SW_HINT_NONE);
	ck_assert_int_eq(sw_nocommit_hint(&direct, DIO_TRI_NO, DIO_TRI_YES),
	                 SW_HINT_STABLE_DIRECT);
	ck_assert_int_eq(sw_nocommit_hint(&none, DIO_TRI_NO, DIO_TRI_YES), SW_HINT_NONE);
	ck_assert_int_eq(sw_nocommit_hint(&direct, DIO_TRI_UNKNOWN, DIO_TRI_UNKNOWN),
	                 SW_HINT_NONE);
	ck_assert_int_eq(sw_nocommit_hint(&none, DIO_TRI_NO, DIO_TRI_NO), SW_HINT_NONE);
}
END_TEST

/* The lines under a table: one per method and kind, the why once. */
START_TEST(test_nocommit_lines)
{
	static const char *const meth[3] = { "none", "direct", "fsync" };
	struct sw_hint_row rows[6];
	char *out;
	size_t ol = 0;
	int m, k, n = 0;
	FILE *fo;

	memset(rows, 0, sizeof(rows));
	for (m = 0; m < 3; m++)
		for (k = 0; k < 2; k++) {
			rows[n].method = meth[m];
			rows[n].size = 4096u << k;
			rows[n].writers = 1;
			rows[n].kind = m == 0 ? SW_HINT_SYNC_ALWAYS : m == 1 ? SW_HINT_STABLE_DIRECT
			               : SW_HINT_NONE;
			rows[n].p50_us = 100;
			n++;
		}
	fo = open_memstream(&out, &ol);
	ck_assert_ptr_nonnull(fo);
	sw_put_hints(fo, "", rows, n, "sd0", "nfs", "", 0, 0);
	ck_assert_int_eq(fclose(fo), 0);
	ck_assert_str_eq(out,
	        "hint: none at 4096, 8192 B with 1 writer (2 rows): without a commit, yet "
	        "every write is committed\n"
	        "hint: direct at 4096, 8192 B with 1 writer (2 rows): without a commit, yet "
	        "each direct write is a stable one\n"
	        "      ZFS sync=always: every write is committed before it returns, so these "
	        "rows time commits, not buffered or plain direct writes\n"
	        "      on NFS (illumos) a direct write is a stable (FILE_SYNC) write: the "
	        "server commits each one before it answers, so these rows time commits\n");
	free(out);
}
END_TEST

/* The not-durable line: "nothing is durable here: " unless the reason
 * says it cannot tell. */
START_TEST(test_cannot_tell_line)
{
	struct dio_devinfo di = facts(DIO_TRI_NO, DIO_TRI_NO, DIO_TRI_UNKNOWN, "sd1");
	struct sw_hint_row rows[2];
	char why[300], *out;
	size_t ol = 0;
	FILE *fo;

	sw_durability(why, sizeof(why), 0, "ufs", &di);
	memset(rows, 0, sizeof(rows));
	rows[0].method = "fsync";
	rows[1].method = "dsync";
	rows[0].size = rows[1].size = 4096;
	rows[0].writers = rows[1].writers = 1;
	rows[0].kind = rows[1].kind = SW_HINT_NOT_DURABLE;
	fo = open_memstream(&out, &ol);
	ck_assert_ptr_nonnull(fo);
	sw_put_hints(fo, "", rows, 2, "sd1", "ufs", why, 0, 0);
	ck_assert_int_eq(fclose(fo), 0);
	ck_assert_msg(strncmp(out, "hint: fsync, dsync (2 rows): cannot tell whether commits "
	                      "are durable: ufs sends no cache flush to sd1", 94) == 0, "%s",
	              out);
	ck_assert_msg(strstr(out, "nothing is durable") == NULL, "%s", out);
	free(out);
}
END_TEST

/* The prefill goes direct only where cached pages would make direct
 * requests cached (NFS, smbfs); a direct row meets cached pages only
 * there, and only if some were left and not dropped. */
START_TEST(test_cache)
{
	struct dio_align nfs, ext4;

	memset(&nfs, 0, sizeof(nfs));
	memset(&ext4, 0, sizeof(ext4));
	nfs.direct_limits = DIO_DLIM_CACHED_ANY;
	ext4.direct_limits = DIO_DLIM_CACHED;     /* UFS's: not "any page" */
	ck_assert_int_eq(sw_prefill_direct(&nfs), 1);
	ck_assert_int_eq(sw_prefill_direct(&ext4), 0);
	nfs.direct_limits |= DIO_DLIM_SYNC_HOLES;
	ck_assert_int_eq(sw_prefill_direct(&nfs), 1);

	/* Linux drops the cache before each point; illumos cannot. */
	ck_assert_int_eq(sw_cached_at_start(SW_CACHED_POINTS, DIO_CAP_FADVISE |
	                                    DIO_CAP_O_DIRECT), SW_CACHED_NONE);
	ck_assert_int_eq(sw_cached_at_start(SW_CACHED_POINTS, DIO_CAP_DIRECTIO),
	                 SW_CACHED_POINTS);
	ck_assert_int_eq(sw_cached_at_start(SW_CACHED_NONE, DIO_CAP_DIRECTIO),
	                 SW_CACHED_NONE);
	ck_assert_int_eq(sw_cached_at_start(SW_CACHED_UNKNOWN, 0), SW_CACHED_UNKNOWN);

	ck_assert_int_eq(sw_point_cached(&nfs, SW_CACHED_POINTS, 1), 1);
	ck_assert_int_eq(sw_point_cached(&nfs, SW_CACHED_PREFILL, 1), 1);
	ck_assert_int_eq(sw_point_cached(&nfs, SW_CACHED_NONE, 1), 0);
	ck_assert_int_eq(sw_point_cached(&nfs, SW_CACHED_POINTS, 0), 0);
	ck_assert_int_eq(sw_point_cached(&ext4, SW_CACHED_POINTS, 1), 0);
}
END_TEST

/* Device counts as devcount.c leaves them: counted over txns
 * transactions, flushes per transaction f, one disk sdb whose queue says
 * write_cache (wc), the device reports device_cache (dc), FUA fua. */
static struct sw_devcount
dev(double f, int wc, int dc, int fua)
{
	struct sw_devcount d;

	memset(&d, 0, sizeof(d));
	d.state = SW_DEV_COUNTED;
	d.flushes_known = 1;
	d.txns = 1000;
	d.flushes_per_txn = f;
	d.writes_per_txn = 1 + f;
	d.bytes_per_txn = 4096;
	d.amplification = 1.0;
	d.ndisks = 1;
	snprintf(d.disks[0].name, sizeof(d.disks[0].name), "sdb");
	snprintf(d.disks[0].host, sizeof(d.disks[0].host), "h1");
	d.disks[0].write_cache = wc;
	d.disks[0].device_cache = dc;
	d.disks[0].fua = fua;
	d.disks[0].flushes_known = 1;
	d.volatile_cache = wc == DIO_TRI_YES || dc == DIO_TRI_YES ? DIO_TRI_YES
	                   : wc == DIO_TRI_NO && dc != DIO_TRI_UNKNOWN ? DIO_TRI_NO
	                   : DIO_TRI_UNKNOWN;
	d.cache_hidden = wc == DIO_TRI_NO && dc == DIO_TRI_YES;
	d.fua = fua;
	return d;
}

/* (a) Not durable: a durable method, no flush, a volatile cache; quiet at
 * 0.01 flushes per transaction, for none, where nothing was counted (n/a,
 * busy, flushes unknown), on a write-through cache, and where the writes
 * can be FUA ones; fires for a sync flag without FUA. */
START_TEST(test_dev_no_flush)
{
	struct sw_method fdatasync = method("fdatasync", 0, DIO_SYNC_NONE,
	                                    DIO_COMMIT_FDATASYNC);
	struct sw_method none = method("none", 0, DIO_SYNC_NONE, DIO_COMMIT_NONE);
	struct sw_method dd = method("direct+dsync", 1, DIO_SYNC_DATA, DIO_COMMIT_NONE);
	struct sw_devcount d = dev(0.0, DIO_TRI_YES, DIO_TRI_UNKNOWN, DIO_TRI_NO);
	char names[128], text[400];

	ck_assert_int_eq(sw_dev_flush_hint(&d, &fdatasync, 1), SW_HINT_DEV_NO_FLUSH);
	d.flushes_per_txn = 0.0099;
	ck_assert_int_eq(sw_dev_flush_hint(&d, &fdatasync, 1), SW_HINT_DEV_NO_FLUSH);
	d.flushes_per_txn = -0.002;     /* the baseline took a little more */
	ck_assert_int_eq(sw_dev_flush_hint(&d, &fdatasync, 4), SW_HINT_DEV_NO_FLUSH);
	d.flushes_per_txn = 0.01;       /* the boundary: some flushes */
	ck_assert_int_eq(sw_dev_flush_hint(&d, &fdatasync, 1), SW_HINT_NONE);
	d.flushes_per_txn = 0;
	ck_assert_int_eq(sw_dev_flush_hint(&d, &none, 1), SW_HINT_NONE);
	/* a sync flag on a disk without FUA: the kernel flushes, or not */
	ck_assert_int_eq(sw_dev_can_fua(&d, &dd), 0);
	ck_assert_int_eq(sw_dev_flush_hint(&d, &dd, 1), SW_HINT_DEV_NO_FLUSH);
	/* with FUA: each write is a FUA write, no flush needed */
	d.disks[0].fua = d.fua = DIO_TRI_YES;
	ck_assert_int_eq(sw_dev_can_fua(&d, &dd), 1);
	ck_assert_int_eq(sw_dev_flush_hint(&d, &dd, 1), SW_HINT_NONE);
	/* ...but a commit (fdatasync) always needs its flush */
	ck_assert_int_eq(sw_dev_can_fua(&d, &fdatasync), 0);
	ck_assert_int_eq(sw_dev_flush_hint(&d, &fdatasync, 1), SW_HINT_DEV_NO_FLUSH);
	/* FUA unknown: not exempt (fail closed) */
	d.disks[0].fua = d.fua = DIO_TRI_UNKNOWN;
	ck_assert_int_eq(sw_dev_flush_hint(&d, &dd, 1), SW_HINT_DEV_NO_FLUSH);
	/* a second disk without FUA: not every write can be FUA */
	d.disks[0].fua = DIO_TRI_YES;
	d.ndisks = 2;
	d.disks[1] = d.disks[0];
	snprintf(d.disks[1].name, sizeof(d.disks[1].name), "sdc");
	d.disks[1].fua = DIO_TRI_NO;
	ck_assert_int_eq(sw_dev_can_fua(&d, &dd), 0);
	sw_dev_disk_names(names, sizeof(names), &d, SW_HINT_DEV_NO_FLUSH);
	ck_assert_str_eq(names, "sdb, sdc");
	d.ndisks = 1;
	/* not counted: nothing said */
	d.state = SW_DEV_NA;
	ck_assert_int_eq(sw_dev_flush_hint(&d, &fdatasync, 1), SW_HINT_NONE);
	d.state = SW_DEV_BUSY;
	ck_assert_int_eq(sw_dev_flush_hint(&d, &fdatasync, 1), SW_HINT_NONE);
	d.state = SW_DEV_COUNTED;
	d.flushes_known = 0;
	ck_assert_int_eq(sw_dev_flush_hint(&d, &fdatasync, 1), SW_HINT_NONE);
	d.flushes_known = 1;
	d.txns = 0;
	ck_assert_int_eq(sw_dev_flush_hint(&d, &fdatasync, 1), SW_HINT_NONE);
	/* an honest write-through disk: nothing to flush */
	d = dev(0.0, DIO_TRI_NO, DIO_TRI_NO, DIO_TRI_NO);
	ck_assert_int_eq(sw_dev_flush_hint(&d, &fdatasync, 1), SW_HINT_NONE);
	d = dev(0.0, DIO_TRI_NO, DIO_TRI_UNKNOWN, DIO_TRI_NO);
	ck_assert_int_eq(sw_dev_flush_hint(&d, &fdatasync, 1), SW_HINT_NONE);

	d = dev(0.0, DIO_TRI_YES, DIO_TRI_UNKNOWN, DIO_TRI_NO);
	sw_dev_disk_names(names, sizeof(names), &d, SW_HINT_DEV_NO_FLUSH);
	ck_assert_str_eq(names, "sdb");
	sw_dev_hint_text(text, sizeof(text), SW_HINT_DEV_NO_FLUSH, &d, names, 1, 4096, 0);
	ck_assert_str_eq(text, "not durable: 0.00 flushes per transaction reached sdb, "
	                 "whose write cache is volatile: likely a file system mounted "
	                 "with barrier=0 or nobarrier, or a layer that drops flushes");
	ck_assert_msg(strstr(text, " durable") == strstr(text, "not durable") + 3, "%s", text);
}
END_TEST

/* (a) with the cache hidden: the queue says write through, the device
 * reports write back; the command that puts it back names the disk. */
START_TEST(test_dev_cache_hidden)
{
	struct sw_method fsync = method("fsync", 0, DIO_SYNC_NONE, DIO_COMMIT_FSYNC);
	struct sw_method dd = method("direct+dsync", 1, DIO_SYNC_DATA, DIO_COMMIT_NONE);
	struct sw_devcount d = dev(0.0, DIO_TRI_NO, DIO_TRI_YES, DIO_TRI_YES);
	char names[128], text[400], *why;

	ck_assert_int_eq(sw_dev_flush_hint(&d, &fsync, 1), SW_HINT_DEV_CACHE_HIDDEN);
	/* FUA does not help: the kernel sends none to a write-through queue */
	ck_assert_int_eq(sw_dev_can_fua(&d, &dd), 0);
	ck_assert_int_eq(sw_dev_flush_hint(&d, &dd, 1), SW_HINT_DEV_CACHE_HIDDEN);
	d.flushes_per_txn = 1.0;       /* flushes reach it after all: quiet */
	ck_assert_int_eq(sw_dev_flush_hint(&d, &fsync, 1), SW_HINT_NONE);
	d.flushes_per_txn = 0;
	sw_dev_disk_names(names, sizeof(names), &d, SW_HINT_DEV_CACHE_HIDDEN);
	ck_assert_str_eq(names, "sdb");
	sw_dev_hint_text(text, sizeof(text), SW_HINT_DEV_CACHE_HIDDEN, &d, names, 1, 4096, 1);
	ck_assert_str_eq(text, "not durable: 0.00 flushes per transaction reached sdb: the "
	                 "disk's queue/write_cache says write through while the device "
	                 "reports a write-back cache: the kernel sends it no flush");
	why = sw_dev_hint_why(SW_HINT_DEV_CACHE_HIDDEN, "sdb, sdc", 1);
	ck_assert_msg(strstr(why, "to put it back: echo \"write back\" > /sys/block/sdb/"
	                     "queue/write_cache; echo \"write back\" > /sys/block/sdc/"
	                     "queue/write_cache") != NULL, "%s", why);
	free(why);
	/* disks of several hosts are named with their host */
	d.ndisks = 2;
	d.disks[1] = d.disks[0];
	snprintf(d.disks[1].host, sizeof(d.disks[1].host), "h2");
	sw_dev_disk_names(names, sizeof(names), &d, SW_HINT_DEV_CACHE_HIDDEN);
	ck_assert_str_eq(names, "sdb on h1, sdb on h2");
	/* a disk whose cache is not hidden is not named as hidden */
	d.disks[1].write_cache = DIO_TRI_YES;
	sw_dev_disk_names(names, sizeof(names), &d, SW_HINT_DEV_CACHE_HIDDEN);
	ck_assert_str_eq(names, "sdb on h1");
}
END_TEST

/* (b) Merged: several writers, 0.01 <= flushes per transaction < 0.95. */
START_TEST(test_dev_merged)
{
	struct sw_method fdatasync = method("fdatasync", 0, DIO_SYNC_NONE,
	                                    DIO_COMMIT_FDATASYNC);
	struct sw_method none = method("none", 0, DIO_SYNC_NONE, DIO_COMMIT_NONE);
	struct sw_devcount d = dev(0.70, DIO_TRI_YES, DIO_TRI_UNKNOWN, DIO_TRI_NO);
	char text[400];

	ck_assert_int_eq(sw_dev_flush_hint(&d, &fdatasync, 4), SW_HINT_DEV_MERGED);
	ck_assert_int_eq(sw_dev_flush_hint(&d, &fdatasync, 1), SW_HINT_NONE);
	ck_assert_int_eq(sw_dev_flush_hint(&d, &none, 4), SW_HINT_NONE);
	d.flushes_per_txn = 0.9499;
	ck_assert_int_eq(sw_dev_flush_hint(&d, &fdatasync, 2), SW_HINT_DEV_MERGED);
	d.flushes_per_txn = 0.95;
	ck_assert_int_eq(sw_dev_flush_hint(&d, &fdatasync, 2), SW_HINT_NONE);
	d.flushes_per_txn = 2.0;        /* IOR's -Y: two a write */
	ck_assert_int_eq(sw_dev_flush_hint(&d, &fdatasync, 8), SW_HINT_NONE);
	d.flushes_per_txn = 0.01;
	ck_assert_int_eq(sw_dev_flush_hint(&d, &fdatasync, 8), SW_HINT_DEV_MERGED);
	/* an honest write-through disk merges too: said all the same */
	d = dev(0.45, DIO_TRI_NO, DIO_TRI_NO, DIO_TRI_NO);
	ck_assert_int_eq(sw_dev_flush_hint(&d, &fdatasync, 8), SW_HINT_DEV_MERGED);
	sw_dev_hint_text(text, sizeof(text), SW_HINT_DEV_MERGED, &d, "", 8, 4096, 0);
	ck_assert_str_eq(text, "the device merged commits: 0.45 flushes per transaction at "
	                 "8 writers (the block layer sent one flush for several writers' "
	                 "commits)");
	d.state = SW_DEV_BUSY;
	ck_assert_int_eq(sw_dev_flush_hint(&d, &fdatasync, 8), SW_HINT_NONE);
}
END_TEST

/* (c) Amplified: device bytes per transaction >= 1.5x its size, for a
 * durable method, counted. */
START_TEST(test_dev_amplified)
{
	struct sw_method fdatasync = method("fdatasync", 0, DIO_SYNC_NONE,
	                                    DIO_COMMIT_FDATASYNC);
	struct sw_method none = method("none", 0, DIO_SYNC_NONE, DIO_COMMIT_NONE);
	struct sw_devcount d = dev(1.0, DIO_TRI_YES, DIO_TRI_UNKNOWN, DIO_TRI_NO);
	char text[400];

	d.amplification = 1.4999;
	ck_assert_int_eq(sw_dev_amp_hint(&d, &fdatasync), SW_HINT_NONE);
	d.amplification = 1.5;
	ck_assert_int_eq(sw_dev_amp_hint(&d, &fdatasync), SW_HINT_DEV_AMPLIFIED);
	ck_assert_int_eq(sw_dev_amp_hint(&d, &none), SW_HINT_NONE);
	d.amplification = 0.0 / 0.0;   /* NaN: not counted */
	ck_assert_int_eq(sw_dev_amp_hint(&d, &fdatasync), SW_HINT_NONE);
	d.amplification = 2.0;
	d.bytes_per_txn = 8192;
	d.state = SW_DEV_NA;
	ck_assert_int_eq(sw_dev_amp_hint(&d, &fdatasync), SW_HINT_NONE);
	d.state = SW_DEV_COUNTED;
	/* the flush kinds and this one are apart: both may hold */
	d.flushes_per_txn = 0.5;
	ck_assert_int_eq(sw_dev_flush_hint(&d, &fdatasync, 4), SW_HINT_DEV_MERGED);
	ck_assert_int_eq(sw_dev_amp_hint(&d, &fdatasync), SW_HINT_DEV_AMPLIFIED);
	sw_dev_hint_text(text, sizeof(text), SW_HINT_DEV_AMPLIFIED, &d, "", 1, 4096, 0);
	ck_assert_str_eq(text, "the device wrote 8192 bytes per transaction of 4096 (x2.00): "
	                 "e.g. a journal block with each commit");
	sw_dev_hint_text(text, sizeof(text), SW_HINT_DEV_AMPLIFIED, &d, "", 1, 4096, 1);
	ck_assert_msg(strstr(text, "journal") == NULL && strstr(text, "x2.00); on a device "
	              "no file system adds metadata") != NULL, "%s", text);
}
END_TEST

/* out is want; else the first line that differs (check's message is
 * short: a whole table is too long for it). */
static void
check_lines(const char *out, const char *want)
{
	size_t i = 0, at = 0;

	while (out[i] != '\0' && out[i] == want[i]) {
		if (out[i] == '\n')
			at = i + 1;
		i++;
	}
	ck_assert_msg(out[i] == want[i], "at byte %zu: got \"%.200s\", want \"%.200s\"", i,
	              out + at, want + at);
}

/* The lines under a table: each device kind grouped per method, its
 * figures' range, the why once after all the lines. */
START_TEST(test_dev_lines)
{
	static const char *const meth[2] = { "fdatasync", "dsync" };
	struct sw_hint_row rows[8];
	char *out;
	size_t ol = 0;
	int m, w, n = 0;
	FILE *fo;

	memset(rows, 0, sizeof(rows));
	for (m = 0; m < 2; m++)
		for (w = 0; w < 4; w++) {
			rows[n].method = meth[m];
			rows[n].size = 4096;
			rows[n].writers = 1 << w;
			rows[n].flushes_per_txn = m == 0 ? 1.0 / (1 + w) : 0.0;
			rows[n].bytes_per_txn = 8192 + 4096 * w;
			rows[n].amplification = rows[n].bytes_per_txn / 4096;
			rows[n].dev_disks = "sdb";
			if (m == 0 && w > 0)
				rows[n].dev_kind[0] = SW_HINT_DEV_MERGED;
			if (m == 1)
				rows[n].dev_kind[0] = SW_HINT_DEV_NO_FLUSH;
			rows[n].dev_kind[rows[n].dev_kind[0] != SW_HINT_NONE] =
			        SW_HINT_DEV_AMPLIFIED;
			n++;
		}
	fo = open_memstream(&out, &ol);
	ck_assert_ptr_nonnull(fo);
	sw_put_hints(fo, "", rows, n, "sdb", "ext4", "", 0, 0);
	ck_assert_int_eq(fclose(fo), 0);
	check_lines(out,
	        "hint: fdatasync at 4096 B with 2, 4 and 8 writers (3 rows): the device merged "
	        "commits: 0.25..0.50 flushes per transaction\n"
	        "hint: fdatasync at 4096 B with 1, 2, 4 and 8 writers (4 rows): the device "
	        "wrote 8192..20480 bytes per transaction of 4096 (x2.00..5.00)\n"
	        "hint: dsync at 4096 B with 1, 2, 4 and 8 writers (4 rows): not durable: 0.00 "
	        "flushes per transaction reached sdb\n"
	        "hint: dsync at 4096 B with 1, 2, 4 and 8 writers (4 rows): the device wrote "
	        "8192..20480 bytes per transaction of 4096 (x2.00..5.00)\n"
	        "      no cache flush reached sdb, whose write cache is volatile: a power cut "
	        "can lose what these commits acknowledged; likely a file system mounted "
	        "with barrier=0 or nobarrier, or a layer that drops flushes (dio-info says "
	        "what the disk reports)\n"
	        "      fewer flushes than commits: the block layer sent one flush for several "
	        "writers' commits (group commit at the device); each commit still waited "
	        "for a flush\n"
	        "      device bytes per transaction over its size: the file system wrote "
	        "more than the transaction, e.g. a journal block with each commit\n");
	free(out);
}
END_TEST

/* --write-unchecked DEVICE against the output: the same node or number,
 * another device, not a device, nothing there. */
START_TEST(test_unchecked_match)
{
	char dir[] = "/tmp/check_sw_facts.XXXXXX", n1[64], n2[64], f[64];
	struct stat st;
	int e;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(n1, sizeof(n1), "%s/null1", dir);
	snprintf(n2, sizeof(n2), "%s/zero", dir);
	snprintf(f, sizeof(f), "%s/file", dir);
	ck_assert_int_eq(stat("/dev/null", &st), 0);
	if (mknod(n1, S_IFCHR | 0600, st.st_rdev) != 0) {
		rmdir(dir);
		printf("SKIP part: mknod needs root here\n");
		ck_assert_int_eq(diot_out_unchecked("/dev/null", "/dev/null", &e),
		                 DIOT_UNCHECKED_SAME);
		return;
	}
	ck_assert_int_eq(diot_out_unchecked(n1, "/dev/null", &e), DIOT_UNCHECKED_SAME);
	ck_assert_int_eq(diot_out_unchecked("/dev/null", n1, &e), DIOT_UNCHECKED_SAME);
	ck_assert_int_eq(diot_out_unchecked("/dev/zero", "/dev/null", &e), DIOT_UNCHECKED_OTHER);
	ck_assert_int_eq(diot_out_unchecked("/dev/null", f, &e), DIOT_UNCHECKED_OTHER);
	ck_assert_int_eq(diot_out_unchecked(dir, dir, &e), DIOT_UNCHECKED_NOT_DEVICE);
	ck_assert_int_eq(diot_out_unchecked(f, f, &e), DIOT_UNCHECKED_STAT_FAILED);
	ck_assert_int_eq(e, ENOENT);
	/* a block node of the same number as a character one is another
	 * device */
	ck_assert_int_eq(mknod(n2, S_IFBLK | 0600, st.st_rdev), 0);
	ck_assert_int_eq(diot_out_unchecked(n2, "/dev/null", &e), DIOT_UNCHECKED_OTHER);
	unlink(n1);
	unlink(n2);
	rmdir(dir);
}
END_TEST

static Suite *
facts_suite(void)
{
	Suite *s = suite_create("sw_facts");
	TCase *tc = tcase_create("sw_facts");

	tcase_add_test(tc, test_not_durable);
	tcase_add_test(tc, test_commit_flush);
	tcase_add_test(tc, test_nocommit);
	tcase_add_test(tc, test_nocommit_lines);
	tcase_add_test(tc, test_cannot_tell_line);
	tcase_add_test(tc, test_cache);
	tcase_add_test(tc, test_dev_no_flush);
	tcase_add_test(tc, test_dev_cache_hidden);
	tcase_add_test(tc, test_dev_merged);
	tcase_add_test(tc, test_dev_amplified);
	tcase_add_test(tc, test_dev_lines);
	tcase_add_test(tc, test_unchecked_match);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(srunner_create(facts_suite()));
}
