#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# mkinitrd.sh -- build a cpio (newc) initramfs for the qemu test guest.
#
# usage: mkinitrd.sh -o OUTPUT -m MODDIR [options]
#   -o FILE         the initramfs to write (uncompressed newc cpio: the
#                   base archive, then this guest's own)
#   -m DIR          the kernel's module tree, /lib/modules/KVER of the
#                   unpacked kernel package (see fetch-kernel.sh)
#   -A MOD[,MOD]    modules to include in addition to the -M list (or the
#                   default one), e.g. ext4; may be repeated
#   -M MOD[,MOD]    modules to include with all their dependencies; may be
#                   repeated (default: the harness's list, see below)
#   -i FILE         the guest's /init (default: guest-init.sh beside this)
#   -f HOST[:GUEST] copy a file (GUEST defaults to HOST); may be repeated
#   -x HOST[:GUEST] copy an executable and, when it is a dynamic ELF file,
#                   its program interpreter and shared libraries at their
#                   host paths (GUEST defaults to /bin/NAME); may be repeated
#   -b FILE         the busybox to use (default: busybox on PATH); a
#                   dynamic one works too, its libraries come along
#   -c DIR          keep the base archive (busybox and its applets, the
#                   modules and their list) in DIR and use it again while
#                   the busybox, the module tree, the module list and this
#                   script are the same: a guest's initramfs is then that
#                   base followed by a small archive of its own files (the
#                   kernel unpacks the two in turn)
#   -v              say what goes in
#
# The modules are copied decompressed (.ko.xz/.gz/.zst are unpacked, so
# busybox insmod can load them) to /lib/modules/KVER/... and listed in
# dependency order in /etc/dio-modules, which guest-init.sh loads line by
# line; the list also goes to OUTPUT.modules on the host.  Dependencies
# come from modules.dep when the tree has one, else from each module's
# own "depends=" field (Debian packages ship no modules.dep: depmod runs
# at install time, and we do not install).  Built-in modules (listed in
# modules.builtin) are skipped.
#
# Busybox goes to /bin/busybox with a symlink for each of its applets.
# Shared libraries are resolved with ldd and copied (symlinks followed) to
# the same paths as on the host, the loader included, so any host binary
# (sg3_utils, the project's test programs) runs in the guest.
#
# Exit status: 0 written; 77 something needed is missing on this host
# (reason printed, "SKIP: ..."); 99 bad usage or an unexpected failure.
set -u

me=mkinitrd.sh
here=$(cd "$(dirname "$0")" && pwd)
die() { echo "$me: ERROR: $*" >&2; exit 99; }
skip() { echo "SKIP: $me: $*" >&2; exit 77; }

DEFAULT_MODULES="virtio_pci,virtio_scsi,sd_mod,sg,scsi_debug,configfs,\
target_core_mod,target_core_user,tcm_loop,uio"

out=''
moddir=''
init=$here/guest-init.sh
busybox=''
verbose=0
modules=
extra=
files=$(mktemp "${TMPDIR:-/tmp}/dio-mkinitrd-files.XXXXXX") ||
	die "mktemp failed"
bins=$(mktemp "${TMPDIR:-/tmp}/dio-mkinitrd-bins.XXXXXX") ||
	{ rm -f "$files"; die "mktemp failed"; }
stage='' bstage='' rstage='' tbase='' cachedir=''
# shellcheck disable=SC2317 # called through the trap
cleanup() {
	rm -f "$files" "$bins" ${tbase:+"$tbase"} ${tbase:+"$tbase.modules"}
	for _d in "$bstage" "$rstage"; do [ -n "$_d" ] && rm -rf "$_d"; done
}
trap cleanup EXIT
trap 'exit 99' INT TERM HUP

