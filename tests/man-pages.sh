#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# man-pages.sh -- the library's manual covers its header and installs:
#  - every DIO_EXTERN function of lib/libdirectio.h is named in the NAME
#    section of exactly one man/*.3 page, whose SYNOPSIS has its prototype;
#    no page names a function the header lacks;
#  - every page (man/*.3, man/*.1) renders without a warning (groff -ww, or
#    man-db's man --warnings; a note says so when neither exists) and its
#    .TH says "libdirectio $PACKAGE_VERSION";
#  - libdirectio(3)'s example is tests/example.c (less its licence line);
#  - make install DESTDIR=... puts a page under man3 for every function
#    (man -M finds and renders dio_scsi_exec, dio_scsi_status...), and make
#    uninstall takes every one of them, and every other file, away again.
. "${top_srcdir:-.}/tests/lib.sh"

: "${MAKE:=make}"
# man-db (Linux) has --warnings and -w; other man commands have neither.
man_db() {
	man --help 2>&1 | grep -q -e '--warnings'
}
: "${PACKAGE_VERSION:=$(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"$/\1/p' "$top_builddir/config.h" 2>/dev/null)}"
[ -n "$PACKAGE_VERSION" ] || hard "PACKAGE_VERSION unknown (run from make check)"
hdr=$top_srcdir/lib/libdirectio.h
man=$top_srcdir/man
fail=0

# 1. Functions, NAME sections and prototypes.  The header's declarations
# and the pages' SYNOPSIS text are compared after the same normalisation:
# font escapes and roff requests dropped, \- and \e unescaped, white space
# collapsed.
out=$(awk -v hdr="$hdr" '
function norm(s) {
	gsub(/\\f[BIRP]/, "", s)
	gsub(/\\&/, "", s)
	gsub(/\\-/, "-", s)
	gsub(/\\e/, "\\\\", s)
	gsub(/[ \t]+/, " ", s)
	gsub(/\( /, "(", s); gsub(/ \)/, ")", s)
	gsub(/ ,/, ",", s); gsub(/ ;/, ";", s)
	sub(/^ /, "", s); sub(/ $/, "", s)
	return s
}
FILENAME == hdr {
	if (!inproto && $0 ~ /^DIO_EXTERN /) {
		inproto = 1
		cur = ""
	}
	if (inproto) {
		cur = cur " " $0
		if ($0 ~ /;/) {
			inproto = 0
			p = cur
			sub(/^ *DIO_EXTERN /, "", p)
			p = norm(p)
			f = p
			sub(/\(.*/, "", f)
			sub(/.*[ *]/, "", f)
			nfun++
			fun[nfun] = f
			proto[f] = p
		}
	}
	next
}
FNR == 1 {
	page = FILENAME
	sub(/.*\//, "", page)
	sect = ""
}
/^\.SH / {
	sect = $2
	next
}
sect == "NAME" && !/^\./ {
	line = $0
	sub(/ *\\-.*/, "", line)
	gsub(/,/, " ", line)
	n = split(line, w, " ")
	for (i = 1; i <= n; i++) {
		if ((page SUBSEP w[i]) in seen)
			printf "FAIL %s names %s twice\n", page, w[i]
		seen[page, w[i]] = 1
		count[w[i]]++
		where[w[i]] = where[w[i]] " " page
		names++
	}
}
sect == "SYNOPSIS" && !/^\./ {
	syn[page] = syn[page] " " $0
}
END {
	if (nfun < 50)
		printf "FAIL only %d DIO_EXTERN functions read from %s\n", nfun, hdr
	for (i = 1; i <= nfun; i++) {
		f = fun[i]
		if (count[f] == 0) {
			printf "FAIL %s: on no page (no man/*.3 names it in NAME)\n", f
			continue
		}
		if (count[f] > 1) {
			printf "FAIL %s: named by more than one page:%s\n", f, where[f]
			continue
		}
		pg = substr(where[f], 2)
		if (index(norm(syn[pg]), proto[f]) == 0)
			printf "FAIL %s: %s has not the prototype in SYNOPSIS: %s\n", f, pg, proto[f]
		else
			ok++
	}
	for (f in count) {
		if (f in proto)
			continue
		if (f == "libdirectio" && where[f] == " libdirectio.3")
			continue
		printf "FAIL%s names %s, which lib/libdirectio.h does not declare\n", where[f], f
	}
	printf "%d functions in the header, %d named on exactly one page with their prototype (%d names in all)\n", nfun, ok, names
}' "$hdr" "$man"/*.3)
echo "$out"
echo "$out" | grep -q '^FAIL' && fail=1

# 2. Every page renders without a warning, and says which release it is.
if command -v groff >/dev/null 2>&1; then
	render="groff -man -Tutf8 -ww -z"
elif man_db; then
	render="man --warnings -E UTF-8 -l"
else
	render=
	echo "note: neither groff nor man-db's man here: the pages' rendering is not checked"
fi
warned=0
for p in "$man"/*.3 "$man"/*.1; do
	name=${p##*/}
	if [ -n "$render" ]; then
		w=$($render "$p" 2>&1 >/dev/null)
		if [ -n "$w" ]; then
			echo "FAIL $name: warnings from $render:"
			echo "$w" | sed 's/^/    /'
			warned=$((warned + 1))
			fail=1
		fi
	fi
	th=$(grep '^\.TH ' "$p")
	case $th in
	*"\"libdirectio $PACKAGE_VERSION\""*) ;;
	*) echo "FAIL $name: .TH does not say \"libdirectio $PACKAGE_VERSION\": $th"; fail=1 ;;
	esac
