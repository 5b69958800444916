#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# run-guest.sh [options] -- GUEST-SCRIPT [ARGS...]
# run-guest.sh [options] -c 'SHELL COMMAND'
#
# Boots Debian's stock kernel under qemu-system-x86_64 (TCG, no network)
# with three SCSI disks and runs GUEST-SCRIPT inside; its output comes
# back on stdout and its exit status becomes ours.
#
# The guest (see guest-init.sh) has:
#   - a QEMU scsi-hd disk on virtio-scsi, backed by a temporary image;
#   - a scsi_debug disk (modprobe scsi_debug dev_size_mb=16);
#   - a TCMU disk: target_core_user served by tcmu-ramdisk (a RAM disk
#     that implements READ/WRITE BUFFER), exported through tcm_loop;
# and /run/dio-devices.env, whose variables are also in the script's
# environment:
#   DIO_QEMU_SG  DIO_QEMU_SD  DIO_QEMU_HCTL    the qemu disk (/dev/sgN,
#   DIO_DEBUG_SG DIO_DEBUG_SD DIO_DEBUG_HCTL   /dev/sdX, H:C:T:L)
#   DIO_TCMU_SG  DIO_TCMU_SD  DIO_TCMU_HCTL    scsi_debug, the TCMU disk
#   DIO_TCMU_UIO DIO_TCMU_PID DIO_TCMU_LOG DIO_TCMU_CONFIGFS
#   DIO_TCMU_SIZE DIO_TCMU_BLOCK DIO_TCMU_BUFCAP DIO_KVER DIO_DEVICES
# The script runs as root in /tmp (tmpfs) with busybox as /bin/sh and its
# applets; host programs given with -x run there with their libraries.
# Also there: /bin/tcmu-ramdisk, /bin/pc-ctl (its power control, see
# powercut.sh), /bin/ack-wait (waits for a sync-write ack log's
# acknowledgements), /bin/sg-dio-probe (SG_FLAG_DIRECT_IO check) and, if
# installed on the host, sg3_utils programs in /usr/bin.
#
# Options:
#   -c CMD          run this shell command instead of a script
#   -x HOST[:GUEST] put a host program (and its shared libraries) in the
#                   guest, at GUEST or /bin/NAME; may be repeated
#   -f HOST[:GUEST] put a host file in the guest; may be repeated
#   -t SECONDS      kill qemu after this long (default 300)
#   -m MB           guest memory (default 768)
#   -d SIZE         the qemu disk's size (default 64M)
#   -D OPTIONS      scsi_debug module options (default dev_size_mb=16)
#   -T SIZE         the TCMU disk's size (default 64M)
#   -L BYTES        the TCMU disk's logical block size (default 512)
#   -B SIZE         the TCMU READ BUFFER capacity (default 64K, < 16M)
#   -R OPTIONS      more tcmu-ramdisk options (e.g. "-o 2 -e 1024")
#   -M MOD[,MOD]    more kernel modules to load at boot (e.g. ext4)
#   -N              no TCMU disk
#   -a ARGS         more kernel command line arguments
#   -l FILE         keep the guest console log (kernel messages) in FILE
#   -k              keep the temporary directory (its path is printed)
#   -v              print the console log after the run
#   -h              this help
#
# Environment:
#   DIO_QEMU=skip       skip (77) at once: no guest is started
#   DIO_QEMU_CACHE      where the kernel and the prebuilt tcmu-ramdisk are
#                       kept between runs (default: $top_builddir/tests/
#                       qemu/cache, or ./tests/qemu/cache)
#   DIO_QEMU_KERNEL_ENV a kernel.env (DIO_VMLINUZ, DIO_MODDIR) to use
#                       instead of fetching Debian's kernel
#   DIO_QEMU_TCMU_RAMDISK, DIO_QEMU_SG_DIO_PROBE  the tcmu-ramdisk and
#                       sg-dio-probe programs (default: the ones built in
#                       $top_builddir/tests/qemu, else compiled with $CC
#                       from their .c files into the cache)
#   DIO_QEMU_PC_CTL, DIO_QEMU_ACK_WAIT  the pc-ctl and ack-wait programs
#                       (default: compiled with $CC, statically where
#                       possible, into the cache)
#   DIO_QEMU_SG3        the sg3_utils programs to put in /usr/bin when they
#                       are installed (default: a useful set; "" for none)
#   QEMU                the qemu program (default qemu-system-x86_64)
#   DIO_QEMU_TIMEOUT, DIO_QEMU_MEM  defaults of -t and -m
#   DIO_QEMU_PVH=0      boot the bzImage, not the vmlinux inside it (see
#                       pvh-kernel.py)
#   DIO_QEMU_JOBS       guests that may run at once with this cache
#                       (default: the number of CPUs); more wait their turn
#   DIO_QEMU_PRIORITY   a waiting run of a higher number (default 0) gets
#                       the next free slot first (give it to long guests)
#
# Exit status: the guest's (0 pass, 1 fail, 77 skip, ...); 77 with
# "SKIP: reason" when qemu, busybox or the kernel cannot be had; 99 when
# the guest did not report (timeout, crash, setup failure).
set -u

