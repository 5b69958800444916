#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# sync-write-listen.sh -- the acknowledgement records off the machine under
# test: sync-write --listen [HOST:]PORT --ack-log FILE receives what a run
# with --ack-log tcp:HOST:PORT sends.  On loopback: writer processes and
# threads, every point's records in the listener's log, --check of that
# log; a listener that goes away fails the run; bad addresses and option
# combinations are refused.  Two runs at once get a log each; stray
# connections, lines that are not records and a client that floods
# without reading its answers are cut while a real run goes on; a
# listener stopped by a signal keeps every answered record, whole (also
# while its write to a pipe nobody reads waits); hello-only runs take no
# place, silent connections at the cap give theirs to a real run, and a
# run past the cap is told the listener is full; a FIFO as a log is
# refused.  Each listener here ends by --runs N, once N runs have ended
# (the bounds and a listener serving until a signal:
# sync-write-listen-bounds.sh).  As root, also across two network namespaces
# joined by a veth pair (two test hosts on this machine).
. "${top_srcdir:-.}/tests/lib.sh"

SW=$tools/sync-write
ack_clients     # (tests/ack_client.py, for the python clients below)
work=$(mktemp -d "$top_builddir/sw-listen.XXXXXX") || hard "mktemp"
ns1=dio-lsn1.$$ ns2=dio-lsn2.$$
cleanup() {
	[ -n "${lpid:-}" ] && kill "$lpid" 2>/dev/null
	ip netns del "$ns1" 2>/dev/null
	ip netns del "$ns2" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }

# listen LOG: start a listener on a free port (lib.sh); sets lpid, port.
# It ends once $RUNS runs (default 1) have ended ($LOPTS: more options).
listen() {
	log=$1
	# shellcheck disable=SC2086
	listener_start "$log" --runs "${RUNS:-1}" ${LOPTS:-}
}
# finish: wait for the listener to end by itself (its --runs runs are done).
# Bounded: a listener still there 60 s after its senders is a failure.
finish() {
	if ! wait_for 60 "the listener to end" gone "$lpid"; then
		kill "$lpid"; wait "$lpid"; lpid=
		bad "the listener did not end within 60 s of its senders: $(cat "$log.err")"
		return
	fi
	wait "$lpid"; st=$?; lpid=
	[ $st -eq 0 ] && ok "the listener ended when its senders were done" ||
		bad "the listener exited $st: $(cat "$log.err")"
}

# 1. Processes and threads, two points each: every record reaches the log.
for mode in --processes --threads; do
	opt=$mode; [ "$mode" = --processes ] && opt=
	rm -f "$work/f" "$work/l.log"
	listen "$work/l.log"
	out=$("$SW" -q $opt -m fdatasync -s 4k -w 1,2 -n 40 --keep \
		--ack-log "tcp:127.0.0.1:$port" "$work/f" 2>&1) || bad "run $mode: $out"
	finish
	a=$(grep -c '^A ' "$work/l.log")
	[ "$a" -eq 120 ] && ok "$mode: 120 acknowledgements in the listener's log" ||
		bad "$mode: $a acknowledgements in the listener's log, want 120"
	[ "$(grep -c '^P ' "$work/l.log")" -eq 2 ] && [ "$(tail -n 1 "$work/l.log")" = E ] &&
		ok "$mode: both points and the end recorded" || bad "$mode: points or end missing"
	grep -q 'records from 4 connections' "$work/l.log.err" &&
		ok "$mode: a connection per writer and one for the run" ||
		bad "$mode: connections: $(cat "$work/l.log.err")"
	out=$("$SW" --check "$work/l.log" 2>&1) && echo "$out" | grep -q "^OK: every" &&
		ok "$mode: --check of the listener's log" || bad "$mode: --check: $out"
done

# 2. The listener goes away mid-run: the run fails, saying why.
rm -f "$work/f" "$work/l.log"
listen "$work/l.log"
"$SW" -q -m fdatasync -s 4k -t 20s --keep --ack-log "tcp:127.0.0.1:$port" "$work/f" \
	>"$work/run.out" 2>&1 &
