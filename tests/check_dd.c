/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_dd.c -- dio-dd's pure logic (tools/dd/): the write pattern's
 * stamps (one at every block start and every 4 KiB into a block, none
 * for blocks under 24 bytes, each naming its output offset), checked
 * against a layout computed here independently for several block sizes
 * and a transfer with a short tail; the overlap of two identities
 * (tools/dd/alias.c) on hand-made identity structs; and dd's command
 * lines as dd_parse_args() and dd_check_operands() leave them (nothing opened):
 * dd's numbers (suffixes c, w, b and products), bs= against ibs=/obs=,
 * dd's defaults (no if=: standard input, no of=: standard output, unless
 * mode=read or mode=write), of=/dev/null written on a dd line and nowhere
 * with mode=read, count=0, dd's flags, conversions and status=.
 */
#include "config.h"

#include <check.h>
#include <fcntl.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/dd/dd.h"
#include "tools/kit/msg.h"

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
	dd_fill_pattern(buf, len, bs);
	dd_stamp(buf, len, bs, off);
	expect(e, len, bs, off, &n);
	for (i = 0; i < len; i++)
		if (buf[i] != e[i])
			ck_abort_msg("bs=%zu len=%zu off=%" PRIu64 ": byte %zu is %02x, want %02x",
			             bs, len, off, i, buf[i], e[i]);
	/* A second transfer of the same buffer: only the offsets change. */
	dd_stamp(buf, len, bs, off + len);
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

	dd_fill_pattern(buf, sizeof(buf), 16);
	dd_stamp(buf, sizeof(buf), 16, 0);
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

static struct dd_ident
file_id(const char *label, const char *path, dev_t dev, ino_t ino)
{
	struct dd_ident id;

	memset(&id, 0, sizeof(id));
	id.label = label;
	id.path = path;
	id.type = DD_ID_FILE;
	id.dev = dev;
	id.ino = ino;
	return id;
}

static struct dd_ident
new_id(const char *label, const char *path, dev_t dev, ino_t ino, const char *base)
{
	struct dd_ident id = file_id(label, path, dev, ino);

	id.type = DD_ID_NEW;
	id.base = base;
	return id;
}

/* A block device node: its number, and the whole disk it is on. */
static struct dd_ident
dev_id(const char *label, const char *path, dev_t blk, dev_t disk)
{
	struct dd_ident id;

	memset(&id, 0, sizeof(id));
	id.label = label;
	id.path = path;
	id.type = DD_ID_DEV;
	id.node.set = id.blk.set = id.disk.set = 1;
	id.node.rdev = id.blk.rdev = blk;
	id.disk.rdev = disk;
	return id;
}

START_TEST(alias_same_device)
{
	struct dd_ident a = dev_id("if=", "/dev/sdb", 0x810, 0x810);
	struct dd_ident b = dev_id("of=", "/dev/disk/by-id/x", 0x810, 0x810);
	char msg[600];

	ck_assert_int_eq(dd_overlap(&a, &b, msg, sizeof(msg)), 1);
	ck_assert_str_eq(msg, "if= '/dev/sdb' and of= '/dev/disk/by-id/x' are the same device");
}
END_TEST

START_TEST(alias_partitions)
{
	struct dd_ident disk = dev_id("of=", "/dev/sdb", 0x810, 0x810);
	struct dd_ident p1 = dev_id("if=", "/dev/sdb1", 0x811, 0x810);
	struct dd_ident p2 = dev_id("of=", "/dev/sdb2", 0x812, 0x810);
	struct dd_ident other = dev_id("of=", "/dev/sdc", 0x820, 0x820);
	char msg[600];

	ck_assert_int_eq(dd_overlap(&p1, &disk, msg, sizeof(msg)), 1);
	ck_assert_str_eq(msg, "if= '/dev/sdb1' is a partition of of= '/dev/sdb'");
	ck_assert_int_eq(dd_overlap(&disk, &p1, msg, sizeof(msg)), 1);
	ck_assert_str_eq(msg, "of= '/dev/sdb' is the whole disk holding if= '/dev/sdb1'");
	/* two partitions of one disk do not overlap, nor two disks */
	ck_assert_int_eq(dd_overlap(&p1, &p2, msg, sizeof(msg)), 0);
	ck_assert_int_eq(dd_overlap(&disk, &other, msg, sizeof(msg)), 0);
	ck_assert_int_eq(dd_overlap(&p1, &other, msg, sizeof(msg)), 0);
}
END_TEST

