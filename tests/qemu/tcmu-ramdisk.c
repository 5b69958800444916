/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tcmu-ramdisk.c -- a user-space SCSI RAM disk for the Linux kernel's
 * target_core_user (TCMU) backstore, for libdirectio's test harness.
 *
 * The kernel exposes each enabled TCMU device as a UIO device whose name
 * is "tcm-user/<hba>/<device>/<config>".  Mapping that device gives a
 * shared area made of a mailbox, a command ring and a data area.  The
 * kernel appends command entries to the ring and raises a UIO event;
 * this program reads the CDB and the data segments of each entry, acts on
 * it, writes the status and sense into the same entry, moves the ring's
 * tail past it and writes to the UIO device to tell the kernel.
 *
 * What it emulates (everything kept in memory):
 *   - a direct-access block device of -s bytes in blocks of -l bytes:
 *     TEST UNIT READY, REQUEST SENSE, INQUIRY (standard data, VPD pages
 *     00h, 80h, 83h), READ CAPACITY (10) and (16), READ and WRITE (6, 10,
 *     12, 16; FUA honoured, DPO ignored), SYNCHRONIZE CACHE (10, 16), MODE
 *     SENSE (6, 10) with the caching (08h) and control (0Ah) pages,
 *     REPORT LUNS (the kernel answers that one itself; see README);
 *   - READ BUFFER (3Ch) modes 02h data, 03h descriptor, 0Ah echo buffer,
 *     0Bh echo buffer descriptor, and WRITE BUFFER (3Bh) modes 02h data
 *     and 0Ah echo buffer, on a buffer of -b bytes separate from the disk;
 *   - the vendor-specific opcode C0h, always answered RESERVATION CONFLICT
 *     (18h) without sense: a status that is neither GOOD nor CHECK
 *     CONDITION, which no other device of the harness can be made to give
 *     (a real conflict needs a second initiator);
 *   - a volatile write cache and power cuts (below);
 *   - counts of what reached the medium (below).
 * Anything else ends in CHECK CONDITION, ILLEGAL REQUEST with fixed
 * format sense: INVALID COMMAND OPERATION CODE (20h/00h) for an opcode it
 * does not know, INVALID FIELD IN CDB (24h/00h, with the sense-key
 * specific field pointer) for a field it does not support, LOGICAL BLOCK
 * ADDRESS OUT OF RANGE (21h/00h) past the end of the disk.
 *
 * The write cache.  The disk keeps two images: the persistent medium and
 * the view the initiator sees (medium plus cached writes), and a bitmap of
 * the blocks that are dirty (written, not yet persistent).  WRITE (6, 10,
 * 12, 16) changes the view and marks its blocks dirty; a WRITE with FUA
 * also makes its own blocks persistent; SYNCHRONIZE CACHE (10, 16) makes
 * the dirty blocks of its range persistent (0 blocks: to the end of the
 * disk).  The caching mode page says WCE=1 and the mode parameter header
 * DPOFUA=1, so the kernel's sd sends FUA writes and cache flushes.  In the
 * lying mode (-F, or the control below) SYNCHRONIZE CACHE and FUA are
 * acknowledged and nothing is made persistent.
 *
 * Power cuts are controlled in band, with the vendor-specific opcode C1h
 * (a 10-byte CDB, sent with sg_raw to the disk's sg node; it completes
 * after the action, so a script needs no other synchronization):
 *   byte 1  action: 01h power cut, 02h power on, 03h lying mode (byte 2:
 *           1 on, 0 off), 04h status (logged only)
 *   byte 2  for a cut: the percentage (0-100) of dirty blocks that reach
 *           the medium anyway (each physical block whole, with that
 *           probability, as a real disk writes its cache back in any order
 *           but never tears a sector; -P sets the physical block size);
 *           FFh: the -k default
 *   bytes 3-6  for a cut: the seed of that choice (big-endian); 0: go on
 *           with the generator's current state (seeded by -K)
 *   bytes 7-8  for a cut: allocation length; the cut answers (data-in)
 *           with D, P and L below as three big-endian 8-byte numbers
 * e.g. sg_raw /dev/sg2 c1 01 32 00 00 00 07 00 00 00 (cut, keep 50%,
 * seed 7).  At a cut the chosen dirty blocks are written to the medium,
 * the others are lost, the view becomes the medium again, and one line
 * "power cut: D dirty blocks, P persisted, L lost (keep K%, seed S)" goes
 * to the log (always, -v or not).  With -N every cut is a no-op for the
 * cache (every dirty block persists, L is 0, the line says "no-op
 * cut"): a power-cut test must fail against such a disk, which is how
 * tests/sync-write-powercut-noop.sh shows that it can.  While the power is off every command
 * but C1h ends in CHECK CONDITION, NOT READY, LOGICAL UNIT NOT READY,
 * CAUSE NOT REPORTABLE (02h/04h/00h), which the kernel fails at once
 * without retries.  Power on serves the medium; the initiator must drop
 * what it cached itself (tests/qemu/powercut.sh has shell functions for
 * all of this).  No UNIT ATTENTION is reported after power on.
 *
 * Counts.  The disk counts the commands a block layer's counters should
 * match: WRITE (6, 10, 12, 16) without FUA, WRITE with FUA, SYNCHRONIZE
 * CACHE (10, 16) and the blocks written, for every such command it
 * executes (whatever its status: the kernel counts a failed request too).
 * With -C FILE each of those commands is also a line of FILE,
 *   T_NS OP FUA LBA BLOCKS STATUS
 * T_NS the CLOCK_MONOTONIC nanoseconds at which the command was done
 * (before its completion goes to the kernel: the handler runs in the
 * initiator's machine, so that is the clock its programs read), OP
 * "write" or "sync", FUA 0 or 1, LBA and BLOCKS the CDB's (a sync of 0
 * blocks: to the end of the disk), STATUS the SCSI status in hex (00
 * GOOD).  The lines of a batch of commands are written before the batch
 * is completed, so a program that saw its I/O end finds them in FILE.
 * The totals go to the log with ACTION 04 and when the handler stops.
 *
 * The layout of the shared area is the kernel's ABI (version 2 of the
 * mailbox); it is described here with explicit offsets rather than by
 * including <linux/target_core_user.h>, whose <linux/uio.h> clashes with
 * the C library's struct iovec.
 *
 * Written for libdirectio's tests; C99 with POSIX and Linux interfaces.
 */
#if !defined(_GNU_SOURCE)
#define _GNU_SOURCE 1
#endif

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------------ ABI */

/* The mailbox at offset 0 of the mapping. */
#define MB_VERSION      0   /* u16 */
#define MB_FLAGS        2   /* u16 */
#define MB_CMDR_OFF     4   /* u32: ring offset from the start of the map */
#define MB_CMDR_SIZE    8   /* u32: ring size in bytes */
#define MB_CMD_HEAD     12  /* u32: written by the kernel */
#define MB_CMD_TAIL     64  /* u32: written by us, on its own cache line */

#define MB_FLAG_CAP_OOOC     0x1 /* out-of-order completion allowed */
#define MB_FLAG_CAP_READ_LEN 0x2 /* we may report a shorter data-in */
#define MB_FLAG_CAP_TMR      0x4 /* task management entries may come */

/* A ring entry: an 8-byte header, then a request or (in its place) the
 * response. */
