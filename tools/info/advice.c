/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * advice.c -- advice derived from dio-info's facts: one rule per fact,
 * each a pure function of struct facts (the platform included), so that
 * tests/check_info.c can build facts by hand and see which advice comes
 * out.  An advice has an id, a text and up to MAX_ACTIONS actions: what to
 * run now, what to put in a file to make it persistent, notes.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tools/info/info.h"
#include "tools/kit/fmt.h"
#include "tools/kit/msg.h"

static struct advice *
advise(struct advice_list *l, const char *id, const char *fmt, ...) DIOT_PRINTF(3, 4);

static struct advice *
advise(struct advice_list *l, const char *id, const char *fmt, ...)
{
	struct advice *a;
	va_list ap;

	if (l->n == MAX_ADVICE)
		diot_die(DIOT_EXIT_FAIL, "internal error: too many advice lines");
	a = &l->a[l->n++];
	memset(a, 0, sizeof(*a));
	a->id = id;
	va_start(ap, fmt);
	vsnprintf(a->text, sizeof(a->text), fmt, ap);
	va_end(ap);
	return a;
}

static void
act(struct advice *a, const char *kind, const char *file, const char *fmt, ...)
	DIOT_PRINTF(4, 5);

static void
act(struct advice *a, const char *kind, const char *file, const char *fmt, ...)
{
	struct action *x;
	va_list ap;

	if (a->nact == MAX_ACTIONS)
		return;
	x = &a->act[a->nact++];
	x->kind = kind;
	snprintf(x->file, sizeof(x->file), "%s", file ? file : "");
	va_start(ap, fmt);
	vsnprintf(x->text, sizeof(x->text), fmt, ap);
	va_end(ap);
}

