/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sense.c -- decoding SCSI sense data (SPC-4 clause 4.5): fixed format
 * (response codes 70h current, 71h deferred) and descriptor format (72h,
 * 73h); sense key names, text for the common ASC/ASCQ pairs, and a
 * one-line summary.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

static uint64_t
dio__be(const uint8_t *p, size_t n)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < n; i++)
		v = (v << 8) | p[i];
	return v;
}

/*
 * Fixed format, 18 bytes and more:
 *   0  VALID(7) | response code     8..11 command-specific information
 *   2  FILEMARK(7) EOM(6) ILI(5) | sense key   12 ASC  13 ASCQ  14 FRU
 *   3..6 information                15 SKSV(7) | 15..17 sense-key specific
 *   7  additional sense length (bytes after byte 7)
 */
static void
dio__sense_fixed(const uint8_t *p, size_t len, struct dio_sense *s)
{
	if (len >= 8 && (size_t)p[7] + 8 < len)
		len = (size_t)p[7] + 8;
	if (len >= 3) {
		s->filemark = (p[2] >> 7) & 1;
		s->eom = (p[2] >> 6) & 1;
		s->ili = (p[2] >> 5) & 1;
		s->key = p[2] & 0x0f;
	}
	if (len >= 7) {
		s->info_valid = (p[0] >> 7) & 1;
		s->info = dio__be(p + 3, 4);
	}
	if (len >= 12) {
		s->cmd_info = dio__be(p + 8, 4);
		s->cmd_info_valid = 1;
	}
	if (len >= 13)
		s->asc = p[12];
	if (len >= 14)
		s->ascq = p[13];
	if (len >= 15)
		s->fru = p[14];
	if (len >= 18) {
		s->sks_valid = (p[15] >> 7) & 1;
		memcpy(s->sks, p + 15, 3);
	}
}

/*
 * Descriptor format: 0 response code, 1 sense key, 2 ASC, 3 ASCQ,
 * 7 additional sense length, then descriptors (type, additional length,
 * payload) from byte 8.
 */
static void
dio__sense_desc(const uint8_t *p, size_t len, struct dio_sense *s)
{
	size_t off, dlen;
	const uint8_t *d;

	s->key = p[1] & 0x0f;
	s->asc = p[2];
	s->ascq = p[3];
	if (len < 8)
		return;
	if ((size_t)p[7] + 8 < len)
		len = (size_t)p[7] + 8;
	for (off = 8; off + 2 <= len; off += dlen) {
		d = p + off;
		dlen = (size_t)d[1] + 2;
		if (off + dlen > len)
			break;          /* truncated descriptor: ignore it */
		switch (d[0]) {
		case 0x00:              /* information */
			if (dlen >= 12) {
				s->info_valid = (d[2] >> 7) & 1;
				s->info = dio__be(d + 4, 8);
			}
			break;
		case 0x01:              /* command-specific information */
			if (dlen >= 12) {
				s->cmd_info = dio__be(d + 4, 8);
				s->cmd_info_valid = 1;
			}
			break;
		case 0x02:              /* sense-key specific */
			if (dlen >= 7) {
				s->sks_valid = (d[4] >> 7) & 1;
				memcpy(s->sks, d + 4, 3);
			}
			break;
		case 0x03:              /* field replaceable unit */
			if (dlen >= 4)
				s->fru = d[3];
			break;
		case 0x04:              /* stream commands */
			if (dlen >= 4) {
				s->filemark = (d[3] >> 7) & 1;
				s->eom = (d[3] >> 6) & 1;
				s->ili = (d[3] >> 5) & 1;
			}
			break;
		case 0x05:              /* block commands */
			if (dlen >= 4)
				s->ili = (d[3] >> 5) & 1;
			break;
		}
	}
}

int
dio_sense_decode(const uint8_t *sense, size_t len, struct dio_sense *out)
{
	uint8_t rc;

	if (out == NULL)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (sense == NULL || len < 2)
		return -EINVAL;
	rc = sense[0] & 0x7f;
	switch (rc) {
	case 0x70:
	case 0x71:
		if (len < 3)
			return -EINVAL;
		out->response_code = rc;
		out->deferred = rc == 0x71;
		dio__sense_fixed(sense, len, out);
		return 0;
	case 0x72:
	case 0x73:
		if (len < 4)
			return -EINVAL;
		out->response_code = rc;
		out->descriptor = 1;
		out->deferred = rc == 0x73;
		dio__sense_desc(sense, len, out);
		return 0;
	}
	return -EINVAL;
}

