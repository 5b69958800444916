/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * double.h -- TEST DOUBLE of the illumos calls libdirectio's illumos
 * backend (os/sunos*.c) makes, for tests/check_sunos on Linux.  Not a
 * second backend: every answer is scripted by the test from what the
 * illumos source does (doc/illumos.md cites it), and anything not
 * scripted (real files, real descriptors) goes to the real call.
 *
 * tests/illumos/config.h reroutes the calls here with function-like
 * macros; this file declares the replacements and the scripted state.
 */
#ifndef DIO_DBL_DOUBLE_H
#define DIO_DBL_DOUBLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <dirent.h>
#include <sys/types.h>
#include <sys/stat.h>

struct statvfs;
struct extmnttab;
struct mnttab;

/* ------------------------------------------------------ scripted state */

#define DBL_NA (-1)     /* an ioctl answered ENOTTY */

/* A device node: what stat(), open(), the dkio ioctls and dm_inuse() say. */
struct dbl_node {
	char path[128];         /* "/dev/rdsk/c0t0d0s0"                        */
	char real[160];         /* what realpath() gives ("" = path)           */
	int chr;                /* character (raw) node, else block            */
	dev_t rdev;
	int64_t size;           /* st_size of stat()/fstat() (specfs)          */
	int open_errno;
	/* DKIOCINFO (answered only when disk; char nodes only, as specfs) */
	int disk;
	char cname[16], dname[16];
	unsigned cnum, unit, maxtransfer;
	/* DKIOCGMEDIAINFOEXT; DKIOCGMEDIAINFO (same figures, no pbsize)
	 * unless minfo_plain_errno */
	int minfo_errno;
	int minfo_plain_errno;
	uint32_t lbsize, pbsize, media_type;
	uint64_t capacity;      /* in lbsize blocks: the whole medium          */
	/* DKIOCEXTPARTINFO: p_length, or part_errno (ENOTTY on SPARC) */
	int part_errno;
	uint64_t p_start, p_length;
	/* DKIOCREMOVABLE, DKIOCGETWCE, DKIOCSOLIDSTATE, DKIOCREADONLY:
	 * 0/1 or DBL_NA */
	int removable, wce, solid, ro;
	/* dm_inuse(): 0 free, 1 in use (dm_msg), < 0 returned as is, or
	 * dm_errno set in *errp */
	int dm_inuse;
	char dm_msg[96];
	int dm_errno;
	/* open(O_EXCL): EBUSY while someone holds it (zvol.c:904-915) */
	int excl_busy;
	int nexcl;              /* exclusive opens tried                       */
	/* DKIOCFLUSHWRITECACHE: its errno (0: done), and how many were sent;
	 * fsync()/fdatasync() of the node: how many */
	int flush_errno;
	int nflush, nfsync;
};

/* A mount table entry as getextmntent() fills it. */
struct dbl_mount {
	char special[1200], mountp[128], fstype[16], opts[1200];
	unsigned major, minor;
	int rc;                 /* 0, MNT_TOOLONG, or MNT_TOOFEW (skipped)     */
};

/* One USCSICMD answer. */
struct dbl_uscsi {
	int err;                /* 0: the ioctl returns 0; else -1 and errno   */
	int status;             /* written to uscsi_status; DBL_NO_WRITE: not  */
	size_t resid;
	size_t sense_len;       /* sense bytes written to uscsi_rqbuf          */
	uint8_t sense[32];
};
#define DBL_NO_WRITE (-1000)

/* What the caller had in struct uscsi_cmd when USCSICMD was called. */
struct dbl_uscsi_seen {
	int flags, status, timeout, cdblen, rqlen, rqstatus, rqresid;
};

#define DBL_NODES 48
#define DBL_MOUNTS 12
#define DBL_FILES 16
#define DBL_CALLS 64

