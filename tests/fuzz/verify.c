/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * verify.c -- harness: sync-write --verify's read-back of a writer's file
 * (tools/sw/readback.c, sw_verify_writer()) on a target whose content the
 * input makes.  The input is, byte by byte:
 *
 *   flags   bit 0 --extend, bit 1 --layout separate, bits 2-3 the content:
 *           0 nothing (an empty file), 1 what the writers wrote, 2 what a
 *           writer of another run wrote, 3 the rest of the input itself
 *   writers 1 + (byte % 4), every one writing the same count
 *   writer  the one read back: byte % writers
 *   size    of a transaction: 64, 100, 512, 520 or 4096 (byte % 5)
 *   slots   1 + (byte % 16): a writer's region, in transactions
 *   txns    byte % 40: what each writer wrote (its next sequence)
 *   point   byte
 *   then, for contents 0 to 2, patches of 3 bytes: an offset in the file
 *   (2 bytes, little-endian, modulo its length) and a byte to XOR there;
 *   for content 3, the file's bytes (at most 1 MiB).
 *
 * What is checked: every slot the writer used is counted once, in one
 * class; with the writers' own content every slot that no patch touched
 * is found intact, and with another run's every one is stale.  The file
 * is one of the harness's own directory (fuzz_workdir()), rewritten for
 * every input, removed at exit.  Accepted: every slot read back was the
 * transaction --verify wants there.
 */
#include "config.h"

#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/fuzz/fuzz.h"
#include "tools/sw/sw.h"
#include "tools/sw/txn.h"

#define RUN_ID 0x5157a11d0c0ffeeULL

static char target[PATH_MAX];

/* Every transaction of writer w in sequence order, as the writers do
 * (a slot reused holds the last one). */
static int
write_writer(int fd, const struct sw_readback *rb, int w, uint64_t run_id, unsigned char *buf)
{
	uint64_t j, off;

	for (j = 0; j < rb->txns; j++) {
		off = sw_layout_offset(rb->separate, rb->extend, rb->region, rb->slots,
		                       rb->writers, rb->size, w, j);
		sw_make_txn(buf, (size_t)rb->size, run_id, rb->point, (uint32_t)w, j, off);
		if (pwrite(fd, buf, (size_t)rb->size, (off_t)off) != (ssize_t)rb->size)
			return -1;
	}
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint64_t sizes[5] = { 64, 100, 512, 520, 4096 };
	static int ready;
	struct sw_readback rb;
	struct sw_verify v;
	unsigned char *buf, *touched = NULL;
	unsigned flags, content;
	uint64_t nslots, untouched, s, len;
	int fd, w, ok;

	if (!ready) {
		if (fuzz_workpath("t.dat", target, sizeof(target)) < 0)
			return 0;
		ready = 1;
	}
	memset(&rb, 0, sizeof(rb));
	flags = (unsigned)fuzz_take(&data, &size, 1);
	rb.extend = flags & 1;
	rb.separate = (flags >> 1) & 1;
	content = (flags >> 2) & 3;
	rb.writers = 1 + (int)(fuzz_take(&data, &size, 1) % 4);
	rb.writer = (int)(fuzz_take(&data, &size, 1) % (uint64_t)rb.writers);
	rb.size = sizes[fuzz_take(&data, &size, 1) % 5];
	rb.slots = 1 + fuzz_take(&data, &size, 1) % 16;
	rb.txns = fuzz_take(&data, &size, 1) % 40;
	rb.point = (uint32_t)fuzz_take(&data, &size, 1);
	rb.region = rb.slots * rb.size;
	rb.run_id = RUN_ID;

	buf = malloc((size_t)rb.size);
	if (buf == NULL)
		return 0;
	fd = open(target, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0) {
		free(buf);
		return 0;
	}
	if (content == 1 || content == 2) {
		/* Separate: the writer's file holds its own only. */
		for (w = 0; w < rb.writers; w++) {
			if (rb.separate && w != rb.writer)
				continue;
			if (write_writer(fd, &rb, w, content == 1 ? RUN_ID : RUN_ID + 1, buf) < 0)
				goto out;
		}
	} else if (content == 3) {
		len = size < (1u << 20) ? size : (1u << 20);
		if (len > 0 && pwrite(fd, data, (size_t)len, 0) != (ssize_t)len)
			goto out;
		size = 0;
	}
	nslots = rb.extend ? rb.txns : (rb.txns < rb.slots ? rb.txns : rb.slots);
	touched = calloc((size_t)nslots + 1, 1);
	if (touched == NULL)
		goto out;
	len = (uint64_t)lseek(fd, 0, SEEK_END);
	while (size >= 3 && len > 0) {
		uint64_t at = fuzz_take(&data, &size, 2) % len;
		unsigned char x = (unsigned char)fuzz_take(&data, &size, 1), b;

		if (pread(fd, &b, 1, (off_t)at) != 1)
			goto out;
		b ^= x;
		if (pwrite(fd, &b, 1, (off_t)at) != 1)
			goto out;
		/* The slot whose transaction holds it (the last one there). */
		for (s = 0; x != 0 && s < nslots; s++) {
			uint64_t j = rb.extend ? s : s + (rb.txns - 1 - s) / rb.slots * rb.slots;
			uint64_t o = sw_layout_offset(rb.separate, rb.extend, rb.region, rb.slots,
			                              rb.writers, rb.size, rb.writer, j);

			if (at >= o && at < o + rb.size)
				touched[s] = 1;
		}
	}
	for (untouched = 0, s = 0; s < nslots; s++)
		untouched += !touched[s];

	memset(&v, 0, sizeof(v));
	sw_verify_writer(fd, &rb, buf, &v);
	if (v.checked != nslots ||
	    v.ok + v.missing + v.corrupt + v.stale + v.misplaced != v.checked)
		abort();
	if (content == 0 && v.missing + v.corrupt != v.checked)
		abort();
	if (content == 1 && v.ok < untouched)
		abort();
	if (content == 2 && v.stale + v.corrupt != v.checked)
		abort();
	if (content == 2 && v.stale < untouched)
		abort();
	ok = v.checked > 0 && v.ok == v.checked;
	fuzz_verdict(ok, NULL);
out:
	free(touched);
	free(buf);
	close(fd);
	return 0;
}
