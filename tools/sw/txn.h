/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * txn.h -- sync-write's transaction format: a 64-byte header (magic
 * "SYNCWRT1", run id, point and writer, sequence, offset, size, FNV-1a
 * checksum of the whole transaction) and a payload derived from them, so
 * that any transaction can be rebuilt from the ack log and checked when
 * read back.  Little-endian fields at fixed offsets.
 */
#ifndef SW_TXN_H
#define SW_TXN_H

#include <stddef.h>
#include <stdint.h>

#define SW_HDR_SIZE 64

enum sw_txn_state { SW_TXN_OK, SW_TXN_MISSING, SW_TXN_CORRUPT };

uint64_t sw_fnv1a(uint64_t h, const void *p, size_t n);
void sw_put64(unsigned char *p, uint64_t v);
uint64_t sw_get64(const unsigned char *p);

/* Fill one transaction of size bytes (below SW_HDR_SIZE: a pattern only). */
void sw_make_txn(unsigned char *buf, size_t size, uint64_t run_id, uint32_t point,
                 uint32_t writer, uint64_t seq, uint64_t off);

/* Decode a transaction read back (buf is restored as it was): SW_TXN_OK and
 * the fields, SW_TXN_MISSING (all zeros, or no magic and all zeros) or
 * SW_TXN_CORRUPT (magic but a bad checksum or size, or no magic and not
 * zeros).  size must be at least SW_HDR_SIZE. */
int sw_read_txn(unsigned char *buf, size_t size, uint64_t *rid, uint32_t *point,
                uint32_t *writer, uint64_t *seq, uint64_t *off);

/* Where transaction j of writer k goes: the one rule of the layouts, for
 * the writers and --check.  separate: each writer a file of its own;
 * extend: appended (writers interleave in one file), else overwritten in
 * slots of the writer's region. */
uint64_t sw_layout_offset(int separate, int extend, uint64_t region, uint64_t slots,
                          int writers, uint64_t size, int k, uint64_t j);

/* Is buf, 512-byte sector by sector, a mix of transactions a and b? */
int sw_torn_mix(const unsigned char *buf, const unsigned char *a,
                const unsigned char *b, size_t size);

#endif
