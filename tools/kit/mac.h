/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mac.h -- the one door to the MAC library (configure --with-crypto:
 * OpenSSL's libcrypto or libsodium): HMAC-SHA-256, random bytes, a
 * constant-time compare, and hex in and out.  The ack protocol (ack.h)
 * and its token (ack-token.c) call these; nothing else in the tree calls
 * the crypto library.  Built without one, diot_mac() says -ENOSYS, and
 * random bytes come from /dev/urandom.
 */
#ifndef DIOT_MAC_H
#define DIOT_MAC_H

#include <stddef.h>

#define DIOT_MAC_LEN 32         /* HMAC-SHA-256's bytes */

/* The library's name ("OpenSSL libcrypto", "libsodium"), or NULL when the
 * build has none (then diot_mac() cannot be used). */
const char *diot_mac_library(void);

/* out = HMAC-SHA-256(key, msg).  0, or -ENOSYS without a library, -EIO
 * when the library fails. */
int diot_mac(const void *key, size_t klen, const void *msg, size_t mlen,
             unsigned char out[DIOT_MAC_LEN]);

/* n random bytes (the library's generator, else /dev/urandom).  0 or
 * -errno. */
int diot_random(void *buf, size_t n);

/* Are a and b's n bytes equal?  Takes the same time wherever they differ. */
int diot_mac_equal(const void *a, const void *b, size_t n);

/* The n bytes of p in lower-case hex, into out (2n + 1 bytes, with the NUL). */
void diot_hex(const void *p, size_t n, char *out);

/* len hex digits of s (either case) into out: the bytes written, or -1
 * when len is odd, over 2 * max, or s holds a character that is not a
 * hex digit. */
int diot_unhex(const char *s, size_t len, unsigned char *out, size_t max);

#endif /* DIOT_MAC_H */
