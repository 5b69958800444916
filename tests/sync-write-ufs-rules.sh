#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# sync-write-ufs-rules.sh -- what sync-write does with the answers the
# illumos backend gives on UFS (doc/illumos.md, section 2), shown on Linux:
# an LD_PRELOAD shim (tests/ufs-rules.c) makes the library say "ufs",
# directio() advice and UFS's direct_limits, and the real tool runs on
# real files:
#  - --extend: direct+dsync and direct+sync are n/a with the reason (UFS
#    buffers O_SYNC/O_DSYNC writes that extend a file), direct+fdatasync
#    and the buffered methods are measured; without the limits (the shim
#    told to report none) direct+dsync is measured again;
#  - --no-prefill on a file with a hole (truncate): direct+dsync n/a ("has
#    a hole"); the same file written through: measured;
#  - after every direct point the advice is switched off on the run's
#    files (directio() advice outlives the descriptor), once per point;
#  - durability as the backend tells it: UFS sends no cache flush (write
#    cache on: nothing durable; unknown: cannot tell; off: durable), and
#    ZFS sync=always makes the none row commit.
. "${top_srcdir:-.}/tests/lib.sh"

SW=$tools/sync-write
[ "$DIO_BACKEND" = linux ] || skip "the shim is built with the linux backend only"
la=$top_builddir/tests/ufs-rules.la
[ -f "$la" ] || hard "$la is not built"
shim=$top_builddir/tests/.libs/$(sed -n "s/^dlname='\(.*\)'$/\1/p" "$la")
[ -f "$shim" ] || hard "no shared object of $la (at $shim)"
sanitized && skip "an LD_PRELOAD shim cannot come before AddressSanitizer's runtime"
work=$(mktemp -d "$top_builddir/sw-ufs.XXXXXX") || hard "mktemp"
trap 'rm -rf "$work"' EXIT INT TERM
fail=0
ok() { printf 'ok   %s\n' "$*"; }
bad() { printf 'FAIL %s\n' "$*"; fail=1; }

# run NAME ARGS...: sync-write under the shim, CSV in $work/NAME.csv.
run() {
	_n=$1; shift
	LD_PRELOAD=$shim DIO_UFS_LOG=$work/$_n.log "$SW" -q -f csv -n 4 --warmup 1 \
		"$@" >"$work/$_n.csv" 2>"$work/$_n.err"
	_rc=$?
	grep -q '^ufs-rules: loaded' "$work/$_n.err" ||
		hard "the shim was not loaded: $(cat "$work/$_n.err")"
	return $_rc
}
# row NAME METHOD: the aggregate row of METHOD ("status,note").
row() {
	awk -F, -v m="$2" '$2 == m && $5 == "all" { print $6 "," $28 }' "$work/$1.csv"
}
offs() { [ -f "$work/$1.log" ] && wc -l <"$work/$1.log" | tr -d ' ' || echo 0; }

# 1. --extend
cd "$work" || hard "cd $work"
if run ext -s 4k -m none,dsync,direct+fdatasync,direct+dsync,direct+sync --extend; then
	for m in direct+dsync direct+sync; do
		r=$(row ext $m)
		case $r in
		n/a,*"ufs buffers O_SYNC/O_DSYNC writes that extend a file"*) ok "--extend $m: $r" ;;
		*) bad "--extend $m is not n/a with UFS's reason: '$r'" ;;
		esac
	done
	for m in none dsync direct+fdatasync; do
		r=$(row ext $m)
		case $r in ok,*) ok "--extend $m measured" ;; *) bad "--extend $m: '$r'" ;; esac
	done
	grep -q ',direct+fdatasync,.*,directio(),' "$work/ext.csv" &&
		ok "direct+fdatasync's direct column says directio()" ||
		bad "direct+fdatasync's direct column: $(grep direct+fdatasync "$work/ext.csv")"
	# The probe takes its own advice back, then one per direct point
	# measured (direct+fdatasync only: the n/a ones ran nothing).
	n=$(offs ext)
	[ "$n" = 2 ] && ok "advice switched off twice (probe, the direct point)" ||
		bad "advice switched off $n times, expected 2: $(cat "$work/ext.log" 2>/dev/null)"
else
	bad "sync-write --extend under the shim failed: $(cat "$work/ext.err")"
fi
if DIO_UFS_LIMITS=0 run ext0 -s 4k -m direct+dsync --extend; then
	r=$(row ext0 direct+dsync)
	case $r in ok,*) ok "without the limits --extend direct+dsync is measured" ;;
	*) bad "without the limits --extend direct+dsync: '$r'" ;; esac
else
	bad "sync-write --extend without limits failed: $(cat "$work/ext0.err")"
fi

