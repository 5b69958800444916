/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * args.c -- dio-info's command line: usage, and the options into a
 * struct info_opts.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "tools/info/info.h"
#include "tools/kit/msg.h"
#include "tools/kit/opt.h"
#include "tools/kit/parse.h"

static const char *const format_words[] = { "text", "json", NULL };

enum { OPT_FORMAT = 1, OPT_PROBE_WRITE, OPT_NO_SCSI, OPT_COUNTERS, OPT_HELP, OPT_VERSION };

static const struct diot_opt options[] = {
	{ "format",      'f', DIOT_REQ_ARG, OPT_FORMAT },
	{ "probe-write", 0,   DIOT_NO_ARG,  OPT_PROBE_WRITE },
	{ "no-scsi",     0,   DIOT_NO_ARG,  OPT_NO_SCSI },
	{ "counters",    0,   DIOT_NO_ARG,  OPT_COUNTERS },
	{ "help",        'h', DIOT_NO_ARG,  OPT_HELP },
	{ "version",     'V', DIOT_NO_ARG,  OPT_VERSION },
	{ NULL, 0, 0, 0 }
};

static void
usage(void)
{
	printf(
"Usage: %s [OPTION]... PATH\n"
"Report what decides direct I/O on PATH (a file, a directory or a device)\n"
"and what to change: the file system and whether it takes direct I/O, the\n"
"alignment direct transfers need, the block device underneath (request size\n"
"limits, read-ahead, scheduler, write cache, in use), the sg driver's\n"
"allow_dio and the device's sg node, the device's INQUIRY identity, serial\n"
"number, capacity and write cache (WCE) through SCSI pass-through, and\n"
"advice derived from those facts.\n"
"\n"
"Nothing is written: files and devices are opened read-only and only\n"
"commands that read are sent.  A directory is probed by opening a file in\n"
"it read-only, or with --probe-write by creating, writing and removing a\n"
"temporary file of dio-info's own.\n"
"\n"
"  -f, --format FMT      text (default) or json\n"
"      --probe-write     PATH is a directory: test direct I/O on a temporary\n"
"                        file created (and removed) in it\n"
"      --no-scsi         send no SCSI commands (no INQUIRY, READ CAPACITY,\n"
"                        MODE SENSE)\n"
"      --counters        report only the block-layer counters (reads, writes,\n"
"                        sectors, cache flushes) of the disks under PATH now\n"
"  -h, --help            this help\n"
"  -V, --version         version of the tool and library\n"
"\n"
"Exit status: 0 reported, 1 PATH cannot be examined (--counters: or its\n"
"disks cannot be counted), 2 usage error.\n"
"See dio-info(1) ('man dio-info'): each fact, the advice, the JSON keys.\n",
	       PROG);
}

int
info_args(int argc, char **argv, struct info_opts *o)
{
	struct diot_optstate st;
	struct stat pst;
	char err[DIOT_ERR_MAX];
	int id;

	memset(o, 0, sizeof(*o));
	o->format = FMT_TEXT;
	diot_getopt_init(&st);
	while ((id = diot_getopt(argc, argv, options, &st)) != DIOT_OPT_END) {
		switch (id) {
		case DIOT_OPT_ERROR:
			diot_usage_error("%s", st.err);
		case DIOT_OPT_OPERAND:
			if (o->path != NULL)
				diot_usage_error("one PATH only (got '%s' and '%s')", o->path,
				                 st.arg);
			o->path = st.arg;
			break;
		case OPT_FORMAT:
			if (diot_parse_word(st.arg, format_words, &o->format, err,
			                    sizeof(err)) < 0)
				diot_usage_error("%s '%s': %s", st.name, st.arg, err);
			break;
		case OPT_PROBE_WRITE:
			o->probe_write = 1;
			break;
		case OPT_NO_SCSI:
			o->no_scsi = 1;
			break;
		case OPT_COUNTERS:
			o->counters = 1;
			break;
		case OPT_HELP:
			usage();
			return 1;
		case OPT_VERSION:
			printf("%s (libdirectio) %s, library %s, backend %s\n", PROG,
			       PACKAGE_VERSION, dio_version_string(), dio_backend_name());
			return 1;
		}
	}
	if (o->path == NULL)
		diot_usage_error("no PATH given");
	if (*o->path == '\0')
		diot_usage_error("PATH is empty");
	if (o->counters && o->probe_write)
		diot_usage_error("--counters reads the disks' counters and probes nothing; "
		                 "--probe-write goes with the full report");
	if (o->probe_write && stat(o->path, &pst) == 0 && !S_ISDIR(pst.st_mode))
		diot_usage_error("--probe-write tests a temporary file in a directory; "
		                 "%s is a %s (its direct I/O is probed with a read-only "
		                 "open without the option)", o->path, info_file_type(&pst));
	return 0;
}
