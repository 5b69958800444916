/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * names.c -- words for values: the names of the public enums (mechanism,
 * sync level, sync flag, commit method, alignment source, SCSI transfer
 * mode: the backends use that one), the sentences
 * of the direct-I/O limit bits, and dio__kind_name() for what a stat()
 * says a path is.  Pure tables: nothing here calls anything.
 */
#include "config.h"

#include <sys/stat.h>

#include "internal.h"

const char *
dio__kind_name(const struct stat *st)
{
	if (S_ISREG(st->st_mode))
		return "a regular file";
	if (S_ISDIR(st->st_mode))
		return "a directory";
	if (S_ISBLK(st->st_mode))
		return "a block device";
	if (S_ISCHR(st->st_mode))
		return "a character device";
	if (S_ISFIFO(st->st_mode))
		return "a pipe";
	if (S_ISSOCK(st->st_mode))
		return "a socket";
	return "not a device";
}

const char *
dio_mech_name(int mech)
{
	switch (mech) {
	case DIO_MECH_NONE:     return "none";
	case DIO_MECH_O_DIRECT: return "O_DIRECT";
	case DIO_MECH_DIRECTIO: return "directio()";
	case DIO_MECH_RAW:      return "raw device";
	case DIO_MECH_FORCED:   return "forcedirectio";
	}
	return "invalid";
}

const char *
dio_direct_limit_text(unsigned bit)
{
	switch (bit) {
	case DIO_DLIM_SYNC_EXTEND:
		return "O_SYNC/O_DSYNC writes that extend the file are buffered";
	case DIO_DLIM_SYNC_HOLES:
		return "O_SYNC/O_DSYNC writes are buffered while the file has a hole";
	case DIO_DLIM_MAPPED:
		return "requests are buffered while the file is mapped (mmap)";
	case DIO_DLIM_CACHED:
		return "requests are buffered while the file has cached pages that "
		       "cannot be dropped";
	case DIO_DLIM_CACHED_ANY:
		return "requests are buffered while the file has any cached page "
		       "(clean pages are not dropped)";
	}
	return NULL;
}

const char *
dio_sync_name(int sync)
{
	switch (sync) {
	case DIO_SYNC_NONE: return "none";
	case DIO_SYNC_DATA: return "data";
	case DIO_SYNC_FULL: return "full";
	}
	return "invalid";
}

const char *
dio_sync_flag_name(int flag)
{
	switch (flag) {
	case DIO_SYNCFLAG_NONE:    return "none";
	case DIO_SYNCFLAG_O_DSYNC: return "O_DSYNC";
	case DIO_SYNCFLAG_O_SYNC:  return "O_SYNC";
	}
	return "invalid";
}

const char *
dio_commit_name(int method)
{
	switch (method) {
	case DIO_COMMIT_NONE:      return "none";
	case DIO_COMMIT_FDATASYNC: return "fdatasync";
	case DIO_COMMIT_FSYNC:     return "fsync";
	case DIO_COMMIT_RWF_DSYNC: return "rwf-dsync";
	}
	return "invalid";
}

const char *
dio_align_source_name(int source)
{
	switch (source) {
	case DIO_ALIGN_SRC_NONE:   return "none";
	case DIO_ALIGN_SRC_STATX:  return "statx";
	case DIO_ALIGN_SRC_BLKDEV: return "blkdev";
	case DIO_ALIGN_SRC_FSRULE: return "fs-rule";
	case DIO_ALIGN_SRC_GUESS:  return "guess";
	}
	return "invalid";
}

const char *
dio_scsi_xfer_name(int mode)
{
	switch (mode) {
	case DIO_SCSI_XFER_INDIRECT: return "indirect";
	case DIO_SCSI_XFER_DIRECT:   return "direct";
	case DIO_SCSI_XFER_NO_COPY:  return "no-copy";
	case DIO_SCSI_XFER_MMAP:     return "mmap";
	case DIO_SCSI_XFER_AUTO:     return "auto";
	}
	return "invalid";
}
