#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# sync-write-powercut.sh -- sync-write's ack log and --check against power
# cuts of a disk with a volatile write cache (the TCMU RAM disk of the qemu
# guest, tests/qemu/tcmu-ramdisk.c): boots a guest with a copy of
# sync-write for each target (the raw disk, ext4, ext4 with --extend) and
# runs tests/qemu/guest-sync-write-powercut.sh there (every method on that
# target; the durable methods with the disk lying about flushes; none and
# direct in cache-only cuts, where only the disk's cache can lose; a build
# that acknowledges before its commit, tests/qemu/ack-early.c, on each of
# those layers).  doc/durability.md says which verdict shows what.
# Skips (77) without the harness, qemu or a kernel.
#
# Environment: DIO_POWERCUT_CUTS (cuts per method and layer, default 20),
# DIO_POWERCUT_LIES (cuts per durable method and lying layer, default 2),
# DIO_POWERCUT_EARLY (cuts per method and layer of the broken build,
# default 2; 0: none) and DIO_POWERCUT_EARLY_METHODS (its methods, default
# "fdatasync direct+dsync rwf-dsync"), DIO_POWERCUT_CACHE (cache-only cuts
# per volatile method and layer, default 2), DIO_POWERCUT_TARGETS (default
# "device ext4 ext4-extend"), DIO_POWERCUT_NOOP=1 (the disk's cuts keep
# every block, tcmu-ramdisk -N: the test must then fail on every layer,
# as tests/sync-write-powercut-noop.sh checks), DIO_POWERCUT_BUILD=early
# (every run by the broken build), DIO_POWERCUT_SEED (the seed of the
# random choices, 1..4294967295; default: from /dev/urandom, printed, so
# that a run can be replayed with the same counts; each target's guest
# gets its own seed made from it), and the harness's own
# (DIO_QEMU_CACHE, DIO_QEMU_TIMEOUT, ...).
. "${top_srcdir:-.}/tests/lib.sh"

run=${DIO_QEMU_RUN_GUEST:-$top_srcdir/tests/qemu/run-guest.sh}
[ -f "$run" ] || skip "no qemu harness at $run"
[ "$DIO_BACKEND" = linux ] || skip "the guest runs Linux: needs the linux backend"
sw=$top_builddir/tests/qemu/sync-write-guest
[ -x "$sw" ] || hard "$sw is not built"
la=$top_builddir/tests/qemu/ack-early.la
[ -f "$la" ] || hard "$la is not built"
shim=$top_builddir/tests/qemu/.libs/$(sed -n "s/^dlname='\(.*\)'$/\1/p" "$la")
[ -f "$shim" ] || hard "no shared object of $la (at $shim)"
# the static copy, where configure could link one (see Makefile.am)
sws=$top_builddir/tests/qemu/sync-write-static
if [ -x "$sws" ]; then
	set -- -x "$sws:/bin/sync-write-static"
else
	set --
fi
cuts=${DIO_POWERCUT_CUTS:-20} lies=${DIO_POWERCUT_LIES:-2} early=${DIO_POWERCUT_EARLY:-2}
cache=${DIO_POWERCUT_CACHE:-2}
early_methods=${DIO_POWERCUT_EARLY_METHODS:-fdatasync direct+dsync rwf-dsync}
targets=${DIO_POWERCUT_TARGETS:-device ext4 ext4-extend}
build=${DIO_POWERCUT_BUILD:-honest}
for v in "$cuts" "$lies" "$early" "$cache"; do
	case $v in ''|*[!0-9]*) hard "DIO_POWERCUT_CUTS, _LIES, _EARLY and _CACHE take a count, not '$v'" ;; esac
done
for t in $targets; do
	case $t in device|ext4|ext4-extend) ;;
	*) hard "DIO_POWERCUT_TARGETS names device, ext4 and ext4-extend, not '$t'" ;;
	esac
