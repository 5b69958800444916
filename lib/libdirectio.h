/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libdirectio.h -- one API over the platform ways of doing unbuffered
 * (direct) and durable (synchronous) I/O.
 *
 * Conventions used by every function below:
 *
 *  - Functions returning int or int64_t return a value >= 0 on success and
 *    a negative errno value (-EINVAL, -ENOTSUP, ...) on failure.  errno
 *    itself is never the channel for results; it may be clobbered.
 *    dio_strerror() and dio_err_name() turn such a value into text.
 *  - The library never prints.  Diagnostics go to the optional callback
 *    installed with dio_set_log_fn(); failures on a file handle keep a
 *    specific, human-readable detail string (dio_file_errdetail()).
 *  - The global mutable state is the log callback (not synchronised: set
 *    it before starting threads) and, on Linux, the /dev/null descriptor
 *    that dio_read_discard() keeps (under a lock).  Distinct handles may be
 *    used from distinct threads freely; one handle may be shared by several
 *    threads for dio_pread()/dio_pwrite()/dio_pwrite_commit()/dio_commit()
 *    (they are positional), but dio_file_set_direct() and dio_close() must
 *    not race with other calls on it.  A dio_scsi or dio_aio object is used
 *    by one thread at a time.
 *  - Offsets and sizes are int64_t/uint64_t/size_t, never off_t, so the ABI
 *    does not depend on _FILE_OFFSET_BITS.
 *
 * This header is C89 compatible and includes only <stddef.h> and <stdint.h>.
 */
#ifndef LIBDIRECTIO_H
#define LIBDIRECTIO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) && __GNUC__ >= 4
# define DIO_EXTERN __attribute__((visibility("default")))
#else
# define DIO_EXTERN
#endif

/* ------------------------------------------------------------------ */
/* Version                                                            */
/* ------------------------------------------------------------------ */

#define DIO_VERSION_MAJOR 0
#define DIO_VERSION_MINOR 2
#define DIO_VERSION_PATCH 90
/** 0xMMmmpp: compare with DIO_VERSION_HEX >= 0x000200 in #if. */
#define DIO_VERSION_HEX ((DIO_VERSION_MAJOR << 16) | \
                         (DIO_VERSION_MINOR << 8) | DIO_VERSION_PATCH)

/** Version of the library actually linked, as DIO_VERSION_HEX. */
DIO_EXTERN unsigned dio_version(void);
/** Version of the library actually linked, as "MAJOR.MINOR.PATCH". */
DIO_EXTERN const char *dio_version_string(void);
/** Name of the OS backend compiled in: "linux", "sunos" or "posix". */
DIO_EXTERN const char *dio_backend_name(void);

/* ------------------------------------------------------------------ */
/* Errors and logging                                                 */
/* ------------------------------------------------------------------ */

/**
 * Message for a negative errno value as returned by this library (the sign
 * is ignored, so errno itself works too).  Thread-safe; the string is
 * static.  Unknown values give "unknown error".
 */
DIO_EXTERN const char *dio_strerror(int err);

/**
 * Like dio_strerror() but unknown values are spelled out ("unknown error
 * 1234").  Writes at most len bytes including the NUL into buf and returns
 * buf.  buf may be NULL only when len is 0.
 */
DIO_EXTERN char *dio_strerror_r(int err, char *buf, size_t len);

/**
 * Symbolic name of an errno value ("EINVAL", "ENOTSUP", ...); the sign is
 * ignored.  Unknown values give "EUNKNOWN".  Static string, thread-safe.
 */
DIO_EXTERN const char *dio_err_name(int err);

/** Log levels passed to the log callback. */
enum dio_log_level {
	DIO_LOG_ERROR = 1,
	DIO_LOG_WARN = 2,
	DIO_LOG_INFO = 3,
	DIO_LOG_DEBUG = 4
};

/**
 * Log callback: level is a dio_log_level, msg a NUL-terminated line
 * without a trailing newline (valid only during the call), arg the value
 * given to dio_set_log_fn().  It may be called from any thread that calls
 * into the library.
 */
typedef void (*dio_log_fn)(int level, const char *msg, void *arg);

/**
 * Install (or, with fn == NULL, remove) the log callback.  Messages above
 * max_level are not produced at all.  Not synchronised with concurrent
 * library calls: set it before starting threads that use the library.
 */
DIO_EXTERN void dio_set_log_fn(dio_log_fn fn, void *arg, int max_level);

/* ------------------------------------------------------------------ */
/* Capabilities of this build on this system                          */
/* ------------------------------------------------------------------ */

/** Bits returned by dio_caps(). */
enum dio_cap {
	DIO_CAP_O_DIRECT      = 1 << 0, /**< open/fcntl flag O_DIRECT (Linux)  */
	DIO_CAP_DIRECTIO      = 1 << 1, /**< directio(3C) advice (Solaris, illumos) */
	DIO_CAP_O_DSYNC       = 1 << 2, /**< open flag O_DSYNC                  */
	DIO_CAP_O_SYNC        = 1 << 3, /**< open flag O_SYNC                   */
	DIO_CAP_FDATASYNC     = 1 << 4, /**< fdatasync(); else fsync stands in  */
	DIO_CAP_RWF_DSYNC     = 1 << 5, /**< per-write data sync (pwritev2 RWF_DSYNC) */
	DIO_CAP_DIOALIGN      = 1 << 6, /**< kernel-reported direct I/O alignment */
	DIO_CAP_SCSI          = 1 << 7, /**< SCSI pass-through (SG_IO, USCSICMD) */
	DIO_CAP_GET_DIRECT    = 1 << 8, /**< direct I/O state of an fd can be read back */
	/**
	 * posix_fadvise() acts: POSIX_FADV_DONTNEED drops a file's clean
	 * cached pages (Linux).  Without it the call may still exist and
	 * succeed while doing nothing (illumos libc), so a cache drop or
	 * dd's nocache is not done there.
	 */
	DIO_CAP_FADVISE       = 1 << 9
};

/**
 * What this build supports, as a mask of dio_cap bits.  DIO_CAP_RWF_DSYNC
 * is also checked against the running kernel the first time a per-write
 * sync is attempted; the bit says only that it was compiled in.
 */
DIO_EXTERN unsigned dio_caps(void);

/* ------------------------------------------------------------------ */
/* Opening files with a direct-I/O and sync policy                    */
/* ------------------------------------------------------------------ */

/** Opaque file handle. */
typedef struct dio_file dio_file;

/** Direct-I/O policy for dio_open() and dio_file_set_direct(). */
enum dio_direct {
	DIO_DIRECT_OFF = 0, /**< ordinary buffered I/O                         */
	DIO_DIRECT_ON  = 1, /**< direct I/O or failure (-ENOTSUP), never silently buffered */
	DIO_DIRECT_TRY = 2  /**< direct I/O where possible, buffered otherwise   */
};

/** Synchronous-write policy for dio_open(). */
enum dio_sync {
	DIO_SYNC_NONE = 0, /**< writes complete when the data is in the cache */
	DIO_SYNC_DATA = 1, /**< every write: synchronized I/O data integrity (O_DSYNC) */
	DIO_SYNC_FULL = 2  /**< every write: file integrity, metadata too (O_SYNC) */
};

/** Flags for dio_open(); exactly one of RDONLY, WRONLY, RDWR. */
enum dio_open_flag {
	DIO_O_RDONLY = 0x00,
	DIO_O_WRONLY = 0x01,
	DIO_O_RDWR   = 0x02,
	DIO_O_CREAT  = 0x04, /**< create if missing (dio_file_created() tells)  */
	DIO_O_EXCL   = 0x08, /**< with CREAT: fail with -EEXIST if it exists     */
	DIO_O_TRUNC  = 0x10, /**< truncate a regular file to 0 on open          */
	DIO_O_APPEND = 0x20  /**< every write at end of file (offsets ignored)  */
};

/** How direct I/O is (or is not) in effect on a handle. */
enum dio_mech {
	DIO_MECH_NONE     = 0, /**< buffered: the page cache is used           */
	DIO_MECH_O_DIRECT = 1, /**< Linux O_DIRECT (open or fcntl F_SETFL)     */
	DIO_MECH_DIRECTIO = 2, /**< directio(fd, DIRECTIO_ON) advice (Solaris) */
	/**
	 * A raw disk node (illumos /dev/rdsk): every transfer goes between
	 * the device and the caller's pages (physio), there is no cache to
	 * turn off, and none to turn on.
	 */
	DIO_MECH_RAW      = 3,
	/**
	 * The file system is mounted forcedirectio (illumos UFS, NFS): direct
	 * for every file, whatever the advice; it cannot be turned off.
	 */
	DIO_MECH_FORCED   = 4
};

/** Which open flag carries the sync policy. */
enum dio_sync_flag {
	DIO_SYNCFLAG_NONE    = 0,
	DIO_SYNCFLAG_O_DSYNC = 1,
	DIO_SYNCFLAG_O_SYNC  = 2  /**< also used for DIO_SYNC_DATA where O_DSYNC does not exist */
};

/**
 * Open path with the given flags (dio_open_flag), direct policy
 * (dio_direct) and sync policy (dio_sync); mode is used when a file is
 * created (e.g. 0644).  On success *fp is a new handle and 0 is returned.
 *
 * With DIO_DIRECT_ON, a file system or device that refuses direct I/O
 * makes the call fail with -ENOTSUP (and, if the call created the file,
 * the file is removed again).  With DIO_DIRECT_TRY the handle is opened
 * buffered instead; dio_file_direct() then returns DIO_MECH_NONE.
 *
 * Solaris/illumos: direct I/O is reported only where it happens: on ufs,
 * nfs and smbfs once directio(DIRECTIO_ON) succeeds (DIO_MECH_DIRECTIO),
 * on a raw disk node (DIO_MECH_RAW) and on a forcedirectio mount
 * (DIO_MECH_FORCED).  ZFS accepts the advice and ignores it, so there, and
 * on any other file system, DIO_DIRECT_ON fails with -ENOTSUP.  The
 * advice is kept per file, not per descriptor, with no permission check:
 * a buffered open (DIO_DIRECT_OFF) therefore leaves it as other users set
 * it, and it stays on after dio_close() (dio_file_set_direct() with
 * DIO_DIRECT_OFF takes it back for every user of the file).  UFS still
 * buffers single requests that break its rules: see dio_align_fd() and
 * struct dio_align's direct_limits.
 *
 * On failure *fp is NULL.  The reason is in the return value; since there
 * is no handle, a detail string goes to the log callback (dio_open_why()
 * also gives why direct I/O was refused, as a value).
 */
