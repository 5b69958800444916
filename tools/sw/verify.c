/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * verify.c -- --verify: after a point, read back every slot its writers
 * wrote and compare it with the last transaction that should be there:
 * same run, point, writer, sequence and offset, and an intact checksum.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "tools/kit/msg.h"
#include "tools/kit/team.h"
#include "tools/sw/sw.h"
#include "tools/sw/txn.h"

/* Classify what slot s of writer k holds (want: the sequence expected). */
static void
verify_slot(const struct sw_wctx *x, int k, int fd, uint64_t want, unsigned char *buf,
            struct sw_verify *v)
{
	uint64_t off = sw_txn_offset(x->c, x->slots, x->all, x->size, k, want);
	uint64_t rseq, roff, rid;
	uint32_t rpoint, rwriter;
	int st;

	v->checked++;
	if (pread(fd, buf, (size_t)x->size, (off_t)off) != (ssize_t)x->size) {
		v->missing++;
		return;
	}
	st = sw_read_txn(buf, (size_t)x->size, &rid, &rpoint, &rwriter, &rseq, &roff);
	if (st == SW_TXN_MISSING)
		v->missing++;
	else if (st == SW_TXN_CORRUPT)
		v->corrupt++;
	else if (rid != x->c->run_id || rpoint != (uint32_t)x->point ||
	         (rwriter == (uint32_t)k && rseq < want && roff == off))
		v->stale++;
	else if (rwriter != (uint32_t)k || rseq != want || roff != off)
		v->misplaced++;
	else
		v->ok++;
}

void
sw_verify_point(const struct sw_wctx *x, struct diot_team *t, struct sw_point *p)
{
	struct sw_verify *v = &p->verify;
	int extend = x->c->o->extend, k, fd;
	unsigned char *buf;

	buf = malloc((size_t)x->size);
	if (buf == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	v->done = 1;
	for (k = 0; k < x->writers; k++) {
		uint64_t n = ((const struct sw_wres *)diot_team_result(t, k))->txns_total;
		uint64_t nslots = extend ? n : (n < x->slots ? n : x->slots), s;
		int kk = x->first + k;      /* among the writers of every rank */

		fd = open(sw_file_of(x->c, kk), O_RDONLY);
		if (fd < 0)
			diot_die(DIOT_EXIT_FAIL, "verify: open %s: %s", sw_file_of(x->c, kk),
			         dio_strerror(errno));
		/* the last sequence that used slot s */
		for (s = 0; s < nslots; s++)
			verify_slot(x, kk, fd, extend ? s : s + (n - 1 - s) / x->slots * x->slots,
			            buf, v);
		close(fd);
	}
	free(buf);
}
