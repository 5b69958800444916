/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sys/dkio.h -- TEST DOUBLE (tests/illumos) of the dkio(4I) part the
 * libdirectio illumos backend uses: same structure layouts, field names
 * and request numbers as illumos-gate usr/src/uts/common/sys/dkio.h
 * (367731f), written anew.  tests/illumos/double.c answers the requests.
 */
#ifndef DIO_DBL_SYS_DKIO_H
#define DIO_DBL_SYS_DKIO_H

#include <sys/illumos_types.h>

#define DK_DEVLEN 16            /* names, unit number and NUL included */

/* DKIOCINFO: the controller and the drive. */
struct dk_cinfo {
	char dki_cname[DK_DEVLEN];      /* controller driver, no unit      */
	ushort_t dki_ctype;
	ushort_t dki_flags;
	ushort_t dki_cnum;              /* controller instance             */
	uint_t dki_addr;
	uint_t dki_space;
	uint_t dki_prio;
	uint_t dki_vec;
	char dki_dname[DK_DEVLEN];      /* drive driver ("sd", "blkdev")   */
	uint_t dki_unit;                /* drive instance                  */
	uint_t dki_slave;
	ushort_t dki_partition;
	ushort_t dki_maxtransfer;       /* driver units (see sunos-disk.c) */
};

/* DKIOCGMEDIAINFO: the whole medium, the older form (no pbsize). */
struct dk_minfo {
	uint_t dki_media_type;
	uint_t dki_lbsize;              /* logical block, bytes            */
	diskaddr_t dki_capacity;        /* in dki_lbsize blocks            */
};

/* DKIOCGMEDIAINFOEXT: the whole medium. */
struct dk_minfo_ext {
	uint_t dki_media_type;
	uint_t dki_lbsize;              /* logical block, bytes            */
	diskaddr_t dki_capacity;        /* in dki_lbsize blocks            */
	uint_t dki_pbsize;              /* physical block, bytes           */
};

/* DKIOCEXTPARTINFO: the slice or partition open (x86 only). */
struct extpart_info {
	diskaddr_t p_start;
	diskaddr_t p_length;
};

#define DKIOC                   (0x04 << 8)
#define DKIOCINFO               (DKIOC | 3)
#define DKIOCREMOVABLE          (DKIOC | 16)
#define DKIOCEXTPARTINFO        (DKIOC | 19)
#define DKIOCFLUSHWRITECACHE    (DKIOC | 34)  /* from user mode: NULL, synchronous */
#define DKIOCGETWCE             (DKIOC | 36)
#define DKIOCSOLIDSTATE         (DKIOC | 38)
#define DKIOCGMEDIAINFO         (DKIOC | 42)
#define DKIOCGMEDIAINFOEXT      (DKIOC | 48)
#define DKIOCREADONLY           (DKIOC | 49)

#define DK_FIXED_DISK           0x10001  /* a dki_media_type value */

#endif
