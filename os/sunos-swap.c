/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sunos-swap.c -- Solaris/illumos: active swap (swapctl(2)) and
 * libdiskmgt's dm_inuse(), for the in-use check of sunos-inuse.c.
 *
 * sys/swap.h, which libdiskmgt.h includes too, refuses to compile in the
 * large-file environment of a 32-bit build (_FILE_OFFSET_BITS 64).  This
 * file is therefore built without it: nothing here handles a file offset,
 * and only names and numbers cross to the rest of the backend, so a
 * 32-bit library checks swap and libdiskmgt like a 64-bit one.
 */
#include "config.h"
#if !defined(_LP64) && defined(_FILE_OFFSET_BITS)
# undef _FILE_OFFSET_BITS
#endif

#include <sys/types.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/param.h>
#include <sys/stat.h>
#include <sys/swap.h>
#if defined(HAVE_LIBDISKMGT_H) && defined(HAVE_DM_INUSE)
# include <libdiskmgt.h>
# define DIO__HAVE_DM_INUSE 1
#endif

#include "lib/internal.h"
#include "os/os.h"
#include "os/sunos.h"

/*
 * Is swap area sp (a block device or a file, named as swap -a was given
 * it: vm_swap.c keeps the name) the device rdev, or a slice of the disk
 * stem?  By device number, as a zvol's /dev/zvol/dsk and rdsk nodes have
 * one; by name where sp cannot be examined, and if the name does not
 * match either, cannot tell (-errno).
 */
static int
dio__swap_is(const char *sp, const char *stem, const char *path, dev_t rdev)
{
	char sstem[256];
	struct stat st;

	dio__sunos_disk_stem(sp, sstem, sizeof(sstem));
	if (strcmp(sp, path) == 0 ||
	    (stem[0] != '\0' && dio__sunos_in_dsk(sp) && strcmp(sstem, stem) == 0))
		return 1;
	if (stat(sp, &st) != 0)
		/* EOVERFLOW: a swap file too large for this file's 32-bit
		 * stat(), not a device. */
		return errno == EOVERFLOW ? 0 : DIO__ERR(errno);
	return S_ISBLK(st.st_mode) && st.st_rdev == rdev;
}

int
dio__sunos_swap_holds(const char *stem, const char *path, dev_t rdev, char *why,
                      size_t len)
{
	swaptbl_t *t = NULL;
	char *names = NULL;
	int i, n, r = 0, tries;

	/* The list can grow between counting and listing: ENOMEM then. */
	for (tries = 0; tries < 4; tries++) {
		n = swapctl(SC_GETNSWP, NULL);
		if (n < 0)
			goto fail;
		if (n == 0)
			return 0;
		n += 2;
		t = calloc(1, sizeof(swaptbl_t) + (size_t)n * sizeof(swapent_t));
		names = calloc((size_t)n, MAXPATHLEN);
		if (t == NULL || names == NULL) {
			free(t);
			free(names);
			errno = ENOMEM;
			goto fail;
		}
		t->swt_n = n;
		for (i = 0; i < n; i++)
			t->swt_ent[i].ste_path = names + (size_t)i * MAXPATHLEN;
		n = swapctl(SC_LIST, t);
		if (n >= 0)
			break;
		free(t);
		free(names);
		t = NULL;
		names = NULL;
		if (errno != ENOMEM)
			goto fail;
	}
	if (t == NULL)
		goto fail;
	for (i = 0; i < n && r == 0; i++) {
		const char *sp = t->swt_ent[i].ste_path;

		r = dio__swap_is(sp, stem, path, rdev);
		if (r == 1 && len > 0)
			snprintf(why, len, "active swap (%s)", sp);
		else if (r < 0 && len > 0)
			snprintf(why, len, "swap area %s cannot be examined: %s", sp,
			         dio_strerror(r));
	}
	free(t);
	free(names);
	return r;
fail:
	r = DIO__ERR(errno);
	if (len > 0)
		snprintf(why, len, "swapctl: %s", dio_strerror(r));
	return r;
}

int
dio__sunos_dm_inuse(const char *node, char *why, size_t len)
{
#ifdef DIO__HAVE_DM_INUSE
	char *msg = NULL;
	int err = 0, r;

	/* DM_WHO_MKFS: what newfs(8) would refuse: mounts, swap, active
	 * pools, the dump device...; a bare file system signature or an
	 * exported pool is not a use. */
	r = dm_inuse((char *)(uintptr_t)node, &msg, DM_WHO_MKFS, &err);
	if (err != 0) {
		/* The check was not completed: not "free". */
		if (len > 0)
			snprintf(why, len, "libdiskmgt could not examine %s: %s", node,
			         dio_strerror(err));
		free(msg);
		return DIO__ERR(err);
	}
	if (r > 0) {
		if (len > 0) {
			snprintf(why, len, "%s: %s", node, msg ? msg : "in use (libdiskmgt)");
			why[strcspn(why, "\n")] = '\0';
		}
		free(msg);
		return 1;
	}
	free(msg);
	if (r < 0) {
		if (len > 0)
			snprintf(why, len, "libdiskmgt could not examine %s", node);
		return -EIO;
	}
	return 0;
#else
	/* Without libdiskmgt, pool members and the dump device are not seen:
	 * the disk cannot be said to be free. */
	if (len > 0)
		snprintf(why, len, "this build has no libdiskmgt to see ZFS pool "
		         "members and the dump device on %s", node);
	return -ENOTSUP;
#endif
}
