#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# abi-check.sh -- the built libdirectio.so keeps the ABI of the release
# recorded in tests/abi/libdirectio.abi (an abidw dump of the public
# header's types and functions).
#
#   tests/abi-check.sh                 compare (make check runs this)
#   tests/abi-check.sh --dump FILE     write the built library's ABI to FILE
#                                      (make abi-baseline: a release's record)
#
# abidiff's verdict decides: an incompatible change (a function removed, a
# structure or a parameter changed) fails and says to bump the soname; a
# compatible one (a function added, a member made of a structure's
# trailing reserved array: tests/abi/reserved.supp) is reported and passes.  Before the real
# comparison the verdicts are shown to come out right on two changes made
# to the dump itself: one function taken away (must fail) and one added
# (must pass).  SKIP, with the reason, without abigail-tools (Debian:
# abigail-tools), without a shared library, or for a library built without
# debug information (-g), which abidw cannot read types from.
#
# abidw keeps the members of a type only when the type's file, as the
# compiler recorded it, is one of the --header-file paths, compared as
# strings.  The compiler records the header as the build spelled it:
# "lib/libdirectio.h" and "./lib/libdirectio.h" in a build in the source
# directory, "/src/lib/libdirectio.h" or "../lib/libdirectio.h" out of
# it.  Given one other spelling, abidw dumps every public structure
# without members, and a changed layout goes unseen.  So the spellings
# are read from the library itself (a first dump without the filter),
# every one is given, and the dump is refused if a structure of the
# header still comes out without its members.  tests/abi-layout.sh
# shows, with a widened member, that both kinds of build fail here.
set -u
: "${top_srcdir:=.}"
: "${top_builddir:=.}"
base="$top_srcdir/tests/abi/libdirectio.abi"
so=$(ls "$top_builddir"/lib/.libs/libdirectio.so.*.*.* 2>/dev/null | head -n 1)

skip() { echo "SKIP: $*"; exit 77; }
command -v abidw >/dev/null 2>&1 && command -v abidiff >/dev/null 2>&1 ||
	skip "no abidw/abidiff (install abigail-tools)"
[ -n "$so" ] || skip "no shared library under $top_builddir/lib/.libs (a static-only build)"
if command -v readelf >/dev/null 2>&1 && ! readelf -S "$so" | grep -q '\.debug_info'; then
	skip "$so has no debug information (built without -g): abidw sees no types"
fi

# One way of dumping, for the record and for each comparison: the public
# header's types only (struct dio_file and the other handles are opaque),
# no paths or build-dependent facts (the needed libraries differ with and
# without liburing).
abidw_flags="--no-corpus-path --no-comp-dir-path --no-architecture --no-elf-needed
	--type-id-style hash"
dump() {
	d_so=$1 d_out=$2
	# Every spelling of the header in the library's debug information.
	# shellcheck disable=SC2086
	abidw $abidw_flags "$d_so" > "$d_out.all" || return 1
	spellings=$(grep -o "filepath='[^']*'" "$d_out.all" | sed "s/^filepath='//; s/'\$//" |
		    grep -E '(^|/)libdirectio\.h$' | sort -u)
	rm -f "$d_out.all"
	set -- --header-file "$top_srcdir/lib/libdirectio.h"
	for h in $spellings; do
		set -- "$@" --header-file "$h"
	done
	# shellcheck disable=SC2086
	abidw $abidw_flags --short-locs --drop-private-types "$@" --out-file "$d_out.tmp" \
		"$d_so" || return 1
	# A structure of the header without members: the filter missed it.
	bare=$(grep "<class-decl name=" "$d_out.tmp" | grep "filepath='libdirectio\.h'" |
	       grep "is-declaration-only='yes'" | sed "s/^ *<class-decl name='\([^']*\)'.*/\1/" |
	       sort -u | tr '\n' ' ')
	if [ -n "$bare" ]; then
		echo "abi-check: abidw dumped these structures of libdirectio.h without" \
		     "their members: $bare(the header as given: $top_srcdir/lib/libdirectio.h" \
		     $spellings")" >&2
		rm -f "$d_out.tmp"
		return 1
	fi
	# abidiff knows a dump by its first line: the notes go after it.
	{ sed -n 1p "$d_out.tmp"
	  echo '  <!-- SPDX-License-Identifier: BSD-2-Clause -->'
	  echo "  <!-- abidw of $(basename "$d_so"), written by tests/abi-check.sh (make abi-baseline) -->"
	  sed 1d "$d_out.tmp"; } > "$d_out" && rm -f "$d_out.tmp"
}

if [ "${1:-}" = "--dump" ]; then
	[ -n "${2:-}" ] || { echo "usage: $0 --dump FILE" >&2; exit 2; }
	dump "$so" "$2" || { echo "abi-check: abidw failed on $so" >&2; exit 1; }
	echo "abi-check: the ABI of $so written to $2"
	exit 0
fi
[ -f "$base" ] || { echo "FAIL: no recorded ABI $base"; exit 1; }

work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
fail=0

