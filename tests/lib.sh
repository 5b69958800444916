# SPDX-License-Identifier: BSD-2-Clause
# lib.sh -- sourced by the tests/*.sh scripts.
# Exit statuses follow Automake: 0 pass, 1 fail, 77 skip, 99 hard error.

: "${top_builddir:=.}"
: "${top_srcdir:=.}"
: "${DIO_BACKEND:=linux}"
# Absolute, so that tests may change directory.
top_builddir=$(cd "$top_builddir" && pwd)
top_srcdir=$(cd "$top_srcdir" && pwd)

skip() { echo "SKIP: $*"; exit 77; }
hard() { echo "ERROR: $*"; exit 99; }

# The kernel version as a number MAJOR*1000+MINOR (6.6 -> 6006).
kernel_version() {
	uname -r | awk -F'[.-]' '{ print $1 * 1000 + $2 }'
}

# Direct I/O is expected where the backend has it and the fs supports it.
backend_has_direct() {
	[ "$DIO_BACKEND" = linux ] || [ "$DIO_BACKEND" = sunos ]
}

need_root() {
	[ "$(id -u)" -eq 0 ] || skip "$1 needs root (loop devices, mount)"
}

# own_mounts "$@" (first thing in a test that mounts): as root, with
# util-linux's unshare, the test runs again in a mount namespace of its
# own, so that its mounts are its alone.  Without it, a namespace that
# another test makes meanwhile (ip netns exec, for the MPI test hosts)
# copies the mount (/ is private on a machine without systemd), keeps
# the file system alive after the test's umount, and the device then
# looks held (seen: two suites side by side, "unmounted again" failed).
own_mounts() {
	[ -z "${DIO_OWN_MOUNTS:-}" ] && [ "$(id -u)" -eq 0 ] &&
		command -v unshare >/dev/null 2>&1 &&
		unshare -m --propagation private true 2>/dev/null || return 0
	DIO_OWN_MOUNTS=1 exec unshare -m --propagation private sh "$0" "$@"
}

need_cmd() {
	command -v "$1" >/dev/null 2>&1 || skip "no $1 (install $2)"
}

check_fs() {
	"$top_builddir/tests/check_fs" "$@"
}

# expect_exit STATUS PATTERN PROGRAM ARGS...: PROGRAM ARGS exits with
# STATUS and its output (standard output and error) matches the grep
# PATTERN.  Prints "ok   ..." with the line that matched, or "FAIL ..."
# with the whole output, and then sets fail=1.
expect_exit() {
	_want=$1 _pat=$2; shift 2
	_out=$("$@" 2>&1); _got=$?
	if [ $_got -eq "$_want" ] && printf '%s\n' "$_out" | grep -q -- "$_pat"; then
		echo "ok   ${1##*/} ${*#"$1" }: exit $_got: $(printf '%s\n' "$_out" | grep -- "$_pat" | head -n 1)"
	else
		echo "FAIL ${1##*/} ${*#"$1" }: exit $_got (want $_want, matching '$_pat'):"
		printf '%s\n' "$_out" | sed 's/^/    /'
		fail=1
	fi
}

# wait_for SECONDS WHAT COMMAND [ARGS...]: the tests' one way to wait for
# something to happen (a process to start, a file to appear, a worker to
# exist, a signal handler to be in place).  COMMAND runs in this shell (a
# function may set variables) every $wait_for_poll seconds (default 0.02)
# until it succeeds: 0.  After SECONDS seconds without success it says
# "timed out after SECONDS s waiting for WHAT" on standard error and
# returns 1.  A fixed sleep instead is a bet on the machine's speed, which
# a loaded machine loses; so give SECONDS generously (60), as it costs
# nothing when the condition comes.
wait_for() {
	_wf_s=$1 _wf_what=$2; shift 2
	_wf_end=$(($(date +%s) + _wf_s))
	until "$@"; do
		if [ "$(date +%s)" -ge $_wf_end ]; then
			echo "timed out after $_wf_s s waiting for $_wf_what" >&2
			return 1
		fi
		sleep "${wait_for_poll:-0.02}"
	done
	return 0
}

# sanitized: the build is instrumented by AddressSanitizer (its shadow
# memory makes address-space limits and peak-memory bounds meaningless).
sanitized() {
	grep -q -e '-fsanitize=[a-z,]*address' "${top_builddir:-.}/Makefile" 2>/dev/null
}

# linux_proc: /proc is Linux's (a text status with SigCgt, and io), which
# catches, children and io_bytes read; elsewhere the cases that wait on
# them say SKIP.
linux_proc() {
	[ -r /proc/self/io ] && grep -q '^SigCgt:' /proc/self/status 2>/dev/null
}

