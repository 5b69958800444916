/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_rbuf.c -- dio-rbuf's pure logic without a device: options into
 * struct opts, the sizes a run times, and a sweep's derived figures
 * (tools/rbuf/args.c, measure.c).
 */
#include "config.h"
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tools/kit/msg.h"
#include "tools/rbuf/rbuf.h"
#include "tests/testutil.h"

static void
parse(struct opts *o, const char *a1, const char *a2, const char *a3, const char *a4)
{
	char *argv[6] = { (char *)"dio-rbuf", NULL, NULL, NULL, NULL, NULL };
	int argc = 1;

	if (a1) argv[argc++] = (char *)a1;
	if (a2) argv[argc++] = (char *)a2;
	if (a3) argv[argc++] = (char *)a3;
	if (a4) argv[argc++] = (char *)a4;
	rbuf_parse_args(argc, argv, o);
}

START_TEST(test_args)
{
	struct opts o;

	parse(&o, "/dev/sg1", NULL, NULL, NULL);
	ck_assert_str_eq(o.device, "/dev/sg1");
	ck_assert_uint_eq(o.total, DEFAULT_TOTAL);
	ck_assert_int_eq(o.mode, DIO_SCSI_XFER_INDIRECT);
	ck_assert_uint_eq(o.timeout_s, 60);
	ck_assert_int_eq(o.command, CMD_RBUF);
	ck_assert_int_eq(o.format, FMT_TABLE);
	ck_assert_int_eq(o.sweep, 0);

	parse(&o, "--sweep", "--sizes", "4k,64k,16k", "/dev/sg1");
	ck_assert_int_eq(o.sweep, 1);
	ck_assert_uint_eq(o.nsizes, 3);
	ck_assert_uint_eq(o.sizes[0], 65536);   /* largest first */
	ck_assert_uint_eq(o.sizes[1], 16384);
	ck_assert_uint_eq(o.sizes[2], 4096);
	ck_assert_uint_eq(o.nmodes, NMODES);     /* the study's order */
	ck_assert_int_eq(o.modes[0], DIO_SCSI_XFER_NO_COPY);
	ck_assert_int_eq(o.modes[3], DIO_SCSI_XFER_MMAP);

	parse(&o, "--sweep", "--modes", "mmap,indirect", "/dev/sg1");
	ck_assert_uint_eq(o.nmodes, 2);
	ck_assert_int_eq(o.modes[0], DIO_SCSI_XFER_MMAP);
	ck_assert_int_eq(o.modes[1], DIO_SCSI_XFER_INDIRECT);
	ck_assert_int_eq(rbuf_mode_index(&o, DIO_SCSI_XFER_INDIRECT), 1);
	ck_assert_int_eq(rbuf_mode_index(&o, DIO_SCSI_XFER_DIRECT), -1);

	parse(&o, "-c", "read", "--lba=8", "/dev/sda");
	ck_assert_int_eq(o.command, CMD_READ);
	ck_assert_uint_eq(o.lba, 8);
	parse(&o, "-qv", "-fjson", "-s1M", "/dev/sg1");
	ck_assert_int_eq(o.mode, DIO_SCSI_XFER_NO_COPY);
	ck_assert_int_eq(o.verbose, 1);
	ck_assert_int_eq(o.format, FMT_JSON);
	ck_assert_uint_eq(o.total, 1048576);

	/* sg_rbuf's spelling: -b EACH, -s OVERALL, -t (no value), -e; -m
	 * overrides -q overrides -d, whatever the order. */
	parse(&o, "-tdqe", "-b16k", "-s2M", "/dev/sg1");
	ck_assert_uint_eq(o.size, 16384);
	ck_assert_uint_eq(o.total, 2 * 1048576);
	ck_assert_int_eq(o.size_set, 1);
	ck_assert_int_eq(o.echo, 1);
	ck_assert_int_eq(o.mode, DIO_SCSI_XFER_NO_COPY);
	parse(&o, "-m", "-d", "-q", "/dev/sg1");
	ck_assert_int_eq(o.mode, DIO_SCSI_XFER_MMAP);
	parse(&o, "--buffer=4096", "--size=1m", "--dio", "/dev/sg1");
	ck_assert_uint_eq(o.size, 4096);
	ck_assert_uint_eq(o.total, 1048576);
	ck_assert_int_eq(o.mode, DIO_SCSI_XFER_DIRECT);
	parse(&o, "--total=3m", "--buffer-id", "7", "/dev/sg1");
	ck_assert_uint_eq(o.total, 3 * 1048576);
	ck_assert_int_eq(o.buffer_id, 7);
}
END_TEST

/* A bad command line exits DIOT_EXIT_USAGE (2). */
START_TEST(test_args_no_device)
{
	struct opts o;

	parse(&o, "-d", NULL, NULL, NULL);
}
END_TEST

START_TEST(test_args_bad_value)
{
	struct opts o;

	parse(&o, "--size", "4kk", "/dev/sg1", NULL);
}
END_TEST

