/*
 * check.c -- --check ACK-LOG [TARGET]: after a crash or a power cut, were
 * all acknowledged transactions of the last point made durable?
 *
 * The ack log records, for each transaction, an "I" line before it was
 * issued and an "A" line once the write and commit returned (see
 * writers.c).  For every slot, the newest acknowledged transaction (or a
 * newer one) must be on the target, intact.  A slot whose newest issued
 * transaction was never acknowledged is in flight: it may hold the old
 * transaction, the new one, or (sector by sector) a mix of both, all of
 * which are reported and none counted as a loss.  Anything else, zeros
 * included, is a loss.
 *
 * The log is read strictly: a line that does not parse is refused with
 * its number, except a last line cut short without its newline (what a
 * crash leaves), which is ignored and said so.  The target must be the
 * run's: the log records its identity ("T": kind, inode, device size),
 * and a target that holds no transaction of the run where the log says
 * there are some is named as not the run's target instead of reported as
 * a durability failure.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/kit/util.h"
#include "tools/sw/sw.h"
#include "tools/sw/txn.h"

#define CK_LINE_MAX (PATH_MAX + 256)

struct ckslot {
	int64_t acked, issued;
	uint64_t off, issued_off;
};

/* What the log says about its last point. */
struct cklog {
	const char *name;
	char path[PATH_MAX], layout[16], method[32], kind[16];
	unsigned long long rid, region, size, slots, ino, dev_bytes;
	int extend, writers, point, ended, has_id, torn_tail;
	struct ckslot *tab;       /* [writers * slots] */
};

/* The counts of the check, in all and for one writer. */
struct cksum {
	uint64_t ok, newer, lost, corrupt, acked;
	uint64_t flight, flight_old, flight_new, flight_torn;
	int64_t newest_ok, first_missing;
};

static void DIOT_PRINTF(3, 4) DIOT_NORETURN
malformed(const struct cklog *g, unsigned long lineno, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	diot_die(DIOT_EXIT_FAIL, "%s:%lu: malformed %s; the log is not checked", g->name,
	         lineno, msg);
}

/* Words of a record: fields separated by single spaces, numbers in full
 * (no sign, no overflow, nothing after them). */
static int
num(const char *s, int base, unsigned long long max, unsigned long long *out)
{
	char *end;

	if (*s < '0' || *s > '9' || (base == 10 && s[0] == '0' && s[1] >= '0' && s[1] <= '9'))
		if (!(base == 16 && ((*s >= 'a' && *s <= 'f') || (*s >= 'A' && *s <= 'F'))))
			return -1;
	errno = 0;
	*out = strtoull(s, &end, base);
	if (errno != 0 || *end != '\0' || *out > max)
		return -1;
	return 0;
}

/* Split line (no newline) into at most max fields; the last field takes
 * the rest of the line when rest is set (a path may hold spaces). */
static int
split(char *line, char **f, int max, int rest)
{
	int n = 0;
	char *p = line;

	while (n < max) {
		f[n++] = p;
		if (rest && n == max)
			break;
		p = strchr(p, ' ');
		if (p == NULL)
			break;
		*p++ = '\0';
	}
	return p == NULL || (rest && n == max) ? n : -1;
}

static void
log_run(struct cklog *g, char *line, unsigned long lineno)
{
	char *f[6];
	unsigned long long ext;

	if (split(line, f, 6, 1) != 6 || num(f[1], 16, ~0ull, &g->rid) ||
	    (strcmp(f[2], "shared") && strcmp(f[2], "separate")) ||
	    num(f[3], 10, 1, &ext) || num(f[4], 10, ~0ull >> 1, &g->region) ||
	    g->region == 0 || f[5][0] == '\0' || strlen(f[5]) >= sizeof(g->path))
		malformed(g, lineno, "R line (R RUN-ID shared|separate 0|1 REGION PATH)");
	snprintf(g->layout, sizeof(g->layout), "%s", f[2]);
	snprintf(g->path, sizeof(g->path), "%s", f[5]);
	g->extend = (int)ext;
}

static void
log_identity(struct cklog *g, char *line, unsigned long lineno)
{
	char *f[4];

	if (split(line, f, 4, 0) != 4 || (strcmp(f[1], "file") && strcmp(f[1], "device")) ||
	    num(f[2], 10, ~0ull, &g->ino) || num(f[3], 10, ~0ull, &g->dev_bytes))
		malformed(g, lineno, "T line (T file|device INODE DEVICE-BYTES)");
	snprintf(g->kind, sizeof(g->kind), "%s", f[1]);
	g->has_id = 1;
}

