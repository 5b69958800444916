#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# no-circles.sh -- no two files of the tool kit or of one tool call each
# other, directly or round a longer circle: a stage calls the next one,
# never the one that called it (doc/layout.md).
#
# Read from the build's objects: `nm -P` says which file defines each
# function (T) and which files use it (U); file A calls file B when A uses
# a function B defines.  Two files that reach each other through these
# calls are a circle; each is printed with the calls that close it, and
# the test fails.  Files this build does not compile (the other MPI or
# io_uring stand-in) are said and left out.  SKIP without nm.
. "${top_srcdir:-.}/tests/lib.sh"

command -v nm >/dev/null 2>&1 || skip "no nm (binutils) to read the objects"
fail=0
for dir in tools/kit tools/sw tools/dd tools/info tools/rbuf; do
	[ -d "$top_srcdir/$dir" ] || hard "no $top_srcdir/$dir"
	list=$(mktemp) || hard "mktemp"
	for src in "$top_srcdir/$dir"/*.c; do
		base=${src##*/}
		base=${base%.c}
		# The object: foo.o, or a per-target one (libfoo_la-foo.o), not
		# a test program's copy (tests_*).
		obj=$top_builddir/$dir/$base.o
		if [ ! -f "$obj" ]; then
			obj=
			for o in "$top_builddir/$dir"/*-"$base".o; do
				case ${o##*/} in tests_*) continue ;; esac
				[ -f "$o" ] && { obj=$o; break; }
			done
		fi
		if [ -z "$obj" ]; then
			echo "$dir/$base.c: not compiled in this build, left out"
			continue
		fi
		nm -P "$obj" | awk -v f="$base.c" '$2 == "T" { print "D", f, $1 } $2 == "U" { print "U", f, $1 }' \
			>>"$list" || hard "nm $obj failed"
	done
	awk -v dir="$dir" '
	$1 == "D" { def[$3] = def[$3] " " $2; files[$2] = 1; next }
	$1 == "U" { use[$2, $3] = 1; files[$2] = 1; users[$3] = users[$3] " " $2 }
	END {
		for (s in users) {
			nd = split(def[s], d, " ")
			nu = split(users[s], u, " ")
			for (i = 1; i <= nu; i++)
				for (j = 1; j <= nd; j++)
					if (u[i] != d[j]) {
						edge[u[i], d[j]] = 1
						if (index(" " why[u[i], d[j]] " ", " " s " ") == 0)
							why[u[i], d[j]] = why[u[i], d[j]] " " s
					}
		}
		n = 0
		for (f in files) name[++n] = f
		for (i = 1; i <= n; i++)
			for (j = 1; j <= n; j++)
				reach[i, j] = ((name[i], name[j]) in edge)
		for (k = 1; k <= n; k++)
			for (i = 1; i <= n; i++)
				if (reach[i, k])
					for (j = 1; j <= n; j++)
						if (reach[k, j]) reach[i, j] = 1
		bad = 0
		for (i = 1; i <= n; i++)
			for (j = 1; j <= n; j++)
				if (i != j && reach[i, j] && reach[j, i] && ((name[i], name[j]) in edge)) {
					printf "%s: %s calls %s (%s ) and %s reaches %s back\n", dir,
					       name[i], name[j], why[name[i], name[j]], name[j], name[i]
					bad = 1
				}
		if (!bad) printf "%s: %d files, no circle\n", dir, n
		exit bad
	}' "$list" || fail=1
	rm -f "$list"
done
exit $fail
