#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# sync-write-listen-auth.sh -- the listener takes records only from who has
# its token, on loopback only unless told otherwise: a real run (writer
# processes) through `sync-write --listen PORT` beside hostile clients --
# none, a wrong token (with MACs, and plain), the right token with a run id
# stolen from the log (opened again, joined without the run's key), a
# record whose MAC is over another record, a replayed record, a sender of
# protocol 1, a client that sends nothing; its log passes --check, no
# hostile byte is in any log, the summary counts each, and a second real
# run over IPv6 [::1] after them is served.  The sender's side: a forged
# listener (it lacks the token) and an old one (it cuts the hello) fail the
# run with the reason.  The token's files: 0600, never through a symlink,
# refused when others can read them.  As root, in a network namespace: a
# port alone is not reachable on the machine's other address, a named
# 0.0.0.0 is (the test can tell).  Loopback only.
. "${top_srcdir:-.}/tests/lib.sh"

SW=$tools/sync-write
command -v python3 >/dev/null 2>&1 || skip "the hostile clients are python3 scripts"
ack_clients
work=$(mktemp -d "$top_builddir/sw-auth.XXXXXX") || hard "mktemp"
ns=dio-auth.$$
cleanup() {
	[ -n "${lpid:-}" ] && kill "$lpid" 2>/dev/null
	[ -n "${kpid:-}" ] && kill "$kpid" 2>/dev/null
	ip netns del "$ns" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }
unset DIO_ACK_TOKEN
mac=0
grep -q '^#define DIO_HAVE_CRYPTO 1' "$top_builddir/config.h" && mac=1

