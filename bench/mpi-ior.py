#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""mpi-ior.py -- sync-write over MPI (sync-write-mpi) against IOR, the field's MPI I/O
benchmark, doing equal work: the same ranks, transfer size, file layout
and file state, the same sync call and the same number of cache flushes
per transaction, each tool's rate computed as IOR computes its own.

  bench/mpi-ior.py [--ranks 1,4,8] [--runs 5] [--count 4000] [--size 4096]
                   [--dir DIR] [--sync-write-mpi PATH] [--ior PATH | --ior-src SRC]
                   [--mpirun PATH] [--json OUT] [--touch-memory SIZE]
                   [--dio-info PATH] [--baseline SECONDS]

The workload: every rank writes COUNT transactions of SIZE bytes
sequentially to a file of its own, extending it from empty, and makes
each durable with fsync() before the next:

  IOR         `ior -a POSIX -w -F -Y -t SIZE -b COUNT*SIZE` (-F a file per
              process, new; -Y fsync after every write), run through
              bench/fsync-once.c (LD_PRELOAD): IOR's POSIX backend calls
              fsync() in its transfer and IOR's write loop calls it again,
              two fsyncs and, on a disk with a volatile cache, two flushes
              per write; the shim answers an fsync of a descriptor not
              written since its last one with 0, so that IOR flushes once
              per write, as sync-write does;
  sync-write  `sync-write-mpi -m fsync --layout separate --extend -w 1
              --warmup 0 -n COUNT` (a file per rank, emptied before the
              point: extended from empty, as IOR's new files are).

Also measured, for the record, not as the comparison: IOR as it is (two
fsyncs per write) and sync-write -m fdatasync.  Each rank count runs the
four in turn, RUNS times, the order rotating (interleaved, so that drift
hits all alike); medians are reported:

  - transactions/s of the job: IOR's "iops" (its transfers over its
    access time: the first rank's start of the write phase to the last
    rank's end), sync-write's aggregate txn_per_s (its transactions over
    its span: the first writer's start to the last writer's end); the
    same rule, so the ratio compares like with like;
  - flushes per transaction: the cache flushes the disks under --dir
    completed during each run over the run's transactions, counted with
    the library's code (`dio-info --counters --format json` of this build,
    --dio-info: every disk under the directory, through partitions,
    device-mapper, md and loop devices, read just before and after the
    run), less an idle baseline as sync-write takes its own: the flush
    rate of an idle interval just before each run (--baseline, 0.05 s as
    sync-write's default; idle here, 10 intervals of 0.05 s saw none and
    of 0.5 s a median of 3 flushes/s, one burst of 778/s from another
    program) times the run's length.  A run whose baseline so scaled is
    over 10% of its own flushes is not counted (other I/O too large; the
    report says how many); "-" where the disks cannot be counted (tmpfs:
    no local disk).  And, from one run
    of each tool under strace -f -c at 1 rank, its fsync()+fdatasync()
    calls per transaction (after the shim: the calls that reached the
    kernel);
  - CPU per transaction: user + system time of the whole job (mpirun and
    every process it waited for, from getrusage of the children) over the
    transactions: the same measure for both tools, start-up included;
  - latency: what IOR's figure would say (the minimum over tasks of each
    task's mean, computed from sync-write's own per-rank rows, and IOR's
    reported "latency") against sync-write's merged mean, p50, p99, p99.9
    and max (the percentiles from the merged 1/128-octave histograms:
    within 0.4% of the exact order statistic).

