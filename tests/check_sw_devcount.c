/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_sw_devcount.c -- the arithmetic of what the disks saw in a point
 * (tools/sw/devcount.c), on counts made by hand: per transaction, the
 * baseline scaled to the window and subtracted (never below 0), the busy
 * threshold, the n/a cases (no transaction, a disk without a flush
 * counter), the caches' facts, and an MPI job's sum in which ranks of one
 * host that share a disk count it once; and --compare's reader of the
 * JSON's "device" blocks (tools/sw/compare-load.c).  The counting of real
 * disks is tests/sync-write-devcount.sh's.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/sw/compare.h"
#include "tools/sw/sw.h"
#include "tests/testutil.h"

/* A disk of dv: window counts over win seconds, baseline over base_s. */
static struct sw_dev_disk *
disk(struct sw_devcount *dv, const char *host, const char *name, uint64_t w, uint64_t s,
     uint64_t f, double win)
{
	struct sw_dev_disk *d = &dv->disks[dv->ndisks++];

	memset(d, 0, sizeof(*d));
	snprintf(d->host, sizeof(d->host), "%s", host);
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->writes = w;
	d->sectors = s;
	d->flushes = f;
	d->flushes_known = 1;
	d->window_s = win;
	d->write_cache = DIO_TRI_YES;
	d->device_cache = DIO_TRI_UNKNOWN;
	d->fua = DIO_TRI_NO;
	return d;
}

static void
fresh(struct sw_devcount *dv)
{
	memset(dv, 0, sizeof(*dv));
	dv->state = SW_DEV_COUNTED;
}

/* fdatasync of 4 KiB: a write and a flush (a write of 0 sectors) each. */
START_TEST(test_per_txn)
{
	struct sw_devcount dv;

	fresh(&dv);
	disk(&dv, "h", "vda", 200, 800, 100, 0.4);
	sw_dev_sum(&dv, 100, 4096);
	ck_assert_int_eq(dv.state, SW_DEV_COUNTED);
	ck_assert_str_eq(dv.why, "");
	ck_assert(dv.flushes_known);
	ck_assert_uint_eq(dv.writes, 200);
	ck_assert_uint_eq(dv.flushes, 100);
	ck_assert_double_eq_tol(dv.flushes_per_txn, 1.0, 1e-9);
	ck_assert_double_eq_tol(dv.writes_per_txn, 2.0, 1e-9);
	ck_assert_double_eq_tol(dv.bytes_per_txn, 4096.0, 1e-9);
	ck_assert_double_eq_tol(dv.amplification, 1.0, 1e-9);
	ck_assert_int_eq(dv.volatile_cache, DIO_TRI_YES);
	ck_assert_int_eq(dv.fua, DIO_TRI_NO);
	ck_assert_int_eq(dv.cache_hidden, 0);
	ck_assert_double_eq_tol(dv.base_s, 0, 1e-12);
}
END_TEST

/* The baseline's rate over the window is subtracted: 1 write, 8 sectors
 * and 1 flush in 0.05 s are 10, 80 and 10 in 0.5 s. */
START_TEST(test_baseline)
{
	struct sw_devcount dv;
	struct sw_dev_disk *d;

	fresh(&dv);
	d = disk(&dv, "h", "vda", 1000, 8000, 500, 0.5);
	d->base_writes = 1;
	d->base_sectors = 8;
	d->base_flushes = 1;
	d->base_s = 0.05;
	sw_dev_sum(&dv, 490, 4096);
	ck_assert_int_eq(dv.state, SW_DEV_COUNTED);
	ck_assert_uint_eq(dv.base_writes, 1);
	ck_assert_double_eq_tol(dv.base_s, 0.05, 1e-12);
	ck_assert_double_eq_tol(dv.flushes_per_txn, 490.0 / 490, 1e-9);
	ck_assert_double_eq_tol(dv.writes_per_txn, 990.0 / 490, 1e-9);
	ck_assert_double_eq_tol(dv.bytes_per_txn, 7920.0 * 512 / 490, 1e-6);
}
END_TEST

