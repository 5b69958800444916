#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# fuzz.sh -- 'make fuzz' (configure --enable-fuzzing): fuzz each harness
# named (tests/fuzz/HARNESS) for DIO_FUZZ_SECONDS seconds (default 60),
# DIO_FUZZ_JOBS at a time (default 2), each with -rss_limit_mb
# (DIO_FUZZ_RSS_MB, default 2048) and -timeout (DIO_FUZZ_TIMEOUT seconds
# per input, default 10), at nice DIO_FUZZ_NICE (default 0; run-all.sh's
# fuzz job: 19, beside the tests).  It starts from the committed corpus and
# reproducers (tests/fuzz/corpus/HARNESS, tests/fuzz/repro/HARNESS); what
# it finds goes under DIO_FUZZ_DIR (default tests/fuzz/work in the build
# tree): new inputs in HARNESS/corpus, crashes, leaks, timeouts and
# out-of-memory inputs as HARNESS/crash-*, leak-*, timeout-*, oom-*.
# The harnesses' own output is closed (-close_fd_mask=3: --check's messages
# for every input would fill the log); libFuzzer's and the sanitizers'
# reports stay.  Says per harness the inputs it ran (libFuzzer's
# executions), and at the end all of them on one line; a harness that ran
# none fails.  Exit 0 only if no harness found anything.
set -u
s=${top_srcdir:-.}/tests/fuzz
b=${top_builddir:-.}
secs=${DIO_FUZZ_SECONDS:-60}
jobs=${DIO_FUZZ_JOBS:-2}
rss=${DIO_FUZZ_RSS_MB:-2048}
tmo=${DIO_FUZZ_TIMEOUT:-10}
nic=${DIO_FUZZ_NICE:-0}
work=${DIO_FUZZ_DIR:-$b/tests/fuzz/work}
case $nic in
[0-9]|1[0-9]) ;;
*) echo "fuzz.sh: DIO_FUZZ_NICE is a nice value, 0 to 19 ('$nic' given)" >&2; exit 2 ;;
esac
for v in "$secs" "$jobs" "$rss" "$tmo"; do
	case $v in
	''|*[!0-9]*|0) echo "fuzz.sh: DIO_FUZZ_SECONDS, DIO_FUZZ_JOBS, DIO_FUZZ_RSS_MB and" \
	                    "DIO_FUZZ_TIMEOUT are whole numbers above 0 ('$v' given)" >&2
	               exit 2 ;;
	esac
done
[ $# -gt 0 ] || { echo "fuzz.sh: name the harnesses (tests/fuzz/NAME)" >&2; exit 2; }
LSAN_OPTIONS="suppressions=$s/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export LSAN_OPTIONS

# One harness: program path; its status in $work/NAME/status.  A timeout
# whose input, run again alone, takes less than half the limit was this
# machine stalling (a loaded host stops processes for seconds), not the
# input: it is said, kept as stall-*, and fuzzing goes on for the time
# left, at most 3 times; a timeout that repeats is a finding.
one() {
	prog=$1
	h=$(basename "$prog")
	d=$work/$h
	rm -rf "$d" && mkdir -p "$d/corpus" || return
	end=$(($(date +%s) + secs))
	stalls=0
	st=0
	while left=$((end - $(date +%s))); [ "$left" -gt 0 ]; do
		set -- "$prog" "$d/corpus" "$s/corpus/$h"
		[ -d "$s/repro/$h" ] && set -- "$@" "$s/repro/$h"
		nice -n "$nic" "$@" -max_total_time="$left" -rss_limit_mb="$rss" \
		     -malloc_limit_mb="$rss" -timeout="$tmo" -print_final_stats=1 \
		     -artifact_prefix="$d/" -close_fd_mask=3 >>"$d/log" 2>&1
		st=$?
		t=$(ls "$d" | grep '^timeout-' | head -n 1)
		[ "$st" -ne 0 ] && [ -n "$t" ] && [ "$stalls" -lt 3 ] || break
		ls "$d" | grep -qE '^(crash|leak|oom)-' && break
		again=$(date +%s)
		"$prog" -timeout="$tmo" -rss_limit_mb="$rss" "$d/$t" >/dev/null 2>&1 || break
		[ $(($(date +%s) - again)) -le $((tmo / 2)) ] || break
		mv "$d/$t" "$d/stall-$t"
		stalls=$((stalls + 1))
		st=0
	done
	echo "$stalls" >"$d/stalls"
	echo "$st" >"$d/status"
}

# The inputs a harness ran, over its runs of libFuzzer (several after a
# stall): each run's stat::number_of_executed_units (-print_final_stats),
# or for a run that ended without its statistics (a crash, a leak) the
# count of its last status line ("#12345\tpulse ...", "#12345\tDONE").
executions() {
	awk '
		/^INFO: Seed: / { if (open) n += last; open = 1; last = 0; stat = 0 }
		/^#[0-9]+[ \t]/ { v = substr($1, 2) + 0; if (!stat && v > last) last = v }
		/^stat::number_of_executed_units:/ { last = $2 + 0; stat = 1 }
		END { if (open) n += last; print n + 0 }' "$1"
}

t0=$(date +%s)
summary=""
echo "fuzzing $# harnesses for $secs s each, $jobs at a time (rss limit $rss MB, timeout $tmo s, nice $nic)"
set -- "$@"
fails=0
while [ $# -gt 0 ]; do
	batch=""
	n=0
	while [ $# -gt 0 ] && [ $n -lt "$jobs" ]; do
		one "$1" &
		batch="$batch $(basename "$1")"
		n=$((n + 1))
		shift
	done
	wait
	for h in $batch; do
		d=$work/$h
		st=$(cat "$d/status" 2>/dev/null || echo 1)
		found=$(ls "$d" | grep -E '^(crash|leak|timeout|oom)-' | tr '\n' ' ')
		runs=$(executions "$d/log")
		stalls=$(cat "$d/stalls" 2>/dev/null || echo 0)
		cov=$(grep -E '^#[0-9]+.*(DONE|cov:)' "$d/log" | tail -n 1 | sed -n 's/.*\(cov: [0-9]*\).*/\1/p')
		corp=$(ls "$d/corpus" | wc -l)
		summary="$summary $h=$runs"
		if [ "$st" -eq 0 ] && [ -z "$found" ] && [ "$runs" -gt 0 ]; then
			note=""
			[ "$stalls" -gt 0 ] && note="; $stalls timeout(s) whose input ran fast alone: this machine stalled (stall-* in $d)"
			echo "ok: $h: $runs runs, ${cov:-cov: ?}, $corp new inputs$note"
		elif [ "$st" -eq 0 ] && [ -z "$found" ]; then
			echo "FAIL: $h: no input was run (libFuzzer's log $d/log says no executions):"
			tail -n 20 "$d/log"
			fails=$((fails + 1))
		else
			echo "FAIL: $h: $runs runs, exit $st${found:+, found: $found}; the end of $d/log:"
			tail -n 60 "$d/log"
			fails=$((fails + 1))
		fi
	done
done
echo "executions per harness:$summary"
echo "fuzzing took $(($(date +%s) - t0)) s; findings and new inputs are in $work"
[ "$fails" -eq 0 ]
