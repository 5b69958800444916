/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sys/mkdev.h -- TEST DOUBLE (tests/illumos): illumos declares major(),
 * minor() and makedev() here; glibc has them in sys/sysmacros.h.
 */
#ifndef DIO_DBL_SYS_MKDEV_H
#define DIO_DBL_SYS_MKDEV_H

#include <sys/sysmacros.h>

#endif
