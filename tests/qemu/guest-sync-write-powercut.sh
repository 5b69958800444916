#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# guest-sync-write-powercut.sh -- sync-write's durability claims against
# power cuts of a disk with a volatile write cache, in the qemu test guest
# (run by tests/sync-write-powercut.sh with /bin/sync-write,
# /lib/powercut.sh and /lib/ack-early.so there, and /bin/sync-write-static
# where the build could link one: the same program, which the runs and
# checks use but for the broken build's, which needs LD_PRELOAD).
#
# Arguments: CUTS LIES SEED EARLY EARLY-METHODS [TARGETS [CACHE [BUILD]]]
#   CUTS   cuts per method and honest layer (default 20; 0: none, and
#          their verdicts are not given)
#   LIES   cuts per durable method and lying layer (default 2; 0: none)
#   SEED   the seed of every random choice (1..4294967295; default: read
#          from /dev/urandom); the same seed and counts replay the same
#          choices (the moments of the cuts as counts of acknowledgements,
#          the shares kept, the cuts' own seeds)
#   EARLY  cuts per method and layer of the broken build (default 2; 0:
#          none)
#   EARLY-METHODS  the methods the broken build runs (default
#          "fdatasync direct+dsync rwf-dsync")
#   TARGETS  which of the three targets this guest cuts (default
#          "device ext4 ext4-extend"; the host may share them out
#          among guests that run side by side)
#   CACHE  cache-only cuts per volatile method and layer (default 2; 0:
#          none)
#   BUILD  "honest" (default), or "early": every run by the broken
#          build, to see how the verdicts name an acknowledgement made
#          before its commit
#
# Layers: the TCMU disk itself (overwrite), ext4 on it (overwrite) and
# ext4 with --extend.  A run is 2 writers (threads of one process) of 4 KiB
# transactions, every one logged (--warmup 0); the ack log lives on the
# guest's tmpfs, off the cut disk.
# Each cut comes once the ack log holds a random number of acknowledgements
# (8 to 40) -- progress, not time, so that it lands in the run however
# slow the guest is (an --extend run has room for 4080): the power is cut
# with a random share (0, 25, 50 or 75%) of the volatile cache reaching
# the medium, while the writers go on (stopping them first would let the
# I/O they have under way finish before the cut); then the writer is
# killed, the file system unmounted, the power brought back, ext4 mounted
# again (its journal replayed) and `sync-write --check` run.
# A machine's power cut has two effects, made apart (tests/qemu/
# powercut.sh): the disk's cut (pc_cut: its cache loses what was not
# flushed; the disk counts the blocks it discarded) and the guest's (pc_on
# drops what the guest held in RAM while the disk is still off, so its
# dirty pages are lost).  Only the first is the disk's volatile cache; a
# loss the second explains would be there with a disk that loses nothing.
#   honest layers: every method CUTS times;
#   lying layers (lying-device, lying-ext4, lying-ext4-extend): every
#     durable method LIES times; the disk is honest until 8
#     acknowledgements, then lies (SYNCHRONIZE CACHE and FUA acknowledged,
#     nothing persisted; it never writes back by itself), and the cut,
#     8 to 40 acknowledgements later, keeps nothing: at least 6 of those
#     were written after the lie began, so they must be lost;
#   cache-only layers (cache-device, cache-ext4, cache-ext4-extend): none
#     and direct CACHE times each, made so that only the disk's cache can
#     lose: the run is stopped at 8 acknowledgements and `sync` commits
#     it (ext4: the file and its first blocks, with a flush); the disk
#     then lies, the run goes on, is stopped again and `sync` writes
#     everything the guest holds to the disk, whose lie keeps it in the
#     cache; the cut keeps nothing.  The guest held nothing dirty when
#     the power went, so what is lost, the disk's cut lost;
#   early-ack layers (early-LAYER for each of the six above): the broken
#     build, sync-write under /lib/ack-early.so (its commits made after
#     the acknowledgement, see tests/qemu/ack-early.c), EARLY times per
#     method of EARLY-METHODS.
# Asserted (doc/durability.md has a table: which assertion shows what, and
# which run shows it failing):
#   - every cut lands while the run is live: just before it the writer is
#     there, the log has no E record and an --extend run has room left;
#     --check does not say that the run had ended (a cut that finds the
#     run ended is the harness's fault, and said so);
#   - the durable methods (fdatasync, fsync, dsync, sync, rwf-dsync and
#     each direct+ of them) lose no acknowledged transaction on an honest
#     layer, and --check exits 0; a loss in a cut that found nothing in
#     flight is named "acknowledged before its commit" (the product's
#     fault: no commit was under way, so an acknowledged one was not
#     done), and the honest layer's durable cuts must find a commit under
#     way (in flight: issued, never acknowledged) in some cuts;
#   - none and direct lose some in at least one cut of every honest layer
#     (the machine's cut: the guest's RAM or the disk's cache);
#   - the disk's cuts of every honest layer discarded cached blocks (its
#     own count: a cut that loses nothing fails here);
#   - on a lying layer every cut loses some, --check exits 1 and the
#     disk discarded blocks;
#   - on a cache-only layer every cut of none and direct loses some,
#     --check exits 1 and the disk discarded blocks;
#   - the broken build loses some in at least one cut of every layer (a
#     single cut may miss: it may land outside the window between an
#     acknowledgement and its commit, or keep the block; so a layer with
#     fewer than 4 such cuts only reports);
#   - ext4 mounts after every cut; --check can check every cut (an exit
#     other than 0 or 1 is "could not check", a failure).
# Prints the seed, one line per cut, a table and ok/FAIL lines; exit 0
# when nothing failed.
. /lib/powercut.sh

pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   - $*"; }
bad() { fail=$((fail + 1)); echo "FAIL - $*"; }

CUTS=${1:-20}
LIES=${2:-2}
SEED=${3:-}
EARLY=${4:-2}
EARLY_METHODS=${5:-fdatasync direct+dsync rwf-dsync}
TARGETS=${6:-device ext4 ext4-extend}
CACHE=${7:-2}
BUILD=${8:-honest}
SD=$DIO_TCMU_SD
DURABLE="fsync fdatasync dsync sync rwf-dsync direct+dsync direct+fdatasync direct+fsync direct+sync direct+rwf-dsync"
VOLATILE="none direct"
REGION=256k         # per writer, overwrite layers: 64 slots
XREGION=8m          # per writer, --extend: 2048 slots, far beyond a cut
XSLOTS=2048
WARMUP=0            # --warmup 0: no unlogged transactions first (they
                    # would only cost the guest time: 16 of a cut's ~60)
ACK=/tmp/ack.log
TAB=/tmp/powercut.tab
SHIM=/lib/ack-early.so
: >"$TAB"

case $BUILD in honest|early) ;; *) echo "ERROR: bad build '$BUILD' (honest, early)"; exit 99 ;; esac
for v in "$CUTS" "$LIES" "$EARLY" "$CACHE"; do
	case $v in ''|*[!0-9]*) echo "ERROR: bad count '$v'"; exit 99 ;; esac
done
if [ -z "$SEED" ]; then
	SEED=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
	[ "$SEED" = 0 ] && SEED=1
