/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dd-capacity.c -- harness: what dio-dd makes of a READ CAPACITY answer on
 * an sg side: the data read (tools/kit/scsi.c, diot_scsi_capacity_data(),
 * which diot_scsi_capacity() calls on what the device sent), then the
 * side's block, capacity and size (tools/dd/open.c, dd_sg_geometry()).
 * The input is the data of READ CAPACITY(10) (its first 8 bytes), then of
 * (16) (up to 32 bytes), asked only when (10) says so, as the device is.
 * What is accepted is checked against the answer read independently here:
 * blocks = last LBA + 1 from (10), or from (16) where (10) says
 * 0xFFFFFFFF; the block length from the same answer; size = their
 * product, an off_t.  Accepted: dio-dd would use the device.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz.h"
#include "tools/dd/dd.h"
#include "tools/kit/scsi.h"

static uint64_t
be(const uint8_t *p, size_t n)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dd_side s;
	const uint8_t *d16 = size > 8 ? data + 8 : NULL;
	size_t n10 = size < 8 ? size : 8, n16 = size > 8 ? size - 8 : 0;
	uint64_t blocks = 7, want_blocks;
	uint32_t blen = 7, want_blen;
	char msg[400], why[400];
	int r, ask16, ok;

	if (n16 > 32)
		n16 = 32;
	memset(&s, 0, sizeof(s));
	msg[0] = why[0] = '\0';
	/* The exchange of diot_scsi_capacity(): (10), then (16) if asked. */
	r = diot_scsi_capacity_data(data, n10, NULL, 0, &blocks, &blen, msg, sizeof(msg));
	ask16 = r == 1;
	if (ask16) {
		if (d16 == NULL)
			n16 = 0;
		r = diot_scsi_capacity_data(data, n10, d16 ? d16 : (const uint8_t *)"", n16,
		                            &blocks, &blen, msg, sizeof(msg));
	}
	if (r == 1 || memchr(msg, '\0', sizeof(msg)) == NULL)
		abort();
	if (r < 0) {
		/* Refused: said, and for a reason the bytes show. */
		if (msg[0] == '\0')
			abort();
		if (!(n10 < 8 || (ask16 && (n16 < 12 || be(d16, 8) == UINT64_MAX))))
			abort();
		fuzz_verdict(0, msg);
		return 0;
	}
	/* What the answer says, read here on its own. */
	if (n10 < 8)
		abort();
	if (be(data, 4) != 0xffffffffu) {
		if (ask16)
			abort();
		want_blocks = be(data, 4) + 1;
		want_blen = (uint32_t)be(data + 4, 4);
	} else {
		if (!ask16 || n16 < 12 || be(d16, 8) == UINT64_MAX)
			abort();
		want_blocks = be(d16, 8) + 1;
		want_blen = (uint32_t)be(d16 + 8, 4);
	}
	if (blocks != want_blocks || blen != want_blen || msg[0] != '\0')
		abort();

	ok = dd_sg_geometry(&s, blocks, blen, why, sizeof(why)) == 0;
	if (memchr(why, '\0', sizeof(why)) == NULL)
		abort();
	if (ok) {
		if (blen == 0 || blocks > (uint64_t)INT64_MAX / blen ||
		    s.sg_block != blen || s.sg_blocks != blocks || s.size != blocks * blen ||
		    s.size > (uint64_t)INT64_MAX)
			abort();
	} else if (why[0] == '\0' || (blen != 0 && blocks <= (uint64_t)INT64_MAX / blen) ||
	           s.sg_block != 0 || s.size != 0) {
		abort();
	}
	fuzz_verdict(ok, why);
	return 0;
}
