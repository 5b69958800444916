/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * text.c -- dio-info's report as text: a header, then one section each
 * for direct I/O, the device, the sg driver, SCSI pass-through and the
 * advice (wrapped at 78 columns).  Each fact is one line whatever a name
 * in it holds: names are shown by diot_quoted(), and every line goes out with
 * its control characters made visible (diot_visible()).
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/info/info.h"
#include "tools/kit/fmt.h"
#include "tools/kit/msg.h"

#define TEXT_BUF 1400           /* room for one value line */

static const char *
yes_no(int tri)
{
	return tri == DIO_TRI_YES ? "yes" : tri == DIO_TRI_NO ? "no" : "unknown";
}

/* One line of text with its control characters made visible. */
static void
put_line(FILE *fp, const char *text)
{
	char *v = diot_visible(text);

	fputs(v, fp);
	fputc('\n', fp);
	free(v);
}

static void
wrap(FILE *fp, const char *first, const char *indent, const char *raw)
{
	size_t col, ilen = strlen(indent), w;
	char *text = diot_visible(raw);
	const char *p = text, *e;
	int line_start = 1;

	fputs(first, fp);
	col = strlen(first);
	while (*p != '\0') {
		while (*p == ' ')
			p++;
		if (*p == '\0')
			break;
		e = p;
		while (*e != '\0' && *e != ' ')
			e++;
		w = (size_t)(e - p);
		if (!line_start && col + 1 + w > 78) {
			fprintf(fp, "\n%s", indent);
			col = ilen;
			line_start = 1;
		}
		if (!line_start) {
			fputc(' ', fp);
			col++;
		}
		fwrite(p, 1, w, fp);
		col += w;
		line_start = 0;
		p = e;
	}
	fputc('\n', fp);
	free(text);
}

static void
kv(const char *key, const char *fmt, ...) DIOT_PRINTF(2, 3);

static void
kv(const char *key, const char *fmt, ...)
{
	char head[64], *value;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || (value = malloc((size_t)n + 1)) == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	va_start(ap, fmt);
	vsnprintf(value, (size_t)n + 1, fmt, ap);
	va_end(ap);
	snprintf(head, sizeof(head), "  %-20s ", key);
	fputs(head, stdout);
	put_line(stdout, value);
	free(value);
}

/* A fact that is a name: kv() with diot_quoted(name), then suffix. */
static void
kv_name(const char *key, const char *name, const char *suffix)
{
	char *q = diot_quoted(name);

	kv(key, "%s%s", q, suffix);
	free(q);
}

static const char *
u32s(uint32_t v, char *buf, size_t len, const char *unit)
{
	if (v == 0)
		snprintf(buf, len, "unknown");
	else
		snprintf(buf, len, "%u%s", v, unit);
	return buf;
}

static const char *
bytes_str(uint64_t v, char *buf, size_t len)
{
	char iec[32];

	if (v == 0)
		snprintf(buf, len, "unknown");
	else
		snprintf(buf, len, "%llu bytes (%s)", (unsigned long long)v,
		         diot_fmt_iec(v, iec, sizeof(iec)));
	return buf;
}

static const char *
mech_str(const struct facts *f, char *buf, size_t len)
{
	const char *how = "";

	switch (f->probe) {
	case PROBE_OPEN:     how = "asked on a read-only open"; break;
	case PROBE_EXISTING: how = "asked on a read-only open of an existing file"; break;
	case PROBE_TEMP:     how = "asked on a temporary file"; break;
	}
	if (f->probe == PROBE_NONE && f->temp_err < 0)
		snprintf(buf, len, "unknown: not probed: --probe-write cannot create a "
		         "temporary file here (%s), and %s", dio_strerror(f->temp_err),
		         strncmp(f->direct_note, "not probed: ", 12) == 0 ?
		         f->direct_note + 12 : f->direct_note);
	else if (f->probe == PROBE_NONE && strncmp(f->direct_note, "not applicable", 14) == 0)
		snprintf(buf, len, "%s", f->direct_note);
	else if (f->probe == PROBE_NONE)
		snprintf(buf, len, "unknown: %s", f->direct_note);
	else if (f->probe_err < 0)
		snprintf(buf, len, "unknown: %s: %s", f->probe_opened ?
		         "asking for direct I/O failed" : "cannot open",
		         dio_strerror(f->probe_err));
	else if (f->mech != DIO_MECH_NONE)
		snprintf(buf, len, "yes, %s (%s)", dio_mech_name(f->mech), how);
	else
		snprintf(buf, len, "no (%s; %s)", how, f->direct_note[0] ? f->direct_note :
		         "refused");
	return buf;
}

