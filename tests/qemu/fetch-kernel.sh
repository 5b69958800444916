#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# fetch-kernel.sh DESTDIR -- get Debian's stock amd64 kernel and its modules
# into DESTDIR without installing anything.
#
# Installing linux-image-amd64 would pull in initramfs-tools and (here) a
# systemd upgrade, so instead this resolves the concrete package that the
# linux-image-amd64 metapackage depends on (linux-image-X.Y.Z-N-amd64, or
# its -unsigned twin), fetches it with `apt-get download` and unpacks it
# with `dpkg-deb -x`.  Nothing outside DESTDIR is changed.
#
# Result (DESTDIR/kernel.env, sourced by run-guest.sh and mkinitrd.sh):
#   DIO_KVER=6.1.0-56-amd64
#   DIO_VMLINUZ=DESTDIR/<pkg>/boot/vmlinuz-6.1.0-56-amd64
#   DIO_MODDIR=DESTDIR/<pkg>/lib/modules/6.1.0-56-amd64
#
# Idempotent: a package already unpacked (or a .deb already downloaded) in
# DESTDIR is reused; when apt cannot be asked (offline) a previous result
# is reused as it is, and apt is asked again only 12 hours after it last
# was (DESTDIR/apt-asked; DIO_KERNEL_PKG asks nothing).
#
# Environment:
#   DIO_KERNEL_PKG   a package name to use instead of resolving it
#   DIO_KERNEL_META  the metapackage to resolve (default linux-image-amd64)
#
# Exit status: 0 done, 77 the kernel cannot be had here (reason printed),
# 99 usage or unexpected error.
set -u

me=fetch-kernel.sh
die() { echo "$me: ERROR: $*" >&2; exit 99; }
unavailable() { echo "$me: SKIP: $*" >&2; exit 77; }
note() { echo "$me: $*" >&2; }

[ $# -eq 1 ] || die "usage: $me DESTDIR"
dest=$1
mkdir -p "$dest" || die "cannot create $dest"
dest=$(cd "$dest" && pwd) || die "cannot enter $dest"

# The result of a previous run, if it is still whole.
previous_ok() {
	[ -f "$dest/kernel.env" ] || return 1
	(
		# shellcheck disable=SC1091
		. "$dest/kernel.env" || exit 1
		[ -f "$DIO_VMLINUZ" ] && [ -d "$DIO_MODDIR/kernel" ]
	)
}

# Which concrete linux-image package does the metapackage depend on?
resolve_pkg() {
	command -v apt-cache >/dev/null 2>&1 || return 1
	meta=${DIO_KERNEL_META:-linux-image-amd64}
	# "Depends: linux-image-6.1.0-56-amd64 (= 6.1.192-2)" or without version
	apt-cache show --no-all-versions "$meta" 2>/dev/null |
		sed -n 's/^Depends: *//p' | head -n 1 | tr ',' '\n' |
		sed -n 's/^ *\(linux-image-[0-9][^ |]*\).*/\1/p' | head -n 1
}

pkg=${DIO_KERNEL_PKG:-}
# apt asked less than 12 hours ago (DESTDIR/apt-asked): the kernel in
# DESTDIR is current enough; every guest of a test run asked otherwise, a
# second of CPU each.
if [ -z "$pkg" ] && previous_ok && [ -n "$(find "$dest/apt-asked" -mmin -720 2>/dev/null)" ]; then
	note "reusing $(sed -n 's/^DIO_KERNEL_PKGNAME=//p' "$dest/kernel.env") in $dest" \
	     "(apt asked at $(date -r "$dest/apt-asked" +%H:%M))"
	exit 0
fi
if [ -z "$pkg" ]; then
	pkg=$(resolve_pkg) || pkg=
	[ -n "$pkg" ] && asked=1
fi
if [ -z "$pkg" ]; then
	if previous_ok; then
		note "cannot ask apt which kernel is current; reusing $dest/kernel.env"
		exit 0
	fi
	command -v apt-cache >/dev/null 2>&1 ||
		unavailable "no apt-cache: this needs a Debian-like system"
	unavailable "apt knows no ${DIO_KERNEL_META:-linux-image-amd64}" \
		"(run 'apt-get update' first?)"
fi

if previous_ok; then
	(
		# shellcheck disable=SC1091
		. "$dest/kernel.env"
		[ "${DIO_KERNEL_PKGNAME:-}" = "$pkg" ]
	) && { note "reusing $pkg in $dest"; [ -z "${asked:-}" ] || : >"$dest/apt-asked"; exit 0; }
fi

command -v dpkg-deb >/dev/null 2>&1 || unavailable "no dpkg-deb"
command -v apt-get >/dev/null 2>&1 || unavailable "no apt-get"

# Reuse a downloaded .deb of that package, else download it.
find_deb() {
	for f in "$dest/${pkg}"_*.deb; do
		[ -f "$f" ] && { echo "$f"; return 0; }
	done
	return 1
}
deb=$(find_deb) || deb=
if [ -z "$deb" ]; then
	note "downloading $pkg (about 70 MB) into $dest"
	# apt-get download writes into the current directory.  As root it
	# would drop to the _apt user, which cannot write to DESTDIR: keep root.
	log=$dest/apt-download.log
	if ! (cd "$dest" && apt-get download -o APT::Sandbox::User=root \
	    "$pkg") >"$log" 2>&1; then
		sed 's/^/  /' "$log" >&2
		rm -f "$dest/${pkg}"_*.deb
		unavailable "apt-get download $pkg failed (see above)"
	fi
	rm -f "$log"
	deb=$(find_deb) || die "apt-get download $pkg left no .deb in $dest"
fi

# Unpack into a fresh directory, then publish kernel.env last.
root=$dest/$pkg
tmp=$dest/.unpack.$$
rm -rf "$tmp"
trap 'rm -rf "$tmp"' EXIT INT TERM
note "unpacking $(basename "$deb")"
if ! dpkg-deb -x "$deb" "$tmp"; then
	rm -f "$deb"
	die "dpkg-deb -x $deb failed (the file was removed; run again)"
fi
vmlinuz=
for f in "$tmp"/boot/vmlinuz-*; do
	[ -f "$f" ] && vmlinuz=$f
done
[ -n "$vmlinuz" ] || die "$pkg has no /boot/vmlinuz-*"
kver=${vmlinuz##*/vmlinuz-}
[ -d "$tmp/lib/modules/$kver" ] || die "$pkg has no /lib/modules/$kver"
# Packages leave modules.dep to depmod at install time.  mkinitrd.sh reads
# each module's own "depends=" when there is no modules.dep, so depmod
# (kmod) is a nicety here, not a requirement.
if [ ! -f "$tmp/lib/modules/$kver/modules.dep" ] &&
    command -v depmod >/dev/null 2>&1; then
	depmod -b "$tmp" "$kver" || note "depmod -b $tmp $kver failed (ignored)"
fi
rm -rf "$root"
mv "$tmp" "$root" || die "cannot move $tmp to $root"
trap - EXIT INT TERM

cat >"$dest/kernel.env.new" <<EOF
DIO_KERNEL_PKGNAME=$pkg
DIO_KVER=$kver
DIO_VMLINUZ=$root/boot/vmlinuz-$kver
DIO_MODDIR=$root/lib/modules/$kver
EOF
mv "$dest/kernel.env.new" "$dest/kernel.env" || die "cannot write kernel.env"
[ -z "${asked:-}" ] || : >"$dest/apt-asked"
note "kernel $kver ready: $dest/kernel.env"
exit 0
