#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# symbols.sh -- the library exports nothing outside its prefix: in the
# shared library only dio_* is visible, and in the static archive every
# global symbol is dio_* or dio__* (visibility does not protect a static
# link from name clashes).
set -u
: "${top_builddir:=.}"
: "${NM:=nm}"
libs="$top_builddir/lib/.libs"
fail=0
checked=0

so=$(ls "$libs"/libdirectio.so 2>/dev/null | head -n 1)
if [ -n "$so" ]; then
	bad=$($NM -D --defined-only "$so" | awk 'NF == 3 && $2 ~ /[A-Z]/ { print $3 }' |
	      grep -v '^dio_' | grep -v '^dio__' || true)
	if [ -n "$bad" ]; then
		echo "FAIL: $so exports symbols outside dio_:"; echo "$bad"; fail=1
	fi
	internal=$($NM -D --defined-only "$so" | awk '$3 ~ /^dio__/ { print $3 }')
	if [ -n "$internal" ]; then
		echo "FAIL: $so exports internal dio__ symbols:"; echo "$internal"; fail=1
	fi
	n=$($NM -D --defined-only "$so" | grep -c ' T dio_')
	echo "$so: $n exported functions, all dio_"
	[ "$n" -gt 20 ] || { echo "FAIL: too few exports ($n)"; fail=1; }
	checked=1
fi
a="$libs/libdirectio.a"
if [ -f "$a" ]; then
	bad=$($NM -g --defined-only "$a" 2>/dev/null |
	      awk 'NF == 3 { print $3 }' | grep -v '^dio_' |
	      grep -v '^__odr_asan\.dio_' || true)   # AddressSanitizer's mark of our globals
	if [ -n "$bad" ]; then
		echo "FAIL: $a defines globals outside dio_/dio__:"; echo "$bad"; fail=1
	fi
	echo "$a: all globals dio_/dio__"
	checked=1
fi
if [ "$checked" -eq 0 ]; then
	echo "SKIP: no libdirectio.so or .a under $libs"
	exit 77
fi
exit $fail
