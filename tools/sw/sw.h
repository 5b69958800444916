/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sw.h -- sync-write's model: the options (args.c), the target (target.c),
 * the state of a run every stage is handed (run.c), what a writer leaves
 * in shared memory (writers.c), and the results of the points and of the
 * run the reports print (report.c).
 *
 * The path of a run: main.c parses the options (args.c), claims the output
 * files (output.c), prepares the target (target.c), then runs every point
 * (run.c; point.c: a team of writers, writers.c; statistics, stats.c;
 * verify.c) and reports each (report.c; at the end the run's summary,
 * summary.c, and for -f json the document, report-json.c).  --check of an
 * ack log is check.c.
 */
#ifndef SW_H
#define SW_H

#include <limits.h>
#include <signal.h>
#include <stdint.h>

#include "tools/kit/ack.h"
#include <stdio.h>

#include "libdirectio.h"
#include "tools/kit/hist.h"
#include "tools/kit/mpi.h"
#include "tools/kit/msg.h"
#include "tools/kit/outfile.h"

#define SW_MAX_WRITERS 256
#define SW_DEFAULT_SIZES "512,1k,2k,4k,8k,16k,32k,48k,64k,128k,256k,512k,1m"
#define SW_DEFAULT_TIME_NS 400000000ull     /* 0.4 s per point */
#define SW_DEFAULT_BASELINE_NS 50000000ull  /* 0.05 s idle before each */
#define SW_DEFAULT_WARMUP 8
#define SW_DEFAULT_REGION (64ull << 20)
#define SW_MAX_SIZE (1ull << 30)
/* Room for a writer's error or a point's note: a path of PATH_MAX bytes
 * (the writer's file, or the ack log) and the reason after it, whole. */
#define SW_MSG_MAX (PATH_MAX + 1024)

/* ------------------------------------------------------------ options */

struct sw_method {
	char name[32];
	int direct;     /* 0 or 1                    */
	int sync;       /* dio_sync                  */
	int commit;     /* dio_commit                */
};

enum sw_layout { SW_LAYOUT_SHARED, SW_LAYOUT_SEPARATE };
enum sw_format { SW_FMT_TABLE, SW_FMT_CSV, SW_FMT_JSON };

struct sw_opts {
	const char *target;       /* NULL: temporary file in dir         */
	const char *dir;          /* --dir                               */
	const char *write_unchecked; /* --write-unchecked DEVICE: a TARGET
	                           * written though its use cannot be told */
	int force, keep, no_prefill, time_set;
	struct sw_method *methods;
	int nmethods;
	uint64_t *sizes;
	int nsizes;
	uint64_t *writers;
	int nwriters;
	int threads;
	int layout;
	int extend;
	uint64_t time_ns, count, warmup, region;
	uint64_t baseline_ns;     /* --baseline: idle interval before each
	                           * point (devcount.c); 0: none          */
	int region_set;
	int format;
	const char *output, *plot;
	int verify;
	const char *ack_log;
	const char *ack_log_given;      /* as given, before %r and %h (ranks) */
	const char *check_log;
	const char *listen;             /* --listen [HOST:]PORT            */
	int ack_commit;                 /* --ack-commit: fdatasync records */
	int end_runs;                   /* --runs N (0: until a signal)    */
	int max_runs, max_per_host;     /* --max-runs, --max-conns-per-host */
	uint64_t max_log_bytes;         /* --max-log-bytes                 */
	const char *bound_given;        /* one of the four, as given       */
	const char *ack_token;          /* --ack-token FILE (a sender's)   */
	const char *token_file;         /* --token-file FILE (a listener's) */
	int quiet, verbose, per_writer;
	int progress;                   /* --progress: also off a terminal */
	int wide;                       /* --wide: every column, long lines */
	int per_host;                   /* --per-host (MPI ranks)          */
	const char *label;              /* --label: the run's name         */
	const char **labels;            /* every --label, one per TARGET   */
	int nlabels;
	int compare;                    /* --compare: operands are results */
	const char **operands;          /* every operand, in order         */
	int noperands;
	/* Given on the command line (not defaults): --compare filters. */
	int methods_given, sizes_given, writers_given;
};

/* The listener's default bounds: a run's log may grow to 1 GiB; one
 * address may hold twice the connections of the largest run (a writer's
 * each, and the run's own). */
