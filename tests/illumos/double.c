/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * double.c -- TEST DOUBLE of the illumos calls made by libdirectio's
 * illumos backend, for tests/check_sunos on Linux (see double.h).  This
 * file is built without the rerouting macros of config.h: it calls the
 * real functions for whatever the test has not scripted.
 *
 * Device nodes exist only in dbl.node: stat() and realpath() answer them
 * by path, open() gives a real descriptor of /dev/null and remembers the
 * node, fstat() and ioctl() answer that descriptor from the node, and
 * opendir() of their directory lists a temporary tree that holds an empty
 * file per node.  The ioctls answer as the illumos drivers do
 * (doc/illumos.md): a block node takes none (specfs, ENOTTY).
 */
#define _GNU_SOURCE 1

#include <sys/types.h>
#include <sys/stat.h>
#include <sys/ioctl.h>
#include <sys/param.h>
#include <sys/sysmacros.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/dkio.h>
#include <sys/dumpadm.h>
#include <sys/mnttab.h>
#include <sys/statvfs.h>
#include <sys/swap.h>
#include <sys/scsi/impl/uscsi.h>

#include "double.h"

struct dbl_state dbl;

#define DBL_FDS 4096
static int fd_node[DBL_FDS];            /* node index + 1, 0: not a node */
static char fd_dump[DBL_FDS];           /* a descriptor of /dev/dump     */

/* The streams fopen(MNTTAB) gave, each with the next entry to read. */
static struct { FILE *fp; int next; } mnt_stream[8];

static int
rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st; (void)flag; (void)f;
	return remove(p);
}

