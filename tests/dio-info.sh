#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# dio-info.sh -- dio-info on a regular file, a directory (with and without
# --probe-write), /dev/shm, /dev/null, a missing path and bad command
# lines; as root also on a loop device whose settings are changed through
# sysfs so that each advice must appear exactly when its fact holds.
# Every JSON report is checked by tests/dio-info-json.py: the documented
# keys, null for unknown facts, and each advice present exactly when the
# fact it comes from is in the report.
. "${top_srcdir:-.}/tests/lib.sh"
own_mounts "$@"

bin=$tools/dio-info
[ -x "$bin" ] || hard "$bin is not built"
need_cmd python3 python3
jcheck=$top_srcdir/tests/dio-info-json.py

work=$(mktemp -d "${TMPDIR:-/tmp}/dio-info.XXXXXX") || hard "mktemp failed"
loop= mnt= shm=
restore=
cleanup() {
	[ -n "$restore" ] && sh -c "$restore" 2>/dev/null
	[ -n "$mnt" ] && umount "$mnt" 2>/dev/null
	[ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
	[ -n "$shm" ] && rm -rf "$shm"
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 99' INT TERM

pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

# run STATUS DESC ARGS...: dio-info exits with STATUS; stdout in $work/out,
# stderr in $work/err.
run() {
	r_want=$1 r_what=$2
	shift 2
	"$bin" "$@" >"$work/out" 2>"$work/err"
	st=$?
	if [ "$st" -eq "$r_want" ]; then
		ok "dio-info $*: exit $st ($r_what)"
		return 0
	fi
	bad "dio-info $*: exit $st, want $r_want ($r_what)"
	sed 's/^/     /' "$work/err" "$work/out" | head -n 40
	return 1
}
# json DESC PATH [CHECKER ARGS...]: the JSON report of PATH passes the checker.
json() {
	j_what=$1 j_path=$2
	shift 2
	if ! "$bin" -f json "$j_path" >"$work/json" 2>"$work/err"; then
		bad "dio-info -f json $j_path: failed ($j_what)"; cat "$work/err"; return 1
	fi
	if python3 "$jcheck" "$@" <"$work/json" >"$work/jcheck"; then
		ok "json $j_path: $j_what"
	else
		bad "json $j_path: $j_what"; sed 's/^/     /' "$work/jcheck"
	fi
}
has() {
	if grep -F -q -e "$1" "$work/out"; then ok "$2"; else
		bad "$2: no '$1' in the report"; sed 's/^/     /' "$work/out" | head -n 60; fi
}
hasnt() {
	if grep -F -q -e "$1" "$work/out"; then
		bad "$2: '$1' in the report"; grep -F -e "$1" "$work/out" | head -n 5
	else ok "$2"; fi
}
# The advice ids of the text report are those of the JSON one.
same_ids() {
	"$bin" "$1" | sed -n 's/^  \* \([a-z-]*\): .*/\1/p' >"$work/tid"
	"$bin" -f json "$1" | python3 -c 'import json,sys
for a in json.load(sys.stdin)["advice"]: print(a["id"])' >"$work/jid"
	if cmp -s "$work/tid" "$work/jid"; then ok "text and json advice agree for $1"; else
		bad "text and json advice differ for $1"; diff "$work/tid" "$work/jid"; fi
}
# The entries of directory DIR with sizes and times, to see that nothing
# changed (the directory's own times change when a probe file comes and goes).
snapshot() { ls -l --full-time "$1" 2>/dev/null || ls -l "$1"; }

direct=false
backend_has_direct && direct=true

# ------------------------------------------------------------ command line
run 2 "no PATH"
grep -q "no PATH given" "$work/err" && ok "says no PATH given" || bad "no PATH message"
run 2 "two paths" /tmp /tmp
grep -q "one PATH only" "$work/err" && ok "says one PATH only" || bad "two paths message"
run 2 "bad format" -f xml /tmp
grep -q "allowed" "$work/err" && ok "lists the formats" || bad "format message"
run 2 "bad option" --frobnicate /tmp
run 2 "--probe-write on a file" --probe-write "$top_srcdir/README"
grep -q "probe-write tests a temporary file in a directory" "$work/err" &&
	ok "explains --probe-write" || bad "--probe-write message"
run 1 "missing path" "$work/no-such-file"
grep -q "no-such-file: cannot be examined: no such file or directory" "$work/err" &&
	ok "names the missing path and the reason" || bad "missing path message: $(cat "$work/err")"
run 0 "--help" --help; has "Usage: dio-info " "usage text"
run 0 "--version" -V; has "dio-info (libdirectio) " "version text"

# ------------------------------------------------------------ a regular file
mkdir "$work/files"
f=$work/files/file
dd if=/dev/zero of="$f" bs=4096 count=4 2>/dev/null
before=$(snapshot "$work/files")
run 0 "regular file" "$f"
has "$f: regular file" "names the path and its type"
has "file size            16384 bytes (16 KiB)" "file size"
has "Direct I/O" "direct I/O section"
has "Advice" "advice section"
if [ "$DIO_BACKEND" = linux ]; then
	has "  file system          " "file system line"
	fs=$(sed -n 's/^  file system  *//p' "$work/out")
	[ -n "$fs" ] && [ "$fs" != unknown ] && ok "file system type known ($fs)" ||
		bad "file system type unknown"
fi
json "regular file" "$f" --expect type="regular file" --expect file_size=16384
same_ids "$f"
[ "$(snapshot "$work/files")" = "$before" ] && ok "the file and its directory are unchanged" ||
	bad "something changed in $work/files"

# ------------------------------------------------------------ a directory
dir=$work/dir
mkdir "$dir"
before=$(snapshot "$dir")
run 0 "empty directory, no probe" "$dir"
has "not probed: no readable file in the directory" "says why it did not probe"
has "--probe-write tests a temporary file" "points to --probe-write"
json "empty directory" "$dir" --expect direct_io.supported=null --expect direct_io.probe=none
if "$bin" --version | grep -q "backend linux" && [ -r /sys/kernel/mm/transparent_hugepage/hpage_pmd_size ] &&
   ! grep -q '\[never\]' /sys/kernel/mm/transparent_hugepage/enabled; then
	if grep -E -q '^  large pages +[0-9]+ [KMG]iB \(dio_alloc_large' "$work/out"; then
		ok "names the large page for buffers: $(grep 'large pages' "$work/out")"
	else
		bad "no large page size in the report"; grep 'large pages' "$work/out"
	fi
else
	has "large pages          none" "says there are no large pages here"
fi
run 0 "--probe-write" --probe-write "$dir"
has "(created, written, read and removed)" "the probe file is created, written, read and removed"
[ "$(snapshot "$dir")" = "$before" ] && ok "--probe-write leaves nothing behind" ||
	bad "--probe-write left something in $dir: $(ls -A "$dir")"
"$bin" -f json --probe-write "$dir" >"$work/json"
python3 "$jcheck" --expect direct_io.probe="temporary file" <"$work/json" >"$work/jcheck" &&
	ok "json --probe-write" || { bad "json --probe-write"; cat "$work/jcheck"; }
sup=$(python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["direct_io"]["supported"]))' <"$work/json")
wp=$(python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["direct_io"]["write_probe"]))' <"$work/json")
if [ "$sup" = true ]; then
	[ "$wp" = true ] && ok "direct write probe worked" || bad "direct write probe: $wp"
