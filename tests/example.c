/* SPDX-License-Identifier: BSD-2-Clause */
/* example.c -- durable, unbuffered records with libdirectio. */
#include <stdio.h>
#include <string.h>
#include <libdirectio.h>

int
main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "example.dat";
	struct dio_align a;
	char detail[256];
	dio_file *f;
	size_t len;
	char *buf;
	int64_t r = 0;
	int i;

	/* Direct I/O if the file system allows it; every write O_DSYNC. */
	r = dio_open(&f, path, DIO_O_WRONLY | DIO_O_CREAT | DIO_O_TRUNC,
	             DIO_DIRECT_TRY, DIO_SYNC_DATA, 0644);
	if (r < 0) {
		fprintf(stderr, "open %s: %s\n", path, dio_strerror((int)r));
		return 1;
	}
	dio_file_align(f, &a);
	printf("direct I/O: %s; sync: %s; granularity %u bytes (%s)\n",
	       dio_mech_name(dio_file_direct(f)),
	       dio_sync_flag_name(dio_file_sync_flag(f)),
	       (unsigned)a.offset_align, dio_align_source_name((int)a.source));

	len = a.offset_align > 4096 ? a.offset_align : 4096;
	buf = dio_alloc(len, a.mem_align);
	for (i = 0; i < 4 && r >= 0; i++) {
		memset(buf, 'a' + i, len);
		r = dio_pwrite(f, buf, len, (int64_t)i * (int64_t)len);
	}
	if (r >= 0 && dio_file_direct(f) != DIO_MECH_NONE) {
		/* Misaligned direct I/O is refused before anything is written. */
		r = dio_pwrite(f, buf, 1000, 512);
		dio_file_errdetail(f, detail, sizeof(detail));
		printf("refused: %s (%s)\n", detail, dio_err_name((int)r));
		r = 0;
	}
	if (r < 0) {
		dio_file_errdetail(f, detail, sizeof(detail));
		fprintf(stderr, "%s\n", detail);
	}
	dio_free(buf);
	return (dio_close(f) < 0 || r < 0) ? 1 : 0;
}