/* Other I/O over 10% of the window's: busy, the figures never below 0. */
START_TEST(test_busy)
{
	struct sw_devcount dv;
	struct sw_dev_disk *d;

	fresh(&dv);
	d = disk(&dv, "h", "vda", 100, 400, 50, 0.5);
	d->base_writes = 5;            /* 50 in the window: more than 15 */
	d->base_sectors = 8;
	d->base_s = 0.05;
	sw_dev_sum(&dv, 50, 4096);
	ck_assert_int_eq(dv.state, SW_DEV_BUSY);
	ck_assert_msg(strstr(dv.why, "other I/O") != NULL, "why: %s", dv.why);
	ck_assert_str_eq(sw_dev_state_name(dv.state), "busy");
	ck_assert(dv.writes_per_txn >= 0 && dv.bytes_per_txn >= 0);

	/* Sectors alone: 80 expected against 400 seen. */
	fresh(&dv);
	d = disk(&dv, "h", "vda", 100, 400, 50, 0.5);
	d->base_sectors = 8;
	d->base_s = 0.05;
	sw_dev_sum(&dv, 50, 4096);
	ck_assert_int_eq(dv.state, SW_DEV_BUSY);

	/* Just under the threshold: 14 writes + 0 flushes of 150. */
	fresh(&dv);
	d = disk(&dv, "h", "vda", 100, 4000, 50, 0.7);
	d->base_writes = 1;
	d->base_s = 0.05;
	sw_dev_sum(&dv, 50, 4096);
	ck_assert_int_eq(dv.state, SW_DEV_COUNTED);
	ck_assert_double_eq_tol(dv.writes_per_txn, 86.0 / 50, 1e-9);

	/* A window that saw nothing is exact, whatever the baseline saw. */
	fresh(&dv);
	d = disk(&dv, "h", "vda", 0, 0, 0, 0.5);
	d->base_writes = 2;
	d->base_sectors = 16;
	d->base_s = 0.05;
	sw_dev_sum(&dv, 10, 4096);
	ck_assert_int_eq(dv.state, SW_DEV_COUNTED);
	ck_assert_double_eq_tol(dv.flushes_per_txn, 0, 1e-12);

	/* More other I/O than the window saw: 0, not below. */
	fresh(&dv);
	d = disk(&dv, "h", "vda", 3, 24, 0, 0.5);
	d->base_writes = 1;
	d->base_sectors = 8;
	d->base_s = 0.05;
	sw_dev_sum(&dv, 10, 4096);
	ck_assert_int_eq(dv.state, SW_DEV_BUSY);
	ck_assert_double_eq_tol(dv.writes_per_txn, 0, 1e-12);
	ck_assert_double_eq_tol(dv.bytes_per_txn, 0, 1e-12);
}
END_TEST

/* Never 0 for n/a: no transaction; a reason given stays. */
START_TEST(test_na)
{
	struct sw_devcount dv;

	fresh(&dv);
	disk(&dv, "h", "vda", 0, 0, 0, 0.4);
	sw_dev_sum(&dv, 0, 4096);
	ck_assert_int_eq(dv.state, SW_DEV_NA);
	ck_assert_str_eq(dv.why, "no transaction was issued");
	ck_assert_str_eq(sw_dev_state_name(dv.state), "no");

	memset(&dv, 0, sizeof(dv));
	dv.state = SW_DEV_NA;
	snprintf(dv.why, sizeof(dv.why), "no local disk: tmpfs");
	sw_dev_sum(&dv, 10, 4096);
	ck_assert_int_eq(dv.state, SW_DEV_NA);
	ck_assert_str_eq(dv.why, "no local disk: tmpfs");
	ck_assert_uint_eq(dv.txns, 10);
}
END_TEST

/* A disk without a flush counter (before Linux 5.5): flushes unknown,
 * the rest counted; the caches' facts over several disks. */
