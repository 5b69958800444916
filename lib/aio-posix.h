/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * aio-posix.h -- private to libdirectio: the POSIX AIO engine of dio_aio,
 * as lib/aio.c calls it.  lib/aio-posix.c implements it where the C
 * library has POSIX AIO (<aio.h>, aio_read(), aio_suspend(): glibc,
 * illumos libc); lib/aio-posix-none.c, where every call says -ENOTSUP,
 * everywhere else.  Makefile.am picks one (configure: HAVE_POSIX_AIO).
 */
#ifndef DIO_AIO_POSIX_H
#define DIO_AIO_POSIX_H

#include <stddef.h>
#include <stdint.h>

#include "libdirectio.h"

/* depth control blocks and their bookkeeping; opaque to lib/aio.c. */
struct dio__paio;

/* 1 if the POSIX AIO engine is compiled in, else 0. */
int dio__paio_available(void);

/* New engine for depth requests in flight: 0 with *p set, -ENOMEM, or
 * -ENOTSUP where there is no POSIX AIO. */
int dio__paio_new(unsigned depth, struct dio__paio **p);

/* Cancel what is in flight, wait until all of it is back (the caller's
 * buffers are then free), and free p.  NULL is ignored. */
void dio__paio_free(struct dio__paio *p);

/* Start one read (write == 0) or write; the caller keeps at most depth
 * requests in flight.  0, or -errno (logged). */
int dio__paio_start(struct dio__paio *p, int write, int fd, void *buf, size_t len,
                    int64_t off, uint64_t tag);

/* Wait for at least min completions (1 <= max, min <= max and the number
 * in flight: capped by the caller) and store up to max in ev.  Returns
 * the number stored, or -errno (-EINTR: a signal came first). */
int dio__paio_wait(struct dio__paio *p, struct dio_aio_event *ev, unsigned max,
                   unsigned min);

#endif /* DIO_AIO_POSIX_H */