else
	[ "$wp" = null ] && ok "no write probe without direct I/O (supported $sup)" ||
		bad "write probe $wp without direct I/O"
fi
[ "$DIO_BACKEND" = posix ] && { [ "$sup" = false ] && ok "posix: no direct I/O" ||
	bad "posix: direct I/O $sup"; }
cp "$f" "$dir/a-file"
run 0 "directory with a file" "$dir"
has "asked on a read-only open of an existing file" "probes an existing file read-only"
json "directory with a file" "$dir" --expect direct_io.probe="existing file" \
	--expect direct_io.probe_file="$dir/a-file"
same_ids "$dir"

# ------------------------------------------------------------ odd names
# A name holding a newline, a control character, a byte that is not UTF-8,
# a space, a double quote and a backslash is one line of the report: in
# single quotes with C escapes (\n, \xHH, \\), as dio-dd's tables show
# names (diot_quoted()); a plain name stays as it is.
odir=$work/odd
mkdir "$odir"
oname=$(printf 'o\nd\377d\001 "q\\')
printf 'data\n' >"$odir/$oname"
want="'$odir/o\\nd\\xffd\\x01 \"q\\\\'"
# The lines of a report: two of header, then empty lines, section titles, and
# facts indented by two spaces; a split name would add a line of its own.
stray() {
	sed 1,2d "$work/out" | grep -v -E '^(|  .*|Direct I/O|Device|SCSI generic \(sg\) driver|SCSI pass-through|Durability|Advice)$'
}
run 0 "a file named with a newline" "$odir/$oname"
if [ "$(sed -n 2p "$work/out")" = "$want: regular file" ] && [ -z "$(stray)" ]; then
	ok "the odd name is one quoted line, with C escapes"
