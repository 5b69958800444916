/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * scsi.c -- what the device says itself, through SCSI pass-through:
 * INQUIRY (identity), VPD 80h (unit serial number), READ CAPACITY and the
 * caching mode page (WCE, RCD).  Only commands that read are sent, on a
 * read-only descriptor.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tools/info/info.h"
#include "tools/kit/msg.h"
#include "tools/kit/scsi.h"

const char *
info_peripheral_name(int t)
{
	switch (t) {
	case 0x00: return "disk";
	case 0x01: return "tape";
	case 0x02: return "printer";
	case 0x03: return "processor";
	case 0x04: return "write-once";
	case 0x05: return "CD/DVD";
	case 0x07: return "optical memory";
	case 0x08: return "medium changer";
	case 0x0c: return "storage array controller";
	case 0x0d: return "enclosure services";
	case 0x0e: return "simplified direct-access";
	case 0x0f: return "optical card";
	case 0x11: return "object-based storage";
	case 0x12: return "automation/drive interface";
	case 0x14: return "host managed zoned block";
	case 0x1e: return "well known logical unit";
	case 0x1f: return "unknown or no device type";
	default:   return "reserved";
	}
}

/*
 * Run one read-only command with the kit (tools/kit/scsi.h): 0 when GOOD;
 * < 0 when it could not be sent at all; 1 when the device answered other
 * than GOOD.  why gets the outcome, *got the bytes that came.
 */
static int
scsi_in(dio_scsi *c, int fd, const uint8_t *cdb, int cdb_len, uint8_t *buf,
        size_t len, size_t *got, char *why, size_t whylen)
{
	int64_t resid;
	int r;

	memset(buf, 0, len);
	r = diot_scsi_run(c, fd, cdb, cdb_len, DIO_SCSI_DIR_IN, buf, len, why, whylen);
	if (r < 0)
		return dio_scsi_category(c) < 0 ? r : 1;
	resid = dio_scsi_resid(c);
	*got = resid > 0 && (uint64_t)resid <= len ? len - (size_t)resid : len;
	return 0;
}

int
info_parse_serial(const uint8_t *b, size_t len, char *out, size_t outlen)
{
	size_t n, i, k = 0, start;

	if (len < 4 || b[1] != 0x80)
		return -1;
	n = ((size_t)b[2] << 8) | b[3];
	if (n > len - 4)
		n = len - 4;
	start = 4;
	while (n > 0 && b[start] == ' ') {
		start++;
		n--;
	}
	while (n > 0 && (b[start + n - 1] == ' ' || b[start + n - 1] == '\0'))
		n--;
	for (i = 0; i < n && k + 1 < outlen; i++)
		out[k++] = b[start + i] >= 0x20 && b[start + i] < 0x7f ? (char)b[start + i] : '?';
	out[k] = '\0';
	return k > 0 ? 0 : -1;
}

/* The node to send commands to; 0 when there is none. */
static int
scsi_node(struct facts *f)
{
	if (f->di.kind == DIO_DEVINFO_SG || (f->di.kind == DIO_DEVINFO_BLOCK && f->di.disk[0] == '\0'))
		snprintf(f->scsi_dev, sizeof(f->scsi_dev), "%s", f->path);
	else if (f->di.disk[0] != '\0')
		snprintf(f->scsi_dev, sizeof(f->scsi_dev), "%s", f->di.disk);
	else if (S_ISBLK(f->st.st_mode))
		snprintf(f->scsi_dev, sizeof(f->scsi_dev), "%s", f->path);
	else
		return 0;
	return 1;
}

/* The node opened read-only for pass-through, or < 0 with scsi_why set. */
static int
scsi_open(struct facts *f)
{
	int fd = dio_scsi_open(f->scsi_dev, 1);

	if (fd == -ENOTTY)
		snprintf(f->scsi_why, sizeof(f->scsi_why), "%s does not accept SCSI "
		         "pass-through (%s): not a SCSI device", f->scsi_dev,
		         f->plat.on_linux ? "SG_IO" : "USCSICMD");
	else if (fd == -ENOTSUP)
		snprintf(f->scsi_why, sizeof(f->scsi_why), "this build has no SCSI "
		         "pass-through (libdirectio backend %s)", f->plat.backend);
	else if (fd < 0)
		snprintf(f->scsi_why, sizeof(f->scsi_why), "cannot open %s read-only: %s",
		         f->scsi_dev, dio_strerror(fd));
	return fd;
}