DIO_EXTERN int dio_open(dio_file **fp, const char *path, unsigned flags,
                        int direct, int sync, unsigned mode);

/**
 * Wrap an open descriptor.  The handle takes ownership (dio_close() closes
 * fd) only when own is non-zero.  The current direct state and sync flags
 * of fd are read back where the OS allows it.
 */
DIO_EXTERN int dio_adopt(dio_file **fp, int fd, int own);

/**
 * Close the handle (and its descriptor if owned) and free it.  Returns 0 or
 * the -errno of close(); the handle is freed either way.  NULL is a no-op
 * returning 0.
 */
DIO_EXTERN int dio_close(dio_file *f);

/** The descriptor behind the handle. */
DIO_EXTERN int dio_file_fd(const dio_file *f);

/** Mechanism by which direct I/O is in effect now (dio_mech). */
DIO_EXTERN int dio_file_direct(const dio_file *f);

/** Sync policy in effect (dio_sync), from the open flags. */
DIO_EXTERN int dio_file_sync(const dio_file *f);

/** Which open flag implements that policy (dio_sync_flag). */
DIO_EXTERN int dio_file_sync_flag(const dio_file *f);

/** 1 if dio_open() created the file, 0 if it existed or was adopted. */
DIO_EXTERN int dio_file_created(const dio_file *f);

/**
 * Turn direct I/O on or off on an open handle (policy as for dio_open();
 * TRY never fails for lack of support).  Returns the dio_mech now in
 * effect, or -ENOTSUP when DIO_DIRECT_ON cannot be honoured (the handle is
 * then left as it was; dio_file_errdetail() says why, e.g. that ZFS
 * ignores the advice, and dio_file_refusal() gives it as a value), or
 * another -errno.  Where direct I/O cannot be
 * turned off (DIO_MECH_RAW, DIO_MECH_FORCED), DIO_DIRECT_OFF returns that
 * mechanism.  On Solaris/illumos DIO_DIRECT_OFF calls
 * directio(DIRECTIO_OFF), which switches the advice off for every user of
 * the file.
 */
DIO_EXTERN int dio_file_set_direct(dio_file *f, int direct);

/**
 * Turn direct I/O on (on != 0) or off on a raw descriptor: Linux
 * fcntl(F_SETFL, O_DIRECT), Solaris/illumos directio(DIRECTIO_ON/OFF)
 * where it is honoured (see dio_open()).  Returns the dio_mech now in
 * effect, -ENOTSUP if the file system (or this platform) has no direct
 * I/O or ignores it, or another -errno.
 */
DIO_EXTERN int dio_fd_set_direct(int fd, int on);

/**
 * Read back whether direct I/O is on for a raw descriptor: returns the
 * dio_mech in effect, or -ENOTSUP where the OS cannot tell (directio()
 * advice cannot be queried; see DIO_CAP_GET_DIRECT).  On illumos only what
 * is direct whatever the advice is known: DIO_MECH_RAW for a raw disk
 * node, DIO_MECH_FORCED on a forcedirectio mount, else -ENOTSUP.
 */
DIO_EXTERN int dio_fd_get_direct(int fd);

/** "none", "O_DIRECT", "directio()", "raw device" or "forcedirectio"
 * (DIO_MECH_*); "invalid" for any other value. */
DIO_EXTERN const char *dio_mech_name(int mech);
/** "none", "data" or "full". */
DIO_EXTERN const char *dio_sync_name(int sync);
/** "none", "O_DSYNC" or "O_SYNC". */
DIO_EXTERN const char *dio_sync_flag_name(int flag);

/**
 * Copy the detail of the last failure on this handle into buf (at most len
 * bytes including the NUL; len 0 copies nothing) and return that failure's
 * -errno, or 0 (and an empty string) if nothing failed yet.  Example detail:
 * "direct write of 1000 bytes at offset 512: length must be a multiple of
 * 4096".  Thread-safe.
 */
DIO_EXTERN int dio_file_errdetail(const dio_file *f, char *buf, size_t len);

/* ------------------------------------------------------------------ */
/* Why direct I/O was refused                                         */
/* ------------------------------------------------------------------ */

/* Since 0.2.90 (symbol version LIBDIRECTIO_0.3): a program that must also
 * build against 0.2.0 tests DIO_VERSION_HEX >= 0x00025a. */

/**
 * Why a request for direct I/O (DIO_DIRECT_ON or DIO_DIRECT_TRY) was not
 * met: struct dio_refusal's reason.  dio_refusal_str() words each one.
 */
enum dio_refusal_reason {
	DIO_REFUSAL_NONE = 0,          /**< nothing was refused                        */
	/** Asking failed with an error rather than a refusal: err says which. */
	DIO_REFUSAL_ERROR = 1,
	/* Linux */
	DIO_REFUSAL_NO_O_DIRECT = 2,   /**< this build has no O_DIRECT                 */
	/** statx() reports no direct-I/O alignment for the file (ext4
	 * data=journal, inline data, fs-verity...): O_DIRECT would be taken
	 * and the I/O quietly buffered. */
	DIO_REFUSAL_STATX_NO_DIO = 3,
	/** fcntl(F_SETFL, O_DIRECT) says EINVAL: the file system has no
	 * direct I/O (sys_err -EINVAL). */
	DIO_REFUSAL_SETFL_EINVAL = 4,
	DIO_REFUSAL_O_DIRECT_DROPPED = 5, /**< O_DIRECT did not stay set on the descriptor */
	/* the posix backend */
	DIO_REFUSAL_POSIX_BACKEND = 6, /**< the posix backend has no direct I/O        */
	/* Solaris, illumos */
	/** A raw disk node whose I/O ends in a cache or in memory: driver
	 * names it ("zvol", "lofi", "ramdisk"). */
	DIO_REFUSAL_RAW_CACHED = 7,
	/** A block disk node: it goes through the cache; its raw /dev/rdsk
	 * node is direct. */
	DIO_REFUSAL_BLOCK_NODE = 8,
	DIO_REFUSAL_NOT_FILE_OR_DISK = 9, /**< neither a regular file nor a disk       */
	/** A file system that honours directio() (fs) on a device whose I/O
	 * is cached (driver): UFS on a zvol or on lofi. */
	DIO_REFUSAL_FS_ON_CACHED = 10,
	/** ZFS accepts directio() and ignores it (fs "zfs"). */
	DIO_REFUSAL_ZFS_IGNORES = 11,
	/** fs is not known to honour directio() (ufs, nfs and smbfs do). */
	DIO_REFUSAL_FS_NOT_KNOWN = 12,
	/** directio() itself failed with sys_err (-ENOTTY, -ENOTSUP,
	 * -ENOSYS). */
	DIO_REFUSAL_DIRECTIO_CALL = 13,
	DIO_REFUSAL_NO_DIRECTIO = 14   /**< this build has no directio()               */
};

/** Room for a name in struct dio_refusal, the NUL included. */
#define DIO_REFUSAL_NAME_MAX 32

/**
 * A refusal of direct I/O as a value: what the OS backend found, with
 * the names it found, kept on the handle (dio_file_refusal()) and given
 * to the caller of a failed open (dio_open_why()).  Plain data with no
 * pointers: it may be copied, kept and formatted (dio_refusal_str())
 * later, from any thread.
 */
struct dio_refusal {
	int reason;              /**< dio_refusal_reason                             */
	/** What the request returned: -ENOTSUP for a refusal, the -errno for
	 * DIO_REFUSAL_ERROR, 0 for DIO_REFUSAL_NONE. */
	int err;
	/** The -errno of the system call whose answer the reason reports
	 * (directio()'s for DIO_REFUSAL_DIRECTIO_CALL, fcntl()'s for
	 * DIO_REFUSAL_SETFL_EINVAL); 0 otherwise. */
	int sys_err;
	char fs[DIO_REFUSAL_NAME_MAX];     /**< file system type it names ("zfs"), or "" */
	char driver[DIO_REFUSAL_NAME_MAX]; /**< disk driver it names ("zvol"), or ""     */
	uint32_t reserved[5];    /**< zero; room to grow without breaking the ABI     */
};

/**
 * dio_open() that also says why direct I/O was refused: when why is not
 * NULL it is always filled, with DIO_REFUSAL_NONE unless direct I/O was
 * asked (DIO_DIRECT_ON or DIO_DIRECT_TRY) and not given.  With
 * DIO_DIRECT_ON such an open fails (-ENOTSUP for a refusal, another
 * -errno for DIO_REFUSAL_ERROR) and *why is all that is left of the
 * reason; with DIO_DIRECT_TRY the handle opens buffered and keeps it
 * too (dio_file_refusal()).  A failure before direct I/O was asked (the
 * file cannot be opened, the sync policy has no flag) leaves
 * DIO_REFUSAL_NONE: the return value says it.
 */
DIO_EXTERN int dio_open_why(dio_file **fp, const char *path, unsigned flags,
                            int direct, int sync, unsigned mode,
                            struct dio_refusal *why);

/**
 * Copy into *r why the handle's last request for direct I/O was refused:
 * that of dio_open() or dio_open_why() with DIO_DIRECT_TRY, or of
 * dio_file_set_direct() with DIO_DIRECT_ON or DIO_DIRECT_TRY.  A request
 * that was met, and a handle that never asked (DIO_DIRECT_OFF,
 * dio_adopt()), give DIO_REFUSAL_NONE.  Returns 0, or -EINVAL for a NULL
 * argument.  Thread-safe.
 */