/* A "P" line: a new point, a new table of slots. */
static void
log_point(struct cklog *g, char *line, unsigned long lineno)
{
	unsigned long long pt, w;
	char *f[6];
	int64_t i;

	if (split(line, f, 6, 0) != 6 || num(f[1], 10, INT32_MAX, &pt) ||
	    strlen(f[2]) >= sizeof(g->method) || f[2][0] == '\0' ||
	    num(f[3], 10, SW_MAX_SIZE, &g->size) || g->size < SW_HDR_SIZE ||
	    num(f[4], 10, SW_MAX_WRITERS, &w) || w < 1 ||
	    num(f[5], 10, ~0ull, &g->slots) || g->slots == 0)
		malformed(g, lineno, "P line (P POINT METHOD SIZE WRITERS SLOTS)");
	if (g->slots > (1ull << 27) / w)
		diot_die(DIOT_EXIT_FAIL, "%s:%lu: point too large to check", g->name, lineno);
	g->point = (int)pt;
	g->writers = (int)w;
	snprintf(g->method, sizeof(g->method), "%s", f[2]);
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
log_txn(struct cklog *g, char *line, unsigned long lineno)
{
	unsigned long long w, seq, off;
	struct ckslot *s;
	char *f[4];
	int a = line[0] == 'A';

	if (g->tab == NULL)
		malformed(g, lineno, "%c line before any P line", line[0]);
	if (split(line, f, 4, 0) != 4 || num(f[1], 10, (unsigned)g->writers - 1, &w) ||
	    num(f[2], 10, ~0ull >> 1, &seq) || num(f[3], 10, ~0ull >> 1, &off))
		malformed(g, lineno, "%c line (%c WRITER SEQUENCE OFFSET, writer below %d)",
		          line[0], line[0], g->writers);
	if (g->extend && seq >= g->slots)
		return;
	s = &g->tab[w * g->slots + seq % g->slots];
	if (!a && (int64_t)seq > s->issued) {
		s->issued = (int64_t)seq;
		s->issued_off = off;
	}
	if (a && (int64_t)seq > s->acked) {
		s->acked = (int64_t)seq;
		s->off = off;
	}
}

/* One line without its newline. */
static void
log_line(struct cklog *g, char *line, unsigned long lineno)
{
	switch (line[0]) {
	case 'R': log_run(g, line, lineno); break;
	case 'T': log_identity(g, line, lineno); break;
	case 'P': log_point(g, line, lineno); break;
	case 'I': case 'A': log_txn(g, line, lineno); break;
	case 'E':
		if (strcmp(line, "E") != 0)
			malformed(g, lineno, "E line");
		g->ended = 1;
		break;
	default:
		malformed(g, lineno, "line: unknown record '%.20s'", line);
	}
}

static void
read_log(struct cklog *g, const char *log)
{
	unsigned long lineno = 0;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *fp;

	memset(g, 0, sizeof(*g));
	g->name = log;
	g->point = -1;
	fp = strcmp(log, "-") == 0 ? stdin : fopen(log, "r");
	if (fp == NULL)
		diot_die(DIOT_EXIT_USAGE, "--check: cannot open ack log '%s': %s", log,
		         dio_strerror(errno));
	while ((n = getline(&line, &cap, fp)) > 0) {
		int whole = line[n - 1] == '\n';

		lineno++;
		if (lineno == 1) {
			if (strncmp(line, "# sync-write ack-log 1\n", (size_t)n) != 0 || !whole)
				diot_die(DIOT_EXIT_FAIL, "'%s' is not a sync-write ack log", log);
			continue;
		}
		if ((size_t)n > CK_LINE_MAX)
			malformed(g, lineno, "line: %zd bytes long (at most %d)", n, CK_LINE_MAX);
		if (memchr(line, '\0', (size_t)n) != NULL)
			malformed(g, lineno, "line: it holds a NUL byte");
		if (!whole) {
			/* Cut short by the crash: the last write of a record that
			 * never completed.  Only the very last line may be. */
			g->torn_tail = 1;
			break;
		}
		line[n - 1] = '\0';
		log_line(g, line, lineno);
	}
	if (ferror(fp))
		diot_die(DIOT_EXIT_FAIL, "%s: read error: %s", log, dio_strerror(errno));
	free(line);
	if (lineno == 0)
		diot_die(DIOT_EXIT_FAIL, "'%s' is not a sync-write ack log (it is empty)", log);
	if (fp != stdin)
		fclose(fp);
	if (g->path[0] == '\0')
		diot_die(DIOT_EXIT_FAIL, "%s: no R line: the log does not say what the run wrote",
		         log);
	if (g->tab == NULL)
		diot_die(DIOT_EXIT_FAIL, "%s: no transactions were recorded", log);
}

/*
 * The named target must be something the run could have written, and
 * where the log recorded an identity, the same kind of thing.  Returns 1
 * when the identity is known to match, 0 when it cannot be said.
 */
static int
check_target(const struct cklog *g, const char *path)
{
	struct stat st;
	uint64_t bytes = 0;
	int fd;

	if (stat(path, &st) != 0)
		diot_die(DIOT_EXIT_USAGE, "--check: target '%s': %s", path, dio_strerror(errno));
	if (S_ISDIR(st.st_mode))
		diot_die(DIOT_EXIT_USAGE, "--check: target '%s' is a directory, not the run's "
		         "target (the log names %s)", path, g->path);
	if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode))
		diot_die(DIOT_EXIT_USAGE, "--check: target '%s' is neither a regular file nor "
		         "a block device, so it is not the run's target (the log names %s)",
		         path, g->path);
	if (!g->has_id)
		return 0;
	if (strcmp(g->kind, S_ISBLK(st.st_mode) ? "device" : "file") != 0)
		diot_die(DIOT_EXIT_USAGE, "--check: target '%s' is a %s, but the run wrote a "
		         "%s (%s): it is not the run's target", path,
		         S_ISBLK(st.st_mode) ? "device" : "file", g->kind, g->path);
	if (S_ISREG(st.st_mode))
		return (unsigned long long)st.st_ino == g->ino;
	fd = open(path, O_RDONLY);
	if (fd >= 0) {
		struct dio_align a;

		if (dio_align_fd(fd, &a) == 0)
			bytes = a.device_bytes;
		close(fd);
	}
	if (bytes && g->dev_bytes && bytes != g->dev_bytes)
		diot_die(DIOT_EXIT_USAGE, "--check: device '%s' has %" PRIu64 " bytes, the "
		         "run's target (%s) had %llu: it is not the run's target", path, bytes,
		         g->path, g->dev_bytes);
	return bytes != 0 && bytes == g->dev_bytes;
}

