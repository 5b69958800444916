#!/bin/sh
# guest-sync-write-powercut.sh -- sync-write's durability claims against
# power cuts of a disk with a volatile write cache, in the qemu test guest
# (run by tests/sync-write-powercut.sh with /bin/sync-write and
# /lib/powercut.sh there).  Arguments: CUTS per method and layer (default
# 20), LIES: cuts per method with the lying disk (default 4).
#
# For every method, on the TCMU disk itself (overwrite), on ext4 on it
# (overwrite) and on ext4 with --extend: CUTS runs (default
# 20), each cut at a random moment after the first acknowledgements, a
# random share (0, 25, 50 or 75%) of the volatile cache reaching the
# medium; the writer is killed, the file system unmounted while the power
# is off, the power brought back, ext4 mounted again (its journal
# replayed), and `sync-write --check` run on the ack log, which lives on
# the guest's tmpfs, off the cut disk.  Asserted:
#   - fdatasync, fsync, dsync, sync, rwf-dsync and every direct+sync
#     combination lose no acknowledged transaction in any cut;
#   - none and direct alone lose acknowledged transactions in some cut of
#     every layer (so the test can fail);
#   - with the disk lying (flushes and FUA acknowledged, nothing made
#     persistent) every durable method loses some in LIES
#     cuts (default 4) on the device, and --check exits 1 for them;
#   - ext4 mounts after every cut.
# Prints one line per cut, a table (layer, method, cuts, acknowledged,
# lost, in flight) and ok/FAIL lines; exit 0 when nothing failed.
. /lib/powercut.sh

pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   - $*"; }
bad() { fail=$((fail + 1)); echo "FAIL - $*"; }

CUTS=${1:-20}
LIES=${2:-4}
SD=$DIO_TCMU_SD
DURABLE="fsync fdatasync dsync sync rwf-dsync direct+dsync direct+fdatasync direct+fsync direct+sync direct+rwf-dsync"
VOLATILE="none direct"
ACK=/tmp/ack.log
TAB=/tmp/powercut.tab
: >"$TAB"

echo "guest-sync-write-powercut: kernel $(uname -r), $CUTS cuts per method and layer"
[ -b "$SD" ] || { echo "FAIL - no TCMU disk ($SD)"; exit 1; }
command -v sync-write >/dev/null || { echo "FAIL - no sync-write in the guest"; exit 1; }
RANDOM=$$

acks() { n=$(grep -c '^A ' "$ACK" 2>/dev/null); echo "${n:-0}"; }

# one_cut LAYER METHOD TARGET [OPTIONS...]: run, cut, recover, check.
# Appends "LAYER METHOD acked lost flight status" to $TAB.
one_cut() {
	layer=$1 method=$2 target=$3
	shift 3
	case $layer in device|lying) fs= ;; *) fs=ext4 ;; esac
	rm -f "$ACK"
	[ -n "$fs" ] && rm -f "$target"
	# Threads: one process, so that one SIGKILL stops every writer at once.
	sync-write -q --threads -m "$method" -s 4k -w 2 -t 120s --region 256k --force \
		--ack-log "$ACK" "$@" "$target" >/tmp/sw.out 2>&1 &
	pid=$!
	i=0     # until some transactions were acknowledged
	while [ "$(acks)" -lt 8 ] && [ $i -lt 400 ]; do
		usleep 20000; i=$((i + 1))
	done
	usleep $((RANDOM % 300000))
	keep=$(( (RANDOM % 4) * 25 ))
	pc_cut "$keep" $((RANDOM + 1)) || bad "$layer $method: the cut failed"
	kill -KILL "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	if [ -n "$fs" ]; then
		umount /mnt 2>/dev/null || umount -l /mnt
	fi
	pc_on || bad "$layer $method: power on failed"
	# Linux reports a write-back error nobody has seen yet to the next
	# opener's fsync: take it here (the cut's, not the next run's).
	[ -z "$fs" ] && dd if=/dev/null of="$SD" conv=fsync 2>/dev/null
	if [ -n "$fs" ] && ! mount -t ext4 "$SD" /mnt 2>/tmp/mount.err; then
		bad "$layer $method: ext4 did not mount after the cut: $(cat /tmp/mount.err);" \
		    "kernel: $(dmesg | tail -n 4 | tr '\n' ' ')"
		mkfs.ext4 -q -F -b 4096 "$SD" 32M && mount -t ext4 "$SD" /mnt
		echo "$layer $method 0 0 0 nomount" >>"$TAB"
		return
	fi
	sync-write --check "$ACK" "$target" >/tmp/ck.out 2>&1
	st=$?
	acked=$(sed -n 's/^acknowledged slots: \([0-9]*\);.*/\1/p' /tmp/ck.out)
	lost=$(sed -n 's/.* lost: \([0-9]*\); corrupt: \([0-9]*\)$/\1 \2/p' /tmp/ck.out |
		awk '{ print $1 + $2 }')
	flight=$(sed -n 's/^in flight (issued, not acknowledged): \([0-9]*\),.*/\1/p' /tmp/ck.out)
	if [ -z "$acked" ] || [ -z "$lost" ]; then
		bad "$layer $method: --check said (exit $st):"; sed 's/^/       /' /tmp/ck.out
		sed 's/^/  run: /' /tmp/sw.out | tail -n 5
		echo "$layer $method 0 0 0 error" >>"$TAB"
		return
	fi
	echo "  cut: $layer $method keep $keep%: acknowledged $acked, lost $lost," \
	     "in flight ${flight:-0}, --check exit $st"
	echo "$layer $method $acked $lost ${flight:-0} $st" >>"$TAB"
}