#define SW_LISTEN_LOG_BYTES (1ull << 30)
#define SW_LISTEN_PER_HOST (2 * SW_MAX_WRITERS)

#define SW_LABEL_MAX 40            /* characters (UTF-8 code points) */
#define SW_LABEL_BYTES (4 * SW_LABEL_MAX)   /* the most they take */
#define SW_MAX_TARGETS 8          /* measured interleaved in one run */

/* Distinct methods (none, fsync, fdatasync, dsync, sync, rwf-dsync, each
 * also direct+; direct+none is direct), and the items of a --methods list
 * (its names, duplicates and 'all' each counted). */
#define SW_METHODS_MAX 12
#define SW_METHOD_ITEMS_MAX 64

/* args.c: parse argv into o; returns -1 to run, or an exit status (--help,
 * --version).  Usage errors exit with DIOT_EXIT_USAGE. */
int sw_parse_args(int argc, char **argv, struct sw_opts *o);
/* methods.c: one method by name (PostgreSQL's spellings too) into *m: 0,
 * or -1 for an unknown name; a --methods list into o->methods (usage
 * errors exit with DIOT_EXIT_USAGE). */
int sw_parse_method(const char *s, struct sw_method *m);
void sw_parse_methods(struct sw_opts *o, const char *s);
/* args.c: the parsed options, as the ranks of an MPI job compare them. */
#define SW_OPT_ITEMS 32
int sw_opts_items(const struct sw_opts *o, struct diot_mpi_item *it);

/* ------------------------------------------------------------ target */

struct sw_target {
	char path[PATH_MAX];
	int is_dev;
	int created;              /* we created path                     */
	char fstype[64];
	struct dio_align align;
	uint64_t dev_bytes;
	char *extra[SW_MAX_WRITERS]; /* separate layout: files 1..W-1     */
	int claim_fd;             /* device held exclusively, or < 0      */
	int direct_refused;       /* -errno of the direct probe, or 0     */
	char direct_why[200];     /* the library's reason for refusing it  */
	int holes;                /* the file has a hole (SEEK_HOLE)       */
	int rotational;           /* dio_tri: the disk under the target spins */
	char disk[64];            /* its name, for the hint; "" unknown   */
	/* Why nothing written to the target can be durable (tmpfs, ramfs,
	 * ZFS sync=disabled, a file system that sends no flush to a disk
	 * whose write cache is on), after sw_durable_lead(); or why that
	 * cannot be told ("cannot tell whether commits are durable: ...");
	 * "" when neither is known (which says nothing of the disk's cache). */
	char not_durable[300];
	int sync_always;          /* dio_tri: every write is a commit (ZFS) */
	int direct_stable;        /* dio_tri: a direct write is a stable one */
	int cached;               /* SW_CACHED_*: cached pages its files
	                           * may hold now, and from what          */
	int fs_unknown;           /* no file system could be named (fstype
	                           * says so): nor whether it can be durable */
};

/* facts.c: what the target's facts mean, as pure functions of them.
 * Why nothing written to a target (a device or a file on fstype) can be
 * durable, or why that cannot be told, into why (len bytes; "" when
 * neither is known); di NULL: no device facts. */
void sw_durability(char *why, size_t len, int is_dev, const char *fstype,
                   const struct dio_devinfo *di);
/* 1 if why says that durability cannot be told (not that it is none). */
int sw_durability_unknown(const char *why);
/* 1 if why says how the target itself can be made durable (else another
 * target is to be measured). */
int sw_durability_remedied(const char *why);
/* What goes before why in a hint or the summary: "nothing is durable
 * here: ", or "" where why says it cannot tell. */
const char *sw_durable_lead(const char *why);
/* The hint of a row of method m that has no commit (none, direct) where
 * every write is a commit (sync_always, dio_tri) or a direct write is a
 * stable one (direct_stable): SW_HINT_SYNC_ALWAYS, SW_HINT_STABLE_DIRECT
 * or SW_HINT_NONE. */
int sw_nocommit_hint(const struct sw_method *m, int sync_always, int direct_stable);
struct sw_devcount;
/* The device hints of a point of method m at writers and size (bytes)
 * from its device counts d (is_dev: the target is a device, where no file
 * system adds metadata): SW_HINT_DEV_NO_FLUSH or _CACHE_HIDDEN (a durable
 * method sent no flush to a volatile cache, and its writes cannot have
 * been FUA ones), SW_HINT_DEV_MERGED (several writers, fewer flushes than
 * commits) or SW_HINT_NONE; SW_HINT_DEV_AMPLIFIED or SW_HINT_NONE.
 * Only a point whose counts were taken (SW_DEV_COUNTED) has any. */
