/*
 * dio-info.c -- everything about direct I/O on a path in one report: the
 * file system and whether it takes direct I/O (and by which mechanism),
 * the alignment direct transfers need, the block device underneath with
 * its request size limits, read-ahead, scheduler and write cache, the sg
 * driver's allow_dio and the device's sg node, the device's own answers
 * to INQUIRY, READ CAPACITY and MODE SENSE (caching page) through
 * pass-through, and advice derived from exactly those facts.
 *
 * It never writes: files and devices are opened read-only, SCSI commands
 * only read, and --probe-write creates, writes and removes one temporary
 * file of its own in a directory.
 *
 * Structure: options -> examine (stat, direct I/O probe, alignment,
 * dio_devinfo(), dio_device_in_use(), pass-through) -> advice (one rule
 * per fact) -> report as text or JSON.  Platform differences come from
 * the library; the advice texts are keyed on dio_backend_name().
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "libdirectio.h"
#include "tools/kit/util.h"

#define PROG "dio-info"
#define MAX_ADVICE 24
#define MAX_ACTIONS 4
#define SCAN_ENTRIES 256        /* directory entries looked at for a file to probe */
#define READ_AHEAD_SMALL_KB 1024u
#define READ_AHEAD_SUGGEST_KB 4096u

enum { FMT_TEXT, FMT_JSON };
static const char *const format_words[] = { "text", "json", NULL };

/* Not 0 on the linux backend: sysfs, udev and modprobe advice applies. */
static int on_linux;

/* ------------------------------------------------------------ facts */

enum probe_kind {
	PROBE_NONE,         /* no direct I/O probe was made                  */
	PROBE_OPEN,         /* the path itself, opened read-only             */
	PROBE_EXISTING,     /* a file already in the directory, read-only    */
	PROBE_TEMP          /* --probe-write: a temporary file of our own    */
};

struct facts {
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
	int write_probe;            /* -1 not tried, 0 failed, 1 ok              */
	char write_detail[300];

	struct dio_align al;
	int have_al;

