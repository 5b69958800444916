/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * direct.h -- what the library said about direct I/O on a handle, in the
 * words a tool puts into its own sentence.
 */
#ifndef DIOT_DIRECT_H
#define DIOT_DIRECT_H

#include <stddef.h>

#include "libdirectio.h"

/*
 * Why the last dio_file_set_direct(f, DIO_DIRECT_ON) on f failed, as the
 * library and its backend said it ("ZFS accepts directio() and ignores
 * it: ..."), without the library's "set direct on: " lead; "" when it
 * said nothing.  Returns buf.
 */
char *diot_direct_refusal(const dio_file *f, char *buf, size_t len);

#endif /* DIOT_DIRECT_H */