/* Compare one acknowledged or in-flight slot with what the target holds. */
static void
check_slot(const struct cklog *g, int w, const struct ckslot *s, int fd,
           unsigned char *buf[3], struct cksum *n, const char *fpath)
{
	size_t size = (size_t)g->size;
	uint64_t rrid = 0, rseq = 0, roff = 0, at = s->acked >= 0 ? s->off : s->issued_off;
	uint32_t rpoint = 0, rwriter = 0;
	int st, flight = s->issued > s->acked, mine;

	if (pread(fd, buf[0], size, (off_t)at) != (ssize_t)size)
		st = SW_TXN_MISSING;
	else
		st = sw_read_txn(buf[0], size, &rrid, &rpoint, &rwriter, &rseq, &roff);
	mine = st == SW_TXN_OK && rrid == g->rid && rpoint == (uint32_t)g->point &&
	       rwriter == (uint32_t)w && roff == at;
	n->flight += flight;
	if (s->acked < 0) {         /* never acknowledged: old or new data */
		if (mine && (int64_t)rseq == s->issued)
			n->flight_new++;
		else
			n->flight_old++;
		return;
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
		return;
	}
	if (flight && st == SW_TXN_CORRUPT && s->issued_off == s->off) {
		/* sector by sector the acknowledged or the issued transaction */
		sw_make_txn(buf[1], size, g->rid, (uint32_t)g->point, (uint32_t)w,
		            (uint64_t)s->acked, s->off);
		sw_make_txn(buf[2], size, g->rid, (uint32_t)g->point, (uint32_t)w,
		            (uint64_t)s->issued, s->issued_off);
		if (sw_torn_mix(buf[0], buf[1], buf[2], size)) {
			n->flight_torn++;
			return;
		}
	}
	n->flight -= flight;        /* a loss, whatever was in flight */
	if (st == SW_TXN_CORRUPT)
		n->corrupt++;
	else
		n->lost++;
	if (n->first_missing < 0 || s->acked < n->first_missing)
		n->first_missing = s->acked;
	if (n->lost + n->corrupt <= 10)
		printf("  %s: writer %d, transaction %" PRId64 " at offset %" PRIu64
		       " was acknowledged but is %s\n", fpath, w, s->acked, s->off,
		       st == SW_TXN_CORRUPT ? "corrupt" : st == SW_TXN_MISSING ? "missing"
		       : "an older transaction");
}

/* Slots (acknowledged or issued) of the point that hold any transaction of
 * the run, over every writer's file; stops at the first. */
