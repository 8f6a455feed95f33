/* SPDX-License-Identifier: MIT */
/*
 * test_settings.c - the table of a run's settings (model/settings.h): its
 * keys, options and labels unique, each row's place inside the result,
 * and every row round-tripping through the JSON writer (format/result_write.c)
 * and reader (format/result_read.c), set and not set.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cdm/base/err.h"
#include "cdm/model/result.h"
#include "cdm/format/result_read.h"
#include "cdm/model/settings.h"
#include "cdm/plan/plan.h"
#include "unit.h"

static int is_text(const struct cdm_setting *s)
{
	return s->type == CDM_SETTING_TEXT || s->type == CDM_SETTING_CPUS ||
	       s->type == CDM_SETTING_DEVSPEC;
}

/* no two rows share a key, an option or a label; each row lies inside the result */
static void test_unique(void **state)
{
	unsigned int n;
	const struct cdm_setting *t = cdm_settings(&n);

	(void)state;
	assert_true(n > 0);
	for (unsigned int i = 0; i < n; i++) {
		assert_non_null(t[i].key);
		assert_non_null(t[i].def);
		assert_true(t[i].offset + t[i].size <= sizeof(struct cdm_run_result));
		if (t[i].home == CDM_HOME_INFO)
			assert_true(t[i].offset + t[i].size <= sizeof(struct cdm_run_info));
		else
			assert_int_equal(t[i].home, CDM_HOME_RESULT);
		assert_true(t[i].min <= t[i].max || t[i].type == CDM_SETTING_PCT);
		assert_true(t[i].size <= CDM_SETTINGS_TEXT_MAX);
		assert_true(!t[i].mark || strlen(t[i].mark) < CDM_SETTINGS_MARK_MAX);
		assert_true(!t[i].mark_end || strlen(t[i].mark_end) < CDM_SETTINGS_MARK_MAX);
		assert_ptr_equal(cdm_settings_find(t[i].key), &t[i]);
		for (unsigned int j = i + 1; j < n; j++) {
			assert_string_not_equal(t[i].key, t[j].key);
			if (t[i].option && t[j].option)
				assert_string_not_equal(t[i].option, t[j].option);
			if (t[i].label && t[j].label)
				assert_string_not_equal(t[i].label, t[j].label);
		}
	}
	assert_null(cdm_settings_find("no_such_setting"));
}

/* @r written as JSON and read back: every row of the table the same */
static void round_trip(const struct cdm_run_result *r)
{
	struct cdm_run_result *back = NULL;
	struct cdm_err err = { "" };
	unsigned int n;
	const struct cdm_setting *t = cdm_settings(&n);
	char *json = unit_render("json", r);

	assert_int_equal(cdm_result_read(json, strlen(json), 0, &back, &err), 0);
	for (unsigned int i = 0; i < n; i++) {
		const struct cdm_setting *s = &t[i];

		if (is_text(s))
			assert_string_equal(cdm_settings_at_const(s, back),
					    cdm_settings_at_const(s, r));
		else if (s->type == CDM_SETTING_PCT)
			assert_true(*(const double *)cdm_settings_at_const(s, back) ==
				    *(const double *)cdm_settings_at_const(s, r));
		else
			assert_true(cdm_settings_u64(s, back) == cdm_settings_u64(s, r));
		assert_int_equal(cdm_settings_known(s, back), cdm_settings_known(s, r));
	}
	assert_int_equal(back->info.max_rounds, r->info.max_rounds);
	assert_true(back->info.precondition_ns == r->info.precondition_ns);
	cdm_result_free(back);
	free(json);
}

/* every setting set to a value that is not its default */
static void test_round_trip_set(void **state)
{
	struct cdm_run_result *r = unit_hold_run();
	struct cdm_run_info *in = &r->info;

	(void)state;
	in->warmup_ms = 500;
	in->interval_ms = 250;
	in->zero_fill = 1;
	in->dsync = 1;
	in->fsync_every = 7;
	in->rate_iops = 12345;
	in->seed = 42;
	snprintf(in->null_device, sizeof(in->null_device), "lat=100us,channels=4,iops=20000");
	r->aggregate = CDM_AGG_MEDIAN;
	r->cv_threshold_pct = 12.5;
	round_trip(r);
	cdm_result_free(r);
}