const char *
dio_sense_key_name(int key)
{
	static const char *const names[16] = {
		"NO SENSE", "RECOVERED ERROR", "NOT READY", "MEDIUM ERROR",
		"HARDWARE ERROR", "ILLEGAL REQUEST", "UNIT ATTENTION",
		"DATA PROTECT", "BLANK CHECK", "VENDOR SPECIFIC", "COPY ABORTED",
		"ABORTED COMMAND", "RESERVED (0xC)", "VOLUME OVERFLOW",
		"MISCOMPARE", "COMPLETED"
	};

	if (key < 0 || key > 15)
		return "invalid";
	return names[key];
}

/*
 * The ASC/ASCQ pairs seen in practice on disks, tapes, optical drives,
 * virtual and emulated targets; sorted by (asc, ascq).  Wording follows
 * the SPC-4 descriptions, shortened.
 */
struct dio__asc {
	uint8_t asc, ascq;
	const char *text;
};

static const struct dio__asc dio__asctab[] = {
	{ 0x00, 0x00, "no additional sense information" },
	{ 0x00, 0x01, "filemark detected" },
	{ 0x00, 0x02, "end-of-partition/medium detected" },
	{ 0x00, 0x04, "beginning-of-partition/medium detected" },
	{ 0x00, 0x05, "end-of-data detected" },
	{ 0x00, 0x16, "operation in progress" },
	{ 0x00, 0x17, "cleaning requested" },
	{ 0x00, 0x1d, "ATA pass through information available" },
	{ 0x01, 0x00, "no index/sector signal" },
	{ 0x02, 0x00, "no seek complete" },
	{ 0x03, 0x00, "peripheral device write fault" },
	{ 0x04, 0x00, "logical unit not ready, cause not reportable" },
	{ 0x04, 0x01, "logical unit is in process of becoming ready" },
	{ 0x04, 0x02, "logical unit not ready, initializing command required" },
	{ 0x04, 0x03, "logical unit not ready, manual intervention required" },
	{ 0x04, 0x04, "logical unit not ready, format in progress" },
	{ 0x04, 0x07, "logical unit not ready, operation in progress" },
	{ 0x04, 0x09, "logical unit not ready, self-test in progress" },
	{ 0x04, 0x0a, "logical unit not accessible, asymmetric access state transition" },
	{ 0x04, 0x0b, "logical unit not accessible, target port in standby state" },
	{ 0x04, 0x0c, "logical unit not accessible, target port in unavailable state" },
	{ 0x04, 0x11, "logical unit not ready, notify (enable spinup) required" },
	{ 0x04, 0x1b, "logical unit not ready, sanitize in progress" },
	{ 0x05, 0x00, "logical unit does not respond to selection" },
	{ 0x08, 0x00, "logical unit communication failure" },
	{ 0x08, 0x01, "logical unit communication time-out" },
	{ 0x08, 0x02, "logical unit communication parity error" },
	{ 0x0b, 0x01, "warning - specified temperature exceeded" },
	{ 0x0c, 0x00, "write error" },
	{ 0x0c, 0x02, "write error - auto reallocation failed" },
	{ 0x0c, 0x03, "write error - recommend reassignment" },
	{ 0x10, 0x01, "logical block guard check failed" },
	{ 0x10, 0x02, "logical block application tag check failed" },
	{ 0x10, 0x03, "logical block reference tag check failed" },
	{ 0x11, 0x00, "unrecovered read error" },
	{ 0x11, 0x01, "read retries exhausted" },
	{ 0x11, 0x04, "unrecovered read error - auto reallocate failed" },
	{ 0x11, 0x14, "read error - LBA marked bad by application client" },
	{ 0x12, 0x00, "address mark not found for ID field" },
	{ 0x14, 0x00, "recorded entity not found" },
	{ 0x14, 0x01, "record not found" },
	{ 0x15, 0x00, "random positioning error" },
	{ 0x15, 0x01, "mechanical positioning error" },
	{ 0x16, 0x00, "data synchronization mark error" },
	{ 0x17, 0x00, "recovered data with no error correction applied" },
	{ 0x17, 0x01, "recovered data with retries" },
	{ 0x18, 0x00, "recovered data with error correction applied" },
	{ 0x19, 0x00, "defect list error" },
	{ 0x1a, 0x00, "parameter list length error" },
	{ 0x1b, 0x00, "synchronous data transfer error" },
	{ 0x1c, 0x00, "defect list not found" },
	{ 0x1d, 0x00, "miscompare during verify operation" },
	{ 0x20, 0x00, "invalid command operation code" },
	{ 0x20, 0x02, "access denied - no access rights" },
	{ 0x21, 0x00, "logical block address out of range" },
	{ 0x21, 0x01, "invalid element address" },
	{ 0x21, 0x02, "invalid address for write" },
	{ 0x24, 0x00, "invalid field in CDB" },
	{ 0x24, 0x01, "CDB decryption error" },
	{ 0x25, 0x00, "logical unit not supported" },
	{ 0x26, 0x00, "invalid field in parameter list" },
	{ 0x26, 0x01, "parameter not supported" },
	{ 0x26, 0x02, "parameter value invalid" },
	{ 0x26, 0x03, "threshold parameters not supported" },
	{ 0x26, 0x04, "invalid release of persistent reservation" },
	{ 0x27, 0x00, "write protected" },
	{ 0x27, 0x01, "hardware write protected" },
	{ 0x27, 0x02, "logical unit software write protected" },
	{ 0x27, 0x07, "space allocation failed write protect" },
	{ 0x28, 0x00, "not ready to ready change, medium may have changed" },
	{ 0x28, 0x01, "import or export element accessed" },
	{ 0x29, 0x00, "power on, reset, or bus device reset occurred" },
	{ 0x29, 0x01, "power on occurred" },
	{ 0x29, 0x02, "SCSI bus reset occurred" },
	{ 0x29, 0x03, "bus device reset function occurred" },
	{ 0x29, 0x04, "device internal reset" },
	{ 0x29, 0x05, "transceiver mode changed to single-ended" },
	{ 0x29, 0x06, "transceiver mode changed to LVD" },
	{ 0x29, 0x07, "I_T nexus loss occurred" },
	{ 0x2a, 0x00, "parameters changed" },
	{ 0x2a, 0x01, "mode parameters changed" },
	{ 0x2a, 0x02, "log parameters changed" },
	{ 0x2a, 0x03, "reservations preempted" },
	{ 0x2a, 0x04, "reservations released" },
	{ 0x2a, 0x05, "registrations preempted" },
	{ 0x2a, 0x06, "asymmetric access state changed" },
	{ 0x2a, 0x09, "capacity data has changed" },
	{ 0x2a, 0x10, "timestamp changed" },
	{ 0x2c, 0x00, "command sequence error" },
	{ 0x2e, 0x00, "insufficient time for operation" },
	{ 0x2f, 0x00, "commands cleared by another initiator" },
	{ 0x30, 0x00, "incompatible medium installed" },
	{ 0x30, 0x01, "cannot read medium - unknown format" },
	{ 0x30, 0x02, "cannot read medium - incompatible format" },
	{ 0x31, 0x00, "medium format corrupted" },
	{ 0x31, 0x01, "format command failed" },
	{ 0x32, 0x00, "no defect spare location available" },
	{ 0x37, 0x00, "rounded parameter" },
	{ 0x38, 0x07, "thin provisioning soft threshold reached" },
	{ 0x39, 0x00, "saving parameters not supported" },
	{ 0x3a, 0x00, "medium not present" },
	{ 0x3a, 0x01, "medium not present - tray closed" },
	{ 0x3a, 0x02, "medium not present - tray open" },
	{ 0x3d, 0x00, "invalid bits in IDENTIFY message" },
	{ 0x3e, 0x00, "logical unit has not self-configured yet" },
	{ 0x3e, 0x01, "logical unit failure" },
	{ 0x3e, 0x02, "timeout on logical unit" },
	{ 0x3e, 0x03, "logical unit failed self-test" },
	{ 0x3f, 0x00, "target operating conditions have changed" },
	{ 0x3f, 0x01, "microcode has been changed" },
	{ 0x3f, 0x02, "changed operating definition" },
	{ 0x3f, 0x03, "INQUIRY data has changed" },
	{ 0x3f, 0x0e, "reported LUNs data has changed" },
	{ 0x40, 0x00, "RAM failure" },
	{ 0x41, 0x00, "data path failure" },
	{ 0x42, 0x00, "power-on or self-test failure" },
	{ 0x43, 0x00, "message error" },
	{ 0x44, 0x00, "internal target failure" },
	{ 0x45, 0x00, "select or reselect failure" },
	{ 0x47, 0x00, "SCSI parity error" },
	{ 0x47, 0x03, "information unit iuCRC error detected" },
	{ 0x48, 0x00, "initiator detected error message received" },
	{ 0x49, 0x00, "invalid message error" },
	{ 0x4a, 0x00, "command phase error" },
	{ 0x4b, 0x00, "data phase error" },
	{ 0x4c, 0x00, "logical unit failed self-configuration" },
	{ 0x4e, 0x00, "overlapped commands attempted" },
	{ 0x53, 0x00, "media load or eject failed" },
	{ 0x53, 0x02, "medium removal prevented" },
	{ 0x55, 0x03, "insufficient resources" },
	{ 0x55, 0x04, "insufficient registration resources" },
	{ 0x5d, 0x00, "failure prediction threshold exceeded" },
	{ 0x5d, 0xff, "failure prediction threshold exceeded (false)" },
	{ 0x5e, 0x00, "low power condition on" },
	{ 0x5e, 0x01, "idle condition activated by timer" },
	{ 0x5e, 0x03, "standby condition activated by timer" },
	{ 0x65, 0x00, "voltage fault" },
};

