/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_sw_txn.c -- sync-write's transaction format (tools/sw/txn.c): the
 * round trip of every header field, the checksum catching a flipped byte
 * anywhere in header and payload, zeros read as missing, the torn-write
 * mix of two transactions sector by sector, and the smallest sizes.
 */
#include "config.h"

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tools/sw/txn.h"
#include "tests/testutil.h"

#define RUN 0x123456789abcdefull

START_TEST(test_put_get)
{
	unsigned char b[8];

	sw_put64(b, 0x0102030405060708ull);
	ck_assert_int_eq(b[0], 0x08);     /* little-endian */
	ck_assert_int_eq(b[7], 0x01);
	ck_assert_uint_eq(sw_get64(b), 0x0102030405060708ull);
	sw_put64(b, UINT64_MAX);
	ck_assert_uint_eq(sw_get64(b), UINT64_MAX);
	/* FNV-1a of "a" (64-bit): a published test value */
	ck_assert_uint_eq(sw_fnv1a(0xcbf29ce484222325ull, "a", 1), 0xaf63dc4c8601ec8cull);
}
END_TEST

static void
round_trip(size_t size, uint32_t point, uint32_t writer, uint64_t seq, uint64_t off)
{
	unsigned char *b = malloc(size), *copy = malloc(size);
	uint64_t rid, rseq, roff;
	uint32_t rp, rw;

	sw_make_txn(b, size, RUN, point, writer, seq, off);
	memcpy(copy, b, size);
	ck_assert_int_eq(sw_read_txn(b, size, &rid, &rp, &rw, &rseq, &roff), SW_TXN_OK);
	ck_assert_uint_eq(rid, RUN);
	ck_assert_uint_eq(rp, point);
	ck_assert_uint_eq(rw, writer);
	ck_assert_uint_eq(rseq, seq);
	ck_assert_uint_eq(roff, off);
	ck_assert_int_eq(memcmp(b, copy, size), 0);   /* read_txn restores it */
	ck_assert_int_eq(memcmp(b, "SYNCWRT1", 8), 0);
	ck_assert_uint_eq(sw_get64(b + 40), size);
	free(b);
	free(copy);
}

START_TEST(test_round_trip)
{
	round_trip(SW_HDR_SIZE, 0, 0, 0, 0);
	round_trip(SW_HDR_SIZE + 1, 1, 2, 3, 4);
	round_trip(SW_HDR_SIZE + 7, 7, 255, 1000, 65536);
	round_trip(512, UINT32_MAX, UINT32_MAX, UINT64_MAX, UINT64_MAX);
	round_trip(4096, 12, 3, 1ull << 40, 123ull << 30);
	round_trip(65536 + 3, 5, 6, 7, 8);
}
END_TEST

START_TEST(test_flipped_byte)
{
	size_t sizes[] = { SW_HDR_SIZE, SW_HDR_SIZE + 5, 4096 }, i, n, pos;
	uint64_t rid, rseq, roff;
	uint32_t rp, rw;

	for (n = 0; n < sizeof(sizes) / sizeof(sizes[0]); n++) {
		size_t size = sizes[n];
		unsigned char *b = malloc(size);

		sw_make_txn(b, size, RUN, 1, 2, 3, 4096);
		for (pos = 8; pos < size; pos++) {      /* past the magic */
			for (i = 0; i < 8; i++) {
				b[pos] ^= (unsigned char)(1u << i);
				ck_assert_int_eq(sw_read_txn(b, size, &rid, &rp, &rw, &rseq,
				                             &roff), SW_TXN_CORRUPT);
				b[pos] ^= (unsigned char)(1u << i);
			}
		}
		/* a flipped magic byte: not ours, not zeros */
		b[0] ^= 1;
		ck_assert_int_eq(sw_read_txn(b, size, &rid, &rp, &rw, &rseq, &roff),
		                 SW_TXN_CORRUPT);
		b[0] ^= 1;
		ck_assert_int_eq(sw_read_txn(b, size, &rid, &rp, &rw, &rseq, &roff),
		                 SW_TXN_OK);
		free(b);
	}
}
END_TEST

