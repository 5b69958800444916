#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tools-long-paths.sh -- no message is cut: with a path of 4000 bytes (and
# PATH_MAX 4096) every tool's message holds the whole path and the reason
# after it, on one line.  sync-write, dio-dd, dio-rbuf and dio-info refuse
# a missing file; sync-write (several TARGETs) and dio-dd say why a write failed on a full
# file system (as root: a small tmpfs) with the path in the message; a
# path longer than PATH_MAX is refused as too long, not cut and used.
. "${top_srcdir:-.}/tests/lib.sh"
own_mounts "$@"

B=$tools
work=$(mktemp -d "${TMPDIR:-/tmp}/long-paths.XXXXXX") || hard "mktemp"
full=
cleanup() {
	[ -n "$full" ] && umount "$full" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT INT TERM
fail=0
ok() { printf 'ok   %s\n' "$*"; }
bad() { printf 'FAIL %s\n' "$*"; fail=1; }

# A directory under BASE whose path is LEN bytes long (names of 200 bytes
# and one to make up the rest); made.
long_dir() {  # BASE LEN
	_d=$1
	while [ $((${#_d} + 201)) -le "$2" ]; do
		_d=$_d/$(printf '%0200d' 0 | tr 0 d)
	done
	_n=$(($2 - ${#_d} - 1))
	[ "$_n" -gt 0 ] && _d=$_d/$(printf "%0${_n}d" 0 | tr 0 e)
	mkdir -p "$_d" || hard "mkdir of a ${#_d}-byte path"
	printf '%s\n' "$_d"
}

# said WANT-STATUS REASON PATH CMD...: CMD exits WANT-STATUS; its standard
# error is one line per message, and one of them holds PATH whole followed
# (anywhere after it) by REASON.
said() {
	_want=$1 _why=$2 _path=$3; shift 3
	"$@" >"$work/out" 2>"$work/err" </dev/null
	_got=$?
	if [ "$_got" -ne "$_want" ]; then
		bad "$(basename "$1") (${#_path}-byte path): exit $_got, want $_want"
		head -c 300 "$work/err"; echo
		return
	fi
	if LC_ALL=C awk -v p="$_path" -v w="$_why" '
		{ i = index($0, p); if (i && index(substr($0, i + length(p)), w)) found = 1 }
		END { exit !found }' "$work/err"; then
		ok "$(basename "$1") (${#_path}-byte path): exit $_got, the path whole, then '$_why'"
	else
		bad "$(basename "$1") (${#_path}-byte path): the message lacks the path or '$_why':"
		LC_ALL=C awk '{ print length($0) " bytes: ..." substr($0, length($0) - 200) }' "$work/err"
	fi
}

dir=$(long_dir "$work" 3990)
missing=$dir/nothing           # 3998 bytes
long=$dir/x.dat                # 3996 bytes
: >"$long"
echo "paths of ${#missing} and ${#long} bytes"

said 2 "exists and would be overwritten; pass --force" "$long" \
	"$B/sync-write" -q -n 1 -s 4k -m none "$long"
said 2 "no such file or directory" "$dir/none/x" \
	"$B/sync-write" -q -n 1 -s 4k -m none --dir "$dir/none/x"
said 2 "does not exist" "$dir/none/t" \
	"$B/sync-write" -q -n 1 -s 4k -m none "$dir/none/t"
said 2 "are the same file" "$long" \
	"$B/sync-write" -q -n 1 -s 4k -m none --force "$long" "$long"
toolong=$dir/$(printf '%0200d' 0 | tr 0 f)
said 2 "file name too long (${#toolong} bytes; a path has at most" "$toolong" \
	"$B/sync-write" -q -n 1 -s 4k -m none "$toolong"
# (dio-dd says these as dd does: the C locale's words)
said 1 "No such file or directory" "$missing" "$B/dio-dd" if="$missing" mode=read
said 1 "No such file or directory" "$dir/none/out" "$B/dio-dd" if="$long" of="$dir/none/out"
said 1 "no such file or directory" "$missing" "$B/dio-rbuf" "$missing"
said 2 "no such file or directory" "$dir/none/p.svg" \
	"$B/dio-rbuf" --sweep --plot "$dir/none/p.svg" /dev/null
said 1 "no such file or directory" "$missing" "$B/dio-info" "$missing"

# Errors met while writing, reported with the path.
if [ "$(uname -s)" = Linux ] && [ "$(id -u)" -eq 0 ]; then
	mkdir "$work/full"
	if mount -t tmpfs -o size=1m tmpfs "$work/full" 2>/dev/null; then
		full=$work/full
		fdir=$(long_dir "$full" 3990)
		# one TARGET: the writer's message (no path), then its own
		said 1 "no space left on device" "writer 0, method none" \
			"$B/sync-write" -q -m none -s 64k -n 40 --extend "$fdir/t"
		said 1 "No space left on device" "$fdir/o" \
			"$B/dio-dd" of="$fdir/o" mode=write bs=64k count=40
		said 1 "no space left on device" "$fdir/t" \
			"$B/sync-write" -q -m none -s 64k -n 40 --extend "$work/t2" "$fdir/t"
	else
		echo "SKIP: errors while writing: cannot mount a tmpfs here"
	fi
else
	echo "SKIP: errors while writing: need root on Linux (a full tmpfs)"
fi
exit $fail