else
	bad "the odd name splits or is not escaped:"; printf '     want %s\n' "$want: regular file"
	sed 's/^/     /' "$work/out" | head -n 8
fi
run 0 "a directory holding that file" "$odir"
if grep -q -F -x "  probe file           $want (in the directory, opened read-only)" "$work/out" &&
   [ -z "$(stray)" ]; then
	ok "the probe file's odd name is one quoted line"
else
	bad "the probe file's odd name:"; printf '     want %s\n' "$want"
	grep -n 'probe file' "$work/out"; stray
fi
json "a file named with a newline" "$odir/$oname"

# ------------------------------------------------------------ a read-only mount
# --probe-write where no file can be created: it says it could not, and
# what it probed instead (a file there, read-only), or that nothing was.
if [ "$(id -u)" -eq 0 ] && mkdir "$work/ro" && mount -t tmpfs -o size=1m tmpfs "$work/ro" 2>/dev/null; then
	mnt=$work/ro
	printf 'data\n' >"$mnt/a-file"
	if mount -o remount,ro "$mnt" 2>/dev/null; then
		before=$(snapshot "$mnt")
		run 0 "--probe-write on a read-only mount" --probe-write "$mnt"
		hasnt "created" "does not say it created a file"
		has "  write probe          not made: cannot create a temporary file in $mnt: read-only file system" \
			"says the write probe was not made, and why"
		has "  probe file           $mnt/a-file (in the directory, opened read-only)" \
			"names the file it probed instead"
		json "--probe-write on a read-only mount" "$mnt" --expect direct_io.probe="existing file" \
			--expect direct_io.probe_file="$mnt/a-file"
		"$bin" -f json --probe-write "$mnt" >"$work/json"
		python3 "$jcheck" --expect direct_io.probe="existing file" --expect direct_io.write_probe=null \
			--expect direct_io.write_probe_detail="not made: cannot create a temporary file in $mnt: read-only file system" \
			<"$work/json" >"$work/jcheck" && ok "json: write probe null, with the reason" ||
			{ bad "json --probe-write on a read-only mount"; cat "$work/jcheck"; }
		[ "$(snapshot "$mnt")" = "$before" ] && ok "nothing changed on the read-only mount" ||
			bad "the read-only mount changed"
		# No file to read either: nothing was probed, and it says both.
		mount -o remount,rw "$mnt" && rm "$mnt/a-file" && mount -o remount,ro "$mnt" ||
			hard "cannot empty the read-only mount"
		run 0 "--probe-write on an empty read-only mount" --probe-write "$mnt"
		has "  supported            unknown: not probed: --probe-write cannot create a temporary file here (read-only file system), and no readable file in the directory to open read-only" \
			"says nothing was probed, and why"
		hasnt "probe file" "names no probe file"
		hasnt "created" "does not say it created a file"
	else
		echo "SKIP read-only mount: cannot remount tmpfs read-only"
	fi
	umount "$mnt" && mnt=
else
	echo "SKIP read-only mount: needs root (a tmpfs remounted read-only)"
fi

# ------------------------------------------------------------ /dev/shm (tmpfs)
if [ "$DIO_BACKEND" = linux ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
	shm=$(mktemp -d /dev/shm/dio-info.XXXXXX) || hard "mktemp in /dev/shm failed"
	run 0 "/dev/shm" /dev/shm
	has "file system          tmpfs" "tmpfs"
	has "none (the file system has no block device of its own)" "no block device under tmpfs"
	json "/dev/shm" /dev/shm --expect fs_type=tmpfs --expect device.path=null \
		--expect device.max_sectors_kb=null --expect device.rotational=null
	"$bin" -f json --probe-write "$shm" >"$work/json"
	if [ "$(kernel_version)" -ge 6006 ]; then
		python3 "$jcheck" --expect direct_io.supported=true --no-advice no-direct \
			<"$work/json" >"$work/jcheck" && ok "tmpfs on Linux >= 6.6 takes O_DIRECT" ||
			{ bad "tmpfs on $(uname -r)"; cat "$work/jcheck"; }
	else
		python3 "$jcheck" --expect direct_io.supported=false --advice no-direct \
			<"$work/json" >"$work/jcheck" && ok "tmpfs before Linux 6.6 refuses O_DIRECT" ||
			{ bad "tmpfs on $(uname -r)"; cat "$work/jcheck"; }
		"$bin" --probe-write "$shm" >"$work/out"
		has "tmpfs takes O_DIRECT from Linux 6.6 on" "names the kernel version that has it"
	fi
	[ -z "$(ls -A "$shm")" ] && ok "nothing left in $shm" || bad "left in $shm: $(ls -A "$shm")"
fi

# ------------------------------------------------------------ --counters
run 2 "--counters with --probe-write" --counters --probe-write "$work"
grep -q "counters reads the disks' counters and probes nothing" "$work/err" &&
	ok "says --counters probes nothing" || bad "--counters --probe-write message"
if [ "$DIO_BACKEND" = linux ] && [ -r /proc/diskstats ]; then
	# every disk's stat file now: the counters dio-info reads next lie
	# between these and the checker's own read after it
	for s in /sys/block/*/stat; do
		n=${s%/stat}; echo "${n##*/} $(cat "$s")"
	done >"$work/stat-before"
	if "$bin" --counters -f json "$top_builddir" >"$work/json" 2>"$work/err"; then
		python3 "$jcheck" --counters --stat-before "$work/stat-before" \
			--expect counted=yes <"$work/json" >"$work/jcheck" &&
			ok "--counters json $top_builddir: $(python3 -c 'import json,sys