START_TEST(alias_files)
{
	struct dd_ident a = file_id("if=", "a", 0x801, 1234);
	struct dd_ident b = file_id("of=", "dir/../a", 0x801, 1234);
	struct dd_ident c = file_id("of=", "c", 0x801, 1235);
	struct dd_ident d = file_id("of=", "d", 0x802, 1234);
	struct dd_ident n1 = new_id("of=", "x/new", 0x801, 77, "new");
	struct dd_ident n2 = new_id("of=", "./x/new", 0x801, 77, "new");
	struct dd_ident n3 = new_id("of=", "x/other", 0x801, 77, "other");
	char msg[600];

	ck_assert_int_eq(dd_overlap(&a, &b, msg, sizeof(msg)), 1);
	ck_assert_str_eq(msg, "if= 'a' and of= 'dir/../a' are the same file");
	ck_assert_int_eq(dd_overlap(&a, &c, msg, sizeof(msg)), 0);
	ck_assert_int_eq(dd_overlap(&a, &d, msg, sizeof(msg)), 0);
	ck_assert_int_eq(dd_overlap(&n1, &n2, msg, sizeof(msg)), 1);
	ck_assert_str_eq(msg, "of= 'x/new' and of= './x/new' name the same file");
	ck_assert_int_eq(dd_overlap(&n1, &n3, msg, sizeof(msg)), 0);
}
END_TEST

START_TEST(alias_loop_image)
{
	struct dd_ident img = file_id("if=", "disk.img", 0x801, 99);
	struct dd_ident loop = dev_id("of=", "/dev/loop0", 0x700, 0x700);
	char msg[600];

	ck_assert_int_eq(dd_overlap(&img, &loop, msg, sizeof(msg)), 0);
	loop.has_back = 1;
	loop.back_dev = 0x801;
	loop.back_ino = 99;
	ck_assert_int_eq(dd_overlap(&loop, &img, msg, sizeof(msg)), 1);
	ck_assert_str_eq(msg, "if= 'disk.img' is the image file of the loop device of= "
	                 "'/dev/loop0'");
	loop.back_ino = 100;
	ck_assert_int_eq(dd_overlap(&img, &loop, msg, sizeof(msg)), 0);
}
END_TEST

/* ------------------------------------------------------------ operands */

/* One command line's operands (static: kept across the longjmp of a held
 * error), and the held error's message. */
static struct dd g_dd;
static struct diot_held g_held;
static char g_msg[1024];
static int g_saved[2] = { -1, -1 };

/*
 * dd_parse_args() and dd_check_operands() on LINE (words separated by spaces,
 * after "dio-dd"), with standard input and output on /dev/null (dd's
 * defaults refuse a terminal there): 0, or the held error's exit status
 * with its message in g_msg.  The operands stay in g_dd until the next
 * call.
 */
