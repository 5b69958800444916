/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * report-json.c -- dio-info's report as JSON (man/dio-info.1, JSON
 * OUTPUT), written with the tools' streaming writer (tools/kit/json.h):
 * top-level facts, then one object each for direct_io, alignment,
 * device, sg and scsi, then the advice array.  An unknown fact is null.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tools/info/info.h"
#include "tools/kit/json.h"
#include "tools/kit/msg.h"

/* A string; NULL or "" (unknown) as null. */
static void
jstr(struct diot_json *j, const char *k, const char *v)
{
	if (v == NULL || *v == '\0')
		diot_json_null(j, k);
	else
		diot_json_str(j, k, v);
}

/* A number when known, else null. */
static void
jnum(struct diot_json *j, const char *k, uint64_t v, int known)
{
	if (known)
		diot_json_u64(j, k, v);
	else
		diot_json_null(j, k);
}

/* A dio_tri as true, false or null. */
static void
jtri(struct diot_json *j, const char *k, int tri)
{
	if (tri == DIO_TRI_YES || tri == DIO_TRI_NO)
		diot_json_bool(j, k, tri == DIO_TRI_YES);
	else
		diot_json_null(j, k);
}

/* A flag that is only known when known is not 0. */
static void
jflag(struct diot_json *j, const char *k, int v, int known)
{
	if (known)
		diot_json_bool(j, k, v);
	else
		diot_json_null(j, k);
}

/* The tool, the system, the path. */
static void
json_head(struct diot_json *j, const struct facts *f)
{
	char b[512];

	diot_json_str(j, "tool", PROG);
	diot_json_str(j, "version", PACKAGE_VERSION);
	diot_json_str(j, "library", dio_version_string());
	diot_json_str(j, "backend", f->plat.backend);
	if (f->plat.have_uname) {
		snprintf(b, sizeof(b), "%s %s", f->plat.un.sysname, f->plat.un.release);
		diot_json_str(j, "os", b);
	} else {
		diot_json_null(j, "os");
	}
	diot_json_str(j, "path", f->path);
	diot_json_str(j, "type", f->type);
	jnum(j, "file_size", (uint64_t)f->st.st_size, f->is_reg);
	jstr(j, "fs_type", f->fs_type);
}

static void
json_direct(struct diot_json *j, const struct facts *f)
{
	int supported = f->probe != PROBE_NONE && f->probe_err == 0;

	diot_json_object(j, "direct_io");
	jflag(j, "supported", f->mech != DIO_MECH_NONE, supported);
	jstr(j, "mechanism", supported ? dio_mech_name(f->mech) : NULL);
	jstr(j, "probe", f->probe == PROBE_OPEN ? "read-only open" :
	     f->probe == PROBE_EXISTING ? "existing file" :
	     f->probe == PROBE_TEMP ? "temporary file" : "none");
	jstr(j, "probe_file", f->probe == PROBE_EXISTING || f->probe == PROBE_TEMP ?
	     f->probe_file : NULL);
	jflag(j, "write_probe", f->write_probe > 0, f->write_probe >= 0);
	jstr(j, "write_probe_detail", f->write_probe >= 0 || f->temp_err < 0 ?
	     f->write_detail : NULL);
	jstr(j, "detail", f->probe_err < 0 ? dio_strerror(f->probe_err) : f->direct_note);
	/* A file system that accepts the advice and ignores it (illumos ZFS),
	 * and the requests it serves buffered anyway (UFS, NFS). */
	jtri(j, "ignored_by_fs", (int)f->di.direct_ignored);
	/* A direct write the server commits before answering (illumos NFS). */
	jtri(j, "stable_writes", (int)f->di.direct_stable);
	if (f->have_al && f->al.direct_limits != 0) {
		unsigned bit;

		diot_json_array(j, "limits");
		for (bit = 1; bit != 0 && bit <= f->al.direct_limits; bit <<= 1)
			if ((f->al.direct_limits & bit) && dio_direct_limit_text(bit))
				diot_json_str(j, NULL, dio_direct_limit_text(bit));
		diot_json_close(j);
	} else {
		diot_json_null(j, "limits");
	}
	diot_json_close(j);
}