IOR is not part of this project: pass --ior (a built binary) or --ior-src
(a checkout, e.g. `git clone https://github.com/hpc/ior`; it is built
with ./bootstrap, ./configure and make into a scratch copy), or let the
script clone it from GitHub (needs the network).  Needs mpirun (Open MPI:
as root OMPI_ALLOW_RUN_AS_ROOT and its _CONFIRM twin are set for you), a C
compiler for the shim, and strace for the call counts.  As root the VM is
held still while it runs (quiet.py).
"""
import argparse
import contextlib
import json
import os
import resource
import shutil
import statistics as st
import subprocess
import sys
import tempfile
import time

from quiet import add_touch_memory, quiet

HERE = os.path.dirname(os.path.abspath(__file__))


def die(msg):
    sys.exit("mpi-ior: " + msg)


def build_ior(src, work):
    tree = os.path.join(work, "ior-build")
    if os.path.isdir(os.path.join(src, ".git")) or os.path.exists(os.path.join(src, "HEAD")):
        subprocess.run(["git", "clone", "-q", src, tree], check=True)
    else:
        shutil.copytree(src, tree)
    log = open(os.path.join(work, "ior-build.log"), "w")
    for cmd in (["./bootstrap"], ["./configure", "-q"], ["make", "-j%d" % (os.cpu_count() or 2)]):
        if subprocess.run(cmd, cwd=tree, stdout=log, stderr=subprocess.STDOUT).returncode:
            die("building IOR failed at %s (see %s)" % (" ".join(cmd), log.name))
    return os.path.join(tree, "src", "ior")


def find_ior(args, work):
    if args.ior:
        return args.ior
    src = args.ior_src
    if not src:
        src = os.path.join(work, "ior-src")
        r = subprocess.run(["git", "clone", "-q", "--depth", "1",
                            "https://github.com/hpc/ior", src],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if r.returncode:
            die("IOR could not be had: 'git clone https://github.com/hpc/ior' failed (%s); "
                "pass --ior-src with a checkout or --ior with a binary"
                % r.stderr.strip().splitlines()[-1:])
    return build_ior(src, work)


def build_shim(work):
    so = os.path.join(work, "fsync-once.so")
    cc = os.environ.get("CC", "cc")
    r = subprocess.run([cc, "-O2", "-shared", "-fPIC", "-o", so,
                        os.path.join(HERE, "fsync-once.c"), "-ldl"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode:
        die("building bench/fsync-once.c failed:\n" + r.stdout)
    return so


class Disks:
    """The cache flushes completed by the disks under a path, as the
    library counts them (`dio-info --counters --format json` of this
    build: every disk under the path, through partitions, device-mapper,
    md and loop devices), with an idle baseline subtracted."""

    def __init__(self, dio_info, path, baseline):
        self.dio_info, self.path, self.baseline = dio_info, path, baseline
        self.busy = 0
        fl, _, self.why, self.where = self.read()
        if fl is None and self.why is None:
            self.why = "no flush counts"

    def read(self):
        """(flushes of all the disks, CLOCK_MONOTONIC ns, why not, names)."""
        r = subprocess.run([self.dio_info, "--counters", "--format", "json", self.path],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            j = json.loads(r.stdout)
        except ValueError:
            return None, None, "dio-info --counters failed: " + r.stderr.strip(), None
        if j["counted"] != "yes":
            return None, None, j["why"], None
        where = ", ".join("%s (%s)" % (d["name"], d["via"]) for d in j["disks"])
        if any(d["flush_ios"] is None for d in j["disks"]):
            return None, None, "; ".join(d["note"] for d in j["disks"] if d["note"]), where
        return (sum(d["flush_ios"] for d in j["disks"]), max(d["at_ns"] for d in j["disks"]),
                None, where)

    def window(self, run):
        """run() between two reads after an idle interval of self.baseline
        seconds: run's result and its flushes less the idle rate over its
        length, or None (n/a; or other I/O too large to count: the idle
        interval's flushes scaled to the run over 10% of the run's own)."""
        if self.why is not None:
            return run(), None
        i0 = self.read()
        time.sleep(self.baseline)
        i1 = self.read()
        f0 = self.read()
        out = run()
        f1 = self.read()
        if None in (i0[0], i1[0], f0[0], f1[0]) or f1[0] < f0[0] or i1[0] < i0[0]:
            return out, None
        idle = (i1[0] - i0[0]) / ((i1[1] - i0[1]) or 1) * (f1[1] - f0[1])
        own = f1[0] - f0[0]
        if idle > 0.1 * own:
            self.busy += 1
            return out, None
        return out, own - idle


def timed(cmd, env, disks):
    """Run cmd; its output, wall seconds, CPU seconds of it and all it
    waited for, and the disks' cache flushes meanwhile (Disks.window(), or
    None)."""
    def run():
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.monotonic()
        p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True)
        wall = time.monotonic() - t0
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        return p, wall, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)

    (p, wall, cpu), fl = disks.window(run)
    if p.returncode:
        die("%s failed (exit %d):\n%s" % (" ".join(cmd), p.returncode, p.stdout[-3000:]))
    return p.stdout, wall, cpu, fl


def ior_cmd(a, ior, np, d, shim, out):
    pre = ["env", "LD_PRELOAD=" + shim] if shim else []
    return a.mpirun + [str(np)] + pre + [
        ior, "-a", "POSIX", "-w", "-F", "-Y", "-t", str(a.size), "-b", str(a.size * a.count),
        "-o", os.path.join(d, "ior.dat"), "-O", "summaryFormat=JSON", "-O", "summaryFile=" + out]


def run_ior(a, ior, np, d, env, shim, disks):
    out = os.path.join(d, "ior.json")
    _, wall, cpu, fl = timed(ior_cmd(a, ior, np, d, shim, out), env, disks)
    res = json.load(open(out))["tests"][0]["Results"][0]
    os.unlink(out)
    n = np * a.count
    return {"tps": res["iops"], "cpu_us": cpu / n * 1e6, "ior_latency_us": res["latency"] * 1e6,
            "wall": wall, "flushes": fl / n if fl is not None else None}


def sw_cmd(a, np, d, method, out):
    return a.mpirun + [str(np), a.sync_write_mpi, "-q", "-m", method, "-s", str(a.size), "-w", "1",
                       "--layout", "separate", "--extend", "--warmup", "0", "-n", str(a.count),
                       "--dir", d, "-f", "json", "-o", out]


def run_sw(a, np, d, env, method, disks):
    out = os.path.join(d, "sw.json")
    _, wall, cpu, fl = timed(sw_cmd(a, np, d, method, out), env, disks)
    doc = json.load(open(out))
    os.unlink(out)
    p = doc["points"][0]
    agg = p["aggregate"]
    if p["status"] != "ok" or agg["txns"] != np * a.count:
        die("sync-write measured %s transactions, status %s" % (agg["txns"], p["status"]))
    if abs(agg["txn_per_s"] - agg["txns"] / agg["span_s"]) > 1e-4 * agg["txn_per_s"]:
        die("sync-write's txn_per_s is not its transactions over its span")
    return {"tps": agg["txn_per_s"], "cpu_us": cpu / agg["txns"] * 1e6, "wall": wall,
            "flushes": fl / agg["txns"] if fl is not None else None,
            "ior_style_us": min(w["avg_us"] for w in p["per_writer"]),
            "avg_us": agg["avg_us"], "p50_us": agg["p50_us"], "p99_us": agg["p99_us"],
            "p999_us": agg["p999_us"], "max_us": agg["max_us"]}


def syscalls(a, cmd, env, n, work):
    """fsync() + fdatasync() calls per transaction of cmd, under strace -f -c."""
    if not shutil.which("strace"):
        return None
    log = os.path.join(work, "strace.out")
    r = subprocess.run(["strace", "-f", "-c", "-e", "trace=fsync,fdatasync", "-o", log] + cmd,
                       env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if r.returncode or not os.path.exists(log):
        return None
    calls = 0
    for line in open(log):
        f = line.split()
        if len(f) >= 5 and f[-1] in ("fsync", "fdatasync"):
            calls += int(f[3])
    os.unlink(log)
    return calls / n


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ranks", default="1,4,8")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--count", type=int, default=4000)
    ap.add_argument("--size", type=int, default=4096)
    ap.add_argument("--dir", default=None, help="where the files go (default: a new "
                    "directory in the current one)")
    ap.add_argument("--sync-write-mpi", default=os.path.join(HERE, "..", "tools", "sync-write-mpi"),
                    help="sync-write's MPI build (default: the build tree's)")
    ap.add_argument("--ior")
    ap.add_argument("--ior-src")
    ap.add_argument("--mpirun", default=shutil.which("mpirun") or "mpirun")
    ap.add_argument("--dio-info", default=os.path.join(HERE, "..", "tools", "dio-info"),
                    help="dio-info of this build, whose --counters counts the flushes")
    ap.add_argument("--baseline", type=float, default=0.05, metavar="SECONDS",
                    help="idle interval before each run whose flush rate is subtracted "
                    "(default 0.05, as sync-write's)")
    ap.add_argument("--json")
    add_touch_memory(ap)
    a = ap.parse_args()
    ranks = [int(x) for x in a.ranks.split(",")]
    if not os.access(a.dio_info, os.X_OK):
        die("no %s: dio-info of this build counts the flushes (--dio-info PATH)" % a.dio_info)
    if not 0 < a.baseline <= 60:
        die("--baseline %g: an idle interval from above 0 to 60 seconds" % a.baseline)
    if not os.access(a.sync_write_mpi, os.X_OK):
        die("no %s: sync-write's MPI build (configure --with-mpi, with an MPI)" % a.sync_write_mpi)
    v = subprocess.run([a.sync_write_mpi, "--version"], stdout=subprocess.PIPE, text=True).stdout
    if "the MPI build" not in v:
        die("%s is not sync-write's MPI build: %s" % (a.sync_write_mpi, v.strip()))
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    openmpi = "Open MPI" in subprocess.run([a.mpirun, "--version"], stdout=subprocess.PIPE,
                                           stderr=subprocess.STDOUT, text=True).stdout
    # Open MPI: more ranks than cores need --oversubscribe; MPICH: -n.
    a.mpirun = [a.mpirun, "--oversubscribe", "-np"] if openmpi else [a.mpirun, "-n"]
    base = a.dir or os.getcwd()
    work = tempfile.mkdtemp(prefix="mpi-ior.", dir=base)
    try:
        ior = find_ior(a, work)
        shim = build_shim(work)
        d = os.path.join(work, "files")
        os.mkdir(d)
        disks = Disks(a.dio_info, d, a.baseline)
        print("sync-write: %s; IOR: %s; %s ranks, %d x %d-byte transactions per rank, "
              "file per process, extended from empty, %d interleaved runs each, medians; "
              "flushes counted on %s"
              % (v.splitlines()[-1], ior, a.ranks, a.count, a.size, a.runs,
                 disks.where + ", idle baseline of %g s before each run subtracted"
                 % a.baseline if disks.why is None else "no disk: n/a (%s)" % disks.why))
        tools = [("ior", lambda np: run_ior(a, ior, np, d, env, shim, disks)),
                 ("sw-fsync", lambda np: run_sw(a, np, d, env, "fsync", disks)),
                 ("ior-as-is", lambda np: run_ior(a, ior, np, d, env, None, disks)),
                 ("sw-fdatasync", lambda np: run_sw(a, np, d, env, "fdatasync", disks))]
        out = os.path.join(d, "count.json")
        n1 = a.count
        calls = {"ior": syscalls(a, ior_cmd(a, ior, 1, d, shim, out), env, n1, work),
                 "sw-fsync": syscalls(a, sw_cmd(a, 1, d, "fsync", out), env, n1, work),
                 "ior-as-is": syscalls(a, ior_cmd(a, ior, 1, d, None, out), env, n1, work),
                 "sw-fdatasync": syscalls(a, sw_cmd(a, 1, d, "fdatasync", out), env, n1, work)}
        for f in os.listdir(d):
            os.unlink(os.path.join(d, f))
        res = {}
        with contextlib.ExitStack() as settings:
            if os.geteuid() == 0:
                settings.enter_context(quiet(touch=a.touch_memory))
            measure(a, ranks, tools, res)
        report(res, ranks, calls)
        if disks.busy:
            print("note: %d runs' flushes not counted: other I/O on %s during the idle "
                  "interval, scaled to the run, was over 10%% of the run's own"
                  % (disks.busy, disks.where))
        if a.json:
            with open(a.json, "w") as f:
                json.dump({"ranks": ranks, "count": a.count, "size": a.size, "runs": res,
                           "sync_calls_per_txn": calls}, f, indent=1)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def measure(a, ranks, tools, res):
    k = len(tools)
    for np in ranks:
        runs = {t: [] for t, _ in tools}
        for i in range(a.runs):
            order = tools[i % k:] + tools[:i % k]
            for name, fn in order:
                runs[name].append(fn(np))
        res[np] = runs


def med(rs, key):
    v = [r[key] for r in rs if r[key] is not None]
    return st.median(v) if v else None


def fmt(v, spec):
    return spec % v if v is not None else "-"


def report(res, ranks, calls):
    names = ("ior", "sw-fsync", "ior-as-is", "sw-fdatasync")
    print("\n%-5s %-13s %9s %8s %10s %8s %9s %9s" % (
        "ranks", "tool", "txn/s", "x IOR", "cpu_us/txn", "x IOR", "flush/txn", "sync/txn"))
    for np in ranks:
        r = res[np]
        base_t, base_c = med(r["ior"], "tps"), med(r["ior"], "cpu_us")
        for name in names:
            t, c = med(r[name], "tps"), med(r[name], "cpu_us")
            print("%-5d %-13s %9.0f %8.2f %10.1f %8.2f %9s %9s" % (
                np, name, t, t / base_t, c, c / base_c, fmt(med(r[name], "flushes"), "%.2f"),
                fmt(calls.get(name), "%.2f")))
    print("\nior: IOR -Y with fsync-once.c (one fsync reaching the kernel per write); "
          "ior-as-is: IOR -Y as built (its two fsyncs per write); x IOR: against ior.\n"
          "flush/txn: the disks' completed cache flushes per transaction, less the idle "
          "baseline (medians); "
          "sync/txn: fsync()+fdatasync() calls per transaction reaching the kernel "
          "(strace -f -c, 1 rank).  txn/s: both tools' transactions over their span.")
    print("\nlatency, microseconds (medians over the runs):")
    print("%-5s %-13s %12s %10s %9s %9s %9s %9s %9s" % (
        "ranks", "tool", "IOR's figure", "IOR says", "avg", "p50", "p99", "p99.9", "max"))
    for np in ranks:
        r = res[np]
        for name in ("ior", "ior-as-is"):
            print("%-5d %-13s %12s %10.0f" % (np, name, "", med(r[name], "ior_latency_us")))
        for name in ("sw-fsync", "sw-fdatasync"):
            print("%-5d %-13s %12.1f %10s %9.1f %9.1f %9.1f %9.1f %9.1f" % (
                np, name, med(r[name], "ior_style_us"), "", med(r[name], "avg_us"),
                med(r[name], "p50_us"), med(r[name], "p99_us"), med(r[name], "p999_us"),
                med(r[name], "max_us")))
    print("\nIOR's figure: the minimum over ranks of each rank's mean (what IOR reports "
          "as latency), from sync-write's per-rank rows; IOR says: IOR's own latency "
          "(its JSON, 0.1 ms resolution).  sync-write's percentiles: from the ranks' "
          "merged histograms, within 0.4% of the exact order statistic.")


if __name__ == "__main__":
    main()