me=run-guest.sh
here=$(cd "$(dirname "$0")" && pwd)
skip() { echo "SKIP: $*"; exit 77; }
hard() { echo "ERROR: $me: $*" >&2; exit 99; }
usage() { sed -n '3,/^set -u/p' "$0" | sed -e '/^set -u/d' -e 's/^# \{0,1\}//'; }

timeout_s=${DIO_QEMU_TIMEOUT:-300}
mem=${DIO_QEMU_MEM:-768}
qdisk_size=64M
debug_opts=dev_size_mb=16
tcmu=1 tcmu_size=64M tcmu_block=512 tcmu_bufcap=64K tcmu_args=''
append='' conslog='' keep=0 verbose=0 cmd=''
extra=''
add() { extra="$extra
$1 $2"; }

while getopts c:x:f:t:m:d:D:T:L:B:R:M:Na:l:kvh opt; do
	case $opt in
	c) cmd=$OPTARG ;;
	x) add -x "$OPTARG" ;;
	f) add -f "$OPTARG" ;;
	t) timeout_s=$OPTARG ;;
	m) mem=$OPTARG ;;
	d) qdisk_size=$OPTARG ;;
	D) debug_opts=$OPTARG ;;
	T) tcmu_size=$OPTARG ;;
	L) tcmu_block=$OPTARG ;;
	B) tcmu_bufcap=$OPTARG ;;
	R) tcmu_args=$OPTARG ;;
	M) add -A "$OPTARG" ;;
	N) tcmu=0 ;;
	a) append=$OPTARG ;;
	l) conslog=$OPTARG ;;
	k) keep=1 ;;
	v) verbose=1 ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 99 ;;
	esac
done
shift $((OPTIND - 1))
if [ -z "$cmd" ]; then
	[ $# -ge 1 ] || hard "no GUEST-SCRIPT (see $me -h)"
	script=$1; shift
	[ -f "$script" ] || hard "no guest script $script"
else
	[ $# -eq 0 ] || hard "-c takes no GUEST-SCRIPT"
	script=''
fi

case $timeout_s in ''|*[!0-9]*) hard "bad timeout: $timeout_s" ;; esac

# Sizes like 64M, 16K, 1G, or plain bytes.
bytes() {
	case $1 in
	*[kK]) echo $(( ${1%?} * 1024 )) ;;
	*[mM]) echo $(( ${1%?} * 1024 * 1024 )) ;;
	*[gG]) echo $(( ${1%?} * 1024 * 1024 * 1024 )) ;;
	*[!0-9]*|'') hard "bad size: $1" ;;
	*) echo "$1" ;;
	esac
}
tcmu_size=$(bytes "$tcmu_size") || exit 99
tcmu_bufcap=$(bytes "$tcmu_bufcap") || exit 99
qdisk_bytes=$(bytes "$qdisk_size") || exit 99