static void
json_alignment(struct diot_json *j, const struct facts *f)
{
	size_t large_page = dio_large_page_size();
	const struct dio_align *al = &f->al;

	diot_json_object(j, "alignment");
	jnum(j, "mem_align", al->mem_align, f->have_al && al->mem_align);
	jnum(j, "offset_align", al->offset_align, f->have_al && al->offset_align);
	jnum(j, "read_offset_align", al->read_offset_align,
	     f->have_al && al->read_offset_align);
	jnum(j, "logical_block", al->logical_block, f->have_al && al->logical_block);
	jnum(j, "physical_block", al->physical_block, f->have_al && al->physical_block);
	jnum(j, "preferred_io", al->preferred_io, f->have_al && al->preferred_io);
	jstr(j, "source", f->have_al ? dio_align_source_name((int)al->source) : NULL);
	jnum(j, "large_page_bytes", large_page, large_page != 0);
	diot_json_close(j);
}

/* The space-separated scheduler names as an array, or null. */
static void
json_schedulers(struct diot_json *j, const char *list)
{
	char b[512];
	const char *p, *e;
	int n;

	if (list[0] == '\0') {
		diot_json_null(j, "schedulers");
		return;
	}
	diot_json_array(j, "schedulers");
	for (p = list; *p != '\0'; ) {
		e = strchr(p, ' ');
		n = e ? (int)(e - p) : (int)strlen(p);
		snprintf(b, sizeof(b), "%.*s", n, p);
		diot_json_str(j, NULL, b);
		p += n;
		while (*p == ' ')
			p++;
	}
	diot_json_close(j);
}

static void
json_device(struct diot_json *j, const struct facts *f)
{
	const struct dio_devinfo *d = &f->di;

	diot_json_object(j, "device");
	jstr(j, "error", f->di_err < 0 ? dio_strerror(f->di_err) : NULL);
	jstr(j, "kind", f->di_err == 0 || f->di_err == -ENOTSUP ?
	     dio_devinfo_kind_name((int)d->kind) : NULL);
	jstr(j, "path", d->device);
	jstr(j, "disk", d->disk);
	jstr(j, "name", d->name);
	jstr(j, "settings_dir", d->settings_dir);
	jnum(j, "size_bytes", d->size_bytes ? d->size_bytes : f->al.device_bytes,
	     d->size_bytes || f->al.device_bytes);
	jflag(j, "in_use", f->in_use == 1, f->in_use == 0 || f->in_use == 1);
	/* why it is in use, or why that cannot be told */
	jstr(j, "in_use_reason", f->in_use != 0 ? f->in_use_why : NULL);
	jnum(j, "max_sectors_kb", d->max_sectors_kb, d->max_sectors_kb);
	jnum(j, "max_hw_sectors_kb", d->max_hw_sectors_kb, d->max_hw_sectors_kb);
	jnum(j, "max_segments", d->max_segments, d->max_segments);
	jnum(j, "read_ahead_kb", d->read_ahead_kb, d->known & DIO_DEVINFO_K_READ_AHEAD);
	jstr(j, "scheduler", d->scheduler);
	json_schedulers(j, d->schedulers);
	jnum(j, "nr_requests", d->nr_requests, d->nr_requests);
	jtri(j, "rotational", (int)d->rotational);
	jtri(j, "write_cache", (int)d->write_cache);
	jtri(j, "fs_sync_disabled", (int)d->sync_disabled);
	jtri(j, "sync_always", (int)d->sync_always);
	jtri(j, "fua", (int)d->fua);
	jnum(j, "dma_align_bytes", d->dma_align, d->dma_align);
	jnum(j, "optimal_io_size", d->optimal_io, d->optimal_io || d->settings_dir[0]);
	jnum(j, "minimum_io_size", d->min_io, d->min_io);
	jnum(j, "logical_block_size", d->logical_block, d->logical_block);
	jnum(j, "physical_block_size", d->physical_block, d->physical_block);
	jtri(j, "read_only", (int)d->read_only);
	jtri(j, "removable", (int)d->removable);
	jstr(j, "scsi_address", d->scsi_addr);
	jstr(j, "wwid", d->wwid);
	jstr(j, "id_serial", d->id_serial);
	jstr(j, "loop_backing_file", d->loop_backing);
	jtri(j, "loop_direct_io", (int)d->loop_direct);
	jstr(j, "controller", d->controller);
	jnum(j, "media_type", d->media_type, d->media_type);
	diot_json_close(j);
}

