/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * guest-scsi-check.c -- libdirectio's SCSI pass-through against real
 * kernel SCSI devices, inside the qemu test guest (tests/qemu/run-guest.sh,
 * driven by tests/qemu/guest-scsi.sh).  Devices come from the guest's
 * environment (/run/dio-devices.env):
 *
 *   DIO_QEMU_SG/SD   QEMU scsi-hd on virtio-scsi (no READ BUFFER)
 *   DIO_DEBUG_SG/SD  the scsi_debug driver (no READ BUFFER; error injection)
 *   DIO_TCMU_SG/SD   a TCMU RAM disk with READ/WRITE BUFFER
 *
 * Every CDB builder is sent to every device, as sg character device and
 * as block device; the answers go through the parsers and the sense
 * decoder; READ(10) and READ BUFFER run in every transfer mode, with data
 * compared; direct I/O is checked with the sg driver's allow_dio off and
 * on, and with a misaligned buffer, through dio_scsi_xfer_done().
 *
 * Output: "ok - ..." / "FAIL - ..." lines, then a count.  Exit status 0
 * when nothing failed, 1 otherwise, 77 when not in the guest.
 * Writes only to LBAs DIO_SCRATCH_LBA.. of the guest's scratch disks.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libdirectio.h"
#include "tools/kit/scsi.h"

#define ALLOW_DIO "/sys/module/sg/parameters/allow_dio"
#define SDEBUG "/sys/bus/pseudo/drivers/scsi_debug/"
#define SCRATCH_LBA 2048u       /* 1 MiB in with 512-byte blocks */
#define XFER 65536u             /* bytes per READ/WRITE in the mode checks */
#define MEDIUM_ERR_LBA 0x1234u  /* scsi_debug's medium_error_start default */

static int npass, nfail;

static void
report(int ok, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

static void
report(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s - ", ok ? "ok  " : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (ok)
		npass++;
	else
		nfail++;
}

#define CHECK(cond, ...) do { \
	int ok_ = (cond) ? 1 : 0; \
	if (!ok_) \
		printf("       (line %d: %s)\n", __LINE__, #cond); \
	report(ok_, __VA_ARGS__); \
} while (0)

struct gdev {
	const char *name;
	const char *sg, *sd;
	const char *vendor, *product;
	int has_rbuf;
	int is_debug;
	int is_qemu;            /* QEMU scsi-hd: no SYNC CACHE(16), no control page */
};

/* ------------------------------------------------------------ helpers */

static dio_scsi *cmd;   /* one object reused for most commands */

/* exec cdb with data; returns exec's value; outcome in cmd. */
static int
run(int fd, const uint8_t *cdb, int n, int dir, void *buf, size_t len, int xfer)
{
	dio_scsi_clear(cmd);
	if (dio_scsi_set_xfer(cmd, xfer) < 0)
		return -ENOTSUP;
	dio_scsi_set_cdb(cmd, cdb, (size_t)n);
	dio_scsi_set_data(cmd, dir, buf, len);
	dio_scsi_set_timeout(cmd, 20000);
	return dio_scsi_exec(cmd, fd);
}

static int
good(int fd, const uint8_t *cdb, int n, int dir, void *buf, size_t len)
{
	return run(fd, cdb, n, dir, buf, len, DIO_SCSI_XFER_INDIRECT) == 0 &&
	       dio_scsi_category(cmd) == DIO_SCSI_CAT_GOOD;
}

/* Describe the last outcome (for failure lines). */
static const char *
outcome(void)
{
	static char s[300];

	return dio_scsi_outcome_str(cmd, s, sizeof(s));
}

/* The last command ended in CHECK CONDITION with this key/asc/ascq (-1:
 * any); *s gets the decoded sense. */
static int
sense_is(int key, int asc, int ascq, struct dio_sense *s)
{
	const uint8_t *sb;
	size_t n;

	memset(s, 0, sizeof(*s));
	if (dio_scsi_category(cmd) != DIO_SCSI_CAT_SENSE ||
	    dio_scsi_status(cmd) != DIO_SCSI_STATUS_CHECK_CONDITION)
		return 0;
	sb = dio_scsi_sense(cmd, &n);
	if (sb == NULL || dio_sense_decode(sb, n, s) != 0)
		return 0;
	return (key < 0 || s->key == key) && (asc < 0 || s->asc == asc) &&
	       (ascq < 0 || s->ascq == ascq);
}

static void
fill(uint8_t *p, size_t n, unsigned seed)
{
	uint32_t x = seed * 2654435761u + 7;
	size_t i;

	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = (uint8_t)x;
	}
}

static int
write_sysfs(const char *path, const char *val)
{
	FILE *fp = fopen(path, "w");
	int r;

	if (fp == NULL)
		return -errno;
	r = fputs(val, fp) < 0 ? -EIO : 0;
	if (fclose(fp) != 0)
		r = -errno;
	return r;
}

static int
is_sg(const struct gdev *g, const char *path)
{
	return path == g->sg;
}

/* ------------------------------------------------------------ checks */

/* TEST UNIT READY until GOOD: the first command after power on may get
 * a UNIT ATTENTION, which must then decode as one. */
static void
check_tur(const struct gdev *g, const char *dev, int fd)
{
	uint8_t cdb[16];
	struct dio_sense s;
	int n = dio_cdb_test_unit_ready(cdb), i, r = -1;

	for (i = 0; i < 4; i++) {
		r = run(fd, cdb, n, DIO_SCSI_DIR_NONE, NULL, 0, DIO_SCSI_XFER_INDIRECT);
		if (r != 0 || dio_scsi_category(cmd) == DIO_SCSI_CAT_GOOD)
			break;
		sense_is(-1, -1, -1, &s);
		CHECK(s.key == DIO_SENSE_UNIT_ATTENTION,
		      "%s %s: TEST UNIT READY before GOOD is a UNIT ATTENTION (%s)",
		      g->name, dev, outcome());
	}
	CHECK(r == 0 && dio_scsi_category(cmd) == DIO_SCSI_CAT_GOOD,
	      "%s %s: TEST UNIT READY is GOOD (%s)", g->name, dev, outcome());
	CHECK(dio_scsi_status(cmd) == 0 && dio_scsi_resid(cmd) == 0 &&
	      dio_scsi_sense(cmd, NULL) == NULL,
	      "%s %s: TUR: status 0, no residual, no sense", g->name, dev);
	CHECK(dio_scsi_duration_ns(cmd) > 0 &&
	      dio_scsi_duration_source(cmd) == DIO_SCSI_TIME_MEASURED,
	      "%s %s: TUR: duration %llu ns, measured", g->name, dev,
	      (unsigned long long)dio_scsi_duration_ns(cmd));
	CHECK(dio_scsi_xfer_done(cmd) ==
	      (is_sg(g, dev) ? DIO_SCSI_XFER_INDIRECT : DIO_SCSI_XFER_AUTO),
	      "%s %s: TUR: transfer done is '%s'", g->name, dev,
	      dio_scsi_xfer_name(dio_scsi_xfer_done(cmd)));
}

