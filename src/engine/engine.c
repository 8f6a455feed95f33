/* SPDX-License-Identifier: MIT */
/*
 * engine.c - the engine registry: which engines this build has, in the
 * order `auto` prefers them, and the choice `auto` makes by probing.
 *
 * Adding an engine is one file in src/engine/ plus one row in each table
 * below.  Every engine name cdm has ever had stays in names[] whether or
 * not this build includes it, so the CLI can tell "not built in" apart from
 * "no such engine".  Like fio's loader, the registry refuses an ops table
 * of another contract version or with a required hook missing: such an
 * engine is reported as not built in rather than crashing a worker later.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "cdm/base/err.h"
#include "cdm/base/msg.h"
#include "cdm/engine/engine.h"

/* the engines' ops tables, one per file in src/engine/ */
#ifdef CDM_HAVE_LIBURING
extern const struct cdm_engine_ops cdm_engine_io_uring;
#endif
#ifdef CDM_HAVE_LIBAIO
extern const struct cdm_engine_ops cdm_engine_libaio;
#endif
extern const struct cdm_engine_ops cdm_engine_sync;
extern const struct cdm_engine_ops cdm_engine_null;

/* every engine name, in `auto` preference order; rows match engines[] */
static const char *const names[] = {
	"io_uring",
	"libaio",
	"sync",
	"null",
};

static const struct cdm_engine_ops *const engines[] = {
#ifdef CDM_HAVE_LIBURING
	&cdm_engine_io_uring,
#else
	NULL,
#endif
#ifdef CDM_HAVE_LIBAIO
	&cdm_engine_libaio,
#else
	NULL,
#endif
	&cdm_engine_sync,
	&cdm_engine_null,
};

_Static_assert(sizeof(names) / sizeof(names[0]) ==
	       sizeof(engines) / sizeof(engines[0]),
	       "engine.c: names[] and engines[] must have the same rows");

#define NR_ENGINES (sizeof(names) / sizeof(names[0]))

/* `auto` considers the rows before this one; null never runs by default */
#define NR_AUTO 3

/*
 * A table is usable when it speaks this contract and has every hook the
 * worker will call.  commit and reap may be absent only from an engine
 * whose queue() always completes the I/O itself.
 */
static int ops_usable(const struct cdm_engine_ops *ops, const char *name)
{
	if (!ops || ops->version != CDM_ENGINE_VERSION)
		return 0;
	if (!ops->name || strcmp(ops->name, name) != 0)
		return 0;
	if (!ops->probe || !ops->init || !ops->queue || !ops->cleanup)
		return 0;
	if (!(ops->flags & CDM_ENGINE_SYNC) && (!ops->commit || !ops->reap))
		return 0;
	return 1;
}

static const struct cdm_engine_ops *row(size_t i)
{
	return ops_usable(engines[i], names[i]) ? engines[i] : NULL;
}

const struct cdm_engine_ops *cdm_engine_find(const char *name, int *known)
{
	size_t i;

	if (known)
		*known = 0;
	if (!name)
		return NULL;
	for (i = 0; i < NR_ENGINES; i++) {
		if (strcmp(name, names[i]) == 0) {
			if (known)
				*known = 1;
			return row(i);
		}
	}
	return NULL;
}

int cdm_engine_probe(const struct cdm_engine_ops *ops, char *why, size_t why_len)
{
	int ret;

	if (why && why_len)
		why[0] = '\0';
	if (!ops) {
		if (why && why_len)
			snprintf(why, why_len, "not built in");
		return -ENOSYS;
	}
	ret = ops->probe(why, why_len);
	if (ret > 0)
		ret = 0;
	/* an engine that failed without saying why still gets a reason */
	if (ret < 0 && why && why_len && why[0] == '\0')
		snprintf(why, why_len, "%s", strerror(-ret));
	return ret;
}

const struct cdm_engine_ops *cdm_engine_pick(void)
{
	char why[160];
	size_t i;

	for (i = 0; i < NR_AUTO; i++) {
		const struct cdm_engine_ops *ops = row(i);

		if (ops && cdm_engine_probe(ops, why, sizeof(why)) == 0)
			return ops;
	}
	/* pread/pwrite need nothing from the kernel that could be missing */
	return &cdm_engine_sync;
}

/* the package that brings an engine's library, for "not built in" */
static const char *package_of(const char *name)
{
	if (!strcmp(name, "io_uring"))
		return "liburing-dev";
	if (!strcmp(name, "libaio"))
		return "libaio-dev";
	return "its library";
}

int cdm_engine_resolve(const char *name, const struct cdm_engine_ops **ops,
		       struct cdm_err *err)
{
	const struct cdm_engine_ops *o;
	char why[160];
	int known = 0, ret;

	if (!strcmp(name, "auto")) {
		*ops = cdm_engine_pick();
		/* say why a preferred engine was passed over */
		for (size_t i = 0; i < NR_ENGINES && strcmp(names[i], (*ops)->name); i++) {
			o = row(i);
			if (o && cdm_engine_probe(o, why, sizeof(why)) < 0)
				cdm_note("engine %s does not work here (%s); using %s",
					 names[i], why, (*ops)->name);
		}
		return 0;
	}
	o = cdm_engine_find(name, &known);
	if (!o && !known)
		return cdm_err_set(err, -EINVAL,
				   "unknown engine '%s' (auto, io_uring, libaio, sync, null)", name);
	if (!o)
		return cdm_err_set(err, -ENOSYS, "the %s engine is not built in: install %s and rebuild",
				   name, package_of(name));
	ret = cdm_engine_probe(o, why, sizeof(why));
	if (ret < 0)
		return cdm_err_set(err, ret, "the %s engine does not work here: %s", name, why);
	*ops = o;
	return 0;
}

size_t cdm_engine_list(const char *const **names_out)
{
	if (names_out)
		*names_out = names;
	return NR_ENGINES;
}

/*
 * The string is built once from the rows that pass ops_usable(), so that
 * --version never claims an engine the registry would refuse.
 */
static char build_info[64];
static pthread_once_t build_info_once = PTHREAD_ONCE_INIT;

static void build_info_make(void)
{
	size_t i, len = 0;

	for (i = 0; i < NR_ENGINES; i++) {
		int n;

		if (!row(i))
			continue;
		n = snprintf(build_info + len, sizeof(build_info) - len, "%s%s",
			     len ? " " : "", names[i]);
		if (n < 0 || (size_t)n >= sizeof(build_info) - len)
			break;
		len += (size_t)n;
	}
}

const char *cdm_engine_build_info(void)
{
	pthread_once(&build_info_once, build_info_make);
	return build_info;
}