#define ENT_LEN_OP      0   /* u32: length | op in the low 3 bits */
#define ENT_CMD_ID      4   /* u16 */
#define ENT_KFLAGS      6   /* u8 */
#define ENT_UFLAGS      7   /* u8 */
#define ENT_REQ_IOV_CNT 8   /* u32 */
#define ENT_REQ_BIDI    12  /* u32 */
#define ENT_REQ_DIF     16  /* u32 */
#define ENT_REQ_CDB_OFF 24  /* u64: CDB offset from the start of the map */
#define ENT_REQ_IOV     48  /* struct iovec[], bases are map offsets */
#define ENT_RSP_STATUS  8   /* u8 */
#define ENT_RSP_READLEN 12  /* u32 */
#define ENT_RSP_SENSE   16  /* u8[96] */
#define ENT_SENSE_MAX   96

#define OP_MASK         0x7u
#define OP_PAD          0
#define OP_CMD          1
#define OP_TMR          2

#define UFLAG_UNKNOWN_OP 0x1
#define UFLAG_READ_LEN   0x2

/* ------------------------------------------------------------- SCSI */

#define ST_GOOD            0x00
#define ST_CHECK_CONDITION 0x02
#define ST_RESERVATION_CONFLICT 0x18

#define KEY_NO_SENSE        0x0
#define KEY_NOT_READY       0x2
#define KEY_ILLEGAL_REQUEST 0x5

#define ASC_LUN_NOT_READY         0x04
#define ASC_INVALID_OPCODE        0x20
#define ASC_LBA_OUT_OF_RANGE      0x21
#define ASC_INVALID_FIELD_IN_CDB  0x24
#define ASC_INVALID_FIELD_IN_PARM 0x26
#define ASC_COMMAND_SEQUENCE_ERR  0x2C
#define ASC_SAVING_NOT_SUPPORTED  0x39

#define VENDOR   "LIBDIO  "          /* 8 characters */
#define PRODUCT  "TCMU RAMDISK    "  /* 16 characters */
#define REVISION "0001"              /* 4 characters */

#define ECHO_MAX 4096u /* the echo buffer holds at most this (SPC: 13 bits) */
#define BUF_MAX  0xFFFFFFu /* READ BUFFER descriptor capacity is 24 bits */

/* --------------------------------------------------------------- state */

struct disk {
	unsigned char *data;     /* the view: the medium plus cached writes */
	unsigned char *medium;   /* what survives a power cut */
	unsigned char *dirty;    /* a bit per block: cached, not persistent */
	uint64_t ndirty;
	int power_off;
	int lying;               /* SYNCHRONIZE CACHE and FUA persist nothing */
	unsigned keep_pct;       /* default share of dirty blocks kept at a cut */
	int noop_cuts;           /* -N: a cut keeps every dirty block */
	uint64_t rng;            /* the generator that picks them */
	uint64_t size;       /* bytes, a multiple of bsize */
	uint32_t bsize;      /* logical block size */
	uint32_t pbsize;     /* physical block size: what a cut keeps or loses whole */
	uint64_t nblocks;
	unsigned char *buf;  /* READ/WRITE BUFFER data buffer */
	uint32_t bufcap;
	unsigned offset_exp; /* offset boundary: 2^offset_exp bytes */
	unsigned char echo[ECHO_MAX];
	uint32_t echocap;
	uint32_t echolen;
	int echo_valid;
	const char *serial;
	int verbose;
	FILE *log;
	unsigned long ncmds;
	unsigned long rbuf_cmds;  /* READ BUFFER data and echo commands done */
	unsigned long long rbuf_bytes; /* and the bytes they returned        */
	/* the counts (see the top) and their log, -C */
	unsigned long long n_write, n_write_fua, n_sync, blocks_written;
	FILE *clog;
};

/* One command as taken out of the ring before it is answered (the
 * response overlays the request). */
struct segment {
	uint64_t off;
	uint64_t len;
};

struct cmd {
	unsigned char cdb[32];
	size_t cdblen;
	struct segment *seg;
	size_t nseg;
	size_t segcap;
	uint64_t datalen;      /* total of the data segments */
	/* the answer */
	unsigned char status;
	unsigned char sense[ENT_SENSE_MAX];
	size_t senselen;
	uint64_t inlen;        /* bytes of data-in produced */
	int has_inlen;
};

static unsigned char *map;        /* the whole shared area */
static size_t map_size;
static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void die(const char *fmt, ...)
{
	va_list ap;
	fputs("tcmu-ramdisk: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void logmsg(const struct disk *d, const char *fmt, ...)
{
	va_list ap;
	if (!d->log)
		return;
	va_start(ap, fmt);
	vfprintf(d->log, fmt, ap);
	va_end(ap);
	fflush(d->log);
}

/* ------------------------------------------------ shared memory access */

static uint32_t ld32(size_t off)
{
	uint32_t v;
	memcpy(&v, map + off, sizeof v);
	return v;
}

static uint64_t ld64(size_t off)
{
	uint64_t v;
	memcpy(&v, map + off, sizeof v);
	return v;
}

static uint16_t ld16(size_t off)
{
	uint16_t v;
	memcpy(&v, map + off, sizeof v);
	return v;
}

static void st32(size_t off, uint32_t v)
{
	memcpy(map + off, &v, sizeof v);
}

static uint32_t head_get(void)
{
	return *(volatile uint32_t *)(void *)(map + MB_CMD_HEAD);
}

static uint32_t tail_get(void)
{
	return *(volatile uint32_t *)(void *)(map + MB_CMD_TAIL);
}

static void tail_set(uint32_t v)
{
	*(volatile uint32_t *)(void *)(map + MB_CMD_TAIL) = v;
}

/* ---------------------------------------------------- byte order helpers */

static uint32_t be16(const unsigned char *p)
{
	return (uint32_t)p[0] << 8 | p[1];
}

static uint32_t be24(const unsigned char *p)
{
	return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be64(const unsigned char *p)
{
	return (uint64_t)be32(p) << 32 | be32(p + 4);
}

static void put16(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 8);
	p[1] = (unsigned char)v;
}

static void put24(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 16);
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)v;
}

static void put32(unsigned char *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v);
}

static void put64(unsigned char *p, uint64_t v)
{
	put32(p, (uint32_t)(v >> 32));
	put32(p + 4, (uint32_t)v);
}

/* ---------------------------------------------------------- responses */

static void good(struct cmd *c)
{
	c->status = ST_GOOD;
	c->senselen = 0;
}

/* Fixed format sense data; field >= 0 adds the sense-key specific field
 * pointer to that CDB byte (bit < 0: no bit pointer). */
static void check(struct cmd *c, unsigned key, unsigned asc, unsigned ascq,
    int field, int bit)
{
	unsigned char *s = c->sense;
	memset(s, 0, 18);
	s[0] = 0x70;               /* current error, fixed format */
	s[2] = (unsigned char)(key & 0x0F);
	s[7] = 10;                 /* additional sense length */
	s[12] = (unsigned char)asc;
	s[13] = (unsigned char)ascq;
	if (field >= 0) {
		s[15] = 0x80 | 0x40;   /* SKSV, C/D = the error is in the CDB */
		if (bit >= 0)
			s[15] |= (unsigned char)(0x08 | (bit & 7));
		put16(s + 16, (uint32_t)field);
	}
	c->status = ST_CHECK_CONDITION;
	c->senselen = 18;
	c->has_inlen = 1;
	c->inlen = 0;
}

static void bad_field(struct cmd *c, int byte, int bit)
{
	check(c, KEY_ILLEGAL_REQUEST, ASC_INVALID_FIELD_IN_CDB, 0, byte, bit);
}