# ------------------------------------------------------------ what we need
[ "${DIO_QEMU:-}" = skip ] && skip "the qemu guest tests are turned off here (DIO_QEMU=skip)"
[ "$(uname -s)" = Linux ] || skip "the qemu harness needs a Linux host"
qemu=${QEMU:-qemu-system-x86_64}
command -v "$qemu" >/dev/null 2>&1 ||
	skip "no $qemu (apt-get install --no-install-recommends qemu-system-x86)"
command -v busybox >/dev/null 2>&1 ||
	skip "no busybox (apt-get install busybox-static)"

cache=${DIO_QEMU_CACHE:-${top_builddir:-.}/tests/qemu/cache}
mkdir -p "$cache" || hard "cannot create $cache"
cache=$(cd "$cache" && pwd)

# One kernel download and one helper build per cache at a time (make -j
# check, and run-all.sh's configurations side by side): the cache's lock
# is held until the guest can boot.  Then a guest slot: at most
# DIO_QEMU_JOBS guests (default: one per CPU) share the cache at once,
# each slot a lock file.  The waits come before the timeout, which starts
# with qemu.
have_flock=0
if command -v flock >/dev/null 2>&1; then
	have_flock=1
	exec 9>"$cache/qemu.lock"
	flock 9 || hard "flock $cache/qemu.lock failed"
fi
qjobs=${DIO_QEMU_JOBS:-$(nproc 2>/dev/null || echo 1)}
case $qjobs in ''|*[!0-9]*) hard "DIO_QEMU_JOBS must be 1 or more guests, not '$qjobs'" ;; esac
[ "$qjobs" -ge 1 ] || hard "DIO_QEMU_JOBS must be 1 or more guests, not '$qjobs'"
qprio=${DIO_QEMU_PRIORITY:-0}
case $qprio in ''|*[!0-9]*) hard "DIO_QEMU_PRIORITY must be a number (0 or more), not '$qprio'" ;; esac
# A free slot goes to the waiting run of the highest DIO_QEMU_PRIORITY
# (the longest guests first, so that none is left to run alone at the
# end): a waiting run says so in want.PID, and takes a slot only when no
# live run of a higher priority waits.
ahead() {
	for _w in "$cache"/want.*; do
		[ -f "$_w" ] || continue
		_p=${_w##*.}
		[ "$_p" = $$ ] && continue
		[ -d "/proc/$_p" ] || { rm -f "$_w" 2>/dev/null; continue; }
		read -r _wp <"$_w" 2>/dev/null || continue
		case $_wp in ''|*[!0-9]*) continue ;; esac
		[ "$_wp" -gt "$qprio" ] && return 0
	done
	return 1
}
guest_slot() {
	[ $have_flock = 1 ] || return 0
	echo "$qprio" >"$cache/want.$$" 2>/dev/null
	while :; do
		if ! ahead; then
			_i=1
			while [ $_i -le "$qjobs" ]; do
				exec 8>"$cache/guest-$_i.lock"
				if flock -n 8; then
					rm -f "$cache/want.$$"
					return 0
				fi
				exec 8>&-
				_i=$((_i + 1))
			done
		fi
		sleep 1
	done
}

if [ -n "${DIO_QEMU_KERNEL_ENV:-}" ]; then
	kenv=$DIO_QEMU_KERNEL_ENV
else
	sh "$here/fetch-kernel.sh" "$cache/kernel" >&2
	st=$?
	[ $st -eq 77 ] && skip "Debian's kernel cannot be had (see above)"
	[ $st -eq 0 ] || hard "fetch-kernel.sh failed ($st)"
	kenv=$cache/kernel/kernel.env
fi
[ -f "$kenv" ] || hard "no $kenv"
DIO_VMLINUZ='' DIO_MODDIR=''
# shellcheck disable=SC1090
. "$kenv"
[ -f "$DIO_VMLINUZ" ] || hard "no kernel $DIO_VMLINUZ"
[ -d "$DIO_MODDIR" ] || hard "no modules $DIO_MODDIR"

