/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dio-dd's model: the options, a device's two sides, a device, a
 * worker's context, a report row; and the stages' entry points.
 */
#ifndef DIO_DD_H
#define DIO_DD_H

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "libdirectio.h"
#include "tools/kit/hist.h"
#include "tools/kit/mpi.h"
#include "tools/kit/msg.h"
#include "tools/kit/outfile.h"
#include "tools/kit/team.h"

#define MAX_DEVS 64
#define MAX_THREADS 64           /* per device */
#define MAX_QD 1024
/* Room for an error message: two paths of PATH_MAX bytes and the reason
 * after them, never cut. */
#define DD_MSG_MAX (2 * PATH_MAX + 512)
#define MAX_BS (1ull << 30)
#define MAX_TRANSFER (1ull << 30)
#define STAMP_STEP 4096          /* write pattern: a stamp per block and 4 KiB */
#define MAX_OPERANDS 32          /* operand words (args.c)                     */
#define NLOG2 64                 /* log2 latency buckets in the reports */
/* The two directions of a run's calls, kept apart as fio keeps them: the
 * reads of the input, the writes of the output. */
enum { DIR_READ, DIR_WRITE, NDIR };

enum mode { MODE_READ, MODE_WRITE, MODE_COPY };
/* K_STREAM: read and written in order with read()/write(): a pipe, FIFO,
 * socket, terminal, a character device that is no SCSI device (/dev/zero,
 * /dev/null, /dev/urandom), or standard input/output. */
enum path_kind { K_NONE, K_FILE, K_BLOCK, K_SG, K_STREAM };
enum engine { ENG_SYNC, ENG_AIO, ENG_URING, ENG_POSIX };
enum fmt { FMT_TABLE, FMT_CSV, FMT_JSON };

extern const char *const dd_mode_words[];
extern const char *const dd_engine_words[];
extern const char *const dd_format_words[];
/* fadvise=: "none" gives no hint (the default, as dd); the others are
 * posix_fadvise() advice for the whole of every file and block device. */
extern const char *const dd_fadvise_words[];

/* ------------------------------------------------------------ options */

struct side_flags {
	int direct, dsync, sync, nocopy, sg, force, notrunc;
	/* dd's: iflag= count_bytes, skip_bytes, fullblock; oflag= seek_bytes,
	 * append; both nocache */
	int count_bytes, skip_bytes, seek_bytes, fullblock, append, nocache;
};

/* conv= (dd's conversions that make sense without changing the data). */
struct conv {
	int fdatasync, fsync, notrunc, excl, nocreat, sync, noerror;
};

/* status= (dd's): what is said on standard error besides errors. */
enum status { STATUS_DEFAULT, STATUS_NONE, STATUS_NOXFER, STATUS_PROGRESS };

struct opts {
	char *ifs[MAX_DEVS], *ofs[MAX_DEVS];
	int nif, nof;
	uint64_t bs, count, skip, seek, bpt, thr, qd, rate;
	uint64_t ibs, obs;       /* dd's input and output block sizes            */
	int bs_set;              /* bs= given: no reblocking (dd's rule)         */
	int count_set, qd_set, mode_set, mode, engine, engine_set;
	int status;              /* enum status                                 */
	struct conv conv;
	int time, dio, format, format_set, force, procs, same_session, fadvise;
	const char *write_unchecked; /* --write-unchecked=DEVICE: an of= device
	                          * written though its use cannot be told     */
	int small_pages;         /* largepages=0                                */
	uint64_t bufoff;         /* bufoff=                                     */
	int bufoff_set;
	struct side_flags iflag, oflag;
	char seen[MAX_OPERANDS];  /* each operand word given once at most      */
};


/* ------------------------------------------------------------ devices */

struct wctx;