static void bad_opcode(struct cmd *c)
{
	check(c, KEY_ILLEGAL_REQUEST, ASC_INVALID_OPCODE, 0, 0, -1);
}

static void out_of_range(struct cmd *c)
{
	check(c, KEY_ILLEGAL_REQUEST, ASC_LBA_OUT_OF_RANGE, 0, -1, -1);
}

/* ------------------------------------------------ data segment transfer */

/* Copy len bytes from src into the data-in segments, starting at byte
 * pos of the command's data; returns how many fitted. */
static uint64_t seg_put(struct cmd *c, uint64_t pos, const void *src,
    uint64_t len)
{
	const unsigned char *p = src;
	uint64_t done = 0, base = 0;
	size_t i;
	for (i = 0; i < c->nseg && done < len; i++) {
		uint64_t sl = c->seg[i].len;
		if (pos < base + sl) {
			uint64_t in = pos - base;
			uint64_t n = sl - in;
			if (n > len - done)
				n = len - done;
			memcpy(map + c->seg[i].off + in, p + done, (size_t)n);
			done += n;
			pos += n;
		}
		base += sl;
	}
	return done;
}

/* Copy len bytes of the command's data-out, from byte pos, into dst;
 * returns how many there were. */
static uint64_t seg_get(const struct cmd *c, uint64_t pos, void *dst,
    uint64_t len)
{
	unsigned char *p = dst;
	uint64_t done = 0, base = 0;
	size_t i;
	for (i = 0; i < c->nseg && done < len; i++) {
		uint64_t sl = c->seg[i].len;
		if (pos < base + sl) {
			uint64_t in = pos - base;
			uint64_t n = sl - in;
			if (n > len - done)
				n = len - done;
			memcpy(p + done, map + c->seg[i].off + in, (size_t)n);
			done += n;
			pos += n;
		}
		base += sl;
	}
	return done;
}

/* Return a prepared parameter block of len bytes, cut to the allocation
 * length and the data-in buffer; the rest of the buffer is zeroed. */
static void data_in(struct cmd *c, const void *src, uint64_t len,
    uint64_t alloc)
{
	static const unsigned char zero[512];
	uint64_t n = len < alloc ? len : alloc, pos;
	n = seg_put(c, 0, src, n);
	for (pos = n; pos < c->datalen; pos += sizeof zero)
		(void)seg_put(c, pos, zero, c->datalen - pos < sizeof zero ?
		    c->datalen - pos : sizeof zero);
	c->inlen = n;
	c->has_inlen = 1;
	good(c);
}

/* ----------------------------------------------------------- commands */

static void do_inquiry(struct disk *d, struct cmd *c)
{
	unsigned char r[256];
	uint32_t alloc = be16(c->cdb + 3);
	size_t n = 0, sl;
	memset(r, 0, sizeof r);

	if (c->cdb[1] & 0x02) {           /* CMDDT: obsolete */
		bad_field(c, 1, 1);
		return;
	}
	if (!(c->cdb[1] & 0x01)) {        /* standard INQUIRY data */
		if (c->cdb[2] != 0) {
			bad_field(c, 2, -1);
			return;
		}
		r[0] = 0x00;              /* connected direct-access device */
		r[1] = 0x00;              /* not removable */
		r[2] = 0x06;              /* SPC-4 */
		r[3] = 0x12;              /* HISUP, response data format 2 */
		r[4] = 36 - 5;            /* additional length */
		r[7] = 0x02;              /* CMDQUE */
		memcpy(r + 8, VENDOR, 8);
		memcpy(r + 16, PRODUCT, 16);
		memcpy(r + 32, REVISION, 4);
		data_in(c, r, 36, alloc);
		return;
	}

	r[0] = 0x00;
	r[1] = c->cdb[2];
	switch (c->cdb[2]) {
	case 0x00:                        /* supported VPD pages */
		r[4] = 0x00;
		r[5] = 0x80;
		r[6] = 0x83;
		n = 3;
		break;
	case 0x80:                        /* unit serial number */
		sl = strlen(d->serial);
		if (sl > 200)
			sl = 200;
		memcpy(r + 4, d->serial, sl);
		n = sl;
		break;
	case 0x83: {                      /* device identification */
		unsigned char *p = r + 4;
		uint64_t h = 1469598103934665603ULL; /* FNV-1a of the serial */
		const char *s;
		sl = strlen(d->serial);
		if (sl > 100)
			sl = 100;
		/* T10 vendor ID based designator: vendor + serial, ASCII */
		p[0] = 0x02;              /* code set ASCII */
		p[1] = 0x01;              /* association LU, type T10 vendor ID */
		p[3] = (unsigned char)(8 + sl);
		memcpy(p + 4, VENDOR, 8);
		memcpy(p + 12, d->serial, sl);
		p += 4 + 8 + sl;
		/* NAA 6 (IEEE registered extended) designator made from a
		 * hash of the serial: an identifier for tests only, the
		 * company ID is all zeros and belongs to nobody we know. */
		for (s = d->serial; *s; s++) {
			h ^= (unsigned char)*s;
			h *= 1099511628211ULL;
		}
		p[0] = 0x01;              /* code set binary */
		p[1] = 0x03;              /* association LU, type NAA */
		p[3] = 16;
		p[4] = 0x60;              /* NAA 6, company ID 0 */
		put64(p + 12, h);
		p += 4 + 16;
		n = (size_t)(p - (r + 4));
		break;
	}
	default:
		bad_field(c, 2, -1);
		return;
	}
	put16(r + 2, (uint32_t)n);
	data_in(c, r, 4 + n, alloc);
}

static void do_request_sense(struct cmd *c)
{
	unsigned char r[18];
	memset(r, 0, sizeof r);
	if (c->cdb[1] & 0x01) {           /* DESC: descriptor format */
		r[0] = 0x72;
		r[1] = KEY_NO_SENSE;
		data_in(c, r, 8, c->cdb[4]);
		return;
	}
	r[0] = 0x70;
	r[2] = KEY_NO_SENSE;
	r[7] = 10;
	data_in(c, r, 18, c->cdb[4]);
}

static void do_read_capacity10(struct disk *d, struct cmd *c)
{
	unsigned char r[8];
	uint64_t last = d->nblocks - 1;
	if (!(c->cdb[8] & 0x01) && be32(c->cdb + 2) != 0) {
		bad_field(c, 2, -1);      /* LBA given without PMI */
		return;
	}
	put32(r, last > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)last);
	put32(r + 4, d->bsize);
	data_in(c, r, sizeof r, 8);
}

static void do_read_capacity16(struct disk *d, struct cmd *c)
{
	unsigned char r[32];
	memset(r, 0, sizeof r);
	put64(r, d->nblocks - 1);
	put32(r + 8, d->bsize);
	/* LOGICAL BLOCKS PER PHYSICAL BLOCK EXPONENT */
	while ((d->bsize << (r[13] & 0x0F)) < d->pbsize)
		r[13]++;
	data_in(c, r, sizeof r, be32(c->cdb + 10));
}

/* ------------------------------------------------------ the write cache */

static int is_dirty(const struct disk *d, uint64_t b)
{
	return (d->dirty[b >> 3] >> (b & 7)) & 1;
}

static void set_dirty(struct disk *d, uint64_t b)
{
	if (!is_dirty(d, b)) {
		d->dirty[b >> 3] |= (unsigned char)(1u << (b & 7));
		d->ndirty++;
	}
}

