#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# dio-rbuf-bench.sh -- dio-rbuf against sg3_utils' sg_rbuf on the same
# TCMU target (tests/qemu's RAM disk with READ BUFFER) in one qemu boot,
# interleaved, for each mode (indirect, direct, no-copy, mmap) and several
# buffer sizes; prints the throughput ratios (target: >= 0.98 in every
# mode) and dio-rbuf's derived per-command latency and bandwidth.
#
# Usage: bench/dio-rbuf-bench.sh BUILDDIR   (a configured and built tree,
# after `make check` built tests/qemu/dio-rbuf-guest).  Needs
# qemu-system-x86, busybox-static and sg3-utils; the guest is TCG, so the
# absolute figures are an emulator's, the ratios are the point.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: dio-rbuf-bench.sh BUILDDIR}" && pwd)
rbuf=$build/tests/qemu/dio-rbuf-guest
[ -x "$rbuf" ] || { echo "build $rbuf first: make -C $build check TESTS="; exit 2; }
PAIRS=${PAIRS:-9}
export top_builddir="$build" top_srcdir="$here/.."
exec sh "$here/../tests/qemu/run-guest.sh" -t 1800 -B 1M \
	-x "$rbuf:/bin/dio-rbuf" -f "$here/dio-rbuf-guest.sh:/bin/dio-rbuf-guest.sh" \
	-c "PAIRS=$PAIRS SIZES='${SIZES:-4096 16384 65536}' TOTAL_CMDS=${TOTAL_CMDS:-256} sh /bin/dio-rbuf-guest.sh"
