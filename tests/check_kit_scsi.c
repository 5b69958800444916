/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_kit_scsi.c -- the tools' SCSI helpers (tools/kit/scsi.c) without a
 * device: bad arguments and descriptors that are not SCSI devices.  The
 * device paths (GOOD, sense, status, transport, READ CAPACITY(16)) run
 * in the qemu guest (tests/scsi-qemu.sh: dio-rbuf and guest-scsi-check).
 */
#include "config.h"
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/libdirectio.h"
#include "tools/kit/scsi.h"
#include "tests/testutil.h"

START_TEST(test_run_bad_args)
{
	dio_scsi *c = dio_scsi_new();
	uint8_t cdb[16], buf[8];
	char msg[256];
	int n = dio_cdb_test_unit_ready(cdb);

	ck_assert_int_eq(diot_scsi_run(NULL, 0, cdb, n, DIO_SCSI_DIR_NONE, NULL, 0, msg,
	                               sizeof(msg)), -EINVAL);
	ck_assert_str_eq(msg, "no SCSI command object");
	ck_assert_int_eq(diot_scsi_run(c, 0, NULL, 6, DIO_SCSI_DIR_NONE, NULL, 0, msg,
	                               sizeof(msg)), -EINVAL);
	ck_assert_str_eq(msg, "no CDB");
	ck_assert_int_eq(diot_scsi_run(c, 0, cdb, 0, DIO_SCSI_DIR_NONE, NULL, 0, msg,
	                               sizeof(msg)), -EINVAL);
	ck_assert_str_eq(msg, "no CDB");
	ck_assert_int_eq(diot_scsi_run(c, 0, cdb, n, DIO_SCSI_DIR_IN, NULL, 8, msg,
	                               sizeof(msg)), -EINVAL);
	ck_assert_str_eq(msg, "no data buffer");
	/* msg may be NULL or empty. */
	ck_assert_int_eq(diot_scsi_run(NULL, 0, cdb, n, 0, NULL, 0, NULL, 0), -EINVAL);
	/* A CDB too long for the library: its detail. */
	ck_assert_int_eq(diot_scsi_run(c, -1, cdb, 300, DIO_SCSI_DIR_IN, buf,
	                               sizeof(buf), msg, sizeof(msg)), -EINVAL);
	ck_assert_msg(msg[0] != '\0', "no message");
	ck_assert_int_lt(dio_scsi_category(c), 0);
	/* A closed descriptor. */
	ck_assert_int_eq(diot_scsi_run(c, -1, cdb, n, DIO_SCSI_DIR_NONE, NULL, 0, msg,
	                               sizeof(msg)), -EBADF);
	ck_assert_msg(msg[0] != '\0', "no message");
	dio_scsi_free(c);
}
END_TEST

static int
not_scsi_errno(void)
{
	return strcmp(dio_backend_name(), "posix") == 0 ? -ENOTSUP : -ENOTTY;
}

START_TEST(test_run_regular_file)
{
	dio_scsi *c = dio_scsi_new();
	uint8_t cdb[16], buf[96];
	char path[512], msg[256];
	int fd, n;

	tu_path(path, sizeof(path), tu_dir(), "kitscsi");
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_ge(fd, 0);
	n = dio_cdb_inquiry(cdb, 0, 0, sizeof(buf));
	ck_assert_int_eq(diot_scsi_run(c, fd, cdb, n, DIO_SCSI_DIR_IN, buf, sizeof(buf),
	                               msg, sizeof(msg)), not_scsi_errno());
	ck_assert_msg(strstr(msg, "opcode 0x12") != NULL, "msg: %s", msg);
	ck_assert_int_lt(dio_scsi_category(c), 0);
	close(fd);
	unlink(path);
	dio_scsi_free(c);
}
END_TEST

START_TEST(test_capacity_not_scsi)
{
	dio_scsi *c = dio_scsi_new();
	uint64_t blocks = 7;
	uint32_t blen = 7;
	char path[512], msg[256];
	int fd;

	ck_assert_int_eq(diot_scsi_capacity(NULL, 0, &blocks, &blen, msg, sizeof(msg)),
	                 -EINVAL);
	ck_assert_int_eq(diot_scsi_capacity(c, 0, NULL, &blen, msg, sizeof(msg)), -EINVAL);
	ck_assert_int_eq(diot_scsi_capacity(c, 0, &blocks, NULL, msg, sizeof(msg)), -EINVAL);
	tu_path(path, sizeof(path), tu_dir(), "kitcap");
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(diot_scsi_capacity(c, fd, &blocks, &blen, msg, sizeof(msg)),
	                 not_scsi_errno());
	ck_assert_msg(strncmp(msg, "READ CAPACITY(10) failed: ", 26) == 0, "msg: %s", msg);
	ck_assert_uint_eq(blocks, 0);
	ck_assert_uint_eq(blen, 0);
	close(fd);
	fd = open("/dev/null", O_RDWR);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(diot_scsi_capacity(c, fd, &blocks, &blen, NULL, 0),
	                 not_scsi_errno());
	close(fd);
	unlink(path);
	dio_scsi_free(c);
}
END_TEST

static Suite *
kit_scsi_suite(void)
{
	Suite *s = suite_create("kit_scsi");
	TCase *tc = tcase_create("scsi");

	tcase_add_test(tc, test_run_bad_args);
	tcase_add_test(tc, test_run_regular_file);
	tcase_add_test(tc, test_capacity_not_scsi);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(srunner_create(kit_scsi_suite()));
}