static int
operands(const char *line)
{
	static char buf[512];
	static char *argv[DD_MAX_OPERANDS + 2];
	int argc = 0, fd, i;
	char *p;

	for (i = 0; i < 2; i++)
		free(i ? g_dd.o.ofs[0] : g_dd.o.ifs[0]);
	memset(&g_dd, 0, sizeof(g_dd));
	memset(&g_held, 0, sizeof(g_held));
	g_msg[0] = '\0';
	snprintf(buf, sizeof(buf), "dio-dd %s", line);
	for (p = strtok(buf, " "); p != NULL && argc <= DD_MAX_OPERANDS; p = strtok(NULL, " "))
		argv[argc++] = p;
	argv[argc] = NULL;
	fflush(stdout);
	fd = open("/dev/null", O_RDWR);
	ck_assert_int_ge(fd, 0);
	for (i = 0; i < 2; i++) {
		g_saved[i] = dup(i);
		ck_assert_int_ge(g_saved[i], 0);
		ck_assert_int_eq(dup2(fd, i), i);
	}
	close(fd);
	diot_hold_errors(&g_held);
	if (setjmp(g_held.jb) == 0) {
		if (dd_parse_args(&g_dd, argc, argv) < 0)
			dd_check_operands(&g_dd);
		diot_hold_errors(NULL);
	}
	for (i = 0; i < 2; i++) {
		dup2(g_saved[i], i);
		close(g_saved[i]);
	}
	if (g_held.msg != NULL) {
		snprintf(g_msg, sizeof(g_msg), "%s", g_held.msg);
		if (strcmp(g_held.msg, "out of memory (formatting a message)") != 0)
			free((void *)(uintptr_t)g_held.msg);
	}
	return g_held.status;
}

/* LINE is refused with exit 2 and a message holding WANT. */
static void
refused(const char *line, const char *want)
{
	int st = operands(line);

	ck_assert_msg(st == 2 && strstr(g_msg, want) != NULL,
	              "'%s': status %d, message '%s' (want 2 and '%s')", line, st, g_msg, want);
}

/* LINE is refused with exit STATUS (dd's own errors: 1, as dd) and a
 * message holding WANT. */
static void
refused_as(const char *line, int status, const char *want)
{
	int st = operands(line);

	ck_assert_msg(st == status && strstr(g_msg, want) != NULL,
	              "'%s': status %d, message '%s' (want %d and '%s')", line, st, g_msg,
	              status, want);
}

static void
taken(const char *line)
{
	int st = operands(line);

	ck_assert_msg(st == 0, "'%s': status %d: %s", line, st, g_msg);
}

START_TEST(operands_dd_numbers)
{
	taken("if=a of=b bs=2x512 count=2x3 skip=1xM seek=1b");
	ck_assert_uint_eq(g_dd.o.bs, 1024);
	ck_assert_uint_eq(g_dd.o.count, 6);
	ck_assert_uint_eq(g_dd.o.skip, 1048576);
	ck_assert_uint_eq(g_dd.o.seek, 512);
	taken("if=a of=b bs=1c count=3w");
	ck_assert_uint_eq(g_dd.o.bs, 1);
	ck_assert_uint_eq(g_dd.o.count, 6);
	taken("if=a of=b iseek=3 oseek=4");           /* dd's other names */
	ck_assert_uint_eq(g_dd.o.skip, 3);
	ck_assert_uint_eq(g_dd.o.seek, 4);
	/* count=0 is dd's: nothing to copy, no error */
	taken("if=a of=b count=0");
	ck_assert_int_eq(g_dd.o.count_set, 1);
	ck_assert_uint_eq(g_dd.o.count, 0);
	/* dd's grammar: a 'B' counts bytes, one 'x', no m/g/t suffixes */
	taken("if=a of=b count=2KiB skip=3B seek=1kB");
	ck_assert_uint_eq(g_dd.o.count, 2048);
	ck_assert_uint_eq(g_dd.o.skip, 3);
	ck_assert_uint_eq(g_dd.o.seek, 1000);
	ck_assert_int_eq(g_dd.o.iflag.count_bytes, 1);
	ck_assert_int_eq(g_dd.o.iflag.skip_bytes, 1);
	ck_assert_int_eq(g_dd.o.oflag.seek_bytes, 1);
	taken("if=a of=b bs=M count=K skip=1Bx2");
	ck_assert_uint_eq(g_dd.o.bs, 1048576);
	ck_assert_uint_eq(g_dd.o.count, 1024);
	ck_assert_uint_eq(g_dd.o.skip, 2);
	taken("if=a of=b count=0x1000");             /* (dd's warning) */
	ck_assert_uint_eq(g_dd.o.count, 0);
	taken("if=a of=b count=9223372036854775807");
	ck_assert_uint_eq(g_dd.o.count, (uint64_t)INT64_MAX);
	/* refused as dd refuses them: its message, exit 1 */
	refused_as("if=a of=b bs=0", 1, "invalid number: '0'");
	refused_as("if=a of=b bs=1m", 1, "invalid number: '1m'");
	refused_as("if=a of=b bs=x512", 1, "invalid number: 'x512'");
	refused_as("if=a of=b count=-1", 1, "invalid number: '-1'");
	refused_as("if=a of=b count=2x", 1, "invalid number: '2x'");
	refused_as("if=a of=b count=2xx2", 1, "invalid number: '2xx2'");
	refused_as("if=a of=b count=2x3x4", 1, "invalid number: '2x3x4'");
	refused_as("if=a of=b count=2x1B", 1, "invalid number: '2x1B'");
	refused_as("if=a of=b count=1Ki", 1, "invalid number: '1Ki'");
	refused_as("if=a of=b count=18446744073709551616", 1, "invalid number: "
	           "'18446744073709551616': Value too large for defined data type");
	refused_as("if=a of=b skip=9223372036854775808", 1, "'9223372036854775808': Value too "
	           "large");
	refused_as("if=a of=b seek=1Y", 1, "invalid number: '1Y': Value too large");
	refused_as("if=a of=b count=4611686018427387904x2", 1, "Value too large");
	refused_as("if=a of=b bs=9223372036854775807", 1, "Value too large");
	/* dio-dd's own limit */
	refused("if=a of=b bs=2G", "bs=2G: 2147483648 bytes is more than dio-dd moves in one "
	        "call; at most 1073741824 (1 GiB)");
}
END_TEST

