#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# fresh-root.sh -- the README's two commands, verbatim, on a bare Debian:
# a debootstrap --variant=minbase root (no sudo, no git, empty apt lists),
# once as root and once as a user with sudo.  Opt-in (not part of
# `make check`): it needs root, debootstrap and Debian's archive, and takes
# a while.
#
#   tests/fresh-root.sh [root|sudo|all]      (default: all)
#
# root: as root in the chroot, command 1, then command 2.
# sudo: sudo is installed and a user 'alice' may use it; the apt lists are
#       emptied again; as alice: command 1, command 2 without root, then
#       `sudo tests/run-all.sh`; afterwards alice must be able to delete every
#       file in her checkout.
#
# The commands are read from the README (the indented lines of its Quick
# start section that run .ci/install-deps and tests/run-all.sh), so this
# tests what the README says.  Each run's output is in WORK/<mode>.log.
#
# Environment: DIO_FRESH_WORK (default /var/tmp/dio-fresh-root), DIO_SUITE
# (Debian suite, default bookworm), DIO_MIRROR (default: the first Debian
# archive this machine's apt sources name), DIO_DEBOOTSTRAP_CACHE (unset: a
# new debootstrap each time; a directory: the root is kept there as a
# tarball and unpacked on the next run, see tests/debian-root-lib.sh), and
# DIO_FRESH_ENV: variables set around the verbatim commands, e.g.
# DIO_FRESH_ENV='DIO_CONFIGS=gcc DIO_QEMU=skip' for a quicker run of the
# suite (say so when you report).
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/tests/debian-root-lib.sh"
mode=${1:-all}
work=${DIO_FRESH_WORK:-/var/tmp/dio-fresh-root}
suite=${DIO_SUITE:-bookworm}
fresh_env=${DIO_FRESH_ENV:-}

die() { echo "fresh-root: $*" >&2; exit 1; }
case $mode in root|sudo|all) ;; *) die "unknown mode '$mode' (allowed: root, sudo, all)" ;; esac
[ "$(id -u)" -eq 0 ] || { echo "SKIP: fresh-root.sh needs root (debootstrap, chroot)"; exit 77; }
command -v debootstrap >/dev/null 2>&1 ||
	{ echo "SKIP: no debootstrap (apt-get install debootstrap)"; exit 77; }

mirror=$(droot_mirror)
[ -n "$mirror" ] || die "no Debian archive in this machine's apt sources: set DIO_MIRROR"

# The README's two commands, as printed.
cmd1=$(sed -n 's/^    \(\.ci\/install-deps && .*\)$/\1/p' "$src/README" | head -n 1)
cmd2=$(sed -n 's/^    \(\.ci\/install-deps tests && tests\/run-all\.sh\)$/\1/p' "$src/README" | head -n 1)
[ -n "$cmd1" ] && [ -n "$cmd2" ] || die "cannot find the two commands in README"
echo "command 1: $cmd1"
echo "command 2: $cmd2"

mkdir -p "$work" || die "cannot create $work"
status=0

# A fresh minimal root with the project's files (as in a release or a
# checkout without git: no .git) in DIR/src or the user's home.
make_root() {
	r=$work/$1
	droot_make "$r" "$suite" "$mirror" "$work/$1-debootstrap.log" "${DIO_DEBOOTSTRAP_CACHE:-}" ||
		die "$droot_why"
	command -v sudo >/dev/null 2>&1 && [ -x "$r/usr/bin/sudo" ] && die "the new root has sudo"
	[ -x "$r/usr/bin/git" ] && die "the new root has git"
	droot_mount "$r" || die "$droot_why"
}

copy_project() {  # $1 root, $2 directory inside it
	mkdir -p "$1$2"
	if command -v git >/dev/null 2>&1 && git -C "$src" rev-parse >/dev/null 2>&1; then
		(cd "$src" && git ls-files -z | xargs -0 tar -cf - --) | tar -C "$1$2" -xf -
	else
		(cd "$src" && tar -cf - --exclude=./build --exclude=./.git .) | tar -C "$1$2" -xf -
	fi
}

run_root() {
	make_root root
	r=$work/root
	copy_project "$r" /src
	log=$work/root.log
	{
		echo "== as root: command 1"
		t0=$(date +%s)
		droot_run "$r" $fresh_env sh -c "cd /src && $cmd1"
		s1=$?
		t1=$(date +%s)
		echo "== command 1: exit $s1, $((t1 - t0)) s"
		droot_run "$r" $fresh_env sh -c "cd /src && $cmd2"
		s2=$?
		echo "== command 2: exit $s2, $(( $(date +%s) - t1 )) s"
		[ $s1 -eq 0 ] && [ $s2 -eq 0 ]
	} >"$log" 2>&1
	st=$?
	grep '^== \|passed, .* failed' "$log"
	droot_umount "$r"
	[ $st -eq 0 ] || { echo "fresh-root: root FAILED (see $log)"; status=1; }
}

run_sudo() {
	make_root sudo
	r=$work/sudo
	log=$work/sudo.log
	in_root() { droot_run "$r" "$@"; }
	as_alice() {
		chroot "$r" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/home/alice \
			$fresh_env /usr/sbin/runuser -u alice -- sh -c "cd /home/alice/src && $1"
	}
	{
		echo "== set-up: sudo and the user alice, then empty apt lists again"
		in_root sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -qq --no-install-recommends sudo >/dev/null &&
			useradd -m -s /bin/sh alice &&
			echo "alice ALL=(ALL) NOPASSWD:ALL" >/etc/sudoers.d/alice &&
			chmod 440 /etc/sudoers.d/alice && rm -rf /var/lib/apt/lists/*' || exit 1
		copy_project "$r" /home/alice/src
		in_root chown -R alice:alice /home/alice/src || exit 1
		t0=$(date +%s)
		echo "== as alice: command 1"
		as_alice "$cmd1"
		s1=$?
		t1=$(date +%s)
		echo "== command 1: exit $s1, $((t1 - t0)) s"
		echo "== as alice, without root: command 2"
		as_alice "$cmd2"
		s2=$?
		t2=$(date +%s)
		echo "== command 2 without root: exit $s2, $((t2 - t1)) s"
		# The packages are there now: the README's way to run the suite
		# as root from a user's checkout.
		echo "== as alice, with sudo: sudo tests/run-all.sh"
		as_alice "sudo tests/run-all.sh"
		s3=$?
		echo "== command 2 with sudo: exit $s3, $(( $(date +%s) - t2 )) s"
		left=$(in_root find /home/alice/src ! -user alice | head -n 5)
		if [ -n "$left" ]; then
			echo "== files alice does not own after the sudo run:"; echo "$left"; s3=1
		else
			echo "== every file in alice's checkout is hers"
		fi
		as_alice "cd .. && rm -rf src" && echo "== alice deleted her checkout" || s3=1
		[ $s1 -eq 0 ] && [ $s2 -eq 0 ] && [ $s3 -eq 0 ]
	} >"$log" 2>&1
	st=$?
	grep '^== \|passed, .* failed' "$log"
	droot_umount "$r"
	[ $st -eq 0 ] || { echo "fresh-root: sudo FAILED (see $log)"; status=1; }
}

[ -n "$fresh_env" ] && echo "fresh-root: around the commands: $fresh_env"
case $mode in
root) run_root ;;
sudo) run_sudo ;;
all) run_root; run_sudo ;;
esac
[ $status -eq 0 ] && echo "fresh-root: PASS ($mode)"
exit $status
