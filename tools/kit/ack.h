/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ack.h -- where acknowledgement records go: a file (or standard output),
 * or a listener on another host that keeps them off the failure domain
 * of the machine under test (diskchecker's design).
 *
 * A record is one line, of the tool's format.  Sent to a file, it is one
 * write(): records of several writer processes sharing the descriptor
 * never interleave.  Sent to a listener (tcp:HOST:PORT), the call returns
 * only once the listener has written the record to its log, committed
 * it (fdatasync) and answered it: a record the sender counts has left the machine.  Each writer
 * process needs a connection of its own (diot_ack_reconnect() after
 * fork()), since answers cannot be told apart on a shared one.
 *
 * The wire: protocol 2 (DIOT_ACK_WIRE).  Lines end in '\n'; hex is lower
 * case; "|" below joins fields with one space.  TOKEN is the listener's
 * secret (ack-token.c: at least 128 bits, given to the sender in a file
 * of mode 0600 or the environment, never on a command line), RUNID the
 * run's id in 1 to 16 hex digits (as its records give it).
 *
 *   S->L  "H 2 RUNID open|join AUTH CNONCE"   AUTH: hmac-sha256 or plain;
 *                                            CNONCE: 128 random bits
 *   L->S  "C SNONCE"                          128 random bits, per connection
 *         or "-REASON" and the end           (an "H 1" hello is answered so,
 *                                            naming both protocols)
 *   S->L  "P PROOF" (open)                   PROOF = HMAC(TOKEN, "dio-ack 2
 *                                            open"|RUNID|CNONCE|SNONCE)
 *         "P TPROOF RPROOF" (join)           TPROOF = HMAC(TOKEN, "dio-ack 2
 *                                            join"|RUNID|CNONCE|SNONCE),
 *                                            RPROOF = HMAC(RK, same words)
 *   L->S  "+LPROOF"                          HMAC(TOKEN, "dio-ack 2
 *                                            listener"|RUNID|CNONCE|SNONCE):
 *                                            the sender checks it
 *         or "-REASON" and the end
 *   S->L  "MAC RECORD"  (each record)        MAC = HMAC(K, SEQ || RECORD)
 *   L->S  "+MAC'"  once RECORD is committed    MAC' = HMAC(K, "ok" || SEQ)
 *         or "-REASON" (not logged) and the end
 *
 * HMAC is HMAC-SHA-256 (tools/kit/mac.c); proofs are its 64 hex digits,
 * a record's MAC and an answer's its first 128 bits (32 hex digits).  K,
 * the connection's key, is HMAC(TOKEN, "dio-ack 2 session"|RUNID|CNONCE|
 * SNONCE); SEQ counts the connection's records from 0, as 8 bytes, most
 * significant first; RECORD is the record's bytes with its newline.  So a
 * record replayed, reordered, changed or moved to another connection
 * fails its MAC, and an answer from anyone who lacks the token fails the
 * sender's check.  RK, the run's key, is HMAC(TOKEN, "dio-ack 2 run"|
 * RUNID|CNONCE|SNONCE) of the connection that opened the run: the opener
 * keeps it in its handle, and the connections diot_ack_reconnect() makes
 * from the handle (a writer's, after fork) join the run with it.  The
 * listener takes "open" only of a run it does not have ("run X is already
 * open"), and "join" only with the run's key: a connection that has the
 * token but not the run's key cannot add records to another's run.
 *
 * Without a MAC library (configure --with-crypto=no) AUTH is "plain":
 * PROOF is the token itself, "+LPROOF" and each answer are "+", and
 * records carry no MAC.  Plain is taken only between loopback addresses:
 * the sender refuses another destination, the listener another peer (and
 * a listener built so refuses to listen on anything but loopback).
 *
 * Any line the listener does not take -- a wrong proof, a MAC that fails,
 * a line that is not a record, too long (DIOT_ACK_LINE_MAX bytes of record
 * and its MAC), a NUL byte, a record naming another run than the hello's
 * -- cuts that connection before anything of it is logged; the summary
 * counts why.  What a record is, the tool that writes them says (struct
 * diot_ack_records: sync-write's are tools/sw/ackrec.c; nothing here
 * knows their fields).  A listener that holds a record unanswered for
 * answer_s seconds (a hung or stopped listener, a network that went
 * silent) fails the send with -ETIMEDOUT rather than stopping the run for
 * ever.
 *
 * Functions return 0 (or a descriptor) on success, -errno on failure,
 * with a message in err where they take one.  Nothing here prints.
 */
#ifndef DIOT_ACK_H
#define DIOT_ACK_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#define DIOT_ACK_LINE_MAX 4352
#define DIOT_ACK_ANSWER_S 30    /* default time a listener has to answer */
#define DIOT_ACK_WIRE 2         /* the protocol's version (the hello's)   */
#define DIOT_ACK_NONCE 16       /* bytes of a nonce                      */
#define DIOT_ACK_KEY 32         /* bytes of a key, a proof (HMAC-SHA-256) */
#define DIOT_ACK_TAG 16         /* bytes of a record's MAC, an answer's  */
#define DIOT_ACK_TOKEN_MIN 16   /* a token's bytes: 128 bits at least... */
#define DIOT_ACK_TOKEN_MAX 64   /* ...512 at most                        */
#define DIOT_ACK_TOKEN_NEW 32   /* a new token: 256 bits                 */
/* The longest line on the wire: a record and its MAC. */
#define DIOT_ACK_WIRE_MAX (DIOT_ACK_LINE_MAX + 2 * DIOT_ACK_TAG + 1)

/* The listener's secret, as bytes. */
struct diot_ack_token {
	size_t len;
	unsigned char key[DIOT_ACK_TOKEN_MAX];
};

enum diot_ack_kind { DIOT_ACK_NONE = 0, DIOT_ACK_FILE, DIOT_ACK_STDOUT, DIOT_ACK_TCP };

struct diot_ack {
	int kind;               /* diot_ack_kind                           */
	int fd;                 /* file, standard output, or the socket    */
	int created;            /* DIOT_ACK_FILE: this run created it      */
	int commit;             /* DIOT_ACK_FILE: fdatasync() each record  */
	int answer_s;           /* DIOT_ACK_TCP: limit on an answer, s     */
	int has_run;            /* DIOT_ACK_TCP: run set, hello sent on    */
	uint64_t run;           /*   every connection                      */
	int has_token;          /* DIOT_ACK_TCP: the token, set            */
	struct diot_ack_token token;
	int plain;              /* no MAC library: AUTH plain (loopback)   */
	int has_rk;             /* the run is open: join with rk           */
	unsigned char rk[DIOT_ACK_KEY];         /* the run's key           */
	int join;               /* this connection's hello: a join         */
	unsigned char cnonce[DIOT_ACK_NONCE], snonce[DIOT_ACK_NONCE];
	unsigned char k[DIOT_ACK_KEY];          /* this connection's key   */
	uint64_t seq;           /* records sent on this connection         */
	char why[200];          /* the listener's refusal of a record      */
	char host[256];         /* DIOT_ACK_TCP: where the listener is     */
	char port[32];
	char path[4096];        /* DIOT_ACK_FILE: the log's path           */
};

/* Does spec name a listener ("tcp:HOST:PORT", "tcp:[V6ADDR]:PORT")? */
int diot_ack_is_tcp(const char *spec);

/*
 * Open spec: "-" is standard output; "tcp:HOST:PORT" connects to a
 * listener (then diot_ack_set_run() says the run); anything else is a
 * file, created exclusively by diot_ack_open_log() (an existing file is
 * refused: appending a second run's records to the first run's would make
 * a later check read the wrong run).
 */
int diot_ack_open(struct diot_ack *a, const char *spec, char *err, size_t errlen);

/*
 * Open path as an ack log for writing, never waiting: created exclusively
 * (append 0), or also an existing one appended to (append 1).  An
 * existing log must be a regular file or a character device (/dev/null):
 * a FIFO (opening it would wait for a reader), a directory, a socket or a
 * block device is refused with the reason, and so is a symbolic link
 * (O_NOFOLLOW: the records never go where a planted link points).  A log
 * is created mode 0600 (it holds the run's id).  Returns the descriptor or
 * -errno (-EEXIST: it exists and append is 0) with the reason in err.
 */
int diot_ack_open_log(const char *path, int append, char *err, size_t errlen);

/* The listener's token for a's connections (before diot_ack_set_run()). */
void diot_ack_set_token(struct diot_ack *a, const struct diot_ack_token *t);

/*
 * The run a's records belong to.  On a listener connection this opens it
 * now (the handshake above) and keeps the run's key in a; every
 * connection diot_ack_reconnect() makes from a joins it.  A listener that
 * refuses the run gives -ECONNREFUSED with its reason in err; one that
 * fails the handshake (it lacks the token, or speaks another protocol)
 * -EPROTO or -ECONNRESET with the reason.  Without a token on a listener
 * connection, -EINVAL.  For the other kinds it only notes the run.
 */
int diot_ack_set_run(struct diot_ack *a, uint64_t run, char *err, size_t errlen);

/* In a writer thread or process: a connection of its own to the same
 * listener (saying the run, if set), in a's copy of the handle (the
 * descriptor it had, the parent's, is left open for the parent); 0 for
 * the other kinds, which share the descriptor. */
int diot_ack_reconnect(struct diot_ack *a, char *err, size_t errlen);

/* The time a listener has to answer each record on a's connection (and
 * on those diot_ack_reconnect() makes from it): seconds from 1 to 3600;
 * diot_ack_open() sets DIOT_ACK_ANSWER_S.  No effect on the other kinds. */
int diot_ack_set_answer_time(struct diot_ack *a, int seconds);
/* Send one record (line, ending in '\n'); see above for what returning
 * 0 promises.  To a file, one write(): a killed process loses none of the
 * records it sent, but the page cache holds them until the kernel writes
 * them back, so a kernel crash or power cut of this machine can; with
 * a->commit, each is also committed (fdatasync()) before 0 is returned,
 * which keeps it as well as this machine's disk keeps what it
 * acknowledges (a listener on another machine keeps it off this
 * machine's failure domain: the real answer).  To a listener: 0 once it
 * has committed the record to its log and answered.  -ECONNRESET when the
 * listener went away, -ETIMEDOUT when it did not answer in time,
 * -ECONNREFUSED when it refused the record (its reason in a->why), -EPROTO
 * when its answer is not one (a wrong MAC). */
int diot_ack_send(struct diot_ack *a, const char *line, size_t len);

/* Words for r, what diot_ack_send() on a returned (the listener's reason
 * for a refusal), into buf of n bytes; buf. */
const char *diot_ack_strerror(const struct diot_ack *a, int r, char *buf, size_t n);

/* line (len bytes, its '\n' included) as the wire carries it on a's
 * connection: its MAC for the next record (a->seq), a space, the line;
 * out holds DIOT_ACK_WIRE_MAX bytes.  The length, or 0 when len is not a
 * record's. */
size_t diot_ack_seal(const struct diot_ack *a, const char *line, size_t len, char *out);

/*
 * The sender's reading of the listener's lines, with no socket in it (a
 * fuzzer feeds it buffers): line is len bytes, its '\n' included.
 * diot_ack_read_challenge(): "C SNONCE" (a->snonce), 0; "-REASON",
 * -ECONNREFUSED with it in err; anything else -EPROTO.
 * diot_ack_read_welcome(): "+LPROOF" that proves the token for a's
 * hello and nonces, 0 (a's connection key and, opening, its run key are
 * set, a->seq 0); "-REASON" -ECONNREFUSED; else -EPROTO.
 * diot_ack_read_answer(): "+MAC'" for record a->seq, 0 (a->seq counts
 * it); "-REASON" -ECONNREFUSED with it in a->why; else -EPROTO.
 */
int diot_ack_read_challenge(struct diot_ack *a, const char *line, size_t len, char *err,
                            size_t errlen);
int diot_ack_read_welcome(struct diot_ack *a, const char *line, size_t len, char *err,
                          size_t errlen);
int diot_ack_read_answer(struct diot_ack *a, const char *line, size_t len);
/* The hello for a's run (a->cnonce, a->join set): its length in out. */
size_t diot_ack_hello_line(const struct diot_ack *a, char *out, size_t n);
/* The proof line for a's hello and nonces: its length in out. */
size_t diot_ack_proof_line(const struct diot_ack *a, char *out, size_t n);

/* ------------------------------------------------------------ the token */

/*
 * Tokens (ack-token.c).  diot_ack_token_parse(): hex (either case) of 16
 * to 64 bytes, blanks and a newline after it allowed.  _read(): a file's
 * token, refused when the file is not a regular file or its group or
 * others may read or write it (as ssh refuses a private key).  _env():
 * DIO_ACK_TOKEN's; 0 when it is not set.  _create(): a new token (256
 * random bits) written to path, created with mode 0600 exclusively and
 * never through a symlink; replace: an existing regular file is replaced
 * (a symlink is still refused).  Each returns 0 (1: _env found one), or
 * -errno with the reason in err.
 */
int diot_ack_token_parse(const char *hex, size_t len, struct diot_ack_token *t,
                         char *err, size_t errlen);
int diot_ack_token_read(const char *path, struct diot_ack_token *t, char *err,
                        size_t errlen);
int diot_ack_token_env(struct diot_ack_token *t, char *err, size_t errlen);
int diot_ack_token_create(const char *path, int replace, struct diot_ack_token *t,
                          char *err, size_t errlen);
/* Can this build check MACs (a MAC library)?  Without, AUTH is plain. */
int diot_ack_has_mac(void);

/* Close; a created file is kept (it is the run's record). */
void diot_ack_close(struct diot_ack *a);

/* -------------------------------------------------------- the line reader */

/*
 * What a record is, as the tool that writes them says (sync-write:
 * sw_ackrec_records, tools/sw/ackrec.c).  check() is asked of every line
 * after the hello, len bytes with its '\n': DIOT_ACK_REC_NO (not a
 * record: the connection is cut), DIOT_ACK_REC_YES (a record: logged and
 * answered), DIOT_ACK_REC_RUN (a record that names its run, *run: it must
 * be the hello's) or DIOT_ACK_REC_END (the record that ends its run).
 * other_run is the words for a connection cut for DIOT_ACK_BAD_RUN.
 */
enum diot_ack_verdict {
	DIOT_ACK_REC_NO = 0,
	DIOT_ACK_REC_YES = 1,
	DIOT_ACK_REC_RUN = 2,
	DIOT_ACK_REC_END = 3
};
struct diot_ack_records {
	int (*check)(const char *line, size_t len, uint64_t *run);
	const char *other_run;
};

/*
 * What the listener takes from one connection's bytes, with no socket in
 * it (a fuzzer feeds it buffers): the bytes go in (diot_ack_reader_put(),
 * or read straight into diot_ack_reader_room() then
 * diot_ack_reader_add()), and diot_ack_reader_next() hands out complete
 * lines one at a time and says what each is: the hello first, then the
 * proof, then only records whose MAC holds and that the tool's check()
 * says are records (none, without one: the reader fails closed).  The
 * listener answers the hello with diot_ack_reader_challenge() and the
 * proof with diot_ack_reader_prove(), and each record logged with
 * diot_ack_reader_answer().
 */
enum diot_ack_line_kind {
	DIOT_ACK_MORE = 0,      /* no complete line yet: put more bytes  */
	DIOT_ACK_HELLO = 1,     /* the hello: rd->run, rd->join, rd->plain */
	DIOT_ACK_RECORD = 2,    /* a record: log it, then answer it      */
	DIOT_ACK_PROOF = 3      /* the proof: diot_ack_reader_prove()    */
};
/* Why a connection is cut (diot_ack_reader_next() below 0). */
enum diot_ack_bad {
	DIOT_ACK_BAD_LONG = -1,     /* a line over DIOT_ACK_WIRE_MAX bytes    */
	DIOT_ACK_BAD_NUL = -2,      /* a NUL byte in a line                   */
	DIOT_ACK_BAD_RECORD = -3,   /* not a record (the tool's check())      */
	DIOT_ACK_BAD_HELLO = -4,    /* the first line is not a hello, the
	                             * second not a proof, or a second hello  */
	DIOT_ACK_BAD_RUN = -5,      /* a record naming another run than the
	                             * hello's                                */
	DIOT_ACK_BAD_VERSION = -6,  /* a hello of another protocol (rd->version) */
	DIOT_ACK_BAD_TOKEN = -7,    /* a proof that does not prove the token  */
	DIOT_ACK_BAD_STOLEN = -8,   /* the token, but not the run's key       */
	DIOT_ACK_BAD_MAC = -9       /* a record whose MAC fails               */
};
#define DIOT_ACK_BAD_COUNT 10   /* -DIOT_ACK_BAD_* are below this */

struct diot_ack_reader {
	const struct diot_ack_records *rec;     /* what a record is         */
	const struct diot_ack_token *token;     /* the listener's           */
	int state;              /* 0 hello, 1 challenged, 2 proof taken,
	                         * 3 records                               */
	int ends;               /* the last record handed out ends its run */
	int bad;                /* 0, or the enum diot_ack_bad: for good   */
	int version;            /* DIOT_ACK_BAD_VERSION: the hello's        */
	int join, plain;        /* the hello: join a run; AUTH plain       */
	uint64_t run;           /* the hello's run                          */
	uint64_t seq;           /* records taken                           */
	uint64_t answered;      /* answers made                            */
	unsigned char cnonce[DIOT_ACK_NONCE], snonce[DIOT_ACK_NONCE];
	unsigned char proof[DIOT_ACK_TOKEN_MAX], rproof[DIOT_ACK_KEY];
	size_t proof_len;       /* plain: the token's bytes                */
	unsigned char k[DIOT_ACK_KEY];          /* the connection's key    */
	unsigned char rk[DIOT_ACK_KEY];         /* open: the run's key     */
	size_t start, used;     /* unread bytes: buf[start, used)          */
	char buf[DIOT_ACK_WIRE_MAX];
};

/* A new connection's reader, taking rec's records (NULL: none), proved
 * with token (NULL: nothing is). */
void diot_ack_reader_init(struct diot_ack_reader *rd, const struct diot_ack_records *rec,
                          const struct diot_ack_token *token);
/* Where the next bytes go, and how many fit (0: full, or cut). */
char *diot_ack_reader_room(struct diot_ack_reader *rd, size_t *room);
/* n bytes were written into the room. */
void diot_ack_reader_add(struct diot_ack_reader *rd, size_t n);
/* Copy up to n bytes of p in; returns how many were taken (call next()
 * until it says MORE, then put the rest). */
size_t diot_ack_reader_put(struct diot_ack_reader *rd, const void *p, size_t n);
/*
 * The next complete line: DIOT_ACK_HELLO, DIOT_ACK_PROOF or
 * DIOT_ACK_RECORD with *line and *len (a record's bytes without its MAC,
 * the newline included; valid until the next call on rd), or
 * DIOT_ACK_MORE (also while a hello waits for its challenge, or a proof
 * for its verdict), or the reason (enum diot_ack_bad) the connection must
 * be cut, again on every later call.  After a record, rd->ends says
 * whether it ends its run (DIOT_ACK_REC_END).
 */
int diot_ack_reader_next(struct diot_ack_reader *rd, const char **line, size_t *len);
/* After the hello: snonce (DIOT_ACK_NONCE random bytes) is this
 * connection's; the "C SNONCE" line to send goes to out (n bytes: 64 is
 * enough).  Its length. */
size_t diot_ack_reader_challenge(struct diot_ack_reader *rd, const unsigned char *snonce,
                                 char *out, size_t n);
/*
 * After the proof: does it prove the token (and, to join, rk: the run's
 * key, NULL when the listener has no such run)?  0 and the "+LPROOF" line
 * to send in out (n bytes: 80 is enough; opening, rd->rk is the run's
 * key); or DIOT_ACK_BAD_TOKEN or DIOT_ACK_BAD_STOLEN, for good.
 */
int diot_ack_reader_prove(struct diot_ack_reader *rd, const unsigned char *rk, char *out,
                          size_t n);
/* The answer to the next record logged ("+MAC'"), into out (n bytes:
 * 40 is enough).  Its length. */
size_t diot_ack_reader_answer(struct diot_ack_reader *rd, char *out, size_t n);
/* A hello of protocol 2 (len bytes, its '\n' included)?  1 and its
 * fields, or 0; a hello of another protocol: 0 and *version (else 0). */
int diot_ack_hello_check(const char *line, size_t len, uint64_t *run, int *join,
                         int *plain, unsigned char *cnonce, int *version);
/* Words for an enum diot_ack_bad (rec: whose records, for BAD_RUN). */
const char *diot_ack_bad_name(const struct diot_ack_records *rec, int why);

/* ----------------------------------------------------------- the listener */

/*
 * diot_ack_listen() binds spec: "PORT" alone is loopback only (127.0.0.1
 * and ::1, each that the system has; one it lacks is said in l->note);
 * any other address is named: "0.0.0.0:PORT", "[::]:PORT" (IPv4 too where
 * the system's IPV6_V6ONLY default says so), "HOST:PORT" (every address
 * the name resolves to).  PORT 0 takes one free port, the same on every
 * socket where it can.  It fills l (l->fd[], l->name[] "ADDRESS:PORT" of
 * each) and returns 0, or -errno with the reason in err (nothing left
 * open).  diot_ack_unlisten() closes them.
 *
 * diot_ack_serve() serves every connection on its own, so that none can
 * stall another: sockets are non-blocking; each connection has a bounded
 * input (one line) and a bounded count of answers owed; one that does not
 * take its answers is no longer read from, and is cut (with a reset) once
 * answers have waited for it stall_s seconds, here or, where the system
 * says, more than two in the kernel (a sender waits for each answer, so
 * it has one at most in flight); so is one that leaves a line unfinished
 * that long, and one that says no hello within hello_s seconds.  At
 * max_conns connections (at most DIOT_ACK_MAX_CONNS), a new one takes the
 * place of the oldest connection whose run has logged no record yet (a
 * hello and nothing since: it is cut, and counted idle); when every
 * connection's run has logged, the new one is answered "-listener full: N
 * connections" and closed, so its sender says why.
 *
 * Logs: the first run that sends a record gets logfd.  Each other run
 * gets a log of its own, LOGPATH.RUNID, created exclusively (O_EXCL,
 * O_NOFOLLOW, mode 0600) next to it
 * (note() is told its name); when logfd is not a regular file (standard
 * output, a character device: logpath NULL or not a file), another run is
 * refused instead.  At most max_runs runs that logged a record;
 * a run that has logged none takes no place once its connections are
 * gone (it is forgotten: its next hello starts it again).  So each log holds
 * one run's records (after --force, the first log: the runs already in it,
 * then one run).  A run's own log is created at its first record, so a
 * run that sends none leaves no file.  A connection that closes before
 * its hello, or is cut, ends nothing but itself.
 *
 * Answers are commits.  In each round of the loop every complete record
 * of every connection is written to its run's log, then each log written
 * is committed (one fdatasync() per log: the round's records share it),
 * and only then are their answers owed.  A log that cannot commit at all
 * (standard output, a pipe, a terminal: EINVAL) is written, not committed.
 *
 * Bounds (the cfg; 0 takes the default): max_runs runs that logged (at
 * most DIOT_ACK_MAX_RUNS); max_log_bytes bytes a run writes to its log
 * (0: no bound); max_per_host connections from one peer address (0: none
 * but max_conns; at it, a new one takes the place of that address's
 * oldest connection whose run has logged nothing, as at max_conns).
 * Reaching one refuses the new run or connection, or the run's record
 * that would pass the bytes bound, with a reason naming the bound; never
 * another run.
 *
 * A run is refused (diot__ack_run_refuse(), ack-runs.c) for a bound, or
 * when its log cannot be written (a full disk: the part of the record
 * written is cut off again; the records before it, answered and
 * committed, stay whole) or committed (a failed fdatasync(): the round's
 * records are not answered, and after EIO the log is no longer trusted).
 * From then on its records and hellos are refused with the reason
 * (st->runs[].why); the listener goes on serving every other run.
 *
 * It returns once runs (cfg) runs have ended -- logged a record and closed
 * every connection (0: never by itself) -- or once *stop becomes non-zero
 * -- also while a log write waits (a pipe nobody reads, a stopped
 * terminal): the write gives up, the record is not answered, and where
 * the log is a regular file the part written is cut off again.  The logs
 * are then synced (logfd is not closed; the others are).  It fills *st
 * (may be NULL) and returns 0, or -errno when the listener itself failed
 * or a log could not be synced at the end.
 */
#define DIOT_ACK_MAX_RUNS 64
#define DIOT_ACK_MAX_CONNS 1024
/* Runs known at once: those that logged, and one per connection at most
 * of those that have not yet. */
#define DIOT_ACK_RUN_SLOTS (DIOT_ACK_MAX_RUNS + DIOT_ACK_MAX_CONNS)
#define DIOT_ACK_HELLO_S 10
#define DIOT_ACK_STALL_S 10

struct diot_ack_run {
	uint64_t id;
	uint64_t records;       /* logged (and answered, or being)         */
	uint64_t bytes;         /* written to its log by this listener     */
	int log;                /* -1: none yet; 0: logfd; 1: its own log  */
	int ended;              /* its ending record is logged             */
	int refused;            /* 0, or DIOT_ACK_BOUND / DIOT_ACK_FAILED:
	                         * refused from then on, for why           */
	char why[200];
};
enum { DIOT_ACK_BOUND = 1, DIOT_ACK_FAILED = 2 };

struct diot_ack_stats {
	uint64_t connections;   /* accepted                                */
	uint64_t records;       /* logged                                  */
	uint64_t bad;           /* cut for a line that is not a record     */
	uint64_t bad_token;     /* cut: a proof without the token          */
	uint64_t bad_mac;       /* cut: a record whose MAC failed          */
	uint64_t stolen;        /* cut: the token, another's run           */
	uint64_t old;           /* refused: another protocol's hello       */
	uint64_t slow;          /* cut: answers not taken, or a line left
	                         * unfinished, for stall_s                 */
	uint64_t stray;         /* closed, or cut, without saying hello    */
	uint64_t idle;          /* cut at max_conns: its run had logged
	                         * nothing (its place went to a new one)   */
	uint64_t refused;       /* over max_conns, or a run refused        */
	uint64_t over_runs;     /* hellos refused: max_runs runs logged    */
	uint64_t over_bytes;    /* records refused: max_log_bytes reached  */
	uint64_t over_host;     /* connections refused: max_per_host       */
	uint64_t failed;        /* runs whose log failed (write, commit)   */
	uint64_t commits;       /* fdatasync() calls that committed        */
	uint64_t committed;     /* records they committed                  */
	int ended;              /* runs ended: logged, connections closed  */
	int nruns;              /* at the end: the runs that logged        */
	struct diot_ack_run runs[DIOT_ACK_RUN_SLOTS];
};

#define DIOT_ACK_MAX_LISTEN 16

struct diot_ack_listening {
	int n;                  /* sockets bound                           */
	int fd[DIOT_ACK_MAX_LISTEN];
	int loopback[DIOT_ACK_MAX_LISTEN];  /* 1: a loopback address      */
	char name[DIOT_ACK_MAX_LISTEN][64]; /* "127.0.0.1:7070", "[::1]:7070" */
	char note[160];         /* what was not bound and why ("" if none) */
};

struct diot_ack_serve_cfg {
	const int *lfd;         /* from diot_ack_listen(): polled all      */
	int nlfd;
	int logfd;              /* the first run's log                     */
	const char *logpath;    /* its path (NULL: standard output)        */
	int hello_s, stall_s;   /* 0: DIOT_ACK_HELLO_S, DIOT_ACK_STALL_S   */
	int max_conns;          /* 0: DIOT_ACK_MAX_CONNS                   */
	int max_runs;           /* 0: DIOT_ACK_MAX_RUNS (the most)         */
	int max_per_host;       /* 0: max_conns                            */
	uint64_t max_log_bytes; /* per run; 0: no bound                    */
	int runs;               /* return once this many ended; 0: never   */
	const struct diot_ack_records *records;     /* what is logged      */
	const struct diot_ack_token *token;         /* the proofs' secret  */
	void (*note)(void *arg, const char *msg);   /* may be NULL         */
	void *note_arg;
};

int diot_ack_listen(const char *spec, struct diot_ack_listening *l, char *err,
                    size_t errlen);
void diot_ack_unlisten(struct diot_ack_listening *l);
int diot_ack_serve(const struct diot_ack_serve_cfg *cfg, const volatile sig_atomic_t *stop,
                   struct diot_ack_stats *st, char *err, size_t errlen);

#endif /* DIOT_ACK_H */
