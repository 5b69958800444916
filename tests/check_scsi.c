/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_scsi.c -- SCSI pass-through without a SCSI device: CDB bytes
 * against the SPC-4/SBC-3 layouts, sense decoding of both formats from
 * byte strings real targets send, the response parsers, misuse of the
 * command object, and exec against descriptors that are not SCSI devices
 * (which must fail cleanly with a -errno).  Real devices are exercised by
 * tests/qemu/guest-scsi.sh inside a guest.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libdirectio.h"
#include "tests/suites.h"
#include "tests/testutil.h"

#define ASSERT_BYTES(got, len, ...) do { \
	static const uint8_t want_[] = { __VA_ARGS__ }; \
	ck_assert_int_eq((int)(len), (int)sizeof(want_)); \
	assert_bytes_eq((got), want_, sizeof(want_)); \
} while (0)

static void
assert_bytes_eq(const uint8_t *got, const uint8_t *want, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		ck_assert_msg(got[i] == want[i], "byte %zu: got 0x%02x, want 0x%02x",
		              i, got[i], want[i]);
}

static int
is_backend(const char *name)
{
	return strcmp(dio_backend_name(), name) == 0;
}

/* ------------------------------------------------------------ CDBs */

START_TEST(test_cdb_tur_inquiry_capacity)
{
	uint8_t c[16];
	int n;

	memset(c, 0xee, sizeof(c));
	n = dio_cdb_test_unit_ready(c);
	ASSERT_BYTES(c, n, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00);

	n = dio_cdb_inquiry(c, 0, 0, 96);
	ASSERT_BYTES(c, n, 0x12, 0x00, 0x00, 0x00, 0x60, 0x00);
	n = dio_cdb_inquiry(c, 1, 0x80, 0x1fc);        /* unit serial number VPD */
	ASSERT_BYTES(c, n, 0x12, 0x01, 0x80, 0x01, 0xfc, 0x00);
	ck_assert_int_eq(dio_cdb_inquiry(c, 0, 0x80, 96), -EINVAL); /* page without EVPD */
	ck_assert_int_eq(dio_cdb_inquiry(c, 1, 0x100, 96), -EINVAL);
	ck_assert_int_eq(dio_cdb_inquiry(c, 1, -1, 96), -EINVAL);

	memset(c, 0xee, sizeof(c));
	n = dio_cdb_read_capacity10(c);
	ASSERT_BYTES(c, n, 0x25, 0, 0, 0, 0, 0, 0, 0, 0, 0);
	memset(c, 0xee, sizeof(c));
	n = dio_cdb_read_capacity16(c, 32);
	ASSERT_BYTES(c, n, 0x9e, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x00, 0x00, 0x20, 0, 0);
	n = dio_cdb_read_capacity16(c, 0x01020304);
	ASSERT_BYTES(c, n, 0x9e, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0x02, 0x03, 0x04, 0, 0);

	ck_assert_int_eq(dio_cdb_test_unit_ready(NULL), -EINVAL);
	ck_assert_int_eq(dio_cdb_inquiry(NULL, 0, 0, 36), -EINVAL);
	ck_assert_int_eq(dio_cdb_read_capacity10(NULL), -EINVAL);
	ck_assert_int_eq(dio_cdb_read_capacity16(NULL, 32), -EINVAL);
}
END_TEST

START_TEST(test_cdb_buffer)
{
	uint8_t c[16];
	int n;

	memset(c, 0xee, sizeof(c));
	n = dio_cdb_read_buffer(c, DIO_BUF_MODE_DESCRIPTOR, 0, 0, 4);
	ASSERT_BYTES(c, n, 0x3c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00);
	n = dio_cdb_read_buffer(c, DIO_BUF_MODE_DATA, 0x7a, 0x123456, 0x040000);
	ASSERT_BYTES(c, n, 0x3c, 0x02, 0x7a, 0x12, 0x34, 0x56, 0x04, 0x00, 0x00, 0x00);
	n = dio_cdb_read_buffer(c, DIO_BUF_MODE_ECHO_DESCRIPTOR, 0, 0, 4);
	ASSERT_BYTES(c, n, 0x3c, 0x0b, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00);
	n = dio_cdb_read_buffer(c, DIO_BUF_MODE_DATA, 0, 0xffffff, 0xffffff);
	ASSERT_BYTES(c, n, 0x3c, 0x02, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00);
	ck_assert_int_eq(dio_cdb_read_buffer(c, DIO_BUF_MODE_DATA, 0, 0, 0x1000000), -EINVAL);
	ck_assert_int_eq(dio_cdb_read_buffer(c, DIO_BUF_MODE_DATA, 0, 0x1000000, 0), -EINVAL);
	ck_assert_int_eq(dio_cdb_read_buffer(c, 0x20, 0, 0, 4), -EINVAL);
	ck_assert_int_eq(dio_cdb_read_buffer(c, DIO_BUF_MODE_DATA, 256, 0, 4), -EINVAL);
	ck_assert_int_eq(dio_cdb_read_buffer(c, DIO_BUF_MODE_DATA, -1, 0, 4), -EINVAL);
	ck_assert_int_eq(dio_cdb_read_buffer(NULL, DIO_BUF_MODE_DATA, 0, 0, 4), -EINVAL);

	n = dio_cdb_write_buffer(c, DIO_BUF_MODE_ECHO, 0, 0, 0x1000);
	ASSERT_BYTES(c, n, 0x3b, 0x0a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00);
	n = dio_cdb_write_buffer(c, DIO_BUF_MODE_DATA, 1, 0x200, 0x200);
	ASSERT_BYTES(c, n, 0x3b, 0x02, 0x01, 0x00, 0x02, 0x00, 0x00, 0x02, 0x00, 0x00);
	/* Microcode download modes (04h..07h, 0Dh, 0Eh, 0Fh) are never built. */
	memset(c, 0xee, sizeof(c));
	ck_assert_int_eq(dio_cdb_write_buffer(c, 0x05, 0, 0, 512), -EINVAL);
	ck_assert_int_eq(dio_cdb_write_buffer(c, 0x07, 0, 0, 512), -EINVAL);
	ck_assert_int_eq(dio_cdb_write_buffer(c, 0x0e, 0, 0, 512), -EINVAL);
	ck_assert_int_eq(dio_cdb_write_buffer(c, DIO_BUF_MODE_DESCRIPTOR, 0, 0, 4), -EINVAL);
	ck_assert_int_eq(c[0], 0xee);   /* nothing written on failure */
}
END_TEST

