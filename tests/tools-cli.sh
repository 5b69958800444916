#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tools-cli.sh -- every tool answers --help and --version (exit 0, on
# stdout), rejects an unknown option with exit 2, and has a man page that
# man(1) can format with its NAME section naming the tool; every tool
# program the build makes (each program in tools/: sync-write, dio-dd,
# dio-rbuf, dio-info, and the MPI builds where made) has a --help whose
# lines fit 80 columns and whose last line names its man page; and their
# JSON is valid UTF-8 JSON whatever bytes a file name holds.
. "${top_srcdir:-.}/tests/lib.sh"

fail=0
for t in sync-write dio-rbuf dio-info dio-dd; do
	bin=$tools/$t
	out=$("$bin" --help 2>/dev/null) && echo "$out" | grep -q "^Usage: $t " ||
		{ echo "FAIL $t --help"; fail=1; }
	out=$("$bin" --version 2>/dev/null) && echo "$out" | grep -q "^$t (libdirectio) [0-9]" ||
		{ echo "FAIL $t --version: $out"; fail=1; }
	"$bin" --no-such-option >/dev/null 2>&1
	[ $? -eq 2 ] || { echo "FAIL $t: unknown option is not exit 2"; fail=1; }
	page=$top_builddir/man/$t.1
	[ -f "$page" ] || { echo "FAIL $t: no man page $page"; fail=1; continue; }
	if command -v man >/dev/null 2>&1; then
		LC_ALL=C MANWIDTH=80 man -l "$page" 2>/dev/null | grep -A1 '^NAME' |
			grep -Eq "^ +$t +- " ||
			{ echo "FAIL $t: man page does not format with a NAME section"; fail=1; }
	fi
	[ $fail -eq 0 ] && echo "ok   $t: --help, --version, bad option, man page"
done

# --help within 80 columns (tabs expanded), its last non-empty line
# naming the program's man page: NAME(1), or for an MPI build NAME-mpi
# the page of NAME, which NAME-mpi(1) sources.
progs=
for bin in "$top_builddir"/tools/*; do
	[ -f "$bin" ] && [ -x "$bin" ] && progs="$progs ${bin##*/}"
done
for t in sync-write dio-rbuf dio-info dio-dd; do
	case " $progs " in *" $t "*) ;; *) echo "FAIL $t: not built in $top_builddir/tools"; fail=1 ;; esac
done
for t in $progs; do
	help=$("$tools/$t" --help 2>/dev/null) ||
		{ echo "FAIL $t --help: exit $?"; fail=1; continue; }
	wide=$(printf '%s\n' "$help" | expand | awk 'length($0) > 80 { printf "%d columns: %s\n", length($0), $0 }')
	last=$(printf '%s\n' "$help" | awk 'NF { l = $0 } END { print l }')
	page=${t%-mpi}
	if [ -n "$wide" ]; then
		echo "FAIL $t --help: lines wider than 80 columns:"
		printf '%s\n' "$wide" | sed 's/^/    /'
		fail=1
	elif ! printf '%s\n' "$last" | grep -q -F -e "$t(1)" -e "$page(1)"; then
		echo "FAIL $t --help: its last line does not name $t(1): $last"
		fail=1
	else
		echo "ok   $t --help: $(printf '%s\n' "$help" | wc -l | tr -d ' ') lines within 80 columns, ends: $last"
	fi
done

# Names are bytes, JSON is UTF-8: a file named with a newline, a control
# character and a byte that is not UTF-8 gives valid JSON (the byte as
# U+FFFD) from every tool that can read a plain file.
if command -v python3 >/dev/null 2>&1; then
	work=$(mktemp -d "${TMPDIR:-/tmp}/tools-cli.XXXXXX") || hard "mktemp"
	odd=$work/$(printf 'o\nd\377d\001')
	echo data >"$odd"
	for bin in dio-dd dio-info sync-write; do
		case $bin in
		dio-dd) "$tools/$bin" if="$odd" mode=read bs=4k -f json ;;
		dio-info) "$tools/$bin" -f json "$odd" ;;
		sync-write) "$tools/$bin" -q -n 1 -s 4k -m none --force -f json "$odd" ;;
		esac >"$work/out.json" 2>"$work/err"
		if python3 - "$work/out.json" "$odd" <<'PY'; then
import json, sys
d = json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))  # UTF-8, or this fails
want = sys.argv[2].encode("utf-8", "surrogateescape").decode("utf-8", "replace")
def strings(v):
    if isinstance(v, str):
        yield v
    elif isinstance(v, dict):
        for x in v.values():
            yield from strings(x)
    elif isinstance(v, list):
        for x in v:
            yield from strings(x)
assert any(want in x for x in strings(d)), "the name (its byte as U+FFFD) is not there"
PY
			echo "ok   $bin -f json: valid JSON for a file named with a newline and a non-UTF-8 byte"
		else
			echo "FAIL $bin -f json with an odd file name:"; head -c 600 "$work/out.json" "$work/err"
			fail=1
		fi
	done
	rm -rf "$work"
else
	echo "SKIP: JSON of odd names: no python3"
fi
exit $fail