int sw_dev_flush_hint(const struct sw_devcount *d, const struct sw_method *m,
                      int writers);
int sw_dev_amp_hint(const struct sw_devcount *d, const struct sw_method *m);
/* 1 if every disk under the target takes m's writes as FUA writes (a
 * sync flag, the queue says write back and takes FUA): a commit then
 * needs no flush. */
int sw_dev_can_fua(const struct sw_devcount *d, const struct sw_method *m);
/* The disks a flush hint of kind is about, into names (len bytes): for
 * SW_HINT_DEV_CACHE_HIDDEN those whose device reports a volatile cache
 * the kernel treats as write-through, else those whose cache is
 * volatile; "sdb, sdc" (with their hosts where the disks are of several
 * hosts: "sdb on h1, sdb on h2"). */
void sw_dev_disk_names(char *names, size_t len, const struct sw_devcount *d, int kind);
/* The text of a point's device hint of kind into buf (len bytes). */
void sw_dev_hint_text(char *buf, size_t len, int kind, const struct sw_devcount *d,
                      const char *disks, int writers, uint64_t size, int is_dev);
/* The reason said once under the lines of a device hint of kind (the
 * likely cause, the remedy), with disks as dev_disk_names() gives them,
 * is_dev as above; malloc()ed. */
char *sw_dev_hint_why(int kind, const char *disks, int is_dev);
/* 1 if the prefill must write through a direct handle, so that it leaves
 * no cached page (a file system that serves direct requests through the
 * cache while the file has any: DIO_DLIM_CACHED_ANY, NFS and smbfs). */
int sw_prefill_direct(const struct dio_align *al);
/* Cached pages when a point starts: those left before (cached), unless
 * the page cache can be dropped here (caps: dio_caps()). */
int sw_cached_at_start(int cached, unsigned caps);
/* 1 if a direct point's writes may have been served through the cache:
 * the file system does so while the file has any cached page, and it
 * had some when the point started. */
int sw_point_cached(const struct dio_align *al, int cached, int direct);

/* What may have left cached pages in the target's files (sw_target). */
enum sw_cached {
	SW_CACHED_NONE = 0,
	SW_CACHED_PREFILL = 1,    /* a buffered prefill                   */
	SW_CACHED_UNKNOWN = 2,    /* --no-prefill: whatever the file held */
	SW_CACHED_POINTS = 3      /* buffered points (until a cache drop) */
};

/* ------------------------------------------------------------ a run */

/* The MPI job the run is part of (ranks.c); a job of one without MPI. */
struct sw_ranks {
	struct diot_mpi *mpi;
	int n;                              /* ranks                          */
	char (*host)[DIOT_MPI_HOST_MAX];    /* each rank's host (all ranks)   */
	int nhosts;                         /* distinct hosts                 */
	int stopped_by;                     /* the rank that stopped the point */
};
#define SW_RANK0(c) ((c)->ranks.mpi == NULL || (c)->ranks.mpi->rank == 0)

/* The progress line's account of the run (point.c), shared by the
 * contexts of every TARGET: what is done, for the estimate of what is
 * left. */
struct sw_progress {
	uint64_t t0;              /* the run's first point began (ns)    */
	int steps;                /* points (x TARGETs) of the run        */
	int targets;              /* TARGETs, each point on each in turn  */
	int step;                 /* the one running, 1-based             */
	int planned;              /* of the steps, those that run writers */
	int ran;                  /* of those, done (whatever the result) */
	uint64_t ran_ns;          /* their time, from setup to the end    */
	uint64_t point_t0;        /* the running one began (ns)           */
	int tty;                  /* redrawn in place (else a line each)  */
};

struct sw_devs;                         /* devcount.c: a target's disks */

