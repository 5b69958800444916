/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * linux-read.c -- the Linux backend's readers of what the kernel and udev
 * write (os/linux-read.h): /proc/self/mountinfo, /proc/swaps, sysfs
 * attributes, uevent files and the udev database.  Each reads a stream or
 * a string, so that tests can feed it any text (tests/fuzz/); the other
 * os/linux-*.c files open the real files and call them.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "os/linux-read.h"

/*
 * A line is read into a fixed buffer: the start of a longer one is kept
 * and the rest of it read and dropped, so that its tail is never taken
 * for a line of its own.
 */
static int
dio__next_line(FILE *fp, char *buf, size_t len)
{
	size_t n;
	int c;

	if (fgets(buf, (int)len, fp) == NULL)
		return 0;
	n = strlen(buf);
	if (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	else
		while ((c = getc(fp)) != EOF && c != '\n')
			;
	return 1;
}

int
dio__mountinfo_next(FILE *fp, struct dio__mount *m)
{
	char line[4096], *sep;
	unsigned maj, min;

	while (dio__next_line(fp, line, sizeof(line))) {
		memset(m, 0, sizeof(*m));
		if (sscanf(line, "%*u %*u %u:%u %*s %1023s", &maj, &min, m->mnt) != 3)
			continue;
		m->dev = makedev(maj, min);
		sep = strstr(line, " - ");
		if (sep != NULL && sscanf(sep + 3, "%63s %1023s", m->fstype, m->source) < 1)
			m->fstype[0] = '\0';
		return 1;
	}
	return 0;
}

int
dio__swaps_next(FILE *fp, char *name, size_t len)
{
	char line[1024], word[1024];

	while (dio__next_line(fp, line, sizeof(line))) {
		if (sscanf(line, "%1023s", word) != 1 || word[0] != '/')
			continue;
		snprintf(name, len, "%s", word);
		return 1;
	}
	return 0;
}

int
dio__read_line_fp(FILE *fp, char *buf, size_t len)
{
	size_t n;

	if (len == 0)
		return -EINVAL;
	buf[0] = '\0';
	if (len < 2)
		return 0;
	if (fgets(buf, len > INT_MAX ? INT_MAX : (int)len, fp) == NULL) {
		buf[0] = '\0';
		return ferror(fp) ? -EIO : 0;
	}
	n = strlen(buf);
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		buf[--n] = '\0';
	return 0;
}

int
dio__parse_u64(const char *line, uint64_t *v)
{
	const char *p = line;
	uint64_t x = 0, d;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		d = (uint64_t)(*p - '0');
		if (x > (UINT64_MAX - d) / 10)
			return -ERANGE;
		x = x * 10 + d;
	}
	*v = x;
	return 0;
}

uint32_t
dio__parse_write_cache(const char *line)
{
	if (strcmp(line, "write back") == 0)
		return DIO_TRI_YES;
	if (strcmp(line, "write through") == 0)
		return DIO_TRI_NO;
	return DIO_TRI_UNKNOWN;
}

int
dio__uevent_devname(FILE *fp, char *buf, size_t len)
{
	char line[512];

	while (dio__next_line(fp, line, sizeof(line)))
		if (strncmp(line, "DEVNAME=", 8) == 0 && line[8] != '\0') {
			snprintf(buf, len, "/dev/%s", line + 8);
			return 1;
		}
	return 0;
}

int
dio__udev_serial_fp(FILE *fp, struct dio_devinfo *o)
{
	char line[512];

	while (dio__next_line(fp, line, sizeof(line)))
		if (strncmp(line, "E:ID_SERIAL=", 12) == 0) {
			snprintf(o->id_serial, sizeof(o->id_serial), "%s", line + 12);
			return 1;
		}
	return 0;
}

/* "[none] mq-deadline kyber" -> current "none", offered "none mq-deadline kyber". */
void
dio__parse_scheduler(const char *line, struct dio_devinfo *o)
{
	const char *p = line, *w;
	size_t n, used = 0;
	int bracket;

	while (*p != '\0') {
		while (*p == ' ')
			p++;
		if (*p == '\0')
			break;
		w = p;
		while (*p != '\0' && *p != ' ')
			p++;
		n = (size_t)(p - w);
		bracket = n >= 2 && w[0] == '[' && w[n - 1] == ']';
		if (bracket) {
			w++;
			n -= 2;
			snprintf(o->scheduler, sizeof(o->scheduler), "%.*s", (int)n, w);
		}
		if (used + n + 2 <= sizeof(o->schedulers)) {
			if (used > 0)
				o->schedulers[used++] = ' ';
			memcpy(o->schedulers + used, w, n);
			used += n;
			o->schedulers[used] = '\0';
		}
	}
	/* A queue with one choice may print it without brackets. */
	if (o->scheduler[0] == '\0' && o->schedulers[0] != '\0' &&
	    strchr(o->schedulers, ' ') == NULL)
		snprintf(o->scheduler, sizeof(o->scheduler), "%s", o->schedulers);
}

/*
 * /sys/block/NAME/stat (Documentation/block/stat.rst): blank-separated
 * decimal counters, 11 of them since Linux 2.6, 15 with the discard ones
 * (4.18), 17 with the flush ones (5.5).  Fields 1, 3: reads and sectors
 * read; 5 to 8: writes, merges, sectors, ms; 9: in flight; 16, 17:
 * flushes and their ms.
 */
void
dio__parse_disk_stat(const char *text, struct dio_disk_counts *c)
{
	uint64_t f[17];
	unsigned n = 0, i;
	const char *p = text, *w;
	uint64_t x, d;

	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (*p == '\0')
			break;
		w = p;
		x = 0;
		for (; *p >= '0' && *p <= '9'; p++) {
			d = (uint64_t)(*p - '0');
			if (x > (UINT64_MAX - d) / 10)
				break;
			x = x * 10 + d;
		}
		if (p == w || (*p != '\0' && *p != ' ' && *p != '\t' && *p != '\n')) {
			char shown[16];

			for (i = 0; i + 1 < sizeof(shown) && w[i] != '\0' && w[i] != ' ' &&
			            w[i] != '\t' && w[i] != '\n'; i++)
				shown[i] = w[i] >= 0x21 && w[i] <= 0x7e ? w[i] : '?';
			shown[i] = '\0';
			c->err = -EPROTO;
			c->have = 0;
			snprintf(c->note, sizeof(c->note),
			         "the stat file is not a list of numbers: field %u is \"%s\"",
			         n + 1, shown);
			return;
		}
		if (n < sizeof(f) / sizeof(f[0]))
			f[n] = x;
		n++;
	}
	c->err = 0;
	c->have = 0;
	c->note[0] = '\0';
	if (n < 7) {
		c->err = -ENODATA;
		snprintf(c->note, sizeof(c->note),
		         "the stat file has %u fields: no write counts (7 needed)", n);
		return;
	}
	c->have = DIO_COUNTS_IO;
	c->read_ios = f[0];
	c->read_sectors = f[2];
	c->write_ios = f[4];
	c->write_merges = f[5];
	c->write_sectors = f[6];
	c->write_ms = n > 7 ? f[7] : 0;
	c->in_flight = n > 8 ? f[8] : 0;
	if (n < 17) {
		snprintf(c->note, sizeof(c->note),
		         "the stat file has %u fields: no flush counts before Linux 5.5", n);
		return;
	}
	c->have |= DIO_COUNTS_FLUSH;
	c->flush_ios = f[15];
	c->flush_ms = f[16];
}