/* The tool, the system, the path. */
static void
text_head(const struct facts *f)
{
	char b[TEXT_BUF], *q;

	printf("%s %s (libdirectio %s, backend %s)", PROG, PACKAGE_VERSION,
	       dio_version_string(), f->plat.backend);
	if (f->plat.have_uname)
		printf(", %s %s", f->plat.un.sysname, f->plat.un.release);
	printf("\n");
	q = diot_quoted(f->path);
	printf("%s: %s\n", q, f->type);
	free(q);
	if (f->is_reg || f->is_dir)
		kv("file system", "%s", f->fs_type[0] ? f->fs_type : "unknown");
	if (f->di.sync_disabled == DIO_TRI_YES)
		kv("commits", "NOT durable: the ZFS %s has sync=disabled",
		   f->is_dev ? "volume" : "dataset");
	else if (f->di.sync_always == DIO_TRI_YES)
		kv("commits", "every write is one: the ZFS %s has sync=always",
		   f->is_dev ? "volume" : "dataset");
	else if (f->di.sync_disabled == DIO_TRI_NO)
		kv("commits", "durable (ZFS sync=standard%s)",
		   f->di.sync_always == DIO_TRI_NO ? "" : " or always");
	if (f->di.direct_stable != DIO_TRI_UNKNOWN)
		kv("direct writes", "%s", f->di.direct_stable == DIO_TRI_YES ?
		   "stable: the server commits each before answering (while the file "
		   "has no cached page)" : "not stable: a commit is needed");
	if (f->is_reg)
		kv("file size", "%s", bytes_str((uint64_t)f->st.st_size, b, sizeof(b)));
}

/* Direct I/O: whether, how it was asked, the alignment, large pages. */
static void
text_direct(const struct facts *f)
{
	size_t large_page = dio_large_page_size();
	char b[TEXT_BUF];
	unsigned bit;

	printf("\nDirect I/O\n");
	kv("supported", "%s", mech_str(f, b, sizeof(b)));
	if (f->probe == PROBE_EXISTING || f->probe == PROBE_TEMP)
		kv_name("probe file", f->probe_file, f->probe == PROBE_TEMP ?
		        " (created, written, read and removed)" :
		        " (in the directory, opened read-only)");
	if (f->write_probe >= 0 || f->temp_err < 0)
		kv("write probe", "%s", f->write_detail);
	if (f->have_al) {
		kv("memory alignment", "%s", u32s(f->al.mem_align, b, sizeof(b), " bytes"));
		kv("offset alignment", "%s", u32s(f->al.offset_align, b, sizeof(b), " bytes"));
		kv("read offset align", "%s", u32s(f->al.read_offset_align, b, sizeof(b),
		   " bytes"));
		kv("logical block", "%s", u32s(f->al.logical_block, b, sizeof(b), " bytes"));
		kv("physical block", "%s", u32s(f->al.physical_block, b, sizeof(b), " bytes"));
		kv("preferred I/O size", "%s", u32s(f->al.preferred_io, b, sizeof(b), " bytes"));
		kv("figures from", "%s", dio_align_source_name((int)f->al.source));
		for (bit = 1; bit != 0 && bit <= f->al.direct_limits; bit <<= 1)
			if ((f->al.direct_limits & bit) && dio_direct_limit_text(bit))
				kv("buffered anyway", "%s", dio_direct_limit_text(bit));
	} else {
		kv("alignment", "unknown");
	}
	if (large_page != 0) {
		char small[32];

		kv("large pages", "%s (dio_alloc_large; direct transfers pin one page "
		   "per %s, not per %s)", diot_fmt_iec(large_page, b, sizeof(b)), b,
		   diot_fmt_iec((uint64_t)f->plat.page_size, small, sizeof(small)));
	} else {
		kv("large pages", "none for I/O buffers (backend %s)", f->plat.backend);
	}
}

