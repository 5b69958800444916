#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# sync-write-listen-bounds.sh -- the listener's bounds, on loopback only.
# A listener without --runs serves until a signal: a run that ends, a
# stranger that connects and leaves, end nothing.  Beside a real run of
# several writers (which completes, and whose log passes --check): a run
# that writes past --max-log-bytes is refused from then on, told why on
# the wire, its log whole and within the bound; 2,000 connections from one
# address (127.0.0.2) are refused past --max-conns-per-host, counted; a
# slowloris client (a byte a second) and a client that sends nothing are
# cut.  The listener is still serving afterwards (a second real run
# passes) and ends on SIGTERM (143).  --max-runs: a run past it is refused
# at its hello, and sync-write prints the reason.  Logs are mode 0600, and
# --force never appends through a symbolic link.
#
# The hostile clients speak the wire in python3; each one's connection and
# hello is hello() below (the one place to change for another protocol).
. "${top_srcdir:-.}/tests/lib.sh"

SW=$tools/sync-write
command -v python3 >/dev/null 2>&1 || skip "the hostile clients need python3"
ack_clients
work=$(mktemp -d "$top_builddir/sw-bounds.XXXXXX") || hard "mktemp"
cleanup() {
	[ -n "${lpid:-}" ] && kill "$lpid" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }

alive() {
	kill -0 "$lpid" 2>/dev/null && ok "the listener is still serving $1" ||
		bad "the listener ended $1: $(cat "$log.err")"
}
# A real run: 4 writers, method none, its records through the listener.
real_run() {
	"$SW" -q -m none -s 4k -w 4 -n 100 --region 1m --keep \
		--ack-log "tcp:127.0.0.1:$port" "$1" 2>&1
}
# The log that holds the run on TARGET $1 (its R record names it).
log_of() {
	grep -l "^R .* $1\$" "$work"/b.log* 2>/dev/null | head -n 1
}

cat >"$work/client.py" <<'PY'
import os, resource, socket, sys, time
import ack_client
mode, port = sys.argv[1], int(sys.argv[2])
token = bytes.fromhex(os.environ["DIO_ACK_TOKEN"])
ack_client.raise_fd_limit()

sessions = {}

def hello(sock, run, rk=None):
    """Connect sock to the listener and open run (an int) with the token
    (DIO_ACK_TOKEN), or join it with its key rk: '' when it is taken, the
    reason when refused, None when the connection ended without one."""
    sock.settimeout(30)
    try:
        sock.connect(("127.0.0.1", port))
        sessions[sock] = ack_client.hello(sock, run, token, rk=rk)
        return ""
    except ack_client.Refused as e:
        return str(e) if str(e) not in ("closed at the hello", "closed at the proof") else None
    except OSError:
        return None

def rec(sock, record):
    """Send a record on sock's run: '' when answered (and the answer proves
    the token), the reason when refused, None otherwise."""
    try:
        return "" if sessions[sock].send(record) else None
    except ack_client.Refused as e:
        return str(e) or None
    except OSError:
        return None

def cut(sock, limit):
    """Seconds until the listener closed sock (EOF or a reset), or None."""
    t0 = time.time()
    sock.settimeout(limit)
    try:
        while sock.recv(4096):
            pass
    except ConnectionResetError:
        pass
    except socket.timeout:
        return None
    return time.time() - t0

if mode == "bytes":             # records until one is refused
    run = int(sys.argv[3], 16)
    s = socket.socket()
    if hello(s, run) != "":
        sys.exit(2)
    lines = [b"# sync-write ack-log 1\n"]
    answered, why, j = 0, None, 0
    while j < 1000000:
        line = lines.pop() if lines else b"I 0 %d %d\n" % (j, j % 256 * 4096)
        j += 1
        why = rec(s, line)
        if why != "":
            break
        answered += 1
    print("answered %d refused %s" % (answered, why), flush=True)
    s.close()
    s = socket.socket()         # the run again: refused from then on
    print("again %s" % hello(s, run), flush=True)
