/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * scsi.c -- the SCSI command object: setters that record misuse, exec
 * that validates and hands a struct dio__scsi_req to the OS backend, the
 * outcome getters and the enum names.  Nothing here knows an OS; the
 * backend (os/<os>.c) does the system call.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "os/os.h"

#define DIO__SCSI_TIMEOUT_DEFAULT 60000u
#define DIO__SCSI_CDB_MIN 6
#define DIO__SCSI_CDB_MAX 16

/* Setters whose misuse is recorded, each in its own slot. */
enum {
	DIO__SLOT_CDB,
	DIO__SLOT_DATA,
	DIO__SLOT_TIMEOUT,
	DIO__SLOT_XFER,
	DIO__SLOT_COUNT
};

struct dio__misuse {
	int err;                       /* 0 or the -errno the setter returned */
	char detail[DIO__DETAIL_MAX];
};

struct dio_scsi {
	/* the command */
	uint8_t cdb[DIO__SCSI_CDB_MAX];
	size_t cdb_len;                /* 0: none set                         */
	int dir;
	void *buf;
	size_t len;
	unsigned timeout_ms;
	int xfer;
	struct dio__misuse misuse[DIO__SLOT_COUNT];

	/* what the backend learned about the last descriptor (see os.h) */
	int cache_fd;
	int cache_kind;

	/* the reserved buffer mapping (DIO_SCSI_XFER_MMAP) */
	void *map;
	size_t map_len;
	int map_fd;

	/* the outcome of the last exec */
	int done;                      /* an outcome is there                 */
	int category;
	int status;
	int host_status;
	int driver_status;
	int64_t resid;
	uint8_t sense[DIO_SCSI_SENSE_MAX];
	size_t sense_len;
	uint64_t duration_ns;
	int duration_source;
	int xfer_done;

	/* the last failure */
	int lasterr;
	char detail[DIO__DETAIL_MAX];
};

/* Record the last failure on c and return err. */
static int
dio__scsi_fail(dio_scsi *c, int err, const char *fmt, ...) DIO__PRINTF(3, 4);

static int
dio__scsi_fail(dio_scsi *c, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->detail, sizeof(c->detail), fmt, ap);
	va_end(ap);
	c->lasterr = err;
	dio__log(DIO_LOG_DEBUG, "scsi: %s", c->detail);
	return err;
}

/* Record misuse by a setter in slot; exec will refuse with it. */
static int
dio__scsi_misuse(dio_scsi *c, int slot, int err, const char *fmt, ...) DIO__PRINTF(4, 5);

static int
dio__scsi_misuse(dio_scsi *c, int slot, int err, const char *fmt, ...)
{
	struct dio__misuse *m = &c->misuse[slot];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(m->detail, sizeof(m->detail), fmt, ap);
	va_end(ap);
	m->err = err;
	return dio__scsi_fail(c, err, "%s", m->detail);
}

static void
dio__scsi_ok(dio_scsi *c, int slot)
{
	c->misuse[slot].err = 0;
	c->misuse[slot].detail[0] = '\0';
}

static void
dio__scsi_forget_outcome(dio_scsi *c)
{
	c->done = 0;
	c->category = 0;
	c->status = c->host_status = c->driver_status = 0;
	c->resid = 0;
	c->sense_len = 0;
	c->duration_ns = 0;
	c->duration_source = 0;
	c->xfer_done = 0;
}

int
dio_scsi_open(const char *path, int read_only)
{
	struct stat st;
	int fd, e;

	if (path == NULL || *path == '\0')
		return dio__fail(NULL, -EINVAL, "dio_scsi_open: empty path");
	fd = open(path, (read_only ? O_RDONLY : O_RDWR) | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		return dio__fail(NULL, DIO__ERR(e), "scsi open %s: %s", path,
		                 dio_strerror(e));
	}
	if (fstat(fd, &st) != 0) {
		e = errno;
		close(fd);
		return dio__fail(NULL, DIO__ERR(e), "scsi open %s: fstat: %s", path,
		                 dio_strerror(e));
	}
	if (!S_ISCHR(st.st_mode) && !S_ISBLK(st.st_mode)) {
		close(fd);
		return dio__fail(NULL, -ENOTTY, "scsi open %s: %s, not a SCSI device",
		                 path, dio__kind_name(&st));
	}
	e = dio__os_scsi_probe(fd, &st, path);
	if (e < 0) {
		close(fd);
		return e;
	}
	return fd;
}