# The kernel qemu boots: the vmlinux inside the bzImage, started at its
# PVH entry point, where the kernel has one (CONFIG_PVH, as Debian's): a
# bzImage decompresses itself at every boot, about 4 s of CPU under TCG.
# Made once per cache by pvh-kernel.py (python3); where it cannot be (no
# python3, no PVH note: the reason is kept in NAME.pvh.none) or with
# DIO_QEMU_PVH=0, the bzImage boots.
boot_kernel=$DIO_VMLINUZ
pvh=$cache/$(basename "$DIO_VMLINUZ").pvh
if [ "${DIO_QEMU_PVH:-1}" != 0 ]; then
	if [ -f "$pvh" ] && [ -z "$(find "$DIO_VMLINUZ" -newer "$pvh" 2>/dev/null)" ]; then
		boot_kernel=$pvh
	elif [ ! -f "$pvh.none" ] || [ -n "$(find "$DIO_VMLINUZ" -newer "$pvh.none" 2>/dev/null)" ]; then
		if command -v python3 >/dev/null 2>&1 &&
		    python3 "$here/pvh-kernel.py" "$DIO_VMLINUZ" "$pvh.tmp.$$" 2>"$pvh.why.$$" &&
		    mv "$pvh.tmp.$$" "$pvh"; then
			boot_kernel=$pvh
			rm -f "$pvh.none"
		else
			command -v python3 >/dev/null 2>&1 || echo "no python3" >"$pvh.why.$$"
			mv "$pvh.why.$$" "$pvh.none"
			echo "$me: the bzImage boots: $(cat "$pvh.none")" >&2
		fi
		rm -f "$pvh.tmp.$$" "$pvh.why.$$"
	fi
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dio-qemu.XXXXXX") || hard "mktemp failed"
qpid='' wpid=''
# shellcheck disable=SC2317 # called through the trap
cleanup() {
	rm -f "$cache/want.$$" 2>/dev/null
	[ -n "$wpid" ] && kill "$wpid" 2>/dev/null
	[ -n "$qpid" ] && kill -KILL "$qpid" 2>/dev/null
	if [ "$keep" = 1 ]; then
		echo "$me: kept $tmp" >&2
	else
		rm -rf "$tmp"
	fi
}
trap cleanup EXIT
trap 'exit 99' INT TERM HUP

# Our guest helpers: the ones make built, else built here once into the
# cache (with $CC, default cc).  A helper named with "static" is always
# built here, linked statically where the C library allows (it starts in
# milliseconds under TCG, where a dynamic one takes tens).
helper() {  # NAME OVERRIDE [static] -> path on stdout
	if [ -n "$2" ]; then
		echo "$2"
		return 0
	fi
	if [ "${3:-}" != static ] && [ -n "${top_builddir:-}" ] &&
	    [ -x "$top_builddir/tests/qemu/$1" ]; then
		echo "$top_builddir/tests/qemu/$1"
		return 0
	fi
	bin=$cache/$1
	src=$here/$1.c
	if [ ! -x "$bin" ] ||
	    [ -n "$(find "$src" -newer "$bin" 2>/dev/null)" ]; then
		cc=${CC:-cc}
		command -v "${cc%% *}" >/dev/null 2>&1 || return 77
		# shellcheck disable=SC2086 # CC may carry options
		{ [ "${3:-}" = static ] &&
			$cc -std=c99 -O2 -Wall -Wextra -static -o "$bin.tmp.$$" "$src" 2>/dev/null; } ||
		$cc -std=c99 -O2 -Wall -Wextra -o "$bin.tmp.$$" "$src" >&2 || return 99
		mv "$bin.tmp.$$" "$bin" || return 99
	fi
	echo "$bin"
}
ramdisk=''
if [ "$tcmu" = 1 ]; then
	ramdisk=$(helper tcmu-ramdisk "${DIO_QEMU_TCMU_RAMDISK:-}")
	case $? in
	0) ;;
	77) skip "no C compiler (\$CC) to build tcmu-ramdisk" ;;
	*) hard "cannot build tcmu-ramdisk" ;;
	esac
	[ -x "$ramdisk" ] || hard "no tcmu-ramdisk at $ramdisk"
