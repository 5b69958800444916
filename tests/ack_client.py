# SPDX-License-Identifier: BSD-2-Clause
"""ack_client.py -- a client of sync-write's ack listener, protocol 2
(tools/kit/ack.h), for the tests' hostile and well-behaved clients and
the fuzz seeds: the handshake (hello, proof, the listener's proof
checked), records sealed with their MACs, answers checked.  Its HMACs are
Python's (hmac, hashlib), apart from the tool's, so that a test of the
listener does not lean on the code it tests.

    s = connect(port)
    sess = hello(s, run, token)            # open; raises Refused(reason)
    sess.send(b"# sync-write ack-log 1\\n")  # sealed, answer checked
    w = hello(s2, run, token, rk=sess.rk)  # a writer joins the run
"""
import hashlib
import hmac
import os
import resource
import socket
import struct

WIRE = 2
TAG = 16
# What a sender of this build speaks: "plain" where sync-write was built
# without a MAC library (the tests say so in ACK_CLIENT_AUTH).
AUTH = os.environ.get("ACK_CLIENT_AUTH", "hmac-sha256")


def raise_fd_limit(most=4096):
    """Descriptors enough for a client that holds many connections."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > most:
        hard = most
    if soft != resource.RLIM_INFINITY and soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


class Refused(Exception):
    """The listener said "-REASON" (or closed)."""


def mac(key, msg):
    return hmac.new(key, msg, hashlib.sha256).digest()


def words(key, what, run, cn, sn):
    return mac(key, b"dio-ack %d %s %x %s %s" % (WIRE, what.encode(), run,
                                                 cn.hex().encode(), sn.hex().encode()))


def token_of(path_or_hex):
    """The token's bytes, from a file or from hex."""
    if os.path.exists(path_or_hex):
        with open(path_or_hex) as f:
            path_or_hex = f.read()
    return bytes.fromhex(path_or_hex.strip())


def connect(port, host="127.0.0.1", rcvbuf=None, timeout=30):
    fam = socket.AF_INET6 if ":" in host else socket.AF_INET
    s = socket.socket(fam, socket.SOCK_STREAM)
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.settimeout(timeout)
    s.connect((host, port))
    return s


def line(s):
    """One line from the listener (its newline included); b"" at its end."""
    b = b""
    while not b.endswith(b"\n"):
        try:
            c = s.recv(1)
        except ConnectionResetError:
            return b
        if not c:
            return b
        b += c
    return b


class Session:
    def __init__(self, s, run, token, cn, sn, k, rk):
        self.s, self.run, self.token = s, run, token
        self.cn, self.sn, self.k, self.rk = cn, sn, k, rk
        self.seq = 0            # records sealed
        self.answered = 0

    def seal(self, record, seq=None):
        """record (bytes, its newline included) as the wire carries it
        (plain: as it is)."""
        if self.k is None:
            return record
        seq = self.seq if seq is None else seq
        t = mac(self.k, struct.pack(">Q", seq) + record)[:TAG]
        return t.hex().encode() + b" " + record

    def answer_ok(self, a):
        if self.k is None:
            return a == b"+\n"
        want = b"+" + mac(self.k, b"ok" + struct.pack(">Q", self.answered))[:TAG].hex().encode() + b"\n"
        return hmac.compare_digest(a, want)

    def send(self, record):
        """Send a record, wait for its answer: True if answered and proved."""
        self.s.sendall(self.seal(record))
        self.seq += 1
        a = line(self.s)
        if a.startswith(b"-"):
            raise Refused(a[1:].decode(errors="replace").strip())
        ok = self.answer_ok(a)
        self.answered += 1
        return ok


def hello(s, run, token, rk=None, cn=None, auth=None, proof=None):
    """Open run (rk None) or join it with its key rk.  proof: bytes sent as
    the proof instead of the right one (a forger's)."""
    cn = cn or os.urandom(16)
    auth = auth or AUTH
    mode = b"join" if rk is not None else b"open"
    s.sendall(b"H %d %x %s %s %s\n" % (WIRE, run, mode, auth.encode(), cn.hex().encode()))
    c = line(s)
    if not c.startswith(b"C "):
        raise Refused(c[1:].decode(errors="replace").strip() if c else "closed at the hello")
    sn = bytes.fromhex(c[2:].decode().strip())
    if proof is None:
        if auth == "plain":
            proof = token.hex().encode()
        elif rk is None:
            proof = words(token, "open", run, cn, sn).hex().encode()
        else:
            proof = (words(token, "join", run, cn, sn).hex() + " " +
                     words(rk, "join", run, cn, sn).hex()).encode()
    s.sendall(b"P " + proof + b"\n")
    w = line(s)
    if not w.startswith(b"+"):
        raise Refused(w[1:].decode(errors="replace").strip() if w else "closed at the proof")
    if auth == "plain":         # no run key: its writers join with the token
        return Session(s, run, token, cn, sn, None, b"")
    if not hmac.compare_digest(w, b"+" + words(token, "listener", run, cn, sn).hex().encode() + b"\n"):
        raise Refused("the listener did not prove the token")
    k = words(token, "session", run, cn, sn)
    return Session(s, run, token, cn, sn, k, rk if rk is not None else words(token, "run", run, cn, sn))


def cut(s, limit=30):
    """The listener closes s (EOF or a reset) within limit seconds?  What it
    said before, with it."""
    s.settimeout(limit)
    said = b""
    try:
        while True:
            b = s.recv(4096)
            if not b:
                return True, said
            said += b
    except ConnectionResetError:
        return True, said
    except socket.timeout:
        return False, said
