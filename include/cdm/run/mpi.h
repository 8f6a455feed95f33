/* SPDX-License-Identifier: MIT */
/*
 * cdm/mpi.h - cdm-mpi: the same plan on every MPI rank, each on its own
 * test file, passes started together, one aggregate report on rank 0.
 * Built only with `make WITH_MPI=yes` (src/mpi.c, main.c with -DCDM_MPI).
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
 * rank's host name; tag this rank's messages "rank N (host): "; register
 * MPI_Finalize with atexit().  Returns 0, or -1 after printing why.
 */
int cdm_mpi_init(int *argc, char ***argv);

/* cdm_mpi_rank / cdm_mpi_size - this rank, and the number of ranks. */
int cdm_mpi_rank(void);
int cdm_mpi_size(void);

/* cdm_mpi_sync - the runner's sync hook: one checkpoint (see above). */
int cdm_mpi_sync(void *arg, unsigned int step, int err, struct cdm_err *msg);

/*
 * cdm_mpi_finish - after cdm_run() returned @ret on this rank: the last
 * checkpoint, then the reduction.  On rank 0 *@agg gets the aggregate
 * (free with cdm_merge_free()); elsewhere NULL.  @label: the aggregate's
 * label, or NULL for TARGET.  @save_ranks: when not NULL, rank 0 also
 * saves each rank's own result as @save_ranks.rankN.json, for cdm merge.
 * Returns 0; the rank's own -errno (-EINTR when stopped); or -ECANCELED
 * when another rank failed (rank 0 has printed which, and on which host).
 */
int cdm_mpi_finish(struct cdm_run_result *res, int ret, const char *label,
		   const char *save_ranks, struct cdm_run_result **agg);

#endif /* CDM_MPI_H */