int
info_word_in(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	while ((p = strstr(p, word)) != NULL) {
		if ((p == list || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
			return 1;
		p += n;
	}
	return 0;
}

const char *
info_udev_match(const struct dio_devinfo *d, char *buf, size_t len, int *by_name)
{
	*by_name = 0;
	if (d->id_serial[0] != '\0' && strchr(d->id_serial, '"') == NULL)
		snprintf(buf, len, "ENV{DEVTYPE}==\"disk\", ENV{ID_SERIAL}==\"%s\"",
		         d->id_serial);
	else if (d->wwid[0] != '\0' && strchr(d->wwid, '"') == NULL)
		snprintf(buf, len, "ENV{DEVTYPE}==\"disk\", ATTRS{wwid}==\"%s\"", d->wwid);
	else if (d->loop_backing[0] != '\0' && strchr(d->loop_backing, '"') == NULL)
		/* A loop device is known by its backing file (set with a
		 * "change" event when the device is configured). */
		snprintf(buf, len, "KERNEL==\"loop*\", ATTR{loop/backing_file}==\"%s\"",
		         d->loop_backing);
	else {
		snprintf(buf, len, "KERNEL==\"%s\"", d->name);
		*by_name = 1;
	}
	return buf;
}

/* "now" and "persistent" actions for setting queue attribute attr to value. */
static void
queue_setting(struct advice *a, const struct dio_devinfo *d, const char *attr,
              const char *value)
{
	char match[300], file[160];
	int by_name;

	act(a, "now", NULL, "echo %s > %s/%s", value, d->settings_dir, attr);
	info_udev_match(d, match, sizeof(match), &by_name);
	snprintf(file, sizeof(file), "/etc/udev/rules.d/99-dio-%s.rules", d->name);
	act(a, "persistent", file, "ACTION==\"add|change\", SUBSYSTEM==\"block\", %s, "
	    "ATTR{queue/%s}=\"%s\"", match, attr, value);
	act(a, "apply", NULL, "udevadm control --reload && udevadm trigger "
	    "--action=change --subsystem-match=block --sysname-match=%s", d->name);
	if (by_name)
		act(a, "note", NULL, "kernel names such as %s can change between boots; "
		    "once udev knows the device, match ENV{ID_SERIAL} (udevadm info "
		    "--query=property --name=%s) instead", d->name, d->name);
}

/* Requests capped below what the hardware allows (the seed's 512 KiB). */
static void
advise_requests(const struct facts *f, struct advice_list *l)
{
	const struct dio_devinfo *d = &f->di;
	long page = f->plat.page_size;
	uint32_t seg_kb, target;
	struct advice *a;
	char v[64];

	if (d->max_sectors_kb && d->max_hw_sectors_kb &&
	    d->max_sectors_kb < d->max_hw_sectors_kb && d->settings_dir[0] != '\0') {
		target = d->max_hw_sectors_kb;
		/* A request holds at most max_segments pieces, one per page
		 * of a user buffer that is not physically contiguous. */
		seg_kb = d->max_segments && page > 0 ?
		         d->max_segments * (uint32_t)(page / 1024) : 0;
		if (seg_kb && seg_kb < target)
			target = seg_kb;
		if (target > d->max_sectors_kb) {
			char why[200] = "";

			if (target < d->max_hw_sectors_kb)
				snprintf(why, sizeof(why), "  With max_segments = %u, a request "
				         "made of separate %ld KiB pages holds at most %u KiB.",
				         d->max_segments, page / 1024, target);
			a = advise(l, "max-sectors", "requests to %s are capped at "
			           "max_sectors_kb = %u KiB while the driver allows "
			           "max_hw_sectors_kb = %u KiB: a larger read() or write() "
			           "reaches the device as several requests of %u KiB.%s  Raise "
			           "the cap to %u KiB:", d->name, d->max_sectors_kb,
			           d->max_hw_sectors_kb, d->max_sectors_kb, why, target);
			snprintf(v, sizeof(v), "%u", target);
			if (f->plat.on_linux)
				queue_setting(a, d, "max_sectors_kb", v);
		}
	}
}

/* allow_dio: sg direct I/O falls back to indirect without a word. */
static void
advise_sg(const struct facts *f, struct advice_list *l)
{
	const struct dio_devinfo *d = &f->di;
	const char *sg = d->sg_device;
	struct advice *a;

	if (sg[0] != '\0' && d->allow_dio == DIO_TRI_NO && f->plat.on_linux) {
		a = advise(l, "allow-dio", "allow_dio is 0: sg commands on %s that ask for "
		           "direct I/O (SG_FLAG_DIRECT_IO: sg_dd/sgp_dd dio=1, dio-rbuf -d) "
		           "are done as indirect I/O through a kernel buffer, and the "
		           "command still succeeds.  Allow it:", sg);
		if (d->allow_dio_path[0] != '\0')
			act(a, "now", NULL, "echo 1 > %s", d->allow_dio_path);
		if (d->sg_module != DIO_TRI_NO)
			act(a, "persistent", "/etc/modprobe.d/sg.conf", "options sg allow_dio=1");
		if (d->sg_module != DIO_TRI_YES)
			act(a, "persistent", NULL, "%s: add sg.allow_dio=1 to the kernel "
			    "command line", d->sg_module == DIO_TRI_NO ? "sg is built into "
			    "the kernel" : "if sg is built into the kernel");
	}
	if (sg[0] != '\0' && d->allow_dio == DIO_TRI_YES) {
		if (d->dma_align)
			advise(l, "sg-direct", "allow_dio is 1: sg direct I/O on %s happens when "
			       "the buffer is aligned to the queue's DMA alignment (%u bytes); "
			       "otherwise the driver falls back to indirect I/O (dio-rbuf "
			       "counts such fallbacks)", sg, d->dma_align);
		else
			advise(l, "sg-direct", "allow_dio is 1: sg direct I/O on %s happens when "
			       "the buffer suits the adapter's DMA alignment; otherwise the "
			       "driver falls back to indirect I/O", sg);
	}
	if (sg[0] != '\0' && d->kind != DIO_DEVINFO_SG && d->device[0] != '\0')
		advise(l, "sg-node", "SG_IO on %s goes through the block layer, which "
		       "decides by itself whether to copy or map the buffer; its sg node "
		       "%s also offers the sg driver's direct (allow_dio), no-copy and "
		       "mmap transfers", d->disk[0] ? d->disk : d->device, sg);
}

/* An illumos disk or zvol node (raw or block), where specfs sends no cache
 * flush for O_DSYNC/O_SYNC writes and libdirectio sends its own. */
static int
sunos_dev(const struct facts *f)
{
	return strcmp(f->plat.backend, "sunos") == 0 && f->is_dev &&
	       f->di.kind == DIO_DEVINFO_BLOCK;
}

/* An illumos lofi or ramdisk node (DKIOCINFO's driver name): no disk
 * cache behind it, and no DKIOCFLUSHWRITECACHE (ENOTTY). */
static const char *
sunos_pseudo(const struct facts *f)
{
	if (!sunos_dev(f))
		return NULL;
	if (strncmp(f->di.name, "lofi", 4) == 0)
		return "lofi";
	if (strncmp(f->di.name, "ramdisk", 7) == 0)
		return "ramdisk";
	return NULL;
}

static int
sunos_node(const struct facts *f)
{
	return sunos_dev(f) && sunos_pseudo(f) == NULL;
}

/* The node or disk a cache advice names. */
static const char *
cache_dev(const struct facts *f)
{
	const struct dio_devinfo *d = &f->di;

	return d->disk[0] ? d->disk : f->scsi_dev[0] ? f->scsi_dev :
	       d->device[0] ? d->device : f->path;
}

/* What makes a commit durable with the cache on: who sends the flush; it
 * starts with the "; " or ", " that joins it to the sentence before. */
static void
flush_sentence(const struct facts *f, char *b, size_t len)
{
	const struct dio_devinfo *d = &f->di;

	if (d->sync_disabled == DIO_TRI_YES)
		snprintf(b, len, "; commits would need a cache flush to be durable, and "
		         "sync=disabled makes them send none (see sync-disabled)");
	else if (sunos_node(f))
		snprintf(b, len, "; on a device node illumos sends no cache flush for "
		         "O_DSYNC or O_SYNC writes, and %s; libdirectio's commits "
		         "(dio_commit(), writes on a DIO_SYNC_DATA or DIO_SYNC_FULL "
		         "handle: sync-write, dio-dd) send DKIOCFLUSHWRITECACHE themselves "
		         "after each one%s, while other programs' O_DSYNC writes (dd "
		         "oflag=dsync, a database's log) are NOT durable%s",
		         S_ISBLK(f->st.st_mode) ? "fsync() and fdatasync() push the node's "
		         "cached pages and then send one (DKIOCFLUSHWRITECACHE)" :
		         "fsync() or fdatasync() sends one (DKIOCFLUSHWRITECACHE) only when "
		         "the node was used since the last fsync() on it, a mark another "
		         "writer's fsync() can clear while a write is still in flight",
		         d->commit_flush == DIO_TRI_YES ? ", so they are durable" :
		         " (whether this driver honours it is not known)",
		         d->sync_always == DIO_TRI_YES ? " unless, as here, sync=always "
		         "commits every write (see sync-always)" : "");
	else if (d->commit_flush == DIO_TRI_YES)
		snprintf(b, len, ", so fdatasync(), fsync() and O_DSYNC are durable "
		         "because a cache flush follows each%s", d->fua == DIO_TRI_YES ?
		         " (or the write goes out with FUA)" : "");
	else if (!f->plat.on_linux)
		snprintf(b, len, ", so fdatasync(), fsync() and O_DSYNC are durable only "
		         "when a cache flush follows them, and whether %s sends one is "
		         "not known", f->fs_type[0] ? f->fs_type : "the system");
	else
		snprintf(b, len, ", so fdatasync(), fsync() and O_DSYNC are durable only "
		         "because the kernel then sends a cache flush (on SCSI: "
		         "SYNCHRONIZE CACHE)%s", d->fua == DIO_TRI_YES ?
		         " or writes with FUA" : "");
}

/* The illumos way to see or change a disk's write cache. */
static void
format_action(struct advice *a, const struct facts *f, const char *what)
{
	if (strcmp(f->plat.backend, "sunos") == 0)
		act(a, "option", NULL, "to %s: format -e, select the disk, then cache, "
		    "write_cache, %s", what, strcmp(what, "turn it off") == 0 ?
		    "disable (display shows it)" : "display (or disable)");
}

/* The volatile write cache, what syncs cost, and who makes them durable. */
static void
advise_cache(const struct facts *f, struct advice_list *l)
{
	const struct dio_devinfo *d = &f->di;
	char why[128], flush[900];
	struct advice *a;
	int vc = info_volatile_cache(f, why, sizeof(why));

	flush_sentence(f, flush, sizeof(flush));
	if (vc == DIO_TRI_YES && d->commit_flush != DIO_TRI_NO) {
		a = advise(l, "write-cache", "the device's volatile write cache is on "
		           "(%s%s%s): data a write() hands to %s may sit in that cache%s; "
		           "every sync costs a flush.%s", d->write_cache == DIO_TRI_YES ?
		           "write_cache: write back" : "",
		           d->write_cache == DIO_TRI_YES && f->have_cache && f->wce ? ", " : "",
		           f->have_cache && f->wce ? "WCE=1 in the caching mode page" : "",
		           cache_dev(f), flush, f->plat.on_linux ? "  Do not mark the cache "
		           "\"write through\" to make syncs cheaper while it is on: the "
		           "flushes would stop" : "");
		if (f->scsi_ok && f->plat.on_linux)
			act(a, "option", NULL, "to run without the cache (slower writes, no "
			    "flushes needed): sdparm --clear=WCE %s (add --save where the "
			    "device keeps saved pages)", f->scsi_dev);
		format_action(a, f, "see or change it");
	}
	/* Nothing sends a flush (illumos UFS): durable only without a cache.
	 * (With sync=disabled nothing is committed at all: sync-disabled.) */
	if (d->commit_flush == DIO_TRI_NO && vc != DIO_TRI_NO &&
	    d->sync_disabled != DIO_TRI_YES) {
		const char *fs = f->fs_type[0] ? f->fs_type : "this file system";
		char who[160];

		if (strcmp(fs, "ufs") == 0)
			snprintf(who, sizeof(who), "ufs on illumos never sends "
			         "DKIOCFLUSHWRITECACHE");
		else
			snprintf(who, sizeof(who), "%s sends no cache flush on a commit", fs);

		if (vc == DIO_TRI_YES)
			a = advise(l, "no-flush", "commits on %s are NOT durable across a "
			           "power loss: the write cache of %s is on (%s), and nothing "
			           "sends it a cache flush (%s), so fsync(), fdatasync(), "
			           "O_DSYNC and O_SYNC writes, and libdirectio's commits, "
			           "return once the "
			           "data is in that cache, and a power cut can lose what they "
			           "acknowledged.  Turn the write cache off (slower writes) "
			           "where data must survive a power cut, or use ZFS, which "
			           "flushes", fs, cache_dev(f), why, who);
		else
			a = advise(l, "no-flush", "cannot tell whether commits on %s are "
			           "durable across a power loss: nothing sends a cache flush "
			           "(%s), and whether %s has a volatile write cache is not "
			           "known; if it "
			           "has, fsync(), fdatasync(), O_DSYNC and O_SYNC writes return "
			           "once the data is in that cache and a power cut can lose "
			           "what they acknowledged.  Look, and turn the cache off where "
			           "data must survive a power cut", fs, who, cache_dev(f));
		format_action(a, f, vc == DIO_TRI_YES ? "turn it off" : "see or change it");
	}
	/* An illumos device node whose cache is not known: who flushes. */
	if (vc == DIO_TRI_UNKNOWN && d->commit_flush != DIO_TRI_NO && sunos_node(f)) {
		a = advise(l, "node-flush", "cannot tell whether %s has a volatile write "
		           "cache; if it has, %s", cache_dev(f), flush + 2);
		format_action(a, f, "see or change it");
	}
	/* lofi and ramdisk: what a commit reaches is elsewhere. */
	if (sunos_pseudo(f) && strcmp(sunos_pseudo(f), "lofi") == 0)
		advise(l, "lofi-backing", "%s is a lofi device: it reads and writes its "
		       "backing file through that file's page cache (so it is not direct), "
		       "follows each synchronous write (every write to its raw node) with "
		       "an fsync() of the backing file, and answers DKIOCFLUSHWRITECACHE "
		       "with ENOTTY: a write or a commit reaches what the backing file "
		       "system's fsync() reaches (see dio-info on the backing file)",
		       f->path);
	else if (sunos_pseudo(f))
		advise(l, "ramdisk", "%s is a ramdisk: kernel memory, so nothing written "
		       "to it, committed or not, survives a reboot or a power cut", f->path);
	if (f->have_cache && f->wce && d->write_cache == DIO_TRI_NO)
		advise(l, "write-cache-mismatch", "the device reports WCE=1 (its write cache "
		       "is on) but the kernel treats %s as write through and sends no "
		       "cache flushes: fdatasync() and O_DSYNC do NOT make data durable "
		       "there; put the kernel's setting back to \"write back\"",
		       d->disk[0] ? d->disk : f->scsi_dev);
}

/* Queue settings: read-ahead, scheduler. */
static void
advise_queue(const struct facts *f, struct advice_list *l)
{
	const struct dio_devinfo *d = &f->di;
	struct advice *a;
	char v[64];

	/* Read-ahead on a disk with a head to move. */
	if (d->rotational == DIO_TRI_YES && (d->known & DIO_DEVINFO_K_READ_AHEAD) &&
	    d->read_ahead_kb < READ_AHEAD_SMALL_KB && d->settings_dir[0] != '\0') {
		a = advise(l, "read-ahead", "%s is rotational and read_ahead_kb is %u KiB: "
		           "large sequential buffered reads fetch only that much ahead of "
		           "the reader; %u KiB keeps the disk streaming.  (Direct I/O and "
		           "sg pass-through do not use read-ahead.)", d->name,
		           d->read_ahead_kb, READ_AHEAD_SUGGEST_KB);
		snprintf(v, sizeof(v), "%u", READ_AHEAD_SUGGEST_KB);
		if (f->plat.on_linux)
			queue_setting(a, d, "read_ahead_kb", v);
	}

	/* A scheduler that costs CPU on a device without seeks. */
	if (d->rotational == DIO_TRI_NO && d->scheduler[0] != '\0' &&
	    strcmp(d->scheduler, "none") != 0 && strcmp(d->scheduler, "mq-deadline") != 0 &&
	    info_word_in(d->schedulers, "none") && d->settings_dir[0] != '\0') {
		a = advise(l, "scheduler", "%s is not rotational but uses the %s scheduler: "
		           "for a fast device none (or mq-deadline) costs less CPU per "
		           "request", d->name, d->scheduler);
		if (f->plat.on_linux)
			queue_setting(a, d, "scheduler", "none");
	}
}

/* Alignment of direct transfers, physical blocks, optimal I/O size. */
static void
advise_alignment(const struct facts *f, struct advice_list *l)
{
	const struct dio_devinfo *d = &f->di;
	char a1[32], a2[32];

	if (f->probe != PROBE_NONE && f->mech != DIO_MECH_NONE && f->have_al &&
	    f->al.offset_align) {
		snprintf(a1, sizeof(a1), "%u", f->al.read_offset_align);
		advise(l, "alignment", "direct I/O on %s: buffers aligned to %u bytes "
		       "(dio_alloc(len, %u)), offsets and lengths multiples of %u "
		       "bytes%s%s%s%s", f->probe_file[0] ? f->probe_file : f->path,
		       f->al.mem_align ? f->al.mem_align : f->al.offset_align,
		       f->al.mem_align ? f->al.mem_align : f->al.offset_align,
		       f->al.offset_align,
		       f->al.read_offset_align && f->al.read_offset_align != f->al.offset_align ?
		       " (reads: multiples of " : "",
		       f->al.read_offset_align && f->al.read_offset_align != f->al.offset_align ?
		       a1 : "",
		       f->al.read_offset_align && f->al.read_offset_align != f->al.offset_align ?
		       " bytes)" : "",
		       f->al.source == DIO_ALIGN_SRC_GUESS ? "; these figures are a guess "
		       "(the page size): the kernel did not report them" : "");
	}
	if (d->physical_block && d->logical_block && d->physical_block > d->logical_block)
		advise(l, "physical-block", "%s has %u-byte logical blocks on %u-byte physical "
		       "blocks: a write that does not cover whole %u-byte blocks makes the "
		       "device read, modify and write the physical block; use offsets and "
		       "sizes that are multiples of %u", d->name, d->logical_block,
		       d->physical_block, d->physical_block, d->physical_block);
	if (d->optimal_io)
		advise(l, "optimal-io", "%s reports an optimal I/O size of %s (%u bytes, "
		       "e.g. a RAID stripe): use request sizes that are multiples of it",
		       d->name, diot_fmt_iec(d->optimal_io, a2, sizeof(a2)), d->optimal_io);
}

/* No direct I/O where a file system refuses it. */
static void
advise_direct(const struct facts *f, struct advice_list *l)
{
	if (f->probe != PROBE_NONE && f->probe_err == 0 && f->mech == DIO_MECH_NONE &&
	    !f->is_dev) {
		const char *fs = f->fs_type[0] ? f->fs_type : "this file system";

		if (!f->plat.has_direct)
			advise(l, "no-direct", "this build of libdirectio (backend %s) has no "
			       "direct I/O at all: every open is buffered; build the library "
			       "with the linux or sunos backend where the system has one",
			       f->plat.backend);
		else if (f->plat.on_linux && strcmp(f->fs_type, "tmpfs") == 0 &&
		         f->plat.have_uname)
			advise(l, "no-direct", "tmpfs takes O_DIRECT from Linux 6.6 on; this "
			       "kernel (%s) refuses it.  Without direct I/O the library "
			       "buffers (DIO_DIRECT_TRY) or fails (DIO_DIRECT_ON); for direct "
			       "I/O use a newer kernel or a disk file system", f->plat.un.release);
		else if (strcmp(f->fs_type, "ramfs") == 0)
			advise(l, "no-direct", "ramfs has no direct I/O at all (its page cache "
			       "is the file): use tmpfs on Linux 6.6 or later, or a disk "
			       "file system");
		else
			advise(l, "no-direct", "%s refuses direct I/O: DIO_DIRECT_TRY opens "
			       "buffered, DIO_DIRECT_ON fails with ENOTSUP; put the file on a "
			       "file system that has it (ext4, xfs; ufs on illumos) or use the "
			       "block device", fs);
	}
	if (f->di.direct_ignored == DIO_TRI_YES)
		advise(l, "zfs-direct", "%s accepts direct I/O advice (directio(), "
		       "O_DIRECT) and ignores it: every read and write goes through its "
		       "cache, so libdirectio reports no direct I/O here; for unbuffered "
		       "I/O use ufs or a raw disk node (/dev/rdsk)",
		       f->fs_type[0] ? f->fs_type : "this file system");
	if (f->di.sync_disabled == DIO_TRI_YES)
		advise(l, "sync-disabled", "%s %s has sync=disabled: fsync(), fdatasync(), "
		       "O_SYNC/O_DSYNC writes%s return at once and nothing is made "
		       "durable, so a power cut loses acknowledged data and sync-write's "
		       "timings measure memory; zfs set sync=standard restores durability",
		       f->is_dev ? "the zvol" : "the ZFS dataset holding", f->path,
		       f->is_dev ? " and the cache flush libdirectio sends after each "
		       "commit (DKIOCFLUSHWRITECACHE)" : "");
	if (f->di.sync_always == DIO_TRI_YES && f->di.sync_disabled != DIO_TRI_YES)
		advise(l, "sync-always", "%s %s has sync=always: every write is committed "
		       "to the ZFS intent log before it returns, so writes without a commit "
		       "(sync-write's none and direct rows, dd without oflag=dsync) are "
		       "commits here and cost one each; zfs set sync=standard makes only "
		       "the commits asked for wait", f->is_dev ? "the zvol" :
		       "the ZFS dataset holding", f->path);
	if (f->di.direct_stable == DIO_TRI_YES && !f->is_dev)
		advise(l, "direct-stable", "a direct write to %s is a stable write: the "
		       "%s client sends it FILE_SYNC and the server commits it before "
		       "answering, so a direct write without a commit (sync-write's direct "
		       "row) is a commit here and costs one on the server.  While the file "
		       "has any page in the client's cache, even a clean one, writes go "
		       "through that cache instead and are not stable",
		       f->path, f->fs_type[0] ? f->fs_type : "NFS");
	if (f->plat.on_linux && f->mech == DIO_MECH_O_DIRECT && strcmp(f->fs_type, "zfs") == 0)
		advise(l, "zfs-direct", "OpenZFS before 2.3 accepts O_DIRECT but still reads "
		       "and writes through its ARC cache: check the version (zfs version) "
		       "and the dataset's direct property");
}

/* The device as a whole: loop, in use. */
static void
advise_device(const struct facts *f, struct advice_list *l)
{
	const struct dio_devinfo *d = &f->di;
	struct advice *a;

	/* A loop device in front of a page cache. */
	if (d->loop_backing[0] != '\0' && d->loop_direct == DIO_TRI_NO) {
		a = advise(l, "loop-buffered", "%s reads and writes its backing file %s "
		           "through the page cache: direct I/O on %s (or on files on it) "
		           "still ends in that cache", d->name, d->loop_backing,
		           d->device[0] ? d->device : d->name);
		if (f->plat.on_linux)
			act(a, "now", NULL, "losetup --direct-io=on %s",
			    d->disk[0] ? d->disk : d->device);
	}

	/* A busy device, or one whose use cannot be told. */
	if (f->in_use == 1 && (f->is_dev || f->di.kind != DIO_DEVINFO_FILE))
		advise(l, "in-use", "%s is in use (%s): tools that write to devices "
		       "(sync-write --force, dio-dd) refuse it", d->device[0] ? d->device :
		       f->path, f->in_use_why);
	if (f->in_use < 0 && f->in_use_why[0] != '\0' &&
	    (f->is_dev || f->di.kind != DIO_DEVINFO_FILE))
		advise(l, "in-use-unknown", "cannot tell whether %s is in use (%s): tools "
		       "that write to devices (sync-write --force, dio-dd) refuse it as "
		       "if it were", d->device[0] ? d->device : f->path, f->in_use_why);
}

void
info_advice(const struct facts *f, struct advice_list *l)
{
	l->n = 0;
	advise_requests(f, l);
	advise_sg(f, l);
	advise_cache(f, l);
	advise_queue(f, l);
	advise_alignment(f, l);
	advise_direct(f, l);
	advise_device(f, l);
}

int
info_volatile_cache(const struct facts *f, char *why, size_t len)
{
	const struct dio_devinfo *d = &f->di;
	int k = d->write_cache, c = f->have_cache ? f->wce : -1;

	snprintf(why, len, "%s%s%s", k == DIO_TRI_YES ? "the kernel: write back" :
	         k == DIO_TRI_NO ? "the kernel: write through" : "",
	         k != DIO_TRI_UNKNOWN && c >= 0 ? "; " : "",
	         c == 1 ? "the device: WCE=1" : c == 0 ? "the device: WCE=0" : "");
	if (k == DIO_TRI_YES || c == 1)
		return DIO_TRI_YES;
	if (k == DIO_TRI_NO || c == 0)
		return DIO_TRI_NO;
	return DIO_TRI_UNKNOWN;
}
