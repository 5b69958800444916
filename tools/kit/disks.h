/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * disks.h -- the disks under a path as the tools show them
 * (tools/kit/disks.c): a disk's identity (dio_disk: its name, node, the
 * way the path leads to it, its cache) and its block-layer counters
 * (dio_disk_counts) in the tools' JSON, and the words their text uses.
 * Counting itself is the library's (dio_disks_open() and the rest); what
 * a tool counts over (a copy, a point) is the tool's.
 */
#ifndef DIOT_DISKS_H
#define DIOT_DISKS_H

#include "libdirectio.h"
#include "tools/kit/json.h"

/* The cache the kernel sends flushes to, as a short word for a table:
 * "write back", "write through" or "unknown"; "hidden" when the kernel
 * says write through while the device reports a volatile cache. */
const char *diot_disk_cache_word(const struct dio_disk *d);

/* Members of the object open in j: name, device (null when unknown), via,
 * write_cache, device_cache, fua (dio_tri_name()). */
void diot_json_disk_id(struct diot_json *j, const struct dio_disk *d);

/* Members of the object open in j: c's counters as the kernel gave them
 * (have, err, at_ns, the read, write and flush counts, in_flight; a
 * counter c->have lacks is null) and note (null when ""). */
void diot_json_disk_counts(struct diot_json *j, const struct dio_disk_counts *c);

#endif
