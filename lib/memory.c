/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * memory.c -- memory for direct transfers: aligned allocation (the page
 * by default), allocation on large pages where the backend offers them
 * (os/os.h: large_page_size, large_pages), and their free.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "internal.h"
#include "os/os.h"

void *
dio_alloc(size_t len, size_t align)
{
	void *p = NULL;

	if (align == 0)
		align = dio__pagesize();
	if ((align & (align - 1)) != 0)
		return NULL;
	if (align < sizeof(void *))
		align = sizeof(void *);
	if (posix_memalign(&p, align, len ? len : 1) != 0)
		return NULL;
	return p;
}

size_t
dio_large_page_size(void)
{
	return dio__os_large_page_size();
}

void *
dio_alloc_large(size_t len, size_t align, size_t *page_size)
{
	size_t lp, n = len ? len : 1;
	void *p = NULL;

	if (page_size != NULL)
		*page_size = 0;
	if (align == 0)
		align = dio__pagesize();
	if ((align & (align - 1)) != 0)
		return NULL;
	lp = dio_large_page_size();
	if (lp == 0 || n > SIZE_MAX - (lp - 1))
		return dio_alloc(len, align);
	n = (n + lp - 1) & ~(lp - 1);
	if (posix_memalign(&p, align > lp ? align : lp, n) != 0)
		return NULL;
	if (dio__os_large_pages(p, n, lp) == 0 && page_size != NULL)
		*page_size = lp;
	return p;
}

void
dio_free(void *p)
{
	free(p);
}
