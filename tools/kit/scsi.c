/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * scsi.c -- SCSI pass-through helpers shared by the tools (see scsi.h).
 */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "scsi.h"

static void
say(char *msg, size_t msglen, const char *text)
{
	if (msg != NULL && msglen > 0)
		snprintf(msg, msglen, "%s", text);
}

int
diot_scsi_run(dio_scsi *c, int fd, const uint8_t *cdb, int cdb_len, int dir,
              void *buf, size_t len, char *msg, size_t msglen)
{
	int64_t resid;
	int r;

	say(msg, msglen, "");
	if (c == NULL || cdb == NULL || cdb_len < 1 || (buf == NULL && len > 0)) {
		say(msg, msglen, c == NULL ? "no SCSI command object" :
		    cdb == NULL || cdb_len < 1 ? "no CDB" : "no data buffer");
		return -EINVAL;
	}
	dio_scsi_clear(c);
	dio_scsi_set_cdb(c, cdb, (size_t)cdb_len);
	dio_scsi_set_data(c, len ? dir : DIO_SCSI_DIR_NONE, buf, len);
	r = dio_scsi_exec(c, fd);
	if (r == 0 && dio_scsi_category(c) != DIO_SCSI_CAT_GOOD)
		r = -EIO;
	if (r < 0) {
		if (msg != NULL && msglen > 0)
			dio_scsi_outcome_str(c, msg, msglen);
		return r;
	}
	resid = dio_scsi_resid(c);
	if (resid > 0 && (uint64_t)resid < len)
		memset((uint8_t *)buf + (len - (size_t)resid), 0, (size_t)resid);
	return 0;
}

int
diot_scsi_capacity_data(const uint8_t *d10, size_t n10, const uint8_t *d16, size_t n16,
                        uint64_t *blocks, uint32_t *block_len, char *msg, size_t msglen)
{
	int r;

	say(msg, msglen, "");
	if (blocks == NULL || block_len == NULL) {
		say(msg, msglen, "READ CAPACITY: bad arguments");
		return -EINVAL;
	}
	*blocks = 0;
	*block_len = 0;
	r = dio_parse_read_capacity(d10, n10, 0, blocks, block_len);
	if (r == -EOVERFLOW) {
		if (d16 == NULL)
			return 1;       /* (16) is to be asked */
		*blocks = 0;
		*block_len = 0;
		r = dio_parse_read_capacity(d16, n16, 1, blocks, block_len);
	}
	if (r < 0 && msg != NULL && msglen > 0)
		snprintf(msg, msglen, "READ CAPACITY gave no usable capacity (%llu blocks "
		         "of %u bytes)", (unsigned long long)*blocks, *block_len);
	return r;
}

int
diot_scsi_capacity(dio_scsi *c, int fd, uint64_t *blocks, uint32_t *block_len,
                   char *msg, size_t msglen)
{
	uint8_t cdb[16], b10[8], b16[32];
	char why[300];
	int n, r;

	say(msg, msglen, "");
	if (c == NULL || blocks == NULL || block_len == NULL) {
		say(msg, msglen, "READ CAPACITY: bad arguments");
		return -EINVAL;
	}
	*blocks = 0;
	*block_len = 0;
	memset(b10, 0, sizeof(b10));
	n = dio_cdb_read_capacity10(cdb);
	r = diot_scsi_run(c, fd, cdb, n, DIO_SCSI_DIR_IN, b10, sizeof(b10), why, sizeof(why));
	if (r < 0) {
		if (msg != NULL && msglen > 0)
			snprintf(msg, msglen, "READ CAPACITY(10) failed: %s", why);
		return r;
	}
	r = diot_scsi_capacity_data(b10, sizeof(b10), NULL, 0, blocks, block_len, msg, msglen);
	if (r != 1)
		return r;
	memset(b16, 0, sizeof(b16));
	n = dio_cdb_read_capacity16(cdb, sizeof(b16));
	r = diot_scsi_run(c, fd, cdb, n, DIO_SCSI_DIR_IN, b16, sizeof(b16), why, sizeof(why));
	if (r < 0) {
		if (msg != NULL && msglen > 0)
			snprintf(msg, msglen, "READ CAPACITY(16) failed: %s", why);
		return r;
	}
	return diot_scsi_capacity_data(b10, sizeof(b10), b16, sizeof(b16), blocks, block_len,
	                               msg, msglen);
}
