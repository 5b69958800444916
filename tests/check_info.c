/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_info.c -- dio-info's pure logic (tools/info/): the advice derived
 * from facts built by hand (which ids come out, in which order, with which
 * actions), the udev match, the word lists, and the VPD 80h serial parser.
 * Nothing here touches a device.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/info/info.h"
#include "tests/testutil.h"

static struct facts f;
static struct advice_list l;

/* A Linux SCSI disk /dev/sdx with nothing to advise about. */
static void
base_facts(void)
{
	struct dio_devinfo *d = &f.di;

	memset(&f, 0, sizeof(f));
	f.plat.backend = "linux";
	f.plat.on_linux = 1;
	f.plat.has_direct = 1;
	f.plat.page_size = 4096;
	f.plat.have_uname = 1;
	snprintf(f.plat.un.sysname, sizeof(f.plat.un.sysname), "Linux");
	snprintf(f.plat.un.release, sizeof(f.plat.un.release), "6.1.0-test");
	f.path = "/dev/sdx";
	f.type = "block device";
	f.is_dev = 1;
	f.in_use = 0;
	f.write_probe = -1;
	d->kind = DIO_DEVINFO_BLOCK;
	snprintf(d->device, sizeof(d->device), "/dev/sdx");
	snprintf(d->disk, sizeof(d->disk), "/dev/sdx");
	snprintf(d->name, sizeof(d->name), "sdx");
	snprintf(d->settings_dir, sizeof(d->settings_dir), "/sys/block/sdx/queue");
	memset(&l, 0, sizeof(l));
}

/* The advice ids, space-separated, in order. */
static const char *
ids(void)
{
	static char buf[512];
	size_t k = 0;
	int i;

	info_advice(&f, &l);
	buf[0] = '\0';
	for (i = 0; i < l.n; i++)
		k += (size_t)snprintf(buf + k, sizeof(buf) - k, "%s%s", i ? " " : "",
		                      l.a[i].id);
	return buf;
}

static const struct advice *
find(const char *id)
{
	int i;

	for (i = 0; i < l.n; i++)
		if (strcmp(l.a[i].id, id) == 0)
			return &l.a[i];
	ck_abort_msg("no advice %s", id);
	return NULL;
}

#define assert_has(s, part) \
	ck_assert_msg(strstr((s), (part)) != NULL, "'%s' lacks '%s'", (s), (part))

START_TEST(test_nothing_to_advise)
{
	base_facts();
	ck_assert_str_eq(ids(), "");
	f.in_use = -1;
	f.di.rotational = DIO_TRI_YES;
	f.di.known = DIO_DEVINFO_K_READ_AHEAD;
	f.di.read_ahead_kb = READ_AHEAD_SMALL_KB;
	f.di.max_sectors_kb = 1280;
	f.di.max_hw_sectors_kb = 1280;
	ck_assert_str_eq(ids(), "");
}
END_TEST

START_TEST(test_max_sectors)
{
	const struct advice *a;

	base_facts();
	f.di.max_sectors_kb = 512;
	f.di.max_hw_sectors_kb = 32767;
	f.di.max_segments = 128;       /* 128 pages of 4 KiB: 512 KiB, no gain */
	ck_assert_str_eq(ids(), "");
	f.di.max_segments = 1024;      /* 4096 KiB in separate pages */
	ck_assert_str_eq(ids(), "max-sectors");
	a = find("max-sectors");
	assert_has(a->text, "With max_segments = 1024");
	assert_has(a->text, "Raise the cap to 4096 KiB:");
	ck_assert_int_eq(a->nact, 4);  /* now, persistent, apply, note (by name) */
	ck_assert_str_eq(a->act[0].kind, "now");
	ck_assert_str_eq(a->act[0].text, "echo 4096 > /sys/block/sdx/queue/max_sectors_kb");
	ck_assert_str_eq(a->act[1].kind, "persistent");
	ck_assert_str_eq(a->act[1].file, "/etc/udev/rules.d/99-dio-sdx.rules");
	ck_assert_str_eq(a->act[1].text, "ACTION==\"add|change\", SUBSYSTEM==\"block\", "
	                 "KERNEL==\"sdx\", ATTR{queue/max_sectors_kb}=\"4096\"");
	ck_assert_str_eq(a->act[2].kind, "apply");
	ck_assert_str_eq(a->act[3].kind, "note");

	/* A udev serial: no note; no page size: the hardware limit. */
	snprintf(f.di.id_serial, sizeof(f.di.id_serial), "SERIAL42");
	f.plat.page_size = -1;
	ck_assert_str_eq(ids(), "max-sectors");
	a = find("max-sectors");
	assert_has(a->text, "Raise the cap to 32767 KiB:");
	ck_assert_int_eq(a->nact, 3);

	/* Not Linux: the advice, no sysfs or udev actions.  (A write-through
	 * disk: an illumos node whose cache is not known gets node-flush.) */
	f.plat.on_linux = 0;
	f.plat.backend = "sunos";
	f.di.write_cache = DIO_TRI_NO;
	ck_assert_str_eq(ids(), "max-sectors");
	ck_assert_int_eq(find("max-sectors")->nact, 0);

	/* No settings directory: nothing to change. */
	f.di.settings_dir[0] = '\0';
	ck_assert_str_eq(ids(), "");
}
END_TEST

