/* SPDX-License-Identifier: MIT */
/*
 * engine.c - the engine registry: which engines this build has, in the
 * order `auto` prefers them, whether each works here and why not, and the
 * one resolution of --engine (include/cdm/engine/engine.h).
 *
 * Adding an engine is one file in src/engine/, one row in ENGINES below and,
 * when it needs a library, one knob in the Makefile.  Two choices make that
 * so, unlike fio, whose engines register themselves from constructors:
 *
 *  - the table is explicit and ordered, because its order is `auto`'s
 *    preference, and one X-macro list makes the names, the ops and the
 *    rows from one line per engine, so no two tables can disagree;
 *  - each engine's ops are declared weak, so a row may name an engine the
 *    Makefile did not link: its address is then NULL, "not built in",
 *    without an #ifdef.  The name stays known, so the CLI can tell "not
 *    built in" (with the package to install) from "no such engine".
 *
 * Like fio's loader, the registry refuses an ops table of another contract
 * version, with another name or with a required hook missing: such an
 * engine counts as not built in rather than crashing a worker later.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "cdm/base/err.h"
#include "cdm/base/file.h"
#include "cdm/base/msg.h"
#include "cdm/engine/engine.h"

/*
 * Every engine cdm has, built in or not, in `auto`'s order of preference:
 *	X(name, Debian package that brings its library or NULL, auto may pick it)
 * The engine's file defines `const struct cdm_engine_ops cdm_engine_<name>`.
 */
#define ENGINES(X)				\
	X(io_uring, "liburing-dev", 1)		\
	X(libaio,   "libaio-dev",   1)		\
	X(sync,     NULL,           1)		\
	X(null,     NULL,           0)

#define DECLARE(n, pkg, in_auto) \
	extern const struct cdm_engine_ops cdm_engine_##n __attribute__((weak));
ENGINES(DECLARE)

struct engine_row {
	const struct cdm_engine_ops *ops;       /* NULL: not linked in */
	const char *package;    /* what to install and rebuild with, or NULL */
	int in_auto;            /* `auto` may pick it */
};

#define ROW(n, pkg, in_auto) { &cdm_engine_##n, pkg, in_auto },
static const struct engine_row rows[] = { ENGINES(ROW) };

#define NAME(n, pkg, in_auto) #n,
static const char *const names[] = { ENGINES(NAME) };

/* ", io_uring, libaio, sync, null": every name, for the unknown-name message */
#define LISTED(name, package, auto_ok) ", " #name
#define ALL_NAMES ENGINES(LISTED)

#define NR_ENGINES (sizeof(rows) / sizeof(rows[0]))

/* the class in front of a probe's reason, for cdm_engine_status() */
static const char *const cause_names[] = {
	[CDM_CAUSE_KERNEL] = "refused by the kernel",
	[CDM_CAUSE_SECCOMP] = "blocked by seccomp",
	[CDM_CAUSE_MEMLOCK] = "RLIMIT_MEMLOCK",
};

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
	return ops_usable(rows[i].ops, names[i]) ? rows[i].ops : NULL;
}

/* the row of engine @name, or NR_ENGINES for a name cdm never had */
static size_t index_of(const char *name)
{
	size_t i;

	for (i = 0; name && i < NR_ENGINES; i++)
		if (strcmp(name, names[i]) == 0)
			break;
	return name ? i : NR_ENGINES;
}

const struct cdm_engine_ops *cdm_engine_find(const char *name, int *known)
{
	size_t i = index_of(name);

	if (known)
		*known = i < NR_ENGINES;
	return i < NR_ENGINES ? row(i) : NULL;
}

/*
 * Run @ops->probe() into @why (never NULL here) and @cause.  On success
 * @why holds the engine's remark or "".  An engine that failed without
 * saying why still gets a reason.
 */
static int probe(const struct cdm_engine_ops *ops, enum cdm_engine_cause *cause,
		 struct cdm_err *why)
{
	int ret;

	*cause = CDM_CAUSE_KERNEL;
	why->msg[0] = '\0';
	ret = ops->probe(cause, why);
	if (ret > 0)
		ret = 0;
	if (ret < 0 && why->msg[0] == '\0')
		cdm_err_set(why, ret, "%s", strerror(-ret));
	if ((unsigned int)*cause >= sizeof(cause_names) / sizeof(cause_names[0]))
		*cause = CDM_CAUSE_KERNEL;
	return ret;
}

int cdm_engine_probe(const struct cdm_engine_ops *ops, struct cdm_err *err)
{
	enum cdm_engine_cause cause;
	struct cdm_err why;
	int ret;

	if (!ops)
		return cdm_err_set(err, -ENOSYS, "not built in");
	ret = probe(ops, &cause, &why);
	/* a working engine's remark is for the engine table only */
	return cdm_err_set(err, ret, "%s", ret < 0 ? why.msg : "");
}

