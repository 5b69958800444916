#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# debian-packages.sh -- the Debian packages of debian/ as a user gets them:
# built with dpkg-buildpackage from a clean copy of the sources, lintian
# without an error or a warning, installed with apt on a fresh minimal
# Debian root, each tool run there once, the manual pages found, and the
# README's example built against the installed library with pkg-config.
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
for c in dpkg-buildpackage dpkg-checkbuilddeps dpkg-parsechangelog lintian debootstrap chroot; do
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
for p in libdirectio1 libdirectio-dev directio-tools; do
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

# ---------------------------------------------------------------- root
step "a fresh minimal $suite root"
droot_make "$root" "$suite" "$mirror" "$work/debootstrap.log" "$cache" || die "$droot_why"
droot_mount "$root" || die "$droot_why"
in_root() { droot_run "$root" LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }
mkdir -p "$root/tmp/debs" && cp $debs "$root/tmp/debs/" &&
	cp "$tree/tests/example.c" "$root/tmp/example.c" || die "cannot copy into the root"

step "apt-get install the three packages (their dependencies from $mirror)"
in_root sh -c 'apt-get update -qq && apt-get install -y -qq --no-install-recommends \
	/tmp/debs/libdirectio1_*.deb /tmp/debs/libdirectio-dev_*.deb \
	/tmp/debs/directio-tools_*.deb' >"$work/install.log" 2>&1 ||
	{ tail -n 30 "$work/install.log"; die "installing the packages failed (log: $work/install.log)"; }
for p in libdirectio1 libdirectio-dev directio-tools; do
	v=$(in_root dpkg-query -W -f='${Version} ${Status}' "$p")
	[ "$v" = "$version install ok installed" ] || die "$p: '$v', want '$version install ok installed'"
done
echo "installed: libdirectio1, libdirectio-dev, directio-tools $version"
for f in usr/include/libdirectio.h usr/lib/*/libdirectio.so.1 usr/lib/*/libdirectio.so \
         usr/lib/*/libdirectio.a usr/lib/*/pkgconfig/libdirectio.pc \
         usr/share/libdirectio/sync-write.schema.json \
         usr/share/libdirectio/sync-write-compare.schema.json; do
	# (A pattern that matches nothing stays as written, and is missing.)
	set -- "$root"/$f
	[ -e "$1" ] || die "not installed: /$f"
done

# ---------------------------------------------------------------- tools
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }
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

step "done"
[ $fail -eq 0 ] || die "debian-packages.sh: see above"
echo "PASS: debian-packages.sh ($(($(date +%s) - t0)) s; packages in $build)"
