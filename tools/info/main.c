/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * main.c -- dio-info: everything about direct I/O on a path in one report:
 * the file system and whether it takes direct I/O (and by which mechanism),
 * the alignment direct transfers need, the block device underneath with
 * its request size limits, read-ahead, scheduler and write cache, the sg
 * driver's allow_dio and the device's sg node, the device's own answers
 * to INQUIRY, READ CAPACITY and MODE SENSE (caching page) through
 * pass-through, and advice derived from exactly those facts.
 *
 * A run: options (args.c) -> examine (probe.c: stat, direct I/O probe,
 * alignment, dio_devinfo(), dio_device_in_use(); scsi.c: pass-through)
 * -> advice (advice.c, one rule per fact) -> report as text (text.c) or
 * JSON (report-json.c).  --counters: the disks' counters only (counters.c).  Platform differences come from the library; the
 * advice texts are keyed on dio_backend_name().  The model is info.h.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "tools/info/info.h"
#include "tools/kit/msg.h"

static void on_signal(int sig);

int
main(int argc, char **argv)
{
	static struct facts f;
	static struct advice_list advice;
	struct info_opts o;
	int r;

	diot_init(PROG);
	if (info_args(argc, argv, &o) != 0)
		return 0;               /* --help, --version */

	diot_catch_stop_signals(on_signal);
	if (o.counters) {
		r = info_counters(&o);
		if (fflush(stdout) != 0 || ferror(stdout))
			diot_die(DIOT_EXIT_FAIL, "writing the report: %s", dio_strerror(errno));
		return r;
	}

	r = info_examine(&f, &o);
	if (r < 0)
		diot_die(DIOT_EXIT_FAIL, "%s: cannot be examined: %s", o.path, dio_strerror(r));
	info_advice(&f, &advice);
	if (o.format == FMT_JSON)
		info_json(&f, &advice);
	else
		info_text(&f, &advice);
	if (fflush(stdout) != 0 || ferror(stdout))
		diot_die(DIOT_EXIT_FAIL, "writing the report: %s", dio_strerror(errno));
	return 0;
}

/*
 * SIGINT, SIGTERM and SIGHUP end a run (128 + N) even when the parent
 * left them ignored.  --probe-write's temporary file is never left
 * behind: the probe blocks these signals while the file exists
 * (probe.c), so one that comes meanwhile is handled after the removal.
 */
static void
on_signal(int sig)
{
	diot_die_by_signal(sig);
}