START_TEST(operands_block_sizes)
{
	taken("if=a of=b");
	ck_assert_uint_eq(g_dd.o.bs, 512);
	ck_assert_uint_eq(g_dd.o.ibs, 512);
	ck_assert_uint_eq(g_dd.o.obs, 512);
	taken("if=a of=b bs=4k");                     /* bs= sets both */
	ck_assert_uint_eq(g_dd.o.ibs, 4096);
	ck_assert_uint_eq(g_dd.o.obs, 4096);
	taken("if=a of=b ibs=1k obs=4k");             /* reblocking */
	ck_assert_uint_eq(g_dd.o.ibs, 1024);
	ck_assert_uint_eq(g_dd.o.obs, 4096);
	ck_assert_uint_eq(g_dd.o.bs, 1024);
	taken("if=a of=b obs=2k");
	ck_assert_uint_eq(g_dd.o.ibs, 512);
	ck_assert_uint_eq(g_dd.o.obs, 2048);
	refused("if=a of=b bs=4k ibs=1k", "bs= sets both block sizes");
}
END_TEST

START_TEST(operands_defaults)
{
	/* no of=: standard output; a copy */
	taken("if=a");
	ck_assert_int_eq(g_dd.o.mode, DD_MODE_COPY);
	ck_assert_int_eq(g_dd.o.nif, 1);
	ck_assert_int_eq(g_dd.o.nof, 1);
	ck_assert_int_eq(g_dd.std_in, 0);
	ck_assert_int_eq(g_dd.std_out, 1);
	ck_assert_str_eq(g_dd.o.ifs[0], "a");
	ck_assert_str_eq(g_dd.o.ofs[0], "/dev/stdout");
	/* no if=: standard input */
	taken("of=b");
	ck_assert_int_eq(g_dd.o.mode, DD_MODE_COPY);
	ck_assert_int_eq(g_dd.std_in, 1);
	ck_assert_int_eq(g_dd.std_out, 0);
	ck_assert_str_eq(g_dd.o.ifs[0], "/dev/stdin");
	ck_assert_str_eq(g_dd.o.ofs[0], "b");
	/* neither: one to the other */
	taken("bs=1k");
	ck_assert_int_eq(g_dd.std_in, 1);
	ck_assert_int_eq(g_dd.std_out, 1);
	ck_assert_int_eq(g_dd.o.mode, DD_MODE_COPY);
	/* mode=copy is the default, with the same defaults */
	taken("if=a mode=copy");
	ck_assert_int_eq(g_dd.std_out, 1);
	/* mode=read: no output at all; mode=write: no input */
	taken("if=a mode=read");
	ck_assert_int_eq(g_dd.o.mode, DD_MODE_READ);
	ck_assert_int_eq(g_dd.o.nof, 0);
	ck_assert_int_eq(g_dd.std_out, 0);
	taken("if=a,b mode=read");
	ck_assert_int_eq(g_dd.o.nif, 2);
	ck_assert_int_eq(g_dd.o.nof, 0);
	taken("of=b mode=write count=1");
	ck_assert_int_eq(g_dd.o.mode, DD_MODE_WRITE);
	ck_assert_int_eq(g_dd.o.nif, 0);
	ck_assert_int_eq(g_dd.std_in, 0);
	/* the one standard stream cannot serve several */
	refused("if=a,b", "if= names 2 inputs and of= is missing: standard output takes one; "
	        "give mode=read");
	refused("of=a,b,c count=1", "of= names 3 outputs and if= is missing: standard input is "
	        "one input; give mode=write");
	refused("of=b mode=read", "mode=read needs if=");
	refused("if=a mode=write", "mode=write needs of=");
}
END_TEST