static void
check_inquiry(const struct gdev *g, const char *dev, int fd)
{
	uint8_t cdb[16], buf[255];
	struct dio_inquiry q;
	int n;

	memset(buf, 0xaa, sizeof(buf));
	n = dio_cdb_inquiry(cdb, 0, 0, 96);
	CHECK(good(fd, cdb, n, DIO_SCSI_DIR_IN, buf, 96), "%s %s: INQUIRY (%s)",
	      g->name, dev, outcome());
	CHECK(dio_parse_inquiry(buf, 96 - (size_t)dio_scsi_resid(cmd), &q) == 0 &&
	      strcmp(q.vendor, g->vendor) == 0 && strcmp(q.product, g->product) == 0 &&
	      q.peripheral_type == 0 && q.qualifier == 0,
	      "%s %s: INQUIRY data: '%s' '%s' '%s' type %u", g->name, dev, q.vendor,
	      q.product, q.revision, q.peripheral_type);
	CHECK(dio_scsi_resid(cmd) >= 0 && dio_scsi_resid(cmd) <= 96 - 36,
	      "%s %s: INQUIRY residual %lld of 96", g->name, dev,
	      (long long)dio_scsi_resid(cmd));

	n = dio_cdb_inquiry(cdb, 1, 0x00, sizeof(buf));
	memset(buf, 0xaa, sizeof(buf));
	CHECK(good(fd, cdb, n, DIO_SCSI_DIR_IN, buf, sizeof(buf)) && buf[1] == 0x00 &&
	      buf[3] > 0 && memchr(buf + 4, 0x83, buf[3]) != NULL,
	      "%s %s: INQUIRY VPD 00h lists %u pages incl. 83h (%s)", g->name, dev,
	      buf[3], outcome());
}

static void
check_capacity(const struct gdev *g, const char *dev, int fd, uint64_t *blocks,
               uint32_t *bl)
{
	uint8_t cdb[16], buf[32];
	struct dio_align a;
	uint64_t b16 = 0;
	uint32_t l16 = 0;
	int n;

	*blocks = 0;
	*bl = 0;
	n = dio_cdb_read_capacity10(cdb);
	CHECK(good(fd, cdb, n, DIO_SCSI_DIR_IN, buf, 8) &&
	      dio_parse_read_capacity(buf, 8, 0, blocks, bl) == 0,
	      "%s %s: READ CAPACITY(10): %llu blocks of %u (%s)", g->name, dev,
	      (unsigned long long)*blocks, *bl, outcome());
	n = dio_cdb_read_capacity16(cdb, sizeof(buf));
	CHECK(good(fd, cdb, n, DIO_SCSI_DIR_IN, buf, sizeof(buf)) &&
	      dio_parse_read_capacity(buf, sizeof(buf), 1, &b16, &l16) == 0 &&
	      b16 == *blocks && l16 == *bl,
	      "%s %s: READ CAPACITY(16) agrees: %llu blocks of %u (%s)", g->name, dev,
	      (unsigned long long)b16, l16, outcome());
	/* The tools' helper: (10) is enough here, the same answer. */
	{
		dio_scsi *c = dio_scsi_new();
		uint64_t kb = 0;
		uint32_t kl = 0;
		char msg[300] = "";
		int r = c ? diot_scsi_capacity(c, fd, &kb, &kl, msg, sizeof(msg)) : -ENOMEM;

		CHECK(r == 0 && kb == *blocks && kl == *bl && msg[0] == '\0',
		      "%s %s: diot_scsi_capacity: %d, %llu blocks of %u '%s'", g->name,
		      dev, r, (unsigned long long)kb, kl, msg);
		dio_scsi_free(c);
	}
	/* The kernel's own idea of the disk, from the block device. */
	CHECK(dio_align_path(g->sd, &a) == 0 && a.device_bytes == *blocks * *bl &&
	      a.logical_block == *bl,
	      "%s %s: capacity %llu bytes matches the block device's %llu",
	      g->name, dev, (unsigned long long)(*blocks * *bl),
	      (unsigned long long)a.device_bytes);
}

static void
check_mode_sense(const struct gdev *g, const char *dev, int fd)
{
	uint8_t cdb[16], buf[252];
	int n, wce = -1, rcd = -1, r = -99;

	n = dio_cdb_mode_sense10(cdb, 0x08, 0, 0, 1, sizeof(buf));
	memset(buf, 0, sizeof(buf));
	if (good(fd, cdb, n, DIO_SCSI_DIR_IN, buf, sizeof(buf)))
		r = dio_parse_caching_page(buf, sizeof(buf) - (size_t)dio_scsi_resid(cmd),
		                           &wce, &rcd);
	CHECK(r == 0 && (wce == 0 || wce == 1) && (rcd == 0 || rcd == 1),
	      "%s %s: MODE SENSE(10) caching page: WCE %d RCD %d (%s)", g->name, dev,
	      wce, rcd, outcome());
	/* Without DBD the block descriptor comes first; the parser skips it. */
	n = dio_cdb_mode_sense10(cdb, 0x08, 0, 0, 0, sizeof(buf));
	r = -99;
	if (good(fd, cdb, n, DIO_SCSI_DIR_IN, buf, sizeof(buf)))
		r = dio_parse_caching_page(buf, sizeof(buf) - (size_t)dio_scsi_resid(cmd),
		                           &wce, &rcd);
	CHECK(r == 0, "%s %s: MODE SENSE(10) with block descriptors still finds "
	      "the caching page (block descriptor length %u)", g->name, dev,
	      (unsigned)((buf[6] << 8) | buf[7]));
	/* The control page alone: the caching page is not in it.  QEMU's
	 * scsi-hd has no control page and says so. */
	n = dio_cdb_mode_sense10(cdb, 0x0a, 0, 0, 1, sizeof(buf));
	r = -99;
	if (good(fd, cdb, n, DIO_SCSI_DIR_IN, buf, sizeof(buf)))
		r = dio_parse_caching_page(buf, sizeof(buf) - (size_t)dio_scsi_resid(cmd),
		                           &wce, &rcd);
	if (g->is_qemu) {
		struct dio_sense s;

		CHECK(sense_is(DIO_SENSE_ILLEGAL_REQUEST, 0x24, 0x00, &s),
		      "%s %s: MODE SENSE control page: invalid field in CDB (%s)",
		      g->name, dev, outcome());
	} else {
		CHECK(r == -ENOENT, "%s %s: control page alone: no caching page (%d; %s)",
		      g->name, dev, r, outcome());
	}
}

