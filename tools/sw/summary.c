/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * summary.c -- a run's answer in short, which report.c writes at the end
 * of the table and into the JSON: for each transaction size and number
 * of writers, the fastest method that makes every transaction durable
 * (by avg_us, the table's figure) and the point of none (buffered
 * writes, no commit) at the same size and writers, that its cost is
 * measured against.  Only points measured whole (status ok) count.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tools/kit/msg.h"
#include "tools/sw/sw.h"

/* The row of size and writers, appended in the order met (the table's:
 * writers outermost, then the sizes as given). */
static struct sw_summary_row *
row_of(struct sw_summary *s, int *cap, uint64_t size, int writers)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (s->rows[i].size == size && s->rows[i].writers == writers)
			return &s->rows[i];
	if (s->n == *cap) {
		struct sw_summary_row *t;

		*cap = *cap ? 2 * *cap : 16;
		t = realloc(s->rows, (size_t)*cap * sizeof(*t));
		if (t == NULL)
			diot_die(DIOT_EXIT_FAIL, "out of memory");
		s->rows = t;
	}
	memset(&s->rows[s->n], 0, sizeof(s->rows[0]));
	s->rows[s->n].size = size;
	s->rows[s->n].writers = writers;
	return &s->rows[s->n++];
}

void
sw_summarize(struct sw_summary *s, const struct sw_point *pts, int n)
{
	int i, j, cap = 0;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < n; i++) {
		const struct sw_point *p = &pts[i];
		struct sw_summary_row *r;

		if (p->method[0] == '\0')       /* never reached */
			continue;
		for (j = 0; j < i; j++)
			if (strcmp(pts[j].method, p->method) == 0)
				break;
		s->methods += j == i;
		r = row_of(s, &cap, p->size, p->writers);
		if (p->status != SW_OK || p->agg.txns == 0)
			continue;
		if (strcmp(p->method, "none") == 0)
			r->none = p;
		else if (p->durable && (r->best == NULL || p->agg.avg_us < r->best->agg.avg_us))
			r->best = p;
	}
	for (i = 0; i < s->n; i++) {
		s->with_best += s->rows[i].best != NULL;
		s->with_none += s->rows[i].best != NULL && s->rows[i].none != NULL;
	}
}

void
sw_summary_free(struct sw_summary *s)
{
	free(s->rows);
	memset(s, 0, sizeof(*s));
}