# listen LOG [ADDR [WRAPPER...]]: a listener on ADDR (default a port alone,
# loopback); sets lpid, port, tok (its token's hex).
listen() {
	log=$1 addr=${2:-0}
	shift; [ $# -gt 0 ] && shift
	rm -f "$log.err" "$log.token"
	"$@" "$SW" --listen "$addr" --ack-log "$log" 2>"$log.err" &
	lpid=$!
	wait_for 60 "the listener's port" grep -qs 'listening on .* (port [0-9][0-9]*)' "$log.err" ||
		hard "the listener did not start: $(cat "$log.err" 2>/dev/null)"
	port=$(sed -n 's/.*listening on .* (port \([0-9]*\)).*/\1/p' "$log.err")
	tok=$(cat "$log.token") || hard "no token in $log.token"
}

cat >"$work/hostile.py" <<'PY'
import os, socket, sys, time
from ack_client import Refused, connect, cut, hello, line
mode, port = sys.argv[1], int(sys.argv[2])
token = bytes.fromhex(os.environ.get("TOKEN", "00" * 32))
host = os.environ.get("HOST", "127.0.0.1")
def verdict(s):                 # cut (and what it said), or kept
    c, said = cut(s)
    print(("cut" if c else "kept") + (": " + said.decode(errors="replace").strip() if said else ""))
try:
    if mode == "noauth":        # records, no hello
        s = connect(port, host)
        s.sendall(b"# sync-write ack-log 1\nR 666 shared 0 4096 /forged\nE\n")
        verdict(s)
    elif mode == "token":       # a hello proved with this token (AUTH auth)
        s = connect(port, host)
        sess = hello(s, 0x666, token, auth=sys.argv[3])
        print("answered" if sess.send(b"# sync-write ack-log 1\n") else "not proved")
    elif mode == "open":        # open run RUN (another's, say)
        s = connect(port, host)
        hello(s, int(sys.argv[3], 16), token)
        print("opened")
    elif mode == "join":        # join run RUN with a key made up
        s = connect(port, host)
        hello(s, int(sys.argv[3], 16), token, rk=os.urandom(32))
        print("joined")
    elif mode == "changed":     # a record, then one whose MAC is another's
        s = connect(port, host)
        sess = hello(s, 0x5eed1, token)
        assert sess.send(b"# sync-write ack-log 1\n")
        s.sendall(sess.seal(b"R 5eed1 shared 0 4096 /forged\n").replace(b"/forged", b"/FORGED"))
        verdict(s)
    elif mode == "replay":      # a record answered, then the same bytes again
        s = connect(port, host)
        sess = hello(s, 0x5eed2, token)
        w = sess.seal(b"# sync-write ack-log 1\n")
        s.sendall(w)
        sess.seq += 1
        assert sess.answer_ok(line(s))
        s.sendall(w)
        verdict(s)
    elif mode == "old":         # protocol 1's hello
        s = connect(port, host)
        s.sendall(b"H 1 %s\n" % sys.argv[3].encode())
        verdict(s)
    elif mode == "silent":      # connect, say nothing: cut within 60 s?
        s = connect(port, host)
        t0 = time.time()
        print("ready", flush=True)
        c, _ = cut(s, 60)
        print("cut after %.0f s" % (time.time() - t0) if c else "never cut", flush=True)
    elif mode == "keeper":      # a run that logged, held until FLAG
        s = connect(port, host)
        sess = hello(s, 0x6ee9, token)
        assert sess.send(b"# sync-write ack-log 1\n")
        print("keeping", flush=True)
        while not os.path.exists(sys.argv[3]):
            time.sleep(0.05)
        s.close()
    elif mode == "reach":       # can HOST:PORT be connected to?
        try:
            connect(port, host, timeout=5).close()
            print("reached")
        except OSError as e:
            print("not reached: %s" % e)
    elif mode in ("forged", "oldlistener"):
        # A listener without the token (or of protocol 1): port file.
        l = socket.socket()
        l.bind(("127.0.0.1", 0))
        l.listen(4)
        with open(sys.argv[3], "w") as f:
            f.write("%d\n" % l.getsockname()[1])
        l.settimeout(60)
        c, _ = l.accept()
        c.settimeout(30)
        line(c)
        if mode == "forged":
            c.sendall(b"C " + os.urandom(16).hex().encode() + b"\n")
            line(c)
            c.sendall(b"+" + os.urandom(32).hex().encode() + b"\n")
            line(c)
        c.close()
    else:
        sys.exit("unknown mode " + mode)
except Refused as e:
    print("refused: %s" % e)
PY
# H MODE PORT ARGS...: a hostile client; its token htok (default the
# listener's), its destination hhost (default 127.0.0.1).
H() { TOKEN=${htok:-$tok} HOST=${hhost:-127.0.0.1} python3 "$work/hostile.py" "$@" 2>&1; }

# 1. The token's files, and the ways a sender may not take it.
expect() { _w=$1 _p=$2; shift 2; expect_exit "$_w" "$_p" "$SW" "$@"; }
expect 2 "needs the listener's token: --ack-token FILE" -q -m none -s 4k -n 1 \
	--ack-log tcp:127.0.0.1:9 "$work/g"
printf '%s\n' 0123456789abcdef0123456789abcdef >"$work/t644"
chmod 644 "$work/t644"
expect 2 "mode 0644 lets others than its owner read or write the token: chmod 600" \
	-q -m none -s 4k -n 1 --ack-token "$work/t644" --ack-log tcp:127.0.0.1:9 "$work/g"
printf '%s\n' 0123456789abcdef >"$work/tshort"
chmod 600 "$work/tshort"
expect 2 "a token is 32 to 128 hex digits" -q -m none -s 4k -n 1 --ack-token "$work/tshort" \
	--ack-log tcp:127.0.0.1:9 "$work/g"
expect_exit 2 "DIO_ACK_TOKEN: a token is" env DIO_ACK_TOKEN=xyz "$SW" -q -m none -s 4k -n 1 \
	--ack-log tcp:127.0.0.1:9 "$work/g"
expect 2 "is the listener's" -q -m none -s 4k -n 1 --token-file "$work/t644" \
	--ack-log tcp:127.0.0.1:9 "$work/g"
expect 2 "is a sender's" --listen 0 --ack-token "$work/t644" --ack-log "$work/x.log"
expect 2 "mode 0644" --listen 0 --token-file "$work/t644" --ack-log "$work/x.log"
[ -e "$work/g" ] && bad "a refused run left its target"
rm -f "$work/x.log"
# A token file that is there is not taken over; a symlink is never followed.
: >"$work/y.log.token"
expect 2 "pass --force to replace it" --listen 0 --ack-log "$work/y.log"
rm -f "$work/y.log" "$work/y.log.token"
printf keep >"$work/victim"
ln -s "$work/victim" "$work/z.log.token"
expect 2 "is a symbolic link, not a token file" --listen 0 --force --ack-log "$work/z.log"
[ "$(cat "$work/victim")" = keep ] && ok "the symlink's target is untouched" ||
	bad "the symlink's target was written: $(cat "$work/victim")"
# --token-file: made where missing (0600, 256 bits), read where there.
"$SW" --listen 127.0.0.1:0 --token-file "$work/tf" --ack-log "$work/tf.log" 2>"$work/tf.err" &
lpid=$!
wait_for 60 "the listener" grep -qs "token in '$work/tf' (new)" "$work/tf.err" ||
	bad "--token-file not made: $(cat "$work/tf.err")"
kill "$lpid"; wait "$lpid" 2>/dev/null; lpid=
[ "$(stat -c %a "$work/tf")" = 600 ] && grep -qx '[0-9a-f]\{64\}' "$work/tf" &&
	ok "--token-file made: mode 0600, 64 hex digits" ||
	bad "--token-file: mode $(stat -c %a "$work/tf"): $(cat "$work/tf")"
[ ! -e "$work/tf.log.token" ] && ok "--token-file: no other token file written" ||
	bad "a token file beside --token-file"

# 2. A real run beside the hostile clients.
listen "$work/a.log"
grep -q "listening on 127.0.0.1:$port" "$work/a.log.err" &&
	! grep -q "0\.0\.0\.0\|\[::\]" "$work/a.log.err" &&
	ok "a port alone: $(sed -n 's/.*listening on \([^(]*\)(.*/\1/p' "$work/a.log.err")" ||
	bad "start line: $(cat "$work/a.log.err")"
[ "$(stat -c %a "$work/a.log.token")" = 600 ] && ok "the token file is mode 0600" ||
	bad "the token file is mode $(stat -c %a "$work/a.log.token")"
grep -q "token in '$work/a.log.token'" "$work/a.log.err" && ok "the start line says where the token is" ||
	bad "start line: $(cat "$work/a.log.err")"
chmod 600 "$work/a.log.token"
"$SW" -q -m fdatasync -s 4k -w 4 -t 6s --region 4m --keep --ack-token "$work/a.log.token" \
	--ack-log "tcp:127.0.0.1:$port" "$work/fa" >"$work/ra.out" 2>&1 &
rapid=$!
wait_for 60 "run A's R record" grep -qs '^R ' "$work/a.log" || bad "run A did not start"
runa=$(sed -n 's/^R \([0-9a-f]*\) .*/\1/p' "$work/a.log" | head -n 1)
# A run that keeps the listener up for run B; a client that says nothing.
rm -f "$work/go"
H keeper "$port" "$work/go" >"$work/keeper.out" &
kpid=$!
wait_for 60 "the keeper" grep -qs keeping "$work/keeper.out" || bad "keeper: $(cat "$work/keeper.out")"
H silent "$port" >"$work/silent.out" &
spid=$!
wait_for 60 "the silent client" grep -qs ready "$work/silent.out"
attack() {      # WHAT WANT MODE ARGS...: the client's verdict matches WANT
	_what=$1 _want=$2; shift 2
	_got=$(H "$@")
	case $_got in
	$_want) ok "$_what: $_got" ;;
	*) bad "$_what: $_got (want $_want)" ;;
	esac
}
attack "no token" "cut" noauth "$port"
htok=$(python3 -c 'import os; print(os.urandom(32).hex())')
if [ $mac = 1 ]; then
	attack "a wrong token" "refused: the proof does not show this listener's token" \
		token "$port" hmac-sha256
