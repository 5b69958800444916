#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# example.sh -- the README's example is a part of tests/example.c, word for
# word (its lines one after another, as in the file); the program runs,
# writes 4 durable records and, where direct I/O is on, shows the refusal of
# a misaligned write.
. "${top_srcdir:-.}/tests/lib.sh"

fail=0
readme=$top_srcdir/README
awk '/^```c$/ { on = 1; next } /^```$/ { if (on) exit } on' "$readme" > example.readme.c
# One line each, newlines made \001: the excerpt must be a run of the file.
excerpt=$(tr '\n' '\001' < example.readme.c)
if ! grep -q 'dio_open(' example.readme.c; then
	echo "FAIL: the README has no \`\`\`c block calling dio_open"
	fail=1
elif ! tr '\n' '\001' < "$top_srcdir/tests/example.c" | grep -qF -- "$excerpt"; then
	echo "FAIL: the README's example is not a part of tests/example.c, line for line:"
	diff -u "$top_srcdir/tests/example.c" example.readme.c | head -n 30
	fail=1
else
	echo "ok   the README's example: $(wc -l < example.readme.c) lines of tests/example.c"
fi
rm -f example.readme.c
f=$(mktemp "$top_builddir/example.XXXXXX")
out=$("$top_builddir/tests/example" "$f") || { echo "FAIL: example exited $?"; fail=1; }
echo "$out"
size=$(wc -c < "$f")
len=$(echo "$out" | sed -n 's/.*granularity \([0-9]*\) bytes.*/\1/p')
[ "$len" -lt 4096 ] && len=4096
[ "$size" -eq $((4 * len)) ] || { echo "FAIL: file has $size bytes, want $((4 * len))"; fail=1; }
echo "$out" | grep -q '^direct I/O: [^;]*; sync: O_DSYNC' || { echo "FAIL: no O_DSYNC"; fail=1; }
if echo "$out" | grep -q '^direct I/O: O_DIRECT'; then
	echo "$out" | grep -q "^refused: direct write of 1000 bytes at offset 512: length must be a multiple of [0-9]* (EINVAL)" ||
		{ echo "FAIL: no refusal line"; fail=1; }
	[ "$size" -eq $((4 * len)) ] || fail=1
fi
rm -f "$f"
exit $fail
