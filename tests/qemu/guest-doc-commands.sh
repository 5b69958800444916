#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# guest-doc-commands.sh LIST -- the documents' commands that name SCSI
# disks and loop devices, run as printed inside the qemu test guest; run by
# tests/doc-commands-qemu.sh with /bin/dio-rbuf, /bin/dio-dd and
# /bin/dio-info put there.
# LIST is `doc-commands.sh --list guest`: FILE:LINE, runner, status,
# command, tab-separated.  The guest is made to be the machine the
# documents describe: /dev/sg0 is the qemu disk (no READ BUFFER), /dev/sg2
# the TCMU RAM disk (READ BUFFER of 1 MiB), /dev/loop0 and /dev/loop1 two
# loop devices over 512 MiB files on tmpfs.  Each command must end with the status
# its document shows.  Prints ok/FAIL per command and a count; exit 0 if
# none failed.

pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   - $*"; }
bad() { fail=$((fail + 1)); echo "FAIL - $*"; }

list=$1
echo "guest-doc-commands: kernel $(uname -r)"
[ "${DIO_QEMU_SG:-}" = /dev/sg0 ] || bad "the qemu disk is ${DIO_QEMU_SG:-?}, the documents say /dev/sg0"
[ "${DIO_TCMU_SG:-}" = /dev/sg2 ] || bad "the TCMU disk is ${DIO_TCMU_SG:-?}, the documents say /dev/sg2"
for i in 0 1; do
	truncate -s 512M "/tmp/loop$i.img" && losetup "/dev/loop$i" "/tmp/loop$i.img" ||
		bad "cannot attach /dev/loop$i"
done

tab=$(printf '\t')
while IFS=$tab read -r at r st cmd; do
	[ "$r" = guest ] || continue
	line=${cmd#[\$#] }
	cd /tmp || exit 1
	sh -c "$line" >/tmp/doc.out 2>&1 </dev/null
	got=$?
	if [ "$got" -eq "$st" ]; then
		ok "$at: $line (exit $got)"
		head -n 120 /tmp/doc.out | sed 's/^/       /'
	else
		bad "$at: $line: exit $got, the document says $st"
		sed 's/^/       /' /tmp/doc.out | head -n 30
	fi
done <"$list"

for i in 0 1; do losetup -d "/dev/loop$i" 2>/dev/null; done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