elif mode == "conns":           # N connections of one run from 127.0.0.2
    n, run, flag = int(sys.argv[3]), int(sys.argv[4], 16), sys.argv[5]
    held, refused, why = [], 0, None
    for i in range(n):
        s = socket.socket()
        s.bind(("127.0.0.2", 0))
        # The first opens the run, the others join it (its writers).
        a = hello(s, run, sessions[held[0]].rk if held else None)
        if a == "" and not held:        # the run logs: no place to take
            a = rec(s, b"# sync-write ack-log 1\n")
        if a == "":
            held.append(s)
        else:
            refused += 1
            why = why or a
            s.close()
    print("held %d refused %d: %s" % (len(held), refused, why), flush=True)
    t0 = time.time()
    while not os.path.exists(flag) and time.time() - t0 < 300:
        time.sleep(0.1)
elif mode == "slow":            # hello, then a record a byte a second
    s = socket.socket()
    if hello(s, int(sys.argv[3], 16)) != "":
        sys.exit(2)
    t0 = time.time()
    try:
        for b in b"# sync-write ack-log 1\n" * 4:
            s.send(bytes([b]))
            time.sleep(1)
        print("never cut", flush=True)
    except OSError:
        print("cut after %d s" % (time.time() - t0), flush=True)
elif mode == "silent":          # connects, says nothing
    s = socket.socket()
    s.settimeout(30)
    s.connect(("127.0.0.1", port))
    t = cut(s, 60)
    print("never cut" if t is None else "cut after %d s" % t, flush=True)
elif mode == "runs":            # N runs, a record each, then closed
    for i in range(int(sys.argv[3])):
        s = socket.socket()
        a = hello(s, 0x7000 + i)
        if a == "":
            a = rec(s, b"# sync-write ack-log 1\n")
        print("run %d: %s" % (i, "logged" if a == "" else "refused: %s" % a), flush=True)
        s.close()
PY

# 1. The bounds, beside a real run; no --runs: it serves until a signal.
rm -f "$work/fa" "$work/fb" "$work/go"
log=$work/b.log
listener_start "$log" --max-log-bytes 64k --max-conns-per-host 100
grep -q "serves until SIGINT/SIGTERM (no --runs N)" "$work/b.log.err" &&
	ok "the start line says the listener serves until a signal" ||
	bad "start line: $(cat "$work/b.log.err")"
python3 "$work/client.py" slow "$port" 510 >"$work/slow.out" 2>&1 &
slowpid=$!
python3 "$work/client.py" silent "$port" >"$work/silent.out" 2>&1 &
silentpid=$!
python3 "$work/client.py" conns "$port" 2000 c0 "$work/go" >"$work/conns.out" 2>&1 &
connspid=$!
wait_for 120 "the 2000 connections" grep -qs '^held' "$work/conns.out" ||
	bad "conns: $(cat "$work/conns.out")"
case $(cat "$work/conns.out") in
"held 100 refused 1900: listener full: 100 connections from this address (--max-conns-per-host)")
	ok "2000 connections from 127.0.0.2: 100 held, 1900 refused, told why" ;;
*)	bad "2000 connections from one address: $(cat "$work/conns.out")" ;;
esac
alive "after 2000 connections from one address"
real_run "$work/fa" >"$work/ra.out" &
rapid=$!
out=$(python3 "$work/client.py" bytes "$port" b1 2>&1)
# 64 KiB: the answered records fit; the one that would pass it is refused.
case $out in
*"refused bound reached: --max-log-bytes 65536 (the bytes a run may write to its log '$work/b.log.b1')"*"again bound reached: --max-log-bytes 65536"*)
	ok "a run past --max-log-bytes: refused, and refused again" ;;
*)	bad "a run past --max-log-bytes: $out" ;;
esac
sz=$(wc -c <"$work/b.log.b1")
if [ "$sz" -le 65536 ] && [ "$sz" -gt 60000 ] && [ -z "$(tail -c 1 "$work/b.log.b1")" ] &&
   [ "$(wc -l <"$work/b.log.b1")" -eq $(($(echo "$out" | sed -n 's/^answered \([0-9]*\).*/\1/p'))) ]; then
	ok "its log: $sz bytes, every answered record whole, none past the bound"
else
	bad "its log: $sz bytes, $(wc -l <"$work/b.log.b1") lines; $out"
fi
wait "$rapid" && ok "the real run beside them completed" ||
	bad "the real run beside them: $(cat "$work/ra.out")"
