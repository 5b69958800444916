#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# man-pages.sh -- the manual covers the header, is one release's, lints
# clean, links its pages both ways, and installs:
#  - every DIO_EXTERN function of lib/libdirectio.h is named in the NAME
#    section of exactly one man/*.3 page, whose SYNOPSIS has its prototype;
#    no page names a function the header lacks;
#  - the pages are those make writes from man/*.in into the build tree
#    (and any page kept as it is in man/); every page's .TH carries the
#    release's date, DIO_RELEASE_DATE of configure.ac, and "libdirectio
#    $PACKAGE_VERSION"; a page that only sources another (.so) names one
#    of them;
#  - every page is clean for `mandoc -Tlint` and for groff -ww (both
#    where both exist; SKIP, after the other checks, where neither does);
#  - SEE ALSO names only pages that exist: the project's (a function's
#    name is its group's page) or the system pages listed below; links
#    between the project's pages go both ways; every page has a REPORTING
#    BUGS section that points to the source tree's README;
#  - libdirectio(3)'s example is tests/example.c (less its licence line);
#  - make install DESTDIR=... puts a page under man3 for every function
#    (man -M finds and renders dio_scsi_exec, dio_scsi_status...), every
#    installed page has the release's date, and make uninstall takes every
#    one of them, and every other file, away again.
. "${top_srcdir:-.}/tests/lib.sh"

: "${MAKE:=make}"
# man-db (Linux) has --warnings and -w; other man commands have neither.
man_db() {
	man --help 2>&1 | grep -q -e '--warnings'
}
: "${PACKAGE_VERSION:=$(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"$/\1/p' "$top_builddir/config.h" 2>/dev/null)}"
[ -n "$PACKAGE_VERSION" ] || hard "PACKAGE_VERSION unknown (run from make check)"
hdr=$top_srcdir/lib/libdirectio.h
fail=0
t0=$(mktemp -d "${TMPDIR:-/tmp}/man-pages.XXXXXX") || hard "mktemp failed"
trap 'rm -rf "$t0"' EXIT
lint_skipped=

# The release's date: configure.ac's one line, which the build has too.
date=$(sed -n 's/^AC_SUBST(\[DIO_RELEASE_DATE\], \[\(.*\)\])$/\1/p' "$top_srcdir/configure.ac")
echo "$date" | grep -Eq '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$' ||
	hard "no DIO_RELEASE_DATE (YYYY-MM-DD) in $top_srcdir/configure.ac: '$date'"
if [ -f "$top_builddir/Makefile" ]; then
	built=$(sed -n 's/^DIO_RELEASE_DATE = //p' "$top_builddir/Makefile")
	[ "$built" = "$date" ] || { echo "FAIL the build's DIO_RELEASE_DATE is '$built', configure.ac's $date (run configure again)"; fail=1; }
fi

# The pages: man/PAGE written from man/PAGE.in, and pages kept as they are.
pages=
for src in "$top_srcdir"/man/*.in; do
	[ -f "$src" ] || continue
	b=${src##*/}
	b=${b%.in}
	[ -f "$top_builddir/man/$b" ] || hard "man/$b is not written (make all first)"
	pages="$pages $top_builddir/man/$b"
done
for p in "$top_srcdir"/man/*.[1-9]; do
	[ -f "$p" ] && [ ! -f "$p.in" ] && pages="$pages $p"
done
[ -n "$pages" ] || hard "no man pages in $top_srcdir/man"
# shellcheck disable=SC2086
set -- $pages
npages=$#
man3=
for p in "$@"; do
	case $p in *.3) man3="$man3 $p" ;; esac
done

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
	named = 0
	next
}
# The names end on the line with "\-" (the description may go on).
sect == "NAME" && !/^\./ && !named {
	line = $0
	if (sub(/ *\\-.*/, "", line))
		named = 1
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
}' "$hdr" $man3)
printf '%s\n' "$out"
printf '%s\n' "$out" | grep -q '^FAIL' && fail=1