dio_scsi *
dio_scsi_new(void)
{
	dio_scsi *c = calloc(1, sizeof(*c));

	if (c == NULL)
		return NULL;
	c->timeout_ms = DIO__SCSI_TIMEOUT_DEFAULT;
	c->xfer = DIO_SCSI_XFER_INDIRECT;
	c->map_fd = -1;
	c->cache_fd = -1;
	return c;
}

void
dio_scsi_free(dio_scsi *c)
{
	if (c == NULL)
		return;
	if (c->map != NULL)
		munmap(c->map, c->map_len);
	free(c);
}

void
dio_scsi_clear(dio_scsi *c)
{
	if (c == NULL)
		return;
	memset(c->cdb, 0, sizeof(c->cdb));
	c->cdb_len = 0;
	c->dir = DIO_SCSI_DIR_NONE;
	c->buf = NULL;
	c->len = 0;
	c->cache_fd = -1;
	dio__scsi_ok(c, DIO__SLOT_CDB);
	dio__scsi_ok(c, DIO__SLOT_DATA);
	dio__scsi_forget_outcome(c);
	c->lasterr = 0;
	c->detail[0] = '\0';
}

int
dio_scsi_set_cdb(dio_scsi *c, const uint8_t *cdb, size_t len)
{
	if (c == NULL)
		return -EINVAL;
	c->cdb_len = 0;
	if (cdb == NULL)
		return dio__scsi_misuse(c, DIO__SLOT_CDB, -EINVAL, "set CDB: CDB is NULL");
	if (len == 0)
		return dio__scsi_misuse(c, DIO__SLOT_CDB, -EINVAL, "set CDB: length 0 "
		                        "is not 6 to 16 bytes");
	if (len < DIO__SCSI_CDB_MIN || len > DIO__SCSI_CDB_MAX)
		return dio__scsi_misuse(c, DIO__SLOT_CDB, -EINVAL, "set CDB: length %zu "
		                        "(opcode 0x%02x) is not 6 to 16 bytes", len, cdb[0]);
	memcpy(c->cdb, cdb, len);
	c->cdb_len = len;
	dio__scsi_ok(c, DIO__SLOT_CDB);
	return 0;
}

int
dio_scsi_set_data(dio_scsi *c, int dir, void *buf, size_t len)
{
	if (c == NULL)
		return -EINVAL;
	c->dir = DIO_SCSI_DIR_NONE;
	c->buf = NULL;
	c->len = 0;
	if (dir < DIO_SCSI_DIR_NONE || dir > DIO_SCSI_DIR_OUT)
		return dio__scsi_misuse(c, DIO__SLOT_DATA, -EINVAL, "set data: direction %d "
		                        "is not NONE, IN or OUT", dir);
	if (dir == DIO_SCSI_DIR_NONE && len != 0)
		return dio__scsi_misuse(c, DIO__SLOT_DATA, -EINVAL, "set data: %zu bytes "
		                        "with direction NONE", len);
	if ((uint64_t)len > UINT32_MAX)
		return dio__scsi_misuse(c, DIO__SLOT_DATA, -EINVAL, "set data: %zu bytes: "
		                        "one command carries at most %" PRIu32 " bytes",
		                        len, UINT32_MAX);
	c->dir = dir;
	c->buf = buf;
	c->len = len;
	dio__scsi_ok(c, DIO__SLOT_DATA);
	return 0;
}

int
dio_scsi_set_timeout(dio_scsi *c, unsigned ms)
{
	if (c == NULL)
		return -EINVAL;
	c->timeout_ms = ms ? ms : DIO__SCSI_TIMEOUT_DEFAULT;
	dio__scsi_ok(c, DIO__SLOT_TIMEOUT);
	return 0;
}

