/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ack-token.c -- the ack listener's token (ack.h): made (256 random bits),
 * written to a file of mode 0600 that is created exclusively and never
 * through a symlink, read back from one that only its owner can read (as
 * ssh takes a private key), or from the environment (DIO_ACK_TOKEN): never
 * from a command line, where ps shows it.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/libdirectio.h"
#include "tools/kit/ack.h"
#include "tools/kit/ack-private.h"
#include "tools/kit/mac.h"

#ifndef O_NOFOLLOW
# define O_NOFOLLOW 0
#endif

int
diot_ack_token_parse(const char *hex, size_t len, struct diot_ack_token *t, char *err,
                     size_t errlen)
{
	int n;

	while (len > 0 && (hex[len - 1] == '\n' || hex[len - 1] == '\r' ||
	                   hex[len - 1] == ' ' || hex[len - 1] == '\t'))
		len--;
	n = len <= 2 * DIOT_ACK_TOKEN_MAX ? diot_unhex(hex, len, t->key, sizeof(t->key)) : -1;
	if (n < DIOT_ACK_TOKEN_MIN) {
		snprintf(err, errlen, "a token is %d to %d hex digits (%d to %d bits), one line",
		         2 * DIOT_ACK_TOKEN_MIN, 2 * DIOT_ACK_TOKEN_MAX, 8 * DIOT_ACK_TOKEN_MIN,
		         8 * DIOT_ACK_TOKEN_MAX);
		return -EINVAL;
	}
	t->len = (size_t)n;
	return 0;
}

int
diot_ack_token_read(const char *path, struct diot_ack_token *t, char *err, size_t errlen)
{
	char buf[2 * DIOT_ACK_TOKEN_MAX + 8], why[160];
	struct stat st;
	ssize_t n;
	int fd, r;

	fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		r = neg_errno();
		snprintf(err, errlen, "'%s': %s", path, dio_strerror(r));
		return r;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		snprintf(err, errlen, "'%s' is not a regular file", path);
		return -EINVAL;
	}
	if (st.st_mode & 077) {
		close(fd);
		snprintf(err, errlen, "'%s': its mode %04o lets others than its owner read or "
		         "write the token: chmod 600 '%s'", path,
		         (unsigned)(st.st_mode & 07777), path);
		return -EPERM;
	}
	while ((n = read(fd, buf, sizeof(buf))) < 0 && errno == EINTR)
		;
	r = n < 0 ? neg_errno() : 0;
	close(fd);
	if (r < 0) {
		snprintf(err, errlen, "'%s': %s", path, dio_strerror(r));
		return r;
	}
	r = diot_ack_token_parse(buf, (size_t)n, t, why, sizeof(why));
	if (r < 0)
		snprintf(err, errlen, "'%s': %s", path, why);
	return r;
}

int
diot_ack_token_env(struct diot_ack_token *t, char *err, size_t errlen)
{
	const char *v = getenv("DIO_ACK_TOKEN");
	char why[160];

	if (v == NULL || v[0] == '\0')
		return 0;
	if (diot_ack_token_parse(v, strlen(v), t, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "DIO_ACK_TOKEN: %s", why);
		return -EINVAL;
	}
	return 1;
}

int
diot_ack_token_create(const char *path, int replace, struct diot_ack_token *t, char *err,
                      size_t errlen)
{
	char hex[2 * DIOT_ACK_TOKEN_NEW + 2];
	struct stat st;
	int fd, r;

	if ((r = diot_random(t->key, DIOT_ACK_TOKEN_NEW)) < 0) {
		snprintf(err, errlen, "random bytes for a token: %s", dio_strerror(r));
		return r;
	}
	t->len = DIOT_ACK_TOKEN_NEW;
	if (replace && lstat(path, &st) == 0) {
		/* The old one goes, never what a symlink there points to. */
		if (!S_ISREG(st.st_mode)) {
			snprintf(err, errlen, "'%s' is %s, not a token file: not replaced", path,
			         S_ISLNK(st.st_mode) ? "a symbolic link" : "not a regular file");
			return -EINVAL;
		}
		if (unlink(path) != 0) {
			r = neg_errno();
			snprintf(err, errlen, "'%s': %s", path, dio_strerror(r));
			return r;
		}
	}
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, 0600);
	if (fd < 0) {
		r = neg_errno();
		snprintf(err, errlen, "'%s': %s%s", path, dio_strerror(r),
		         r == -EEXIST ? " (a token file is made new: pass --force to replace "
		         "it, or --token-file to use it)" : "");
		return r;
	}
	diot_hex(t->key, t->len, hex);
	strcat(hex, "\n");
	r = diot__ack_write_all(fd, hex, strlen(hex), 0);
	if (r == 0 && (fchmod(fd, 0600) != 0 || fsync(fd) != 0))
		r = neg_errno();
	if (close(fd) != 0 && r == 0)
		r = neg_errno();
	if (r < 0) {
		unlink(path);
		snprintf(err, errlen, "writing '%s': %s", path, dio_strerror(r));
	}
	return r;
}
