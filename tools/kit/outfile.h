/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * outfile.h -- output-file safety for the tools that write: a file to
 * write over is created exclusively, or an existing one is taken only when
 * forced and only if it is a regular file nobody uses as a disk image; a
 * results file is opened without truncating it; a device output is held
 * for the run; what a failed run created is removed.
 *
 * Nothing here prints or exits: functions return a code and, where there
 * is one, a detail text; each tool keeps its own messages and exit codes.
 */
#ifndef DIO_TOOLS_OUTFILE_H
#define DIO_TOOLS_OUTFILE_H

#include <stddef.h>

/* diot_out_create() results below 0 (besides nothing else). */
enum diot_out_refusal {
	DIOT_OUT_CREATE_FAILED = -1,  /* open(O_CREAT|O_EXCL) failed: *err   */
	DIOT_OUT_STAT_FAILED = -2,    /* it exists but stat failed: *err     */
	DIOT_OUT_IS_DIR = -3,         /* it is a directory                   */
	DIOT_OUT_NOT_REGULAR = -4,    /* neither a regular file (nor a device) */
	DIOT_OUT_EXISTS = -5,         /* a regular file, and not forced      */
	DIOT_OUT_NO_ACCESS = -6,      /* forced, but not writable: *err      */
	DIOT_OUT_IN_USE = -7          /* forced, but in use (why: the text)  */
};

/*
 * Create path exclusively (mode 0644, then closed): returns 1.  If it
 * exists: a regular file is accepted with force (returns 0) when it is
 * writable and dio_device_in_use() does not call it in use (a disk image
 * attached to a loop device, say); otherwise a DIOT_OUT_* code, with
 * *err the errno where the code says so and why (whylen bytes) the
 * in-use text for DIOT_OUT_IN_USE.
 */
int diot_out_create(const char *path, int force, int *err, char *why, size_t whylen);

/*
 * A results file (-o, --plot, an ack log written later): open it for
 * writing without truncating it, creating it if it does not exist, and
 * close it again.  Returns 1 if it was created, 0 if it existed, or
 * -errno (of the create, or of opening the existing file).
 */
int diot_out_open_results(const char *path);

/*
 * Before a results file (-o, --plot) is opened: can it be written without
 * blocking?  An existing regular file (replaced) and a character device
 * (/dev/null, a terminal) can; a directory cannot (-EISDIR); nor a FIFO
 * (-ENXIO: with no reader, opening it waits for one; with one, the tool's
 * check-then-write opens would end the reader's input early); anything
 * else (a block device, a socket) is refused (-EINVAL).  A path that does not exist yet is fine (0).  why gets the
 * reason without the path.
 */
int diot_out_writable(const char *path, char *why, size_t whylen);

/*
 * Is path a symbolic link to nothing (a dangling one)?  1, with what it
 * points to in to (len bytes, cut if longer); 0 otherwise (no link, a
 * link to something, or nothing at path).  A tool refuses such a path
 * rather than create a file where the link points.
 */
int diot_out_dangling(const char *path, char *to, size_t len);

/* Do a and b name the same existing file (1), not (0)? */
int diot_out_same(const char *a, const char *b);

/*
 * --write-unchecked DEVICE (dio-dd, sync-write): the second option, with
 * --force, that lets a tool write a device whose in-use state cannot be
 * told.  Does dev name the device path names?  DIOT_UNCHECKED_SAME (the
 * same path, or a device of the same type and number), _OTHER (another
 * device, or path is none), _NOT_DEVICE (dev is a file, a directory...),
 * or _STAT_FAILED (dev cannot be found: *err the errno).
 */
enum diot_unchecked {
	DIOT_UNCHECKED_SAME = 1,
	DIOT_UNCHECKED_OTHER = 0,
	DIOT_UNCHECKED_NOT_DEVICE = -1,
	DIOT_UNCHECKED_STAT_FAILED = -2
};
int diot_out_unchecked(const char *dev, const char *path, int *err);

/*
 * The option itself, before anything is opened: dev (NULL: not given)
 * needs force and must name one of the n outputs; else a usage error
 * (exit 2) saying what is wrong.  force_alt is another spelling of
 * --force to name ("oflag=force") or NULL; out names the outputs in the
 * tool's words ("of=", "TARGET").
 */
void diot_out_unchecked_option(const char *dev, int force, const char *force_alt,
                               const char *const *outs, int n, const char *out);

/* Is the output device path to be written though whether it is in use
 * cannot be told: force given and dev (--write-unchecked, or NULL) names
 * it? */