static void clear_dirty(struct disk *d, uint64_t b)
{
	if (is_dirty(d, b)) {
		d->dirty[b >> 3] &= (unsigned char)~(1u << (b & 7));
		d->ndirty--;
	}
}

/* Make the dirty blocks of [lba, lba + nblk) persistent; returns how many
 * there were. */
static uint64_t persist(struct disk *d, uint64_t lba, uint64_t nblk)
{
	uint64_t b, n = 0;
	for (b = lba; b < lba + nblk && d->ndirty; b++) {
		if (!is_dirty(d, b))
			continue;
		memcpy(d->medium + b * d->bsize, d->data + b * d->bsize,
		    d->bsize);
		clear_dirty(d, b);
		n++;
	}
	return n;
}

/* splitmix64: small, and good enough to pick blocks */
static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* The power goes: each physical block with dirty blocks reaches the
 * medium whole with probability keep/100 (a disk writes its sectors
 * atomically: a 512e disk never tears its 4 KiB physical sectors), the
 * rest of the cache is lost, the view is the medium.  With -N every
 * dirty block reaches the medium (the generator is still drawn, so that
 * a seed picks the same blocks either way).  The counts, in logical
 * blocks, go to r: dirty, persisted, lost. */
static void power_cut(struct disk *d, unsigned keep, uint32_t seed,
    uint64_t r[3])
{
	uint64_t b, dirty = d->ndirty, kept = 0, lost = 0, per = d->pbsize / d->bsize;
	uint64_t group = UINT64_MAX;
	int keep_it = 0;
	if (seed)
		d->rng = seed;
	for (b = 0; b < d->nblocks && d->ndirty; b++) {
		unsigned char *v = d->data + b * d->bsize;
		unsigned char *m = d->medium + b * d->bsize;
		if (!is_dirty(d, b))
			continue;
		if (b / per != group) {
			group = b / per;
			keep_it = rng_next(&d->rng) % 100 < keep || d->noop_cuts;
		}
		if (keep_it) {
			memcpy(m, v, d->bsize);
			kept++;
		} else {
			memcpy(v, m, d->bsize);
			lost++;
		}
		clear_dirty(d, b);
	}
	d->power_off = 1;
	logmsg(d, "power cut: %llu dirty blocks, %llu persisted, %llu lost "
	    "(keep %u%%, seed %lu%s)\n", (unsigned long long)dirty,
	    (unsigned long long)kept, (unsigned long long)lost, keep,
	    (unsigned long)seed, d->noop_cuts ? ", no-op cut" : "");
	r[0] = dirty;
	r[1] = kept;
	r[2] = lost;
}

/* The vendor-specific control command C1h (see the top of the file). */
/* The totals of the counts (see the top). */
static void log_counts(const struct disk *d)
{
	logmsg(d, "counts: %llu WRITE, %llu WRITE with FUA, %llu SYNCHRONIZE "
	    "CACHE, %llu blocks written\n", d->n_write, d->n_write_fua,
	    d->n_sync, d->blocks_written);
}

static void do_control(struct disk *d, struct cmd *c)
{
	unsigned keep = c->cdb[2];
	uint64_t r[3];
	unsigned char a[24];
	switch (c->cdb[1]) {
	case 0x01:
		if (keep == 0xFF)
			keep = d->keep_pct;
		if (keep > 100) {
			bad_field(c, 2, -1);
			return;
		}
		power_cut(d, keep, be32(c->cdb + 3), r);
		/* the counts, for a command that asks (bytes 7-8) */
		put64(a, r[0]);
		put64(a + 8, r[1]);
		put64(a + 16, r[2]);
		data_in(c, a, sizeof a, be16(c->cdb + 7));
		return;
	case 0x02:
		d->power_off = 0;
		logmsg(d, "power on\n");
		break;
	case 0x03:
		if (keep > 1) {
			bad_field(c, 2, -1);
			return;
		}
		d->lying = (int)keep;
		logmsg(d, "lying mode %s\n", d->lying ? "on" : "off");
		break;
	case 0x04:
		logmsg(d, "status: power %s, lying %s, %llu dirty blocks, "
		    "READ BUFFER %lu commands %llu bytes\n",
		    d->power_off ? "off" : "on", d->lying ? "on" : "off",
		    (unsigned long long)d->ndirty, d->rbuf_cmds, d->rbuf_bytes);
		log_counts(d);
		break;
	default:
		bad_field(c, 1, -1);
		return;
	}
	good(c);
}

/* The LBA and the block count of a READ or WRITE (6, 10, 12, 16) or a
 * SYNCHRONIZE CACHE (10, 16) CDB; 0 for any other opcode. */
static int cdb_range(const unsigned char *b, uint64_t *lba, uint64_t *nblk)
{
	switch (b[0]) {
	case 0x08: case 0x0A:             /* (6) */
		*lba = (uint64_t)(b[1] & 0x1F) << 16 | be16(b + 2);
		*nblk = b[4] ? b[4] : 256;
		return 1;
	case 0x28: case 0x2A: case 0x35:  /* (10) */
		*lba = be32(b + 2);
		*nblk = be16(b + 7);
		return 1;
	case 0xA8: case 0xAA:             /* (12) */
		*lba = be32(b + 2);
		*nblk = be32(b + 6);
		return 1;
	case 0x88: case 0x8A: case 0x91:  /* (16) */
		*lba = be64(b + 2);
		*nblk = be32(b + 10);
		return 1;
	default:
		return 0;
	}
}

/* READ/WRITE (6, 10, 12, 16): where and how much. */
static int rw_params(struct cmd *c, uint64_t *lba, uint64_t *nblk)
{
	const unsigned char *b = c->cdb;
	cdb_range(b, lba, nblk);
	if (b[0] == 0x08 || b[0] == 0x0A)
		return 0;
	if (b[1] & 0xE0) {                /* RDPROTECT/WRPROTECT: no PI */
		bad_field(c, 1, 7);
		return -1;
	}
	/* DPO (0x10) is accepted and ignored; FUA (0x08): see do_rw. */
	return 0;
}

static void do_rw(struct disk *d, struct cmd *c, int write)
{
	uint64_t lba, nblk, bytes, moved;
	if (rw_params(c, &lba, &nblk) != 0)
		return;
	if (lba > d->nblocks || nblk > d->nblocks - lba) {
		out_of_range(c);
		return;
	}
	bytes = nblk * d->bsize;
	if (bytes > c->datalen)           /* the initiator gave less room */
		bytes = c->datalen;
	if (write) {
		uint64_t b;
		moved = seg_get(c, 0, d->data + lba * d->bsize, bytes);
		for (b = lba; b < lba + (moved + d->bsize - 1) / d->bsize; b++)
			set_dirty(d, b);
		/* FUA: the write's own blocks (WRITE(6) has no FUA bit) */
		if (c->cdb[0] != 0x0A && (c->cdb[1] & 0x08) && !d->lying)
			persist(d, lba, nblk);
		good(c);
	} else {
		moved = seg_put(c, 0, d->data + lba * d->bsize, bytes);
		c->inlen = moved;
		c->has_inlen = 1;
		good(c);
	}
	(void)moved;
}

