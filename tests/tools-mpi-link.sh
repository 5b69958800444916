#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tools-mpi-link.sh -- sync-write and dio-dd never link MPI, so that they
# install and run without one; their MPI builds, sync-write-mpi and
# dio-dd-mpi, are built exactly when configure found an MPI, link it, and
# are otherwise the same program:
#  - readelf: no libmpi (Open MPI's libmpi.so, MPICH's libmpich.so) among
#    the libraries sync-write and dio-dd need, in every configuration; one
#    among those of sync-write-mpi and dio-dd-mpi;
#  - nm: every symbol of sync-write is in sync-write-mpi with the same
#    size, and the same for dio-dd, but those of the kit's MPI team
#    (tools/kit/mpi.c, mpi-none.c): the same objects, linked differently;
#  - --version and --help of the MPI builds name them, and say MPI;
#  - sync-write and dio-dd started as a launcher starts its ranks (Open
#    MPI's, MPICH's and Slurm's environment) refuse, exit 2, naming their
#    MPI build, and create nothing.
. "${top_srcdir:-.}/tests/lib.sh"

need_cmd readelf binutils
need_cmd nm binutils
work=$(mktemp -d "$top_builddir/tools-mpi-link.XXXXXX") || hard "mktemp"
trap 'rm -rf "$work"' EXIT INT TERM
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }

# elf NAME: the program itself, not libtool's wrapper script in its place.
elf() {
	for _e in "$top_builddir/tools/.libs/$1" "$top_builddir/tools/.libs/lt-$1" \
	          "$top_builddir/tools/$1"; do
		readelf -h "$_e" >/dev/null 2>&1 && { echo "$_e"; return 0; }
	done
	return 1
}
# needed NAME: the shared libraries it needs, on one line
needed() {
	readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' '
}

if [ -n "${MPIEXEC:-}" ]; then mpi=yes; else mpi=no; fi
for t in sync-write dio-dd; do
	p=$(elf "$t") || hard "no program tools/$t (build first)"
	n=$(needed "$p")
	case " $n" in
	*" libmpi"*) bad "$t needs MPI: $n" ;;
	*) ok "$t needs no MPI: $n" ;;
	esac
	if [ $mpi = no ]; then
		[ -e "$top_builddir/tools/$t-mpi" ] &&
			bad "tools/$t-mpi was built, but configure found no MPI"
		continue
	fi
	pm=$(elf "$t-mpi") || { bad "configure found an MPI, but tools/$t-mpi was not built"; continue; }
	n=$(needed "$pm")
	case " $n" in
	*" libmpi"*) ok "$t-mpi needs MPI: $n" ;;
	*) bad "$t-mpi needs no MPI library: $n" ;;
	esac
	# The symbols (name and size) of each, without the kit's MPI team's.
	for a in libdiompi libdiompi-none; do
		nm --defined-only "$top_builddir/tools/kit/.libs/$a.a" 2>/dev/null
	done | awk 'NF == 3 { print $3 }' | sort -u >"$work/team"
	for x in "$p" "$pm"; do
		nm -S --defined-only "$x" | awk 'NF == 4 { print $4, $2 }' | sort -u |
			awk 'NR == FNR { team[$1] = 1; next } !($1 in team)' "$work/team" - \
			>"$work/$(basename "$x").syms"
	done
	s1=$work/$(basename "$p").syms s2=$work/$(basename "$pm").syms
	[ -s "$work/team" ] || bad "no symbols read from tools/kit/.libs/libdiompi*.a"
	missing=$(comm -23 "$s1" "$s2" | head -n 5)
	if [ -z "$missing" ] && [ "$(wc -l <"$s1")" -gt 50 ]; then
		ok "$t-mpi has each of $t's $(wc -l <"$s1" | tr -d ' ') symbols, same size, but the MPI team's"
	else
		bad "$t's symbols not in $t-mpi, or of another size: $(echo $missing)"
	fi
	# --version and --help say which build it is.
	# (sync-write: a line "MPI: LIBRARY (the MPI build...)"; dio-dd: one
	# line, ", MPI LIBRARY,")
	v=$("$tools/$t-mpi" --version 2>&1 | tr '\n' ' ')
	case $v in
	"$t-mpi (libdirectio) "[0-9]*"MPI: "?*"(the MPI build"*|"$t-mpi (libdirectio) "[0-9]*", MPI "?*", aio"*)
		ok "$t-mpi --version: $v" ;;
	*) bad "$t-mpi --version does not say it is the MPI build: $v" ;;
	esac
	h=$("$tools/$t-mpi" --help 2>&1)
	printf '%s\n' "$h" | grep -q "^Usage: $t-mpi " &&
		printf '%s\n' "$h" | grep -q "$t-mpi, the MPI build" &&
		ok "$t-mpi --help: $(printf '%s\n' "$h" | grep "the MPI build")" ||
		bad "$t-mpi --help does not name the MPI build"
done

# The tools without MPI under a launcher (only its environment: they
# look at nothing else before refusing).
for env in "OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_RANK=1" "PMI_SIZE=2 PMI_RANK=0" \
           "PMIX_RANK=0" "SLURM_PROCID=0 SLURM_NTASKS=4"; do
	# shellcheck disable=SC2086
	(cd "$work" && env $env "$tools/sync-write" -q -m fsync -s 4k -n 4 --dir .) \
		>"$work/sw.out" 2>&1
	st=$?
	l=$(cd "$work" && ls | grep -v -x -e team -e '.*\.syms' -e sw.out)
	if [ $st -eq 2 ] && grep -q "^sync-write: .*start sync-write-mpi, the MPI build" "$work/sw.out" &&
	   [ -z "$l" ]; then
		ok "sync-write with $env: exit 2, nothing made: $(cat "$work/sw.out")"
	else
		bad "sync-write with $env: exit $st, made '$l':"; sed 's/^/    /' "$work/sw.out"
	fi
	# shellcheck disable=SC2086
	(cd "$work" && env $env "$tools/dio-dd" if=/dev/zero of=dd.out count=1) \
		>"$work/sw.out" 2>&1
	st=$?
	if [ $st -eq 2 ] && grep -q "^dio-dd: .*start dio-dd-mpi, the MPI build" "$work/sw.out" &&
	   [ ! -e "$work/dd.out" ]; then
		ok "dio-dd with $env: exit 2, nothing made"
	else
		bad "dio-dd with $env: exit $st:"; sed 's/^/    /' "$work/sw.out"
	fi
done
exit $fail
