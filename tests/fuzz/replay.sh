#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# replay.sh -- every fuzz harness of this build (tests/fuzz/*.c) runs each
# input of its committed seed corpus (tests/fuzz/corpus/HARNESS/), of the
# inputs it must refuse (corpus/HARNESS/bad/) and of the reproducers of
# what fuzzing found (tests/fuzz/repro/HARNESS/).  Any crash, sanitizer
# report or failed check of a harness fails the test.  Then the seeds are
# held to their format: each harness says per input whether it accepted
# it (tests/fuzz/fuzz.h, fuzz_verdict(), with DIO_FUZZ_VERDICT set), and
# a seed refused, or a bad/ input accepted, fails the test by name, so a
# seed cannot go stale as the formats change.  Says per harness the
# inputs replayed.  Built with --enable-fuzzing the harnesses are
# libFuzzer programs, run with -runs=0 (the inputs, no fuzzing);
# otherwise tests/fuzz/replay.c's.
set -u
b=${top_builddir:-.}/tests/fuzz
s=${top_srcdir:-.}/tests/fuzz
# Leaks the project knows and has reported, if any (see the file).
LSAN_OPTIONS="suppressions=$s/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export LSAN_OPTIONS
fails=0 ran=0

# The files of a directory, not its subdirectories or dot files, sorted.
files_of() {
	[ -d "$1" ] && find "$1" -maxdepth 1 -type f ! -name '.*' | LC_ALL=C sort
}

# Each seed of harness $1 (corpus directory $2) accepted, each bad/ input
# refused: all run by one process; each verdict follows the "Running:
# PATH" line of its input (libFuzzer's; replay.c says it too), and the
# last one counts (libFuzzer runs an input again to confirm a leak).
# Says what is wrong.
verdicts() {
	vh=$1 vd=$2
	list=$b/replay-$vh.inputs
	{ files_of "$vd"; files_of "$vd/bad"; } >"$list"
	set --
	while IFS= read -r f; do set -- "$@" "$f"; done <"$list"
	[ $# -gt 0 ] || { echo "FAIL: $vh: no seed in $vd"; return 1; }
	DIO_FUZZ_VERDICT=1 "$b/$vh" -runs=0 "$@" >"$b/replay-$vh.verdicts" 2>&1 ||
		{ echo "FAIL: $vh: the run of its seeds for their verdicts failed:"
		  tail -n 20 "$b/replay-$vh.verdicts"; return 1; }
	awk -v h="$vh" -v s="$s/" '
		NR == FNR { want[++n] = $0; next }
		/^Running: / { cur = substr($0, 10); next }
		/^fuzz: / && cur != "" { said[cur] = $0 }
		END {
			for (i = 1; i <= n; i++) {
				f = want[i]
				name = index(f, s) == 1 ? "tests/fuzz/" substr(f, length(s) + 1) : f
				v = said[f]
				if (v == "") {
					printf "FAIL: %s: no verdict for %s (a harness says one per input)\n", h, name
					bad++
				} else if (v ~ /^fuzz: not judged/) {
					unjudged++     # this build cannot read its kind
				} else if (f !~ /\/bad\/[^\/]*$/ && v != "fuzz: accepted") {
					sub(/^fuzz: refused:? ?/, "", v)
					printf "FAIL: %s: seed %s is refused%s%s\n", h, name, v != "" ? ": " : "", v
					bad++
				} else if (f ~ /\/bad\/[^\/]*$/ && v == "fuzz: accepted") {
					printf "FAIL: %s: %s is accepted, but bad/ holds inputs to refuse\n", h, name
					bad++
				}
			}
			if (unjudged)
				printf "%s: %d inputs not judged by this build (it cannot read their kind)\n", h, unjudged
			exit bad > 0
		}' "$list" "$b/replay-$vh.verdicts"
}

for dir in "$s"/corpus/*/; do
	dir=${dir%/}
	h=$(basename "$dir")
	if [ ! -x "$b/$h" ]; then
		case $h in
		mountinfo|udev|sysfs|devinfo|disks) why="the Linux backend's readers: this build's backend is ${DIO_BACKEND:-not linux}" ;;
		sg-reply) why="the sg driver's replies: this build has no Linux SCSI pass-through" ;;
		*) why="not built" ;;
		esac
		echo "skipped: $h ($why)"
		continue
	fi
	nseed=$(files_of "$dir" | wc -l)
	nbad=$(files_of "$dir/bad" | wc -l)
	nrepro=$(files_of "$s/repro/$h" | wc -l)
	log=$b/replay-$h.log
	set -- "$dir"
	[ -d "$dir/bad" ] && set -- "$@" "$dir/bad"
	[ -d "$s/repro/$h" ] && set -- "$@" "$s/repro/$h"
	if ! "$b/$h" -runs=0 -artifact_prefix="$b/replay-$h-" "$@" >"$log" 2>&1; then
		echo "FAIL: $h (exit $?); its log $log ends:"
		tail -n 40 "$log"
		fails=$((fails + 1))
	elif ! verdicts "$h" "$dir"; then
		fails=$((fails + 1))
	else
		echo "ok: $h: $((nseed + nbad + nrepro)) inputs replayed: $nseed seeds, each" \
		     "accepted; $nbad in bad/, each refused; $nrepro reproducers"
		ran=$((ran + 1))
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
