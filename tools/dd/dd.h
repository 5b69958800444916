/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dd.h -- dio-dd's model: the options (args.c, check.c), a device's two
 * sides and a device (open.c), an output's identity (alias.c), a
 * worker's context (engine.c, io.c, stream.c), a report row (report.c),
 * the run every stage is handed (struct dd); and each stage's entry
 * points, all named dd_ (DD_ for constants; the static inline helpers
 * at the end are this header's own).  Each file includes the system
 * headers it uses itself; these are only what the declarations below
 * need.
 *
 * The path of a run: main.c calls args.c, check.c, open.c (which uses
 * alias.c and check.c's plans), workers.c (engine.c's workers, which run
 * stream.c's loop where dd's loop is taken; every call through io.c),
 * report.c (report-json.c) in turn; ranks.c at each stage of an MPI
 * job; disks.c counts each operand's disks around workers.c's run;
 * fail.c, describe.c, quote.c and number.c serve several stages.
 */
#ifndef DIO_DD_H
#define DIO_DD_H

#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "libdirectio.h"
#include "tools/kit/hist.h"
#include "tools/kit/mpi.h"
#include "tools/kit/msg.h"
#include "tools/kit/outfile.h"

#define DD_MAX_DEVS 64
#define DD_MAX_THREADS 64        /* per device */
#define DD_MAX_QD 1024
/* Room for an error message: two paths of PATH_MAX bytes and the reason
 * after them, never cut. */
#define DD_MSG_MAX (2 * PATH_MAX + 512)
#define DD_MAX_BS (1ull << 30)
#define DD_MAX_TRANSFER (1ull << 30)
#define DD_STAMP_STEP 4096       /* write pattern: a stamp per block and 4 KiB */
#define DD_MAX_OPERANDS 32       /* operand words (args.c)                     */
#define DD_NLOG2 64              /* log2 latency buckets in the reports */
/* The two directions of a run's calls, kept apart as fio keeps them: the
 * reads of the input, the writes of the output. */
enum { DD_DIR_READ, DD_DIR_WRITE, DD_NDIR };

enum dd_mode { DD_MODE_READ, DD_MODE_WRITE, DD_MODE_COPY };
/* DD_KIND_STREAM: read and written in order with read()/write(): a pipe, FIFO,
 * socket, terminal, a character device that is no SCSI device (/dev/zero,
 * /dev/null, /dev/urandom), or standard input/output. */
enum dd_path_kind { DD_KIND_NONE, DD_KIND_FILE, DD_KIND_BLOCK, DD_KIND_SG, DD_KIND_STREAM };
enum dd_engine { DD_ENG_SYNC, DD_ENG_AIO, DD_ENG_URING, DD_ENG_POSIX };
enum dd_fmt { DD_FMT_TABLE, DD_FMT_CSV, DD_FMT_JSON };

extern const char *const dd_mode_words[];
extern const char *const dd_engine_words[];
extern const char *const dd_format_words[];
/* fadvise=: "none" gives no hint (the default, as dd); the others are
 * posix_fadvise() advice for the whole of every file and block device. */
extern const char *const dd_fadvise_words[];

/* ------------------------------------------------------------ options */

struct dd_side_flags {
	int direct, dsync, sync, nocopy, sg, force, notrunc;
	/* dd's: iflag= count_bytes, skip_bytes, fullblock; oflag= seek_bytes,
	 * append; both nocache */
	int count_bytes, skip_bytes, seek_bytes, fullblock, append, nocache;
};

/* conv= (dd's conversions that make sense without changing the data). */
struct dd_conv {
	int fdatasync, fsync, notrunc, excl, nocreat, sync, noerror;
};

/* status= (dd's): what is said on standard error besides errors. */
enum dd_status { DD_STATUS_DEFAULT, DD_STATUS_NONE, DD_STATUS_NOXFER, DD_STATUS_PROGRESS };

struct dd_opts {
	char *ifs[DD_MAX_DEVS], *ofs[DD_MAX_DEVS];
	int nif, nof;
	uint64_t bs, count, skip, seek, bpt, thr, qd, rate;
	uint64_t ibs, obs;       /* dd's input and output block sizes            */
	int bs_set;              /* bs= given: no reblocking (dd's rule)         */
	int count_set, qd_set, mode_set, mode, engine, engine_set;
	int status;              /* enum dd_status                              */
	struct dd_conv conv;
	int time, dio, format, format_set, force, procs, same_session, fadvise;
	const char *write_unchecked; /* --write-unchecked=DEVICE: an of= device
	                          * written though its use cannot be told     */
	int small_pages;         /* largepages=0                                */
	uint64_t bufoff;         /* bufoff=                                     */
	int bufoff_set;
	struct dd_side_flags iflag, oflag;
	char seen[DD_MAX_OPERANDS]; /* each operand word given once at most     */
};


/* ------------------------------------------------------------ disks */

/*
 * What the disks under one operand (an if= or an of=) saw over the run,
 * from the block layer's counters (disks.c): read just before the
 * workers are released and again after the last one ended.  Raw counts
 * of the window: other I/O to the same disks in it is counted too.
 */
enum dd_disks_state {
	DD_DISKS_NONE = 0,       /* not asked (no time=1, no JSON), or no such operand */
	DD_DISKS_COUNTED,        /* every disk's writes and bytes are in seen[]  */
	DD_DISKS_NA              /* why says why not                          */
};

struct dd_disk_seen {
	const struct dio_disk *disk;     /* the library's (owned by the handle) */
	struct dio_disk_counts before, delta;  /* delta: after - before         */
};

struct dd_disks {
	int state;               /* enum dd_disks_state                         */
	char why[300];           /* DD_DISKS_NA: the reason                     */
	dio_disks *h;
	unsigned n;
	struct dd_disk_seen *seen;       /* n of them                           */
	uint64_t from_ns, to_ns;         /* CLOCK_MONOTONIC of the two reads     */
};

/* ------------------------------------------------------------ devices */

struct dd_wctx;
struct diot_team;

struct dd_side {
	const char *path;
	int kind;                /* enum dd_path_kind                           */
	dio_file *f;             /* DD_KIND_FILE / DD_KIND_BLOCK                */
	int fd;                  /* the descriptor (sg: from dio_scsi_open)     */
	int created;             /* we created this output file                 */
	uint64_t size;           /* bytes (0: unknown / new file)               */
	uint32_t sg_block;       /* sg: logical block length                    */
	uint64_t sg_blocks;      /* sg: capacity in blocks                      */
	int use16;               /* sg: READ/WRITE(16) needed                   */
	int claim_fd;            /* output device held exclusively, or -1       */
	int std;                 /* 0/1: standard input/output itself; else -1  */
	int seekable;            /* DD_KIND_STREAM: lseek works (a tty, /dev/null...) */
	uint32_t allow_dio;      /* sg with dio=1: the driver's allow_dio (tri) */
	char allow_dio_path[64]; /* and where it is set                         */
	struct dio_align align;
	/* the read (if=) or write (of=) of this side: dd_io_choose() */
	int64_t (*xfer)(struct dd_wctx *w, const struct dd_side *s, void *buf, size_t len,
	                int64_t off);
};

struct dd_dev {
	int index;
	char name[PATH_MAX * 2 + 8];
	struct dd_side in, out;
	uint64_t nblocks;        /* blocks to transfer                          */
	uint64_t ntransfers;     /* ceil(nblocks / bpt)                         */
	int64_t in_base, out_base;
	size_t align;            /* buffer alignment                            */
	/* shared while running, under lock */
	pthread_mutex_t lock;
	uint64_t next;           /* next transfer index                         */
	int eof;                 /* a short read: no more transfers             */
	/* results (merged from the threads under lock) */
	struct diot_hist hist[DD_NDIR];  /* latency of the reads, of the writes */
	uint64_t bytes, rbytes, wbytes, calls;
	uint64_t io_ns, cpu_ns, t_end;
	uint64_t sg_cmds, sg_not_direct;
	/* dd's records, counted per call (full: as long as asked; partial:
	 * shorter), and the bytes so far: under lock, read while running
	 * (status=progress, SIGUSR1) */
	uint64_t rfull, rpart, wfull, wpart, done;
	int active;              /* threads still running (the last syncs)      */
	size_t buf_page;         /* page size of the threads' buffers           */
	int err;
	char errmsg[DD_MSG_MAX];
	char reason[400];        /* sg: why direct was not done                 */
	struct dd_disks disks[2];  /* the disks under if= [0] and of= [1]      */
};

/* ------------------------------------------------------------ aliases */

/*
 * What a name reaches, so that an output that is also an input, or the
 * same output named twice, is refused whatever the names: a file by its
 * device and inode, an output that does not exist yet by its directory
 * and name, a device by its number (and, from the library's device
 * facts, the block device of an sg node, the whole disk of a partition
 * and the image file of a loop device).
 */
enum { DD_ID_FILE = 1, DD_ID_NEW, DD_ID_DEV };

struct dd_devno {
	int set, chr;            /* chr: a character device                     */
	dev_t rdev;
};

struct dd_ident {
	const char *label;       /* "if=" or "of="                              */
	const char *path;
	int type;
	dev_t dev;               /* DD_ID_FILE: st_dev; DD_ID_NEW: its directory's */
	ino_t ino;
	const char *base;        /* DD_ID_NEW: the name in that directory       */
	struct dd_devno node, blk;  /* DD_ID_DEV: the node; the block device under it */
	struct dd_devno disk;    /* DD_ID_DEV: the whole disk                   */
	int has_back;            /* DD_ID_DEV: a loop device's image file       */
	int nothing;             /* DD_ID_DEV: stores nothing (/dev/null...): no alias */
	dev_t back_dev;
	ino_t back_ino;
};

/* ------------------------------------------------------------ transfers */

/* What one thread measured; merged into its device at the end. */
struct dd_wctx {
	struct dd *dd;
	struct dd_dev *d;
	int k;
	struct diot_hist hist[DD_NDIR];  /* latency of the reads, of the writes */
	uint64_t bytes, rbytes, wbytes, calls, io_ns, cpu_ns, t_end;
	uint64_t sg_cmds, sg_not_direct;
	size_t page;             /* page size of the buffers: large or base     */
	int64_t prev_nread;      /* the last direct read's result (dd's EOF rule) */
	int err;
	char errmsg[DD_MSG_MAX];
	char reason[400];
	dio_scsi *sc;
	struct diot_team *team;  /* the gate this thread waits at            */
	int member;
};

/* ------------------------------------------------------------ report */

struct dd_row {
	const char *name, *input, *output, *io;
	const struct diot_hist *h[DD_NDIR]; /* reads, writes (count 0: none)     */
	uint64_t xbytes[DD_NDIR];        /* bytes read, bytes written         */
	uint64_t bytes, full, partial, wfull, wpartial, calls, sg_cmds, sg_nd;
	double wall_s, io_s, mbs, mibs, cpu_s;
	const char *status, *error, *reason;
	/* the disks under if= [0] and of= [1]; NULL: not this row's (the
	 * total, a row of another MPI rank) */
	const struct dd_disks *disks[2];
};

/* ------------------------------------------------------------ a run */

/* Everything one run of dio-dd knows, passed to every stage. */
struct dd {
	struct dd_opts o;
	struct dd_dev *devs;
	int ndevs;
	struct diot_outlist created;  /* outputs this run created (kit outfile) */
	size_t tsize;            /* bytes per transfer: bs * bpt                */
	size_t buf_off;          /* buffers start this far past an aligned
	                          * boundary (bufoff=; set_buffer_offset())     */
	int aio_engine;          /* dio_aio engine in use, or -1                */
	char engine_note[300];
	/* start gate */
	uint64_t t_start;        /* when dio-dd started (dd's lines before a run) */
	uint64_t t_go;
	/* output devices held exclusively (hold_output_device) */
	int nclaimed;
	char claimed_names[512];
	struct dd_ident *idents; /* dd_check_aliases()                          */
	/* report labels: per device, total */
	char io_labels[DD_MAX_DEVS][64];
	char total_io[64];
	/* set by main.c's signal handler: stop now; which signal (0: none) */
	const volatile sig_atomic_t *stop, *signal;
	int stream;              /* dd's loop (stream.c) runs the one device      */
	/* dd's loop's thread, while it runs (under devs[0].lock): woken by
	 * SIGUSR2 when the run stops, out of a read or write that waits on
	 * a pipe nobody writes or reads */
	pthread_t stream_thread;
	int stream_running;
	int data_stdout;         /* the output is standard output               */
	int std_in, std_out;     /* if=/of= not given: standard input/output    */
	int progress_shown;      /* a status=progress line is on the terminal    */
	volatile sig_atomic_t *usr1;  /* SIGUSR1 seen: say the statistics      */
	struct diot_mpi *mpi;    /* the MPI job this run is a rank of (ranks.c) */
	char (*rank_hosts)[DIOT_MPI_HOST_MAX]; /* rank 0: each rank's host */
};


/* args.c */
int dd_parse_args(struct dd *dd, int argc, char **argv);
/* args.c: the parsed options, as the ranks of an MPI job compare them. */
#define DD_OPT_ITEMS 32
int dd_opts_items(const struct dd *dd, struct diot_mpi_item *it);

/* check.c */
void dd_choose_engine(struct dd *dd);
void dd_check_operands(struct dd *dd);
/* iflag=/oflag=nocache and fadvise= where posix_fadvise() does nothing
 * (caps: dio_caps() without DIO_CAP_FADVISE): 1, with the ones given
 * named in what ("oflag=nocache, fadvise=random"); 0 where they act or
 * none is given. */
int dd_cache_advice_void(const struct dd_opts *o, unsigned caps, char *what, size_t len);
void dd_check_opened(struct dd *dd);
void dd_plan_device(struct dd *dd, struct dd_dev *d);
void dd_plan_stream(struct dd *dd, struct dd_dev *d);

/* fail.c: a run that cannot start */
void DIOT_PRINTF(3, 4) DIOT_NORETURN dd_fail_setup(struct dd *dd, int status, const char *fmt, ...);
void DIOT_NORETURN dd_stop_setup(struct dd *dd);

/* open.c */
void dd_setup_devices(struct dd *dd);
void dd_close_sides(struct dd *dd);
/* An sg side's block, capacity and size from READ CAPACITY's blocks and
 * block length (diot_scsi_capacity()): 0, or -1 with why (a block length
 * of 0, more than 2^63-1 bytes). */
int dd_sg_geometry(struct dd_side *s, uint64_t blocks, uint32_t blen, char *why, size_t len);

/* alias.c */
int dd_overlap(const struct dd_ident *a, const struct dd_ident *b, char *msg, size_t len);
int dd_stores_nothing(const struct stat *st, int fd);
void dd_check_aliases(struct dd *dd);

/* disks.c: the block-layer counters of each operand's disks, with
 * time=1 or JSON (else nothing is opened); read before the workers are
 * released and after they end; released at the end. */
void dd_disks_open(struct dd *dd);
void dd_disks_before(struct dd *dd);
void dd_disks_after(struct dd *dd);
void dd_disks_close(struct dd *dd);
/* Why an operand's disks of a row are n/a when the row has none. */
const char *dd_disks_absent(const struct dd *dd);

/* engine.c */
void *dd_worker(void *arg);

/* stream.c: dd's own loop, one input to one output */
void dd_run_stream(struct dd_wctx *w, unsigned char *buf);
void dd_stream_wake(struct dd *dd);
int dd_stream_needed(const struct dd *dd, const char **why);

/* io.c */
void dd_count_records(struct dd_dev *d, int is_out, uint64_t n, uint64_t size);
void DIOT_PRINTF(3, 4) dd_wfail(struct dd_wctx *w, int err, const char *fmt, ...);
char *dd_side_name(const struct dd *dd, const struct dd_side *s, int style);
void dd_io_error(struct dd_wctx *w, const struct dd_side *s, int is_write, int err);
void dd_say_cannot_skip(const struct dd *dd, const struct dd_side *s);
int64_t dd_file_read(struct dd_wctx *w, const struct dd_side *s, void *buf, size_t len, int64_t off);
void dd_io_choose(const struct dd_opts *opt, struct dd_side *s, int is_out);
int dd_tail_needs_buffered(const struct dd_dev *d, size_t n);
int64_t dd_stream_read(const struct dd_side *s, void *buf, size_t len,
                       const volatile sig_atomic_t *stop);
void dd_drop_cache(const struct dd_side *s, int64_t off, int64_t len);
int64_t dd_write_tail_buffered(struct dd_wctx *w, const void *buf, size_t n, int64_t off);

/* number.c: dd's numbers.  v as dd reads it, from min to max, into *out
 * (*has_b: a 'B' in it, bytes for count= skip= seek=), or dd's message
 * and exit (1); a block size (bs= ibs= obs=) also within DD_MAX_BS, or a
 * usage error naming key. */
void dd_parse_number(const char *v, uint64_t min, uint64_t max, uint64_t *out, int *has_b);
void dd_parse_block_size(const char *key, const char *v, uint64_t *out);

/* quote.c: dd's texts in the messages dio-dd says as dd says them */
enum { DD_Q_NAME, DD_Q_FILE, DD_Q_VALUE };  /* 'x'; x or 'x y'; 'x\ty' */
const char *dd_strerror(int err);        /* the C locale's text; err >= 0 or < 0 */
char *dd_quote(const char *s, int style); /* malloc'd (out of memory: exits)     */
const char *dd_quote_kept(const char *s, int style); /* kept to the next call  */

/* pattern.c */
void dd_fill_pattern(unsigned char *buf, size_t len, size_t bs);
void dd_stamp(unsigned char *buf, size_t len, size_t bs, uint64_t off);

/* workers.c */
void dd_run_workers(struct dd *dd, double *cpu_user, double *cpu_sys);

/* describe.c: words and figures for the checks and the reports */
const char *dd_side_io(struct dd *dd, const struct dd_side *s, int is_in);
const char *dd_mode_name(struct dd *dd);
const char *dd_engine_name(struct dd *dd);
size_t dd_buffer_page(struct dd *dd);
double dd_hist_us(const struct diot_hist *h, double q);
void dd_log2_buckets(const struct diot_hist *h, uint64_t *cnt);
/* Row r's figures (bytes, records, calls, SCSI commands, seconds) added
 * to the total tot; its status, error and histograms are the caller's. */
void dd_row_add(struct dd_row *tot, const struct dd_row *r);

/* report.c */
void dd_print_records(struct dd *dd, FILE *fp, const struct dd_row *tot);
void dd_say_statistics(struct dd *dd);
void dd_say_progress(struct dd *dd);

int dd_stdout_ok(void);
int dd_report(struct dd *dd, double cu, double cs);

/* ranks.c: dio-dd as the ranks of an MPI job */
void dd_ranks_operands(struct dd *dd);
void dd_ranks_meet(struct dd *dd);
int dd_ranks_merge(struct dd *dd, struct dd_row **rows, int n, struct dd_row *tot, double *cu,
                   double *cs);
int dd_ranks_status(const struct dd *dd, int status);

/* report-json.c */
void dd_print_json(struct dd *dd, FILE *fp, const struct dd_row *rows, int n, const struct dd_row *tot,
                   double cu, double cs);

static inline size_t
max_sz(size_t a, size_t b)
{
	return a > b ? a : b;
}

/* One read of the input, one write of the output, by the method chosen
 * for each side when it was opened. */
static inline int64_t
do_read(struct dd_wctx *w, struct dd_side *s, void *buf, size_t len, int64_t off)
{
	return s->xfer(w, s, buf, len, off);
}

static inline int64_t
do_write(struct dd_wctx *w, struct dd_side *s, const void *buf, size_t len, int64_t off)
{
	return s->xfer(w, s, (void *)(uintptr_t)buf, len, off);
}

#endif
