/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fail.c -- a run that cannot start: the output files it created are
 * removed, then it ends with the reason.  Every setup stage calls it
 * (check.c, alias.c, open.c, workers.c).
 */
#include "config.h"

#include "tools/dd/dd.h"
#include "tools/kit/msg.h"
#include "tools/kit/outfile.h"

/* Remove output files this run created (on a failure before the run):
 * closed first, then removed through the kit's list. */
static void
cleanup_created(struct dd *dd)
{
	int i;

	for (i = 0; i < dd->ndevs; i++) {
		struct side *s = &dd->devs[i].out;

		if (s->f != NULL)
			dio_close(s->f);
		s->f = NULL;
		s->created = 0;
	}
	diot_out_remove_created(&dd->created);
}

void DIOT_PRINTF(3, 4) DIOT_NORETURN
fail_setup(struct dd *dd, int status, const char *fmt, ...)
{
	va_list ap;

	/* The arguments are the options' names, which cleanup leaves; the
	 * message is formatted whole, whatever its length. */
	cleanup_created(dd);
	va_start(ap, fmt);
	diot_vdie(status, fmt, ap);
}