wait_for 60 "the slowloris client to end" gone "$slowpid"
wait_for 60 "the silent client to end" gone "$silentpid"
grep -q '^cut after' "$work/slow.out" && ok "the slowloris client was $(cat "$work/slow.out")" ||
	bad "slowloris: $(cat "$work/slow.out")"
grep -q '^cut after' "$work/silent.out" && ok "the silent client was $(cat "$work/silent.out")" ||
	bad "silent: $(cat "$work/silent.out")"
: >"$work/go"
wait "$connspid"
alive "after the hostile clients and a run that ended"
la=$(log_of "$work/fa")
out=$("$SW" --check "${la:-none}" "$work/fa" 2>&1) && echo "$out" | grep -q "^OK: every" &&
	ok "--check of the real run's log (${la##*/})" || bad "--check of the real run: $out"
out=$(real_run "$work/fb") && ok "a second real run passes" || bad "the second run: $out"
lb=$(log_of "$work/fb")
out=$("$SW" --check "${lb:-none}" "$work/fb" 2>&1) && echo "$out" | grep -q "^OK: every" &&
	ok "--check of the second run's log" || bad "--check of the second run: $out"
for f in "$work/b.log" "$work/b.log.b1" "$la"; do
	[ "$(stat -c %a "$f")" = 600 ] || bad "mode $(stat -c %a "$f"): $f"
done
ok "the logs are mode 0600"
kill -TERM "$lpid"; wait "$lpid"; st=$?; lpid=
[ $st -eq 143 ] && ok "SIGTERM ends it: 143" || bad "SIGTERM: exit $st: $(cat "$work/b.log.err")"
grep -q "1 records at --max-log-bytes, 1900 connections at --max-conns-per-host" \
	"$work/b.log.err" && grep -q "refused: bound reached: --max-log-bytes" "$work/b.log.err" &&
	ok "the summary counts the refused" || bad "summary: $(cat "$work/b.log.err")"

# 2. --max-runs: the run past it is refused at its hello; sync-write
#    prints the reason (exit 1).  Runs that ended keep their places.
log=$work/r.log
listener_start "$log" --max-runs 2
out=$(python3 "$work/client.py" runs "$port" 3 2>&1)
case $out in
*"run 0: logged"*"run 1: logged"*"run 2: refused: bound reached: --max-runs 2"*)
	ok "a third run at --max-runs 2: refused, told why" ;;
*)	bad "--max-runs 2: $out" ;;
esac
expect_exit 1 "refused the run: bound reached: --max-runs 2" "$SW" -q -m none -s 4k -n 5 \
	--ack-log "tcp:127.0.0.1:$port" "$work/fc"
alive "after the runs it refused"
kill -TERM "$lpid"; wait "$lpid"; lpid=
grep -q "2 runs refused at --max-runs" "$work/r.log.err" && ok "the summary counts them" ||
	bad "summary: $(cat "$work/r.log.err")"

# 3. Bad bounds, and bounds without --listen: usage errors.
expect_exit 2 "--max-runs '65': out of range (1 to 64)" "$SW" --listen 0 --max-runs 65 --ack-log "$work/x.log"
expect_exit 2 "--max-conns-per-host '0'" "$SW" --listen 0 --max-conns-per-host 0 \
	--ack-log "$work/x.log"
expect_exit 2 "--max-log-bytes '1x'" "$SW" --listen 0 --max-log-bytes 1x --ack-log "$work/x.log"
expect_exit 2 "--runs is the listener's" "$SW" -q -m none -s 4k -n 1 --runs 1 "$work/g"
expect_exit 2 "--ack-commit is the sender's" "$SW" --listen 0 --ack-commit --ack-log "$work/x.log"

# 4. A symbolic link where the log goes: refused, with and without
#    --force, and what it points to is untouched.
echo keep >"$work/victim"
ln -s "$work/victim" "$work/link.log"
expect_exit 2 "is a symbolic link" "$SW" --listen 127.0.0.1:0 --force --ack-log "$work/link.log"
expect_exit 2 "is a symbolic link" "$SW" --listen 127.0.0.1:0 --ack-log "$work/link.log"
expect_exit 2 "is a symbolic link" "$SW" -q -m none -s 4k -n 1 --force \
	--ack-log "$work/link.log" "$work/g"
[ "$(cat "$work/victim")" = keep ] && ok "the link's target is untouched" ||
	bad "the link's target was written: $(cat "$work/victim")"
exit $fail