DIO_EXTERN int dio_file_refusal(const dio_file *f, struct dio_refusal *r);

/**
 * The refusal in words, as the backend says it, e.g. "ZFS accepts
 * directio() and ignores it: every read and write goes through its cache"
 * or, for DIO_REFUSAL_ERROR, dio_strerror(err); "" for DIO_REFUSAL_NONE.
 * The same words end the detail dio_file_set_direct() leaves for
 * dio_file_errdetail() ("set direct on: ...").  Writes at most len bytes
 * including the NUL into buf and returns buf; buf may be NULL only when
 * len is 0.
 */
DIO_EXTERN char *dio_refusal_str(const struct dio_refusal *r, char *buf, size_t len);

/** "none", "error", "no-o-direct", "statx-no-dio", "setfl-einval",
 * "o-direct-dropped", "posix-backend", "raw-cached", "block-node",
 * "not-file-or-disk", "fs-on-cached", "zfs-ignores", "fs-not-known",
 * "directio-call" or "no-directio" (DIO_REFUSAL_*); "invalid" for any
 * other value. */
DIO_EXTERN const char *dio_refusal_name(int reason);

/* ------------------------------------------------------------------ */
/* Data transfer and commit                                           */
/* ------------------------------------------------------------------ */

/** Ways of making written data durable; see dio_commit() and dio_pwrite_commit(). */
enum dio_commit {
	DIO_COMMIT_NONE      = 0, /**< nothing (the buffered control)               */
	DIO_COMMIT_FDATASYNC = 1, /**< fdatasync(); fsync() where there is none     */
	DIO_COMMIT_FSYNC     = 2, /**< fsync()                                      */
	DIO_COMMIT_RWF_DSYNC = 3  /**< the write itself carries a data sync (pwritev2 RWF_DSYNC) */
};

/**
 * The method that really runs for `method` on this build: FDATASYNC
 * resolves to FSYNC where fdatasync() does not exist; RWF_DSYNC resolves
 * to -ENOTSUP where it was not compiled in.  Other values give -EINVAL.
 */
DIO_EXTERN int dio_commit_resolve(int method);

/** "none", "fdatasync", "fsync" or "rwf-dsync". */
DIO_EXTERN const char *dio_commit_name(int method);

/**
 * Write all len bytes of buf at offset off.  Short writes and EINTR are
 * retried; returns len or a -errno (bytes written before a failure are not
 * reported as success).  On a direct handle the buffer address, offset and
 * length are checked against the handle's alignment first: a violation
 * returns -EINVAL, writes nothing and records a detail such as "direct
 * write of 1000 bytes at offset 512: length must be a multiple of 4096".
 */
DIO_EXTERN int64_t dio_pwrite(dio_file *f, const void *buf, size_t len, int64_t off);

/**
 * Read up to len bytes at offset off, retrying short reads and EINTR until
 * len bytes or end of file.  Returns the bytes read (< len only at EOF) or
 * a -errno.  Alignment is checked as for dio_pwrite().
 */
DIO_EXTERN int64_t dio_pread(dio_file *f, void *buf, size_t len, int64_t off);

/**
 * Make data written so far durable with method (dio_commit).  NONE does
 * nothing; RWF_DSYNC, which only exists per write, behaves as FDATASYNC
 * here.  On illumos, where the kernel's commit of a device node does not
 * reliably flush the device's volatile write cache (specfs passes no sync
 * to the driver and flushes on fsync() only after a write it saw), a
 * commit on a disk node (raw or block, zvols included) is followed by
 * DKIOCFLUSHWRITECACHE, and so is every write on such a node opened with
 * DIO_SYNC_DATA or DIO_SYNC_FULL; a device with no cache to flush
 * (ENOTSUP, ENOTTY) is not an error.  Returns 0 or a -errno.
 */
DIO_EXTERN int dio_commit(dio_file *f, int method);

/**
 * One durable transaction: dio_pwrite() then the commit method.  With
 * DIO_COMMIT_RWF_DSYNC it is a single pwritev2(..., RWF_DSYNC) call per
 * chunk; a kernel that rejects the flag gives -ENOTSUP without writing.
 * Returns len or a -errno.
 */
DIO_EXTERN int64_t dio_pwrite_commit(dio_file *f, const void *buf, size_t len,
                                     int64_t off, int method);

/* ------------------------------------------------------------------ */
/* Alignment and block sizes                                          */
/* ------------------------------------------------------------------ */

/** Where the direct-I/O alignment figures of struct dio_align came from. */
enum dio_align_source {
	DIO_ALIGN_SRC_NONE    = 0, /**< no direct I/O on this object: figures are 0     */
	DIO_ALIGN_SRC_STATX   = 1, /**< Linux statx(STATX_DIOALIGN)                       */
	DIO_ALIGN_SRC_BLKDEV  = 2, /**< block device ioctls (BLKSSZGET, DKIOCGMEDIAINFOEXT) */
	DIO_ALIGN_SRC_FSRULE  = 3, /**< documented file system rule (e.g. UFS directio)    */
	DIO_ALIGN_SRC_GUESS   = 4  /**< conservative default: the page size                */
};

/** Alignment facts for a file or device.  0 means unknown. */
struct dio_align {
	uint32_t mem_align;      /**< buffer address alignment for direct I/O        */
	uint32_t offset_align;   /**< offset and length granularity for direct I/O   */
	uint32_t read_offset_align; /**< same, for reads where the kernel relaxes it */
	uint32_t logical_block;  /**< logical block (sector) size of the device      */
	uint32_t physical_block; /**< physical block size of the device              */
	uint32_t preferred_io;   /**< preferred I/O size (st_blksize / optimal I/O)  */
	uint32_t source;         /**< dio_align_source of mem/offset_align           */
	uint32_t is_device;      /**< 1 for a block or character device              */
	uint64_t device_bytes;   /**< capacity of a device, 0 otherwise/unknown      */
	/**
	 * dio_direct_limit bits: requests that the file system serves
	 * buffered even with direct I/O on and the alignment above kept
	 * (illumos UFS, NFS); 0 where none are known.
	 */
	uint32_t direct_limits;
	uint32_t reserved[7];    /**< zero; room to grow without breaking the ABI     */
};

/**
 * Requests a file system serves through its cache although direct I/O is
 * on and the request is aligned (struct dio_align direct_limits).
 */
enum dio_direct_limit {
	/** An O_SYNC or O_DSYNC write that extends the file (UFS). */
	DIO_DLIM_SYNC_EXTEND = 0x1,
	/** An O_SYNC or O_DSYNC write while the file has a hole anywhere (UFS). */
	DIO_DLIM_SYNC_HOLES  = 0x2,
	/** Any request while the file is mapped with mmap() (UFS). */
	DIO_DLIM_MAPPED      = 0x4,
	/**
	 * A request while the file has cached pages that the file system
	 * fails to drop (UFS invalidates them first).
	 */
	DIO_DLIM_CACHED      = 0x8,
	/**
	 * A request while the file has any cached page: clean pages are not
	 * dropped, so a file read or written buffered before stays cached
	 * until memory pressure takes its pages (NFS, smbfs).
	 */
	DIO_DLIM_CACHED_ANY  = 0x10
};

/**
 * One line saying what the dio_direct_limit bit means ("O_SYNC/O_DSYNC
 * writes that extend the file are buffered"), or NULL for a bit that is
 * not one.
 */
DIO_EXTERN const char *dio_direct_limit_text(unsigned bit);

/**
 * Fill *a for an open descriptor.  Linux: statx STATX_DIOALIGN where the
 * kernel reports it, BLKSSZGET/BLKPBSZGET/BLKIOOPT for block devices, the
 * backing device's sizes from sysfs, then the page size as a guess.
 * illumos: DKIOCGMEDIAINFOEXT for devices (a slice or partition sized by
 * DKIOCEXTPARTINFO; a /dev/dsk block node through its raw /dev/rdsk
 * twin, whose ioctls it takes), UFS and NFS directio rules for files.  On
 * an sd disk DKIOCGMEDIAINFOEXT makes the driver send TEST UNIT READY and
 * READ CAPACITY to the device.  Returns 0 or a -errno.
 */
DIO_EXTERN int dio_align_fd(int fd, struct dio_align *a);

/**
 * dio_align_fd() for a path, which is opened read-only (non-blocking, so
 * that devices do not wait for media) just for the query.
 */
DIO_EXTERN int dio_align_path(const char *path, struct dio_align *a);

/** The alignment a handle checks its direct transfers against. */
DIO_EXTERN int dio_file_align(const dio_file *f, struct dio_align *a);

/**
 * Name of the file system holding the open descriptor fd ("ext4", "xfs",
 * "tmpfs", "ufs", "zfs", ...), written into buf (len bytes).  Returns 0, or
 * -ENOTSUP where the platform cannot tell, or another -errno.
 */
DIO_EXTERN int dio_fs_type(int fd, char *buf, size_t len);

/**
 * The birth stamp of the file open as fd: a number, never 0, that tells
 * this file apart from a later one that gets the same inode number once
 * this one is removed, so that a tool can recognise a file it wrote
 * before (with the device and inode numbers).  Compare stamps for
 * equality only, on the same system: Linux folds the birth time (statx
 * STX_BTIME) and the inode's generation number (FS_IOC_GETVERSION).
 * Returns 0, -ENOTSUP where the file system or the platform keeps neither
 * (illumos, the POSIX backend, ext4 with 128-byte inodes and no
 * generation...), or another -errno.
 */
DIO_EXTERN int dio_file_birth(int fd, uint64_t *stamp);

