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
#   pc_cut [KEEP [SEED]]  cut the power: each dirty (written, not flushed)
#                  block reaches the medium with probability KEEP% (default
#                  0), the others are lost; SEED (1..2^32-1) makes the
#                  choice repeatable (default 0: the generator goes on).
#                  Every command fails with NOT READY until pc_on.
#   pc_on          throw away what the guest still caches for the disk
#                  (its dirty pages are written against the dead disk and
#                  fail, as if the host's RAM had gone too), bring the
#                  power back, then drop the guest's caches of the disk
#                  again: reads now see what persisted.
#   pc_lie 0|1     lying mode off/on: SYNCHRONIZE CACHE and FUA are
#                  acknowledged and make nothing persistent
#   pc_status      log the handler's state
#   pc_last        print the handler's last "power cut:" log line
#   pc_kept / pc_lost   the persisted/lost counts of that line
# Each returns pc-ctl's status (0: done).  PC_SG (default $DIO_TCMU_SG)
# and PC_SD (default $DIO_TCMU_SD) name the disk.

: "${PC_SG:=$DIO_TCMU_SG}" "${PC_SD:=$DIO_TCMU_SD}"

pc_ctl() { pc-ctl "$PC_SG" "$@" >/dev/null 2>&1; }
pc_cut() { pc_ctl cut "${1:-0}" "${2:-0}"; }

# (pc-ctl drops the caches itself: three programs fewer at every cut)
pc_on() { pc_ctl on "$PC_SD"; }

pc_lie() { pc_ctl lie "${1:-1}"; }
pc_status() { pc_ctl status; }
pc_last() { grep '^power cut:' "$DIO_TCMU_LOG" | tail -n 1; }
pc_kept() { pc_last | sed -n 's/.* \([0-9]*\) persisted.*/\1/p'; }
pc_lost() { pc_last | sed -n 's/.* \([0-9]*\) lost.*/\1/p'; }
