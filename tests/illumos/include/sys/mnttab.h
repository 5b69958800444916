/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sys/mnttab.h -- TEST DOUBLE (tests/illumos) of the mount table reader:
 * struct mnttab / extmnttab, the getmntent return codes and MNTTAB as in
 * illumos-gate usr/src/uts/common/sys/mnttab.h (367731f), written anew.
 * getextmntent() and hasmntopt() are answered by tests/illumos/double.c
 * (config.h renames them) from a scripted table.
 */
#ifndef DIO_DBL_SYS_MNTTAB_H
#define DIO_DBL_SYS_MNTTAB_H

#include <stdio.h>
#include <sys/illumos_types.h>

#define MNTTAB          "/etc/mnttab"
#define MNT_LINE_MAX    1024

#define MNT_TOOLONG     1       /* longer than MNT_LINE_MAX: still filled in */
#define MNT_TOOMANY     2
#define MNT_TOOFEW      3

struct mnttab {
	char *mnt_special;
	char *mnt_mountp;
	char *mnt_fstype;
	char *mnt_mntopts;
	char *mnt_time;
};

/* The same first fields, then the device number of the mount. */
struct extmnttab {
	char *mnt_special;
	char *mnt_mountp;
	char *mnt_fstype;
	char *mnt_mntopts;
	char *mnt_time;
	uint_t mnt_major;
	uint_t mnt_minor;
};

/* illumos takes both arguments as plain char *. */
int getextmntent(FILE *fp, struct extmnttab *mp, size_t len);
char *hasmntopt(struct mnttab *mnt, char *opt);

#endif