START_TEST(test_sg)
{
	const struct advice *a;

	base_facts();
	snprintf(f.di.sg_device, sizeof(f.di.sg_device), "/dev/sg3");
	ck_assert_str_eq(ids(), "sg-node");
	f.di.allow_dio = DIO_TRI_NO;
	f.di.sg_module = DIO_TRI_YES;
	snprintf(f.di.allow_dio_path, sizeof(f.di.allow_dio_path),
	         "/sys/module/sg/parameters/allow_dio");
	ck_assert_str_eq(ids(), "allow-dio sg-node");
	a = find("allow-dio");
	ck_assert_int_eq(a->nact, 2);
	ck_assert_str_eq(a->act[0].text, "echo 1 > /sys/module/sg/parameters/allow_dio");
	ck_assert_str_eq(a->act[1].file, "/etc/modprobe.d/sg.conf");
	f.di.sg_module = DIO_TRI_NO;
	ids();
	a = find("allow-dio");
	ck_assert_int_eq(a->nact, 2);
	assert_has(a->act[1].text, "sg is built into the kernel: add sg.allow_dio=1");
	f.di.sg_module = DIO_TRI_UNKNOWN;
	ids();
	ck_assert_int_eq(find("allow-dio")->nact, 3);
	f.plat.on_linux = 0;
	ck_assert_str_eq(ids(), "sg-node");

	f.di.allow_dio = DIO_TRI_YES;
	f.di.dma_align = 512;
	ck_assert_str_eq(ids(), "sg-direct sg-node");
	assert_has(find("sg-direct")->text, "DMA alignment (512 bytes)");

	/* The sg node itself: no pointer to the sg node. */
	f.di.kind = DIO_DEVINFO_SG;
	ck_assert_str_eq(ids(), "sg-direct");
}
END_TEST

START_TEST(test_write_cache)
{
	const struct advice *a;

	base_facts();
	f.di.write_cache = DIO_TRI_YES;
	f.di.fua = DIO_TRI_YES;
	ck_assert_str_eq(ids(), "write-cache");
	a = find("write-cache");
	assert_has(a->text, "(write_cache: write back): data a write() hands to /dev/sdx");
	assert_has(a->text, " or writes with FUA;");
	ck_assert_int_eq(a->nact, 0);

	f.scsi_ok = 1;
	snprintf(f.scsi_dev, sizeof(f.scsi_dev), "/dev/sdx");
	f.have_cache = 1;
	f.wce = 1;
	ck_assert_str_eq(ids(), "write-cache");
	a = find("write-cache");
	assert_has(a->text, "(write_cache: write back, WCE=1 in the caching mode page)");
	ck_assert_int_eq(a->nact, 1);
	assert_has(a->act[0].text, "sdparm --clear=WCE /dev/sdx");

	/* The device caches, the kernel thinks not: no flushes. */
	f.di.write_cache = DIO_TRI_NO;
	ck_assert_str_eq(ids(), "write-cache write-cache-mismatch");

	/* illumos: format -e. */
	f.plat.on_linux = 0;
	f.plat.backend = "sunos";
	ids();
	assert_has(find("write-cache")->act[0].text, "format -e");
}
END_TEST

START_TEST(test_queue)
{
	base_facts();
	f.di.rotational = DIO_TRI_YES;
	f.di.read_ahead_kb = 128;
	ck_assert_str_eq(ids(), "");            /* read-ahead not known */
	f.di.known = DIO_DEVINFO_K_READ_AHEAD;
	ck_assert_str_eq(ids(), "read-ahead");
	assert_has(find("read-ahead")->act[0].text, "echo 4096 > ");

	base_facts();
	f.di.rotational = DIO_TRI_NO;
	snprintf(f.di.scheduler, sizeof(f.di.scheduler), "bfq");
	snprintf(f.di.schedulers, sizeof(f.di.schedulers), "mq-deadline bfq");
	ck_assert_str_eq(ids(), "");            /* none is not offered */
	snprintf(f.di.schedulers, sizeof(f.di.schedulers), "none mq-deadline bfq");
	ck_assert_str_eq(ids(), "scheduler");
	assert_has(find("scheduler")->act[0].text, "echo none > /sys/block/sdx/queue/scheduler");
	snprintf(f.di.scheduler, sizeof(f.di.scheduler), "mq-deadline");
	ck_assert_str_eq(ids(), "");
	f.di.rotational = DIO_TRI_UNKNOWN;
	snprintf(f.di.scheduler, sizeof(f.di.scheduler), "bfq");
	ck_assert_str_eq(ids(), "");
}
END_TEST

