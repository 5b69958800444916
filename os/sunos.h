/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sunos.h -- what the files of the Solaris/illumos backend share.
 *
 *   sunos.c        direct I/O (directio(), raw disks, forcedirectio),
 *                  alignment, file system type, large pages;
 *   sunos-disk.c   disk facts from the dkio(4I) ioctls, dio_devinfo(),
 *                  ZFS's sync property;
 *   sunos-inuse.c  the in-use check, device claims;
 *   sunos-swap.c   swapctl() and libdiskmgt, which must be built outside
 *                  the large-file environment of 32-bit builds;
 *   sunos-scsi.c   USCSICMD pass-through;
 *   sunos-names.c  the names of disk nodes (stems, /dev/dsk, pseudo disks,
 *                  nodes by device number, raw twins) and /etc/mnttab,
 *                  which the other files call and which calls none of
 *                  them (tests/no-circles.sh).
 *
 * doc/illumos.md names the illumos-gate source each behaviour relies on.
 */
#ifndef DIO_SUNOS_H
#define DIO_SUNOS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The mount holding a file, from /etc/mnttab. */
struct dio__sunos_mount {
	char special[256];       /* "/dev/dsk/c0t0d0s0", "rpool/export", "srv:/x" */
	char mountp[256];
	char fstype[32];
	int forcedirectio;       /* mounted forcedirectio (UFS, NFS)               */
	int lofs_hidden;         /* only a lofs mount is listed for the device:
	                          * fstype "lofs", the rest unknown             */
};

/* What the dkio ioctls say about a disk node's media. */
struct dio__sunos_media {
	uint32_t lbsize;         /* logical block, bytes                            */
	uint32_t pbsize;         /* physical block, bytes                           */
	uint32_t media_type;
	uint64_t bytes;          /* the slice or partition (else the whole disk)    */
};

/* sunos-names.c */
void dio__sunos_disk_stem(const char *path, char *out, size_t len);
/* Is path a node of the /dev/dsk or /dev/rdsk directories? */
int dio__sunos_in_dsk(const char *path);
/* The driver of a pseudo disk named in its own /dev directory ("zvol" for
 * /dev/zvol/..., "lofi", "ramdisk"), or NULL. */
const char *dio__sunos_pseudo_disk(const char *path);
/* Is a disk of driver one of those (its I/O ends in a cache or in memory,
 * so it is not direct although its raw node is one; why, in words:
 * lib/refusal.c)?  1 or 0. */
int dio__sunos_cached_driver(const char *driver);
/* The node in dir (character if chr, else block) whose st_rdev is rdev:
 * 0 with out set, or -ENOENT. */
int dio__sunos_node_in(const char *dir, int chr, dev_t rdev, char *out, size_t len);
int dio__sunos_raw_twin(const char *path, dev_t rdev, char *out, size_t len);
/* The mount holding device dev, the file system a lofs mount shows
 * rather than the lofs mount: 1 found, 0 not, -errno. */
int dio__sunos_mount_of(dev_t dev, struct dio__sunos_mount *m);
/* A mount of the device rdev (either node) or, for a disk (stem not ""),
 * of another slice of it: 1 (why set), 0 none, -errno (why set). */
int dio__sunos_mounted(dev_t rdev, const char *stem, char *why, size_t len);

/* sunos-disk.c */
/* The drive's driver DKIOCINFO names ("sd", "blkdev", "zvol"): 0 when fd
 * is a disk node, else -errno. */
int dio__sunos_driver(int fd, char *out, size_t len);
int dio__sunos_media(int fd, struct dio__sunos_media *m);

/*
 * sunos-swap.c: 1 in use (why set), 0 not, -errno could not tell (why
 * set).  Swap is on the device path (by name or device number rdev), or
 * for a disk (stem not "") on any /dev/dsk or /dev/rdsk slice of the disk
 * named stem.
 */
int dio__sunos_swap_holds(const char *stem, const char *path, dev_t rdev,
                          char *why, size_t len);
int dio__sunos_dm_inuse(const char *node, char *why, size_t len);

#endif /* DIO_SUNOS_H */
