/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * counters.c -- dio-info --counters: the block-layer counters of the
 * disks under a path, now, as text or JSON (one object per disk).  The
 * library finds the disks and reads them (dio_disks_open(),
 * dio_disks_read()); the kit spells a disk (tools/kit/disks.h).  Where
 * the system cannot count, the report says n/a with the library's reason
 * and dio-info exits 1, as for a path it cannot examine.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/info/info.h"
#include "tools/kit/disks.h"
#include "tools/kit/json.h"
#include "tools/kit/msg.h"

/* A counter as text: the number, or "n/a" where the kernel gave none. */
static const char *
num(uint64_t v, int have, char *buf, size_t len)
{
	if (!have)
		return "n/a";
	snprintf(buf, len, "%" PRIu64, v);
	return buf;
}

static void
text_disk(const struct dio_disk *d, const struct dio_disk_counts *c)
{
	char a[24], b[24], e[24], g[24];
	int io = (c->have & DIO_COUNTS_IO) != 0, fl = (c->have & DIO_COUNTS_FLUSH) != 0;
	char *name = diot_quoted(d->name), *via = diot_quoted(d->via);

	printf("disk %s (%s), via %s\n", name, d->device[0] ? d->device : "no node found", via);
	printf("  cache %s (queue write_cache %s, device %s), FUA %s, rotational %s\n",
	       diot_disk_cache_word(d), dio_tri_name((int)d->write_cache),
	       dio_tri_name((int)d->device_cache), dio_tri_name((int)d->fua),
	       dio_tri_name((int)d->rotational));
	printf("  reads %s, sectors read %s\n", num(c->read_ios, io, a, sizeof(a)),
	       num(c->read_sectors, io, b, sizeof(b)));
	printf("  writes %s (merged %s), sectors written %s, write ms %s\n",
	       num(c->write_ios, io, a, sizeof(a)), num(c->write_merges, io, b, sizeof(b)),
	       num(c->write_sectors, io, e, sizeof(e)), num(c->write_ms, io, g, sizeof(g)));
	printf("  flushes %s, flush ms %s, in flight %s\n", num(c->flush_ios, fl, a, sizeof(a)),
	       num(c->flush_ms, fl, b, sizeof(b)), num(c->in_flight, io, e, sizeof(e)));
	if (c->note[0])
		printf("  note: %s\n", c->note);
	printf("  read at %" PRIu64 " ns (CLOCK_MONOTONIC)\n", c->at_ns);
	free(name);
	free(via);
}

static void
json_report(const char *path, dio_disks *h, const struct dio_disk_counts *c, unsigned n,
            const char *why)
{
	struct diot_json j;
	unsigned i;

	diot_json_init(&j, stdout, 2);
	diot_json_object(&j, NULL);
	diot_json_str(&j, "tool", PROG);
	diot_json_str(&j, "version", PACKAGE_VERSION);
	diot_json_str(&j, "backend", dio_backend_name());
	diot_json_str(&j, "path", path);
	diot_json_str(&j, "counted", h != NULL ? "yes" : "no");
	diot_json_str(&j, "why", h != NULL ? NULL : why);
	diot_json_array(&j, "disks");
	for (i = 0; i < n; i++) {
		diot_json_object(&j, NULL);
		diot_json_disk_id(&j, dio_disks_get(h, i));
		diot_json_disk_counts(&j, &c[i]);
		diot_json_close(&j);
	}
	diot_json_close(&j);
	diot_json_close(&j);
	if (diot_json_end(&j) == -EINVAL)
		diot_die(DIOT_EXIT_FAIL, "internal error: malformed JSON report");
}

/* dio-info --counters PATH: 0 reported, DIOT_EXIT_FAIL n/a (said). */
int
info_counters(const struct info_opts *o)
{
	struct dio_disk_counts *c = NULL;
	char why[300] = "";
	dio_disks *h = NULL;
	unsigned i, n = 0;
	int r;

	r = dio_disks_open(&h, o->path, why, sizeof(why));
	if (r == 0) {
		n = dio_disks_count(h);
		c = calloc(n, sizeof(*c));
		if (c == NULL)
			diot_die(DIOT_EXIT_FAIL, "out of memory");
		r = dio_disks_read(h, c, n);
		if (r < 0)
			diot_die(DIOT_EXIT_FAIL, "%s: reading the disks' counters: %s", o->path,
			         dio_strerror(r));
	} else if (why[0] == '\0') {
		snprintf(why, sizeof(why), "%s", dio_strerror(r));
	}
	if (o->format == FMT_JSON) {
		json_report(o->path, h, c, n, why);
	} else if (h != NULL) {
		char *p = diot_quoted(o->path);

		printf("block-layer counters of the disks under %s (since boot):\n", p);
		free(p);
		for (i = 0; i < n; i++)
			text_disk(dio_disks_get(h, i), &c[i]);
	}
	free(c);
	dio_disks_close(h);
	if (h == NULL && o->format != FMT_JSON)
		diot_warn("%s: block-layer counters n/a: %s", o->path, why);
	return h == NULL ? DIOT_EXIT_FAIL : 0;
}