# verdict OLD NEW: 0 same, 1 compatible change, 2 incompatible, 3 error;
# abidiff's report is left in $work/report.
# Is every change in abidiff's report (file $1) a member made of a
# structure's trailing reserved array: members inserted, only "reserved"
# itself changed (shorter, further on), no size, other member, parameter
# or return type changed?
carved_only() {
	awk '
	/^ *type size changed/ || /data member deletion/ || /name of / ||
	/return type changed/ || /parameter [0-9]+ of type .* changed:/ { bad = 1 }
	match($0, /type of \x27[^\x27]*\x27 changed/) || match($0, /^ *\x27[^\x27]*\x27 offset changed/) {
		if (substr($0, RSTART, RLENGTH) !~ / reserved\[/) bad = 1
	}
	/data member insertion/ { ins = 1 }
	END { exit !(ins && !bad) }' "$1"
}
# Does abidiff's report (file $1) change nothing but add: no function
# or variable removed or changed?
only_added() {
	sed -n 's/^.*changes summary: \([0-9]*\) Removed, \([0-9]*\) Changed.*$/\1 \2/p' "$1" |
		awk '{ n += $1 + $2 } END { print n == 0 ? "yes" : "no" }'
}
verdict() {
	abidiff "$1" "$2" > "$work/report" 2>&1
	rc=$?
	# A structure grown into its reserved array keeps its size and every
	# older member: compatible, when abidiff finds nothing else with
	# those changes set aside (tests/abi/reserved.supp) but added
	# functions (it then still says "ABI change", bit 2).
	if [ $((rc & 3)) -eq 0 ] && [ $((rc & 4)) -ne 0 ] && carved_only "$work/report"; then
		abidiff --suppressions "$top_srcdir/tests/abi/reserved.supp" "$1" "$2" \
			> "$work/report.supp" 2>&1
		src=$?
		if [ $((src & 11)) -eq 0 ] && [ "$(only_added "$work/report.supp")" = yes ]; then
			return 1
		fi
	fi
	# abidiff: bit 0 error, bit 1 usage, bit 2 ABI change, bit 3 incompatible.
	# abidiff calls only removals incompatible; a function whose parameter
	# or structure changed is "Changed" and breaks callers just as well: only
	# additions pass.
	[ $((rc & 3)) -eq 0 ] || return 3
	[ $((rc & 8)) -eq 0 ] || return 2
	[ "$(only_added "$work/report")" = yes ] || return 2
	[ $((rc & 4)) -eq 0 ] || return 1
	return 0
}
verdict_of() { verdict "$@"; echo $?; }

dump "$so" "$work/built.abi" || { echo "FAIL: abidw failed on $so"; exit 1; }

# The verdicts on known changes: without python3 they are not shown.
if command -v python3 >/dev/null 2>&1; then
	python3 - "$work/built.abi" "$work/less.abi" <<'PY' || { echo "FAIL: cannot edit the dump"; exit 1; }
import sys, xml.etree.ElementTree as ET
# Take one function (dio_tri_name) out of a copy of the dump: its ELF symbol
# and its declaration.
tree = ET.parse(sys.argv[1])
gone = 0
for parent in tree.iter():
    for child in list(parent):
        if child.get("name") == "dio_tri_name" and child.tag in ("elf-symbol", "function-decl"):
            parent.remove(child)
            gone += 1
if gone < 2:
    sys.exit("dio_tri_name not found in the dump")
tree.write(sys.argv[2])
PY
	v=$(verdict_of "$work/built.abi" "$work/less.abi")
	if [ "$v" = 2 ]; then
		echo "ok   a function taken away is an incompatible change"
	else
		echo "FAIL: a function taken away gave verdict $v (want 2: incompatible)"; cat "$work/report"; fail=1
	fi
	v=$(verdict_of "$work/less.abi" "$work/built.abi")
	if [ "$v" = 1 ]; then
		echo "ok   a function added is a compatible change"
	else
		echo "FAIL: a function added gave verdict $v (want 1: compatible)"; cat "$work/report"; fail=1
	fi
else
	echo "note: no python3: the verdicts on known changes are not shown"
fi

v=$(verdict_of "$base" "$work/built.abi")
case $v in
0) echo "ok   $(basename "$so") has the recorded ABI ($base)" ;;
1) sed 's/^/     /' "$work/report"
   echo "ok   $(basename "$so") adds to the recorded ABI (compatible: allowed)."
   echo "     Give new functions a new version node in lib/libdirectio.map; at the"
   echo "     release, record the ABI with 'make abi-baseline'." ;;
2) sed 's/^/     /' "$work/report"
   echo "FAIL: $(basename "$so") breaks the recorded ABI ($base): programs built"
   echo "      against it would misbehave.  Undo the change, or bump the soname:"
   echo "      configure.ac DIO_LT_CURRENT+1 and DIO_LT_AGE=0, a new base node in"
   echo "      lib/libdirectio.map, then 'make abi-baseline' to record the new ABI."
   fail=1 ;;
*) cat "$work/report"; echo "FAIL: abidiff could not compare $base with $so"; fail=1 ;;
esac
exit $fail
