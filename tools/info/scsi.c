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
#include "tools/kit/util.h"

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


/* Run one read-only command; 0 when GOOD, else why in why. */
static int
scsi_in(int fd, const uint8_t *cdb, int cdb_len, uint8_t *buf, size_t len,
        size_t *got, char *why, size_t whylen)
{
	dio_scsi *c = dio_scsi_new();
	struct dio_sense s;
	const uint8_t *sb;
	char detail[300];
	size_t n;
	int r;

	if (c == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	memset(buf, 0, len);
	dio_scsi_set_cdb(c, cdb, (size_t)cdb_len);
	dio_scsi_set_data(c, DIO_SCSI_DIR_IN, buf, len);
	dio_scsi_set_timeout(c, 10000);
	r = dio_scsi_exec(c, fd);
	if (r < 0) {
		dio_scsi_errdetail(c, detail, sizeof(detail));
		snprintf(why, whylen, "%s", detail[0] ? detail : dio_strerror(r));
	} else if (dio_scsi_category(c) == DIO_SCSI_CAT_SENSE) {
		sb = dio_scsi_sense(c, &n);
		if (dio_sense_decode(sb, n, &s) == 0)
			dio_sense_str(&s, why, whylen);
		else
			snprintf(why, whylen, "CHECK CONDITION with undecodable sense");
		r = 1;
	} else if (dio_scsi_category(c) == DIO_SCSI_CAT_STATUS) {
		snprintf(why, whylen, "status %s",
		         dio_scsi_status_name(dio_scsi_status(c)));
		r = 1;
	} else if (dio_scsi_category(c) != DIO_SCSI_CAT_GOOD) {
		snprintf(why, whylen, "transport error (host status 0x%x, driver status "
		         "0x%x)", dio_scsi_host_status(c), dio_scsi_driver_status(c));
		r = 1;
	} else if (got != NULL) {
		int64_t resid = dio_scsi_resid(c);

		*got = resid > 0 && (uint64_t)resid <= len ? len - (size_t)resid : len;
	}
	dio_scsi_free(c);
	return r;
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

void
info_probe_scsi(struct facts *f)
{
	uint8_t cdb[16], buf[256];
	char why[300];
	size_t got = 0, i, n;
	int fd, len, r, wce, rcd;

	if (f->di.kind == DIO_DEVINFO_SG || (f->di.kind == DIO_DEVINFO_BLOCK && f->di.disk[0] == '\0'))
		snprintf(f->scsi_dev, sizeof(f->scsi_dev), "%s", f->path);
	else if (f->di.disk[0] != '\0')
		snprintf(f->scsi_dev, sizeof(f->scsi_dev), "%s", f->di.disk);
	else if (S_ISBLK(f->st.st_mode))
		snprintf(f->scsi_dev, sizeof(f->scsi_dev), "%s", f->path);
	else
		return;         /* no device to ask */

	fd = dio_scsi_open(f->scsi_dev, 1);
	if (fd == -ENOTTY) {
		snprintf(f->scsi_why, sizeof(f->scsi_why), "%s does not accept SCSI "
		         "pass-through (%s): not a SCSI device", f->scsi_dev,
		         f->plat.on_linux ? "SG_IO" : "USCSICMD");
		return;
	}
	if (fd == -ENOTSUP) {
		snprintf(f->scsi_why, sizeof(f->scsi_why), "this build has no SCSI "
		         "pass-through (libdirectio backend %s)", f->plat.backend);
		return;
	}
	if (fd < 0) {
		snprintf(f->scsi_why, sizeof(f->scsi_why), "cannot open %s read-only: %s",
		         f->scsi_dev, dio_strerror(fd));
		return;
	}
	len = dio_cdb_inquiry(cdb, 0, 0, 96);
	r = scsi_in(fd, cdb, len, buf, 96, &got, why, sizeof(why));
	if (r < 0) {
		/* Not even INQUIRY could be sent: no pass-through here. */
		snprintf(f->scsi_why, sizeof(f->scsi_why), "INQUIRY could not be sent to "
		         "%s: %s", f->scsi_dev, why);
		close(fd);
		return;
	}
	f->scsi_ok = 1;
	if (r == 0 && dio_parse_inquiry(buf, got, &f->inq) == 0)
		f->have_inq = 1;
	else
		snprintf(f->scsi_why, sizeof(f->scsi_why), "INQUIRY failed: %s", why);

	/* VPD 00h lists the pages; ask for 80h only when it is offered. */
	len = dio_cdb_inquiry(cdb, 1, 0x00, 252);
	if (scsi_in(fd, cdb, len, buf, 252, &got, why, sizeof(why)) == 0 && got >= 4) {
		n = ((size_t)buf[2] << 8) | buf[3];
		for (i = 0; i < n && 4 + i < got; i++)
			if (buf[4 + i] == 0x80)
				break;
		if (i < n && 4 + i < got) {
			len = dio_cdb_inquiry(cdb, 1, 0x80, 252);
			if (scsi_in(fd, cdb, len, buf, 252, &got, why, sizeof(why)) == 0 &&
			    info_parse_serial(buf, got, f->serial, sizeof(f->serial)) == 0)
				f->have_serial = 1;
		}
	}

	len = dio_cdb_read_capacity10(cdb);
	if (scsi_in(fd, cdb, len, buf, 8, &got, why, sizeof(why)) == 0) {
		r = dio_parse_read_capacity(buf, got, 0, &f->blocks, &f->block_len);
		if (r == -EOVERFLOW) {
			len = dio_cdb_read_capacity16(cdb, 32);
			if (scsi_in(fd, cdb, len, buf, 32, &got, why, sizeof(why)) == 0)
				r = dio_parse_read_capacity(buf, got, 1, &f->blocks, &f->block_len);
		}
		f->have_cap = r == 0 && f->block_len > 0;
	}

	/* Caching mode page, current values, no block descriptors. */
	len = dio_cdb_mode_sense10(cdb, 0x08, 0, 0, 1, 252);
	r = scsi_in(fd, cdb, len, buf, 252, &got, why, sizeof(why));
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
	close(fd);
}
