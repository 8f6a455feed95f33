/* SPDX-License-Identifier: MIT */
/*
 * pass.c - a pass's counts added up (threads of a pass, runs of an
 * aggregate), whether they measured anything, and the figures derived
 * from them (include/cdm/model/pass.h).
 */
#include <string.h>

#include "cdm/model/pass.h"

void cdm_pass_add(struct cdm_pass *dst, const struct cdm_pass *src)
{
	dst->bytes += src->bytes;
	dst->ios += src->ios;
	dst->lat_sum_ns += src->lat_sum_ns;
	if (src->lat_max_ns > dst->lat_max_ns)
		dst->lat_max_ns = src->lat_max_ns;
	dst->cpu_user_ns += src->cpu_user_ns;
	dst->cpu_sys_ns += src->cpu_sys_ns;
	dst->proc_user_ns += src->proc_user_ns;
	dst->proc_sys_ns += src->proc_sys_ns;
	dst->read_bytes += src->read_bytes;
	dst->read_ios += src->read_ios;
	dst->read_lat_sum_ns += src->read_lat_sum_ns;
	dst->fsyncs += src->fsyncs;
	dst->fsync_sum_ns += src->fsync_sum_ns;
	if (src->fsync_max_ns > dst->fsync_max_ns)
		dst->fsync_max_ns = src->fsync_max_ns;
	if (src->pending_max_ns > dst->pending_max_ns)
		dst->pending_max_ns = src->pending_max_ns;
	dst->late_known |= src->late_known;
	if (src->paused_ns > dst->paused_ns)
		dst->paused_ns = src->paused_ns;
	if (src->busy_ns > dst->busy_ns)
		dst->busy_ns = src->busy_ns;
	dst->late_starts += src->late_starts;
	if (src->late_max_ns > dst->late_max_ns)
		dst->late_max_ns = src->late_max_ns;
}

/* the counts cdm_pass_add() and a window of passes add up, and their names in JSON */
#define PASS_SUMS(X)                                                            \
	X(bytes, "bytes") X(ios, "ios") X(lat_sum_ns, "lat_sum_ns")             \
	X(cpu_user_ns, "cpu_user_ns") X(cpu_sys_ns, "cpu_sys_ns")               \
	X(proc_user_ns, "proc_user_ns") X(proc_sys_ns, "proc_sys_ns")           \
	X(read_bytes, "read.bytes") X(read_ios, "read.ios")                     \
	X(read_lat_sum_ns, "read latencies") X(fsyncs, "fsync.count")           \
	X(fsync_sum_ns, "fsync times") X(end_fsyncs, "end_fsync.count")         \
	X(end_fsync_ns, "end_fsync.time_ns")

const char *cdm_pass_sum_overflow(struct cdm_pass *sum, const struct cdm_pass *p)
{
#define PASS_SUM(f, name)                                                       \
	if (__builtin_add_overflow(sum->f, p->f, &sum->f))                      \
		return name;
	PASS_SUMS(PASS_SUM)
#undef PASS_SUM
	return NULL;
}

enum cdm_pass_state cdm_pass_state(const struct cdm_pass *p)
{
	/* "!(x > 0)" also catches a NaN duration from a damaged file */
	if (!(p->seconds > 0.0))
		return CDM_PASS_NO_TIME;
	if (!p->ios)
		return CDM_PASS_NO_IO;
	return CDM_PASS_MEASURED;
}

const char *cdm_pass_state_reason(enum cdm_pass_state st)
{
	switch (st) {
	case CDM_PASS_NO_IO:
		return "no I/O completed";
	case CDM_PASS_NO_TIME:
		return "no time elapsed";
	case CDM_PASS_NO_PASS:
		return "no pass completed";
	case CDM_PASS_MEASURED:
	default:
		return NULL;
	}
}

void cdm_pass_part(const struct cdm_pass *p, enum cdm_part part, struct cdm_pass *out)
{
	if (part == CDM_PART_ALL) {
		*out = *p;
		return;
	}
	memset(out, 0, sizeof(*out));
	out->seconds = p->seconds;
	out->start_unix_ns = p->start_unix_ns;
	out->pending_max_ns = p->pending_max_ns;
	out->paused_ns = p->paused_ns;
	out->busy_ns = p->busy_ns;
	if (part == CDM_PART_READS) {
		out->bytes = p->read_bytes;
		out->ios = p->read_ios;
		out->lat_sum_ns = p->read_lat_sum_ns;
		out->read_bytes = p->read_bytes;
		out->read_ios = p->read_ios;
		out->read_lat_sum_ns = p->read_lat_sum_ns;
	} else {
		/* the reads are counted among all I/Os, so never above them */
		out->bytes = p->bytes - (p->read_bytes < p->bytes ? p->read_bytes : p->bytes);
		out->ios = p->ios - (p->read_ios < p->ios ? p->read_ios : p->ios);
		out->lat_sum_ns = p->lat_sum_ns -
				  (p->read_lat_sum_ns < p->lat_sum_ns ? p->read_lat_sum_ns : p->lat_sum_ns);
	}
}

double cdm_pass_no_figure(void)
{
	/* NaN without libm */
	return __builtin_nan("");
}

double cdm_pass_mb_s(const struct cdm_pass *p)
{
	/* MB/s = 10^6 bytes/s, as CDM's header line says */
	if (cdm_pass_state(p) != CDM_PASS_MEASURED)
		return cdm_pass_no_figure();
	return (double)p->bytes / p->seconds / 1e6;
}

double cdm_pass_iops(const struct cdm_pass *p)
{
	if (cdm_pass_state(p) != CDM_PASS_MEASURED)
		return cdm_pass_no_figure();
	return (double)p->ios / p->seconds;
}

double cdm_pass_mean_lat_ns(const struct cdm_pass *p)
{
	if (cdm_pass_state(p) != CDM_PASS_MEASURED)
		return cdm_pass_no_figure();
	return (double)p->lat_sum_ns / (double)p->ios;
}