const char *
dio_sense_asc_text(int asc, int ascq)
{
	size_t i;

	for (i = 0; i < sizeof(dio__asctab) / sizeof(dio__asctab[0]); i++)
		if (dio__asctab[i].asc == asc && dio__asctab[i].ascq == ascq)
			return dio__asctab[i].text;
	return NULL;
}

/* Append to buf at *pos, never overrunning; *pos may pass len (truncation). */
static void
dio__cat(char *buf, size_t len, size_t *pos, const char *fmt, ...) DIO__PRINTF(4, 5);

static void
dio__cat(char *buf, size_t len, size_t *pos, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*pos >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *pos, len - *pos, fmt, ap);
	va_end(ap);
	if (n > 0)
		*pos += (size_t)n;
}

/* The sense-key specific field (SPC-4 4.5.2.4) in words. */
static void
dio__sks_str(const struct dio_sense *s, char *buf, size_t len, size_t *pos)
{
	unsigned v = ((unsigned)s->sks[1] << 8) | s->sks[2];

	switch (s->key) {
	case DIO_SENSE_ILLEGAL_REQUEST:
		dio__cat(buf, len, pos, "; field pointer: %s byte %u",
		         (s->sks[0] & 0x40) ? "CDB" : "parameter data", v);
		if (s->sks[0] & 0x08)
			dio__cat(buf, len, pos, " bit %u", s->sks[0] & 0x07u);
		break;
	case DIO_SENSE_NO_SENSE:
	case DIO_SENSE_NOT_READY:
		dio__cat(buf, len, pos, "; progress %.1f%%", v * 100.0 / 65536.0);
		break;
	case DIO_SENSE_RECOVERED_ERROR:
	case DIO_SENSE_MEDIUM_ERROR:
	case DIO_SENSE_HARDWARE_ERROR:
		dio__cat(buf, len, pos, "; actual retry count %u", v);
		break;
	case DIO_SENSE_COPY_ABORTED:
		dio__cat(buf, len, pos, "; segment pointer: %s byte %u",
		         (s->sks[0] & 0x20) ? "segment descriptor" : "parameter list", v);
		break;
	case DIO_SENSE_UNIT_ATTENTION:
		dio__cat(buf, len, pos, "; unit attention queue %s",
		         (s->sks[0] & 0x01) ? "overflowed" : "not overflowed");
		break;
	default:
		dio__cat(buf, len, pos, "; sense-key specific 0x%02x%02x%02x",
		         s->sks[0], s->sks[1], s->sks[2]);
		break;
	}
}