int
dio_scsi_set_xfer(dio_scsi *c, int mode)
{
	int r;

	if (c == NULL)
		return -EINVAL;
	if (mode == DIO_SCSI_XFER_AUTO)
		return dio__scsi_misuse(c, DIO__SLOT_XFER, -EINVAL, "set transfer mode: "
		                        "'auto' is an outcome, not a mode to ask for");
	if (mode < DIO_SCSI_XFER_INDIRECT || mode > DIO_SCSI_XFER_MMAP)
		return dio__scsi_misuse(c, DIO__SLOT_XFER, -EINVAL, "set transfer mode: "
		                        "unknown mode %d", mode);
	r = dio__os_scsi_xfer_ok(mode);
	if (r < 0)
		return dio__scsi_misuse(c, DIO__SLOT_XFER, r, "set transfer mode: %s "
		                        "transfers are not available with the %s backend",
		                        dio_scsi_xfer_name(mode), DIO_BACKEND_NAME);
	c->xfer = mode;
	dio__scsi_ok(c, DIO__SLOT_XFER);
	return 0;
}

int64_t
dio_scsi_reserve(int fd, size_t len)
{
	if (fd < 0)
		return -EBADF;
	return dio__os_scsi_reserve(fd, len);
}

int
dio_scsi_mmap_buf(dio_scsi *c, int fd, size_t len, void **buf)
{
	size_t ps = dio__pagesize(), want;
	int64_t have;
	void *addr;
	int r;

	if (c == NULL || buf == NULL)
		return -EINVAL;
	*buf = NULL;
	c->lasterr = 0;
	c->detail[0] = '\0';
	if (fd < 0)
		return dio__scsi_fail(c, -EBADF, "map reserved buffer: bad descriptor %d", fd);
	if (len == 0)
		return dio__scsi_fail(c, -EINVAL, "map reserved buffer: length 0");
	if (len > SIZE_MAX - ps)
		return dio__scsi_fail(c, -EINVAL, "map reserved buffer: length %zu too large",
		                      len);
	want = (len + ps - 1) / ps * ps;
	if (c->map != NULL && c->map_fd == fd && c->map_len >= want) {
		*buf = c->map;
		return 0;
	}
	if (c->map != NULL) {
		munmap(c->map, c->map_len);
		c->map = NULL;
		c->map_len = 0;
		c->map_fd = -1;
	}
	have = dio__os_scsi_reserve(fd, want);
	if (have == -ENOTSUP)
		return dio__scsi_fail(c, -ENOTSUP, "map reserved buffer: fd %d has no "
		                      "reserved buffer (only Linux sg devices have one)", fd);
	if (have == -EBUSY)
		return dio__scsi_fail(c, -EBUSY, "map reserved buffer of %zu bytes: the "
		                      "driver's reserved buffer on fd %d is smaller and "
		                      "cannot grow once mapped", want, fd);
	if (have < 0)
		return dio__scsi_fail(c, (int)have, "map reserved buffer: resizing it to "
		                      "%zu bytes: %s", want, dio_strerror((int)have));
	if ((uint64_t)have < want)
		return dio__scsi_fail(c, -ENOMEM, "map reserved buffer: asked %zu bytes, "
		                      "the driver reserved only %" PRId64 " (it caps the "
		                      "buffer at the device's largest transfer)", want, have);
	r = dio__os_scsi_mmap(fd, want, &addr);
	if (r < 0)
		return dio__scsi_fail(c, r, "map reserved buffer: mmap of %zu bytes on fd "
		                      "%d: %s", want, fd, dio_strerror(r));
	c->map = addr;
	c->map_len = want;
	c->map_fd = fd;
	*buf = addr;
	return 0;
}

/* The misuse exec reports, first recorded slot first; 0 if none. */
static int
dio__scsi_check(dio_scsi *c, int fd)
{
	int i;

	for (i = 0; i < DIO__SLOT_COUNT; i++)
		if (c->misuse[i].err != 0)
			return dio__scsi_fail(c, c->misuse[i].err, "%s", c->misuse[i].detail);
	if (fd < 0)
		return dio__scsi_fail(c, -EBADF, "exec: bad descriptor %d", fd);
	if (c->cdb_len == 0)
		return dio__scsi_fail(c, -EINVAL, "exec: no CDB set");
	if (c->xfer == DIO_SCSI_XFER_MMAP) {
		if (c->map == NULL)
			return dio__scsi_fail(c, -EINVAL, "exec: mmap transfer without a "
			                      "mapping (call dio_scsi_mmap_buf() first)");
		if (c->map_fd != fd)
			return dio__scsi_fail(c, -EINVAL, "exec: mmap transfer on fd %d but "
			                      "the reserved buffer mapped is fd %d's", fd,
			                      c->map_fd);
		if (c->buf != NULL && c->buf != c->map)
			return dio__scsi_fail(c, -EINVAL, "exec: mmap transfer with a buffer "
			                      "other than the one dio_scsi_mmap_buf() gave");
		if (c->len > c->map_len)
			return dio__scsi_fail(c, -EINVAL, "exec: mmap transfer of %zu bytes "
			                      "exceeds the %zu-byte mapping", c->len,
			                      c->map_len);
	} else if (c->xfer != DIO_SCSI_XFER_NO_COPY && c->len > 0 && c->buf == NULL) {
		return dio__scsi_fail(c, -EINVAL, "exec: %s transfer of %zu bytes with a "
		                      "NULL buffer", dio_scsi_xfer_name(c->xfer), c->len);
	}
	return 0;
}

