#!/bin/sh
# sync-write-listen.sh -- the acknowledgement records off the machine under
# test: sync-write --listen [HOST:]PORT --ack-log FILE receives what a run
# with --ack-log tcp:HOST:PORT sends.  On loopback: writer processes and
# threads, every point's records in the listener's log, --check of that
# log; a listener that goes away fails the run; bad addresses and option
# combinations are refused.  As root, also across two network namespaces
# joined by a veth pair (two test hosts on this machine).
. "${top_srcdir:-.}/tests/lib.sh"

SW=$top_builddir/tools/sync-write
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

# listen LOG [WRAPPER...]: start a listener on a free port; sets lpid, port.
listen() {
	log=$1; shift
	# Gone first: the shell truncates it in the child, so an earlier
	# listener's line could otherwise be read here (and its port, or none).
	rm -f "$log.err"
	"$@" "$SW" --listen "${LISTEN_ADDR:-127.0.0.1}:0" --ack-log "$log" 2>"$log.err" &
	lpid=$!
	wait_for 60 "the listener's port" grep -qs 'listening on port [0-9][0-9]*;' "$log.err" ||
		hard "the listener did not start: $(cat "$log.err" 2>/dev/null)"
	port=$(sed -n 's/.*listening on port \([0-9]*\).*/\1/p' "$log.err")
}
# finish: wait for the listener to end by itself (its senders are done).
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

# 4. Two test hosts: the listener in one network namespace, the writer in
#    another, joined by a veth pair.
if [ "$(id -u)" -ne 0 ] || ! command -v ip >/dev/null 2>&1; then
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
	LISTEN_ADDR=192.0.2.1 listen "$work/l.log" ip netns exec "$ns1"
	out=$(ip netns exec "$ns2" "$SW" -q -m fdatasync,dsync -s 4k -w 2 -n 25 --keep \
		--ack-log "tcp:192.0.2.1:$port" "$work/f" 2>&1) || bad "run from the other host: $out"
	finish
	[ "$(grep -c '^A ' "$work/l.log")" -eq 100 ] &&
		ok "host 2's 100 acknowledgements in host 1's log" || bad "records across hosts"
	out=$("$SW" --check "$work/l.log" 2>&1) && echo "$out" | grep -q "^OK: every" &&
		ok "--check of the log kept on the other host" || bad "--check: $out"
fi
exit $fail