/* WRITE then READ back, (10) and (16), FUA on the writes; then
 * SYNCHRONIZE CACHE (10) and (16). */
static void
check_rw(const struct gdev *g, const char *dev, int fd, uint32_t bl, unsigned seed)
{
	uint8_t cdb[16], *w = dio_alloc(XFER, 0), *r = dio_alloc(XFER, 0);
	uint32_t nb = XFER / bl;
	int n;

	fill(w, XFER, seed);
	n = dio_cdb_rw10(cdb, 1, SCRATCH_LBA, nb, 1);
	CHECK(good(fd, cdb, n, DIO_SCSI_DIR_OUT, w, XFER), "%s %s: WRITE(10) FUA of "
	      "%u blocks (%s)", g->name, dev, nb, outcome());
	memset(r, 0, XFER);
	n = dio_cdb_rw10(cdb, 0, SCRATCH_LBA, nb, 0);
	CHECK(good(fd, cdb, n, DIO_SCSI_DIR_IN, r, XFER) && dio_scsi_resid(cmd) == 0 &&
	      memcmp(w, r, XFER) == 0, "%s %s: READ(10) reads it back (%s)", g->name,
	      dev, outcome());

	fill(w, XFER, seed + 1);
	n = dio_cdb_rw16(cdb, 1, SCRATCH_LBA + nb, nb, 1);
	CHECK(good(fd, cdb, n, DIO_SCSI_DIR_OUT, w, XFER), "%s %s: WRITE(16) FUA (%s)",
	      g->name, dev, outcome());
	memset(r, 0, XFER);
	n = dio_cdb_rw16(cdb, 0, SCRATCH_LBA + nb, nb, 0);
	CHECK(good(fd, cdb, n, DIO_SCSI_DIR_IN, r, XFER) && memcmp(w, r, XFER) == 0,
	      "%s %s: READ(16) reads it back (%s)", g->name, dev, outcome());

	n = dio_cdb_sync_cache10(cdb, SCRATCH_LBA, 2 * nb, 0);
	CHECK(good(fd, cdb, n, DIO_SCSI_DIR_NONE, NULL, 0),
	      "%s %s: SYNCHRONIZE CACHE(10) (%s)", g->name, dev, outcome());
	n = dio_cdb_sync_cache16(cdb, 0, 0, 0);
	if (g->is_qemu) {
		struct dio_sense s;

		/* QEMU's scsi-hd implements only the 10-byte form. */
		CHECK(run(fd, cdb, n, DIO_SCSI_DIR_NONE, NULL, 0, 0) == 0 &&
		      sense_is(DIO_SENSE_ILLEGAL_REQUEST, 0x20, 0x00, &s),
		      "%s %s: SYNCHRONIZE CACHE(16): invalid command operation code (%s)",
		      g->name, dev, outcome());
	} else {
		CHECK(good(fd, cdb, n, DIO_SCSI_DIR_NONE, NULL, 0),
		      "%s %s: SYNCHRONIZE CACHE(16) of the whole disk (%s)", g->name, dev,
		      outcome());
	}
	n = dio_cdb_sync_cache10(cdb, 0, 0, 1);
	/* IMMED may be refused; either way the answer must decode. */
	CHECK(run(fd, cdb, n, DIO_SCSI_DIR_NONE, NULL, 0, DIO_SCSI_XFER_INDIRECT) == 0 &&
	      (dio_scsi_category(cmd) == DIO_SCSI_CAT_GOOD ||
	       dio_scsi_category(cmd) == DIO_SCSI_CAT_SENSE),
	      "%s %s: SYNCHRONIZE CACHE(10) IMMED answered (%s)", g->name, dev, outcome());
	dio_free(w);
	dio_free(r);
}

