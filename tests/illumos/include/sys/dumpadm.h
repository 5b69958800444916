/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sys/dumpadm.h -- TEST DOUBLE (tests/illumos) of the part of illumos'
 * usr/src/uts/common/sys/dumpadm.h (367731f) the backend uses: the
 * /dev/dump ioctl that names the dump device, with the same request
 * number, written anew.  tests/illumos/double.c answers it.
 */
#ifndef DIO_DBL_SYS_DUMPADM_H
#define DIO_DBL_SYS_DUMPADM_H

#define DDIOC           (0xdd << 8)
#define DIOCGETDEV      (DDIOC | 0x13)  /* the dump device's path */

#endif