# listener_port ERRFILE: wait for a sync-write --listen, started with its
# standard error to ERRFILE, to say its port; sets port.  (Remove ERRFILE
# before starting it: the shell truncates it in the child, so an earlier
# listener's line could otherwise be read.)  One that does not start is a
# hard error.
listener_port() {
	wait_for 60 "the listener's port" grep -qs 'listening on .* (port [0-9][0-9]*)' "$1" ||
		hard "the listener did not start: $(cat "$1" 2>/dev/null)"
	port=$(sed -n 's/.*listening on .* (port \([0-9]*\)).*/\1/p' "$1")
}

# ack_clients: the environment of the python clients that speak the ack
# protocol (tests/ack_client.py on PYTHONPATH); a build without a MAC
# library speaks plain (loopback only), and so do they (ACK_CLIENT_AUTH).
ack_clients() {
	PYTHONPATH=$(cd "${top_srcdir:-.}/tests" && pwd)${PYTHONPATH:+:$PYTHONPATH}
	export PYTHONPATH
	grep -q '^#define DIO_HAVE_CRYPTO 1' "$top_builddir/config.h" || ACK_CLIENT_AUTH=plain
	export ACK_CLIENT_AUTH
}

# listener_start LOG [OPTION...]: sync-write --listen on a free port of
# ${LISTEN_ADDR:-127.0.0.1} logging to LOG, its standard error in LOG.err,
# run under the words of $LISTEN_WRAP if set (ip netns exec NS); sets lpid
# and port, and exports its token (LOG.token, which it makes) as
# DIO_ACK_TOKEN for the senders and clients here.
listener_start() {
	_ls_log=$1; shift
	rm -f "$_ls_log.err" "$_ls_log.token"
	# shellcheck disable=SC2086
	${LISTEN_WRAP:-} "$top_builddir/tools/sync-write" --listen "${LISTEN_ADDR:-127.0.0.1}:0" \
		"$@" --ack-log "$_ls_log" 2>"$_ls_log.err" &
	lpid=$!
	listener_port "$_ls_log.err"
	DIO_ACK_TOKEN=$(cat "$_ls_log.token") || hard "the listener wrote no token"
	export DIO_ACK_TOKEN
}

# gone PID: process PID has ended (and was reaped, if this shell's child:
# the shell reaps its children as it runs other commands, such as the
# sleep of wait_for).
gone() {
	! kill -0 "$1" 2>/dev/null
}

# catches PID SIGNAL: process PID has a handler for SIGNAL (HUP, INT, TERM,
# USR1, USR2, or a number up to 32) installed, from its SigCgt in /proc
# (Linux, whose numbers these are; dash's kill -l does not map names).
# Not while PID still runs a shell or env: a build-tree tool starts as
# libtool's wrapper, a bash script, and bash catches SIGINT for itself
# until it execs the program (a SIGINT sent then killed the wrapper, and
# the tool never said a word).
catches() {
	case $2 in
	HUP) _c_n=1 ;; INT) _c_n=2 ;; TERM) _c_n=15 ;; USR1) _c_n=10 ;; USR2) _c_n=12 ;;
	*[!0-9]*|'') echo "catches: no number known for the signal '$2'" >&2; return 1 ;;
	*) _c_n=$2 ;;
	esac
	case $(readlink "/proc/$1/exe" 2>/dev/null) in
	*/bash|*/dash|*/sh|*/env) return 1 ;;
	esac
	_c_m=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null)
	[ -n "$_c_m" ] || return 1
	_c_m=${_c_m#"${_c_m%????????}"}   # the low 32 signals
	[ $(((0x$_c_m >> (_c_n - 1)) & 1)) -eq 1 ]
}

# children PID: the process IDs of PID's children, one a line (/proc); PID
# not this shell (the pipeline that looks would be among them).
children() {
	# (cat, not awk's own reading: a process may go between the glob and
	# the read.  The fields after the command name, which may hold spaces
	# and parentheses, start with the state and the parent.)
	cat /proc/[0-9]*/stat 2>/dev/null |
		awk -v p="$1" '{ id = $1; sub(/.*\) /, ""); split($0, f, " ") } f[2] == p { print id }'
}

# io_bytes FIELD PID...: the sum of FIELD (rchar, wchar, ...) of
# /proc/PID/io over the PIDs (what their system calls read or wrote; 0 for
# a process that is gone).
io_bytes() {
	_io_f=$1; shift
	_io_t=0
	for _io_p in "$@"; do
		_io_v=$(sed -n "s/^$_io_f: //p" "/proc/$_io_p/io" 2>/dev/null)
		_io_t=$((_io_t + ${_io_v:-0}))
	done
	echo $_io_t
}
