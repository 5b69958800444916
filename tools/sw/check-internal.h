/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check-internal.h -- what the files of --check share: the ack log as
 * read (acklog.c), the target and the slots the log names
 * (check-target.c), and one run checked against its target (check-run.c);
 * check.c picks the run and is the command.
 */
#ifndef SW_CHECK_INTERNAL_H
#define SW_CHECK_INTERNAL_H

#include <stdint.h>
#include <sys/types.h>

/* One writer's records in the last point of a run. */
struct ckwriter {
	int k;
	uint64_t first, issued;   /* its first and its last issued sequence */
	int seen;                 /* an I line of it: first and issued set  */
	int pending;              /* the last issued is not acknowledged    */
};


/* One run of the log, as far as its last point. */
struct ckrun {
	unsigned long line, last;     /* its header's line, its last line    */
	char *path;
	uint64_t rid, region;
	int separate, extend;
	int has_id, is_dev, has_birth;
	uint64_t ino, dev_bytes, birth;
	int point;                    /* the last point, -1 before any       */
	char method[32];
	uint64_t size, slots;
	int writers;
	struct ckwriter *w;           /* sorted by k                         */
	int nw, capw;
	int ended, state;
	int torn_tail;                /* 1 a last line cut short, 2 NULs     */
};

struct sw_acklog {
	const char *name;
	struct ckrun *run;
	int nrun, caprun;
	unsigned long lineno;
	char *err;
	size_t errlen;
};

/* A slot to check: its newest acknowledged transaction (-1: none) and
 * its newest issued one. */
struct ckslot {
	int64_t acked, issued;
	uint64_t off, issued_off;
};

/* The counts of the check, in all and for one writer. */
struct cksum {
	uint64_t ok, newer, lost, corrupt, acked;
	uint64_t flight, flight_old, flight_new, flight_torn;
	/* not verifiable, none a loss: a later run's transaction, a run's of
	 * no known order, no intact transaction where another run wrote */
	uint64_t later, unordered, gap;
	uint64_t later_rid, unordered_rid;
	int64_t newest_ok, first_missing;
};

/* What the named target is. */
struct cktarget {
	const char *path;
	int is_dev, has_birth;
	uint64_t ino, bytes, birth;
	dev_t dev;
};

/* acklog.c: the offset of writer k's transaction seq in run r. */
uint64_t sw_ck_txn_offset(const struct ckrun *r, int k, uint64_t seq);

/* check-target.c */
int sw_ck_open_part(const char *path, struct stat *st, char *why, size_t len);
int sw_ck_target_facts(const char *path, struct cktarget *t, char *why, size_t len);
void sw_ck_part_path(const struct ckrun *r, const char *target, int k, char *buf,
                     size_t len);
/* sw_ck_identity()'s answers */
enum { ID_NO, ID_MAYBE, ID_YES };
int sw_ck_identity(const struct ckrun *r, const struct cktarget *t, char *why,
                   size_t len);
int sw_ck_writer_slots(const struct ckrun *r, const struct ckwriter *w,
                       int (*fn)(const struct ckslot *s, void *arg), void *arg);
uint64_t sw_ck_acked_slots(const struct ckrun *r);
int sw_ck_rid_order(uint64_t mine, uint64_t other);
int sw_ck_over_slot(const struct ckslot *s, void *arg);
int sw_ck_scan_run(const struct ckrun *r, const char *target,
                   int (*fn)(const struct ckslot *s, void *arg));
int sw_ck_holds_run(const struct ckrun *r, const char *target);

/* check-run.c: run r checked against target (mine: the target is the
 * run's by its identity); the report and SW_CHECK_*. */
int sw_ck_check_run(const struct ckrun *r, const char *target, int mine);

#endif