rpid=$!
wait_for 60 "the run's first acknowledgement in the listener's log" grep -qs '^A ' "$work/l.log"
kill -TERM "$lpid"; wait "$lpid"; st=$?; lpid=
[ $st -eq 143 ] && ok "the listener stopped by SIGTERM exits 143" || bad "listener exit $st"
wait "$rpid"; st=$?
[ $st -eq 1 ] && grep -q "writing the ack log 'tcp:127.0.0.1:$port' failed: connection" \
	"$work/run.out" && ok "the run fails once its listener is gone" ||
	bad "run exit $st: $(cat "$work/run.out")"
n=$(grep -c '^A ' "$work/l.log")
out=$("$SW" --check "$work/l.log" "$work/f" 2>&1) && echo "$out" | grep -q "^OK: every" &&
	ok "the $n acknowledgements the listener answered are on the target" ||
	bad "--check after the listener went away: $out"

# 3. Refusals.
expect() { _w=$1 _p=$2; shift 2; expect_exit "$_w" "$_p" "$SW" "$@"; }
expect 2 "give HOST:PORT" -q -m none -s 4k -n 1 --ack-log tcp:localhost "$work/g"
expect 2 "port must be a number from 1 to 65535" -q -m none -s 4k -n 1 --ack-log tcp:h:0 "$work/g"
expect 1 "cannot connect to the listener at 127.0.0.1 port 1: connection refused" \
	-q -m none -s 4k -n 1 --ack-log tcp:127.0.0.1:1 "$work/g"
[ -e "$work/g" ] && bad "a refused run left its target"
expect 2 "needs --ack-log FILE" --listen 0
expect 2 "needs --ack-log FILE" --listen 0 --ack-log tcp:127.0.0.1:7
expect 2 "takes no TARGET" --listen 0 --ack-log "$work/x.log" "$work/g"
expect 2 "port must be a number from 0 to 65535" --listen 70000 --ack-log "$work/x.log"
touch "$work/exists.log"
expect 2 "pass --force to append" --listen 127.0.0.1:0 --ack-log "$work/exists.log"
listen "$work/busy.log"
expect 1 "address already in use" --listen "127.0.0.1:$port" --ack-log "$work/y.log"
kill "$lpid"; wait "$lpid" 2>/dev/null; lpid=

# 4. Two runs at once: a log per run (the first run's in the log named, the
#    other's in LOG.RUNID, said on stderr), each checked by --check; then
#    a --force append of a third run, which --check picks by its target.
rm -f "$work/fa" "$work/fb" "$work/m.log"*
RUNS=2 listen "$work/m.log"
"$SW" -q -m fdatasync -s 4k -t 5s --region 4m --keep --ack-log "tcp:127.0.0.1:$port" \
	"$work/fa" >"$work/ra.out" 2>&1 &
rapid=$!
wait_for 60 "run A's first acknowledgement" grep -qs '^A ' "$work/m.log"
out=$("$SW" -q -m fdatasync -s 4k -w 2 -n 40 --region 4m --keep \
	--ack-log "tcp:127.0.0.1:$port" "$work/fb" 2>&1) || bad "run B beside run A: $out"
kill -0 "$rapid" 2>/dev/null && ok "run B ran while run A was running" ||
	echo "note: run A had ended before run B did (a slow machine): B still came while A's connection was open"
wait "$rapid" || bad "run A beside run B: $(cat "$work/ra.out")"
finish
own=$(sed -n "s/.*; this run's go to '\(.*\)'$/\1/p" "$work/m.log.err")
if [ -n "$own" ] && [ -f "$own" ] && [ "$(grep -c '^R ' "$work/m.log")" -eq 1 ] &&
   [ "$(grep -c '^R ' "$own")" -eq 1 ]; then
	ok "two runs at once: one run's records in each log (${own##*/})"
else
	bad "two runs at once: logs: $(ls "$work"/m.log*): $(cat "$work/m.log.err")"
fi
grep -q "check it with: sync-write --check '$own' TARGET" "$work/m.log.err" &&
	ok "the summary names each log and how to check it" ||
	bad "summary: $(cat "$work/m.log.err")"
out=$("$SW" --check "$work/m.log" "$work/fa" 2>&1) && echo "$out" | grep -q "^OK: every" &&
	ok "--check of run A's log" || bad "--check of run A's log: $out"
out=$("$SW" --check "$own" "$work/fb" 2>&1) && echo "$out" | grep -q "^OK: every" &&
	ok "--check of run B's log" || bad "--check of run B's log: $out"
