#!/bin/sh
# run-all.sh -- the whole test suite, as CI runs it (README's test command).
#
# From a source tree (git checkout or release tarball) it builds and runs
# `make check` in several configurations, each in its own directory under
# $DIO_BUILD_ROOT (default: ./build):
#
#   gcc       gcc, -Werror, then `make distcheck` (out-of-tree, from the tarball)
#   clang     clang, -Werror
#   sanitize  gcc with AddressSanitizer + UndefinedBehaviorSanitizer
#   posix     the portable fallback backend (--with-backend=posix)
#
# DIO_CONFIGS="gcc clang" limits the set.  Tests needing root (loop devices)
# or QEMU print SKIP with the reason when they cannot run.  Exit status is 0
# only if every configuration built and passed.
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
root=${DIO_BUILD_ROOT:-$src/build}
configs=${DIO_CONFIGS:-gcc clang sanitize posix}
jobs=${DIO_JOBS:-$(nproc 2>/dev/null || echo 2)}
failed=""
# One kernel download (for the qemu SCSI tests) serves every configuration.
DIO_QEMU_CACHE=${DIO_QEMU_CACHE:-$root/qemu-cache}
export DIO_QEMU_CACHE
tot_pass=0 tot_fail=0 tot_skip=0

say() { printf '\n=== %s\n' "$*"; }

# Out-of-tree builds need a source tree that is not configured in place.
# If it is (README's first command builds in place), build from a copy of
# the files git knows (tracked, or untracked and not ignored).
if [ -f "$src/config.status" ]; then
	if command -v git >/dev/null 2>&1 && git -C "$src" rev-parse >/dev/null 2>&1; then
		say "source tree is configured in place: building from a copy in $root/src"
		rm -rf "$root/src" && mkdir -p "$root/src" || exit 1
		(cd "$src" && git ls-files -co --exclude-standard -z | xargs -0 tar -cf - --) |
			tar -C "$root/src" -xf - || { echo "copying the sources failed"; exit 1; }
		src=$root/src
	else
		echo "run-all.sh: $src is configured in place (config.status) and is not"
		echo "a git checkout: run 'make distclean' there first"
		exit 2
	fi
fi
if [ ! -x "$src/configure" ] || [ "$src/configure.ac" -nt "$src/configure" ]; then
	say "autoreconf"
	(cd "$src" && autoreconf -fi) || { echo "autoreconf failed"; exit 1; }
fi

count() {  # add the PASS/FAIL/SKIP counts of a build's test-suite.log
	log=$1/test-suite.log
	[ -f "$log" ] || return 0
	p=$(sed -n 's/^# PASS: *//p' "$log" | head -n 1)
	f=$(sed -n 's/^# FAIL: *//p' "$log" | head -n 1)
	e=$(sed -n 's/^# ERROR: *//p' "$log" | head -n 1)
	s=$(sed -n 's/^# SKIP: *//p' "$log" | head -n 1)
	tot_pass=$((tot_pass + ${p:-0}))
	tot_fail=$((tot_fail + ${f:-0} + ${e:-0}))
	tot_skip=$((tot_skip + ${s:-0}))
	grep -h '^SKIP: ' "$1"/tests/*.log 2>/dev/null | sed 's/^/  /' | sort -u
}

run_config() {
	name=$1; shift
	dir=$root/$name
	say "$name: configure $*"
	rm -rf "$dir" && mkdir -p "$dir" || return 1
	(cd "$dir" && "$src/configure" -q --enable-werror "$@") || return 1
	say "$name: make check"
	(cd "$dir" && make -s -j"$jobs" && make -s -j"$jobs" check)
	status=$?
	count "$dir"
	[ $status -eq 0 ] || { cat "$dir/test-suite.log" 2>/dev/null | tail -n 80; return 1; }
	return 0
}

# Install into a staging directory and build tests/example.c the way a
# user would: pkg-config --cflags --libs libdirectio.
install_check() {
	stage=$1/stage
	rm -rf "$stage"
	(cd "$1" && make -s install DESTDIR="$stage") >/dev/null || return 1
	for f in include/libdirectio.h lib/libdirectio.so lib/libdirectio.a \
	         lib/pkgconfig/libdirectio.pc bin/sync-write share/man/man1/sync-write.1; do
		[ -e "$stage/usr/local/$f" ] || { echo "not installed: $f"; return 1; }
	done
	flags=$(PKG_CONFIG_PATH="$stage/usr/local/lib/pkgconfig" \
	        PKG_CONFIG_SYSROOT_DIR="$stage" pkg-config --cflags --libs libdirectio) || return 1
	cc -Wall -Wextra -Werror "$src/tests/example.c" $flags \
	   -Wl,-rpath,"$stage/usr/local/lib" -o "$1/example-installed" || return 1
	"$1/example-installed" "$1/example-installed.dat" || return 1
	echo "installed library, header, pkg-config file, tool and man page: ok ($flags)"
}

san="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all"
for c in $configs; do
	case $c in
	gcc)
		run_config gcc CC=gcc || failed="$failed gcc"
		say "gcc: make install, then build the example against the installed library"
		install_check "$root/gcc" || failed="$failed install"
		if [ -f "$root/gcc/Makefile" ]; then
			say "gcc: make distcheck"
			(cd "$root/gcc" && make -s -j"$jobs" distcheck >distcheck.log 2>&1) ||
				{ tail -n 60 "$root/gcc/distcheck.log"; failed="$failed distcheck"; }
			grep -E '^(=+|[a-z].*archives ready)' "$root/gcc/distcheck.log" | tail -n 3
		fi
		;;
	clang)
		if command -v clang >/dev/null 2>&1; then
			run_config clang CC=clang || failed="$failed clang"
		else
			echo "SKIP: clang configuration: clang is not installed"
		fi
		;;
	sanitize)
		ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		run_config sanitize CC=gcc CFLAGS="$san" LDFLAGS="-fsanitize=address,undefined" ||
			failed="$failed sanitize"
		;;
	posix)
		run_config posix CC=gcc --with-backend=posix || failed="$failed posix"
		;;
	*) echo "unknown configuration '$c' (allowed: gcc clang sanitize posix)"; exit 2 ;;
	esac
done

say "summary"
echo "configurations: $configs"
[ -n "$failed" ] && echo "failed:$failed"
echo "$tot_pass passed, $tot_fail failed, $tot_skip skipped"
[ -z "$failed" ] && [ "$tot_fail" -eq 0 ]
