/* SPDX-License-Identifier: MIT */
/*
 * cdm/model/merge.h - one aggregate result from several runs of the same plan:
 * the ranks of an MPI run (cdm-mpi) or the JSON results of a fleet run
 * (`cdm merge A.json B.json ...`).  Both go through cdm_merge(), so they
 * give the same figures from the same counts.
 *
 * The rule (docs/method.md, "Aggregates of several runs"): pass k of the
 * aggregate is the sum of pass k of every run (bytes, I/Os, latency sums;
 * the largest latency; CPU times added), over the scheduled window; then
 * the report picks the best (or median, mean) of those summed passes, as
 * for one run.  Never the sum of each run's best pass: the runs' best
 * passes happened at different times, so that sum is a rate no moment of
 * the run reached.  The latency histogram of a test is the bucket-wise sum
 * of the runs' histograms, so percentiles are exact to the bucket width.
 */
#ifndef CDM_MERGE_H
#define CDM_MERGE_H

#include <stddef.h>

#include "cdm/base/err.h"
#include "cdm/model/result.h"

#define CDM_MERGE_MAX 4096              /* runs in one aggregate */

/* struct cdm_scale, an aggregate's runs (res->scale): model/result.h */

/*
 * cdm_merge_check - do @a and @b describe the same plan (tests in the same
 * order with the same pattern, block, Q, T and direction; size, count,
 * time, warm-up, interval, O_DIRECT, data, --sync, --fsync, --rate-iops)?
 * Returns 0, or -EINVAL with one line in @err (may be NULL) saying what
 * differs ("count 3 vs 5"), without names.
 */
int cdm_merge_check(const struct cdm_run_result *a, const struct cdm_run_result *b,
		    struct cdm_err *err);

/*
 * cdm_merge - the aggregate of @n results (@n >= 1), named @names[i] in
 * reports.  Takes ownership of every @in[i] (freed with the aggregate, or
 * on failure) and sets *@out to a new result whose ->scale lists them.
 * A test's aggregate has the passes that every run completed; its
 * histogram is merged only when every run has one (else percentiles are
 * unknown).  The Q shown is the smallest Q run; T is the total threads.
 * @unit: "ranks" or "runs".  Returns 0; -EINVAL when @n is 0 or above
 * CDM_MERGE_MAX or the plans differ (@err, may be NULL: "B.json does not
 * match A.json: count 3 vs 5"), or a run has steady state
 * (info.steady_state: its rounds stop where that run got steady, so pass
 * k of one is not pass k of another); -EOVERFLOW when a test's counts
 * of all runs add up past 64 bits ("RND4K Q32T1 Read: the runs' bytes add
 * up past 2^64", cdm_pass_sum_overflow()); -ENOMEM.
 */
int cdm_merge(struct cdm_run_result **in, const char *const *names, unsigned int n,
	      const char *unit, struct cdm_run_result **out, struct cdm_err *err);

/*
 * cdm_merge_free - free an aggregate from cdm_merge() and its runs; NULL
 * ok.  The same as cdm_result_free(), which frees r->scale too.
 */
void cdm_merge_free(struct cdm_run_result *agg);

/*
 * cdm_merge_spread - the spread across the runs of test @i of aggregate
 * @agg: each run's MB/s under @agg->aggregate, min, median, max; *@imin
 * and *@imax the runs with the min and max.  Returns the number of runs
 * that measured the test (0: nothing filled); a run whose passes of it
 * measured nothing (cdm_result_state()) is left out, never a 0.
 */
unsigned int cdm_merge_spread(const struct cdm_run_result *agg, unsigned int i,
			      double *min, double *median, double *max,
			      unsigned int *imin, unsigned int *imax);

/*
 * cdm_merge_start_spread - how far apart the runs of aggregate @agg
 * started the same pass of test @i: the largest, over the passes for
 * which every run has a start time, of the latest start minus the
 * earliest (ns; 0 when none is known).  *@pass (may be NULL): the pass.
 */
uint64_t cdm_merge_start_spread(const struct cdm_run_result *agg, unsigned int i,
				unsigned int *pass);

/*
 * cdm_merge_overlap - did the runs of @agg start some pass further apart
 * than a tenth of that pass?  Then they overlapped only in part, and the
 * aggregate is below what the hosts did together (docs/scale-out.md).
 * Returns 1 with *@spread_ns, the largest start spread of any test, and
 * *@pass_ns, the length of its pass (aggregate's seconds); else 0.  cdm
 * merge and cdm-mpi warn on it in their own words.
 */
int cdm_merge_overlap(const struct cdm_run_result *agg, uint64_t *spread_ns, uint64_t *pass_ns);

#endif /* CDM_MERGE_H */
