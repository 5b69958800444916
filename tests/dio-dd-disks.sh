#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# dio-dd-disks.sh -- what dio-dd says the disks under each operand saw
# (time=1's last section, the JSON's "disks"), against the kernel's own
# /sys/block/DISK/stat read by this test around the run (Linux; SKIP
# elsewhere or where the build directory is on no local disk):
#  - oflag=direct,dsync bs=4k count=64 to a file here: the disk this test
#    finds under the file (st_dev through /sys/dev/block, a partition's
#    parent) is the one counted; at least 64 writes and 64*4096 bytes,
#    and on a write-back cache without FUA at least 64 flushes; never
#    more than the test's outer window saw; flushes null only where the
#    stat file has no flush fields; the if=/dev/zero is n/a with why;
#  - the same file read back with iflag=direct: at least 64 reads of
#    64*4096 bytes on the input's disk;
#  - time=1 with conv=fdatasync: the table's of= line names the disk and
#    at least the bytes copied;
#  - an output on /dev/shm: n/a, no local disk (table and JSON);
#  - without time=1 nothing more than dd's three lines is said;
#  - as root, a loop device (image here) with conv=fsync: its disks are
#    counted through the loop device ("via" names it), the bytes at least
#    those copied.
. "${top_srcdir:-.}/tests/lib.sh"

