#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# ack-commit.sh -- what the listener's commit before each answer costs:
# sync-write --listen with its log on a disk (fdatasync reaches the disk)
# against its log on tmpfs (/dev/shm: fdatasync costs nothing), for runs of
# 1, 4 and 16 writers of method none (a write is a copy to the page cache:
# the records are the work), interleaved A B / B A, medians of the pairs.
#
# Per run: records/s the listener logged (its count over the run's wall
# time), the answer latency a writer sees (us per record: writers x wall
# time / records; each writer waits for each answer, so this is the mean
# round trip, the writer's own copy included) and the mean records per
# fdatasync (the listener's count: the writers share a commit).
#
# Usage: bench/ack-commit.sh BUILDDIR [DISKDIR]   (a built tree; DISKDIR:
# where the disk log goes, default BUILDDIR; the targets go to /dev/shm).
# PAIRS (default 5), TIME (default 3s), WRITERS (default "1 4 16").
set -eu
build=$(cd "${1:?usage: ack-commit.sh BUILDDIR [DISKDIR]}" && pwd)
disk=$(cd "${2:-$build}" && pwd)
SW=$build/tools/sync-write
[ -x "$SW" ] || { echo "build $SW first"; exit 2; }
PAIRS=${PAIRS:-5} TIME=${TIME:-3s} WRITERS=${WRITERS:-"1 4 16"}
work=$(mktemp -d /dev/shm/ack-commit.XXXXXX)
res=$work/results
trap 'rm -rf "$work" "$disk"/ack-commit-bench.log*' EXIT

# one PLACE DIR W: a listener logging to DIR, a run of W writers through
# it; a line "PLACE W wall_s records commits" to the results.
one() {
	log=$2/ack-commit-bench.log
	rm -f "$log"* "$work/t" "$work/err"
	"$SW" --listen 127.0.0.1:0 --runs 1 --ack-log "$log" 2>"$work/err" &
	lpid=$!
	while ! grep -qs 'listening on port [0-9]*;' "$work/err"; do sleep 0.05; done
	port=$(sed -n 's/.*listening on port \([0-9]*\).*/\1/p' "$work/err")
	wall=$("$SW" -q -f csv -m none -s 4k -w "$3" -t "$TIME" --region 1m \
		--ack-log "tcp:127.0.0.1:$port" "$work/t" | awk -F, 'NR == 2 { print $9 }')
	wait "$lpid"
	set -- "$1" "$3" "$wall" $(sed -n 's/.*: \([0-9]*\) records committed by \([0-9]*\) fdatasync.*/\1 \2/p' "$work/err")
	echo "$*" >>"$res"
	rm -f "$log"*
}

echo "sync-write $("$SW" --version | sed -n '1s/^sync-write (libdirectio) \([^,]*\),.*/\1/p'), log on $(df -PT "$disk" | awk 'NR == 2 { print $2 " (" $7 ")" }') vs tmpfs (/dev/shm); $PAIRS pairs of $TIME, method none, 4 KiB; $(uname -sr)"
p=1
while [ "$p" -le "$PAIRS" ]; do
	for w in $WRITERS; do
		if [ $((p % 2)) -eq 1 ]; then
			one disk "$disk" "$w"; one tmpfs /dev/shm "$w"
		else
			one tmpfs /dev/shm "$w"; one disk "$disk" "$w"
		fi
	done
	p=$((p + 1))
done

med() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
printf '%-8s %-6s %12s %14s %14s\n' writers log records/s us/answer records/commit
for w in $WRITERS; do
	for place in disk tmpfs; do
		rate=$(awk -v p="$place" -v w="$w" '$1 == p && $2 == w { print $4 / $3 }' "$res" | med)
		lat=$(awk -v p="$place" -v w="$w" '$1 == p && $2 == w { print w * $3 / $4 * 1e6 }' "$res" | med)
		per=$(awk -v p="$place" -v w="$w" '$1 == p && $2 == w { print ($5 ? $4 / $5 : 0) }' "$res" | med)
		printf '%-8s %-6s %12.0f %14.1f %14.2f\n' "$w" "$place" "$rate" "$lat" "$per"
	done
done
