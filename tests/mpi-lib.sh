# SPDX-License-Identifier: BSD-2-Clause
# mpi-lib.sh -- sourced by the MPI tests: launch ranks of the tools' MPI
# builds (tools/sync-write-mpi, tools/dio-dd-mpi) with the MPI they were
# built with (configure's MPIEXEC and MPI_FLAVOR), either on
# test hosts made on this machine (as root: network namespaces h1, h2
# joined by a bridge, each with a host name of its own, the ranks started
# in them by mpirun through an rsh agent, all seeing one directory) or,
# without root, all on this host.
#
#   mpi_test NAME           all of a test's set-up: mpi_need, a work
#                           directory $work (removed at exit, with the
#                           hosts), the hosts, $hosts (their names), ok,
#                           bad (sets fail=1), run NP ARGS... (bounded)
#                           and $each (mpi_write_each)
#   mpi_need                skip unless the MPI builds were made
#   mpi_own_session         Open MPI's session directory, the test's own
#   mpi_hosts_up WORKDIR    make the hosts (sets mpi_mode: netns or local)
#   "$mpi_run" NP ARGS...   run NP ranks (a script: timeout can bound it)
#   $mpi_local_env          the environment of ranks on this host (env's
#                           NAME=VALUE words)
#   mpi_hosts_down          remove what mpi_hosts_up made (trap it)

mpi_mode=local
mpi_net=
# Ranks on this host talk over loopback and shared memory only.  Other
# tests' hosts add and remove addressed bridges here meanwhile (make check
# -j, and CI's configurations side by side), and an MPI that lists network
# devices at start fails when one is gone before it opens it: an Open MPI
# rank that took a bridge's address failed its bind; MPICH's UCX failed
# MPI_Init ("init_worker No such device", ucx_init.c).  Reproduced with a
# bridge with an address added and removed in a loop: 17 of 30 MPICH jobs
# of 4 ranks failed so, 0 of 30 with UCX_NET_DEVICES=lo.
mpi_local_env='OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo UCX_NET_DEVICES=lo'
mpi_agent=

mpi_need() {
	[ -n "$MPIEXEC" ] || skip "no MPI builds of the tools (configure --with-mpi needs an MPI: apt-get install libopenmpi-dev openmpi-bin)"
	[ -x "$tools/sync-write-mpi" ] && [ -x "$tools/dio-dd-mpi" ] ||
		hard "configure found an MPI ($MPIEXEC) but tools/sync-write-mpi or tools/dio-dd-mpi was not built"
	[ -x "$MPIEXEC" ] || skip "no launcher $MPIEXEC"
	if [ "$MPI_FLAVOR" = openmpi ] && [ "$(id -u)" -eq 0 ]; then
		# Open MPI refuses root unless told twice.
		OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
		export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
	fi
	# Leaks inside the MPI library are not ours (sanitizer builds).
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
	export ASAN_OPTIONS
}

mpi_hosts_up() {
	mpi_write_run "$1"
	if [ "$(id -u)" -ne 0 ] || [ "$(uname -s)" != Linux ] ||
	   ! command -v ip >/dev/null 2>&1 || ! command -v unshare >/dev/null 2>&1; then
		echo "note: the ranks run on this host only (test hosts need root, ip and unshare)"
		return 0
	fi
	if ! mpi_netns_up "$1"; then
		# A container without the rights, a subnet taken...: not a failure
		# of the tools.  The tests then run all ranks on this host.
		echo "note: the test hosts could not be made here ($mpi_why); the ranks run on this host only"
		mpi_hosts_down
		mpi_write_run "$1"
		return 0
	fi
	mpi_mode=netns
	mpi_write_run "$1"
}

