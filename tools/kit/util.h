/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * util.h -- for the moment, the kit's pieces that util.h held: messages
 * (msg.h), options (opt.h), option values (parse.h), output formats
 * (fmt.h), clocks (clock.h) and the least-squares fit (fit.h).  Goes once
 * every file includes what it uses.
 */
#ifndef DIO_TOOLS_UTIL_H
#define DIO_TOOLS_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tools/kit/clock.h"
#include "tools/kit/fit.h"
#include "tools/kit/fmt.h"
#include "tools/kit/msg.h"
#include "tools/kit/opt.h"
#include "tools/kit/parse.h"

#endif /* DIO_TOOLS_UTIL_H */