# The refusal's advice: --force appends the next run after run A.
rm -f "$work/fc" "$work/m.log.err"
log=$work/m.log
"$SW" --listen 127.0.0.1:0 --runs 1 --force --ack-log "$work/m.log" 2>"$work/m.log.err" &
lpid=$!
listener_port "$work/m.log.err"
DIO_ACK_TOKEN=$(cat "$work/m.log.token")     # --force made a new one
out=$("$SW" -q -m fdatasync -s 4k -n 30 --region 4m --keep \
	--ack-log "tcp:127.0.0.1:$port" "$work/fc" 2>&1) || bad "run C: $out"
finish
[ "$(grep -c '^R ' "$work/m.log")" -eq 2 ] && ok "--force: run C appended after run A" ||
	bad "--force: $(grep -c '^R ' "$work/m.log") runs in the log"
out=$("$SW" --check "$work/m.log" "$work/fc" 2>&1) && echo "$out" | grep -q "^OK: every" &&
	ok "--check of the appended log picks run C by its target" || bad "--check of run C: $out"

# The clients below speak the wire directly: python3.
cat >"$work/client.py" <<'PY'
import os, resource, socket, sys, time
from ack_client import Refused, connect, hello, line, raise_fd_limit, cut as cut_said
mode, port = sys.argv[1], int(sys.argv[2])
token = bytes.fromhex(os.environ["DIO_ACK_TOKEN"])
raise_fd_limit()
def conn(rcvbuf=None):
    return connect(port, rcvbuf=rcvbuf)
def cut(s, limit=30):
    """The listener closes s (EOF or a reset) within limit seconds?"""
    return cut_said(s, limit)[0]
def raw(arg):
    return arg.encode().decode("unicode_escape").encode("latin1")
if mode == "stray":             # connect, close
    conn().close()
elif mode == "send":            # bytes (\n, \0 escapes), then: cut?
    s = conn()
    s.sendall(raw(sys.argv[3]))
    print("cut" if cut(s) else "kept")
elif mode == "sealed":          # open run RUN, then lines sealed: cut?
    s = conn()
    sess = hello(s, int(sys.argv[3], 16), token)
    for l in raw(sys.argv[4]).split(b"\n")[:-1]:
        s.sendall(sess.seal(l + b"\n"))
        sess.seq += 1
    print("cut" if cut(s) else "kept")
elif mode == "flood":           # hello, then records, never reading an answer
    s = conn(4096)
    sess = hello(s, 0xf00d, token)
    sess.send(b"A 0 1 0\n")   # answered: the first log is its
    print("flooding", flush=True)
    t0 = time.time()
    try:
        while time.time() - t0 < 120:
            chunk = []
            for i in range(1024):
                chunk.append(sess.seal(b"A 0 1 0\n"))
                sess.seq += 1
            s.sendall(b"".join(chunk))
    except OSError:
        print("cut after %.1f s" % (time.time() - t0), flush=True)
        sys.exit(0)
    print("never cut", flush=True)
    sys.exit(1)
elif mode == "hellos":          # N runs that say hello, then close
    for i in range(int(sys.argv[3])):
        s = conn()
        try:
            hello(s, 0xdead0000 + i, token)
        except (Refused, OSError) as e:
            print("hello %d refused: %s" % (i, e))
            sys.exit(1)
        s.close()
elif mode == "hold":            # N connections of run RUN (the first opens
    n, run, logs, flag = int(sys.argv[3]), int(sys.argv[4], 16), sys.argv[5] == "1", sys.argv[6]
    held, refused, rk = [], 0, None # it, and logs a record if LOGS; the
    for i in range(n):          # others join), held until FLAG exists
        s = conn()
        try:
            sess = hello(s, run, token, rk=rk)
            if rk is None and logs:
                sess.send(b"# sync-write ack-log 1\n")
            rk = sess.rk
            ok = True
        except (Refused, OSError):
            ok = False
        if ok:
            held.append(s)
        else:
            refused += 1
            s.close()
    print("held %d refused %d" % (len(held), refused), flush=True)
    t0 = time.time()
    while not os.path.exists(flag) and time.time() - t0 < 300:
        time.sleep(0.05)
    cut = 0
    for s in held:
        s.setblocking(False)
        try:
            cut += s.recv(1) == b""
        except BlockingIOError:
            pass
        except OSError:
            cut += 1
        s.close()
    print("cut %d" % cut, flush=True)
