/*
 * check.c -- --check ACK-LOG [TARGET]: after a crash, were all acknowledged
 * transactions of the last point in the ack log made durable?  The ack log
 * records, for each transaction, an "I" line before it was issued and an
 * "A" line once the write and commit returned.  For every slot, the newest
 * acknowledged transaction (or a newer one) must be on the target, intact.
 * A slot whose newest issued transaction was never acknowledged may hold a
 * torn write: every sector then holds either the acknowledged transaction's
 * bytes or the issued one's (both are rebuilt from the log); that is
 * reported, not counted as a loss.  Anything else, zeros included, is.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/kit/util.h"
#include "tools/sw/sw.h"
#include "tools/sw/txn.h"

struct ckslot {
	int64_t acked, issued;
	uint64_t off, issued_off;
};

/* What the log says about its last point. */
struct cklog {
	const char *name;
	char path[PATH_MAX], layout[16], method[32];
	unsigned long long rid, region, size, slots;
	int extend, writers, point, ended;
	struct ckslot *tab;       /* [writers * slots] */
};

/* The counts of the check. */
struct cksum {
	uint64_t ok, newer, lost, corrupt, torn, acked;
};

/* A "P" line: a new point, a new table of slots. */
static void
log_point(struct cklog *g, const char *line)
{
	int64_t i;

	if (sscanf(line, "P %d %31s %llu %d %llu", &g->point, g->method, &g->size,
	           &g->writers, &g->slots) != 5 || g->writers < 1 ||
	    g->writers > SW_MAX_WRITERS || g->size < SW_HDR_SIZE ||
	    g->size > SW_MAX_SIZE || g->slots == 0)
		diot_die(DIOT_EXIT_FAIL, "%s: malformed P line", g->name);
	if (g->slots > (1ull << 27) / (unsigned long long)g->writers)
		diot_die(DIOT_EXIT_FAIL, "%s: point too large to check", g->name);
	free(g->tab);
	g->tab = malloc(g->slots * (size_t)g->writers * sizeof(*g->tab));
	if (g->tab == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	for (i = 0; i < (int64_t)(g->slots * (uint64_t)g->writers); i++)
		g->tab[i].acked = g->tab[i].issued = -1;
	g->ended = 0;
}

/* An "I" or "A" line: the newest issued or acknowledged of a slot. */
static void
log_txn(struct cklog *g, const char *line)
{
	unsigned long long seq, off;
	struct ckslot *s;
	int w;

	if (sscanf(line + 1, "%d %llu %llu", &w, &seq, &off) != 3 ||
	    w < 0 || w >= g->writers)
		return;   /* a torn last line */
	s = &g->tab[(uint64_t)w * g->slots + (g->extend ? seq : seq % g->slots) % g->slots];
	if (g->extend && seq >= g->slots)
		return;
	if (line[0] == 'I' && (int64_t)seq > s->issued) {
		s->issued = (int64_t)seq;
		s->issued_off = off;
	}
	if (line[0] == 'A' && (int64_t)seq > s->acked) {
		s->acked = (int64_t)seq;
		s->off = off;
	}
}

static void
read_log(struct cklog *g, const char *log)
{
	char line[PATH_MAX + 256];
	FILE *fp;

	memset(g, 0, sizeof(*g));
	g->name = log;
	g->point = -1;
	fp = strcmp(log, "-") == 0 ? stdin : fopen(log, "r");
	if (fp == NULL)
		diot_die(DIOT_EXIT_USAGE, "--check: cannot open ack log '%s': %s", log,
		         dio_strerror(errno));
	if (fgets(line, sizeof(line), fp) == NULL ||
	    strncmp(line, "# sync-write ack-log 1", 22) != 0)
		diot_die(DIOT_EXIT_FAIL, "'%s' is not a sync-write ack log", log);
	while (fgets(line, sizeof(line), fp) != NULL) {
		if (line[0] == 'R') {
			int pos = 0;

			if (sscanf(line, "R %llx %15s %d %llu %n", &g->rid, g->layout,
			           &g->extend, &g->region, &pos) < 4 || pos == 0)
				diot_die(DIOT_EXIT_FAIL, "%s: malformed R line", log);
			snprintf(g->path, sizeof(g->path), "%s", line + pos);
			g->path[strcspn(g->path, "\n")] = '\0';
		} else if (line[0] == 'P') {
			log_point(g, line);
		} else if ((line[0] == 'I' || line[0] == 'A') && g->tab != NULL) {
			log_txn(g, line);
		} else if (line[0] == 'E') {
			g->ended = 1;
		}
	}
	if (fp != stdin)
		fclose(fp);
	if (g->tab == NULL)
		diot_die(DIOT_EXIT_FAIL, "%s: no transactions were recorded", log);
}

/* Check the acknowledged slots of writer w in file fpath. */
static void
check_writer(const struct cklog *g, int w, const char *fpath, unsigned char *buf[3],
             struct cksum *n)
{
	size_t size = (size_t)g->size;
	int fd, st;
	int64_t i;

	fd = open(fpath, O_RDONLY);
	if (fd < 0)
		diot_die(DIOT_EXIT_FAIL, "cannot open '%s': %s", fpath, dio_strerror(errno));
	for (i = 0; i < (int64_t)g->slots; i++) {
		const struct ckslot *s = &g->tab[(uint64_t)w * g->slots + (uint64_t)i];
		uint64_t rrid, rseq, roff;
		uint32_t rpoint, rwriter;

		if (s->acked < 0)
			continue;
		n->acked++;
		if (pread(fd, buf[0], size, (off_t)s->off) != (ssize_t)size)
			st = SW_TXN_MISSING;
		else
			st = sw_read_txn(buf[0], size, &rrid, &rpoint, &rwriter, &rseq, &roff);
		if (st == SW_TXN_OK && rrid == g->rid && rpoint == (uint32_t)g->point &&
		    rwriter == (uint32_t)w && roff == s->off && (int64_t)rseq >= s->acked) {
			if ((int64_t)rseq > s->acked)
				n->newer++;
			else
				n->ok++;
			continue;
		}
		if (st == SW_TXN_CORRUPT && s->issued > s->acked) {
			/* rebuild both transactions of that run */
			sw_make_txn(buf[1], size, g->rid, (uint32_t)g->point, (uint32_t)w,
			            (uint64_t)s->acked, s->off);
			sw_make_txn(buf[2], size, g->rid, (uint32_t)g->point, (uint32_t)w,
			            (uint64_t)s->issued, s->issued_off);
			if (s->issued_off == s->off && sw_torn_mix(buf[0], buf[1], buf[2], size)) {
				n->torn++;
				continue;
			}
		}
		if (st == SW_TXN_CORRUPT)
			n->corrupt++;
		else
			n->lost++;
		if (n->lost + n->corrupt <= 10)
			printf("  %s: writer %d, transaction %" PRId64 " at offset %"
			       PRIu64 " was acknowledged but is %s\n", fpath, w, s->acked,
			       s->off, st == SW_TXN_CORRUPT ? "corrupt" : st == SW_TXN_MISSING
			       ? "missing" : "an older transaction");
	}
	close(fd);
}

static int
verdict(const struct cksum *n)
{
	if (n->acked == 0) {
		printf("FAILED: the last point has no acknowledged transaction to check\n");
		return DIOT_EXIT_FAIL;
	}
	printf("acknowledged slots: %" PRIu64 "; durable: %" PRIu64 " (%" PRIu64
	       " of them overwritten by a later transaction); torn in-flight "
	       "(never acknowledged): %" PRIu64 "; lost: %" PRIu64 "; corrupt: %"
	       PRIu64 "\n", n->acked, n->ok + n->newer, n->newer, n->torn, n->lost,
	       n->corrupt);
	if (n->lost || n->corrupt) {
		printf("FAILED: %" PRIu64 " acknowledged transactions are not on stable "
		       "storage\n", n->lost + n->corrupt);
		return DIOT_EXIT_FAIL;
	}
	printf("OK: every acknowledged transaction is on stable storage\n");
	return 0;
}

int
sw_check_main(const char *log, const char *target_arg)
{
	unsigned char *buf[3];
	struct cksum n;
	struct cklog g;
	int w, i;

	read_log(&g, log);
	if (target_arg)
		snprintf(g.path, sizeof(g.path), "%s", target_arg);
	for (i = 0; i < 3; i++)
		if ((buf[i] = malloc(g.size)) == NULL)
			diot_die(DIOT_EXIT_FAIL, "out of memory");
	memset(&n, 0, sizeof(n));
	printf("checking point %d (%s, %llu-byte transactions, %d writer%s) of run "
	       "%llx on %s%s\n", g.point, g.method, g.size, g.writers,
	       g.writers == 1 ? "" : "s", g.rid, g.path,
	       g.ended ? " (the run had ended cleanly)" : "");
	for (w = 0; w < g.writers; w++) {
		char fpath[PATH_MAX + 16];

		if (strcmp(g.layout, "separate") == 0 && w > 0)
			snprintf(fpath, sizeof(fpath), "%s.%d", g.path, w);
		else
			snprintf(fpath, sizeof(fpath), "%s", g.path);
		check_writer(&g, w, fpath, buf, &n);
	}
	for (i = 0; i < 3; i++)
		free(buf[i]);
	free(g.tab);
	return verdict(&n);
}