/* The schedulers on offer, the one in use in brackets. */
static const char *
sched_str(const struct dio_devinfo *d, char *b, size_t len)
{
	const char *p = d->schedulers, *e;
	size_t k = 0;
	int j;

	while (*p != '\0' && k + 40 < len) {
		e = strchr(p, ' ');
		j = e ? (int)(e - p) : (int)strlen(p);
		if ((size_t)j == strlen(d->scheduler) &&
		    strncmp(p, d->scheduler, (size_t)j) == 0)
			k += (size_t)snprintf(b + k, len - k, "%s[%.*s]", k ? " " : "", j, p);
		else
			k += (size_t)snprintf(b + k, len - k, "%s%.*s", k ? " " : "", j, p);
		p += j;
		while (*p == ' ')
			p++;
	}
	return b;
}

/* A device's queue limits and settings and its identity. */
static void
text_queue(const struct facts *f)
{
	const struct dio_devinfo *d = &f->di;
	char b[TEXT_BUF];

	kv_name("block device", d->device[0] ? d->device : "none", "");
	if (d->disk[0] && strcmp(d->disk, d->device) != 0)
		kv_name("whole disk", d->disk, "");
	if (d->name[0])
		kv_name("name", d->name, "");
	if (f->in_use < 0 && f->in_use_why[0] != '\0')
		kv("in use", "cannot tell: %s", f->in_use_why);
	else
		kv("in use", "%s", f->in_use == 1 ? f->in_use_why :
		   f->in_use == 0 ? "no" : "unknown");
	kv("size", "%s", bytes_str(d->size_bytes ? d->size_bytes :
	   f->al.device_bytes, b, sizeof(b)));
	kv(f->plat.on_linux ? "max_sectors_kb" : "max transfer", "%s",
	   u32s(d->max_sectors_kb, b, sizeof(b), d->max_sectors_kb ?
	        " KiB (largest request now; larger I/O is split)" : ""));
	kv(f->plat.on_linux ? "max_hw_sectors_kb" : "max hw transfer", "%s",
	   u32s(d->max_hw_sectors_kb, b, sizeof(b), " KiB (driver limit)"));
	kv("max_segments", "%s", u32s(d->max_segments, b, sizeof(b), ""));
	if (d->known & DIO_DEVINFO_K_READ_AHEAD)
		kv("read_ahead_kb", "%u KiB", d->read_ahead_kb);
	else
		kv("read_ahead_kb", "unknown");
	kv("scheduler", "%s", d->schedulers[0] ? sched_str(d, b, sizeof(b)) : "unknown");
	kv("nr_requests", "%s", u32s(d->nr_requests, b, sizeof(b), ""));
	kv("rotational", "%s", yes_no((int)d->rotational));
	kv("write_cache", "%s", d->write_cache == DIO_TRI_YES ? "write back (cache on)" :
	   d->write_cache == DIO_TRI_NO ? "write through (no volatile cache)" : "unknown");
	kv("fua", "%s", yes_no((int)d->fua));
	kv("dma_alignment", "%s", u32s(d->dma_align, b, sizeof(b), " bytes"));
	kv("optimal_io_size", "%s", d->optimal_io ? u32s(d->optimal_io, b, sizeof(b),
	   " bytes") : d->settings_dir[0] ? "0 (none reported)" : "unknown");
	kv("minimum_io_size", "%s", u32s(d->min_io, b, sizeof(b), " bytes"));
	kv("logical block", "%s", u32s(d->logical_block, b, sizeof(b), " bytes"));
	kv("physical block", "%s", u32s(d->physical_block, b, sizeof(b), " bytes"));
	kv("read-only", "%s", yes_no((int)d->read_only));
	kv("removable", "%s", yes_no((int)d->removable));
	if (d->controller[0])
		kv("controller", "%s", d->controller);
	if (d->media_type)
		kv("media type", "0x%x", d->media_type);
	if (d->scsi_addr[0])
		kv("SCSI address", "%s", d->scsi_addr);
	if (d->wwid[0])
		kv("wwid", "%s", d->wwid);
	kv("udev ID_SERIAL", "%s", d->id_serial[0] ? d->id_serial : "unknown");
	if (d->loop_backing[0])
		kv_name("loop backing file", d->loop_backing, d->loop_direct == DIO_TRI_YES ?
		        " (direct I/O to it: yes)" : d->loop_direct == DIO_TRI_NO ?
		        " (direct I/O to it: no)" : " (direct I/O to it: unknown)");
	kv_name("settings in", d->settings_dir[0] ? d->settings_dir : "unknown", "");
}

