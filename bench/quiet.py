# SPDX-License-Identifier: BSD-2-Clause
"""Quieter measurements on a virtual machine: two guest settings, for the
length of a benchmark only, each put back afterwards.

1. Free page reporting off.  A guest with virtio-balloon free page
   reporting hands the free memory it has had for a couple of seconds back
   to the host; touching those pages again costs the host a fault for
   each.  A benchmark that drops a page cache and refills it (buffered
   reads and writes of a few GiB) then times the host's page faults as much
   as the I/O path, and by chance: how much of the free memory the guest
   gets back already reported depends on how long ago it was freed.  One
   tool's run after another's pays for it differently, and on the machine
   where these benchmarks were written that made single runs of the same
   command vary by 3x.  no_page_reporting() raises the page order that
   reporting waits for to the largest value the kernel accepts, one above
   its largest page order, so that no free block ever qualifies.  What
   was reported before stays reported: its pages come back one fault at a
   time during the runs, unless the user lets touch_free_memory() fault
   them back now (--touch-memory SIZE: map and write at most SIZE of the
   free memory, never more than all of it but 2 GiB, then unmap it).  It
   is off by default, because filling a machine's free memory pushes other
   programs' page cache out and, on a host that is not a guest, only costs
   time; without it, runs that refill a page cache may vary more, and the
   note at the start says so.  17 GiB took 51 s the first time and 10 s
   the second on the machine where these benchmarks were written.

2. Guest halt polling on.  The cpuidle-haltpoll driver can poll for a
   while before it halts an idle virtual CPU; with its limit at 0 (as on
   the machine where these benchmarks were written) every idle CPU halts at
   once, and waking it (an interrupt, or a task woken on it) costs an exit
   to the hypervisor and back.  A queue-depth-1 benchmark wakes a CPU for
   nearly every I/O, so its throughput then measures where the scheduler
   happened to put the submitting task and the kernel worker that serves
   it, more than the tool: there, one tool's 128 KiB O_DIRECT writes to a
   loop device ran at 1300-1900 MB/s by turns, and both tools ran twice as
   fast and steadily with polling on.  halt_polling() sets
   /sys/module/haltpoll/parameters/guest_halt_poll_ns (the most a CPU polls
   before it halts) to 200 us.  It costs host CPU while a run lasts.

Both need root and the parameter (Linux 5.14+ and a balloon with the
feature; the haltpoll cpuidle driver in use); without them they do nothing
and say so.  quiet() does both; add_touch_memory() gives a benchmark's
argument parser the --touch-memory option that quiet() takes.  A run
killed with SIGKILL leaves the settings changed: put back the values
printed at the start.
"""
import argparse, contextlib, errno, mmap, sys, time

from benchlib import size_bytes

PAGE_REPORTING = "/sys/module/page_reporting/parameters/page_reporting_order"
HALT_POLL_NS = "/sys/module/haltpoll/parameters/guest_halt_poll_ns"
CPUIDLE_DRIVER = "/sys/devices/system/cpu/cpuidle/current_driver"
HALT_POLL_RUN = 200000
TOUCH_MARGIN = 2 << 30      # free memory never touched: the system's own


def _read(path):
    with open(path) as f:
        return f.read().strip()


def _write(path, value):
    with open(path, "w") as f:
        f.write(str(value))


@contextlib.contextmanager
def _setting(path, old, new, what, log):
    """Hold path at new for the with-block, old afterwards."""
    print("note: %s for the run: %s %s -> %s; restored afterwards" % (what, path, old, new),
          file=log)
    try:
        yield True
    finally:
        _write(path, old)


def _meminfo(key):
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1]) * 1024
    raise OSError(errno.ENOENT, "no %s in /proc/meminfo" % key)


def touch_free_memory(limit, log=sys.stdout, margin=TOUCH_MARGIN):
    """Map and write at most limit bytes of free memory once, never more
    than all of it but margin, then let it go."""
    t = time.monotonic()
    want = min(limit, min(_meminfo("MemFree"), _meminfo("MemAvailable")) - margin)
    chunk, zero, maps, done = 256 << 20, bytes(64 << 20), [], 0
    try:
        while done + chunk <= want:
            m = mmap.mmap(-1, chunk)
            maps.append(m)
            for _ in range(chunk // len(zero)):
                m.write(zero)
            done += chunk
    except (OSError, MemoryError) as e:
        print("note: touching free memory stopped early (%s)" % e, file=log)
    finally:
        for m in maps:
            m.close()
    print("note: touched %.1f GiB of free memory (--touch-memory %.1f GiB) in %.1f s "
          "(pages reported before come back now, not during the runs)"
          % (done / 2.0 ** 30, limit / 2.0 ** 30, time.monotonic() - t), file=log)


def _touch(limit, log):
    """touch_free_memory() if the user allowed it, else say what is not done."""
    if limit > 0:
        touch_free_memory(limit, log)
    else:
        print("note: free memory left untouched (--touch-memory SIZE allows it): pages "
              "the balloon reported before fault back during the runs, which may vary "
              "more", file=log)


@contextlib.contextmanager
def no_page_reporting(log=sys.stdout, touch=0):
    try:
        old = _read(PAGE_REPORTING)
        new = None
        for order in range(32, int(old), -1):     # the first value taken is the largest
            try:
                _write(PAGE_REPORTING, order)
                new = order
                break
            except OSError as e:
                if e.errno != errno.EINVAL:     # not root, read-only: give up
                    raise
    except OSError as e:
        print("note: free page reporting left as it is (%s)" % (e.strerror or e), file=log)
        yield False
        return
    if new is None:
        print("note: free page reporting (virtio-balloon) is already off (order %s, the "
              "largest accepted)" % old, file=log)
        _touch(touch, log)
        yield True
        return
    with _setting(PAGE_REPORTING, old, new, "free page reporting (virtio-balloon) off",
                  log) as r:
        _touch(touch, log)
        yield r


@contextlib.contextmanager
def halt_polling(log=sys.stdout, ns=HALT_POLL_RUN):
    try:
        driver = _read(CPUIDLE_DRIVER)
        old = _read(HALT_POLL_NS)
        if driver != "haltpoll":
            raise OSError(errno.ENOENT, "the cpuidle driver is %s, not haltpoll" % driver)
        if int(old) < ns:
            _write(HALT_POLL_NS, ns)
    except OSError as e:
        print("note: guest halt polling left as it is (%s)" % (e.strerror or e), file=log)
        yield False
        return
    # The with-block runs outside the try: an OSError of its own is not ours.
    if int(old) >= ns:
        print("note: guest halt polling already allows %s ns" % old, file=log)
        yield True
        return
    with _setting(HALT_POLL_NS, old, ns, "guest halt polling on", log) as r:
        yield r


@contextlib.contextmanager
def quiet(log=sys.stdout, touch=0):
    """Both settings for the with-block; touch: the most free memory to
    touch once (0: none; see touch_free_memory())."""
    with no_page_reporting(log, touch), halt_polling(log):
        yield


def _touch_size(s):
    """--touch-memory's SIZE, or argparse's error naming what is allowed."""
    try:
        return size_bytes(s)
    except SystemExit:
        raise argparse.ArgumentTypeError("bad size %r: a number of bytes with k, M or G "
                                         "(0: touch none)" % s)


def add_touch_memory(ap):
    """Give argument parser ap the --touch-memory option quiet() takes."""
    ap.add_argument("--touch-memory", metavar="SIZE", type=_touch_size, default=0,
                    help="as root on a VM: touch at most SIZE (k, M, G) of free memory "
                         "once before the runs, all but 2 GiB at most (default 0: none)")