# 2. One release: every page's .TH has its date and version; a page that
# only sources another names one of ours.
names=
for p in "$@"; do
	n=${p##*/}
	names="$names ${n%.*}"
done
sourced=
for p in "$@"; do
	name=${p##*/}
	so=$(sed -n 's/^\.so //p' "$p")
	if [ -n "$so" ] && [ "$(grep -c -v '^\.\\"' "$p")" -eq 1 ]; then
		case " $names " in
		*" $(basename "$so" | sed 's/\.[^.]*$//') "*)
			sourced="$sourced $name"; continue ;;
		esac
		echo "FAIL $name sources $so, which is none of the pages"; fail=1
		continue
	fi
	th=$(grep '^\.TH ' "$p")
	case $th in
	*" \"$date\" \"libdirectio $PACKAGE_VERSION\" "*) ;;
	*) echo "FAIL $name: .TH has not the date \"$date\" and \"libdirectio $PACKAGE_VERSION\": $th"; fail=1 ;;
	esac
done
echo "$npages pages, each of release $PACKAGE_VERSION of $date${sourced:+ (sourcing another:$sourced)}"

# 3. Lint: mandoc -Tlint (every message, style included) and groff -ww
# (a UTF-8 and an ASCII terminal: a glyph ASCII lacks is a warning there).
linters=
command -v mandoc >/dev/null 2>&1 && linters="$linters mandoc"
command -v groff >/dev/null 2>&1 && linters="$linters groff"
if [ -z "$linters" ]; then
	lint_skipped="neither mandoc nor groff here (Debian: mandoc, groff-base): the pages are not linted"
	echo "SKIP lint: $lint_skipped"
fi
warned=0 linted=0
for p in "$@"; do
	name=${p##*/}
	case " $sourced " in *" $name "*) continue ;; esac
	linted=$((linted + 1))
	w=
	for l in $linters; do
		case $l in
		mandoc) w="$w$(mandoc -Tlint "$p" 2>&1)" ;;
		groff)  w="$w$(groff -man -Tutf8 -ww -z "$p" 2>&1 >/dev/null)"
			w="$w$(groff -man -Tascii -ww -z "$p" 2>&1 >/dev/null)" ;;
		esac
	done
	if [ -n "$w" ]; then
		echo "FAIL $name: not clean for$linters:"
		printf '%s\n' "$w" | sed "s|$p|$name|g; s/^/    /"
		warned=$((warned + 1))
		fail=1
	fi
done
[ -n "$linters" ] && echo "$linted pages linted by$linters: $warned with messages"