/**
 * Whether the device or file at path is in use, so that writing to it
 * would destroy someone's data: a block device that is mounted (its own
 * file system or one on a partition/slice of it), active swap, held
 * exclusively by another driver (RAID, device-mapper) or backing a loop
 * device; an SCSI generic node (Linux sg) whose disk is any of those; a
 * regular file that backs a loop device.  On illumos: a mount, active
 * swap or the dump device (compared by device number and by disk), or a
 * libdiskmgt use (ZFS pool member...) of any slice or partition of the
 * disk, whichever node is named; a zvol is free only when an exclusive
 * open shows nobody holds it (swap, dump, COMSTAR, a virtual machine, a
 * zone).  A check that cannot be completed gives -errno with why set,
 * never 0: libdiskmgt's error, swapctl failing, /dev/dump or /dev/dsk
 * unreadable, a build without libdiskmgt, and where libdiskmgt answers
 * "not in use" without having looked: not run as root, a non-global
 * zone, libzfs.so that does not load.
 * Returns 1 when in use, with a reason such as "mounted on /mnt (ext4)"
 * in why (len bytes, may be 0), 0 when not, -ENOTBLK for what is neither
 * a device nor a regular file, -ENOTSUP where the platform gives no way
 * to tell (for regular files that is the usual answer off Linux), or
 * another -errno.  Tools that
 * write to devices refuse unless this returns 0.  The answer can change
 * the moment after: see dio_device_claim().
 */
DIO_EXTERN int dio_device_in_use(const char *path, char *why, size_t len);

/**
 * Claim a block device (or the disk of an sg node) against concurrent
 * use for as long as the returned descriptor stays open: on Linux an
 * exclusive open (O_EXCL), which fails itself with -EBUSY when the device
 * is mounted or otherwise held (an EBUSY that ends within about 20 ms,
 * another program's exclusive open of a moment, is waited out; so is it
 * in dio_device_in_use()), and makes a later mount, swapon, or
 * another claim of the same device, of one of its partitions or of its
 * whole disk fail with EBUSY.  The descriptor is read-only and is only a
 * claim: write through a descriptor of your own.  Returns the descriptor
 * (close() it to release the claim), -EBUSY, -ENODEV for an sg node with
 * no disk, -ENOTBLK for a regular file or other non-device, -ENOTSUP where
 * the platform has no such claim (rely on dio_device_in_use() alone), or
 * another -errno.
 */
DIO_EXTERN int dio_device_claim(const char *path);

/** "statx", "blkdev", "fs-rule", "guess" or "none". */
DIO_EXTERN const char *dio_align_source_name(int source);

/**
 * Allocate len bytes aligned to align (a power of two; 0 means the page
 * size, which suits direct I/O everywhere).  Returns NULL on failure.
 * Free with dio_free().
 */
DIO_EXTERN void *dio_alloc(size_t len, size_t align);

/**
 * Allocate at least len bytes for I/O buffers on large pages where the
 * platform has them: the length is rounded up to a whole number of large
 * pages, the start aligned to the large page (and to align, a power of
 * two; 0 means the page size), and the OS asked to back the memory with
 * large pages (Linux: transparent huge pages, madvise(MADV_HUGEPAGE),
 * unless THP is switched off; illumos: memcntl(MC_HAT_ADVISE); the POSIX
 * backend has none).  A direct transfer into or out of such a buffer pins
 * one page per large page instead of one per base page, which makes each
 * direct request cheaper for the CPU; buffered copies gain little.
 *
 * It is advice: the OS backs the memory with large pages as it can when
 * it is first touched.  *page_size (if page_size is not NULL) is set to
 * the large page size asked for, or 0 when none was (the platform has
 * none, or refused the advice); the memory is then the same as from
 * dio_alloc(len, align).  Returns NULL on failure (align not a power of
 * two, or out of memory).  Free with dio_free().  Each call takes at
 * least one large page (2 MiB on x86-64): allocate one buffer and slice
 * it rather than many small ones.
 */
DIO_EXTERN void *dio_alloc_large(size_t len, size_t align, size_t *page_size);

/**
 * The large page size dio_alloc_large() asks for on this system now (2 MiB
 * on x86-64 Linux with transparent huge pages not switched off), or 0 when
 * there is none to ask for.
 */
DIO_EXTERN size_t dio_large_page_size(void);

/** Free memory from dio_alloc() or dio_alloc_large(); NULL is a no-op. */
DIO_EXTERN void dio_free(void *p);

/* ------------------------------------------------------------------ */
/* SCSI pass-through                                                  */
/* ------------------------------------------------------------------ */

/*
 * A reusable SCSI command object over Linux SG_IO (sg character devices
 * and block devices that accept SG_IO) and Solaris/illumos USCSICMD.  The
 * POSIX backend has no pass-through: every call that would reach a device
 * returns -ENOTSUP (see DIO_CAP_SCSI).
 *
 * Usage: dio_scsi_new(); set the CDB, the data buffer and direction, the
 * timeout and transfer mode; dio_scsi_exec(); then read the outcome with
 * the getters; dio_scsi_clear() to reuse it for the next command.  One
 * object carries one command at a time: do not share it between threads
 * without a lock.
 *
 * dio_scsi_exec() returns a -errno only when the command could not be
 * submitted or the OS failed it (and for misuse recorded by a setter).
 * A command that reached the device returns 0 however the device
 * answered: dio_scsi_category() then says GOOD, STATUS (non-GOOD status
 * without sense), SENSE (CHECK CONDITION with sense data) or TRANSPORT
 * (host adapter or driver error; on illumos, USCSICMD failing with EIO
 * and no SCSI status).  A RESERVATION CONFLICT is STATUS also where an
 * older Linux kernel adds host status DID_NEXUS_FAILURE (11h) to it.
 *
 * Misuse: a setter given a bad value returns -EINVAL (or -ENOTSUP) and
 * records it with a detail; dio_scsi_exec() then refuses with that error
 * until the same setter succeeds (dio_scsi_clear() forgets misuse of the
 * CDB and data, not of the timeout or transfer mode, which it keeps).
 */
typedef struct dio_scsi dio_scsi;

/** Data direction of a command. */
enum dio_scsi_dir {
	DIO_SCSI_DIR_NONE = 0,     /**< no data phase                       */
	DIO_SCSI_DIR_IN   = 1,     /**< device to host (READ, INQUIRY, ...) */
	DIO_SCSI_DIR_OUT  = 2      /**< host to device (WRITE, ...)         */
};

/**
 * How the data of a command reaches user memory.  INDIRECT is the OS's
 * default path.  DIRECT, NO_COPY and MMAP exist only on Linux sg
 * character devices (/dev/sgN); a block device that accepts SG_IO and
 * illumos USCSICMD refuse them with -ENOTSUP.
 */
enum dio_scsi_xfer {
	DIO_SCSI_XFER_INDIRECT = 0, /**< the default: on sg, DMA to a kernel buffer, then copied */
	DIO_SCSI_XFER_DIRECT   = 1, /**< DMA straight into user memory (SG_FLAG_DIRECT_IO) */
	DIO_SCSI_XFER_NO_COPY  = 2, /**< data stays in the kernel: no user copy (SG_FLAG_NO_DXFER) */
	DIO_SCSI_XFER_MMAP     = 3, /**< the driver's reserved buffer mapped into user space (SG_FLAG_MMAP_IO) */
	/**
	 * Outcome only (dio_scsi_xfer_done()), never a request: the OS
	 * chose the path and does not report it.  Linux block devices map
	 * the user pages for DMA when the buffer meets the queue's DMA
	 * alignment and copy through a kernel buffer otherwise; illumos
	 * physio locks the user pages and DMAs into them unless the HBA's
	 * DMA limits force a bounce buffer.
	 */
	DIO_SCSI_XFER_AUTO     = 4
};

/** Outcome of an executed command. */
enum dio_scsi_category {
	DIO_SCSI_CAT_GOOD      = 0, /**< status GOOD, no transport error              */
	DIO_SCSI_CAT_STATUS    = 1, /**< non-GOOD status (BUSY, RESERVATION CONFLICT...) without sense */
	DIO_SCSI_CAT_SENSE     = 2, /**< CHECK CONDITION: see dio_scsi_sense()        */
	DIO_SCSI_CAT_TRANSPORT = 3  /**< host adapter / driver reported an error     */
};

/** How dio_scsi_duration_ns() was obtained. */
enum dio_scsi_time_source {
	DIO_SCSI_TIME_KERNEL   = 0, /**< reported by the kernel (whole milliseconds on Linux) */
	/**
	 * CLOCK_MONOTONIC read just before and after the system call: what
	 * Linux and illumos report, since sg_io_hdr.duration counts whole
	 * milliseconds (0 for most commands) and uscsi has no figure.  It
	 * includes the system call and any copy to user memory.
	 */
	DIO_SCSI_TIME_MEASURED = 1
};

/** SCSI status byte values. */
#define DIO_SCSI_STATUS_GOOD            0x00
#define DIO_SCSI_STATUS_CHECK_CONDITION 0x02
#define DIO_SCSI_STATUS_CONDITION_MET   0x04
#define DIO_SCSI_STATUS_BUSY            0x08
#define DIO_SCSI_STATUS_RESERVATION_CONFLICT 0x18
#define DIO_SCSI_STATUS_TASK_SET_FULL   0x28
#define DIO_SCSI_STATUS_ACA_ACTIVE      0x30
#define DIO_SCSI_STATUS_TASK_ABORTED    0x40

/** Largest sense data kept by a command object. */
#define DIO_SCSI_SENSE_MAX 252

/**
 * Open a SCSI device for pass-through (O_RDWR, or O_RDONLY when
 * read_only, plus O_NONBLOCK so that an absent medium does not block the
 * open).  Returns the descriptor or a -errno: -ENOTTY when path is not a
 * device that accepts this OS's pass-through, -ENOTSUP without SCSI
 * support.  Linux asks the device (SG_GET_VERSION_NUM), so a regular
 * file, /dev/null or a loop device give -ENOTTY here; illumos refuses
 * only what is not a device, and a device without USCSICMD then fails at
 * dio_scsi_exec() with -ENOTTY.  Any descriptor that accepts
 * SG_IO/USCSICMD may be used with dio_scsi_exec() instead.
 */
DIO_EXTERN int dio_scsi_open(const char *path, int read_only);

/** New command object with no CDB, 60 s timeout, indirect transfers.  NULL on ENOMEM. */
DIO_EXTERN dio_scsi *dio_scsi_new(void);