struct sw_ctx {
	struct sw_opts *o;
	struct sw_target tg;
	const volatile sig_atomic_t *sig;   /* the signal that stops the run */
	struct diot_outlist *created;       /* files to remove at exit        */
	uint64_t run_id;
	struct diot_ack ack;                /* --ack-log (kind NONE: none)    */
	int ack_header_sent;                /* the log's first line is out    */
	int progress_on;
	size_t progress_len;
	struct sw_progress *prog;           /* the run's (sw_run_points)      */
	struct sw_ranks ranks;              /* 1 rank without MPI             */
	struct sw_devs *devs;               /* the disks counted (devcount.c) */
};

/* listen.c: --listen: be the listener of --ack-log tcp:HOST:PORT. */
int sw_listen_main(const struct sw_opts *o, const volatile sig_atomic_t *sig);

/* target.c */
void sw_setup_target(struct sw_ctx *c, uint64_t max_writers, uint64_t max_size);
const char *sw_file_of(const struct sw_ctx *c, int k);
void sw_target_advice_off(const struct sw_ctx *c, int writers);
uint64_t sw_txn_offset(const struct sw_ctx *c, uint64_t slots, int writers, uint64_t size,
                       int k, uint64_t j);
void sw_prepare_point(const struct sw_ctx *c, int W);
void sw_writeback_device(const struct sw_ctx *c);
/* targets-apart.c: several TARGETs: none is another one's file, nor one
 * its writers write with --layout separate (usage error naming both).  By
 * name and by the files that exist, before anything is made (args.c); by
 * device and inode once every TARGET is set up (interleave.c). */
void sw_targets_named_apart(const struct sw_opts *o);
/* targets-apart.c: the directory of path resolved, and its last name:
 * what a path that need not exist yet names (malloc'd; path itself when
 * its directory cannot be resolved). */
char *sw_path_canonical(const char *path);
void sw_targets_apart(const struct sw_ctx *c, int nt);

/* Records of the ack log are on (a file, standard output or a listener;
 * ackrec.h writes them). */
#define SW_ACK_ON(c) ((c)->ack.kind != DIOT_ACK_NONE)

/* Everything a writer reports back, in the team's shared memory. */
struct sw_wres {
	struct diot_hist hist;
	uint64_t txns_total;      /* including warm-up, = next sequence */
	uint64_t t_start, t_end;  /* measured window (ns, monotonic)     */
	double cpu_user, cpu_sys; /* seconds, over the measured window   */
	int err;                  /* -errno, 0 if none                   */
	int64_t err_off;
	int region_full;
	int mech, sync_flag;
	volatile uint64_t progress;
	char errmsg[SW_MSG_MAX];
};

/* What the writers of one point share (read-only for them). */
struct sw_wctx {
	const struct sw_ctx *c;
	const struct sw_method *m;
	uint64_t size;
	int writers;
	int point;
	uint64_t slots;           /* transactions that fit in a region  */
	int first;                /* index of writer 0 among all ranks' */
	int all;                  /* writers of every rank together     */
};

struct diot_team;
void sw_writer_main(struct diot_team *t, int k, void *arg);

/* ------------------------------------------------------------ results */

/* What a point's hint says (its text is in sw_point.hint): the table
 * groups the rows of one method and kind into one hint line. */
enum sw_hint_kind {
	SW_HINT_NONE = 0,
	SW_HINT_FAST_FLUSH = 1,   /* durable, yet faster than a spinning disk */
	SW_HINT_CACHED_DIRECT = 2, /* direct requests served through a cache */
	SW_HINT_NOT_DURABLE = 3,  /* a durable method where nothing can be   */
	SW_HINT_SYNC_ALWAYS = 4,  /* no commit, yet every write is one (ZFS
	                           * sync=always)                          */
	SW_HINT_STABLE_DIRECT = 5, /* direct, no commit, yet each write is a
	                           * stable one (illumos NFS: FILE_SYNC)    */
	/* What the disks' counters show (sw_point.dev_hint_kind): */
	SW_HINT_DEV_NO_FLUSH = 6, /* a durable method, no flush reached a disk
	                           * whose cache is volatile               */
	SW_HINT_DEV_CACHE_HIDDEN = 7, /* the same, for a disk that reports a
	                           * volatile cache the kernel treats as
	                           * write-through (queue/write_cache)     */
	SW_HINT_DEV_MERGED = 8,   /* several writers, fewer flushes than
	                           * commits: the block layer merged them  */
	SW_HINT_DEV_AMPLIFIED = 9 /* the disks wrote more bytes than the
	                           * transactions (a journal block, say)   */
};

