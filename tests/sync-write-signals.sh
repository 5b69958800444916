#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# sync-write-signals.sh -- Ctrl-C (SIGINT) and SIGTERM stop a run cleanly:
# partial results are printed, the temporary files are removed, and the
# exit status is 130 / 143; with processes and with threads.
. "${top_srcdir:-.}/tests/lib.sh"

linux_proc || skip "waiting for the writers to be under way needs Linux's /proc (io, children)"
SW=$top_builddir/tools/sync-write
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
exit $fail
