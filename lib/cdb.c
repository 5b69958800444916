/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cdb.c -- CDB builders (SPC-4, SBC-3 layouts) and parsers of the
 * responses the library's users need: standard INQUIRY, READ CAPACITY,
 * the READ BUFFER descriptor and the caching mode page.  All multi-byte
 * fields are big-endian.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "internal.h"

#define DIO__CDB_MAX 16

static void
dio__put_be(uint8_t *p, uint64_t v, size_t n)
{
	while (n-- > 0) {
		p[n] = (uint8_t)(v & 0xff);
		v >>= 8;
	}
}

static uint64_t
dio__get_be(const uint8_t *p, size_t n)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < n; i++)
		v = (v << 8) | p[i];
	return v;
}

/* Zero a CDB of len bytes and set its operation code. */
static int
dio__cdb_start(uint8_t *cdb, uint8_t opcode, int len)
{
	memset(cdb, 0, (size_t)len);
	cdb[0] = opcode;
	return len;
}

int
dio_cdb_test_unit_ready(uint8_t *cdb)
{
	if (cdb == NULL)
		return -EINVAL;
	return dio__cdb_start(cdb, 0x00, 6);
}

int
dio_cdb_inquiry(uint8_t *cdb, int evpd, int page, uint16_t alloc_len)
{
	if (cdb == NULL || page < 0 || page > 0xff || (!evpd && page != 0))
		return -EINVAL;
	dio__cdb_start(cdb, 0x12, 6);
	cdb[1] = evpd ? 0x01 : 0x00;
	cdb[2] = (uint8_t)page;
	dio__put_be(cdb + 3, alloc_len, 2);
	return 6;
}

int
dio_cdb_read_capacity10(uint8_t *cdb)
{
	if (cdb == NULL)
		return -EINVAL;
	return dio__cdb_start(cdb, 0x25, 10);
}

int
dio_cdb_read_capacity16(uint8_t *cdb, uint32_t alloc_len)
{
	if (cdb == NULL)
		return -EINVAL;
	dio__cdb_start(cdb, 0x9e, 16);
	cdb[1] = 0x10;          /* service action READ CAPACITY(16) */
	dio__put_be(cdb + 10, alloc_len, 4);
	return 16;
}

/* READ BUFFER(10) and WRITE BUFFER share one layout. */
static int
dio__cdb_buffer(uint8_t *cdb, uint8_t opcode, int mode, int buffer_id,
                uint32_t offset, uint32_t len)
{
	if (cdb == NULL || mode < 0 || mode > 0x1f || buffer_id < 0 ||
	    buffer_id > 0xff || offset > 0xffffffu || len > 0xffffffu)
		return -EINVAL;
	dio__cdb_start(cdb, opcode, 10);
	cdb[1] = (uint8_t)mode;
	cdb[2] = (uint8_t)buffer_id;
	dio__put_be(cdb + 3, offset, 3);
	dio__put_be(cdb + 6, len, 3);
	return 10;
}

int
dio_cdb_read_buffer(uint8_t *cdb, int mode, int buffer_id, uint32_t offset,
                    uint32_t len)
{
	return dio__cdb_buffer(cdb, 0x3c, mode, buffer_id, offset, len);
}

int
dio_cdb_write_buffer(uint8_t *cdb, int mode, int buffer_id, uint32_t offset,
                     uint32_t len)
{
	if (mode != DIO_BUF_MODE_DATA && mode != DIO_BUF_MODE_ECHO)
		return -EINVAL;
	return dio__cdb_buffer(cdb, 0x3b, mode, buffer_id, offset, len);
}

int
dio_cdb_rw10(uint8_t *cdb, int write, uint32_t lba, uint32_t blocks, int fua)
{
	if (cdb == NULL || blocks > 0xffffu)
		return -EINVAL;
	dio__cdb_start(cdb, write ? 0x2a : 0x28, 10);
	cdb[1] = fua ? 0x08 : 0x00;
	dio__put_be(cdb + 2, lba, 4);
	dio__put_be(cdb + 7, blocks, 2);
	return 10;
}

int
dio_cdb_rw16(uint8_t *cdb, int write, uint64_t lba, uint32_t blocks, int fua)
{
	if (cdb == NULL)
		return -EINVAL;
	dio__cdb_start(cdb, write ? 0x8a : 0x88, 16);
	cdb[1] = fua ? 0x08 : 0x00;
	dio__put_be(cdb + 2, lba, 8);
	dio__put_be(cdb + 10, blocks, 4);
	return 16;
}

int
dio_cdb_sync_cache10(uint8_t *cdb, uint32_t lba, uint32_t blocks, int immed)
{
	if (cdb == NULL || blocks > 0xffffu)
		return -EINVAL;
	dio__cdb_start(cdb, 0x35, 10);
	cdb[1] = immed ? 0x02 : 0x00;
	dio__put_be(cdb + 2, lba, 4);
	dio__put_be(cdb + 7, blocks, 2);
	return 10;
}

int
dio_cdb_sync_cache16(uint8_t *cdb, uint64_t lba, uint32_t blocks, int immed)
{
	if (cdb == NULL)
		return -EINVAL;
	dio__cdb_start(cdb, 0x91, 16);
	cdb[1] = immed ? 0x02 : 0x00;
	dio__put_be(cdb + 2, lba, 8);
	dio__put_be(cdb + 10, blocks, 4);
	return 16;
}

