/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rbuf.h -- dio-rbuf's model: the options, the device as probed, one timed
 * run and a sweep's derived figures, and the stages that pass them
 * around (args.c, device.c, measure.c, report.c; main.c calls them in
 * order).  No stage keeps state of its own.
 */
#ifndef DIO_TOOLS_RBUF_H
#define DIO_TOOLS_RBUF_H

#include <stddef.h>
#include <stdint.h>

#include "libdirectio.h"
#include "tools/kit/msg.h"

#define RBUF_PROG "dio-rbuf"

#define MAX_SIZES 32
#define NMODES 4                /* DIO_SCSI_XFER_INDIRECT .. MMAP */
#define DEFAULT_TOTAL (200ull * 1024 * 1024)
#define DEFAULT_READ_SIZE (64u * 1024)
#define READ10_MAX_BLOCKS 0xffffu

enum { CMD_RBUF, CMD_READ };
enum { FMT_TABLE, FMT_CSV, FMT_JSON };

/* The command line. */
struct opts {
	const char *device;
	uint64_t size;
	int size_set;
	uint64_t total;
	int mode;
	int mode_set;
	int sweep;
	uint64_t sizes[MAX_SIZES];
	size_t nsizes;
	int modes[NMODES];
	size_t nmodes;
	int command;
	uint64_t lba;
	int lba_set;
	int format;
	const char *plot;
	int verbose;
	int cmd_times;          /* --command-times: time each command       */
	unsigned timeout_s;
	int buffer_id;
	int echo;               /* -e: the echo buffer (READ BUFFER mode 0Ah)  */
};

/* The device as opened and probed. */
struct dev {
	const char *path;
	int fd;
	const char *kind;
	int64_t reserved;       /* sg reserved buffer, < 0 when there is none */
	struct dio_inquiry inq;
	int have_inq;
	uint32_t capacity;      /* READ BUFFER capacity                       */
	unsigned boundary;      /* READ BUFFER offset boundary exponent       */
	uint64_t blocks;        /* READ CAPACITY                               */
	uint32_t block_len;
	uint64_t limit;         /* largest bytes per command                  */
};

/* One (size, mode) run. */
struct run {
	int mode;
	uint64_t size;
	int measured;
	int err;                /* -errno when not measured                   */
	int unsupported;        /* the mode does not exist for this device    */
	char why[400];
	uint64_t commands;
	uint64_t bytes;         /* bytes transferred (asked minus residuals)  */
	double secs, user, sys;
	uint64_t not_direct;    /* DIRECT asked, something else done          */
	int xfer_done;
	int timed_each;         /* --command-times: dur_* are set             */
	uint64_t dur_sum, dur_min, dur_max;
};

/* A sweep's derived figures for one mode. */
struct summary {
	int mode;
	size_t points;
	int lat_ok, after_ok, raw_ok, fit_ok, bw_ok, r2_ok;
	double latency;         /* s per command, implied                     */
	double after;           /* bytes/s                                    */
	double best_raw, worst_raw;
	double fit_latency, fit_bw, fit_r2;
};

/* A run's buffers and command objects (main.c sets them up). */
struct io {
	void *buf;              /* for indirect and direct                    */
	dio_scsi *c;            /* every mode but mmap                        */
	dio_scsi *cmap;         /* mmap: carries the mapping (or NULL)        */
	int map_err;            /* -errno when the mapping failed             */
	char map_detail[300];
};

/* ------------------------------------------------------------ args.c */

/* Options into *o; -1 to run, or the exit status after --help/--version
 * (0, or DIOT_EXIT_FAIL when standard output could not be written); a bad
 * command line exits DIOT_EXIT_USAGE (diot_usage_error(): the errors can
 * be held, tools/kit/msg.h). */
int rbuf_parse_args(int argc, char **argv, struct opts *o);

/* "PROG: message" on stderr when verbose >= level. */
void rbuf_note(int verbose, int level, const char *fmt, ...) DIOT_PRINTF(3, 4);

/* ------------------------------------------------------------ device.c */

/* Open o->device as a SCSI device, then the probes; they exit
 * DIOT_EXIT_FAIL with the reason when the device cannot do the job. */
void rbuf_open_device(struct dev *d, const struct opts *o);
void rbuf_probe_inquiry(struct dev *d, const struct opts *o);
void rbuf_probe_buffer(struct dev *d, const struct opts *o);
void rbuf_probe_capacity(struct dev *d, const struct opts *o);

/* Why direct I/O was asked and not done (the sg driver's allow_dio). */
void rbuf_direct_reason(const struct dev *d, const struct run *r, char *buf,
                        size_t len);

/* ------------------------------------------------------------ measure.c */

/* The sizes to time into o->sizes, checked against the device; exits on
 * a size the device cannot do.  Returns the index of the largest. */
size_t rbuf_choose_sizes(const struct dev *d, struct opts *o);

/* Time one (size, mode) run with io's buffer and command objects. */
void rbuf_measure(const struct dev *d, const struct opts *o, struct run *r,
                  struct io *io);

/* Mark r not measured: err, whether the mode is unsupported, and why. */
void rbuf_run_failed(struct run *r, int err, int unsupported, const char *why);

/* Mean microseconds per command of a measured run. */
double rbuf_mean_command_us(const struct run *r);

/* runs[] is nsizes x nmodes, size-major. */
struct run *rbuf_run_at(struct run *runs, const struct opts *o, size_t size_i,
                        size_t mode_i);
int rbuf_mode_index(const struct opts *o, int mode);

/* The sweep's derived rows for mode index mode_i. */
void rbuf_summarise(struct run *runs, const struct opts *o, size_t mode_i,
                    struct summary *s);

/* ------------------------------------------------------------ report.c */

/* "READ BUFFER" or "READ(10)". */
const char *rbuf_command_name(const struct opts *o);

/* The report on stdout in o->format. */
void rbuf_report(const struct dev *d, const struct opts *o, struct run *runs,
                 size_t nruns, const struct summary *sum);

/* The sweep's plot (time against size per mode) into file: 0 or -errno. */
int rbuf_write_plot(const char *file, const struct dev *d, const struct opts *o,
                    struct run *runs);

#endif
