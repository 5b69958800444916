#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Where a buffered transfer's buffer starts: dio-dd bufoff=0 against its
default (bufoff=32), with fio beside them.

A buffered read or write is, for the CPU, mostly the kernel copying
between its page cache and the caller's buffer.  On the machine where this
was written (x86, fast short rep movsb) those copies ran 5-10% slower when
the buffer started on a cache line (as a page-aligned buffer does: dd's,
or dio-dd's before bufoff=) than when it started 16 or 32 bytes into one
(as fio's does, wherever malloc puts it).  This measures exactly that, with
nothing but the copies: 128 KiB reads of a file in tmpfs (its pages are the
page cache) and 128 KiB writes over the same file (its pages kept: no
truncation), every tool alternately, --rounds times, in one run; medians,
and the ratio of dio-dd's default to bufoff=0 and to fio (target >= 1.0).

Root is not needed; as root, bench/quiet.py's settings are applied for
the run (see there).

Usage: bench/bufoff-bench.py [--rounds 11] [--size 1G] [--dir /dev/shm]
         [--dio-dd PATH] [--touch-memory SIZE]
"""
import argparse, contextlib, json, os, shutil, statistics, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from benchlib import find_tool, sh, size_bytes  # noqa: E402
from quiet import add_touch_memory, quiet  # noqa: E402

BS = 131072


def diodd(tool, path, rw, size, bufoff):
    args = [tool, "bs=%d" % BS, "count=%d" % (size // BS), "--format", "json"]
    if bufoff is not None:
        args.append("bufoff=%d" % bufoff)
    if rw == "read":
        args.append("if=" + path)
    else:
        args += ["of=" + path, "oflag=notrunc", "--force"]
    d = json.loads(sh(args))
    assert d["total"]["bytes"] == size, d["total"]
    assert d["buffer_offset"] == (32 if bufoff is None else bufoff), d["buffer_offset"]
    return d["total"]["mb_per_s"]


def fio(path, rw, size):
    j = json.loads(sh(["fio", "--output-format=json", "--name=b", "--filename=" + path,
                        "--rw=" + rw, "--bs=%d" % BS, "--size=%d" % size,
                        "--ioengine=psync", "--invalidate=0"]))
    part = j["jobs"][0][rw]
    assert part["io_bytes"] == size, part["io_bytes"]
    return part["bw_bytes"] / 1e6


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--size", default="1G", help="file size (k, M, G suffixes)")
    ap.add_argument("--dir", default="/dev/shm", help="a tmpfs directory")
    ap.add_argument("--dio-dd", default=None)
    add_touch_memory(ap)
    a = ap.parse_args()
    size = size_bytes(a.size)
    if size < BS or size % BS:
        sys.exit("--size must be a multiple of 128 KiB")
    if shutil.which("fio") is None:
        sys.exit("needs fio")
    tool = find_tool("dio-dd", a.dio_dd)
    work = tempfile.mkdtemp(prefix="bufoff-bench.", dir=a.dir)
    path = os.path.join(work, "f")
    try:
        with open(path, "wb") as f:
            chunk = os.urandom(1 << 20)
            for _ in range(size >> 20):
                f.write(chunk)
            f.write(os.urandom(size & ((1 << 20) - 1)))
        ctx = (quiet(touch=a.touch_memory) if os.geteuid() == 0
               else contextlib.nullcontext())
        with ctx:
            run(a, tool, path, size)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run(a, tool, path, size):
    print("dio-dd %s vs fio (%s); %d rounds, %d MiB file in %s, bs 128 KiB, buffered"
          % (sh([tool, "--version"]).split()[2].rstrip(","), sh(["fio", "--version"]).strip(),
             a.rounds, size >> 20, a.dir))
    print("%-5s %14s %14s %10s %9s %9s" % ("rw", "bufoff=32 MB/s", "bufoff=0 MB/s",
                                           "fio MB/s", "32/0", "32/fio"))
    for rw in ("read", "write"):
        runs = {"32": [], "0": [], "fio": []}
        order = ["32", "0", "fio"]
        for r in range(a.rounds):
            k = r % 3
            for which in order[k:] + order[:k]:
                if which == "fio":
                    runs[which].append(fio(path, rw, size))
                else:
                    runs[which].append(diodd(tool, path, rw, size,
                                             None if which == "32" else 0))
        m = {k: statistics.median(v) for k, v in runs.items()}
        print("%-5s %14.0f %14.0f %10.0f %9.3f %9.3f" % (rw, m["32"], m["0"], m["fio"],
                                                        m["32"] / m["0"], m["32"] / m["fio"]),
              flush=True)


if __name__ == "__main__":
    main()