fi
case $SEED in ''|0|*[!0-9]*) echo "ERROR: bad seed '$SEED' (1..4294967295)"; exit 99 ;; esac
[ ${#SEED} -le 10 ] && [ "$SEED" -le 4294967295 ] ||
	{ echo "ERROR: bad seed '$SEED' (1..4294967295)"; exit 99; }
RANDOM=$SEED

echo "guest-sync-write-powercut: kernel $(uname -r), targets $TARGETS, seed $SEED; $CUTS cuts per method" \
     "and honest layer, $LIES per durable method and lying layer, $EARLY per method" \
     "and layer of the broken build ($EARLY_METHODS), $CACHE per volatile method and cache-only layer"
# tcmu-ramdisk -N says so in its log: every verdict below that depends on
# the disk's cache must then fail (tests/sync-write-powercut-noop.sh)
NOOP=0
grep -q '^no-op cuts' "$DIO_TCMU_LOG" 2>/dev/null && NOOP=1
[ $NOOP = 1 ] && echo "guest-sync-write-powercut: THE DISK'S CUTS ARE NO-OPS (tcmu-ramdisk -N): they keep every block"
[ "$BUILD" = early ] &&
	echo "guest-sync-write-powercut: EVERY RUN BY THE BROKEN BUILD (sync-write under $SHIM)"
[ -b "$SD" ] || { echo "FAIL - no TCMU disk ($SD)"; exit 1; }
command -v sync-write >/dev/null || { echo "FAIL - no sync-write in the guest"; exit 1; }
SW=sync-write
command -v sync-write-static >/dev/null && SW=sync-write-static
echo "guest-sync-write-powercut: the runs and checks by $SW (the broken build's by sync-write)"
if { [ "$EARLY" -gt 0 ] || [ "$BUILD" = early ]; } && [ ! -f "$SHIM" ]; then
	echo "FAIL - no $SHIM for the broken build"; exit 1
fi

acks() { n=$(grep -c '^A ' "$ACK" 2>/dev/null); echo "${n:-0}"; }
# wait_acks PID N [stop]: until the ack log holds N acknowledgements, the
# writer is gone, or 90 s have passed (the run is given 120 s); with
# "stop", the writer is then stopped.  Sets wa_why (0, 1, 2 in that
# order), wa_at (the acknowledgements then), wa_ended (1: the log has its
# end record) and wa_alive (1: the writer is there, not a zombie).  One
# process, ack-wait, looks every 5 ms: a shell loop of grep and usleep
# took a third of the guest's one CPU from the writers.
wait_acks() {
	set -- $(ack-wait "$ACK" "$2" "$1" ${3:+"$3"})
	wa_why=${1:-2} wa_at=${2:-0} wa_ended=${3:-0} wa_alive=${4:-0}
	[ $# = 4 ] || echo "  ack-wait failed: $*"
	return "$wa_why"
}

# one_cut LAYER METHOD TARGET REGION [OPTIONS...]: run, cut, recover,
# check.  Appends "LAYER METHOD acked lost flight status live dirty
# discarded" to $TAB (the last two: the disk's count of the cut's blocks).
one_cut() {
	layer=$1 method=$2 target=$3 region=$4
	shift 4
	case $layer in *device) fs= ;; *) fs=ext4 ;; esac
	case $layer in *lying-*) lie=1 ;; *) lie=0 ;; esac
	case $layer in cache-*) cache=1 ;; *) cache=0 ;; esac
	early=0
	case $layer in early-*) early=1 ;; esac
	[ "$BUILD" = early ] && early=1
	# the random choices first, so that a replay makes the same ones
	want=$((8 + RANDOM % 33)) keep=$(( (RANDOM % 4) * 25 )) cseed=$((RANDOM + 1))
	[ $lie = 1 ] && keep=0
	[ $cache = 1 ] && keep=0
	rm -f "$ACK"
	[ -n "$fs" ] && rm -f "$target"
	set -- -q --threads -m "$method" -s 4k -w 2 -t 120s --region "$region" --force \
		--warmup "$WARMUP" --ack-log "$ACK" "$@" "$target"
	# Threads: one process, so that one signal stops every writer at once.
	if [ $early = 1 ]; then
		LD_PRELOAD=$SHIM ASAN_OPTIONS=verify_asan_link_order=0 \
			sync-write "$@" >/tmp/sw.out 2>&1 &
	else
		$SW "$@" >/tmp/sw.out 2>&1 &
	fi
	pid=$!
	w=0 lied=0
	if [ $lie = 1 ]; then
		# honest until the run is under way, then the lie
		wait_acks "$pid" 8 || w=$?
		pc_lie 1 || bad "$layer $method: lying mode on failed"
		lied=$(acks)
	elif [ $cache = 1 ]; then
		# The run's start persists (ext4: its file, allocated and
		# committed with a flush, so that --check finds it), then the
		# disk lies: from here on only its cache holds the run.
		wait_acks "$pid" 8 stop || w=$?
		sync
		pc_lie 1 || bad "$layer $method: lying mode on failed"
		lied=$(acks)
		kill -CONT "$pid" 2>/dev/null
	fi
	# A volatile method's run is stopped first (ack-wait stops it and
	# sees it stopped): none and direct race through thousands of
	# transactions while pc-ctl starts (an --extend run could end before
	# the cut), and they have no commit under way for the stop to let
	# finish.
	stop=
	case " $VOLATILE " in *" $method "*) stop=stop ;; esac
	if [ $w = 0 ]; then
		wait_acks "$pid" $((lied + want)) $stop || w=$?
	elif [ -n "$stop" ]; then
		kill -STOP "$pid" 2>/dev/null
	fi
	# Is the run live?  The cut follows at once (the time pc-ctl takes,
	# a few transactions of a durable method); the run has far more to do
	# than that.  The acknowledgements then, whether the log had ended,
	# whether the writer was there.
	at=$wa_at
	live=1
	[ "$wa_alive" = 1 ] || live=0
	[ "$wa_ended" = 0 ] || live=0
	[ "$region" = "$XREGION" ] && [ "$at" -ge $((2 * (XSLOTS - WARMUP) - 200)) ] && live=0
	# cache-only: the stopped run's every write goes to the disk, which
	# keeps it in its cache (it lies about the flush): the guest holds
	# nothing for the cut's other half to lose
	[ $cache = 1 ] && sync
	pc_cut "$keep" "$cseed" || bad "$layer $method: the cut failed"
	ddirty=${PC_DIRTY:-0} dlost=${PC_LOST:-0}
	[ $lie = 1 ] || [ $cache = 1 ] &&
		{ pc_lie 0 || bad "$layer $method: lying mode off failed"; }
	kill -KILL "$pid" 2>/dev/null
	kill -CONT "$pid" 2>/dev/null
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
		echo "$layer $method 0 0 0 nomount $live $ddirty $dlost" >>"$TAB"
		return
	fi
	if [ $early = 1 ] && ! grep -q '^ack-early: commits deferred' /tmp/sw.out; then
		bad "$layer $method: the broken build's shim was not loaded:"
		sed 's/^/  run: /' /tmp/sw.out | tail -n 5
	fi
	$SW --check "$ACK" "$target" >/tmp/ck.out 2>&1
	st=$?
	# From --check: "acknowledged slots: N; ...", "... lost: L; corrupt:
	# C" and whether it says the run had ended ("-" for a number not
	# found); from the ack log: the writers in flight, those whose last
	# record is an I (issued), not its A.
	set -- $(awk -v ack="$ACK" 'FILENAME == ack { if (/^[IA] /) last[$2] = $1; next }
		/^acknowledged slots: [0-9]+;/ { a = $3; sub(/;$/, "", a) }
		/ lost: [0-9]+; corrupt: [0-9]+$/ { l = $(NF - 2) + $NF }
		/the run had ended/ { e = 1 }
		END { for (w in last) if (last[w] == "I") f++
		      print (a == "" ? "-" : a), (l == "" ? "-" : l), e + 0, f + 0 }' \
		"$ACK" /tmp/ck.out 2>/dev/null)
	acked=${1#-} lost=${2#-} flight=${4:-0}
	[ "${3:-0}" = 0 ] || live=0
	# A durable method's acknowledged transaction lost on a disk that
	# keeps its promises (not lying) was acknowledged before its commit:
	# the product's fault, never the harness's, and most plainly so when
	# nothing was in flight (no commit was under way at all).
	early_ack=
	case " $VOLATILE " in *" $method "*) ;; *)
		if [ "${lost:-0}" -gt 0 ] && [ $lie = 0 ]; then
			early_ack="; ACKNOWLEDGED BEFORE ITS COMMIT: lost $lost acknowledged transactions"
			if [ "$flight" -eq 0 ]; then
				early_ack="$early_ack with none in flight"
			else
				early_ack="$early_ack on a disk that lost nothing flushed"
			fi
		fi ;;
	esac
	# 0: all there, 1: acknowledged data lost; anything else (3: could
	# not check, a bad log or not the run's target; 2: usage) is never a
	# verdict.
	if [ -z "$acked" ] || [ -z "$lost" ] || [ "$st" -gt 1 ] ||
	    { [ "$st" = 0 ] && [ "$lost" != 0 ]; } || { [ "$st" = 1 ] && [ "$lost" = 0 ]; }; then
		bad "$layer $method: --check could not check (exit $st):"
		sed 's/^/       /' /tmp/ck.out
		sed 's/^/  run: /' /tmp/sw.out | tail -n 5
		echo "$layer $method 0 0 0 error $live $ddirty $dlost" >>"$TAB"
		return
	fi
	echo "  cut: $layer $method at $at acknowledgements ($([ $lie = 1 ] &&
		echo "lying from $lied, then ")wanted $want$([ $lie = 1 ] && echo " more")$([ $w = 2 ] &&
		echo ", 90 s passed")) keep $keep%" \
		"seed $cseed: acknowledged $acked, lost $lost, in flight ${flight:-0}," \
		"--check exit $st; the disk discarded $dlost of $ddirty dirty blocks$([ $live = 0 ] &&
			echo "; THE RUN HAD ENDED BEFORE THE CUT (the harness cut too late)")$early_ack"
	echo "$layer $method $acked $lost ${flight:-0} $st $live $ddirty $dlost" >>"$TAB"
}