START_TEST(test_alignment_blocks)
{
	const struct advice *a;

	base_facts();
	f.probe = PROBE_OPEN;
	f.mech = DIO_MECH_O_DIRECT;
	f.have_al = 1;
	f.al.offset_align = 512;
	f.al.read_offset_align = 512;
	ck_assert_str_eq(ids(), "alignment");
	a = find("alignment");
	ck_assert_str_eq(a->text, "direct I/O on /dev/sdx: buffers aligned to 512 bytes "
	                 "(dio_alloc(len, 512)), offsets and lengths multiples of 512 bytes");
	f.al.mem_align = 4096;
	f.al.read_offset_align = 4;
	f.al.source = DIO_ALIGN_SRC_GUESS;
	ids();
	a = find("alignment");
	assert_has(a->text, "aligned to 4096 bytes (dio_alloc(len, 4096))");
	assert_has(a->text, "512 bytes (reads: multiples of 4 bytes); these figures are a guess");
	f.mech = DIO_MECH_NONE;
	ck_assert_str_eq(ids(), "");

	f.di.logical_block = 512;
	f.di.physical_block = 4096;
	f.di.optimal_io = 1 << 20;
	ck_assert_str_eq(ids(), "physical-block optimal-io");
	assert_has(find("optimal-io")->text, "optimal I/O size of 1 MiB (1048576 bytes");
}
END_TEST

START_TEST(test_no_direct)
{
	base_facts();
	f.is_dev = 0;
	f.is_reg = 1;
	f.path = "/mnt/x";
	f.probe = PROBE_OPEN;
	f.mech = DIO_MECH_NONE;
	snprintf(f.fs_type, sizeof(f.fs_type), "tmpfs");
	ck_assert_str_eq(ids(), "no-direct");
	assert_has(find("no-direct")->text, "this kernel (6.1.0-test) refuses it");
	f.plat.have_uname = 0;
	ids();
	assert_has(find("no-direct")->text, "tmpfs refuses direct I/O: DIO_DIRECT_TRY");
	snprintf(f.fs_type, sizeof(f.fs_type), "ramfs");
	ids();
	assert_has(find("no-direct")->text, "ramfs has no direct I/O at all");
	f.fs_type[0] = '\0';
	ids();
	assert_has(find("no-direct")->text, "this file system refuses direct I/O");
	f.plat.has_direct = 0;
	f.plat.backend = "posix";
	ids();
	assert_has(find("no-direct")->text, "(backend posix) has no direct I/O at all");

	/* The probe failed: nothing known, nothing said. */
	f.probe_err = -13;
	ck_assert_str_eq(ids(), "");
	/* A device that refuses: not a file system's doing. */
	f.probe_err = 0;
	f.is_dev = 1;
	ck_assert_str_eq(ids(), "");

	base_facts();
	f.is_dev = 0;
	f.probe = PROBE_OPEN;
	f.mech = DIO_MECH_O_DIRECT;
	snprintf(f.fs_type, sizeof(f.fs_type), "zfs");
	ck_assert_str_eq(ids(), "zfs-direct");
}
END_TEST

START_TEST(test_loop_in_use)
{
	const struct advice *a;

	base_facts();
	snprintf(f.di.device, sizeof(f.di.device), "/dev/loop7");
	snprintf(f.di.disk, sizeof(f.di.disk), "/dev/loop7");
	snprintf(f.di.name, sizeof(f.di.name), "loop7");
	snprintf(f.di.loop_backing, sizeof(f.di.loop_backing), "/var/img");
	f.di.loop_direct = DIO_TRI_NO;
	f.in_use = 1;
	snprintf(f.in_use_why, sizeof(f.in_use_why), "mounted on /mnt");
	ck_assert_str_eq(ids(), "loop-buffered in-use");
	a = find("loop-buffered");
	ck_assert_str_eq(a->act[0].text, "losetup --direct-io=on /dev/loop7");
	ck_assert_str_eq(find("in-use")->text, "/dev/loop7 is in use (mounted on /mnt): "
	                 "tools that write to devices (sync-write --force, dio-dd) refuse it");
	f.di.loop_direct = DIO_TRI_YES;
	ck_assert_str_eq(ids(), "in-use");
	/* A file on a busy file system is not itself in use. */
	f.is_dev = 0;
	f.di.kind = DIO_DEVINFO_FILE;
	ck_assert_str_eq(ids(), "");
}
END_TEST

START_TEST(test_order)
{
	base_facts();
	f.di.max_sectors_kb = 128;
	f.di.max_hw_sectors_kb = 256;
	snprintf(f.di.sg_device, sizeof(f.di.sg_device), "/dev/sg0");
	f.di.allow_dio = DIO_TRI_NO;
	f.di.write_cache = DIO_TRI_YES;
	f.di.rotational = DIO_TRI_YES;
	f.di.known = DIO_DEVINFO_K_READ_AHEAD;
	f.probe = PROBE_OPEN;
	f.mech = DIO_MECH_O_DIRECT;
	f.have_al = 1;
	f.al.offset_align = 512;
	f.di.logical_block = 512;
	f.di.physical_block = 4096;
	f.di.optimal_io = 65536;
	f.in_use = 1;
	ck_assert_str_eq(ids(), "max-sectors allow-dio sg-node write-cache read-ahead "
	                 "alignment physical-block optimal-io in-use");
}
END_TEST

/* An illumos system: the sunos backend, no sysfs, udev or modprobe. */
static void
sunos_facts(void)
{
	base_facts();
	f.plat.backend = "sunos";
	f.plat.on_linux = 0;
	snprintf(f.plat.un.sysname, sizeof(f.plat.un.sysname), "SunOS");
	snprintf(f.plat.un.release, sizeof(f.plat.un.release), "5.11");
	f.di.settings_dir[0] = '\0';
}

