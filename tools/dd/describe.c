/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * describe.c -- the words and figures that describe a run, for whichever
 * stage says them: the checks (check.c), the text report (report.c) and
 * the JSON report (report-json.c); and a total's figures, summed from its
 * rows (report.c for the devices, ranks.c for an MPI job's ranks).
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "tools/dd/dd.h"

const char *
dd_side_io(struct dd *dd, const struct dd_side *s, int is_in)
{
	if (s->path == NULL)
		return NULL;
	if (s->kind == DD_KIND_SG)
		return dd->o.dio ? "sg-dio" : "sg";
	if (is_in && dd->o.iflag.nocopy)
		return "no-copy";
	if (s->f != NULL && dio_file_direct(s->f) != DIO_MECH_NONE)
		return "direct";
	return "buffered";
}

const char *
dd_mode_name(struct dd *dd)
{
	return dd_mode_words[dd->o.mode];
}

const char *
dd_engine_name(struct dd *dd)
{
	return dd->o.engine == DD_ENG_SYNC ? "sync" : dio_aio_engine_name(dd->aio_engine);
}

/* The page size the threads' buffers were given (largepages=). */
size_t
dd_buffer_page(struct dd *dd)
{
	size_t pg = 0;
	int i;

	for (i = 0; i < dd->ndevs; i++)
		if (dd->devs[i].buf_page > pg)
			pg = dd->devs[i].buf_page;
	return pg;
}

double
dd_hist_us(const struct diot_hist *h, double q)
{
	if (h->count == 0)
		return 0;
	if (q <= 0)
		return diot_hist_mean(h) / 1e3;
	if (q >= 1)
		return (double)h->max_ns / 1e3;
	return diot_hist_quantile(h, q) / 1e3;
}

/* Powers of two of nanoseconds: bucket b holds [2^b, 2^(b+1)) ns. */
void
dd_log2_buckets(const struct diot_hist *h, uint64_t *cnt)
{
	uint64_t lo, hi;
	int i, b;

	memset(cnt, 0, DD_NLOG2 * sizeof(*cnt));
	for (i = 0; i < DIOT_HIST_BUCKETS; i++) {
		if (h->bucket[i] == 0)
			continue;
		diot_hist_range(i, &lo, &hi);
		for (b = 0; lo >> (b + 1); b++)
			;
		cnt[b] += h->bucket[i];
	}
}

void
dd_row_add(struct dd_row *tot, const struct dd_row *r)
{
	tot->xbytes[DD_DIR_READ] += r->xbytes[DD_DIR_READ];
	tot->xbytes[DD_DIR_WRITE] += r->xbytes[DD_DIR_WRITE];
	tot->bytes += r->bytes;
	tot->full += r->full;
	tot->partial += r->partial;
	tot->wfull += r->wfull;
	tot->wpartial += r->wpartial;
	tot->calls += r->calls;
	tot->sg_cmds += r->sg_cmds;
	tot->sg_nd += r->sg_nd;
	tot->io_s += r->io_s;
	tot->cpu_s += r->cpu_s;
}