while getopts o:m:M:A:i:f:x:b:c:v opt; do
	case $opt in
	o) out=$OPTARG ;;
	m) moddir=$OPTARG ;;
	M) modules="$modules,$OPTARG" ;;
	A) extra="$extra,$OPTARG" ;;
	i) init=$OPTARG ;;
	f) printf '%s\n' "$OPTARG" >>"$files" ;;
	x) printf '%s\n' "$OPTARG" >>"$bins" ;;
	b) busybox=$OPTARG ;;
	c) cachedir=$OPTARG ;;
	v) verbose=1 ;;
	*) die "usage: $me -o OUTPUT -m MODDIR [-M MODS] [-A MODS] [-i INIT]" \
		"[-f HOST[:GUEST]]... [-x HOST[:GUEST]]... [-b BUSYBOX] [-c DIR] [-v]" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || die "unexpected arguments: $*"
[ -n "$out" ] || die "no -o OUTPUT"
[ -n "$moddir" ] || die "no -m MODDIR"
[ -d "$moddir/kernel" ] || die "$moddir is not a module tree (no kernel/)"
[ -f "$init" ] || die "no init script $init"
[ -n "$modules" ] || modules=,$DEFAULT_MODULES
modules=$modules$extra
modules=${modules#,}

say() { [ "$verbose" -eq 1 ] && echo "$me: $*" >&2; return 0; }

if [ -z "$busybox" ]; then
	busybox=$(command -v busybox 2>/dev/null) ||
		skip "no busybox (apt-get install busybox-static)"
fi
[ -x "$busybox" ] || skip "$busybox is not executable"
command -v ldd >/dev/null 2>&1 || skip "no ldd (libc-bin)"

kver=$(basename "$moddir")

# ------------------------------------------------------------ helpers
# copy HOST GUEST: a regular file, symlinks followed, mode kept
copy() {
	mkdir -p "$stage$(dirname "$2")" || die "mkdir for $2 failed"
	rm -f "$stage$2"
	cp -L "$1" "$stage$2" || die "cannot copy $1"
}

# The shared objects a dynamic ELF file needs (its interpreter too), one
# absolute path a line; nothing for static executables and scripts.
shlibs() {
	# Not ELF (a script): nothing.
	[ "$(od -An -c -N4 "$1" 2>/dev/null | tr -d ' ')" = '177ELF' ] ||
		return 0
	ldd_out=$(LC_ALL=C ldd "$1" 2>&1)
	case $ldd_out in
	*"not a dynamic executable"*|*"statically linked"*) return 0 ;;
	esac
	if printf '%s\n' "$ldd_out" | grep -q '=> not found'; then
		printf '%s\n' "$ldd_out" >&2
		die "$1 needs shared libraries that are not found"
	fi
	# "name => /path (0x...)" and "/lib64/ld-linux-x86-64.so.2 (0x...)"
	printf '%s\n' "$ldd_out" | sed -n \
		-e 's/^[[:space:]]*[^[:space:]]* => \(\/[^[:space:]]*\).*/\1/p' \
		-e 's/^[[:space:]]*\(\/[^[:space:]]*\) (0x.*/\1/p'
}

copy_exe() {  # HOST GUEST
	[ -f "$1" ] || die "no file $1"
	copy "$1" "$2"
	chmod 755 "$stage$2"
	libs=$(shlibs "$1") || exit 99
	for lib in $libs; do
		# A build tree's library (an RPATH like /tmp/b/lib/.libs) may be
		# hidden in the guest by a mount over its directory (/tmp is a
		# tmpfs there): put such libraries on the default search path too.
		case $lib in
		/lib/*|/lib64/*|/usr/lib/*) ;;
		*) [ -e "$stage/usr/lib/${lib##*/}" ] || copy "$lib" "/usr/lib/${lib##*/}" ;;
		esac
		[ -e "$stage$lib" ] && continue
		say "  library $lib"
		copy "$lib" "$lib"
	done
}

# archive DIR FILE: DIR's tree as a newc cpio owned by root, written whole
archive() {
	(cd "$1" && find . -mindepth 1 | sed 's,^\./,,' | LC_ALL=C sort |
		"$busybox" cpio -o -H newc -R 0:0 >"$2.tmp.$$" 2>/dev/null) ||
		{ rm -f "$2.tmp.$$"; die "cpio failed"; }
	mv "$2.tmp.$$" "$2" || die "cannot write $2"
}

