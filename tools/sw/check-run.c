/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check-run.c -- one run of the log checked against its target, and its
 * report.
 *
 * Checking.  For every slot, the newest acknowledged transaction (or a
 * newer one) must be on the target, intact.  A slot whose newest issued
 * transaction was never acknowledged is in flight: it may hold the old
 * transaction, the new one, or (sector by sector) a mix of both, all of
 * which are reported and none counted as a loss.  Run ids order runs in
 * time (check.h, SW_RID_TIME): an intact transaction of a LATER run in an
 * acknowledged slot means that run wrote over the target since; it is
 * counted as "overwritten by a later run", neither verified nor lost, and
 * once another run that is not known to be earlier wrote over the target,
 * a slot holding no intact transaction (that run's fill, or its
 * transactions of another size) is not verifiable either.  So is a
 * transaction of a run whose order cannot be told (the same millisecond,
 * an id of an older sync-write).  When no acknowledged slot could be
 * verified so, the check could not check (3).  Anything else, zeros
 * included, is a loss: an older transaction of the run, or an intact one
 * of an EARLIER run (what a lying disk leaves on a device or a file
 * system used again).  Reads are the slots the records name, inside
 * the run's region; a target that is not a regular file or a block
 * device (a FIFO, /dev/zero) is refused before it is read.
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

/* ------------------------------------------------------------ checking */

struct ckw {
	const struct ckrun *r;
	int k, fd;
	int over;                 /* another run (not earlier) wrote there  */
	const char *fpath;
	unsigned char *buf[3];
	struct cksum *n;
};

/* Compare one acknowledged or in-flight slot with what the target holds. */
static int
check_slot(const struct ckslot *s, void *arg)
{
	struct ckw *c = arg;
	const struct ckrun *g = c->r;
	struct cksum *n = c->n;
	size_t size = (size_t)g->size;
	uint64_t rrid = 0, rseq = 0, roff = 0, at = s->acked >= 0 ? s->off : s->issued_off;
	uint32_t rpoint = 0, rwriter = 0;
	int st, flight = s->issued > s->acked, mine, w = c->k;

	if (pread(c->fd, c->buf[0], size, (off_t)at) != (ssize_t)size)
		st = SW_TXN_MISSING;
	else
		st = sw_read_txn(c->buf[0], size, &rrid, &rpoint, &rwriter, &rseq, &roff);
	mine = st == SW_TXN_OK && rrid == g->rid && rpoint == (uint32_t)g->point &&
	       rwriter == (uint32_t)w && roff == at;
	n->flight += flight;
	if (s->acked < 0) {         /* never acknowledged: old or new data */
		if (mine && (int64_t)rseq == s->issued)
			n->flight_new++;
		else
			n->flight_old++;
		return 0;
	}
	n->acked++;
	if (mine && (int64_t)rseq >= s->acked) {
		if ((int64_t)rseq > s->acked)
			n->newer++;
		else
			n->ok++;
		if (flight && (int64_t)rseq == s->issued)
			n->flight_new++;
		else if (flight)
			n->flight_old++;
		if (s->acked > n->newest_ok)
			n->newest_ok = s->acked;
		return 0;
	}
	if (flight && st == SW_TXN_CORRUPT && s->issued_off == s->off) {
		/* sector by sector the acknowledged or the issued transaction */
		sw_make_txn(c->buf[1], size, g->rid, (uint32_t)g->point, (uint32_t)w,
		            (uint64_t)s->acked, s->off);
		sw_make_txn(c->buf[2], size, g->rid, (uint32_t)g->point, (uint32_t)w,
		            (uint64_t)s->issued, s->issued_off);
		if (sw_torn_mix(c->buf[0], c->buf[1], c->buf[2], size)) {
			n->flight_torn++;
			return 0;
		}
	}
	if (st == SW_TXN_OK && rrid != g->rid && sw_ck_rid_order(g->rid, rrid) >= 0) {
		/* A later run's transaction (or one of a run whose order
		 * cannot be told): that run wrote over this one's slot, which
		 * says nothing of this run's durability; not verifiable. */
		n->flight -= flight;
		if (sw_ck_rid_order(g->rid, rrid) > 0) {
			n->later++;
			if (n->later_rid == 0 || SW_RID_TIME(rrid) > SW_RID_TIME(n->later_rid))
				n->later_rid = rrid;
		} else {
			n->unordered++;
			n->unordered_rid = rrid;
		}
		return 0;
	}
	if (st != SW_TXN_OK && c->over) {
		/* No intact transaction, on a target another run wrote over
		 * since: its fill or its transactions of another size may
		 * be what is there; not verifiable. */
		n->flight -= flight;
		n->gap++;
		return 0;
	}
	/* A loss, whatever was in flight: zeros or garbage on a target no
	 * other run wrote over since, an older transaction of this run, or
	 * one of an earlier run (what a lying disk leaves on a device or
	 * file system used again). */
	n->flight -= flight;
	if (st == SW_TXN_CORRUPT)
		n->corrupt++;
	else
		n->lost++;
	if (n->first_missing < 0 || s->acked < n->first_missing)
		n->first_missing = s->acked;
	if (n->lost + n->corrupt <= 10)
		printf("  %s: writer %d, transaction %" PRId64 " at offset %" PRIu64
		       " was acknowledged but is %s\n", c->fpath, w, s->acked, s->off,
		       st == SW_TXN_CORRUPT ? "corrupt" : st == SW_TXN_MISSING ? "missing"
		       : rrid != g->rid ? "a transaction of an earlier run" : "an older transaction");
	return 0;
}