# layer LAYER TARGET [OPTIONS...]: every method, CUTS times.
layer() {
	l=$1 t=$2
	shift 2
	for m in $VOLATILE $DURABLE; do
		n=0
		while [ $n -lt "$CUTS" ]; do
			one_cut "$l" "$m" "$t" "$@"
			n=$((n + 1))
		done
	done
}

pc_lie 0
pbs=$(cat "/sys/block/${SD##*/}/queue/physical_block_size" 2>/dev/null)
[ "$pbs" = 4096 ] && ok "the disk has 4096-byte physical blocks (cut whole)" ||
	bad "the disk's physical block size is '$pbs', want 4096 (tcmu-ramdisk -P 4096)"
layer device "$SD"
if command -v mkfs.ext4 >/dev/null && grep -q -w ext4 /proc/filesystems; then
	mkdir -p /mnt
	mkfs.ext4 -q -F -b 4096 "$SD" 32M >/tmp/mkfs.out 2>&1 || { cat /tmp/mkfs.out; exit 1; }
	mount -t ext4 "$SD" /mnt || exit 1
	layer ext4 /mnt/f
	layer ext4-extend /mnt/f --extend
	umount /mnt
else
	echo "SKIP - no mkfs.ext4 or ext4 module in the guest: the device layer only"
fi

# A disk that lies about flushes and FUA: the durable methods must lose.
pc_lie 1
for m in $DURABLE; do
	n=0
	while [ $n -lt "$LIES" ]; do
		one_cut lying "$m" "$SD"
		n=$((n + 1))
	done
done
pc_lie 0

# ------------------------------------------------------------ verdicts
echo
echo "layer        method              cuts  acknowledged    lost  in-flight  cuts-with-loss"
awk '{ k = $1 " " $2; cuts[k]++; ack[k] += $3; lost[k] += $4; fl[k] += $5;
       if ($4 > 0) lc[k]++; if (!(k in ord)) { ord[k] = ++n; key[n] = k } }
     END { for (i = 1; i <= n; i++) { k = key[i]; split(k, a, " ");
           printf "%-12s %-18s %5d %13d %7d %10d %15d\n", a[1], a[2], cuts[k],
                  ack[k], lost[k], fl[k], lc[k] + 0 } }' "$TAB"
echo

for l in device ext4 ext4-extend; do
	grep -q "^$l " "$TAB" || continue
	for m in $DURABLE; do
		r=$(awk -v l="$l" -v m="$m" '$1 == l && $2 == m { c++; a += $3; x += $4;
			if ($6 != 0) e++ } END { printf "%d %d %d %d", c, a, x, e }' "$TAB")
		set -- $r
		if [ "$1" -ge "$CUTS" ] && [ "$2" -gt 0 ] && [ "$3" -eq 0 ] && [ "$4" -eq 0 ]; then
			ok "$l $m: $1 cuts, $2 acknowledged, none lost"
		else
			bad "$l $m: $1 cuts, $2 acknowledged, $3 lost, $4 checks failed"
		fi
	done
	for m in $VOLATILE; do
		r=$(awk -v l="$l" -v m="$m" '$1 == l && $2 == m { c++; if ($4 > 0) k++ }
			END { printf "%d %d", c, k }' "$TAB")
		set -- $r
		if [ "$2" -gt 0 ]; then
			ok "$l $m: acknowledged transactions lost in $2 of $1 cuts (not durable)"
		else
			bad "$l $m: no loss in $1 cuts: the cut does not lose the volatile cache"
		fi
	done
done
for m in $DURABLE; do
	r=$(awk -v m="$m" '$1 == "lying" && $2 == m { c++; if ($4 > 0 && $6 == 1) k++ }
		END { printf "%d %d", c, k }' "$TAB")
	set -- $r
	if [ "$2" -gt 0 ]; then
		ok "lying disk, $m: losses found and --check exit 1 in $2 of $1 cuts"
	else
		bad "lying disk, $m: no loss found in $1 cuts"
	fi
done
echo "guest-sync-write-powercut: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
