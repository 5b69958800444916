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
   its largest page order, so that no free block ever qualifies, and then
   touches the guest's free memory once (all but 2 GiB of it, mapped and
   written, then unmapped), so that what was reported before comes back
   now rather than during the runs: 17 GiB took 51 s the first time and
   10 s the second on that machine.

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
and say so.  quiet() does both.  A run killed with SIGKILL leaves the
settings changed: put back the values printed at the start.
"""
import contextlib, errno, mmap, sys, time

PAGE_REPORTING = "/sys/module/page_reporting/parameters/page_reporting_order"
HALT_POLL_NS = "/sys/module/haltpoll/parameters/guest_halt_poll_ns"
CPUIDLE_DRIVER = "/sys/devices/system/cpu/cpuidle/current_driver"
HALT_POLL_RUN = 200000


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


def touch_free_memory(log=sys.stdout, margin=2 << 30):
    """Map and write all free memory but margin once, then let it go."""
    t = time.monotonic()
    want = min(_meminfo("MemFree"), _meminfo("MemAvailable")) - margin
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
    print("note: touched %.1f GiB of free memory in %.1f s (pages reported before come "
          "back now, not during the runs)" % (done / 2.0 ** 30, time.monotonic() - t),
          file=log)


@contextlib.contextmanager
def no_page_reporting(log=sys.stdout):
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
        touch_free_memory(log)
        yield True
        return
    with _setting(PAGE_REPORTING, old, new, "free page reporting (virtio-balloon) off",
                  log) as r:
        touch_free_memory(log)
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
def quiet(log=sys.stdout):
    """Both settings for the with-block."""
    with no_page_reporting(log), halt_polling(log):
        yield
