/*
 * check_dd.c -- dio-dd's pure logic (tools/dd/): the write pattern's
 * stamps (one at every block start and every 4 KiB into a block, none
 * for blocks under 24 bytes, each naming its output offset), checked
 * against a layout computed here independently for several block sizes
 * and a transfer with a short tail; and the overlap of two identities
 * (tools/dd/alias.c) on hand-made identity structs.
 */
#include "config.h"

#include <check.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/dd/dd.h"

/* ------------------------------------------------------------ pattern */

#define SLEN 24

/* The expected buffer: the fixed byte pattern, then a stamp wherever the
 * layout puts one: at k * 4096 into every block whose rest holds it. */
static void
expect(unsigned char *e, size_t len, size_t bs, uint64_t off, size_t *nstamps)
{
	size_t i, b, k;

	for (i = 0; i < len; i++)
		e[i] = (unsigned char)(' ' + (i * 7 + 3) % 94);
	*nstamps = 0;
	if (bs < SLEN)
		return;
	for (b = 0; b < len; b += bs)
		for (k = 0; k + SLEN <= bs && b + k + SLEN <= len; k += 4096) {
			char s[SLEN + 1];

			snprintf(s, sizeof(s), "dio-dd %016" PRIx64 "\n", off + b + k);
			memcpy(e + b + k, s, SLEN);
			++*nstamps;
		}
}

static void
check_layout(size_t bs, size_t len, uint64_t off)
{
	unsigned char *buf = malloc(len), *e = malloc(len);
	size_t n, i;

	ck_assert_ptr_nonnull(buf);
	ck_assert_ptr_nonnull(e);
	fill_pattern(buf, len, bs);
	stamp(buf, len, bs, off);
	expect(e, len, bs, off, &n);
	for (i = 0; i < len; i++)
		if (buf[i] != e[i])
			ck_abort_msg("bs=%zu len=%zu off=%" PRIu64 ": byte %zu is %02x, want %02x",
			             bs, len, off, i, buf[i], e[i]);
	/* A second transfer of the same buffer: only the offsets change. */
	stamp(buf, len, bs, off + len);
	expect(e, len, bs, off + len, &n);
	ck_assert_int_eq(memcmp(buf, e, len), 0);
	free(buf);
	free(e);
}

static size_t
stamps_in(size_t bs, size_t len)
{
	unsigned char *e = malloc(len);
	size_t n;

	ck_assert_ptr_nonnull(e);
	expect(e, len, bs, 0, &n);
	free(e);
	return n;
}

START_TEST(stamp_bs512)
{
	check_layout(512, 512 * 8, 0);
	check_layout(512, 512 * 8, 512 * 1000);
	ck_assert_uint_eq(stamps_in(512, 4096), 8);     /* one per 512 bytes */
}
END_TEST

START_TEST(stamp_bs1000)
{
	check_layout(1000, 1000 * 5, 4000);
	ck_assert_uint_eq(stamps_in(1000, 5000), 5);
}
END_TEST

START_TEST(stamp_bs4096)
{
	check_layout(4096, 4096 * 4, 0);
	ck_assert_uint_eq(stamps_in(4096, 4 * 4096), 4);
}
END_TEST

START_TEST(stamp_bs6000)
{
	/* 0 and 4096 into every block: 4096 + 24 <= 6000. */
	check_layout(6000, 6000 * 3, 6000 * 7);
	ck_assert_uint_eq(stamps_in(6000, 3 * 6000), 6);
}
END_TEST

START_TEST(stamp_bs128k)
{
	check_layout(128 * 1024, 128 * 1024 * 2, 0);
	ck_assert_uint_eq(stamps_in(128 * 1024, 128 * 1024), 32);
	/* offsets past 4 GiB: the upper eight digits change */
	check_layout(128 * 1024, 128 * 1024 * 2, 0xfffe0000ull);
}
END_TEST

START_TEST(stamp_bs16)
{
	unsigned char buf[160], e[160];
	size_t n;

	fill_pattern(buf, sizeof(buf), 16);
	stamp(buf, sizeof(buf), 16, 0);
	expect(e, sizeof(e), 16, 0, &n);
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(memcmp(buf, e, sizeof(buf)), 0);
}
END_TEST

START_TEST(stamp_short_tail)
{
	/* several blocks and a short last one (a short read): the tail holds
	 * a stamp where a whole one fits, 4 KiB steps inside it too */
	check_layout(6000, 6000 * 3 + 4200, 0);
	check_layout(4096, 4096 * 2 + 100, 8192);
	check_layout(512, 512 * 3 + 20, 0);             /* 20 bytes: no stamp */
	ck_assert_uint_eq(stamps_in(512, 512 * 3 + 20), 3);
	ck_assert_uint_eq(stamps_in(6000, 6000 * 3 + 4200), 8);
}
END_TEST

/* ------------------------------------------------------------ aliases */

static struct ident
file_id(const char *label, const char *path, dev_t dev, ino_t ino)
{
	struct ident id;

	memset(&id, 0, sizeof(id));
	id.label = label;
	id.path = path;
	id.type = ID_FILE;
	id.dev = dev;
	id.ino = ino;
	return id;
}

