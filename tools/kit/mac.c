/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mac.c -- HMAC-SHA-256 and random bytes from the MAC library configure
 * found (OpenSSL's libcrypto or libsodium), a constant-time compare, hex
 * (mac.h).  Its own convenience library (tools/kit/libdiomac.la), so that
 * only the programs that speak the ack protocol link the crypto library.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#if defined(DIO_HAVE_OPENSSL)
# include <openssl/evp.h>
# include <openssl/hmac.h>
# include <openssl/opensslv.h>
# if OPENSSL_VERSION_NUMBER >= 0x30000000L
#  include <openssl/core_names.h>
#  include <openssl/params.h>
# endif
# include <openssl/rand.h>
# include <pthread.h>
#elif defined(DIO_HAVE_SODIUM)
# include <sodium.h>
#endif

#include "tools/kit/mac.h"

#ifndef O_CLOEXEC
# define O_CLOEXEC 0
#endif

const char *
diot_mac_library(void)
{
#if defined(DIO_HAVE_OPENSSL)
	return "OpenSSL libcrypto";
#elif defined(DIO_HAVE_SODIUM)
	return "libsodium";
#else
	return NULL;
#endif
}

#if defined(DIO_HAVE_OPENSSL) && OPENSSL_VERSION_NUMBER >= 0x30000000L
/*
 * OpenSSL 3's HMAC, through EVP_MAC.  Its one-shot HMAC() fetches the
 * MAC and the digest by name at every call (about 8 us here, and a record
 * costs four MACs at each end); so the MAC is fetched once and a context
 * that already holds the digest is kept as a template: each call copies
 * it and sets only the key.
 */
static EVP_MAC_CTX *hmac_template;

static void
fetch_hmac(void)
{
	OSSL_PARAM params[2];
	EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
	EVP_MAC_CTX *ctx = mac != NULL ? EVP_MAC_CTX_new(mac) : NULL;

	params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)"SHA256", 0);
	params[1] = OSSL_PARAM_construct_end();
	if (ctx != NULL && EVP_MAC_CTX_set_params(ctx, params) == 1)
		hmac_template = ctx;
	else
		EVP_MAC_CTX_free(ctx);
	EVP_MAC_free(mac);      /* (the context keeps its own reference) */
}
#endif

int
diot_mac(const void *key, size_t klen, const void *msg, size_t mlen,
         unsigned char out[DIOT_MAC_LEN])
{
#if defined(DIO_HAVE_OPENSSL) && OPENSSL_VERSION_NUMBER >= 0x30000000L
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	EVP_MAC_CTX *ctx;
	size_t n = 0;
	int ok;

	pthread_once(&once, fetch_hmac);
	if (hmac_template == NULL || (ctx = EVP_MAC_CTX_dup(hmac_template)) == NULL)
		return -EIO;
	ok = EVP_MAC_init(ctx, key, klen, NULL) == 1 && EVP_MAC_update(ctx, msg, mlen) == 1 &&
	     EVP_MAC_final(ctx, out, &n, DIOT_MAC_LEN) == 1 && n == DIOT_MAC_LEN;
	EVP_MAC_CTX_free(ctx);
	return ok ? 0 : -EIO;
#elif defined(DIO_HAVE_OPENSSL)
	unsigned int n = 0;     /* OpenSSL 1.1: its one-shot HMAC() */

	if (HMAC(EVP_sha256(), key, (int)klen, msg, mlen, out, &n) == NULL ||
	    n != DIOT_MAC_LEN)
		return -EIO;
	return 0;
#elif defined(DIO_HAVE_SODIUM)
	crypto_auth_hmacsha256_state st;

	if (sodium_init() < 0)
		return -EIO;
	if (crypto_auth_hmacsha256_init(&st, key, klen) != 0 ||
	    crypto_auth_hmacsha256_update(&st, msg, mlen) != 0 ||
	    crypto_auth_hmacsha256_final(&st, out) != 0)
		return -EIO;
	return 0;
#else
	(void)key; (void)klen; (void)msg; (void)mlen;
	memset(out, 0, DIOT_MAC_LEN);
	return -ENOSYS;
#endif
}

/* /dev/urandom, all of n. */
static int
urandom(unsigned char *p, size_t n)
{
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	ssize_t r;

	if (fd < 0)
		return errno ? -errno : -EIO;
	while (n > 0) {
		r = read(fd, p, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			close(fd);
			return r < 0 ? -errno : -EIO;
		}
		p += r;
		n -= (size_t)r;
	}
	close(fd);
	return 0;
}

int
diot_random(void *buf, size_t n)
{
#if defined(DIO_HAVE_OPENSSL)
	if (n <= 0x7fffffff && RAND_bytes(buf, (int)n) == 1)
		return 0;
	return urandom(buf, n);
#elif defined(DIO_HAVE_SODIUM)
	if (sodium_init() < 0)
		return urandom(buf, n);
	randombytes_buf(buf, n);
	return 0;
#else
	return urandom(buf, n);
#endif
}

int
diot_mac_equal(const void *a, const void *b, size_t n)
{
	const volatile unsigned char *x = a, *y = b;
	unsigned char d = 0;
	size_t i;

	for (i = 0; i < n; i++)
		d |= (unsigned char)(x[i] ^ y[i]);
	return d == 0;
}

void
diot_hex(const void *p, size_t n, char *out)
{
	static const char digit[] = "0123456789abcdef";
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++) {
		out[2 * i] = digit[b[i] >> 4];
		out[2 * i + 1] = digit[b[i] & 15];
	}
	out[2 * n] = '\0';
}

static int
nibble(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int
diot_unhex(const char *s, size_t len, unsigned char *out, size_t max)
{
	size_t i;
	int hi, lo;

	if (len % 2 != 0 || len / 2 > max)
		return -1;
	for (i = 0; i < len / 2; i++) {
		hi = nibble(s[2 * i]);
		lo = nibble(s[2 * i + 1]);
		if (hi < 0 || lo < 0)
			return -1;
		out[i] = (unsigned char)(hi << 4 | lo);
	}
	return (int)(len / 2);
}
