#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# debian-packages.sh -- the Debian packages of debian/ as a user gets them:
# built with dpkg-buildpackage from a clean copy of the sources, lintian
# without an error or a warning, and each package installed by itself
# with apt on a fresh minimal Debian root (what it brings is listed, with
# its size):
#  - libdirectio1, then directio-tools: no MPI comes with it (no package
#    of an MPI installed, no MPI library among the tools' libraries); each
#    tool run once, sync-write and dio-dd refusing an MPI launcher;
#  - libdirectio-dev: the manual pages found, the README's example built
#    against the installed library with pkg-config (shared and static);
#  - directio-tools-mpi, on another fresh root: it brings Debian's
#    default MPI and the tools, and a two-rank job of sync-write-mpi and of
#    dio-dd-mpi runs there (mpirun as root, as Open MPI allows it), and
#    man finds their pages.
# Opt-in (not part of `make check`; tests/run-all.sh runs it as root): it
# needs root, dpkg-buildpackage, lintian, debootstrap, the packages' build
# dependencies and Debian's archive, and says SKIP (77) with the reason
# when one is missing.
#
# The sources: `git archive HEAD` in a checkout (what is committed: the
# clean checkout the packages are built from; uncommitted changes are
# named and left out), else a copy of the tree without its build outputs.
# The build is a full one (`dpkg-buildpackage -us -uc`: source and binary
# packages), so that lintian checks the source package too.
#
# Environment:
#   DIO_DEBIAN_WORK        its directory (default /var/tmp/dio-debian-packages):
#                          the build, the packages, lintian's report and the
#                          logs stay there; the root is removed at exit
#   DIO_DEBOOTSTRAP_CACHE  where the minimal root is kept as a tarball for the
#                          next run (default /var/tmp/dio-debootstrap-cache;
#                          tests/debian-root-lib.sh)
#   DIO_SUITE, DIO_MIRROR  the Debian suite (bookworm) and archive (the first
#                          of this machine's apt sources)
#   DEB_BUILD_OPTIONS      for the package build (default: nocheck: run-all.sh
#                          runs the suite in its own configurations); set it
#                          (e.g. to '') to run `make check` in the build
#   DIO_JOBS               parallel jobs of the build (default 2)
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/tests/debian-root-lib.sh"
work=${DIO_DEBIAN_WORK:-/var/tmp/dio-debian-packages}
cache=${DIO_DEBOOTSTRAP_CACHE:-/var/tmp/dio-debootstrap-cache}
suite=${DIO_SUITE:-bookworm}
jobs=${DIO_JOBS:-2}
build_options=${DEB_BUILD_OPTIONS-nocheck}

skip() { echo "SKIP: debian-packages.sh: $*"; exit 77; }
die() { echo "FAIL: $*"; exit 1; }
t0=$(date +%s)
step() { echo "== [$(($(date +%s) - t0)) s] $*"; }

[ "$(id -u)" -eq 0 ] || skip "needs root (debootstrap, chroot, mounts)"
for c in dpkg-buildpackage dpkg-checkbuilddeps dpkg-parsechangelog dpkg-scanpackages lintian \
         debootstrap chroot; do
	command -v "$c" >/dev/null 2>&1 ||
		skip "no $c (apt-get install dpkg-dev debhelper lintian debootstrap)"
done
[ -f "$src/debian/control" ] || skip "no debian/ in $src"
mirror=$(droot_mirror)
[ -n "$mirror" ] || skip "no Debian archive in this machine's apt sources (set DIO_MIRROR)"
mkdir -p "$work" || die "cannot create $work"
# The archive answers (or nothing later can work).
if ! timeout 60 /usr/lib/apt/apt-helper download-file "$mirror/dists/$suite/Release" \
	"$work/Release" >/dev/null 2>&1; then
	skip "Debian's archive is out of reach ($mirror/dists/$suite/Release)"
fi