START_TEST(test_cdb_rw_sync)
{
	uint8_t c[16];
	int n;

	n = dio_cdb_rw10(c, 0, 0x12345678, 0x100, 0);
	ASSERT_BYTES(c, n, 0x28, 0x00, 0x12, 0x34, 0x56, 0x78, 0x00, 0x01, 0x00, 0x00);
	n = dio_cdb_rw10(c, 1, 7, 0xffff, 1);
	ASSERT_BYTES(c, n, 0x2a, 0x08, 0x00, 0x00, 0x00, 0x07, 0x00, 0xff, 0xff, 0x00);
	ck_assert_int_eq(dio_cdb_rw10(c, 0, 0, 0x10000, 0), -EINVAL);

	n = dio_cdb_rw16(c, 0, 0x0102030405060708ull, 0x0a0b0c0d, 0);
	ASSERT_BYTES(c, n, 0x88, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	             0x0a, 0x0b, 0x0c, 0x0d, 0x00, 0x00);
	n = dio_cdb_rw16(c, 1, 0xffffffffffffffffull, 1, 1);
	ASSERT_BYTES(c, n, 0x8a, 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	             0x00, 0x00, 0x00, 0x01, 0x00, 0x00);

	n = dio_cdb_sync_cache10(c, 0, 0, 0);
	ASSERT_BYTES(c, n, 0x35, 0x00, 0, 0, 0, 0, 0x00, 0x00, 0x00, 0x00);
	n = dio_cdb_sync_cache10(c, 0x00abcdef, 0x20, 1);
	ASSERT_BYTES(c, n, 0x35, 0x02, 0x00, 0xab, 0xcd, 0xef, 0x00, 0x00, 0x20, 0x00);
	ck_assert_int_eq(dio_cdb_sync_cache10(c, 0, 0x10000, 0), -EINVAL);
	n = dio_cdb_sync_cache16(c, 0x100000000ull, 0x10000, 1);
	ASSERT_BYTES(c, n, 0x91, 0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
	             0x00, 0x01, 0x00, 0x00, 0x00, 0x00);

	ck_assert_int_eq(dio_cdb_rw10(NULL, 0, 0, 1, 0), -EINVAL);
	ck_assert_int_eq(dio_cdb_rw16(NULL, 0, 0, 1, 0), -EINVAL);
	ck_assert_int_eq(dio_cdb_sync_cache10(NULL, 0, 0, 0), -EINVAL);
	ck_assert_int_eq(dio_cdb_sync_cache16(NULL, 0, 0, 0), -EINVAL);
}
END_TEST

START_TEST(test_cdb_mode_sense)
{
	uint8_t c[16];
	int n;

	/* Caching page, current values, no block descriptors. */
	n = dio_cdb_mode_sense10(c, 0x08, 0, 0, 1, 0xfc);
	ASSERT_BYTES(c, n, 0x5a, 0x08, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0xfc, 0x00);
	/* All pages and subpages, default values. */
	n = dio_cdb_mode_sense10(c, 0x3f, 0xff, 2, 0, 0x1000);
	ASSERT_BYTES(c, n, 0x5a, 0x00, 0xbf, 0xff, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00);
	/* Changeable values (pc 1) of the control page. */
	n = dio_cdb_mode_sense10(c, 0x0a, 0, 1, 0, 24);
	ASSERT_BYTES(c, n, 0x5a, 0x00, 0x4a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x18, 0x00);
	ck_assert_int_eq(dio_cdb_mode_sense10(c, 0x40, 0, 0, 0, 8), -EINVAL);
	ck_assert_int_eq(dio_cdb_mode_sense10(c, 8, 0x100, 0, 0, 8), -EINVAL);
	ck_assert_int_eq(dio_cdb_mode_sense10(c, 8, 0, 4, 0, 8), -EINVAL);
	ck_assert_int_eq(dio_cdb_mode_sense10(c, 8, 0, -1, 0, 8), -EINVAL);
	ck_assert_int_eq(dio_cdb_mode_sense10(NULL, 8, 0, 0, 0, 8), -EINVAL);
}
END_TEST

/* ------------------------------------------------------------ sense */

/* What QEMU's scsi-disk and the Linux scsi_debug driver (dsense=0) send
 * for an opcode they do not implement, e.g. READ BUFFER. */
static const uint8_t sense_invalid_opcode[] = {
	0x70, 0x00, 0x05, 0x00, 0x00, 0x00, 0x00, 0x0a,
	0x00, 0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00, 0x00, 0x00
};

START_TEST(test_sense_fixed_basic)
{
	struct dio_sense s;
	char buf[256];

	ck_assert_int_eq(dio_sense_decode(sense_invalid_opcode,
	                                  sizeof(sense_invalid_opcode), &s), 0);
	ck_assert_int_eq(s.response_code, 0x70);
	ck_assert_int_eq(s.descriptor, 0);
	ck_assert_int_eq(s.deferred, 0);
	ck_assert_int_eq(s.key, DIO_SENSE_ILLEGAL_REQUEST);
	ck_assert_int_eq(s.asc, 0x20);
	ck_assert_int_eq(s.ascq, 0x00);
	ck_assert_int_eq(s.info_valid, 0);
	ck_assert_int_eq(s.sks_valid, 0);
	ck_assert_int_eq(s.cmd_info_valid, 1);
	ck_assert_str_eq(dio_sense_str(&s, buf, sizeof(buf)),
	                 "ILLEGAL REQUEST: invalid command operation code (asc 0x20 ascq 0x00)");
}
END_TEST