# layer LAYER N "METHODS" TARGET REGION [OPTIONS...]: each method N times.
layer() {
	ly_l=$1 ly_n=$2 ly_ms=$3
	shift 3
	for ly_m in $ly_ms; do
		ly_i=0
		while [ $ly_i -lt "$ly_n" ]; do
			one_cut "$ly_l" "$ly_m" "$@"
			ly_i=$((ly_i + 1))
		done
	done
}
# layers LAYER TARGET REGION [OPTIONS...]: the honest, the lying and the
# broken build's layers of one target.
layers() {
	ls_l=$1
	shift
	layer "$ls_l" "$CUTS" "$VOLATILE $DURABLE" "$@"
	layer "lying-$ls_l" "$LIES" "$DURABLE" "$@"
	layer "cache-$ls_l" "$CACHE" "$VOLATILE" "$@"
	[ "$EARLY" -gt 0 ] || return 0
	layer "early-$ls_l" "$EARLY" "$EARLY_METHODS" "$@"
	layer "early-lying-$ls_l" "$EARLY" "$EARLY_METHODS" "$@"
}

pc_lie 0
pbs=$(cat "/sys/block/${SD##*/}/queue/physical_block_size" 2>/dev/null)
[ "$pbs" = 4096 ] && ok "the disk has 4096-byte physical blocks (cut whole)" ||
	bad "the disk's physical block size is '$pbs', want 4096 (tcmu-ramdisk -P 4096)"
