/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * zone.h -- TEST DOUBLE (tests/illumos) of the part of illumos' zone.h
 * and sys/zone.h (367731f) the backend uses: the caller's zone and the
 * global zone's id (0), written anew.  tests/illumos/double.c answers
 * getzoneid() (config.h renames it) from the scripted state.
 */
#ifndef DIO_DBL_ZONE_H
#define DIO_DBL_ZONE_H

typedef int zoneid_t;

#define GLOBAL_ZONEID 0

zoneid_t getzoneid(void);

#endif