/* A file on UFS on an illumos disk: nothing sends a cache flush. */
static void
sunos_ufs_file(void)
{
	sunos_facts();
	f.path = "/export/db/log";
	f.type = "regular file";
	f.is_dev = 0;
	f.is_reg = 1;
	f.st.st_mode = S_IFREG | 0644;
	snprintf(f.fs_type, sizeof(f.fs_type), "ufs");
	f.di.kind = DIO_DEVINFO_FILE;
	snprintf(f.di.device, sizeof(f.di.device), "/dev/dsk/c1t0d0s6");
	snprintf(f.di.disk, sizeof(f.di.disk), "/dev/rdsk/c1t0d0s6");
	snprintf(f.di.name, sizeof(f.di.name), "sd1");
	f.di.commit_flush = DIO_TRI_NO;
}

START_TEST(test_sunos_ufs_no_flush)
{
	const struct advice *a;

	/* The cache is on: commits are not durable, whoever makes them. */
	sunos_ufs_file();
	f.di.write_cache = DIO_TRI_YES;
	ck_assert_str_eq(ids(), "no-flush");
	a = find("no-flush");
	assert_has(a->text, "commits on ufs are NOT durable across a power loss: the "
	           "write cache of /dev/rdsk/c1t0d0s6 is on (the kernel: write back)");
	assert_has(a->text, "ufs on illumos never sends DKIOCFLUSHWRITECACHE");
	assert_has(a->text, "and libdirectio's commits, return once the data is in "
	           "that cache");
	ck_assert_ptr_null(strstr(a->text, "durable only because"));
	ck_assert_int_eq(a->nact, 1);
	ck_assert_str_eq(a->act[0].kind, "option");
	ck_assert_str_eq(a->act[0].text, "to turn it off: format -e, select the disk, "
	                 "then cache, write_cache, disable (display shows it)");
	/* The device says so through MODE SENSE: the same. */
	f.di.write_cache = DIO_TRI_UNKNOWN;
	f.scsi_ok = 1;
	snprintf(f.scsi_dev, sizeof(f.scsi_dev), "/dev/rdsk/c1t0d0s6");
	f.have_cache = 1;
	f.wce = 1;
	ck_assert_str_eq(ids(), "no-flush");
	assert_has(find("no-flush")->text, "is on (the device: WCE=1)");

	/* Not known whether there is a cache: cannot tell. */
	f.have_cache = 0;
	ck_assert_str_eq(ids(), "no-flush");
	a = find("no-flush");
	assert_has(a->text, "cannot tell whether commits on ufs are durable across a "
	           "power loss: nothing sends a cache flush");
	assert_has(a->text, "whether /dev/rdsk/c1t0d0s6 has a volatile write cache is "
	           "not known");
	assert_has(a->act[0].text, "write_cache, display (or disable)");

	/* No volatile cache: a completed write is on the medium. */
	f.di.write_cache = DIO_TRI_NO;
	ck_assert_str_eq(ids(), "");
	f.have_cache = 1;
	f.wce = 0;
	f.di.write_cache = DIO_TRI_UNKNOWN;
	ck_assert_str_eq(ids(), "");

	/* Where something flushes (ZFS), the cache is the usual advice. */
	f.have_cache = 0;
	f.di.write_cache = DIO_TRI_YES;
	f.di.commit_flush = DIO_TRI_YES;
	ck_assert_str_eq(ids(), "write-cache");
	assert_has(find("write-cache")->text, "fdatasync(), fsync() and O_DSYNC are "
	           "durable because a cache flush follows each");

	/* Not known whether the file system flushes: not claimed. */
	f.di.commit_flush = DIO_TRI_UNKNOWN;
	snprintf(f.fs_type, sizeof(f.fs_type), "pcfs");
	ck_assert_str_eq(ids(), "write-cache");
	a = find("write-cache");
	assert_has(a->text, "may sit in that cache, so fdatasync(), fsync() and O_DSYNC "
	           "are durable only when a cache flush follows them, and whether pcfs "
	           "sends one is not known");
	ck_assert_ptr_null(strstr(a->text, "because the kernel"));
}
END_TEST

