/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ack-proto.c -- protocol 2's keys, proofs and tags (ack.h): the words
 * each HMAC is taken over, in one place for both ends (the sender,
 * ack-send.c, and the listener's reader, ack-reader.c).
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tools/kit/ack.h"
#include "tools/kit/ack-private.h"
#include "tools/kit/mac.h"

int
diot_ack_has_mac(void)
{
	return diot_mac_library() != NULL;
}

/* Lower-case hex of exactly n digits at p into out (n / 2 bytes)?  The
 * wire's hex: one spelling of each value. */
int
diot__ack_hex_exact(const char *p, size_t n, unsigned char *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!((p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' && p[i] <= 'f')))
			return 0;
	return diot_unhex(p, n, out, n / 2) == (int)(n / 2);
}

/* out = HMAC(key, "dio-ack 2 WHAT RUNID CNONCE SNONCE"). */
int
diot__ack_words_mac(const void *key, size_t klen, const char *what, uint64_t run,
                    const unsigned char *cnonce, const unsigned char *snonce,
                    unsigned char *out)
{
	char words[160], cn[2 * DIOT_ACK_NONCE + 1], sn[2 * DIOT_ACK_NONCE + 1];
	int n;

	diot_hex(cnonce, DIOT_ACK_NONCE, cn);
	diot_hex(snonce, DIOT_ACK_NONCE, sn);
	n = snprintf(words, sizeof(words), "dio-ack %d %s %llx %s %s", DIOT_ACK_WIRE, what,
	             (unsigned long long)run, cn, sn);
	return diot_mac(key, klen, words, (size_t)n, out);
}

static void
put_seq(unsigned char *p, uint64_t seq)
{
	int i;

	for (i = 7; i >= 0; i--) {
		p[i] = (unsigned char)(seq & 0xff);
		seq >>= 8;
	}
}

/* tag = the first DIOT_ACK_TAG bytes of HMAC(k, SEQ || line). */
int
diot__ack_record_tag(const unsigned char *k, uint64_t seq, const char *line, size_t len,
                     unsigned char *tag)
{
	unsigned char msg[8 + DIOT_ACK_LINE_MAX], mac[DIOT_ACK_KEY];
	int e;

	if (len > DIOT_ACK_LINE_MAX)
		return -EINVAL;
	put_seq(msg, seq);
	memcpy(msg + 8, line, len);
	e = diot_mac(k, DIOT_ACK_KEY, msg, 8 + len, mac);
	memcpy(tag, mac, DIOT_ACK_TAG);
	return e;
}

/* tag = the first DIOT_ACK_TAG bytes of HMAC(k, "ok" || SEQ). */
int
diot__ack_answer_tag(const unsigned char *k, uint64_t seq, unsigned char *tag)
{
	unsigned char msg[10], mac[DIOT_ACK_KEY];
	int e;

	msg[0] = 'o';
	msg[1] = 'k';
	put_seq(msg + 2, seq);
	e = diot_mac(k, DIOT_ACK_KEY, msg, sizeof(msg), mac);
	memcpy(tag, mac, DIOT_ACK_TAG);
	return e;
}