START_TEST(test_sense_fixed_fields)
{
	/* Unrecovered read error at LBA 0x123456, VALID set, FRU 3, retry
	 * count 5 in the sense-key specific bytes. */
	static const uint8_t medium[] = {
		0xf0, 0x00, 0x03, 0x00, 0x12, 0x34, 0x56, 0x0a,
		0x00, 0x00, 0x00, 0x00, 0x11, 0x00, 0x03, 0x80, 0x00, 0x05
	};
	/* Invalid field in CDB byte 1, bit 4 (SKSV, C/D, BPV). */
	static const uint8_t field[] = {
		0x70, 0x00, 0x05, 0x00, 0x00, 0x00, 0x00, 0x0a,
		0x00, 0x00, 0x00, 0x00, 0x24, 0x00, 0x00, 0xcc, 0x00, 0x01
	};
	/* Becoming ready, progress 0x8000/65536 = 50%. */
	static const uint8_t progress[] = {
		0x70, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x0a,
		0x00, 0x00, 0x00, 0x00, 0x04, 0x01, 0x00, 0x80, 0x80, 0x00
	};
	/* Deferred write error; tape style flags: filemark, EOM, ILI. */
	static const uint8_t deferred[] = {
		0x71, 0x00, 0xe3, 0x00, 0x00, 0x00, 0x00, 0x0a,
		0xde, 0xad, 0xbe, 0xef, 0x0c, 0x00, 0x00, 0x00, 0x00, 0x00
	};
	struct dio_sense s;
	char buf[256];

	ck_assert_int_eq(dio_sense_decode(medium, sizeof(medium), &s), 0);
	ck_assert_int_eq(s.key, DIO_SENSE_MEDIUM_ERROR);
	ck_assert_int_eq(s.info_valid, 1);
	ck_assert_uint_eq(s.info, 0x123456);
	ck_assert_int_eq(s.fru, 3);
	ck_assert_int_eq(s.sks_valid, 1);
	ck_assert_str_eq(dio_sense_str(&s, buf, sizeof(buf)),
	                 "MEDIUM ERROR: unrecovered read error (asc 0x11 ascq 0x00); "
	                 "information 0x123456; actual retry count 5; FRU 0x03");

	ck_assert_int_eq(dio_sense_decode(field, sizeof(field), &s), 0);
	ck_assert_int_eq(s.sks_valid, 1);
	ck_assert_int_eq(s.sks[0], 0xcc);
	ck_assert_int_eq(s.sks[2], 0x01);
	ck_assert_str_eq(dio_sense_str(&s, buf, sizeof(buf)),
	                 "ILLEGAL REQUEST: invalid field in CDB (asc 0x24 ascq 0x00); "
	                 "field pointer: CDB byte 1 bit 4");

	ck_assert_int_eq(dio_sense_decode(progress, sizeof(progress), &s), 0);
	ck_assert_str_eq(dio_sense_str(&s, buf, sizeof(buf)),
	                 "NOT READY: logical unit is in process of becoming ready "
	                 "(asc 0x04 ascq 0x01); progress 50.0%");

	ck_assert_int_eq(dio_sense_decode(deferred, sizeof(deferred), &s), 0);
	ck_assert_int_eq(s.deferred, 1);
	ck_assert_int_eq(s.filemark, 1);
	ck_assert_int_eq(s.eom, 1);
	ck_assert_int_eq(s.ili, 1);
	ck_assert_uint_eq(s.cmd_info, 0xdeadbeef);
	ck_assert_str_eq(dio_sense_str(&s, buf, sizeof(buf)),
	                 "deferred error: MEDIUM ERROR: write error (asc 0x0c ascq 0x00); "
	                 "command-specific 0xdeadbeef; filemark; end of medium; "
	                 "incorrect length");
}
END_TEST

START_TEST(test_sense_fixed_short)
{
	/* Old targets send 8 bytes (no ASC); the additional length limits
	 * what is believed even when the buffer is longer. */
	static const uint8_t eight[] = { 0x70, 0x00, 0x06, 0x00, 0x00, 0x00, 0x00, 0x00 };
	static const uint8_t cut[] = {
		0x70, 0x00, 0x06, 0x00, 0x00, 0x00, 0x00, 0x04,
		0x00, 0x00, 0x00, 0x00, 0x29, 0x00, 0x00, 0x00, 0x00, 0x00
	};
	struct dio_sense s;

	ck_assert_int_eq(dio_sense_decode(eight, sizeof(eight), &s), 0);
	ck_assert_int_eq(s.key, DIO_SENSE_UNIT_ATTENTION);
	ck_assert_int_eq(s.asc, 0);
	ck_assert_int_eq(s.cmd_info_valid, 0);
	ck_assert_int_eq(dio_sense_decode(cut, sizeof(cut), &s), 0);
	ck_assert_int_eq(s.key, DIO_SENSE_UNIT_ATTENTION);
	ck_assert_int_eq(s.asc, 0);     /* byte 12 is beyond 8 + 4 */
	ck_assert_int_eq(dio_sense_decode(eight, 2, &s), -EINVAL);
	ck_assert_int_eq(dio_sense_decode(eight, 3, &s), 0);
	ck_assert_int_eq(s.key, DIO_SENSE_UNIT_ATTENTION);
}
END_TEST

START_TEST(test_sense_descriptor)
{
	/* scsi_debug with dsense=1: invalid opcode, no descriptors. */
	static const uint8_t bare[] = { 0x72, 0x05, 0x20, 0x00, 0x00, 0x00, 0x00, 0x00 };
	/* Medium error: information descriptor (LBA 0x1_0000_0000) and a
	 * sense-key specific descriptor with retry count 2. */
	static const uint8_t medium[] = {
		0x72, 0x03, 0x11, 0x00, 0x00, 0x00, 0x00, 0x14,
		0x00, 0x0a, 0x80, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
		0x02, 0x06, 0x00, 0x00, 0x80, 0x00, 0x02, 0x00
	};
	/* libata ATA PASS-THROUGH result: ATA status return descriptor (09h,
	 * skipped) and ASC/ASCQ 00h/1Dh. */
	static const uint8_t ata[] = {
		0x72, 0x01, 0x00, 0x1d, 0x00, 0x00, 0x00, 0x0e,
		0x09, 0x0c, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x40, 0x50
	};
	/* Tape: stream commands descriptor with FILEMARK, deferred (73h),
	 * plus a command-specific descriptor. */
	static const uint8_t stream[] = {
		0x73, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x10,
		0x04, 0x02, 0x00, 0x80,
		0x01, 0x0a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x2a
	};
	/* The last descriptor is cut short by the buffer: ignored. */
	static const uint8_t cut[] = {
		0x72, 0x05, 0x24, 0x00, 0x00, 0x00, 0x00, 0x14,
		0x02, 0x06, 0x00, 0x00, 0xc0, 0x00, 0x02, 0x00,
		0x00, 0x0a, 0x80, 0x00, 0x00
	};
	struct dio_sense s;
	char buf[256];

	ck_assert_int_eq(dio_sense_decode(bare, sizeof(bare), &s), 0);
	ck_assert_int_eq(s.descriptor, 1);
	ck_assert_int_eq(s.key, DIO_SENSE_ILLEGAL_REQUEST);
	ck_assert_int_eq(s.asc, 0x20);
	ck_assert_str_eq(dio_sense_str(&s, buf, sizeof(buf)),
	                 "ILLEGAL REQUEST: invalid command operation code (asc 0x20 ascq 0x00)");

	ck_assert_int_eq(dio_sense_decode(medium, sizeof(medium), &s), 0);
	ck_assert_int_eq(s.info_valid, 1);
	ck_assert_uint_eq(s.info, 0x100000000ull);
	ck_assert_int_eq(s.sks_valid, 1);
	ck_assert_str_eq(dio_sense_str(&s, buf, sizeof(buf)),
	                 "MEDIUM ERROR: unrecovered read error (asc 0x11 ascq 0x00); "
	                 "information 0x100000000; actual retry count 2");

	ck_assert_int_eq(dio_sense_decode(ata, sizeof(ata), &s), 0);
	ck_assert_int_eq(s.key, DIO_SENSE_RECOVERED_ERROR);
	ck_assert_int_eq(s.info_valid, 0);
	ck_assert_int_eq(s.sks_valid, 0);
	ck_assert_str_eq(dio_sense_asc_text(s.asc, s.ascq),
	                 "ATA pass through information available");

	ck_assert_int_eq(dio_sense_decode(stream, sizeof(stream), &s), 0);
	ck_assert_int_eq(s.deferred, 1);
	ck_assert_int_eq(s.filemark, 1);
	ck_assert_int_eq(s.eom, 0);
	ck_assert_int_eq(s.cmd_info_valid, 1);
	ck_assert_uint_eq(s.cmd_info, 0x2a);
	ck_assert_str_eq(dio_sense_str(&s, buf, sizeof(buf)),
	                 "deferred error: NO SENSE: filemark detected (asc 0x00 ascq 0x01); "
	                 "command-specific 0x2a; filemark");

	ck_assert_int_eq(dio_sense_decode(cut, sizeof(cut), &s), 0);
	ck_assert_int_eq(s.sks_valid, 1);
	ck_assert_int_eq(s.info_valid, 0);
	ck_assert_str_eq(dio_sense_str(&s, buf, sizeof(buf)),
	                 "ILLEGAL REQUEST: invalid field in CDB (asc 0x24 ascq 0x00); "
	                 "field pointer: CDB byte 2");
}
END_TEST