/* dio_scsi_exec_repeat(): counts, data, early stop, DIRECT fallbacks. */
static void
check_repeat(const struct gdev *g, const char *dev, int fd, uint32_t bl,
             uint64_t blocks, unsigned seed)
{
	uint8_t cdb[16], *w = dio_alloc(XFER, 0), *r = dio_alloc(XFER, 0);
	struct dio_scsi_tally t;
	struct dio_sense s;
	uint32_t nb = XFER / bl;
	int n, e, sg = is_sg(g, dev);

	fill(w, XFER, seed);
	n = dio_cdb_rw10(cdb, 1, SCRATCH_LBA, nb, 0);
	CHECK(good(fd, cdb, n, DIO_SCSI_DIR_OUT, w, XFER), "%s %s: repeat: WRITE(10) "
	      "of the scratch area (%s)", g->name, dev, outcome());
	memset(r, 0, XFER);
	n = dio_cdb_rw10(cdb, 0, SCRATCH_LBA, nb, 0);
	dio_scsi_clear(cmd);
	dio_scsi_set_cdb(cmd, cdb, (size_t)n);
	dio_scsi_set_data(cmd, DIO_SCSI_DIR_IN, r, XFER);
	memset(&t, 0xff, sizeof(t));
	e = dio_scsi_exec_repeat(cmd, fd, 7, &t);
	CHECK(e == 0 && dio_scsi_category(cmd) == DIO_SCSI_CAT_GOOD &&
	      t.commands == 7 && t.resid == 0 && t.not_direct == 0 &&
	      memcmp(r, w, XFER) == 0 &&
	      dio_scsi_duration_source(cmd) == DIO_SCSI_TIME_KERNEL,
	      "%s %s: repeat READ(10) x7: %d, %llu done, resid %llu, data %s, "
	      "duration source %d (%s)", g->name, dev, e,
	      (unsigned long long)t.commands, (unsigned long long)t.resid,
	      memcmp(r, w, XFER) == 0 ? "right" : "WRONG",
	      dio_scsi_duration_source(cmd), outcome());
	CHECK(dio_scsi_exec_repeat(cmd, fd, 1, NULL) == 0 &&
	      dio_scsi_category(cmd) == DIO_SCSI_CAT_GOOD &&
	      dio_scsi_duration_source(cmd) == DIO_SCSI_TIME_MEASURED &&
	      dio_scsi_duration_ns(cmd) > 0,
	      "%s %s: repeat x1 without a tally: measured %llu ns", g->name, dev,
	      (unsigned long long)dio_scsi_duration_ns(cmd));
	e = dio_scsi_exec_repeat(cmd, fd, 0, &t);
	CHECK(e == -EINVAL && t.commands == 0 && dio_scsi_category(cmd) == -EINVAL,
	      "%s %s: repeat x0 refused (%d)", g->name, dev, e);

	/* DIRECT asked with allow_dio off: every repetition counted. */
	if (sg) {
		write_sysfs(ALLOW_DIO, "0");
		dio_scsi_set_xfer(cmd, DIO_SCSI_XFER_DIRECT);
		memset(r, 0, XFER);
		e = dio_scsi_exec_repeat(cmd, fd, 3, &t);
		CHECK(e == 0 && t.commands == 3 && t.not_direct == 3 &&
		      dio_scsi_xfer_done(cmd) == DIO_SCSI_XFER_INDIRECT &&
		      memcmp(r, w, XFER) == 0,
		      "%s %s: repeat direct x3 with allow_dio=0: %llu not direct",
		      g->name, dev, (unsigned long long)t.not_direct);
		write_sysfs(ALLOW_DIO, "1");
		e = dio_scsi_exec_repeat(cmd, fd, 3, &t);
		CHECK(e == 0 && t.commands == 3 && t.not_direct == 0 &&
		      dio_scsi_xfer_done(cmd) == DIO_SCSI_XFER_DIRECT,
		      "%s %s: repeat direct x3 with allow_dio=1: %llu not direct",
		      g->name, dev, (unsigned long long)t.not_direct);
		write_sysfs(ALLOW_DIO, "0");
		dio_scsi_set_xfer(cmd, DIO_SCSI_XFER_INDIRECT);
	}

	/* The first repetition fails: the loop stops there, the getters
	 * describe it. */
	n = dio_cdb_rw16(cdb, 0, blocks, 1, 0);
	dio_scsi_set_cdb(cmd, cdb, (size_t)n);
	dio_scsi_set_data(cmd, DIO_SCSI_DIR_IN, r, bl);
	e = dio_scsi_exec_repeat(cmd, fd, 5, &t);
	CHECK(e == 0 && t.commands == 0 &&
	      sense_is(DIO_SENSE_ILLEGAL_REQUEST, 0x21, 0x00, &s),
	      "%s %s: repeat READ(16) past the end x5: stops at the first, %llu done "
	      "(%s)", g->name, dev, (unsigned long long)t.commands, outcome());

	/* scsi_debug fails every 3rd command: two done, then the failure. */
	if (g->is_debug && sg) {
		n = dio_cdb_rw10(cdb, 0, SCRATCH_LBA, nb, 0);
		dio_scsi_set_cdb(cmd, cdb, (size_t)n);
		dio_scsi_set_data(cmd, DIO_SCSI_DIR_IN, r, XFER);
		CHECK(write_sysfs(SDEBUG "every_nth", "3") == 0 &&
		      write_sysfs(SDEBUG "opts", "0x10") == 0,
		      "scsi_debug every_nth=3 opts=0x10 (transport error)");
		e = dio_scsi_exec_repeat(cmd, fd, 6, &t);
		write_sysfs(SDEBUG "opts", "0");
		write_sysfs(SDEBUG "every_nth", "0");
		CHECK(e == 0 && t.commands == 2 &&
		      dio_scsi_category(cmd) != DIO_SCSI_CAT_GOOD,
		      "%s %s: repeat x6 with every 3rd command failing: %llu done, "
		      "then %s", g->name, dev, (unsigned long long)t.commands, outcome());
	}
	dio_free(w);
	dio_free(r);
}

/* Errors the devices really send, decoded. */
static void
check_errors(const struct gdev *g, const char *dev, int fd, uint64_t blocks)
{
	uint8_t cdb[16], buf[4096];
	struct dio_sense s;
	char text[256];
	int n;

	n = dio_cdb_rw16(cdb, 0, blocks, 1, 0);
	CHECK(run(fd, cdb, n, DIO_SCSI_DIR_IN, buf, 512, 0) == 0 &&
	      sense_is(DIO_SENSE_ILLEGAL_REQUEST, 0x21, 0x00, &s),
	      "%s %s: READ(16) past the end: LBA out of range (%s)", g->name, dev,
	      outcome());
	CHECK(strncmp(dio_sense_str(&s, text, sizeof(text)), "ILLEGAL REQUEST: logical "
	      "block address out of range (asc 0x21 ascq 0x00)", 66) == 0,
	      "%s %s: decoded as '%s'", g->name, dev, text);

	/* The outcome as text is the decoded sense; diot_scsi_run says -EIO. */
	CHECK(strcmp(outcome(), text) == 0, "%s %s: outcome text '%s'", g->name, dev,
	      outcome());
	{
		char msg[300] = "";
		int r;

		n = dio_cdb_rw16(cdb, 0, blocks, 1, 0);
		r = diot_scsi_run(cmd, fd, cdb, n, DIO_SCSI_DIR_IN, buf, 512, msg,
		                  sizeof(msg));
		CHECK(r == -EIO && dio_scsi_category(cmd) == DIO_SCSI_CAT_SENSE &&
		      strcmp(msg, text) == 0,
		      "%s %s: diot_scsi_run past the end: %d '%s'", g->name, dev, r, msg);
		n = dio_cdb_test_unit_ready(cdb);
		r = diot_scsi_run(cmd, fd, cdb, n, DIO_SCSI_DIR_NONE, NULL, 0, msg,
		                  sizeof(msg));
		CHECK(r == 0 && msg[0] == '\0' && strcmp(outcome(), "GOOD") == 0,
		      "%s %s: diot_scsi_run TUR: %d '%s', outcome '%s'", g->name, dev, r,
		      msg, outcome());
	}

	n = dio_cdb_inquiry(cdb, 1, 0xde, 252);
	CHECK(run(fd, cdb, n, DIO_SCSI_DIR_IN, buf, 252, 0) == 0 &&
	      sense_is(DIO_SENSE_ILLEGAL_REQUEST, 0x24, 0x00, &s),
	      "%s %s: INQUIRY of VPD page DEh: invalid field in CDB (%s)", g->name, dev,
	      outcome());

	n = dio_cdb_read_buffer(cdb, DIO_BUF_MODE_DESCRIPTOR, 0, 0, 4);
	if (g->has_rbuf)
		return;
	CHECK(run(fd, cdb, n, DIO_SCSI_DIR_IN, buf, 4, 0) == 0 &&
	      sense_is(DIO_SENSE_ILLEGAL_REQUEST, 0x20, 0x00, &s),
	      "%s %s: READ BUFFER refused: invalid command operation code (%s)",
	      g->name, dev, outcome());
	CHECK(strcmp(dio_sense_str(&s, text, sizeof(text)), "ILLEGAL REQUEST: invalid "
	      "command operation code (asc 0x20 ascq 0x00)") == 0 ||
	      strstr(text, "ILLEGAL REQUEST: invalid command operation code (asc 0x20 "
	      "ascq 0x00); field pointer: CDB byte 0") == text,
	      "%s %s: decoded as '%s'", g->name, dev, text);
}

