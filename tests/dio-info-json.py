#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""dio-info-json.py -- check one `dio-info --format json` report (stdin).

  dio-info-json.py [--expect KEY=VALUE]... [--advice ID]... [--no-advice ID]...
  dio-info-json.py --counters [--stat-before FILE] [--expect KEY=VALUE]...

1. It parses, and every section has exactly the documented keys (see
   man/dio-info.1, JSON OUTPUT); unknown facts are null.
2. Every advice entry is present exactly when the fact it is derived from
   holds in the same report (the rules below restate dio-info's).
3. --expect a.b.c=VALUE: that key has that value (JSON literal, or a
   plain string); --advice / --no-advice: that advice id is / is not there.

With --counters the report is `dio-info --counters --format json`'s:
its keys and each disk's; for a counted disk its counters lie between
the disk's /sys/block/NAME/stat read before the run (--stat-before FILE:
lines "NAME FIELDS...") and read now, after it; n/a has a reason.

Prints what is wrong; exit 0 when nothing is.
"""
import json
import os
import sys

TOP = ["tool", "version", "library", "backend", "os", "path", "type",
       "file_size", "fs_type", "direct_io", "alignment", "device", "sg",
       "scsi", "durability", "advice"]
SECTIONS = {
    "direct_io": ["supported", "mechanism", "probe", "probe_file",
                  "write_probe", "write_probe_detail", "detail", "ignored_by_fs",
                  "stable_writes", "limits"],
    "alignment": ["mem_align", "offset_align", "read_offset_align",
                  "logical_block", "physical_block", "preferred_io", "source",
                  "large_page_bytes"],
    "device": ["error", "kind", "path", "disk", "name", "settings_dir",
               "size_bytes", "in_use", "in_use_reason", "max_sectors_kb",
               "max_hw_sectors_kb", "max_segments", "read_ahead_kb",
               "scheduler", "schedulers", "nr_requests", "rotational",
               "write_cache", "fs_sync_disabled", "sync_always", "fua", "dma_align_bytes", "optimal_io_size",
               "minimum_io_size", "logical_block_size", "physical_block_size",
               "read_only", "removable", "scsi_address", "wwid", "id_serial",
               "loop_backing_file", "loop_direct_io", "controller",
               "media_type"],
    "sg": ["driver", "module", "allow_dio", "allow_dio_path", "version",
           "version_string", "node"],
    "scsi": ["device", "available", "error", "vendor", "product", "revision",
             "peripheral_type", "peripheral_type_name", "serial", "blocks",
             "block_length", "capacity_bytes", "wce", "rcd", "cache_error"],
    "durability": ["volatile_write_cache", "evidence", "commit_flush", "flush_counts",
                   "flush_counts_why"],
}
COUNTERS_TOP = ["tool", "version", "backend", "path", "counted", "why", "disks"]
COUNTERS_DISK = ["name", "device", "via", "write_cache", "device_cache", "fua", "have",
                 "err", "at_ns", "read_ios", "read_sectors", "write_ios", "write_merges",
                 "write_sectors", "write_ms", "flush_ios", "flush_ms", "in_flight", "note"]
# /sys/block/NAME/stat's field of each counter (Documentation/block/stat.rst)
STAT_FIELD = {"read_ios": 0, "read_sectors": 2, "write_ios": 4, "write_merges": 5,
              "write_sectors": 6, "write_ms": 7, "flush_ios": 15, "flush_ms": 16}
ADVICE_KEYS = ["id", "text", "actions"]
ACTION_KEYS = ["kind", "file", "text"]

errors = []


def bad(msg):
    errors.append(msg)


def page_kb():
    try:
        return os.sysconf("SC_PAGESIZE") // 1024
    except (ValueError, OSError):
        return 4


def large_page():
    """The large page dio_large_page_size() should give on this Linux: the
    THP size unless THP is switched off, else None.  (A report from another
    kernel, the qemu guest's, is only checked for its form.)"""
    thp = "/sys/kernel/mm/transparent_hugepage"
    try:
        with open(thp + "/enabled") as f:
            if "[never]" in f.read():
                return None
        with open(thp + "/hpage_pmd_size") as f:
            return int(f.read())
    except (OSError, ValueError):
        return None


def rules(r):
    """advice id -> whether its fact holds in report r."""
    d, sg, scsi, dio, al = r["device"], r["sg"], r["scsi"], r["direct_io"], r["alignment"]
    linux = r["backend"] == "linux"
    is_dev = r["type"] in ("block device", "character device")
    want = {}

    cur, hw, segs = d["max_sectors_kb"], d["max_hw_sectors_kb"], d["max_segments"]
    target = None
    if cur and hw and cur < hw and d["settings_dir"]:
        target = hw
        if segs and segs * page_kb() < target:
            target = segs * page_kb()
    want["max-sectors"] = target is not None and target > cur
    node = sg["node"]
    want["allow-dio"] = bool(node) and sg["allow_dio"] is False and linux
    want["sg-direct"] = bool(node) and sg["allow_dio"] is True
    want["sg-node"] = bool(node) and d["kind"] != "sg device" and bool(d["path"])
    vol = (True if d["write_cache"] is True or scsi["wce"] is True else
           False if d["write_cache"] is False or scsi["wce"] is False else None)
    flush = r["durability"]["commit_flush"]
    sunos_node = r["backend"] == "sunos" and is_dev and d["kind"] == "block device"
    want["write-cache"] = vol is True and flush is not False
    want["no-flush"] = flush is False and vol is not False and d["fs_sync_disabled"] is not True
    pseudo = sunos_node and (d["name"] or "").startswith(("lofi", "ramdisk"))
    want["node-flush"] = vol is None and flush is not False and sunos_node and not pseudo
    want["lofi-backing"] = pseudo and d["name"].startswith("lofi")
    want["ramdisk"] = pseudo and d["name"].startswith("ramdisk")
    want["write-cache-mismatch"] = scsi["wce"] is True and d["write_cache"] is False
    want["read-ahead"] = (d["rotational"] is True and d["read_ahead_kb"] is not None
                          and d["read_ahead_kb"] < 1024 and bool(d["settings_dir"]))
    want["scheduler"] = (d["rotational"] is False and bool(d["scheduler"])
                         and d["scheduler"] not in ("none", "mq-deadline")
                         and "none" in (d["schedulers"] or [])
                         and bool(d["settings_dir"]))
    want["alignment"] = dio["supported"] is True and al["offset_align"] is not None
    lb, pb = d["logical_block_size"], d["physical_block_size"]
    want["physical-block"] = bool(lb and pb and pb > lb)
    want["optimal-io"] = bool(d["optimal_io_size"])
    want["no-direct"] = dio["supported"] is False and not is_dev
    want["zfs-direct"] = linux and dio["mechanism"] == "O_DIRECT" and r["fs_type"] == "zfs"
    want["loop-buffered"] = bool(d["loop_backing_file"]) and d["loop_direct_io"] is False
    want["in-use"] = d["in_use"] is True and (is_dev or d["kind"] != "file")
    want["in-use-unknown"] = (d["in_use"] is None and bool(d["in_use_reason"])
                              and (is_dev or d["kind"] != "file"))
    want["sync-disabled"] = d["fs_sync_disabled"] is True
    want["sync-always"] = d["sync_always"] is True and d["fs_sync_disabled"] is not True
    want["direct-stable"] = dio["stable_writes"] is True and not is_dev
    return want


def get(r, dotted):
    v = r
    for k in dotted.split("."):
        if not isinstance(v, dict) or k not in v:
            raise KeyError(dotted)
        v = v[k]
    return v


def check_counters(r, before):
    """A --counters report: its keys; each disk's counters between the
    stat file read before (before: name -> fields) and now."""
    if list(r) != COUNTERS_TOP:
        bad("top-level keys %s, want %s" % (list(r), COUNTERS_TOP))
        return
    if r["counted"] == "no":
        if not r["why"] or r["disks"]:
            bad("n/a without a reason, or with disks: %r" % r)
        return
    if r["counted"] != "yes" or r["why"] is not None or not r["disks"]:
        bad("counted %r, why %r, %d disks" % (r["counted"], r["why"], len(r["disks"])))
    for d in r["disks"]:
        if list(d) != COUNTERS_DISK:
            bad("disk keys %s, want %s" % (list(d), COUNTERS_DISK))
            continue
        for k in ("write_cache", "device_cache", "fua"):
            if d[k] not in ("yes", "no", "unknown"):
                bad("%s %s is %r" % (d["name"], k, d[k]))
        try:
            with open("/sys/block/%s/stat" % d["name"]) as f:
                now = [int(x) for x in f.read().split()]
        except OSError as e:
            bad("%s: no stat file (%s)" % (d["name"], e))
            continue
        if ("flush" in d["have"]) != (len(now) >= 17):
            bad("%s: have %s, the stat file has %d fields" % (d["name"], d["have"], len(now)))
        for k, i in STAT_FIELD.items():
            if i >= len(now):
                if d[k] is not None:
                    bad("%s: %s is %r, the stat file has no such field" % (d["name"], k, d[k]))
                continue
            lo = before.get(d["name"], [0] * len(now))[i]
            if d[k] is None or not lo <= d[k] <= now[i]:
                bad("%s: %s is %r, not within %d..%d (the stat file before and after)"
                    % (d["name"], k, d[k], lo, now[i]))


def main(argv):
    expects, present, absent = [], [], []
    i = 1
    counters, before = False, {}
    while i < len(argv):
        if argv[i] == "--counters":
            counters = True
            i -= 1
        elif argv[i] == "--stat-before" and i + 1 < len(argv):
            with open(argv[i + 1]) as f:
                for line in f:
                    w = line.split()
                    before[w[0]] = [int(x) for x in w[1:]]
        elif argv[i] == "--expect" and i + 1 < len(argv):
            k, _, v = argv[i + 1].partition("=")
            expects.append((k, v))
        elif argv[i] == "--advice" and i + 1 < len(argv):
            present.append(argv[i + 1])
        elif argv[i] == "--no-advice" and i + 1 < len(argv):
            absent.append(argv[i + 1])
        else:
            print("usage: dio-info-json.py [--expect K=V] [--advice ID] [--no-advice ID]")
            return 99
        i += 2
    text = sys.stdin.read()
    try:
        r = json.loads(text)
    except ValueError as e:
        print("not JSON: %s" % e)
        print(text[:2000])
        return 1

    if counters:
        check_counters(r, before)
        return finish(r, expects)
    if list(r.keys()) != TOP:
        bad("top-level keys %s, want %s" % (list(r.keys()), TOP))
    for sec, keys in SECTIONS.items():
        got = list(r.get(sec, {}).keys())
        if got != keys:
            bad("%s keys %s, want %s" % (sec, got, keys))
        for k, v in r.get(sec, {}).items():
            if v == "" or v == []:
                bad("%s.%s is empty instead of null" % (sec, k))
    du = r.get("durability", {})
    if du.get("flush_counts") is not True and r["backend"] == "linux" and \
            not du.get("flush_counts_why"):
        bad("durability.flush_counts is %r without a reason" % du.get("flush_counts"))
    if du.get("flush_counts") is True and du.get("flush_counts_why") is not None:
        bad("durability.flush_counts is true with a reason %r" % du["flush_counts_why"])
    ids = []
    for a in r.get("advice", []):
        if list(a.keys()) != ADVICE_KEYS:
            bad("advice keys %s" % list(a.keys()))
            continue
        ids.append(a["id"])
        if not a["text"]:
            bad("advice %s has no text" % a["id"])
        for x in a["actions"]:
            if list(x.keys()) != ACTION_KEYS or not x["text"]:
                bad("advice %s: bad action %s" % (a["id"], x))
    if len(ids) != len(set(ids)):
        bad("advice ids repeat: %s" % ids)
    if errors:
        for e in errors:
            print("FAIL: " + e)
        return 1

    # The volatile cache: yes when the kernel or the device says so, no
    # when one says no and none yes, else unknown.
    d, sc = r["device"], r["scsi"]
    vol = (True if d["write_cache"] is True or sc["wce"] is True else
           False if d["write_cache"] is False or sc["wce"] is False else None)
    if r["durability"]["volatile_write_cache"] is not vol:
        bad("durability.volatile_write_cache is %r, want %r (write_cache %r, wce %r)"
            % (r["durability"]["volatile_write_cache"], vol, d["write_cache"], sc["wce"]))

    lp = r.get("alignment", {}).get("large_page_bytes")
    here = r.get("os") == "%s %s" % (os.uname().sysname, os.uname().release)
    if r["backend"] == "linux" and here and lp != large_page():
        bad("alignment.large_page_bytes is %r, want %r (from sysfs)" % (lp, large_page()))
    if r["backend"] == "linux" and lp is not None and (lp & (lp - 1) or lp <= 4096):
        bad("alignment.large_page_bytes %r is not a power of two above 4 KiB" % lp)
    if r["backend"] == "posix" and lp is not None:
        bad("alignment.large_page_bytes is %r on the posix backend" % lp)
    for aid, holds in rules(r).items():
        if holds and aid not in ids:
            bad("advice %s missing although its fact holds" % aid)
        if not holds and aid in ids:
            bad("advice %s given although its fact does not hold" % aid)
    for aid in ids:
        if aid not in rules(r):
            bad("advice %s has no rule here" % aid)
    for aid in present:
        if aid not in ids:
            bad("advice %s expected" % aid)
    for aid in absent:
        if aid in ids:
            bad("advice %s not expected" % aid)
    return finish(r, expects)


def finish(r, expects):
    """The --expect checks, then what was wrong; the exit status."""
    for k, v in expects:
        try:
            got = get(r, k)
        except KeyError:
            bad("no key %s" % k)
            continue
        try:
            want = json.loads(v)
        except ValueError:
            want = v
        if got != want:
            bad("%s is %r, want %r" % (k, got, want))
    for e in errors:
        print("FAIL: " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