else
	attack "a MAC this listener cannot check" \
		"refused: this listener was built without a MAC library*" token "$port" hmac-sha256
fi
htok=00112233445566778899aabbccddeeff
attack "a wrong token, plain" "refused: the proof does not show this listener's token" \
	token "$port" plain
htok=
attack "the token and run A's id, opened again" "refused: run $runa is already open*" \
	open "$port" "$runa"
if [ $mac = 1 ]; then
	attack "the token and run A's id, joined without its key" \
		"refused: run $runa: the connection does not prove the run's key*" join "$port" "$runa"
	attack "a record whose MAC is another record's" "cut" changed "$port"
	attack "a record replayed" "cut" replay "$port"
else
	echo "skipped: joins, MACs and replays need a MAC library (this build is plain)"
fi
attack "protocol 1's hello" \
	"cut: -this listener speaks ack protocol 2 (libdirectio *); the sender spoke protocol 1*" \
	old "$port" "$runa"
attack "plain, the right token, from loopback" "answered" token "$port" plain
v6=0
grep -q "\[::1\]:$port" "$work/a.log.err" && v6=1
if [ $v6 = 1 ]; then
	hhost=::1 htok=00112233445566778899aabbccddeeff
	attack "a wrong token over [::1]" "refused: the proof does not show this listener's token" \
		token "$port" plain
	hhost= htok=