done
case $build in honest|early) ;; *) hard "DIO_POWERCUT_BUILD is honest or early, not '$build'" ;; esac
tcmu_opts="-P 4096"
case ${DIO_POWERCUT_NOOP:-0} in
0) ;;
1) tcmu_opts="$tcmu_opts -N" ;;
*) hard "DIO_POWERCUT_NOOP is 0 or 1, not '$DIO_POWERCUT_NOOP'" ;;
esac
seed=${DIO_POWERCUT_SEED:-}
if [ -z "$seed" ]; then
	seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ') || hard "cannot read /dev/urandom"
	[ "$seed" = 0 ] && seed=1
fi
case $seed in
''|0|*[!0-9]*|???????????*) hard "DIO_POWERCUT_SEED must be 1..4294967295, not '$seed'" ;;
esac
[ "$seed" -le 4294967295 ] || hard "DIO_POWERCUT_SEED must be 1..4294967295, not '$seed'"
for p in mkfs.ext4; do
	pp=$(PATH=$PATH:/sbin:/usr/sbin command -v "$p" 2>/dev/null) &&
		set -- "$@" -x "$pp:/bin/$p"
done
[ -f /etc/mke2fs.conf ] && set -- "$@" -f /etc/mke2fs.conf
echo "sync-write-powercut: seed $seed (replay: DIO_POWERCUT_SEED=$seed" \
     "DIO_POWERCUT_CUTS=$cuts DIO_POWERCUT_LIES=$lies DIO_POWERCUT_EARLY=$early" \
     "DIO_POWERCUT_CACHE=$cache)"
# The TCMU disk as a 512e disk: 512-byte logical blocks, 4 KiB physical
# ones that a cut keeps or loses whole (a disk does not tear a sector).
# With 512-byte tearing, a cut during the journal's checkpoint could leave
# ext4's superblock half new; ext4 checks its checksum before it replays
# the journal, so the mount failed ("Bad message") though the journal held
# the whole block: seen once in about 2000 ext4 cuts.
#
# The three targets (raw disk, ext4, ext4 --extend) share nothing: each
# is cut in a guest of its own, the guests side by side as the harness's
# slots allow (DIO_QEMU_JOBS), each with a seed made from the run's.
# They are the longest guests of the suite: with more cuts, they take a
# free slot before other waiting guests (DIO_QEMU_PRIORITY, the cuts).
work=$(mktemp -d "${TMPDIR:-/tmp}/dio-powercut.XXXXXX") || hard "mktemp failed"
trap 'rm -rf "$work"' EXIT
trap 'exit 99' INT TERM HUP
i=0
for t in $targets; do
	tseed=$(( (seed + i * 2654435761) % 4294967296 ))
	[ "$tseed" = 0 ] && tseed=1
	DIO_QEMU_PRIORITY=${DIO_QEMU_PRIORITY:-$cuts} \
	sh "$run" -t "${DIO_QEMU_TIMEOUT:-3600}" -M ext4,crc32c_generic -R "$tcmu_opts" \
		-x "$sw:/bin/sync-write" -x "$shim:/lib/ack-early.so" \
		-f "$top_srcdir/tests/qemu/powercut.sh:/lib/powercut.sh" "$@" \
		-- "$top_srcdir/tests/qemu/guest-sync-write-powercut.sh" \
		"$cuts" "$lies" "$tseed" "$early" "$early_methods" "$t" "$cache" "$build" \
		>"$work/$t.out" 2>&1 &
	eval "pid_$i=\$!"
	i=$((i + 1))
done
# Each guest's output whole, in order; the test's status is the worst of
# theirs (99 could not run, 1 failed, 77 skipped, 0 passed).
st=0 i=0
for t in $targets; do
	eval "wait \$pid_$i"
	ts=$?
	echo "----- $t (exit $ts)"
	cat "$work/$t.out"
	case $ts in
	0) ;;
	77) [ $st = 0 ] && st=77 ;;
	99) st=99 ;;
	*) [ $st = 99 ] || st=1 ;;
	esac
	i=$((i + 1))
done
exit $st