START_TEST(test_sense_invalid)
{
	static const uint8_t zero[18] = { 0 };
	static const uint8_t vendor[] = { 0x7f, 0x00, 0x05, 0x00 };
	static const uint8_t desc3[] = { 0x72, 0x05, 0x20 };
	struct dio_sense s;

	ck_assert_int_eq(dio_sense_decode(zero, sizeof(zero), &s), -EINVAL);
	ck_assert_int_eq(dio_sense_decode(vendor, sizeof(vendor), &s), -EINVAL);
	ck_assert_int_eq(dio_sense_decode(desc3, sizeof(desc3), &s), -EINVAL);
	ck_assert_int_eq(dio_sense_decode(NULL, 18, &s), -EINVAL);
	ck_assert_int_eq(dio_sense_decode(sense_invalid_opcode, 1, &s), -EINVAL);
	ck_assert_int_eq(dio_sense_decode(sense_invalid_opcode, 18, NULL), -EINVAL);
}
END_TEST

START_TEST(test_sense_names)
{
	static const struct { int asc, ascq; const char *text; } common[] = {
		{ 0x20, 0x00, "invalid command operation code" },
		{ 0x24, 0x00, "invalid field in CDB" },
		{ 0x21, 0x00, "logical block address out of range" },
		{ 0x3a, 0x00, "medium not present" },
		{ 0x04, 0x01, "logical unit is in process of becoming ready" },
		{ 0x28, 0x00, "not ready to ready change, medium may have changed" },
		{ 0x29, 0x00, "power on, reset, or bus device reset occurred" },
		{ 0x27, 0x00, "write protected" },
		{ 0x11, 0x00, "unrecovered read error" },
		{ 0x1a, 0x00, "parameter list length error" },
		{ 0x26, 0x00, "invalid field in parameter list" },
		{ 0x2a, 0x01, "mode parameters changed" },
		{ 0x25, 0x00, "logical unit not supported" },
		{ 0x5d, 0x00, "failure prediction threshold exceeded" },
	};
	struct dio_sense s;
	char buf[128], small[12];
	size_t i;

	for (i = 0; i < sizeof(common) / sizeof(common[0]); i++)
		ck_assert_str_eq(dio_sense_asc_text(common[i].asc, common[i].ascq),
		                 common[i].text);
	ck_assert_ptr_null(dio_sense_asc_text(0x20, 0x99));
	ck_assert_ptr_null(dio_sense_asc_text(0x99, 0x00));
	ck_assert_ptr_null(dio_sense_asc_text(-1, 0));

	ck_assert_str_eq(dio_sense_key_name(0), "NO SENSE");
	ck_assert_str_eq(dio_sense_key_name(5), "ILLEGAL REQUEST");
	ck_assert_str_eq(dio_sense_key_name(6), "UNIT ATTENTION");
	ck_assert_str_eq(dio_sense_key_name(0xb), "ABORTED COMMAND");
	ck_assert_str_eq(dio_sense_key_name(0xf), "COMPLETED");
	ck_assert_str_eq(dio_sense_key_name(16), "invalid");
	ck_assert_str_eq(dio_sense_key_name(-1), "invalid");

	/* Unknown and vendor-specific codes are spelled out. */
	memset(&s, 0, sizeof(s));
	s.response_code = 0x70;
	s.key = DIO_SENSE_HARDWARE_ERROR;
	s.asc = 0x44;
	s.ascq = 0x99;
	ck_assert_str_eq(dio_sense_str(&s, buf, sizeof(buf)),
	                 "HARDWARE ERROR: vendor specific asc 0x44 ascq 0x99");
	s.ascq = 0x42;
	ck_assert_str_eq(dio_sense_str(&s, buf, sizeof(buf)),
	                 "HARDWARE ERROR: asc 0x44 ascq 0x42");
	/* Truncation stays terminated. */
	ck_assert_str_eq(dio_sense_str(&s, small, sizeof(small)), "HARDWARE ER");
	ck_assert_ptr_eq(dio_sense_str(NULL, buf, sizeof(buf)), buf);
	ck_assert_str_eq(buf, "");
}
END_TEST

/* ------------------------------------------------------------ parsers */

START_TEST(test_parse_inquiry)
{
	static const uint8_t qemu[36] = {
		0x00, 0x00, 0x05, 0x02, 0x1f, 0x00, 0x00, 0x12,
		'Q', 'E', 'M', 'U', ' ', ' ', ' ', ' ',
		'Q', 'E', 'M', 'U', ' ', 'H', 'A', 'R', 'D', 'D', 'I', 'S', 'K', ' ', ' ', ' ',
		'2', '.', '5', '+'
	};
	/* No LUN here (qualifier 3, type 1Fh), removable, odd bytes. */
	static const uint8_t nolun[20] = {
		0x7f, 0x80, 0x06, 0x02, 0x1f, 0x00, 0x00, 0x00,
		'L', 'i', 'n', 'u', 'x', 0x01, ' ', ' ',
		's', 'c', 's', 'i'
	};
	struct dio_inquiry q;

	ck_assert_int_eq(dio_parse_inquiry(qemu, sizeof(qemu), &q), 0);
	ck_assert_int_eq(q.peripheral_type, 0);
	ck_assert_int_eq(q.qualifier, 0);
	ck_assert_int_eq(q.removable, 0);
	ck_assert_int_eq(q.version, 5);
	ck_assert_str_eq(q.vendor, "QEMU");
	ck_assert_str_eq(q.product, "QEMU HARDDISK");
	ck_assert_str_eq(q.revision, "2.5+");

	ck_assert_int_eq(dio_parse_inquiry(nolun, sizeof(nolun), &q), 0);
	ck_assert_int_eq(q.qualifier, 3);
	ck_assert_int_eq(q.peripheral_type, 0x1f);
	ck_assert_int_eq(q.removable, 1);
	ck_assert_str_eq(q.vendor, "Linux?");
	ck_assert_str_eq(q.product, "scsi");
	ck_assert_str_eq(q.revision, "");

	/* The device's additional length (byte 4) bounds what is read. */
	{
		uint8_t shortlen[36];

		memcpy(shortlen, qemu, sizeof(shortlen));
		shortlen[4] = 15;       /* 20 bytes valid */
		ck_assert_int_eq(dio_parse_inquiry(shortlen, sizeof(shortlen), &q), 0);
		ck_assert_str_eq(q.product, "QEMU");
		ck_assert_str_eq(q.revision, "");
	}
	ck_assert_int_eq(dio_parse_inquiry(qemu, 7, &q), -EINVAL);
	ck_assert_int_eq(dio_parse_inquiry(NULL, 36, &q), -EINVAL);
	ck_assert_int_eq(dio_parse_inquiry(qemu, 36, NULL), -EINVAL);
}
END_TEST