# Two hosts h1 and h2 (and those of mpi_extra_hosts, set before: the Slurm
# test's controller): network namespaces on a bridge, each reached by the
# rsh agent under its own host name, h1 at 10.231.N.11, h2 at .12, the
# next at .13...; checked before use (the agent runs a command there, and
# a connection from there reaches this side).
mpi_netns_up() {
	_w=$1
	# A subnet and names of this run's own (interface names <= 15 chars);
	# another run's bridge (run-all.sh's configurations side by side)
	# means the next number.
	_n=$(( $$ % 200 + 20 )) _tries=0
	mpi_why="cannot make a bridge"
	while :; do
		mpi_net=dio$_n
		ip link add "$mpi_net-br" type bridge 2>/dev/null && break
		_tries=$((_tries + 1))
		[ $_tries -lt 20 ] && ip link show "$mpi_net-br" >/dev/null 2>&1 ||
			{ mpi_net=; return 1; }
		_n=$(( (_n - 20 + 1) % 200 + 20 ))
	done
	mpi_why="cannot set up the bridge"
	ip addr add "10.231.$_n.1/24" dev "$mpi_net-br" && ip link set "$mpi_net-br" up || return 1
	mpi_why="cannot make the namespaces"
	_i=0
	for _h in h1 h2 ${mpi_extra_hosts:-}; do
		_i=$((_i + 1))
		ip netns add "$mpi_net-$_h" &&
		ip link add "$mpi_net-v$_i" type veth peer name eth0 netns "$mpi_net-$_h" &&
		ip link set "$mpi_net-v$_i" master "$mpi_net-br" up &&
		ip -n "$mpi_net-$_h" addr add "10.231.$_n.1$_i/24" dev eth0 &&
		ip -n "$mpi_net-$_h" link set eth0 up &&
		ip -n "$mpi_net-$_h" link set lo up || return 1
	done
	# The rsh agent: skip ssh-style options, then run the command in the
	# host's namespace under the host's name.
	mpi_agent=$_w/mpi-agent
	cat >"$mpi_agent" <<EOF
#!/bin/sh
while [ \$# -gt 0 ]; do case \$1 in -*) shift ;; *) break ;; esac; done
host=\$1; shift
exec ip netns exec "$mpi_net-\$host" unshare --uts sh -c 'hostname "\$0" && exec sh -c "\$1"' "\$host" "\$*"
EOF
	chmod +x "$mpi_agent"
	mpi_subnet=10.231.$_n.0/24
	mpi_iface=$mpi_net-br
	mpi_why="the agent cannot run a command as h2 (ip netns exec, unshare --uts)"
	[ "$(timeout 20 "$mpi_agent" h2 hostname 2>/dev/null)" = h2 ] || return 1
	mpi_why="no connection from h2 to this side (10.231.$_n.1)"
	timeout 30 python3 - "10.231.$_n.1" "$mpi_agent" <<'EOF' || return 1
import socket, subprocess, sys
s = socket.socket()
s.bind((sys.argv[1], 0))
s.listen(1)
s.settimeout(10)
port = s.getsockname()[1]
probe = ("python3 -c 'import socket; socket.create_connection((\"%s\", %d), 5)'"
         % (sys.argv[1], port))
p = subprocess.Popen([sys.argv[2], "h2", probe])
c, _ = s.accept()
sys.exit(p.wait())
EOF
}

mpi_hosts_down() {
	[ -n "$mpi_net" ] || return 0
	for _h in h1 h2 ${mpi_extra_hosts:-}; do
		ip netns del "$mpi_net-$_h" 2>/dev/null
	done
	ip link del "$mpi_net-br" 2>/dev/null
	mpi_net=
}

# The launcher, a script so that timeout(1) can bound it: WORKDIR/mpi-run
# NP ARGS... runs NP ranks of ARGS (in netns mode ranks 0..NP-NP/2-1 on h1,
# the rest on h2); the environment's DIO_SW_TIMES, RANK1_ARGS and
# RANK1_PREFIX go along (MPICH's hydra passes the whole environment).  Open MPI
# binds up to 2 ranks to a core each by default (and every process they
# fork with them): 1 rank x 4 writers then ran all four on one core, 30%
# faster here than spread (fewer cross-CPU wake-ups in this VM), which is
# not what the tests compare; --bind-to none is MPICH's default too.
mpi_write_run() {
	mpi_run=$1/mpi-run
	{
		echo '#!/bin/sh'
		echo 'np=$1; shift'
		echo 'hosts="h1:$((np - np / 2)),h2:$((np / 2))"'
		if [ "$MPI_FLAVOR" = openmpi ] && [ "$mpi_mode" = netns ]; then
			echo "exec '$MPIEXEC' -np \"\$np\" --host \"\$hosts\" --bind-to none --mca plm_rsh_agent '$mpi_agent' \\"
			echo "  --mca btl tcp,self --mca btl_tcp_if_include $mpi_subnet --mca oob_tcp_if_include $mpi_subnet \\"
			echo '  ${DIO_SW_TIMES:+-x DIO_SW_TIMES} ${RANK1_ARGS:+-x RANK1_ARGS} ${RANK1_PREFIX:+-x RANK1_PREFIX} -x ASAN_OPTIONS "$@"'
		elif [ "$MPI_FLAVOR" = openmpi ]; then
			echo "exec env $mpi_local_env '$MPIEXEC' -np \"\$np\" --oversubscribe --bind-to none --mca btl tcp,self \\"
			echo '  ${DIO_SW_TIMES:+-x DIO_SW_TIMES} ${RANK1_ARGS:+-x RANK1_ARGS} ${RANK1_PREFIX:+-x RANK1_PREFIX} -x ASAN_OPTIONS "$@"'
		elif [ "$mpi_mode" = netns ]; then
			echo "exec '$MPIEXEC' -n \"\$np\" -hosts \"\$hosts\" -launcher ssh -launcher-exec '$mpi_agent' -iface $mpi_iface \"\$@\""
		else
			echo "exec env $mpi_local_env '$MPIEXEC' -n \"\$np\" \"\$@\""
		fi
	} >"$mpi_run"
	chmod +x "$mpi_run"
}

# $work/each-rank PROGRAM ARGS...: what every rank runs, rank 1 with
# RANK1_PREFIX before it and RANK1_ARGS after (the launchers name the
# rank in OMPI_COMM_WORLD_RANK or PMI_RANK; mpi-run passes both on).
mpi_write_each() {
	each=$1/each-rank
	cat >"$each" <<'EOF'
#!/bin/sh
if [ "${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-0}}" = 1 ]; then
	exec $RANK1_PREFIX "$@" $RANK1_ARGS
fi
exec "$@"
EOF
	chmod +x "$each"
}

# Open MPI's session directories, the test's own, in $mpi_session (its
# caller removes it): the hosts of tests that run side by side share their
# names (h1, h2) and /tmp, and two orteds making /tmp/ompi.HOST.UID at once
# can fail ("File exists", exit 213).  Short: PMIx's sockets live there.
mpi_own_session() {
	mpi_session=
	if [ "$MPI_FLAVOR" = openmpi ]; then
		mpi_session=$(mktemp -d "${TMPDIR:-/tmp}/dio-ompi.XXXXXX") || hard "mktemp"
		chmod 1777 "$mpi_session"
		OMPI_MCA_orte_tmpdir_base=$mpi_session
		export OMPI_MCA_orte_tmpdir_base
	fi
}

mpi_test() {
	mpi_need
	need_cmd python3 python3
	need_cmd timeout coreutils
	work=$(mktemp -d "$top_builddir/$1.XXXXXX") || hard "mktemp"
	chmod 777 "$work"     # the ranks may run as another user than make's
	mpi_own_session
	trap 'mpi_hosts_down; rm -rf "$work" ${mpi_session:+"$mpi_session"}' EXIT INT TERM
	fail=0
	mpi_hosts_up "$work" || hard "cannot make the test hosts"
	mpi_write_each "$work"
	if [ "$mpi_mode" = netns ]; then hosts="h1 h2"; else hosts=$(uname -n); fi
}
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }
run() { timeout 300 "$mpi_run" "$@"; }