for t in $TARGETS; do
	case $t in device|ext4|ext4-extend) ;;
	*) echo "ERROR: bad target '$t' (device, ext4, ext4-extend)"; exit 99 ;;
	esac
done
has() { case " $TARGETS " in *" $1 "*) return 0 ;; esac; return 1; }
LAYERS=
if has device; then
	layers device "$SD" "$REGION"
	LAYERS=device
fi
if ! has ext4 && ! has ext4-extend; then
	:
elif command -v mkfs.ext4 >/dev/null && grep -q -w ext4 /proc/filesystems; then
	mkdir -p /mnt
	mkfs.ext4 -q -F -b 4096 "$SD" 32M >/tmp/mkfs.out 2>&1 || { cat /tmp/mkfs.out; exit 1; }
	mount -t ext4 "$SD" /mnt || exit 1
	if has ext4; then
		layers ext4 /mnt/f "$REGION"
		LAYERS="$LAYERS ext4"
	fi
	if has ext4-extend; then
		layers ext4-extend /mnt/f "$XREGION" --extend
		LAYERS="$LAYERS ext4-extend"
	fi
	umount /mnt
else
	echo "SKIP - no mkfs.ext4 or ext4 module in the guest: the ext4 targets are not cut"
fi

# ------------------------------------------------------------ verdicts
echo
echo "layer                    method            cuts  acknowledged    lost  in-flight  cuts-with-loss  disk-discarded"
awk '{ k = $1 " " $2; cuts[k]++; ack[k] += $3; lost[k] += $4; fl[k] += $5; dl[k] += $9;
       if ($4 > 0) lc[k]++; if (!(k in ord)) { ord[k] = ++n; key[n] = k } }
     END { for (i = 1; i <= n; i++) { k = key[i]; split(k, a, " ");
           printf "%-24s %-16s %5d %13d %7d %10d %15d %15d\n", a[1], a[2], cuts[k],
                  ack[k], lost[k], fl[k], lc[k] + 0, dl[k] } }' "$TAB"