# ------------------------------------------------------------ base
# The base archive: the same for every guest of this busybox, module tree
# and module list (and this script); with -c made once and kept.
base=''
if [ -n "$cachedir" ]; then
	mkdir -p "$cachedir" || die "cannot create $cachedir"
	key=$({ stat -L -c '%n %s %Y' "$busybox" "$moddir" "$moddir/kernel" &&
		echo "$modules" && cksum <"$0"; } | cksum | cut -d' ' -f1) ||
		die "cannot stat $busybox or $moddir"
	base=$cachedir/initrd-base-$key.cpio
fi
# make_base: busybox and its applets, the modules and their list, into
# the archive $base
make_base() {
	bstage=$(mktemp -d "${TMPDIR:-/tmp}/dio-initrd.XXXXXX") || die "mktemp failed"
	stage=$bstage

	for d in bin sbin etc proc sys dev tmp run mnt root guest \
	    lib/modules/"$kver" sys/kernel/config; do
		mkdir -p "$stage/$d" || die "mkdir failed"
	done

	say "busybox $busybox"
	copy_exe "$busybox" /bin/busybox
	mkdir -p "$stage/usr/bin" "$stage/usr/sbin"
	for applet in $("$busybox" --list-full 2>/dev/null); do
		case $applet in
		*/busybox|linuxrc) continue ;;
		esac
		[ -e "$stage/$applet" ] || ln -s /bin/busybox "$stage/$applet"
	done
	[ -e "$stage/bin/sh" ] || ln -s busybox "$stage/bin/sh"

	# ------------------------------------------------------------ modules
	# name: basename without .ko[.xz|.gz|.zst], '-' and '_' alike
	modname() {
		basename "$1" | sed -e 's/\.ko\(\.[a-z]*\)\{0,1\}$//' -e 's/-/_/g'
	}

	index=$stage/.modindex
	(cd "$moddir" && find kernel -name '*.ko' -o -name '*.ko.*') | awk '{
		n = $0; sub(/.*\//, "", n); sub(/\.ko(\.[a-z]+)?$/, "", n)
		gsub(/-/, "_", n); print n, $0 }' >"$index"
	[ -s "$index" ] || die "no modules under $moddir/kernel"

	builtin_mod() {
		[ -f "$moddir/modules.builtin" ] || return 1
		sed -e 's,.*/,,' -e 's/\.ko$//' -e 's/-/_/g' "$moddir/modules.builtin" |
			grep -qx "$1"
	}

	modpath() {  # name -> relative path, or nothing
		awk -v m="$1" '$1 == m { print $2; exit }' "$index"
	}

	# decompressed content of a module file on stdout
	modcat() {
		case $1 in
		*.ko) cat "$1" ;;
		*.ko.xz) xz -dc "$1" ;;
		*.ko.gz) gzip -dc "$1" ;;
		*.ko.zst) zstd -dcq "$1" ;;
		*) die "unknown module compression: $1" ;;
		esac
	}

	moddeps() {  # relative path -> dependency names
		if [ -f "$moddir/modules.dep" ]; then
			awk -v p="$1:" '$1 == p { for (i = 2; i <= NF; i++) print $i }' \
				"$moddir/modules.dep" | while read -r d; do modname "$d"; done
		else
			modcat "$moddir/$1" | tr '\0' '\n' | sed -n 's/^depends=//p' |
				head -n 1 | tr ',' '\n' | sed -e '/^$/d' -e 's/-/_/g'
		fi
	}

	# Walk the dependency graph: lines "name path dep dep ..."
	graph=$stage/.modgraph
	: >"$graph"
	todo=$(printf '%s' "$modules" | tr ',' ' ' | sed 's/-/_/g')
	seen=" "
	while [ -n "$todo" ]; do
		# shellcheck disable=SC2086 # the list is split on purpose
		set -- $todo
		[ $# -gt 0 ] || break
		m=$1; shift; todo=$*
		case $seen in *" $m "*) continue ;; esac
		seen="$seen$m "
		p=$(modpath "$m")
		if [ -z "$p" ]; then
			builtin_mod "$m" && { say "module $m is built in"; continue; }
			die "no module $m in $moddir"
		fi
		deps=$(moddeps "$p" | tr '\n' ' ')
		printf '%s %s %s\n' "$m" "$p" "$deps" >>"$graph"
		todo="$todo $deps"
	done

	# Dependencies first, in the order asked for otherwise.
	order=$(awk '
		{ path[$1] = $2; n = 0
		  for (i = 3; i <= NF; i++) dep[$1, ++n] = $i
		  ndep[$1] = n; names[++count] = $1 }
		function visit(m,   i) {
			if (done[m] || !(m in path)) return
			if (busy[m]) { print "cycle at " m > "/dev/stderr"; return }
			busy[m] = 1
			for (i = 1; i <= ndep[m]; i++) visit(dep[m, i])
			done[m] = 1
			print path[m]
		}
		END { for (i = 1; i <= count; i++) visit(names[i]) }' "$graph") ||
		die "cannot order modules"

	: >"$stage/etc/dio-modules"
	for rel in $order; do
		plain=${rel%.xz}; plain=${plain%.gz}; plain=${plain%.zst}
		mkdir -p "$stage/lib/modules/$kver/$(dirname "$plain")"
		modcat "$moddir/$rel" >"$stage/lib/modules/$kver/$plain" ||
			die "cannot copy module $rel"
		echo "/lib/modules/$kver/$plain" >>"$stage/etc/dio-modules"
		say "module $plain"
	done
	echo "$kver" >"$stage/etc/dio-kver"
	rm -f "$index" "$graph"
	cp "$stage/etc/dio-modules" "$base.modules.tmp.$$" &&
		mv "$base.modules.tmp.$$" "$base.modules" || die "cannot write $base.modules"
	archive "$stage" "$base"
	say "base $base ($(wc -c <"$base") bytes)"
	rm -rf "$bstage"; bstage=''
}

