# SPDX-License-Identifier: BSD-2-Clause
# powercut.sh -- shell functions for power cuts of the TCMU disk in the
# qemu test guest (tests/qemu/run-guest.sh); source it from a guest
# script: . /lib/powercut.sh   (put it there with run-guest.sh -f
# tests/qemu/powercut.sh:/lib/powercut.sh).  Needs pc-ctl in the guest
# (run-guest.sh puts it there).
#
# tcmu-ramdisk has a volatile write cache (see its header comment); the
# vendor-specific command C1h cuts its power and brings it back.  pc-ctl
# sends it and returns once the handler has acted, so no waiting is
# needed.
#
# A machine's power cut has two effects, and each is a step of its own
# here: the disk's (pc_cut: its volatile cache loses what was not
# flushed) and the machine's (pc_drop: what the guest held in RAM for the
# disk is gone).  pc_on does what powering the whole machine on does.
#
#   pc_cut [KEEP [SEED]]  the disk's cut: each dirty (written, not flushed)
#                  block reaches the medium with probability KEEP% (default
#                  0), the others are lost; SEED (1..2^32-1) makes the
#                  choice repeatable (default 0: the generator goes on).
#                  Sets PC_DIRTY, PC_PERSISTED and PC_LOST to the disk's
#                  own count of that cut's blocks (logical blocks; a
#                  no-op cut, tcmu-ramdisk -N, loses 0).  Every command
#                  fails with NOT READY until the power is back.
#   pc_drop        the machine's side alone: drop the guest's caches of
#                  the disk (blockdev --flushbufs, sync, drop_caches).
#                  With the disk's power off its dirty pages are written
#                  against a dead disk and fail: the RAM's loss.  With the
#                  power on they are written back to the disk (its cache):
#                  nothing is lost, later reads see the disk.
#   pc_power_on    the disk's power back, nothing else
#   pc_on          pc_drop, pc_power_on, pc_drop: what powering the
#                  machine back on does (one program, pc-ctl SG on SD)
#   pc_lie 0|1     lying mode off/on: SYNCHRONIZE CACHE and FUA are
#                  acknowledged and make nothing persistent
#   pc_status      log the handler's state
#   pc_last        print the handler's last "power cut:" log line
#   pc_kept / pc_lost   the persisted/lost counts of that line
# Each returns pc-ctl's status (0: done).  PC_SG (default $DIO_TCMU_SG)
# and PC_SD (default $DIO_TCMU_SD) name the disk.

: "${PC_SG:=$DIO_TCMU_SG}" "${PC_SD:=$DIO_TCMU_SD}"

pc_ctl() { pc-ctl "$PC_SG" "$@" >/dev/null 2>&1; }
pc_cut() {
	PC_DIRTY= PC_PERSISTED= PC_LOST=
	pc_out=$(pc-ctl "$PC_SG" cut "${1:-0}" "${2:-0}" 2>/dev/null) || return
	set -- $pc_out
	PC_DIRTY=$1 PC_PERSISTED=$2 PC_LOST=$3
}
pc_drop() { pc_ctl drop "$PC_SD"; }
pc_power_on() { pc_ctl on; }

# (pc-ctl drops the caches itself: three programs fewer at every cut)
pc_on() { pc_ctl on "$PC_SD"; }

pc_lie() { pc_ctl lie "${1:-1}"; }
pc_status() { pc_ctl status; }
pc_last() { grep '^power cut:' "$DIO_TCMU_LOG" | tail -n 1; }
pc_kept() { pc_last | sed -n 's/.* \([0-9]*\) persisted.*/\1/p'; }
pc_lost() { pc_last | sed -n 's/.* \([0-9]*\) lost.*/\1/p'; }