/** Free a command object (and any mapping it made); NULL is a no-op. */
DIO_EXTERN void dio_scsi_free(dio_scsi *c);

/**
 * Forget the CDB, buffer and outcome (keeps the timeout, transfer mode
 * and any mmap'd reserved buffer) so the object can carry a new command.
 * It also forgets what the object learned about the last descriptor it
 * executed on (its kind: sg, block device...), which dio_scsi_exec()
 * otherwise remembers per descriptor number to spare a system call per
 * command: clear the object before using it on a descriptor number that
 * was closed and reopened for another device.
 */
DIO_EXTERN void dio_scsi_clear(dio_scsi *c);

/** Set the CDB (6 to 16 bytes; copied).  Returns 0 or -EINVAL (also remembered for exec). */
DIO_EXTERN int dio_scsi_set_cdb(dio_scsi *c, const uint8_t *cdb, size_t len);

/**
 * Set the data buffer, its length and direction (dio_scsi_dir).  The
 * buffer is not copied and must stay valid until dio_scsi_exec() returns.
 * For DIO_SCSI_XFER_NO_COPY buf may be NULL; for DIO_SCSI_XFER_MMAP use
 * the buffer from dio_scsi_mmap_buf() (or NULL, meaning the same).
 * DIO_SCSI_DIR_NONE needs len 0.  Returns 0 or -EINVAL.
 */
DIO_EXTERN int dio_scsi_set_data(dio_scsi *c, int dir, void *buf, size_t len);

/** Command timeout in milliseconds (0 means the default of 60000). */
DIO_EXTERN int dio_scsi_set_timeout(dio_scsi *c, unsigned ms);

/**
 * Transfer mode (dio_scsi_xfer).  Returns 0, -EINVAL for an unknown mode
 * or DIO_SCSI_XFER_AUTO, or -ENOTSUP where this platform has no such mode
 * (then exec refuses with -ENOTSUP too).  On failure the mode in effect
 * does not change.
 */
DIO_EXTERN int dio_scsi_set_xfer(dio_scsi *c, int mode);

/**
 * Ask the driver to keep a reserved buffer of at least len bytes for
 * descriptor fd (Linux sg: SG_SET_RESERVED_SIZE, never shrinking it;
 * len 0 only reads the size, which also tells an sg device apart).
 * The sg driver serves indirect transfers that fit from this buffer and
 * maps it for DIO_SCSI_XFER_MMAP.  Returns the size reserved now, which
 * may be less than len (the driver caps it at the queue's largest
 * transfer), or -ENOTSUP where there is no reserved buffer (block
 * devices, illumos), or -EBUSY when the buffer is mapped and cannot
 * change, or another -errno.
 */
DIO_EXTERN int64_t dio_scsi_reserve(int fd, size_t len);

/**
 * Map the driver's reserved buffer of descriptor fd (Linux sg) for
 * DIO_SCSI_XFER_MMAP and return its address through *buf; len is rounded
 * to the page size and must not exceed the reserved buffer (the sg driver
 * is asked to grow it first; -ENOMEM with a detail if it cannot).  The
 * mapping is writable only when fd is open for writing.  Once an sg
 * descriptor has been mapped its reserved buffer cannot change size
 * again, so map the largest length first.  Unmapped by dio_scsi_free().
 * Returns 0 or -errno (-ENOTSUP where there is no such thing).
 */
DIO_EXTERN int dio_scsi_mmap_buf(dio_scsi *c, int fd, size_t len, void **buf);

/**
 * Execute the command on fd and wait for it.  Returns 0 when the command
 * was carried to the device and back (see dio_scsi_category()), or a
 * -errno: the OS could not submit it (-ENOTTY: fd is not a SCSI
 * pass-through device), the device type cannot do the transfer mode
 * (-ENOTSUP), or a setter recorded misuse (no CDB, a bad length...), with
 * a detail in dio_scsi_errdetail().
 */
DIO_EXTERN int dio_scsi_exec(dio_scsi *c, int fd);

/** What dio_scsi_exec_repeat() got done. */
struct dio_scsi_tally {
	uint64_t commands;   /**< repetitions that completed GOOD (or CONDITION MET) */
	uint64_t resid;      /**< their residuals, summed (bytes asked, not moved) */
	uint64_t not_direct; /**< of those, DIRECT asked and another path taken */
};

/**
 * Execute the command up to count times back to back on fd, as a timing
 * loop does: the object is checked and the OS request built once, and
 * each repetition is then only the system call and a look at its status,
 * with no clock read around it.  Stops early at the first repetition that
 * does not complete GOOD; the getters then describe that one (otherwise
 * the last).  *t (may be NULL) counts the repetitions that completed
 * GOOD.  Durations: each repetition's own is not measured, so
 * dio_scsi_duration_ns() is what the OS reports for the last one (Linux:
 * DIO_SCSI_TIME_KERNEL, whole milliseconds; illumos, which reports none,
 * measures it: DIO_SCSI_TIME_MEASURED); time the whole call instead.
 * Returns 0 when every repetition tried was carried to the device and
 * back (check dio_scsi_category() for the last), -EINVAL for count 0, or
 * a -errno as dio_scsi_exec() for the repetition that could not be
 * submitted (*t still counts those before it).
 */
DIO_EXTERN int dio_scsi_exec_repeat(dio_scsi *c, int fd, uint64_t count,
                                    struct dio_scsi_tally *t);

/*
 * Getters of the last executed command.  Before a command completed (new
 * object, after dio_scsi_clear() or a failed exec) the int getters return
 * -EINVAL, the others 0 / NULL.
 */

/** Category of the last executed command (dio_scsi_category). */
DIO_EXTERN int dio_scsi_category(const dio_scsi *c);
/** SCSI status byte of the last command. */
DIO_EXTERN int dio_scsi_status(const dio_scsi *c);
/** Host adapter status (Linux host_status; 0 where the OS has none). */
DIO_EXTERN int dio_scsi_host_status(const dio_scsi *c);
/** Driver status (Linux driver_status; 0 where the OS has none). */
DIO_EXTERN int dio_scsi_driver_status(const dio_scsi *c);
/** Bytes asked for but not transferred (residual). */
DIO_EXTERN int64_t dio_scsi_resid(const dio_scsi *c);
/** Sense bytes of the last command; *len gets their count (0 if none). */
DIO_EXTERN const uint8_t *dio_scsi_sense(const dio_scsi *c, size_t *len);
/** Duration of the last command in nanoseconds. */
DIO_EXTERN uint64_t dio_scsi_duration_ns(const dio_scsi *c);
/** How that duration was obtained (dio_scsi_time_source). */
DIO_EXTERN int dio_scsi_duration_source(const dio_scsi *c);
/**
 * The transfer mode really used by the last command: e.g. DIRECT asked
 * but INDIRECT done when the sg driver fell back (allow_dio off,
 * unaligned buffer...), which Linux reports with SG_INFO_DIRECT_IO; AUTO
 * where the OS chose and does not say (Linux block devices, illumos).
 * For a command without data it is the mode asked.
 */
DIO_EXTERN int dio_scsi_xfer_done(const dio_scsi *c);

/**
 * Detail of the last failure on the object (as dio_file_errdetail()).
 * dio_scsi_exec() and dio_scsi_clear() reset it, so after an exec it
 * describes that exec.
 */
DIO_EXTERN int dio_scsi_errdetail(const dio_scsi *c, char *buf, size_t len);

/** "good", "status", "sense", "transport". */
DIO_EXTERN const char *dio_scsi_category_name(int category);

/**
 * One line (no newline) saying how the last command on c ended, for
 * messages.  By dio_scsi_category():
 * - GOOD: "GOOD";
 * - SENSE: the decoded sense as dio_sense_str() writes it, e.g. "ILLEGAL
 *   REQUEST: invalid command operation code (asc 0x20 ascq 0x00)"; sense
 *   that does not decode gives "CHECK CONDITION with undecodable sense
 *   (N bytes, response code 0xRR)";
 * - STATUS: "status NAME (0xSS)", NAME from dio_scsi_status_name(), e.g.
 *   "status BUSY (0x08)";
 * - TRANSPORT: "transport error (host status 0xH, driver status 0xD)".
 * When no command completed (new or cleared object, or the last exec
 * failed with a -errno: the OS could not submit it, misuse...) it is the
 * detail of that failure as dio_scsi_errdetail() gives it, or "no command
 * completed" when there is none; "no command object" for c NULL.
 * Truncated to len bytes (always terminated when len > 0).  Returns buf.
 */
DIO_EXTERN char *dio_scsi_outcome_str(const dio_scsi *c, char *buf, size_t len);
/** "indirect", "direct", "no-copy", "mmap", "auto". */
DIO_EXTERN const char *dio_scsi_xfer_name(int mode);
/** "GOOD", "CHECK CONDITION", "BUSY", ...; "reserved" for others. */
DIO_EXTERN const char *dio_scsi_status_name(int status);

/* ---------------------------------------------------------- sense data */

/** Sense keys. */
enum dio_sense_key {
	DIO_SENSE_NO_SENSE        = 0x0,
	DIO_SENSE_RECOVERED_ERROR = 0x1,
	DIO_SENSE_NOT_READY       = 0x2,
	DIO_SENSE_MEDIUM_ERROR    = 0x3,
	DIO_SENSE_HARDWARE_ERROR  = 0x4,
	DIO_SENSE_ILLEGAL_REQUEST = 0x5,
	DIO_SENSE_UNIT_ATTENTION  = 0x6,
	DIO_SENSE_DATA_PROTECT    = 0x7,
	DIO_SENSE_BLANK_CHECK     = 0x8,
	DIO_SENSE_VENDOR_SPECIFIC = 0x9,
	DIO_SENSE_COPY_ABORTED    = 0xa,
	DIO_SENSE_ABORTED_COMMAND = 0xb,
	DIO_SENSE_VOLUME_OVERFLOW = 0xd,
	DIO_SENSE_MISCOMPARE      = 0xe,
	DIO_SENSE_COMPLETED       = 0xf
};