static void
add(struct cksum *t, const struct cksum *n)
{
	t->ok += n->ok;
	t->newer += n->newer;
	t->lost += n->lost;
	t->corrupt += n->corrupt;
	t->acked += n->acked;
	t->flight += n->flight;
	t->flight_old += n->flight_old;
	t->flight_new += n->flight_new;
	t->flight_torn += n->flight_torn;
	t->later += n->later;
	t->unordered += n->unordered;
	t->gap += n->gap;
	if (n->later_rid != 0 && (t->later_rid == 0 ||
	                          SW_RID_TIME(n->later_rid) > SW_RID_TIME(t->later_rid)))
		t->later_rid = n->later_rid;
	if (n->unordered_rid != 0)
		t->unordered_rid = n->unordered_rid;
}

/* Check writer w's slots in its file and say what was found; -1 when the
 * file cannot be read (said).  mine: the target is the run's by its
 * identity, so a writer's file (--layout separate) that is not there was
 * lost with everything in it. */
static int
check_writer(const struct ckrun *r, const struct ckwriter *w, const char *target,
             int mine, int over, unsigned char *buf[3], struct cksum *total)
{
	char fpath[PATH_MAX + 16], why[PATH_MAX + 64];
	struct cksum n;
	struct stat st;
	struct ckw c;

	memset(&n, 0, sizeof(n));
	n.newest_ok = n.first_missing = -1;
	sw_ck_part_path(r, target, w->k, fpath, sizeof(fpath));
	c.fd = sw_ck_open_part(fpath, &st, why, sizeof(why));
	if (c.fd < 0 && mine && errno == ENOENT && w->k > 0) {
		printf("  %s: no such file: all of writer %d's transactions are missing\n",
		       fpath, w->k);
	} else if (c.fd < 0) {
		diot_warn("--check: writer %d's file: %s: cannot check", w->k, why);
		return -1;
	}
	c.r = r;
	c.over = over;
	c.k = w->k;
	c.fpath = fpath;
	memcpy(c.buf, buf, sizeof(c.buf));
	c.n = &n;
	sw_ck_writer_slots(r, w, check_slot, &c);
	if (c.fd >= 0)
		close(c.fd);
	if (n.acked > 0) {
		printf("  writer %d: %" PRIu64 " acknowledged slots; newest acknowledged "
		       "transaction found: ", w->k, n.acked);
		if (n.newest_ok >= 0)
			printf("%" PRId64, n.newest_ok);
		else
			printf("none");
		if (n.first_missing >= 0)
			printf("; first missing: %" PRId64, n.first_missing);
		else
			printf("; none missing");
		if (n.later + n.unordered + n.gap)
			printf("; %" PRIu64 " not verifiable (another run wrote there)",
			       n.later + n.unordered + n.gap);
		printf("\n");
	}
	add(total, &n);
	return 0;
}

