/* SPDX-License-Identifier: MIT */
/*
 * cdm/engine/engine.h - the engine registry (src/engine/engine.c): which
 * engines this build has, in the order `auto` prefers them, whether each
 * works here and why not, and the one resolution of --engine.
 *
 * The contract an engine implements (struct cdm_engine_ops and its hooks)
 * is cdm/engine/ops.h, included here for the callers' convenience.
 *
 * The registry knows every engine cdm has, built in or not: io_uring,
 * libaio, sync, null, in that order.  io_uring and libaio need a library at
 * build time (Makefile: WITH_LIBURING, WITH_LIBAIO); sync and null are
 * always built in.  `auto` considers io_uring, libaio and sync, never null.
 */
#ifndef CDM_ENGINE_ENGINE_H
#define CDM_ENGINE_ENGINE_H

#include <stddef.h>

#include "cdm/engine/ops.h"

struct cdm_err;

/*
 * cdm_engine_find - look up an engine by name ("io_uring", "libaio",
 * "sync", "null"; not "auto").
 * Returns the ops, or NULL when no engine of that name is built in.
 * Sets *@known to 1 when the name is a cdm engine at all (even if this
 * build lacks it), 0 for a name cdm never had; @known may be NULL.
 */
const struct cdm_engine_ops *cdm_engine_find(const char *name, int *known);

/*
 * cdm_engine_pick - resolve "auto": the first of io_uring, libaio, sync that
 * is built in and whose probe() succeeds.  Never NULL (sync always works).
 */
const struct cdm_engine_ops *cdm_engine_pick(void);

/*
 * cdm_engine_check_options - can the engine options @options
 * (CDM_ENGINE_OPT_*) work with engine @ops for @target, whose filesystem
 * or device is on block device @dev_name ("nvme0n1", the whole disk; ""
 * when none)?  Asked before the test file is prepared, so that every
 * target gets the same line and exit.  First what only the device can
 * tell: --hipri (IOPOLL) needs a device with poll queues, which the
 * kernel says in /sys/block/DEV/queue/io_poll (0 on virtio, SATA and an
 * NVMe driver without poll_queues; none under tmpfs, NFS, FUSE): else
 * -EOPNOTSUPP.  Then the engine's own ops->probe_options(), which sets up
 * what init() will (io_uring: a ring with SQPOLL for --sqpoll, refused
 * with -EPERM where not permitted): else its -errno.  @ops NULL or
 * without the hook: no engine check.  Returns 0, or -errno with one line
 * in @err (may be NULL) naming @target, the reason and the option to
 * drop ("DIR: io_uring: SQPOLL not permitted for this user (--sqpoll);
 * run without --sqpoll").  O_DIRECT is the target probe's.
 */
int cdm_engine_check_options(const struct cdm_engine_ops *ops, unsigned int options,
			     const char *target, const char *dev_name, struct cdm_err *err);

/*
 * cdm_engine_probe - does @ops work here?  Runs @ops->probe().
 * Returns 0 (@err then holds ""), or a negative errno with the reason in
 * @err, without its class: "io_uring disabled by kernel.io_uring_disabled=2"
 * (an engine that fails without a reason gets strerror()).  @ops NULL (not
 * built in) is -ENOSYS, "not built in".  @err may be NULL.
 */
int cdm_engine_probe(const struct cdm_engine_ops *ops, struct cdm_err *err);

/*
 * cdm_engine_status - row @i of the registry, for a table such as
 * --list-engines: for i in 0 .. cdm_engine_list(NULL) - 1.
 * Sets *@name to the engine's name (static) and *@ops to its ops, NULL
 * when this build lacks it; @name and @ops may be NULL.
 * Returns:
 *   0         the engine works here; @why holds "" or a remark that starts
 *             with its class, e.g. "RLIMIT_MEMLOCK: 8192 KiB for this user
 *             (ulimit -l); ..." when registered buffers will be limited;
 *   -ENOSYS   with *@ops NULL: not built in, "not built in: install
 *             liburing-dev and rebuild";
 *   -errno    from the engine's probe (*@ops is set, so a kernel's ENOSYS
 *             is told apart from "not built in"), with @why starting with
 *             the class, then ": " and the probe's reason:
 *               "refused by the kernel: ..." (no support, a sysctl such as
 *                  kernel.io_uring_disabled, a system-wide limit),
 *               "blocked by seccomp: ..." (EPERM under a seccomp filter,
 *                  as a container's profile may set),
 *               "RLIMIT_MEMLOCK: ..." (locked memory for the ring);
 *   -EINVAL   @i is past the last row (*@name and *@ops NULL).
 * @why may be NULL.  Probes the engine each call: cheap, but not free.
 */
int cdm_engine_status(size_t i, const char **name, const struct cdm_engine_ops **ops,
		      struct cdm_err *why);

/*
 * cdm_engine_resolve - the engine that --engine @name asks for, as every
 * command resolves it.  "auto" is cdm_engine_pick(), with a note on stderr
 * (cdm_msg_note) for each engine preferred over the one picked that does not
 * work here, and why.  Returns 0 and sets *@ops; -EINVAL for a name cdm
 * never had ("unknown engine 'x' (auto, io_uring, ...)" in @err: a usage
 * error); -ENOSYS for an engine this build lacks ("the io_uring engine is
 * not built in: install liburing-dev and rebuild"); or the probe's -errno
 * ("the io_uring engine does not work here: <why>").  @err may be NULL.
 */
int cdm_engine_resolve(const char *name, const struct cdm_engine_ops **ops,
		       struct cdm_err *err);

/*
 * cdm_engine_list - the engines this build knows, in `auto` preference
 * order, built in or not.  Returns the number of rows; when @names is not
 * NULL, *@names points to a static array of their names, and
 * cdm_engine_find() or cdm_engine_status() tells whether each is built.
 */
size_t cdm_engine_list(const char *const **names);

/* cdm_engine_build_info - "io_uring libaio sync null" as built; static. */
const char *cdm_engine_build_info(void);

#endif /* CDM_ENGINE_ENGINE_H */
