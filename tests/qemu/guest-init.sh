#!/bin/busybox sh
# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=sh
# guest-init.sh -- /init of the qemu test guest (see run-guest.sh).
#
# Runs as PID 1 inside the initramfs made by mkinitrd.sh:
#   1. mounts proc, sys, devtmpfs, tmpfs on /tmp and /run, configfs;
#   2. loads the modules listed in /etc/dio-modules (dependencies first),
#      scsi_debug with $DIO_SCSI_DEBUG_OPTS;
#   3. creates a target_core_user (TCMU) device, starts tcmu-ramdisk on
#      its UIO device and exports it through tcm_loop as a local disk;
#   4. waits for the qemu disk, the scsi_debug disk and the TCMU disk and
#      writes /run/dio-devices.env (DIO_QEMU_SG=/dev/sg0 ...);
#   5. runs the guest command from /etc/dio-guest.conf with its output on
#      the second serial port, then writes "DIO-GUEST-EXIT=<status>" there
#      and powers off.
# Setup failures end with status 99 the same way.  Progress and errors go
# to the console (first serial port), which the host keeps as a log.

PATH=/bin:/sbin:/usr/bin:/usr/sbin
export PATH
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t sysfs sysfs /sys
/bin/busybox mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t tmpfs -o mode=1777 tmpfs /tmp
mount -t tmpfs -o mode=755 tmpfs /run

con=/dev/console
out=/dev/ttyS1
[ -c "$out" ] || out=$con

log() { echo "dio-init: $*" >"$con"; }
uptime_s() { cut -d' ' -f1 /proc/uptime; }

finish() {  # STATUS
	sync
	echo "DIO-GUEST-EXIT=$1" >"$out"
	log "exit status $1 at $(uptime_s) s; powering off"
	# the close above waits for the UART to drain; a moment for qemu
	# (no condition the guest can see: qemu's side of the serial file)
	sleep 0.2
	poweroff -f
	reboot -f
	sleep 5   # not a wait: a pause before init exits (a panic), should both fail
	exit "$1"
}

fail() {
	log "ERROR: $*"
	echo "dio-init: ERROR: $*" >"$out"
	if [ -n "${DIO_TCMU_LOG:-}" ] && [ -s "$DIO_TCMU_LOG" ]; then
		log "tail of $DIO_TCMU_LOG:"
		tail -n 20 "$DIO_TCMU_LOG" >"$con"
	fi
	finish 99
}

# The result channel: raw, so that the host reads what was written.
[ "$out" = "$con" ] || stty -F "$out" raw -echo 115200 2>/dev/null

[ -f /etc/dio-guest.conf ] || fail "no /etc/dio-guest.conf"
# shellcheck disable=SC1091 # written by run-guest.sh
. /etc/dio-guest.conf
: "${DIO_SCSI_DEBUG_OPTS:=dev_size_mb=16}"
: "${DIO_TCMU:=1}"
: "${DIO_TCMU_NAME:=dio_tcmu}"
: "${DIO_TCMU_SIZE:=67108864}"
: "${DIO_TCMU_BLOCK:=512}"
: "${DIO_TCMU_BUFCAP:=65536}"
: "${DIO_TCMU_ARGS:=}"
: "${DIO_WAIT:=60}"
DIO_KVER=$(cat /etc/dio-kver 2>/dev/null || uname -r)
log "up at $(uptime_s) s, kernel $(uname -r)"

