#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# abi-layout.sh -- tests/abi-check.sh sees a changed structure layout in
# a build in the source directory and in a build out of it.
#
# The compiler records the public header as the build spells it
# ("lib/libdirectio.h" in place, "../src/lib/libdirectio.h" or an absolute
# path out of tree), and abidw keeps a structure's members only for the
# spellings it is given.  So this builds the library from a copy of the
# release tree (make distdir) three times:
#   1. in place, unchanged: abi-check.sh passes;
#   2. in place, struct dio_align's offset_align widened from 32 to 64
#      bits: abi-check.sh fails and names struct dio_align;
#   3. the same edited tree built out of tree, configured by a relative
#      path as make distcheck does: abi-check.sh fails the same way.
# Only the library is built (make lib/libdirectio.la, -O0 -g, no static
# library), the second configure from the first one's cache.  SKIP
# without abigail-tools, as abi-check.sh does.
. "${top_srcdir:-.}/tests/lib.sh"

: "${MAKE:=make}"
need_cmd abidw abigail-tools
need_cmd abidiff abigail-tools
[ -f "$top_builddir/Makefile" ] || skip "no $top_builddir/Makefile (run from make check)"

work=$(mktemp -d "${TMPDIR:-/tmp}/abi-layout.XXXXXX") || hard "mktemp failed"
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
fail=0

# The tree as released: the files make dist would pack.
(cd "$top_builddir" && MAKEFLAGS= MFLAGS= $MAKE distdir distdir="$work/src") \
	>"$work/distdir.log" 2>&1 || { tail -n 20 "$work/distdir.log"; hard "make distdir failed"; }
chmod -R u+w "$work/src"

# build DIR CONFIGURE: configure and build the library in DIR.
build() {
	(cd "$1" && "$2" --cache-file="$work/config.cache" --disable-static \
		CC="${CC:-cc}" CFLAGS='-O0 -g' && MAKEFLAGS= MFLAGS= $MAKE lib/libdirectio.la) \
		>"$work/build.log" 2>&1 || { tail -n 30 "$work/build.log"; hard "the build in $1 failed"; }
}
# check WHAT SRC BUILD WANT: abi-check.sh from the copy, on the copy's
# build, exits WANT (1: and names struct dio_align's offset_align).
check() {
	(cd "$3" && top_srcdir=$2 top_builddir=. sh "$2/tests/abi-check.sh") >"$work/check.out" 2>&1
	got=$?
	if [ "$got" -ne "$4" ]; then
		echo "FAIL $1: abi-check.sh exits $got, want $4:"
		sed 's/^/    /' "$work/check.out" | head -n 40
		fail=1
	elif [ "$4" -eq 1 ] && ! { grep -q "struct dio_align" "$work/check.out" &&
	                           grep -q "offset_align" "$work/check.out"; }; then
		echo "FAIL $1: abi-check.sh fails without naming struct dio_align's offset_align:"
		sed 's/^/    /' "$work/check.out" | head -n 40
		fail=1
	else
		echo "ok   $1: abi-check.sh exits $got$(grep -m 1 "struct dio_align" "$work/check.out" |
			sed 's/^ */: /')"
	fi
}

build "$work/src" ./configure
check "in place, unchanged" . "$work/src" 0

sed 's/^\(	\)uint32_t offset_align;/\1uint64_t offset_align;/' "$work/src/lib/libdirectio.h" \
	>"$work/h" && ! cmp -s "$work/h" "$work/src/lib/libdirectio.h" ||
	hard "cannot widen offset_align in lib/libdirectio.h"
cat "$work/h" >"$work/src/lib/libdirectio.h"
(cd "$work/src" && MAKEFLAGS= MFLAGS= $MAKE lib/libdirectio.la) >"$work/build.log" 2>&1 ||
	{ tail -n 30 "$work/build.log"; hard "the edited build failed"; }
check "in place, offset_align widened" . "$work/src" 1

(cd "$work/src" && MAKEFLAGS= MFLAGS= $MAKE distclean) >"$work/distclean.log" 2>&1 ||
	hard "make distclean in the copy failed"
mkdir "$work/build"
build "$work/build" ../src/configure
check "out of tree (../src/configure), offset_align widened" ../src "$work/build" 1
exit $fail