fi
probe=$(helper sg-dio-probe "${DIO_QEMU_SG_DIO_PROBE:-}") ||
	probe=''
pcctl='' ackwait=''
if [ "$tcmu" = 1 ]; then
	pcctl=$(helper pc-ctl "${DIO_QEMU_PC_CTL:-}" static) ||
		hard "cannot build pc-ctl"
	ackwait=$(helper ack-wait "${DIO_QEMU_ACK_WAIT:-}" static) ||
		hard "cannot build ack-wait"
fi

# seconds since boot, with hundredths (Linux hosts only, as is all this)
now() { cut -d' ' -f1 /proc/uptime; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# ------------------------------------------------------------ initramfs
q() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }

if [ -n "$script" ]; then
	gpath=/guest/$(basename "$script")
	gcmd=$(q "$gpath")
	for a in "$@"; do gcmd="$gcmd $(q "$a")"; done
	add -x "$script:$gpath"
else
	gcmd=$cmd
fi
{
	echo "DIO_GUEST_CMD=$(q "$gcmd")"
	echo "DIO_SCSI_DEBUG_OPTS=$(q "$debug_opts")"
	echo "DIO_TCMU=$tcmu"
	echo "DIO_TCMU_SIZE=$tcmu_size"
	echo "DIO_TCMU_BLOCK=$tcmu_block"
	echo "DIO_TCMU_BUFCAP=$tcmu_bufcap"
	echo "DIO_TCMU_ARGS=$(q "$tcmu_args")"
} >"$tmp/dio-guest.conf"

# mkinitrd's -f/-x arguments, one per line in $extra
set --
old_ifs=$IFS
IFS='
'
for line in $extra; do
	[ -n "$line" ] || continue
	set -- "$@" "${line%% *}" "${line#* }"
done
IFS=$old_ifs
sg3=${DIO_QEMU_SG3-sg_inq sg_readcap sg_rbuf sg_read_buffer sg_write_buffer \
sg_dd sg_raw sg_turs sg_vpd sg_modes sg_requests sg_sync sg_luns sg_sat_identify}
for p in $sg3; do
	pp=$(command -v "$p" 2>/dev/null) && set -- "$@" -x "$pp:/usr/bin/$p"
done
[ -n "$ramdisk" ] && set -- "$@" -x "$ramdisk:/bin/tcmu-ramdisk"
[ -n "$probe" ] && set -- "$@" -x "$probe:/bin/sg-dio-probe"
[ -n "$pcctl" ] && set -- "$@" -x "$pcctl:/bin/pc-ctl"
[ -n "$ackwait" ] && set -- "$@" -x "$ackwait:/bin/ack-wait"

t0=$(now)
sh "$here/mkinitrd.sh" -o "$tmp/initrd.cpio" -m "$DIO_MODDIR" -c "$cache" \
	-i "$here/guest-init.sh" -f "$tmp/dio-guest.conf:/etc/dio-guest.conf" \
	"$@" >"$tmp/mkinitrd.log" 2>&1
st=$?
if [ $st -ne 0 ]; then
	cat "$tmp/mkinitrd.log"
	[ $st -eq 77 ] && skip "cannot build the initramfs (see above)"
	hard "mkinitrd.sh failed ($st)"
fi

# ------------------------------------------------------------ boot
truncate -s "$qdisk_bytes" "$tmp/disk.img" 2>/dev/null ||
	dd if=/dev/zero of="$tmp/disk.img" bs=1 count=0 seek="$qdisk_bytes" \
		2>/dev/null || hard "cannot create the disk image"
: >"$tmp/console.log"
: >"$tmp/guest.out"

