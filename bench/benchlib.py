# SPDX-License-Identifier: BSD-2-Clause
"""What the benchmark scripts share: running a command, finding a tool
built in this tree, reading a size."""
import os, re, subprocess, sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def sh(cmd):
    """cmd's standard output; if it fails, exit with its output and errors."""
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit("command failed (%d): %s\n%s%s" % (r.returncode, " ".join(cmd), r.stdout,
                                                     r.stderr))
    return r.stdout


def find_tool(name, arg):
    """arg if given, else tools/NAME as built in this tree (in place, or by
    tests/run-all.sh under build/gcc); exit if none is executable."""
    for p in [arg, os.path.join(TOP, "tools", name), os.path.join(TOP, "build/gcc/tools", name)]:
        if p and os.access(p, os.X_OK):
            return p
    sys.exit("%s not found: build it, or pass --%s PATH" % (name, name))


def size_bytes(s):
    """'256M' -> bytes (k, M, G: powers of 1024); exit on anything else."""
    m = re.fullmatch(r"(\d+)([kKmMgG]?)", s)
    if not m:
        sys.exit("bad size %s (a number with k, M or G)" % s)
    return int(m.group(1)) << {"": 0, "k": 10, "m": 20, "g": 30}[m.group(2).lower()]
