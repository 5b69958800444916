#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# sync-write-powercut-noop.sh -- the test of the power-cut test: runs
# tests/sync-write-powercut.sh against a disk whose cuts lose nothing
# (DIO_POWERCUT_NOOP=1: tcmu-ramdisk -N keeps every dirty block at a cut)
# and passes only when that run FAILS on every layer (the raw disk, ext4,
# ext4 --extend), in each of the verdicts that need the disk's volatile
# cache, and in nothing else that would say the harness broke.  A
# power-cut test that passed here would be passing on the guest's own
# losses (its page cache dropped at power-on), not on the disk's.
#
# Expected to fail on every layer L (doc/durability.md, the table):
#   "L: the disk's cuts discarded no block"          the disk's own count
#   "lying-L M: losses found ... in only 0"          every durable M
#   "cache-L none", "cache-L direct": the same       the cache-only cuts
# Allowed to fail or pass: "L none/direct: no loss" (the guest's drop
# loses their data anyway where it was in its page cache).  Any other
# FAIL line (could not check, did not mount, the run had ended, a cut or
# power-on that failed, an acknowledgement before its commit), a guest
# that does not say its disk's cuts are no-ops, or an exit other than 1
# fails this test: the run must fail for the reason designed.
#
# Environment: DIO_POWERCUT_NOOP_CUTS (cuts per method and honest layer,
# default 1), DIO_POWERCUT_SEED, and the harness's own.  Skips (77) when
# the power-cut test skips.
. "${top_srcdir:-.}/tests/lib.sh"

cuts=${DIO_POWERCUT_NOOP_CUTS:-1}
case $cuts in ''|*[!0-9]*|0) hard "DIO_POWERCUT_NOOP_CUTS takes a count of 1 or more, not '$cuts'" ;; esac
out=$(mktemp "${TMPDIR:-/tmp}/dio-powercut-noop.XXXXXX") || hard "mktemp failed"
trap 'rm -f "$out"' EXIT
trap 'exit 99' INT TERM HUP

DIO_POWERCUT_NOOP=1 DIO_POWERCUT_CUTS=$cuts DIO_POWERCUT_LIES=1 \
DIO_POWERCUT_CACHE=1 DIO_POWERCUT_EARLY=0 DIO_POWERCUT_BUILD=honest \
DIO_POWERCUT_TARGETS="device ext4 ext4-extend" \
	sh "$top_srcdir/tests/sync-write-powercut.sh" >"$out" 2>&1
st=$?
sed 's/^/| /' "$out"
case $st in
77) skip "the power-cut test skipped: $(grep -m1 SKIP "$out")" ;;
1) ;;
*) echo "FAIL - the power-cut test with no-op cuts exited $st, not 1 (failed)"; exit 1 ;;
esac

fail=0
durable="fsync fdatasync dsync sync rwf-dsync direct+dsync direct+fdatasync direct+fsync direct+sync direct+rwf-dsync"
n=$(grep -c "^guest-sync-write-powercut: THE DISK'S CUTS ARE NO-OPS" "$out")
if [ "$n" = 3 ]; then
	echo "ok   - the three guests said their disk's cuts were no-ops"
else
	echo "FAIL - $n of the three guests said their disk's cuts were no-ops"
	fail=1
fi
# The FAIL lines the design expects, one pattern a line (grep -F).
for l in device ext4 ext4-extend; do
	want="FAIL - $l: the disk's cuts discarded no block"
	for m in $durable; do
		want="$want
FAIL - lying-$l $m: losses found and --check exit 1 in only 0 of"
	done
	want="$want
FAIL - cache-$l none: losses found and --check exit 1 in only 0 of
FAIL - cache-$l direct: losses found and --check exit 1 in only 0 of"
	k=0 t=0
	while IFS= read -r w; do
		t=$((t + 1))
		if grep -q -F -- "$w" "$out"; then
			k=$((k + 1))
		else
			echo "FAIL - $l: the no-op cut passed what needs the disk's cache: no '$w'"
		fi
	done <<EOF
$want
EOF
	if [ "$k" = "$t" ]; then
		echo "ok   - $l: the no-op cut failed all $t verdicts that need the disk's cache"
	else
		fail=1
	fi
done
# Nothing else may fail: the run failed for the designed reason alone.
other=$(grep '^FAIL - ' "$out" |
	grep -v -e "^FAIL - [a-z4-]*: the disk's cuts discarded no block" \
		-e '^FAIL - \(lying\|cache\)-[a-z4-]* [a-z+-]*: losses found and --check exit 1 in only 0 of' \
		-e '^FAIL - [a-z4-]* \(none\|direct\): no loss in ')
if [ -z "$other" ]; then
	echo "ok   - nothing else failed (no check, mount, cut or timing failure)"
else
	echo "FAIL - the no-op run also failed for other reasons:"
	echo "$other" | sed 's/^/       /'
	fail=1
fi
[ "$fail" = 0 ] || exit 1
echo "sync-write-powercut-noop: with cuts that lose nothing, the power-cut test fails on every layer, as designed"
exit 0