static void do_sync_cache(struct disk *d, struct cmd *c)
{
	uint64_t lba, nblk;
	cdb_range(c->cdb, &lba, &nblk);
	if (lba > d->nblocks || nblk > d->nblocks - lba) {
		out_of_range(c);
		return;
	}
	if (nblk == 0)                    /* SBC: to the end of the medium */
		nblk = d->nblocks - lba;
	if (!d->lying)
		persist(d, lba, nblk);
	good(c);
}

/* Append mode page pg (current/default values, or the changeable mask
 * when changeable) at p; returns its length or 0 if unknown. */
static size_t mode_page(unsigned char *p, unsigned pg, int changeable)
{
	switch (pg) {
	case 0x08:                        /* caching */
		memset(p, 0, 20);
		p[0] = 0x08;
		p[1] = 0x12;
		if (!changeable)
			p[2] = 0x04;      /* WCE set, RCD clear */
		return 20;
	case 0x0A:                        /* control */
		memset(p, 0, 12);
		p[0] = 0x0A;
		p[1] = 0x0A;
		if (!changeable) {
			p[3] = 0x10;      /* unrestricted reordering allowed */
			put16(p + 8, 0xFFFF); /* busy timeout: unlimited */
		}
		return 12;
	default:
		return 0;
	}
}

static void do_mode_sense(struct disk *d, struct cmd *c)
{
	unsigned char r[256];
	int ten = c->cdb[0] == 0x5A;
	int dbd = (c->cdb[1] & 0x08) != 0;
	unsigned pc = c->cdb[2] >> 6;
	unsigned pg = c->cdb[2] & 0x3F;
	unsigned sub = c->cdb[3];
	uint32_t alloc = ten ? be16(c->cdb + 7) : c->cdb[4];
	size_t hdr = ten ? 8 : 4, n;
	memset(r, 0, sizeof r);

	if (pc == 3) {                    /* saved values */
		check(c, KEY_ILLEGAL_REQUEST, ASC_SAVING_NOT_SUPPORTED, 0,
		    2, 7);
		return;
	}
	if (sub != 0 && !(sub == 0xFF && pg == 0x3F)) {
		bad_field(c, 3, -1);
		return;
	}
	n = hdr;
	if (!dbd) {                       /* one short block descriptor */
		uint64_t nb = d->nblocks > 0xFFFFFFFFu ? 0xFFFFFFFFu :
		    d->nblocks;
		put32(r + n, (uint32_t)nb);
		put24(r + n + 5, d->bsize);
		n += 8;
	}
	if (pg == 0x3F) {
		n += mode_page(r + n, 0x08, pc == 1);
		n += mode_page(r + n, 0x0A, pc == 1);
	} else {
		size_t l = mode_page(r + n, pg, pc == 1);
		if (l == 0) {
			bad_field(c, 2, 5);
			return;
		}
		n += l;
	}
	if (ten) {
		put16(r, (uint32_t)(n - 2));  /* mode data length */
		r[3] = 0x10;              /* DPOFUA */
		put16(r + 6, dbd ? 0 : 8);
	} else {
		r[0] = (unsigned char)(n - 1);
		r[2] = 0x10;              /* DPOFUA */
		r[3] = dbd ? 0 : 8;
	}
	data_in(c, r, n, alloc);
}

static void do_report_luns(struct cmd *c)
{
	unsigned char r[16];
	if (c->cdb[2] > 0x02 && c->cdb[2] != 0x10 && c->cdb[2] != 0x11 &&
	    c->cdb[2] != 0x12) {
		bad_field(c, 2, -1);
		return;
	}
	memset(r, 0, sizeof r);
	put32(r, 8);                      /* one LUN: 0 */
	data_in(c, r, sizeof r, be32(c->cdb + 6));
}

static void do_read_buffer(struct disk *d, struct cmd *c)
{
	unsigned mode = c->cdb[1] & 0x1F;
	unsigned id = c->cdb[2];
	uint32_t off = be24(c->cdb + 3);
	uint32_t alloc = be24(c->cdb + 6);
	unsigned char r[4];
	memset(r, 0, sizeof r);

	switch (mode) {
	case 0x02:                        /* data */
		if (id != 0) {
			bad_field(c, 2, -1);
			return;
		}
		if (off > d->bufcap || (off & ((1u << d->offset_exp) - 1))) {
			bad_field(c, 3, -1);
			return;
		}
		data_in(c, d->buf + off, d->bufcap - off, alloc);
		d->rbuf_cmds++;
		d->rbuf_bytes += c->inlen;
		return;
	case 0x03:                        /* descriptor */
		if (id == 0) {            /* other IDs: all zeros (SPC) */
			r[0] = (unsigned char)d->offset_exp;
			put24(r + 1, d->bufcap);
		}
		data_in(c, r, sizeof r, alloc);
		return;
	case 0x0A:                        /* echo buffer */
		if (!d->echo_valid) {
			check(c, KEY_ILLEGAL_REQUEST, ASC_COMMAND_SEQUENCE_ERR,
			    0, -1, -1);
			return;
		}
		data_in(c, d->echo, d->echolen, alloc);
		d->rbuf_cmds++;
		d->rbuf_bytes += c->inlen;
		return;
	case 0x0B:                        /* echo buffer descriptor */
		put16(r + 2, d->echocap & 0x1FFF); /* EBOS = 0 */
		data_in(c, r, sizeof r, alloc);
		return;
	default:
		bad_field(c, 1, 4);
		return;
	}
}

static void do_write_buffer(struct disk *d, struct cmd *c)
{
	unsigned mode = c->cdb[1] & 0x1F;
	unsigned id = c->cdb[2];
	uint32_t off = be24(c->cdb + 3);
	uint32_t len = be24(c->cdb + 6);

	if (len > c->datalen)             /* less data than announced */
		len = (uint32_t)c->datalen;
	switch (mode) {
	case 0x02:                        /* data */
		if (id != 0) {
			bad_field(c, 2, -1);
			return;
		}
		if (off > d->bufcap || (off & ((1u << d->offset_exp) - 1))) {
			bad_field(c, 3, -1);
			return;
		}
		if (len > d->bufcap - off) {
			bad_field(c, 6, -1);
			return;
		}
		(void)seg_get(c, 0, d->buf + off, len);
		good(c);
		return;
	case 0x0A:                        /* echo buffer */
		if (len > d->echocap) {
			bad_field(c, 6, -1);
			return;
		}
		d->echolen = (uint32_t)seg_get(c, 0, d->echo, len);
		d->echo_valid = 1;
		good(c);
		return;
	default:
		bad_field(c, 1, 4);
		return;
	}
}

static void do_service_action_in16(struct disk *d, struct cmd *c)
{
	if ((c->cdb[1] & 0x1F) == 0x10)
		do_read_capacity16(d, c);
	else
		bad_field(c, 1, 4);
}

/* Count a WRITE or SYNCHRONIZE CACHE that was executed, and log it (-C)
 * with the time it was done. */
static void count_command(struct disk *d, const struct cmd *c)
{
	const unsigned char *b = c->cdb;
	uint64_t lba, nblk;
	int fua, sync = b[0] == 0x35 || b[0] == 0x91;
	struct timespec ts;

	if (!sync && b[0] != 0x0A && b[0] != 0x2A && b[0] != 0xAA && b[0] != 0x8A)
		return;
	cdb_range(b, &lba, &nblk);
	/* WRITE (6) has no FUA bit */
	fua = !sync && b[0] != 0x0A && (b[1] & 0x08) != 0;
	if (sync) {
		d->n_sync++;
	} else {
		if (fua)
			d->n_write_fua++;
		else
			d->n_write++;
		if (c->status == ST_GOOD)
			d->blocks_written += nblk;
	}
	if (!d->clog)
		return;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	fprintf(d->clog, "%llu %s %d %llu %llu %02x\n",
	    (unsigned long long)ts.tv_sec * 1000000000ull +
	    (unsigned long long)ts.tv_nsec, sync ? "sync" : "write", fua,
	    (unsigned long long)lba, (unsigned long long)nblk, c->status);
}

