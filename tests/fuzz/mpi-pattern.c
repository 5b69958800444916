/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mpi-pattern.c -- harness: the names of a rank's files, %r (the rank),
 * %h (the host) and %% in --ack-log and dio-dd's of=/if= patterns
 * (tools/kit/mpi-common.c: diot_mpi_expand(), diot_mpi_pattern_has()).
 * The input: 4 bytes of rank (any int, negative too), a byte of host
 * length and that many bytes of host name (up to the 63 a rank keeps), 2
 * bytes of output size (0 to 65535, into a buffer of exactly that size,
 * so that a write past it is caught), then the pattern.  Each expansion
 * is compared with this harness's own reading of the pattern, and whether
 * a name "has a %r" with what the expansion did.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz.h"
#include "tools/kit/mpi.h"

/* The expansion as mpi.h says it, written plainly (no length limit): its
 * length into *n; *rank, *host: whether a %r, a %h was replaced. */
static char *
reference(const struct diot_mpi *m, const char *p, size_t *n, int *rank, int *host)
{
	size_t cap = strlen(p) * (DIOT_MPI_HOST_MAX + 16) + 1, k = 0;
	char *out = malloc(cap), num[16];
	const char *host_name = m->host[0] ? m->host : "localhost";

	*rank = *host = 0;
	if (out == NULL)
		return NULL;
	snprintf(num, sizeof(num), "%d", m->rank);
	for (; *p; p++) {
		if (p[0] == '%' && p[1] == 'r') {
			memcpy(out + k, num, strlen(num));
			k += strlen(num);
			*rank = 1;
			p++;
		} else if (p[0] == '%' && p[1] == 'h') {
			memcpy(out + k, host_name, strlen(host_name));
			k += strlen(host_name);
			*host = 1;
			p++;
		} else if (p[0] == '%' && p[1] == '%') {
			out[k++] = '%';
			p++;
		} else {
			out[k++] = *p;
		}
	}
	out[k] = '\0';
	*n = k;
	return out;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct diot_mpi m;
	size_t hl, len, n;
	char *pattern, *want, *out;
	int r, rank, host;

	memset(&m, 0, sizeof(m));
	m.rank = (int)(uint32_t)fuzz_take(&data, &size, 4);
	hl = (size_t)fuzz_take(&data, &size, 1) % DIOT_MPI_HOST_MAX;
	if (hl > size)
		hl = size;
	memcpy(m.host, data, hl);        /* (a NUL inside ends it early) */
	data += hl;
	size -= hl;
	len = (size_t)fuzz_take(&data, &size, 2);
	pattern = fuzz_string(data, size);
	out = malloc(len ? len : 1);
	if (pattern == NULL || out == NULL ||
	    (want = reference(&m, pattern, &n, &rank, &host)) == NULL) {
		free(pattern);
		free(out);
		return 0;
	}
	r = diot_mpi_expand(&m, pattern, out, len);
	if (r == 0 && (n >= len || strcmp(out, want) != 0))
		abort();        /* not the expansion, or longer than out */
	if (r != 0 && (r != -ENAMETOOLONG || n < len))
		abort();        /* refused a name that fits */
	/* "Has a %r" is what the expansion replaces: a name without one is
	 * the same file on every rank. */
	if (diot_mpi_pattern_has(pattern, 'r') != rank ||
	    diot_mpi_pattern_has(pattern, 'h') != host ||
	    diot_mpi_has_pattern(pattern) != (rank || host))
		abort();
	fuzz_verdict(r == 0, "the name does not fit its buffer once expanded");
	free(want);
	free(out);
	free(pattern);
	return 0;
}
