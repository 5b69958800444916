#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# sync-write-mpi-keep.sh -- the evidence sync-write-mpi keeps when a rank of
# its job dies, on the test hosts of tests/mpi-lib.sh (two network
# namespaces as root, this host otherwise):
#  - with --keep, rank 1, then rank 0, killed with SIGKILL in the middle of
#    a point: the target and every rank's ack log stay (the killed rank's
#    and the survivors'), --check of each gives its verdict (never "could
#    not check"), and the job says one line naming the rank, its host,
#    what happened and where the kept files are;
#  - the same without --keep: nothing is left, and the line says so;
#  - with --keep, a rank that fails at a write (strace injects EIO into
#    one fdatasync of rank 1) and SIGTERM of the whole job (to the
#    launcher): the logs stay and each checks.
# (nothing left behind without --keep in every other case:
# tests/sync-write-mpi-job.sh)
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/mpi-lib.sh"

SW=$tools/sync-write-mpi
# (rank 1 is found by its launcher's environment, the ranks with ps)
need_cmd ps procps
need_cmd pgrep procps
[ -r /proc/self/environ ] || skip "no /proc/PID/environ here to tell rank 1's process"
mpi_test sw-keep
echo "MPI: $($SW --version | sed -n 's/^MPI: //p') via $MPIEXEC; ranks on: $hosts"
if [ "$mpi_mode" = netns ]; then host1=h2; else host1=$(uname -n); fi

# rank_pid R: the process of rank R of the job marked $m (a rank: a
# sync-write-mpi whose parent is not one, its writers' and guard's is),
# told by the rank its launcher gave it.
rank_pid() {
	for _p in $(ps -eo pid=,ppid=,comm=,args= | awk -v m="$m" '
		{ ppid[$1] = $2; comm[$1] = $3; if (index($0, m)) hit[$1] = 1 }
		END { for (p in hit)
			if (comm[p] ~ /sync-write/ && comm[ppid[p]] !~ /sync-write/) print p }'); do
		tr '\0' '\n' <"/proc/$_p/environ" 2>/dev/null |
			grep -qx -e "OMPI_COMM_WORLD_RANK=$1" -e "PMI_RANK=$1" && echo "$_p"
	done
}
# writing R: 0 once rank R has logged some acknowledgements (the point is
# under way) and its process is known (victim=), or the job has ended.
writing() {
	gone $job && return 0
	[ -f "$work/ack.$1" ] && [ "$(wc -c <"$work/ack.$1")" -gt 4096 ] || return 1
	victim=$(rank_pid "$1")
	[ -n "$victim" ]
}
# settled: no process of the job is left (the guards of the killed ranks
# act once their rank and its writers are gone).
settled() { ! pgrep -f -- "$m" >/dev/null; }

# checks WHAT [UNENDED]: sync-write --check of every rank's log against
# the target: each must give a verdict (OK, exit 0; FAILED, exit 1: a
# loss, which would be the target's, said), never "could not check" (exit
# 3); with UNENDED (a rank or more killed), the killed rank's log must
# say that the run did not end there.
checks() {
	for _r in 0 1; do
		_out=$("$tools/sync-write" --check "$work/ack.$_r" "$work/t" 2>&1)
		_rc=$?
		_v=$(printf '%s\n' "$_out" | grep -E '^(OK|FAILED):' | head -n 1)
		if [ "${2:-}" = "$_r" ] &&
		   ! printf '%s\n' "$_out" | grep -q '(the log has no end of the run: it was stopped, or killed)$'; then
			bad "$1: --check of the killed rank $_r's log does not say the run did not end"
			printf '%s\n' "$_out" | sed 's/^/    /'
		elif { [ $_rc -eq 0 ] && [ "${_v%%:*}" = OK ]; } ||
		   { [ $_rc -eq 1 ] && [ "${_v%%:*}" = FAILED ]; }; then
			ok "$1: --check of rank $_r's log, exit $_rc: $_v"
		else
			bad "$1: --check of rank $_r's log: exit $_rc"
			printf '%s\n' "$_out" | sed 's/^/    /'
		fi
	done
}

# kill_rank R KEEP: a 2-rank job (--keep when KEEP is "--keep"), rank R
# killed with SIGKILL in the middle of its 30 s point; then what it said
# (said: the first line of a rank that ended; lines: how many) and left.
kill_rank() {
	m="sw-keep-$$-$1-${2:-nokeep}"
	victim=
	run 2 "$SW" -q -m fdatasync -s 4k -w 1 -t 30s --label "$m" $2 --ack-log "$work/ack.%r" \
		-f csv -o "$work/k.csv" "$work/t" >"$work/k.out" 2>&1 &
	job=$!
	wait_for 120 "rank $1 to log acknowledgements" writing "$1"
	[ -n "$victim" ] && kill -KILL "$victim"
	wait $job
	rc=$?
	wait_for 60 "the job's processes to end" settled || pkill -9 -f -- "$m"
	ended="^sync-write-mpi: rank [0-9]+ on [^ ]+ (was lost|exited with status)"
	lines=$(grep -E -c "$ended" "$work/k.out")
	said=$(grep -E "$ended" "$work/k.out" | head -n 1)
	[ -n "$victim" ] || { bad "rank $1, ${2:-no --keep}: not seen writing (exit $rc)"
		sed 's/^/    /' "$work/k.out"; return 1; }
}

# one_line WHAT R HOST TAIL: the first line said of a rank that ended is
# rank R's, lost, on HOST, ending TAIL; and it is the only one where the
# launcher stops the other ranks with a signal they catch first (Open
# MPI's SIGTERM: their guards know they were stopped); MPICH's hydra
# kills them with SIGKILL at once, and their guards may speak too
# (sync-write(1)), after the first.
one_line() {
	case $said in
	"sync-write-mpi: rank $2 on $3 was lost: "*"$4")
		if [ "$lines" -eq 1 ]; then
			ok "$1: one line: $said"
		elif [ "$MPI_FLAVOR" = openmpi ]; then
			bad "$1: $lines lines of ranks that ended, not one:"
			sed 's/^/    /' "$work/k.out"
		else
			ok "$1: the first of $lines lines (MPICH's SIGKILL of the others): $said"
		fi
		;;
	*)
		bad "$1: no line (or not the one) naming rank $2 on $3, what happened and the files ($lines said)"
		sed 's/^/    /' "$work/k.out"
		;;
	esac
}

