/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * udev.c -- harness: the Linux backend's readers of a sysfs uevent file
 * (DEVNAME=, dio__uevent_devname()) and of a udev database entry
 * (E:ID_SERIAL=, dio__udev_serial_fp()), on the input as the file's text.
 * The first input byte picks the size of the name's buffer (allocated to
 * exactly that size, so that a write past it is caught).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "os/linux-read.h"
#include "tests/fuzz/fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dio_devinfo di;
	size_t len = size > 0 ? 1 + data[0] % 80 : 16;
	char *name;
	FILE *fp;
	int took = 0;

	name = malloc(len);
	if (name == NULL)
		return 0;
	fp = fuzz_stream(data, size);
	if (fp != NULL) {
		if (dio__uevent_devname(fp, name, len) == 1 && (took = 1) &&
		    (memchr(name, '\0', len) == NULL || strncmp(name, "/dev/", len <= 5 ? len - 1 : 5)))
			abort();
		fclose(fp);
	}
	free(name);

	fp = fuzz_stream(data, size);
	if (fp != NULL) {
		memset(&di, 0, sizeof(di));
		if (dio__udev_serial_fp(fp, &di) == 1 && (took = 1) &&
		    memchr(di.id_serial, '\0', sizeof(di.id_serial)) == NULL)
			abort();
		fclose(fp);
	}
	/* Accepted: a DEVNAME= or an ID_SERIAL= found. */
	fuzz_verdict(took, NULL);
	return 0;
}
