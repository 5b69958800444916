#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""ack-seeds.py -- writes the seeds of the ack harnesses: whole protocol-2
connections (tests/fuzz/corpus/ack-record/: what a sender says) and what a
listener says back (tests/fuzz/corpus/ack-answer/), made with the fixed
token, nonces and run key of tests/fuzz/ack-record.c and ack-answer.c, so
that each seed is taken whole by its harness.  Run it from the source
tree's top after a change of the protocol:

    python3 tests/fuzz/ack-seeds.py
"""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ack_client import TAG, mac, words  # noqa: E402

TOKEN = bytes(range(1, 33))
SNONCE = b"\xa5" * 16
CNONCE = b"\x5a" * 16
RUN_KEY = b"\x33" * 32
here = os.path.dirname(os.path.abspath(__file__))


def connection(run, records, join=False, plain=False, cn=CNONCE):
    """What a sender of run says: hello, proof, records sealed."""
    auth = b"plain" if plain else b"hmac-sha256"
    out = b"H 2 %x %s %s %s\n" % (run, b"join" if join else b"open", auth, cn.hex().encode())
    if plain:
        out += b"P " + TOKEN.hex().encode() + b"\n"
        return out + b"".join(records)
    p = words(TOKEN, "join" if join else "open", run, cn, SNONCE).hex()
    if join:
        p += " " + words(RUN_KEY, "join", run, cn, SNONCE).hex()
    out += b"P " + p.encode() + b"\n"
    k = words(TOKEN, "session", run, cn, SNONCE)
    for i, r in enumerate(records):
        out += mac(k, struct.pack(">Q", i) + r)[:TAG].hex().encode() + b" " + r
    return out


def answers(run, n, plain=False, last=None):
    """What a listener says to an opening sender of run (ack-answer.c's)."""
    out = b"C " + SNONCE.hex().encode() + b"\n"
    if plain:
        return out + b"+\n" * (n + 1) + (last or b"")
    out += b"+" + words(TOKEN, "listener", run, CNONCE, SNONCE).hex().encode() + b"\n"
    k = words(TOKEN, "session", run, CNONCE, SNONCE)
    for i in range(n):
        out += b"+" + mac(k, b"ok" + struct.pack(">Q", i))[:TAG].hex().encode() + b"\n"
    return out + (last or b"")


def write(harness, name, data):
    d = os.path.join(here, "corpus", harness)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


one = [b"# sync-write ack-log 1\n", b"R ab shared 0 65536 /tmp/f\n",
       b"T file 12 0 16060082551697615120\n", b"P 0 fdatasync 4096 1 16\n",
       b"I 0 0 0\n", b"A 0 0 0\n", b"I 0 1 4096\n", b"A 0 1 4096\n", b"I 0 2 8192\n", b"E\n"]
two = [b"I 1 0 32768\n", b"A 1 0 32768\n", b"I 1 1 36864\n", b"A 1 1 36864\n"]
write("ack-record", "open-one-writer", connection(0xab, one))
write("ack-record", "plain-one-writer", connection(0xab, one, plain=True))
write("ack-record", "join-writer", connection(0xab, two, join=True, cn=b"\x11" * 16))
write("ack-record", "plain-join-writer", connection(0xab, two, join=True, plain=True))
write("ack-answer", "answers", answers(0xab, 3))
write("ack-answer", "record-refused", answers(0xab, 2, last=b"-the log is full\n"))
write("ack-answer", "plain-answers", answers(0xab, 3, plain=True))
write("ack-answer", "run-refused", b"-listener full: 2 connections\n")
