/* SPDX-License-Identifier: MIT */
/*
 * plan.c - the tests a plan runs, in CDM's order, and the rules a plan
 * must follow on a block device (include/cdm/plan/plan.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cdm/base/err.h"
#include "cdm/base/msg.h"
#include "cdm/base/size.h"
#include "cdm/base/text.h"
#include "cdm/model/steady.h"
#include "cdm/plan/plan.h"
#include "cdm/target/device.h"

/* each copied field: the same size in both structs */
#define SAME_SIZE(f)							\
	_Static_assert(sizeof(((struct cdm_run_config *)0)->f) ==		\
		       sizeof(((struct cdm_run_info *)0)->f), #f "'s size differs");
CDM_PLAN_INFO_COPIED(SAME_SIZE)

void cdm_plan_info_copy(const struct cdm_run_config *cfg, struct cdm_run_info *in)
{
#define COPY(f)								\
	_Static_assert(sizeof(in->f) == sizeof(cfg->f), "same size: " #f);	\
	memcpy(&in->f, &cfg->f, sizeof(in->f));
	CDM_PLAN_INFO_COPIED(COPY)
#undef COPY
}

unsigned int cdm_plan_tests(const struct cdm_run_config *cfg, struct cdm_test_result *out)
{
	unsigned int n = 0;

	for (int d = CDM_DIR_READ; d <= CDM_DIR_MIX; d++) {
		if ((d == CDM_DIR_READ && !cfg->do_read) || (d == CDM_DIR_WRITE && !cfg->do_write) ||
		    (d == CDM_DIR_MIX && !cfg->do_mix))
			continue;
		for (unsigned int i = 0; i < cfg->ntests; i++) {
			struct cdm_spec sp = cfg->tests[i];

			if (d != CDM_DIR_MIX && sp.write_pct)
				continue;
			if (d == CDM_DIR_MIX && !sp.write_pct) {
				if (!cfg->mix_read_pct)
					continue;
				sp.write_pct = 100 - cfg->mix_read_pct;
			}
			if (out) {
				out[n].spec = sp;
				out[n].dir = (enum cdm_dir)d;
				out[n].qd_run = sp.qd;
			}
			n++;
		}
	}
	return n;
}

int cdm_plan_engine_q1(const struct cdm_run_config *cfg)
{
	return cfg->engine && ((cfg->engine->flags & CDM_ENGINE_SYNC) ||
			       (!cfg->direct && (cfg->engine->flags & CDM_ENGINE_Q1_BUFFERED)));
}

unsigned int cdm_plan_engine_depth(struct cdm_run_config *cfg)
{
	char at_q1[512] = "", dropped[512] = "", name[64], was[64];
	size_t la = 0, ld = 0;
	unsigned int n = 0;

	if (!cdm_plan_engine_q1(cfg))
		return cfg->ntests;
	for (unsigned int i = 0; i < cfg->ntests; i++) {
		struct cdm_spec sp = cfg->tests[i];
		int dup = 0;

		if (sp.qd > 1) {
			cdm_spec_name(&sp, was, sizeof(was));
			sp.qd = 1;
			/* the same as a test kept so far ([0, n) is rewritten) or to come */
			for (unsigned int k = 0; k < n; k++)
				dup |= cdm_spec_same(&cfg->tests[k], &sp);
			for (unsigned int k = i + 1; k < cfg->ntests; k++)
				dup |= cdm_spec_same(&cfg->tests[k], &sp);
		}
		if (dup) {
			/* at Q1 it is a test the plan runs anyway: one row, not two */
			cdm_spec_name(&sp, name, sizeof(name));
			cdm_text_add(dropped, sizeof(dropped), &ld, "%s%s (= %s)", ld ? ", " : "",
				     was, name);
			continue;
		}
		if (sp.qd != cfg->tests[i].qd)
			cdm_text_add(at_q1, sizeof(at_q1), &la, "%s%s", la ? ", " : "", was);
		cfg->tests[n++] = sp;
	}
	cfg->ntests = n;
	if (at_q1[0] || dropped[0])
		cdm_msg_note("the %s engine keeps one I/O in flight per thread%s, so every test runs at Q1 (the report shows Q=1)%s%s%s%s",
			     cfg->engine->name, cfg->engine->flags & CDM_ENGINE_SYNC ? "" : " on a buffered file",
			     at_q1[0] ? "; run at Q1: " : "", at_q1,
			     dropped[0] ? "; left out, the same as another test at Q1: " : "", dropped);
	return n;
}

int cdm_plan_writes(const struct cdm_run_config *cfg)
{
	if (cfg->do_write)
		return 1;
	if (!cfg->do_mix)
		return 0;
	if (cfg->mix_read_pct)
		return 1;
	for (unsigned int i = 0; i < cfg->ntests; i++)
		if (cfg->tests[i].write_pct)
			return 1;
	return 0;
}

const char *cdm_plan_writer(const struct cdm_run_config *cfg)
{
	if (cfg->do_write)
		return "write tests cannot run on it (--mode read runs only the reads)";
	if (cdm_plan_writes(cfg))
		return "mixed tests, which write, cannot run on it (--mode read runs only the reads)";
	if (cfg->precondition)
		return "--precondition cannot run on it (it writes the whole test file)";
	return NULL;
}

/* did a test before @i run the same spec (in another phase: read, write, mix)? */
static int spec_seen(const struct cdm_test_result *tests, unsigned int i)
{
	for (unsigned int j = 0; j < i; j++)
		if (!memcmp(&tests[j].spec, &tests[i].spec, sizeof(tests[i].spec)) &&
		    tests[j].qd_run == tests[i].qd_run)
			return 1;
	return 0;
}

void cdm_plan_note_small(const struct cdm_test_result *tests, unsigned int n, uint64_t size,
			 const char *target)
{
	char name[64], sz[32];

	for (unsigned int i = 0; i < n; i++) {
		const struct cdm_spec *s = &tests[i].spec;
		uint64_t blocks = size / s->block, inflight = (uint64_t)tests[i].qd_run * s->threads;

		if (blocks >= inflight || spec_seen(tests, i))
			continue;
		cdm_spec_name(s, name, sizeof(name));
		cdm_size_format(size, sz, sizeof(sz));
		cdm_msg_note("%s: %s: the %s tested holds %" PRIu64 " block%s of the test, fewer than its %" PRIu64 " I/Os in flight (Q%u x T%u): several hit the same block at once",
			     target, name, sz, blocks, blocks == 1 ? "" : "s", inflight,
			     tests[i].qd_run, s->threads);
	}
}

int cdm_plan_device(struct cdm_run_config *cfg, int mode_given, int size_given,
		    struct cdm_err *err)
{
	struct cdm_blockdev bd;
	char a[32], b[32];
	int r;

	if (cfg->file)
		return 0;
	r = cdm_device_query(cfg->target, &bd);
	if (r <= 0)
		return 0;       /* not a device, or the probe will say why */
	if (cfg->keep) {
		return cdm_err_set(err, -EINVAL, "%s: --keep keeps a test file; a block device has none", cfg->target);
	}
	if (!mode_given) {
		cfg->do_write = 0;
		cfg->do_mix = 0;
		if (!cdm_plan_tests(cfg, NULL)) {
			return cdm_err_set(err, -EINVAL, "%s: no read test to run: on a block device the default mode is read, and a test with W<pct> writes (give --mode mix or all, with --allow-destructive-write)",
				   cfg->target);
		}
		/* the permission alone does not choose the writes: say so */
		if (cfg->allow_destructive_write)
			cdm_msg_note("%s: --allow-destructive-write without --mode runs only the read tests (the default on a block device); add --mode all or --mode write to run the write tests",
				     cfg->target);
	}
	if (cdm_plan_writes(cfg) && !cfg->allow_destructive_write) {
		return cdm_err_set(err, -EINVAL, "%s: write tests on a block device overwrite its data: add --allow-destructive-write to run them (on a device the default mode is read)",
				   cfg->target);
	}
	/*
	 * PTS's preconditioning writes the whole range tested, whatever the
	 * tests do.  cdm_runner_run() checks writes and this again, without the
	 * reason (defence in depth, as for the write tests above).
	 */
	if (cfg->precondition && !cfg->allow_destructive_write)
		return cdm_err_set(err, -EINVAL, "%s: --precondition writes the whole device (all of --size) twice, overwriting its data: add --allow-destructive-write to run it",
				   cfg->target);
	if (!size_given) {
		cfg->size = bd.size;
	} else if (cfg->size > bd.size) {
		cdm_size_format(cfg->size, a, sizeof(a));
		cdm_size_format(bd.size, b, sizeof(b));
		return cdm_err_set(err, -EINVAL, "%s: --size %s is larger than the device (%s)", cfg->target, a, b);
	}
	/* the logical block size: the runner's check, as for a file (plan/align.h) */
	return 0;
}

int cdm_plan_steady(struct cdm_run_config *cfg, struct cdm_err *err)
{
	if (!cfg->steady_state) {
		if (cfg->max_rounds)
			return cdm_err_set(err, -EINVAL, "--max-rounds is the most rounds of --steady-state: give --steady-state too");
		return 0;
	}
	if (!cfg->max_rounds)
		cfg->max_rounds = CDM_STEADY_MAX_ROUNDS_DEFAULT;
	cfg->count = cfg->max_rounds;
	cfg->warmup_ms = 0;
	return 0;
}

int cdm_plan_round_size(struct cdm_run_config *cfg, uint64_t *block, struct cdm_err *err)
{
	uint64_t maxb = 0, rounded;
	char a[32], b[32];

	for (unsigned int i = 0; i < cfg->ntests; i++)
		if (cfg->tests[i].block > maxb)
			maxb = cfg->tests[i].block;
	*block = maxb;
	if (!maxb)
		return 0;       /* no test: nothing to round to */
	if (cfg->size < maxb) {
		cdm_size_format(cfg->size, a, sizeof(a));
		cdm_size_format(maxb, b, sizeof(b));
		return cdm_err_set(err, -EINVAL, "--size %s is smaller than one %s block of the tests",
				   a, b);
	}
	rounded = cfg->size / maxb * maxb;
	if (rounded == cfg->size)
		return 0;
	cfg->size = rounded;
	return 1;
}