# 4. SEE ALSO: every page named exists; links between our pages go both
# ways; and a REPORTING BUGS section points to the README.  Pages of other
# projects that may be named (add one here with where it comes from):
system_pages="
aio(7) errno(3) fcntl(2) fdatasync(2) fsync(2) open(2) statx(2) io_uring(7)
sg(4) udev(7) losetup(8) mount(8)
dd(1) fio(1) sg_rbuf(8) sgp_dd(8) sg_dd(8) sdparm(8) mpirun(1) mpiexec(1)
pg_test_fsync(1)
directio(3C) dkio(4I) uscsi(4I)
"
# page TAB linked-page lines: a function's name is its group's page.
for p in "$@"; do
	name=${p##*/}
	case " $sourced " in *" $name "*) continue ;; esac
	awk -v page="$name" '
	/^\.SH / {
		sect = $0
		sub(/^\.SH +/, "", sect)
		gsub(/"/, "", sect)
		if (sect == "REPORTING BUGS")
			bugs = 1
		next
	}
	sect == "NAME" && !/^\./ && page ~ /\.3$/ && !named {
		line = $0
		if (sub(/ *\\-.*/, "", line))
			named = 1
		gsub(/,/, " ", line)
		n = split(line, w, " ")
		for (i = 1; i <= n; i++)
			printf "alias\t%s(3)\t%s\n", w[i], page
	}
	sect == "SEE ALSO" {
		line = $0
		gsub(/\\-/, "-", line)
		gsub(/\\f[BIRP]/, "", line)
		gsub(/^\.[BI][RI]? /, "", line)
		gsub(/"/, "", line)
		while (match(line, /[A-Za-z0-9_.:+-]+ ?\([1-9][A-Za-z]?[A-Za-z]?[A-Za-z]?\)/)) {
			ref = substr(line, RSTART, RLENGTH)
			gsub(/ /, "", ref)
			printf "link\t%s\t%s\n", page, ref
			line = substr(line, RSTART + RLENGTH)
		}
	}
	sect == "REPORTING BUGS" && /README/ { readme = 1 }
	END {
		if (!bugs)
			printf "fail\t%s has no REPORTING BUGS section\n", page
		else if (!readme)
			printf "fail\t%s: REPORTING BUGS does not name the README\n", page
	}' "$p"
done > "$t0/links"
for p in "$@"; do
	n=${p##*/}
	printf 'alias\t%s(%s)\t%s\n' "${n%.*}" "${n##*.}" "$n"
done >> "$t0/links"
out=$(awk -F'\t' -v sys="$system_pages" '
BEGIN { n = split(sys, s, /[ \n]+/); for (i = 1; i <= n; i++) if (s[i] != "") system_page[s[i]] = 1 }
$1 == "fail" { print "FAIL " $2; next }
$1 == "alias" { page_of[$2] = $3; next }
$1 == "link" { nl++; from[nl] = $2; to[nl] = $3 }
END {
	for (i = 1; i <= nl; i++) {
		if (to[i] in page_of) {
			tp = page_of[to[i]]
			if (tp != from[i])
				linked[from[i], tp] = 1
		} else if (!(to[i] in system_page))
			printf "FAIL %s: SEE ALSO names %s, which is neither one of our pages nor a system page of tests/man-pages.sh\n", from[i], to[i]
	}
	for (k in linked) {
		split(k, ab, SUBSEP)
		pairs++
		if (!((ab[2], ab[1]) in linked))
			printf "FAIL %s names %s in SEE ALSO, but %s does not name %s\n", ab[1], ab[2], ab[2], ab[1]
	}
	printf "SEE ALSO: %d names, %d links between our pages\n", nl, pairs
}' "$t0/links")
printf '%s\n' "$out"
printf '%s\n' "$out" | grep -q '^FAIL' && fail=1

# 5. libdirectio(3)'s example is tests/example.c.
t=$t0
awk '/^\.SH EXAMPLE/ { ex = 1 } ex && /^\.EE/ { exit } on { print } ex && /^\.EX/ { on = 1 }' \
	"$top_builddir/man/libdirectio.3" | awk '{ gsub(/\\-/, "-"); gsub(/\\&/, ""); gsub(/\\e/, "\\\\"); print }' > "$t/page.c"
sed '1{/SPDX-License-Identifier/d;}' "$top_srcdir/tests/example.c" |
	awk '{ gsub(/\t/, "    "); print }' > "$t/example.c"
if cmp -s "$t/page.c" "$t/example.c"; then
	echo "libdirectio(3)'s example is tests/example.c ($(wc -l < "$t/example.c" | tr -d ' ') lines)"
else
	echo "FAIL libdirectio(3)'s EXAMPLE differs from tests/example.c (tabs as 4 spaces):"
	diff "$t/example.c" "$t/page.c" | head -n 20 | sed 's/^/    /'
	fail=1
fi

# 6. Installed, every function has a page man finds; uninstalled, no file
# is left.  (make install as distcheck does it, into a directory of ours.)
if [ ! -f "$top_builddir/Makefile" ]; then
	echo "note: no $top_builddir/Makefile: installation not checked"
	[ $fail -eq 0 ] && [ -n "$lint_skipped" ] && exit 77
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
# Every installed page (but the .so ones) has the release's date.
dated=0
for pg in $(find "$dest" -type f -path '*/man[1-9]/*'); do
	grep -q '^\.so ' "$pg" && continue
	th=$(grep '^\.TH ' "$pg")
	case $th in
	*" \"$date\" \"libdirectio $PACKAGE_VERSION\" "*) dated=$((dated + 1)) ;;
	*) echo "FAIL ${pg#"$dest"} installed with: $th"; fail=1 ;;
	esac
done
# shellcheck disable=SC2086
nso=$(set -- $sourced; echo $#)
[ "$dated" -ge $((npages - nso)) ] ||
	{ echo "FAIL only $dated pages installed with a .TH, of $((npages - nso))"; fail=1; }
echo "installed: $dated pages dated $date"
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
if [ $fail -eq 0 ] && [ -n "$lint_skipped" ]; then
	echo "SKIP: $lint_skipped"
	exit 77
fi
exit $fail
