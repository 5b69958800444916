#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# fresh-root.sh -- the README's commands, verbatim, on a bare Debian: a
# debootstrap --variant=minbase root (no sudo, no git, empty apt lists),
# as root and as a user with sudo.  Opt-in (not part of `make check`): it
# needs root, debootstrap and Debian's archive, and takes a while.
#
#   tests/fresh-root.sh [root|sudo|deb-root|deb-sudo|all]   (default: all)
#
# root: as root in the chroot, command 1, then command 2; then the
#       README's install lines "as root" (make install && ldconfig), and the
#       installed sync-write runs.
# sudo: sudo is installed and a user 'alice' may use it; the apt lists are
#       emptied again; as alice: command 1, command 2 without root, then
#       `sudo tests/run-all.sh`; every file in her checkout must be hers;
#       then the install lines "as a user who may use sudo"; afterwards
#       alice must be able to delete her checkout.
# deb-root: as root, the README's Debian package lines "as root" (build
#       dependencies, dpkg-buildpackage, apt-get install of the packages,
#       then of directio-tools-mpi), verbatim; the packages are installed,
#       sync-write runs, and the README's MPI line runs as printed (with
#       the two variables Open MPI wants of root, as the README says).
# deb-sudo: the same lines "as a user who may use sudo", as alice, and the
#       MPI line as alice.
#
# The commands are read from the README by tests/doc-commands.sh (root's
# after a '# ' prompt, a user's after '$ '), so this tests what the README
# says.  Each run's output is in WORK/<mode>.log.
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
case $mode in root|sudo|deb-root|deb-sudo|all) ;;
*) die "unknown mode '$mode' (allowed: root, sudo, deb-root, deb-sudo, all)" ;; esac
[ "$(id -u)" -eq 0 ] || { echo "SKIP: fresh-root.sh needs root (debootstrap, chroot)"; exit 77; }
command -v debootstrap >/dev/null 2>&1 ||
	{ echo "SKIP: no debootstrap (apt-get install debootstrap)"; exit 77; }

mirror=$(droot_mirror)
[ -n "$mirror" ] || die "no Debian archive in this machine's apt sources: set DIO_MIRROR"

# The README's commands, as printed: tests/doc-commands.sh reads them
# (runner 'ci': the two commands; 'root': the install and package lines,
# in blocks of consecutive lines, each block root's ('#') or a sudo
# user's ('$'); 'mpi': the MPI line).
doclist() { top_srcdir=$src top_builddir=$src sh "$src/tests/doc-commands.sh" --list "$1" | grep '^README:'; }
cmd1=$(doclist ci | cut -f4 | sed -n 's/^[$#] \(\.ci\/install-deps && .*\)$/\1/p' | head -n 1)
cmd2=$(doclist ci | cut -f4 | sed -n 's/^[$#] \(\.ci\/install-deps tests && tests\/run-all\.sh\)$/\1/p' | head -n 1)
[ -n "$cmd1" ] && [ -n "$cmd2" ] || die "cannot find the two commands in README"
echo "command 1: $cmd1"
echo "command 2: $cmd2"
# The install lines: "N root|sudo COMMAND", N the block's kind (1: build
# and make install, 2: the Debian packages, 3: directio-tools-mpi).
install_lines() {
	doclist root | awk -F'\t' '
	{
		split($1, a, ":"); ln = a[2] + 0
		if (ln != last + 1) n++
		last = ln
		who[NR] = substr($4, 1, 1) == "#" ? "root" : "sudo"
		cmd[NR] = substr($4, 3); blk[NR] = n
		if (cmd[NR] ~ /make install/) kind[n] = 1
		else if (cmd[NR] ~ /directio-tools-mpi/) kind[n] = 3
		else if (cmd[NR] ~ /dpkg-buildpackage/) kind[n] = 2
	}
	END { for (i = 1; i <= NR; i++) print kind[blk[i]], who[i], cmd[i] }'
}
# lines N LABEL: block N's commands for LABEL, one a line
lines() { install_lines | awk -v n="$1" -v l="$2" '$1 == n && $2 == l { $1 = $2 = ""; sub(/^  /, ""); print }'; }
for b in "1 root" "1 sudo" "2 root" "2 sudo" "3 root" "3 sudo"; do
	[ -n "$(lines $b)" ] || die "no install lines '$b' in README's Install section"