# ------------------------------------------------------------ modules
while read -r mod; do
	[ -n "$mod" ] || continue
	name=${mod##*/}; name=${name%.ko}
	opts=
	[ "$name" = scsi_debug ] && opts=$DIO_SCSI_DEBUG_OPTS
	# shellcheck disable=SC2086 # module options are words
	insmod "$mod" $opts 2>"$con" || fail "insmod $mod $opts failed"
done </etc/dio-modules
log "modules loaded at $(uptime_s) s"

if ! grep -q ' /sys/kernel/config ' /proc/mounts; then
	mount -t configfs configfs /sys/kernel/config ||
		fail "cannot mount configfs"
fi

# ------------------------------------------------------------ TCMU + tcm_loop
# A TCMU device is the backstore core/user_<N>/<name>; enabling it makes a
# UIO device named tcm-user/<N>/<name>/<dev_config>.  tcm_loop then makes
# a SCSI host whose LUN 0 is that backstore.
tgt=/sys/kernel/config/target
DIO_TCMU_CONFIGFS=
DIO_TCMU_LOG=
DIO_TCMU_PID=
DIO_TCMU_UIO=
if [ "$DIO_TCMU" = 1 ]; then
	dev=$tgt/core/user_0/$DIO_TCMU_NAME
	mkdir -p "$dev" || fail "mkdir $dev failed"
	printf %s "dev_config=dio/ramdisk,dev_size=$DIO_TCMU_SIZE,hw_block_size=$DIO_TCMU_BLOCK" \
		>"$dev/control" || fail "cannot configure $dev"
	printf 1 >"$dev/enable" || fail "cannot enable $dev"
	DIO_TCMU_CONFIGFS=$dev
	DIO_TCMU_LOG=/run/tcmu-ramdisk.log
	rm -f /run/tcmu.ready
	# shellcheck disable=SC2086 # extra options are words
	tcmu-ramdisk -n "$DIO_TCMU_NAME" -s "$DIO_TCMU_SIZE" \
		-l "$DIO_TCMU_BLOCK" -b "$DIO_TCMU_BUFCAP" -r /run/tcmu.ready \
		-v $DIO_TCMU_ARGS </dev/null \
		>>"$DIO_TCMU_LOG" 2>&1 &
	DIO_TCMU_PID=$!
	i=0
	while [ ! -f /run/tcmu.ready ]; do
		kill -0 "$DIO_TCMU_PID" 2>/dev/null || fail "tcmu-ramdisk died"
		i=$((i + 1))
		[ "$i" -lt 1200 ] || fail "tcmu-ramdisk is not ready after 60 s"
		sleep 0.05
	done
	DIO_TCMU_UIO=$(cut -d' ' -f2 /run/tcmu.ready)
	wwn=naa.5001405d10000001
	tpg=$tgt/loopback/$wwn/tpgt_1
	mkdir -p "$tpg/lun/lun_0" || fail "mkdir $tpg/lun/lun_0 failed"
	printf %s naa.5001405d10000002 >"$tpg/nexus" ||
		fail "cannot create the tcm_loop nexus"
	ln -s "$dev" "$tpg/lun/lun_0/$DIO_TCMU_NAME" ||
		fail "cannot link $dev to $tpg/lun/lun_0"
	log "TCMU device $dev on $DIO_TCMU_UIO exported by tcm_loop $wwn"
else
	DIO_TCMU_SIZE='' DIO_TCMU_BLOCK='' DIO_TCMU_BUFCAP=''
fi

# ------------------------------------------------------------ inventory
# Each SCSI device, by the driver of its host: virtio_scsi (the qemu
# scsi-hd disk), scsi_debug, tcm_loopback (the TCMU disk).
DIO_QEMU_SG='' DIO_QEMU_SD='' DIO_QEMU_HCTL=''
DIO_DEBUG_SG='' DIO_DEBUG_SD='' DIO_DEBUG_HCTL=''
DIO_TCMU_SG='' DIO_TCMU_SD='' DIO_TCMU_HCTL=
scan() {
	for d in /sys/class/scsi_device/*; do
		[ -e "$d" ] || continue
		hctl=${d##*/}
		host=${hctl%%:*}
		proc=$(cat "/sys/class/scsi_host/host$host/proc_name" 2>/dev/null)
		sg='' sd=''
		for s in "$d"/device/scsi_generic/sg*; do
			[ -e "$s" ] && [ -c "/dev/${s##*/}" ] && sg=/dev/${s##*/}
		done
		for b in "$d"/device/block/sd*; do
			[ -e "$b" ] && [ -b "/dev/${b##*/}" ] && sd=/dev/${b##*/}
		done
		case $proc in
		virtio_scsi) DIO_QEMU_SG=$sg DIO_QEMU_SD=$sd DIO_QEMU_HCTL=$hctl ;;
		scsi_debug) DIO_DEBUG_SG=$sg DIO_DEBUG_SD=$sd DIO_DEBUG_HCTL=$hctl ;;
		tcm_loopback) DIO_TCMU_SG=$sg DIO_TCMU_SD=$sd DIO_TCMU_HCTL=$hctl ;;
		esac
	done
}
have_all() {
	[ -n "$DIO_QEMU_SG" ] && [ -n "$DIO_QEMU_SD" ] &&
	[ -n "$DIO_DEBUG_SG" ] && [ -n "$DIO_DEBUG_SD" ] &&
	{ [ "$DIO_TCMU" != 1 ] || { [ -n "$DIO_TCMU_SG" ] && [ -n "$DIO_TCMU_SD" ]; }; }
}
i=0
while scan; ! have_all; do
	i=$((i + 1))
	if [ "$i" -gt $((DIO_WAIT * 10)) ]; then
		log "devices seen:"
		ls -l /sys/class/scsi_device/ /sys/class/scsi_generic/ \
			/sys/class/block/ >"$con" 2>&1
		fail "devices missing after $DIO_WAIT s: qemu=$DIO_QEMU_SG,$DIO_QEMU_SD" \
			"scsi_debug=$DIO_DEBUG_SG,$DIO_DEBUG_SD tcmu=$DIO_TCMU_SG,$DIO_TCMU_SD"
	fi
	sleep 0.1
