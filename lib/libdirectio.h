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
 *  - The only global mutable state is the log callback.  Distinct handles
 *    may be used from distinct threads freely; one handle may be shared by
 *    several threads for dio_pread()/dio_pwrite()/dio_commit() (they are
 *    positional), but dio_close() must not race with other calls on it.
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
#define DIO_VERSION_MINOR 1
#define DIO_VERSION_PATCH 0
/** 0xMMmmpp: compare with DIO_VERSION_HEX >= 0x000100 in #if. */
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
	DIO_CAP_GET_DIRECT    = 1 << 8  /**< direct I/O state of an fd can be read back */
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
	DIO_MECH_DIRECTIO = 2  /**< directio(fd, DIRECTIO_ON) advice (Solaris) */
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
 * buffered instead; dio_file_direct() then returns DIO_MECH_NONE.  On
 * Solaris/illumos directio() is advice: the file system may still buffer
 * individual requests that break its rules (see dio_align_fd()).
 *
 * On failure *fp is NULL.  The reason is in the return value; since there
 * is no handle, a detail string goes to the log callback.
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
 * then left as it was), or another -errno.
 */
DIO_EXTERN int dio_file_set_direct(dio_file *f, int direct);

/**
 * Turn direct I/O on (on != 0) or off on a raw descriptor: Linux
 * fcntl(F_SETFL, O_DIRECT), Solaris/illumos directio(DIRECTIO_ON/OFF).
 * Returns the dio_mech now in effect, -ENOTSUP if the file system (or
 * this platform) has no direct I/O, or another -errno.
 */
DIO_EXTERN int dio_fd_set_direct(int fd, int on);

/**
 * Read back whether direct I/O is on for a raw descriptor: returns the
 * dio_mech in effect, or -ENOTSUP where the OS cannot tell (directio()
 * advice cannot be queried; see DIO_CAP_GET_DIRECT).
 */
DIO_EXTERN int dio_fd_get_direct(int fd);

/** "O_DIRECT", "directio()" or "none". */
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
 * here.  Returns 0 or a -errno.
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
	uint32_t reserved[8];    /**< zero; room to grow without breaking the ABI     */
};

/**
 * Fill *a for an open descriptor.  Linux: statx STATX_DIOALIGN where the
 * kernel reports it, BLKSSZGET/BLKPBSZGET/BLKIOOPT for block devices, the
 * backing device's sizes from sysfs, then the page size as a guess.
 * illumos: DKIOCGMEDIAINFOEXT for devices, UFS directio rules for files.
 * Returns 0 or a -errno.
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
 * Whether the block or character device at path is in use: mounted (its
 * own file system or one on a partition/slice of it), active swap, or held
 * exclusively by another driver (RAID, device-mapper).  Returns 1 when in
 * use, with a reason such as "mounted on /mnt (ext4)" in why (len bytes,
 * may be 0), 0 when not, -ENOTBLK when path is not a device, -ENOTSUP
 * where the platform gives no way to tell, or another -errno.  Tools that
 * write to devices refuse unless this returns 0.
 */
DIO_EXTERN int dio_device_in_use(const char *path, char *why, size_t len);

/** "statx", "blkdev", "fs-rule", "guess" or "none". */
DIO_EXTERN const char *dio_align_source_name(int source);

/**
 * Allocate len bytes aligned to align (a power of two; 0 means the page
 * size, which suits direct I/O everywhere).  Returns NULL on failure.
 * Free with dio_free().
 */
DIO_EXTERN void *dio_alloc(size_t len, size_t align);

/** Free memory from dio_alloc(); NULL is a no-op. */
DIO_EXTERN void dio_free(void *p);

#ifdef __cplusplus
}
#endif

#endif /* LIBDIRECTIO_H */