/* An illumos raw disk node: the library flushes, specfs does not. */
START_TEST(test_sunos_node_flush)
{
	const struct advice *a;

	sunos_facts();
	f.path = "/dev/rdsk/c1t0d0s0";
	f.type = "character device";
	f.st.st_mode = S_IFCHR | 0640;
	snprintf(f.di.device, sizeof(f.di.device), "/dev/rdsk/c1t0d0s0");
	snprintf(f.di.disk, sizeof(f.di.disk), "/dev/rdsk/c1t0d0s0");
	snprintf(f.di.name, sizeof(f.di.name), "sd1");
	f.di.commit_flush = DIO_TRI_YES;
	f.di.write_cache = DIO_TRI_YES;
	ck_assert_str_eq(ids(), "write-cache");
	a = find("write-cache");
	assert_has(a->text, "data a write() hands to /dev/rdsk/c1t0d0s0 may sit in that "
	           "cache; on a device node illumos sends no cache flush for O_DSYNC or "
	           "O_SYNC writes, and fsync() or fdatasync() sends one "
	           "(DKIOCFLUSHWRITECACHE) only when the node was used since the last "
	           "fsync() on it");
	assert_has(a->text, "libdirectio's commits (dio_commit(), writes on a "
	           "DIO_SYNC_DATA or DIO_SYNC_FULL handle: sync-write, dio-dd) send "
	           "DKIOCFLUSHWRITECACHE themselves after each one, so they are durable, "
	           "while other programs' O_DSYNC writes (dd oflag=dsync, a database's "
	           "log) are NOT durable; every sync costs a flush.");
	ck_assert_ptr_null(strstr(a->text, "because the kernel"));
	ck_assert_ptr_null(strstr(a->text, "write through"));    /* Linux's setting */
	ck_assert_int_eq(a->nact, 1);
	assert_has(a->act[0].text, "format -e");

	/* The block node: fsync() flushes there; O_DSYNC still does not. */
	f.path = "/dev/dsk/c1t0d0s0";
	f.type = "block device";
	f.st.st_mode = S_IFBLK | 0640;
	ids();
	assert_has(find("write-cache")->text, "no cache flush for O_DSYNC or O_SYNC "
	           "writes, and fsync() and fdatasync() push the node's cached pages "
	           "and then send one");

	/* Whether the driver honours the flush is not known. */
	f.di.commit_flush = DIO_TRI_UNKNOWN;
	ids();
	assert_has(find("write-cache")->text, "after each one (whether this driver "
	           "honours it is not known), while other programs'");

	/* The cache is not known: cannot tell, and who flushes. */
	f.di.commit_flush = DIO_TRI_YES;
	f.di.write_cache = DIO_TRI_UNKNOWN;
	ck_assert_str_eq(ids(), "node-flush");
	a = find("node-flush");
	assert_has(a->text, "cannot tell whether /dev/rdsk/c1t0d0s0 has a volatile write "
	           "cache; if it has, on a device node illumos sends no cache flush");
	assert_has(a->text, "are NOT durable");
	assert_has(a->act[0].text, "format -e");

	/* Write through: nothing to flush, nothing said. */
	f.di.write_cache = DIO_TRI_NO;
	ck_assert_str_eq(ids(), "");

	/* lofi and ramdisk nodes: no disk cache; where a commit ends. */
	f.di.write_cache = DIO_TRI_UNKNOWN;
	f.path = "/dev/rlofi/1";
	snprintf(f.di.name, sizeof(f.di.name), "lofi1");
	ck_assert_str_eq(ids(), "lofi-backing");
	assert_has(find("lofi-backing")->text, "/dev/rlofi/1 is a lofi device: it reads "
	           "and writes its backing file through that file's page cache");
	assert_has(find("lofi-backing")->text, "answers DKIOCFLUSHWRITECACHE with ENOTTY");
	f.path = "/dev/rramdisk/rd0";
	snprintf(f.di.name, sizeof(f.di.name), "ramdisk0");
	ck_assert_str_eq(ids(), "ramdisk");
	f.path = "/dev/dsk/c1t0d0s0";
	snprintf(f.di.name, sizeof(f.di.name), "sd1");

	/* The same facts on Linux: the kernel flushes. */
	f.di.write_cache = DIO_TRI_YES;
	f.plat.backend = "linux";
	f.plat.on_linux = 1;
	f.di.commit_flush = DIO_TRI_UNKNOWN;
	ck_assert_str_eq(ids(), "write-cache");
	a = find("write-cache");
	assert_has(a->text, "durable only because the kernel then sends a cache flush");
	ck_assert_ptr_null(strstr(a->text, "illumos"));
	f.di.write_cache = DIO_TRI_UNKNOWN;
	ck_assert_str_eq(ids(), "");
}
END_TEST

