/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * scsi.h -- SCSI pass-through helpers shared by the tools (dio-rbuf,
 * dio-info, dio-dd): one command with its outcome as text, and the
 * capacity by READ CAPACITY.  Both return 0 or a negative errno value and
 * write why into msg (msglen bytes; "" on success).  They print nothing.
 */
#ifndef DIO_TOOLS_KIT_SCSI_H
#define DIO_TOOLS_KIT_SCSI_H

#include <stddef.h>
#include <stdint.h>
#include "libdirectio.h"

/*
 * Run one command on fd with object c: dio_scsi_clear(c) (the timeout and
 * transfer mode set on c stay), the CDB (cdb_len bytes), the data phase
 * (dir DIO_SCSI_DIR_*, buf, len; len 0 for none), dio_scsi_exec().  When
 * the command completes with fewer bytes than len (residual), the bytes
 * not transferred are zeroed.  Returns 0 when it completed GOOD.
 * Otherwise msg gets dio_scsi_outcome_str() and the return is:
 * - the -errno of dio_scsi_exec() when it could not be sent (-ENOTTY: fd
 *   is not a SCSI pass-through device, e.g. a regular file; -ENOTSUP:
 *   no pass-through on this OS...); dio_scsi_category(c) is then < 0;
 * - -EIO when the device answered other than GOOD (CHECK CONDITION,
 *   another status, a transport error); dio_scsi_category(c) >= 0 says
 *   which and the getters give the details.
 * -EINVAL (msg says why) for c NULL, cdb NULL, cdb_len < 1 or buf NULL
 * with len > 0.
 */
int diot_scsi_run(dio_scsi *c, int fd, const uint8_t *cdb, int cdb_len, int dir,
                  void *buf, size_t len, char *msg, size_t msglen);

/*
 * The capacity of the SCSI device on fd: READ CAPACITY(10), then
 * READ CAPACITY(16) when (10) answers 0xFFFFFFFF blocks.  *blocks gets
 * the number of logical blocks (last LBA + 1), *block_len their length in
 * bytes (either may be 0 if the device says so: the caller judges).
 * Returns 0, or as diot_scsi_run() with msg "READ CAPACITY(10) failed:
 * OUTCOME" / "READ CAPACITY(16) failed: OUTCOME", or the -errno of
 * dio_parse_read_capacity() with msg "READ CAPACITY gave no usable
 * capacity (B blocks of L bytes)".  c is used as by diot_scsi_run() (set
 * its timeout first); -EINVAL for c, blocks or block_len NULL.
 */
int diot_scsi_capacity(dio_scsi *c, int fd, uint64_t *blocks, uint32_t *block_len,
                       char *msg, size_t msglen);

/*
 * What diot_scsi_capacity() makes of the answers' data (the part that
 * reads what a device sent, apart from sending: tests/fuzz/dd-capacity.c
 * feeds it any bytes): d10, n10 the data of READ CAPACITY(10); d16, n16
 * that of (16), or d16 NULL when it has not been asked.  Returns 0 with
 * *blocks and *block_len; 1 when (10) says the capacity needs (16) and
 * d16 is NULL (ask it, call again); or the -errno of
 * dio_parse_read_capacity() with msg as diot_scsi_capacity() says.
 */
int diot_scsi_capacity_data(const uint8_t *d10, size_t n10, const uint8_t *d16, size_t n16,
                            uint64_t *blocks, uint32_t *block_len, char *msg, size_t msglen);

#endif
