/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * header_c89.c -- the public header must compile as strict C89
 * (-std=c89 -pedantic -Werror, set in Makefile.am) and link.
 */
#include <libdirectio.h>

int
main(void)
{
	struct dio_align a;
	unsigned v = dio_version();

	(void)a;
	return v == (unsigned)DIO_VERSION_HEX ? 0 : 1;
}