struct side {
	const char *path;
	int kind;                /* path_kind                                   */
	dio_file *f;             /* K_FILE / K_BLOCK                            */
	int fd;                  /* the descriptor (sg: from dio_scsi_open)     */
	int created;             /* we created this output file                 */
	uint64_t size;           /* bytes (0: unknown / new file)               */
	uint32_t sg_block;       /* sg: logical block length                    */
	uint64_t sg_blocks;      /* sg: capacity in blocks                      */
	int use16;               /* sg: READ/WRITE(16) needed                   */
	int claim_fd;            /* output device held exclusively, or -1       */
	int std;                 /* 0/1: standard input/output itself; else -1  */
	int seekable;            /* K_STREAM: lseek works (a tty, /dev/null...)  */
	uint32_t allow_dio;      /* sg with dio=1: the driver's allow_dio (tri) */
	char allow_dio_path[64]; /* and where it is set                         */
	struct dio_align align;
	/* the read (if=) or write (of=) of this side: dd_io_choose() */
	int64_t (*xfer)(struct wctx *w, const struct side *s, void *buf, size_t len,
	                int64_t off);
};

struct dev {
	int index;
	char name[PATH_MAX * 2 + 8];
	struct side in, out;
	uint64_t nblocks;        /* blocks to transfer                          */
	uint64_t ntransfers;     /* ceil(nblocks / bpt)                         */
	int64_t in_base, out_base;
	size_t align;            /* buffer alignment                            */
	/* shared while running, under lock */
	pthread_mutex_t lock;
	uint64_t next;           /* next transfer index                         */
	int eof;                 /* a short read: no more transfers             */
	/* results (merged from the threads under lock) */
	struct diot_hist hist[NDIR];     /* latency of the reads, of the writes */
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
enum { ID_FILE = 1, ID_NEW, ID_DEV };

struct devno {
	int set, chr;            /* chr: a character device                     */
	dev_t rdev;
};

struct ident {
	const char *label;       /* "if=" or "of="                              */
	const char *path;
	int type;
	dev_t dev;               /* ID_FILE: st_dev; ID_NEW: its directory's    */
	ino_t ino;
	const char *base;        /* ID_NEW: the name in that directory          */
	struct devno node, blk;  /* ID_DEV: the node; the block device under it */
	struct devno disk;       /* ID_DEV: the whole disk                      */
	int has_back;            /* ID_DEV: a loop device's image file          */
	int nothing;             /* ID_DEV: stores nothing (/dev/null...): no alias */
	dev_t back_dev;
	ino_t back_ino;
};

/* ------------------------------------------------------------ transfers */

/* What one thread measured; merged into its device at the end. */
struct wctx {
	struct dd *dd;
	struct dev *d;
	int k;
	struct diot_hist hist[NDIR];     /* latency of the reads, of the writes */
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

/* The asynchronous engine: up to qd requests in flight. */
struct slot {
	unsigned char *buf;
	uint64_t i, t_sub;
	size_t len, n, done;
	int64_t in_off, out_off;
	int state;                  /* 0 free, 1 reading, 2 writing */
};

/* ------------------------------------------------------------ report */

struct row {
	const char *name, *input, *output, *io;
	const struct diot_hist *h[NDIR]; /* reads, writes (count 0: none)     */
	uint64_t xbytes[NDIR];           /* bytes read, bytes written         */
	uint64_t bytes, full, partial, wfull, wpartial, calls, sg_cmds, sg_nd;
	double wall_s, io_s, mbs, mibs, cpu_s;
	const char *status, *error, *reason;
};

/* ------------------------------------------------------------ a run */

/* Everything one run of dio-dd knows, passed to every stage. */
struct dd {
	struct opts o;
	struct dev *devs;
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
	struct ident *idents;    /* dd_check_aliases()                          */
	/* report labels: per device, total */
	char io_labels[MAX_DEVS][64];
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
int dd_cache_advice_void(const struct opts *o, unsigned caps, char *what, size_t len);
void dd_check_opened(struct dd *dd);
void dd_plan_device(struct dd *dd, struct dev *d);
void dd_plan_stream(struct dd *dd, struct dev *d);

/* fail.c: a run that cannot start */
void DIOT_PRINTF(3, 4) DIOT_NORETURN dd_fail_setup(struct dd *dd, int status, const char *fmt, ...);
void DIOT_NORETURN dd_stop_setup(struct dd *dd);

/* open.c */
void dd_setup_devices(struct dd *dd);
void dd_close_sides(struct dd *dd);

/* alias.c */
int dd_overlap(const struct ident *a, const struct ident *b, char *msg, size_t len);
int dd_stores_nothing(const struct stat *st, int fd);
void dd_check_aliases(struct dd *dd);

/* engine.c */
void *dd_worker(void *arg);

/* stream.c: dd's own loop, one input to one output */
void dd_run_stream(struct wctx *w, unsigned char *buf);
void dd_stream_wake(struct dd *dd);
int dd_stream_needed(const struct dd *dd, const char **why);

/* io.c */
void dd_count_records(struct dev *d, int is_out, uint64_t n, uint64_t size);
void DIOT_PRINTF(3, 4) dd_wfail(struct wctx *w, int err, const char *fmt, ...);
char *dd_side_name(const struct dd *dd, const struct side *s, int style);
void dd_io_error(struct wctx *w, const struct side *s, int is_write, int err);
void dd_say_cannot_skip(const struct dd *dd, const struct side *s);
int64_t dd_file_read(struct wctx *w, const struct side *s, void *buf, size_t len, int64_t off);
void dd_io_choose(const struct opts *opt, struct side *s, int is_out);
int dd_tail_needs_buffered(const struct dev *d, size_t n);
int64_t dd_stream_read(const struct side *s, void *buf, size_t len,
                    const volatile sig_atomic_t *stop);
void dd_drop_cache(const struct side *s, int64_t off, int64_t len);
int64_t dd_write_tail_buffered(struct wctx *w, const void *buf, size_t n, int64_t off);

/* number.c: dd's numbers.  v as dd reads it, from min to max, into *out
 * (*has_b: a 'B' in it, bytes for count= skip= seek=), or dd's message
 * and exit (1); a block size (bs= ibs= obs=) also within MAX_BS, or a
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
const char *dd_side_io(struct dd *dd, const struct side *s, int is_in);
const char *dd_mode_name(struct dd *dd);
const char *dd_engine_name(struct dd *dd);
size_t dd_buffer_page(struct dd *dd);
double dd_hist_us(const struct diot_hist *h, double q);
void dd_log2_buckets(const struct diot_hist *h, uint64_t *cnt);

/* report.c */
void dd_print_records(struct dd *dd, FILE *fp, const struct row *tot);
void dd_say_statistics(struct dd *dd);
void dd_say_progress(struct dd *dd);

int dd_stdout_ok(void);
int dd_report(struct dd *dd, double cu, double cs);

/* ranks.c: dio-dd as the ranks of an MPI job */
void dd_ranks_operands(struct dd *dd);
void dd_ranks_meet(struct dd *dd);
int dd_ranks_merge(struct dd *dd, struct row **rows, int n, struct row *tot, double *cu,
                   double *cs);
int dd_ranks_status(const struct dd *dd, int status);

/* report-json.c */
void dd_print_json(struct dd *dd, FILE *fp, const struct row *rows, int n, const struct row *tot,
                   double cu, double cs);

static inline size_t
max_sz(size_t a, size_t b)
{
	return a > b ? a : b;
}

/* One read of the input, one write of the output, by the method chosen
 * for each side when it was opened. */
static inline int64_t
do_read(struct wctx *w, struct side *s, void *buf, size_t len, int64_t off)
{
	return s->xfer(w, s, buf, len, off);
}

static inline int64_t
do_write(struct wctx *w, struct side *s, const void *buf, size_t len, int64_t off)
{
	return s->xfer(w, s, (void *)(uintptr_t)buf, len, off);
}

#endif