START_TEST(test_flushes_unknown_and_caches)
{
	struct sw_devcount dv;
	struct sw_dev_disk *a, *b;

	fresh(&dv);
	a = disk(&dv, "h", "sda", 100, 800, 50, 0.4);
	b = disk(&dv, "h", "sdb", 100, 800, 0, 0.4);
	b->flushes_known = 0;
	sw_dev_sum(&dv, 50, 4096);
	ck_assert_int_eq(dv.state, SW_DEV_COUNTED);
	ck_assert(!dv.flushes_known);
	ck_assert_double_eq_tol(dv.bytes_per_txn, 1600.0 * 512 / 50, 1e-9);

	/* Write-through as the kernel says, write back as the device says. */
	fresh(&dv);
	a = disk(&dv, "h", "sda", 100, 800, 0, 0.4);
	a->write_cache = DIO_TRI_NO;
	a->device_cache = DIO_TRI_YES;
	a->fua = DIO_TRI_YES;
	sw_dev_sum(&dv, 50, 4096);
	ck_assert_int_eq(dv.cache_hidden, 1);
	ck_assert_int_eq(dv.volatile_cache, DIO_TRI_YES);
	ck_assert_int_eq(dv.fua, DIO_TRI_YES);

	/* Both caches write-through: not volatile; unknown device: unknown. */
	fresh(&dv);
	a = disk(&dv, "h", "sda", 100, 800, 0, 0.4);
	a->write_cache = DIO_TRI_NO;
	a->device_cache = DIO_TRI_NO;
	sw_dev_sum(&dv, 50, 4096);
	ck_assert_int_eq(dv.volatile_cache, DIO_TRI_NO);
	ck_assert_int_eq(dv.cache_hidden, 0);
	a->device_cache = DIO_TRI_UNKNOWN;
	sw_dev_sum(&dv, 50, 4096);
	ck_assert_int_eq(dv.volatile_cache, DIO_TRI_UNKNOWN);
}
END_TEST

/* An MPI job: ranks 0 and 1 on h1 share vda (counted once, rank 0's),
 * rank 2 on h2 has its own vda; the job's transactions are every rank's. */
START_TEST(test_merge)
{
	static const char host[3][DIOT_MPI_HOST_MAX] = { "h1", "h1", "h2" };
	struct sw_devcount each[3], job;

	fresh(&each[0]);
	disk(&each[0], "h1", "vda", 200, 800, 100, 0.4);
	each[0].from_ns = 5;
	each[0].to_ns = 9;
	fresh(&each[1]);
	disk(&each[1], "h1", "vda", 204, 808, 101, 0.4);
	fresh(&each[2]);
	disk(&each[2], "h2", "vda", 100, 400, 50, 0.4);
	sw_dev_sum(&each[0], 50, 4096);
	sw_dev_sum(&each[1], 50, 4096);
	sw_dev_sum(&each[2], 50, 4096);
	sw_dev_merge(&job, each, host, 2, 4096);
	ck_assert_int_eq(job.state, SW_DEV_COUNTED);
	ck_assert_int_eq(job.ndisks, 1);
	ck_assert_uint_eq(job.txns, 100);
	ck_assert_uint_eq(job.flushes, 100);             /* once, not 201 */
	ck_assert_double_eq_tol(job.flushes_per_txn, 1.0, 1e-9);
	ck_assert_uint_eq(job.from_ns, 5);
	ck_assert_uint_eq(job.to_ns, 9);

	sw_dev_merge(&job, each, host, 3, 4096);
	ck_assert_int_eq(job.ndisks, 2);
	ck_assert_str_eq(job.disks[1].host, "h2");
	ck_assert_uint_eq(job.txns, 150);
	ck_assert_uint_eq(job.flushes, 150);
	ck_assert_double_eq_tol(job.flushes_per_txn, 1.0, 1e-9);

	/* A rank that could not count: the job's block is n/a, naming it. */
	memset(&each[2], 0, sizeof(each[2]));
	each[2].state = SW_DEV_NA;
	snprintf(each[2].why, sizeof(each[2].why), "no local disk: nfs");
	sw_dev_merge(&job, each, host, 3, 4096);
	ck_assert_int_eq(job.state, SW_DEV_NA);
	ck_assert_str_eq(job.why, "host h2: no local disk: nfs");
}
END_TEST

/* A saved run's points, each with the device block dev (a JSON member,
 * "" none), read by --compare's loader into r. */
