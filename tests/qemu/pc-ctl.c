/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pc-ctl.c -- send tcmu-ramdisk's power control command (the vendor
 * opcode C1h, see tcmu-ramdisk.c) through the Linux sg driver, for the
 * qemu tests' power cuts (tests/qemu/powercut.sh).
 *
 * usage: pc-ctl /dev/sgN cut [KEEP [SEED]]   cut the disk's power, KEEP%
 *                                            (0-100, default 0) of the
 *                                            dirty blocks persisting; SEED
 *                                            (0-4294967295, default 0);
 *                                            prints the disk's answer:
 *                                            "DIRTY PERSISTED LOST" blocks
 *        pc-ctl /dev/sgN drop /dev/sdX       the guest's side only: drop
 *                                            its caches of the disk (no
 *                                            command to the disk)
 *        pc-ctl /dev/sgN on [/dev/sdX]       bring the disk's power back;
 *                                            with the disk's block device,
 *                                            drop the guest's caches of it
 *                                            before and after (a whole
 *                                            machine's power-on: pc_on in
 *                                            powercut.sh)
 *        pc-ctl /dev/sgN lie 0|1             lying mode off/on
 *        pc-ctl /dev/sgN status              log the handler's state
 * The command completes after the handler has acted.  The two effects of
 * a real power cut are apart: `cut` is the disk's (its volatile cache
 * loses what was not flushed), `drop` the guest's (what the machine held
 * in RAM is gone: dirty pages written against a disk without power fail,
 * clean ones are read again); `on SD` is both, in one program.
 *
 * It does what `sg_raw /dev/sgN c1 ...` does; the guest runs it at every
 * cut, and a static program starts in a few milliseconds under qemu's
 * software CPU where a dynamically linked one takes tens (run-guest.sh
 * links it statically where the C library allows).
 *
 * Exit status: 0 done; 1 the command failed (its status and sense are
 * printed); 2 usage or system error.
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
#include <sys/mount.h>
#include <unistd.h>

static int usage(void)
{
	fputs("usage: pc-ctl /dev/sgN cut [KEEP [SEED]] | drop /dev/sdX | "
	    "on [/dev/sdX] |\n              lie 0|1 | status\n", stderr);
	return 2;
}

/*
 * Drop what the guest caches of the block device sd: its buffers
 * (BLKFLSBUF, which first writes the dirty ones: against a dead disk they
 * fail, as they would if the host's RAM had gone too), then every dirty
 * page (sync) and the page cache (drop_caches).  What blockdev
 * --flushbufs, sync and echo 3 >/proc/sys/vm/drop_caches did, without
 * three more programs at every cut; like them, best effort.
 */
static void drop_caches(const char *sd)
{
	int fd;

	fd = open(sd, O_RDONLY);
	if (fd >= 0) {
		if (ioctl(fd, BLKFLSBUF, 0) < 0)
			fprintf(stderr, "pc-ctl: BLKFLSBUF on %s: %s\n", sd,
			    strerror(errno));
		close(fd);
	} else {
		fprintf(stderr, "pc-ctl: %s: %s\n", sd, strerror(errno));
	}
	sync();
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
	if (fd < 0 || write(fd, "3\n", 2) != 2)
		fprintf(stderr, "pc-ctl: drop_caches: %s\n", strerror(errno));
	if (fd >= 0)
		close(fd);
}

/* A decimal number in [0, max], or -1. */
static long long number(const char *s, unsigned long long max)
{
	unsigned long long v = 0;

	if (*s == '\0')
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (unsigned)(*s - '0');
		if (v > max)
			return -1;
	}
	return (long long)v;
}

int main(int argc, char **argv)
{
	unsigned char cdb[10], sense[32], answer[24];
	long long keep = 0, seed = 0;
	const char *sd = NULL;
	sg_io_hdr_t h;
	int fd, i;

	if (argc < 3)
		return usage();
	memset(cdb, 0, sizeof cdb);
	cdb[0] = 0xC1;
	if (strcmp(argv[2], "cut") == 0 && argc <= 5) {
		if (argc > 3 && (keep = number(argv[3], 100)) < 0)
			return usage();
		if (argc > 4 && (seed = number(argv[4], 0xFFFFFFFFull)) < 0)
			return usage();
		cdb[1] = 0x01;
		cdb[2] = (unsigned char)keep;
		for (i = 0; i < 4; i++)
			cdb[3 + i] = (unsigned char)(seed >> (24 - 8 * i));
		cdb[8] = sizeof answer;
	} else if (strcmp(argv[2], "drop") == 0 && argc == 4) {
		drop_caches(argv[3]);
		return 0;
	} else if (strcmp(argv[2], "on") == 0 && argc <= 4) {
		cdb[1] = 0x02;
		if (argc == 4)
			sd = argv[3];
	} else if (strcmp(argv[2], "lie") == 0 && argc == 4 &&
	    (keep = number(argv[3], 1)) >= 0) {
		cdb[1] = 0x03;
		cdb[2] = (unsigned char)keep;
	} else if (strcmp(argv[2], "status") == 0 && argc == 3) {
		cdb[1] = 0x04;
	} else {
		return usage();
	}

	if (sd != NULL)
		drop_caches(sd);
	fd = open(argv[1], O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "pc-ctl: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	memset(&h, 0, sizeof h);
	memset(sense, 0, sizeof sense);
	h.interface_id = 'S';
	h.dxfer_direction = SG_DXFER_NONE;
	if (cdb[8] != 0) {
		memset(answer, 0, sizeof answer);
		h.dxfer_direction = SG_DXFER_FROM_DEV;
		h.dxferp = answer;
		h.dxfer_len = sizeof answer;
	}
	h.cmdp = cdb;
	h.cmd_len = sizeof cdb;
	h.sbp = sense;
	h.mx_sb_len = sizeof sense;
	h.timeout = 60000;
	if (ioctl(fd, SG_IO, &h) < 0) {
		fprintf(stderr, "pc-ctl: SG_IO on %s: %s\n", argv[1],
		    strerror(errno));
		close(fd);
		return 2;
	}
	close(fd);
	if (h.status != 0 || h.host_status != 0 || h.driver_status != 0) {
		fprintf(stderr, "pc-ctl: C1h %02xh failed: status 0x%02x host "
		    "0x%04x driver 0x%04x", cdb[1], h.status, h.host_status,
		    h.driver_status);
		for (i = 0; i < h.sb_len_wr && i < (int)sizeof sense; i++)
			fprintf(stderr, "%s%02x", i ? " " : ", sense ", sense[i]);
		fputc('\n', stderr);
		return 1;
	}
	if (cdb[8] != 0) {
		unsigned long long v[3] = { 0, 0, 0 };

		/* A handler that does not count would leave a guess. */
		if (h.resid != 0) {
			fprintf(stderr, "pc-ctl: the cut's answer is %d bytes "
			    "short: the disk does not count its blocks\n",
			    h.resid);
			return 1;
		}
		for (i = 0; i < (int)sizeof answer; i++)
			v[i / 8] = v[i / 8] << 8 | answer[i];
		printf("%llu %llu %llu\n", v[0], v[1], v[2]);
	}
	if (sd != NULL)
		drop_caches(sd);
	return 0;
}
