#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# doc-commands.sh -- every command that README and doc/*.md show is run,
# as printed.
#
# A command is a line of a code block (indented by four spaces or a tab,
# or between ``` fences) that starts with a prompt: "$ " for any user,
# "# " for root.  A line that ends in a backslash goes on on the next.
# The lines after a command, up to the next command or the end of the
# block, are its output; an output line "exit N" says the command ends
# with status N (0 otherwise).  Nothing else in a document is a command.
#
# Each command has one place where it runs (its runner, chosen by
# runner() below from what the command needs):
#   here     this test: the commands of a document in the order it shows
#            them, in one new directory (a reader following the document),
#            the build's tools first on PATH; root's ('#') only as root
#            (SKIP otherwise), in a mount namespace of their own
#   mpi      tests/sync-write-mpi.sh: mpirun of the MPI the build was
#            configured with, the ranks on this host
#   hosts    tests/sync-write-mpi.sh too, on its two test hosts h1 and h2
#            (network namespaces; a host file 'hosts' names them)
#   slurm    tests/sync-write-slurm.sh: srun and sbatch on the Slurm
#            cluster it makes on the test hosts (as root)
#   guest    tests/qemu/guest-doc-commands.sh, in the qemu test guest,
#            whose SCSI disks and loop devices the commands name
#            (tests/doc-commands-qemu.sh)
#   root     tests/debian-packages.sh (CI's debian job) and
#            tests/fresh-root.sh, in a fresh Debian root: the README's
#            install and package lines
#   ci       the README's two commands: .ci/run runs the second (CI),
#            tests/fresh-root.sh both on a bare Debian root
# A command that fits no runner fails this test, and so does a runner
# that is given no command: a document cannot show a command no test
# runs.  Each runner's test reads its commands from `--list RUNNER`.
#
#   doc-commands.sh              run the 'here' commands
#   doc-commands.sh --list [R]   print FILE:LINE, runner, status, command
#                                (tab-separated), only runner R's
#
# Environment: top_srcdir, top_builddir (as make check sets them).
. "${top_srcdir:-.}/tests/lib.sh"

