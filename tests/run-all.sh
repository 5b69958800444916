#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# run-all.sh -- the whole test suite, as CI runs it (README's test command).
#
# From a source tree (git checkout or release tarball) it builds and runs
# `make check` in several configurations, each in its own directory under
# $DIO_BUILD_ROOT (default: ./build):
#
#   gcc       gcc, -Werror: `make distcheck`, so that the suite runs in the
#             release tarball's build, its sources
#             read-only, and `make installcheck` builds the example
#             against the installed library with pkg-config
#   clang     clang, -Werror: everything built, the compiled tests (Check
#             suites, the C89 header check) and the test scripts placed
#             here only (DIO_SCRIPTS=placed): the power-cut series; the
#             other scripts run in the gcc builds (the same sources)
#   sanitize  gcc with AddressSanitizer + UndefinedBehaviorSanitizer
#   posix     the portable fallback backend (--with-backend=posix), and no MAC
#             library (--with-crypto=no: the ack listener on loopback only)
#             (the qemu guests and the tests of the sources run in some
#             of these only: DIO_PLACES below)
#   nonroot   run as root: the gcc configuration's `make check` once more as
#             an unprivileged user made for it (DIO_TEST_USER, default
#             diotest), so that the suite is known to pass without root too;
#             run without root, the configurations above already are that
#   mpich     gcc built against MPICH (--with-mpi=mpich; the others use the
#             default MPI, Open MPI where both are installed), MPI tests only
#             (the Slurm cluster's with srun --mpi=pmi2; gcc's runs pmix, and
#             clang, sanitize and posix leave it out: DIO_SLURM=skip)
#   debian    as root: tests/debian-packages.sh, the Debian packages (debian/)
#             built from a clean copy of the checkout (HEAD; in a tree without
#             git, its files), lintian, installed with apt on a fresh minimal
#             Debian root and used there (the root is cached as a tarball in
#             DIO_DEBOOTSTRAP_CACHE, default $DIO_BUILD_ROOT/debootstrap-cache);
#             the package build skips `make check` (DEB_BUILD_OPTIONS=nocheck),
#             which the configurations above run; SKIP (with why) without
#             root, its tools or Debian's archive
#   fuzz      clang --enable-fuzzing: every libFuzzer harness of tests/fuzz/
#             fuzzed DIO_FUZZ_SECONDS (default 60) with -rss_limit_mb and
#             -timeout, two at a time ('make fuzz'), at nice DIO_FUZZ_NICE
#             (default 19: with the CPU the tests leave); fails on any crash, leak,
#             timeout or out-of-memory input; SKIP (with why) without clang's
#             libFuzzer
#
# DIO_CONFIGS="gcc clang" (or gcc,clang) limits the set.  Tests needing root (loop devices)
# or QEMU print SKIP with the reason when they cannot run.  Exit status is 0
# only if every configuration built and passed.
#
# The configurations share nothing but the machine, so they run side by
# side: DIO_CONFIG_JOBS (default 4) at a time, longest first, and the
# fuzz job beside them from the start (its fuzzing at nice 19 takes the
# CPU they leave idle), each with
# make -j DIO_JOBS (default: the number of CPUs); the qemu guests of all
# of them take turns for one slot per CPU (tests/qemu/run-guest.sh,
# DIO_QEMU_JOBS).  Each job's output goes to $DIO_BUILD_ROOT/JOB.out and
# is printed whole when the job ends, with its seconds; the summary gives
# every job's seconds and the ten slowest tests (wall and CPU seconds,
# from the last line of each test's log, tests/limit.sh).
#
# Works in a git checkout, a release tarball, and a tree configured in place
# by the README's first command (it then builds from a clean copy).  Run with
# sudo, it gives what it creates in the checkout back to the user who called
# sudo, so that nothing is left there that the user cannot delete.
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
top=$src
root=${DIO_BUILD_ROOT:-$src/build}
configs=$(echo "${DIO_CONFIGS:-gcc clang sanitize posix nonroot mpich debian fuzz}" | tr ',' ' ')
jobs=${DIO_JOBS:-$(nproc 2>/dev/null || echo 2)}
for c in $configs; do
	case " gcc clang sanitize posix nonroot mpich debian fuzz " in
	*" $c "*) ;;
	*) echo "unknown configuration '$c' (allowed: gcc clang sanitize posix nonroot mpich debian fuzz)"; exit 2 ;;
	esac