/* INQUIRY and, when VPD 00h offers it, the unit serial number (VPD 80h).
 * < 0 when not even INQUIRY could be sent. */
static int
scsi_identity(struct facts *f, dio_scsi *c, int fd)
{
	uint8_t cdb[16], buf[256];
	char why[300];
	size_t got = 0, i, n;
	int len, r;

	len = dio_cdb_inquiry(cdb, 0, 0, 96);
	r = scsi_in(c, fd, cdb, len, buf, 96, &got, why, sizeof(why));
	if (r < 0) {
		/* Not even INQUIRY could be sent: no pass-through here. */
		snprintf(f->scsi_why, sizeof(f->scsi_why), "INQUIRY could not be sent to "
		         "%s: %s", f->scsi_dev, why);
		return r;
	}
	f->scsi_ok = 1;
	if (r == 0 && dio_parse_inquiry(buf, got, &f->inq) == 0)
		f->have_inq = 1;
	else
		snprintf(f->scsi_why, sizeof(f->scsi_why), "INQUIRY failed: %s", why);

	/* VPD 00h lists the pages; ask for 80h only when it is offered. */
	len = dio_cdb_inquiry(cdb, 1, 0x00, 252);
	if (scsi_in(c, fd, cdb, len, buf, 252, &got, why, sizeof(why)) == 0 && got >= 4) {
		n = ((size_t)buf[2] << 8) | buf[3];
		for (i = 0; i < n && 4 + i < got; i++)
			if (buf[4 + i] == 0x80)
				break;
		if (i < n && 4 + i < got) {
			len = dio_cdb_inquiry(cdb, 1, 0x80, 252);
			if (scsi_in(c, fd, cdb, len, buf, 252, &got, why, sizeof(why)) == 0 &&
			    info_parse_serial(buf, got, f->serial, sizeof(f->serial)) == 0)
				f->have_serial = 1;
		}
	}
	return 0;
}

/* The caching mode page, current values, no block descriptors. */
static void
scsi_cache(struct facts *f, dio_scsi *c, int fd)
{
	uint8_t cdb[16], buf[256];
	char why[300];
	size_t got = 0;
	int len, r, wce, rcd;

	len = dio_cdb_mode_sense10(cdb, 0x08, 0, 0, 1, 252);
	r = scsi_in(c, fd, cdb, len, buf, 252, &got, why, sizeof(why));
	if (r == 0) {
		r = dio_parse_caching_page(buf, got, &wce, &rcd);
		if (r == 0) {
			f->have_cache = 1;
			f->wce = wce;
			f->rcd = rcd;
		} else {
			snprintf(f->cache_why, sizeof(f->cache_why), "%s",
			         r == -ENOENT ? "no caching page (08h) in the answer" :
			         "malformed MODE SENSE(10) data");
		}
	} else {
		snprintf(f->cache_why, sizeof(f->cache_why), "MODE SENSE(10) caching page: %s",
		         why);
	}
}

void
info_probe_scsi(struct facts *f)
{
	char why[300];
	dio_scsi *c;
	int fd;

	if (!scsi_node(f))
		return;         /* no device to ask */
	fd = scsi_open(f);
	if (fd < 0)
		return;
	c = dio_scsi_new();
	if (c == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	dio_scsi_set_timeout(c, 10000);
	if (scsi_identity(f, c, fd) == 0) {
		/* READ CAPACITY(10), then (16) when the disk is that large. */
		f->have_cap = diot_scsi_capacity(c, fd, &f->blocks, &f->block_len, why,
		                                 sizeof(why)) == 0 && f->block_len > 0;
		scsi_cache(f, c, fd);
	}
	dio_scsi_free(c);
	close(fd);
}
