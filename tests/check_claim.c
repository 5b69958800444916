/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_claim.c -- dio_device_in_use() and dio_device_claim() on real loop
 * devices, prepared by tests/claim-loop.sh:
 *
 *   check_claim IMAGE LOOP0 LOOP1 PLAIN MNT
 *
 * IMAGE backs LOOP0 (an ext4), LOOP1 is a loop device backed by the
 * block device LOOP0 (so LOOP0 is in use and LOOP1 holds the same
 * ext4); PLAIN is a file that backs nothing; MNT an empty directory.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libdirectio.h"
#include "tests/testutil.h"

static const char *image, *loop0, *loop1, *plain, *mnt;

static int
sh(const char *fmt, const char *a, const char *b)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), fmt, a, b);
	return system(cmd);
}

START_TEST(test_in_use)
{
	char why[256], want[300];
	const char *name = strrchr(loop0, '/') + 1;

	/* The image file backs loop0: in use. */
	ck_assert_int_eq(dio_device_in_use(image, why, sizeof(why)), 1);
	snprintf(want, sizeof(want), "backs the loop device /dev/%s", name);
	ck_assert_str_eq(why, want);
	/* loop0 itself backs loop1: in use too. */
	ck_assert_int_eq(dio_device_in_use(loop0, why, sizeof(why)), 1);
	ck_assert_ptr_nonnull(strstr(why, "backs the loop device /dev/loop"));
	/* A plain file and loop1 (unmounted, backing nothing) are free. */
	ck_assert_int_eq(dio_device_in_use(plain, why, sizeof(why)), 0);
	ck_assert_int_eq(dio_device_in_use(loop1, why, sizeof(why)), 0);
	ck_assert_int_eq(dio_device_in_use(mnt, why, sizeof(why)), -ENOTBLK);
}
END_TEST

START_TEST(test_claim)
{
	int fd, fd2;

	ck_assert_int_eq(dio_device_claim(image), -ENOTBLK);
	ck_assert_int_eq(dio_device_claim("/dev/null"), -ENOTBLK);
	fd = dio_device_claim(loop1);
	ck_assert_int_ge(fd, 0);
	/* While claimed: no second claim, no mount. */
	ck_assert_int_eq(dio_device_claim(loop1), -EBUSY);
	ck_assert_int_ne(sh("mount %s %s 2>/dev/null", loop1, mnt), 0);
	close(fd);
	/* Released: it mounts, and then it cannot be claimed. */
	ck_assert_int_eq(sh("mount %s %s", loop1, mnt), 0);
	ck_assert_int_eq(dio_device_claim(loop1), -EBUSY);
	ck_assert_int_eq(sh("umount %s%s", mnt, ""), 0);
	fd2 = dio_device_claim(loop1);
	ck_assert_int_ge(fd2, 0);
	close(fd2);
}
END_TEST

int
main(int argc, char **argv)
{
	Suite *s;
	TCase *tc;

	if (argc != 6) {
		fprintf(stderr, "usage: check_claim IMAGE LOOP0 LOOP1 PLAIN MNT\n");
		return 99;
	}
	image = argv[1];
	loop0 = argv[2];
	loop1 = argv[3];
	plain = argv[4];
	mnt = argv[5];
	s = suite_create("claim");
	tc = tcase_create("loop");
	tcase_add_test(tc, test_in_use);
	tcase_add_test(tc, test_claim);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return tu_run(srunner_create(s));
}