/* The device hints' thresholds (facts.c), per transaction, the idle
 * baseline subtracted: fewer flushes than SW_DEV_NO_FLUSH is none (what
 * is left of noise the baseline did not take); fewer than
 * SW_DEV_MERGED_BELOW with several writers, merged; at least
 * SW_DEV_AMPLIFIED times the transaction's bytes, amplified. */
#define SW_DEV_NO_FLUSH 0.01
#define SW_DEV_MERGED_BELOW 0.95
#define SW_DEV_AMPLIFIED 1.5
/* Device hints a point can carry: one of the flush kinds (no flush,
 * cache hidden, merged) and amplified. */
#define SW_POINT_DEV_HINTS 2

enum sw_status {
	SW_OK = 0,          /* measured                                  */
	SW_NA = 1,          /* not applicable here (reason in note)      */
	SW_ERROR = 2,       /* an I/O error ended it (partial results)   */
	SW_INTERRUPTED = 3  /* stopped by a signal (partial results)     */
};

/* Statistics of one writer or of all writers of a point. */
struct sw_stats {
	uint64_t txns, bytes;
	double wall_s;
	double avg_us, min_us, p50_us, p90_us, p99_us, p999_us, max_us, stddev_us;
	double txn_per_s, mb_per_s;
	double cpu_user_s, cpu_sys_s, cpu_us_per_txn;
};

/* One host's row of a point run by MPI ranks (--per-host). */
struct sw_host_row {
	char host[DIOT_MPI_HOST_MAX];
	int ranks, writers;
	struct sw_stats s;
};

/*
 * What the disks under the target saw during a point (devcount.c): the
 * block layer's write requests, sectors and cache flushes, read before
 * the writers start and after they all end, less what an idle interval
 * just before the point (the baseline) says other I/O adds in that time.
 * Counted over the whole point, warm-up included, and divided by every
 * transaction issued (warm-up included).
 */
enum sw_dev_state { SW_DEV_NA = 0, SW_DEV_COUNTED = 1, SW_DEV_BUSY = 2 };
#define SW_DEV_DISKS 16
/* Other I/O in the point's window, as the baseline predicts it, above
 * this share of the window's own counts: the point is SW_DEV_BUSY. */
#define SW_DEV_BUSY_SHARE 0.10

struct sw_dev_disk {
	char name[32];                 /* kernel name ("vda")              */
	char host[DIOT_MPI_HOST_MAX];  /* its host (MPI ranks), or ""      */
	uint64_t writes, sectors, flushes;   /* raw, the point's window   */
	int flushes_known;
	int write_cache, device_cache, fua;  /* dio_tri                    */
	/* The disk's own idle interval (its rank's), for the job's sums:
	 * its counts, its length and the window's (seconds). */
	uint64_t base_writes, base_sectors, base_flushes;
	double base_s, window_s;
};

struct sw_devcount {
	int state;                     /* SW_DEV_*                          */
	char why[300];                 /* n/a or busy: why; "" counted     */
	int flushes_known;             /* every disk counts flushes        */
	uint64_t txns;                 /* issued, warm-up included          */
	uint64_t writes, sectors, flushes;   /* raw, all disks, the window */
	double base_s;                 /* the idle interval (0: none)      */
	uint64_t base_writes, base_sectors, base_flushes;
	double writes_per_txn, bytes_per_txn, flushes_per_txn; /* less the
	                                * baseline, never below 0          */
	double amplification;          /* bytes_per_txn / size              */
	uint64_t from_ns, to_ns;       /* CLOCK_MONOTONIC of the two reads */
	int volatile_cache;            /* dio_tri: a disk's cache is volatile */
	int cache_hidden;              /* a disk reports a volatile cache the
	                                * kernel treats as write-through    */
	int fua;                       /* dio_tri: every disk takes FUA     */
	int ndisks;
	struct sw_dev_disk disks[SW_DEV_DISKS];
};

/* devcount.c.  sw_dev_before(): the baseline and the first read, just
 * before the writers go (the disks found at the target's first point);
 * sw_dev_after(): the read once all have ended; sw_dev_point(): the
 * point's counts (txns issued by this process's writers, at size). */
void sw_dev_before(struct sw_ctx *c);
void sw_dev_after(struct sw_ctx *c);
void sw_dev_point(const struct sw_ctx *c, struct sw_devcount *dv, uint64_t txns,
                  uint64_t size);
