/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * number.c -- dd's numbers (bs=, ibs=, obs=, count=, skip=, seek=), read
 * as GNU dd 9.x reads them, refusals and all (for args.c):
 *  - a factor is decimal digits (blanks and a '+' before them are taken,
 *    a '-' is not) and an optional suffix: b 512, c 1, w 2; k K M G T P E
 *    Z Y powers of 1024, with "iB" after them too, with "B" (or "D")
 *    powers of 1000; a suffix alone is one of it ("M");
 *  - a number is a factor, with a 'B' after it (count=, skip=, seek=
 *    then count bytes: iflag=count_bytes, skip_bytes, oflag=seek_bytes),
 *    or two factors joined by 'x' ("2x512", "1xM"): one 'x', no more;
 *  - "0x..." gives 0 with dd's warning that 0x is a zero multiplier;
 *  - anything else is an invalid number, and a number past 2^63-1 one
 *    that is "Value too large for defined data type" (EOVERFLOW): dd's
 *    message, dd's exit status (1).
 * (dd's suffixes include neither m, g nor t: bs=1m is refused, as dd
 * refuses it.)
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "tools/dd/dd.h"
#include "tools/kit/msg.h"

enum { NUM_OK = 0, NUM_OVERFLOW = 1, NUM_INVALID = 2, NUM_SUFFIX = 4 };

/* Scale *x by base^power, saturating at UINT64_MAX: NUM_OVERFLOW then. */
static int
scale(uint64_t *x, uint64_t base, int power)
{
	int r = NUM_OK;

	while (power-- > 0) {
		if (*x > UINT64_MAX / base) {
			*x = UINT64_MAX;
			r = NUM_OVERFLOW;
		} else {
			*x *= base;
		}
	}
	return r;
}

/* One factor from s: its value in *val, where it stopped in *end, and
 * NUM_* bits (NUM_SUFFIX: something follows that is no suffix). */
static int
dd_factor(const char *s, const char **end, uint64_t *val)
{
	static const char suffixes[] = "bcEGkKMPTwYZ";
	const char *p = s, *q;
	uint64_t v = 0;
	int r = NUM_OK, base = 1024, power, len = 1;

	*val = 0;
	*end = s;
	while (isspace((unsigned char)*p))
		p++;
	if (*p == '-')
		return NUM_INVALID;
	if (*p == '+')
		p++;
	for (q = p; isdigit((unsigned char)*q); q++) {
		if (v > (UINT64_MAX - (uint64_t)(*q - '0')) / 10) {
			v = UINT64_MAX;
			r = NUM_OVERFLOW;
		} else if (r == NUM_OK) {
			v = v * 10 + (uint64_t)(*q - '0');
		}
	}
	if (q == p) {
		/* no digits: a suffix right at the start is one of it */
		if (*s == '\0' || strchr(suffixes, *s) == NULL)
			return NUM_INVALID;
		v = 1;
		q = s;
	}
	*val = v;
	*end = q;
	if (*q == '\0')
		return r;
	if (strchr(suffixes, *q) == NULL)
		return r | NUM_SUFFIX;
	if (q[1] == 'i' && q[2] == 'B') {
		len = 3;
	} else if (q[1] == 'B' || q[1] == 'D') {
		base = 1000;
		len = 2;
	}
	switch (*q) {
	case 'b': r |= scale(&v, 512, 1); break;
	case 'c': break;
	case 'w': r |= scale(&v, 2, 1); break;
	default:
		power = (int)(strchr("kMGTPEZY", *q == 'K' ? 'k' : *q) - "kMGTPEZY") + 1;
		r |= scale(&v, (uint64_t)base, power);
		break;
	}
	*val = v;
	*end = q + len;
	if (**end != '\0')
		r |= NUM_SUFFIX;
	return r;
}

/*
 * A whole number, as dd's parse: NUM_OK, NUM_OVERFLOW (*val INT64_MAX)
 * or NUM_INVALID (*val what was read, or 0); *has_b: a 'B' in it (bytes,
 * for count= skip= seek=).
 */
static int
dd_number(const char *s, uint64_t *val, int *has_b)
{
	const char *end, *end2;
	uint64_t n, o;
	int e, f;

	*has_b = strchr(s, 'B') != NULL;
	*val = 0;
	e = dd_factor(s, &end, &n);
	/* "1B", "2KiB": bytes of count=, skip=, seek= */
	if ((e & ~NUM_OVERFLOW) == NUM_SUFFIX && end[-1] != 'B' && *end == 'B') {
		end++;
		if (*end == '\0')
			e &= ~NUM_SUFFIX;
	}
	if ((e & ~NUM_OVERFLOW) == NUM_SUFFIX && *end == 'x' &&
	    !(end[-1] == 'B' && strchr(end + 1, 'B') != NULL)) {
		f = dd_factor(end + 1, &end2, &o);
		if ((f & ~NUM_OVERFLOW) != NUM_OK)
			return NUM_INVALID;
		if ((o != 0 && n > (uint64_t)INT64_MAX / o) ||
		    (n * o != 0 && ((e | f) & NUM_OVERFLOW))) {
			*val = (uint64_t)INT64_MAX;
			return NUM_OVERFLOW;
		}
		*val = n * o;
		if (*val == 0 && strncmp(s, "0x", 2) == 0)
			diot_warn("warning: '0x' is a zero multiplier; use '00x' if that is "
			          "intended");
		return NUM_OK;
	}
	if (n > (uint64_t)INT64_MAX) {
		*val = (uint64_t)INT64_MAX;
		return NUM_OVERFLOW;
	}
	*val = n;
	return e == NUM_OK ? NUM_OK : e == NUM_OVERFLOW ? NUM_OVERFLOW : NUM_INVALID;
}

void
dd_parse_number(const char *v, uint64_t min, uint64_t max, uint64_t *out, int *has_b)
{
	uint64_t n = 0;
	int r = dd_number(v, &n, has_b);

	if (n < min)
		r = NUM_INVALID;
	else if (n > max)
		r = NUM_OVERFLOW;
	if (r == NUM_OVERFLOW)
		diot_die(DIOT_EXIT_FAIL, "invalid number: %s: %s", dd_quote_kept(v, DD_Q_VALUE),
		         dd_strerror(EOVERFLOW));
	if (r != NUM_OK)
		diot_die(DIOT_EXIT_FAIL, "invalid number: %s", dd_quote_kept(v, DD_Q_VALUE));
	*out = n;
}

void
dd_parse_block_size(const char *key, const char *v, uint64_t *out)
{
	int has_b;

	/* dd takes up to 2^63-2 (then allocates it) */
	dd_parse_number(v, 1, (uint64_t)INT64_MAX - 1, out, &has_b);
	if (*out > DD_MAX_BS)
		diot_usage_error("%s=%s: %" PRIu64 " bytes is more than dio-dd moves in one "
		                 "call; at most %llu (1 GiB)", key, v, *out,
		                 (unsigned long long)DD_MAX_BS);
}
