/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fail.c -- a run that cannot start: the output files it created are
 * removed, then it ends with the reason.  Every setup stage calls it
 * (check.c, alias.c, open.c, workers.c); a stop signal met while setting
 * up ends it as it ends dd (dd_stop_setup()).
 */
#include "config.h"

#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tools/dd/dd.h"
#include "tools/kit/clock.h"
#include "tools/kit/msg.h"
#include "tools/kit/outfile.h"

/* Remove output files this run created (on a failure before the run):
 * closed first, then removed through the kit's list. */
static void
cleanup_created(struct dd *dd)
{
	int i;

	for (i = 0; i < dd->ndevs; i++) {
		struct dd_side *s = &dd->devs[i].out;

		if (s->f != NULL)
			dio_close(s->f);
		s->f = NULL;
		s->created = 0;
	}
	diot_out_remove_created(&dd->created);
}

void DIOT_PRINTF(3, 4) DIOT_NORETURN
dd_fail_setup(struct dd *dd, int status, const char *fmt, ...)
{
	va_list ap;

	/* The arguments are the options' names, which cleanup leaves; the
	 * message is formatted whole, whatever its length. */
	cleanup_created(dd);
	va_start(ap, fmt);
	diot_vdie(status, fmt, ap);
}

/*
 * A stop signal while the run is being set up: an open that waits for
 * the other end of a FIFO, as dd's does.  dio-dd ends then as dd ends:
 * SIGINT says dd's closing lines (nothing copied; status= as ever);
 * SIGTERM and SIGHUP, which dd leaves to their default, nothing; the
 * outputs this run created are removed, and it dies by the signal.
 */
void DIOT_NORETURN
dd_stop_setup(struct dd *dd)
{
	int sig = *dd->signal ? (int)*dd->signal : SIGINT;
	uint64_t now = diot_now_ns();
	struct dd_row r;

	cleanup_created(dd);
	if (sig == SIGINT) {
		memset(&r, 0, sizeof(r));
		r.wall_s = now > dd->t_start ? (double)(now - dd->t_start) / 1e9 : 0;
		dd_print_records(dd, stderr, &r);
	}
	fflush(NULL);
	diot_die_by_signal(sig);
}