static void
json_sg(struct diot_json *j, const struct facts *f)
{
	const struct dio_devinfo *d = &f->di;
	char b[64];

	diot_json_object(j, "sg");
	jtri(j, "driver", (int)d->sg_driver);
	jtri(j, "module", (int)d->sg_module);
	jtri(j, "allow_dio", (int)d->allow_dio);
	jstr(j, "allow_dio_path", d->allow_dio_path);
	jnum(j, "version", d->sg_version, d->sg_version);
	if (d->sg_version) {
		snprintf(b, sizeof(b), "%u.%u.%u", d->sg_version / 10000,
		         d->sg_version / 100 % 100, d->sg_version % 100);
		jstr(j, "version_string", b);
	} else {
		jstr(j, "version_string", NULL);
	}
	jstr(j, "node", d->sg_device);
	diot_json_close(j);
}

static void
json_scsi(struct diot_json *j, const struct facts *f)
{
	diot_json_object(j, "scsi");
	jstr(j, "device", f->scsi_dev);
	diot_json_bool(j, "available", f->scsi_ok);
	jstr(j, "error", f->scsi_why);
	jstr(j, "vendor", f->have_inq ? f->inq.vendor : NULL);
	jstr(j, "product", f->have_inq ? f->inq.product : NULL);
	jstr(j, "revision", f->have_inq ? f->inq.revision : NULL);
	jnum(j, "peripheral_type", f->inq.peripheral_type, f->have_inq);
	jstr(j, "peripheral_type_name", f->have_inq ?
	     info_peripheral_name(f->inq.peripheral_type) : NULL);
	jstr(j, "serial", f->have_serial ? f->serial : NULL);
	jnum(j, "blocks", f->blocks, f->have_cap);
	jnum(j, "block_length", f->block_len, f->have_cap);
	jnum(j, "capacity_bytes", f->blocks * f->block_len, f->have_cap);
	jflag(j, "wce", f->wce, f->have_cache);
	jflag(j, "rcd", f->rcd, f->have_cache);
	jstr(j, "cache_error", f->scsi_ok && !f->have_cache ? f->cache_why : NULL);
	diot_json_close(j);
}

static void
json_advice(struct diot_json *j, const struct advice_list *l)
{
	int i, k;

	diot_json_array(j, "advice");
	for (i = 0; i < l->n; i++) {
		diot_json_object(j, NULL);
		diot_json_str(j, "id", l->a[i].id);
		diot_json_str(j, "text", l->a[i].text);
		diot_json_array(j, "actions");
		for (k = 0; k < l->a[i].nact; k++) {
			const struct action *x = &l->a[i].act[k];

			diot_json_object(j, NULL);
			diot_json_str(j, "kind", x->kind);
			jstr(j, "file", x->file);
			diot_json_str(j, "text", x->text);
			diot_json_close(j);
		}
		diot_json_close(j);
		diot_json_close(j);
	}
	diot_json_close(j);
}

/* The volatile cache between a write and the medium, and who said so. */
static void
json_durability(struct diot_json *j, const struct facts *f)
{
	char why[128];
	int v = info_volatile_cache(f, why, sizeof(why));

	diot_json_object(j, "durability");
	jtri(j, "volatile_write_cache", v);
	jstr(j, "evidence", why[0] ? why : NULL);
	jtri(j, "commit_flush", (int)f->di.commit_flush);
	jtri(j, "flush_counts", f->flush_counts);
	jstr(j, "flush_counts_why", f->flush_counts == DIO_TRI_NO ? f->flush_why : NULL);
	diot_json_close(j);
}

void
info_json(const struct facts *f, const struct advice_list *l)
{
	struct diot_json j;

	diot_json_init(&j, stdout, 2);
	diot_json_object(&j, NULL);
	json_head(&j, f);
	json_direct(&j, f);
	json_alignment(&j, f);
	json_device(&j, f);
	json_sg(&j, f);
	json_scsi(&j, f);
	json_durability(&j, f);
	json_advice(&j, l);
	if (diot_json_end(&j) == -EINVAL)
		diot_die(DIOT_EXIT_FAIL, "internal error: malformed JSON report");
}