/* READ(10) of the scratch area in every mode; sg devices do them all. */
static void
check_modes(const struct gdev *g, const char *dev, int fd, uint32_t bl, unsigned seed)
{
	uint8_t cdb[16], *w = dio_alloc(XFER + 4096, 0), *r = dio_alloc(XFER + 4096, 0);
	dio_scsi *mc = dio_scsi_new();
	uint32_t nb = XFER / bl;
	void *map = NULL;
	int n, e, sg = is_sg(g, dev);
	char d[300];

	fill(w, XFER, seed);
	n = dio_cdb_rw10(cdb, 1, SCRATCH_LBA, nb, 0);
	CHECK(good(fd, cdb, n, DIO_SCSI_DIR_OUT, w, XFER), "%s %s: WRITE(10) the "
	      "pattern for the mode checks (%s)", g->name, dev, outcome());
	n = dio_cdb_rw10(cdb, 0, SCRATCH_LBA, nb, 0);

	memset(r, 0, XFER);
	CHECK(run(fd, cdb, n, DIO_SCSI_DIR_IN, r, XFER, DIO_SCSI_XFER_INDIRECT) == 0 &&
	      dio_scsi_category(cmd) == DIO_SCSI_CAT_GOOD && memcmp(w, r, XFER) == 0 &&
	      dio_scsi_xfer_done(cmd) == (sg ? DIO_SCSI_XFER_INDIRECT : DIO_SCSI_XFER_AUTO),
	      "%s %s: READ(10) indirect: data right, done '%s'", g->name, dev,
	      dio_scsi_xfer_name(dio_scsi_xfer_done(cmd)));

	if (!sg) {
		static const int modes[] = { DIO_SCSI_XFER_DIRECT, DIO_SCSI_XFER_NO_COPY,
		                             DIO_SCSI_XFER_MMAP };
		size_t i;

		for (i = 0; i < 3; i++) {
			e = run(fd, cdb, n, DIO_SCSI_DIR_IN,
			        modes[i] == DIO_SCSI_XFER_DIRECT ? r : NULL, XFER, modes[i]);
			if (modes[i] == DIO_SCSI_XFER_MMAP && e == -EINVAL) {
				/* no mapping: mmap_buf must say why */
				e = dio_scsi_mmap_buf(mc, fd, XFER, &map);
			}
			dio_scsi_errdetail(e == -ENOTSUP && modes[i] != DIO_SCSI_XFER_MMAP ?
			                   cmd : mc, d, sizeof(d));
			CHECK(e == -ENOTSUP && dio_scsi_category(cmd) < 0 &&
			      strstr(d, modes[i] == DIO_SCSI_XFER_MMAP ? "no reserved buffer" :
			             "need an sg character device") != NULL,
			      "%s %s: %s refused with ENOTSUP: %s", g->name, dev,
			      dio_scsi_xfer_name(modes[i]), d);
		}
		CHECK(dio_scsi_reserve(fd, 65536) == -ENOTSUP,
		      "%s %s: no reserved buffer on a block device", g->name, dev);
		goto out;
	}

	/* no-copy: GOOD, nothing lands in the buffer, NULL allowed */
	memset(r, 0x5a, XFER);
	CHECK(run(fd, cdb, n, DIO_SCSI_DIR_IN, NULL, XFER, DIO_SCSI_XFER_NO_COPY) == 0 &&
	      dio_scsi_category(cmd) == DIO_SCSI_CAT_GOOD &&
	      dio_scsi_xfer_done(cmd) == DIO_SCSI_XFER_NO_COPY && r[0] == 0x5a &&
	      r[XFER - 1] == 0x5a,
	      "%s %s: READ(10) no-copy: GOOD, user memory untouched (%s)", g->name, dev,
	      outcome());

	/* mmap: the reserved buffer holds the data */
	e = dio_scsi_mmap_buf(mc, fd, XFER, &map);
	dio_scsi_errdetail(mc, d, sizeof(d));
	CHECK(e == 0 && map != NULL, "%s %s: mapped %u bytes of the reserved buffer (%s)",
	      g->name, dev, XFER, d);
	if (e == 0) {
		memset(map, 0, XFER);
		dio_scsi_clear(mc);
		dio_scsi_set_xfer(mc, DIO_SCSI_XFER_MMAP);
		dio_scsi_set_cdb(mc, cdb, (size_t)n);
		dio_scsi_set_data(mc, DIO_SCSI_DIR_IN, NULL, XFER);
		e = dio_scsi_exec(mc, fd);
		CHECK(e == 0 && dio_scsi_category(mc) == DIO_SCSI_CAT_GOOD &&
		      dio_scsi_xfer_done(mc) == DIO_SCSI_XFER_MMAP &&
		      memcmp(map, w, XFER) == 0,
		      "%s %s: READ(10) mmap: data in the mapping", g->name, dev);
		/* The mapping pins the reserved buffer's size. */
		CHECK(dio_scsi_reserve(fd, 4u << 20) == -EBUSY,
		      "%s %s: reserved buffer cannot grow once mapped", g->name, dev);
		/* A bigger mapping than the buffer is refused with a reason. */
		e = dio_scsi_mmap_buf(mc, fd, 4u << 20, &map);
		dio_scsi_errdetail(mc, d, sizeof(d));
		CHECK(e == -EBUSY || e == -ENOMEM, "%s %s: mapping 4 MiB refused: %s",
		      g->name, dev, d);
	}

	/* direct with allow_dio off: the driver falls back and says so */
	CHECK(write_sysfs(ALLOW_DIO, "0") == 0, "allow_dio=0");
	memset(r, 0, XFER);
	CHECK(run(fd, cdb, n, DIO_SCSI_DIR_IN, r, XFER, DIO_SCSI_XFER_DIRECT) == 0 &&
	      dio_scsi_category(cmd) == DIO_SCSI_CAT_GOOD &&
	      dio_scsi_xfer_done(cmd) == DIO_SCSI_XFER_INDIRECT && memcmp(w, r, XFER) == 0,
	      "%s %s: READ(10) direct, allow_dio=0: done '%s', data right", g->name, dev,
	      dio_scsi_xfer_name(dio_scsi_xfer_done(cmd)));

	/* allow_dio on: really direct */
	CHECK(write_sysfs(ALLOW_DIO, "1") == 0, "allow_dio=1");
	memset(r, 0, XFER);
	CHECK(run(fd, cdb, n, DIO_SCSI_DIR_IN, r, XFER, DIO_SCSI_XFER_DIRECT) == 0 &&
	      dio_scsi_category(cmd) == DIO_SCSI_CAT_GOOD &&
	      dio_scsi_xfer_done(cmd) == DIO_SCSI_XFER_DIRECT && memcmp(w, r, XFER) == 0,
	      "%s %s: READ(10) direct, allow_dio=1: done '%s', data right", g->name, dev,
	      dio_scsi_xfer_name(dio_scsi_xfer_done(cmd)));

	/* allow_dio on, buffer off the DMA alignment: indirect again */
	memset(r, 0, XFER + 1);
	CHECK(run(fd, cdb, n, DIO_SCSI_DIR_IN, r + 1, XFER, DIO_SCSI_XFER_DIRECT) == 0 &&
	      dio_scsi_category(cmd) == DIO_SCSI_CAT_GOOD &&
	      dio_scsi_xfer_done(cmd) == DIO_SCSI_XFER_INDIRECT &&
	      memcmp(w, r + 1, XFER) == 0,
	      "%s %s: READ(10) direct into buffer+1, allow_dio=1: done '%s', data right",
	      g->name, dev, dio_scsi_xfer_name(dio_scsi_xfer_done(cmd)));
	write_sysfs(ALLOW_DIO, "0");

	/* direct WRITE too (the OUT direction) */
	write_sysfs(ALLOW_DIO, "1");
	fill(w, XFER, seed + 9);
	n = dio_cdb_rw10(cdb, 1, SCRATCH_LBA, nb, 0);
	CHECK(run(fd, cdb, n, DIO_SCSI_DIR_OUT, w, XFER, DIO_SCSI_XFER_DIRECT) == 0 &&
	      dio_scsi_category(cmd) == DIO_SCSI_CAT_GOOD &&
	      dio_scsi_xfer_done(cmd) == DIO_SCSI_XFER_DIRECT,
	      "%s %s: WRITE(10) direct, allow_dio=1: done '%s'", g->name, dev,
	      dio_scsi_xfer_name(dio_scsi_xfer_done(cmd)));
	write_sysfs(ALLOW_DIO, "0");
	n = dio_cdb_rw10(cdb, 0, SCRATCH_LBA, nb, 0);
	memset(r, 0, XFER);
	CHECK(good(fd, cdb, n, DIO_SCSI_DIR_IN, r, XFER) && memcmp(w, r, XFER) == 0,
	      "%s %s: the direct write reads back", g->name, dev);
out:
	dio_scsi_free(mc);
	dio_free(w);
	dio_free(r);
}

