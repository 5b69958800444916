/* SPDX-License-Identifier: BSD-2-Clause */
/* direct.c -- see direct.h. */
#include "config.h"

#include <string.h>

#include "tools/kit/direct.h"

/* How lib/file.c's dio_file_set_direct() begins its failure detail. */
#define LEAD "set direct on: "

char *
diot_direct_refusal(const dio_file *f, char *buf, size_t len)
{
	size_t n = strlen(LEAD);

	if (len == 0)
		return buf;
	buf[0] = '\0';
	(void)dio_file_errdetail(f, buf, len);
	if (strncmp(buf, LEAD, n) == 0)
		memmove(buf, buf + n, strlen(buf + n) + 1);
	return buf;
}