static int
dio__scsi_categorise(const struct dio__scsi_req *r)
{
	if (r->transport)
		return DIO_SCSI_CAT_TRANSPORT;
	switch (r->status) {
	case DIO_SCSI_STATUS_GOOD:
	case DIO_SCSI_STATUS_CONDITION_MET:
		return DIO_SCSI_CAT_GOOD;
	case DIO_SCSI_STATUS_CHECK_CONDITION:
	case 0x22:      /* COMMAND TERMINATED (obsolete) also carries sense */
		return r->sense_len > 0 ? DIO_SCSI_CAT_SENSE : DIO_SCSI_CAT_STATUS;
	}
	return DIO_SCSI_CAT_STATUS;
}

/* dio_scsi_exec() and dio_scsi_exec_repeat(): count >= 1 runs. */
static int
dio__scsi_run(dio_scsi *c, int fd, uint64_t count, struct dio_scsi_tally *t)
{
	struct dio__scsi_req r;
	char detail[DIO__DETAIL_MAX];
	int err;

	dio__scsi_forget_outcome(c);
	c->lasterr = 0;
	c->detail[0] = '\0';
	err = dio__scsi_check(c, fd);
	if (err < 0)
		return err;

	memset(&r, 0, sizeof(r));
	r.cdb = c->cdb;
	r.cdb_len = c->cdb_len;
	r.dir = c->dir;
	r.len = c->len;
	r.buf = c->xfer == DIO_SCSI_XFER_MMAP ? NULL : c->buf;
	r.timeout_ms = c->timeout_ms;
	r.xfer = c->xfer;
	r.count = count;
	r.sense = c->sense;
	detail[0] = '\0';
	r.detail = detail;
	r.detail_len = sizeof(detail);
	r.cache_fd = c->cache_fd;
	r.cache_kind = c->cache_kind;

	err = dio__os_scsi_exec(&r, fd);
	c->cache_fd = r.cache_fd;
	c->cache_kind = r.cache_kind;
	if (t != NULL) {
		t->commands = r.good;
		t->resid = r.resid_sum;
		t->not_direct = r.not_direct;
	}
	if (err < 0) {
		if (detail[0] == '\0')
			snprintf(detail, sizeof(detail), "%s", dio_strerror(err));
		if (count > 1)
			return dio__scsi_fail(c, err, "exec opcode 0x%02x on fd %d, "
			                      "repetition %" PRIu64 " of %" PRIu64 ": %s",
			                      c->cdb[0], fd, r.good + 1, count, detail);
		return dio__scsi_fail(c, err, "exec opcode 0x%02x on fd %d: %s",
		                      c->cdb[0], fd, detail);
	}
	c->done = 1;
	c->status = r.status;
	c->host_status = r.host_status;
	c->driver_status = r.driver_status;
	c->resid = r.resid;
	c->sense_len = r.sense_len > DIO_SCSI_SENSE_MAX ? DIO_SCSI_SENSE_MAX : r.sense_len;
	c->duration_ns = r.duration_ns;
	c->duration_source = r.duration_source;
	c->xfer_done = r.xfer_done;
	c->category = dio__scsi_categorise(&r);
	return 0;
}

int
dio_scsi_exec(dio_scsi *c, int fd)
{
	if (c == NULL)
		return -EINVAL;
	return dio__scsi_run(c, fd, 1, NULL);
}

int
dio_scsi_exec_repeat(dio_scsi *c, int fd, uint64_t count, struct dio_scsi_tally *t)
{
	if (t != NULL)
		memset(t, 0, sizeof(*t));
	if (c == NULL)
		return -EINVAL;
	if (count == 0) {
		dio__scsi_forget_outcome(c);
		return dio__scsi_fail(c, -EINVAL, "exec repeat: count 0");
	}
	return dio__scsi_run(c, fd, count, t);
}