START_TEST(test_parse_capacity)
{
	static const uint8_t rc10[8] = { 0x00, 0x00, 0xff, 0xff, 0x00, 0x00, 0x02, 0x00 };
	static const uint8_t rc10_big[8] = { 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x10, 0x00 };
	static const uint8_t rc16[32] = {
		0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x10, 0x00, 0x00, 0x03, 0x00, 0x00
	};
	uint64_t blocks = 0;
	uint32_t bl = 0;

	ck_assert_int_eq(dio_parse_read_capacity(rc10, 8, 0, &blocks, &bl), 0);
	ck_assert_uint_eq(blocks, 0x10000);
	ck_assert_uint_eq(bl, 512);
	ck_assert_int_eq(dio_parse_read_capacity(rc10_big, 8, 0, &blocks, &bl), -EOVERFLOW);
	ck_assert_uint_eq(blocks, 0x100000000ull);
	ck_assert_uint_eq(bl, 4096);
	ck_assert_int_eq(dio_parse_read_capacity(rc16, 32, 1, &blocks, &bl), 0);
	ck_assert_uint_eq(blocks, 0x100000001ull);
	ck_assert_uint_eq(bl, 4096);
	ck_assert_int_eq(dio_parse_read_capacity(rc16, 12, 1, NULL, &bl), 0);
	ck_assert_int_eq(dio_parse_read_capacity(rc16, 11, 1, &blocks, &bl), -EINVAL);
	ck_assert_int_eq(dio_parse_read_capacity(rc10, 7, 0, &blocks, &bl), -EINVAL);
	ck_assert_int_eq(dio_parse_read_capacity(NULL, 8, 0, &blocks, &bl), -EINVAL);
}
END_TEST

START_TEST(test_parse_buffer_descriptor)
{
	static const uint8_t d256k[4] = { 0x00, 0x04, 0x00, 0x00 };
	static const uint8_t dff[4] = { 0xff, 0x00, 0x10, 0x00 };
	unsigned ob = 99;
	uint32_t cap = 0;

	ck_assert_int_eq(dio_parse_buffer_descriptor(d256k, 4, &ob, &cap), 0);
	ck_assert_uint_eq(ob, 0);
	ck_assert_uint_eq(cap, 256 * 1024);
	ck_assert_int_eq(dio_parse_buffer_descriptor(dff, 4, &ob, &cap), 0);
	ck_assert_uint_eq(ob, 0xff);
	ck_assert_uint_eq(cap, 4096);
	ck_assert_int_eq(dio_parse_buffer_descriptor(dff, 3, &ob, &cap), -EINVAL);
	ck_assert_int_eq(dio_parse_buffer_descriptor(NULL, 4, &ob, &cap), -EINVAL);
}
END_TEST

START_TEST(test_parse_caching)
{
	/* Header, one 8-byte block descriptor, caching page with WCE. */
	static const uint8_t with_bd[36] = {
		0x00, 0x22, 0x00, 0x00, 0x00, 0x00, 0x00, 0x08,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00,
		0x08, 0x12, 0x04, 0x00, 0xff, 0xff, 0x00, 0x00, 0xff, 0xff,
		0xff, 0xff, 0x80, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00
	};
	/* No block descriptor: read-write error recovery page, a control
	 * extension sub-page (SPF), then caching with RCD only. */
	static const uint8_t pages[] = {
		0x00, 0x2c, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x01, 0x0a, 0x80, 0x00, 0, 0, 0, 0, 0, 0, 0, 0,
		0x4a, 0x01, 0x00, 0x04, 0, 0, 0, 0,
		0x08, 0x12, 0x01, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
	};
	static const uint8_t no_caching[] = {
		0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x01, 0x0a, 0x80, 0x00, 0, 0, 0, 0, 0, 0, 0, 0
	};
	/* The caching page header is there but its byte 2 is cut off. */
	static const uint8_t cut[] = {
		0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x08, 0x12
	};
	int wce = -1, rcd = -1;

	ck_assert_int_eq(dio_parse_caching_page(with_bd, sizeof(with_bd), &wce, &rcd), 0);
	ck_assert_int_eq(wce, 1);
	ck_assert_int_eq(rcd, 0);
	ck_assert_int_eq(dio_parse_caching_page(pages, sizeof(pages), &wce, &rcd), 0);
	ck_assert_int_eq(wce, 0);
	ck_assert_int_eq(rcd, 1);
	ck_assert_int_eq(dio_parse_caching_page(no_caching, sizeof(no_caching), &wce, &rcd),
	                 -ENOENT);
	ck_assert_int_eq(dio_parse_caching_page(cut, sizeof(cut), &wce, &rcd), -EINVAL);
	ck_assert_int_eq(dio_parse_caching_page(with_bd, 7, &wce, &rcd), -EINVAL);
	/* Mode data length shorter than the header is malformed. */
	{
		uint8_t bad[16] = { 0x00, 0x02 };

		ck_assert_int_eq(dio_parse_caching_page(bad, sizeof(bad), &wce, &rcd), -EINVAL);
	}
	/* Data cut by the allocation length before the page: not there. */
	ck_assert_int_eq(dio_parse_caching_page(with_bd, 16, &wce, &rcd), -ENOENT);
}
END_TEST

/* ------------------------------------------------------ command object */

static void
assert_detail(const dio_scsi *c, int err, const char *needle)
{
	char d[256];

	ck_assert_int_eq(dio_scsi_errdetail(c, d, sizeof(d)), err);
	ck_assert_msg(strstr(d, needle) != NULL, "detail '%s' lacks '%s'", d, needle);
}

