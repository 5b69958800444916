/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * compare.c -- harness: sync-write --compare on documents in memory
 * (tools/sw/compare-memory.c, sw_cmp_memory(): the loader, the
 * alignment, the table, CSV or JSON report, and the SVG plot,
 * tools/sw/plot.c and tools/kit/svg.c).  The input is up to 4 documents separated by NUL
 * bytes (a document cannot hold one); the input's length picks the
 * report's format.  The report and the plot go to /dev/null: the harness
 * looks for crashes, leaks, and for output or time without bound (the
 * fuzzer's -timeout and -rss_limit_mb).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz.h"
#include "tools/sw/compare.h"
#include "tools/sw/sw.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	const char *texts[4];
	size_t lens[4], at = 0;
	char why[400];
	int n = 0, r;

	if (null == NULL && (null = fopen("/dev/null", "w")) == NULL)
		return 0;
	while (n < 4) {
		const uint8_t *z = n < 3 && at < size ? memchr(data + at, '\0', size - at) : NULL;
		size_t end = z != NULL ? (size_t)(z - data) : size;

		texts[n] = (const char *)data + at;
		lens[n] = end - at;
		n++;
		if (z == NULL)
			break;
		at = end + 1;
	}
	why[0] = '\0';
	r = sw_cmp_memory(texts, lens, n, NULL, (int)(size % 3) == 0 ? SW_FMT_TABLE :
	                  size % 3 == 1 ? SW_FMT_CSV : SW_FMT_JSON, null, null, why,
	                  sizeof(why));
	if (r != 0 && (r != -1 || why[0] == '\0' || memchr(why, '\0', sizeof(why)) == NULL))
		abort();
	fuzz_verdict(r == 0, why);
	return 0;
}
