/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * txn.c -- sync-write's transaction format (txn.h).
 */
#include "config.h"

#include <string.h>

#include "tools/sw/txn.h"

#define FNV_OFFSET 0xcbf29ce484222325ull

uint64_t
sw_fnv1a(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n--) {
		h ^= *c++;
		h *= 0x100000001b3ull;
	}
	return h;
}

void
sw_put64(unsigned char *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

uint64_t
sw_get64(const unsigned char *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

void
sw_make_txn(unsigned char *buf, size_t size, uint64_t run_id, uint32_t point,
            uint32_t writer, uint64_t seq, uint64_t off)
{
	uint64_t x = run_id ^ ((uint64_t)point << 40) ^ ((uint64_t)writer << 20) ^ seq;
	size_t i;

	if (size < SW_HDR_SIZE) {
		/* Too small to carry a header (only without --verify and
		 * --ack-log, which need one): just an incompressible pattern. */
		for (i = 0; i < size; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			buf[i] = (unsigned char)x;
		}
		return;
	}
	memset(buf, 0, SW_HDR_SIZE);
	memcpy(buf, "SYNCWRT1", 8);
	sw_put64(buf + 8, run_id);
	sw_put64(buf + 16, ((uint64_t)point << 32) | writer);
	sw_put64(buf + 24, seq);
	sw_put64(buf + 32, off);
	sw_put64(buf + 40, size);
	for (i = SW_HDR_SIZE; i + 8 <= size; i += 8) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		sw_put64(buf + i, x);
	}
	for (; i < size; i++)
		buf[i] = (unsigned char)(x >> (i & 7));
	sw_put64(buf + 48, sw_fnv1a(FNV_OFFSET, buf, size));
}

int
sw_read_txn(unsigned char *buf, size_t size, uint64_t *rid, uint32_t *point,
            uint32_t *writer, uint64_t *seq, uint64_t *off)
{
	uint64_t sum, want, pw;
	size_t i;

	if (memcmp(buf, "SYNCWRT1", 8) != 0) {
		for (i = 0; i < size && buf[i] == 0; i++)
			;
		return i == size ? SW_TXN_MISSING : SW_TXN_CORRUPT;
	}
	want = sw_get64(buf + 48);
	sw_put64(buf + 48, 0);
	sum = sw_fnv1a(FNV_OFFSET, buf, size);
	sw_put64(buf + 48, want);
	if (sum != want || sw_get64(buf + 40) != size)
		return SW_TXN_CORRUPT;
	*rid = sw_get64(buf + 8);
	pw = sw_get64(buf + 16);
	*point = (uint32_t)(pw >> 32);
	*writer = (uint32_t)pw;
	*seq = sw_get64(buf + 24);
	*off = sw_get64(buf + 32);
	return SW_TXN_OK;
}

int
sw_torn_mix(const unsigned char *buf, const unsigned char *a, const unsigned char *b,
            size_t size)
{
	size_t i, n;

	for (i = 0; i < size; i += 512) {
		n = size - i < 512 ? size - i : 512;
		if (memcmp(buf + i, a + i, n) != 0 && memcmp(buf + i, b + i, n) != 0)
			return 0;
	}
	return 1;
}

uint64_t
sw_layout_offset(int separate, int extend, uint64_t region, uint64_t slots, int writers,
                 uint64_t size, int k, uint64_t j)
{
	uint64_t slot = extend ? j : j % slots;

	if (separate)
		return slot * size;
	if (extend)
		return (slot * (uint64_t)writers + (uint64_t)k) * size;
	return (uint64_t)k * region + slot * size;
}
