/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sys/mntent.h -- TEST DOUBLE (tests/illumos): the mount option names the
 * backend looks for, as in illumos-gate usr/src/uts/common/sys/mntent.h
 * (367731f).  (It replaces glibc's sys/mntent.h for this program only.)
 */
#ifndef DIO_DBL_SYS_MNTENT_H
#define DIO_DBL_SYS_MNTENT_H

#define MNTOPT_FORCEDIRECTIO    "forcedirectio"
#define MNTOPT_NOFORCEDIRECTIO  "noforcedirectio"

#endif