int
dio_scsi_category(const dio_scsi *c)
{
	return c && c->done ? c->category : -EINVAL;
}

int
dio_scsi_status(const dio_scsi *c)
{
	return c && c->done ? c->status : -EINVAL;
}

int
dio_scsi_host_status(const dio_scsi *c)
{
	return c && c->done ? c->host_status : -EINVAL;
}

int
dio_scsi_driver_status(const dio_scsi *c)
{
	return c && c->done ? c->driver_status : -EINVAL;
}

int64_t
dio_scsi_resid(const dio_scsi *c)
{
	return c && c->done ? c->resid : 0;
}

const uint8_t *
dio_scsi_sense(const dio_scsi *c, size_t *len)
{
	if (c == NULL || !c->done || c->sense_len == 0) {
		if (len)
			*len = 0;
		return NULL;
	}
	if (len)
		*len = c->sense_len;
	return c->sense;
}

uint64_t
dio_scsi_duration_ns(const dio_scsi *c)
{
	return c && c->done ? c->duration_ns : 0;
}

int
dio_scsi_duration_source(const dio_scsi *c)
{
	return c && c->done ? c->duration_source : -EINVAL;
}

int
dio_scsi_xfer_done(const dio_scsi *c)
{
	return c && c->done ? c->xfer_done : -EINVAL;
}

int
dio_scsi_errdetail(const dio_scsi *c, char *buf, size_t len)
{
	if (c == NULL)
		return -EINVAL;
	if (len > 0)
		snprintf(buf, len, "%s", c->detail);
	return c->lasterr;
}

const char *
dio_scsi_category_name(int category)
{
	switch (category) {
	case DIO_SCSI_CAT_GOOD:      return "good";
	case DIO_SCSI_CAT_STATUS:    return "status";
	case DIO_SCSI_CAT_SENSE:     return "sense";
	case DIO_SCSI_CAT_TRANSPORT: return "transport";
	}
	return "invalid";
}

const char *
dio_scsi_status_name(int status)
{
	switch (status) {
	case 0x00: return "GOOD";
	case 0x02: return "CHECK CONDITION";
	case 0x04: return "CONDITION MET";
	case 0x08: return "BUSY";
	case 0x10: return "INTERMEDIATE";
	case 0x14: return "INTERMEDIATE-CONDITION MET";
	case 0x18: return "RESERVATION CONFLICT";
	case 0x22: return "COMMAND TERMINATED";
	case 0x28: return "TASK SET FULL";
	case 0x30: return "ACA ACTIVE";
	case 0x40: return "TASK ABORTED";
	}
	return "reserved";
}

char *
dio_scsi_outcome_str(const dio_scsi *c, char *buf, size_t len)
{
	struct dio_sense s;
	const uint8_t *sb;
	size_t n;

	if (buf == NULL || len == 0)
		return buf;
	buf[0] = '\0';
	if (c == NULL) {
		snprintf(buf, len, "no command object");
		return buf;
	}
	if (!c->done) {
		if (c->lasterr < 0 && c->detail[0] != '\0')
			snprintf(buf, len, "%s", c->detail);
		else
			snprintf(buf, len, "no command completed");
		return buf;
	}
	switch (c->category) {
	case DIO_SCSI_CAT_GOOD:
		snprintf(buf, len, "GOOD");
		break;
	case DIO_SCSI_CAT_SENSE:
		sb = dio_scsi_sense(c, &n);
		if (dio_sense_decode(sb, n, &s) == 0)
			dio_sense_str(&s, buf, len);
		else
			snprintf(buf, len, "CHECK CONDITION with undecodable sense (%zu "
			         "bytes, response code 0x%02x)", n, n ? sb[0] : 0);
		break;
	case DIO_SCSI_CAT_STATUS:
		snprintf(buf, len, "status %s (0x%02x)", dio_scsi_status_name(c->status),
		         (unsigned)c->status);
		break;
	default:
		snprintf(buf, len, "transport error (host status 0x%x, driver status "
		         "0x%x)", (unsigned)c->host_status, (unsigned)c->driver_status);
		break;
	}
	return buf;
}
