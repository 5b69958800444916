/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sys/swap.h -- TEST DOUBLE (tests/illumos) of swapctl(2): the commands
 * and structures the backend uses, as in illumos-gate
 * usr/src/uts/common/sys/swap.h (367731f), written anew, including its
 * refusal of the 32-bit large-file environment.  swapctl() is answered by
 * tests/illumos/double.c (config.h renames it).
 */
#ifndef DIO_DBL_SYS_SWAP_H
#define DIO_DBL_SYS_SWAP_H

#include <sys/types.h>

#if !defined(_LP64) && defined(_FILE_OFFSET_BITS) && _FILE_OFFSET_BITS == 64
# error "test double of sys/swap.h: no swapctl in the large-file environment"
#endif

#define SC_LIST         2       /* fill a swaptbl_t; ENOMEM if too small */
#define SC_GETNSWP      4       /* how many swap areas there are         */

typedef struct swapent {
	char *ste_path;         /* caller's buffer (MAXPATHLEN) for the name */
	off_t ste_start;        /* 512-byte blocks                           */
	off_t ste_length;
	long ste_pages;
	long ste_free;
	int ste_flags;
} swapent_t;

typedef struct swaptable {
	int swt_n;                      /* entries in swt_ent          */
	struct swapent swt_ent[1];      /* really swt_n of them        */
} swaptbl_t;

int swapctl(int cmd, void *arg);

#endif
