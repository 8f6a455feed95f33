/* SPDX-License-Identifier: MIT */
/*
 * mpi.c - cdm-mpi's side of MPI: checkpoints (the runner's sync hook),
 * failure and stop propagation, and the reduction on rank 0 (every rank's
 * result as JSON, gathered, read back and merged with cdm_merge(), the
 * same code `cdm merge` uses).  Built only with `make WITH_MPI=yes`.
 * include/cdm/run/mpi.h describes the protocol.  Failures follow the error
 * rule (base/err.h): -errno and a message for cli/ to print, which calls
 * them through cdm_mpi_hook.
 */
#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cdm/base/err.h"
#include "cdm/model/merge.h"
#include "cdm/run/mpi.h"
#include "cdm/report/report.h"
#include "cdm/format/result_read.h"
#include "cdm/run/runner.h"
#include "cdm/target/testfile.h"
#include "cdm/base/msg.h"

#define HOST_MAX 64

static int me, nranks;
static char (*hosts)[HOST_MAX];         /* every rank's host name */
static int failed_seen;                 /* a checkpoint said a rank failed */
static int failed_rank = -1;
static unsigned int failed_step;
static int failed_err;                  /* its -errno */
/* CDM_MPI_STATS=1: time a second, idle collective at every checkpoint */
static int stats;
static double coll_sum_us, coll_max_us;
static unsigned int coll_n;

int cdm_mpi_rank(void)
{
	return me;
}

int cdm_mpi_size(void)
{
	return nranks;
}

static void finalize(void)
{
	int done = 0;

	MPI_Finalized(&done);
	if (!done)
		MPI_Finalize();
}

int cdm_mpi_init(int *argc, char ***argv, struct cdm_err *err)
{
	char host[HOST_MAX];
	const char *st = getenv("CDM_MPI_STATS");

	if (MPI_Init(argc, argv) != MPI_SUCCESS)
		return cdm_err_set(err, -EIO, "MPI_Init failed: run cdm-mpi with mpirun or srun");
	atexit(finalize);
	MPI_Comm_rank(MPI_COMM_WORLD, &me);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	if (gethostname(host, sizeof(host)) < 0 || !host[0])
		snprintf(host, sizeof(host), "localhost");
	host[sizeof(host) - 1] = '\0';
	hosts = calloc((size_t)nranks, sizeof(*hosts));
	if (!hosts)
		return cdm_err_set(err, -ENOMEM, "out of memory");
	MPI_Allgather(host, HOST_MAX, MPI_CHAR, hosts, HOST_MAX, MPI_CHAR, MPI_COMM_WORLD);
	snprintf(cdm_msg_tag, sizeof(cdm_msg_tag), "rank %d (%.60s): ", me, host);
	cdm_testfile_set_rank(me);
	stats = st && !strcmp(st, "1");
	return 0;
}

