#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# sync-write-signals.sh -- Ctrl-C (SIGINT) and SIGTERM stop a run cleanly:
# partial results are printed, the temporary files are removed, and the
# exit status is 130 / 143; with processes and with threads.  A killed
# writer ends the run with an error.  A closed pipe on the results ends it
# quietly, killed by SIGPIPE, as a filter (table, CSV, JSON, several
# TARGETs, --compare), its files removed and no writer left.
. "${top_srcdir:-.}/tests/lib.sh"

linux_proc || skip "waiting for the writers to be under way needs Linux's /proc (io, children)"
SW=$tools/sync-write
work=$(mktemp -d "$top_builddir/sw-signals.XXXXXX") || hard "mktemp"
trap 'rm -rf "$work"' EXIT
fail=0

# written PID BYTES: PID and its children wrote at least BYTES (wchar).
written() {
	# shellcheck disable=SC2046
	[ "$(io_bytes wchar "$1" $(children "$1"))" -ge "$2" ]
}

for sig in INT TERM; do
for mode in "" --threads; do
	mkdir "$work/d"
	"$SW" -q $mode -m none,fdatasync -s 4k,64k -w 2 -t 20s --dir "$work/d" \
		>"$work/out" 2>"$work/err" &
	pid=$!
	# Once the target is prepared (2 regions of 64 MiB written: slow in a
	# sanitizer build on a busy machine), during the first point: its
	# writers have written 64 KiB (processes: the writers are children;
	# threads: in the run's process, which wrote the 128 MiB).
	wait_for 120 "the first point's writers to write 64 KiB" \
		written $pid $((134217728 + 65536)) || fail=1
	start=$(date +%s)
	kill -$sig $pid
	wait $pid
	st=$?
	took=$(( $(date +%s) - start ))
	want=$([ $sig = INT ] && echo 130 || echo 143)
	name="SIG$sig ${mode:-processes}"
	if [ $st -ne $want ]; then
		echo "FAIL $name: exit $st, want $want"; cat "$work/err"; fail=1
	elif ! grep -q 'interrupted by signal' "$work/out" ||
	     ! grep -q '^none  *4096  *2 ' "$work/out"; then
		echo "FAIL $name: no partial results:"; cat "$work/out"; fail=1
	elif [ -n "$(ls -A "$work/d")" ]; then
		echo "FAIL $name: files left: $(ls -A "$work/d")"; fail=1
	elif [ $took -gt 10 ]; then
		echo "FAIL $name: took ${took}s to stop"; fail=1
	else
		echo "ok   $name: exit $st ${took}s after the signal, partial row printed, files removed"
	fi
	rm -rf "$work/d"
done
done
# A writer process that dies (here: SIGKILL, as the OOM killer would) ends
# the run with an error naming it, instead of a hang.
mkdir "$work/d"
"$SW" -q -m fdatasync -s 4k -w 2 -t 20s --dir "$work/d" >"$work/out" 2>"$work/err" &
pid=$!
# both writers under way (each wrote: a process starts with wchar 0)
writing() {
	_k=$(children "$1")
	[ "$(echo $_k | wc -w)" -eq 2 ] || return 1
	for _p in $_k; do [ "$(io_bytes wchar "$_p")" -gt 0 ] || return 1; done
}
wait_for 120 "sync-write's 2 writer processes to write" writing $pid
child=$(children $pid | head -n 1)
if [ -z "$child" ]; then
	echo "FAIL writer death: no writer process found"; fail=1
else
	kill -KILL "$child"
	if ! wait_for 30 "sync-write to end after its writer died" gone $pid; then
		echo "FAIL writer death: sync-write still running 30 s after its writer died"
		kill -KILL $pid; fail=1
	else
		wait $pid; st=$?
		if [ $st -ne 1 ] || ! grep -q 'writer [01] was killed by signal 9' "$work/err" "$work/out"; then
			echo "FAIL writer death: exit $st:"; cat "$work/err" "$work/out"; fail=1
		elif [ -n "$(ls -A "$work/d")" ]; then
			echo "FAIL writer death: files left: $(ls -A "$work/d")"; fail=1
		else
			echo "ok   a killed writer: exit 1, named in the error, files removed"
		fi
	fi
