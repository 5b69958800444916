# SPDX-License-Identifier: BSD-2-Clause
# slurm-lib.sh -- sourced by tests/sync-write-slurm.sh (after mpi-lib.sh):
# a small Slurm cluster of its own on the MPI tests' test hosts, as root:
# munged (a key and a socket of the cluster's own, in the root namespace:
# every host sees one file system), slurmctld on a third network
# namespace "ctl" (10.231.N.13), slurmd on h1 and h2 (.11, .12), each
# started by mpi-lib.sh's agent under its host name.  The slurm.conf is
# written here: process tracking by /proc (proctrack/linuxproc) and no task
# plugin (task/none), so that neither cgroups nor systemd are needed (the
# cgroup/v1 plugin slurmd 22.05 loads at start wants no mount until a
# cgroup plugin is used); whole nodes shared by up to four jobs at once
# (select/linear, OverSubscribe=FORCE:4), each node's PMIx directory its
# own (TmpFS=.../tmp-%n: the hosts share /tmp).
#
#   slurm_need         SKIP unless root and Slurm's and munge's programs
#   slurm_up           the cluster, up and its nodes idle (sets SLURM_CONF,
#                      slurm_dir); the caller's trap must call slurm_down
#   slurm_down         scancel every job, then end the jobs' sruns, every
#                      process of the hosts' namespaces and munged, and
#                      remove the hosts and $work (slurm_up's reap script;
#                      its reaper runs it if the test is killed before its
#                      trap runs); idempotent
#   slurm_slurmd H     start H's slurmd (again)
#   slurm_wait_idle    wait until every node is idle (after a job ended)

slurm_dir=

slurm_need() {
	[ "${DIO_SLURM:-}" != skip ] ||
		skip "DIO_SLURM=skip: tests/run-all.sh runs the Slurm cluster in its gcc (srun --mpi=pmix) and mpich (pmi2) configurations"
	[ "$(id -u)" -eq 0 ] ||
		skip "a Slurm cluster of test hosts needs root (network namespaces; munged, slurmctld and slurmd as root)"
	[ "$(uname -s)" = Linux ] || skip "the test hosts are Linux network namespaces"
	for _c in munged slurmctld slurmd srun sbatch scancel squeue sinfo scontrol; do
		command -v "$_c" >/dev/null 2>&1 || PATH=$PATH:/usr/sbin command -v "$_c" >/dev/null 2>&1 ||
			skip "no $_c here (apt-get install slurmctld slurmd slurm-client munge)"
	done
	PATH=$PATH:/usr/sbin
	export PATH
}

# slurm_conf N: the cluster's slurm.conf, N the subnet's third number.
slurm_conf() {
	cat <<EOF
# written by tests/slurm-lib.sh: a test cluster on network namespaces
ClusterName=diotest
SlurmctldHost=ctl(10.231.$1.13)
AuthType=auth/munge
AuthInfo=socket=$slurm_dir/munge/sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$slurm_dir/ctld
SlurmdSpoolDir=$slurm_dir/spool-%n
SlurmctldPidFile=$slurm_dir/slurmctld.pid
SlurmdPidFile=$slurm_dir/slurmd-%n.pid
SlurmctldLogFile=$slurm_dir/slurmctld.log
SlurmdLogFile=$slurm_dir/slurmd-%n.log
TmpFS=$slurm_dir/tmp-%n
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/builtin
SelectType=select/linear
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
MailProg=/bin/true
SlurmdTimeout=10
KillWait=3
InactiveLimit=0
SlurmdParameters=config_overrides
NodeName=h1 NodeAddr=10.231.$1.11 CPUs=2 State=UNKNOWN
NodeName=h2 NodeAddr=10.231.$1.12 CPUs=2 State=UNKNOWN
PartitionName=test Nodes=h1,h2 Default=YES MaxTime=INFINITE OverSubscribe=FORCE:4 State=UP
EOF
}

slurm_slurmd() {
	"$mpi_agent" "$1" "exec slurmd -N $1 -f $SLURM_CONF" >>"$slurm_dir/start.log" 2>&1
}

# slurm_nodes_idle: every node idle (sinfo's states, one a line)
slurm_nodes_idle() {
	_s=$(sinfo -h -N -o '%t' 2>/dev/null | sort -u)
	[ "$_s" = idle ]
}
slurm_wait_idle() { wait_for 60 "the nodes to be idle" slurm_nodes_idle; }

