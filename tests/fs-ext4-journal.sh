#!/bin/sh
exec sh "${top_srcdir:-.}/tests/fs-loop.sh" ext4-journal