/* A zvol: sync=always and sync=disabled, for a device too. */
START_TEST(test_sunos_zvol_sync)
{
	const struct advice *a;

	sunos_facts();
	f.path = "/dev/zvol/rdsk/rpool/vol";
	f.type = "character device";
	f.st.st_mode = S_IFCHR | 0600;
	snprintf(f.di.device, sizeof(f.di.device), "/dev/zvol/rdsk/rpool/vol");
	snprintf(f.di.disk, sizeof(f.di.disk), "/dev/zvol/rdsk/rpool/vol");
	snprintf(f.di.name, sizeof(f.di.name), "zvol1");
	f.di.commit_flush = DIO_TRI_YES;
	f.di.write_cache = DIO_TRI_YES;
	f.di.sync_disabled = DIO_TRI_NO;
	f.di.sync_always = DIO_TRI_YES;
	ck_assert_str_eq(ids(), "write-cache sync-always");
	assert_has(find("write-cache")->text, "are NOT durable unless, as here, "
	           "sync=always commits every write (see sync-always)");
	a = find("sync-always");
	ck_assert_str_eq(a->text, "the zvol /dev/zvol/rdsk/rpool/vol has sync=always: "
	                 "every write is committed to the ZFS intent log before it "
	                 "returns, so writes without a commit (sync-write's none and "
	                 "direct rows, dd without oflag=dsync) are commits here and cost "
	                 "one each; zfs set sync=standard makes only the commits asked "
	                 "for wait");

	/* sync=disabled: the library's flush does nothing either (devinfo
	 * says commit_flush NO); sync-disabled says it, not no-flush. */
	f.di.sync_always = DIO_TRI_NO;
	f.di.sync_disabled = DIO_TRI_YES;
	f.di.commit_flush = DIO_TRI_NO;
	ck_assert_str_eq(ids(), "sync-disabled");
	f.di.write_cache = DIO_TRI_UNKNOWN;
	ck_assert_str_eq(ids(), "sync-disabled");
	/* Flush not known: the cache advice does not claim durability. */
	f.di.write_cache = DIO_TRI_YES;
	f.di.commit_flush = DIO_TRI_UNKNOWN;
	ck_assert_str_eq(ids(), "write-cache sync-disabled");
	assert_has(find("write-cache")->text, "commits would need a cache flush to be "
	           "durable, and sync=disabled makes them send none (see sync-disabled)");
	ck_assert_ptr_null(strstr(find("write-cache")->text, "so they are durable"));
	assert_has(find("sync-disabled")->text, "the zvol /dev/zvol/rdsk/rpool/vol has "
	           "sync=disabled: fsync(), fdatasync(), O_SYNC/O_DSYNC writes and the "
	           "cache flush libdirectio sends after each commit "
	           "(DKIOCFLUSHWRITECACHE) return at once");

	/* A file on ZFS. */
	sunos_facts();
	f.path = "/tank/db/log";
	f.type = "regular file";
	f.is_dev = 0;
	f.is_reg = 1;
	snprintf(f.fs_type, sizeof(f.fs_type), "zfs");
	f.di.kind = DIO_DEVINFO_FILE;
	f.di.device[0] = f.di.disk[0] = '\0';
	f.di.sync_disabled = DIO_TRI_NO;
	f.di.sync_always = DIO_TRI_YES;
	ck_assert_str_eq(ids(), "sync-always");
	assert_has(find("sync-always")->text, "the ZFS dataset holding /tank/db/log has "
	           "sync=always");
	f.di.sync_always = DIO_TRI_UNKNOWN;
	ck_assert_str_eq(ids(), "");
	f.di.sync_disabled = DIO_TRI_YES;
	f.di.sync_always = DIO_TRI_NO;
	f.di.commit_flush = DIO_TRI_NO;         /* as devinfo says it */
	ck_assert_str_eq(ids(), "sync-disabled");
	assert_has(find("sync-disabled")->text, "the ZFS dataset holding /tank/db/log has "
	           "sync=disabled: fsync(), fdatasync(), O_SYNC/O_DSYNC writes return");
}
END_TEST

/* NFS on illumos: a direct write is a stable write. */
START_TEST(test_sunos_nfs_stable)
{
	const struct advice *a;

	sunos_facts();
	f.path = "/net/srv/data/f";
	f.type = "regular file";
	f.is_dev = 0;
	f.is_reg = 1;
	snprintf(f.fs_type, sizeof(f.fs_type), "nfs");
	f.di.kind = DIO_DEVINFO_FILE;
	f.di.device[0] = f.di.disk[0] = '\0';
	f.probe = PROBE_TEMP;
	f.mech = DIO_MECH_DIRECTIO;
	ck_assert_str_eq(ids(), "");
	f.di.direct_stable = DIO_TRI_YES;
	ck_assert_str_eq(ids(), "direct-stable");
	a = find("direct-stable");
	assert_has(a->text, "a direct write to /net/srv/data/f is a stable write: the nfs "
	           "client sends it FILE_SYNC and the server commits it before "
	           "answering");
	assert_has(a->text, "While the file has any page in the client's cache, even a "
	           "clean one, writes go through that cache instead and are not stable");
	f.di.direct_stable = DIO_TRI_NO;
	ck_assert_str_eq(ids(), "");
}
END_TEST

/* In use or not cannot be told: said, with the reason. */
START_TEST(test_in_use_unknown)
{
	sunos_facts();
	f.path = "/dev/zvol/rdsk/rpool/swap";
	f.type = "character device";
	snprintf(f.di.device, sizeof(f.di.device), "/dev/zvol/rdsk/rpool/swap");
	f.di.write_cache = DIO_TRI_NO;
	f.in_use = -13;
	snprintf(f.in_use_why, sizeof(f.in_use_why), "the dump device cannot be "
	         "asked: /dev/dump: Permission denied");
	ck_assert_str_eq(ids(), "in-use-unknown");
	ck_assert_str_eq(find("in-use-unknown")->text, "cannot tell whether "
	                 "/dev/zvol/rdsk/rpool/swap is in use (the dump device cannot be "
	                 "asked: /dev/dump: Permission denied): tools that write to "
	                 "devices (sync-write --force, dio-dd) refuse it as if it were");
	/* No reason: the check was not made (not a device it looks at). */
	f.in_use_why[0] = '\0';
	ck_assert_str_eq(ids(), "");
	/* A file on a device whose use cannot be told is not itself in doubt. */
	snprintf(f.in_use_why, sizeof(f.in_use_why), "not root");
	f.is_dev = 0;
	f.di.kind = DIO_DEVINFO_FILE;
	ck_assert_str_eq(ids(), "");
}
END_TEST