done
slots=${DIO_CONFIG_JOBS:-4}
case $slots in ''|*[!0-9]*) slots=x ;; esac
[ "$slots" != x ] && [ "$slots" -ge 1 ] 2>/dev/null ||
	{ echo "DIO_CONFIG_JOBS must be a number of jobs (1 or more), not '${DIO_CONFIG_JOBS:-}'"; exit 2; }
# Where a test runs.  Each configuration runs the whole suite, but for
# the tests placed here, which run in the configurations named only and
# say SKIP with where they ran in the others (tests/limit.sh reads
# DIO_PLACES: NAME:CONFIG[,CONFIG] words; DIO_RUN_CONFIG names the
# configuration a suite runs in).
#  - Tests of the sources, the manual or a harness, which no build or
#    compiler changes: once (no-circles reads the objects: once for each
#    backend).
#  - The qemu guests: each in one configuration.  A guest costs minutes
#    of CPU under TCG wherever it runs; on machines where a fork costs
#    5 ms, the three suites with every guest took 5200-5450 s side by
#    side (2026-12-02).  The guests that send SCSI commands (SG_IO:
#    dio-rbuf's, dio-dd's and dio-info's) run in sanitize, so that those
#    paths run under AddressSanitizer; the power-cut series (816 cuts)
#    in clang, whose suite is otherwise its compiled tests only
#    (DIO_SCRIPTS=placed); the rest in gcc.
DIO_PLACES="abi-layout.sh:gcc man-pages.sh:gcc license.sh:gcc no-circles.sh:gcc,posix
	sync-write-powercut.sh:clang sync-write-powercut-noop.sh:clang
	scsi-qemu.sh:sanitize dio-dd-qemu.sh:sanitize dio-info-qemu.sh:sanitize
	sync-write-devcount-qemu.sh:gcc powercut-qemu.sh:gcc doc-commands-qemu.sh:gcc selftest.sh:gcc"
DIO_PLACES=$(echo $DIO_PLACES)
export DIO_PLACES
failed=""
# One kernel download (for the qemu SCSI tests) serves every configuration.
DIO_QEMU_CACHE=${DIO_QEMU_CACHE:-$root/qemu-cache}
export DIO_QEMU_CACHE
tot_pass=0 tot_fail=0 tot_skip=0

# Each heading says how long the run has taken so far (where the time goes
# is worth knowing: CI stops the run after 90 minutes).
t_start=$(date +%s)
say() { printf '\n=== [%s s] %s\n' "$(($(date +%s) - t_start))" "$*"; }

