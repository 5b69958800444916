/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * device.c -- dio-rbuf's device: open it as a SCSI device and probe it
 * (INQUIRY, the READ BUFFER descriptor, READ CAPACITY) through the kit's
 * SCSI helpers.  A device that cannot do the job ends the program with
 * DIOT_EXIT_FAIL and the reason.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "tools/kit/msg.h"
#include "tools/kit/scsi.h"
#include "tools/rbuf/rbuf.h"

/*
 * Run one small setup command; 0 when GOOD.  Otherwise prints nothing,
 * writes why into why and returns -errno (not sent) or 1 (answered).
 */
static int
setup_cmd(struct dev *d, const uint8_t *cdb, int cdb_len, void *buf, size_t len,
          unsigned timeout_s, char *why, size_t whylen)
{
	dio_scsi *c = dio_scsi_new();
	int r;

	if (c == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	dio_scsi_set_timeout(c, timeout_s * 1000u);
	r = diot_scsi_run(c, d->fd, cdb, cdb_len, DIO_SCSI_DIR_IN, buf, len, why, whylen);
	if (r < 0 && dio_scsi_category(c) >= 0)
		r = 1;
	dio_scsi_free(c);
	return r;
}

void
rbuf_open_device(struct dev *d, const struct opts *o)
{
	struct stat st;
	int fd;

	d->path = o->device;
	if (stat(d->path, &st) != 0)
		diot_die(DIOT_EXIT_FAIL, "%s: %s", d->path, dio_strerror(-errno));
	if (!S_ISCHR(st.st_mode) && !S_ISBLK(st.st_mode))
		diot_die(DIOT_EXIT_FAIL,
		         "%s: not a device (%s); give a SCSI device: an sg device "
		         "(/dev/sgN), a SCSI disk (/dev/sdX) or an illumos raw disk "
		         "(/dev/rdsk/...)", d->path,
		         S_ISREG(st.st_mode) ? "a regular file" :
		         S_ISDIR(st.st_mode) ? "a directory" : "not a block or character device");
	fd = dio_scsi_open(d->path, 1);
	if (fd == -ENOTTY)
		diot_die(DIOT_EXIT_FAIL,
		         "%s: not a SCSI device: it does not accept SCSI pass-through "
		         "(SG_IO/USCSICMD)", d->path);
	if (fd == -ENOTSUP)
		diot_die(DIOT_EXIT_FAIL,
		         "%s: this build has no SCSI pass-through (libdirectio backend %s)",
		         d->path, dio_backend_name());
	if (fd < 0)
		diot_die(DIOT_EXIT_FAIL,
		         "%s: cannot open: %s", d->path, dio_strerror(fd));
	d->fd = fd;
	/* Only sg has a reserved buffer: asking for 0 bytes reads its size. */
	d->reserved = dio_scsi_reserve(fd, 0);
	if (S_ISBLK(st.st_mode))
		d->kind = "block device";
	else if (d->reserved >= 0)
		d->kind = "sg character device";
	else
		d->kind = "character device";
}

void
rbuf_probe_inquiry(struct dev *d, const struct opts *o)
{
	uint8_t cdb[16], buf[96];
	char why[300];

	memset(buf, 0, sizeof(buf));
	dio_cdb_inquiry(cdb, 0, 0, sizeof(buf));
	if (setup_cmd(d, cdb, 6, buf, sizeof(buf), o->timeout_s, why, sizeof(why)) == 0 &&
	    dio_parse_inquiry(buf, sizeof(buf), &d->inq) == 0)
		d->have_inq = 1;
	else
		rbuf_note(o->verbose, 1, "%s: INQUIRY failed: %s", d->path, why);
}

void
rbuf_probe_buffer(struct dev *d, const struct opts *o)
{
	uint8_t cdb[16], buf[4] = { 0 };
	char why[300];
	int r;

	dio_cdb_read_buffer(cdb, o->echo ? DIO_BUF_MODE_ECHO_DESCRIPTOR :
	                    DIO_BUF_MODE_DESCRIPTOR, o->buffer_id, 0, sizeof(buf));
	r = setup_cmd(d, cdb, 10, buf, sizeof(buf), o->timeout_s, why, sizeof(why));
	if (r < 0)
		diot_die(DIOT_EXIT_FAIL,
		         "%s: READ BUFFER (%sdescriptor mode) could not be sent: %s", d->path,
		         o->echo ? "echo buffer " : "", why);
	if (r > 0) {
		/* Two messages: a message is one line (the kit shows a newline
		 * in it as \n). */
		diot_warn("%s: the device refused READ BUFFER (%sdescriptor mode, buffer id "
		          "%d): %s", d->path, o->echo ? "echo buffer " : "", o->buffer_id, why);
		diot_die(DIOT_EXIT_FAIL, "without READ BUFFER, use --command read to time "
		         "READ(10) of a few blocks instead");
	}
	if (o->echo) {
		/* SPC: the echo buffer's capacity in 13 bits of bytes 2-3; its
		 * offset is always 0. */
		d->boundary = 0;
		d->capacity = ((uint32_t)(buf[2] & 0x1f) << 8) | buf[3];
	} else {
		dio_parse_buffer_descriptor(buf, sizeof(buf), &d->boundary, &d->capacity);
	}
	rbuf_note(o->verbose, 1, "READ BUFFER descriptor: %02x %02x %02x %02x: offset "
	          "boundary %u, capacity %u bytes", buf[0], buf[1], buf[2], buf[3],
	          d->boundary, d->capacity);
	if (d->capacity == 0)
		diot_die(DIOT_EXIT_FAIL,
		         "%s: the device reports a READ BUFFER capacity of 0 bytes for "
		         "buffer id %d: nothing to read", d->path, o->buffer_id);
	d->limit = d->capacity;
}

void
rbuf_probe_capacity(struct dev *d, const struct opts *o)
{
	dio_scsi *c = dio_scsi_new();
	char why[300];
	int r;

	if (c == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	dio_scsi_set_timeout(c, o->timeout_s * 1000u);
	r = diot_scsi_capacity(c, d->fd, &d->blocks, &d->block_len, why, sizeof(why));
	dio_scsi_free(c);
	if (r < 0)
		diot_die(DIOT_EXIT_FAIL, "%s: %s", d->path, why);
	if (d->block_len == 0 || d->blocks == 0)
		diot_die(DIOT_EXIT_FAIL,
		         "%s: READ CAPACITY gave no usable capacity (%llu blocks of %u bytes)",
		         d->path, (unsigned long long)d->blocks, d->block_len);
	rbuf_note(o->verbose, 1, "READ CAPACITY: %llu blocks of %u bytes",
	          (unsigned long long)d->blocks, d->block_len);
	if (o->lba >= d->blocks)
		diot_die(DIOT_EXIT_FAIL,
		         "%s: --lba %llu is beyond the last block (%llu)", d->path,
		         (unsigned long long)o->lba, (unsigned long long)(d->blocks - 1));
	d->limit = (uint64_t)READ10_MAX_BLOCKS * d->block_len;
	if (d->blocks - o->lba < READ10_MAX_BLOCKS)
		d->limit = (d->blocks - o->lba) * d->block_len;
}

/* Why direct I/O was asked and not done, for the report: the sg driver's
 * allow_dio, as the library's device facts know it. */
void
rbuf_direct_reason(const struct dev *d, const struct run *r, char *buf, size_t len)
{
	struct dio_devinfo di;
	const char *where;

	if (r->xfer_done == DIO_SCSI_XFER_AUTO) {
		snprintf(buf, len, "the OS chose the data path and does not report it");
		return;
	}
	if (dio_devinfo(d->path, &di) < 0)
		di.allow_dio = DIO_TRI_UNKNOWN;
	where = di.allow_dio_path[0] ? di.allow_dio_path : "allow_dio";
	if (di.allow_dio == DIO_TRI_NO)
		snprintf(buf, len, "the sg driver fell back to indirect I/O because "
		         "%s is 0 (as root: echo 1 > %s)", where, where);
	else if (di.allow_dio == DIO_TRI_YES)
		snprintf(buf, len, "the sg driver fell back to indirect I/O although "
		         "%s is 1: the buffer did not meet the queue's DMA alignment or "
		         "the request needed more than the driver maps directly", where);
	else
		snprintf(buf, len, "the driver fell back to indirect I/O and did not "
		         "say why (the sg driver's allow_dio cannot be read here)");
}
