/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ack-log.c -- harness: sync-write's ack log as --check reads it
 * (tools/sw/acklog.c, sw_acklog_read()), on the input as the log's text.
 * The reader returns, never exits; a refusal says why.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz.h"
#include "tools/sw/check.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sw_acklog *g = NULL;
	char err[512];
	FILE *fp = fuzz_stream(data, size);
	int r;

	if (fp == NULL)
		return 0;
	err[0] = '\0';
	r = sw_acklog_read(fp, "fuzz.log", &g, err, sizeof(err));
	fclose(fp);
	if (r == 0) {
		if (g == NULL || sw_acklog_runs(g) < 0)
			abort();
		sw_acklog_free(g);
	} else if (r != SW_CHECK_CANNOT || g != NULL || err[0] == '\0' ||
	           memchr(err, '\0', sizeof(err)) == NULL) {
		abort();
	}
	fuzz_verdict(r == 0, err);
	return 0;
}
