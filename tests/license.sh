#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# license.sh -- the licence is stated where it must be: LICENSE is the
# BSD 2-Clause text with the project's copyright, and every source, script,
# build file, page and document carries an SPDX-License-Identifier line
# naming BSD-2-Clause in its first three lines.
#
# Files checked: the sources, never what a build made.
#  - In a git checkout: `git ls-files`.
#  - Otherwise (a `git archive` tree, a release tarball), with a configured
#    build ($top_builddir/Makefile): the files `make distdir` copies, the
#    release's own list of its sources (Makefile.am's lists; make dist
#    fails when a file git tracks is not on them), plus .gitignore.
#    A build in place leaves objects, wrapper scripts, logs and generated
#    pages beside the sources: none of them is on that list.
#  - Otherwise (an unpacked tree never configured, so holding no build
#    output): every file of the tree but build directories.
# In the last two, the files autoreconf writes (configure, Makefile.in,
# aclocal.m4, build-aux/, libtool's m4 files) are not checked, nor what
# dpkg-buildpackage leaves in debian/.  Never checked (data that cannot
# hold a comment line, covered by debian/copyright's "Files: *"): the fuzz
# corpora and reproducers, debian/changelog and debian/source/format.
set -u
: "${top_srcdir:=.}"
fail=0
id='SPDX-License-Identifier: BSD-2-Clause'

grep -q '^BSD 2-Clause License$' "$top_srcdir/LICENSE" &&
grep -q '^Copyright (c) [0-9]*, the libdirectio authors$' "$top_srcdir/LICENSE" ||
	{ echo "FAIL: LICENSE is not the BSD 2-Clause text of the libdirectio authors"; fail=1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/license.XXXXXX") || exit 99
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
list=$work/list
: "${top_builddir:=.}"
: "${MAKE:=make}"
if git -C "$top_srcdir" rev-parse --is-inside-work-tree >/dev/null 2>&1 &&
   [ "$(git -C "$top_srcdir" rev-parse --show-toplevel)" = "$(cd "$top_srcdir" && pwd -P)" ]; then
	how="git ls-files"
	git -C "$top_srcdir" ls-files > "$list"
else
	if [ -f "$top_builddir/Makefile" ]; then
		how="the release's file list (make distdir)"
		(cd "$top_builddir" && MAKEFLAGS= MFLAGS= $MAKE distdir distdir="$work/dist") \
			> "$work/distdir.log" 2>&1 ||
			{ tail -n 20 "$work/distdir.log"; echo "FAIL: make distdir failed"; exit 1; }
		{ (cd "$work/dist" && find . -type f -print)
		  [ -f "$top_srcdir/.gitignore" ] && echo ./.gitignore; } > "$work/found"
	else
		how="the unpacked tree (not configured)"
		# Build directories are the ones holding a config.status.
		(cd "$top_srcdir" && find . \( -name .git -o -name autom4te.cache \
			-o -name .libs -o -name .deps -o -name _build -o -name _inst \
			-o \( -type d ! -name . -exec test -e '{}/config.status' \; \) \) -prune \
			-o -type f -print) > "$work/found"
	fi
	# What dpkg-buildpackage leaves in debian/: its build directory
	# (debian/rules), its staging and bookkeeping, each package's tree.
	debpkgs=$(sed -n 's/^Package: *//p' "$top_srcdir/debian/control" 2>/dev/null | tr '\n' '|')
	debpkgs=${debpkgs%|}
	sed 's|^\./||' "$work/found" |
	grep -v -E '^(configure|configure~|aclocal\.m4|config\.h\.in|config\.h\.in~)$' |
	grep -v -E '(^|/)Makefile\.in$' |
	grep -v -E '^build-aux/' |
	grep -v -E '^m4/(libtool|lt[^/]*)\.m4$' |
	grep -v -E "^debian/(build|tmp|\.debhelper|$debpkgs)/" |
	grep -v -E '^debian/(autoreconf\.(before|after)|files|debhelper-build-stamp|[^/]*\.substvars|[^/]*\.debhelper\.log)$' \
		> "$list"
fi

n=0
while IFS= read -r f; do
	case $f in
	tests/fuzz/corpus/*|tests/fuzz/repro/*|debian/changelog|debian/source/format|LICENSE) continue ;;
	esac
	[ -f "$top_srcdir/$f" ] || continue
	n=$((n + 1))
	head -n 3 "$top_srcdir/$f" | grep -q "$id" ||
		{ echo "FAIL: $f has no '$id' line in its first three lines"; fail=1; }
done < "$list"

echo "license: $n files of $how checked"
[ "$n" -gt 100 ] || { echo "FAIL: only $n files found: is top_srcdir ($top_srcdir) the source tree?"; fail=1; }
[ $fail -eq 0 ] && echo "ok: LICENSE and SPDX lines"
exit $fail
