/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * compare-memory.c -- all of --compare on documents in memory, for a
 * fuzzer or a unit test (sw_cmp_memory, compare.h): the loader
 * (compare-load.c) and the alignment (compare.c), then the reports
 * (compare-report.c).  Prints nothing, never exits.  sync-write itself
 * goes through compare-main.c.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/sw/compare.h"

int
sw_cmp_memory(const char *const *texts, const size_t *lens, int n,
              const struct sw_opts *o, int format, FILE *out, FILE *plot, char *why,
              size_t wl)
{
	struct cmp c;
	int i, rc = 0;

	memset(&c, 0, sizeof(c));
	c.quiet = 1;
	c.nruns = n;
	c.runs = calloc((size_t)n + 1, sizeof(*c.runs));
	if (c.runs == NULL) {
		snprintf(why, wl, "out of memory");
		return -1;
	}
	for (i = 0; i < n && rc == 0; i++) {
		/* r->file is kept: names that last. */
		static const char *const names[] = { "input 1", "input 2", "input 3",
			"input 4", "input 5", "input 6", "input 7", "input 8" };

		rc = sw_cmp_load(&c.runs[i], i < 8 ? names[i] : "input", texts[i], lens[i],
		                 0, why, wl);
	}
	if (rc == 0 && sw_cmp_prepare(&c, o) < 0) {
		snprintf(why, wl, "out of memory");
		rc = -1;
	}
	if (rc == 0 && out != NULL) {
		if (format == SW_FMT_CSV)
			sw_cmp_csv(out, &c);
		else if (format == SW_FMT_JSON)
			sw_cmp_json(out, &c);
		else
			sw_cmp_table(out, &c);
	}
	if (rc == 0 && plot != NULL && c.nshared > 0 && sw_cmp_plot_fp(plot, &c) != 0) {
		snprintf(why, wl, "cannot write the plot");
		rc = -1;
	}
	sw_cmp_release(&c);
	return rc;
}
