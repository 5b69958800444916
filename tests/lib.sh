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
