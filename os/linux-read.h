/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * linux-read.h -- the readers of the Linux backend that parse what the
 * kernel and udev write: /proc/self/mountinfo, /proc/swaps, sysfs
 * attributes, uevent files, the udev database (os/linux-read.c), and the sg
 * driver's SG_IO replies (os/linux-scsi.c).  Each reads an open stream or a
 * buffer rather than a path, so that the tests can feed it any text
 * (tests/fuzz/); the other os/linux-*.c files open the real files and call
 * them.  GNU/Linux only; internal (dio__), never part of the library's API.
 */
#ifndef DIO_OS_LINUX_READ_H
#define DIO_OS_LINUX_READ_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "libdirectio.h"

/* One entry of /proc/self/mountinfo (proc(5)): fields 3, 5, and the two
 * after the " - " separator.  Text as the kernel writes it (octal escapes
 * such as \040 kept); "" where the line has no such field. */
struct dio__mount {
	dev_t dev;              /* field 3, MAJ:MIN                         */
	char mnt[1024];         /* field 5, the mount point                 */
	char fstype[64];        /* after " - ": the file system type        */
	char source[1024];      /* after " - ": the mount source            */
};

/*
 * The next entry of the mountinfo stream fp: 1 with *m filled, 0 at the end.
 * Lines that do not start "ID PARENT MAJ:MIN ROOT MOUNTPOINT" are skipped.
 * A line longer than the reader's buffer (long mount options) is parsed
 * from its start and the rest of it skipped, never read as a line of its
 * own.
 */
int dio__mountinfo_next(FILE *fp, struct dio__mount *m);

/* The next swap area of the /proc/swaps stream fp that is named by an
 * absolute path (the heading is skipped): 1 with it in name, 0 at the end. */
int dio__swaps_next(FILE *fp, char *name, size_t len);

/* The first line of fp (a sysfs attribute), without the trailing newline,
 * blanks and tabs: 0, or -EIO on a read error ("" when fp is empty). */
int dio__read_line_fp(FILE *fp, char *buf, size_t len);

/* A sysfs number: decimal digits after optional blanks, then anything
 * ("30536\t3.5.36 [20140603]" is 30536): 0, or -EINVAL (no digits, a
 * sign) or -ERANGE (above UINT64_MAX). */
int dio__parse_u64(const char *line, uint64_t *v);

/* queue/scheduler ("[none] mq-deadline kyber") into o->scheduler (the
 * bracketed one) and o->schedulers (all, as far as they fit). */
void dio__parse_scheduler(const char *line, struct dio_devinfo *o);

/* queue/write_cache: DIO_TRI_YES for "write back", DIO_TRI_NO for "write
 * through", else DIO_TRI_UNKNOWN. */
uint32_t dio__parse_write_cache(const char *line);

/* The DEVNAME= of a uevent stream as "/dev/NAME" in buf: 1 found, 0 not. */
int dio__uevent_devname(FILE *fp, char *buf, size_t len);

/* E:ID_SERIAL= of a udev database entry (/run/udev/data/bMAJ:MIN) into
 * o->id_serial: 1 found, 0 not. */
int dio__udev_serial_fp(FILE *fp, struct dio_devinfo *o);

/*
 * The text of a disk's stat file (/sys/block/NAME/stat) into *c: its
 * counters and have bits; err -ENODATA with a note for fewer than 7
 * fields (no write counts), -EPROTO with a note for text that is not
 * blank-separated decimal numbers (or a number above UINT64_MAX); with
 * 7 to 16 fields, DIO_COUNTS_IO only and a note saying that the kernel
 * gives no flush counts.  Fields past the 17th (later kernels may add
 * some) are ignored.  at_ns is left alone.
 */
void dio__parse_disk_stat(const char *text, struct dio_disk_counts *c);

/*
 * For tests (tests/fuzz/sg-reply.c) only: when set, dio__os_scsi_exec()
 * hands each SG_IO request to this function instead of the kernel, and
 * takes every descriptor for an sg node; the function fills the reply
 * fields of h as the sg driver would and returns 0, or -1 with errno set.
 * Built only with <scsi/sg.h>.
 */
struct sg_io_hdr;
extern int (*dio__sg_io_hook)(int fd, struct sg_io_hdr *h);

#endif
