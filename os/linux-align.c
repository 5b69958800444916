/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * linux-align.c -- Linux alignment facts for dio_align(): statx
 * STATX_DIOALIGN where the kernel has it, else the block device's sizes
 * from its ioctls (BLKSSZGET and others) or from sysfs (queue/) for the
 * files on it, else a guess of the page size.
 */
#include "config.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#ifdef HAVE_LINUX_FS_H
# include <linux/fs.h>
#endif

#include "lib/internal.h"
#include "os/linux-read.h"
#include "os/linux.h"
#include "os/os.h"

/*
 * Read an unsigned number from a sysfs queue attribute of the block device
 * dev (a whole disk or a partition, whose queue/ is its parent's).
 * Returns 0 if it could not be read.
 */
static uint64_t
dio__sysfs_queue(dev_t dev, const char *attr)
{
	static const char *const fmt[] = {
		"/sys/dev/block/%u:%u/queue/%s",
		"/sys/dev/block/%u:%u/../queue/%s",
	};
	char path[PATH_MAX], rel[128];
	char line[64];
	uint64_t v;
	size_t i;
	FILE *fp;
	int r;

	for (i = 0; i < sizeof(fmt) / sizeof(fmt[0]); i++) {
		snprintf(rel, sizeof(rel), fmt[i], major(dev), minor(dev), attr);
		dio__sys_path(path, sizeof(path), "%s", rel);
		fp = fopen(path, "re");
		if (fp == NULL)
			continue;
		r = dio__read_line_fp(fp, line, sizeof(line));
		fclose(fp);
		if (r < 0 || dio__parse_u64(line, &v) < 0)
			v = 0;
		return v;
	}
	return 0;
}

/* Fill block sizes from the block device dev via sysfs (files on it). */
static void
dio__bdev_sizes_sysfs(dev_t dev, struct dio_align *a)
{
	uint64_t v;

	if (major(dev) == 0)    /* anonymous: tmpfs, btrfs subvolumes, overlay... */
		return;
	if ((v = dio__sysfs_queue(dev, "logical_block_size")) != 0)
		a->logical_block = (uint32_t)v;
	if ((v = dio__sysfs_queue(dev, "physical_block_size")) != 0)
		a->physical_block = (uint32_t)v;
}

static void
dio__bdev_sizes_ioctl(int fd, const struct stat *st, struct dio_align *a)
{
#ifdef BLKSSZGET
	int lbs = 0;
	unsigned int pbs = 0, opt = 0;
	uint64_t bytes = 0;
	uint64_t dma;

	if (ioctl(fd, BLKSSZGET, &lbs) == 0 && lbs > 0)
		a->logical_block = (uint32_t)lbs;
# ifdef BLKPBSZGET
	if (ioctl(fd, BLKPBSZGET, &pbs) == 0 && pbs > 0)
		a->physical_block = pbs;
# endif
# ifdef BLKIOOPT
	if (ioctl(fd, BLKIOOPT, &opt) == 0 && opt > 0)
		a->preferred_io = opt;
# endif
# ifdef BLKGETSIZE64
	if (ioctl(fd, BLKGETSIZE64, &bytes) == 0)
		a->device_bytes = bytes;
# endif
	if (a->source == DIO_ALIGN_SRC_NONE && a->logical_block) {
		/* No statx answer: the sector size bounds offsets and lengths,
		 * and the queue's dma_alignment mask the buffer address. */
		a->offset_align = a->logical_block;
		dma = dio__sysfs_queue(st->st_rdev, "dma_alignment");
		a->mem_align = dma ? (uint32_t)(dma + 1) : a->logical_block;
		a->source = DIO_ALIGN_SRC_BLKDEV;
	}
#else
	(void)fd; (void)st; (void)a;
#endif
}

int
dio__os_align(int fd, const struct stat *st, struct dio_align *a)
{
	int dio_refused = 0;
#if DIO__HAVE_DIOALIGN
	struct statx stx;

	memset(&stx, 0, sizeof(stx));
	if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) == 0 &&
	    (stx.stx_mask & STATX_DIOALIGN)) {
		if (stx.stx_dio_offset_align != 0) {
			a->mem_align = stx.stx_dio_mem_align;
			a->offset_align = stx.stx_dio_offset_align;
			a->source = DIO_ALIGN_SRC_STATX;
# if HAVE_DECL_STATX_DIO_READ_ALIGN
			if (stx.stx_mask & STATX_DIO_READ_ALIGN)
				a->read_offset_align = stx.stx_dio_read_offset_align;
# endif
		} else {
			/* The kernel says: no direct I/O on this file. */
			dio_refused = 1;
		}
	}
#endif
	if (S_ISBLK(st->st_mode)) {
		dio__bdev_sizes_ioctl(fd, st, a);
	} else if (S_ISREG(st->st_mode) || S_ISDIR(st->st_mode)) {
		dio__bdev_sizes_sysfs(st->st_dev, a);
		if (a->source == DIO_ALIGN_SRC_NONE && !dio_refused &&
		    S_ISREG(st->st_mode)) {
			if (a->logical_block) {
				a->mem_align = a->offset_align = a->logical_block;
				a->source = DIO_ALIGN_SRC_BLKDEV;
			} else {
				a->mem_align = a->offset_align = (uint32_t)dio__pagesize();
				a->source = DIO_ALIGN_SRC_GUESS;
			}
		}
	}
	/* Character devices (sg, tty...) have no O_DIRECT alignment. */
	return 0;
}
