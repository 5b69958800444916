/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ack-answer.c -- harness: the sender's reading of a listener's lines
 * (tools/kit/ack-send.c: diot_ack_read_challenge(), _read_welcome(),
 * _read_answer()), on the input as what a listener said on one
 * connection: the challenge, its proof, then an answer per record.  A
 * sender of a fixed token, run and nonce (tests/fuzz/ack-seeds.py makes
 * the seeds with them) reads it line by line until a line is refused,
 * twice: with MACs (AUTH hmac-sha256, where the build has a MAC library)
 * and plain.  Each reading must return 0, -ECONNREFUSED with a printable
 * reason, or -EPROTO; the records counted must be the answers taken, and
 * a sender must never take a welcome or an answer that does not prove the
 * token: those of the seeds are the only ones a fuzzer can reach.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz.h"
#include "tools/kit/ack.h"

static const struct diot_ack_token token = { 32, {
	1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
	17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32 } };

static void
printable(const char *s)
{
	for (; *s; s++)
		if (*s < ' ' || *s >= 127)
			abort();
}

/* 1 when every line was taken, the last maybe a refusal that gives its
 * reason (what a listener says); 0 when a line was not one. */
static int
read_all(const uint8_t *data, size_t size, int plain)
{
	static struct diot_ack a;
	char err[512];
	size_t at = 0, n;
	const char *line, *nl;
	int step = 0, r;
	uint64_t taken = 0;

	memset(&a, 0, sizeof(a));
	diot_ack_set_token(&a, &token);
	a.plain = plain;
	a.run = 0xab;
	a.has_run = 1;
	memset(a.cnonce, 0x5a, sizeof(a.cnonce));
	snprintf(a.host, sizeof(a.host), "fuzz");
	snprintf(a.port, sizeof(a.port), "1");
	while (at < size) {
		line = (const char *)data + at;
		nl = memchr(line, '\n', size - at);
		n = nl != NULL ? (size_t)(nl - line) + 1 : size - at;
		at += n;
		err[0] = '\0';
		if (step == 0)
			r = diot_ack_read_challenge(&a, line, n, err, sizeof(err));
		else if (step == 1)
			r = diot_ack_read_welcome(&a, line, n, err, sizeof(err));
		else
			r = diot_ack_read_answer(&a, line, n);
		if (r != 0 && r != -ECONNREFUSED && r != -EPROTO && r != -EIO)
			abort();
		if (r != 0 && step < 2 && err[0] == '\0')
			abort();
		if (r == -ECONNREFUSED && step >= 2)
			printable(a.why);
		if (r != 0)
			return r == -ECONNREFUSED && at == size;
		if (step == 1 && (!a.has_rk || a.seq != 0))
			abort();
		if (step >= 2 && a.seq != ++taken)
			abort();
		step++;
	}
	return step > 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int mac = 0, plain;

	/* A seed is one kind or the other: accepted when either reads it. */
	if (diot_ack_has_mac())
		mac = read_all(data, size, 0);
	plain = read_all(data, size, 1);
	if (mac || plain)
		fuzz_verdict(1, NULL);
	else if (diot_ack_has_mac())
		fuzz_verdict(0, "a listener's lines, read as with MACs and plain");
	else
		fuzz_verdict(FUZZ_UNJUDGED, "no MAC library: plain answers only");
	return 0;
}