/* READ/WRITE BUFFER on the TCMU disk, which has a real buffer. */
static void
check_buffer(const struct gdev *g, const char *dev, int fd)
{
	uint8_t cdb[16], desc[4], *w, *r;
	uint32_t cap = 0, want = (uint32_t)strtoul(getenv("DIO_TCMU_BUFCAP") ?
	                                            getenv("DIO_TCMU_BUFCAP") : "0",
	                                            NULL, 10);
	unsigned ob = 99;
	struct dio_sense s;
	char text[256];
	dio_scsi *mc;
	void *map = NULL;
	int n, sg = is_sg(g, dev), m;

	n = dio_cdb_read_buffer(cdb, DIO_BUF_MODE_DESCRIPTOR, 0, 0, sizeof(desc));
	CHECK(good(fd, cdb, n, DIO_SCSI_DIR_IN, desc, sizeof(desc)) &&
	      dio_parse_buffer_descriptor(desc, sizeof(desc), &ob, &cap) == 0 &&
	      cap == want && ob == 0,
	      "%s %s: READ BUFFER descriptor: capacity %u (expected %u), boundary %u (%s)",
	      g->name, dev, cap, want, ob, outcome());
	if (cap == 0)
		return;
	w = dio_alloc(cap + 8192, 0);
	r = dio_alloc(cap + 8192, 0);
	fill(w, cap, 77 + (unsigned)sg);
	n = dio_cdb_write_buffer(cdb, DIO_BUF_MODE_DATA, 0, 0, cap);
	CHECK(good(fd, cdb, n, DIO_SCSI_DIR_OUT, w, cap),
	      "%s %s: WRITE BUFFER data mode, %u bytes (%s)", g->name, dev, cap, outcome());

	n = dio_cdb_read_buffer(cdb, DIO_BUF_MODE_DATA, 0, 0, cap);
	memset(r, 0, cap);
	CHECK(good(fd, cdb, n, DIO_SCSI_DIR_IN, r, cap) && memcmp(w, r, cap) == 0 &&
	      dio_scsi_resid(cmd) == 0,
	      "%s %s: READ BUFFER data mode reads it back", g->name, dev);

	/* Asking more than the capacity: GOOD with a residual. */
	n = dio_cdb_read_buffer(cdb, DIO_BUF_MODE_DATA, 0, 0, cap + 4096);
	CHECK(good(fd, cdb, n, DIO_SCSI_DIR_IN, r, cap + 4096) &&
	      dio_scsi_resid(cmd) == 4096,
	      "%s %s: READ BUFFER of capacity + 4096: residual %lld", g->name, dev,
	      (long long)dio_scsi_resid(cmd));

	/* Echo buffer round trip and its descriptor. */
	n = dio_cdb_write_buffer(cdb, DIO_BUF_MODE_ECHO, 0, 0, 200);
	CHECK(good(fd, cdb, n, DIO_SCSI_DIR_OUT, w + 1000, 200),
	      "%s %s: WRITE BUFFER echo (%s)", g->name, dev, outcome());
	n = dio_cdb_read_buffer(cdb, DIO_BUF_MODE_ECHO, 0, 0, 200);
	memset(r, 0, 200);
	CHECK(good(fd, cdb, n, DIO_SCSI_DIR_IN, r, 200) && memcmp(r, w + 1000, 200) == 0,
	      "%s %s: READ BUFFER echo returns it (%s)", g->name, dev, outcome());
	n = dio_cdb_read_buffer(cdb, DIO_BUF_MODE_ECHO_DESCRIPTOR, 0, 0, 4);
	CHECK(good(fd, cdb, n, DIO_SCSI_DIR_IN, desc, 4) &&
	      ((desc[2] & 0x1f) << 8 | desc[3]) >= 200,
	      "%s %s: echo buffer descriptor: capacity %u", g->name, dev,
	      (unsigned)((desc[2] & 0x1f) << 8 | desc[3]));

	/* Refusals with the sense-key specific field pointer. */
	n = dio_cdb_read_buffer(cdb, DIO_BUF_MODE_DATA, 1, 0, 512);
	CHECK(run(fd, cdb, n, DIO_SCSI_DIR_IN, r, 512, 0) == 0 &&
	      sense_is(DIO_SENSE_ILLEGAL_REQUEST, 0x24, 0x00, &s) && s.sks_valid &&
	      strstr(dio_sense_str(&s, text, sizeof(text)),
	             "field pointer: CDB byte 2") != NULL,
	      "%s %s: READ BUFFER buffer id 1: '%s'", g->name, dev, text);
	n = dio_cdb_read_buffer(cdb, 0x1c, 0, 0, 512);
	CHECK(run(fd, cdb, n, DIO_SCSI_DIR_IN, r, 512, 0) == 0 &&
	      sense_is(DIO_SENSE_ILLEGAL_REQUEST, 0x24, 0x00, &s) &&
	      strstr(dio_sense_str(&s, text, sizeof(text)),
	             "field pointer: CDB byte 1 bit 4") != NULL,
	      "%s %s: READ BUFFER mode 1Ch: '%s'", g->name, dev, text);

	/* READ BUFFER in every mode the device type allows. */
	n = dio_cdb_read_buffer(cdb, DIO_BUF_MODE_DATA, 0, 0, cap);
	mc = dio_scsi_new();
	for (m = DIO_SCSI_XFER_INDIRECT; m <= DIO_SCSI_XFER_MMAP; m++) {
		int e, allow;

		for (allow = 0; allow <= (m == DIO_SCSI_XFER_DIRECT); allow++) {
			write_sysfs(ALLOW_DIO, allow ? "1" : "0");
			memset(r, 0, cap);
			if (m == DIO_SCSI_XFER_MMAP) {
				e = dio_scsi_mmap_buf(mc, fd, cap, &map);
				if (e == 0) {
					memset(map, 0, cap);
					dio_scsi_clear(mc);
					dio_scsi_set_xfer(mc, m);
					dio_scsi_set_cdb(mc, cdb, (size_t)n);
					dio_scsi_set_data(mc, DIO_SCSI_DIR_IN, map, cap);
					e = dio_scsi_exec(mc, fd);
				}
				if (sg)
					CHECK(e == 0 && dio_scsi_category(mc) == 0 &&
					      dio_scsi_xfer_done(mc) == DIO_SCSI_XFER_MMAP &&
					      memcmp(map, w, cap) == 0,
					      "%s %s: READ BUFFER mmap: data in the mapping",
					      g->name, dev);
				else
					CHECK(e == -ENOTSUP, "%s %s: READ BUFFER mmap "
					      "refused (%d)", g->name, dev, e);
				continue;
			}
			e = run(fd, cdb, n, DIO_SCSI_DIR_IN,
			        m == DIO_SCSI_XFER_NO_COPY ? NULL : r, cap, m);
			if (!sg && m != DIO_SCSI_XFER_INDIRECT) {
				CHECK(e == -ENOTSUP, "%s %s: READ BUFFER %s refused (%d)",
				      g->name, dev, dio_scsi_xfer_name(m), e);
				continue;
			}
			CHECK(e == 0 && dio_scsi_category(cmd) == DIO_SCSI_CAT_GOOD &&
			      (m == DIO_SCSI_XFER_NO_COPY || memcmp(r, w, cap) == 0) &&
			      dio_scsi_xfer_done(cmd) ==
			      (!sg ? DIO_SCSI_XFER_AUTO :
			       m == DIO_SCSI_XFER_DIRECT && !allow ? DIO_SCSI_XFER_INDIRECT : m),
			      "%s %s: READ BUFFER %s%s: done '%s'%s", g->name, dev,
			      dio_scsi_xfer_name(m),
			      m == DIO_SCSI_XFER_DIRECT ? (allow ? " (allow_dio=1)" :
			                                   " (allow_dio=0)") : "",
			      dio_scsi_xfer_name(dio_scsi_xfer_done(cmd)),
			      m == DIO_SCSI_XFER_NO_COPY ? "" : ", data right");
		}
	}
	write_sysfs(ALLOW_DIO, "0");
	dio_scsi_free(mc);
	dio_free(w);
	dio_free(r);
}

