/* SPDX-License-Identifier: MIT */
/*
 * pass.c - a pass's counts added up (threads of a pass, runs of an
 * aggregate) and the figures derived from them (include/cdm/model/pass.h).
 */
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
}

double cdm_pass_mb_s(const struct cdm_pass *p)
{
	/* MB/s = 10^6 bytes/s, as CDM's header line says */
	if (!p->bytes || !(p->seconds > 0.0))
		return 0.0;
	return (double)p->bytes / p->seconds / 1e6;
}

double cdm_pass_iops(const struct cdm_pass *p)
{
	if (!p->ios || !(p->seconds > 0.0))
		return 0.0;
	return (double)p->ios / p->seconds;
}

double cdm_pass_mean_lat_ns(const struct cdm_pass *p)
{
	if (!p->ios)
		return 0.0;
	return (double)p->lat_sum_ns / (double)p->ios;
}