root=$work/root
cleanup() { droot_remove "$root"; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---------------------------------------------------------------- sources
version=$(dpkg-parsechangelog -l "$src/debian/changelog" -S Version) ||
	die "cannot read debian/changelog"
name=$(dpkg-parsechangelog -l "$src/debian/changelog" -S Source)
build=$work/build
tree=$build/$name-$version
rm -rf "$build" && mkdir -p "$tree" || die "cannot create $tree"
if command -v git >/dev/null 2>&1 && git -C "$src" rev-parse --verify -q HEAD >/dev/null 2>&1 &&
   [ "$(git -C "$src" rev-parse --show-toplevel)" = "$(cd "$src" && pwd -P)" ]; then
	step "sources: git archive $(git -C "$src" rev-parse --short HEAD)"
	dirty=$(git -C "$src" status --porcelain --untracked-files=no)
	[ -z "$dirty" ] || { echo "note: uncommitted changes are not built:"; echo "$dirty" | sed 's/^/  /'; }
	git -C "$src" archive --format=tar HEAD | tar -C "$tree" -xf - || die "git archive failed"
else
	step "sources: a copy of $src (no git)"
	# Not the build directories (tests/run-all.sh's build/, this test's
	# own directory when it is inside), nor .git.
	excl=./.none
	case $work/ in "$src"/*) excl=./${work#"$src"/} ;; esac
	(cd "$src" && tar -cf - --exclude=./.git --exclude=./build --exclude="$excl" .) |
		tar -C "$tree" -xf - || die "copying the sources failed"
	if [ -f "$tree/config.status" ] && [ -f "$tree/Makefile" ]; then
		(cd "$tree" && make -s distclean >/dev/null 2>&1) || die "make distclean failed"
	fi
fi
missing=$(cd "$tree" && dpkg-checkbuilddeps 2>&1) ||
	skip "build dependencies missing: $(echo "$missing" | sed 's/.*nmet build dependencies: //')"

# ---------------------------------------------------------------- build
step "dpkg-buildpackage -us -uc -j$jobs (DEB_BUILD_OPTIONS='$build_options')"
(cd "$tree" && DEB_BUILD_OPTIONS=$build_options dpkg-buildpackage -us -uc -j"$jobs") \
	>"$work/build.log" 2>&1 ||
	{ tail -n 60 "$work/build.log"; die "dpkg-buildpackage failed (log: $work/build.log)"; }
grep -i 'dpkg-gensymbols: warning' "$work/build.log" &&
	die "dpkg-gensymbols warned (log: $work/build.log)"
arch=$(dpkg --print-architecture)
changes=$build/${name}_${version}_$arch.changes
[ -f "$changes" ] || die "no $changes"
debs=""
for p in libdirectio1 libdirectio-dev directio-tools directio-tools-mpi; do
	d=$build/${p}_${version}_$arch.deb
	[ -f "$d" ] || die "no $d"
	debs="$debs $d"
	echo "$(basename "$d"): $(dpkg-deb -f "$d" Depends)"
done

# ---------------------------------------------------------------- lintian
step "lintian --pedantic --display-info $(basename "$changes")"
lintian --pedantic --display-info --show-overrides --fail-on error,warning "$changes" \
	>"$work/lintian.log" 2>&1
st=$?
sed 's/^/  /' "$work/lintian.log"
if [ $st -ne 0 ] || grep -q '^[EW]: ' "$work/lintian.log"; then
	die "lintian reports errors or warnings (exit $st)"
fi
echo "lintian: no error or warning ($(grep -c '^[IP]: ' "$work/lintian.log") info or pedantic" \
     "tags, $(grep -c '^O: ' "$work/lintian.log") overridden)"

fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }

# ---------------------------------------------------------------- root
# new_root: a fresh minimal root in $root (the one before removed), with
# the packages in /tmp/debs, an apt source of them there (as an archive
# would offer them: a package's dependencies on the others are found),
# and apt's lists
new_root() {
	droot_remove "$root" || die "$droot_why"
	droot_make "$root" "$suite" "$mirror" "$work/debootstrap.log" "$cache" || die "$droot_why"
	droot_mount "$root" || die "$droot_why"
	mkdir -p "$root/tmp/debs" && cp $debs "$root/tmp/debs/" &&
		cp "$tree/tests/example.c" "$root/tmp/example.c" &&
		(cd "$root/tmp/debs" && dpkg-scanpackages . /dev/null >Packages 2>/dev/null) &&
		echo 'deb [trusted=yes] file:/tmp/debs ./' >"$root/etc/apt/sources.list.d/directio.list" ||
		die "cannot copy the packages into the root"
	in_root apt-get update -qq >>"$work/install.log" 2>&1 ||
		{ tail -n 30 "$work/install.log"; die "apt-get update failed (log: $work/install.log)"; }
}
in_root() { droot_run "$root" LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }
# installed: the packages installed in the root, sorted
installed() {
	in_root dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' | awk '$1 == "ii" { print $2 }' | sort
}
# install_alone PACKAGE: apt-get install PACKAGE by itself (and what it
# depends on, from Debian's archive and the packages' source); $brought:
# the packages that came, said with their number and installed size
install_alone() {
	installed >"$work/before"
	in_root apt-get install -y --no-install-recommends "$1" >>"$work/install.log" 2>&1 ||
		{ tail -n 30 "$work/install.log"; die "installing $1 alone failed (log: $work/install.log)"; }
	v=$(in_root dpkg-query -W -f='${Version} ${Status}' "$1")
	[ "$v" = "$version install ok installed" ] || die "$1: '$v', want '$version install ok installed'"
	brought=$(installed | comm -13 "$work/before" -)
	kib=$(in_root dpkg-query -W -f='${Installed-Size}\n' $brought | awk '{ s += $1 } END { print s + 0 }')
	echo "$1 alone: $(echo $brought | wc -w) packages, $(awk -v k="$kib" 'BEGIN { printf "%.1f", k / 1024 }') MiB installed: $(echo $brought)"
}
# no_mpi WHEN: no package of an MPI is installed
no_mpi() {
	m=$(installed | grep -E 'mpi|mpich|pmix|hwloc|libfabric|ucx' | tr '\n' ' ')
	[ -z "$m" ] && ok "$1: no MPI package installed" || bad "$1: MPI packages installed: $m"
}

step "a fresh minimal $suite root"
: >"$work/install.log"
new_root
step "apt-get install each package alone (their dependencies from $mirror)"
install_alone libdirectio1
install_alone directio-tools
# ---------------------------------------------------------------- tools
# run NAME WANT-STATUS COMMAND...: run COMMAND in the root, keep its output
# (standard output and error) in $out; bad unless it exits WANT-STATUS.
run() {
	_n=$1 _w=$2; shift 2
	out=$(in_root "$@" 2>&1); _s=$?
	if [ $_s -ne "$_w" ]; then
		bad "$_n: exit $_s (want $_w):"; printf '%s\n' "$out" | sed 's/^/    /'
		return 1
	fi
	return 0
}
has() {  # has NAME PATTERN: $out has a line matching the grep PATTERN
	if printf '%s\n' "$out" | grep -q -- "$2"; then
		ok "$1: $(printf '%s\n' "$out" | grep -- "$2" | head -n 1)"
	else
		bad "$1: no line matching '$2' in:"; printf '%s\n' "$out" | sed 's/^/    /'
	fi
}

step "each tool once"
for t in sync-write dio-rbuf dio-dd dio-info; do
	run "$t --version" 0 "$t" --version && has "$t --version" "$version"
done
run "sync-write" 0 sync-write -q -m fsync,fdatasync -s 4k -n 16 --region=64k -f csv \
	/tmp/sw.dat &&
	has "sync-write fsync" '^[0-9]*,fsync,4096,1,all,ok,16,' &&
	has "sync-write fdatasync" '^[0-9]*,fdatasync,4096,1,all,ok,16,'
run "dio-info" 0 dio-info /tmp && has "dio-info /tmp" '^/tmp: directory' &&
	has "dio-info /tmp" '^  supported  *\(yes\|no\)'
run "dio-dd" 0 dio-dd if=/dev/zero of=/tmp/dd.out bs=1M count=4 &&
	has "dio-dd" '4194304 bytes'
size=$(stat -c %s "$root/tmp/dd.out" 2>/dev/null)
[ "${size:-0}" -eq 4194304 ] && ok "dio-dd wrote 4194304 bytes" ||
	bad "dio-dd: /tmp/dd.out has ${size:-no} bytes, want 4194304"
# No SCSI device in a chroot: a device that is not one is refused.
run "dio-rbuf /dev/null" 1 dio-rbuf /dev/null && has "dio-rbuf /dev/null" 'not a SCSI device'
# No MPI: none installed, none linked; under a launcher (its environment)
# sync-write and dio-dd refuse, naming their MPI builds.
no_mpi "directio-tools and its tools run"
for t in sync-write dio-dd dio-info dio-rbuf; do
	if run "ldd $t" 0 ldd "/usr/bin/$t"; then
		printf '%s\n' "$out" | grep -q 'libmpi' &&
			bad "$t links MPI: $(echo $out)" ||
			ok "$t links no MPI: $(printf '%s\n' "$out" | awk '{ print $1 }' | tr '\n' ' ')"
	fi
done
run "sync-write under mpirun" 2 OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_RANK=0 sync-write -q -n 4 \
	--dir /tmp && has "sync-write under mpirun" 'start sync-write-mpi, the MPI build'
run "dio-dd under mpirun" 2 PMI_SIZE=2 PMI_RANK=0 dio-dd if=/dev/zero of=/tmp/x count=1 &&
	has "dio-dd under mpirun" 'start dio-dd-mpi, the MPI build'
# What the tools would have brought with MPI linked (0.2.0's directio-tools
# needed libopenmpi3): said, not installed.
mpilib=$(dpkg-deb -f "$build/directio-tools-mpi_${version}_$arch.deb" Depends |
	tr ',' '\n' | sed -n 's/^ *\(lib[a-z]*mpi[a-z0-9.-]*\).*/\1/p' | head -n 1)
if [ -n "$mpilib" ]; then
	would=$(in_root apt-get install --assume-no --no-install-recommends "$mpilib" 2>&1 |
		sed -n 's/^\([0-9]* upgraded, [0-9]* newly installed\).*/\1/p; s/^After this operation, \(.*\) of additional.*/\1/p' |
		tr '\n' ' ')
	echo "note: $mpilib (what directio-tools-mpi links, and 0.2.0's directio-tools did) would bring: ${would:-?}"
fi

install_alone libdirectio-dev
for f in usr/include/libdirectio.h usr/lib/*/libdirectio.so.1 usr/lib/*/libdirectio.so \
         usr/lib/*/libdirectio.a usr/lib/*/pkgconfig/libdirectio.pc \
         usr/share/libdirectio/sync-write.schema.json \
         usr/share/libdirectio/sync-write-compare.schema.json; do
	# (A pattern that matches nothing stays as written, and is missing.)
	set -- "$root"/$f
	[ -e "$1" ] || die "not installed: /$f"
done
no_mpi "libdirectio-dev installed"

step "manual pages, and the example built with pkg-config"
in_root sh -c 'apt-get install -y -qq --no-install-recommends gcc libc6-dev pkg-config man-db' \
	>>"$work/install.log" 2>&1 ||
	{ tail -n 30 "$work/install.log"; die "installing gcc, libc6-dev, pkg-config, man-db failed"; }
# NAME:PAGE: man finds NAME's page in PAGE (dio_close's page is a link to
# dio_open's, which dh_installman made of the .so page make install wrote).
for m in libdirectio:libdirectio dio_open:dio_open dio_close:dio_open sync-write:sync-write \
         dio-rbuf:dio-rbuf dio-dd:dio-dd dio-info:dio-info; do
	run "man -w ${m%%:*}" 0 man -w "${m%%:*}" &&
		has "man -w ${m%%:*}" "^/usr/share/man/man[13]/${m#*:}\.[13]\.gz$"
done
# Every function the library exports (its symbols file) has a page.
fns=$(dpkg-deb -I "$build/libdirectio1_${version}_$arch.deb" symbols |
	sed -n 's/^ \(dio_[a-z0-9_]*\)@.*/\1/p')
[ "$(echo $fns | wc -w)" -gt 20 ] || bad "only $(echo $fns | wc -w) functions in libdirectio1's symbols"
if run "man -w for each function" 0 sh -c \
	'n=0; for f; do man -w 3 "$f" >/dev/null 2>&1 || echo "no page: $f"; n=$((n + 1)); done; echo "$n functions"' \
	sh $fns; then
	if printf '%s\n' "$out" | grep -q '^no page: '; then
		bad "man pages:"; printf '%s\n' "$out" | sed 's/^/    /'
	else
		has "man -w 3 for each exported function" "^$(echo $fns | wc -w) functions\$"
	fi
fi
run "pkg-config" 0 pkg-config --cflags --libs libdirectio && has "pkg-config" '-ldirectio'
run "cc example.c" 0 sh -c \
	'cd /tmp && cc -Wall -Wextra -Werror example.c $(pkg-config --cflags --libs libdirectio) -o example' &&
	ok "cc example.c \$(pkg-config --cflags --libs libdirectio)"
run "ldd example" 0 ldd /tmp/example && has "ldd example" 'libdirectio\.so\.1 => /\(usr/\)\{0,1\}lib/[^ ]*/libdirectio\.so\.1 '
if run "example" 0 /tmp/example /tmp/example.dat; then
	has "example" '^direct I/O: [^;]*; sync: O_DSYNC; granularity [0-9]* bytes'
	len=$(printf '%s\n' "$out" | sed -n 's/.*granularity \([0-9]*\) bytes.*/\1/p')
	[ "${len:-0}" -lt 4096 ] && len=4096
	size=$(stat -c %s "$root/tmp/example.dat" 2>/dev/null)
	[ "${size:-0}" -eq $((4 * len)) ] && ok "example wrote 4 records of $len bytes" ||
		bad "example: /tmp/example.dat has ${size:-no} bytes, want $((4 * len))"
fi
# libdirectio.a with what Libs.private names (libdirectio-dev brings it).
run "cc -static example.c" 0 sh -c \
	'cd /tmp && cc -static example.c $(pkg-config --static --cflags --libs libdirectio) -o example-static' &&
	run "example-static" 0 /tmp/example-static /tmp/example-static.dat &&
	has "example-static" '^direct I/O: '

# ---------------------------------------------------------------- MPI
step "directio-tools-mpi alone, on a fresh root"
new_root
install_alone directio-tools-mpi
for p in directio-tools libdirectio1; do
	v=$(in_root dpkg-query -W -f='${Version} ${Status}' "$p")
	[ "$v" = "$version install ok installed" ] && ok "directio-tools-mpi brought $p" ||
		bad "$p with directio-tools-mpi: '$v'"
done
for t in sync-write-mpi dio-dd-mpi; do
	run "$t --version" 0 "$t" --version && has "$t --version" "^$t (libdirectio) $version"
	run "ldd $t" 0 ldd "/usr/bin/$t" && has "ldd $t" 'libmpi[^ ]*\.so'
done
# Two ranks on this root's host, as root (Open MPI wants both variables);
# kept to loopback, whatever interfaces other tests make meanwhile.
mpienv="OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo"
mkdir -p "$root/tmp/mpi"
# shellcheck disable=SC2086
run "mpirun -np 2 sync-write-mpi" 0 $mpienv mpirun -np 2 sync-write-mpi -q -m fdatasync -s 4k \
	-n 20 -f csv --dir /tmp/mpi &&
	has "mpirun -np 2 sync-write-mpi" '^[0-9]*,fdatasync,4096,2,all,ok,40,'
[ -z "$(ls "$root/tmp/mpi")" ] || bad "sync-write-mpi left: $(ls "$root/tmp/mpi")"
# shellcheck disable=SC2086
run "mpirun -np 2 dio-dd-mpi" 0 $mpienv mpirun -np 2 dio-dd-mpi of=/tmp/mpi/out.%r mode=write \
	bs=64k count=16 && has "mpirun -np 2 dio-dd-mpi" '^2097152 bytes'
for r in 0 1; do
	size=$(stat -c %s "$root/tmp/mpi/out.$r" 2>/dev/null)
	[ "${size:-0}" -eq 1048576 ] && ok "dio-dd-mpi rank $r wrote 1048576 bytes" ||
		bad "dio-dd-mpi rank $r: ${size:-no} bytes, want 1048576"
done
in_root sh -c 'apt-get install -y -qq --no-install-recommends man-db' >>"$work/install.log" 2>&1 ||
	{ tail -n 30 "$work/install.log"; die "installing man-db failed"; }
# NAME:PAGE: the MPI builds' pages are the tools' (dh_installman's links).
for m in sync-write-mpi:sync-write dio-dd-mpi:dio-dd; do
	run "man -w ${m%%:*}" 0 sh -c "readlink -f \$(man -w ${m%%:*})" &&
		has "man -w ${m%%:*}" "^/usr/share/man/man1/${m#*:}\.1\.gz$"
done

step "done"
[ $fail -eq 0 ] || die "debian-packages.sh: see above"
echo "PASS: debian-packages.sh ($(($(date +%s) - t0)) s; packages in $build)"
