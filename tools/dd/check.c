#include "config.h"

#include "tools/dd/dd.h"

/* Decide the dio_aio engine for engine=aio|io_uring|posix-aio. */
void
choose_engine(void)
{
	unsigned have = dio_aio_engines();
	dio_aio *probe;
	int err = 0;

	if (o.engine == ENG_URING) {
		if (!(have & (1u << DIO_AIO_IO_URING)))
			diot_usage_error("engine=io_uring: not part of this build (%s; configure "
			                 "found no liburing or --without-liburing); use "
			                 "engine=aio or engine=posix-aio",
			                 strcmp(dio_backend_name(), "linux") == 0
			                 ? "linux backend" : "io_uring is Linux only");
		aio_engine = DIO_AIO_IO_URING;
	} else if (o.engine == ENG_POSIX) {
		if (!(have & (1u << DIO_AIO_POSIX)))
			diot_usage_error("engine=posix-aio: this C library has no POSIX AIO");
		aio_engine = DIO_AIO_POSIX;
	} else if (have & (1u << DIO_AIO_IO_URING)) {
		probe = dio_aio_new((unsigned)o.qd, DIO_AIO_IO_URING, &err);
		if (probe != NULL) {
			aio_engine = DIO_AIO_IO_URING;
			dio_aio_free(probe);
			return;
		}
		snprintf(engine_note, sizeof(engine_note), "io_uring is compiled in but the "
		         "kernel refused it (%s): falling back to POSIX AIO", dio_strerror(err));
	} else {
		snprintf(engine_note, sizeof(engine_note), "io_uring is not available (not "
		         "compiled into this build of libdirectio, %s backend): falling back "
		         "to POSIX AIO", dio_backend_name());
	}
	if (aio_engine < 0) {
		if (!(have & (1u << DIO_AIO_POSIX)))
			diot_die(DIOT_EXIT_FAIL, "engine=aio: no asynchronous engine in this "
			         "build (no io_uring, no POSIX AIO)");
		aio_engine = DIO_AIO_POSIX;
	}
	if (engine_note[0] != '\0')
		diot_warn("%s", engine_note);
}

/* 1 if path is the null device (by device number, whatever its name). */
static int
is_dev_null(const char *path)
{
	struct stat a, b;

	return stat(path, &a) == 0 && S_ISCHR(a.st_mode) && stat("/dev/null", &b) == 0 &&
	       S_ISCHR(b.st_mode) && a.st_rdev == b.st_rdev;
}

/* skip=/seek= (and with count= the end of the transfer) as byte offsets
 * must fit in int64: no offset may wrap around. */
static void
check_offset(const char *key, uint64_t blocks)
{
	const uint64_t max = (uint64_t)INT64_MAX;

	if (blocks > max / o.bs)
		diot_usage_error("%s=%" PRIu64 " blocks of bs=%" PRIu64 " is beyond the "
		                 "largest file offset (2^63-1 bytes)", key, blocks, o.bs);
	if (o.count_set && o.count > (max - blocks * o.bs) / o.bs)
		diot_usage_error("%s=%" PRIu64 " + count=%" PRIu64 " blocks of bs=%" PRIu64
		                 " end beyond the largest file offset (2^63-1 bytes)", key,
		                 blocks, o.count, o.bs);
}