# The cache is ready: let the next run prepare, and wait for a slot.
tw=$(now)
if [ $have_flock = 1 ]; then
	exec 9>&-
	guest_slot
fi
t1=$(now)
# The CPU: qemu's default model with RDRAND (which TCG emulates), as any
# x86 CPU of the last decade has: the kernel trusts it and its random
# pool is ready at boot.  Without it the pool took seconds of the guest's
# own jitter to be ready, and mkfs.ext4 (libuuid) slept 4 s waiting.
"$qemu" -accel tcg -cpu qemu64,+rdrand -nographic -no-reboot -m "$mem" -smp 1 \
	-kernel "$boot_kernel" -initrd "$tmp/initrd.cpio" \
	-append "console=ttyS0 panic=-1 quiet loglevel=4 scsi_mod.scan=sync $append" \
	-nic none -monitor none \
	-serial "file:$tmp/console.log" -serial "file:$tmp/guest.out" \
	-device virtio-scsi-pci,id=scsi0 \
	-drive "if=none,id=qdisk,file=$tmp/disk.img,format=raw" \
	-device scsi-hd,drive=qdisk,bus=scsi0.0,serial=dio-qemu-disk \
	</dev/null >"$tmp/qemu.out" 2>&1 &
qpid=$!
(
	# sleeps in the background so that the TERM trap runs at once
	spid=''
	trap 'kill $spid 2>/dev/null; exit 0' TERM
	sleep "$timeout_s" & spid=$!   # the guest's time limit (a watchdog, not a wait)
	wait "$spid"
	: >"$tmp/timedout"
	kill -TERM "$qpid" 2>/dev/null
	sleep 5 & spid=$!   # TERM's grace before KILL (ended early by qemu's exit)
	wait "$spid"
	kill -KILL "$qpid" 2>/dev/null
) &
wpid=$!
wait "$qpid"
qstatus=$?
qpid=''
kill "$wpid" 2>/dev/null
wait "$wpid" 2>/dev/null
wpid=''
t2=$(now)

[ -n "$conslog" ] && cp "$tmp/console.log" "$conslog"

# ------------------------------------------------------------ result
status=$(tr -d '\r' <"$tmp/guest.out" | sed -n 's/^DIO-GUEST-EXIT=\([0-9]*\)$/\1/p' |
	tail -n 1)
tr -d '\r' <"$tmp/guest.out" | grep -v '^DIO-GUEST-EXIT=[0-9]*$'
ready=$(tr -d '\r' <"$tmp/console.log" |
	sed -n 's/^dio-init: devices ready at \([0-9.]*\) s.*/\1/p')
echo "$me: $(basename "$boot_kernel"): initramfs $(secs "$t0" "$tw") s," \
	"waited $(secs "$tw" "$t1") s for a guest slot," \
	"qemu $(secs "$t1" "$t2") s (guest devices ready at ${ready:-?} s" \
	"of guest uptime)" >&2

# The console log without carriage returns and the firmware's terminal
# escapes; LINES of it (all if empty).
esc=$(printf '\033')
console() {
	echo "----- guest console${1:+ (last $1 lines)} -----"
	tr -d '\r' <"$tmp/console.log" | sed -e "s/$esc\[[0-9;?]*[a-zA-Z]//g" -e "s/${esc}c//g" |
		if [ -n "$1" ]; then tail -n "$1"; else cat; fi
	echo
	echo "----- end of guest console -----"
}
[ "$verbose" = 1 ] && console ''
if [ -f "$tmp/timedout" ]; then
	[ "$verbose" = 1 ] || console 40
	hard "timed out after $timeout_s s; qemu killed"
fi
if [ -z "$status" ]; then
	[ "$verbose" = 1 ] || console 40
	cat "$tmp/qemu.out"
	hard "the guest reported no exit status (qemu exit $qstatus)"
fi
if [ "$status" -ne 0 ] && [ "$status" -ne 77 ] && [ "$verbose" = 0 ]; then
	console 40
fi
exit "$status"
