/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sw-check.c -- harness: sync-write --check end to end on a small target
 * (tools/sw/check.c, sw_check_stream()).  The input is
 *
 *   LEN (4 bytes, little-endian), LEN bytes: the target's content (at most
 *   1 MiB; the rest of LEN, if the input is shorter, is not there),
 *   then the ack log's text.
 *
 * The target is a file of this process's own temporary directory
 * (fuzz_workdir()), rewritten for every input and removed at exit;
 * a --layout separate log's writer files (TARGET.1...) are not made.  The
 * check reads, never writes; its report goes to /dev/null, its messages
 * to standard error.  The status must be one of --check's.
 */
#include "config.h"

#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/fuzz/fuzz.h"
#include "tools/kit/msg.h"
#include "tools/sw/check.h"

static char target[PATH_MAX];

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	static struct diot_held held;
	size_t len, done;
	ssize_t n;
	FILE *fp;
	int fd, st;

	if (!ready) {
		if (fuzz_workpath("t.dat", target, sizeof(target)) < 0)
			return 0;
		ready = 1;
	}
	fuzz_quiet();
	len = (size_t)fuzz_take(&data, &size, 4);
	if (len > 1u << 20)
		len = 1u << 20;
	if (len > size)
		len = size;
	fd = open(target, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return 0;
	for (done = 0; done < len; done += (size_t)n) {
		n = write(fd, data + done, len - done);
		if (n <= 0)
			break;
	}
	close(fd);
	fp = fuzz_stream(data + len, size - len);
	if (fp == NULL)
		return 0;
	/* The check says its errors and returns; hold whatever would exit. */
	diot_hold_errors(&held);
	if (setjmp(held.jb) == 0) {
		st = sw_check_stream(fp, "fuzz.log", target);
		diot_hold_errors(NULL);
		if (st != SW_CHECK_OK && st != SW_CHECK_LOST && st != SW_CHECK_CANNOT)
			abort();
		/* Accepted: the check came to a verdict (no loss or a loss). */
		fuzz_verdict(st != SW_CHECK_CANNOT, NULL);
	} else {
		fuzz_verdict(0, NULL);
	}
	fuzz_held_free(&held);
	fclose(fp);
	return 0;
}
