/*
 * listen.c -- sync-write --listen [HOST:]PORT --ack-log FILE: the machine
 * that keeps the acknowledgement records of a run on another machine
 * (--ack-log tcp:HOST:PORT there), so that the records survive what
 * happens to the machine under test: diskchecker's design.  Every record
 * is written to the log before it is answered (tools/kit/ack.c); the log
 * is synced once the senders are done or a signal ends the listener.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tools/kit/ack.h"
#include "tools/kit/util.h"
#include "tools/sw/sw.h"

/* The log: created (an existing one only with --force, appended to), or
 * standard output. */
static int
open_log(const struct sw_opts *o)
{
	int fd, e;

	if (strcmp(o->ack_log, "-") == 0)
		return STDOUT_FILENO;
	fd = open(o->ack_log, O_WRONLY | O_CREAT | O_APPEND | (o->force ? 0 : O_EXCL), 0644);
	if (fd < 0) {
		e = errno;
		diot_die(DIOT_EXIT_USAGE, "--ack-log '%s': %s%s", o->ack_log, dio_strerror(-e),
		         e == EEXIST ? " (pass --force to append to an existing log)" : "");
	}
	return fd;
}

int
sw_listen_main(const struct sw_opts *o, const volatile sig_atomic_t *sig)
{
	struct diot_ack_stats st;
	char err[300] = "";
	int lfd, logfd, port, r;

	lfd = diot_ack_listen(o->listen, &port, err, sizeof(err));
	if (lfd < 0)
		diot_die(lfd == -EINVAL ? DIOT_EXIT_USAGE : DIOT_EXIT_FAIL, "%s", err);
	logfd = open_log(o);
	fprintf(stderr, "%s: listening on port %d; records go to %s; ends when the "
	        "senders are done, or on SIGINT/SIGTERM\n", diot_prog, port,
	        strcmp(o->ack_log, "-") == 0 ? "standard output" : o->ack_log);
	r = diot_ack_serve(lfd, logfd, sig, &st, err, sizeof(err));
	close(lfd);
	if (r == 0 && fsync(logfd) != 0 && errno != EINVAL && errno != EROFS)
		r = -errno;
	if (logfd != STDOUT_FILENO && close(logfd) != 0 && r == 0)
		r = -errno;
	fprintf(stderr, "%s: %" PRIu64 " records from %" PRIu64 " connections; %" PRIu64
	        " connections cut for a malformed line\n", diot_prog, st.records,
	        st.connections, st.dropped);
	if (r < 0)
		diot_die(DIOT_EXIT_FAIL, "--ack-log '%s': %s", o->ack_log,
		         err[0] ? err : dio_strerror(r));
	if (*sig)
		return 128 + (int)*sig;
	return 0;
}
