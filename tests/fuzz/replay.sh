#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# replay.sh -- every fuzz harness of this build (tests/fuzz/*.c) runs each
# input of its committed seed corpus (tests/fuzz/corpus/HARNESS/) and of
# the reproducers of what fuzzing found (tests/fuzz/repro/HARNESS/).  Any
# crash, sanitizer report or failed check of a harness fails the test.
# Built with --enable-fuzzing the harnesses are libFuzzer programs, run
# with -runs=0 (the inputs, no fuzzing); otherwise tests/fuzz/replay.c's.
set -u
b=${top_builddir:-.}/tests/fuzz
s=${top_srcdir:-.}/tests/fuzz
# Leaks the project knows and has reported, if any (see the file).
LSAN_OPTIONS="suppressions=$s/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export LSAN_OPTIONS
fails=0 ran=0
for dir in "$s"/corpus/*/; do
	h=$(basename "$dir")
	if [ ! -x "$b/$h" ]; then
		case $h in
		mountinfo|udev|sysfs) why="the Linux backend's readers: this build's backend is ${DIO_BACKEND:-not linux}" ;;
		sg-reply) why="the sg driver's replies: this build has no Linux SCSI pass-through" ;;
		*) why="not built" ;;
		esac
		echo "skipped: $h ($why)"
		continue
	fi
	inputs=$(find "$dir" "$s/repro/$h" -type f ! -name '.*' 2>/dev/null | wc -l)
	log=$b/replay-$h.log
	set -- "$dir"
	[ -d "$s/repro/$h" ] && set -- "$@" "$s/repro/$h"
	if "$b/$h" -runs=0 -artifact_prefix="$b/replay-$h-" "$@" >"$log" 2>&1; then
		echo "ok: $h: $inputs inputs"
		ran=$((ran + 1))
	else
		echo "FAIL: $h (exit $?); its log $log ends:"
		tail -n 40 "$log"
		fails=$((fails + 1))
	fi
done
# Every harness built has a corpus.
for p in "$b"/*; do
	[ -f "$p" ] && [ -x "$p" ] || continue
	h=$(basename "$p")
	case $h in *.sh|*.la|*.so|lt-*) continue ;; esac
	[ -d "$s/corpus/$h" ] || { echo "FAIL: harness $h has no corpus ($s/corpus/$h)"; fails=$((fails + 1)); }
done
[ "$fails" -eq 0 ] || exit 1
[ "$ran" -gt 0 ] || { echo "SKIP: no fuzz harness is built in this configuration"; exit 77; }
exit 0