START_TEST(test_zeros_and_wrong_size)
{
	unsigned char b[1024];
	uint64_t rid, rseq, roff;
	uint32_t rp, rw;

	memset(b, 0, sizeof(b));
	ck_assert_int_eq(sw_read_txn(b, sizeof(b), &rid, &rp, &rw, &rseq, &roff),
	                 SW_TXN_MISSING);
	b[1023] = 1;
	ck_assert_int_eq(sw_read_txn(b, sizeof(b), &rid, &rp, &rw, &rseq, &roff),
	                 SW_TXN_CORRUPT);
	/* a whole transaction of 512 read as 1024 bytes: wrong size */
	memset(b, 0, sizeof(b));
	sw_make_txn(b, 512, RUN, 1, 1, 1, 0);
	ck_assert_int_eq(sw_read_txn(b, sizeof(b), &rid, &rp, &rw, &rseq, &roff),
	                 SW_TXN_CORRUPT);
}
END_TEST

START_TEST(test_distinct_and_small)
{
	unsigned char a[4096], b[4096], s1[SW_HDR_SIZE - 1], s2[SW_HDR_SIZE - 1];

	sw_make_txn(a, sizeof(a), RUN, 1, 1, 10, 0);
	sw_make_txn(b, sizeof(b), RUN, 1, 1, 11, 0);
	ck_assert_int_ne(memcmp(a + SW_HDR_SIZE, b + SW_HDR_SIZE, 512), 0);
	/* below the header size: a pattern only, no magic, still seq-dependent */
	sw_make_txn(s1, sizeof(s1), RUN, 1, 1, 10, 0);
	sw_make_txn(s2, sizeof(s2), RUN, 1, 1, 11, 0);
	ck_assert_int_ne(memcmp(s1, "SYNCWRT1", 8), 0);
	ck_assert_int_ne(memcmp(s1, s2, sizeof(s1)), 0);
	sw_make_txn(s1, 1, RUN, 0, 0, 0, 0);           /* one byte: no overrun */
}
END_TEST

START_TEST(test_torn_mix)
{
	unsigned char a[2048 + 100], b[2048 + 100], m[2048 + 100];
	size_t size = sizeof(a);

	sw_make_txn(a, size, RUN, 1, 1, 10, 0);
	sw_make_txn(b, size, RUN, 1, 1, 11, 0);
	ck_assert(sw_torn_mix(a, a, b, size));
	ck_assert(sw_torn_mix(b, a, b, size));
	/* sectors 0 and 2 from a, 1, 3 and the tail from b */
	memcpy(m, b, size);
	memcpy(m, a, 512);
	memcpy(m + 1024, a + 1024, 512);
	ck_assert(sw_torn_mix(m, a, b, size));
	/* the tail from a too */
	memcpy(m + 2048, a + 2048, 100);
	ck_assert(sw_torn_mix(m, a, b, size));
	/* a sector that is half a, half b: not a mix of whole sectors */
	memcpy(m + 512, a + 512, 256);
	ck_assert(!sw_torn_mix(m, a, b, size));
	/* zeros in a sector: neither */
	memcpy(m, b, size);
	memset(m + 1536, 0, 512);
	ck_assert(!sw_torn_mix(m, a, b, size));
}
END_TEST

static Suite *
txn_suite(void)
{
	Suite *s = suite_create("sw_txn");
	TCase *tc = tcase_create("txn");

	tcase_add_test(tc, test_put_get);
	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_flipped_byte);
	tcase_add_test(tc, test_zeros_and_wrong_size);
	tcase_add_test(tc, test_distinct_and_small);
	tcase_add_test(tc, test_torn_mix);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(srunner_create(txn_suite()));
}
