#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""sync-write benchmark: sync-write against fio and a minimal C loop.

Measures the same synchronous sequential write workloads with
  * sync-write (this project),
  * fio (psync engine: fdatasync=1, sync=dsync, direct=1 and combinations,
    numjobs = writers), the named peer,
  * bench/minloop.c, a bare pwrite+commit loop: the physical limit,
interleaved (A B, then B A, ...) so that drift hits every tool alike, and
reports medians over the pairs:

  latency   sync-write's mean time per transaction (wall time / transactions,
            so its own overhead counts) over minloop's, fdatasync and dsync,
            one writer, every size: target <= 1.05
  tps       sync-write's transactions/s over fio's, 1 and 4 writers:
            target >= 1.0
  cpu       CPU time per transaction (user + system, each tool's own
            accounting of its measured loop): sync-write within 2 us of
            minloop, and below fio

Usage: bench/sync-write-bench.py [--pairs 9] [--time 1] [--dir DIR]
         [--sync-write PATH] [--sizes 512,4096,49152,1048576] [--quick]
         [--touch-memory SIZE]
Run it on an otherwise idle machine; results go to stdout and, as JSON,
to --json FILE.  As root on a virtual machine it turns free page reporting
off and guest halt polling on for the run (see quiet.py): the page cache
the buffered methods refill would otherwise time the host's page faults,
and each wake-up of a halted virtual CPU an exit to the hypervisor, by
chance.
"""
import argparse, contextlib, json, os, shutil, statistics, subprocess, sys, tempfile

from benchlib import find_tool, sh
from quiet import add_touch_memory, quiet

HERE = os.path.dirname(os.path.abspath(__file__))


def run_sync_write(sw, d, method, size, writers, secs):
    # A fresh target for every run, prepared (written once) by sync-write
    # itself before it measures, and removed afterwards.
    out = sh([sw, "-q", "-m", method, "-s", str(size), "-w", str(writers),
              "--layout", "separate", "-t", "%gs" % secs, "-f", "json", "--dir", d])
    p = json.loads(out)["points"][0]
    if p["status"] != "ok":
        sys.exit("sync-write %s %d: %s" % (method, size, p["note"]))
    a = p["aggregate"]
    return {"tps": a["txn_per_s"], "mean_us": 1e6 / a["txn_per_s"] * writers,
            "avg_us": a["avg_us"], "cpu_us": a["cpu_us_per_txn"],
            "user_us": a["cpu_user_s"] / a["txns"] * 1e6}


def drop_cache(path):
    """Same start for every tool: none of the file's pages cached (sync-write
    does this itself before each point)."""
    if os.path.exists(path):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)


def run_fio(d, method, size, writers, secs):
    for j in range(writers):
        drop_cache(os.path.join(d, "fio.%d" % j))
    args = ["fio", "--name=w", "--directory=" + d, "--filename_format=fio.$jobnum",
            "--size=64m", "--bs=%d" % size, "--rw=write", "--ioengine=psync",
            "--numjobs=%d" % writers, "--time_based", "--runtime=%dms" % int(secs * 1000),
            "--overwrite=1", "--output-format=json"]
    if method.startswith("direct+"):
        args.append("--direct=1")
        method = method[7:]
    args.append({"fdatasync": "--fdatasync=1", "fsync": "--fsync=1",
                 "dsync": "--sync=dsync", "sync": "--sync=sync"}[method])
    out = sh(args)
    jobs = json.loads(out[out.index("{"):])["jobs"]
    ios = sum(j["write"]["total_ios"] for j in jobs)
    runtime = max(j["job_runtime"] for j in jobs) / 1e3
    cpu = sum((j["usr_cpu"] + j["sys_cpu"]) / 100 * j["job_runtime"] / 1e3 for j in jobs)
    usr = sum(j["usr_cpu"] / 100 * j["job_runtime"] / 1e3 for j in jobs)
    return {"tps": ios / runtime, "mean_us": runtime / ios * 1e6 * writers,
            "cpu_us": cpu / ios * 1e6, "user_us": usr / ios * 1e6}


def run_minloop(ml, d, method, size, secs):
    drop_cache(os.path.join(d, "ml"))
    out = sh([ml, os.path.join(d, "ml"), str(size), method, str(secs)])
    kv = dict(x.split("=") for x in out.split())
    return {"tps": float(kv["txns"]) / float(kv["elapsed_s"]),
            "mean_us": float(kv["mean_us"]), "cpu_us": float(kv["cpu_us_per_txn"]),
            "user_us": float(kv["user_us_per_txn"])}


def report_latency(data):
    med = statistics.median
    ok = True
    print("\nlatency (1 writer): mean us per transaction, and CPU us per transaction")
    print("%-20s %8s %8s %8s %6s | %7s %7s %7s %6s | %6s %6s %6s %s" % (
        "method/size", "sync-wr", "minloop", "fio", "sw/min", "cpu_sw", "cpu_min",
        "cpu_fio", "sw-min", "usr_sw", "usr_mn", "usr_fi", "verdict"))
    for k, runs in data["latency"].items():
        sw_l = [r["mean_us"] for r in runs["sync-write"]]
        ml_l = [r["mean_us"] for r in runs["minloop"]]
        fi_l = [r["mean_us"] for r in runs["fio"]]
        ratio = med([s / m for s, m in zip(sw_l, ml_l)])
        c_sw = med([r["cpu_us"] for r in runs["sync-write"]])
        c_ml = med([r["cpu_us"] for r in runs["minloop"]])
        c_fi = med([r["cpu_us"] for r in runs["fio"]])
        u_sw = med([r["user_us"] for r in runs["sync-write"]])
        u_ml = med([r["user_us"] for r in runs["minloop"]])
        u_fi = med([r["user_us"] for r in runs["fio"]])
        good = ratio <= 1.05 and c_sw - c_ml <= 2.0 and c_sw < c_fi
        ok &= good
        print("%-20s %8.1f %8.1f %8.1f %6.3f | %7.2f %7.2f %7.2f %+6.2f | %6.2f %6.2f %6.2f %s" % (
            k, med(sw_l), med(ml_l), med(fi_l), ratio, c_sw, c_ml, c_fi, c_sw - c_ml,
            u_sw, u_ml, u_fi, "ok" if good else "MISSED"))
    return ok


def report_tps(data):
    med = statistics.median
    ok = True
    print("\nthroughput (4 KiB): transactions/s, all writers")
    print("%-24s %10s %10s %8s %s" % ("method/writers", "sync-wr", "fio", "sw/fio", "verdict"))
    for k, runs in data["tps"].items():
        s = [r["tps"] for r in runs["sync-write"]]
        f = [r["tps"] for r in runs["fio"]]
        ratio = med([x / y for x, y in zip(s, f)])
        good = ratio >= 1.0
        ok &= good
        print("%-24s %10.0f %10.0f %8.3f %s" % (k, med(s), med(f), ratio,
                                              "ok" if good else "MISSED"))
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pairs", type=int, default=9)
    ap.add_argument("--time", type=float, default=1.0, help="seconds per run")
    ap.add_argument("--dir", help="directory on the file system to test")
    ap.add_argument("--sync-write")
    ap.add_argument("--sizes", default="512,4096,49152,1048576")
    ap.add_argument("--json", help="write all measurements here")
    ap.add_argument("--quick", action="store_true", help="3 pairs of 0.3 s (a smoke test)")
    ap.add_argument("--only", choices=["latency", "tps"],
                    help="run one of the two parts (e.g. --only latency --time 5 to "
                         "resolve CPU time better: the kernel may sample it per tick)")
    add_touch_memory(ap)
    a = ap.parse_args()
    if a.quick:
        a.pairs, a.time = 3, 0.3
    if not shutil.which("fio"):
        sys.exit("fio is not installed (apt-get install fio)")
    sw = find_tool("sync-write", a.sync_write)
    d = tempfile.mkdtemp(prefix="sw-bench.", dir=a.dir or os.getcwd())
    ml = os.path.join(d, "minloop")
    sh(["cc", "-O2", "-o", ml, os.path.join(HERE, "minloop.c")])
    with open(os.path.join(d, "ml"), "wb") as f:
        f.write(b"\0" * (64 << 20))
        os.fsync(f.fileno())
    sizes = [int(s) for s in a.sizes.split(",")]
    fstype = sh(["stat", "-f", "-c", "%T", d]).strip()
    print("sync-write %s vs fio (%s) vs minloop, %s, %d pairs of %g s, median of pairs"
          % (sh([sw, "--version"]).split()[2], sh(["fio", "--version"]).strip(),
             fstype, a.pairs, a.time))

    data = {"latency": {}, "tps": {}}
    settings = contextlib.ExitStack()
    settings.enter_context(quiet(touch=a.touch_memory))
    try:
        # latency and CPU: 1 writer, every size, fdatasync and dsync
        for method in ("fdatasync", "dsync") if a.only != "tps" else ():
            for size in sizes:
                runs = {"sync-write": [], "minloop": [], "fio": []}
                for i in range(a.pairs):
                    order = ["sync-write", "minloop", "fio"]
                    if i % 2:
                        order.reverse()
                    for t in order:
                        if t == "sync-write":
                            r = run_sync_write(sw, d, method, size, 1, a.time)
                        elif t == "minloop":
                            r = run_minloop(ml, d, method, size, a.time)
                        else:
                            r = run_fio(d, method, size, 1, a.time)
                        runs[t].append(r)
                data["latency"]["%s/%d" % (method, size)] = runs
        ok_lat = report_latency(data) if data["latency"] else True
        sys.stdout.flush()
        # throughput: 1 and 4 writers, against fio
        for writers in (1, 4) if a.only != "latency" else ():
            for method in ("fdatasync", "dsync", "direct+fdatasync", "direct+dsync"):
                runs = {"sync-write": [], "fio": []}
                for i in range(a.pairs):
                    order = ["sync-write", "fio"] if i % 2 == 0 else ["fio", "sync-write"]
                    for t in order:
                        if t == "sync-write":
                            runs[t].append(run_sync_write(sw, d, method, 4096, writers, a.time))
                        else:
                            runs[t].append(run_fio(d, method, 4096, writers, a.time))
                data["tps"]["%s/w%d" % (method, writers)] = runs
        ok_tps = report_tps(data) if data["tps"] else True
    finally:
        settings.close()
        shutil.rmtree(d, ignore_errors=True)
        if a.json:
            with open(a.json, "w") as f:
                json.dump(data, f, indent=1)
    ok = ok_lat and ok_tps
    print("\ntargets: latency sw/minloop <= 1.05; CPU sw - minloop <= 2 us and sw < fio;"
          " tps sw/fio >= 1.0 -> %s" % ("all met" if ok else "NOT all met"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