/* The device underneath: what it is, then its queue and identity. */
static void
text_device(const struct facts *f)
{
	const struct dio_devinfo *d = &f->di;

	printf("\nDevice\n");
	if (f->di_err == -ENOTSUP) {
		kv("facts", "unknown: this build (backend %s) cannot read device facts",
		   f->plat.backend);
	} else if (f->di_err < 0) {
		kv("facts", "cannot be read: %s", dio_strerror(f->di_err));
	} else if (d->device[0] == '\0' && d->kind != DIO_DEVINFO_SG) {
		kv("block device", "none (%s)", f->is_dev ? "not a block device" :
		   "the file system has no block device of its own");
	}
	if (d->device[0] != '\0' || d->kind == DIO_DEVINFO_SG)
		text_queue(f);
}

/* The sg driver. */
static void
text_sg(const struct facts *f)
{
	const struct dio_devinfo *d = &f->di;

	printf("\nSCSI generic (sg) driver\n");
	kv("driver", "%s", d->sg_driver == DIO_TRI_YES ? (d->sg_module == DIO_TRI_YES ?
	   "loaded (module)" : d->sg_module == DIO_TRI_NO ? "built into the kernel" :
	   "present") : d->sg_driver == DIO_TRI_NO ? "not loaded" : "unknown");
	kv("allow_dio", "%s%s%s%s", d->allow_dio == DIO_TRI_YES ? "1 (direct I/O allowed)" :
	   d->allow_dio == DIO_TRI_NO ? "0 (direct I/O requests done indirectly)" :
	   "unknown", d->allow_dio_path[0] ? " (" : "", d->allow_dio_path,
	   d->allow_dio_path[0] ? ")" : "");
	if (d->sg_version)
		kv("version", "%u.%u.%u (%u)", d->sg_version / 10000,
		   d->sg_version / 100 % 100, d->sg_version % 100, d->sg_version);
	else
		kv("version", "unknown");
	kv_name("sg node", d->sg_device[0] ? d->sg_device : "none", "");
}

