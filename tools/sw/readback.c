/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * readback.c -- --verify's reading of one writer's slots back from its
 * file (sw_verify_writer()): which transaction each slot should hold after
 * a point, and what it holds: that one, a missing or torn one, a stale one
 * of an earlier sequence, or another writer's or place's.  Apart from
 * verify.c (which opens the files of a point's writers) so that the
 * comparison can be fed any file content (tests/fuzz/verify.c).
 */
#include "config.h"

#include <sys/types.h>
#include <unistd.h>

#include "tools/sw/sw.h"
#include "tools/sw/txn.h"

/* Classify what the slot at off holds (want: the sequence expected). */
static void
verify_slot(const struct sw_readback *rb, int fd, uint64_t want, unsigned char *buf,
            struct sw_verify *v)
{
	uint64_t off = sw_layout_offset(rb->separate, rb->extend, rb->region, rb->slots,
	                                rb->writers, rb->size, rb->writer, want);
	uint64_t rseq, roff, rid;
	uint32_t rpoint, rwriter;
	int st;

	v->checked++;
	if (off > (uint64_t)INT64_MAX - rb->size ||
	    pread(fd, buf, (size_t)rb->size, (off_t)off) != (ssize_t)rb->size) {
		v->missing++;
		return;
	}
	st = sw_read_txn(buf, (size_t)rb->size, &rid, &rpoint, &rwriter, &rseq, &roff);
	if (st == SW_TXN_MISSING)
		v->missing++;
	else if (st == SW_TXN_CORRUPT)
		v->corrupt++;
	else if (rid != rb->run_id || rpoint != rb->point ||
	         (rwriter == (uint32_t)rb->writer && rseq < want && roff == off))
		v->stale++;
	else if (rwriter != (uint32_t)rb->writer || rseq != want || roff != off)
		v->misplaced++;
	else
		v->ok++;
}

void
sw_verify_writer(int fd, const struct sw_readback *rb, unsigned char *buf, struct sw_verify *v)
{
	uint64_t n = rb->txns, s;
	uint64_t nslots = rb->extend ? n : (n < rb->slots ? n : rb->slots);

	/* the last sequence that used slot s */
	for (s = 0; s < nslots; s++)
		verify_slot(rb, fd, rb->extend ? s : s + (n - 1 - s) / rb->slots * rb->slots, buf,
		            v);
}
