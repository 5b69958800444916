/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * version.c -- what this build of the library is: its version, its OS
 * backend, and the capabilities that backend and the probed POSIX flags
 * give (dio_caps()).
 */
#include "config.h"

#include "internal.h"
#include "os/os.h"

unsigned
dio_version(void)
{
	return DIO_VERSION_HEX;
}

const char *
dio_version_string(void)
{
	return PACKAGE_VERSION;
}

const char *
dio_backend_name(void)
{
	return DIO_BACKEND_NAME;
}

unsigned
dio_caps(void)
{
	unsigned caps = dio__os_caps();

	/* The portable parts: probed POSIX flags and calls. */
#if HAVE_DECL_O_DSYNC
	caps |= DIO_CAP_O_DSYNC;
#endif
#if HAVE_DECL_O_SYNC
	caps |= DIO_CAP_O_SYNC;
#endif
#if HAVE_DECL_FDATASYNC && defined(HAVE_FDATASYNC)
	caps |= DIO_CAP_FDATASYNC;
#endif
	return caps;
}
