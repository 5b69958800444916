#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""dio-dd benchmark: dio-dd against fio and GNU dd on the same loop devices.

Needs root (it sets up loop devices over scratch images, by default in
/dev/shm so that the backing store is memory and the figures are those of
the I/O paths, not of a disk).  For every workload

  sequential read / write  x  buffered / direct  x  1 / 4 devices
  x  queue depth 1 / 32

it runs dio-dd and a peer alternately (A B, then B A, ...) for --pairs
pairs and reports the medians and dio-dd's throughput over the peer's
(target >= 1.0):

  fio  qd 1: ioengine=psync; qd 32: ioengine=io_uring iodepth=32 (libaio
       with --fio-engine libaio); one job per device
  dd   qd 1 only (dd has no queue); one dd process per device, at once

Throughput is each tool's own account of the whole workload: bytes over
the wall time from its start of I/O to the end of the last device (dio-dd:
total mb_per_s; fio: the group's bandwidth; dd: total bytes over the
slowest dd's seconds).  Buffered runs start with the loop devices' page
cache dropped (BLKFLSBUF) and dirty data synced, outside the timing.
dio-dd runs the way its peer does: against fio with --processes, a
process per device in a session of its own (fio's jobs call setsid());
against dd with --processes --same-session, a process per device in the
session they were started from (dd commands from one script).  --threads
measures dio-dd's default, every device a thread of one process, against
both instead.  Against fio dio-dd also gives fio's default page-cache
advice (fadvise=sequential; fio's fadvise_hint, which doubles the
read-ahead of buffered reads); against dd none (dd gives none).  dio-dd's
buffers are on large pages (its default largepages=1: transparent huge
pages), fio's and dd's on ordinary ones (fio's default mem=malloc).
For buffered transfers dio-dd's buffers start 32 bytes into a page (its
default bufoff=32), fio's where malloc puts them (16 or 32 bytes off a
cache line here), dd's on a page boundary; the kernel's copies to and
from a buffer on a cache line were 5-10% slower on this machine (see
bench/bufoff-bench.py).  What is written: dio-dd's pattern (its offset
stamped at every block's start and every 4 KiB, see dio-dd(1)), fio's
buffers with its default scramble_buffers (offset and time written into
every 512 bytes before each write), dd's zeros from /dev/zero.
Where the kernel schedules sessions as groups (autogroup), the process
model decides how much of the CPUs the devices get against the kernel's
loop and writeback threads, by up to 25% here either way (see dio-dd(1)
--same-session): the bench keeps that out of the ratio.
"pairs" is the median of the per-pair ratios (dio-dd's MB/s over the
peer's in the same pair: the verdict, as in sync-write-bench.py);
"ratio" is dio-dd's median over the peer's median, shown beside it.  On a
virtual machine free page reporting is turned off and guest halt polling
on for the run (see quiet.py): refilling a dropped page cache otherwise
times the host's page faults, and waking a halted virtual CPU for every
I/O times the hypervisor, by chance, more than either tool.

Usage: sudo bench/dio-dd-bench.py [--pairs 9] [--size 256M] [--bs 128k]
         [--dir /dev/shm] [--dio-dd PATH] [--json FILE] [--quick]
         [--touch-memory SIZE]
"""
import argparse, json, os, re, shutil, statistics, subprocess, sys, tempfile

from benchlib import find_tool, sh, size_bytes
from quiet import add_touch_memory, quiet


def settle(devs):
    subprocess.run(["sync"])
    for d in devs:
        subprocess.run(["blockdev", "--flushbufs", d], stderr=subprocess.DEVNULL)


def run_diodd(tool, devs, rw, direct, qd, bs, size, model="sessions", fadvise="none"):
    """model: threads (dio-dd's default), sessions (--processes: as fio's
    jobs) or same-session (--processes --same-session: as dd commands);
    fadvise: the advice its peer gives (fio: sequential, dd: none)."""
    args = [tool, "bs=%d" % bs, "count=%d" % (size // bs), "--format", "json",
            "fadvise=" + fadvise]
    if model != "threads":
        args.append("--processes")
    if model == "same-session":
        args.append("--same-session")
    # mode=: read to nowhere, write the pattern (without it dd's defaults
    # would copy to standard output or from standard input)
    if rw == "read":
        args += ["if=" + ",".join(devs), "mode=read"]
        if direct:
            args.append("iflag=direct")
    else:
        args += ["of=" + ",".join(devs), "mode=write", "--force"]
        if direct:
            args.append("oflag=direct")
    if qd > 1:
        args += ["qd=%d" % qd, "engine=io_uring"]
    d = json.loads(sh(args))
    assert d["total"]["bytes"] == size * len(devs), d["total"]
    return d["total"]["mb_per_s"]


def run_fio(devs, rw, direct, qd, bs, size, engine):
    args = ["fio", "--output-format=json", "--group_reporting", "--rw=" + rw,
            "--bs=%d" % bs, "--size=%d" % size, "--direct=%d" % direct,
            "--ioengine=" + ("psync" if qd == 1 else engine),
            "--iodepth=%d" % qd, "--invalidate=0"]
    for i, d in enumerate(devs):
        args += ["--name=d%d" % i, "--filename=" + d]
    j = json.loads(sh(args))
    job = j["jobs"][0]
    part = job["read" if rw == "read" else "write"]
    assert part["io_bytes"] == size * len(devs), part["io_bytes"]
    # bw_bytes: bytes per second over the group's run time
    return part["bw_bytes"] / 1e6


def run_dd(devs, rw, direct, bs, size):
    procs = []
    for d in devs:
        if rw == "read":
            cmd = ["dd", "if=" + d, "of=/dev/null", "bs=%d" % bs, "count=%d" % (size // bs)]
            if direct:
                cmd.append("iflag=direct")
        else:
            cmd = ["dd", "if=/dev/zero", "of=" + d, "bs=%d" % bs, "count=%d" % (size // bs)]
            if direct:
                cmd.append("oflag=direct")
        procs.append(subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                      text=True))
    secs, total = 0.0, 0
    for p in procs:
        err = p.communicate()[1]
        if p.returncode != 0:
            sys.exit("dd failed: " + err)
        m = re.search(r"^(\d+) bytes .* copied, ([0-9.e+-]+) s", err, re.M)
        total += int(m.group(1))
        secs = max(secs, float(m.group(2)))
    assert total == size * len(devs)
    return total / secs / 1e6


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pairs", type=int, default=9)
    ap.add_argument("--size", default="256M", help="bytes per device and run")
    ap.add_argument("--bs", default="128k")
    ap.add_argument("--dir", default="/dev/shm", help="where the scratch images go")
    ap.add_argument("--dio-dd", default=None)
    ap.add_argument("--fio-engine", default="io_uring", choices=["io_uring", "libaio"])
    ap.add_argument("--json", default=None)
    ap.add_argument("--quick", action="store_true", help="3 pairs, 64M: a smoke run")
    ap.add_argument("--threads", action="store_true",
                    help="run dio-dd as one process with a thread per device (its default) "
                         "instead of --processes")
    add_touch_memory(ap)
    a = ap.parse_args()
    if os.geteuid() != 0:
        sys.exit("dio-dd-bench.py needs root (loop devices)")
    for t in ("fio", "dd", "losetup", "blockdev"):
        if shutil.which(t) is None:
            sys.exit("needs %s" % t)
    if a.quick:
        a.pairs, a.size = 3, "64M"
    tool = find_tool("dio-dd", a.dio_dd)
    size, bs = size_bytes(a.size), size_bytes(a.bs)
    with quiet(touch=a.touch_memory):
        return bench(a, tool, size, bs)


def bench(a, tool, size, bs):
    work = tempfile.mkdtemp(prefix="dio-dd-bench.", dir=a.dir)
    loops = []
    try:
        for i in range(4):
            img = os.path.join(work, "img%d" % i)
            with open(img, "wb") as f:
                f.truncate(size)
            loops.append(sh(["losetup", "-f", "--show", img]).strip())
        # Fill them once so that reads read data.
        for d in loops:
            sh(["dd", "if=/dev/urandom", "of=" + d, "bs=1M", "count=%d" % (size >> 20)])
        settle(loops)
        print("dio-dd %s (%s) vs fio (%s) and GNU dd; %d pairs each, %s per device, bs %s, "
              "loop devices over %s" % (sh([tool, "--version"]).split()[2].rstrip(","),
                                        "threads" if a.threads else
                                        "--processes, fadvise=sequential against fio; "
                                        "--same-session against dd",
                                        sh(["fio", "--version"]).strip(), a.pairs,
                                        a.size, a.bs, a.dir))
        rows = []
        hdr = "%-6s %-9s %4s %3s %-4s %10s %10s %7s %6s" % (
            "rw", "mode", "devs", "qd", "peer", "dio-dd MB/s", "peer MB/s", "pairs", "ratio")
        print(hdr)
        for rw in ("read", "write"):
            for direct in (0, 1):
                for nd in (1, 4):
                    for qd in (1, 32):
                        devs = loops[:nd]
                        peers = ["fio"] + (["dd"] if qd == 1 else [])
                        for peer in peers:
                            a_res, b_res = [], []
                            for p in range(a.pairs):
                                order = (0, 1) if p % 2 == 0 else (1, 0)
                                for which in order:
                                    settle(devs)
                                    if which == 0:
                                        a_res.append(run_diodd(
                                            tool, devs, rw, direct, qd, bs, size,
                                            "threads" if a.threads else
                                            "sessions" if peer == "fio" else "same-session",
                                            "sequential" if peer == "fio" else "none"))
                                    elif peer == "fio":
                                        b_res.append(run_fio(devs, rw, direct, qd, bs, size,
                                                             a.fio_engine))
                                    else:
                                        b_res.append(run_dd(devs, rw, direct, bs, size))
                            ma, mb = statistics.median(a_res), statistics.median(b_res)
                            ratios = [x / y for x, y in zip(a_res, b_res)]
                            row = {"rw": rw, "mode": "direct" if direct else "buffered",
                                   "devices": nd, "qd": qd, "peer": peer,
                                   "dio_dd_mb_s": ma, "peer_mb_s": mb,
                                   "ratio_of_medians": ma / mb,
                                   "median_pair_ratio": statistics.median(ratios),
                                   "dio_dd_runs": a_res, "peer_runs": b_res}
                            rows.append(row)
                            verdict = row["median_pair_ratio"]
                            print("%-6s %-9s %4d %3d %-4s %10.0f %10.0f %7.3f %6.3f%s" % (
                                rw, row["mode"], nd, qd, peer, ma, mb, verdict, ma / mb,
                                "" if verdict >= 1.0 else "  (below 1.0)"), flush=True)
        if a.json:
            with open(a.json, "w") as f:
                json.dump({"pairs": a.pairs, "size": size, "bs": bs, "rows": rows}, f, indent=1)
    finally:
        for d in loops:
            subprocess.run(["losetup", "-d", d])
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
