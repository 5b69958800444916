#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
exec sh "${top_srcdir:-.}/tests/fs-loop.sh" blockdev