static void execute(struct disk *d, struct cmd *c)
{
	if (c->cdb[0] == 0xC1) {
		do_control(d, c);
		return;
	}
	if (d->power_off) {
		check(c, KEY_NOT_READY, ASC_LUN_NOT_READY, 0, -1, -1);
		return;
	}
	switch (c->cdb[0]) {
	case 0x00: good(c); break;                    /* TEST UNIT READY */
	case 0x03: do_request_sense(c); break;
	case 0x12: do_inquiry(d, c); break;
	case 0x25: do_read_capacity10(d, c); break;
	case 0x9E: do_service_action_in16(d, c); break;
	case 0x08: case 0x28: case 0xA8: case 0x88:   /* READ */
		do_rw(d, c, 0);
		break;
	case 0x0A: case 0x2A: case 0xAA: case 0x8A:   /* WRITE */
		do_rw(d, c, 1);
		break;
	case 0x35: case 0x91: do_sync_cache(d, c); break;
	case 0x1A: case 0x5A: do_mode_sense(d, c); break;
	case 0xA0: do_report_luns(c); break;
	case 0x3C: do_read_buffer(d, c); break;
	case 0x3B: do_write_buffer(d, c); break;
	case 0xC0:                                    /* vendor: see the top */
		c->status = ST_RESERVATION_CONFLICT;
		c->senselen = 0;
		break;
	default: bad_opcode(c); break;
	}
}

/* ---------------------------------------------------------- the ring */

static size_t cdb_length(unsigned op)
{
	switch (op >> 5) {
	case 0: return 6;
	case 1: case 2: return 10;
	case 4: return 16;
	case 5: return 12;
	default: return 32;  /* 3: variable length, 6-7: vendor (cut to entry) */
	}
}

static int take_command(struct cmd *c, size_t ent, uint32_t entlen)
{
	uint32_t n = ld32(ent + ENT_REQ_IOV_CNT);
	uint32_t bidi = ld32(ent + ENT_REQ_BIDI);
	uint64_t cdboff = ld64(ent + ENT_REQ_CDB_OFF);
	size_t i;

	/* The CDB sits inside the entry, after the iovecs; copy no byte
	 * beyond the entry (the data area after the ring end may not be
	 * mapped to pages, and touching it there would raise SIGBUS). */
	if (cdboff < ent || cdboff >= (uint64_t)ent + entlen)
		return -1;
	memset(c->cdb, 0, sizeof c->cdb);
	c->cdblen = cdb_length(map[cdboff]);
	if (c->cdblen > ent + entlen - cdboff)
		c->cdblen = (size_t)(ent + entlen - cdboff);
	memcpy(c->cdb, map + cdboff, c->cdblen);
	(void)bidi; /* no bidirectional commands here */
	if ((uint64_t)ENT_REQ_IOV + (uint64_t)n * 2 * sizeof(uint64_t) >
	    entlen)
		return -1;
	if (n > c->segcap) {
		struct segment *s = realloc(c->seg, n * sizeof *s);
		if (!s)
			die("out of memory");
		c->seg = s;
		c->segcap = n;
	}
	c->nseg = n;
	c->datalen = 0;
	for (i = 0; i < n; i++) {
		size_t io = ent + ENT_REQ_IOV + i * 2 * sizeof(uint64_t);
		uint64_t base = ld64(io), len = ld64(io + sizeof(uint64_t));
		if (base > map_size || len > map_size - base)
			return -1;
		c->seg[i].off = base;
		c->seg[i].len = len;
		c->datalen += len;
	}
	c->status = ST_GOOD;
	c->senselen = 0;
	c->inlen = 0;
	c->has_inlen = 0;
	return 0;
}

static void answer(const struct disk *d, const struct cmd *c, size_t ent,
    int can_read_len)
{
	unsigned char uflags = map[ent + ENT_UFLAGS];
	map[ent + ENT_RSP_STATUS] = c->status;
	memset(map + ent + ENT_RSP_SENSE, 0, ENT_SENSE_MAX);
	if (c->senselen)
		memcpy(map + ent + ENT_RSP_SENSE, c->sense, c->senselen);
	if (can_read_len && c->has_inlen && c->inlen < c->datalen) {
		st32(ent + ENT_RSP_READLEN, (uint32_t)c->inlen);
		uflags |= UFLAG_READ_LEN;
	}
	map[ent + ENT_UFLAGS] = uflags;
	(void)d;
}

static void log_command(struct disk *d, const struct cmd *c)
{
	size_t i;
	if (!d->log)
		return;
	fprintf(d->log, "cmd %lu cdb", d->ncmds);
	for (i = 0; i < c->cdblen; i++)
		fprintf(d->log, " %02x", c->cdb[i]);
	fprintf(d->log, " data %llu", (unsigned long long)c->datalen);
	if (c->status == ST_GOOD)
		fprintf(d->log, " -> GOOD");
	else if (c->status == ST_CHECK_CONDITION)
		fprintf(d->log, " -> CHECK %x/%02x/%02x", c->sense[2] & 0xF,
		    c->sense[12], c->sense[13]);
	else
		fprintf(d->log, " -> STATUS %02x", c->status);
	if (c->has_inlen)
		fprintf(d->log, " in %llu", (unsigned long long)c->inlen);
	fputc('\n', d->log);
	fflush(d->log);
}

/* The bulk that -v leaves out of the log (-v -v logs it too):
 * successful READs and READ BUFFER data transfers. */
static int quiet_command(const struct cmd *c)
{
	if (c->status != ST_GOOD)
		return 0;
	switch (c->cdb[0]) {
	case 0x08: case 0x28: case 0xA8: case 0x88:
		return 1;
	case 0x3C:
		return (c->cdb[1] & 0x1F) == 0x02;
	default:
		return 0;
	}
}

/* Handle every entry between tail and head; returns how many entries
 * were consumed (the kernel is to be told when that is not zero). */
static unsigned process_ring(struct disk *d, struct cmd *c)
{
	uint32_t cmdr_off = ld32(MB_CMDR_OFF);
	uint32_t cmdr_size = ld32(MB_CMDR_SIZE);
	int can_read_len = (ld16(MB_FLAGS) & MB_FLAG_CAP_READ_LEN) != 0;
	unsigned count = 0;
	uint32_t tail = tail_get();

	for (;;) {
		uint32_t head = head_get();
		size_t ent;
		uint32_t len_op, len, op;
		__sync_synchronize();     /* read the entry after the head */
		if (tail == head)
			break;
		ent = (size_t)cmdr_off + tail;
		len_op = ld32(ent + ENT_LEN_OP);
		len = len_op & ~OP_MASK;
		op = len_op & OP_MASK;
		if (len == 0 || len > cmdr_size)
			die("corrupt ring entry at %u (len_op %#x)", tail,
			    len_op);
		switch (op) {
		case OP_PAD:
			break;
		case OP_CMD:
			d->ncmds++;
			if (take_command(c, ent, len) != 0) {
				logmsg(d, "malformed command entry at %u\n",
				    tail);
				check(c, KEY_ILLEGAL_REQUEST,
				    ASC_INVALID_FIELD_IN_CDB, 0, -1, -1);
			} else {
				execute(d, c);
				count_command(d, c);
			}
			if (d->verbose > 1 ||
			    (d->verbose == 1 && !quiet_command(c)))
				log_command(d, c);
			answer(d, c, ent, can_read_len);
			break;
		case OP_TMR:              /* a notice only: nothing to answer */
			logmsg(d, "task management notice, type %u\n",
			    map[ent + 8]);
			break;
		default:
			map[ent + ENT_UFLAGS] |= UFLAG_UNKNOWN_OP;
			logmsg(d, "unknown ring entry op %u\n", op);
			break;
		}
		tail = (tail + len) % cmdr_size;
		__sync_synchronize();     /* the answer before the tail */
		tail_set(tail);
		count++;
	}
	/* the batch's lines before the kernel hears of its completion */
	if (count > 0 && d->clog && fflush(d->clog) != 0)
		die("cannot write the count log: %s", strerror(errno));
	return count;
}