fi
wait "$rapid" && ok "run A beside the hostile clients completed" ||
	bad "run A: $(cat "$work/ra.out")"
out=$("$SW" --check "$work/a.log" "$work/fa" 2>&1) && echo "$out" | grep -q "^OK: every" &&
	ok "run A's log passes --check" || bad "--check of run A's log: $out"
[ "$(grep -c '^R ' "$work/a.log")" -eq 1 ] && ! grep -q 'forged\|FORGED\|^R 666' "$work/a.log" &&
	ok "run A's log holds run A's records only" || bad "run A's log: $(grep -v '^[IA] ' "$work/a.log")"
if grep -rqs 'forged\|FORGED\|^R 666' "$work"/a.log*; then
	bad "a hostile record is in a log: $(grep -rl 'forged\|FORGED\|^R 666' "$work"/a.log*)"
else
	ok "no hostile record in any log"
fi
wait_for 60 "the silent client to be cut" gone "$spid"
grep -q "^cut after" "$work/silent.out" && ok "the silent client was $(cat "$work/silent.out" | tail -n 1)" ||
	bad "silent client: $(cat "$work/silent.out")"

# 3. Still serving: a second real run, over IPv6 [::1] where there is one.
dest=127.0.0.1
grep -q "\[::1\]:$port" "$work/a.log.err" && dest="[::1]"
[ "$dest" = "[::1]" ] || echo "skipped: IPv6 [::1] (this machine has no ::1): run B over 127.0.0.1"
out=$(DIO_ACK_TOKEN=$tok "$SW" -q -m fdatasync -s 4k -w 2 -n 50 --region 4m --keep \
	--ack-log "tcp:$dest:$port" "$work/fb" 2>&1) && ok "run B over $dest after the attacks" ||
	bad "run B over $dest: $out"
: >"$work/go"
wait "$kpid"; kpid=
# Nothing above ends the listener (it serves until a signal): still
# there, and SIGTERM ends it as a signal does (128 + 15).
sleep 1
if gone "$lpid"; then
	bad "the listener ended before its signal: $(cat "$work/a.log.err")"
else
	ok "the listener is still serving after the attacks and both runs"
	kill -TERM "$lpid"
	wait_for 60 "the listener to end" gone "$lpid" || bad "the listener did not end on SIGTERM"
	wait "$lpid"; st=$?; lpid=
	[ $st -eq 143 ] && ok "SIGTERM ended it (exit 143)" ||
		bad "the listener exited $st on SIGTERM: $(cat "$work/a.log.err")"