START_TEST(operands_dev_null)
{
	/* on a dd command line of=/dev/null is an output, written as dd does */
	taken("if=a of=/dev/null");
	ck_assert_int_eq(g_dd.o.mode, DD_MODE_COPY);
	ck_assert_int_eq(g_dd.o.nof, 1);
	ck_assert_str_eq(g_dd.o.ofs[0], "/dev/null");
	ck_assert_int_eq(g_dd.std_out, 0);
	/* with dio-dd's own operands (threads, several inputs) nowhere, with
	 * no standard output either */
	taken("if=a of=/dev/null thr=2");
	ck_assert_int_eq(g_dd.o.mode, DD_MODE_READ);
	ck_assert_int_eq(g_dd.o.nof, 0);
	ck_assert_int_eq(g_dd.std_out, 0);
	taken("if=a,b of=/dev/null");
	ck_assert_int_eq(g_dd.o.mode, DD_MODE_READ);
	ck_assert_int_eq(g_dd.o.nif, 2);
	ck_assert_int_eq(g_dd.std_out, 0);
	/* with mode=read it is nowhere: a read */
	taken("if=a of=/dev/null mode=read thr=2");
	ck_assert_int_eq(g_dd.o.mode, DD_MODE_READ);
	ck_assert_int_eq(g_dd.o.nof, 0);
	ck_assert_int_eq(g_dd.std_out, 0);
}
END_TEST