int diot_out_write_unchecked(const char *dev, int force, const char *path);

/*
 * What both tools say of such a device, in one wording: that it is
 * written unchecked (err: why it could not be checked, as the tool spells
 * errors; detail: the library's reason, or ""), and that it is not held
 * for the run either (err: why its claim failed).  A refusal to write a
 * device that cannot be told, with --force given, ends with
 * DIOT_OUT_UNCHECKED_ADVICE.
 */
void diot_out_warn_unchecked(const char *path, const char *err, const char *detail);
void diot_out_warn_unheld(const char *path, const char *err);
#define DIOT_OUT_UNCHECKED_ADVICE \
	"; to write it all the same, name it with --write-unchecked as well as --force"

/*
 * Hold a device for the run (dio_device_claim()): returns the descriptor
 * to keep open, or the -errno of dio_device_claim() (-ENOTSUP: this
 * platform has no claims; -EBUSY: in use; ...), which the tool words.
 */
int diot_out_claim_device(const char *path);

/*
 * The files a run created, to remove if it fails.  Register each path the
 * run created (the string is copied); diot_out_keep() marks one kept (or
 * all with idx -1); diot_out_remove_created() unlinks every one not kept,
 * newest first, and forgets them.  diot_out_remove_at_exit() has that done
 * by atexit() for this list (one list per program).
 *
 * diot_out_keep_always() marks one kept even when the process is killed
 * before its run ended in order (the guard below): evidence the user
 * asked to keep (sync-write --keep: the ack log beside the kept target),
 * which is worth most exactly when the run did not end.
 */
struct diot_outlist {
	char **path;
	int *keep;                /* 0 removed, 1 kept, DIOT_OUT_KEEP_ALWAYS */
	int n, cap;
};
#define DIOT_OUT_KEEP_ALWAYS 2

void diot_out_init(struct diot_outlist *l);
/* The index of the entry, or -1 when out of memory (nothing registered). */
int diot_out_created(struct diot_outlist *l, const char *path);
void diot_out_keep(struct diot_outlist *l, int idx);
void diot_out_keep_always(struct diot_outlist *l, int idx);
void diot_out_remove_created(struct diot_outlist *l);
void diot_out_remove_at_exit(struct diot_outlist *l);
/* Remove the at-exit list's files now (a process that ends without
 * exit(), as an aborted MPI job). */
void diot_out_remove_now(void);
/* The same for a process whose run did not end in order (an MPI job
 * aborted): as its guard would, all but the files kept always. */
void diot_out_remove_unfinished(void);

/*
 * A guard for the at-exit list, for a process that can be killed by
 * others (a rank of an MPI job: when one rank dies, the launcher kills
 * the rest, with SIGKILL if need be, and no at-exit handler runs).
 * diot_out_guard() forks a small process in a session of its own that
 * follows the at-exit list (every entry registered, kept or removed, over
 * a socket) and waits for this process to end: then it removes every file
 * of the list, kept ones included, unless diot_out_guard_done() said the
 * run ended in order, in which case the kept files stay.  Start it before
 * anything else opens descriptors (before MPI_Init: it closes every
 * descriptor it inherited but its socket, and its standard streams go to
 * /dev/null).  Processes this one forks later (writers) hold the socket
 * too: the guard acts once they have ended as well.  Returns 0, or the
 * -errno of socketpair() or fork().
 */
int diot_out_guard(void);
void diot_out_guard_done(void);

/*
 * What the guard says when the process ends before diot_out_guard_done():
 * one line on the process's standard error (handed to the guard here, a
 * descriptor the guard holds from then on, so that the launcher still
 * forwards what it writes once the process is gone):
 *   "WHO HOW; AFTER"
 * where HOW is what the guard knows of the end: "exited with status S"
 * (diot_out_guard_exit() told it), or "was lost (...)" when the process
 * ended without a word (SIGKILL, a crash, its host).  A process that was
 * asked to stop by a signal (diot_out_guard_signal()) is stopping on
 * somebody else's word (a launcher that stops the other ranks of a job
 * once one died, or the user): nothing is said of it, so that a job says
 * one line, of the rank that failed.  Nothing is said without this call.
 * Returns 0, or -1 when there is no guard (or it is gone).
 */
int diot_out_guard_say(const char *who, const char *after);
/* The process was asked to stop by signal sig (async-signal-safe: for a
 * signal handler, in whatever thread it runs). */
void diot_out_guard_signal(int sig);
/* The process is about to exit with status, before its run ended in
 * order (an aborted MPI job). */
void diot_out_guard_exit(int status);

#endif