START_TEST(test_obj_fresh)
{
	dio_scsi *c = dio_scsi_new();
	size_t n = 99;
	char d[8] = "x";

	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(dio_scsi_category(c), -EINVAL);
	ck_assert_int_eq(dio_scsi_status(c), -EINVAL);
	ck_assert_int_eq(dio_scsi_xfer_done(c), -EINVAL);
	ck_assert_int_eq(dio_scsi_duration_source(c), -EINVAL);
	ck_assert_ptr_null(dio_scsi_sense(c, &n));
	ck_assert_uint_eq(n, 0);
	ck_assert_uint_eq(dio_scsi_duration_ns(c), 0);
	ck_assert_int_eq(dio_scsi_resid(c), 0);
	ck_assert_int_eq(dio_scsi_errdetail(c, d, sizeof(d)), 0);
	ck_assert_str_eq(d, "");
	dio_scsi_free(c);

	/* NULL objects are refused, never dereferenced. */
	dio_scsi_free(NULL);
	dio_scsi_clear(NULL);
	ck_assert_int_eq(dio_scsi_exec(NULL, 0), -EINVAL);
	ck_assert_int_eq(dio_scsi_set_cdb(NULL, (const uint8_t *)"\0\0\0\0\0\0", 6), -EINVAL);
	ck_assert_int_eq(dio_scsi_set_data(NULL, 0, NULL, 0), -EINVAL);
	ck_assert_int_eq(dio_scsi_set_timeout(NULL, 1), -EINVAL);
	ck_assert_int_eq(dio_scsi_set_xfer(NULL, 0), -EINVAL);
	ck_assert_int_eq(dio_scsi_category(NULL), -EINVAL);
	ck_assert_int_eq(dio_scsi_errdetail(NULL, d, sizeof(d)), -EINVAL);
}
END_TEST

START_TEST(test_obj_misuse)
{
	dio_scsi *c = dio_scsi_new();
	uint8_t cdb[16] = { 0 };
	uint8_t data[512];
	int fd = open("/dev/null", O_RDWR);

	ck_assert_int_ge(fd, 0);
	/* No CDB at all. */
	ck_assert_int_eq(dio_scsi_exec(c, fd), -EINVAL);
	assert_detail(c, -EINVAL, "no CDB");

	/* Bad CDB lengths are refused by the setter and again by exec. */
	ck_assert_int_eq(dio_scsi_set_cdb(c, cdb, 5), -EINVAL);
	assert_detail(c, -EINVAL, "length 5");
	ck_assert_int_eq(dio_scsi_exec(c, fd), -EINVAL);
	assert_detail(c, -EINVAL, "length 5 (opcode 0x00) is not 6 to 16 bytes");
	ck_assert_int_eq(dio_scsi_set_cdb(c, cdb, 17), -EINVAL);
	ck_assert_int_eq(dio_scsi_set_cdb(c, cdb, 0), -EINVAL);
	assert_detail(c, -EINVAL, "length 0 is not 6 to 16 bytes");
	ck_assert_int_eq(dio_scsi_set_cdb(c, NULL, 6), -EINVAL);
	ck_assert_int_eq(dio_scsi_exec(c, fd), -EINVAL);
	assert_detail(c, -EINVAL, "CDB is NULL");
	/* A good CDB clears that slot. */
	ck_assert_int_eq(dio_scsi_set_cdb(c, cdb, 6), 0);

	/* Data: unknown direction, NONE with a length. */
	ck_assert_int_eq(dio_scsi_set_data(c, 7, data, sizeof(data)), -EINVAL);
	ck_assert_int_eq(dio_scsi_exec(c, fd), -EINVAL);
	assert_detail(c, -EINVAL, "direction 7");
	ck_assert_int_eq(dio_scsi_set_data(c, DIO_SCSI_DIR_NONE, data, 4), -EINVAL);
	ck_assert_int_eq(dio_scsi_exec(c, fd), -EINVAL);
	assert_detail(c, -EINVAL, "4 bytes with direction NONE");
	/* A NULL buffer only fits no-copy and mmap transfers. */
	ck_assert_int_eq(dio_scsi_set_data(c, DIO_SCSI_DIR_IN, NULL, 512), 0);
	ck_assert_int_eq(dio_scsi_exec(c, fd), -EINVAL);
	assert_detail(c, -EINVAL, "indirect transfer of 512 bytes with a NULL buffer");

	/* Transfer modes: unknown, or AUTO (an outcome only). */
	ck_assert_int_eq(dio_scsi_set_data(c, DIO_SCSI_DIR_IN, data, sizeof(data)), 0);
	ck_assert_int_eq(dio_scsi_set_xfer(c, 42), -EINVAL);
	ck_assert_int_eq(dio_scsi_set_xfer(c, DIO_SCSI_XFER_AUTO), -EINVAL);
	assert_detail(c, -EINVAL, "outcome");
	/* Transfer mode misuse survives dio_scsi_clear() ... */
	dio_scsi_clear(c);
	ck_assert_int_eq(dio_scsi_set_cdb(c, cdb, 6), 0);
	ck_assert_int_eq(dio_scsi_exec(c, fd), -EINVAL);
	assert_detail(c, -EINVAL, "'auto' is an outcome");
	/* ... while CDB misuse does not. */
	ck_assert_int_eq(dio_scsi_set_cdb(c, cdb, 3), -EINVAL);
	dio_scsi_clear(c);
	ck_assert_int_eq(dio_scsi_errdetail(c, NULL, 0), 0);

	/* Bad descriptors. */
	if (dio_scsi_set_xfer(c, DIO_SCSI_XFER_INDIRECT) == 0) {
		ck_assert_int_eq(dio_scsi_set_cdb(c, cdb, 6), 0);
		ck_assert_int_eq(dio_scsi_exec(c, -1), -EBADF);
		assert_detail(c, -EBADF, "bad descriptor -1");
	}
	ck_assert_int_eq(dio_scsi_category(c), -EINVAL);
	close(fd);
	dio_scsi_free(c);
}
END_TEST

START_TEST(test_obj_mmap_misuse)
{
	dio_scsi *c = dio_scsi_new();
	uint8_t cdb[10], data[64];
	void *buf = data;
	int fd = open("/dev/null", O_RDONLY);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(dio_cdb_read_buffer(cdb, DIO_BUF_MODE_DATA, 0, 0, 4096), 10);
	ck_assert_int_eq(dio_scsi_set_cdb(c, cdb, 10), 0);
	ck_assert_int_eq(dio_scsi_set_data(c, DIO_SCSI_DIR_IN, NULL, 4096), 0);
	if (dio_scsi_set_xfer(c, DIO_SCSI_XFER_MMAP) == 0) {
		ck_assert_int_eq(dio_scsi_exec(c, fd), -EINVAL);
		assert_detail(c, -EINVAL, "without a mapping");
	} else {
		assert_detail(c, -ENOTSUP, "mmap transfers are not available");
	}
	/* /dev/null has no reserved buffer anywhere. */
	ck_assert_int_eq(dio_scsi_mmap_buf(c, fd, 4096, &buf), -ENOTSUP);
	ck_assert_ptr_null(buf);
	ck_assert_int_eq(dio_scsi_mmap_buf(c, fd, 0, &buf), -EINVAL);
	ck_assert_int_eq(dio_scsi_mmap_buf(c, -1, 4096, &buf), -EBADF);
	ck_assert_int_eq(dio_scsi_mmap_buf(c, fd, 4096, NULL), -EINVAL);
	ck_assert_int_eq(dio_scsi_reserve(fd, 65536), -ENOTSUP);
	ck_assert_int_eq(dio_scsi_reserve(-1, 65536), -EBADF);
	close(fd);
	dio_scsi_free(c);
}
END_TEST