/* scsi_debug's error injection: medium errors, descriptor sense. */
static void
check_debug_errors(const struct gdev *g, const char *dev, int fd)
{
	uint8_t cdb[16], buf[4096];
	struct dio_sense s;
	char text[256];
	int n;

	CHECK(write_sysfs(SDEBUG "opts", "2") == 0, "scsi_debug opts=2 (medium errors)");
	n = dio_cdb_rw10(cdb, 0, MEDIUM_ERR_LBA, 1, 0);
	CHECK(run(fd, cdb, n, DIO_SCSI_DIR_IN, buf, 512, 0) == 0 &&
	      sense_is(DIO_SENSE_MEDIUM_ERROR, 0x11, 0x00, &s) && !s.descriptor &&
	      s.info_valid && s.info == MEDIUM_ERR_LBA,
	      "%s %s: READ(10) at 0x%x: medium error, information = LBA (%s)",
	      g->name, dev, MEDIUM_ERR_LBA, outcome());
	CHECK(strncmp(dio_sense_str(&s, text, sizeof(text)), "MEDIUM ERROR: "
	      "unrecovered read error (asc 0x11 ascq 0x00); information 0x1234", 64) == 0,
	      "%s %s: decoded as '%s'", g->name, dev, text);

	CHECK(write_sysfs(SDEBUG "dsense", "1") == 0, "scsi_debug dsense=1");
	CHECK(run(fd, cdb, n, DIO_SCSI_DIR_IN, buf, 512, 0) == 0 &&
	      sense_is(DIO_SENSE_MEDIUM_ERROR, 0x11, 0x00, &s) && s.descriptor &&
	      s.response_code == 0x72,
	      "%s %s: the same in descriptor format (72h): %s", g->name, dev, outcome());
	write_sysfs(SDEBUG "opts", "0");
	n = dio_cdb_read_buffer(cdb, DIO_BUF_MODE_DESCRIPTOR, 0, 0, 4);
	CHECK(run(fd, cdb, n, DIO_SCSI_DIR_IN, buf, 4, 0) == 0 &&
	      sense_is(DIO_SENSE_ILLEGAL_REQUEST, 0x20, 0x00, &s) && s.descriptor,
	      "%s %s: invalid opcode in descriptor format (%s)", g->name, dev, outcome());
	n = dio_cdb_inquiry(cdb, 1, 0xde, 252);
	CHECK(run(fd, cdb, n, DIO_SCSI_DIR_IN, buf, 252, 0) == 0 &&
	      sense_is(DIO_SENSE_ILLEGAL_REQUEST, 0x24, 0x00, &s) && s.descriptor,
	      "%s %s: invalid field in CDB in descriptor format: %s", g->name, dev,
	      outcome());
	write_sysfs(SDEBUG "dsense", "0");
	n = dio_cdb_rw10(cdb, 0, MEDIUM_ERR_LBA, 1, 0);
	CHECK(good(fd, cdb, n, DIO_SCSI_DIR_IN, buf, 512),
	      "%s %s: with opts=0 the same READ(10) is GOOD (%s)", g->name, dev, outcome());

	/* A command the device never answers: the timeout ends it with a
	 * host status (DID_TIME_OUT), which is a transport failure, not an
	 * OS error: exec returns 0. */
	CHECK(write_sysfs(SDEBUG "every_nth", "1") == 0 &&
	      write_sysfs(SDEBUG "opts", "4") == 0, "scsi_debug every_nth=1 opts=4 "
	      "(ignore commands)");
	dio_scsi_clear(cmd);
	dio_scsi_set_xfer(cmd, DIO_SCSI_XFER_INDIRECT);
	dio_scsi_set_cdb(cmd, cdb, (size_t)n);
	dio_scsi_set_data(cmd, DIO_SCSI_DIR_IN, buf, 512);
	dio_scsi_set_timeout(cmd, 1500);
	CHECK(dio_scsi_exec(cmd, fd) == 0 &&
	      dio_scsi_category(cmd) == DIO_SCSI_CAT_TRANSPORT &&
	      dio_scsi_host_status(cmd) == 0x03 && dio_scsi_duration_ns(cmd) >= 1400000000u,
	      "%s %s: timed out command: category transport, host status 0x%x, "
	      "after %.2f s", g->name, dev, dio_scsi_host_status(cmd),
	      dio_scsi_duration_ns(cmd) / 1e9);
	write_sysfs(SDEBUG "opts", "0");
	write_sysfs(SDEBUG "every_nth", "0");
	n = dio_cdb_test_unit_ready(cdb);
	CHECK(good(fd, cdb, n, DIO_SCSI_DIR_NONE, NULL, 0),
	      "%s %s: GOOD again after the timeout (%s)", g->name, dev, outcome());
}