/* What report(&f, &l) writes on stdout, in a malloc'd string. */
static char *
capture(void (*report)(const struct facts *, const struct advice_list *))
{
	FILE *tmp = tmpfile();
	int saved;
	long n;
	char *out;

	ck_assert_ptr_nonnull(tmp);
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	ck_assert_int_ge(saved, 0);
	ck_assert_int_ge(dup2(fileno(tmp), STDOUT_FILENO), 0);
	info_advice(&f, &l);
	report(&f, &l);
	fflush(stdout);
	ck_assert_int_ge(dup2(saved, STDOUT_FILENO), 0);
	close(saved);
	n = ftell(tmp);
	ck_assert_int_gt(n, 0);
	out = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(out);
	rewind(tmp);
	ck_assert_uint_eq(fread(out, 1, (size_t)n, tmp), (size_t)n);
	out[n] = '\0';
	fclose(tmp);
	return out;
}

/* The new facts in the text and JSON reports, where they are known. */
START_TEST(test_report_fields)
{
	char *t, *j;

	/* Unknown: no line, JSON null. */
	base_facts();
	t = capture(info_text);
	ck_assert_ptr_null(strstr(t, "flush on commit"));
	ck_assert_ptr_null(strstr(t, "direct writes"));
	ck_assert_ptr_null(strstr(t, "  commits"));
	j = capture(info_json);
	assert_has(j, "\"stable_writes\": null");
	assert_has(j, "\"sync_always\": null");
	assert_has(j, "\"commit_flush\": null");
	free(t);
	free(j);

	/* UFS on illumos. */
	sunos_ufs_file();
	f.di.write_cache = DIO_TRI_YES;
	t = capture(info_text);
	assert_has(t, "  flush on commit      no: nothing sends a cache flush (ufs); "
	           "with a volatile cache, commits are not durable across a power loss\n");
	assert_has(t, "  * no-flush: commits on ufs are NOT durable");
	j = capture(info_json);
	assert_has(j, "\"commit_flush\": false");
	free(t);
	free(j);

	/* An illumos zvol with sync=always whose use cannot be told. */
	sunos_facts();
	f.path = "/dev/zvol/rdsk/rpool/vol";
	f.type = "character device";
	f.st.st_mode = S_IFCHR | 0600;
	snprintf(f.di.device, sizeof(f.di.device), "/dev/zvol/rdsk/rpool/vol");
	f.di.commit_flush = DIO_TRI_YES;
	f.di.sync_disabled = DIO_TRI_NO;
	f.di.sync_always = DIO_TRI_YES;
	f.in_use = -13;
	snprintf(f.in_use_why, sizeof(f.in_use_why), "not root: libdiskmgt cannot look");
	t = capture(info_text);
	assert_has(t, "  commits              every write is one: the ZFS volume has "
	           "sync=always\n");
	assert_has(t, "  in use               cannot tell: not root: libdiskmgt cannot "
	           "look\n");
	assert_has(t, "  flush on commit      yes: libdirectio sends DKIOCFLUSHWRITECACHE "
	           "after each commit (the kernel does not on a device node)\n");
	j = capture(info_json);
	assert_has(j, "\"sync_always\": true");
	assert_has(j, "\"fs_sync_disabled\": false");
	assert_has(j, "\"commit_flush\": true");
	assert_has(j, "\"in_use\": null");
	assert_has(j, "\"in_use_reason\": \"not root: libdiskmgt cannot look\"");
	free(t);
	free(j);

	/* NFS on illumos. */
	sunos_facts();
	f.path = "/net/srv/f";
	f.type = "regular file";
	f.is_dev = 0;
	f.is_reg = 1;
	f.di.kind = DIO_DEVINFO_FILE;
	f.di.device[0] = '\0';
	snprintf(f.fs_type, sizeof(f.fs_type), "nfs");
	f.di.direct_stable = DIO_TRI_YES;
	t = capture(info_text);
	assert_has(t, "  direct writes        stable: the server commits each before "
	           "answering (while the file has no cached page)\n");
	j = capture(info_json);
	assert_has(j, "\"stable_writes\": true");
	free(t);
	free(j);
}
END_TEST

START_TEST(test_udev_match)
{
	struct dio_devinfo d;
	char buf[300];
	int by_name = -1;

	memset(&d, 0, sizeof(d));
	snprintf(d.name, sizeof(d.name), "sdb");
	ck_assert_str_eq(info_udev_match(&d, buf, sizeof(buf), &by_name), "KERNEL==\"sdb\"");
	ck_assert_int_eq(by_name, 1);
	snprintf(d.loop_backing, sizeof(d.loop_backing), "/img");
	ck_assert_str_eq(info_udev_match(&d, buf, sizeof(buf), &by_name),
	                 "KERNEL==\"loop*\", ATTR{loop/backing_file}==\"/img\"");
	ck_assert_int_eq(by_name, 0);
	snprintf(d.wwid, sizeof(d.wwid), "naa.5000");
	ck_assert_str_eq(info_udev_match(&d, buf, sizeof(buf), &by_name),
	                 "ENV{DEVTYPE}==\"disk\", ATTRS{wwid}==\"naa.5000\"");
	snprintf(d.id_serial, sizeof(d.id_serial), "ATA_X_1");
	ck_assert_str_eq(info_udev_match(&d, buf, sizeof(buf), &by_name),
	                 "ENV{DEVTYPE}==\"disk\", ENV{ID_SERIAL}==\"ATA_X_1\"");
	/* A quote cannot go into a rule: the next identity is used. */
	snprintf(d.id_serial, sizeof(d.id_serial), "a\"b");
	ck_assert_str_eq(info_udev_match(&d, buf, sizeof(buf), &by_name),
	                 "ENV{DEVTYPE}==\"disk\", ATTRS{wwid}==\"naa.5000\"");
}
END_TEST