START_TEST(test_obj_names)
{
	ck_assert_str_eq(dio_scsi_category_name(DIO_SCSI_CAT_GOOD), "good");
	ck_assert_str_eq(dio_scsi_category_name(DIO_SCSI_CAT_STATUS), "status");
	ck_assert_str_eq(dio_scsi_category_name(DIO_SCSI_CAT_SENSE), "sense");
	ck_assert_str_eq(dio_scsi_category_name(DIO_SCSI_CAT_TRANSPORT), "transport");
	ck_assert_str_eq(dio_scsi_category_name(9), "invalid");
	ck_assert_str_eq(dio_scsi_xfer_name(DIO_SCSI_XFER_INDIRECT), "indirect");
	ck_assert_str_eq(dio_scsi_xfer_name(DIO_SCSI_XFER_DIRECT), "direct");
	ck_assert_str_eq(dio_scsi_xfer_name(DIO_SCSI_XFER_NO_COPY), "no-copy");
	ck_assert_str_eq(dio_scsi_xfer_name(DIO_SCSI_XFER_MMAP), "mmap");
	ck_assert_str_eq(dio_scsi_xfer_name(DIO_SCSI_XFER_AUTO), "auto");
	ck_assert_str_eq(dio_scsi_xfer_name(-1), "invalid");
	ck_assert_str_eq(dio_scsi_status_name(0x00), "GOOD");
	ck_assert_str_eq(dio_scsi_status_name(0x02), "CHECK CONDITION");
	ck_assert_str_eq(dio_scsi_status_name(0x08), "BUSY");
	ck_assert_str_eq(dio_scsi_status_name(0x18), "RESERVATION CONFLICT");
	ck_assert_str_eq(dio_scsi_status_name(0x28), "TASK SET FULL");
	ck_assert_str_eq(dio_scsi_status_name(0x40), "TASK ABORTED");
	ck_assert_str_eq(dio_scsi_status_name(0x01), "reserved");
}
END_TEST

START_TEST(test_outcome_str)
{
	dio_scsi *c = dio_scsi_new();
	uint8_t cdb[16];
	char b[256], d[256], small[8];
	int fd = open("/dev/null", O_RDWR), r;

	ck_assert_int_ge(fd, 0);
	ck_assert_ptr_nonnull(c);
	/* Nothing run yet. */
	ck_assert_ptr_eq(dio_scsi_outcome_str(c, b, sizeof(b)), b);
	ck_assert_str_eq(b, "no command completed");
	ck_assert_str_eq(dio_scsi_outcome_str(NULL, b, sizeof(b)), "no command object");
	ck_assert_ptr_null(dio_scsi_outcome_str(c, NULL, 10));
	small[0] = 'x';
	dio_scsi_outcome_str(c, small, 0);
	ck_assert_int_eq(small[0], 'x');
	/* Truncated, terminated. */
	dio_scsi_outcome_str(c, small, sizeof(small));
	ck_assert_str_eq(small, "no comm");

	/* Misuse: exec refuses; the outcome is its detail. */
	ck_assert_int_eq(dio_scsi_exec(c, fd), -EINVAL);
	dio_scsi_errdetail(c, d, sizeof(d));
	ck_assert_str_eq(dio_scsi_outcome_str(c, b, sizeof(b)), d);
	ck_assert_ptr_nonnull(strstr(b, "no CDB"));

	/* Not a SCSI device: the OS error, as the detail says it. */
	ck_assert_int_eq(dio_cdb_test_unit_ready(cdb), 6);
	ck_assert_int_eq(dio_scsi_set_cdb(c, cdb, 6), 0);
	r = dio_scsi_exec(c, fd);
	ck_assert_int_eq(r, is_backend("posix") ? -ENOTSUP : -ENOTTY);
	dio_scsi_errdetail(c, d, sizeof(d));
	ck_assert_str_eq(dio_scsi_outcome_str(c, b, sizeof(b)), d);
	ck_assert_ptr_nonnull(strstr(b, "opcode 0x00"));

	/* Cleared: nothing completed again. */
	dio_scsi_clear(c);
	ck_assert_str_eq(dio_scsi_outcome_str(c, b, sizeof(b)), "no command completed");
	/* GOOD, STATUS, SENSE and TRANSPORT need a device: the qemu guest
	 * test (tests/qemu/guest-scsi-check.c) checks those. */
	close(fd);
	dio_scsi_free(c);
}
END_TEST

START_TEST(test_repeat_misuse)
{
	dio_scsi *c = dio_scsi_new();
	struct dio_scsi_tally t;
	uint8_t cdb[16];
	char d[256];
	int fd = open("/dev/null", O_RDWR), r;

	ck_assert_int_ge(fd, 0);
	memset(&t, 0xa5, sizeof(t));
	ck_assert_int_eq(dio_scsi_exec_repeat(NULL, fd, 3, &t), -EINVAL);
	ck_assert_uint_eq(t.commands, 0);
	ck_assert_uint_eq(t.resid, 0);
	ck_assert_uint_eq(t.not_direct, 0);

	/* Misuse is refused before any repetition, as by dio_scsi_exec(). */
	ck_assert_int_eq(dio_scsi_exec_repeat(c, fd, 3, &t), -EINVAL);
	assert_detail(c, -EINVAL, "no CDB");
	ck_assert_int_eq(dio_cdb_test_unit_ready(cdb), 6);
	ck_assert_int_eq(dio_scsi_set_cdb(c, cdb, 6), 0);
	ck_assert_int_eq(dio_scsi_exec_repeat(c, fd, 0, &t), -EINVAL);
	assert_detail(c, -EINVAL, "count 0");
	ck_assert_int_eq(dio_scsi_exec_repeat(c, -1, 2, NULL), -EBADF);

	/* Not a SCSI device: the first repetition fails to submit and
	 * says which it was; nothing is counted, no outcome. */
	memset(&t, 0xa5, sizeof(t));
	r = dio_scsi_exec_repeat(c, fd, 1000, &t);
	ck_assert_int_eq(r, is_backend("posix") ? -ENOTSUP : -ENOTTY);
	ck_assert_uint_eq(t.commands, 0);
	ck_assert_int_eq(dio_scsi_category(c), -EINVAL);
	ck_assert_int_eq(dio_scsi_errdetail(c, d, sizeof(d)), r);
	ck_assert_msg(strstr(d, "repetition 1 of 1000") != NULL, "detail: %s", d);
	close(fd);
	dio_scsi_free(c);
}
END_TEST

/* ------------------------------------------------- non-SCSI descriptors */

