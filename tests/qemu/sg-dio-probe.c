/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sg-dio-probe.c -- ask the Linux sg driver for direct I/O and report
 * whether it was done (SG_INFO_DIRECT_IO), for libdirectio's qemu tests.
 *
 * usage: sg-dio-probe [-r|-b] [-n BYTES] [-a ALIGN] [-m MISALIGN] /dev/sgN
 *   -r  READ(10) of BYTES from LBA 0 (default)
 *   -b  READ BUFFER mode 02h (data) of BYTES
 *   -n  transfer length (default 65536)
 *   -a  buffer alignment (default: the page size)
 *   -m  add this many bytes to the aligned buffer address (default 0)
 * Prints one line:
 *   status=0x00 host=0x0000 driver=0x0000 resid=0 info=0x2 direct=yes
 * Exit status: 0 the command succeeded (direct or not), 1 it failed,
 * 2 usage or system error.
 */
#if !defined(_GNU_SOURCE)
#define _GNU_SOURCE 1
#endif
#include <errno.h>
#include <fcntl.h>
#include <scsi/sg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static int usage(void)
{
	fputs("usage: sg-dio-probe [-r|-b] [-n BYTES] [-a ALIGN] "
	    "[-m MISALIGN] /dev/sgN\n", stderr);
	return 2;
}

int main(int argc, char **argv)
{
	unsigned char cdb[10], sense[32];
	unsigned long len = 65536, align = 0, mis = 0;
	int opt, fd, readbuf = 0;
	sg_io_hdr_t h;
	void *mem;

	while ((opt = getopt(argc, argv, "rbn:a:m:")) != -1) {
		switch (opt) {
		case 'r': readbuf = 0; break;
		case 'b': readbuf = 1; break;
		case 'n': len = strtoul(optarg, NULL, 0); break;
		case 'a': align = strtoul(optarg, NULL, 0); break;
		case 'm': mis = strtoul(optarg, NULL, 0); break;
		default: return usage();
		}
	}
	if (optind + 1 != argc || len == 0 || len > 0xFFFFFF)
		return usage();
	if (align == 0)
		align = (unsigned long)sysconf(_SC_PAGESIZE);
	if (posix_memalign(&mem, align, len + mis) != 0) {
		perror("posix_memalign");
		return 2;
	}
	fd = open(argv[optind], O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "sg-dio-probe: %s: %s\n", argv[optind],
		    strerror(errno));
		return 2;
	}
	memset(cdb, 0, sizeof cdb);
	if (readbuf) {
		cdb[0] = 0x3C;
		cdb[1] = 0x02;
		cdb[6] = (unsigned char)(len >> 16);
		cdb[7] = (unsigned char)(len >> 8);
		cdb[8] = (unsigned char)len;
	} else {
		unsigned long blocks = len / 512;
		if (len % 512 || blocks > 0xFFFF) {
			fputs("sg-dio-probe: -r wants a multiple of 512 below "
			    "32 MiB\n", stderr);
			return 2;
		}
		cdb[0] = 0x28;
		cdb[7] = (unsigned char)(blocks >> 8);
		cdb[8] = (unsigned char)blocks;
	}
	memset(&h, 0, sizeof h);
	h.interface_id = 'S';
	h.dxfer_direction = SG_DXFER_FROM_DEV;
	h.cmd_len = sizeof cdb;
	h.cmdp = cdb;
	h.mx_sb_len = sizeof sense;
	h.sbp = sense;
	h.dxfer_len = (unsigned)len;
	h.dxferp = (unsigned char *)mem + mis;
	h.timeout = 20000;
	h.flags = SG_FLAG_DIRECT_IO;
	if (ioctl(fd, SG_IO, &h) < 0) {
		fprintf(stderr, "sg-dio-probe: SG_IO: %s\n", strerror(errno));
		return 2;
	}
	printf("status=0x%02x host=0x%04x driver=0x%04x resid=%d info=0x%x "
	    "direct=%s\n", h.status, h.host_status, h.driver_status,
	    h.resid, h.info,
	    (h.info & SG_INFO_DIRECT_IO_MASK) == SG_INFO_DIRECT_IO ?
	    "yes" : "no");
	close(fd);
	free(mem);
	return h.status == 0 && h.host_status == 0 &&
	    (h.driver_status & 0x0F) == 0 ? 0 : 1;
}