void sw_dev_close(struct sw_ctx *c);
/* The pure parts, for the ranks and the unit tests: dv's totals,
 * baseline and per-transaction figures from its disks[] (each counted
 * already); what several processes counted (one each, in rank order)
 * as the job's: a disk each (host, name) once, the lowest rank's; host[i]
 * is process i's host (named when it could not count). */
void sw_dev_sum(struct sw_devcount *dv, uint64_t txns, uint64_t size);
void sw_dev_merge(struct sw_devcount *job, const struct sw_devcount *each,
                  const char (*host)[DIOT_MPI_HOST_MAX], int n, uint64_t size);
/* "yes", "no" or "busy" (the JSON's "counted"). */
const char *sw_dev_state_name(int state);

struct sw_verify {
	int done;
	uint64_t checked, ok, missing, corrupt, stale, misplaced;
};

struct sw_point {
	int index;
	char method[96];          /* --compare's plot: "label: method"   */
	uint64_t size;
	int writers;
	int status;
	char note[SW_MSG_MAX];
	const char *direct;      /* mechanism name in effect, or "-"   */
	const char *sync_flag;   /* O_DSYNC / O_SYNC / none            */
	const char *commit;      /* commit method really used          */
	int durable;             /* the method makes each transaction
	                          * durable (a commit or a sync flag)  */
	int region_full;         /* a writer ran out of region (extend) */
	char hint[400];          /* a sync suspiciously fast; "" none   */
	int hint_kind;           /* SW_HINT_*: the table says each once */
	/* What the device counts suggest (facts.c), beside hint: kinds
	 * (SW_HINT_DEV_*, SW_HINT_NONE) and texts; dev_disks names the
	 * disks the flush kinds are about ("sdb, sdc"). */
	int dev_hint_kind[SW_POINT_DEV_HINTS];
	char dev_hint[SW_POINT_DEV_HINTS][400];
	char dev_disks[128];
	struct sw_stats agg;
	struct sw_stats *per;    /* [writers]                           */
	struct sw_verify verify;
	uint64_t t_first, t_last; /* the measured window (this process's
	                           * clock): first start, last end        */
	int ranks;               /* MPI ranks, writers/ranks each; 1    */
	int nhosts;
	struct sw_host_row *hosts; /* [nhosts] with ranks > 1, or NULL  */
	struct sw_stats *per_rank; /* [ranks] each rank's own, or NULL  */
	double clock_error_us;   /* how far the ranks' windows may be off
	                          * rank 0's clock (ranks > 1)           */
	struct sw_devcount dev;  /* what the disks saw (devcount.c)     */
};

/* stats.c: the statistics of a histogram over [t_start, t_end]. */
void sw_stats_from(struct sw_stats *s, const struct diot_hist *h, uint64_t size,
                   uint64_t t_start, uint64_t t_end, double cu, double cs);
/* point.c: 1 (with the reason in p->note) if m cannot run at p->size on
 * c's target, so that the point is n/a without writers; else 0. */
int sw_point_na(const struct sw_ctx *c, struct sw_point *p, const struct sw_method *m);
/* point.c: run one point; 0 to go on, -1 when the run must stop. */
int sw_run_point(struct sw_ctx *c, struct sw_point *p, const struct sw_method *m);

/* verify.c: read back what the writers of a point wrote. */
void sw_verify_point(const struct sw_wctx *w, struct diot_team *t, struct sw_point *p);

/* readback.c: one writer's slots read back from fd, counted into *v;
 * buf holds size bytes.  What the slots should hold: */
struct sw_readback {
	uint64_t run_id;
	uint32_t point;
	int writer;               /* among the writers of every rank      */
	int writers;              /* of every rank                        */
	uint64_t txns;            /* it wrote (its next sequence)         */
	uint64_t size;            /* of a transaction, >= SW_HDR_SIZE     */
	uint64_t slots;           /* transactions that fit in a region    */
	uint64_t region;
	int extend, separate;     /* --extend, --layout separate          */
};
void sw_verify_writer(int fd, const struct sw_readback *rb, unsigned char *buf,
                      struct sw_verify *v);

/* check.c: --check ACK-LOG [TARGET]; returns the exit status. */
int sw_check_main(const char *log, const char *target_arg);

