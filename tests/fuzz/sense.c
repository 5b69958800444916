/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sense.c -- harness: the library's decoding of what a SCSI device sends
 * back.  The input is sense data for dio_sense_decode() and
 * dio_sense_str() (into buffers of exact sizes, so that a write past the
 * length is caught), and the same bytes as the data of INQUIRY, READ
 * CAPACITY(10)/(16), a READ BUFFER descriptor, a MODE SENSE(10) reply
 * (dio_parse_*()) and a VPD page 80h (dio-info's info_parse_serial()).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "libdirectio.h"
#include "tests/fuzz/fuzz.h"
#include "tools/info/info.h"

/* dio_sense_str() into exactly len bytes: NUL-terminated inside them. */
static void
sense_text(const struct dio_sense *s, size_t len)
{
	char *buf = malloc(len ? len : 1);

	if (buf == NULL)
		return;
	if (dio_sense_str(s, len ? buf : NULL, len) != (len ? buf : NULL) ||
	    (len > 0 && memchr(buf, '\0', len) == NULL))
		abort();
	free(buf);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dio_sense s;
	struct dio_inquiry inq;
	uint64_t blocks;
	uint32_t blen, cap;
	unsigned ob;
	int wce, rcd, r, took;
	char serial[256];
	const char *t;

	serial[0] = '\0';
	r = dio_sense_decode(data, size, &s);
	if (r != 0 && r != -EINVAL)
		abort();
	if (r == 0) {
		if (s.key > 15)
			abort();
		t = dio_sense_key_name(s.key);
		if (t == NULL || *t == '\0')
			abort();
		(void)dio_sense_asc_text(s.asc, s.ascq);
		sense_text(&s, 512);
		sense_text(&s, size > 0 ? 1 + data[0] % 96 : 1);
		sense_text(&s, 0);
	}
	(void)dio_sense_key_name(size > 0 ? (int)data[0] - 128 : -1);
	if (size >= 2)
		(void)dio_sense_asc_text(data[0], data[1]);

	/* Accepted: one of the decoders took it as what it reads (sense
	 * data with a sense key, a page of the parsers, a serial number). */
	took = r == 0;
	took |= dio_parse_inquiry(data, size, &inq) == 0;
	took |= dio_parse_read_capacity(data, size, 0, &blocks, &blen) == 0;
	took |= dio_parse_read_capacity(data, size, 1, &blocks, &blen) == 0;
	took |= dio_parse_buffer_descriptor(data, size, &ob, &cap) == 0;
	took |= dio_parse_caching_page(data, size, &wce, &rcd) == 0;
	took |= info_parse_serial(data, size, serial, sizeof(serial)) == 0 && serial[0] != '\0';
	if (memchr(serial, '\0', sizeof(serial)) == NULL)
		abort();
	fuzz_verdict(took, NULL);
	return 0;
}