DD=$tools/dio-dd
[ "$(uname -s)" = Linux ] || skip "block-layer counters are read on Linux only"
need_cmd python3 python3
work=$(mktemp -d "$top_builddir/dd-disks.XXXXXX") || hard "mktemp"
work=$(cd "$work" && pwd)
loop=""
cleanup() {
	[ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT INT TERM
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }
cd "$work" || hard "cd $work"

# disk.py PATH: the whole disk under PATH (one disk, no dm/md) and its
# stat file's fields, found apart from the library; nothing when unsure.
cat >disk.py <<'PY'
import os, sys
st = os.stat(sys.argv[1])
node = "/sys/dev/block/%d:%d" % (os.major(st.st_dev), os.minor(st.st_dev))
if not os.path.exists(node):
    sys.exit(0)
d = os.path.realpath(node)
if os.path.exists(os.path.join(d, "partition")):
    d = os.path.dirname(d)
if os.listdir(os.path.join(d, "slaves")) or os.path.basename(d).startswith("loop"):
    sys.exit(0)
print(os.path.basename(d), " ".join(open(os.path.join(d, "stat")).read().split()))
PY
disk=$(python3 disk.py "$work" | cut -d' ' -f1)
[ -n "$disk" ] || skip "$work is on no single local disk (tmpfs, dm, md, loop...)"
stat_of() { python3 disk.py "$1" | cut -d' ' -f2-; }
# The library must count them too (not the posix backend, which says why).
why=$("$tools/dio-info" --counters "$work" 2>&1) ||
	skip "the library counts no disk under $work: $(printf '%s' "$why" | tail -n 1)"

# check.py JSON BEFORE AFTER SIDE MIN_IOS MIN_BYTES: the JSON's disks
# under SIDE ("if"/"of") counted on the one disk, within the outer
# window (AFTER - BEFORE, /sys/block stat fields) and at least MIN.
cat >check.py <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
before = [int(x) for x in sys.argv[2].split()]
after = [int(x) for x in sys.argv[3].split()]
side, nmin, bmin, disk = sys.argv[4], int(sys.argv[5]), int(sys.argv[6]), sys.argv[7]
outer = [a - b for a, b in zip(after, before)]
dev = j["devices"][0]
assert j["total"]["disks"] is None, j["total"]["disks"]
k = dev["disks"][side]
assert k["counted"] == "yes", k
assert k["window_ns"][0] <= k["window_ns"][1], k
assert len(k["disks"]) == 1 and k["disks"][0]["name"] == disk, (k["disks"], disk)
e = k["disks"][0]
for key in ("device", "via", "write_cache", "device_cache", "fua"):
    assert key in e, key
if side == "of":
    got, got_b, o_n, o_b = e["writes"], e["bytes"], outer[4], outer[6] * 512
else:
    got, got_b, o_n, o_b = e["reads"], e["read_bytes"], outer[0], outer[2] * 512
assert nmin <= got <= o_n, ("requests", nmin, got, o_n)
assert bmin <= got_b <= o_b, ("bytes", bmin, got_b, o_b)
if len(before) >= 17:
    assert e["flushes"] is not None and e["flushes"] <= outer[15], (e["flushes"], outer)
    if side == "of" and e["write_cache"] == "yes" and e["fua"] == "no":
        assert e["flushes"] >= nmin, ("one flush per dsync write", e["flushes"], nmin)
else:
    assert e["flushes"] is None and e["flushes_why"], e
other = dev["disks"]["if" if side == "of" else "of"]
print("%s=: %s %d requests (outer %d), %d bytes (outer %d), flushes %s; other side: %s" % (
    side, disk, got, o_n, got_b, o_b, e["flushes"], other))
PY

# ---------------------------------------------------------- writes, reads
b=$(stat_of "$work")
"$DD" if=/dev/zero of=f bs=4k count=64 oflag=direct,dsync --format json >w.json 2>w.err ||
	bad "direct,dsync write failed: $(cat w.err)"
a=$(stat_of "$work")
python3 check.py w.json "$b" "$a" of 64 262144 "$disk" && ok "direct,dsync writes on $disk" ||
	bad "direct,dsync writes: $(cat w.json)"
python3 -c '
import json, sys
k = json.load(open(sys.argv[1]))["devices"][0]["disks"]["if"]
assert k["counted"] == "no" and "not a file or block device" in k["why"], k
' w.json && ok "if=/dev/zero: n/a with why" || bad "if=/dev/zero: $(cat w.json)"

b=$(stat_of "$work")
"$DD" if=f of=/dev/null bs=4k iflag=direct --format json >r.json 2>r.err ||
	bad "direct read failed: $(cat r.err)"
a=$(stat_of "$work")
python3 check.py r.json "$b" "$a" if 64 262144 "$disk" && ok "direct reads on $disk" ||
	bad "direct reads: $(cat r.json)"

# ---------------------------------------------------------- time=1
"$DD" if=/dev/zero of=g bs=64k count=16 conv=fdatasync time=1 >t.out 2>t.err ||
	bad "time=1 run failed: $(cat t.err)"
if grep -q '^disks over the run' t.out &&
   awk -v d="$disk" '$1 == "of=g" && $2 == d && $6 >= 1048576 { f = 1 } END { exit !f }' t.out
then
	ok "time=1: $(grep '^of=g' t.out)"
else
	bad "time=1 has no of=g line on $disk with >= 1 MiB: $(cat t.out)"
fi

# ---------------------------------------------------------- no local disk
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
	shm=$(mktemp /dev/shm/dd-disks.XXXXXX) || hard "mktemp /dev/shm"
	"$DD" if=/dev/zero of="$shm" bs=4k count=4 time=1 >s.out 2>s.err
	"$DD" if=/dev/zero of="$shm" bs=4k count=4 --format json >s.json 2>>s.err
	rm -f "$shm"
	if grep -q "^of=$shm *n/a: no local disk" s.out &&
	   python3 -c '
import json, sys
k = json.load(open(sys.argv[1]))["devices"][0]["disks"]["of"]
assert k["counted"] == "no" and "no local disk" in k["why"] and "disks" not in k, k
' s.json
	then
		ok "/dev/shm: $(grep "^of=" s.out)"
	else
		bad "/dev/shm not n/a: $(cat s.out s.json s.err)"
	fi
fi

# ---------------------------------------------------------- dd's lines alone
"$DD" if=/dev/zero of=h bs=4k count=8 oflag=dsync >n.out 2>n.err || bad "plain run failed"
if [ ! -s n.out ] && [ "$(wc -l <n.err)" -eq 3 ] && ! grep -q disk n.err; then
	ok "without time=1: dd's three lines only"
else
	bad "without time=1: $(cat n.out n.err)"
fi

# ---------------------------------------------------------- a loop device
if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null 2>&1; then
	"$DD" if=/dev/zero of=img bs=1M count=4 status=none
	loop=$(losetup -f --show img 2>/dev/null)
	if [ -n "$loop" ]; then
		b=$(stat_of "$work")
		"$DD" if=/dev/zero of="$loop" bs=64k count=16 conv=fsync --force --format json \
			>l.json 2>l.err || bad "loop write failed: $(cat l.err)"
		a=$(stat_of "$work")
		if python3 check.py l.json "$b" "$a" of 1 1048576 "$disk" >l.out &&
		   python3 -c '
import json, sys
e = json.load(open(sys.argv[1]))["devices"][0]["disks"]["of"]["disks"][0]
assert sys.argv[2].rsplit("/", 1)[1] in e["via"], e["via"]
print(e["via"])
' l.json "$loop" >>l.out
		then
			ok "loop device: $(tr '\n' ' ' <l.out)"
		else
			bad "loop device: $(cat l.out l.json l.err)"
		fi
	fi
else
	echo "skip loop device: not root or no losetup"
fi

exit $fail