/* the settings that may be off, off: false or null, read back as off */
static void test_round_trip_off(void **state)
{
	struct cdm_run_result *r = unit_hold_run();
	struct cdm_run_info *in = &r->info;

	(void)state;
	in->direct = 0;
	in->end_fsync = 0;
	in->precondition = 0;
	in->precondition_ns = 0;
	in->cpus[0] = '\0';
	round_trip(r);
	cdm_result_free(r);
}

/* the value accessors agree with the fields they name */
static void test_at(void **state)
{
	struct cdm_run_result *r = unit_hold_run();
	const struct cdm_setting *s = cdm_settings_find("rate_iops");

	(void)state;
	assert_non_null(s);
	cdm_settings_set_u64(s, r, 777);
	assert_true(r->info.rate_iops == 777);
	assert_true(cdm_settings_u64(s, r) == 777);
	assert_int_equal(cdm_settings_known(s, r), 1);
	cdm_settings_set_u64(s, r, 0);
	assert_int_equal(cdm_settings_known(s, r), 0);
	s = cdm_settings_find("cpus");
	assert_ptr_equal(cdm_settings_at(s, r), r->info.cpus);
	assert_ptr_equal(cdm_settings_info_at(s, &r->info), r->info.cpus);
	s = cdm_settings_find("cv_threshold_pct");
	assert_ptr_equal(cdm_settings_at(s, r), &r->cv_threshold_pct);
	cdm_result_free(r);
}

/*
 * cdm compare's column: a name for a row it can word (compare_table.c's
 * setting_text()), unique, and not "tests"; a flag's words both ways
 */
static void test_compare_column(void **state)
{
	unsigned int n, named = 0;
	const struct cdm_setting *t = cdm_settings(&n);

	(void)state;
	for (unsigned int i = 0; i < n; i++) {
		const struct cdm_setting_compare *c = &t[i].compare;
		int flag = t[i].type == CDM_SETTING_BOOL || t[i].type == CDM_SETTING_DATA;

		if (!c->name) {
			assert_true(!c->on && !c->off);
			continue;
		}
		named++;
		assert_int_equal(t[i].home, CDM_HOME_INFO);
		assert_string_not_equal(c->name, "tests");
		if (flag)
			assert_true(c->on && c->off);
		else
			assert_true(t[i].known == CDM_KNOWN_INFO || t[i].type == CDM_SETTING_STEADY ||
				    t[i].type == CDM_SETTING_PRECOND);
		assert_true(flag || !c->off);
		assert_true(!(t[i].flags & CDM_SETTING_ROUNDS) || !strcmp(t[i].key, "count"));
		for (unsigned int j = i + 1; j < n; j++)
			if (t[j].compare.name)
				assert_string_not_equal(c->name, t[j].compare.name);
	}
	assert_int_equal(named, 9);
}