void
check_operands(void)
{
	int i;

	if (!o.nif && !o.nof)
		diot_usage_error("nothing to do: name an input (if=) to read, an output "
		                 "(of=) to write, or both to copy");
	/* of=/dev/null (under any name): nowhere. */
	if (o.nof == 1 && o.nif && (!o.mode_set || o.mode == MODE_READ) &&
	    is_dev_null(o.ofs[0])) {
		o.nof = 0;
		if (!o.mode_set)
			o.mode = MODE_READ;
	}
	if (!o.mode_set)
		o.mode = o.nif && o.nof ? MODE_COPY : o.nif ? MODE_READ : MODE_WRITE;
	switch (o.mode) {
	case MODE_READ:
		if (!o.nif)
			diot_usage_error("mode=read needs if= (the files or devices to read)");
		if (o.nof)
			diot_usage_error("mode=read reads to nowhere: drop of= (or use "
			                 "mode=copy)");
		break;
	case MODE_WRITE:
		if (!o.nof)
			diot_usage_error("mode=write needs of= (the files or devices to write)");
		if (o.nif)
			diot_usage_error("mode=write writes a generated pattern: drop if= (or "
			                 "use mode=copy)");
		break;
	case MODE_COPY:
		if (!o.nif || !o.nof)
			diot_usage_error("mode=copy needs both if= and of=");
		if (o.nif != o.nof)
			diot_usage_error("copy is pairwise: if= names %d input%s but of= names "
			                 "%d output%s", o.nif, o.nif == 1 ? "" : "s", o.nof,
			                 o.nof == 1 ? "" : "s");
		break;
	}
	if (o.mode == MODE_WRITE && (o.iflag.direct || o.iflag.nocopy || o.iflag.sg))
		diot_usage_error("iflag= is given but there is no input (if=)");
	if (o.mode == MODE_READ && (o.oflag.direct || o.oflag.dsync || o.oflag.sync ||
	                            o.oflag.sg || o.oflag.notrunc))
		diot_usage_error("oflag= is given but there is no output (of=)");
	if (o.mode == MODE_WRITE && o.skip)
		diot_usage_error("skip= counts input blocks, and there is no input (if=); "
		                 "use seek= for the output");
	if (o.mode == MODE_READ && o.seek)
		diot_usage_error("seek= counts output blocks, and there is no output (of=); "
		                 "use skip= for the input");
	if (o.iflag.nocopy && o.mode != MODE_READ)
		diot_usage_error("iflag=nocopy drops the data in the kernel: it is for reads "
		                 "(if= without of=), not %s", mode_name());
	if (o.oflag.force)
		o.force = 1;
	if (o.qd > 1 && o.engine_set && o.engine == ENG_SYNC)
		diot_usage_error("qd=%" PRIu64 " needs the asynchronous engine (engine=aio); "
		                 "engine=sync does one call at a time", o.qd);
	if (o.qd > 1 && !o.engine_set)
		o.engine = ENG_AIO;
	if (o.engine != ENG_SYNC && o.iflag.nocopy)
		diot_usage_error("iflag=nocopy has no asynchronous form: use engine=sync");
	if (o.engine != ENG_SYNC && (o.iflag.sg || o.oflag.sg))
		diot_usage_error("engine=%s: SCSI pass-through runs with engine=sync",
		                 engine_words[o.engine]);
	if (o.same_session && !o.procs)
		diot_usage_error("--same-session is about the worker processes of --processes; "
		                 "give both, or neither");
	if (o.count_set && o.count == 0)
		diot_usage_error("count=0: nothing to transfer (count is in blocks of bs, "
		                 "at least 1)");
	for (i = 0; i < o.nif; i++)
		if (o.ifs[i][0] == '\0')
			diot_usage_error("if=: empty name");
	if (o.bs * o.bpt > MAX_TRANSFER)
		diot_usage_error("bs=%" PRIu64 " x bpt=%" PRIu64 " is %" PRIu64 " bytes per "
		                 "transfer; at most %llu (1 GiB)", o.bs, o.bpt, o.bs * o.bpt,
		                 (unsigned long long)MAX_TRANSFER);
	check_offset("skip", o.skip);
	check_offset("seek", o.seek);
	if ((uint64_t)o.thr * (uint64_t)(o.mode == MODE_WRITE ? o.nof : o.nif) > 1024)
		diot_usage_error("thr=%" PRIu64 " on %d devices is more than 1024 threads",
		                 o.thr, o.mode == MODE_WRITE ? o.nof : o.nif);
}