# 1. --keep, rank 1 killed, then rank 0 (which made the target): the
#    target and every rank's log kept, each checks, one line.
if [ "$mpi_mode" = netns ]; then host0=h1; else host0=$host1; fi
for r in 1 0; do
	kill_rank $r --keep || continue
	if [ $rc -ne 0 ] && [ -f "$work/t" ] && [ -s "$work/ack.0" ] && [ -s "$work/ack.1" ]; then
		ok "--keep, rank $r (pid $victim) killed: exit $rc, the target and both ack logs kept"
	else
		bad "--keep, rank $r killed: exit $rc, left: $(cd "$work" && ls t ack.* 2>/dev/null | tr '\n' ' ')"
		sed 's/^/    /' "$work/k.out"
	fi
	h=$host1
	[ $r -eq 0 ] && h=$host0
	one_line "--keep, rank $r killed" $r "$h" "; kept for sync-write --check LOG TARGET: the target '$work/t' and every rank's ack log '$work/ack.%r' (this rank's: '$work/ack.$r')"
	checks "--keep, rank $r killed" $r
	rm -f "$work"/t "$work"/ack.* "$work"/k.*
done

# 2. The same without --keep: nothing is left, and the line says so.
if kill_rank 1 ""; then
	l=$(cd "$work" && ls t ack.0 ack.1 k.csv 2>/dev/null | tr '\n' ' ')
	[ $rc -ne 0 ] && [ -z "$l" ] && ok "no --keep, rank 1 killed: exit $rc, nothing left" ||
		bad "no --keep, rank 1 killed: exit $rc, left: ${l:-nothing}"
	one_line "no --keep, rank 1 killed" 1 "$host1" "; the job's files are removed (--keep keeps the target and every rank's ack log for --check)"
fi
rm -f "$work"/t "$work"/ack.* "$work"/k.*

# 3. --keep, rank 1 fails at a write (its 150th fdatasync: EIO): the job
#    ends in order, exit 1, the report names the rank; the logs check.
inject="strace -f -qq -o /dev/null -e trace=fdatasync -e inject=fdatasync:error=EIO:when=150"
if command -v strace >/dev/null 2>&1 && $inject true 2>/dev/null; then
	RANK1_PREFIX=$inject RANK1_ARGS= run 2 "$each" "$SW" -q -m fdatasync -s 4k -w 1 -t 30s \
		--keep --ack-log "$work/ack.%r" -f csv -o "$work/w.csv" "$work/t" >"$work/w.out" 2>&1
	rc=$?
	n=$(grep -c "^sync-write-mpi: rank 1 on $host1: writer 1, .*: fdatasync failed: input/output error$" "$work/w.out")
	if [ $rc -eq 1 ] && [ "$n" -eq 1 ] && [ -s "$work/ack.0" ] && [ -s "$work/ack.1" ]; then
		ok "--keep, rank 1 failed at a write: exit 1, the logs kept: $(grep "rank 1 on $host1: writer" "$work/w.out")"
		checks "--keep, rank 1 failed at a write"
	else
		bad "--keep, rank 1 failed at a write: exit $rc, named $n times, logs: $(cd "$work" && ls ack.* 2>/dev/null | tr '\n' ' ')"
		sed 's/^/    /' "$work/w.out"
	fi
else
	echo "note: no strace that can inject errors here: the write failure is left out"
fi
rm -f "$work"/t "$work"/ack.* "$work"/w.*

# 4. --keep, SIGTERM of the job (to the launcher): the logs stay and
#    check; no rank is said to be lost (every rank was asked to stop).
m="sw-keep-$$-term"
victim=
run 2 "$SW" -q -m fdatasync -s 4k -w 1 -t 30s --label "$m" --keep --ack-log "$work/ack.%r" \
	-f csv -o "$work/s.csv" "$work/t" >"$work/s.out" 2>&1 &
job=$!
wait_for 120 "rank 1 to log acknowledgements" writing 1
launcher=$(pgrep -P $job | head -n 1)
[ -n "$launcher" ] && kill -TERM "$launcher"
wait $job
rc=$?
wait_for 60 "the job's processes to end" settled || pkill -9 -f -- "$m"
# (the launcher's own status is its business: MPICH's hydra exits 0 once
# its ranks, stopped by the signal it passed on, ended in order)
if [ -n "$launcher" ] && [ -s "$work/ack.0" ] && [ -s "$work/ack.1" ] &&
   ! grep -q "was lost" "$work/s.out"; then
	ok "--keep, SIGTERM of the job: exit $rc, the logs kept, no rank said lost"
	checks "--keep, SIGTERM of the job"
else
	bad "--keep, SIGTERM of the job (launcher ${launcher:-not found}): exit $rc, logs: $(cd "$work" && ls ack.* 2>/dev/null | tr '\n' ' ')"
	sed 's/^/    /' "$work/s.out"
fi
rm -f "$work"/t "$work"/ack.* "$work"/s.*

exit $fail