/* Run description printed in the headers of every format. */
struct sw_run {
	const char *version;
	const char *backend;
	const char *target;
	const char *target_kind;   /* "file", "temporary file", "device" */
	const char *fstype;
	uint32_t mem_align, offset_align;
	const char *align_source;
	uint64_t region;
	const char *layout;        /* shared | separate */
	const char *mode;          /* processes | threads */
	int extend;
	double time_s;             /* 0 when count-based */
	uint64_t count, warmup;
	int verify;
	char os[300];              /* uname: system release machine */
	char host[256];            /* uname's node name */
	char started[32];          /* UTC, ISO 8601 */
	const char *label;         /* --label, or NULL */
	const char *disk;          /* the disk under the target, or "" */
	const char *not_durable;   /* why nothing can be durable, or "" */
	int fs_unknown;            /* the file system could not be named */
	int interrupted;
	const char *error;         /* first fatal error, or NULL */
	const struct sw_ranks *ranks;  /* the MPI job: ranks->n 1 without */
	const char *mpi_library;   /* the MPI library's name, or NULL */
};

/* summary.c: the run's answer in short, for the table and the JSON
 * (report.c): for each size and writer count (in the table's order), the
 * fastest durable method by avg_us and its cost against none at that
 * size and writer count; only points measured whole (status ok). */
struct sw_summary_row {
	uint64_t size;
	int writers;
	const struct sw_point *best;   /* NULL: no durable method measured */
	const struct sw_point *none;   /* NULL: none not measured          */
};
struct sw_summary {
	struct sw_summary_row *rows;
	int n;
	int methods;                   /* distinct methods among the points */
	int with_best, with_none;      /* rows that have them               */
};
void sw_summarize(struct sw_summary *s, const struct sw_point *pts, int n);
void sw_summary_free(struct sw_summary *s);

/* report.c (wide: --wide's table, every column and lines of any length) */
void sw_report_begin(FILE *fp, int fmt, const struct sw_run *run, int wide);
void sw_report_point(FILE *fp, int fmt, const struct sw_point *p, int per_writer,
                     int per_host, int wide);
void sw_report_end(FILE *fp, int fmt, const struct sw_run *run,
                   const struct sw_point *pts, int n, int wide);
/* report-json.c: the JSON document (schema tools/sync-write.schema.json),
 * which sw_report_end writes for -f json. */
void sw_report_json(FILE *fp, const struct sw_run *run, const struct sw_point *pts,
                    int n);

/* What the reports (report.c, report-json.c) say of a point, in one
 * place: its status (enum sw_status) as a word, and the MPI rank of its
 * writer k (writer k is writer k % (writers / ranks) of rank k /
 * (writers / ranks); without MPI ranks, 0). */
static inline const char *
sw_status_name(int status)
{
	static const char *const name[] = { "ok", "n/a", "error", "interrupted" };

	return name[status];
}

static inline int
sw_rank_of(const struct sw_point *p, int k)
{
	return p->ranks > 1 ? k / (p->writers / p->ranks) : 0;
}

/* hints.c: the tables' text, for report.c and compare-report.c.  Without
 * --wide no line of a table is wider than SW_TABLE_COLS columns. */
#define SW_TABLE_COLS 132
/* text on lines of at most width columns (0: one line, however long): the
 * first begins with lead, the others with indent spaces; broken at spaces
 * (a word longer than a line, a path say, stands whole on a line of its
 * own).  Columns are UTF-8 characters. */
void sw_put_wrapped(FILE *fp, const char *lead, int indent, const char *text, int width);
/* One row of a table, as its hint line sees it. */
struct sw_hint_row {
	const char *method;
	uint64_t size;
	int writers;
	int kind;                /* SW_HINT_*                          */
	double p50_us;
	/* The device hints (sw_point.dev_hint_kind) and their figures. */
	int dev_kind[SW_POINT_DEV_HINTS];
	double flushes_per_txn, bytes_per_txn, amplification;
	const char *dev_disks;   /* sw_point.dev_disks; NULL: none      */
};
/* The hints of rows[0..n) (one target's, in table order): a line per
 * method and kind, naming the sizes and writers of the rows it covers
 * (one line for all the methods of SW_HINT_NOT_DURABLE, which says
 * not_durable); run ("run 2: ") or "" begins each; disk and fs name what
 * the hints are about. */