/* the engine's own answer for @options, set up as init() will */
static int probe_options(const struct cdm_engine_ops *ops, unsigned int options,
			 const char *target, struct cdm_err *err)
{
	const unsigned int both = CDM_ENGINE_OPT_SQPOLL | CDM_ENGINE_OPT_IOPOLL;
	struct cdm_err why;
	int ret;

	if (!ops || !ops->probe_options)
		return 0;
	why.msg[0] = '\0';
	ret = ops->probe_options(options, &why);
	if (ret >= 0)
		return 0;
	if (why.msg[0] == '\0')
		cdm_err_set(&why, ret, "%s", strerror(-ret));
	return cdm_err_set(err, ret, "%s: %s; run without %s", target, why.msg,
			   (options & both) == both ? "--sqpoll and --hipri" :
			   (options & CDM_ENGINE_OPT_SQPOLL) ? "--sqpoll" : "--hipri");
}

int cdm_engine_check_options(const struct cdm_engine_ops *ops, unsigned int options,
			     const char *target, const char *dev_name, struct cdm_err *err)
{
	char path[128], buf[8] = "";
	int found;

	if (!(options & CDM_ENGINE_OPT_IOPOLL))
		return probe_options(ops, options, target, err);
	if (!dev_name || !dev_name[0])
		return cdm_err_set(err, -EOPNOTSUPP,
				   "%s: --hipri polls a block device's completion queues, and no block device is under it; run without --hipri",
				   target);
	/* the kernel's own answer: 1 when the queue has poll queues */
	snprintf(path, sizeof(path), "/sys/block/%s/queue/io_poll", dev_name);
	found = cdm_file_read_line(path, buf, sizeof(buf)) != -ENOENT;
	if (buf[0] != '1')
		return cdm_err_set(err, -EOPNOTSUPP,
				   "%s: --hipri needs polled I/O, which %s does not offer (%s: %s); run without --hipri",
				   target, dev_name, path, found ? "0" : "not found");
	return probe_options(ops, options, target, err);
}

const struct cdm_engine_ops *cdm_engine_pick(void)
{
	size_t i;

	for (i = 0; i < NR_ENGINES; i++) {
		const struct cdm_engine_ops *ops = row(i);

		if (rows[i].in_auto && ops && cdm_engine_probe(ops, NULL) == 0)
			return ops;
	}
	/* pread/pwrite need nothing from the kernel that could be missing */
	return &cdm_engine_sync;
}

/* "not built in: ...", for engine @i */
static int not_built(size_t i, struct cdm_err *why)
{
	if (rows[i].ops)
		/* linked, but refused by ops_usable(): a bug for its author */
		return cdm_err_set(why, -ENOSYS,
				   "not built in: its ops break the engine contract (version %u, cdm/engine/ops.h)",
				   CDM_ENGINE_VERSION);
	return cdm_err_set(why, -ENOSYS, "not built in: install %s and rebuild",
			   rows[i].package ? rows[i].package : "its library");
}

int cdm_engine_status(size_t i, const char **name, const struct cdm_engine_ops **ops,
		      struct cdm_err *why)
{
	const struct cdm_engine_ops *o = i < NR_ENGINES ? row(i) : NULL;
	enum cdm_engine_cause cause;
	struct cdm_err reason;
	int ret;

	if (name)
		*name = i < NR_ENGINES ? names[i] : NULL;
	if (ops)
		*ops = o;
	if (i >= NR_ENGINES)
		return cdm_err_set(why, -EINVAL, "no engine %zu: the registry has %zu",
				   i, NR_ENGINES);
	if (!o)
		return not_built(i, why);
	ret = probe(o, &cause, &reason);
	if (reason.msg[0] == '\0')
		return cdm_err_set(why, ret, "%s", "");
	return cdm_err_set(why, ret, "%s: %s", cause_names[cause], reason.msg);
}

int cdm_engine_resolve(const char *name, const struct cdm_engine_ops **ops,
		       struct cdm_err *err)
{
	size_t i = index_of(name);
	const struct cdm_engine_ops *o;
	struct cdm_err why;
	int ret;

	if (!strcmp(name, "auto")) {
		*ops = cdm_engine_pick();
		/* say why a preferred engine was passed over */
		for (i = 0; i < NR_ENGINES && strcmp(names[i], (*ops)->name); i++) {
			o = row(i);
			if (o && cdm_engine_probe(o, &why) < 0)
				cdm_msg_note("engine %s does not work here (%s); using %s",
					 names[i], why.msg, (*ops)->name);
		}
		return 0;
	}
	if (i == NR_ENGINES)
		return cdm_err_set(err, -EINVAL, "unknown engine '%s' (auto%s)", name, ALL_NAMES);
	o = row(i);
	if (!o)
		return cdm_err_set(err, not_built(i, &why), "the %s engine is %s", name, why.msg);
	ret = cdm_engine_probe(o, &why);
	if (ret < 0)
		return cdm_err_set(err, ret, "the %s engine does not work here: %s", name, why.msg);
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