/**
 * Decoded sense data, fixed (70h/71h) or descriptor (72h/73h) format.
 * From descriptor format: the information (00h), command-specific
 * information (01h), sense-key specific (02h), stream commands (04h) and
 * block commands (05h, ILI) descriptors; others are skipped.
 */
struct dio_sense {
	uint8_t response_code; /**< 0x70..0x73                              */
	uint8_t descriptor;    /**< 1 for descriptor format                 */
	uint8_t deferred;      /**< 1 for deferred errors (71h/73h)         */
	uint8_t key;           /**< sense key (0..15)                       */
	uint8_t asc;           /**< additional sense code                   */
	uint8_t ascq;          /**< additional sense code qualifier         */
	uint8_t info_valid;    /**< information field present and valid     */
	uint8_t filemark, eom, ili; /**< fixed-format flags / stream commands descriptor */
	uint8_t sks_valid;     /**< sense-key specific bytes valid (SKSV)   */
	uint8_t sks[3];        /**< sense-key specific bytes, SKSV bit included */
	uint64_t info;         /**< information field (e.g. failing LBA)    */
	uint64_t cmd_info;     /**< command-specific information            */
	uint8_t cmd_info_valid; /**< cmd_info present (always in fixed format) */
	uint8_t fru;           /**< field replaceable unit code (fixed format) */
	uint8_t pad[2];
	uint32_t reserved[3];
};

/**
 * Decode len bytes of sense data.  Returns 0, or -EINVAL when there is no
 * recognisable sense (too short, unknown response code).  Fields the data
 * is too short to hold are left 0.
 */
DIO_EXTERN int dio_sense_decode(const uint8_t *sense, size_t len, struct dio_sense *out);

/** "NO SENSE", "NOT READY", "MEDIUM ERROR", "ILLEGAL REQUEST", ... */
DIO_EXTERN const char *dio_sense_key_name(int key);

/** Text of an ASC/ASCQ pair for the common ones, or NULL. */
DIO_EXTERN const char *dio_sense_asc_text(int asc, int ascq);

/**
 * One line describing the sense data, e.g. "ILLEGAL REQUEST: invalid
 * command operation code (asc 0x20 ascq 0x00)" plus the information field
 * when valid and the sense-key specific field when SKSV is set (field
 * pointer, progress indication...).  Returns buf.
 */
DIO_EXTERN char *dio_sense_str(const struct dio_sense *s, char *buf, size_t len);

/* ---------------------------------------------------------- CDB builders */

/*
 * Each builder writes a CDB into cdb (room for 16 bytes) and returns its
 * length, or -EINVAL when an argument does not fit the command.  Control
 * bytes and group numbers are 0.
 */

/** TEST UNIT READY (00h). */
DIO_EXTERN int dio_cdb_test_unit_ready(uint8_t *cdb);
/** INQUIRY (12h): standard data (evpd 0, page must be 0) or VPD page (evpd 1). */
DIO_EXTERN int dio_cdb_inquiry(uint8_t *cdb, int evpd, int page, uint16_t alloc_len);
/** READ CAPACITY(10) (25h). */
DIO_EXTERN int dio_cdb_read_capacity10(uint8_t *cdb);
/** READ CAPACITY(16) (9Eh/10h). */
DIO_EXTERN int dio_cdb_read_capacity16(uint8_t *cdb, uint32_t alloc_len);

/** READ BUFFER / WRITE BUFFER modes. */
enum dio_buffer_mode {
	DIO_BUF_MODE_DATA            = 0x02,
	DIO_BUF_MODE_DESCRIPTOR      = 0x03, /**< READ BUFFER only */
	DIO_BUF_MODE_ECHO            = 0x0a,
	DIO_BUF_MODE_ECHO_DESCRIPTOR = 0x0b  /**< READ BUFFER only */
};
/** READ BUFFER(10) (3Ch); mode is 5 bits (any), offset and len are 24-bit. */
DIO_EXTERN int dio_cdb_read_buffer(uint8_t *cdb, int mode, int buffer_id,
                                   uint32_t offset, uint32_t len);
/**
 * WRITE BUFFER (3Bh); only modes DATA and ECHO (the others download
 * microcode or activate it, which this library will not build).
 */
DIO_EXTERN int dio_cdb_write_buffer(uint8_t *cdb, int mode, int buffer_id,
                                    uint32_t offset, uint32_t len);
/** READ(10)/WRITE(10) (28h/2Ah); write != 0 for WRITE; fua sets FUA; blocks <= 65535. */
DIO_EXTERN int dio_cdb_rw10(uint8_t *cdb, int write, uint32_t lba, uint32_t blocks, int fua);
/** READ(16)/WRITE(16) (88h/8Ah). */
DIO_EXTERN int dio_cdb_rw16(uint8_t *cdb, int write, uint64_t lba, uint32_t blocks, int fua);
/** SYNCHRONIZE CACHE(10) (35h); blocks 0 means to the end; blocks <= 65535. */
DIO_EXTERN int dio_cdb_sync_cache10(uint8_t *cdb, uint32_t lba, uint32_t blocks, int immed);
/** SYNCHRONIZE CACHE(16) (91h). */
DIO_EXTERN int dio_cdb_sync_cache16(uint8_t *cdb, uint64_t lba, uint32_t blocks, int immed);
/**
 * MODE SENSE(10) (5Ah); page 0..3Fh, subpage 0..FFh, pc 0 current,
 * 1 changeable, 2 default, 3 saved; dbd disables block descriptors.
 */
DIO_EXTERN int dio_cdb_mode_sense10(uint8_t *cdb, int page, int subpage, int pc,
                                    int dbd, uint16_t alloc_len);

/* ------------------------------------------------------- response parsers */

/** Standard INQUIRY data, trimmed strings. */
struct dio_inquiry {
	uint8_t peripheral_type;   /**< 0 disk, 5 CD/DVD, ... (bits 4..0 of byte 0) */
	uint8_t qualifier;         /**< peripheral qualifier (bits 7..5; 3: no LUN here) */
	uint8_t removable;
	uint8_t version;
	char vendor[9];            /**< T10 vendor id, NUL-terminated */
	char product[17];
	char revision[5];
	uint32_t reserved[4];
};
/**
 * Parse standard INQUIRY data.  Returns 0 or -EINVAL if shorter than the
 * 8-byte header; strings cut short by len are kept as far as present.
 * Trailing blanks are removed and unprintable bytes become '?'.
 */
DIO_EXTERN int dio_parse_inquiry(const uint8_t *buf, size_t len, struct dio_inquiry *out);

/**
 * Parse READ CAPACITY(10) (8 bytes) or (16) (at least 12 bytes) data:
 * last LBA + 1 and block length; either output may be NULL.  Returns 0,
 * -EINVAL if too short, or -EOVERFLOW when READ CAPACITY(10) says
 * 0xFFFFFFFF (the capacity needs READ CAPACITY(16); *blocks is then set
 * to 2^32 and *block_len is still valid) or READ CAPACITY(16) says
 * 2^64 - 1 (*blocks is then UINT64_MAX).
 */
DIO_EXTERN int dio_parse_read_capacity(const uint8_t *buf, size_t len, int is16,
                                       uint64_t *blocks, uint32_t *block_len);

/**
 * Parse a READ BUFFER descriptor (mode 03h): offset boundary (as a power
 * of two exponent, 0xff meaning 0) and buffer capacity in bytes.
 * Returns 0 or -EINVAL if shorter than 4 bytes.
 */
DIO_EXTERN int dio_parse_buffer_descriptor(const uint8_t *buf, size_t len,
                                           unsigned *offset_boundary, uint32_t *capacity);

/**
 * Find the caching mode page (08h) in MODE SENSE(10) data and return WCE
 * and RCD through *wce and *rcd.  Returns 0, or -ENOENT if the page is
 * not there, -EINVAL if the data is malformed.
 */
DIO_EXTERN int dio_parse_caching_page(const uint8_t *buf, size_t len, int *wce, int *rcd);

/* ------------------------------------------------------------------ */
/* Device facts                                                       */
/* ------------------------------------------------------------------ */

/*
 * What the operating system knows about the device behind a path: the
 * request size limits, read-ahead, scheduler, cache and rotation of a
 * block device (for a file or directory: of the device holding its file
 * system), the SCSI generic (sg) node and driver settings that decide
 * whether sg direct I/O really happens, and on illumos the DKIOCINFO,
 * DKIOCGMEDIAINFOEXT and DKIOCGETWCE answers.  Nothing is written and no
 * SCSI command is sent: see the pass-through API for INQUIRY and friends.
 *
 * Convention: a number 0 and a string "" mean unknown (not reported by
 * this OS or this device).  Yes/no facts are dio_tri values, whose 0 is
 * unknown too.  The one number whose 0 is a real setting, read_ahead_kb,
 * is valid only when DIO_DEVINFO_K_READ_AHEAD is set in known.  Strings
 * are NUL-terminated and cut to their arrays.
 */

/** A yes/no fact that may be unknown. */
enum dio_tri {
	DIO_TRI_UNKNOWN = 0,
	DIO_TRI_NO      = 1,
	DIO_TRI_YES     = 2
};

/** What the path given to dio_devinfo() is. */
enum dio_devinfo_kind {
	DIO_DEVINFO_NONE  = 0, /**< nothing could be said                              */
	DIO_DEVINFO_FILE  = 1, /**< not a device: facts of the device holding its file system */
	DIO_DEVINFO_BLOCK = 2, /**< a block device (illumos: also its raw /dev/rdsk node) */
	DIO_DEVINFO_SG    = 3, /**< a SCSI generic character device (Linux sg)          */
	DIO_DEVINFO_CHAR  = 4  /**< another character device                           */
};

/** Bits of dio_devinfo.known. */
enum dio_devinfo_known {
	DIO_DEVINFO_K_READ_AHEAD = 1 << 0  /**< read_ahead_kb is valid (0: read-ahead off) */
};

