/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sys/scsi/impl/uscsi.h -- TEST DOUBLE (tests/illumos) of uscsi(4I):
 * struct uscsi_cmd with illumos' field names and types, the flags and
 * USCSICMD as in illumos-gate usr/src/uts/common/sys/scsi/impl/uscsi.h
 * (367731f), written anew.  tests/illumos/double.c answers USCSICMD.
 */
#ifndef DIO_DBL_USCSI_H
#define DIO_DBL_USCSI_H

#include <sys/illumos_types.h>

struct uscsi_cmd {
	int uscsi_flags;
	short uscsi_status;             /* SCSI status the driver wrote     */
	short uscsi_timeout;            /* seconds                          */
	caddr_t uscsi_cdb;
	caddr_t uscsi_bufaddr;
	size_t uscsi_buflen;
	size_t uscsi_resid;
	uchar_t uscsi_cdblen;
	uchar_t uscsi_rqlen;            /* size of uscsi_rqbuf              */
	uchar_t uscsi_rqstatus;         /* status of the request sense      */
	uchar_t uscsi_rqresid;          /* rqlen minus sense bytes returned */
	caddr_t uscsi_rqbuf;
	ulong_t uscsi_path_instance;
};

#define USCSI_SILENT    0x00000001
#define USCSI_DIAGNOSE  0x00000002
#define USCSI_ISOLATE   0x00000004
#define USCSI_READ      0x00000008
#define USCSI_WRITE     0x00000000
#define USCSI_RQENABLE  0x00010000

#define USCSIIOC        (0x04 << 8)
#define USCSICMD        (USCSIIOC | 201)

#endif