done
# run_lines N LABEL FUNCTION: block N's lines for LABEL, each verbatim
# through FUNCTION (which runs one command), in order; stops at a failure
run_lines() {
	lines "$1" "$2" >"$work/lines"
	while IFS= read -r _l; do
		echo "== $_l"
		_t=$(date +%s)
		"$3" "$_l" </dev/null || { echo "== exit $?: $_l"; return 1; }
		echo "== ok, $(( $(date +%s) - _t )) s"
	done <"$work/lines"
}
mpiline=$(doclist mpi | cut -f4 | sed -n 's/^[$#] \(mpirun -np [0-9]* sync-write-mpi .*\)$/\1/p' | head -n 1)
[ -n "$mpiline" ] || die "no 'mpirun -np N sync-write-mpi' line in README"

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
		echo "== as root, the install lines"
		in_src() { droot_run "$r" $fresh_env sh -c "cd /src && $1"; }
		# (root's PATH of a Debian login, which has /usr/local's)
		run_lines 1 root in_src &&
			droot_run "$r" PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
				sh -c 'cd /tmp && sync-write --version && sync-write -q -m fsync -s 4k -n 8'
		s3=$?
		echo "== install as root, the installed sync-write: exit $s3"
		[ $s1 -eq 0 ] && [ $s2 -eq 0 ] && [ $s3 -eq 0 ]
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
		echo "== as alice, the install lines"
		run_lines 1 sudo as_alice &&
			as_alice 'cd /tmp && sync-write --version && sync-write -q -m fsync -s 4k -n 8' &&
			echo "== install with sudo, the installed sync-write: ok" || s3=1
		as_alice "cd .. && rm -rf src" && echo "== alice deleted her checkout" || s3=1
		[ $s1 -eq 0 ] && [ $s2 -eq 0 ] && [ $s3 -eq 0 ]
	} >"$log" 2>&1
	st=$?
	grep '^== \|passed, .* failed' "$log"
	droot_umount "$r"
	[ $st -eq 0 ] || { echo "fresh-root: sudo FAILED (see $log)"; status=1; }
}

# The Debian packages as the README builds and installs them: block 2's
# lines, then block 3's, each verbatim in the checkout ($2: runs one
# command there); then the packages, the tools and the MPI line.
deb_lines() {  # $1 root|sudo, $2 the function that runs a command in the checkout
	run_lines 2 "$1" "$2" && run_lines 3 "$1" "$2"
}
deb_check() {  # $1: runs a command in the root as the user of the mode
	_st=0
	for _p in libdirectio1 libdirectio-dev directio-tools directio-tools-mpi; do
		_v=$(droot_run "$r" dpkg-query -W -f='${Status}' "$_p" 2>&1)
		[ "$_v" = "install ok installed" ] && echo "== $_p: installed" ||
			{ echo "== $_p: '$_v'"; _st=1; }
	done
	"$1" 'cd /tmp && sync-write --version && sync-write -q -m fsync -s 4k -n 8' || _st=1
	echo "== the README's MPI line: $mpiline"
	"$1" "mkdir -p /tmp/mpi-line && cd /tmp/mpi-line && $mpiline" && echo "== ok" ||
		{ echo "== the MPI line failed"; _st=1; }
	return $_st
}

run_deb_root() {
	make_root deb-root
	r=$work/deb-root
	copy_project "$r" /src
	log=$work/deb-root.log
	in_src() { droot_run "$r" $fresh_env sh -c "cd /src && $1"; }
	as_root() {
		droot_run "$r" OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 sh -c "$1"
	}
	{ deb_lines root in_src && deb_check as_root; } >"$log" 2>&1
	st=$?
	grep '^== ' "$log"
	droot_umount "$r"
	[ $st -eq 0 ] || { echo "fresh-root: deb-root FAILED (see $log)"; status=1; }
}

run_deb_sudo() {
	make_root deb-sudo
	r=$work/deb-sudo
	log=$work/deb-sudo.log
	as_alice() {
		chroot "$r" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/home/alice \
			$fresh_env /usr/sbin/runuser -u alice -- sh -c "$1"
	}
	in_src() { as_alice "cd /home/alice/src && $1"; }
	{
		echo "== set-up: sudo and the user alice, then empty apt lists again"
		droot_run "$r" sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -qq --no-install-recommends sudo >/dev/null &&
			useradd -m -s /bin/sh alice &&
			echo "alice ALL=(ALL) NOPASSWD:ALL" >/etc/sudoers.d/alice &&
			chmod 440 /etc/sudoers.d/alice && rm -rf /var/lib/apt/lists/*' || exit 1
		copy_project "$r" /home/alice/src
		droot_run "$r" chown -R alice:alice /home/alice/src || exit 1
		deb_lines sudo in_src && deb_check as_alice
	} >"$log" 2>&1
	st=$?
	grep '^== ' "$log"
	droot_umount "$r"
	[ $st -eq 0 ] || { echo "fresh-root: deb-sudo FAILED (see $log)"; status=1; }
}

[ -n "$fresh_env" ] && echo "fresh-root: around the commands: $fresh_env"
case $mode in
root) run_root ;;
sudo) run_sudo ;;
deb-root) run_deb_root ;;
deb-sudo) run_deb_sudo ;;
all) run_root; run_sudo; run_deb_root; run_deb_sudo ;;
esac
[ $status -eq 0 ] && echo "fresh-root: PASS ($mode)"
exit $status
