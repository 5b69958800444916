/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * disks.c -- the disks under a path in the tools' JSON and text: one
 * spelling of a disk and of its counters for every tool that shows them
 * (dio-info --counters, dio-dd's per-operand counts).
 */
#include "config.h"

#include "tools/kit/disks.h"

const char *
diot_disk_cache_word(const struct dio_disk *d)
{
	if (d->write_cache == DIO_TRI_NO && d->device_cache == DIO_TRI_YES)
		return "hidden";
	return d->write_cache == DIO_TRI_YES ? "write back" :
	       d->write_cache == DIO_TRI_NO ? "write through" : "unknown";
}

void
diot_json_disk_id(struct diot_json *j, const struct dio_disk *d)
{
	diot_json_str(j, "name", d->name);
	diot_json_str(j, "device", d->device[0] ? d->device : NULL);
	diot_json_str(j, "via", d->via);
	diot_json_str(j, "write_cache", dio_tri_name((int)d->write_cache));
	diot_json_str(j, "device_cache", dio_tri_name((int)d->device_cache));
	diot_json_str(j, "fua", dio_tri_name((int)d->fua));
}

/* A counter the kernel gave (have & bit), else null. */
static void
counter(struct diot_json *j, const char *key, uint64_t v, const struct dio_disk_counts *c,
        uint32_t bit)
{
	if (c->have & bit)
		diot_json_u64(j, key, v);
	else
		diot_json_null(j, key);
}

void
diot_json_disk_counts(struct diot_json *j, const struct dio_disk_counts *c)
{
	diot_json_array(j, "have");
	if (c->have & DIO_COUNTS_IO)
		diot_json_str(j, NULL, "io");
	if (c->have & DIO_COUNTS_FLUSH)
		diot_json_str(j, NULL, "flush");
	diot_json_close(j);
	diot_json_i64(j, "err", c->err);
	diot_json_u64(j, "at_ns", c->at_ns);
	counter(j, "read_ios", c->read_ios, c, DIO_COUNTS_IO);
	counter(j, "read_sectors", c->read_sectors, c, DIO_COUNTS_IO);
	counter(j, "write_ios", c->write_ios, c, DIO_COUNTS_IO);
	counter(j, "write_merges", c->write_merges, c, DIO_COUNTS_IO);
	counter(j, "write_sectors", c->write_sectors, c, DIO_COUNTS_IO);
	counter(j, "write_ms", c->write_ms, c, DIO_COUNTS_IO);
	counter(j, "flush_ios", c->flush_ios, c, DIO_COUNTS_FLUSH);
	counter(j, "flush_ms", c->flush_ms, c, DIO_COUNTS_FLUSH);
	counter(j, "in_flight", c->in_flight, c, DIO_COUNTS_IO);
	diot_json_str(j, "note", c->note[0] ? c->note : NULL);
}