static int
holds_run(const struct cklog *g, const char *path, unsigned char *buf)
{
	char fpath[PATH_MAX + 16];
	uint64_t rrid, rseq, roff, i;
	uint32_t rpoint, rwriter;
	int w, fd, found = 0;

	for (w = 0; w < g->writers && !found; w++) {
		if (strcmp(g->layout, "separate") == 0 && w > 0)
			snprintf(fpath, sizeof(fpath), "%s.%d", path, w);
		else
			snprintf(fpath, sizeof(fpath), "%s", path);
		if ((fd = open(fpath, O_RDONLY)) < 0)
			continue;
		for (i = 0; i < g->slots && !found; i++) {
			const struct ckslot *s = &g->tab[(uint64_t)w * g->slots + i];
			uint64_t at = s->acked >= 0 ? s->off : s->issued_off;

			if (s->acked < 0 && s->issued < 0)
				continue;
			found = pread(fd, buf, (size_t)g->size, (off_t)at) == (ssize_t)g->size &&
			        sw_read_txn(buf, (size_t)g->size, &rrid, &rpoint, &rwriter, &rseq,
			                    &roff) == SW_TXN_OK && rrid == g->rid;
		}
		close(fd);
	}
	return found;
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
}

/* Check writer w's slots in fpath and say what was found. */
static void
check_writer(const struct cklog *g, int w, const char *fpath, unsigned char *buf[3],
             struct cksum *total)
{
	struct cksum n;
	int fd;
	int64_t i;

	memset(&n, 0, sizeof(n));
	n.newest_ok = n.first_missing = -1;
	fd = open(fpath, O_RDONLY);
	if (fd < 0)
		diot_die(DIOT_EXIT_FAIL, "cannot open '%s': %s", fpath, dio_strerror(errno));
	for (i = 0; i < (int64_t)g->slots; i++) {
		const struct ckslot *s = &g->tab[(uint64_t)w * g->slots + (uint64_t)i];

		if (s->acked >= 0 || s->issued >= 0)
			check_slot(g, w, s, fd, buf, &n, fpath);
	}
	close(fd);
	if (n.acked > 0) {
		printf("  writer %d: %" PRIu64 " acknowledged slots; newest acknowledged "
		       "transaction found: ", w, n.acked);
		if (n.newest_ok >= 0)
			printf("%" PRId64, n.newest_ok);
		else
			printf("none");
		if (n.first_missing >= 0)
			printf("; first missing: %" PRId64 "\n", n.first_missing);
		else
			printf("; none missing\n");
	}
	add(total, &n);
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
	       PRIu64 "\n", n->acked, n->ok + n->newer, n->newer, n->flight_torn, n->lost,
	       n->corrupt);
	printf("in flight (issued, not acknowledged): %" PRIu64 ", holding the new "
	       "data %" PRIu64 ", the old %" PRIu64 ", torn %" PRIu64 " (none of these is "
	       "a loss)\n", n->flight, n->flight_new, n->flight_old, n->flight_torn);
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
	const char *target;
	struct cklog g;
	int w, i, same;

	read_log(&g, log);
	target = target_arg ? target_arg : g.path;
	same = check_target(&g, target);
	for (i = 0; i < (int)(g.slots * (uint64_t)g.writers) && g.tab[i].acked < 0; i++)
		;
	if (i == (int)(g.slots * (uint64_t)g.writers)) {
		printf("FAILED: the last point has no acknowledged transaction to check\n");
		free(g.tab);
		return DIOT_EXIT_FAIL;
	}
	for (i = 0; i < 3; i++)
		if ((buf[i] = malloc(g.size)) == NULL)
			diot_die(DIOT_EXIT_FAIL, "out of memory");
	/* Not one slot holds anything of the run: a wrong target, not a loss
	 * (unless the target is known to be the run's: then all was lost). */
	if (!same && !holds_run(&g, target, buf[0]))
		diot_die(DIOT_EXIT_USAGE, "--check: '%s' holds no transaction of run %llx "
		         "in any slot the log names: it is not that run's target (the log "
		         "names %s)%s", target, g.rid, g.path, g.has_id ? "" : "; the log "
		         "records no identity: if it is the target, everything was lost");
	memset(&n, 0, sizeof(n));
	printf("checking point %d (%s, %llu-byte transactions, %d writer%s) of run "
	       "%llx on %s%s\n", g.point, g.method, g.size, g.writers,
	       g.writers == 1 ? "" : "s", g.rid, target,
	       g.ended ? " (the run had ended cleanly)" : "");
	if (g.torn_tail)
		printf("  the log's last line was cut short (the crash): ignored\n");
	for (w = 0; w < g.writers; w++) {
		char fpath[PATH_MAX + 16];

		if (strcmp(g.layout, "separate") == 0 && w > 0)
			snprintf(fpath, sizeof(fpath), "%s.%d", target, w);
		else
			snprintf(fpath, sizeof(fpath), "%s", target);
		check_writer(&g, w, fpath, buf, &n);
	}
	for (i = 0; i < 3; i++)
		free(buf[i]);
	free(g.tab);
	return verdict(&n);
}