elif mode == "pump":            # a run's records, each answer awaited:
    s = conn()                  # says when one is not answered in 2 s
    sess = hello(s, 0xb10c, token)
    s.settimeout(2)
    j = 0
    try:
        while j < 10000000:
            if not sess.send(b"I 0 %d 0\n" % j):
                break
            j += 1
        print("ended after %d" % j, flush=True)
    except socket.timeout:
        print("stalled after %d" % j, flush=True)
        s.settimeout(120)
        try:
            s.recv(1)
        except OSError:
            pass
    except (OSError, Refused):
        print("cut after %d" % j, flush=True)
elif mode == "steady":          # a run's records, each answer awaited
    sent = open(sys.argv[3], "w")
    s = conn()
    lines = ["# sync-write ack-log 1", "R 5ead shared 0 4194304 /nowhere",
             "T file 1 0", "P 0 none 4096 1 1024"]
    answered, j = 0, 0
    try:
        sess = hello(s, 0x5ead, token)
        print("started", flush=True)
        while j < 10000000:
            if not lines:
                lines = ["I 0 %d %d" % (j, j % 1024 * 4096), "A 0 %d %d" % (j, j % 1024 * 4096)]
                j += 1
            l = lines.pop(0)
            sent.write(l + "\n")
            sent.flush()
            if not sess.send((l + "\n").encode()):
                break
            answered += 1
    except (OSError, Refused):
        pass
    print("answered %d" % answered, flush=True)
PY
if ! command -v python3 >/dev/null 2>&1; then
	echo "skipped: strays, lines that are not records, floods and the stop mid-stream need python3"
