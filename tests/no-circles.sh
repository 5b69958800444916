#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# no-circles.sh -- no two files of the tool kit, of one tool, or of the
# library with its backend call each other, directly or round a longer
# circle: a stage calls the next one, never the one that called it
# (doc/layout.md).
#
# Read from the build's objects: `nm -P` says which file defines each
# function (T) and which files use it (U); file A calls file B when A uses
# a function B defines.  Two files that reach each other through these
# calls are a circle; each is printed with the calls that close it, and
# the test fails.
#
# The graphs: tools/kit and each tool's folder on its own; and lib/ with
# os/ as one graph, once for each program that links them: the library
# (with the backend this build has) and tests/check_sunos, the illumos
# test double, which compiles lib/ and the illumos backend (os/sunos*.c)
# into itself on any other system.  lib/ and os/ are one graph so that a
# circle between backend files that passes through a lib/ helper is seen
# too.
# No call is excused, the contract's neither: lib/ calls the backend
# through os/os.h's dio__os_ functions, and the backend calls only lib/
# files that never call it (error, log, refusal, system, names), so the
# library is two layers and the os.h edge goes one way.  No two files,
# in either directory, call each other, directly or round a longer
# circle through both.
#
# Files a graph's program does not compile (the other MPI or io_uring
# stand-in, the other OS's backend) are said and left out.  SKIP without
# nm.
. "${top_srcdir:-.}/tests/lib.sh"

command -v nm >/dev/null 2>&1 || skip "no nm (binutils) to read the objects"
fail=0

# obj_of DIR BASE WHO: the object of DIR/BASE.c in the build: BASE.o, or a
# per-target one (TARGET-BASE.o, in DIR or in DIR/.libs, libtool's).  WHO
# is the target prefix wanted ("tests_check_sunos"), or "" for any but a
# test program's (tests_*).  Prints nothing when there is none.
obj_of() {
	if [ -z "$3" ] && [ -f "$top_builddir/$1/$2.o" ]; then
		echo "$top_builddir/$1/$2.o"
		return
	fi
	for o in "$top_builddir/$1"/*-"$2".o "$top_builddir/$1"/.libs/*-"$2".o; do
		[ -f "$o" ] || continue
		who=${o##*/}
		who=${who%-"$2".o}
		# An automake target prefix has no "-" (foo-bar.o is not bar.o's).
		case $who in *-*) continue ;; esac
		if [ -z "$3" ]; then
			case $who in tests_*) continue ;; esac
		elif [ "$who" != "$3" ]; then
			continue
		fi
		echo "$o"
		return
	done
}

# graph NAME WHO DIR...: the files of DIR... as one graph, from the
# objects obj_of finds for WHO.
graph() {
	name=$1 want=$2
	shift 2
	list=$(mktemp) || hard "mktemp"
	found=0
	for dir in "$@"; do
		[ -d "$top_srcdir/$dir" ] || hard "no $top_srcdir/$dir"
		for src in "$top_srcdir/$dir"/*.c; do
			base=${src##*/}
			base=${base%.c}
			obj=$(obj_of "$dir" "$base" "$want")
			if [ -z "$obj" ]; then
				echo "$name: $dir/$base.c not compiled in this build, left out"
				continue
			fi
			found=1
			nm -P "$obj" | awk -v f="$dir/$base.c" '$2 == "T" { print "D", f, $1 } $2 == "U" { print "U", f, $1 }' \
				>>"$list" || hard "nm $obj failed"
		done
	done
	if [ $found = 0 ]; then
		echo "$name: not built here, left out"
		rm -f "$list"
		return 0
	fi
	awk -v graph="$name" '
	$1 == "D" { def[$3] = def[$3] " " $2; files[$2] = 1; next }
	$1 == "U" {
		files[$2] = 1
		users[$3] = users[$3] " " $2
	}
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
					printf "%s: %s calls %s (%s ) and %s reaches %s back\n", graph,
					       name[i], name[j], why[name[i], name[j]], name[j], name[i]
					bad = 1
				}
		if (!bad) printf "%s: %d files, no circle\n", graph, n
		exit bad
	}' "$list" || fail=1
	rm -f "$list"
}

for dir in tools/kit tools/sw tools/dd tools/info tools/rbuf; do
	graph "$dir" "" "$dir"
done
graph "library (lib, os)" "" lib os
graph "tests/check_sunos (lib, os)" tests_check_sunos lib os
exit $fail
