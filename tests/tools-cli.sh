#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tools-cli.sh -- every tool answers --help and --version (exit 0, on
# stdout), rejects an unknown option with exit 2, and has a man page that
# man(1) can format with its NAME section naming the tool; and their JSON
# is valid UTF-8 JSON whatever bytes a file name holds.
. "${top_srcdir:-.}/tests/lib.sh"

fail=0
for t in sync-write dio-rbuf dio-info dio-dd; do
	bin=$top_builddir/tools/$t
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

# Names are bytes, JSON is UTF-8: a file named with a newline, a control
# character and a byte that is not UTF-8 gives valid JSON (the byte as
# U+FFFD) from every tool that can read a plain file.
if command -v python3 >/dev/null 2>&1; then
	work=$(mktemp -d "${TMPDIR:-/tmp}/tools-cli.XXXXXX") || hard "mktemp"
	odd=$work/$(printf 'o\nd\377d\001')
	echo data >"$odd"
	for bin in dio-dd dio-info sync-write; do
		case $bin in
		dio-dd) "$top_builddir/tools/$bin" if="$odd" mode=read bs=4k -f json ;;
		dio-info) "$top_builddir/tools/$bin" -f json "$odd" ;;
		sync-write) "$top_builddir/tools/$bin" -q -n 1 -s 4k -m none --force -f json "$odd" ;;
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