done

inv=/run/dio-devices.env
{
	echo "# devices of the qemu test guest, written by guest-init.sh"
	for v in DIO_KVER DIO_QEMU_SG DIO_QEMU_SD DIO_QEMU_HCTL \
	    DIO_DEBUG_SG DIO_DEBUG_SD DIO_DEBUG_HCTL \
	    DIO_TCMU_SG DIO_TCMU_SD DIO_TCMU_HCTL DIO_TCMU_UIO DIO_TCMU_PID \
	    DIO_TCMU_LOG DIO_TCMU_CONFIGFS DIO_TCMU_SIZE DIO_TCMU_BLOCK \
	    DIO_TCMU_BUFCAP; do
		val=''
		eval "val=\${$v}"
		echo "$v=$val"
	done
} >"$inv"
DIO_DEVICES=$inv
export DIO_DEVICES DIO_KVER DIO_QEMU_SG DIO_QEMU_SD DIO_QEMU_HCTL \
	DIO_DEBUG_SG DIO_DEBUG_SD DIO_DEBUG_HCTL DIO_TCMU_SG DIO_TCMU_SD \
	DIO_TCMU_HCTL DIO_TCMU_UIO DIO_TCMU_PID DIO_TCMU_LOG \
	DIO_TCMU_CONFIGFS DIO_TCMU_SIZE DIO_TCMU_BLOCK DIO_TCMU_BUFCAP
log "devices ready at $(uptime_s) s:"
sed 's/^/dio-init:   /' "$inv" >"$con"

# ------------------------------------------------------------ the test
[ -n "${DIO_GUEST_CMD:-}" ] || fail "no DIO_GUEST_CMD in /etc/dio-guest.conf"
cd /tmp || fail "no /tmp"
HOME=/root
export HOME
log "running: $DIO_GUEST_CMD"
eval "$DIO_GUEST_CMD" </dev/null >"$out" 2>&1
status=$?
log "guest command done at $(uptime_s) s"
# tcmu-ramdisk stays up: at power off sd sends SYNCHRONIZE CACHE to the
# TCMU disk, which without its handler would wait for the TCMU command
# timeout (30 s) and the SCSI error handler (a minute and more).
finish "$status"