/** Facts about a device; see dio_devinfo(). 0 / "" / DIO_TRI_UNKNOWN: unknown. */
struct dio_devinfo {
	uint32_t kind;           /**< dio_devinfo_kind of the path                   */
	uint32_t known;          /**< dio_devinfo_known bits                          */
	/**
	 * The block device the facts are about: the path given, or for a
	 * file the device holding its file system ("/dev/sda1"), or for an
	 * sg node the disk it belongs to; "" when there is none (tmpfs,
	 * ZFS, a tape's sg node...).
	 */
	char device[128];
	/**
	 * The whole disk whose queue has the settings ("/dev/sda" for
	 * /dev/sda1); illumos: the node the dkio ioctls were asked on (the
	 * raw /dev/rdsk twin of a mounted /dev/dsk slice).
	 */
	char disk[128];
	/** Kernel name of that disk ("sda", "loop0", "dm-0"; illumos "sd3"). */
	char name[32];
	/**
	 * Directory of the disk's tunable queue settings, in which
	 * max_sectors_kb, read_ahead_kb, scheduler... are files (Linux
	 * "/sys/block/sda/queue"); "" where there is none.
	 */
	char settings_dir[128];
	uint64_t size_bytes;     /**< capacity of device                              */
	uint32_t logical_block;  /**< logical block (sector) size in bytes            */
	uint32_t physical_block; /**< physical block size in bytes                    */
	uint32_t min_io;         /**< minimum I/O size the device prefers, bytes      */
	uint32_t optimal_io;     /**< optimal I/O size, bytes (0 also: none reported) */
	/** Buffer address alignment the queue needs for DMA, bytes (Linux dma_alignment + 1). */
	uint32_t dma_align;
	/**
	 * Largest request the block layer sends now, KiB (Linux
	 * max_sectors_kb, tunable; illumos DKIOCINFO dki_maxtransfer).
	 * Larger reads and writes are split into requests of this size.
	 */
	uint32_t max_sectors_kb;
	/** Largest request the driver and hardware allow, KiB (Linux max_hw_sectors_kb). */
	uint32_t max_hw_sectors_kb;
	uint32_t max_segments;   /**< scatter-gather segments per request            */
	uint32_t read_ahead_kb;  /**< read-ahead, KiB; valid with DIO_DEVINFO_K_READ_AHEAD */
	uint32_t nr_requests;    /**< requests the queue holds (per hardware queue)   */
	uint32_t rotational;     /**< dio_tri: a spinning disk (illumos: not DKIOCSOLIDSTATE) */
	/**
	 * dio_tri: a volatile write cache is on (Linux write_cache "write
	 * back", illumos DKIOCGETWCE); NO: "write through" / disabled.
	 */
	uint32_t write_cache;
	uint32_t fua;            /**< dio_tri: the device takes FUA (forced unit access) writes */
	uint32_t removable;      /**< dio_tri: removable medium                      */
	uint32_t read_only;      /**< dio_tri: the device is read-only               */
	char scheduler[32];      /**< I/O scheduler in use ("none", "mq-deadline")  */
	char schedulers[128];    /**< schedulers offered, space-separated           */
	/** Identity udev rules can match: the udev database's ID_SERIAL. */
	char id_serial[128];
	/**
	 * World wide identifier (Linux sysfs wwid of a SCSI device or an
	 * NVMe namespace), trailing blanks removed.
	 */
	char wwid[128];
	char scsi_addr[32];      /**< SCSI host:channel:target:lun ("2:0:1:0")         */
	/** The sg node of the device ("/dev/sg2"); for an sg path, the path itself. */
	char sg_device[32];
	uint32_t sg_driver;      /**< dio_tri: the sg driver is present (loaded or built in) */
	uint32_t sg_module;      /**< dio_tri: YES sg is a loadable module, NO built into the kernel */
	/**
	 * dio_tri: the sg driver's allow_dio: NO means that sg requests
	 * asking for direct I/O (SG_FLAG_DIRECT_IO) silently use indirect
	 * I/O instead.
	 */
	uint32_t allow_dio;
	char allow_dio_path[64]; /**< the file allow_dio was read from (it is also set there) */
	uint32_t sg_version;     /**< sg driver version as a number: 30536 is 3.5.36 */
	/** A loop device's backing file. */
	char loop_backing[256];
	/** dio_tri: the loop driver reads and writes its backing file with direct I/O. */
	uint32_t loop_direct;
	char controller[32];     /**< illumos DKIOCINFO: controller name and number ("ahci0") */
	uint32_t media_type;     /**< illumos DKIOCGMEDIAINFOEXT dki_media_type       */
	/**
	 * dio_tri, for a file: its file system accepts direct I/O advice and
	 * ignores it (illumos ZFS answers directio() with success and keeps
	 * every read and write in its cache).
	 */
	uint32_t direct_ignored;
	/**
	 * dio_tri, for a file: its file system acknowledges fsync(),
	 * fdatasync() and O_SYNC/O_DSYNC writes without making anything
	 * durable (ZFS sync=disabled, read with zfs get).
	 */
	uint32_t sync_disabled;
	/**
	 * dio_tri: every write is committed before it returns, so writes
	 * without a commit are commits too (ZFS sync=always, for a file or
	 * a zvol).
	 */
	uint32_t sync_always;
	/**
	 * dio_tri: a commit through libdirectio (dio_commit(), a write on a
	 * DIO_SYNC_DATA or DIO_SYNC_FULL handle) makes the device flush its
	 * volatile write cache.  YES: the kernel sends the flush, or
	 * libdirectio does (illumos disk and zvol nodes, see dio_commit());
	 * NO: nothing sends one (illumos UFS; a ramdisk, which is memory), so
	 * with write_cache YES a power cut can lose what commits
	 * acknowledged; UNKNOWN: not known here (a file on Linux: the file
	 * system decides, and a mount option can turn its flushes off; an
	 * illumos lofi node, whose writes end in its backing file's fsync).
	 */
	uint32_t commit_flush;
	/**
	 * dio_tri, for a file: a direct write is a stable write, committed
	 * by the server before it is answered (illumos NFS sends direct
	 * writes as FILE_SYNC), so a direct write without a commit is one.
	 */
	uint32_t direct_stable;
	uint32_t reserved[27];   /**< zero; room to grow without breaking the ABI     */
};

/**
 * Fill *out with what the OS says about the device behind path: a block
 * device, an sg or other character device, or for a file or directory
 * the block device holding its file system (found by its device number;
 * on Linux also through the mount's source, as for btrfs).  Facts are
 * read from the kernel (Linux: sysfs and SG_GET_VERSION_NUM; illumos:
 * DKIOCINFO, DKIOCGMEDIAINFOEXT, DKIOCEXTPARTINFO, DKIOCGETWCE,
 * DKIOCSOLIDSTATE, DKIOCREMOVABLE, DKIOCREADONLY, on the raw /dev/rdsk
 * twin of a /dev/dsk node).  Devices are opened read-only and
 * non-blocking.  On Linux nothing is sent to them; on illumos the sd
 * driver answers some of those ioctls by asking the device (TEST UNIT
 * READY and READ CAPACITY for DKIOCGMEDIAINFOEXT, MODE SENSE for
 * DKIOCGETWCE and DKIOCREADONLY), which can clear a pending unit
 * attention.  For a file on ZFS, illumos runs zfs(8) get to read the
 * dataset's sync property (sync_disabled).
 *
 * Returns 0, even when most facts are unknown (a file on tmpfs has no
 * device; /dev/null has no queue); -ENOENT, -EACCES... when path cannot
 * be examined; -ENOTSUP where the platform gives no device facts (the
 * posix backend), with kind still set.  *out is always zeroed first.
 */
DIO_EXTERN int dio_devinfo(const char *path, struct dio_devinfo *out);

/** "none", "file", "block device", "sg device" or "character device". */
DIO_EXTERN const char *dio_devinfo_kind_name(int kind);

/** "unknown", "no" or "yes". */
DIO_EXTERN const char *dio_tri_name(int tri);

/* Block-layer counters                                               */
/* ------------------------------------------------------------------ */

/*
 * What reached the disks under a path, as the kernel's block layer counts
 * it: write requests, sectors written and cache flushes.  A caller reads
 * the counters before and after some work and takes the difference
 * (dio_disk_counts_diff()) to learn what the work cost the devices: how
 * many flushes a commit sent, how many bytes a transaction really wrote.
 * Linux: /sys/block/NAME/stat (Documentation/block/stat.rst); flushes
 * are counted from Linux 5.5.  Other systems: -ENOTSUP with the reason.
 */

/** Bits of dio_disk_counts.have: which counters the kernel gave. */
enum dio_counts_have {
	DIO_COUNTS_IO    = 1 << 0, /**< reads and writes: ios, merges, sectors, ms */
	DIO_COUNTS_FLUSH = 1 << 1  /**< flush_ios and flush_ms (Linux 5.5 and later) */
};

/** One disk's block-layer counters at one moment; see dio_disks_read(). */
struct dio_disk_counts {
	uint32_t have;            /**< dio_counts_have bits; 0: none (err, note say why) */
	int32_t err;              /**< 0, or the -errno of reading them               */
	uint64_t at_ns;           /**< CLOCK_MONOTONIC, ns, when they were read        */
	uint64_t read_ios;        /**< read requests completed                         */
	uint64_t read_sectors;    /**< 512-byte sectors read                           */
	/**
	 * Write requests completed, FUA writes included.  Linux also counts
	 * each cache-flush request that carries no data (an fsync's flush) as
	 * a write of 0 sectors, so a 4 KiB write and its fdatasync() count 2.
	 */
	uint64_t write_ios;
	uint64_t write_merges;    /**< writes merged into others before they were sent */
	uint64_t write_sectors;   /**< 512-byte sectors written                        */
	uint64_t write_ms;        /**< ms writes spent in the queue and the device     */
	/**
	 * Cache flushes sent to the device and completed; flushes that the
	 * block layer merged (commits of several writers at once) count once.
	 */
	uint64_t flush_ios;
	uint64_t flush_ms;        /**< ms spent on them                                */
	uint64_t in_flight;       /**< requests in flight when read                    */
	/** Why counters are missing ("the stat file has 11 fields: no flush counts before Linux 5.5"); "" when none is. */
	char note[120];
	uint64_t reserved[4];     /**< zero                                            */
};