# extract FILE...: FILE:LINE<TAB>STATUS<TAB>COMMAND for each command.
extract() {
	for _f in "$@"; do
		awk -v file="${_f#"$top_srcdir"/}" '
		function flush() {
			if (cmd != "") print file ":" at "\t" st "\t" cmd
			cmd = ""; st = 0
		}
		/^ *```/ { fenced = !fenced; flush(); next }
		{
			line = $0; code = fenced
			if (!fenced && (line ~ /^    / || line ~ /^\t/)) {
				sub(/^(    |\t)/, "", line); code = 1
			}
			if (!code) { flush(); next }
			if (more) {
				sub(/^ +/, "", line)
				cmd = cmd " " line
				more = sub(/ *\\$/, "", cmd)
				next
			}
			if (line ~ /^[$#] /) {
				flush()
				at = NR; cmd = line
				more = sub(/ *\\$/, "", cmd)
				next
			}
			if (cmd != "" && line ~ /^exit [0-9]+$/) st = substr(line, 6) + 0
		}
		END { flush() }' "$_f"
	done
}

# runner COMMAND (with its prompt): the runner's name, or nothing.
runner() {
	case $1 in
	'$ .ci/install-deps '*) echo ci ;;
	*'make install'*|*apt-get*|*dpkg-buildpackage*|*'autoreconf -fi && ./configure && make') echo root ;;
	*' /dev/sg'[0-9]*|*' /dev/loop'[0-9]*|*'=/dev/loop'[0-9]*|*' /sys/block/loop'[0-9]*) echo guest ;;
	*'mpirun '*'--host'*) echo hosts ;;
	'$ mpirun '*|'# mpirun '*) echo mpi ;;
	'$ srun '*|'# srun '*|'$ sbatch '*|'# sbatch '*) echo slurm ;;
	'$ '*|'# '*)
		# the project's tools, and the set-up a document shows for them
		case ${1#[\$#] } in
		sync-write*|dio-*|mkfs.*|mount\ *|umount\ *|mkdir\ *|truncate\ *) echo here ;;
		esac ;;
	esac
}

list() {
	extract "$top_srcdir/README" "$top_srcdir"/doc/*.md |
	while IFS='	' read -r at st cmd; do
		r=$(runner "$cmd")
		printf '%s\t%s\t%s\t%s\n' "$at" "${r:-none}" "$st" "$cmd"
	done
}

if [ "${1:-}" = --list ]; then
	list | awk -F'\t' -v r="${2:-}" 'r == "" || $2 == r'
	exit 0
fi

[ "$DIO_BACKEND" = linux ] ||
	skip "the documents show Linux (direct I/O, loop devices); this build's backend is $DIO_BACKEND"
own_mounts "$@"
fail=0 ran=0 skipped=0
# (in the build tree: its file system takes direct I/O, which the
# documents' dio-dd and sync-write lines ask for)
work=$(mktemp -d "$top_builddir/tests/doc-commands.XXXXXX") || hard "mktemp -d"
cleanup() {
	# what a document mounted in its directory, deepest first
	if [ "$(id -u)" -eq 0 ]; then
		awk -v w="$work/" 'index($2, w) == 1 { print $2 }' /proc/self/mounts |
			sort -r | while read -r m; do umount "$m"; done
	fi
	rm -rf "$work"
}
trap cleanup EXIT
all=$work/list
list >"$all"
[ -s "$all" ] || hard "no command found in README and doc/*.md: the extraction is broken"

# Every command has a runner, and every runner a command.
while IFS='	' read -r at r st cmd; do
	[ "$r" = none ] && { echo "FAIL $at: no test runs '$cmd' (see doc-commands.sh)"; fail=1; }
done <"$all"
for r in here mpi hosts slurm guest root ci; do
	cut -f2 "$all" | grep -qx "$r" ||
		{ echo "FAIL: no document command for the '$r' runner (stale runner?)"; fail=1; }
done

PATH=$tools:$PATH
export PATH
n=0 doc= dead=
while IFS='	' read -r at r st cmd; do
	[ "$r" = here ] || continue
	n=$((n + 1))
	line=${cmd#[\$#] }
	# a document's commands run in its own directory, in order
	if [ "${at%%:*}" != "$doc" ]; then
		doc=${at%%:*} dead=
		d=$work/$(echo "$doc" | tr '/.' '__')
		mkdir "$d" || hard "mkdir $d"
	fi
	why=
	if [ -n "$dead" ]; then
		why="an earlier command of $doc could not run ($dead)"
	elif [ "${cmd%% *}" = '#' ] && [ "$(id -u)" -ne 0 ]; then
		why="the document shows it as root's"
	fi
	if [ -n "$why" ]; then
		echo "SKIP $at: $line: $why"
		skipped=$((skipped + 1)) dead=${dead:-$at}
		continue
	fi
	(cd "$d" && sh -c "$line") >"$work/out" 2>&1 </dev/null
	got=$?
	ran=$((ran + 1))
	if [ "$got" -eq "$st" ]; then
		echo "ok   $at: $line (exit $got)"
	else
		echo "FAIL $at: $line: exit $got, the document says $st:"
		sed 's/^/    /' "$work/out" | tail -n 30
		fail=1 dead=$at
	fi
done <"$all"
echo "$ran commands run here, $skipped skipped; by other tests:" \
	"$(grep -c '	mpi	\|	hosts	' "$all") by the MPI test," \
	"$(grep -c '	guest	' "$all") in the qemu guest," \
	"$(grep -c '	root	' "$all") in a fresh Debian root, $(grep -c '	ci	' "$all") by CI itself"
[ $ran -gt 0 ] || [ $fail -ne 0 ] || skip "no command could run here ($skipped skipped)"
exit $fail