print(", ".join("%s via %s" % (d["name"], d["via"]) for d in json.load(sys.stdin)["disks"]))' \
				<"$work/json")" ||
			{ bad "--counters json $top_builddir"; cat "$work/jcheck"; }
		run 0 "--counters text" --counters "$top_builddir"
		has "block-layer counters of the disks under" "the text report's heading"
		has "  writes " "a disk's writes"
		json "flush counts of $top_builddir" "$top_builddir" \
			--expect durability.flush_counts=true
	else
		# the build directory on tmpfs or NFS: said n/a, exit 1
		grep -q "block-layer counters n/a: no local disk" "$work/err" &&
			ok "--counters $top_builddir: n/a, $(cat "$work/err")" ||
			bad "--counters $top_builddir failed: $(cat "$work/err")"
	fi
	if [ -d /dev/shm ]; then
		run 1 "--counters on tmpfs" --counters /dev/shm
		has_err() { grep -q "$1" "$work/err" && ok "$2" || bad "$2: $(cat "$work/err")"; }
		has_err "/dev/shm: block-layer counters n/a: no local disk: /dev/shm is on tmpfs" \
			"--counters /dev/shm says no local disk"
		json "no flush counts on tmpfs" /dev/shm --expect durability.flush_counts=false
		run 1 "--counters -f json on tmpfs" --counters -f json /dev/shm
		python3 "$jcheck" --counters --expect counted=no --expect disks='[]' \
			<"$work/out" >"$work/jcheck" && grep -q '"why": "no local disk' "$work/out" &&
			ok "--counters json /dev/shm: counted no, why no local disk" ||
			{ bad "--counters json /dev/shm"; cat "$work/jcheck" "$work/out"; }
	fi
	run 1 "--counters on a missing path" --counters "$work/no-such-file"
	[ -s "$work/err" ] && ok "says why: $(cat "$work/err")" || bad "missing path: silent"
fi

# ------------------------------------------------------------ /dev/null
run 0 "/dev/null" /dev/null
has "/dev/null: character device" "a character device"
has "not applicable" "no direct I/O to speak of"
has "none: nothing above calls for a change" "no advice"
json "/dev/null" /dev/null --expect type="character device" --expect advice='[]' \
	--expect direct_io.supported=null --expect device.path=null
run 0 "/dev/null --no-scsi" --no-scsi /dev/null

# posix: the device facts are not known, and it says so.
if [ "$DIO_BACKEND" = posix ]; then
	run 0 "posix backend" "$f"
	has "unknown: this build (backend posix) cannot read device facts" "says what it cannot know"
	json "posix" "$f" --expect device.error="operation not supported" --expect device.path=null
fi

