# SPDX-License-Identifier: BSD-2-Clause
# debian-root-lib.sh -- sourced by the tests that work in a fresh minimal
# Debian root (tests/fresh-root.sh, tests/debian-packages.sh): make one
# with debootstrap, mount what programs need in it, run commands there, and
# take it all down again.  Root only.
#
#   droot_mirror                 the Debian archive to use: DIO_MIRROR, or
#                                the first one this machine's apt sources
#                                name (not the security archive)
#   droot_make DIR SUITE MIRROR LOG [CACHE]
#                                a new `debootstrap --variant=minbase` root
#                                in DIR (what was there is removed), with
#                                empty apt lists; debootstrap's output in
#                                LOG.  With CACHE (a directory), the root
#                                is unpacked from CACHE/minbase-SUITE-ARCH.tar
#                                when that is younger than
#                                DIO_DEBOOTSTRAP_MAX_DAYS (default 30) days,
#                                and saved there after a debootstrap
#   droot_mount DIR              /proc, /dev (a recursive bind, as a slave:
#                                nothing unmounted in DIR reaches the host's
#                                /dev) and /sys in DIR; the host's
#                                resolv.conf
#   droot_umount DIR             unmount everything mounted below DIR (those,
#                                and what programs run there mounted)
#   droot_remove DIR             unmount, then delete DIR, never across a
#                                mount: refused while anything is mounted
#                                below DIR
#   droot_run DIR [VAR=VALUE...] CMD [ARG...]
#                                CMD in DIR with a clean environment: PATH,
#                                HOME=/root and the VARs given
# droot_why holds the reason when one of them fails.

droot_why=

droot_mirror() {
	if [ -n "${DIO_MIRROR:-}" ]; then
		echo "$DIO_MIRROR"
		return 0
	fi
	cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		/etc/apt/sources.list.d/*.sources 2>/dev/null |
		sed -n 's/^deb  *\(http[^ ]*\) .*/\1/p; s/^URIs: *\(http[^ ]*\).*/\1/p' |
		grep -v security | head -n 1
}

droot_make() {
	_dr_dir=$1 _dr_suite=$2 _dr_mirror=$3 _dr_log=$4 _dr_cache=${5:-}
	droot_remove "$_dr_dir" || return 1
	_dr_tar=
	if [ -n "$_dr_cache" ]; then
		_dr_tar=$_dr_cache/minbase-$_dr_suite-$(dpkg --print-architecture).tar
		if [ -f "$_dr_tar" ] && [ -n "$(find "$_dr_tar" \
			-mtime -"${DIO_DEBOOTSTRAP_MAX_DAYS:-30}" 2>/dev/null)" ]; then
			mkdir -p "$_dr_dir" && tar -C "$_dr_dir" -xpf "$_dr_tar" &&
				echo "fresh root: unpacked $_dr_tar (debootstrap --variant=minbase" \
				     "$_dr_suite of $(date -r "$_dr_tar" '+%Y-%m-%d'))" &&
				return 0
			droot_why="cannot unpack $_dr_tar"
			return 1
		fi
	fi
	echo "fresh root: debootstrap --variant=minbase $_dr_suite $_dr_dir $_dr_mirror"
	if ! debootstrap --variant=minbase "$_dr_suite" "$_dr_dir" "$_dr_mirror" >"$_dr_log" 2>&1; then
		tail -n 20 "$_dr_log"
		droot_why="debootstrap failed (its output: $_dr_log)"
		return 1
	fi
	rm -rf "$_dr_dir"/var/lib/apt/lists/* "$_dr_dir"/var/cache/apt/*.bin
	[ -n "$_dr_tar" ] || return 0
	# Saved under a temporary name first: a run stopped half way leaves
	# no truncated cache behind.
	if mkdir -p "$_dr_cache" && tar -C "$_dr_dir" --one-file-system -cpf "$_dr_tar.new" . &&
	   mv "$_dr_tar.new" "$_dr_tar"; then
		echo "fresh root: saved as $_dr_tar"
	else
		rm -f "$_dr_tar.new"
		echo "fresh root: note: could not save it as $_dr_tar"
	fi
	return 0
}

droot_mount() {
	if mount -t proc proc "$1/proc" && mount --rbind /dev "$1/dev" &&
	   mount --make-rslave "$1/dev" && mount -t sysfs sys "$1/sys"; then
		cp /etc/resolv.conf "$1/etc/resolv.conf" 2>/dev/null
		return 0
	fi
	droot_why="cannot mount /proc, /dev and /sys in $1"
	droot_umount "$1"
	return 1
}

# The mount points below DIR, deepest first (the kernel's list: what
# mountpoint(1) cannot see, such as a /dev/pts under a bind of /dev).
droot_mounts() {
	_dr_abs=$(cd "$1" 2>/dev/null && pwd -P) || return 0
	awk -v d="$_dr_abs/" 'index($2 "/", d) == 1 && $2 "/" != d { print $2 }' /proc/mounts |
		sort -r
}

droot_umount() {
	[ -d "$1" ] || return 0
	# Deepest first: what droot_mount made (with /dev's own mounts below
	# it), and what programs run there left (ip netns binds DIR/run/netns).
	for _dr_m in $(droot_mounts "$1"); do
		umount "$_dr_m" 2>/dev/null || umount -l "$_dr_m"
	done
	return 0
}

droot_remove() {
	[ -e "$1" ] || return 0
	droot_umount "$1"
	_dr_left=$(droot_mounts "$1")
	if [ -n "$_dr_left" ]; then
		droot_why="still mounted below $1, not deleted: $(echo $_dr_left)"
		echo "$droot_why" >&2
		return 1
	fi
	rm -rf --one-file-system "$1"
}

droot_run() {
	_dr_dir=$1; shift
	chroot "$_dr_dir" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root "$@"
}
