/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ackrec.h -- sync-write's ack-log records, their one owner (ackrec.c):
 * the version line, a writer per record type, and the one parser that
 * both the listener's strict check (sw_ackrec_check(), handed to
 * tools/kit's listener as sw_ackrec_records) and --check (acklog.c) use.
 * A change to the format is a change to ackrec.c.
 *
 * The log, one record a line (what the writers here send, byte for byte):
 *
 *     # sync-write ack-log 1                       the version line
 *     R RUNID shared|separate 0|1 REGION PATH      the run (RUNID in hex)
 *     T file|device INODE DEVICE-BYTES [BIRTH]     the target's identity
 *     P POINT METHOD SIZE WRITERS SLOTS            a point begins
 *     I WRITER SEQUENCE OFFSET                     a transaction issued
 *     A WRITER SEQUENCE OFFSET                     ...and acknowledged
 *     E                                            the run ended in order
 *
 * Fields are separated by one space; numbers are decimal without sign or
 * leading zeros and fit 64 bits (POINT, WRITERS and WRITER an int); PATH
 * is the rest of the line, not empty; BIRTH is written by newer senders
 * only.  Whether records make sense together (a P before an A, a writer
 * below WRITERS, the offsets the layout gives) is --check's business
 * (acklog.c), not the parser's.
 */
#ifndef SW_ACKREC_H
#define SW_ACKREC_H

#include <stddef.h>
#include <stdint.h>

#include "tools/kit/ack.h"

#define SW_ACKREC_VERSION "# sync-write ack-log 1"

/*
 * The writers: one record each, sent on a (one write() to a file, never
 * interleaved with another writer's; to a listener, answered once its log
 * has it); nothing when a is off (DIOT_ACK_NONE).  Each returns 0 or a
 * -errno: a log that cannot be written must stop the run, or a later
 * --check would pass on records that were never kept.
 */
int sw_ackrec_version(struct diot_ack *a);
int sw_ackrec_run(struct diot_ack *a, uint64_t run_id, int separate, int extend,
                  uint64_t region, const char *path);
int sw_ackrec_target(struct diot_ack *a, int is_dev, uint64_t ino, uint64_t dev_bytes,
                     uint64_t birth);
int sw_ackrec_point(struct diot_ack *a, int point, const char *method, uint64_t size,
                    int writers, uint64_t slots);
int sw_ackrec_issued(struct diot_ack *a, int writer, uint64_t seq, uint64_t off);
int sw_ackrec_acked(struct diot_ack *a, int writer, uint64_t seq, uint64_t off);
int sw_ackrec_end(struct diot_ack *a);

/* One record as parsed: type says which fields hold. */
struct sw_ackrec {
	int type;               /* '#' (the version line), 'R', 'T', 'P',
	                         * 'I', 'A', 'E'; else the line's first byte */
	int as_written;         /* byte for byte what the writers above
	                         * write (see sw_ackrec_parse())            */
	/* R */
	uint64_t run_id, region;
	int separate, extend;
	const char *path;       /* into the line, path_len bytes           */
	size_t path_len;
	/* T */
	int is_dev;
	uint64_t ino, dev_bytes, birth;     /* birth 0: none given         */
	/* P */
	int point, writers;
	const char *method;     /* into the line, method_len bytes         */
	size_t method_len;
	uint64_t size, slots;
	/* I, A */
	int writer;
	uint64_t seq, off;
};

/*
 * Parse one line of len bytes, its newline not included.  1 when it is a
 * record of its type's syntax (fields in *rec), 0 when not (rec->type
 * still says which type it meant, from its first byte).  As --check has
 * always read logs, a record's first field may be longer than its letter
 * ("Ix 0 0 0"), a RUNID up to 20 hex digits of either case and a METHOD
 * any bytes but a space: rec->as_written is 0 for those, 1 when the line
 * is exactly as the writers write it (a one-letter first field, a RUNID
 * of 1 to 16 digits 0-9a-f, a METHOD of [a-zA-Z0-9_+.-]{1,63}).
 */
int sw_ackrec_parse(const char *line, size_t len, struct sw_ackrec *rec);

/*
 * The listener's strict check (diot_ack_records): is line (len bytes, its
 * '\n' last and nowhere else, no NUL, at most DIOT_ACK_LINE_MAX) a record
 * as the writers write it?  DIOT_ACK_REC_NO, DIOT_ACK_REC_YES,
 * DIOT_ACK_REC_RUN (the R record: its RUNID to *run, may be NULL) or
 * DIOT_ACK_REC_END (E).
 */
int sw_ackrec_check(const char *line, size_t len, uint64_t *run);

/* sync-write's records as the kit's listener takes them. */
extern const struct diot_ack_records sw_ackrec_records;

#endif /* SW_ACKREC_H */