static void
load(struct cmp_run *r, const char *const *dev, int n)
{
	char b[8192], why[600];
	size_t at;
	int k;

	at = (size_t)snprintf(b, sizeof(b), "{\"tool\": \"sync-write\", \"schema\": 1, "
	                      "\"target\": {\"path\": \"/t/x\", \"kind\": \"new file\", "
	                      "\"fs\": \"ext4\"}, \"config\": {\"layout\": \"shared\", "
	                      "\"writers_are\": \"processes\", \"count\": 5}, \"points\": [");
	for (k = 0; k < n; k++)
		at += (size_t)snprintf(b + at, sizeof(b) - at, "%s{\"method\": \"fsync\", "
		                       "\"size_bytes\": %d, \"writers\": 1, \"status\": \"ok\", "
		                       "\"aggregate\": {\"txns\": 5, \"avg_us\": 9}%s%s}",
		                       k ? ", " : "", 4096 << k, dev[k][0] ? ", " : "", dev[k]);
	snprintf(b + at, sizeof(b) - at, "]}");
	ck_assert_msg(sw_cmp_load(r, "t.json", b, strlen(b), 0, why, sizeof(why)) == 0,
	              "%s", why);
	ck_assert_int_eq(r->npts, n);
}

START_TEST(test_compare_reads)
{
	static const char *const dev[] = {
		"\"device\": {\"counted\": \"yes\", \"txns\": 13, \"writes\": 30, "
		"\"bytes\": 61440, \"flushes\": 10, \"writes_per_txn\": 2.25, "
		"\"bytes_per_txn\": 4608, \"flushes_per_txn\": 0.75, \"amplification\": "
		"1.125, \"baseline\": {\"seconds\": 0.05, \"writes\": 0, \"bytes\": 0, "
		"\"flushes\": 0}, \"window_ns\": [1, 2], \"disks\": []}",
		"\"device\": {\"counted\": \"yes\", \"txns\": 13, \"writes\": 26, "
		"\"bytes\": 53248, \"flushes\": null, \"writes_per_txn\": 2, "
		"\"bytes_per_txn\": 4096, \"flushes_per_txn\": null, \"amplification\": 1}",
		"\"device\": {\"counted\": \"busy\", \"why\": \"other I/O\", \"txns\": 13, "
		"\"writes\": 900, \"bytes\": 3686400, \"flushes\": 40, \"writes_per_txn\": null}",
		"\"device\": {\"counted\": \"no\", \"why\": \"no local disk\", \"txns\": 0}",
		"",
		"\"device\": {\"counted\": \"yes\", \"txns\": 13, \"writes\": 26, "
		"\"bytes\": 53248, \"flushes\": 13, \"writes_per_txn\": -2, "
		"\"bytes_per_txn\": 4096, \"flushes_per_txn\": 1, \"amplification\": 1}",
		"\"device\": [1, 2]",
	};
	struct cmp_run r;

	load(&r, dev, 7);
	ck_assert_int_eq(r.pts[0].dev.state, SW_DEV_COUNTED);
	ck_assert(r.pts[0].dev.flushes_known);
	ck_assert_double_eq_tol(r.pts[0].dev.flushes_per_txn, 0.75, 1e-12);
	ck_assert_double_eq_tol(r.pts[0].dev.writes_per_txn, 2.25, 1e-12);
	ck_assert_double_eq_tol(r.pts[0].dev.bytes_per_txn, 4608, 1e-12);
	ck_assert_double_eq_tol(r.pts[0].dev.amplification, 1.125, 1e-12);
	ck_assert_int_eq(r.pts[1].dev.state, SW_DEV_COUNTED);   /* no flush counter */
	ck_assert(!r.pts[1].dev.flushes_known);
	ck_assert_int_eq(r.pts[2].dev.state, SW_DEV_BUSY);
	ck_assert_int_eq(r.pts[3].dev.state, SW_DEV_NA);
	ck_assert_int_eq(r.pts[4].dev.state, SW_DEV_NA);        /* an older result */
	ck_assert_int_eq(r.pts[5].dev.state, SW_DEV_NA);        /* does not hold */
	ck_assert_int_eq(r.pts[6].dev.state, SW_DEV_NA);
	free(r.pts);
}
END_TEST

static Suite *
devcount_suite(void)
{
	Suite *s = suite_create("sw_devcount");
	TCase *tc = tcase_create("sw_devcount");

	tcase_add_test(tc, test_per_txn);
	tcase_add_test(tc, test_baseline);
	tcase_add_test(tc, test_busy);
	tcase_add_test(tc, test_na);
	tcase_add_test(tc, test_flushes_unknown_and_caches);
	tcase_add_test(tc, test_merge);
	tcase_add_test(tc, test_compare_reads);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(srunner_create(devcount_suite()));
}
