#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""json-shape.py -- do two builds of the tools write JSON of the same shape?

    bench/json-shape.py OLD_TOOLS_DIR NEW_TOOLS_DIR

Runs a fixed set of sync-write, dio-dd and dio-info command lines with the
programs of each directory (e.g. a build of the last release and this one)
and compares the JSON they print: the same keys at the same places, the
same value types (a number may be an integer in one run and a fraction in
another, or null where a figure could not be had), the same kinds of
array members (not their number: a histogram has the rows it needed).  Numbers are not compared: they are
measurements.  Exit status 0 when every pair has the same shape, 1 if not.

As root it also runs the commands that need a loop device (a 64 MiB one,
made and removed here).  dio-rbuf needs a SCSI device: its JSON is compared
in the qemu guest (tests/qemu), not here.
"""
import json
import os
import subprocess
import sys
import tempfile


def shape(v, path="$"):
    """A flat list of (path, type) describing v, for diffing."""
    out = []
    if isinstance(v, dict):
        out.append((path, "object"))
        for k in v:
            out.extend(shape(v[k], path + "." + k))
    elif isinstance(v, list):
        # Members by kind, not by count: a histogram has as many rows as
        # the latencies measured needed.
        out.append((path, "array"))
        for x in v:
            for m in shape(x, path + "[*]"):
                if m not in out:
                    out.append(m)
    elif isinstance(v, bool):
        out.append((path, "bool"))
    elif isinstance(v, (int, float)) or v is None:
        out.append((path, "number-or-null"))
    else:
        out.append((path, "string"))
    return out


def run(tools, argv, cwd):
    """Run argv[0] of tools in cwd, W/ standing for cwd; outputs named
    W/out* are removed first, so that both builds write new files."""
    for f in os.listdir(cwd):
        if f.startswith("out"):
            os.unlink(os.path.join(cwd, f))
    prog = os.path.join(tools, argv[0])
    argv = [a.replace("=W/", "=%s/" % cwd).replace(",W/", ",%s/" % cwd) for a in argv]
    p = subprocess.run([prog] + argv[1:], cwd=cwd, capture_output=True, text=True,
                       timeout=300)
    return p.returncode, p.stdout, p.stderr


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    old, new = (os.path.abspath(a) for a in sys.argv[1:])
    work = tempfile.mkdtemp(prefix="json-shape.")
    zero = os.path.join(work, "in.dat")
    with open(zero, "wb") as f:
        f.write(os.urandom(4 << 20))
    cmds = [
        ["sync-write", "-q", "-m", "none,fdatasync,dsync", "-s", "4k,64k", "-n", "40",
         "-w", "1,2", "--format", "json"],
        ["sync-write", "-q", "-m", "fdatasync,direct", "-s", "4k", "-n", "30", "-w", "2",
         "--threads", "--verify", "--per-writer", "--format", "json"],
        ["sync-write", "-q", "-m", "rwf-dsync,sync", "-s", "512,8k", "-n", "20", "--extend",
         "--layout", "separate", "-w", "2", "--format", "json"],
        ["dio-dd", "mode=write", "of=W/out1", "bs=4k", "count=2000", "-f", "json"],
        ["dio-dd", "if=" + zero, "of=W/out1", "bs=64k", "oflag=dsync", "-f", "json"],
        ["dio-dd", "if=" + zero, "of=/dev/null", "bs=64k", "iflag=direct", "-f", "json"],
        ["dio-dd", "if=" + zero, "of=/dev/null", "bs=64k", "engine=aio", "qd=4", "-f", "json"],
        ["dio-dd", "if=" + zero, "of=/dev/null", "bs=64k", "engine=io_uring", "qd=8",
         "-f", "json"],
        ["dio-dd", "if=" + zero + "," + zero, "of=W/out1,W/out2", "bs=128k",
         "--processes", "-f", "json"],
        ["dio-dd", "mode=write", "of=W/out1", "bs=1m", "count=50", "thr=2", "-f", "json"],
        ["dio-info", "--format", "json", zero],
        ["dio-info", "--format", "json", work],
        ["dio-info", "--format", "json", "/dev/null"],
        ["dio-info", "--format", "json", "/dev/shm"],
        ["dio-info", "--format", "json", "/proc/self/status"],
    ]
    loop = None
    if os.geteuid() == 0:
        img = os.path.join(work, "loop.img")
        with open(img, "wb") as f:
            f.truncate(64 << 20)
        p = subprocess.run(["losetup", "-f", "--show", img], capture_output=True,
                           text=True)
        if p.returncode == 0:
            loop = p.stdout.strip()
            cmds += [
                ["dio-info", "--format", "json", loop],
                ["dio-dd", "if=" + loop, "of=/dev/null", "bs=1m", "iflag=direct",
                 "-f", "json"],
                ["sync-write", "-q", "--force", "-m", "fdatasync,direct+dsync", "-s", "4k",
                 "-n", "20", "--region", "1m", "-w", "2", "--format", "json", loop],
            ]
    bad = 0
    try:
        for c in cmds:
            res = []
            for tools in (old, new):
                rc, out, err = run(tools, c, work)
                try:
                    res.append((rc, shape(json.loads(out)), err))
                except ValueError as e:
                    res.append((rc, None, "not JSON (%s): %s" % (e, err.strip()[:300])))
            label = " ".join(c).replace(work, "W")
            (rc0, s0, e0), (rc1, s1, e1) = res
            if rc0 != rc1 or s0 is None or s1 is None or s0 != s1:
                bad += 1
                print("DIFFERENT: %s (exit %d vs %d)" % (label, rc0, rc1))
                if s0 is None or s1 is None:
                    print("   old: %s\n   new: %s" % (e0.strip()[:300], e1.strip()[:300]))
                else:
                    a, b = set(s0), set(s1)
                    for x in sorted(a - b)[:10]:
                        print("   only old: %s %s" % x)
                    for x in sorted(b - a)[:10]:
                        print("   only new: %s %s" % x)
                    if a == b:
                        print("   same members, different order")
            else:
                print("same: %s (%d members, exit %d)" % (label, len(s0), rc0))
    finally:
        if loop:
            subprocess.run(["losetup", "-d", loop])
        subprocess.run(["rm", "-rf", work])
    print("%d of %d command lines differ" % (bad, len(cmds)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