static int
verdict(const struct ckrun *r, const struct cksum *n)
{
	uint64_t unver = n->later + n->unordered + n->gap, found = n->ok + n->newer;

	printf("acknowledged slots: %" PRIu64 "; durable: %" PRIu64 " (%" PRIu64
	       " of them overwritten by a later transaction); torn in-flight "
	       "(never acknowledged): %" PRIu64 "; lost: %" PRIu64 "; corrupt: %"
	       PRIu64 "\n", n->acked, n->ok + n->newer, n->newer, n->flight_torn, n->lost,
	       n->corrupt);
	printf("in flight (issued, not acknowledged): %" PRIu64 ", holding the new "
	       "data %" PRIu64 ", the old %" PRIu64 ", torn %" PRIu64 " (none of these is "
	       "a loss)\n", n->flight, n->flight_new, n->flight_old, n->flight_torn);
	if (unver) {
		printf("not verifiable (none of them a loss): %" PRIu64 " acknowledged "
		       "slots", unver);
		if (n->later)
			printf("; %" PRIu64 " slots overwritten by a later run %" PRIx64,
			       n->later, n->later_rid);
		if (n->unordered)
			printf("; %" PRIu64 " slots hold a transaction of run %" PRIx64 ", "
			       "which cannot be told to be earlier or later than run %" PRIx64,
			       n->unordered, n->unordered_rid, r->rid);
		if (n->gap)
			printf("; %" PRIu64 " slots hold no intact transaction, on a target "
			       "another run wrote over since", n->gap);
		printf("\n");
	}
	if (n->lost || n->corrupt) {
		printf("FAILED: %" PRIu64 " acknowledged transactions are not on stable "
		       "storage\n", n->lost + n->corrupt);
		return SW_CHECK_LOST;
	}
	if (unver && found == 0) {
		diot_warn("--check: could not check: another run (%" PRIx64 ") wrote over "
		          "this target since run %" PRIx64 ", so none of its %" PRIu64
		          " acknowledged slots could be verified", n->later_rid ? n->later_rid
		          : n->unordered_rid, r->rid, n->acked);
		return SW_CHECK_CANNOT;
	}
	if (unver) {
		printf("OK: every acknowledged transaction that could be verified (%" PRIu64
		       " of %" PRIu64 ") is on stable storage\n", found, n->acked);
		return SW_CHECK_OK;
	}
	printf("OK: every acknowledged transaction is on stable storage\n");
	return SW_CHECK_OK;
}

/* Check run r's last point on target (mine: the run's by its identity). */
int
sw_ck_check_run(const struct ckrun *r, const char *target, int mine)
{
	unsigned char *buf[3];
	struct cksum n;
	int i, bad = 0, over;

	printf("checking point %d (%s, %" PRIu64 "-byte transactions, %d writer%s) of "
	       "run %" PRIx64 " on %s%s\n", r->point, r->method, r->size, r->writers,
	       r->writers == 1 ? "" : "s", r->rid, target,
	       r->ended ? " (the run had ended cleanly)"
	       : " (the log has no end of the run: it was stopped, or killed)");
	if (r->torn_tail == 2)
		printf("  the log ends in NUL bytes (a file system's tail after a crash, "
		       "where the log's size got ahead of its data): ignored\n");
	else if (r->torn_tail)
		printf("  the log's last line was cut short (the crash): ignored\n");
	for (i = 0; i < 3; i++)
		buf[i] = malloc((size_t)r->size);
	if (buf[0] == NULL || buf[1] == NULL || buf[2] == NULL) {
		diot_warn("--check: out of memory");
		bad = 1;
	}
	memset(&n, 0, sizeof(n));
	/* Has another run, not known to be earlier, written over the target
	 * since?  Then a slot without an intact transaction is no proof of a
	 * loss. */
	over = bad ? 0 : sw_ck_scan_run(r, target, sw_ck_over_slot);
	if (over < 0) {
		diot_warn("--check: out of memory");
		bad = 1;
	}
	for (i = 0; i < r->nw && !bad; i++)
		bad = check_writer(r, &r->w[i], target, mine, over, buf, &n) < 0;
	for (i = 0; i < 3; i++)
		free(buf[i]);
	return bad ? SW_CHECK_CANNOT : verdict(r, &n);
}