	/* device */
	struct dio_devinfo di;
	int di_err;
	int in_use;                 /* 1, 0, or < 0 unknown                      */
	char in_use_why[300];

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

static struct advice advice[MAX_ADVICE];
static int nadvice;

/* ------------------------------------------------------------ helpers */

static struct advice *
advise(const char *id, const char *fmt, ...) DIOT_PRINTF(2, 3);

static struct advice *
advise(const char *id, const char *fmt, ...)
{
	struct advice *a;
	va_list ap;

	if (nadvice == MAX_ADVICE)
		diot_die(DIOT_EXIT_FAIL, "internal error: too many advice lines");
	a = &advice[nadvice++];
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

static const char *
file_type(const struct stat *st)
{
	if (S_ISREG(st->st_mode))
		return "regular file";
	if (S_ISDIR(st->st_mode))
		return "directory";
	if (S_ISBLK(st->st_mode))
		return "block device";
	if (S_ISCHR(st->st_mode))
		return "character device";
	if (S_ISFIFO(st->st_mode))
		return "fifo";
	if (S_ISSOCK(st->st_mode))
		return "socket";
	return "other";
}

static const char *
yes_no(int tri)
{
	return tri == DIO_TRI_YES ? "yes" : tri == DIO_TRI_NO ? "no" : "unknown";
}

static const char *
peripheral_name(int t)
{
	switch (t) {
	case 0x00: return "disk";
	case 0x01: return "tape";
	case 0x02: return "printer";
	case 0x03: return "processor";
	case 0x04: return "write-once";
	case 0x05: return "CD/DVD";
	case 0x07: return "optical memory";
	case 0x08: return "medium changer";
	case 0x0c: return "storage array controller";
	case 0x0d: return "enclosure services";
	case 0x0e: return "simplified direct-access";
	case 0x0f: return "optical card";
	case 0x11: return "object-based storage";
	case 0x12: return "automation/drive interface";
	case 0x14: return "host managed zoned block";
	case 0x1e: return "well known logical unit";
	case 0x1f: return "unknown or no device type";
	default:   return "reserved";
	}
}

/* A scheduler name is among the space-separated words of list. */
static int
word_in(const char *list, const char *word)
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

/* ------------------------------------------------------------ probes */

/* Whether this build of the library has any direct I/O mechanism. */
static int
build_has_direct(void)
{
	return (dio_caps() & (DIO_CAP_O_DIRECT | DIO_CAP_DIRECTIO)) != 0;
}

/* The temporary file of --probe-write, removed on a signal too. */
static char probe_path[1100];
static volatile sig_atomic_t probe_exists;

static void
on_signal(int sig)
{
	if (probe_exists)
		unlink(probe_path);
	signal(sig, SIG_DFL);
	raise(sig);
}

/*
 * Direct I/O on an open descriptor: ask for it (DIO_DIRECT_ON through an
 * adopted handle) and read back what is in effect.
 */
static void
probe_fd(struct facts *f, int fd, int kind, const char *file)
{
	dio_file *h = NULL;
	int r;

	f->probe = kind;
	if (file != NULL)
		snprintf(f->probe_file, sizeof(f->probe_file), "%s", file);
	r = dio_adopt(&h, fd, 0);
	if (r < 0) {
		f->probe_err = r;
		return;
	}
	r = dio_file_set_direct(h, DIO_DIRECT_ON);
	f->mech = dio_file_direct(h);
	if (r < 0 && r != -ENOTSUP)
		f->probe_err = r;
	else if (r == -ENOTSUP && !build_has_direct())
		snprintf(f->direct_note, sizeof(f->direct_note), "refused: this build "
		         "(libdirectio backend %s) has no direct I/O", dio_backend_name());
	else if (r == -ENOTSUP)
		snprintf(f->direct_note, sizeof(f->direct_note), "refused: %s",
		         f->is_dev ? "the device driver has no direct I/O" :
		         "the file system refuses direct I/O");
	if (dio_align_fd(fd, &f->al) == 0)
		f->have_al = 1;
	dio_close(h);
}

/* Look for a regular file of the same file system in directory dir. */
static int
find_existing_file(const char *dir, dev_t dev, char *out, size_t len)
{
	struct dirent *e;
	struct stat st;
	DIR *d = opendir(dir);
	int n = 0, found = 0;

	if (d == NULL)
		return 0;
	while (!found && n < SCAN_ENTRIES && (e = readdir(d)) != NULL) {
		n++;
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if ((size_t)snprintf(out, len, "%s/%s", dir, e->d_name) >= len)
			continue;
		if (lstat(out, &st) == 0 && S_ISREG(st.st_mode) && st.st_dev == dev &&
		    access(out, R_OK) == 0)
			found = 1;
	}
	closedir(d);
	return found;
}

/* --probe-write: a temporary file in directory dir, one direct write and read. */
static void
probe_temp(struct facts *f, const char *dir)
{
	dio_file *h = NULL;
	char detail[300];
	struct dio_align a;
	uint64_t n;
	void *buf;
	sigset_t block, old;
	int r, i;

	/* The signal handler removes the file: it must know exactly when
	 * there is one of ours (never someone else's of the same name). */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old);
	for (i = 0; i < 100; i++) {
		snprintf(probe_path, sizeof(probe_path), "%s/.dio-info.%ld.%d", dir,
		         (long)getpid(), i);
		r = dio_open(&h, probe_path, DIO_O_RDWR | DIO_O_CREAT | DIO_O_EXCL,
		             DIO_DIRECT_TRY, DIO_SYNC_NONE, 0600);
		if (r != -EEXIST)
			break;
	}
	probe_exists = r == 0;
	sigprocmask(SIG_SETMASK, &old, NULL);
	f->probe = PROBE_TEMP;
	snprintf(f->probe_file, sizeof(f->probe_file), "%s", probe_path);
	if (r < 0) {
		f->probe_err = r;
		return;
	}
	f->mech = dio_file_direct(h);
	if (dio_file_align(h, &f->al) == 0)
		f->have_al = 1;
	if (f->mech == DIO_MECH_NONE) {
		if (build_has_direct())
			snprintf(f->direct_note, sizeof(f->direct_note), "refused: the file "
			         "system refuses direct I/O");
		else
			snprintf(f->direct_note, sizeof(f->direct_note), "refused: this "
			         "build (libdirectio backend %s) has no direct I/O",
			         dio_backend_name());
	} else {
		dio_file_align(h, &a);
		n = a.offset_align ? a.offset_align : 4096;
		if (n < 4096 && 4096 % n == 0)
			n = 4096;
		buf = dio_alloc((size_t)n, a.mem_align > 4096 ? a.mem_align : 0);
		if (buf == NULL)
			diot_die(DIOT_EXIT_FAIL, "out of memory");
		memset(buf, 0x5a, (size_t)n);
		r = (int)dio_pwrite(h, buf, (size_t)n, 0);
		if (r >= 0)
			r = (int)dio_pread(h, buf, (size_t)n, 0);
		if (r >= 0 && (uint64_t)r == n) {
			f->write_probe = 1;
			snprintf(f->write_detail, sizeof(f->write_detail), "a %llu-byte "
			         "direct write and read back at offset 0 worked",
			         (unsigned long long)n);
		} else {
			f->write_probe = 0;
			dio_file_errdetail(h, detail, sizeof(detail));
			snprintf(f->write_detail, sizeof(f->write_detail), "a %llu-byte "
			         "direct write or read failed: %s%s%s", (unsigned long long)n,
			         r < 0 ? dio_strerror(r) : "short transfer",
			         detail[0] ? ": " : "", detail);
		}
		dio_free(buf);
	}
	dio_close(h);
	sigprocmask(SIG_BLOCK, &block, &old);
	unlink(probe_path);
	probe_exists = 0;
	sigprocmask(SIG_SETMASK, &old, NULL);
}

static void
probe_direct(struct facts *f, int probe_write)
{
	char file[1024];
	int fd, can_undo = (dio_caps() & DIO_CAP_GET_DIRECT) != 0;

	f->write_probe = -1;
	if (f->is_dir) {
		if (probe_write) {
			probe_temp(f, f->path);
			return;
		}
		if (dio_align_path(f->path, &f->al) == 0)
			f->have_al = 1;
		if (!can_undo) {
			/* directio() is advice on the file, for everyone who
			 * has it open, and cannot be read back: no probing of
			 * other people's files. */
			snprintf(f->direct_note, sizeof(f->direct_note), "not probed: "
			         "turning direct I/O on for a file here would change it for "
			         "everyone using it; --probe-write tests a temporary file");
			return;
		}
		if (find_existing_file(f->path, f->st.st_dev, file, sizeof(file))) {
			fd = open(file, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
			if (fd >= 0) {
				probe_fd(f, fd, PROBE_EXISTING, file);
				close(fd);
				return;
			}
		}
		snprintf(f->direct_note, sizeof(f->direct_note), "not probed: no readable "
		         "file in the directory to open read-only; --probe-write tests a "
		         "temporary file");
		return;
	}
	if (f->di.kind == DIO_DEVINFO_SG) {
		snprintf(f->direct_note, sizeof(f->direct_note), "not applicable: an sg "
		         "node moves data by SCSI command, and each command asks for "
		         "direct I/O itself (SG_FLAG_DIRECT_IO), which allow_dio permits");
		return;
	}
	if (!f->is_reg && !(S_ISBLK(f->st.st_mode) || f->di.kind == DIO_DEVINFO_BLOCK)) {
		/* Other character devices may act on open (a tape rewinds on
		 * close, a watchdog starts): they are not opened. */
		snprintf(f->direct_note, sizeof(f->direct_note), "not applicable: %s %s",
		         f->type, S_ISCHR(f->st.st_mode) ? "(not opened: opening some "
		         "devices has side effects)" : "(no data blocks of its own)");
		return;
	}
	if (!can_undo && S_ISCHR(f->st.st_mode) && strcmp(dio_backend_name(), "sunos") == 0) {
		/* illumos raw disk nodes (/dev/rdsk) go through physio. */
		snprintf(f->direct_note, sizeof(f->direct_note), "not applicable: a raw "
		         "disk node caches nothing; every read and write goes to the disk");
		return;
	}
	if (f->is_reg && !can_undo) {
		snprintf(f->direct_note, sizeof(f->direct_note), "not probed: turning "
		         "direct I/O on would change this file for everyone using it");
		if (dio_align_path(f->path, &f->al) == 0)
			f->have_al = 1;
		return;
	}
	fd = open(f->path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		f->probe = PROBE_OPEN;
		f->probe_err = -errno;
		return;
	}
	probe_fd(f, fd, PROBE_OPEN, NULL);
	close(fd);
}

/* ------------------------------------------------------------ pass-through */

/* Run one read-only command; 0 when GOOD, else why in why. */
static int
scsi_in(int fd, const uint8_t *cdb, int cdb_len, uint8_t *buf, size_t len,
        size_t *got, char *why, size_t whylen)
{
	dio_scsi *c = dio_scsi_new();
	struct dio_sense s;
	const uint8_t *sb;
	char detail[300];
	size_t n;
	int r;

	if (c == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	memset(buf, 0, len);
	dio_scsi_set_cdb(c, cdb, (size_t)cdb_len);
	dio_scsi_set_data(c, DIO_SCSI_DIR_IN, buf, len);
	dio_scsi_set_timeout(c, 10000);
	r = dio_scsi_exec(c, fd);
	if (r < 0) {
		dio_scsi_errdetail(c, detail, sizeof(detail));
		snprintf(why, whylen, "%s", detail[0] ? detail : dio_strerror(r));
	} else if (dio_scsi_category(c) == DIO_SCSI_CAT_SENSE) {
		sb = dio_scsi_sense(c, &n);
		if (dio_sense_decode(sb, n, &s) == 0)
			dio_sense_str(&s, why, whylen);
		else
			snprintf(why, whylen, "CHECK CONDITION with undecodable sense");
		r = 1;
	} else if (dio_scsi_category(c) == DIO_SCSI_CAT_STATUS) {
		snprintf(why, whylen, "status %s",
		         dio_scsi_status_name(dio_scsi_status(c)));
		r = 1;
	} else if (dio_scsi_category(c) != DIO_SCSI_CAT_GOOD) {
		snprintf(why, whylen, "transport error (host status 0x%x, driver status "
		         "0x%x)", dio_scsi_host_status(c), dio_scsi_driver_status(c));
		r = 1;
	} else if (got != NULL) {
		int64_t resid = dio_scsi_resid(c);

		*got = resid > 0 && (uint64_t)resid <= len ? len - (size_t)resid : len;
	}
	dio_scsi_free(c);
	return r;
}

/* VPD 80h: the unit serial number, trimmed; printable ASCII only. */
static int
parse_serial(const uint8_t *b, size_t len, char *out, size_t outlen)
{
	size_t n, i, k = 0, start;

	if (len < 4 || b[1] != 0x80)
		return -1;
	n = ((size_t)b[2] << 8) | b[3];
	if (n > len - 4)
		n = len - 4;
	start = 4;
	while (n > 0 && b[start] == ' ') {
		start++;
		n--;
	}
	while (n > 0 && (b[start + n - 1] == ' ' || b[start + n - 1] == '\0'))
		n--;
	for (i = 0; i < n && k + 1 < outlen; i++)
		out[k++] = b[start + i] >= 0x20 && b[start + i] < 0x7f ? (char)b[start + i] : '?';
	out[k] = '\0';
	return k > 0 ? 0 : -1;
}

static void
probe_scsi(struct facts *f)
{
	uint8_t cdb[16], buf[256];
	char why[300];
	size_t got = 0, i, n;
	int fd, len, r, wce, rcd;

	if (f->di.kind == DIO_DEVINFO_SG || (f->di.kind == DIO_DEVINFO_BLOCK && f->di.disk[0] == '\0'))
		snprintf(f->scsi_dev, sizeof(f->scsi_dev), "%s", f->path);
	else if (f->di.disk[0] != '\0')
		snprintf(f->scsi_dev, sizeof(f->scsi_dev), "%s", f->di.disk);
	else if (S_ISBLK(f->st.st_mode))
		snprintf(f->scsi_dev, sizeof(f->scsi_dev), "%s", f->path);
	else
		return;         /* no device to ask */

	fd = dio_scsi_open(f->scsi_dev, 1);
	if (fd == -ENOTTY) {
		snprintf(f->scsi_why, sizeof(f->scsi_why), "%s does not accept SCSI "
		         "pass-through (%s): not a SCSI device", f->scsi_dev,
		         on_linux ? "SG_IO" : "USCSICMD");
		return;
	}
	if (fd == -ENOTSUP) {
		snprintf(f->scsi_why, sizeof(f->scsi_why), "this build has no SCSI "
		         "pass-through (libdirectio backend %s)", dio_backend_name());
		return;
	}
	if (fd < 0) {
		snprintf(f->scsi_why, sizeof(f->scsi_why), "cannot open %s read-only: %s",
		         f->scsi_dev, dio_strerror(fd));
		return;
	}
	len = dio_cdb_inquiry(cdb, 0, 0, 96);
	r = scsi_in(fd, cdb, len, buf, 96, &got, why, sizeof(why));
	if (r < 0) {
		/* Not even INQUIRY could be sent: no pass-through here. */
		snprintf(f->scsi_why, sizeof(f->scsi_why), "INQUIRY could not be sent to "
		         "%s: %s", f->scsi_dev, why);
		close(fd);
		return;
	}
	f->scsi_ok = 1;
	if (r == 0 && dio_parse_inquiry(buf, got, &f->inq) == 0)
		f->have_inq = 1;
	else
		snprintf(f->scsi_why, sizeof(f->scsi_why), "INQUIRY failed: %s", why);

	/* VPD 00h lists the pages; ask for 80h only when it is offered. */
	len = dio_cdb_inquiry(cdb, 1, 0x00, 252);
	if (scsi_in(fd, cdb, len, buf, 252, &got, why, sizeof(why)) == 0 && got >= 4) {
		n = ((size_t)buf[2] << 8) | buf[3];
		for (i = 0; i < n && 4 + i < got; i++)
			if (buf[4 + i] == 0x80)
				break;
		if (i < n && 4 + i < got) {
			len = dio_cdb_inquiry(cdb, 1, 0x80, 252);
			if (scsi_in(fd, cdb, len, buf, 252, &got, why, sizeof(why)) == 0 &&
			    parse_serial(buf, got, f->serial, sizeof(f->serial)) == 0)
				f->have_serial = 1;
		}
	}

	len = dio_cdb_read_capacity10(cdb);
	if (scsi_in(fd, cdb, len, buf, 8, &got, why, sizeof(why)) == 0) {
		r = dio_parse_read_capacity(buf, got, 0, &f->blocks, &f->block_len);
		if (r == -EOVERFLOW) {
			len = dio_cdb_read_capacity16(cdb, 32);
			if (scsi_in(fd, cdb, len, buf, 32, &got, why, sizeof(why)) == 0)
				r = dio_parse_read_capacity(buf, got, 1, &f->blocks, &f->block_len);
		}
		f->have_cap = r == 0 && f->block_len > 0;
	}

	/* Caching mode page, current values, no block descriptors. */
	len = dio_cdb_mode_sense10(cdb, 0x08, 0, 0, 1, 252);
	r = scsi_in(fd, cdb, len, buf, 252, &got, why, sizeof(why));
	if (r == 0) {
		r = dio_parse_caching_page(buf, got, &wce, &rcd);
		if (r == 0) {
			f->have_cache = 1;
			f->wce = wce;
			f->rcd = rcd;
		} else {
			snprintf(f->cache_why, sizeof(f->cache_why), "%s",
			         r == -ENOENT ? "no caching page (08h) in the answer" :
			         "malformed MODE SENSE(10) data");
		}
	} else {
		snprintf(f->cache_why, sizeof(f->cache_why), "MODE SENSE(10) caching page: %s",
		         why);
	}
	close(fd);
}

/* ------------------------------------------------------------ examine */

static int
examine(struct facts *f, const char *path, int probe_write, int no_scsi)
{
	int fd;

	memset(f, 0, sizeof(*f));
	f->path = path;
	f->in_use = -1;
	f->write_probe = -1;
	if (stat(path, &f->st) != 0)
		return -errno;
	f->type = file_type(&f->st);
	f->is_dir = S_ISDIR(f->st.st_mode);
	f->is_reg = S_ISREG(f->st.st_mode);
	f->is_dev = S_ISBLK(f->st.st_mode) || S_ISCHR(f->st.st_mode);

	f->di_err = dio_devinfo(path, &f->di);

	if (f->is_reg || f->is_dir) {
		fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		if (fd >= 0) {
			if (dio_fs_type(fd, f->fs_type, sizeof(f->fs_type)) < 0)
				f->fs_type[0] = '\0';
			close(fd);
		}
	}
	probe_direct(f, probe_write);

	if (f->di.device[0] != '\0') {
		f->in_use = dio_device_in_use(f->di.device, f->in_use_why,
		                              sizeof(f->in_use_why));
	} else if (f->is_dev && f->di.kind != DIO_DEVINFO_CHAR) {
		f->in_use = dio_device_in_use(path, f->in_use_why, sizeof(f->in_use_why));
	}
	if (!no_scsi)
		probe_scsi(f);
	return 0;
}

/* ------------------------------------------------------------ advice */

/* The udev match for the disk, most persistent first. */
static const char *
udev_match(const struct dio_devinfo *d, char *buf, size_t len, int *by_name)
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
	udev_match(d, match, sizeof(match), &by_name);
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

static void
derive_advice(const struct facts *f)
{
	const struct dio_devinfo *d = &f->di;
	char v[64], a1[32], a2[32];
	struct advice *a;
	struct utsname un;
	long page = sysconf(_SC_PAGESIZE);
	uint32_t seg_kb, target;
	const char *sg = d->sg_device;

	/* Requests capped below what the hardware allows (the seed's 512 KiB). */
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
			a = advise("max-sectors", "requests to %s are capped at "
			           "max_sectors_kb = %u KiB while the driver allows "
			           "max_hw_sectors_kb = %u KiB: a larger read() or write() "
			           "reaches the device as several requests of %u KiB.%s  Raise "
			           "the cap to %u KiB:", d->name, d->max_sectors_kb,
			           d->max_hw_sectors_kb, d->max_sectors_kb, why, target);
			snprintf(v, sizeof(v), "%u", target);
			if (on_linux)
				queue_setting(a, d, "max_sectors_kb", v);
		}
	}

	/* allow_dio: sg direct I/O falls back to indirect without a word. */
	if (sg[0] != '\0' && d->allow_dio == DIO_TRI_NO && on_linux) {
		a = advise("allow-dio", "allow_dio is 0: sg commands on %s that ask for "
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
			advise("sg-direct", "allow_dio is 1: sg direct I/O on %s happens when "
			       "the buffer is aligned to the queue's DMA alignment (%u bytes); "
			       "otherwise the driver falls back to indirect I/O (dio-rbuf "
			       "counts such fallbacks)", sg, d->dma_align);
		else
			advise("sg-direct", "allow_dio is 1: sg direct I/O on %s happens when "
			       "the buffer suits the adapter's DMA alignment; otherwise the "
			       "driver falls back to indirect I/O", sg);
	}
	if (sg[0] != '\0' && d->kind != DIO_DEVINFO_SG && d->device[0] != '\0')
		advise("sg-node", "SG_IO on %s goes through the block layer, which "
		       "decides by itself whether to copy or map the buffer; its sg node "
		       "%s also offers the sg driver's direct (allow_dio), no-copy and "
		       "mmap transfers", d->disk[0] ? d->disk : d->device, sg);

	/* The volatile write cache and what syncs cost. */
	if (d->write_cache == DIO_TRI_YES || (f->have_cache && f->wce)) {
		a = advise("write-cache", "the device's volatile write cache is on "
		           "(%s%s%s): data a write() hands to %s may sit in that cache, so "
		           "fdatasync(), fsync() and O_DSYNC are durable only because the "
		           "kernel then sends a cache flush (on SCSI: SYNCHRONIZE CACHE)%s; every "
		           "sync costs a flush.  Do not mark the cache \"write through\" "
		           "to make syncs cheaper while it is on: the flushes would stop",
		           d->write_cache == DIO_TRI_YES ? "write_cache: write back" : "",
		           d->write_cache == DIO_TRI_YES && f->have_cache && f->wce ? ", " : "",
		           f->have_cache && f->wce ? "WCE=1 in the caching mode page" : "",
		           d->disk[0] ? d->disk : f->scsi_dev[0] ? f->scsi_dev : f->path,
		           d->fua == DIO_TRI_YES ? " or writes with FUA" : "");
		if (f->scsi_ok && on_linux)
			act(a, "option", NULL, "to run without the cache (slower writes, no "
			    "flushes needed): sdparm --clear=WCE %s (add --save where the "
			    "device keeps saved pages)", f->scsi_dev);
		if (!on_linux && strcmp(dio_backend_name(), "sunos") == 0)
			act(a, "option", NULL, "to see or change it: format -e, select the "
			    "disk, then cache, write_cache, display (or disable)");
	}
	if (f->have_cache && f->wce && d->write_cache == DIO_TRI_NO)
		advise("write-cache-mismatch", "the device reports WCE=1 (its write cache "
		       "is on) but the kernel treats %s as write through and sends no "
		       "cache flushes: fdatasync() and O_DSYNC do NOT make data durable "
		       "there; put the kernel's setting back to \"write back\"",
		       d->disk[0] ? d->disk : f->scsi_dev);

	/* Read-ahead on a disk with a head to move. */
	if (d->rotational == DIO_TRI_YES && (d->known & DIO_DEVINFO_K_READ_AHEAD) &&
	    d->read_ahead_kb < READ_AHEAD_SMALL_KB && d->settings_dir[0] != '\0') {
		a = advise("read-ahead", "%s is rotational and read_ahead_kb is %u KiB: "
		           "large sequential buffered reads fetch only that much ahead of "
		           "the reader; %u KiB keeps the disk streaming.  (Direct I/O and "
		           "sg pass-through do not use read-ahead.)", d->name,
		           d->read_ahead_kb, READ_AHEAD_SUGGEST_KB);
		snprintf(v, sizeof(v), "%u", READ_AHEAD_SUGGEST_KB);
		if (on_linux)
			queue_setting(a, d, "read_ahead_kb", v);
	}

	/* A scheduler that costs CPU on a device without seeks. */
	if (d->rotational == DIO_TRI_NO && d->scheduler[0] != '\0' &&
	    strcmp(d->scheduler, "none") != 0 && strcmp(d->scheduler, "mq-deadline") != 0 &&
	    word_in(d->schedulers, "none") && d->settings_dir[0] != '\0') {
		a = advise("scheduler", "%s is not rotational but uses the %s scheduler: "
		           "for a fast device none (or mq-deadline) costs less CPU per "
		           "request", d->name, d->scheduler);
		if (on_linux)
			queue_setting(a, d, "scheduler", "none");
	}

	/* Alignment of direct transfers. */
	if (f->probe != PROBE_NONE && f->mech != DIO_MECH_NONE && f->have_al &&
	    f->al.offset_align) {
		snprintf(a1, sizeof(a1), "%u", f->al.read_offset_align);
		advise("alignment", "direct I/O on %s: buffers aligned to %u bytes "
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
		advise("physical-block", "%s has %u-byte logical blocks on %u-byte physical "
		       "blocks: a write that does not cover whole %u-byte blocks makes the "
		       "device read, modify and write the physical block; use offsets and "
		       "sizes that are multiples of %u", d->name, d->logical_block,
		       d->physical_block, d->physical_block, d->physical_block);
	if (d->optimal_io)
		advise("optimal-io", "%s reports an optimal I/O size of %s (%u bytes, "
		       "e.g. a RAID stripe): use request sizes that are multiples of it",
		       d->name, diot_fmt_iec(d->optimal_io, a2, sizeof(a2)), d->optimal_io);

	/* No direct I/O where a file system refuses it. */
	if (f->probe != PROBE_NONE && f->probe_err == 0 && f->mech == DIO_MECH_NONE &&
	    !f->is_dev) {
		const char *fs = f->fs_type[0] ? f->fs_type : "this file system";

		if (!build_has_direct())
			advise("no-direct", "this build of libdirectio (backend %s) has no "
			       "direct I/O at all: every open is buffered; build the library "
			       "with the linux or sunos backend where the system has one",
			       dio_backend_name());
		else if (on_linux && strcmp(f->fs_type, "tmpfs") == 0 && uname(&un) == 0)
			advise("no-direct", "tmpfs takes O_DIRECT from Linux 6.6 on; this "
			       "kernel (%s) refuses it.  Without direct I/O the library "
			       "buffers (DIO_DIRECT_TRY) or fails (DIO_DIRECT_ON); for direct "
			       "I/O use a newer kernel or a disk file system", un.release);
		else if (strcmp(f->fs_type, "ramfs") == 0)
			advise("no-direct", "ramfs has no direct I/O at all (its page cache "
			       "is the file): use tmpfs on Linux 6.6 or later, or a disk "
			       "file system");
		else
			advise("no-direct", "%s refuses direct I/O: DIO_DIRECT_TRY opens "
			       "buffered, DIO_DIRECT_ON fails with ENOTSUP; put the file on a "
			       "file system that has it (ext4, xfs; ufs on illumos) or use the "
			       "block device", fs);
	}
	if (on_linux && f->mech == DIO_MECH_O_DIRECT && strcmp(f->fs_type, "zfs") == 0)
		advise("zfs-direct", "OpenZFS before 2.3 accepts O_DIRECT but still reads "
		       "and writes through its ARC cache: check the version (zfs version) "
		       "and the dataset's direct property");

	/* A loop device in front of a page cache. */
	if (d->loop_backing[0] != '\0' && d->loop_direct == DIO_TRI_NO) {
		a = advise("loop-buffered", "%s reads and writes its backing file %s "
		           "through the page cache: direct I/O on %s (or on files on it) "
		           "still ends in that cache", d->name, d->loop_backing,
		           d->device[0] ? d->device : d->name);
		if (on_linux)
			act(a, "now", NULL, "losetup --direct-io=on %s",
			    d->disk[0] ? d->disk : d->device);
	}

	/* A busy device. */
	if (f->in_use == 1 && (f->is_dev || f->di.kind != DIO_DEVINFO_FILE))
		advise("in-use", "%s is in use (%s): tools that write to devices "
		       "(sync-write --force, dio-dd) refuse it", d->device[0] ? d->device :
		       f->path, f->in_use_why);
}

/* ------------------------------------------------------------ text */

static void
wrap(FILE *fp, const char *first, const char *indent, const char *text)
{
	size_t col, ilen = strlen(indent), w;
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
}

static void
kv(const char *key, const char *fmt, ...) DIOT_PRINTF(2, 3);

static void
kv(const char *key, const char *fmt, ...)
{
	va_list ap;

	printf("  %-20s ", key);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
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
	if (f->probe == PROBE_NONE && strncmp(f->direct_note, "not applicable", 14) == 0)
		snprintf(buf, len, "%s", f->direct_note);
	else if (f->probe == PROBE_NONE)
		snprintf(buf, len, "unknown: %s", f->direct_note);
	else if (f->probe_err < 0)
		snprintf(buf, len, "unknown: %s%s%s", f->probe == PROBE_TEMP ?
		         "cannot create a temporary file: " : "cannot open: ",
		         dio_strerror(f->probe_err),
		         f->probe == PROBE_TEMP ? "" : "");
	else if (f->mech != DIO_MECH_NONE)
		snprintf(buf, len, "yes, %s (%s)", dio_mech_name(f->mech), how);
	else
		snprintf(buf, len, "no (%s; %s)", how, f->direct_note[0] ? f->direct_note :
		         "refused");
	return buf;
}

static void
print_text(const struct facts *f)
{
	const struct dio_devinfo *d = &f->di;
	size_t large_page = dio_large_page_size();
	char b[1400], c[64];
	struct utsname un;
	int i, j;

	printf("%s %s (libdirectio %s, backend %s)", PROG, PACKAGE_VERSION,
	       dio_version_string(), dio_backend_name());
	if (uname(&un) == 0)
		printf(", %s %s", un.sysname, un.release);
	printf("\n");
	printf("%s: %s\n", f->path, f->type);
	if (f->is_reg || f->is_dir)
		kv("file system", "%s", f->fs_type[0] ? f->fs_type : "unknown");
	if (f->is_reg)
		kv("file size", "%s", bytes_str((uint64_t)f->st.st_size, b, sizeof(b)));

	printf("\nDirect I/O\n");
	kv("supported", "%s", mech_str(f, b, sizeof(b)));
	if (f->probe == PROBE_EXISTING || f->probe == PROBE_TEMP)
		kv("probe file", "%s%s", f->probe_file, f->probe == PROBE_TEMP ?
		   " (created and removed)" : "");
	if (f->write_probe >= 0)
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
	} else {
		kv("alignment", "unknown");
	}
	if (large_page != 0) {
		char small[32];

		kv("large pages", "%s (dio_alloc_large; direct transfers pin one page "
		   "per %s, not per %s)", diot_fmt_iec(large_page, b, sizeof(b)), b,
		   diot_fmt_iec((uint64_t)sysconf(_SC_PAGESIZE), small, sizeof(small)));
	} else {
		kv("large pages", "none for I/O buffers (backend %s)", dio_backend_name());
	}

	printf("\nDevice\n");
	if (f->di_err == -ENOTSUP) {
		kv("facts", "unknown: this build (backend %s) cannot read device facts",
		   dio_backend_name());
	} else if (f->di_err < 0) {
		kv("facts", "cannot be read: %s", dio_strerror(f->di_err));
	} else if (d->device[0] == '\0' && d->kind != DIO_DEVINFO_SG) {
		kv("block device", "none (%s)", f->is_dev ? "not a block device" :
		   "the file system has no block device of its own");
	}
	if (d->device[0] != '\0' || d->kind == DIO_DEVINFO_SG) {
		kv("block device", "%s", d->device[0] ? d->device : "none");
		if (d->disk[0] && strcmp(d->disk, d->device) != 0)
			kv("whole disk", "%s", d->disk);
		if (d->name[0])
			kv("name", "%s", d->name);
		kv("in use", "%s", f->in_use == 1 ? f->in_use_why :
		   f->in_use == 0 ? "no" : "unknown");
		kv("size", "%s", bytes_str(d->size_bytes ? d->size_bytes :
		   f->al.device_bytes, b, sizeof(b)));
		kv(on_linux ? "max_sectors_kb" : "max transfer", "%s",
		   u32s(d->max_sectors_kb, b, sizeof(b), d->max_sectors_kb ?
		        " KiB (largest request now; larger I/O is split)" : ""));
		kv(on_linux ? "max_hw_sectors_kb" : "max hw transfer", "%s",
		   u32s(d->max_hw_sectors_kb, b, sizeof(b), " KiB (driver limit)"));
		kv("max_segments", "%s", u32s(d->max_segments, b, sizeof(b), ""));
		if (d->known & DIO_DEVINFO_K_READ_AHEAD)
			kv("read_ahead_kb", "%u KiB", d->read_ahead_kb);
		else
			kv("read_ahead_kb", "unknown");
		if (d->schedulers[0]) {
			const char *p = d->schedulers, *e;
			size_t k = 0;

			while (*p != '\0' && k + 40 < sizeof(b)) {
				e = strchr(p, ' ');
				j = e ? (int)(e - p) : (int)strlen(p);
				if ((size_t)j == strlen(d->scheduler) &&
				    strncmp(p, d->scheduler, (size_t)j) == 0)
					k += (size_t)snprintf(b + k, sizeof(b) - k, "%s[%.*s]",
					                      k ? " " : "", j, p);
				else
					k += (size_t)snprintf(b + k, sizeof(b) - k, "%s%.*s",
					                      k ? " " : "", j, p);
				p += j;
				while (*p == ' ')
					p++;
			}
			kv("scheduler", "%s", b);
		} else {
			kv("scheduler", "unknown");
		}
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
			kv("loop backing file", "%s (direct I/O to it: %s)", d->loop_backing,
			   yes_no((int)d->loop_direct));
		kv("settings in", "%s", d->settings_dir[0] ? d->settings_dir : "unknown");
	}

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
	kv("sg node", "%s", d->sg_device[0] ? d->sg_device : "none");

	printf("\nSCSI pass-through\n");
	if (f->scsi_dev[0] == '\0') {
		kv("device", "none%s", f->scsi_why[0] ? "" : " (nothing to ask)");
	} else {
		kv("device", "%s", f->scsi_dev);
	}
	if (!f->scsi_ok && f->scsi_why[0])
		kv("available", "no: %s", f->scsi_why);
	if (f->scsi_ok) {
		if (f->have_inq) {
			kv("vendor", "%s", f->inq.vendor);
			kv("product", "%s", f->inq.product);
			kv("revision", "%s", f->inq.revision);
			kv("peripheral type", "%u (%s)", f->inq.peripheral_type,
			   peripheral_name(f->inq.peripheral_type));
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

	printf("\nAdvice\n");
	if (nadvice == 0)
		printf("  none: nothing above calls for a change\n");
	for (i = 0; i < nadvice; i++) {
		snprintf(c, sizeof(c), "  * %s: ", advice[i].id);
		wrap(stdout, c, "      ", advice[i].text);
		for (j = 0; j < advice[i].nact; j++) {
			const struct action *x = &advice[i].act[j];

			if (x->file[0]) {
				printf("      %-11s in %s:\n", x->kind, x->file);
				printf("        %s\n", x->text);
			} else if (strcmp(x->kind, "note") == 0 || strcmp(x->kind, "option") == 0) {
				snprintf(b, sizeof(b), "      %-11s ", x->kind);
				wrap(stdout, b, "                  ", x->text);
			} else {
				printf("      %-11s %s\n", x->kind, x->text);
			}
		}
	}
}

/* ------------------------------------------------------------ JSON */

static int jfirst;

static void
jkey(const char *k)
{
	printf("%s\n    ", jfirst ? "" : ",");
	jfirst = 0;
	diot_json_string(stdout, k);
	printf(": ");
}

static void
jstr(const char *k, const char *v)
{
	jkey(k);
	if (v == NULL || *v == '\0')
		printf("null");
	else
		diot_json_string(stdout, v);
}

static void
jnum(const char *k, uint64_t v, int known)
{
	jkey(k);
	if (known)
		printf("%llu", (unsigned long long)v);
	else
		printf("null");
}

static void
jtri(const char *k, int tri)
{
	jkey(k);
	printf("%s", tri == DIO_TRI_YES ? "true" : tri == DIO_TRI_NO ? "false" : "null");
}

static void
jbool(const char *k, int v)
{
	jkey(k);
	printf("%s", v ? "true" : "false");
}

static void
jopen(const char *k)
{
	if (k != NULL) {
		printf("%s\n  ", jfirst ? "" : ",");
		diot_json_string(stdout, k);
		printf(": {");
	}
	jfirst = 1;
}

static void
jclose(void)
{
	printf("\n  }");
	jfirst = 0;
}

static void
print_json(const struct facts *f)
{
	const struct dio_devinfo *d = &f->di;
	size_t large_page = dio_large_page_size();
	struct utsname un;
	char b[512];
	const char *p, *e;
	int i, j, supported;

	printf("{");
	jfirst = 1;
#define TOP(k) do { printf("%s\n  ", jfirst ? "" : ","); jfirst = 0; \
	diot_json_string(stdout, k); printf(": "); } while (0)
	TOP("tool"); diot_json_string(stdout, PROG);
	TOP("version"); diot_json_string(stdout, PACKAGE_VERSION);
	TOP("library"); diot_json_string(stdout, dio_version_string());
	TOP("backend"); diot_json_string(stdout, dio_backend_name());
	TOP("os");
	if (uname(&un) == 0) {
		snprintf(b, sizeof(b), "%s %s", un.sysname, un.release);
		diot_json_string(stdout, b);
	} else {
		printf("null");
	}
	TOP("path"); diot_json_string(stdout, f->path);
	TOP("type"); diot_json_string(stdout, f->type);
	TOP("file_size");
	if (f->is_reg)
		printf("%llu", (unsigned long long)f->st.st_size);
	else
		printf("null");
	TOP("fs_type");
	if (f->fs_type[0])
		diot_json_string(stdout, f->fs_type);
	else
		printf("null");

	jopen("direct_io");
	supported = f->probe != PROBE_NONE && f->probe_err == 0;
	jkey("supported");
	printf("%s", !supported ? "null" : f->mech != DIO_MECH_NONE ? "true" : "false");
	jstr("mechanism", supported ? dio_mech_name(f->mech) : NULL);
	jstr("probe", f->probe == PROBE_OPEN ? "read-only open" :
	     f->probe == PROBE_EXISTING ? "existing file" :
	     f->probe == PROBE_TEMP ? "temporary file" : "none");
	jstr("probe_file", f->probe == PROBE_EXISTING || f->probe == PROBE_TEMP ?
	     f->probe_file : NULL);
	jkey("write_probe");
	printf("%s", f->write_probe < 0 ? "null" : f->write_probe ? "true" : "false");
	if (f->write_probe >= 0)
		jstr("write_probe_detail", f->write_detail);
	else
		jstr("write_probe_detail", NULL);
	if (f->probe_err < 0) {
		snprintf(b, sizeof(b), "%s", dio_strerror(f->probe_err));
		jstr("detail", b);
	} else {
		jstr("detail", f->direct_note);
	}
	jclose();

	jopen("alignment");
	jnum("mem_align", f->al.mem_align, f->have_al && f->al.mem_align);
	jnum("offset_align", f->al.offset_align, f->have_al && f->al.offset_align);
	jnum("read_offset_align", f->al.read_offset_align,
	     f->have_al && f->al.read_offset_align);
	jnum("logical_block", f->al.logical_block, f->have_al && f->al.logical_block);
	jnum("physical_block", f->al.physical_block, f->have_al && f->al.physical_block);
	jnum("preferred_io", f->al.preferred_io, f->have_al && f->al.preferred_io);
	jstr("source", f->have_al ? dio_align_source_name((int)f->al.source) : NULL);
	jnum("large_page_bytes", large_page, large_page != 0);
	jclose();

	jopen("device");
	if (f->di_err < 0)
		jstr("error", dio_strerror(f->di_err));
	else
		jstr("error", NULL);
	jstr("kind", f->di_err == 0 || f->di_err == -ENOTSUP ?
	     dio_devinfo_kind_name((int)d->kind) : NULL);
	jstr("path", d->device);
	jstr("disk", d->disk);
	jstr("name", d->name);
	jstr("settings_dir", d->settings_dir);
	jnum("size_bytes", d->size_bytes ? d->size_bytes : f->al.device_bytes,
	     d->size_bytes || f->al.device_bytes);
	jkey("in_use");
	printf("%s", f->in_use == 1 ? "true" : f->in_use == 0 ? "false" : "null");
	jstr("in_use_reason", f->in_use == 1 ? f->in_use_why : NULL);
	jnum("max_sectors_kb", d->max_sectors_kb, d->max_sectors_kb);
	jnum("max_hw_sectors_kb", d->max_hw_sectors_kb, d->max_hw_sectors_kb);
	jnum("max_segments", d->max_segments, d->max_segments);
	jnum("read_ahead_kb", d->read_ahead_kb, d->known & DIO_DEVINFO_K_READ_AHEAD);
	jstr("scheduler", d->scheduler);
	jkey("schedulers");
	if (d->schedulers[0] == '\0') {
		printf("null");
	} else {
		printf("[");
		for (p = d->schedulers, i = 0; *p != '\0'; i++) {
			e = strchr(p, ' ');
			j = e ? (int)(e - p) : (int)strlen(p);
			snprintf(b, sizeof(b), "%.*s", j, p);
			printf("%s", i ? ", " : "");
			diot_json_string(stdout, b);
			p += j;
			while (*p == ' ')
				p++;
		}
		printf("]");
	}
	jnum("nr_requests", d->nr_requests, d->nr_requests);
	jtri("rotational", (int)d->rotational);
	jtri("write_cache", (int)d->write_cache);
	jtri("fua", (int)d->fua);
	jnum("dma_align_bytes", d->dma_align, d->dma_align);
	jnum("optimal_io_size", d->optimal_io, d->optimal_io || d->settings_dir[0]);
	jnum("minimum_io_size", d->min_io, d->min_io);
	jnum("logical_block_size", d->logical_block, d->logical_block);
	jnum("physical_block_size", d->physical_block, d->physical_block);
	jtri("read_only", (int)d->read_only);
	jtri("removable", (int)d->removable);
	jstr("scsi_address", d->scsi_addr);
	jstr("wwid", d->wwid);
	jstr("id_serial", d->id_serial);
	jstr("loop_backing_file", d->loop_backing);
	jtri("loop_direct_io", (int)d->loop_direct);
	jstr("controller", d->controller);
	jnum("media_type", d->media_type, d->media_type);
	jclose();

	jopen("sg");
	jtri("driver", (int)d->sg_driver);
	jtri("module", (int)d->sg_module);
	jtri("allow_dio", (int)d->allow_dio);
	jstr("allow_dio_path", d->allow_dio_path);
	jnum("version", d->sg_version, d->sg_version);
	if (d->sg_version) {
		snprintf(b, sizeof(b), "%u.%u.%u", d->sg_version / 10000,
		         d->sg_version / 100 % 100, d->sg_version % 100);
		jstr("version_string", b);
	} else {
		jstr("version_string", NULL);
	}
	jstr("node", d->sg_device);
	jclose();

	jopen("scsi");
	jstr("device", f->scsi_dev);
	jbool("available", f->scsi_ok);
	jstr("error", f->scsi_why);
	jstr("vendor", f->have_inq ? f->inq.vendor : NULL);
	jstr("product", f->have_inq ? f->inq.product : NULL);
	jstr("revision", f->have_inq ? f->inq.revision : NULL);
	jnum("peripheral_type", f->inq.peripheral_type, f->have_inq);
	jstr("peripheral_type_name", f->have_inq ?
	     peripheral_name(f->inq.peripheral_type) : NULL);
	jstr("serial", f->have_serial ? f->serial : NULL);
	jnum("blocks", f->blocks, f->have_cap);
	jnum("block_length", f->block_len, f->have_cap);
	jnum("capacity_bytes", f->blocks * f->block_len, f->have_cap);
	jkey("wce");
	printf("%s", !f->have_cache ? "null" : f->wce ? "true" : "false");
	jkey("rcd");
	printf("%s", !f->have_cache ? "null" : f->rcd ? "true" : "false");
	jstr("cache_error", f->scsi_ok && !f->have_cache ? f->cache_why : NULL);
	jclose();

	TOP("advice");
	printf("[");
	for (i = 0; i < nadvice; i++) {
		printf("%s\n    {\"id\": ", i ? "," : "");
		diot_json_string(stdout, advice[i].id);
		printf(", \"text\": ");
		diot_json_string(stdout, advice[i].text);
		printf(", \"actions\": [");
		for (j = 0; j < advice[i].nact; j++) {
			const struct action *x = &advice[i].act[j];

			printf("%s{\"kind\": ", j ? ", " : "");
			diot_json_string(stdout, x->kind);
			printf(", \"file\": ");
			if (x->file[0])
				diot_json_string(stdout, x->file);
			else
				printf("null");
			printf(", \"text\": ");
			diot_json_string(stdout, x->text);
			printf("}");
		}
		printf("]}");
	}
	printf("%s]\n}\n", nadvice ? "\n  " : "");
#undef TOP
}

/* ------------------------------------------------------------ main */

static void
usage(void)
{
	printf(
"Usage: %s [OPTION]... PATH\n"
"Report what decides direct I/O on PATH (a file, a directory or a device)\n"
"and what to change: the file system and whether it takes direct I/O, the\n"
"alignment direct transfers need, the block device underneath (request size\n"
"limits, read-ahead, scheduler, write cache, in use), the sg driver's\n"
"allow_dio and the device's sg node, the device's INQUIRY identity, serial\n"
"number, capacity and write cache (WCE) through SCSI pass-through, and\n"
"advice derived from those facts.\n"
"\n"
"Nothing is written: files and devices are opened read-only and only\n"
"commands that read are sent.  A directory is probed by opening a file in\n"
"it read-only, or with --probe-write by creating, writing and removing a\n"
"temporary file of dio-info's own.\n"
"\n"
"  -f, --format FMT      text (default) or json\n"
"      --probe-write     PATH is a directory: test direct I/O on a temporary\n"
"                        file created (and removed) in it\n"
"      --no-scsi         send no SCSI commands (no INQUIRY, READ CAPACITY,\n"
"                        MODE SENSE)\n"
"  -h, --help            this help\n"
"  -V, --version         version of the tool and library\n"
"\n"
"Exit status: 0 reported, 1 PATH cannot be examined, 2 usage error.\n",
	       PROG);
}

enum { OPT_FORMAT = 1, OPT_PROBE_WRITE, OPT_NO_SCSI, OPT_HELP, OPT_VERSION };

static const struct diot_opt options[] = {
	{ "format",      'f', DIOT_REQ_ARG, OPT_FORMAT },
	{ "probe-write", 0,   DIOT_NO_ARG,  OPT_PROBE_WRITE },
	{ "no-scsi",     0,   DIOT_NO_ARG,  OPT_NO_SCSI },
	{ "help",        'h', DIOT_NO_ARG,  OPT_HELP },
	{ "version",     'V', DIOT_NO_ARG,  OPT_VERSION },
	{ NULL, 0, 0, 0 }
};

int
main(int argc, char **argv)
{
	struct diot_optstate st;
	struct sigaction sa;
	static struct facts f;
	char err[DIOT_ERR_MAX];
	const char *path = NULL;
	int id, format = FMT_TEXT, probe_write = 0, no_scsi = 0, r;

	diot_init(PROG);
	diot_getopt_init(&st);
	while ((id = diot_getopt(argc, argv, options, &st)) != DIOT_OPT_END) {
		switch (id) {
		case DIOT_OPT_ERROR:
			diot_usage_error("%s", st.err);
		case DIOT_OPT_OPERAND:
			if (path != NULL)
				diot_usage_error("one PATH only (got '%s' and '%s')", path, st.arg);
			path = st.arg;
			break;
		case OPT_FORMAT:
			if (diot_parse_word(st.arg, format_words, &format, err, sizeof(err)) < 0)
				diot_usage_error("%s '%s': %s", st.name, st.arg, err);
			break;
		case OPT_PROBE_WRITE:
			probe_write = 1;
			break;
		case OPT_NO_SCSI:
			no_scsi = 1;
			break;
		case OPT_HELP:
			usage();
			return 0;
		case OPT_VERSION:
			printf("%s (libdirectio) %s, library %s, backend %s\n", PROG,
			       PACKAGE_VERSION, dio_version_string(), dio_backend_name());
			return 0;
		}
	}
	if (path == NULL)
		diot_usage_error("no PATH given");
	if (*path == '\0')
		diot_usage_error("PATH is empty");
	on_linux = strcmp(dio_backend_name(), "linux") == 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	if (probe_write) {
		struct stat pst;

		if (stat(path, &pst) == 0 && !S_ISDIR(pst.st_mode))
			diot_usage_error("--probe-write tests a temporary file in a directory; "
			                 "%s is a %s (its direct I/O is probed with a read-only "
			                 "open without the option)", path, file_type(&pst));
	}
	r = examine(&f, path, probe_write, no_scsi);
	if (r < 0)
		diot_die(DIOT_EXIT_FAIL, "%s: cannot be examined: %s", path, dio_strerror(r));
	derive_advice(&f);
	if (format == FMT_JSON)
		print_json(&f);
	else
		print_text(&f);
	if (fflush(stdout) != 0 || ferror(stdout))
		diot_die(DIOT_EXIT_FAIL, "writing the report: %s", dio_strerror(errno));
	return 0;
}
