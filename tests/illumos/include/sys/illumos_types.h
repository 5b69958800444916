/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sys/illumos_types.h -- TEST DOUBLE (tests/illumos): the few illumos
 * type names (sys/types.h there) that glibc lacks, for the other fake
 * headers.  Not an illumos header.
 */
#ifndef DIO_DBL_ILLUMOS_TYPES_H
#define DIO_DBL_ILLUMOS_TYPES_H

#include <sys/types.h>

typedef unsigned char uchar_t;
typedef unsigned short ushort_t;
typedef unsigned int uint_t;
typedef unsigned long ulong_t;
typedef unsigned long long diskaddr_t;  /* u_longlong_t on illumos */

#endif
