/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check-target.c -- --check's target: is it the run's (its identity
 * against the log's T record), the files of --layout separate, and the
 * slots the log names read from it (does it hold a transaction of the
 * run, did another run write over it since).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/kit/msg.h"
#include "tools/sw/check.h"
#include "tools/sw/check-internal.h"
#include "tools/sw/sw.h"
#include "tools/sw/txn.h"

#ifndef O_NOCTTY
# define O_NOCTTY 0
#endif
#ifndef O_NONBLOCK
# define O_NONBLOCK 0
#endif

/* ------------------------------------------------------------ the target */
/* Open a file of the target for reading: a regular file or a block
 * device only (stat first: no other kind of node is ever opened); -1
 * with the reason in why. */
int
sw_ck_open_part(const char *path, struct stat *st, char *why, size_t len)
{
	struct stat a;
	int fd;

	if (stat(path, &a) != 0) {
		int e = errno;

		snprintf(why, len, "'%s': %s", path, dio_strerror(-e));
		errno = e;
		return -1;
	}
	if (S_ISDIR(a.st_mode)) {
		snprintf(why, len, "'%s' is a directory, not the run's target", path);
		return -1;
	}
	if (!S_ISREG(a.st_mode) && !S_ISBLK(a.st_mode)) {
		snprintf(why, len, "'%s' is neither a regular file nor a block device, so "
		         "it is not the run's target", path);
		return -1;
	}
	fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		snprintf(why, len, "cannot open '%s': %s", path, dio_strerror(-errno));
		return -1;
	}
	if (fstat(fd, st) != 0 || st->st_dev != a.st_dev || st->st_ino != a.st_ino) {
		snprintf(why, len, "'%s' changed while it was opened", path);
		close(fd);
		return -1;
	}
	return fd;
}

int
sw_ck_target_facts(const char *path, struct cktarget *t, char *why, size_t len)
{
	struct stat st;
	int fd = sw_ck_open_part(path, &st, why, len);

	memset(t, 0, sizeof(*t));
	t->path = path;
	if (fd < 0)
		return -1;
	t->is_dev = S_ISBLK(st.st_mode);
	t->ino = (uint64_t)st.st_ino;
	t->dev = st.st_dev;
	if (t->is_dev) {
		struct dio_align a;

		if (dio_align_fd(fd, &a) == 0)
			t->bytes = a.device_bytes;
	} else {
		t->has_birth = dio_file_birth(fd, &t->birth) == 0;
	}
	close(fd);
	return 0;
}

/* The file writer k of run r wrote, under the target's name. */
void
sw_ck_part_path(const struct ckrun *r, const char *target, int k, char *buf,
                size_t len)
{
	if (r->separate && k > 0)
		snprintf(buf, len, "%s.%d", target, k);
	else
		snprintf(buf, len, "%s", target);
}

/*
 * Is t run r's target by its identity?  ID_YES (the same file, the same
 * device node of the same size), ID_NO
 * (another kind of thing, another size), or ID_MAYBE: only the
 * transactions on it can tell (a copy, a file that reused the inode
 * number, a device of the right size -- any device of that size has it --,
 * no identity to compare).  why says which.
 */
int
sw_ck_identity(const struct ckrun *r, const struct cktarget *t, char *why,
               size_t len)
{
	if (!r->has_id) {
		snprintf(why, len, "the log names %s and records no identity of it: if it "
		         "is the target, everything was lost", r->path);
		return ID_MAYBE;
	}
	if (r->is_dev != t->is_dev) {
		snprintf(why, len, "it is a %s, but the run wrote a %s (%s)",
		         t->is_dev ? "device" : "file", r->is_dev ? "device" : "file", r->path);
		return ID_NO;
	}
	if (t->is_dev) {
		if (t->bytes == 0) {
			snprintf(why, len, "its size cannot be read (the run's device, %s, "
			         "had %" PRIu64 " bytes)", r->path, r->dev_bytes);
			return ID_MAYBE;
		}
		if (t->bytes != r->dev_bytes) {
			snprintf(why, len, "it has %" PRIu64 " bytes, the run's target (%s) "
			         "had %" PRIu64, t->bytes, r->path, r->dev_bytes);
			return ID_NO;
		}
		if (t->ino == r->ino && strcmp(t->path, r->path) == 0) {
			/* The very node the run wrote, by its name and inode
			 * number, of its size (a power-cut test checks its raw
			 * disk so, where a cut may leave nothing of the run). */
			snprintf(why, len, "the device node the run wrote (%s, inode %" PRIu64
			         ") and of its size, %" PRIu64 " bytes", r->path, r->ino,
			         t->bytes);
			return ID_YES;
		}
		snprintf(why, len, "cannot say whether it is: it is a device of the size "
		         "of the run's target (%s, %" PRIu64 " bytes), and a device is known "
		         "by nothing else; if it is the run's target, everything was lost",
		         r->path, t->bytes);
		return ID_MAYBE;
	}
	if (t->ino != r->ino) {
		snprintf(why, len, "it is another file than the run's target (%s: inode "
		         "%" PRIu64 ", this one %" PRIu64 ")", r->path, r->ino, t->ino);
		return ID_MAYBE;
	}
	if (r->has_birth && t->has_birth && r->birth == t->birth) {
		snprintf(why, len, "the run's file by its inode number and birth stamp");
		return ID_YES;
	}
	if (r->has_birth && t->has_birth)
		snprintf(why, len, "it has the inode number of the run's target (%s, "
		         "inode %" PRIu64 ") but another birth stamp: a new file that got "
		         "the number after the run's target was removed", r->path, r->ino);
	else
		snprintf(why, len, "cannot say whether it is: it has the inode number of "
		         "the run's target (%s, inode %" PRIu64 "), but without a birth "
		         "stamp (%s) nothing tells the run's target that lost every "
		         "transaction from a new file that reused the number", r->path, r->ino,
		         !r->has_birth ? "the log records none" : "the file system keeps none");
	return ID_MAYBE;
}