# Run by root through sudo: at exit, what this run made in the user's
# checkout (build/, and autoreconf's output on a first run) goes back to
# the user.  Only files owned by root are touched, and only in a checkout
# that belongs to the user who called sudo.
give_back() {
	[ "$(id -u)" -eq 0 ] && [ -n "${SUDO_UID:-}" ] && [ "${SUDO_UID:-0}" -ne 0 ] || return 0
	[ "$(stat -c %u "$top" 2>/dev/null)" = "$SUDO_UID" ] || return 0
	find "$top" -xdev -user 0 -exec chown -h "$SUDO_UID:${SUDO_GID:-$SUDO_UID}" {} + 2>/dev/null
	# The build root, if in the checkout, is the run's own: all of it.
	case $root/ in
	"$top"/*) [ -d "$root" ] && chown -R -h "$SUDO_UID:${SUDO_GID:-$SUDO_UID}" "$root" ;;
	esac
	return 0
}
# ccache, where installed (DIO_CCACHE=0: not used), serves the
# configurations that gcc builds with the same flags: gcc's distcheck,
# which starts first, fills the cache, and nonroot, posix and mpich find
# most of their objects there.  Each builds two directories below its
# sources (distcheck's _build/sub, $DIO_BUILD_ROOT/NAME in the checkout),
# so that, with the paths under its sources made relative
# (CCACHE_BASEDIR: the sources; not /, or the system headers' paths would
# be relative too, and differ), their compiler commands are the same.
# The cache lasts for the run only.
ccache_dir=""
if [ "${DIO_CCACHE:-1}" != 0 ] && command -v ccache >/dev/null 2>&1; then
	ccache_dir=$(mktemp -d "${TMPDIR:-/tmp}/dio-ccache.XXXXXX") &&
		mkdir "$ccache_dir/bin" "$ccache_dir/cache" &&
		ln -s "$(command -v ccache)" "$ccache_dir/bin/gcc" &&
		chmod 755 "$ccache_dir" || { rm -rf "$ccache_dir"; ccache_dir=""; }
fi
# use_ccache SOURCES: from here on (in a job's shell), gcc is ccache's,
# for a build of the sources in SOURCES
use_ccache() {
	[ -n "$ccache_dir" ] || return 0
	PATH=$ccache_dir/bin:$PATH CCACHE_DIR=$ccache_dir/cache
	CCACHE_BASEDIR=$1 CCACHE_NOHASHDIR=1
	export PATH CCACHE_DIR CCACHE_BASEDIR CCACHE_NOHASHDIR
}
at_exit() {
	[ -n "$ccache_dir" ] && rm -rf "$ccache_dir"
	give_back
}
trap at_exit EXIT
# Stopped before the jobs start, the run still gives back what it made.
trap 'exit 130' INT
trap 'exit 143' TERM

# A failed distcheck keeps its tree, read-only as distcheck made it: show
# the logs of the tests that failed there (the suite's summary names them
# only), then make the tree writable, so that whoever owns the checkout can
# delete it.
distcheck_failed() {
	tail -n 60 "$1/distcheck.log"
	for _d in "$1"/libdirectio-*/; do
		[ -d "$_d" ] || continue
		for _l in $(grep -l -E '^(FAIL|ERROR)' "$_d"_build/sub/tests/*.log 2>/dev/null); do
			echo "--- $_l"
			tail -n 80 "$_l"
		done
		chmod -R u+w "$_d"
	done
}

# Copy the source tree at $1 into the new directory $2, as a tree that is
# not configured or built: with git, the files git knows (tracked, or
# untracked and not ignored); without git (a release tarball, or a machine
# without git), every file but the build root, then 'make distclean' there.
copy_sources() {
	rm -rf "$2" && mkdir -p "$2" || return 1
	if command -v git >/dev/null 2>&1 && git -C "$1" rev-parse >/dev/null 2>&1; then
		(cd "$1" && git ls-files -co --exclude-standard -z | xargs -0 tar -cf - --) |
			tar -C "$2" -xf - || return 1
		return 0
	fi
	case $root/ in
	"$1"/*) skip_dir=./${root#"$1"/} ;;
	*) skip_dir=./.none ;;
	esac
	(cd "$1" && tar -cf - --exclude="$skip_dir" --exclude=./.git .) | tar -C "$2" -xf - ||
		return 1
	if [ -f "$2/config.status" ] && [ -f "$2/Makefile" ]; then
		(cd "$2" && make -s distclean >/dev/null 2>&1) || return 1
	fi
	rm -f "$2/config.status" "$2/config.log"
}

# Out-of-tree builds need a source tree that is not configured in place.
# If it is (the README's first command builds in place), build from a copy.
if [ -f "$src/config.status" ]; then
	say "source tree is configured in place: building from a clean copy in $root/src"
	copy_sources "$src" "$root/src" || { echo "copying the sources failed"; exit 1; }
	src=$root/src
fi
if [ ! -x "$src/configure" ] || [ "$src/configure.ac" -nt "$src/configure" ]; then
	say "autoreconf"
	(cd "$src" && autoreconf -fi) || { echo "autoreconf failed"; exit 1; }
fi

# count DIR [SUMMARY]: add the PASS/FAIL/SKIP counts of a build's
# test-suite.log (or of the file SUMMARY, which holds the suite's summary:
# distcheck's output), and list the reasons of its SKIPs
count() {
	log=${2:-$1/test-suite.log}
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
	say "$name: make check${DIO_TESTS:+ TESTS=$DIO_TESTS}"
	# DIO_NO_CHECK_PROGRAMS=1: the tests chosen need none of the test
	# programs (the mpich job's MPI tests run the tools only)
	(cd "$dir" && make -s -j"$jobs" && make -s -j"$jobs" check ${DIO_TESTS:+TESTS="$DIO_TESTS"} \
		${DIO_NO_CHECK_PROGRAMS:+check_PROGRAMS= check_LTLIBRARIES=})
	status=$?
	count "$dir"
	[ $status -eq 0 ] || { cat "$dir/test-suite.log" 2>/dev/null | tail -n 80; return 1; }
	return 0
}

# The gcc configuration: `make distcheck`, the suite with the qemu tests
# in the tarball's build (one build and one run of the suite serve both).
# distcheck removes its tree when it passes: the tests' logs are kept in
# $dir/tests by tests/limit.sh (DIO_TEST_LOGS), and the counts come from
# the suite's summary in distcheck.log.
gcc_config() {
	dir=$root/gcc
	say "gcc: configure CC=gcc"
	rm -rf "$dir" && mkdir -p "$dir/tests" || return 1
	(cd "$dir" && "$src/configure" -q --enable-werror CC=gcc) || return 1
	say "gcc: make distcheck (the suite with the qemu tests; make installcheck builds the example against the installed library)"
	(cd "$dir" && DIO_TEST_LOGS=$dir/tests \
		make -s -j"$jobs" distcheck DISTCHECK_CONFIGURE_FLAGS="CC=gcc" \
			${DIO_TESTS:+TESTS="$DIO_TESTS"} >distcheck.log 2>&1)
	status=$?
	grep -E '^(installcheck: .*ok$|=+$|[a-z].*archives ready)' "$dir/distcheck.log" | tail -n 4
	count "$dir" "$dir/distcheck.log"
	[ $status -eq 0 ] || { distcheck_failed "$dir"; return 1; }
	return 0
}

# The gcc configuration's build and `make check` as an unprivileged user,
# in a copy of the sources that user owns (the checkout may sit in a
# directory only root can enter).  The tests placed in other
# configurations (DIO_PLACES: every qemu guest test among them) say SKIP.
nonroot_config() {
	if [ "$(id -u)" -ne 0 ]; then
		echo "SKIP: nonroot configuration: this run is not root, so the"
		echo "      configurations above already ran without root"
		return 0
	fi
	user=${DIO_TEST_USER:-diotest}
	if ! id "$user" >/dev/null 2>&1; then
		useradd --system --no-create-home --shell /bin/sh "$user" ||
			{ echo "nonroot: cannot create the user $user (useradd)"; return 1; }
	fi
	if ! command -v runuser >/dev/null 2>&1; then
		echo "nonroot: no runuser (util-linux) to run the tests as $user"
		return 1
	fi
	ntmp=$(mktemp -d /tmp/dio-nonroot.XXXXXX) || return 1
	dir=$root/nonroot
	rm -rf "$dir" && mkdir -p "$dir" || return 1
	say "nonroot: configure and make check as user $user ($(id -u "$user")) in $ntmp"
	copy_sources "$src" "$ntmp/src" || { echo "nonroot: copying the sources failed"; return 1; }
	# The build directory two levels below the sources, as the other
	# configurations' are (ccache finds their objects by relative paths).
	bdir=$ntmp/src/build/nonroot
	mkdir -p "$bdir" && chown -R "$user" "$ntmp" && chmod 755 "$ntmp" || return 1
	# The user reads the run's compiler cache and adds nothing to it.
	set -- HOME="$ntmp" DIO_RUN_CONFIG=nonroot DIO_PLACES="$DIO_PLACES"
	[ -n "$ccache_dir" ] && set -- "$@" PATH="$PATH" CCACHE_DIR="$CCACHE_DIR" \
		CCACHE_BASEDIR="$ntmp/src" CCACHE_NOHASHDIR=1 CCACHE_READONLY=1 \
		CCACHE_TEMPDIR="$ntmp/ccache-tmp"
	runuser -u "$user" -- env "$@" sh -c '
		{ [ -x "$1/src/configure" ] || (cd "$1/src" && autoreconf -fi); } &&
		cd "$3" && "$1/src/configure" -q --enable-werror CC=gcc &&
		make -s -j"$2" && make -s -j"$2" check' sh "$ntmp" "$jobs" "$bdir"
	status=$?
	# Keep the logs with the other configurations' (and count them).
	(cd "$bdir" && find . -name '*.log' -o -name '*.trs' | tar -cf - -T -) |
		tar -C "$dir" --no-same-owner -xf - 2>/dev/null
	rm -rf "$ntmp"
	count "$dir"
	[ $status -eq 0 ] || { cat "$dir/test-suite.log" 2>/dev/null | tail -n 80; return 1; }
	return 0
}

# Why clang cannot build libFuzzer programs here, or nothing when it can.
fuzz_unable() {
	command -v clang >/dev/null 2>&1 || { echo "clang is not installed"; return 0; }
	_t=$(mktemp -d) || { echo "mktemp failed"; return 0; }
	printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
		'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);' \
		'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; return (int)n * 0; }' \
		>"$_t/h.c"
	if ! clang -fsanitize=fuzzer,address,undefined "$_t/h.c" -o "$_t/h" >"$_t/log" 2>&1; then
		echo "clang cannot link -fsanitize=fuzzer programs (its libFuzzer runtime is" \
		     "missing: on Debian the libclang-rt-dev package): $(head -n 1 "$_t/log")"
	fi
	rm -rf "$_t"
	return 0
}

# The fuzz configuration: clang --enable-fuzzing, then 'make fuzz' (builds
# the harnesses, fuzzes each from its committed corpus and reproducers).
# The harnesses fuzz at nice DIO_FUZZ_NICE (default 19; their build does
# not): a harness fuzzes for its seconds with whatever CPU it gets, so
# beside the tests it gets what they leave idle (waiting for the disk, a
# guest, a network) and takes almost nothing from them (each harness's
# runs are printed).
fuzz_config() {
	dir=$root/fuzz
	say "fuzz: configure CC=clang --enable-fuzzing"
	rm -rf "$dir" && mkdir -p "$dir" || return 1
	(cd "$dir" && "$src/configure" -q --enable-werror --enable-fuzzing CC=clang) || return 1
	say "fuzz: make fuzz (${DIO_FUZZ_SECONDS:-60} s a harness, two at a time, at nice ${DIO_FUZZ_NICE:-19})"
	(cd "$dir" && DIO_FUZZ_NICE=${DIO_FUZZ_NICE:-19} make -s -j"$jobs" fuzz)
}

san="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all"

# One job of the run: a configuration.  Its output goes to
# $root/JOB.out; it ends by writing JOB.counts ("passed failed skipped")
# and JOB.failed (the names of what failed, or nothing).
job() {
	failed="" tot_pass=0 tot_fail=0 tot_skip=0
	DIO_RUN_CONFIG=$1
	export DIO_RUN_CONFIG
	case $1 in
	gcc)
		use_ccache "$root/gcc"     # (distcheck's paths are relative)
		gcc_config || failed="$failed gcc"
		;;
	clang)
		if command -v clang >/dev/null 2>&1; then
			# The Slurm cluster: gcc's (pmix) and mpich's (pmi2).
			DIO_SLURM=skip DIO_SCRIPTS=placed \
			run_config clang CC=clang || failed="$failed clang"
		else
			echo "SKIP: clang configuration: clang is not installed"
		fi
		;;
	sanitize)
		ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		DIO_SLURM=skip run_config sanitize CC=gcc CFLAGS="$san" LDFLAGS="-fsanitize=address,undefined" ||
			failed="$failed sanitize"
		;;
	posix)
		use_ccache "$src"
		DIO_SLURM=skip run_config posix CC=gcc --with-backend=posix --with-crypto=no || failed="$failed posix"
		;;
	nonroot)
		use_ccache "$src"          # (the user's own: nonroot_config)
		nonroot_config || failed="$failed nonroot"
		;;
	mpich)
		# The other configurations use the default MPI (Open MPI where
		# both are installed); this one builds against MPICH and runs
		# the MPI tests only (and that the MPI builds link MPICH).
		if command -v mpicc.mpich >/dev/null 2>&1; then
			use_ccache "$src"
			DIO_TESTS="tests/sync-write-mpi.sh tests/sync-write-mpi-job.sh tests/sync-write-mpi-keep.sh tests/dio-dd-mpi.sh tests/tools-mpi-link.sh tests/sync-write-slurm.sh" \
			DIO_NO_CHECK_PROGRAMS=1 \
			run_config mpich CC=gcc --with-mpi=mpich || failed="$failed mpich"
		else
			echo "SKIP: mpich configuration: MPICH is not installed (libmpich-dev)"
		fi
		;;
	debian)
		if [ "$(id -u)" -ne 0 ]; then
			echo "SKIP: debian configuration: it needs root (debootstrap, chroot)"
		else
			say "debian: tests/debian-packages.sh (build, lintian, install on a fresh root)"
			DIO_DEBIAN_WORK=$root/debian \
			DIO_DEBOOTSTRAP_CACHE=${DIO_DEBOOTSTRAP_CACHE:-$root/debootstrap-cache} \
			DEB_BUILD_OPTIONS=nocheck \
				sh "$top/tests/debian-packages.sh"
			# One test: counted with the suites' tests.
			case $? in
			0) tot_pass=$((tot_pass + 1)) ;;
			77) tot_skip=$((tot_skip + 1)) ;;
			*) tot_fail=$((tot_fail + 1)); failed="$failed debian" ;;
			esac
		fi
		;;
	fuzz)
		why=$(fuzz_unable)
		if [ -n "$why" ]; then
			echo "SKIP: fuzz configuration: $why"
		else
			fuzz_config || failed="$failed fuzz"
		fi
		;;
	esac
	echo "$tot_pass $tot_fail $tot_skip" >"$root/$1.counts"
	echo "$failed" >"$root/$1.failed"
}

# The jobs, longest first (gcc's suite holds the power-cut test's
# 816 cuts), DIO_CONFIG_JOBS (default 4) at a time: they share nothing
# but the CPUs and the qemu guests' slots (tests/qemu/run-guest.sh: one
# guest per CPU).  (Five at a time took longer on 2 CPUs, 1820 s against
# 1575, and the MPI tests' moments were missed.)  The package's job,
# which mostly waits for the network (debootstrap, apt), comes early.
# The fuzz job takes no slot: it starts at once, and past its build its
# harnesses fuzz at nice 19 (DIO_FUZZ_NICE), on the CPU the others leave.
# (In a slot at nice 5 it held the slot 610 s and took 279 CPU s from the
# tests; with its build at nice 19 too, configure alone took 378 s and
# its fuzzing came last.)  Each job's output is shown whole when it ends.
list=""
for c in fuzz gcc sanitize clang debian nonroot posix mpich; do
	case " $configs " in
	*" $c "*) list="$list $c" ;;
	esac
done
mkdir -p "$root" || { echo "cannot create $root"; exit 1; }
# The jobs stay in the run's process group: a ^C reaches them all, and a
# run stopped with TERM stops its group (jobs and what they started).
trap 'trap - INT; kill -INT 0 2>/dev/null; exit 130' INT
trap 'trap - TERM; kill -TERM 0 2>/dev/null; exit 143' TERM
waiting=$list running="" times=""
# the running jobs that hold a slot: all but fuzz
in_slots() {
	_n=0
	for _j in $running; do [ "$_j" = fuzz ] || _n=$((_n + 1)); done
	echo "$_n"
}
while [ -n "$waiting" ] || [ -n "$running" ]; do
	# Start what fits (the fuzz job needs no slot).
	while [ -n "$waiting" ]; do
		set -- $waiting
		[ "$1" = fuzz ] || [ "$(in_slots)" -lt "$slots" ] || break
		c=$1; shift; waiting=$*
		rm -f "$root/$c.counts" "$root/$c.failed" "$root/$c.out" "$root/$c.status" "$root/$c.cpu" "$root/$c.times"
		say "$c: started"
		# JOB.status says that it has ended.
		(
			trap - EXIT INT TERM
			(job "$c") >"$root/$c.out" 2>&1
			_st=$?
			# the CPU seconds of the job and all it waited for
			# (times in this shell: a pipe would run it in a child)
			times >"$root/$c.times"
			awk 'NR == 2 { for (i = 1; i <= 2; i++) {
				split($i, t, "m"); s += t[1] * 60 + t[2] } printf "%d\n", s }' \
				"$root/$c.times" >"$root/$c.cpu"
			echo $_st >"$root/$c.status"
		) &
		eval "pid_$c=$!"
		eval "start_$c=$(date +%s)"
		running="$running $c"
	done
	sleep 2
	# Report what has ended.
	still=""
	for c in $running; do
		if [ ! -f "$root/$c.status" ]; then
			still="$still $c"
			continue
		fi
		eval "wait \$pid_$c" 2>/dev/null
		eval "_s=\$start_$c"
		c_s=$(($(date +%s) - _s))
		c_cpu=$(cat "$root/$c.cpu" 2>/dev/null)
		say "$c: ended, $c_s s, cpu ${c_cpu:-?} s; its output:"
		cat "$root/$c.out"
		[ -f "$root/$c.counts" ] || echo "$c: the job ended without its counts (killed?)"
		echo "($c took $c_s s, cpu ${c_cpu:-?} s)"
		times="$times $c $c_s s (cpu ${c_cpu:-?} s),"
	done
	running=$still
done

failed="" tot_pass=0 tot_fail=0 tot_skip=0
for c in $list; do
	if [ -f "$root/$c.counts" ]; then
		read -r p f s <"$root/$c.counts"
		tot_pass=$((tot_pass + p)) tot_fail=$((tot_fail + f)) tot_skip=$((tot_skip + s))
		failed="$failed$(cat "$root/$c.failed")"
	else
		failed="$failed $c"
	fi
done

# The slowest ten tests of all configurations, from the "time:" line
# tests/limit.sh ends each test's log with (gcc's: the copies that
# distcheck left, see gcc_config).
slowest() {
	for _c in $list; do
		[ -d "$root/$_c/tests" ] || continue
		find "$root/$_c/tests" -name '*.log' ! -name test-suite.log -exec \
			sed -n "s|^time: \(.*\) \([0-9][0-9]*\) s, cpu \([0-9][0-9]*\) s\$|\2 \3 $_c \1|p" {} + 2>/dev/null
	done | sort -k1,1nr | head -n 10 |
		awk '{ printf "  %6d s  (cpu %4d s)  %-9s %s\n", $1, $2, $3, $4 }'
}

say "summary"
echo "configurations: $configs"
echo "seconds per configuration:${times%,}"
if [ -n "$ccache_dir" ]; then
	CCACHE_DIR=$ccache_dir/cache ccache --print-stats 2>/dev/null | awk '
		$1 ~ /^(direct|preprocessed)_cache_hit$/ { h += $2 }
		$1 == "cache_miss" { m = $2 }
		END { printf "ccache (gcc, nonroot, posix, mpich): %d compilations found in the cache, %d compiled\n", h, m }'
fi
echo "the slowest ten tests:"
slowest
[ -n "$failed" ] && echo "failed:$failed"
echo "$tot_pass passed, $tot_fail failed, $tot_skip skipped"
[ -z "$failed" ] && [ "$tot_fail" -eq 0 ]