fi

# A closed pipe on the results ends the run as it ends a filter (yes |
# head): nothing said, killed by SIGPIPE (the shell's 141), at the next
# results it writes (a table or CSV: after each point; JSON, several
# TARGETs, --compare: at the end); no writer is left running, and the
# run's files are gone (the temporary target; an ack log it made stays, as
# a run's output).
leftover() {  # processes still running with DIR in their arguments
	# shellcheck disable=SC2009
	ps -eo args= | grep -F -- "$1" | grep -v -e grep -e ' ps ' || true
}
mkdir "$work/p"
st=$( { "$SW" -q -t 0.2s -m none,fsync -s 4k,8k,16k --dir "$work/p" 2>"$work/p.err"
	echo $? >"$work/p.st"; } | head -2 >"$work/p.out"; cat "$work/p.st")
if [ "$st" -eq 141 ] && [ ! -s "$work/p.err" ] && [ "$(wc -l <"$work/p.out")" -eq 2 ] &&
   [ -z "$(ls -A "$work/p")" ] && [ -z "$(leftover "$work/p")" ]; then
	echo "ok   sync-write ... | head -2: status 141 (SIGPIPE), nothing said, nothing left"
else
	echo "FAIL sync-write ... | head -2: status $st, said '$(cat "$work/p.err")', left: $(ls -A "$work/p") $(leftover "$work/p")"
	fail=1
fi
for how in "-f table" "-f csv --threads" "-f json" "--dir2" "--compare"; do
	rm -rf "$work/p"; mkdir "$work/p"
	case $how in
	--dir2) set -- -q -n 20 -m none,fsync -s 4k,8k "$work/p/t1" "$work/p/t2" ;;
	--compare)
		"$SW" -q -n 5 -m none -s 4k -f json -o "$work/c1.json" --dir "$work/p" &&
		"$SW" -q -n 5 -m none -s 4k -f json -o "$work/c2.json" --dir "$work/p" ||
			{ echo "FAIL the runs to compare"; fail=1; }
		set -- --compare "$work/c1.json" "$work/c2.json" ;;
	*) # shellcheck disable=SC2086
	   set -- -q -n 20 -m none,fsync,fdatasync -s 4k,8k --ack-log "$work/ack.log" \
		--force $how --dir "$work/p"; : >"$work/ack.log" ;;
	esac
	# The reader has left before the first results are written.
	st=$( { "$SW" "$@" 2>"$work/p.err"; echo $? >"$work/p.st"; } | true; cat "$work/p.st")
	points=$(grep -c '^P ' "$work/ack.log" 2>/dev/null)
	if [ "$st" -ne 141 ] || [ -s "$work/p.err" ] || [ -n "$(ls -A "$work/p")" ] ||
	   [ -n "$(leftover "$work/p")" ]; then
		echo "FAIL sync-write $how | true: status $st, said '$(cat "$work/p.err")', left: $(ls -A "$work/p") $(leftover "$work/p")"
		fail=1
	elif [ "$how" != "-f json" ] && [ "${how#-f}" != "$how" ] && [ "$points" -ne 1 ]; then
		echo "FAIL sync-write $how | true: $points points run (want 1: it stops at the first results)"
		fail=1
	else
		echo "ok   sync-write $how | true: status 141, nothing said, nothing left${points:+, $points point(s) run}"
	fi
	rm -f "$work/ack.log"
done
# Killed by SIGPIPE indeed (not an exit status of 141), seen by a parent.
if command -v python3 >/dev/null 2>&1; then
	python3 - "$SW" "$work/p" <<'PY' || fail=1
import os, subprocess, sys
r, w = os.pipe()
os.close(r)
p = subprocess.run([sys.argv[1], "-q", "-n", "5", "-m", "none,fsync", "-s", "4k", "--dir",
                    sys.argv[2]], stdout=w, stderr=subprocess.PIPE)
assert p.returncode == -13 and p.stderr == b"", (p.returncode, p.stderr)
print("ok   a parent sees sync-write killed by signal 13 (SIGPIPE), nothing on standard error")
PY
fi
exit $fail