START_TEST(test_word_in)
{
	ck_assert_int_eq(info_word_in("none mq-deadline bfq", "none"), 1);
	ck_assert_int_eq(info_word_in("mq-deadline none", "none"), 1);
	ck_assert_int_eq(info_word_in("mq-deadline bfq none", "none"), 1);
	ck_assert_int_eq(info_word_in("mq-deadline bfq", "none"), 0);
	ck_assert_int_eq(info_word_in("nonesuch xnone", "none"), 0);
	ck_assert_int_eq(info_word_in("xnone none", "none"), 1);
	ck_assert_int_eq(info_word_in("", "none"), 0);
	ck_assert_int_eq(info_word_in("deadline", "mq-deadline"), 0);
}
END_TEST

START_TEST(test_parse_serial)
{
	static const uint8_t good[] = { 0, 0x80, 0, 10, ' ', ' ', 'A', 'B', 'C', '1',
	                                ' ', ' ', 0, 0 };
	static const uint8_t odd[] = { 0, 0x80, 0, 4, 'x', 0x01, 0xff, 'y' };
	static const uint8_t blank[] = { 0, 0x80, 0, 3, ' ', ' ', ' ' };
	static const uint8_t other[] = { 0, 0x83, 0, 2, 'a', 'b' };
	static const uint8_t longer[] = { 0, 0x80, 0, 200, 'S', 'N' };
	char out[64];

	ck_assert_int_eq(info_parse_serial(good, sizeof(good), out, sizeof(out)), 0);
	ck_assert_str_eq(out, "ABC1");
	ck_assert_int_eq(info_parse_serial(odd, sizeof(odd), out, sizeof(out)), 0);
	ck_assert_str_eq(out, "x??y");
	ck_assert_int_eq(info_parse_serial(blank, sizeof(blank), out, sizeof(out)), -1);
	ck_assert_int_eq(info_parse_serial(other, sizeof(other), out, sizeof(out)), -1);
	ck_assert_int_eq(info_parse_serial(good, 3, out, sizeof(out)), -1);
	/* A page length beyond the data: only what arrived. */
	ck_assert_int_eq(info_parse_serial(longer, sizeof(longer), out, sizeof(out)), 0);
	ck_assert_str_eq(out, "SN");
	/* Truncated to the output buffer. */
	ck_assert_int_eq(info_parse_serial(good, sizeof(good), out, 3), 0);
	ck_assert_str_eq(out, "AB");
}
END_TEST

START_TEST(test_names)
{
	struct stat st;

	ck_assert_str_eq(info_peripheral_name(0x00), "disk");
	ck_assert_str_eq(info_peripheral_name(0x05), "CD/DVD");
	ck_assert_str_eq(info_peripheral_name(0x1f), "unknown or no device type");
	ck_assert_str_eq(info_peripheral_name(0x06), "reserved");
	memset(&st, 0, sizeof(st));
	st.st_mode = S_IFDIR | 0755;
	ck_assert_str_eq(info_file_type(&st), "directory");
	st.st_mode = S_IFBLK | 0600;
	ck_assert_str_eq(info_file_type(&st), "block device");
}
END_TEST

static Suite *
info_suite(void)
{
	Suite *s = suite_create("info");
	TCase *tc = tcase_create("advice");

	tcase_add_test(tc, test_nothing_to_advise);
	tcase_add_test(tc, test_max_sectors);
	tcase_add_test(tc, test_sg);
	tcase_add_test(tc, test_write_cache);
	tcase_add_test(tc, test_queue);
	tcase_add_test(tc, test_alignment_blocks);
	tcase_add_test(tc, test_no_direct);
	tcase_add_test(tc, test_loop_in_use);
	tcase_add_test(tc, test_order);
	tcase_add_test(tc, test_sunos_ufs_no_flush);
	tcase_add_test(tc, test_sunos_node_flush);
	tcase_add_test(tc, test_sunos_zvol_sync);
	tcase_add_test(tc, test_sunos_nfs_stable);
	tcase_add_test(tc, test_in_use_unknown);
	tcase_add_test(tc, test_report_fields);
	suite_add_tcase(s, tc);
	tc = tcase_create("parsers");
	tcase_add_test(tc, test_udev_match);
	tcase_add_test(tc, test_word_in);
	tcase_add_test(tc, test_parse_serial);
	tcase_add_test(tc, test_names);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(srunner_create(info_suite()));
}