/* ------------------------------------------------------ finding the UIO */

static int read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n;
	if (!f)
		return -1;
	if (!fgets(buf, (int)size, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	n = strlen(buf);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
		buf[--n] = '\0';
	return 0;
}

/* The name looks like "tcm-user/<hba>/<device>/<config>". */
static int name_matches(const char *uioname, const char *want)
{
	const char *p;
	size_t wl;
	if (strncmp(uioname, "tcm-user/", 9) != 0)
		return 0;
	if (!want)
		return 1;
	p = strchr(uioname + 9, '/');     /* after the hba number */
	if (!p)
		return 0;
	p++;
	wl = strlen(want);
	return strncmp(p, want, wl) == 0 && (p[wl] == '/' || p[wl] == '\0');
}

/* Find the uio device; 0 and its number in *num, or -1 if none, -2 if
 * several match. */
static int find_uio(const char *want, int *num, char *name, size_t nsize)
{
	DIR *dir = opendir("/sys/class/uio");
	struct dirent *e;
	int found = 0;
	if (!dir)
		return -1;
	while ((e = readdir(dir)) != NULL) {
		char path[PATH_MAX], buf[512];
		int n;
		if (sscanf(e->d_name, "uio%d", &n) != 1)
			continue;
		snprintf(path, sizeof path, "/sys/class/uio/%s/name",
		    e->d_name);
		if (read_line(path, buf, sizeof buf) != 0)
			continue;
		if (!name_matches(buf, want))
			continue;
		found++;
		*num = n;
		snprintf(name, nsize, "%s", buf);
	}
	closedir(dir);
	return found == 0 ? -1 : found > 1 ? -2 : 0;
}

static uint64_t parse_size(const char *s, const char *what)
{
	char *end;
	unsigned long long v;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s)
		die("bad %s: %s", what, s);
	switch (*end) {
	case 'k': case 'K': v <<= 10; end++; break;
	case 'm': case 'M': v <<= 20; end++; break;
	case 'g': case 'G': v <<= 30; end++; break;
	default: break;
	}
	if (*end == 'i' || *end == 'B')
		end++;
	if (*end == 'B')
		end++;
	if (*end)
		die("bad %s: %s", what, s);
	return v;
}

static void usage(FILE *f)
{
	fputs(
"usage: tcmu-ramdisk [options]\n"
"  -n NAME   serve the TCMU device NAME (configfs core/user_N/NAME);\n"
"            default: the only tcm-user UIO device there is\n"
"  -d DEV    use this UIO device (/dev/uioN) instead of searching\n"
"  -s SIZE   disk size in bytes, K/M/G suffixes (default 64M)\n"
"  -l BYTES  logical block size (default 512)\n"
"  -P BYTES  physical block size (default: the logical one): READ\n"
"            CAPACITY (16) says it, and a power cut keeps or loses each\n"
"            physical block whole, as a disk writes its sectors\n"
"  -b SIZE   READ/WRITE BUFFER data buffer capacity (default 64K,\n"
"            at most 16M-1)\n"
"  -o EXP    READ BUFFER offset boundary 2^EXP bytes (default 0)\n"
"  -e BYTES  echo buffer capacity (default 252, at most 4096)\n"
"  -S TEXT   unit serial number (default dio-tcmu-ramdisk)\n"
"  -w SECS   wait this long for the UIO device to appear (default 60)\n"
"  -r FILE   create FILE once serving (for scripts to wait on)\n"
"  -v        log commands and their outcome (to stderr or -L), but\n"
"            not successful READs and READ BUFFER data transfers;\n"
"            -v -v logs those too\n"
"  -L FILE   the log file\n"
"  -C FILE   log each WRITE and SYNCHRONIZE CACHE done, one line\n"
"            T_NS OP FUA LBA BLOCKS STATUS (CLOCK_MONOTONIC ns when\n"
"            done; OP write or sync; FUA 0/1; STATUS hex); the totals\n"
"            go to the log at ACTION 04 and at the end\n"
"  -k PCT    the share of dirty blocks a power cut keeps when its\n"
"            command says FFh (default 0)\n"
"  -K SEED   seed of the generator that picks them (default 1)\n"
"  -F        lying mode: SYNCHRONIZE CACHE and FUA persist nothing\n"
"  -N        no-op cuts: a power cut keeps every dirty block (to show\n"
"            that a power-cut test fails when the cut loses nothing)\n"
"  -h        this help\n"
"Runs until SIGTERM or SIGINT.\n"
"Writes are cached (WCE=1); the vendor command C1h cuts the power and\n"
"brings it back (sg_raw SG c1 ACTION KEEP SEED(4 bytes) 00 00 00):\n"
"  ACTION 01 power cut: each physical block holding dirty blocks\n"
"            persists (whole) with probability\n"
"            KEEP/100 (KEEP FF: the -k value), the rest is lost; SEED 0\n"
"            goes on with the generator, else reseeds it; logged;\n"
"            with an allocation length (bytes 7-8) it answers the\n"
"            dirty, persisted and lost blocks (3 x 8 bytes, big-endian)\n"
"  ACTION 02 power on: the disk serves what persisted\n"
"  ACTION 03 lying mode off (KEEP 00) or on (KEEP 01)\n"
"  ACTION 04 log the state and the counts\n"
"While the power is off every other command fails at once with\n"
"NOT READY, LOGICAL UNIT NOT READY (02/04/00).\n", f);
}

static uint64_t map_size_of(int num)
{
	char path[PATH_MAX], buf[64];
	snprintf(path, sizeof path, "/sys/class/uio/uio%d/maps/map0/size",
	    num);
	if (read_line(path, buf, sizeof buf) != 0)
		die("cannot read %s: %s", path, strerror(errno));
	return strtoull(buf, NULL, 0);
}