void
dbl_cleanup(void)
{
	if (dbl.root[0] != '\0')
		(void)nftw(dbl.root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	dbl.root[0] = '\0';
}

void
dbl_reset(void)
{
	char zfs[256];
	const char *tmp = getenv("TMPDIR");

	dbl_cleanup();
	memcpy(zfs, dbl.zfs_path, sizeof(zfs));
	memset(&dbl, 0, sizeof(dbl));
	memcpy(dbl.zfs_path, zfs, sizeof(zfs));
	memset(fd_node, 0, sizeof(fd_node));
	memset(fd_dump, 0, sizeof(fd_dump));
	memset(mnt_stream, 0, sizeof(mnt_stream));
	snprintf(dbl.basetype, sizeof(dbl.basetype), "ufs");
	snprintf(dbl.root, sizeof(dbl.root), "%s/dio-dbl.XXXXXX",
	         tmp && *tmp ? tmp : "/tmp");
	if (mkdtemp(dbl.root) == NULL) {
		perror("double: mkdtemp");
		abort();
	}
}

/* mkdir -p of the directory part of path under dbl.root, and the file. */
static void
listing_add(const char *path)
{
	char p[512];
	size_t i, n;
	int fd;

	n = (size_t)snprintf(p, sizeof(p), "%s%s", dbl.root, path);
	for (i = strlen(dbl.root) + 1; i < n; i++) {
		if (p[i] != '/')
			continue;
		p[i] = '\0';
		(void)mkdir(p, 0700);
		p[i] = '/';
	}
	fd = open(p, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	if (fd >= 0)
		close(fd);
}

struct dbl_node *
dbl_node_add(const char *path, int chr, unsigned maj, unsigned min)
{
	struct dbl_node *n;

	if (dbl.nnodes >= DBL_NODES)
		abort();
	n = &dbl.node[dbl.nnodes++];
	memset(n, 0, sizeof(*n));
	snprintf(n->path, sizeof(n->path), "%s", path);
	n->chr = chr;
	n->rdev = makedev(maj, min);
	n->minfo_errno = ENOTTY;
	n->minfo_plain_errno = ENOTTY;
	n->part_errno = ENOTTY;
	n->removable = n->wce = n->solid = n->ro = DBL_NA;
	listing_add(path);
	return n;
}

struct dbl_node *
dbl_node_find(const char *path)
{
	int i;

	for (i = 0; i < dbl.nnodes; i++)
		if (strcmp(dbl.node[i].path, path) == 0)
			return &dbl.node[i];
	return NULL;
}

void
dbl_disk(struct dbl_node *n, const char *dname, unsigned unit,
         uint32_t lbsize, uint64_t capacity)
{
	n->disk = 1;
	snprintf(n->cname, sizeof(n->cname), "%s",
	         strcmp(dname, "blkdev") == 0 ? "nvme" : "ahci");
	snprintf(n->dname, sizeof(n->dname), "%s", dname);
	n->unit = unit;
	n->maxtransfer = 256;
	n->minfo_errno = 0;
	n->minfo_plain_errno = 0;
	n->lbsize = n->pbsize = lbsize;
	n->media_type = DK_FIXED_DISK;
	n->capacity = capacity;
	n->removable = 0;
	n->wce = 1;
	n->solid = 0;
	n->ro = 0;
}

void
dbl_file_type(const char *path, const char *type)
{
	struct stat st;

	if (stat(path, &st) != 0 || dbl.nfiles >= DBL_FILES)
		abort();
	dbl.file[dbl.nfiles].dev = st.st_dev;
	dbl.file[dbl.nfiles].ino = st.st_ino;
	snprintf(dbl.file[dbl.nfiles].type, sizeof(dbl.file[0].type), "%s", type);
	dbl.nfiles++;
}

struct dbl_mount *
dbl_mount_add(const char *special, const char *mountp, const char *fstype,
              const char *opts, dev_t dev)
{
	struct dbl_mount *m;

	if (dbl.nmounts >= DBL_MOUNTS)
		abort();
	m = &dbl.mount[dbl.nmounts++];
	memset(m, 0, sizeof(*m));
	snprintf(m->special, sizeof(m->special), "%s", special);
	snprintf(m->mountp, sizeof(m->mountp), "%s", mountp);
	snprintf(m->fstype, sizeof(m->fstype), "%s", fstype);
	snprintf(m->opts, sizeof(m->opts), "%s", opts);
	m->major = major(dev);
	m->minor = minor(dev);
	return m;
}

int
dbl_dm_asked(const char *name)
{
	int i, n = 0;

	for (i = 0; i < dbl.ndm; i++)
		n += strcmp(dbl.dm_asked[i], name) == 0;
	return n;
}

/* ------------------------------------------------------ paths and fds */

static struct dbl_node *
fd_to_node(int fd)
{
	if (fd < 0 || fd >= DBL_FDS || fd_node[fd] == 0)
		return NULL;
	return &dbl.node[fd_node[fd] - 1];
}

/* spec_getattr (specvnops.c:1361): the size the driver's "Size" or
 * "Nblocks" property gives for that minor while it is open (spec_size,
 * 311-441); a node nobody holds open says 0 (character) or
 * UNKNOWN_SIZE (block): the test scripts n->size. */
static void
node_stat(const struct dbl_node *n, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_mode = (n->chr ? S_IFCHR : S_IFBLK) | 0640;
	st->st_rdev = n->rdev;
	st->st_dev = makedev(300, 1);   /* devfs */
	st->st_ino = (ino_t)(n - dbl.node) + 1000;
	st->st_nlink = 1;
	st->st_size = (off_t)n->size;
	st->st_blksize = 8192;          /* MAXBSIZE, spec_getattr */
}

int
dio_dbl_open(const char *path, int flags, ...)
{
	struct dbl_node *n = dbl_node_find(path);
	mode_t mode = 0;
	va_list ap;
	int fd;

	if (flags & O_CREAT) {
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	if (n == NULL && strcmp(path, "/dev/dump") == 0) {
		/* mode 0660 root sys (SUNWcs.p5m); the driver's open is
		 * nulldev (dump.c) */
		if (dbl.dump_open_errno) {
			errno = dbl.dump_open_errno;
			return -1;
		}
		fd = open("/dev/null", O_RDONLY | (flags & O_CLOEXEC));
		if (fd >= 0 && fd < DBL_FDS)
			fd_dump[fd] = 1;
		return fd;
	}
	if (n == NULL)
		return open(path, flags, mode);
	if (n->open_errno) {
		errno = n->open_errno;
		return -1;
	}
	if ((flags & O_EXCL) && !(flags & O_CREAT)) {
		/* FEXCL reaches the driver: zvol_open() refuses it while the
		 * zvol is open at all (zvol.c:904-915), lofi while the
		 * partition is (lofi.c:741-756). */
		n->nexcl++;
		if (n->excl_busy) {
			errno = EBUSY;
			return -1;
		}
	}
	/* The sync flags stay on the descriptor, for F_GETFL. */
	fd = open("/dev/null", O_RDWR | (flags & (O_CLOEXEC | O_DSYNC | O_SYNC)));
	if (fd >= 0 && fd < DBL_FDS)
		fd_node[fd] = (int)(n - dbl.node) + 1;
	return fd;
}

int
dio_dbl_close(int fd)
{
	if (fd >= 0 && fd < DBL_FDS)
		fd_node[fd] = fd_dump[fd] = 0;
	return close(fd);
}

/* fsync() and fdatasync() of a node are counted and succeed (spec_fsync
 * returns 0 whatever its flush gave, specvnops.c:1485-1535); of anything
 * else, the real call. */
int
dio_dbl_fsync(int fd)
{
	struct dbl_node *n = fd >= 0 && fd < DBL_FDS && fd_node[fd]
	                     ? &dbl.node[fd_node[fd] - 1] : NULL;

	if (n == NULL)
		return fsync(fd);
	n->nfsync++;
	return 0;
}

int
dio_dbl_fdatasync(int fd)
{
	struct dbl_node *n = fd >= 0 && fd < DBL_FDS && fd_node[fd]
	                     ? &dbl.node[fd_node[fd] - 1] : NULL;

	if (n == NULL)
		return fdatasync(fd);
	n->nfsync++;
	return 0;
}

unsigned
dio_dbl_geteuid(void)
{
	return dbl.euid;
}

int
dio_dbl_getzoneid(void)
{
	return dbl.zoneid;
}

/* dlopen(): libzfs.so loads unless the test says it is missing; nothing
 * is really loaded (the handle is only closed again). */
void *
dio_dbl_dlopen(const char *name, int mode)
{
	static int handle;

	(void)mode;
	snprintf(dbl.dlopened, sizeof(dbl.dlopened), "%s", name ? name : "");
	if (name == NULL || strcmp(name, "libzfs.so") != 0 || dbl.libzfs_missing)
		return NULL;
	return &handle;
}

int
dio_dbl_dlclose(void *h)
{
	(void)h;
	return 0;
}

int
dio_dbl_stat(const char *path, struct stat *st)
{
	struct dbl_node *n = dbl_node_find(path);

	if (n == NULL)
		return stat(path, st);
	node_stat(n, st);
	return 0;
}

int
dio_dbl_fstat(int fd, struct stat *st)
{
	struct dbl_node *n = fd_to_node(fd);

	if (n == NULL)
		return fstat(fd, st);
	node_stat(n, st);
	return 0;
}

DIR *
dio_dbl_opendir(const char *path)
{
	char p[512];
	struct stat st;

	snprintf(p, sizeof(p), "%s%s", dbl.root, path);
	if (dbl.root[0] == '\0' || path[0] != '/' || stat(p, &st) != 0)
		return opendir(path);
	if (dbl.opendir_errno) {
		errno = dbl.opendir_errno;
		return NULL;
	}
	return opendir(p);
}

char *
dio_dbl_realpath(const char *path, char *resolved)
{
	struct dbl_node *n = dbl_node_find(path);
	const char *r;

	if (n == NULL)
		return realpath(path, resolved);
	r = n->real[0] ? n->real : n->path;
	if (resolved == NULL)
		return strdup(r);
	snprintf(resolved, PATH_MAX, "%s", r);
	return resolved;
}

FILE *
dio_dbl_fopen(const char *path, const char *mode)
{
	FILE *fp;
	size_t i;

	if (strcmp(path, MNTTAB) != 0)
		return fopen(path, mode);
	if (dbl.mnttab_errno) {
		errno = dbl.mnttab_errno;
		return NULL;
	}
	fp = fopen("/dev/null", "r");
	if (fp == NULL)
		return NULL;
	for (i = 0; i < sizeof(mnt_stream) / sizeof(mnt_stream[0]); i++) {
		if (mnt_stream[i].fp == NULL || mnt_stream[i].fp == fp) {
			mnt_stream[i].fp = fp;
			mnt_stream[i].next = 0;
			return fp;
		}
	}
	abort();
}

/* A stream of MNTTAB gives its slot back (addresses are not reused under
 * AddressSanitizer, so slots are freed here, not by address reuse). */
int
dio_dbl_fclose(FILE *fp)
{
	size_t i;

	for (i = 0; i < sizeof(mnt_stream) / sizeof(mnt_stream[0]); i++)
		if (mnt_stream[i].fp == fp)
			mnt_stream[i].fp = NULL;
	return fclose(fp);
}

/* ------------------------------------------------------ ioctl */

static int
fail(int e)
{
	errno = e;
	return -1;
}

static int
tri(int v, void *arg)
{
	if (v == DBL_NA)
		return fail(ENOTTY);
	*(int *)arg = v;
	return 0;
}

/* USCSICMD as sd does it: nothing is written back when the command never
 * became a packet (EPERM, ENOTTY...); uscsi_status is written when the
 * script says so; sense bytes go to rqbuf with rqresid what is left. */
static int
uscsi(struct uscsi_cmd *u)
{
	struct dbl_uscsi a;
	struct dbl_uscsi_seen *s;
	size_t k;

	if (dbl.nuscsi_seen < 8) {
		s = &dbl.uscsi_seen[dbl.nuscsi_seen++];
		s->flags = u->uscsi_flags;
		s->status = u->uscsi_status;
		s->timeout = u->uscsi_timeout;
		s->cdblen = u->uscsi_cdblen;
		s->rqlen = u->uscsi_rqlen;
		s->rqstatus = u->uscsi_rqstatus;
		s->rqresid = u->uscsi_rqresid;
	}
	memset(&a, 0, sizeof(a));
	if (dbl.nuscsi_seen - 1 < dbl.nuscsi)
		a = dbl.uscsi[dbl.nuscsi_seen - 1];
	if (a.err != 0 && a.err != EIO)
		return fail(a.err);
	if (a.status != DBL_NO_WRITE) {
		u->uscsi_status = (short)a.status;
		u->uscsi_resid = a.resid;
		u->uscsi_rqstatus = 0;
		k = a.sense_len < u->uscsi_rqlen ? a.sense_len : u->uscsi_rqlen;
		if (k > 0 && u->uscsi_rqbuf != NULL)
			memcpy(u->uscsi_rqbuf, a.sense, k);
		u->uscsi_rqresid = (uchar_t)(u->uscsi_rqlen - k);
	}
	return a.err ? fail(a.err) : 0;
}

/*
 * The dkio requests as the drivers answer them (sd.c's sdioctl, 21764-
 * 22565; blkdev.c's bd_ioctl, 1554-1718; cmdk.c 831-1022; zvol.c 1610-
 * 1865; lofi.c, ramdisk.c): what a node does not answer is ENOTTY, each
 * driver's default.
 */
static int
node_ioctl(struct dbl_node *n, unsigned long req, void *arg)
{
	if (!n->chr)
		return fail(ENOTTY);    /* spec_ioctl: VCHR only (specvnops.c:1263-1271) */
	switch (req) {
	case DKIOCINFO: {
		/* sd.c:21764, blkdev.c:1594-1616 (dname "blkdev"), cmdk.c:871-898,
		 * zvol.c:1629-1639 ("zvol"), lofi.c:2486-2502, ramdisk.c:1317 */
		struct dk_cinfo *ci = arg;

		if (!n->disk)
			return fail(ENOTTY);
		memset(ci, 0, sizeof(*ci));
		snprintf(ci->dki_cname, sizeof(ci->dki_cname), "%s", n->cname);
		snprintf(ci->dki_dname, sizeof(ci->dki_dname), "%s", n->dname);
		ci->dki_cnum = (ushort_t)n->cnum;
		ci->dki_unit = n->unit;
		ci->dki_maxtransfer = (ushort_t)n->maxtransfer;
		return 0;
	}
	case DKIOCGMEDIAINFO: {
		/* cmdk answers this one only (cmdk.c:852-869) */
		struct dk_minfo *mi = arg;

		if (n->minfo_plain_errno)
			return fail(n->minfo_plain_errno);
		mi->dki_media_type = n->media_type;
		mi->dki_lbsize = n->lbsize;
		mi->dki_capacity = n->capacity;
		return 0;
	}
	case DKIOCFLUSHWRITECACHE:
		/* sd, blkdev, zvol answer it; lofi and ramdisk do not
		 * (ENOTTY), blkdev without a cache flush gives ENOTSUP
		 * (blkdev.c:2138-2175) */
		n->nflush++;
		return n->flush_errno ? fail(n->flush_errno) : 0;
	case DKIOCGMEDIAINFOEXT: {
		/* sd.c:21774, blkdev.c:1554-1593, zvol.c:1660-1684 (pbsize the
		 * volblocksize), lofi.c:3534-3561; not cmdk or ramdisk */
		struct dk_minfo_ext *mi = arg;

		if (n->minfo_errno)
			return fail(n->minfo_errno);
		mi->dki_media_type = n->media_type;
		mi->dki_lbsize = n->lbsize;
		mi->dki_pbsize = n->pbsize;
		mi->dki_capacity = n->capacity;
		return 0;
	}
	case DKIOCEXTPARTINFO: {
		/* cmlb_dkio_extpartinfo, cmlb.c:5696-5697 (x86 only: ENOTTY
		 * elsewhere, 1313-1327); zvol has none */
		struct extpart_info *pi = arg;

		if (n->part_errno)
			return fail(n->part_errno);
		pi->p_start = n->p_start;
		pi->p_length = n->p_length;
		return 0;
	}
	case DKIOCREMOVABLE:            /* sd.c:21889 */
		return tri(n->removable, arg);
	case DKIOCGETWCE:               /* sd.c:22565, zvol.c:1712; not blkdev, cmdk */
		return tri(n->wce, arg);
	case DKIOCSOLIDSTATE:           /* sd.c:21899 */
		return tri(n->solid, arg);
	case DKIOCREADONLY:             /* sd.c:21919 */
		return tri(n->ro, arg);
	case USCSICMD:
		return uscsi(arg);
	default:
		return fail(ENOTTY);
	}
}

int
dio_dbl_ioctl(int fd, unsigned long req, ...)
{
	struct dbl_node *n = fd_to_node(fd);
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (n != NULL)
		return node_ioctl(n, req, arg);
	if (fd >= 0 && fd < DBL_FDS && fd_dump[fd]) {
		if (req != DIOCGETDEV)
			return fail(ENOTTY);
		if (dbl.dump_dev[0] == '\0')
			return fail(ENODEV);
		snprintf(arg, MAXPATHLEN, "%s", dbl.dump_dev);
		return 0;
	}
	switch (req) {
	case DKIOCINFO: case DKIOCGMEDIAINFOEXT: case DKIOCEXTPARTINFO:
	case DKIOCREMOVABLE: case DKIOCGETWCE: case DKIOCSOLIDSTATE:
	case DKIOCREADONLY: case USCSICMD: case DKIOCGMEDIAINFO:
	case DKIOCFLUSHWRITECACHE:
		/* Not a disk: a regular file or another device. */
		return fail(ENOTTY);
	default:
		return ioctl(fd, req, arg);
	}
}

/* ------------------------------------------------------ file systems */

int
dio_dbl_fstatvfs(int fd, struct statvfs *buf)
{
	struct stat st;
	const char *type = dbl.basetype;
	int i;

	memset(buf, 0, sizeof(*buf));
	if (fd_to_node(fd) != NULL) {
		snprintf(buf->f_basetype, sizeof(buf->f_basetype), "dev");
		return 0;
	}
	if (fstat(fd, &st) != 0)
		return -1;
	if (dbl.statvfs_errno)
		return fail(dbl.statvfs_errno);
	for (i = 0; i < dbl.nfiles; i++)
		if (dbl.file[i].dev == st.st_dev && dbl.file[i].ino == st.st_ino)
			type = dbl.file[i].type;
	snprintf(buf->f_basetype, sizeof(buf->f_basetype), "%s", type);
	buf->f_bsize = 8192;
	buf->f_frsize = 1024;
	buf->f_fsid = (unsigned long)st.st_dev;
	buf->f_namemax = 255;
	return 0;
}

/* directio(3C): _FIODIRECTIO; ZFS answers 0 and keeps it nowhere
 * (zfs_vnops.c:381), ufs, nfs and smbfs take it. */
int
dio_dbl_directio(int fd, int advice)
{
	if (dbl.ndirectio < DBL_CALLS) {
		dbl.directio_call[dbl.ndirectio].fd = fd;
		dbl.directio_call[dbl.ndirectio].advice = advice;
	}
	dbl.ndirectio++;
	return dbl.directio_errno ? fail(dbl.directio_errno) : 0;
}

/* getextmntent(): getmntent.c:222-280; an entry longer than MNT_LINE_MAX
 * is returned whole (the length limit is getmntent()'s only, 253-256). */
int
dio_dbl_getextmntent(FILE *fp, struct extmnttab *m, size_t len)
{
	struct dbl_mount *e;
	size_t i;

	if (len < sizeof(*m))
		return fail(EINVAL);
	for (i = 0; i < sizeof(mnt_stream) / sizeof(mnt_stream[0]); i++)
		if (mnt_stream[i].fp == fp)
			break;
	if (i == sizeof(mnt_stream) / sizeof(mnt_stream[0]))
		abort();                /* not a stream of MNTTAB */
	if (mnt_stream[i].next >= dbl.nmounts)
		return -1;
	e = &dbl.mount[mnt_stream[i].next++];
	memset(m, 0, sizeof(*m));
	if (e->rc == MNT_TOOFEW)
		return MNT_TOOFEW;
	m->mnt_special = e->special;
	m->mnt_mountp = e->mountp;
	m->mnt_fstype = e->fstype;
	m->mnt_mntopts = e->opts;
	m->mnt_time = NULL;
	m->mnt_major = e->major;
	m->mnt_minor = e->minor;
	return e->rc;
}

/* libc's hasmntopt: opt as a whole option name in the comma list (the
 * next character ends the name: NUL, ',' or '=').  libc first copies the
 * options into char tmpopts[MNT_LINE_MAX] on its stack with strcpy()
 * (getmntent.c:306-314): options that do not fit overflow it, so here
 * they abort the test. */
char *
dio_dbl_hasmntopt(struct mnttab *m, char *opt)
{
	size_t k = strlen(opt);
	char *p = m->mnt_mntopts;

	if (p != NULL && strlen(p) >= MNT_LINE_MAX) {
		fprintf(stderr, "double: hasmntopt() of %zu bytes of options would "
		        "overflow libc's %d-byte buffer\n", strlen(p), MNT_LINE_MAX);
		abort();
	}

	while (p != NULL && *p != '\0') {
		if (strncmp(p, opt, k) == 0 && !isalnum((unsigned char)p[k]))
			return p;
		p = strchr(p, ',');
		if (p != NULL)
			p++;
	}
	return NULL;
}

/* ------------------------------------------------------ swap, libdiskmgt */

/* swapctl(2) as vm_swap.c answers it: SC_GETNSWP the count (471), SC_LIST
 * the names as they were added (708-711), ENOMEM when the caller's table
 * is smaller than the list (680-690). */
int
dio_dbl_swapctl(int cmd, void *arg)
{
	swaptbl_t *t = arg;
	int i, n = dbl.nswap;

	dbl.nswapctl++;
	if (cmd == SC_GETNSWP)
		return dbl.swap_errno_count ? fail(dbl.swap_errno_count) : dbl.nswap;
	if (cmd != SC_LIST)
		return fail(EINVAL);
	if (dbl.swap_errno_list)
		return fail(dbl.swap_errno_list);
	if (dbl.swap_grow > 0) {
		/* Areas added since SC_GETNSWP: the caller's table may now be
		 * too small (ENOMEM, vm_swap.c). */
		int k = dbl.swap_grow;

		for (; k > 0 && dbl.nswap < 32; k--, dbl.nswap++)
			snprintf(dbl.swap[dbl.nswap], sizeof(dbl.swap[0]),
			         "/dev/zvol/dsk/rpool/swap%d", dbl.nswap);
		if (!dbl.swap_grow_each)
			dbl.swap_grow = 0;
		n = dbl.nswap;
	}
	if (t->swt_n < n)
		return fail(ENOMEM);
	for (i = 0; i < n && i < dbl.nswap; i++) {
		strcpy(t->swt_ent[i].ste_path, dbl.swap[i]);
		t->swt_ent[i].ste_start = 8;
		t->swt_ent[i].ste_length = 2048;
	}
	return i;
}

/* dm_inuse() as libdiskmgt's entry.c (846-1053) answers it: a name it
 * does not know is ENODEV, turned into 0, "not in use" (900-911). */
int
dio_dbl_dm_inuse(char *name, char **msg, int who, int *errp)
{
	struct dbl_node *n = dbl_node_find(name);

	*errp = 0;
	*msg = NULL;
	if (dbl.ndm < DBL_CALLS)
		snprintf(dbl.dm_asked[dbl.ndm], sizeof(dbl.dm_asked[0]), "%s", name);
	dbl.ndm++;
	dbl.dm_who_seen = who;
	if (n == NULL)
		return 0;               /* unknown to libdiskmgt: ENODEV -> 0 */
	if (n->dm_errno) {
		*errp = n->dm_errno;
		return 0;
	}
	if (n->dm_inuse < 0)
		return n->dm_inuse;     /* the swap check's error (ZPOOL callers) */
	if (n->dm_inuse) {
		*msg = strdup(n->dm_msg[0] ? n->dm_msg : "in use\n");
		return 1;
	}
	return 0;
}

const char *
dio_dbl_zfs_path(void)
{
	return dbl.zfs_path;
}
