#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# sync-write-verify.sh -- writers never overlap and every byte lands where
# it should: --verify (every transaction stamped, everything read back) with
# 1 and 4 writers, shared and separate layouts, processes and threads,
# overwriting (with wrap-around: a small region) and extending.
. "${top_srcdir:-.}/tests/lib.sh"

SW=$tools/sync-write
work=$(mktemp -d "$top_builddir/sw-verify.XXXXXX") || hard "mktemp"
trap 'rm -rf "$work"' EXIT
fail=0
methods=fdatasync,none
[ "$DIO_BACKEND" = linux ] && methods=$methods,direct+dsync

for w in 1 4; do
for layout in shared separate; do
for mode in processes threads; do
for ext in "" --extend; do
	t=$([ $mode = threads ] && echo --threads)
	name="writers=$w layout=$layout $mode ${ext:-overwrite}"
	# Overwriting: a 64 KiB region is 16 slots of 4 KiB, so it wraps around.
	# Extending: room for all 48 transactions of each writer.
	region=$([ -n "$ext" ] && echo 1m || echo 64k)
	if ! "$SW" -q -m $methods -s 4k,16k -w $w --layout $layout $t $ext \
	    -n 40 --region $region --verify -f csv --per-writer --dir "$work" \
	    >"$work/out.csv" 2>"$work/err"; then
		echo "FAIL $name: exit status"; cat "$work/err" "$work/out.csv"; fail=1; continue
	fi
	# aggregate rows: verify_checked (col 26) > 0 and == verify_ok (col 27)
	bad=$(awk -F, 'NR > 1 && $5 == "all" && ($26 == 0 || $26 != $27)' "$work/out.csv")
	rows=$(awk -F, 'NR > 1 && $5 == "all"' "$work/out.csv" | wc -l)
	expect=$(( $(echo $methods | tr ',' ' ' | wc -w) * 2 ))
	if [ -n "$bad" ] || [ "$rows" -ne "$expect" ]; then
		echo "FAIL $name: $rows rows (want $expect); bad: $bad"; fail=1; continue
	fi
	# every writer measured its 40 transactions
	short=$(awk -F, 'NR > 1 && $5 != "all" && $7 != 40' "$work/out.csv")
	[ -z "$short" ] || { echo "FAIL $name: writers short: $short"; fail=1; continue; }
	left=$(ls "$work")
	[ "$left" = "err
out.csv" ] || { echo "FAIL $name: files left behind: $left"; fail=1; }
	echo "ok   $name: $(awk -F, 'NR > 1 && $5 == "all" { s += $26 } END { print s }' "$work/out.csv") slots verified"
done
done
done
done
exit $fail