else
	# 5. Stray connections and lines that are not records: each cut, none
	#    logged or answered; the listener stays for the run that comes.
	rm -f "$work/f" "$work/s.log"
	listen "$work/s.log"
	python3 "$work/client.py" stray "$port"
	for line in 'GET / HTTP/1.0\r\n\r\n' '# sync-write ack-log 1\n' 'hello world\n' \
	            'A 0 0 0 \n' 'R abd shared 0 4096 /f\n' 'A 0\0 0 0\n'; do
		case $line in
		GET*|\#*) r=$(python3 "$work/client.py" send "$port" "$line") ;;
		*) r=$(python3 "$work/client.py" sealed "$port" abc "$line") ;;
		esac
		# printf: dash's echo would turn the \n and \0 into bytes.
		[ "$r" = cut ] && printf "ok   cut: '%s'\n" "$line" ||
			{ printf "FAIL not cut (%s): '%s'\n" "$r" "$line"; fail=1; }
	done
	kill -0 "$lpid" 2>/dev/null && ok "the listener is still there after the strays" ||
		bad "the strays ended the listener: $(cat "$work/s.log.err")"
	out=$("$SW" -q -m fdatasync -s 4k -n 20 --region 4m --keep \
		--ack-log "tcp:127.0.0.1:$port" "$work/f" 2>&1) || bad "run after the strays: $out"
	finish
	grep -q "cut: 6 for a line that is not a record, 0 for not taking their answers in time, 0 for a bad token, 0 for a bad MAC, 0 for another's run, 0 of another protocol; 1 stray" \
		"$work/s.log.err" && ok "the summary counts them" || bad "summary: $(cat "$work/s.log.err")"
	if grep -q '^GET\|^hello\|^R abd \|^H ' "$work/s.log" || [ -e "$work/s.log.abc" ] ||
	   [ "$(grep -c '^R ' "$work/s.log")" -ne 1 ]; then
		bad "what was not a record reached a log: $(cat "$work/s.log"*)"
	else
		ok "only the run's records in the log"
	fi
	out=$("$SW" --check "$work/s.log" "$work/f" 2>&1) && echo "$out" | grep -q "^OK: every" &&
		ok "--check of the run that came after the strays" || bad "--check: $out"

	# 6. A client that floods records and never reads its answers, while a
	#    real run sends through the same listener: the run completes (each
	#    record answered within its 30 s), the flood is cut (10 s).
	rm -f "$work/f" "$work/fl.log"*
	RUNS=2 listen "$work/fl.log"      # the flood's run ends too, once cut
	python3 "$work/client.py" flood "$port" >"$work/flood.out" 2>&1 &
	fpid=$!
	wait_for 60 "the flood to start" grep -qs flooding "$work/flood.out" ||
		bad "flood: $(cat "$work/flood.out")"
	t0=$(date +%s)
	out=$("$SW" -q -m fdatasync -s 4k -w 2 -n 100 --region 4m --keep \
		--ack-log "tcp:127.0.0.1:$port" "$work/f" 2>&1) &&
		ok "a run beside the flood completed in $(($(date +%s) - t0)) s" ||
		bad "the run beside the flood: $out"
	wait_for 60 "the flood to be cut" gone "$fpid"
	wait "$fpid" && ok "the flood was $(sed -n 's/^cut/cut/p' "$work/flood.out")" ||
		bad "flood: $(cat "$work/flood.out")"
	finish
	grep -q "1 for not taking their answers in time" "$work/fl.log.err" &&
		ok "the summary counts it" || bad "summary: $(cat "$work/fl.log.err")"
	own=$(sed -n "s/.*; this run's go to '\(.*\)'$/\1/p" "$work/fl.log.err")
	out=$("$SW" --check "${own:-none}" "$work/f" 2>&1) && echo "$out" | grep -q "^OK: every" &&
		ok "--check of the run's own log (the flood had the first)" || bad "--check: $out"

	# 7. Stopped by a signal mid-stream: exit 128 + the signal; every
	#    answered record is in the log, and nothing but whole records sent
	#    (one more at most: logged, its answer not yet out).
	for sig in TERM INT; do
		rm -f "$work/g.log" "$work/sent"
		listen "$work/g.log"
		python3 "$work/client.py" steady "$port" "$work/sent" >"$work/steady.out" 2>&1 &
		cpid=$!
		wait_for 60 "200 records in the log" eval '[ "$(wc -l <"$work/g.log")" -ge 200 ]'
		kill -"$sig" "$lpid"; wait "$lpid"; st=$?; lpid=
		want=143
		[ "$sig" = INT ] && want=130
		[ $st -eq $want ] && ok "SIG$sig: the listener exits $st" || bad "SIG$sig: exit $st"
		wait_for 60 "the client to end" gone "$cpid"
		wait "$cpid"
		n=$(sed -n 's/^answered \([0-9]*\)$/\1/p' "$work/steady.out")
		k=$(wc -l <"$work/g.log")
		if [ -n "$n" ] && [ "$k" -ge "$n" ] && [ "$k" -le $((n + 1)) ] &&
		   [ -z "$(tail -c 1 "$work/g.log")" ] &&
		   head -n "$k" "$work/sent" | cmp -s - "$work/g.log"; then
			ok "SIG$sig: the $n answered records in the log, whole, in order ($k lines)"
		else
			bad "SIG$sig: $n answered, $k lines in the log: $(tail -n 2 "$work/g.log")"
		fi
	done

	# 7b. Hellos that cost nothing: more runs than the listener takes say
	#     hello and close; none takes a place, a real run is served after
	#     them, and the listener then ends.
	rm -f "$work/f" "$work/h.log"*
	listen "$work/h.log"
	out=$(python3 "$work/client.py" hellos "$port" 100 2>&1) &&
		ok "100 runs said hello and closed" || bad "hellos: $out"
	out=$("$SW" -q --keep -m fdatasync -s 4k -n 20 --region 64k \
		--ack-log "tcp:127.0.0.1:$port" "$work/f" 2>&1) &&
		ok "a run after 100 hello-only runs is served" || bad "the run after the hellos: $out"
	finish
	[ "$(ls "$work"/h.log* | grep -vc '\.err$\|\.token$')" -eq 1 ] && grep -q '^E$' "$work/h.log" &&
		ok "only the real run has a log" || bad "logs: $(ls "$work"/h.log*)"

	# 7c. Connections that say hello and then nothing, as many as the
	#     listener holds: a real run still gets in (the oldest silent one
	#     gives its place), and they do not keep the listener once it is done.
	rm -f "$work/f" "$work/i.log"* "$work/go" "$work/hold.out"
	LOPTS="--max-conns-per-host 1024" listen "$work/i.log"
	python3 "$work/client.py" hold "$port" 1024 1d1e 0 "$work/go" >"$work/hold.out" 2>&1 &
	hpid=$!
	wait_for 120 "the silent connections" grep -qs '^held' "$work/hold.out" ||
		bad "hold: $(cat "$work/hold.out")"
	out=$("$SW" -q --keep -m fdatasync -s 4k -n 20 --region 64k \
		--ack-log "tcp:127.0.0.1:$port" "$work/f" 2>&1) &&
		ok "a run beside $(sed -n 's/^held \([0-9]*\).*/\1/p' "$work/hold.out") silent connections is served" ||
		bad "the run beside the silent connections: $out"
	finish
	: >"$work/go"
	wait "$hpid"
	grep -q "^cut [1-9]" "$work/hold.out" && grep -q " idle (a hello" "$work/i.log.err" &&
		ok "the silent connections were cut ($(tail -n 1 "$work/hold.out"))" ||
		bad "silent connections: $(cat "$work/hold.out") $(cat "$work/i.log.err")"

	# 7d. As many connections as the listener holds, all of a run that has
	#     logged: the next run is refused, and told why.
	# (hold.out gone first: the shell truncates it in the client's child,
	# so 7c's "held" line could otherwise start the run before the
	# connections are there)
	rm -f "$work/f" "$work/j.log"* "$work/go" "$work/hold.out"
	LOPTS="--max-conns-per-host 1024" listen "$work/j.log"
	python3 "$work/client.py" hold "$port" 1100 1f 1 "$work/go" >"$work/hold.out" 2>&1 &
	hpid=$!
	wait_for 120 "the connections" grep -qs '^held' "$work/hold.out" ||
		bad "hold: $(cat "$work/hold.out")"
	out=$("$SW" -q --keep -m fdatasync -s 4k -n 20 --region 64k \
		--ack-log "tcp:127.0.0.1:$port" "$work/f" 2>&1)
	st=$?
	case $st:$out in
	1:*"refused the run: listener full: "[0-9]*" connections"*)
		ok "a run past the cap: exit 1, refused: listener full" ;;
	*)	bad "a run past the cap: exit $st: $out; the client: $(cat "$work/hold.out")" ;;
	esac
	: >"$work/go"
	wait "$hpid"
	finish

	# 7e. The log is a pipe nobody reads: the listener's write waits, and
	#     SIGINT still ends it (exit 130).
	rm -f "$work/p.pid" "$work/p.rc"
	("$SW" --listen 127.0.0.1:0 --token-file "$work/p.token" --ack-log - 2>"$work/p.err" &
	 echo $! >"$work/p.pid"
	 wait $!; echo $? >"$work/p.rc") | sleep 600 &
	spid=$!
	listener_port "$work/p.err"
	DIO_ACK_TOKEN=$(cat "$work/p.token")
	python3 "$work/client.py" pump "$port" >"$work/pump.out" 2>&1 &
	cpid=$!
	wait_for 120 "a record not answered" grep -qs '^stalled' "$work/pump.out" ||
		bad "pump: $(cat "$work/pump.out")"
	kill -INT "$(cat "$work/p.pid")"
	if wait_for 30 "the listener to end" test -s "$work/p.rc"; then
		[ "$(cat "$work/p.rc")" -eq 130 ] &&
			ok "SIGINT while the log write waited: the listener exits 130" ||
			bad "SIGINT while the log write waited: exit $(cat "$work/p.rc"): $(cat "$work/p.err")"
	else
		bad "SIGINT while the log write waited: the listener is still there"
		kill -KILL "$(cat "$work/p.pid")"
	fi
	kill "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null
	wait_for 60 "the pump to end" gone "$cpid"
	wait "$cpid"
