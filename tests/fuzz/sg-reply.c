/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sg-reply.c -- harness: what dio-dd does with the sg driver's replies.
 * The input is a sequence of SG_IO replies that the Linux backend gets
 * through its test hook (os/linux-read.h: dio__sg_io_hook) instead of the
 * kernel; each SG_IO takes the next one (an exhausted input answers GOOD
 * with nothing).  A reply is, little-endian:
 *
 *   flags 1      bit 7: the ioctl fails, errno picked by bits 0-2
 *   status 1, host_status 2, driver_status 2, resid 4 (signed), info 4,
 *   duration 4, sb_len_wr 1,
 *   sense bytes: min(sb_len_wr, the sense buffer) of them,
 *   data count 2, then that many bytes into the data buffer (a READ's),
 *   as far as it holds them.
 *
 * The run is dio-dd's: READ CAPACITY(10), then (16) when it says so
 * (diot_scsi_capacity(), tools/kit/scsi.c, with tools/dd/open.c's checks
 * of its answer), then one READ and one WRITE through dio-dd's sg
 * transfers (tools/dd/io.c, dd_io_choose()) of a length the input picks
 * (whole blocks or not), then a few repeated commands
 * (dio_scsi_exec_repeat(), as dio-rbuf times them).  The library's
 * categories, residuals and sense decoding (dio_scsi_outcome_str()) are
 * the path.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <scsi/sg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "os/linux-read.h"
#include "tests/fuzz/fuzz.h"
#include "tools/dd/dd.h"
#include "tools/kit/scsi.h"

static const uint8_t *in;
static size_t in_left;
static uint64_t replies;

static uint64_t
take(size_t n)
{
	return fuzz_take(&in, &in_left, n);
}

/* One reply, as the sg driver fills a struct sg_io_hdr. */
static int
fake_sg_io(int fd, struct sg_io_hdr *h)
{
	static const int errs[8] = { EIO, ENOMEM, EBUSY, EPERM, EINVAL, ENOTTY,
	                             EFAULT, EAGAIN };
	unsigned flags, sb;
	size_t n, i;

	(void)fd;
	if (h == NULL || h->interface_id != 'S')
		abort();
	replies++;
	flags = (unsigned)take(1);
	if (flags & 0x80) {
		errno = errs[flags & 7];
		return -1;
	}
	h->status = (unsigned char)take(1);
	h->masked_status = (unsigned char)((h->status >> 1) & 0x7f);
	h->host_status = (unsigned short)take(2);
	h->driver_status = (unsigned short)take(2);
	h->resid = (int)(int32_t)(uint32_t)take(4);
	h->info = (unsigned)take(4);
	h->duration = (unsigned)take(4);
	sb = (unsigned)take(1);
	h->sb_len_wr = (unsigned char)sb;
	n = sb < h->mx_sb_len ? sb : h->mx_sb_len;
	if (h->sbp == NULL && n > 0)
		abort();
	for (i = 0; i < n; i++)
		h->sbp[i] = (unsigned char)take(1);
	n = (size_t)take(2);
	for (i = 0; i < n; i++) {
		uint8_t b = (uint8_t)take(1);

		if (h->dxfer_direction == SG_DXFER_FROM_DEV && h->dxferp != NULL &&
		    i < h->dxfer_len)
			((uint8_t *)h->dxferp)[i] = b;
	}
	return 0;
}

/* dio-dd's sg transfers (tools/dd/io.c) on one side of kind DD_KIND_SG. */
static void
transfers(int fd, uint32_t blen, uint64_t blocks)
{
	static struct dd dd;
	static struct dd_dev d;
	struct dd_wctx w;
	struct dd_side *s = &d.in;
	size_t len, bpt;
	uint8_t *buf;
	int64_t n;
	unsigned pick;

	memset(&dd, 0, sizeof(dd));
	memset(&d, 0, sizeof(d));
	memset(&w, 0, sizeof(w));
	pick = (unsigned)take(1);
	dd.o.bs = blen;
	dd.o.dio = (pick >> 3) & 1;
	dd.o.oflag.dsync = (pick >> 4) & 1;
	bpt = 1 + (pick & 3);
	len = blen * bpt + ((pick >> 5) & 1 ? (size_t)take(2) % blen : 0);
	buf = malloc(len);
	if (buf == NULL)
		return;
	if (pthread_mutex_init(&d.lock, NULL) != 0) {
		free(buf);
		return;
	}
	s->path = "fuzz-sg";
	s->kind = DD_KIND_SG;
	s->fd = fd;
	s->sg_block = blen;
	s->sg_blocks = blocks;
	s->use16 = (pick >> 6) & 1;
	s->allow_dio = (pick >> 7) ? DIO_TRI_YES : DIO_TRI_UNKNOWN;
	snprintf(s->allow_dio_path, sizeof(s->allow_dio_path), "/sys/module/sg/parameters/allow_dio");
	d.out = d.in;
	dd_io_choose(&dd.o, &d.in, 0);
	dd_io_choose(&dd.o, &d.out, 1);
	w.dd = &dd;
	w.d = &d;
	w.sc = dio_scsi_new();
	if (w.sc != NULL && (!dd.o.dio || dio_scsi_set_xfer(w.sc, DIO_SCSI_XFER_DIRECT) == 0)) {
		memset(buf, 0xa5, len);
		n = d.in.xfer(&w, &d.in, buf, blen * bpt, (int64_t)take(4) * blen);
		if (n > (int64_t)(blen * bpt))
			abort();
		w.err = 0;
		n = d.out.xfer(&w, &d.out, buf, len, (int64_t)take(4) * blen);
		if (n > (int64_t)len)
			abort();
		if (memchr(w.errmsg, '\0', sizeof(w.errmsg)) == NULL ||
		    memchr(w.reason, '\0', sizeof(w.reason)) == NULL)
			abort();
	}
	dio_scsi_free(w.sc);
	pthread_mutex_destroy(&d.lock);
	free(buf);
}

/* Repeated commands, as dio-rbuf times READ BUFFER. */
static void
repeated(int fd)
{
	struct dio_scsi_tally t;
	uint8_t cdb[16], buf[512];
	char msg[300];
	dio_scsi *c = dio_scsi_new();
	uint64_t count = 1 + take(1) % 8;
	int n;

	if (c == NULL)
		return;
	n = dio_cdb_read_buffer(cdb, DIO_BUF_MODE_DATA, 0, 0, sizeof(buf));
	dio_scsi_set_cdb(c, cdb, (size_t)n);
	dio_scsi_set_data(c, DIO_SCSI_DIR_IN, buf, sizeof(buf));
	if (dio_scsi_exec_repeat(c, fd, count, &t) == 0) {
		if (t.commands > count)
			abort();
		dio_scsi_outcome_str(c, msg, sizeof(msg));
		if (memchr(msg, '\0', sizeof(msg)) == NULL)
			abort();
	}
	dio_scsi_free(c);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	struct dd_side side;
	dio_scsi *c;
	uint64_t blocks = 0;
	uint32_t blen = 0;
	char msg[400];
	int r;

	if (fd < 0) {
		/* A descriptor to name: the hook answers for it. */
		fd = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (fd < 0)
			return 0;
	}
	in = data;
	in_left = size;
	dio__sg_io_hook = fake_sg_io;

	c = dio_scsi_new();
	if (c == NULL)
		return 0;
	r = diot_scsi_capacity(c, fd, &blocks, &blen, msg, sizeof(msg));
	dio_scsi_free(c);
	if (memchr(msg, '\0', sizeof(msg)) == NULL)
		abort();
	/* What dio-dd refuses is not transferred (tests/fuzz/dd-capacity.c
	 * fuzzes that); blocks above 64 KiB would only cost memory here. */
	memset(&side, 0, sizeof(side));
	if (r == 0 && dd_sg_geometry(&side, blocks, blen, msg, sizeof(msg)) == 0 &&
	    blen <= 65536)
		transfers(fd, blen, blocks);
	repeated(fd);
	dio__sg_io_hook = NULL;
	/* Accepted: the replies gave dio-dd a device to use. */
	fuzz_verdict(r == 0 && side.sg_block != 0, msg);
	return 0;
}