int cdm_mpi_sync(void *arg, unsigned int step, int err, struct cdm_err *msg)
{
	struct { int ok; int rank; } in = { err ? 0 : 1, me }, out;

	(void)arg;
	(void)msg;
	MPI_Allreduce(&in, &out, 1, MPI_2INT, MPI_MINLOC, MPI_COMM_WORLD);
	if (!out.ok) {
		/* every rank is here: one more collective for the failed rank's errno */
		int mine = out.rank == me ? err : 0;

		MPI_Allreduce(&mine, &failed_err, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
		failed_seen = 1;
		failed_rank = out.rank;
		failed_step = step;
		return err ? err : -ECANCELED;
	}
	if (stats) {
		/* everyone just left the same collective: time one more */
		double t0 = MPI_Wtime(), us;

		MPI_Allreduce(&in, &out, 1, MPI_2INT, MPI_MINLOC, MPI_COMM_WORLD);
		us = (MPI_Wtime() - t0) * 1e6;
		coll_sum_us += us;
		coll_max_us = us > coll_max_us ? us : coll_max_us;
		coll_n++;
	}
	return 0;
}

/* this rank's result as JSON text in a malloc'ed buffer */
static char *to_json(const struct cdm_run_result *res, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (!f)
		return NULL;
	if (cdm_report_find("json")->write(f, res) < 0) {
		fclose(f);
		free(buf);
		return NULL;
	}
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/*
 * Rank 0: which rank could not send its result (lens[r] < 0), the offsets
 * of the others in the gathered text, and room for it in *@all.  Returns 0
 * or -ENOMEM with the reason in @err.
 */
static int make_room(int *lens, int *offs, char **all, long *total, struct cdm_err *err)
{
	int bad = -1;

	*total = 0;
	for (int r = 0; r < nranks; r++) {
		if (lens[r] < 0) {
			bad = bad < 0 ? r : bad;
			lens[r] = 0;
		}
		offs[r] = (int)*total;
		*total += lens[r];
	}
	if (bad >= 0)
		return cdm_err_set(err, -ENOMEM, "rank %d (%s) could not write its result",
				   bad, hosts[bad]);
	if (*total > 0x7fffffffL || !(*all = malloc((size_t)*total + 1)))
		return cdm_err_set(err, -ENOMEM, "the reduction on rank 0 failed (out of memory, or a result too large)");
	return 0;
}

/*
 * Rank 0: read back each rank's JSON from @all and merge them into *@agg.
 * Returns 0 or -errno with the reason in @err.
 */
static int merge_all(const char *all, const int *lens, const int *offs,
		     struct cdm_run_result **agg, struct cdm_err *err)
{
	struct cdm_run_result **in = calloc((size_t)nranks, sizeof(*in));
	char (*names)[80] = calloc((size_t)nranks, sizeof(*names));
	const char **np = calloc((size_t)nranks, sizeof(*np));
	struct cdm_err why;
	int ret = 0;

	if (!in || !names || !np) {
		ret = cdm_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (int r = 0; r < nranks; r++) {
		ret = cdm_result_read(all + offs[r], (size_t)lens[r], CDM_RESULT_READ_ONE_RUN,
				      &in[r], &why);
		if (ret < 0) {
			cdm_err_set(err, ret, "the result of rank %d (%s) cannot be read: %s", r, hosts[r],
				    why.msg);
			for (int j = 0; j < r; j++)
				cdm_result_free(in[j]);
			goto out;
		}
		snprintf(names[r], sizeof(names[r]), "rank %d (%s)", r, hosts[r]);
		np[r] = names[r];
	}
	ret = cdm_merge(in, np, (unsigned int)nranks, "ranks", agg, err);
out:
	free(in);
	free(names);
	free(np);
	return ret;
}

/*
 * The ranks start each test together (cdm_mpi_sync()), so passes that
 * started far apart by their hosts' clocks mean clocks that disagree or
 * a rank held up: said, as cdm merge says it of files (model/merge.h).
 */
static void warn_overlap(const struct cdm_run_result *agg)
{
	uint64_t worst, len;

	if (cdm_merge_overlap(agg, &worst, &len))
		cdm_msg_warn("the ranks' passes started up to %.3f s apart by their hosts' clocks (passes last %.3f s): the clocks disagree (check the hosts' time sync), or the ranks overlapped only in part and the aggregate is below what the hosts did together",
			     (double)worst / 1e9, (double)len / 1e9);
}

static int reduce(struct cdm_run_result *res, const char *label,
		  struct cdm_run_result **agg, struct cdm_err *err)
{
	size_t len = 0;
	char *text, *all = NULL;
	int mylen, *lens = NULL, *offs = NULL;
	int ret = 0;
	double t0 = MPI_Wtime();
	long total = 0;

	/* each rank's result is named after it; the aggregate gets the label */
	snprintf(res->info.label, sizeof(res->info.label), "rank %d (%s)", me, hosts[me]);
	text = to_json(res, &len);
	mylen = text && len < (size_t)1 << 30 ? (int)len : -1;
	if (me == 0) {
		lens = calloc((size_t)nranks, sizeof(*lens));
		offs = calloc((size_t)nranks, sizeof(*offs));
		if (!lens || !offs)
			ret = cdm_err_set(err, -ENOMEM, "the reduction on rank 0 failed (out of memory, or a result too large)");
	}
	/* every rank must take part even when one cannot: lengths first */
	MPI_Gather(&mylen, 1, MPI_INT, lens, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (me == 0 && !ret)
		ret = make_room(lens, offs, &all, &total, err);
	MPI_Gatherv(mylen > 0 ? text : "", mylen > 0 ? mylen : 0, MPI_CHAR, all,
		    me == 0 && !ret ? lens : NULL, me == 0 && !ret ? offs : NULL, MPI_CHAR, 0,
		    MPI_COMM_WORLD);
	free(text);
	if (me == 0 && !ret)
		ret = merge_all(all, lens, offs, agg, err);
	free(all);
	free(lens);
	free(offs);
	if (me != 0 || ret < 0)
		return ret;
	warn_overlap(*agg);
	if (label)
		snprintf((*agg)->info.label, sizeof((*agg)->info.label), "%s", label);
	else
		snprintf((*agg)->info.label, sizeof((*agg)->info.label), "%.200s (%d ranks)",
			 (*agg)->info.target, nranks);
	if (stats)
		cdm_msg_note("mpi: %u checkpoints, an idle MPI_Allreduce took %.1f us on average, %.1f us at most; the reduction (gather %ld bytes of JSON, read, merge) took %.3f ms",
			 coll_n, coll_n ? coll_sum_us / coll_n : 0.0, coll_max_us, total,
			 (MPI_Wtime() - t0) * 1e3);
	return 0;
}

int cdm_mpi_finish(struct cdm_run_result *res, int ret, const char *label,
		   struct cdm_run_result **agg, struct cdm_err *err)
{
	*agg = NULL;
	if (err)
		err->msg[0] = '\0';
	if (!failed_seen) {
		int e = cdm_mpi_sync(NULL, ~0u, ret, NULL);

		if (e && !ret)
			ret = e;
	}
	if (failed_seen) {
		cdm_msg_tag[0] = '\0';         /* the line names the rank itself */
		if (me == 0 && failed_err == -EINTR)
			cdm_err_set(err, ret ? ret : -ECANCELED,
				    "rank %d (%s) was stopped by a signal: all %d ranks stopped and removed their test files",
				    failed_rank, hosts[failed_rank], nranks);
		else if (me == 0)
			cdm_err_set(err, ret ? ret : -ECANCELED,
				    "rank %d (%s) failed (%s)%s: all %d ranks stopped and removed their test files",
				    failed_rank, hosts[failed_rank], strerror(-failed_err),
				    failed_step == 0 ? " before the test files were ready" : "", nranks);
		return ret ? ret : -ECANCELED;
	}
	/* a collective error mid-way would leave the others waiting: all ranks reduce */
	ret = reduce(res, label, agg, err);
	if (ret < 0 && *agg) {
		cdm_merge_free(*agg);
		*agg = NULL;
	}
	return ret;
}

const struct cdm_mpi_hook cdm_mpi_hook = {
	.init = cdm_mpi_init,
	.rank = cdm_mpi_rank,
	.sync = cdm_mpi_sync,
	.finish = cdm_mpi_finish,
};