# 2. --no-prefill on a file with a hole, then on the same file written.
truncate -s 1M "$work/holes.dat" || hard "truncate"
if run holes -s 4k -m dsync,direct+dsync,direct+fdatasync --no-prefill --force \
	--region 512k "$work/holes.dat"; then
	r=$(row holes direct+dsync)
	case $r in
	n/a,*"has a hole"*) ok "--no-prefill on a sparse file: direct+dsync $r" ;;
	*) bad "--no-prefill on a sparse file: direct+dsync '$r'" ;;
	esac
	r=$(row holes direct+fdatasync)
	case $r in ok,*) ok "--no-prefill on a sparse file: direct+fdatasync measured" ;;
	*) bad "--no-prefill sparse: direct+fdatasync '$r'" ;; esac
else
	bad "sync-write --no-prefill (sparse) failed: $(cat "$work/holes.err")"
fi
dd if=/dev/zero of="$work/full.dat" bs=64k count=16 conv=fsync 2>/dev/null || hard "dd"
if run full -s 4k -m direct+dsync --no-prefill --force --region 512k "$work/full.dat"; then
	r=$(row full direct+dsync)
	case $r in ok,*) ok "--no-prefill on a written file: direct+dsync measured" ;;
	*) bad "--no-prefill on a written file: direct+dsync '$r'" ;; esac
else
	bad "sync-write --no-prefill (written) failed: $(cat "$work/full.err")"
fi

# 3. Several points of a direct method: the advice is taken back after each.
if run pts -m direct+fdatasync,direct -s 4k,8k; then
	n=$(offs pts)
	[ "$n" = 5 ] && ok "advice switched off after each of 4 direct points (+ probe)" ||
		bad "advice switched off $n times after 4 direct points, expected 5"
else
	bad "sync-write (points) failed: $(cat "$work/pts.err")"
fi
# 4. Durability as the illumos backend tells it for UFS (commit_flush no):
#    the disk's write cache on, then unknown; and ZFS sync=always.
#    table NAME ENV...: sync-write's table under the shim and ENV, in
#    $work/NAME.out (lines joined with spaces in $work/NAME.flat).
table() {
	_n=$1; shift
	env LD_PRELOAD="$shim" "$@" "$SW" -q -n 4 --warmup 1 \
		-s 4k -m none,fdatasync,dsync --dir "$work" >"$work/$_n.out" 2>"$work/$_n.err"
	_rc=$?
	grep -q '^ufs-rules: loaded' "$work/$_n.err" ||
		hard "the shim was not loaded: $(cat "$work/$_n.err")"
	tr '\n' ' ' <"$work/$_n.out" >"$work/$_n.flat"
	return $_rc
}
# has FILE PATTERN WHAT / lacks FILE PATTERN WHAT: FILE (NAME.out or
# NAME.flat) has a line matching PATTERN (grep), or has none.
has() {
	grep -q -- "$2" "$work/$1" && ok "$3" || bad "$3: no '$2' in: $(cat "$work/$1")"
}
lacks() {
	grep -q -- "$2" "$work/$1" && bad "$3: '$2' in: $(cat "$work/$1")" || ok "$3"
}
if table wce DIO_UFS_COMMIT_FLUSH=1 DIO_UFS_WRITE_CACHE=2; then
	has wce.out "^hint: fdatasync, dsync (2 rows): nothing is durable here: ufs sends no cache flush" \
		"UFS, write cache on: the durable rows are not durable"
	has wce.out "^summary: nothing is durable here: ufs sends no cache flush" \
		"UFS, write cache on: the summary says it"
	has wce.flat "turn the write cache off" "UFS, write cache on: how to turn it off is said"
else
	bad "sync-write (UFS, write cache on) failed: $(cat "$work/wce.err")"
fi
if table wcu DIO_UFS_COMMIT_FLUSH=1 DIO_UFS_WRITE_CACHE=0; then
	has wcu.out "^hint: fdatasync, dsync (2 rows): cannot tell whether commits are durable: ufs" \
		"UFS, write cache unknown: cannot tell"
	lacks wcu.out "fastest durable" "UFS, write cache unknown: no fastest durable method named"
else
	bad "sync-write (UFS, write cache unknown) failed: $(cat "$work/wcu.err")"
fi
if table wcoff DIO_UFS_COMMIT_FLUSH=1 DIO_UFS_WRITE_CACHE=1; then
	has wcoff.out "fastest durable" "UFS, write cache off: durable, the fastest method named"
else
	bad "sync-write (UFS, write cache off) failed: $(cat "$work/wcoff.err")"
fi
if table always DIO_UFS_SYNC_ALWAYS=2; then
	has always.flat "^.*hint: none.*sync=always" "ZFS sync=always: the none row is hinted as commits"
else
	bad "sync-write (sync=always) failed: $(cat "$work/always.err")"
fi
exit $fail