START_TEST(operands_flags)
{
	taken("if=a mode=read iflag=direct,dsync,sync,nocache,count_bytes,skip_bytes,fullblock");
	ck_assert_int_eq(g_dd.o.iflag.direct, 1);
	ck_assert_int_eq(g_dd.o.iflag.dsync, 1);
	ck_assert_int_eq(g_dd.o.iflag.sync, 1);
	ck_assert_int_eq(g_dd.o.iflag.nocache, 1);
	ck_assert_int_eq(g_dd.o.iflag.count_bytes, 1);
	ck_assert_int_eq(g_dd.o.iflag.skip_bytes, 1);
	ck_assert_int_eq(g_dd.o.iflag.fullblock, 1);
	taken("if=a of=b oflag=seek_bytes,append,nocache conv=fdatasync,fsync,notrunc,sync,noerror");
	ck_assert_int_eq(g_dd.o.oflag.seek_bytes, 1);
	ck_assert_int_eq(g_dd.o.oflag.append, 1);
	ck_assert_int_eq(g_dd.o.oflag.nocache, 1);
	ck_assert_int_eq(g_dd.o.conv.fdatasync, 1);
	ck_assert_int_eq(g_dd.o.conv.fsync, 1);
	ck_assert_int_eq(g_dd.o.conv.sync, 1);
	ck_assert_int_eq(g_dd.o.conv.noerror, 1);
	ck_assert_int_eq(g_dd.o.oflag.notrunc, 1);      /* conv=notrunc: as oflag=notrunc */
	taken("if=a of=b conv=excl");
	ck_assert_int_eq(g_dd.o.conv.excl, 1);
	taken("if=a of=b conv=nocreat");
	ck_assert_int_eq(g_dd.o.conv.nocreat, 1);
	refused_as("if=a of=b conv=excl,nocreat", 1, "cannot combine excl and nocreat");
	refused("if=a of=b conv=ucase", "conv=ucase: dd's conversion 'ucase' is not taken by dio-dd");
	refused("if=a of=b conv=bogus", "conv=bogus: unknown conversion 'bogus'");
	refused("if=a mode=read iflag=append", "iflag=append: 'append' is an output flag "
	        "(use oflag=append)");
	refused("if=a of=b oflag=fullblock", "oflag=fullblock: 'fullblock' is an input flag "
	        "(use iflag=fullblock)");
	refused("if=a of=b iflag=nonblock", "dd's flag 'nonblock' is not taken by dio-dd");
	refused("if=a mode=read conv=fsync", "conv= names an output conversion but there is no "
	        "output");
	taken("if=a of=b");
	ck_assert_int_eq(g_dd.o.status, DD_STATUS_DEFAULT);
	taken("if=a of=b status=none");
	ck_assert_int_eq(g_dd.o.status, DD_STATUS_NONE);
	taken("if=a of=b status=noxfer");
	ck_assert_int_eq(g_dd.o.status, DD_STATUS_NOXFER);
	taken("if=a of=b status=progress");
	ck_assert_int_eq(g_dd.o.status, DD_STATUS_PROGRESS);
	refused("if=a of=b status=all", "status='all': allowed none");
	refused("if=a of=b status=", "status='': allowed none");
}
END_TEST

/* iflag=/oflag=nocache and fadvise= where posix_fadvise() does nothing
 * (caps made by hand: illumos, the posix backend) are named for the
 * warning; where it acts, or with none given, nothing is. */
START_TEST(operands_cache_advice)
{
	char what[80];

	taken("if=a of=b oflag=nocache");
	ck_assert_int_eq(dd_cache_advice_void(&g_dd.o, DIO_CAP_DIRECTIO, what, sizeof(what)), 1);
	ck_assert_str_eq(what, "oflag=nocache");
	ck_assert_int_eq(dd_cache_advice_void(&g_dd.o, DIO_CAP_FADVISE | DIO_CAP_O_DIRECT, what,
	                                      sizeof(what)), 0);
	taken("if=a of=b iflag=nocache oflag=nocache fadvise=random");
	ck_assert_int_eq(dd_cache_advice_void(&g_dd.o, 0, what, sizeof(what)), 1);
	ck_assert_str_eq(what, "iflag=nocache, oflag=nocache, fadvise=random");
	taken("if=a mode=read fadvise=sequential");
	ck_assert_int_eq(dd_cache_advice_void(&g_dd.o, 0, what, sizeof(what)), 1);
	ck_assert_str_eq(what, "fadvise=sequential");
	taken("if=a of=b fadvise=none");
	ck_assert_int_eq(dd_cache_advice_void(&g_dd.o, 0, what, sizeof(what)), 0);
	taken("if=a of=b");
	ck_assert_int_eq(dd_cache_advice_void(&g_dd.o, 0, what, sizeof(what)), 0);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("dio-dd");
	TCase *p = tcase_create("pattern"), *a = tcase_create("alias");
	TCase *o = tcase_create("operands");
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
	tcase_add_test(o, operands_dd_numbers);
	tcase_add_test(o, operands_block_sizes);
	tcase_add_test(o, operands_defaults);
	tcase_add_test(o, operands_dev_null);
	tcase_add_test(o, operands_flags);
	tcase_add_test(o, operands_cache_advice);
	suite_add_tcase(s, p);
	suite_add_tcase(s, a);
	suite_add_tcase(s, o);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
