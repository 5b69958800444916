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
	# (The version nodes are absolute symbols of their own: LIBDIRECTIO_*.)
	bad=$($NM -D --defined-only "$so" | awk 'NF == 3 && $2 ~ /[A-Z]/ && !($2 == "A" && $3 ~ /^LIBDIRECTIO_/) { print $3 }' |
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
# The version script lists exactly the header's functions, each once.
: "${top_srcdir:=.}"
map="$top_srcdir/lib/libdirectio.map"
hdr="$top_srcdir/lib/libdirectio.h"
want=$(sed -n 's/^DIO_EXTERN .*[ *]\(dio_[a-z0-9_]*\)(.*/\1/p' "$hdr" | sort)
have=$(sed -n 's/^ *\(dio_[a-z0-9_]*\);$/\1/p' "$map" | sort)
if [ -z "$want" ] || [ "$want" != "$have" ]; then
	echo "FAIL: $map and the DIO_EXTERN functions of $hdr differ (< header, > map):"
	t=$(mktemp -d) || exit 99
	printf '%s\n' "$want" > "$t/header"; printf '%s\n' "$have" > "$t/map"
	diff "$t/header" "$t/map" | grep '^[<>]'
	rm -rf "$t"
	fail=1
else
	echo "$map: the $(echo "$want" | wc -l) DIO_EXTERN functions of the header, each once"
fi
dup=$(sed -n 's/^ *\(dio_[a-z0-9_]*\);$/\1/p' "$map" | sort | uniq -d)
[ -z "$dup" ] || { echo "FAIL: listed twice in $map: $dup"; fail=1; }

# Each exported function carries a version node of the script (where the
# linker took one: configure's VERSCRIPT_LDFLAG).
if [ -n "$so" ] && [ -n "${VERSCRIPT_LDFLAG:-}" ]; then
	if command -v readelf >/dev/null 2>&1; then
		unver=$(readelf -W --dyn-syms "$so" | awk '$5 == "GLOBAL" && $7 != "UND" && $8 ~ /^dio_/ && $8 !~ /@@?LIBDIRECTIO_/ { print $8 }')
		nver=$(readelf -W --dyn-syms "$so" | awk '$5 == "GLOBAL" && $7 != "UND" && $8 ~ /^dio_.*@@LIBDIRECTIO_/' | wc -l)
		if [ -n "$unver" ]; then
			echo "FAIL: exported without a LIBDIRECTIO_ version:"; echo "$unver"; fail=1
		else
			echo "$so: $nver functions, each with its LIBDIRECTIO_ version node"
		fi
		[ "$nver" -eq "$(echo "$want" | wc -l)" ] ||
			{ echo "FAIL: $nver versioned functions in $so, $(echo "$want" | wc -l) in the header"; fail=1; }
	else
		echo "note: no readelf: symbol versions not checked"
	fi
elif [ -n "$so" ]; then
	echo "note: the linker took no version script (configure): symbol versions not checked"
fi

if [ "$checked" -eq 0 ]; then
	echo "SKIP: no libdirectio.so or .a under $libs"
	exit 77
fi
exit $fail
