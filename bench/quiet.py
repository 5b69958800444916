"""Quieter measurements on a virtual machine: free page reporting off.

A guest with virtio-balloon free page reporting hands the free memory it
has had for a couple of seconds back to the host; touching those pages
again costs the host a fault for each.  A benchmark that drops a page cache
and refills it (buffered reads and writes of a few GiB) then times the
host's page faults as much as the I/O path, and by chance: how much of the
free memory the guest gets back already reported depends on how long ago
it was freed.  One tool's run after another's pays for it differently, and
on the machine where these benchmarks were written that made single runs
of the same command vary by 3x.

no_page_reporting() raises the page order that reporting waits for to the
largest value the kernel accepts, one above its largest page order, so that
no free block ever qualifies, for the length of a with-block, and puts the
old value back afterwards.  It needs root and the page_reporting module
parameter (Linux 5.14 and later, a balloon with the feature); without them
it does nothing and says so.  The host's memory is not touched: the guest
only stops giving memory back while the benchmark runs.
"""
import contextlib, errno, sys

PARAM = "/sys/module/page_reporting/parameters/page_reporting_order"


@contextlib.contextmanager
def no_page_reporting(log=sys.stdout):
    try:
        with open(PARAM) as f:
            old = f.read().strip()
        new = None
        for order in range(32, int(old), -1):     # the first value taken is the largest
            try:
                with open(PARAM, "w") as f:
                    f.write(str(order))
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
        yield True
        return
    print("note: free page reporting (virtio-balloon) off for the run, order %s -> %s; "
          "restored afterwards" % (old, new), file=log)
    try:
        yield True
    finally:
        with open(PARAM, "w") as f:
            f.write(old)
