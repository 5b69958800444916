/*
 * ack.h -- where acknowledgement records go: a file (or standard output),
 * or a listener on another host that keeps them off the failure domain
 * of the machine under test (diskchecker's design).
 *
 * A record is one line ("A 0 17 69632\n").  Sent to a file, it is one
 * write(): records of several writer processes sharing the descriptor
 * never interleave.  Sent to a listener (tcp:HOST:PORT), the call returns
 * only once the listener has written the record to its log and answered
 * it: a record the sender counts has left the machine.  Each writer
 * process needs a connection of its own (diot_ack_reconnect() after
 * fork()), since answers cannot be told apart on a shared one.
 *
 * The wire: the sender writes lines of at most DIOT_ACK_LINE_MAX bytes;
 * the listener answers each complete line with the one byte '+' after
 * write() to its log returned.  A line that is too long, or contains a
 * NUL byte, ends that connection (the sender then gets an error).  A
 * listener that holds a record unanswered for answer_s seconds (a hung or
 * stopped listener, a network that went silent) fails the send with
 * -ETIMEDOUT rather than stopping the run for ever.
 *
 * Functions return 0 (or a descriptor) on success, -errno on failure,
 * with a message in err where they take one.
 */
#ifndef DIOT_ACK_H
#define DIOT_ACK_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#define DIOT_ACK_LINE_MAX 4352
#define DIOT_ACK_ANSWER_S 30    /* default time a listener has to answer */

enum diot_ack_kind { DIOT_ACK_NONE = 0, DIOT_ACK_FILE, DIOT_ACK_STDOUT, DIOT_ACK_TCP };

struct diot_ack {
	int kind;               /* diot_ack_kind                           */
	int fd;                 /* file, standard output, or the socket    */
	int created;            /* DIOT_ACK_FILE: this run created it      */
	int answer_s;           /* DIOT_ACK_TCP: limit on an answer, s     */
	char host[256];         /* DIOT_ACK_TCP: where the listener is     */
	char port[32];
	char path[4096];        /* DIOT_ACK_FILE: the log's path           */
};

/* Does spec name a listener ("tcp:HOST:PORT", "tcp:[V6ADDR]:PORT")? */
int diot_ack_is_tcp(const char *spec);

/*
 * Open spec: "-" is standard output; "tcp:HOST:PORT" connects to a
 * listener; anything else is a file, created exclusively (an existing
 * file is refused: appending a second run's records to the first run's
 * would make a later check read the wrong run).
 */
int diot_ack_open(struct diot_ack *a, const char *spec, char *err, size_t errlen);

/* In a writer thread or process: a connection of its own to the same
 * listener, in a's copy of the handle (the descriptor it had, the
 * parent's, is left open for the parent); 0 for the other kinds, which
 * share the descriptor. */
int diot_ack_reconnect(struct diot_ack *a, char *err, size_t errlen);

/* The time a listener has to answer each record on a's connection (and
 * on those diot_ack_reconnect() makes from it): seconds from 1 to 3600;
 * diot_ack_open() sets DIOT_ACK_ANSWER_S.  No effect on the other kinds. */
int diot_ack_set_answer_time(struct diot_ack *a, int seconds);
/* Send one record (line, ending in '\n'); see above for what returning
 * 0 promises.  -ECONNRESET when the listener went away, -ETIMEDOUT when it
 * did not answer in time. */
int diot_ack_send(const struct diot_ack *a, const char *line, size_t len);

/* Close; a created file is kept (it is the run's record). */
void diot_ack_close(struct diot_ack *a);

/*
 * The listener.  diot_ack_listen() binds "[HOST:]PORT" (PORT 0: any free
 * port; no HOST: every address), returns the listening descriptor and the
 * port it got.  diot_ack_serve() accepts senders and writes their records
 * to logfd until, after at least one sender came, all of them have
 * closed their connections, or until *stop becomes non-zero.  It fills
 * the counts (may be NULL) and returns 0, or -errno when the log could
 * not be written (senders are then cut off, so none counts a record the
 * log does not hold).
 */
struct diot_ack_stats {
	uint64_t connections, records, dropped;  /* dropped: bad lines or senders */
};

int diot_ack_listen(const char *spec, int *port, char *err, size_t errlen);
int diot_ack_serve(int lfd, int logfd, const volatile sig_atomic_t *stop,
                   struct diot_ack_stats *st, char *err, size_t errlen);

#endif /* DIOT_ACK_H */