/* What the device said through pass-through. */
static void
text_scsi(const struct facts *f)
{
	char b[TEXT_BUF];

	printf("\nSCSI pass-through\n");
	if (f->scsi_dev[0] == '\0') {
		kv("device", "none%s", f->scsi_why[0] ? "" : " (nothing to ask)");
	} else {
		kv_name("device", f->scsi_dev, "");
	}
	if (!f->scsi_ok && f->scsi_why[0])
		kv("available", "no: %s", f->scsi_why);
	if (f->scsi_ok) {
		if (f->have_inq) {
			kv("vendor", "%s", f->inq.vendor);
			kv("product", "%s", f->inq.product);
			kv("revision", "%s", f->inq.revision);
			kv("peripheral type", "%u (%s)", f->inq.peripheral_type,
			   info_peripheral_name(f->inq.peripheral_type));
		} else {
			kv("INQUIRY", "%s", f->scsi_why);
		}
		kv("unit serial number", "%s", f->have_serial ? f->serial :
		   "not offered (no VPD page 80h)");
		if (f->have_cap)
			kv("capacity", "%llu blocks of %u bytes = %s",
			   (unsigned long long)f->blocks, f->block_len,
			   bytes_str(f->blocks * f->block_len, b, sizeof(b)));
		else
			kv("capacity", "unknown (READ CAPACITY failed)");
		if (f->have_cache) {
			kv("WCE", "%d (write cache %s)", f->wce, f->wce ? "enabled" : "disabled");
			kv("RCD", "%d (read cache %s)", f->rcd, f->rcd ? "disabled" : "enabled");
		} else {
			kv("caching page", "unknown: %s", f->cache_why);
		}
	}
}

/* Where a written block is durable: the volatile cache in between. */
static void
text_durability(const struct facts *f)
{
	char why[128];
	int v = info_volatile_cache(f, why, sizeof(why));

	if (!f->is_dev && f->di.kind == DIO_DEVINFO_NONE)
		return;
	printf("\nDurability\n");
	kv("volatile cache", "%s%s%s%s", v == DIO_TRI_YES ? "yes: a write is durable "
	   "only after a flush or FUA (fsync, fdatasync, O_DSYNC, O_SYNC)" :
	   v == DIO_TRI_NO ? "no: a completed write is on the medium" : "unknown",
	   why[0] ? " (" : "", why, why[0] ? ")" : "");
	if (f->di.commit_flush == DIO_TRI_YES)
		kv("flush on commit", "%s", strcmp(f->plat.backend, "sunos") == 0 &&
		   f->is_dev ? "yes: libdirectio sends DKIOCFLUSHWRITECACHE after each "
		   "commit (the kernel does not on a device node)" :
		   "yes: each commit makes the device flush its cache");
	else if (f->di.commit_flush == DIO_TRI_NO && f->di.sync_disabled == DIO_TRI_YES)
		kv("flush on commit", "no: sync=disabled, commits do nothing");
	else if (f->di.commit_flush == DIO_TRI_NO)
		kv("flush on commit", "no: nothing sends a cache flush (%s); with a "
		   "volatile cache, commits are not durable across a power loss",
		   f->fs_type[0] ? f->fs_type : "this file system");
	if (f->flush_counts == DIO_TRI_YES)
		kv("flush counts", "available (dio-info --counters shows them)");
	else if (f->flush_counts == DIO_TRI_NO)
		kv("flush counts", "n/a: %s", f->flush_why);
}

/* The advice, each with its actions. */
static void
text_advice(const struct advice_list *l)
{
	char b[TEXT_BUF], c[64];
	int i, j;

	printf("\nAdvice\n");
	if (l->n == 0)
		printf("  none: nothing above calls for a change\n");
	for (i = 0; i < l->n; i++) {
		snprintf(c, sizeof(c), "  * %s: ", l->a[i].id);
		wrap(stdout, c, "      ", l->a[i].text);
		for (j = 0; j < l->a[i].nact; j++) {
			const struct action *x = &l->a[i].act[j];

			if (x->file[0]) {
				snprintf(b, sizeof(b), "      %-11s in %s:", x->kind, x->file);
				put_line(stdout, b);
				fputs("        ", stdout);
				put_line(stdout, x->text);
			} else if (strcmp(x->kind, "note") == 0 || strcmp(x->kind, "option") == 0) {
				snprintf(b, sizeof(b), "      %-11s ", x->kind);
				wrap(stdout, b, "                  ", x->text);
			} else {
				printf("      %-11s ", x->kind);
				put_line(stdout, x->text);
			}
		}
	}
}

void
info_text(const struct facts *f, const struct advice_list *l)
{
	text_head(f);
	text_direct(f);
	text_device(f);
	text_sg(f);
	text_scsi(f);
	text_durability(f);
	text_advice(l);
}
