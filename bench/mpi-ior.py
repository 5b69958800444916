#!/usr/bin/env python3
"""mpi-ior.py -- sync-write over MPI against IOR, the field's MPI I/O
benchmark, with the same ranks, transfer size and file layout.

  bench/mpi-ior.py [--ranks 1,4,8] [--runs 5] [--count 4000] [--size 4096]
                   [--dir DIR] [--sync-write PATH] [--ior PATH | --ior-src SRC]
                   [--mpirun PATH] [--json OUT]

The workload: every rank writes COUNT transactions of SIZE bytes
sequentially to a new file of its own (file per process) and makes each
durable before the next: IOR `-a POSIX -w -F -Y -t SIZE -b COUNT*SIZE`
(-Y: fsync after every write) against `sync-write --layout separate
--extend -w 1 --warmup 0 -n COUNT`, once with fsync (IOR's call) and once
with fdatasync.  For each rank count the three run in turn, RUNS times,
the order rotating (interleaved, so drift hits all alike); medians are
reported:

  - transactions/s of the job: IOR's "iops" (all transfers / the time from
    the first open to the last close), sync-write's aggregate txn_per_s
    (the sum of the ranks', each over its common window);
  - CPU per transaction: user + system time of the whole job (mpirun and
    every process it waited for, from getrusage of the children) over the
    transactions: the same measure for both tools, start-up included;
  - latency: what IOR's figure would say (the minimum over tasks of each
    task's mean, computed from sync-write's own per-rank rows, and IOR's
    reported "latency") against the exact merged mean, p50, p99, p99.9
    and max.

IOR is not part of this project: pass --ior (a built binary) or --ior-src
(a checkout, e.g. `git clone https://github.com/hpc/ior`; it is built
with ./bootstrap, ./configure and make into a scratch copy), or let the
script clone it from GitHub (needs the network).  Needs mpirun (Open MPI:
as root OMPI_ALLOW_RUN_AS_ROOT and its _CONFIRM twin are set for you).
As root the VM is held still while it runs (quiet.py).
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

from quiet import quiet

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


def timed(cmd, env):
    """Run cmd; its output, wall seconds and CPU seconds of it and all it waited for."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    wall = time.monotonic() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    if p.returncode:
        die("%s failed (exit %d):\n%s" % (" ".join(cmd), p.returncode, p.stdout[-3000:]))
    return p.stdout, wall, cpu


def run_ior(a, ior, np, d, env):
    out = os.path.join(d, "ior.json")
    cmd = a.mpirun + [str(np), ior, "-a", "POSIX", "-w", "-F", "-Y", "-t", str(a.size),
                      "-b", str(a.size * a.count), "-o", os.path.join(d, "ior.dat"),
                      "-O", "summaryFormat=JSON", "-O", "summaryFile=" + out]
    _, wall, cpu = timed(cmd, env)
    res = json.load(open(out))["tests"][0]["Results"][0]
    os.unlink(out)
    n = np * a.count
    return {"tps": res["iops"], "cpu_us": cpu / n * 1e6, "ior_latency_us": res["latency"] * 1e6,
            "wall": wall}