echo

# per layer: cuts, transactions in flight, cuts that found the run ended
# (the harness's fault), cuts with none in flight; the durable methods'
# cuts that lost acknowledged transactions on a disk that did not lie
# (the product's fault: acknowledged before its commit), the transactions
# lost, and of those the cuts and transactions with none in flight
for l in $LAYERS; do
	for p in "" lying- cache- early- early-lying-; do
		grep -q "^$p$l " "$TAB" || continue
		r=$(awk -v l="$p$l" -v v=" $VOLATILE " '$1 == l { c++; f += $5; if ($7 != 1) e++
			if ($5 == 0) z++
			if ($4 > 0 && index(v, " " $2 " ") == 0) { ea++; el += $4
				if ($5 == 0) { ez++; ezl += $4 } } }
			END { printf "%d %d %d %d %d %d %d %d", c, f, e, z, ea, el, ez, ezl }' "$TAB")
		set -- $r
		if [ "$3" -eq 0 ]; then
			ok "$p$l: all $1 cuts landed while the run was live ($2 transactions in flight, $4 cuts with none)"
		else
			bad "$p$l: $3 of $1 cuts found the run ended (its E record written, the writer gone or --extend out of room): the harness cut too late"
		fi
		# Named where the loss can only be the product's: not where
		# the disk lied.
		case $p in *lying-) continue ;; esac
		[ "$5" -gt 0 ] || continue
		msg="acknowledged before its commit: lost $6 acknowledged transactions in $5 cuts of durable methods"
		if [ "$7" = "$5" ]; then
			msg="acknowledged before its commit: lost $6 acknowledged transactions with none in flight, in $5 cuts of durable methods"
		elif [ "$7" -gt 0 ]; then
			msg="$msg ($8 of them with none in flight, in $7 cuts)"
		fi
		case $p in
		early-) echo "info - $p$l: $msg: the broken build, caught" ;;
		*) bad "$p$l: $msg" ;;
		esac
	done