char *
dio_sense_str(const struct dio_sense *s, char *buf, size_t len)
{
	const char *text;
	size_t pos = 0;

	if (buf == NULL || len == 0)
		return buf;
	buf[0] = '\0';
	if (s == NULL)
		return buf;
	text = dio_sense_asc_text(s->asc, s->ascq);
	if (s->deferred)
		dio__cat(buf, len, &pos, "deferred error: ");
	dio__cat(buf, len, &pos, "%s: ", dio_sense_key_name(s->key));
	if (text != NULL)
		dio__cat(buf, len, &pos, "%s (asc 0x%02x ascq 0x%02x)", text, s->asc, s->ascq);
	else if (s->asc >= 0x80 || s->ascq >= 0x80)
		dio__cat(buf, len, &pos, "vendor specific asc 0x%02x ascq 0x%02x",
		         s->asc, s->ascq);
	else
		dio__cat(buf, len, &pos, "asc 0x%02x ascq 0x%02x", s->asc, s->ascq);
	if (s->info_valid)
		dio__cat(buf, len, &pos, "; information 0x%" PRIx64, s->info);
	if (s->cmd_info_valid && s->cmd_info != 0)
		dio__cat(buf, len, &pos, "; command-specific 0x%" PRIx64, s->cmd_info);
	if (s->sks_valid)
		dio__sks_str(s, buf, len, &pos);
	if (s->fru)
		dio__cat(buf, len, &pos, "; FRU 0x%02x", s->fru);
	if (s->filemark)
		dio__cat(buf, len, &pos, "; filemark");
	if (s->eom)
		dio__cat(buf, len, &pos, "; end of medium");
	if (s->ili)
		dio__cat(buf, len, &pos, "; incorrect length");
	return buf;
}
