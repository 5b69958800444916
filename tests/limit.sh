#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# limit.sh TEST [ARGS...] -- run one test of `make check` with a time limit
# (the LOG_COMPILER of every test), so that a test that hangs fails with a
# message instead of stopping the suite until CI gives up.
#
# The limit is DIO_TEST_TIMEOUT seconds (default 900).  The qemu tests (a
# name with "qemu" or "powercut", or under tests/qemu/) bound their guests themselves
# (tests/qemu/run-guest.sh -t), may first fetch a kernel and may wait for a
# guest slot while other suites' guests run; theirs is DIO_QEMU_TEST_TIMEOUT
# (default 3600).  0 means no limit.
# Without timeout(1) (GNU coreutils; not every illumos has it) the test runs
# unlimited.  Last in the test's log it says how long the test took
# ("time: NAME N s, cpu C s").
# Under tests/run-all.sh, a test placed in other configurations says SKIP
# (DIO_PLACES, below).
# With DIO_TEST_LOGS=DIR, the log is also kept as DIR/NAME.log (run-all.sh:
# `make distcheck` removes its build tree, and the logs, when it passes);
# the test's output then goes to that file first and is copied to the
# log when the test ends.
t=${DIO_TEST_TIMEOUT:-900}
case ${1##*/} in
*qemu*|*powercut*) t=${DIO_QEMU_TEST_TIMEOUT:-3600} ;;
*) case $1 in */qemu/*) t=${DIO_QEMU_TEST_TIMEOUT:-3600} ;; esac ;;
esac
case $t in ''|*[!0-9]*) echo "limit.sh: the time limit '$t' is not a number of seconds" >&2; exit 99 ;; esac
copy=
if [ -n "${DIO_TEST_LOGS:-}" ]; then
	copy=$DIO_TEST_LOGS/${1##*/}.log
	mkdir -p "$DIO_TEST_LOGS" && : >"$copy" ||
		{ echo "limit.sh: cannot write $copy (DIO_TEST_LOGS)" >&2; exit 99; }
	exec 3>&1 >"$copy" 2>&1   # (3: the log; the test does not get it)
fi
# Under tests/run-all.sh, a test that it runs in other configurations
# only (DIO_PLACES: NAME:CONFIG[,CONFIG] words; DIO_RUN_CONFIG: this
# suite's configuration) says SKIP here, with where it runs; with
# DIO_SCRIPTS=placed, so does every test script (NAME.sh) not placed
# here (the compiled tests all run).
skip_here() {
	echo "SKIP: $*"
	if [ -n "$copy" ]; then exec >&3 2>&1 3>&-; cat "$copy"; fi
	exit 77
}
placed=
for _p in ${DIO_RUN_CONFIG:+${DIO_PLACES:-}}; do
	[ "${_p%%:*}" = "${1##*/}" ] || continue
	case ,${_p#*:}, in
	*,"$DIO_RUN_CONFIG",*) placed=1 ;;
	*)
		case ${_p#*:} in
		*,*) _w="$(echo "${_p#*:}" | sed 's/,/ and /g') configurations" ;;
		*) _w="${_p#*:} configuration" ;;
		esac
		skip_here "tests/run-all.sh runs ${1##*/} in its $_w only, not in $DIO_RUN_CONFIG (DIO_PLACES)" ;;
	esac
done
case ${DIO_RUN_CONFIG:+${DIO_SCRIPTS:-}}:$placed:${1##*/} in
placed::*.sh)
	skip_here "tests/run-all.sh's $DIO_RUN_CONFIG configuration runs the compiled tests and the scripts placed there (DIO_SCRIPTS=placed); this script runs in the others" ;;
esac
t0=$(date +%s) limited=0
if [ "$t" -eq 0 ] || ! command -v timeout >/dev/null 2>&1; then
	"$@" 3>&-
	st=$?
else
	limited=1
	timeout -k 10 "$t" "$@" </dev/null 3>&-
	st=$?
fi
if [ -n "$copy" ]; then
	exec >&3 2>&1 3>&-
	cat "$copy"
	# what follows goes to both
	exec 3>&1
	out() { echo "$@"; echo "$@" >>"$copy"; }
else
	out() { echo "$@"; }
fi
# The test's time, last in its log: run-all.sh lists the slowest.  The
# CPU seconds are those of the processes it waited for (times(1)'s
# second line: user and system of the children).
# (times runs in this shell: in a pipe or $(...) it would see none.)
cpu='' tf=$(mktemp 2>/dev/null) && times >"$tf" &&
	cpu=$(awk 'NR == 2 { n = 0; for (i = 1; i <= 2; i++) { split($i, a, "m")
		n += a[1] * 60 + a[2] } printf "%.0f", n }' "$tf")
[ -n "${tf:-}" ] && rm -f "$tf"
case $st in
124|137)
	if [ $limited = 1 ]; then
		out "FAIL: ${1##*/} did not end within $t s and was killed (a hang;" \
		    "the limit is DIO_TEST_TIMEOUT, or DIO_QEMU_TEST_TIMEOUT for the qemu tests)"
		st=1
	fi ;;
esac
out "time: ${1##*/} $(($(date +%s) - t0)) s, cpu ${cpu:-0} s"
exit $st