int
dio_cdb_mode_sense10(uint8_t *cdb, int page, int subpage, int pc, int dbd,
                     uint16_t alloc_len)
{
	if (cdb == NULL || page < 0 || page > 0x3f || subpage < 0 || subpage > 0xff ||
	    pc < 0 || pc > 3)
		return -EINVAL;
	dio__cdb_start(cdb, 0x5a, 10);
	cdb[1] = dbd ? 0x08 : 0x00;
	cdb[2] = (uint8_t)((pc << 6) | page);
	cdb[3] = (uint8_t)subpage;
	dio__put_be(cdb + 7, alloc_len, 2);
	return 10;
}

/* ------------------------------------------------------------ parsers */

/* Copy an ASCII field, '?' for unprintable bytes, trailing blanks cut. */
static void
dio__ascii(char *dst, const uint8_t *src, size_t avail, size_t n)
{
	size_t i, end = 0;

	if (avail < n)
		n = avail;
	for (i = 0; i < n; i++) {
		dst[i] = (src[i] >= 0x20 && src[i] < 0x7f) ? (char)src[i] : '?';
		if (src[i] != ' ' && src[i] != '\0')
			end = i + 1;
	}
	dst[end] = '\0';
}

int
dio_parse_inquiry(const uint8_t *buf, size_t len, struct dio_inquiry *out)
{
	if (out == NULL)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (buf == NULL || len < 8)
		return -EINVAL;
	/* Believe the device's own additional length if it is shorter. */
	if ((size_t)buf[4] + 5 < len)
		len = (size_t)buf[4] + 5;
	out->peripheral_type = buf[0] & 0x1f;
	out->qualifier = (buf[0] >> 5) & 0x07;
	out->removable = (buf[1] >> 7) & 1;
	out->version = buf[2];
	if (len > 8)
		dio__ascii(out->vendor, buf + 8, len - 8, 8);
	if (len > 16)
		dio__ascii(out->product, buf + 16, len - 16, 16);
	if (len > 32)
		dio__ascii(out->revision, buf + 32, len - 32, 4);
	return 0;
}

int
dio_parse_read_capacity(const uint8_t *buf, size_t len, int is16,
                        uint64_t *blocks, uint32_t *block_len)
{
	uint64_t last;

	if (buf == NULL)
		return -EINVAL;
	if (is16) {
		if (len < 12)
			return -EINVAL;
		last = dio__get_be(buf, 8);
		if (block_len)
			*block_len = (uint32_t)dio__get_be(buf + 8, 4);
		if (last == UINT64_MAX) {
			if (blocks)
				*blocks = UINT64_MAX;
			return -EOVERFLOW;
		}
	} else {
		if (len < 8)
			return -EINVAL;
		last = dio__get_be(buf, 4);
		if (block_len)
			*block_len = (uint32_t)dio__get_be(buf + 4, 4);
		if (last == 0xffffffffu) {
			if (blocks)
				*blocks = (uint64_t)1 << 32;
			return -EOVERFLOW;
		}
	}
	if (blocks)
		*blocks = last + 1;
	return 0;
}

int
dio_parse_buffer_descriptor(const uint8_t *buf, size_t len, unsigned *offset_boundary,
                            uint32_t *capacity)
{
	if (buf == NULL || len < 4)
		return -EINVAL;
	if (offset_boundary)
		*offset_boundary = buf[0];
	if (capacity)
		*capacity = (uint32_t)dio__get_be(buf + 1, 3);
	return 0;
}

/*
 * MODE SENSE(10) data: an 8-byte header (mode data length in bytes 0..1,
 * counting from byte 2; block descriptor length in bytes 6..7), the block
 * descriptors, then mode pages.  A page with SPF (bit 6) set is a
 * sub-page: 4-byte header with a 2-byte length; otherwise a 2-byte header.
 */
int
dio_parse_caching_page(const uint8_t *buf, size_t len, int *wce, int *rcd)
{
	size_t end, off, plen, hdr;
	const uint8_t *p;

	if (buf == NULL || len < 8)
		return -EINVAL;
	end = (size_t)dio__get_be(buf, 2) + 2;
	if (end < 8)
		return -EINVAL;
	if (end > len)
		end = len;      /* the data was cut by the allocation length */
	off = 8 + (size_t)dio__get_be(buf + 6, 2);
	while (off + 2 <= end) {
		p = buf + off;
		if (p[0] & 0x40) {
			if (off + 4 > end)
				return -EINVAL;
			hdr = 4;
			plen = (size_t)dio__get_be(p + 2, 2);
		} else {
			hdr = 2;
			plen = p[1];
		}
		if ((p[0] & 0x3f) == 0x08 && !(p[0] & 0x40)) {
			if (plen < 1 || off + hdr + 1 > end)
				return -EINVAL;
			if (wce)
				*wce = (p[2] >> 2) & 1;
			if (rcd)
				*rcd = p[2] & 1;
			return 0;
		}
		off += hdr + plen;
	}
	return -ENOENT;
}
