/* SPDX-License-Identifier: MIT */
/*
 * cdm/run/mpi.h - cdm-mpi: the same plan on every MPI rank, each on its own
 * test file, passes started together, one aggregate report on rank 0.
 * Built only with `make WITH_MPI=yes` (src/run/mpi.c); the command line
 * reaches it through cdm_mpi_hook (below), so no other file is built
 * apart for cdm-mpi.
 *
 * The protocol (docs/scale-out.md): every rank makes the same sequence of
 * checkpoints, each one MPI_Allreduce (MINLOC of "fine?", rank): once its
 * test file is ready, before every test's warm-up (the runner's sync hook,
 * so the ranks' pass schedules start together), and once after the run.
 * A rank that fails, or is stopped by a signal, says so at its next
 * checkpoint and stops; every rank sees the same answer there, stops
 * cleanly (test files removed) and no further checkpoint is made.  When
 * all ranks finish, rank 0 gathers every rank's result as JSON
 * (MPI_Gatherv), reads them back and merges them with cdm_merge().
 */
#ifndef CDM_MPI_H
#define CDM_MPI_H

#include "cdm/model/result.h"

struct cdm_err;

/*
 * cdm_mpi_init - MPI_Init, learn this rank, the number of ranks and every
 * rank's host name; tag this rank's messages "rank N (host): " (base/msg.h
 * cdm_msg_tag); register MPI_Finalize with atexit().  Returns 0; -EIO
 * when MPI_Init fails ("MPI_Init failed: run cdm-mpi with mpirun or srun"
 * in @err); -ENOMEM.
 */
int cdm_mpi_init(int *argc, char ***argv, struct cdm_err *err);

/* cdm_mpi_rank / cdm_mpi_size - this rank, and the number of ranks. */
int cdm_mpi_rank(void);
int cdm_mpi_size(void);

/* cdm_mpi_sync - the runner's sync hook: one checkpoint (see above). */
int cdm_mpi_sync(void *arg, unsigned int step, int err, struct cdm_err *msg);

/*
 * cdm_mpi_finish - after cdm_runner_run() returned @ret on this rank: the last
 * checkpoint, then the reduction.  On rank 0 *@agg gets the aggregate
 * (free with cdm_merge_free(); its scale->src[] holds every rank's own
 * result, for --save-ranks); elsewhere NULL.  @label: the aggregate's
 * label, or NULL for "TARGET (N ranks)".  Relabels @res "rank N (host)".
 * Returns 0; the rank's own -errno (-EINTR when stopped); -ECANCELED when
 * another rank failed; or the reduction's -errno on rank 0 (-ENOMEM,
 * -EINVAL for a result that cannot be read back or merged).
 * @err (may be NULL) is left empty when there is nothing new to say: this
 * rank's own failure (cdm_runner_run() has said it) or, on ranks other than 0,
 * another rank's failure, which only rank 0 names: "rank 2 (host) failed
 * (No such file or directory): all 4 ranks stopped and removed their test
 * files".  That line names its rank itself, so the rank tag of later
 * messages is cleared.
 */
int cdm_mpi_finish(struct cdm_run_result *res, int ret, const char *label,
		   struct cdm_run_result **agg, struct cdm_err *err);

/*
 * struct cdm_mpi_hook - cdm-mpi's functions as the run command calls them
 * (cli/run_cli.c, run_setup.c, run_exec.c, main.c): the functions above.  cdm_mpi_hook is
 * defined by mpi.c alone and declared weak,
 * so in ./cdm, built without mpi.c, its address is NULL: use
 * cdm_mpi_hook_get().
 */
struct cdm_mpi_hook {
	int (*init)(int *argc, char ***argv, struct cdm_err *err);
	int (*rank)(void);
	int (*sync)(void *arg, unsigned int step, int err, struct cdm_err *msg);
	int (*finish)(struct cdm_run_result *res, int ret, const char *label,
		      struct cdm_run_result **agg, struct cdm_err *err);
};

extern const struct cdm_mpi_hook cdm_mpi_hook __attribute__((weak));

/* cdm_mpi_hook_get - the hook in cdm-mpi; NULL in cdm (no MPI). */
static inline const struct cdm_mpi_hook *cdm_mpi_hook_get(void)
{
	return &cdm_mpi_hook;
}

#endif /* CDM_MPI_H */
