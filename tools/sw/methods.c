/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * methods.c -- sync-write's methods: their names (and PostgreSQL's
 * spellings of them), what each does (direct I/O, sync flag, commit),
 * and the --methods list read into struct sw_opts (args.c asks).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/kit/msg.h"
#include "tools/sw/sw.h"

static const struct { const char *name; int sync, commit; } base_methods[] = {
	{ "none",      DIO_SYNC_NONE, DIO_COMMIT_NONE },
	{ "fsync",     DIO_SYNC_NONE, DIO_COMMIT_FSYNC },
	{ "fdatasync", DIO_SYNC_NONE, DIO_COMMIT_FDATASYNC },
	{ "dsync",     DIO_SYNC_DATA, DIO_COMMIT_NONE },
	{ "sync",      DIO_SYNC_FULL, DIO_COMMIT_NONE },
	{ "rwf-dsync", DIO_SYNC_NONE, DIO_COMMIT_RWF_DSYNC },
};

static const char *const default_methods[] = {
	"none", "fsync", "fdatasync", "dsync", "sync", "rwf-dsync",
	"direct", "direct+dsync", "direct+fdatasync", "direct+fsync",
};

/* PostgreSQL's names (wal_sync_method, pg_test_fsync's lines) for the
 * same methods: accepted, and reported by the names above (so that runs
 * given either spelling compare as one; sync-write(1), FOR POSTGRESQL
 * USERS).  fdatasync and fsync are spelled alike. */
static const struct { const char *alias, *name; } alias_methods[] = {
	{ "open_datasync", "dsync" },
	{ "open_sync",     "sync" },
};

#define NBASE (sizeof(base_methods) / sizeof(base_methods[0]))
#define NDEFAULT (sizeof(default_methods) / sizeof(default_methods[0]))
#define NALIAS (sizeof(alias_methods) / sizeof(alias_methods[0]))

int
sw_parse_method(const char *s, struct sw_method *m)
{
	const char *b = s;
	size_t i;

	memset(m, 0, sizeof(*m));
	if (strncmp(s, "direct", 6) == 0 && (s[6] == '\0' || s[6] == '+')) {
		m->direct = 1;
		b = s[6] ? s + 7 : "none";
	}
	for (i = 0; i < NALIAS; i++)
		if (strcmp(b, alias_methods[i].alias) == 0)
			b = alias_methods[i].name;
	for (i = 0; i < NBASE; i++)
		if (strcmp(b, base_methods[i].name) == 0)
			break;
	if (i == NBASE)
		return -1;
	m->sync = base_methods[i].sync;
	m->commit = base_methods[i].commit;
	if (m->direct && m->sync == DIO_SYNC_NONE && m->commit == DIO_COMMIT_NONE)
		snprintf(m->name, sizeof(m->name), "direct");
	else
		snprintf(m->name, sizeof(m->name), "%s%s", m->direct ? "direct+" : "",
		         base_methods[i].name);
	return 0;
}

/* Method m, unless the list has it already (a method named twice, or by
 * its alias too, is measured once, where it was first named). */
static void
add_method(struct sw_opts *o, const struct sw_method *m)
{
	int i;

	for (i = 0; i < o->nmethods; i++)
		if (strcmp(o->methods[i].name, m->name) == 0)
			return;
	o->methods[o->nmethods++] = *m;
}

void
sw_parse_methods(struct sw_opts *o, const char *s)
{
	const char *item;
	struct sw_method m;
	char name[64];
	size_t len, i;
	int items = 0;

	/* Room for every distinct method: duplicates are dropped as read. */
	o->methods = calloc(SW_METHODS_MAX, sizeof(*o->methods));
	o->nmethods = 0;
	if (o->methods == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	if (*s == '\0' || s[strlen(s) - 1] == ',' || *s == ',' || strstr(s, ",,"))
		diot_usage_error("--methods '%s': empty item in list", s);
	/* Items are read in place (nothing to free if a usage error leaves
	 * through held errors); a name too long for name[] is unknown. */
	for (item = s; *item != '\0'; item += len + (item[len] == ',')) {
		len = strcspn(item, ",");
		if (++items > SW_METHOD_ITEMS_MAX)
			diot_usage_error("--methods: more than %d items in the list (at most "
			                 "%d; there are %d methods, and 'all' names every one)",
			                 SW_METHOD_ITEMS_MAX, SW_METHOD_ITEMS_MAX,
			                 SW_METHODS_MAX);
		snprintf(name, sizeof(name), "%.*s", (int)(len < sizeof(name) ? len : 0), item);
		if (strcmp(name, "all") == 0) {
			for (i = 0; i < NDEFAULT; i++) {
				sw_parse_method(default_methods[i], &m);
				add_method(o, &m);
			}
			continue;
		}
		if (strcmp(name, "fsync_writethrough") == 0 ||
		    strcmp(name, "direct+fsync_writethrough") == 0)
			diot_usage_error("--methods: '%s' is PostgreSQL's F_FULLFSYNC (macOS) "
			                 "or _commit (Windows): sync-write has no such method; "
			                 "the nearest is fsync", name);
		if (len >= sizeof(name) || sw_parse_method(name, &m) != 0)
			diot_usage_error("--methods: unknown method '%.*s' (allowed: all, none, "
			                 "fsync, fdatasync, dsync, sync, rwf-dsync, and direct "
			                 "or direct+ any of those; PostgreSQL's open_datasync "
			                 "and open_sync are dsync and sync)", (int)len, item);
		add_method(o, &m);
	}
}