/* A TEST UNIT READY on fd: the -errno of exec and its detail. */
static int
tur_on(int fd, int xfer, char *detail, size_t len)
{
	dio_scsi *c = dio_scsi_new();
	uint8_t cdb[16];
	int r;

	ck_assert_int_eq(dio_cdb_test_unit_ready(cdb), 6);
	ck_assert_int_eq(dio_scsi_set_cdb(c, cdb, 6), 0);
	ck_assert_int_eq(dio_scsi_set_timeout(c, 1000), 0);
	if (xfer != DIO_SCSI_XFER_INDIRECT)
		ck_assert_int_eq(dio_scsi_set_xfer(c, xfer), 0);
	r = dio_scsi_exec(c, fd);
	ck_assert_int_eq(dio_scsi_errdetail(c, detail, len), r);
	/* A command that failed to run has no outcome to read. */
	ck_assert_int_lt(r, 0);
	ck_assert_int_eq(dio_scsi_category(c), -EINVAL);
	ck_assert_int_eq(dio_scsi_xfer_done(c), -EINVAL);
	dio_scsi_free(c);
	return r;
}

START_TEST(test_exec_not_scsi)
{
	char path[512], d[256];
	int fd, r;

	/* /dev/null: a character device without SCSI. */
	fd = open("/dev/null", O_RDWR);
	ck_assert_int_ge(fd, 0);
	r = tur_on(fd, DIO_SCSI_XFER_INDIRECT, d, sizeof(d));
	if (is_backend("posix")) {
		ck_assert_int_eq(r, -ENOTSUP);
		ck_assert_ptr_nonnull(strstr(d, "posix backend"));
	} else {
		ck_assert_int_eq(r, -ENOTTY);
		ck_assert_msg(strstr(d, "opcode 0x00") != NULL, "detail: %s", d);
	}
	if (is_backend("linux")) {
		ck_assert_msg(strstr(d, "a character device") != NULL, "detail: %s", d);
		/* Asking sg-only modes of a non-SCSI device is still ENOTTY. */
		ck_assert_int_eq(tur_on(fd, DIO_SCSI_XFER_DIRECT, d, sizeof(d)), -ENOTTY);
	}
	close(fd);

	/* A regular file in the test directory. */
	tu_path(path, sizeof(path), NULL, "scsi");
	fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
	ck_assert_int_ge(fd, 0);
	r = tur_on(fd, DIO_SCSI_XFER_INDIRECT, d, sizeof(d));
	ck_assert_int_eq(r, is_backend("posix") ? -ENOTSUP : -ENOTTY);
	if (is_backend("linux"))
		ck_assert_msg(strstr(d, "a regular file") != NULL, "detail: %s", d);
	close(fd);
	unlink(path);
}
END_TEST

START_TEST(test_open_not_scsi)
{
	char path[512];
	int fd;

	if (is_backend("posix")) {
		ck_assert_int_eq(dio_scsi_open("/dev/null", 1), -ENOTSUP);
		ck_assert_uint_eq(dio_caps() & DIO_CAP_SCSI, 0);
		return;
	}
	ck_assert_uint_ne(dio_caps() & DIO_CAP_SCSI, 0);
	if (is_backend("linux")) {
		/* Probed with SG_GET_VERSION_NUM at open. */
		ck_assert_int_eq(dio_scsi_open("/dev/null", 1), -ENOTTY);
	} else {
		/* illumos does not probe: the device is known at exec. */
		fd = dio_scsi_open("/dev/null", 1);
		ck_assert_int_ge(fd, 0);
		close(fd);
	}
	ck_assert_int_eq(dio_scsi_open("/nonexistent/sg0", 1), -ENOENT);
	ck_assert_int_eq(dio_scsi_open("", 1), -EINVAL);
	ck_assert_int_eq(dio_scsi_open(NULL, 1), -EINVAL);
	tu_path(path, sizeof(path), NULL, "scsiopen");
	fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(dio_scsi_open(path, 1), -ENOTTY);
	unlink(path);
}
END_TEST

/* A loop device is a block device, but not a SCSI one. */
START_TEST(test_open_loop_device)
{
	int fd;

	if (!is_backend("linux"))
		return;
	fd = open("/dev/loop0", O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return;         /* no loop devices here: nothing to check */
	ck_assert_int_eq(dio_scsi_open("/dev/loop0", 1), -ENOTTY);
	ck_assert_int_eq(tur_on(fd, DIO_SCSI_XFER_INDIRECT, (char[256]){ 0 }, 256), -ENOTTY);
	close(fd);
}
END_TEST

START_TEST(test_posix_backend_refuses)
{
	dio_scsi *c;
	int m;

	if (!is_backend("posix"))
		return;
	c = dio_scsi_new();
	for (m = DIO_SCSI_XFER_INDIRECT; m <= DIO_SCSI_XFER_MMAP; m++)
		ck_assert_int_eq(dio_scsi_set_xfer(c, m), -ENOTSUP);
	assert_detail(c, -ENOTSUP, "posix backend");
	ck_assert_int_eq(dio_scsi_reserve(0, 4096), -ENOTSUP);
	dio_scsi_free(c);
}
END_TEST

Suite *
scsi_suite(void)
{
	Suite *s = suite_create("scsi");
	TCase *tc;

	tc = tcase_create("cdb");
	tcase_add_test(tc, test_cdb_tur_inquiry_capacity);
	tcase_add_test(tc, test_cdb_buffer);
	tcase_add_test(tc, test_cdb_rw_sync);
	tcase_add_test(tc, test_cdb_mode_sense);
	suite_add_tcase(s, tc);

	tc = tcase_create("sense");
	tcase_add_test(tc, test_sense_fixed_basic);
	tcase_add_test(tc, test_sense_fixed_fields);
	tcase_add_test(tc, test_sense_fixed_short);
	tcase_add_test(tc, test_sense_descriptor);
	tcase_add_test(tc, test_sense_invalid);
	tcase_add_test(tc, test_sense_names);
	suite_add_tcase(s, tc);

	tc = tcase_create("parse");
	tcase_add_test(tc, test_parse_inquiry);
	tcase_add_test(tc, test_parse_capacity);
	tcase_add_test(tc, test_parse_buffer_descriptor);
	tcase_add_test(tc, test_parse_caching);
	suite_add_tcase(s, tc);

	tc = tcase_create("object");
	tcase_add_test(tc, test_obj_fresh);
	tcase_add_test(tc, test_obj_misuse);
	tcase_add_test(tc, test_outcome_str);
	tcase_add_test(tc, test_obj_mmap_misuse);
	tcase_add_test(tc, test_obj_names);
	tcase_add_test(tc, test_repeat_misuse);
	suite_add_tcase(s, tc);

	tc = tcase_create("not-scsi");
	tcase_add_test(tc, test_exec_not_scsi);
	tcase_add_test(tc, test_open_not_scsi);
	tcase_add_test(tc, test_open_loop_device);
	tcase_add_test(tc, test_posix_backend_refuses);
	suite_add_tcase(s, tc);
	return s;
}