def run_sw(a, np, d, env, method):
    out = os.path.join(d, "sw.json")
    cmd = a.mpirun + [str(np), a.sync_write, "-q", "-m", method, "-s", str(a.size), "-w", "1",
                      "--layout", "separate", "--extend", "--warmup", "0", "-n", str(a.count),
                      "--dir", d, "-f", "json", "-o", out]
    _, wall, cpu = timed(cmd, env)
    doc = json.load(open(out))
    os.unlink(out)
    p = doc["points"][0]
    agg = p["aggregate"]
    if p["status"] != "ok" or agg["txns"] != np * a.count:
        die("sync-write measured %s transactions, status %s" % (agg["txns"], p["status"]))
    return {"tps": agg["txn_per_s"], "cpu_us": cpu / agg["txns"] * 1e6, "wall": wall,
            "ior_style_us": min(w["avg_us"] for w in p["per_writer"]),
            "avg_us": agg["avg_us"], "p50_us": agg["p50_us"], "p99_us": agg["p99_us"],
            "p999_us": agg["p999_us"], "max_us": agg["max_us"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ranks", default="1,4,8")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--count", type=int, default=4000)
    ap.add_argument("--size", type=int, default=4096)
    ap.add_argument("--dir", default=None, help="where the files go (default: a new "
                    "directory in the current one)")
    ap.add_argument("--sync-write", default=os.path.join(HERE, "..", "tools", "sync-write"))
    ap.add_argument("--ior")
    ap.add_argument("--ior-src")
    ap.add_argument("--mpirun", default=shutil.which("mpirun") or "mpirun")
    ap.add_argument("--json")
    a = ap.parse_args()
    ranks = [int(x) for x in a.ranks.split(",")]
    v = subprocess.run([a.sync_write, "--version"], stdout=subprocess.PIPE, text=True).stdout
    if "MPI: not built" in v or "MPI:" not in v:
        die("%s was built without MPI (configure --with-mpi)" % a.sync_write)
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    openmpi = "Open MPI" in subprocess.run([a.mpirun, "--version"], stdout=subprocess.PIPE,
                                           stderr=subprocess.STDOUT, text=True).stdout
    # Open MPI: more ranks than cores need --oversubscribe; MPICH: -n.
    a.mpirun = [a.mpirun, "--oversubscribe", "-np"] if openmpi else [a.mpirun, "-n"]
    base = a.dir or os.getcwd()
    work = tempfile.mkdtemp(prefix="mpi-ior.", dir=base)
    try:
        ior = find_ior(a, work)
        d = os.path.join(work, "files")
        os.mkdir(d)
        print("sync-write: %s; IOR: %s; %s ranks, %d x %d-byte transactions per rank, "
              "file per process, %d interleaved runs each, medians"
              % (v.splitlines()[-1], ior, a.ranks, a.count, a.size, a.runs))
        tools = [("ior", lambda np: run_ior(a, ior, np, d, env)),
                 ("sw-fsync", lambda np: run_sw(a, np, d, env, "fsync")),
                 ("sw-fdatasync", lambda np: run_sw(a, np, d, env, "fdatasync"))]
        res = {}
        with contextlib.ExitStack() as settings:
            if os.geteuid() == 0:
                settings.enter_context(quiet())
            measure(a, ranks, tools, res)
        report(res, ranks)
        if a.json:
            with open(a.json, "w") as f:
                json.dump({"ranks": ranks, "count": a.count, "size": a.size, "runs": res}, f,
                          indent=1)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def measure(a, ranks, tools, res):
    for np in ranks:
        runs = {t: [] for t, _ in tools}
        for i in range(a.runs):
            order = tools[i % 3:] + tools[:i % 3]
            for name, fn in order:
                runs[name].append(fn(np))
        res[np] = runs


def med(rs, key):
    return st.median(r[key] for r in rs)


def report(res, ranks):
    print("\n%-5s %-13s %9s %8s %9s %8s" % ("ranks", "tool", "txn/s", "x IOR", "cpu_us/txn",
                                             "x IOR"))
    ok = {"sw-fsync": True, "sw-fdatasync": True}
    for np in ranks:
        r = res[np]
        base_t, base_c = med(r["ior"], "tps"), med(r["ior"], "cpu_us")
        for name in ("ior", "sw-fsync", "sw-fdatasync"):
            t, c = med(r[name], "tps"), med(r[name], "cpu_us")
            print("%-5d %-13s %9.0f %8.2f %9.1f %8.2f" % (np, name, t, t / base_t, c, c / base_c))
            if name != "ior":
                ok[name] &= t / base_t >= 1.0 and c <= base_c
    print("\nlatency, microseconds (medians over the runs):")
    print("%-5s %-13s %12s %10s %9s %9s %9s %9s %9s" % (
        "ranks", "tool", "IOR's figure", "IOR says", "avg", "p50", "p99", "p99.9", "max"))
    for np in ranks:
        r = res[np]
        print("%-5d %-13s %12s %10.0f" % (np, "ior", "", med(r["ior"], "ior_latency_us")))
        for name in ("sw-fsync", "sw-fdatasync"):
            print("%-5d %-13s %12.1f %10s %9.1f %9.1f %9.1f %9.1f %9.1f" % (
                np, name, med(r[name], "ior_style_us"), "", med(r[name], "avg_us"),
                med(r[name], "p50_us"), med(r[name], "p99_us"), med(r[name], "p999_us"),
                med(r[name], "max_us")))
    print("\nIOR's figure: the minimum over ranks of each rank's mean (what IOR reports "
          "as latency), from sync-write's per-rank rows; IOR says: IOR's own latency "
          "(its JSON, 0.1 ms resolution).")
    print("target (sync-write fdatasync: txn/s >= IOR's and CPU per transaction <= IOR's "
          "at every rank count): %s" % ("met" if ok["sw-fdatasync"] else "NOT met"))
    print("the same for sync-write fsync (IOR's own call): %s"
          % ("met" if ok["sw-fsync"] else "NOT met"))


if __name__ == "__main__":
    main()