int main(int argc, char **argv)
{
	struct disk d;
	struct cmd c;
	const char *want = NULL, *dev = NULL, *ready = NULL, *logpath = NULL;
	const char *clogpath = NULL;
	double wait_s = 60;
	uint64_t v;
	char uioname[512] = "", devpath[64];
	int opt, fd, num = -1;
	struct sigaction sa;
	struct timespec t0, now;

	memset(&d, 0, sizeof d);
	memset(&c, 0, sizeof c);
	d.size = 64u << 20;
	d.bsize = 512;
	d.bufcap = 64u << 10;
	d.echocap = 252;
	d.serial = "dio-tcmu-ramdisk";
	d.rng = 1;

	while ((opt = getopt(argc, argv, "n:d:s:l:P:b:o:e:S:w:r:vL:C:k:K:FNh")) != -1) {
		switch (opt) {
		case 'n': want = optarg; break;
		case 'd': dev = optarg; break;
		case 's': d.size = parse_size(optarg, "size"); break;
		case 'l':
			v = parse_size(optarg, "block size");
			if (v < 512 || v > 65536 || (v & (v - 1)))
				die("block size must be a power of 2, 512-64K");
			d.bsize = (uint32_t)v;
			break;
		case 'P':
			v = parse_size(optarg, "physical block size");
			if (v < 512 || v > 65536 || (v & (v - 1)))
				die("physical block size must be a power of 2, 512-64K");
			d.pbsize = (uint32_t)v;
			break;
		case 'b':
			v = parse_size(optarg, "buffer capacity");
			if (v < 1 || v > BUF_MAX)
				die("buffer capacity must be 1..%u", BUF_MAX);
			d.bufcap = (uint32_t)v;
			break;
		case 'o':
			v = parse_size(optarg, "offset boundary");
			if (v > 16)
				die("offset boundary exponent must be 0..16");
			d.offset_exp = (unsigned)v;
			break;
		case 'e':
			v = parse_size(optarg, "echo buffer capacity");
			if (v < 4 || v > ECHO_MAX)
				die("echo buffer capacity must be 4..%u",
				    ECHO_MAX);
			d.echocap = (uint32_t)v;
			break;
		case 'S': d.serial = optarg; break;
		case 'w': wait_s = strtod(optarg, NULL); break;
		case 'r': ready = optarg; break;
		case 'v': d.verbose++; break;
		case 'L': logpath = optarg; break;
		case 'C': clogpath = optarg; break;
		case 'k':
			v = parse_size(optarg, "keep percentage");
			if (v > 100)
				die("keep percentage must be 0..100");
			d.keep_pct = (unsigned)v;
			break;
		case 'K': d.rng = parse_size(optarg, "seed"); break;
		case 'F': d.lying = 1; break;
		case 'N': d.noop_cuts = 1; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	if (d.pbsize == 0)
		d.pbsize = d.bsize;
	if (d.pbsize < d.bsize || d.size % d.pbsize)
		die("the physical block size (-P) must be a multiple of the logical "
		    "one (-l) that divides the size");
	if (d.size < d.bsize || d.size % d.bsize)
		die("size must be a positive multiple of the block size");
	d.nblocks = d.size / d.bsize;
	d.log = stderr;
	if (logpath && !(d.log = fopen(logpath, "a")))
		die("cannot open %s: %s", logpath, strerror(errno));
	if (clogpath && !(d.clog = fopen(clogpath, "a")))
		die("cannot open %s: %s", clogpath, strerror(errno));

	d.data = calloc(1, (size_t)d.size);
	d.medium = calloc(1, (size_t)d.size);
	d.dirty = calloc(1, (size_t)((d.nblocks + 7) / 8));
	d.buf = calloc(1, d.bufcap);
	if (!d.data || !d.medium || !d.dirty || !d.buf)
		die("cannot allocate %llu bytes", (unsigned long long)d.size);

	if (!dev) {
		clock_gettime(CLOCK_MONOTONIC, &t0);
		for (;;) {
			int r = find_uio(want, &num, uioname, sizeof uioname);
			if (r == 0)
				break;
			if (r == -2)
				die("several tcm-user UIO devices: choose one "
				    "with -n NAME or -d DEV");
			clock_gettime(CLOCK_MONOTONIC, &now);
			if ((double)(now.tv_sec - t0.tv_sec) +
			    (double)(now.tv_nsec - t0.tv_nsec) / 1e9 >= wait_s)
				die("no tcm-user UIO device%s%s after %g s",
				    want ? " named " : "", want ? want : "",
				    wait_s);
			usleep(50000);
		}
		snprintf(devpath, sizeof devpath, "/dev/uio%d", num);
		dev = devpath;
	} else if (sscanf(dev, "/dev/uio%d", &num) != 1) {
		die("-d wants /dev/uioN");
	}

	/* devtmpfs may create the node a moment after sysfs shows it */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while ((fd = open(dev, O_RDWR | O_CLOEXEC)) < 0) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (errno != ENOENT || (double)(now.tv_sec - t0.tv_sec) > wait_s)
			die("cannot open %s: %s", dev, strerror(errno));
		usleep(20000);
	}
	map_size = (size_t)map_size_of(num);
	if (map_size < 4096)
		die("odd map size %zu for %s", map_size, dev);
	map = mmap(NULL, map_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		die("mmap %s (%zu bytes): %s", dev, map_size, strerror(errno));
	if (ld16(MB_VERSION) < 1 || ld16(MB_VERSION) > 2)
		die("unknown TCMU mailbox version %u", ld16(MB_VERSION));
	if ((uint64_t)ld32(MB_CMDR_OFF) + ld32(MB_CMDR_SIZE) > map_size)
		die("the command ring lies outside the mapping");

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	if (d.verbose)
		logmsg(&d, "serving %s (%s): mailbox v%u flags %#x, ring %u "
		    "bytes at %u, map %zu bytes; disk %llu x %u, buffer %u, "
		    "echo %u\n", dev, uioname[0] ? uioname : "?",
		    ld16(MB_VERSION), ld16(MB_FLAGS), ld32(MB_CMDR_SIZE),
		    ld32(MB_CMDR_OFF), map_size,
		    (unsigned long long)d.nblocks, d.bsize, d.bufcap,
		    d.echocap);
	/* always said: a run against this disk proves nothing by its cuts */
	if (d.noop_cuts)
		logmsg(&d, "no-op cuts (-N): a power cut keeps every dirty "
		    "block\n");

	/* Anything queued before we came. */
	if (process_ring(&d, &c) > 0) {
		uint32_t one = 1;
		if (write(fd, &one, sizeof one) < 0)
			die("write %s: %s", dev, strerror(errno));
	}
	if (ready) {
		int rf = open(ready, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		    0644);
		if (rf < 0)
			die("cannot create %s: %s", ready, strerror(errno));
		dprintf(rf, "%ld %s\n", (long)getpid(), dev);
		close(rf);
	}

	while (!stop) {
		struct pollfd p;
		uint32_t events;
		int r;
		p.fd = fd;
		p.events = POLLIN;
		p.revents = 0;
		r = poll(&p, 1, 1000);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			die("poll %s: %s", dev, strerror(errno));
		}
		if (r > 0) {
			if (p.revents & (POLLERR | POLLHUP | POLLNVAL))
				die("%s went away", dev);
			if (read(fd, &events, sizeof events) < 0 &&
			    errno != EINTR && errno != EAGAIN)
				die("read %s: %s", dev, strerror(errno));
		}
		/* Also look on a timeout: cheap, and robust against a
		 * missed event. */
		if (process_ring(&d, &c) > 0) {
			uint32_t one = 1;
			if (write(fd, &one, sizeof one) < 0)
				die("write %s: %s", dev, strerror(errno));
		}
	}
	if (d.verbose)
		logmsg(&d, "stopping after %lu commands\n", d.ncmds);
	log_counts(&d);
	if (d.clog)
		fclose(d.clog);
	munmap(map, map_size);
	close(fd);
	free(c.seg);
	free(d.data);
	free(d.medium);
	free(d.dirty);
	free(d.buf);
	return 0;
}
