#!/bin/sh
# tools-cli.sh -- every tool answers --help and --version (exit 0, on
# stdout), rejects an unknown option with exit 2, and has a man page that
# man(1) can format with its NAME section naming the tool.
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
	page=$top_srcdir/man/$t.1
	[ -f "$page" ] || { echo "FAIL $t: no man page $page"; fail=1; continue; }
	if command -v man >/dev/null 2>&1; then
		LC_ALL=C MANWIDTH=80 man -l "$page" 2>/dev/null | grep -A1 '^NAME' |
			grep -Eq "^ +$t +- " ||
			{ echo "FAIL $t: man page does not format with a NAME section"; fail=1; }
	fi
	[ $fail -eq 0 ] && echo "ok   $t: --help, --version, bad option, man page"
done
exit $fail