if [ -n "$base" ] && [ -f "$base" ] && [ -f "$base.modules" ]; then
	say "base $base (made before)"
else
	if [ -z "$base" ]; then
		tbase=$(mktemp "${TMPDIR:-/tmp}/dio-initrd-base.XXXXXX") || die "mktemp failed"
		base=$tbase
	fi
	make_base
fi

# ------------------------------------------------------------ this guest's
rstage=$(mktemp -d "${TMPDIR:-/tmp}/dio-initrd.XXXXXX") || die "mktemp failed"
stage=$rstage
copy "$init" /init
chmod 755 "$stage/init"
head -n 1 "$stage/init" | grep -q '^#!/bin/busybox sh' ||
	die "$init must begin with '#!/bin/busybox sh'"

split_spec() {  # SPEC DEFAULT-GUEST -> sets src, dst
	case $1 in
	*:*) src=${1%%:*}; dst=${1#*:} ;;
	*) src=$1; dst=$2 ;;
	esac
	case $dst in /*) ;; *) die "guest path must be absolute: $dst" ;; esac
}

while read -r spec; do
	[ -n "$spec" ] || continue
	split_spec "$spec" "$spec"
	[ -e "$src" ] || die "no file $src"
	say "file $src -> $dst"
	copy "$src" "$dst"
done <"$files"

while read -r spec; do
	[ -n "$spec" ] || continue
	split_spec "$spec" "/bin/$(basename "${spec%%:*}")"
	say "program $src -> $dst"
	copy_exe "$src" "$dst"
done <"$bins"

# ------------------------------------------------------------ archive
# the base, then this guest's files (the kernel unpacks one after the
# other; a file in both is this guest's)
archive "$stage" "$out.own"
cat "$base" "$out.own" >"$out.tmp.$$" && mv "$out.tmp.$$" "$out" ||
	{ rm -f "$out.tmp.$$" "$out.own"; die "cannot write $out"; }
rm -f "$out.own"
cp "$base.modules" "$out.modules" 2>/dev/null
say "wrote $out ($(wc -c <"$out") bytes)"
exit 0