done
[ -n "$render" ] && echo "$(ls "$man"/*.3 "$man"/*.1 | wc -l | tr -d ' ') pages rendered, $warned with warnings ($render)"

# 3. libdirectio(3)'s example is tests/example.c.
t=$(mktemp -d "${TMPDIR:-/tmp}/man-pages.XXXXXX") || hard "mktemp failed"
trap 'rm -rf "$t"' EXIT
awk '/^\.SH EXAMPLE/ { ex = 1 } ex && /^\.EE/ { exit } on { print } ex && /^\.EX/ { on = 1 }' \
	"$man/libdirectio.3" | awk '{ gsub(/\\-/, "-"); gsub(/\\&/, ""); gsub(/\\e/, "\\\\"); print }' > "$t/page.c"
sed '1{/SPDX-License-Identifier/d;}' "$top_srcdir/tests/example.c" |
	awk '{ gsub(/\t/, "    "); print }' > "$t/example.c"
if cmp -s "$t/page.c" "$t/example.c"; then
	echo "libdirectio(3)'s example is tests/example.c ($(wc -l < "$t/example.c" | tr -d ' ') lines)"
else
	echo "FAIL libdirectio(3)'s EXAMPLE differs from tests/example.c (tabs as 4 spaces):"
	diff "$t/example.c" "$t/page.c" | head -n 20 | sed 's/^/    /'
	fail=1
fi

# 4. Installed, every function has a page man finds; uninstalled, no file
# is left.  (make install as distcheck does it, into a directory of ours.)
if [ ! -f "$top_builddir/Makefile" ]; then
	echo "note: no $top_builddir/Makefile: installation not checked"
	exit $fail
fi
dest=$t/dest
if ! (cd "$top_builddir" && MAKEFLAGS= MFLAGS= $MAKE install DESTDIR="$dest") > "$t/install.log" 2>&1; then
	echo "FAIL make install DESTDIR=$dest:"
	tail -n 20 "$t/install.log" | sed 's/^/    /'
	exit 1
fi
man3=$(find "$dest" -type d -name man3 | head -n 1)
[ -n "$man3" ] || { echo "FAIL no man3 directory installed under $dest"; exit 1; }
root=${man3%/man3}
funcs=$(sed -n 's/^DIO_EXTERN .*[ *]\(dio_[a-z0-9_]*\)(.*/\1/p' "$hdr")
missing=0
for f in $funcs; do
	pg=$man3/$f.3
	if [ ! -f "$pg" ]; then
		echo "FAIL $f: no ${pg#"$dest"} installed"
		missing=$((missing + 1))
		continue
	fi
	so=$(sed -n 's/^\.so //p' "$pg")
	if [ -n "$so" ] && [ ! -f "$root/$so" ]; then
		echo "FAIL ${pg#"$dest"} sources $so, which is not installed"
		missing=$((missing + 1))
	fi
done
# ... and nothing else: a page for a function, or libdirectio.3.
extra=0
for pg in "$man3"/*; do
	f=${pg##*/}
	f=${f%.3}
	case " libdirectio $(echo $funcs) " in
	*" $f "*) ;;
	*)
		echo "FAIL ${pg#"$dest"}: installed, but no function of the header is called $f"
		extra=$((extra + 1)) ;;
	esac
done
[ $missing -eq 0 ] && [ $extra -eq 0 ] || fail=1
echo "installed: $(ls "$man3" | wc -l | tr -d ' ') pages in ${man3#"$dest"}, $missing functions without one, $extra pages of no function"
if man_db; then
	for f in libdirectio dio_scsi_exec dio_scsi_status dio_open dio_err_name dio_aio_wait dio_cdb_rw16; do
		w=$(man -M "$root" -w "$f" 2>&1)
		# man-db follows a .so page to its group's page, which names the
		# function too.
		so=$(sed -n 's/^\.so //p' "$man3/$f.3" 2>/dev/null)
		if [ "$w" != "$man3/$f.3" ] && { [ -z "$so" ] || [ "$w" != "$root/$so" ]; }; then
			echo "FAIL man -M ${root#"$dest"} -w $f: $w"
			fail=1
		elif ! MANWIDTH=200 man -M "$root" -P cat "$f" 2>/dev/null | sed -n '1,6p' | grep -q "$f"; then
			echo "FAIL man -M ${root#"$dest"} $f: the page does not name $f"
			fail=1
		else
			echo "ok   man -M ${root#"$dest"} -w $f: ${w#"$dest"}"
		fi
	done
else
	echo "note: no man-db: man -w not tried on the installed pages"
fi
if ! (cd "$top_builddir" && MAKEFLAGS= MFLAGS= $MAKE uninstall DESTDIR="$dest") > "$t/uninstall.log" 2>&1; then
	echo "FAIL make uninstall DESTDIR=$dest:"
	tail -n 20 "$t/uninstall.log" | sed 's/^/    /'
	exit 1
fi
left=$(find "$dest" -type f)
if [ -n "$left" ]; then
	echo "FAIL make uninstall left files behind:"
	echo "$left" | sed "s|^$dest|    |" | head -n 20
	fail=1
else
	echo "uninstalled: no file left under DESTDIR"
fi
exit $fail
