/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ack-record.c -- harness: the listener's line reader (tools/kit/ack-reader.c,
 * diot_ack_reader_*()) taking sync-write's records (tools/sw/ackrec.c),
 * on the input as the bytes of one protocol-2 connection, handed over in
 * pieces whose sizes the first input byte picks, by diot_ack_reader_put()
 * and by diot_ack_reader_room()/_add() in turn.  The harness is the
 * listener: it answers the hello with a fixed challenge, checks the proof
 * against a fixed token (a join's against a fixed run key) and answers
 * every record, so that a seed made with them (tests/fuzz/ack-seeds.py)
 * reaches the records: with MACs (AUTH hmac-sha256) or without (plain,
 * where a mutated record still reaches the record check).
 * Every line handed out must end with its newline, fit the reader's
 * buffer, and be what it is said to be (diot_ack_hello_check(),
 * sw_ackrec_check()); a cut connection stays cut; and the reader never
 * takes no bytes while it has no line to give (the listener would spin on
 * that connection).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz.h"
#include "tools/kit/ack.h"
#include "tools/sw/ackrec.h"

/* What tests/fuzz/ack-seeds.py makes its connections with. */
static const struct diot_ack_token token = { 32, {
	1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
	17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32 } };
static const unsigned char snonce[DIOT_ACK_NONCE] = {
	0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5,
	0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5 };
static unsigned char run_key[DIOT_ACK_KEY];     /* 0x33 each: see main */

static int
drain(struct diot_ack_reader *rd, int *cut)
{
	unsigned char cn[DIOT_ACK_NONCE];
	char out[128];
	const char *line;
	size_t len;
	uint64_t run;
	int k, lines = 0, join, plain, ver;

	for (;;) {
		k = diot_ack_reader_next(rd, &line, &len);
		if (k == DIOT_ACK_MORE)
			return lines;
		if (k < 0) {
			if (*cut != 0 && *cut != k)
				abort();
			*cut = k;
			if (diot_ack_bad_name(&sw_ackrec_records, k) == NULL)
				abort();
			return lines;
		}
		if (*cut != 0 || len == 0 || len > DIOT_ACK_WIRE_MAX || line[len - 1] != '\n')
			abort();
		switch (k) {
		case DIOT_ACK_HELLO:
			if (!diot_ack_hello_check(line, len, &run, &join, &plain, cn, &ver) ||
			    run != rd->run || join != rd->join || plain != rd->plain)
				abort();
			if (diot_ack_reader_challenge(rd, snonce, out, sizeof(out)) !=
			    3 + 2 * DIOT_ACK_NONCE)
				abort();
			break;
		case DIOT_ACK_PROOF:
			if (diot_ack_reader_prove(rd, run_key, out, sizeof(out)) == 0 &&
			    out[0] != '+')
				abort();
			break;
		case DIOT_ACK_RECORD: {
			int v = sw_ackrec_check(line, len, NULL);

			if (len > DIOT_ACK_LINE_MAX || v == DIOT_ACK_REC_NO ||
			    rd->ends != (v == DIOT_ACK_REC_END))
				abort();
			if (diot_ack_reader_answer(rd, out, sizeof(out)) < 2 || out[0] != '+')
				abort();
			break;
		}
		default:
			abort();
		}
		lines++;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct diot_ack_reader rd;
	unsigned char cn[DIOT_ACK_NONCE];
	size_t piece, at = 0, took, room;
	unsigned seed = size > 0 ? data[0] : 0;
	uint64_t run;
	int cut = 0, turn = 0, join, plain, ver;
	char *p;

	memset(run_key, 0x33, sizeof(run_key));
	/* The checks alone, on the whole input as one line. */
	(void)sw_ackrec_check((const char *)data, size, &run);
	(void)diot_ack_hello_check((const char *)data, size, &run, &join, &plain, cn, &ver);

	diot_ack_reader_init(&rd, &sw_ackrec_records, &token);
	while (at < size && cut == 0) {
		piece = 1 + (seed * 31u + (unsigned)turn * 7u) % 97u;
		if (piece > size - at)
			piece = size - at;
		if (turn++ % 2 == 0) {
			took = diot_ack_reader_put(&rd, data + at, piece);
		} else {
			p = diot_ack_reader_room(&rd, &room);
			took = piece < room ? piece : room;
			if (took > 0) {
				if (p == NULL)
					abort();
				memcpy(p, data + at, took);
				diot_ack_reader_add(&rd, took);
			}
		}
		if (took > piece)
			abort();
		at += took;
		if (drain(&rd, &cut) == 0 && took == 0 && cut == 0)
			abort();        /* full, no line, not cut: stuck */
	}
	/* Taken whole: every line read, none cut.  A build without a MAC
	 * library takes plain connections only: it cannot judge the others. */
	if (size > 0 && cut == 0)
		fuzz_verdict(1, NULL);
	else
		fuzz_verdict(diot_ack_has_mac() ? 0 : FUZZ_UNJUDGED,
		             diot_ack_has_mac() ? NULL : "no MAC library: plain connections only");
	return 0;
}