/* ------------------------------------------------------------ slots */

/*
 * Every slot writer w's records name in run r's last point, in order,
 * handed to fn until it returns non-zero (which is returned).  The
 * newest acknowledged transaction of a slot is one of the last `slots`
 * acknowledged (sequences are consecutive); the one in flight, if any,
 * shares a slot with the acknowledged one slots before it.
 */
int
sw_ck_writer_slots(const struct ckrun *r, const struct ckwriter *w,
                   int (*fn)(const struct ckslot *s, void *arg), void *arg)
{
	int acked = w->seen && !(w->pending && w->issued == w->first);
	uint64_t a = w->pending ? w->issued - 1 : w->issued, span = 0, s;
	int shares = 0, x;
	struct ckslot sl;

	if (acked) {
		span = a - w->first + 1;
		if (!r->extend && span > r->slots)
			span = r->slots;
		shares = w->pending && !r->extend && span == r->slots;
	}
	for (s = a - span + 1; acked && s <= a; s++) {
		sl.acked = (int64_t)s;
		sl.off = sw_ck_txn_offset(r, w->k, s);
		sl.issued = shares && s + r->slots == w->issued ? (int64_t)w->issued : (int64_t)s;
		sl.issued_off = sw_ck_txn_offset(r, w->k, (uint64_t)sl.issued);
		if ((x = fn(&sl, arg)) != 0)
			return x;
	}
	if (w->seen && w->pending && !shares) {
		sl.acked = -1;
		sl.issued = (int64_t)w->issued;
		sl.issued_off = sl.off = sw_ck_txn_offset(r, w->k, w->issued);
		return fn(&sl, arg);
	}
	return 0;
}

/* Acknowledged slots of the run's last point. */
uint64_t
sw_ck_acked_slots(const struct ckrun *r)
{
	uint64_t n = 0, span;
	int i;

	for (i = 0; i < r->nw; i++) {
		const struct ckwriter *w = &r->w[i];

		if (!w->seen || (w->pending && w->issued == w->first))
			continue;
		span = (w->pending ? w->issued - 1 : w->issued) - w->first + 1;
		n += !r->extend && span > r->slots ? r->slots : span;
	}
	return n;
}

/* Does the slot hold a transaction of the run (any point, writer)? */
struct holds {
	const struct ckrun *r;
	int fd;
	unsigned char *buf;
};

/* The run id of the intact transaction in slot s: 1 and *rid, or 0. */
static int
slot_rid(const struct holds *h, const struct ckslot *s, uint64_t *rid)
{
	uint64_t rseq, roff;
	uint32_t rpoint, rwriter;
	size_t size = (size_t)h->r->size;

	return pread(h->fd, h->buf, size, (off_t)s->off) == (ssize_t)size &&
	       sw_read_txn(h->buf, size, rid, &rpoint, &rwriter, &rseq, &roff) ==
	       SW_TXN_OK;
}

static int
holds_slot(const struct ckslot *s, void *arg)
{
	struct holds *h = arg;
	uint64_t rrid;

	return slot_rid(h, s, &rrid) && rrid == h->r->rid;
}

/*
 * The order of run id other against mine (check.h, SW_RID_TIME): 1 other
 * is of a later run, -1 of an earlier one, 0 cannot be told (the same
 * millisecond, or an id that is not time-ordered).
 */
int
sw_ck_rid_order(uint64_t mine, uint64_t other)
{
	if (!(mine & SW_RID_ORDERED) || !(other & SW_RID_ORDERED) ||
	    SW_RID_TIME(mine) == SW_RID_TIME(other))
		return 0;
	return SW_RID_TIME(other) > SW_RID_TIME(mine) ? 1 : -1;
}

/* Does the slot hold an intact transaction of another run that is not
 * known to be earlier than run r (a run that may have written over the
 * target since)? */
int
sw_ck_over_slot(const struct ckslot *s, void *arg)
{
	struct holds *h = arg;
	uint64_t rrid;

	return slot_rid(h, s, &rrid) && rrid != h->r->rid &&
	       sw_ck_rid_order(h->r->rid, rrid) >= 0;
}

/* Does any slot the log names answer fn (holds_slot, sw_ck_over_slot)?  Stops
 * at the first: 1, 0, or -1 out of memory. */
int
sw_ck_scan_run(const struct ckrun *r, const char *target,
               int (*fn)(const struct ckslot *s, void *arg))
{
	char fpath[PATH_MAX + 16], why[PATH_MAX + 64];
	struct holds h;
	struct stat st;
	int i, found = 0;

	if (r->point < 0 || r->nw == 0)
		return 0;
	h.r = r;
	h.buf = malloc((size_t)r->size);
	if (h.buf == NULL)
		return -1;
	for (i = 0; i < r->nw && !found; i++) {
		sw_ck_part_path(r, target, r->w[i].k, fpath, sizeof(fpath));
		if ((h.fd = sw_ck_open_part(fpath, &st, why, sizeof(why))) < 0)
			continue;
		found = sw_ck_writer_slots(r, &r->w[i], fn, &h);
		close(h.fd);
	}
	free(h.buf);
	return found;
}

/* Does any slot the log names hold a transaction of run r? */
int
sw_ck_holds_run(const struct ckrun *r, const char *target)
{
	return sw_ck_scan_run(r, target, holds_slot);
}
