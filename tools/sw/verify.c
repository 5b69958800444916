/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * verify.c -- --verify: after a point, read back every slot its writers
 * wrote and compare it with the last transaction that should be there:
 * same run, point, writer, sequence and offset, and an intact checksum
 * (each writer's file: readback.c).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "tools/kit/msg.h"
#include "tools/kit/team.h"
#include "tools/sw/sw.h"

void
sw_verify_point(const struct sw_wctx *x, struct diot_team *t, struct sw_point *p)
{
	struct sw_verify *v = &p->verify;
	struct sw_readback rb;
	int k, fd;
	unsigned char *buf;

	buf = malloc((size_t)x->size);
	if (buf == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	v->done = 1;
	rb.run_id = x->c->run_id;
	rb.point = (uint32_t)x->point;
	rb.writers = x->all;
	rb.size = x->size;
	rb.slots = x->slots;
	rb.region = x->c->o->region;
	rb.extend = x->c->o->extend;
	rb.separate = x->c->o->layout == SW_LAYOUT_SEPARATE;
	for (k = 0; k < x->writers; k++) {
		int kk = x->first + k;      /* among the writers of every rank */

		rb.txns = ((const struct sw_wres *)diot_team_result(t, k))->txns_total;
		rb.writer = kk;
		fd = open(sw_file_of(x->c, kk), O_RDONLY);
		if (fd < 0)
			diot_die(DIOT_EXIT_FAIL, "verify: open %s: %s", sw_file_of(x->c, kk),
			         dio_strerror(errno));
		sw_verify_writer(fd, &rb, buf, v);
		close(fd);
	}
	free(buf);
}
