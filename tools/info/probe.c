/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe.c -- dio-info's facts about a path: what it is, its file system,
 * whether it takes direct I/O and with which alignment (a read-only open
 * of the path or of a file in the directory, or with --probe-write a
 * temporary file of our own), the device facts of dio_devinfo(), whether
 * the device is in use, and (scsi.c) what the device answers itself.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "tools/info/info.h"
#include "tools/kit/msg.h"

const char *
info_file_type(const struct stat *st)
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

void
info_platform(struct platform *p)
{
	memset(p, 0, sizeof(*p));
	p->backend = dio_backend_name();
	p->on_linux = strcmp(p->backend, "linux") == 0;
	p->has_direct = (dio_caps() & (DIO_CAP_O_DIRECT | DIO_CAP_DIRECTIO)) != 0;
	p->page_size = sysconf(_SC_PAGESIZE);
	p->have_uname = uname(&p->un) == 0;
}

/*
 * Ask for direct I/O on h and note what came of it: the mechanism, or
 * why not in the library's words (e.g. that ZFS ignores the advice).
 */
static int
try_direct(struct facts *f, dio_file *h)
{
	struct dio_refusal rf;
	char why[300];
	int r;

	r = dio_file_set_direct(h, DIO_DIRECT_ON);
	f->mech = dio_file_direct(h);
	if (r != -ENOTSUP)
		return r;
	if (!f->plat.has_direct) {
		snprintf(f->direct_note, sizeof(f->direct_note), "refused: this build "
		         "(libdirectio backend %s) has no direct I/O", f->plat.backend);
		return r;
	}
	dio_file_refusal(h, &rf);
	dio_refusal_str(&rf, why, sizeof(why));
	snprintf(f->direct_note, sizeof(f->direct_note), "refused: %s", why[0] ? why :
	         f->is_dev ? "the device driver has no direct I/O" :
	         "the file system refuses direct I/O");
	return r;
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
	f->probe_opened = 1;
	if (file != NULL)
		snprintf(f->probe_file, sizeof(f->probe_file), "%s", file);
	r = dio_adopt(&h, fd, 0);
	if (r < 0) {
		f->probe_err = r;
		return;
	}
	r = try_direct(f, h);
	if (r < 0 && r != -ENOTSUP)
		f->probe_err = r;
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

/*
 * --probe-write: a temporary file in directory dir, one direct write and
 * read.  0 when the file was created (and is removed again); -errno when
 * it could not be (a read-only file system, no write permission): then
 * nothing was made, f->temp_err and f->write_detail say why, and the
 * caller probes what it can read instead.
 */
static int
probe_temp(struct facts *f, const char *dir)
{
	dio_file *h = NULL;
	char path[1100], detail[300];
	struct dio_align a;
	uint64_t n;
	void *buf;
	sigset_t block, old;
	int r, i;

	/* The file must not outlive the run: SIGINT, SIGTERM and SIGHUP wait
	 * from before it is created until it is removed (one small write and
	 * read), then end the run as usual. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old);
	for (i = 0; i < 100; i++) {
		snprintf(path, sizeof(path), "%s/.dio-info.%ld.%d", dir,
		         (long)getpid(), i);
		r = dio_open(&h, path, DIO_O_RDWR | DIO_O_CREAT | DIO_O_EXCL,
		             DIO_DIRECT_OFF, DIO_SYNC_NONE, 0600);
		if (r != -EEXIST)
			break;
	}
	if (r < 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		f->temp_err = r;
		snprintf(f->write_detail, sizeof(f->write_detail), "not made: cannot "
		         "create a temporary file in %s: %s", dir, dio_strerror(r));
		return r;
	}
	f->probe = PROBE_TEMP;
	f->probe_opened = 1;
	snprintf(f->probe_file, sizeof(f->probe_file), "%s", path);
	r = try_direct(f, h);
	if (dio_file_align(h, &f->al) == 0)
		f->have_al = 1;
	if (r < 0 && r != -ENOTSUP) {
		f->probe_err = r;
	} else if (f->mech != DIO_MECH_NONE) {
		dio_file_align(h, &a);
		n = a.offset_align ? a.offset_align : 4096;
		if (n < 4096 && 4096 % n == 0)
			n = 4096;
		buf = dio_alloc((size_t)n, a.mem_align > 4096 ? a.mem_align : 0);
		if (buf == NULL) {
			dio_close(h);
			unlink(path);
			diot_die(DIOT_EXIT_FAIL, "out of memory");
		}
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
	unlink(path);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return 0;
}

/*
 * Where direct I/O is advice kept on the file (illumos directio()), a
 * file is not probed, since turning the advice on would change it for
 * everyone using it.  What the library can tell without it is said: direct
 * anyway (a raw disk node, a forcedirectio mount), or a file system that
 * ignores the advice (ZFS; the library refuses it there without calling
 * anything, so asking changes nothing).
 */
static void
probe_advice(struct facts *f)
{
	int fd = open(f->path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	int m;

	if (fd < 0) {
		f->probe = PROBE_OPEN;
		f->probe_err = -errno;
		return;
	}
	m = dio_fd_get_direct(fd);
	if (m > 0) {
		f->probe = PROBE_OPEN;
		f->mech = m;
		if (dio_align_fd(fd, &f->al) == 0)
			f->have_al = 1;
	} else if (f->di.direct_ignored == DIO_TRI_YES) {
		probe_fd(f, fd, PROBE_OPEN, NULL);
	} else {
		snprintf(f->direct_note, sizeof(f->direct_note), "not probed: turning "
		         "direct I/O on would change this file for everyone using it");
		if (dio_align_fd(fd, &f->al) == 0)
			f->have_al = 1;
	}
	close(fd);
}

static void
probe_direct(struct facts *f, int probe_write)
{
	char file[1024];
	int fd, can_undo = (dio_caps() & DIO_CAP_GET_DIRECT) != 0;

	f->write_probe = -1;
	if (f->is_dir) {
		/* Where no temporary file can be made, what can be read is
		 * probed instead, and the report says both. */
		if (probe_write && probe_temp(f, f->path) == 0)
			return;
		if (dio_align_path(f->path, &f->al) == 0)
			f->have_al = 1;
		if (!can_undo) {
			/* directio() is advice on the file, for everyone who
			 * has it open, and cannot be read back: no probing of
			 * other people's files. */
			snprintf(f->direct_note, sizeof(f->direct_note), "not probed: "
			         "turning direct I/O on for a file here would change it for "
			         "everyone using it%s", probe_write ? "" :
			         "; --probe-write tests a temporary file");
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
		         "file in the directory to open read-only%s", probe_write ? "" :
		         "; --probe-write tests a temporary file");
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
	if (!can_undo && (f->is_reg || S_ISCHR(f->st.st_mode))) {
		probe_advice(f);
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


/* Can the flushes that reach the disks under the path be counted?  Every
 * disk must have the block layer's flush counter (Linux 5.5 and later). */
static void
probe_flush_counts(struct facts *f)
{
	struct dio_disk_counts *c;
	dio_disks *h;
	unsigned i, n;

	f->flush_counts = DIO_TRI_NO;
	if (dio_disks_open(&h, f->path, f->flush_why, sizeof(f->flush_why)) < 0)
		return;
	n = dio_disks_count(h);
	c = calloc(n, sizeof(*c));
	if (c == NULL) {
		snprintf(f->flush_why, sizeof(f->flush_why), "out of memory");
		dio_disks_close(h);
		return;
	}
	if (dio_disks_read(h, c, n) >= 0) {
		f->flush_counts = DIO_TRI_YES;
		for (i = 0; i < n && f->flush_counts == DIO_TRI_YES; i++)
			if (!(c[i].have & DIO_COUNTS_FLUSH)) {
				f->flush_counts = DIO_TRI_NO;
				snprintf(f->flush_why, sizeof(f->flush_why), "%s: %s",
				         dio_disks_get(h, i)->name,
				         c[i].note[0] ? c[i].note : "no flush counter");
			}
	} else {
		snprintf(f->flush_why, sizeof(f->flush_why), "the counters cannot be read");
	}
	free(c);
	dio_disks_close(h);
}
/* ------------------------------------------------------------ examine */

int
info_examine(struct facts *f, const struct info_opts *o)
{
	const char *path = o->path;
	int fd;

	memset(f, 0, sizeof(*f));
	info_platform(&f->plat);
	f->path = path;
	f->in_use = -1;
	f->write_probe = -1;
	if (stat(path, &f->st) != 0)
		return -errno;
	f->type = info_file_type(&f->st);
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
	probe_direct(f, o->probe_write);

	if (f->di.device[0] != '\0') {
		f->in_use = dio_device_in_use(f->di.device, f->in_use_why,
		                              sizeof(f->in_use_why));
	} else if (f->is_dev && f->di.kind != DIO_DEVINFO_CHAR) {
		f->in_use = dio_device_in_use(path, f->in_use_why, sizeof(f->in_use_why));
	}
	probe_flush_counts(f);
	if (!o->no_scsi)
		info_probe_scsi(f);
	return 0;
}