/* A status that is neither GOOD nor CHECK CONDITION: tcmu-ramdisk answers
 * its vendor opcode C0h with RESERVATION CONFLICT and no sense.  exec
 * returns 0 (the device answered), the category is STATUS, not TRANSPORT
 * (older kernels add host byte DID_NEXUS_FAILURE to this status), and the
 * next command is GOOD. */
static void
check_status(const struct gdev *g, const char *dev, int fd)
{
	uint8_t cdb[16] = { 0xC0, 0, 0, 0, 0, 0 };
	size_t n = 99;
	int e, cat, st, host, k;

	e = run(fd, cdb, 6, DIO_SCSI_DIR_NONE, NULL, 0, DIO_SCSI_XFER_INDIRECT);
	cat = dio_scsi_category(cmd);
	st = dio_scsi_status(cmd);
	host = dio_scsi_host_status(cmd);
	CHECK(e == 0 && cat == DIO_SCSI_CAT_STATUS &&
	      st == DIO_SCSI_STATUS_RESERVATION_CONFLICT &&
	      dio_scsi_sense(cmd, &n) == NULL && n == 0 &&
	      strcmp(dio_scsi_status_name(st), "RESERVATION CONFLICT") == 0,
	      "%s %s: vendor opcode C0h: exec %d, category %s, status 0x%02x (%s), "
	      "host status 0x%x, %zu bytes of sense", g->name, dev, e,
	      dio_scsi_category_name(cat), st, dio_scsi_status_name(st), host, n);
	CHECK(strcmp(outcome(), "status RESERVATION CONFLICT (0x18)") == 0,
	      "%s %s: outcome text '%s'", g->name, dev, outcome());
	k = dio_cdb_test_unit_ready(cdb);
	CHECK(good(fd, cdb, k, DIO_SCSI_DIR_NONE, NULL, 0),
	      "%s %s: GOOD again after the conflict (%s)", g->name, dev, outcome());
}

static void
check_device(const struct gdev *g, const char *dev, unsigned seed)
{
	uint64_t blocks = 0;
	uint32_t bl = 0;
	int fd = dio_scsi_open(dev, 0), fdro;

	CHECK(fd >= 0, "%s %s: dio_scsi_open read-write (%d)", g->name, dev, fd);
	if (fd < 0)
		return;
	fdro = dio_scsi_open(dev, 1);
	CHECK(fdro >= 0, "%s %s: dio_scsi_open read-only (%d)", g->name, dev, fdro);
	if (fdro >= 0)
		close(fdro);
	check_tur(g, dev, fd);
	check_inquiry(g, dev, fd);
	check_capacity(g, dev, fd, &blocks, &bl);
	if (bl == 0 || blocks < SCRATCH_LBA + 4 * (XFER / 512)) {
		CHECK(0, "%s %s: no usable capacity; skipping the rest", g->name, dev);
		close(fd);
		return;
	}
	check_mode_sense(g, dev, fd);
	check_rw(g, dev, fd, bl, seed);
	check_errors(g, dev, fd, blocks);
	check_repeat(g, dev, fd, bl, blocks, seed + 50);
	check_modes(g, dev, fd, bl, seed + 100);
	if (g->has_rbuf) {
		check_buffer(g, dev, fd);
		check_status(g, dev, fd);
	}
	if (g->is_debug && is_sg(g, dev))
		check_debug_errors(g, dev, fd);
	close(fd);
}

int
main(void)
{
	struct gdev devs[3] = {
		{ "qemu", NULL, NULL, "QEMU", "QEMU HARDDISK", 0, 0, 1 },
		{ "scsi_debug", NULL, NULL, "Linux", "scsi_debug", 0, 1, 0 },
		{ "tcmu", NULL, NULL, "LIBDIO", "TCMU RAMDISK", 1, 0, 0 },
	};
	static const char *const env[3][2] = {
		{ "DIO_QEMU_SG", "DIO_QEMU_SD" },
		{ "DIO_DEBUG_SG", "DIO_DEBUG_SD" },
		{ "DIO_TCMU_SG", "DIO_TCMU_SD" },
	};
	size_t i;

	if (getenv("DIO_QEMU_SG") == NULL) {
		printf("SKIP: not in the qemu test guest (no DIO_QEMU_SG)\n");
		return 77;
	}
	cmd = dio_scsi_new();
	printf("libdirectio %s, backend %s, caps 0x%x\n", dio_version_string(),
	       dio_backend_name(), dio_caps());
	for (i = 0; i < 3; i++) {
		devs[i].sg = getenv(env[i][0]);
		devs[i].sd = getenv(env[i][1]);
		if (devs[i].sg == NULL || devs[i].sd == NULL) {
			CHECK(0, "%s: %s and %s are set", devs[i].name, env[i][0], env[i][1]);
			continue;
		}
		check_device(&devs[i], devs[i].sg, (unsigned)(10 * i));
		check_device(&devs[i], devs[i].sd, (unsigned)(10 * i + 5));
	}
	write_sysfs(ALLOW_DIO, "0");
	dio_scsi_free(cmd);
	printf("guest-scsi-check: %d passed, %d failed\n", npass, nfail);
	return nfail ? 1 : 0;
}
