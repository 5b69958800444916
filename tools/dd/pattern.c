/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pattern.c -- the data mode=write writes: a fixed byte pattern with a
 * stamp of its output offset in every block and every 4 KiB, so that a
 * written device can be checked block by block (tests/check_dd.c).
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "tools/dd/dd.h"

/* The generated data: a fixed byte pattern, and at the start of every
 * block (bs) and every 4 KiB into it a stamp "dio-dd <byte offset in 16
 * hex digits>\n" (24 bytes) naming the output offset it was written to,
 * so that skip/seek can be checked block by block and any 4 KiB of a
 * written device placed; bs=512 still gets one per 512 bytes.  (A stamp
 * in every 512 bytes whatever bs, as before, cost about 2% of 128 KiB
 * buffered writes where the CPUs are the limit: every stamp's cache line
 * is rewritten just before the write.)  Blocks shorter than a stamp get
 * none.
 * dd_fill_pattern() writes the pattern and the stamps' fixed parts once per
 * buffer; dd_stamp() writes only the digits before each write, two at a time
 * and the upper eight once per 4 GiB. */
#define STAMP_LEN 24
#define HEX_ROW(x) x "0" x "1" x "2" x "3" x "4" x "5" x "6" x "7" \
                   x "8" x "9" x "a" x "b" x "c" x "d" x "e" x "f"
static const char hex_pairs[] = HEX_ROW("0") HEX_ROW("1") HEX_ROW("2") HEX_ROW("3")
	HEX_ROW("4") HEX_ROW("5") HEX_ROW("6") HEX_ROW("7") HEX_ROW("8") HEX_ROW("9")
	HEX_ROW("a") HEX_ROW("b") HEX_ROW("c") HEX_ROW("d") HEX_ROW("e") HEX_ROW("f");

/* Where the stamp after the one at p goes in a transfer (which starts on
 * a block): DD_STAMP_STEP further into p's block if a whole stamp fits
 * there, else at the next block. */
static size_t
stamp_next(size_t p, size_t bs)
{
	size_t end = p - p % bs + bs;

	return p + DD_STAMP_STEP + STAMP_LEN <= end ? p + DD_STAMP_STEP : end;
}

void
dd_fill_pattern(unsigned char *buf, size_t len, size_t bs)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = (unsigned char)(' ' + (i * 7 + 3) % 94);
	if (bs < STAMP_LEN)
		return;
	for (i = 0; i + STAMP_LEN <= len; i = stamp_next(i, bs)) {
		memcpy(buf + i, "dio-dd ", 7);
		buf[i + STAMP_LEN - 1] = '\n';
	}
}

/* Eight hex digits of v, most significant first. */
static void
hex8(unsigned char *d, uint32_t v)
{
	int k;

	for (k = 3; k >= 0; k--) {
		memcpy(d + 2 * k, hex_pairs + 2 * (v & 0xff), 2);
		v >>= 8;
	}
}

void
dd_stamp(unsigned char *buf, size_t len, size_t bs, uint64_t off)
{
	unsigned char upper[8];
	uint64_t hi = 0;
	size_t p;

	if (bs < STAMP_LEN)
		return;
	for (p = 0; p + STAMP_LEN <= len; p = stamp_next(p, bs)) {
		uint64_t v = off + p;

		if (p == 0 || v >> 32 != hi) {
			hi = v >> 32;
			hex8(upper, (uint32_t)hi);
		}
		memcpy(buf + p + 7, upper, 8);
		hex8(buf + p + 15, (uint32_t)v);
	}
}