# ------------------------------------------------------------ a loop device
if [ "$DIO_BACKEND" = linux ] && [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null 2>&1 &&
    truncate -s 64M "$work/img" && loop=$(losetup -f --show "$work/img" 2>/dev/null); then
	n=${loop#/dev/}
	q=/sys/block/$n/queue
	cur=$(cat $q/max_sectors_kb) hw=$(cat $q/max_hw_sectors_kb) segs=$(cat $q/max_segments)
	ra=$(cat $q/read_ahead_kb) rot=$(cat $q/rotational)
	sched=$(sed 's/.*\[\(.*\)\].*/\1/' $q/scheduler)
	restore="echo $cur > $q/max_sectors_kb; echo $ra > $q/read_ahead_kb;
		echo $rot > $q/rotational; echo $sched > $q/scheduler"
	run 0 "loop device" "$loop"
	has "$loop: block device" "a block device"
	has "max_sectors_kb       $cur KiB" "max_sectors_kb as in sysfs"
	has "max_hw_sectors_kb    $hw KiB" "max_hw_sectors_kb as in sysfs"
	has "loop backing file    $work/img (direct I/O to it: no)" "the backing file"
	has "settings in          $q" "where the settings are"
	has "in use               no" "not in use"
	json "loop device" "$loop" --expect device.path="$loop" --expect device.size_bytes=67108864 \
		--expect device.logical_block_size="$(cat $q/logical_block_size)" \
		--expect device.max_sectors_kb="$cur" --expect device.scheduler="$sched" \
		--expect scsi.available=false --expect direct_io.supported=true \
		--advice loop-buffered
	has "losetup --direct-io=on $loop" "tells how to make the loop driver direct"
	same_ids "$loop"

	# max_sectors_kb below what the driver and segments allow.
	pk=$(($(getconf PAGESIZE) / 1024))
	target=$hw
	[ $((segs * pk)) -lt "$target" ] && target=$((segs * pk))
	if [ "$target" -gt 8 ] && echo 8 >$q/max_sectors_kb 2>/dev/null; then
		run 0 "max_sectors_kb 8" "$loop"
		has "capped at max_sectors_kb = 8 KiB" "names the cap"
		has "echo $target > $q/max_sectors_kb" "how to raise it now"
		has "ACTION==\"add|change\", SUBSYSTEM==\"block\", KERNEL==\"loop*\", ATTR{loop/backing_file}==\"$work/img\", ATTR{queue/max_sectors_kb}=\"$target\"" "the udev rule for this loop device, by its backing file"
		has "/etc/udev/rules.d/99-dio-$n.rules" "where the rule goes"
		json "max_sectors_kb 8" "$loop" --advice max-sectors --expect device.max_sectors_kb=8
		echo "$target" >$q/max_sectors_kb
		json "max_sectors_kb $target" "$loop" --no-advice max-sectors
		echo "$cur" >$q/max_sectors_kb
	else
		echo "SKIP max_sectors_kb: cannot lower it below $target on $loop"
	fi

	# read-ahead on a rotational device, scheduler on a fast one.
	if echo 1 >$q/rotational 2>/dev/null && echo 128 >$q/read_ahead_kb; then
		json "rotational, read_ahead_kb 128" "$loop" --advice read-ahead
		"$bin" "$loop" >"$work/out"
		has "echo 4096 > $q/read_ahead_kb" "how to raise read-ahead"
		echo 4096 >$q/read_ahead_kb
		json "rotational, read_ahead_kb 4096" "$loop" --no-advice read-ahead
	fi
	if echo 0 >$q/rotational 2>/dev/null && grep -q bfq $q/scheduler &&
	    echo bfq >$q/scheduler 2>/dev/null; then
		json "not rotational, bfq" "$loop" --advice scheduler --expect device.scheduler=bfq
		"$bin" "$loop" >"$work/out"
		has "echo none > $q/scheduler" "how to switch to none"
		echo none >$q/scheduler
		json "not rotational, none" "$loop" --no-advice scheduler
	else
		echo "SKIP scheduler advice: no bfq for $loop"
	fi
	sh -c "$restore"

	# in use: a mounted file system on it; and a file there.
	if command -v mkfs.ext4 >/dev/null 2>&1 && mkfs.ext4 -q -F "$loop" >/dev/null 2>&1 &&
	    mkdir "$work/mnt" && mount "$loop" "$work/mnt"; then
		mnt=$work/mnt
		json "mounted loop device" "$loop" --advice in-use --expect device.in_use=true
		"$bin" "$loop" >"$work/out"
		has "mounted on $mnt (ext4)" "says where it is mounted"
		echo x >"$mnt/file"
		json "a file on the mounted loop device" "$mnt/file" --expect device.path="$loop" \
			--expect fs_type=ext4 --no-advice in-use --expect device.in_use=true
		umount "$mnt" && mnt=
		json "unmounted again" "$loop" --no-advice in-use --expect device.in_use=false
	fi

	# direct I/O to the backing file: the loop advice goes away.
	if losetup --direct-io=on "$loop" 2>/dev/null &&
	    [ "$(cat /sys/block/$n/loop/dio)" = 1 ]; then
		json "loop with direct I/O" "$loop" --no-advice loop-buffered \
			--expect device.loop_direct_io=true
	fi
else
	echo "SKIP loop device checks: need the linux backend, root and losetup"
fi

echo "dio-info.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
