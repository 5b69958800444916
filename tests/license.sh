#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# license.sh -- the licence is stated where it must be: LICENSE is the
# BSD 2-Clause text with the project's copyright, and every source, script,
# build file, page and document carries an SPDX-License-Identifier line
# naming BSD-2-Clause in its first three lines.
#
# Files checked: `git ls-files` in a checkout; in an unpacked release (no
# git) every file of the tree but the generated ones (configure,
# Makefile.in, ..., and what dpkg-buildpackage leaves in debian/) and build
# directories.  Not checked (data that cannot
# hold a comment line, covered by debian/copyright's "Files: *"): the fuzz
# corpora and reproducers, debian/changelog and debian/source/format.
set -u
: "${top_srcdir:=.}"
fail=0
id='SPDX-License-Identifier: BSD-2-Clause'

grep -q '^BSD 2-Clause License$' "$top_srcdir/LICENSE" &&
grep -q '^Copyright (c) [0-9]*, the libdirectio authors$' "$top_srcdir/LICENSE" ||
	{ echo "FAIL: LICENSE is not the BSD 2-Clause text of the libdirectio authors"; fail=1; }

list=$(mktemp) || exit 99
trap 'rm -f "$list"' EXIT
if git -C "$top_srcdir" rev-parse --is-inside-work-tree >/dev/null 2>&1 &&
   [ "$(git -C "$top_srcdir" rev-parse --show-toplevel)" = "$(cd "$top_srcdir" && pwd -P)" ]; then
	how="git ls-files"
	git -C "$top_srcdir" ls-files > "$list"
else
	how="the unpacked tree"
	# What dpkg-buildpackage leaves in debian/: its build directory
	# (debian/rules), its staging and bookkeeping, each package's tree.
	debpkgs=$(sed -n 's/^Package: *//p' "$top_srcdir/debian/control" 2>/dev/null | tr '\n' '|')
	debpkgs=${debpkgs%|}
	# Build directories are the ones holding a config.status (but the top
	# one, which may be configured in place).
	(cd "$top_srcdir" && find . \( -name .git -o -name autom4te.cache -o -name build-aux \
		-o -name .libs -o -name .deps -o -name _build -o -name _inst \
		-o \( -type d ! -name . -exec test -e '{}/config.status' \; \) \) -prune \
		-o -type f -print) |
	sed 's|^\./||' |
	grep -v -E '(^|/)(Makefile|Makefile\.in|configure|configure~|config\.h|config\.h\.in|config\.h\.in~|config\.log|config\.status|aclocal\.m4|libtool|stamp-h1|libdirectio\.pc)$' |
	grep -v -E '^m4/(libtool|lt[^/]*)\.m4$' |
	grep -v -E "^debian/(build|tmp|\.debhelper|$debpkgs)/" |
	grep -v -E '^debian/(autoreconf\.(before|after)|files|debhelper-build-stamp|[^/]*\.substvars|[^/]*\.debhelper\.log)$' |
	grep -v -E '\.(o|lo|la|a|so|log|trs|gcda|gcno|tar\.gz)$' > "$list"
fi

n=0
while IFS= read -r f; do
	case $f in
	tests/fuzz/corpus/*|tests/fuzz/repro/*|debian/changelog|debian/source/format|LICENSE) continue ;;
	esac
	[ -f "$top_srcdir/$f" ] || continue
	# Executables built in place (no extension, ELF) are not sources.
	head -c 4 "$top_srcdir/$f" | grep -q 'ELF' && continue
	n=$((n + 1))
	head -n 3 "$top_srcdir/$f" | grep -q "$id" ||
		{ echo "FAIL: $f has no '$id' line in its first three lines"; fail=1; }
done < "$list"

echo "license: $n files of $how checked"
[ "$n" -gt 100 ] || { echo "FAIL: only $n files found: is top_srcdir ($top_srcdir) the source tree?"; fail=1; }
[ $fail -eq 0 ] && echo "ok: LICENSE and SPDX lines"
exit $fail