START_TEST(test_choose_sizes)
{
	struct opts o;
	struct dev d;

	memset(&d, 0, sizeof(d));
	d.path = "/dev/sg1";
	d.capacity = 65536;
	d.limit = 65536;
	/* one run: the capacity */
	parse(&o, "/dev/sg1", NULL, NULL, NULL);
	ck_assert_uint_eq(rbuf_choose_sizes(&d, &o), 0);
	ck_assert_uint_eq(o.nsizes, 1);
	ck_assert_uint_eq(o.sizes[0], 65536);
	/* sweep: the defaults that fit, the capacity itself first */
	parse(&o, "--sweep", "/dev/sg1", NULL, NULL);
	ck_assert_uint_eq(rbuf_choose_sizes(&d, &o), 0);
	ck_assert_uint_eq(o.nsizes, 5);
	ck_assert_uint_eq(o.sizes[0], 65536);
	ck_assert_uint_eq(o.sizes[1], 32768);
	ck_assert_uint_eq(o.sizes[4], 4096);
	/* given sizes: the index of the largest */
	parse(&o, "--sweep", "--sizes", "4k,16k", "/dev/sg1");
	ck_assert_uint_eq(rbuf_choose_sizes(&d, &o), 0);
	ck_assert_uint_eq(o.sizes[0], 16384);
	/* READ(10): 64 KiB by default, within the blocks left */
	memset(&d, 0, sizeof(d));
	d.path = "/dev/sda";
	d.block_len = 512;
	d.blocks = 100;
	d.limit = 100 * 512;
	parse(&o, "-c", "read", "/dev/sda", NULL);
	rbuf_choose_sizes(&d, &o);
	ck_assert_uint_eq(o.sizes[0], 51200);
	d.blocks = 1000000;
	d.limit = (uint64_t)READ10_MAX_BLOCKS * 512;
	parse(&o, "-c", "read", "/dev/sda", NULL);
	rbuf_choose_sizes(&d, &o);
	ck_assert_uint_eq(o.sizes[0], DEFAULT_READ_SIZE);
}
END_TEST

/* A size the device cannot do ends the program (exit 1). */
START_TEST(test_choose_sizes_too_big)
{
	struct opts o;
	struct dev d;

	memset(&d, 0, sizeof(d));
	d.path = "/dev/sg1";
	d.capacity = 4096;
	d.limit = 4096;
	parse(&o, "-b", "8k", "/dev/sg1", NULL);
	rbuf_choose_sizes(&d, &o);
}
END_TEST

/* Runs whose time is exactly commands x latency + bytes / bandwidth. */
START_TEST(test_summarise)
{
	const double lat = 50e-6, bw = 400e6;
	struct run runs[3 * 2];
	struct summary s;
	struct opts o;
	size_t i, m;

	parse(&o, "--sweep", "--sizes", "4k,16k,64k", "/dev/sg1");
	o.nmodes = 2;
	o.modes[0] = DIO_SCSI_XFER_INDIRECT;
	o.modes[1] = DIO_SCSI_XFER_DIRECT;
	memset(runs, 0, sizeof(runs));
	for (i = 0; i < o.nsizes; i++)
		for (m = 0; m < o.nmodes; m++) {
			struct run *r = rbuf_run_at(runs, &o, i, m);

			ck_assert_ptr_eq(r, &runs[i * 2 + m]);
			r->mode = o.modes[m];
			r->size = o.sizes[i];
			r->commands = (1u << 20) / r->size;
			r->bytes = 1u << 20;
			r->secs = (double)r->commands * lat + (double)r->bytes / bw;
			r->measured = m == 0 || i == 0;   /* direct: one point only */
		}
	rbuf_summarise(runs, &o, 0, &s);
	ck_assert_int_eq(s.mode, DIO_SCSI_XFER_INDIRECT);
	ck_assert_uint_eq(s.points, 3);
	ck_assert(s.raw_ok && s.lat_ok && s.after_ok && s.fit_ok && s.bw_ok && s.r2_ok);
	ck_assert_double_eq_tol(s.fit_latency, lat, 1e-12);
	ck_assert_double_eq_tol(s.fit_bw, bw, 1e-3);
	ck_assert_double_eq_tol(s.fit_r2, 1, 1e-9);
	/* implied latency: (smallest-size time - best time) / its commands */
	ck_assert_double_eq_tol(s.latency, (256 - 16) * lat / 256, 1e-12);
	ck_assert_double_eq_tol(s.best_raw, (1u << 20) / runs[0].secs, 1e-3);
	ck_assert_double_eq_tol(s.worst_raw, (1u << 20) / runs[4].secs, 1e-3);
	/* one point: raw figures only */
	rbuf_summarise(runs, &o, 1, &s);
	ck_assert_uint_eq(s.points, 1);
	ck_assert(s.raw_ok && !s.lat_ok && !s.after_ok && !s.fit_ok && !s.r2_ok);
}
END_TEST

START_TEST(test_mean_command_us)
{
	struct run r;

	memset(&r, 0, sizeof(r));
	r.commands = 4;
	r.secs = 0.002;
	ck_assert_double_eq_tol(rbuf_mean_command_us(&r), 500, 1e-9);
	r.timed_each = 1;
	r.dur_sum = 4000;
	ck_assert_double_eq_tol(rbuf_mean_command_us(&r), 1, 1e-12);
	rbuf_run_failed(&r, -5, 1, "the reason");
	ck_assert_int_eq(r.measured, 0);
	ck_assert_int_eq(r.err, -5);
	ck_assert_int_eq(r.unsupported, 1);
	ck_assert_str_eq(r.why, "the reason");
}
END_TEST

static Suite *
rbuf_suite(void)
{
	Suite *s = suite_create("rbuf");
	TCase *tc = tcase_create("rbuf");

	tcase_add_test(tc, test_args);
	tcase_add_exit_test(tc, test_args_no_device, DIOT_EXIT_USAGE);
	tcase_add_exit_test(tc, test_args_bad_value, DIOT_EXIT_USAGE);
	tcase_add_test(tc, test_choose_sizes);
	tcase_add_exit_test(tc, test_choose_sizes_too_big, DIOT_EXIT_FAIL);
	tcase_add_test(tc, test_summarise);
	tcase_add_test(tc, test_mean_command_us);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	diot_init(RBUF_PROG);
	return tu_run(srunner_create(rbuf_suite()));
}