done
for l in $LAYERS; do
	if [ "$CUTS" -gt 0 ]; then
		for m in $DURABLE; do
			r=$(awk -v l="$l" -v m="$m" '$1 == l && $2 == m { c++; a += $3; x += $4;
				if ($6 != 0) e++ } END { printf "%d %d %d %d", c, a, x, e }' "$TAB")
			set -- $r
			if [ "$1" -ge "$CUTS" ] && [ "$2" -gt 0 ] && [ "$3" -eq 0 ] && [ "$4" -eq 0 ]; then
				ok "$l $m: $1 cuts, $2 acknowledged, none lost"
			elif [ "$3" -gt 0 ]; then
				bad "$l $m: $1 cuts, $2 acknowledged, $3 lost: acknowledged before its commit ($4 cuts with --check exit 1)"
			else
				bad "$l $m: $1 cuts, $2 acknowledged, $3 lost, $4 checks failed"
			fi
		done
		# A durable cut proves something when a commit was under way.
		r=$(awk -v l="$l" -v v=" $VOLATILE " '$1 == l && index(v, " " $2 " ") == 0 {
			c++; if ($5 > 0) f++ } END { printf "%d %d", c, f }' "$TAB")
		set -- $r
		if [ "$2" -gt 0 ]; then
			ok "$l: $2 of the durable methods' $1 cuts came while a commit was under way"
		else
			bad "$l: none of the durable methods' $1 cuts came while a commit was under way"
		fi
		for m in $VOLATILE; do
			r=$(awk -v l="$l" -v m="$m" '$1 == l && $2 == m { c++; if ($4 > 0) k++ }
				END { printf "%d %d", c, k }' "$TAB")
			set -- $r
			if [ "$2" -gt 0 ]; then
				ok "$l $m: acknowledged transactions lost in $2 of $1 cuts (not durable)"
			else
				bad "$l $m: no loss in $1 cuts: the cut does not lose what was only cached"
			fi
		done
		# The disk's own count: its cuts found cached blocks and lost
		# some (keep is at most 75%).  A cut that keeps every block
		# fails here, whatever the guest lost.
		r=$(awk -v l="$l" '$1 == l { c++; d += $8; x += $9; if ($9 > 0) k++ }
			END { printf "%d %d %d %d", c, d, x, k }' "$TAB")
		set -- $r
		if [ "$4" -gt 0 ]; then
			ok "$l: the disk's cuts discarded $3 of $2 dirty blocks, in $4 of $1 cuts"
		else
			bad "$l: the disk's cuts discarded no block in $1 cuts ($2 dirty blocks): the cut loses nothing"
		fi
	fi
	# Lying and cache-only cuts keep nothing of the disk's cache, and the
	# acknowledged transactions are there: each must lose some, and the
	# disk must have discarded blocks.
	for p in lying- cache-; do
		case $p in lying-) n=$LIES ms=$DURABLE ;; *) n=$CACHE ms=$VOLATILE ;; esac
		[ "$n" -gt 0 ] || continue
		for m in $ms; do
			r=$(awk -v l="$p$l" -v m="$m" '$1 == l && $2 == m { c++;
				if ($4 > 0 && $6 == 1) k++; if ($9 > 0) d++; b += $9 }
				END { printf "%d %d %d %d", c, k, d, b }' "$TAB")
			set -- $r
			if [ "$1" -ge "$n" ] && [ "$2" -eq "$1" ] && [ "$3" -eq "$1" ]; then
				ok "$p$l $m: losses found and --check exit 1 in $2 of $1 cuts; the disk discarded $4 blocks"
			else
				bad "$p$l $m: losses found and --check exit 1 in only $2 of $1 cuts, the disk discarded blocks in $3 ($4 blocks)"
			fi
		done
	done
	[ "$EARLY" -gt 0 ] || continue
	# A cut catches the broken build when it lands between an
	# acknowledgement and the commit that follows it (and that block is
	# not among those kept): most cuts, not every one, so the layer's
	# cuts together must catch it.
	for p in early- early-lying-; do
		r=$(awk -v l="$p$l" '$1 == l { c++; if ($4 > 0 && $6 == 1) k++;
			if (!($2 in n)) o = o " " $2; n[$2]++; if ($4 > 0 && $6 == 1) g[$2]++ }
			END { printf "%d %d", c, k; split(o, a, " ");
			      for (i = 1; i in a; i++) printf " %s:%d/%d", a[i], g[a[i]], n[a[i]] }' "$TAB")
		set -- $r
		c=$1 k=$2
		shift 2
		if [ "$c" -ge "$EARLY" ] && [ "$k" -gt 0 ]; then
			ok "$p$l: the build that acknowledges before its commit caught in $k of $c cuts ($*)"
		elif [ "$c" -lt 4 ]; then
			echo "info - $p$l: the build that acknowledges before its commit caught in $k of $c cuts ($*): too few cuts to require it"
		else
			bad "$p$l: the build that acknowledges before its commit caught in $k of $c cuts ($*)"
		fi
	done
done
echo "guest-sync-write-powercut: targets $TARGETS, seed $SEED;" \
     "$pass passed, $fail failed$([ $NOOP = 1 ] && echo " (the disk's cuts were no-ops)")"
[ "$fail" -eq 0 ]