void sw_put_hints(FILE *fp, const char *run, const struct sw_hint_row *rows, int n,
                  const char *disk, const char *fs, const char *not_durable,
                  int is_dev, int width);
/* A device hint's name in the JSON ("no_flush", "cache_hidden",
 * "merged", "amplified"). */
const char *sw_dev_hint_name(int kind);
/* A table's hint row of point p (for sw_put_hints). */
void sw_hint_row_of(struct sw_hint_row *row, const struct sw_point *p);
/* plot.c: the charts of pts; what names the results in chart 1's title
 * (the file system, or the runs compared). */
int sw_plot(const char *path, const char *what, const struct sw_point *pts, int n);

/* output.c: the output files.  They are claimed (checked, or created and
 * listed for removal should the run be refused) before anything else. */
struct sw_outputs {
	struct diot_outlist created;
	int kept[3], nkept;       /* entries of created that are outputs */
	int ack_entry;            /* the ack log's entry + 1 (0: none made) */
};
void sw_open_results_file(struct sw_outputs *out, const char *path, const char *opt);
/* -o, --plot, --ack-log and the TARGET are distinct files (usage error). */
void sw_distinct_outputs(const struct sw_opts *o);
/* The claimed outputs become the run's; the results stream (stdout, -o). */
FILE *sw_open_results(const struct sw_opts *o, struct sw_outputs *out);
/* Flush the results written so far (after each point): 0, or -1 if they
 * could not be written.  A reader that left (a closed pipe: EPIPE) stops
 * the run (sw_stop_run(SIGPIPE)); other errors are said at the close. */
int sw_flush_results(FILE *fp);
/* Flush and close the results; -1 (said) if they could not be written,
 * -1 unsaid if their reader left. */
int sw_close_results(const struct sw_opts *o, FILE *fp);
/* The exit of a run, status: unless the results' reader left, then the
 * files the run made are removed and it dies of SIGPIPE, as a filter. */
int sw_exit_status(int status);
/* The claimed outputs are the run's from now on: kept at exit. */
void sw_keep_outputs(struct sw_outputs *out);
void sw_claim_outputs(struct sw_ctx *c, struct sw_outputs *out);

/* signals.c: SIGINT, SIGTERM and SIGHUP set sw_signal; SIGPIPE ignored. */
extern volatile sig_atomic_t sw_signal;
void sw_catch_signals(void);
/* Stop the run as signal sig would (sw_signal, unless one is set). */
void sw_stop_run(int sig);

/* run.c: the stages of a run, which interleave.c runs once per target. */
void sw_ctx_init(struct sw_ctx *c, struct sw_opts *o, const volatile sig_atomic_t *sig);
FILE *sw_begin_run(struct sw_ctx *c, struct sw_outputs *out);
void sw_describe_run(const struct sw_ctx *c, struct sw_run *run);
void sw_run_points(struct sw_ctx *c, int nt, FILE *fp, struct sw_point **pts,
                   int *npoints);
void sw_release(struct sw_ctx *c, struct sw_point *pts, int n);

/* interleave.c: several TARGETs, each point on each in turn. */
int sw_interleave_main(struct sw_opts *o, struct sw_outputs *out,
                       const volatile sig_atomic_t *sig);

/* ranks.c: sync-write as the ranks of an MPI job (tools/kit/mpi.h). */
void sw_ranks_init(struct sw_ctx *c, struct diot_mpi *mpi);
void sw_ranks_check_opts(struct sw_opts *o, const struct diot_mpi *mpi);
void sw_ranks_setup_target(struct sw_ctx *c, uint64_t max_writers, uint64_t max_size);
void sw_ranks_prepare_point(const struct sw_ctx *c, struct sw_wctx *x);
void sw_ranks_meet(const struct sw_ctx *c);
void sw_ranks_say_end(const struct sw_ctx *c);
void sw_ranks_watch(struct sw_ctx *c, struct diot_team *t, int W);
int sw_ranks_merge(struct sw_ctx *c, struct sw_point *p, struct diot_team *t, int r);
int sw_ranks_status(const struct sw_ctx *c, int status);
void sw_ranks_free(struct sw_ctx *c);

/* compare.c: --compare RESULT.json...; returns the exit status. */
int sw_compare_main(const struct sw_opts *o, struct sw_outputs *out);

#endif
