#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# sync-write-strace.sh -- every method issues the system calls it claims.
# Each method runs 20 measured 4 KiB transactions under strace; the writer
# process's calls are then counted: e.g. fdatasync is exactly
# (pwrite64, fdatasync) x 20, dsync opens with O_DSYNC and never syncs,
# direct sets O_DIRECT, rwf-dsync is 20 pwritev2(..., RWF_DSYNC).
. "${top_srcdir:-.}/tests/lib.sh"

need_cmd strace strace
# LeakSanitizer cannot run under ptrace (sanitizer builds).
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
export ASAN_OPTIONS
SW=$tools/sync-write
work=$(mktemp -d "$top_builddir/sw-strace.XXXXXX") || hard "mktemp"
trap 'rm -rf "$work"' EXIT
fail=0
N=20

# The backend decides which methods exist here.
direct_ok=yes; rwf_ok=yes
[ "$DIO_BACKEND" = linux ] || { direct_ok=no; rwf_ok=no; }

check() {  # METHOD EXPECT...
	m=$1; shift
	log=$work/$m.strace
	if ! strace -f -qq -s 0 -o "$log" -e trace=openat,fcntl,pwrite64,pwritev2,fdatasync,fsync \
	    "$SW" -m "$m" -s 4096 -n $N --warmup 0 -q --dir "$work" >"$work/$m.out" 2>&1; then
		echo "FAIL $m: sync-write failed:"; cat "$work/$m.out"; fail=1; return
	fi
	main=$(grep 'sync-write\.[^"]*", O_RDWR|O_CREAT|O_EXCL' "$log" | awk '{ print $1; exit }')
	writer=$(grep 'openat(AT_FDCWD, "[^"]*sync-write\.[^"]*", O_RDWR' "$log" |
	         awk -v m="$main" '$1 != m { print $1 }' | sort -u)
	if [ -z "$main" ] || [ "$(echo "$writer" | wc -w)" -ne 1 ]; then
		echo "FAIL $m: expected one writer process (main '$main', writers '$writer')"
		fail=1; return
	fi
	awk -v p="$writer" '$1 == p' "$log" > "$work/$m.w"
	calls=$(sed -n 's/^[0-9]* *\([a-z0-9]*\)(.*/\1/p' "$work/$m.w" |
	        grep -E '^(pwrite64|pwritev2|fdatasync|fsync)$' | tr '\n' ' ')
	open=$(grep 'openat(AT_FDCWD, "[^"]*sync-write\.' "$work/$m.w" | head -n 1)
	setfl=$(grep 'F_SETFL' "$work/$m.w")
	for e in "$@"; do
		case $e in
		calls=*)
			want=$(i=0; while [ $i -lt $N ]; do printf '%s ' ${e#calls=}; i=$((i+1)); done)
			[ "$calls" = "$want" ] || { echo "FAIL $m: calls are '$calls'"; echo "  expected '$want'"
				echo "  writer $writer's trace:"; head -n 12 "$work/$m.w" | sed 's/^/    /'; fail=1; } ;;
		open+*)
			echo "$open" | grep -q "${e#open+}" || { echo "FAIL $m: open lacks ${e#open+}: $open"; fail=1; } ;;
		open-*)
			echo "$open" | grep -q "${e#open-}" && { echo "FAIL $m: open has ${e#open-}: $open"; fail=1; } ;;
		setfl+O_DIRECT)
			echo "$setfl" | grep -q 'O_DIRECT' || { echo "FAIL $m: no F_SETFL O_DIRECT"; fail=1; } ;;
		setfl-O_DIRECT)
			echo "$setfl" | grep -q 'O_DIRECT' && { echo "FAIL $m: F_SETFL O_DIRECT: $setfl"; fail=1; } ;;
		esac
	done
	[ $fail -eq 0 ] && echo "ok   $m: $(echo "$calls" | wc -w) calls; ${open#*sync-write.}"
}

check_na() {  # METHOD REASON-PATTERN
	out=$("$SW" -m "$1" -s 4096 -n 5 -q --dir "$work" 2>&1)
	echo "$out" | grep -q "n/a: .*$2" || { echo "FAIL $1: expected n/a ($2):"; echo "$out"; fail=1; return; }
	echo "ok   $1: n/a ($2)"
}

check none      'calls=pwrite64' open-O_DSYNC open-O_SYNC setfl-O_DIRECT
check fsync     'calls=pwrite64 fsync' open-O_DSYNC open-O_SYNC setfl-O_DIRECT
check fdatasync 'calls=pwrite64 fdatasync' open-O_DSYNC open-O_SYNC setfl-O_DIRECT
check dsync     'calls=pwrite64' open+O_DSYNC open-O_SYNC setfl-O_DIRECT
check sync      'calls=pwrite64' open+O_SYNC setfl-O_DIRECT
if [ $rwf_ok = yes ]; then
	check rwf-dsync 'calls=pwritev2' open-O_DSYNC open-O_SYNC
	grep -c 'RWF_DSYNC' "$work/rwf-dsync.w" | grep -qx $N ||
		{ echo "FAIL rwf-dsync: not $N RWF_DSYNC writes"; fail=1; }
else
	check_na rwf-dsync 'RWF_DSYNC'
fi
if [ $direct_ok = yes ]; then
	check direct           'calls=pwrite64' setfl+O_DIRECT open-O_DSYNC
	check direct+dsync     'calls=pwrite64' setfl+O_DIRECT open+O_DSYNC
	check direct+fdatasync 'calls=pwrite64 fdatasync' setfl+O_DIRECT open-O_DSYNC
	check direct+fsync     'calls=pwrite64 fsync' setfl+O_DIRECT open-O_DSYNC
else
	for m in direct direct+dsync direct+fdatasync direct+fsync; do
		check_na $m 'direct I/O'
	done
fi
exit $fail