slurm_up() {
	[ "$mpi_mode" = netns ] || skip "no test hosts here, so no cluster (${mpi_why:-they need root, ip and unshare})"
	# Short: munge's socket and PMIx's live under it (108 bytes at most).
	slurm_dir=$(mktemp -d "${TMPDIR:-/tmp}/dio-slurm.XXXXXX") || hard "mktemp"
	chmod 755 "$slurm_dir"
	mkdir "$slurm_dir/munge" "$slurm_dir/ctld" "$slurm_dir/spool-h1" "$slurm_dir/spool-h2" \
		"$slurm_dir/tmp-h1" "$slurm_dir/tmp-h2" || hard "mkdir in $slurm_dir"
	chmod 700 "$slurm_dir/munge"
	# How the cluster ends (slurm_down runs it): its jobs' sruns, every
	# process of the hosts (daemons, slurmstepd, tasks) and munged, first
	# asked (SIGTERM), then killed; then the hosts and the directories.
	# Should the test be killed before its trap has run (a shell runs a
	# trap only once its command in the foreground returns; limit.sh's
	# timeout sends SIGKILL 10 s after SIGTERM), the reaper, a process of a
	# session of its own, runs it once the test's shell is gone.
	cat >"$slurm_dir/reap" <<EOF
for sig in TERM KILL; do
	pkill -\$sig -f -- '$work/'
	for h in ctl h1 h2; do for p in \$(ip netns pids '$mpi_net-'\$h); do kill -\$sig \$p; done; done
	[ -f '$slurm_dir/munge/pid' ] && kill -\$sig \$(cat '$slurm_dir/munge/pid')
	[ \$sig = TERM ] && sleep 1
done
for h in h1 h2 ctl; do ip netns del '$mpi_net-'\$h; done
ip link del '$mpi_net-br'
rm -rf '$slurm_dir' '$work' ${mpi_session:+'$mpi_session'}
EOF
	setsid sh -c 'while kill -0 "$1" 2>/dev/null; do sleep 1; done; [ -f "$2" ] && sh "$2"' \
		reaper $$ "$slurm_dir/reap" </dev/null >/dev/null 2>&1 &
	dd if=/dev/urandom of="$slurm_dir/munge/key" bs=1024 count=1 2>/dev/null &&
		chmod 400 "$slurm_dir/munge/key" || hard "cannot write a munge key"
	munged --key-file="$slurm_dir/munge/key" --socket="$slurm_dir/munge/sock" \
		--pid-file="$slurm_dir/munge/pid" --log-file="$slurm_dir/munge/log" \
		--seed-file="$slurm_dir/munge/seed" --force >"$slurm_dir/start.log" 2>&1 ||
		{ sed 's/^/    /' "$slurm_dir/start.log" "$slurm_dir/munge/log" 2>/dev/null; hard "munged did not start"; }
	SLURM_CONF=$slurm_dir/slurm.conf
	export SLURM_CONF
	_n=${mpi_subnet#10.231.}
	slurm_conf "${_n%%.*}" >"$SLURM_CONF"
	echo 'CgroupPlugin=cgroup/v1' >"$slurm_dir/cgroup.conf"
	"$mpi_agent" ctl "exec slurmctld -c -f $SLURM_CONF" >>"$slurm_dir/start.log" 2>&1 ||
		{ slurm_logs; hard "slurmctld did not start"; }
	for _h in h1 h2; do
		slurm_slurmd $_h || { slurm_logs; hard "slurmd did not start on $_h"; }
	done
	wait_for 60 "the cluster's nodes to be idle" slurm_nodes_idle ||
		{ sinfo; slurm_logs; hard "the cluster did not come up"; }
	echo "cluster: slurmctld on ctl, slurmd on h1 h2 ($(slurmctld -V)); srun --mpi=list: $(srun --mpi=list 2>&1 | sed -n 's/^[[:space:]]*//p' | grep -v -e '^MPI plugin' -e '^specific' | tr '\n' ' ')"
}

# The last lines of each daemon's log (after a failure).
slurm_logs() {
	for _l in "$slurm_dir"/start.log "$slurm_dir"/*.log "$slurm_dir"/munge/log; do
		[ -s "$_l" ] || continue
		echo "    --- $_l"
		tail -n 15 "$_l" | sed 's/^/    /'
	done
}

slurm_down() {
	[ -n "$slurm_dir" ] || return 0
	if [ -n "${SLURM_CONF:-}" ] && [ -f "$SLURM_CONF" ]; then
		timeout 10 scancel --full --quiet --user=root 2>/dev/null
		_t=0
		while [ $_t -lt 10 ] && [ -n "$(timeout 5 squeue -h 2>/dev/null)" ]; do
			sleep 1; _t=$((_t + 1))
		done
	fi
	sh "$slurm_dir/reap" >/dev/null 2>&1
	rm -rf "$slurm_dir"
	slurm_dir=
}