/* two infos the same in a setting, or not, as cdm compare asks */
static void test_info_same(void **state)
{
	struct cdm_run_result *r = unit_hold_run();
	struct cdm_run_info a = r->info, b = r->info;
	const struct cdm_setting *steady = cdm_settings_find("steady_state");
	const struct cdm_setting *engine = cdm_settings_find("engine");
	const struct cdm_setting *direct = cdm_settings_find("direct");
	const struct cdm_setting *size = cdm_settings_find("size_bytes");

	(void)state;
	assert_true(cdm_settings_info_same(size, &a, &b));
	b.size += 4096;
	assert_false(cdm_settings_info_same(size, &a, &b));
	/* a flag by whether it is on */
	a.direct = 1;
	b.direct = 2;
	assert_true(cdm_settings_info_same(direct, &a, &b));
	b.direct = 0;
	assert_false(cdm_settings_info_same(direct, &a, &b));
	snprintf(a.engine, sizeof(a.engine), "io_uring");
	snprintf(b.engine, sizeof(b.engine), "libaio");
	assert_false(cdm_settings_info_same(engine, &a, &b));
	snprintf(b.engine, sizeof(b.engine), "io_uring");
	assert_true(cdm_settings_info_same(engine, &a, &b));
	/* steady state: on or off, and when both are on their most rounds */
	a.steady_state = b.steady_state = 0;
	a.max_rounds = 25;
	b.max_rounds = 10;
	assert_true(cdm_settings_info_same(steady, &a, &b));
	b.steady_state = 1;
	assert_false(cdm_settings_info_same(steady, &a, &b));
	a.steady_state = 1;
	assert_false(cdm_settings_info_same(steady, &a, &b));
	b.max_rounds = 25;
	assert_true(cdm_settings_info_same(steady, &a, &b));
	/* one held outside the info: nothing to differ in */
	assert_true(cdm_settings_info_same(cdm_settings_find("aggregate"), &a, &b));
	cdm_result_free(r);
}

/* from an info alone: the same values, none for a row held outside it */
static void test_info_at(void **state)
{
	struct cdm_run_result *r = unit_hold_run();
	struct cdm_run_info copy;
	unsigned int n;
	const struct cdm_setting *t = cdm_settings(&n);

	(void)state;
	r->info.rate_iops = 777;
	copy = r->info;
	for (unsigned int i = 0; i < n; i++) {
		const struct cdm_setting *s = &t[i];

		if (s->home != CDM_HOME_INFO) {
			assert_null(cdm_settings_info_at_const(s, &copy));
			assert_true(cdm_settings_info_u64(s, &copy) == 0);
			assert_int_equal(cdm_settings_info_known(s, &copy), 0);
			continue;
		}
		assert_ptr_equal(cdm_settings_info_at(s, &r->info), cdm_settings_at_const(s, r));
		assert_true(cdm_settings_info_u64(s, &copy) == cdm_settings_u64(s, r));
		assert_int_equal(cdm_settings_info_known(s, &copy), cdm_settings_known(s, r));
	}
	assert_true(cdm_settings_info_u64(cdm_settings_find("rate_iops"), &copy) == 777);
	cdm_result_free(r);
}

/*
 * every setting of the info comes from the configuration: copied by
 * cdm_plan_info_copy(), or one of those run/runner.c sets itself
 */
static void test_info_copy(void **state)
{
	static const char *const elsewhere[] = {
		"profile", "engine", "null_device", "precondition", "cpus",
	};
	struct cdm_run_config cfg;
	struct cdm_run_info in;
	unsigned int n;
	const struct cdm_setting *t = cdm_settings(&n);

	(void)state;
	memset(&cfg, 0x5a, sizeof(cfg));
	memset(&in, 0, sizeof(in));
	cdm_plan_info_copy(&cfg, &in);
	for (unsigned int i = 0; i < n; i++) {
		const unsigned char *p = cdm_settings_info_at_const(&t[i], &in);
		int named = 0, set = 0;

		for (size_t j = 0; j < sizeof(elsewhere) / sizeof(elsewhere[0]); j++)
			named |= !strcmp(t[i].key, elsewhere[j]);
		if (!p || named)
			continue;
		for (size_t b = 0; b < t[i].size; b++)
			set |= p[b] == 0x5a;
		if (!set)
			fail_msg("setting %s is not copied from the configuration", t[i].key);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unique),
		cmocka_unit_test(test_compare_column),
		cmocka_unit_test(test_info_same),
		cmocka_unit_test(test_info_at),
		cmocka_unit_test(test_info_copy),
		cmocka_unit_test(test_round_trip_set),
		cmocka_unit_test(test_round_trip_off),
		cmocka_unit_test(test_at),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
