/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * info.h -- dio-info's model: the options, the facts gathered about a
 * path, and the advice derived from them.  Every stage takes these as
 * arguments:
 *
 *   info_args()     argv -> struct info_opts                 (args.c)
 *   info_examine()  path -> struct facts                     (probe.c, scsi.c)
 *   info_advice()   facts -> struct advice_list              (advice.c)
 *   info_text(), info_json()  facts + advice -> stdout       (text.c, report-json.c)
 *
 * It never writes: files and devices are opened read-only, SCSI commands
 * only read, and --probe-write creates, writes and removes one temporary
 * file of its own in a directory.
 */
#ifndef DIO_INFO_H
#define DIO_INFO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "libdirectio.h"

#define PROG "dio-info"
#define MAX_ADVICE 24
#define MAX_ACTIONS 4
#define SCAN_ENTRIES 256        /* directory entries looked at for a file to probe */
#define READ_AHEAD_SMALL_KB 1024u
#define READ_AHEAD_SUGGEST_KB 4096u

/* ------------------------------------------------------------ options */

enum { FMT_TEXT, FMT_JSON };

struct info_opts {
	const char *path;
	int format;                 /* FMT_TEXT, FMT_JSON                        */
	int probe_write;            /* --probe-write                             */
	int no_scsi;                /* --no-scsi                                 */
	int counters;               /* --counters: the disks' counters only      */
};

/* ------------------------------------------------------------ facts */

enum probe_kind {
	PROBE_NONE,         /* no direct I/O probe was made                  */
	PROBE_OPEN,         /* the path itself, opened read-only             */
	PROBE_EXISTING,     /* a file already in the directory, read-only    */
	PROBE_TEMP          /* --probe-write: a temporary file of our own    */
};

/* The system and this build of the library, as far as the report uses them. */
struct platform {
	const char *backend;        /* dio_backend_name()                        */
	int on_linux;               /* linux backend: sysfs, udev and modprobe   */
	                            /* advice applies                            */
	int has_direct;             /* this build has a direct I/O mechanism     */
	long page_size;             /* sysconf(_SC_PAGESIZE); <= 0 unknown       */
	int have_uname;             /* un is valid                               */
	struct utsname un;
};

struct facts {
	struct platform plat;
	const char *path;
	struct stat st;
	const char *type;           /* "regular file", "directory", ...          */
	char fs_type[64];           /* "" unknown                                */
	int is_dir, is_reg, is_dev;

	/* direct I/O */
	int probe;                  /* probe_kind                                */
	char probe_file[1024];
	int mech;                   /* dio_mech, valid when probe != PROBE_NONE  */
	int probe_err;              /* -errno: the probe could not be made       */
	char direct_note[512];      /* why not probed / why refused              */
	int write_probe;            /* -1 not made, 0 failed, 1 ok               */
	char write_detail[1400];    /* how it went, or why it was not made       */
	int temp_err;               /* --probe-write: -errno creating the file   */
	int probe_opened;           /* the probe's file was open (probe_err came
	                             * after the open)                           */

	struct dio_align al;
	int have_al;

	/* device */
	struct dio_devinfo di;
	int di_err;
	int in_use;                 /* 1, 0, or < 0 unknown                      */
	char in_use_why[300];
	/* block-layer flush counts of every disk under the path (dio_tri;
	 * dio-info --counters shows them), and why not */
	int flush_counts;
	char flush_why[300];

	/* SCSI pass-through */
	char scsi_dev[128];         /* the node commands went to; "" none        */
	int scsi_ok;                /* it accepted pass-through                  */
	char scsi_why[400];         /* why not                                   */
	int have_inq;
	struct dio_inquiry inq;
	int have_serial;
	char serial[256];
	int have_cap;
	uint64_t blocks;
	uint32_t block_len;
	int have_cache;
	int wce, rcd;
	char cache_why[300];
};

/* ------------------------------------------------------------ advice */

struct action {
	const char *kind;           /* "now", "persistent", ...                 */
	char file[160];             /* file to put text into, or ""             */
	char text[600];
};

struct advice {
	const char *id;
	char text[1200];
	struct action act[MAX_ACTIONS];
	int nact;
};

struct advice_list {
	struct advice a[MAX_ADVICE];
	int n;
};

/* ------------------------------------------------------------ stages */

/* args.c: parse argv into o.  Returns 0 to run, 1 when --help or
 * --version has been answered (exit 0); usage errors exit 2. */
int info_args(int argc, char **argv, struct info_opts *o);

/* probe.c */
const char *info_file_type(const struct stat *st);
void info_platform(struct platform *p);
/* Everything about o->path into f (zeroed first); 0 or -errno when the
 * path cannot be examined at all. */
int info_examine(struct facts *f, const struct info_opts *o);

/* scsi.c */
void info_probe_scsi(struct facts *f);
const char *info_peripheral_name(int type);
/* VPD 80h: the unit serial number, trimmed; printable ASCII only.
 * 0, or -1 when there is none. */
int info_parse_serial(const uint8_t *b, size_t len, char *out, size_t outlen);

/* advice.c */
void info_advice(const struct facts *f, struct advice_list *l);
/* Is there a volatile write cache between a write and the medium?  A
 * dio_tri from what the kernel and the device said; why names them. */
int info_volatile_cache(const struct facts *f, char *why, size_t len);
/* A word is among the space-separated words of list. */
int info_word_in(const char *list, const char *word);
/* The udev match for the disk, most persistent first; *by_name is set
 * when only the kernel name was left. */
const char *info_udev_match(const struct dio_devinfo *d, char *buf, size_t len,
                            int *by_name);

/* counters.c: --counters, the report on stdout; 0, or DIOT_EXIT_FAIL
 * when the path's disks cannot be counted (said). */
int info_counters(const struct info_opts *o);
/* text.c, report-json.c: the report on stdout. */
void info_text(const struct facts *f, const struct advice_list *l);
void info_json(const struct facts *f, const struct advice_list *l);

#endif /* DIO_INFO_H */