struct dbl_state {
	char root[256];                 /* temp tree holding the listings      */
	struct dbl_node node[DBL_NODES];
	int nnodes;
	/* fstatvfs() of real files: f_basetype by inode, else basetype */
	char basetype[16];
	struct { dev_t dev; ino_t ino; char type[16]; } file[DBL_FILES];
	int nfiles;
	int statvfs_errno;
	/* directio(): its answer and the calls made */
	int directio_errno;
	struct { int fd, advice; } directio_call[DBL_CALLS];
	int ndirectio;
	/* the mount table; fopen(MNTTAB) fails with mnttab_errno if set */
	struct dbl_mount mount[DBL_MOUNTS];
	int nmounts;
	int mnttab_errno;
	/* swapctl(): the areas, errors of SC_GETNSWP / SC_LIST, and areas
	 * that appear once between the two (the list grew: ENOMEM) */
	char swap[32][128];
	int nswap;
	int swap_errno_count, swap_errno_list;
	int swap_grow;
	int swap_grow_each;             /* grow by swap_grow at every SC_LIST */
	int nswapctl;
	/* dm_inuse(): the names asked */
	char dm_asked[DBL_CALLS][128];
	int ndm;
	int dm_who_seen;                /* the last who                        */
	/* USCSICMD: answers in turn (then GOOD), and what the caller preset */
	struct dbl_uscsi uscsi[8];
	int nuscsi;
	struct dbl_uscsi_seen uscsi_seen[8];
	int nuscsi_seen;
	/* opendir() of a scripted directory fails with opendir_errno if set */
	int opendir_errno;
	/* zfs(8): the program run by the backend (a script the test writes) */
	char zfs_path[256];
	/* /dev/dump: open() fails with dump_open_errno if set; DIOCGETDEV
	 * gives dump_dev, or ENODEV when it is "" (dump.c:157-167) */
	int dump_open_errno;
	char dump_dev[128];
	/* who and where the caller is, and whether libzfs.so loads */
	unsigned euid;
	int zoneid;
	int libzfs_missing;
	char dlopened[64];      /* the last name given to dlopen()            */
};

extern struct dbl_state dbl;

/* Forget everything (fresh listing tree); remove it with dbl_cleanup(). */
void dbl_reset(void);
void dbl_cleanup(void);
/* A node: not a disk (every ioctl ENOTTY) until dbl_disk() says so. */
struct dbl_node *dbl_node_add(const char *path, int chr, unsigned maj,
                              unsigned min);
struct dbl_node *dbl_node_find(const char *path);
/* Make n a disk: driver dname instance unit, lbsize-byte blocks,
 * capacity of them, fixed, no partition info (ENOTTY). */
void dbl_disk(struct dbl_node *n, const char *dname, unsigned unit,
              uint32_t lbsize, uint64_t capacity);
/* f_basetype of the real file at path. */
void dbl_file_type(const char *path, const char *type);
struct dbl_mount *dbl_mount_add(const char *special, const char *mountp,
                                const char *fstype, const char *opts,
                                dev_t dev);
/* How many times dm_inuse() was asked about name. */
int dbl_dm_asked(const char *name);

/* ------------------------------------------------------ the rerouted calls */

int dio_dbl_open(const char *path, int flags, ...);
int dio_dbl_close(int fd);
int dio_dbl_stat(const char *path, struct stat *st);
int dio_dbl_fstat(int fd, struct stat *st);
DIR *dio_dbl_opendir(const char *path);
char *dio_dbl_realpath(const char *path, char *resolved);
FILE *dio_dbl_fopen(const char *path, const char *mode);
int dio_dbl_fclose(FILE *fp);
int dio_dbl_ioctl(int fd, unsigned long req, ...);
int dio_dbl_fstatvfs(int fd, struct statvfs *buf);
int dio_dbl_directio(int fd, int advice);
int dio_dbl_getextmntent(FILE *fp, struct extmnttab *m, size_t len);
char *dio_dbl_hasmntopt(struct mnttab *m, char *opt);
int dio_dbl_fsync(int fd);
int dio_dbl_fdatasync(int fd);
unsigned dio_dbl_geteuid(void);
int dio_dbl_getzoneid(void);
void *dio_dbl_dlopen(const char *name, int mode);
int dio_dbl_dlclose(void *h);
int dio_dbl_swapctl(int cmd, void *arg);
int dio_dbl_dm_inuse(char *name, char **msg, int who, int *errp);
const char *dio_dbl_zfs_path(void);

#endif