static struct ident
new_id(const char *label, const char *path, dev_t dev, ino_t ino, const char *base)
{
	struct ident id = file_id(label, path, dev, ino);

	id.type = ID_NEW;
	id.base = base;
	return id;
}

/* A block device node: its number, and the whole disk it is on. */
static struct ident
dev_id(const char *label, const char *path, dev_t blk, dev_t disk)
{
	struct ident id;

	memset(&id, 0, sizeof(id));
	id.label = label;
	id.path = path;
	id.type = ID_DEV;
	id.node.set = id.blk.set = id.disk.set = 1;
	id.node.rdev = id.blk.rdev = blk;
	id.disk.rdev = disk;
	return id;
}

START_TEST(alias_same_device)
{
	struct ident a = dev_id("if=", "/dev/sdb", 0x810, 0x810);
	struct ident b = dev_id("of=", "/dev/disk/by-id/x", 0x810, 0x810);
	char msg[600];

	ck_assert_int_eq(overlap(&a, &b, msg, sizeof(msg)), 1);
	ck_assert_str_eq(msg, "if= '/dev/sdb' and of= '/dev/disk/by-id/x' are the same device");
}
END_TEST

START_TEST(alias_partitions)
{
	struct ident disk = dev_id("of=", "/dev/sdb", 0x810, 0x810);
	struct ident p1 = dev_id("if=", "/dev/sdb1", 0x811, 0x810);
	struct ident p2 = dev_id("of=", "/dev/sdb2", 0x812, 0x810);
	struct ident other = dev_id("of=", "/dev/sdc", 0x820, 0x820);
	char msg[600];

	ck_assert_int_eq(overlap(&p1, &disk, msg, sizeof(msg)), 1);
	ck_assert_str_eq(msg, "if= '/dev/sdb1' is a partition of of= '/dev/sdb'");
	ck_assert_int_eq(overlap(&disk, &p1, msg, sizeof(msg)), 1);
	ck_assert_str_eq(msg, "of= '/dev/sdb' is the whole disk holding if= '/dev/sdb1'");
	/* two partitions of one disk do not overlap, nor two disks */
	ck_assert_int_eq(overlap(&p1, &p2, msg, sizeof(msg)), 0);
	ck_assert_int_eq(overlap(&disk, &other, msg, sizeof(msg)), 0);
	ck_assert_int_eq(overlap(&p1, &other, msg, sizeof(msg)), 0);
}
END_TEST

START_TEST(alias_files)
{
	struct ident a = file_id("if=", "a", 0x801, 1234);
	struct ident b = file_id("of=", "dir/../a", 0x801, 1234);
	struct ident c = file_id("of=", "c", 0x801, 1235);
	struct ident d = file_id("of=", "d", 0x802, 1234);
	struct ident n1 = new_id("of=", "x/new", 0x801, 77, "new");
	struct ident n2 = new_id("of=", "./x/new", 0x801, 77, "new");
	struct ident n3 = new_id("of=", "x/other", 0x801, 77, "other");
	char msg[600];

	ck_assert_int_eq(overlap(&a, &b, msg, sizeof(msg)), 1);
	ck_assert_str_eq(msg, "if= 'a' and of= 'dir/../a' are the same file");
	ck_assert_int_eq(overlap(&a, &c, msg, sizeof(msg)), 0);
	ck_assert_int_eq(overlap(&a, &d, msg, sizeof(msg)), 0);
	ck_assert_int_eq(overlap(&n1, &n2, msg, sizeof(msg)), 1);
	ck_assert_str_eq(msg, "of= 'x/new' and of= './x/new' name the same file");
	ck_assert_int_eq(overlap(&n1, &n3, msg, sizeof(msg)), 0);
}
END_TEST

START_TEST(alias_loop_image)
{
	struct ident img = file_id("if=", "disk.img", 0x801, 99);
	struct ident loop = dev_id("of=", "/dev/loop0", 0x700, 0x700);
	char msg[600];

	ck_assert_int_eq(overlap(&img, &loop, msg, sizeof(msg)), 0);
	loop.has_back = 1;
	loop.back_dev = 0x801;
	loop.back_ino = 99;
	ck_assert_int_eq(overlap(&loop, &img, msg, sizeof(msg)), 1);
	ck_assert_str_eq(msg, "if= 'disk.img' is the image file of the loop device of= "
	                 "'/dev/loop0'");
	loop.back_ino = 100;
	ck_assert_int_eq(overlap(&img, &loop, msg, sizeof(msg)), 0);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("dio-dd");
	TCase *p = tcase_create("pattern"), *a = tcase_create("alias");
	SRunner *sr;
	int failed;

	tcase_add_test(p, stamp_bs512);
	tcase_add_test(p, stamp_bs1000);
	tcase_add_test(p, stamp_bs4096);
	tcase_add_test(p, stamp_bs6000);
	tcase_add_test(p, stamp_bs128k);
	tcase_add_test(p, stamp_bs16);
	tcase_add_test(p, stamp_short_tail);
	tcase_add_test(a, alias_same_device);
	tcase_add_test(a, alias_partitions);
	tcase_add_test(a, alias_files);
	tcase_add_test(a, alias_loop_image);
	suite_add_tcase(s, p);
	suite_add_tcase(s, a);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