fi
blog=$(grep -l "^P 0 fdatasync 4096 2 " "$work"/a.log* 2>/dev/null | head -n 1)
out=$("$SW" --check "${blog:-none}" "$work/fb" 2>&1) && echo "$out" | grep -q "^OK: every" &&
	ok "run B's log passes --check" || bad "--check of run B's log ${blog:-}: $out"
sum=$(grep ' records from ' "$work/a.log.err")
want_tok=$((1 + mac + v6)) want_mac=0 want_run=1
[ $mac = 1 ] && want_mac=2 want_run=2
echo "$sum" | grep -q "$want_tok for a bad token, $want_mac for a bad MAC, $want_run for another's run, 1 of another protocol" &&
	ok "the summary counts each: $(echo "$sum" | sed 's/.*cut: //')" || bad "summary: $sum"

# 4. A sender meets a listener that lacks the token, or speaks protocol 1.
chmod 600 "$work/tf"
for kind in forged oldlistener; do
	rm -f "$work/pf"
	H "$kind" 0 "$work/pf" >"$work/$kind.out" &
	fpid=$!
	wait_for 60 "the $kind listener" test -s "$work/pf"
	case $kind in
	forged) want="did not prove it has the token" ;;
	*) want="cut the connection at the hello: it may speak protocol 1" ;;
	esac
	expect 1 "$want" -q -m none -s 4k -n 5 --ack-token "$work/tf" \
		--ack-log "tcp:127.0.0.1:$(cat "$work/pf")" "$work/g$kind"
	wait "$fpid"
done

# 5. A port alone is loopback only: in a network namespace with a second
#    address, the listener is not reachable there; named 0.0.0.0, it is.
if [ "$(id -u)" -ne 0 ] || ! command -v ip >/dev/null 2>&1; then
	echo "skipped: the reach from another address needs root and ip (a network namespace)"
elif ! ip netns add "$ns" 2>/dev/null || ! err=$(ip netns exec "$ns" true 2>&1); then
	echo "skipped: network namespaces cannot be made here (${err:-ip netns add failed})"
elif ! ip -n "$ns" link set lo up || ! ip -n "$ns" link add d0 type veth peer name d1 ||
     ! ip -n "$ns" addr add 198.51.100.7/24 dev d0 || ! ip -n "$ns" link set d0 up ||
     ! ip -n "$ns" link set d1 up; then
	echo "skipped: no second interface in the namespace (veth)"
else
	listen "$work/n.log" 0 ip netns exec "$ns"
	r1=$(ip netns exec "$ns" env HOST=127.0.0.1 python3 "$work/hostile.py" reach "$port")
	r2=$(ip netns exec "$ns" env HOST=198.51.100.7 python3 "$work/hostile.py" reach "$port")
	[ "$r1" = reached ] && case $r2 in "not reached"*) true ;; *) false ;; esac &&
		ok "a port alone: reached on 127.0.0.1, $r2 on 198.51.100.7" ||
		bad "a port alone: 127.0.0.1 $r1, 198.51.100.7 $r2"
	kill "$lpid"; wait "$lpid" 2>/dev/null; lpid=
	if [ $mac = 1 ]; then
		listen "$work/n2.log" 0.0.0.0:0 ip netns exec "$ns"
		r2=$(ip netns exec "$ns" env HOST=198.51.100.7 python3 "$work/hostile.py" reach "$port")
		[ "$r2" = reached ] && ok "0.0.0.0 named: reached on 198.51.100.7 (so the test can fail)" ||
			bad "0.0.0.0 named: $r2"
		kill "$lpid"; wait "$lpid" 2>/dev/null; lpid=
	else
		expect 2 "built without a MAC library" --listen 0.0.0.0:0 --ack-log "$work/n3.log"
	fi
fi
exit $fail
