/*
 * sync-write.h -- the results of sync-write, shared between the
 * measuring part (sync-write.c) and the reports (sync-write-report.c).
 */
#ifndef SW_H
#define SW_H

#include <stdint.h>
#include <stdio.h>

enum sw_status {
	SW_OK = 0,          /* measured                                  */
	SW_NA = 1,          /* not applicable here (reason in note)      */
	SW_ERROR = 2,       /* an I/O error ended it (partial results)   */
	SW_INTERRUPTED = 3  /* stopped by a signal (partial results)     */
};

enum sw_format { SW_FMT_TABLE, SW_FMT_CSV, SW_FMT_JSON };

/* Statistics of one writer or of all writers of a point. */
struct sw_stats {
	uint64_t txns, bytes;
	double wall_s;
	double avg_us, min_us, p50_us, p90_us, p99_us, p999_us, max_us, stddev_us;
	double txn_per_s, mb_per_s;
	double cpu_user_s, cpu_sys_s, cpu_us_per_txn;
};

struct sw_verify {
	int done;
	uint64_t checked, ok, missing, corrupt, stale, misplaced;
};

struct sw_point {
	int index;
	char method[32];
	uint64_t size;
	int writers;
	int status;
	char note[400];
	const char *direct;      /* mechanism name in effect, or "-"   */
	const char *sync_flag;   /* O_DSYNC / O_SYNC / none            */
	const char *commit;      /* commit method really used          */
	int region_full;         /* a writer ran out of region (extend) */
	struct sw_stats agg;
	struct sw_stats *per;    /* [writers]                           */
	struct sw_verify verify;
};

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
	const char *os;
	int interrupted;
	const char *error;         /* first fatal error, or NULL */
};

void sw_report_begin(FILE *fp, int fmt, const struct sw_run *run, int per_writer);
void sw_report_point(FILE *fp, int fmt, const struct sw_point *p, int per_writer);
void sw_report_end(FILE *fp, int fmt, const struct sw_run *run,
                   const struct sw_point *pts, int n);
int sw_plot(const char *path, const struct sw_run *run, const struct sw_point *pts,
            int n);

#endif