/** A disk under a path; see dio_disks_open(). */
struct dio_disk {
	char name[32];            /**< kernel name ("sda", "nvme0n1", "vda")          */
	char device[64];          /**< its node ("/dev/sda"), "" when unknown          */
	/**
	 * How the path leads to it, each step's kernel name or file
	 * ("sda1 > sda", "dm-0 > sdb", "loop0 > /srv/disk.img > vda2 > vda").
	 */
	char via[256];
	/** dio_tri: the kernel treats its cache as volatile (Linux queue/write_cache "write back") and sends commits' flushes to it. */
	uint32_t write_cache;
	/**
	 * dio_tri: the device itself reports a volatile write cache (Linux:
	 * a SCSI disk's cache_type, from its caching mode page; UNKNOWN for
	 * other devices).  YES with write_cache NO: the kernel was told the
	 * cache is write-through and sends no flush to a cache that loses
	 * data on a power cut.
	 */
	uint32_t device_cache;
	uint32_t fua;             /**< dio_tri: the kernel sends FUA writes to it (queue/fua) */
	uint32_t rotational;      /**< dio_tri: a spinning disk                        */
	uint32_t reserved[8];     /**< zero                                            */
};

/** The disks under a path, their counter files held open. */
typedef struct dio_disks dio_disks;

/** Most disks dio_disks_open() follows under one path. */
#define DIO_DISKS_MAX 64

/**
 * Find the disks whose counters show the I/O to path: a block device is
 * its whole disk (a partition's disk); a file or directory, the device
 * holding its file system (as dio_devinfo() finds it).  Linux follows a
 * device-mapper, multipath or md device to the disks under it
 * (slaves/), and a loop device to the disks of its backing file, to the
 * bottom.  Returns 0 with *dp set (release with dio_disks_close()), or a
 * -errno with *dp NULL and why (len bytes; NULL allowed) saying what was
 * wrong: -ENODEV "no local disk" for a file on tmpfs, ramfs, NFS, FUSE
 * and the like (naming the file system); -ENOENT, -EACCES... for a path
 * that cannot be examined; -ENOTSUP where the system keeps no such
 * counters or this library does not read them (illumos, the posix
 * backend); -ELOOP for a loop device that leads back to itself (or more
 * than 16 layers); -E2BIG past DIO_DISKS_MAX disks; -EINVAL for a kernel
 * name that is not a plain file name.  A character device (an sg node)
 * is -ENODEV: the block layer does not count its I/O.
 */
DIO_EXTERN int dio_disks_open(dio_disks **dp, const char *path, char *why, size_t len);

/** The number of disks found (at least 1). */
DIO_EXTERN unsigned dio_disks_count(const dio_disks *d);

/** Disk i (0 .. dio_disks_count() - 1), or NULL out of range. */
DIO_EXTERN const struct dio_disk *dio_disks_get(const dio_disks *d, unsigned i);

/**
 * Read every disk's counters now into out[0 .. n-1] (n at least
 * dio_disks_count(), else -EINVAL).  Each is read on its own: one that
 * cannot be read, or lacks fields, has its err, have and note set, and
 * the others are still read.  Returns the number of disks whose write
 * counters were read, or -EINVAL.  Cheap enough to call around every
 * transaction: the files stay open and each read is one pread().
 */
DIO_EXTERN int dio_disks_read(dio_disks *d, struct dio_disk_counts *out, unsigned n);

/** Release d (NULL is a no-op). */
DIO_EXTERN void dio_disks_close(dio_disks *d);

/**
 * *delta = *after - *before, field by field, with have the bits both
 * share and at_ns the interval (in_flight, a level, is *after's).  On
 * failure delta has have 0, err and note set (note: why, also when why
 * is NULL).  Returns 0, -EINVAL for a NULL argument, or -ERANGE (why:
 * "counters went backwards: ...", as when the disk was removed and
 * added again between the reads) or -ENODATA (why: the note of a read
 * that failed or lacks the write counters); a flush counter missing from either
 * leaves DIO_COUNTS_FLUSH out of delta->have and its note says why.
 */
DIO_EXTERN int dio_disk_counts_diff(const struct dio_disk_counts *before,
                                    const struct dio_disk_counts *after,
                                    struct dio_disk_counts *delta, char *why, size_t len);

/* Zero-copy discard reads                                            */
/* ------------------------------------------------------------------ */

/**
 * Read len bytes of fd at offset off into the kernel and throw them away
 * without copying them to user memory: the "no-copy" read that measures a
 * device or the page cache without the cost of the user copy.  Linux:
 * sendfile() to /dev/null (the page-cache pages are passed by reference
 * and dropped; a descriptor of /dev/null is opened on the first call,
 * close-on-exec, and kept), or splice() through a pipe where sendfile()
 * refuses the descriptor.  The file offset of fd is not used or changed.
 * Short counts and EINTR are retried; returns the bytes read (< len only
 * at end of file) or a -errno; -ENOTSUP where the platform has no such
 * path (illumos, the posix backend).
 */
DIO_EXTERN int64_t dio_read_discard(int fd, int64_t off, size_t len);

/* ------------------------------------------------------------------ */
/* Asynchronous I/O queue                                             */
/* ------------------------------------------------------------------ */

/*
 * A small queue of asynchronous positional reads and writes on plain
 * descriptors (those of dio_file_fd() included, so direct I/O works).
 * Engines:
 *  - io_uring (Linux, when configure found liburing): requests are
 *    queued by dio_aio_read()/dio_aio_write() and handed to the kernel in
 *    one system call by dio_aio_submit() or dio_aio_wait();
 *  - POSIX AIO (aio_read/aio_write/aio_suspend: glibc, illumos libc):
 *    each request starts when it is queued.  glibc implements it with
 *    threads in user space, so it is the portable fallback, not the fast
 *    path.
 * A queue is used by one thread at a time.  Requests are never retried:
 * a completion carries the raw result of one read or write (short counts
 * are possible, 0 at end of file).
 */
typedef struct dio_aio dio_aio;

/** Engines for dio_aio_new(). */
enum dio_aio_engine {
	DIO_AIO_AUTO     = 0, /**< io_uring where it works, else POSIX AIO */
	DIO_AIO_IO_URING = 1, /**< Linux io_uring (through liburing)       */
	DIO_AIO_POSIX    = 2  /**< POSIX aio_read/aio_write/aio_suspend    */
};

/** Largest queue depth dio_aio_new() accepts. */
#define DIO_AIO_DEPTH_MAX 4096

/** One completed request. */
struct dio_aio_event {
	uint64_t tag;    /**< the tag given when the request was queued      */
	int64_t result;  /**< bytes transferred (may be short), or a -errno  */
};

/**
 * Engines compiled into this build, as a mask of (1 << dio_aio_engine)
 * bits (DIO_AIO_AUTO's bit is never set).  A compiled-in engine may still
 * fail at dio_aio_new() time (io_uring disabled by the kernel, seccomp).
 */
DIO_EXTERN unsigned dio_aio_engines(void);

/**
 * New queue for up to depth requests in flight (1 to DIO_AIO_DEPTH_MAX)
 * with the given engine (dio_aio_engine).  DIO_AIO_AUTO takes io_uring
 * and falls back to POSIX AIO when io_uring is not compiled in or the
 * kernel refuses it (the reason goes to the log callback at INFO level;
 * dio_aio_engine() tells which ran).  Returns the queue, or NULL with
 * *err (may be NULL) set: -EINVAL for a bad depth or engine, -ENOTSUP
 * when the engine does not exist in this build, -ENOMEM, or the error of
 * setting the engine up.
 */
DIO_EXTERN dio_aio *dio_aio_new(unsigned depth, int engine, int *err);

/**
 * Wait for every request still in flight (their results are dropped),
 * then free the queue.  NULL is a no-op.
 */
DIO_EXTERN void dio_aio_free(dio_aio *q);

/** The engine a queue runs on (DIO_AIO_IO_URING or DIO_AIO_POSIX). */
DIO_EXTERN int dio_aio_engine(const dio_aio *q);

/** "auto", "io_uring" or "posix-aio"; "unknown" for others. */
DIO_EXTERN const char *dio_aio_engine_name(int engine);

/** The depth given to dio_aio_new(). */
DIO_EXTERN unsigned dio_aio_depth(const dio_aio *q);

/** Requests queued or running whose completion was not yet returned. */
DIO_EXTERN unsigned dio_aio_inflight(const dio_aio *q);

/**
 * Queue a read of len bytes at offset off of fd into buf; tag comes back
 * with its completion.  buf must stay valid, and untouched, until then.
 * Returns 0, -EAGAIN when depth requests are in flight (reap some with
 * dio_aio_wait() first), -EINVAL for a negative offset or a NULL buffer,
 * or the error of starting it (POSIX AIO starts it here).
 */
DIO_EXTERN int dio_aio_read(dio_aio *q, int fd, void *buf, size_t len, int64_t off,
                            uint64_t tag);

/** The same for a write of len bytes from buf. */
DIO_EXTERN int dio_aio_write(dio_aio *q, int fd, const void *buf, size_t len,
                             int64_t off, uint64_t tag);

/**
 * Hand queued requests to the kernel without waiting (io_uring; POSIX AIO
 * has nothing pending).  Returns the number submitted or a -errno.
 */
DIO_EXTERN int dio_aio_submit(dio_aio *q);

/**
 * Submit what is queued, then wait until at least min requests have
 * completed (min may be 0: only collect what is already done) and store
 * up to max completions in ev.  min is capped at the number in flight
 * and at max.  Returns the number stored, or a -errno: -EINTR when a
 * signal arrived before any completion (the requests stay in flight).
 */
DIO_EXTERN int dio_aio_wait(dio_aio *q, struct dio_aio_event *ev, unsigned max,
                            unsigned min);

#ifdef __cplusplus
}
#endif

#endif /* LIBDIRECTIO_H */
