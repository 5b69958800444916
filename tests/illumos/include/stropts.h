/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stropts.h -- TEST DOUBLE (tests/illumos): on illumos it declares
 * ioctl(); glibc no longer ships it.  ioctl() itself is rerouted to the
 * double by tests/illumos/config.h.
 */
#ifndef DIO_DBL_STROPTS_H
#define DIO_DBL_STROPTS_H

#include <sys/ioctl.h>

#endif