fi

# 4b. A run that is still setting its target up when another run ends: the
#    listener stays for it (its log's first line went out with its hello).
#    Run B's first write (the prefill) is held 4 s by strace; run A starts
#    and ends meanwhile.
if ! command -v strace >/dev/null 2>&1; then
	echo "skipped: a run held in its set-up needs strace"
else
	rm -f "$work/fa" "$work/fb" "$work/s.log"*
	RUNS=2 listen "$work/s.log"
	# (LeakSanitizer cannot run under ptrace: sanitizer builds)
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -o /dev/null -e trace=pwrite64 -e inject=pwrite64:delay_enter=4000000:when=1 \
		"$SW" -q -m fdatasync -s 4k -n 20 --region 1m --keep \
		--ack-log "tcp:127.0.0.1:$port" "$work/fb" >"$work/rb.out" 2>&1 &
	rbpid=$!
	# (B's connection is made just before its hello and first line: then
	# the 4 s prefill)
	wait_for 60 "run B's connection to the listener" sh -c \
		"ss -Htn state established '( dport = :$port )' | grep -q ." ||
		bad "run B did not connect"
	out=$("$SW" -q -m fdatasync -s 4k -n 20 --region 64k --keep \
		--ack-log "tcp:127.0.0.1:$port" "$work/fa" 2>&1) || bad "run A: $out"
	grep -q '^R ' "$work/s.log" &&
		echo "note: run B had its target set up before run A ended (a slow machine)" ||
		ok "run A ended while run B was setting its target up"
	wait "$rbpid" && ok "run B, set up while another run ended, was served" ||
		bad "run B: $(cat "$work/rb.out")"
	finish
	out=$("$SW" --check "$work/s.log" "$work/fb" 2>&1) && echo "$out" | grep -q "^OK: every" &&
		ok "--check of run B's log" || bad "--check of run B's log: $out"
fi

# 8. A FIFO as a log: refused at once, never waited on (the listener's,
#    and a run's own).
mkfifo "$work/fifo"
expect_exit 2 "is a FIFO" timeout 20 "$SW" --listen 127.0.0.1:0 --force --ack-log "$work/fifo"
expect_exit 2 "is a FIFO" timeout 20 "$SW" --listen 127.0.0.1:0 --ack-log "$work/fifo"
expect_exit 2 "is a FIFO" timeout 20 "$SW" -q -m none -s 4k -n 1 --force --ack-log "$work/fifo" \
	"$work/g"

# 9. Two test hosts: the listener in one network namespace, the writer in
#    another, joined by a veth pair.
if ! grep -q '^#define DIO_HAVE_CRYPTO 1' "$top_builddir/config.h"; then
	# Without a MAC library the listener keeps to loopback.
	expect_exit 2 "built without a MAC library" "$SW" --listen 0.0.0.0:0 --ack-log "$work/n.log"
	echo "skipped: two hosts in network namespaces need a MAC library (configure --with-crypto)"
elif [ "$(id -u)" -ne 0 ] || ! command -v ip >/dev/null 2>&1; then
	echo "skipped: two hosts in network namespaces need root and ip (iproute2)"
elif ! ip netns add "$ns1" 2>/dev/null || ! ip netns add "$ns2"; then
	echo "skipped: network namespaces cannot be made here"
elif ! err=$(ip netns exec "$ns1" true 2>&1); then
	# ip netns exec makes / a slave mount in a new mount namespace: in a
	# chroot whose / is not a mount point (debootstrap, tests/fresh-root.sh)
	# it cannot; the two hosts cannot be had there.
	echo "skipped: 'ip netns exec' does not work here ($err)"
else
	ip link add "dl1$$" netns "$ns1" type veth peer name "dl2$$" netns "$ns2" &&
	ip -n "$ns1" addr add 192.0.2.1/24 dev "dl1$$" && ip -n "$ns1" link set "dl1$$" up &&
	ip -n "$ns2" addr add 192.0.2.2/24 dev "dl2$$" && ip -n "$ns2" link set "dl2$$" up ||
		hard "cannot link the two namespaces"
	rm -f "$work/f" "$work/l.log"
	LISTEN_ADDR=192.0.2.1 LISTEN_WRAP="ip netns exec $ns1" listen "$work/l.log"
	out=$(ip netns exec "$ns2" "$SW" -q -m fdatasync,dsync -s 4k -w 2 -n 25 --keep \
		--ack-log "tcp:192.0.2.1:$port" "$work/f" 2>&1) || bad "run from the other host: $out"
	finish
	[ "$(grep -c '^A ' "$work/l.log")" -eq 100 ] &&
		ok "host 2's 100 acknowledgements in host 1's log" || bad "records across hosts"
	out=$("$SW" --check "$work/l.log" 2>&1) && echo "$out" | grep -q "^OK: every" &&
		ok "--check of the log kept on the other host" || bad "--check: $out"
fi
exit $fail
