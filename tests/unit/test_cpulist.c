/* SPDX-License-Identifier: MIT */
/*
 * test_cpulist.c - the kernel's cpulist form (base/cpulist.h): lists read
 * into sorted unique CPU numbers, the stride form, every refusal with
 * its message, and the canonical shortest list printed back, cut with
 * ",..." when it does not fit.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cdm/base/cpulist.h"
#include "cdm/base/err.h"

static unsigned short cpus[CDM_CPULIST_MAX];

/* @in parses to the canonical list @want */
static void round_trip(const char *in, const char *want, unsigned int want_n)
{
	struct cdm_err err = { "" };
	unsigned int n = 12345;
	char out[256];

	assert_int_equal(cdm_cpulist_parse(in, CDM_CPULIST_MAX, cpus, &n, &err), 0);
	assert_string_equal(err.msg, "");
	assert_int_equal(n, want_n);
	for (unsigned int i = 1; i < n; i++)
		assert_true(cpus[i - 1] < cpus[i]);
	assert_int_equal(cdm_cpulist_format(cpus, n, out, sizeof(out)), 0);
	assert_string_equal(out, want);
}

static void test_parse(void **state)
{
	(void)state;
	round_trip("1", "1", 1);
	round_trip("0-3,8", "0-3,8", 5);
	round_trip("0,2-3", "0,2-3", 3);
	/* out of order, repeated and overlapping: sorted, each CPU once */
	round_trip("8,3,0-2,1,2-3", "0-3,8", 5);
	round_trip("0,1", "0-1", 2);
	round_trip("5-5", "5", 1);
	round_trip("0,2,4,6", "0,2,4,6", 4);
	/* the kernel's stride: of each group of 4 from 0 to 15, the first 2 */
	round_trip("0-15:2/4", "0-1,4-5,8-9,12-13", 8);
	round_trip("1-9:1/2", "1,3,5,7,9", 5);
	round_trip("0-7:4/4", "0-7", 8);
	/* the highest CPU there is */
	round_trip("1023", "1023", 1);
	round_trip("1020-1023", "1020-1023", 4);
}

/* @in is refused with @code and the message @msg */
static void refused(const char *in, int code, const char *msg)
{
	struct cdm_err err = { "" };
	unsigned int n = 777;

	assert_int_equal(cdm_cpulist_parse(in, CDM_CPULIST_MAX, cpus, &n, &err), code);
	assert_string_equal(err.msg, msg);
	assert_int_equal(n, 777);
}

static void test_refused(void **state)
{
	(void)state;
	refused("", -EINVAL, "an empty list");
	refused(NULL, -EINVAL, "an empty list");
	refused("x", -EINVAL, "'x' is not a CPU number");
	refused("0-x", -EINVAL, "'0-x' is not a CPU number");
	refused("-1", -EINVAL, "'-1' is not a CPU number");
	refused("+1", -EINVAL, "'+1' is not a CPU number");
	refused(" 1", -EINVAL, "' 1' is not a CPU number");
	refused("1 ", -EINVAL, "'1 ' is not a CPU number or range");
	refused("1-2-3", -EINVAL, "'1-2-3' is not a CPU number or range");
	refused("0x1", -EINVAL, "'0x1' is not a CPU number or range");
	refused("1,", -EINVAL, "an empty item (two commas, or one at an end)");
	refused(",1", -EINVAL, "an empty item (two commas, or one at an end)");
	refused("0,,1", -EINVAL, "an empty item (two commas, or one at an end)");
	refused("3-1", -EINVAL, "the range 3-1 runs downward (1-3)");
	refused("1024", -ERANGE, "CPU 1024 is past the highest CPU cdm can use, 1023");
	refused("0-1024", -ERANGE, "CPU 1024 is past the highest CPU cdm can use, 1023");
	/* the number as typed, not as the scan capped it (4294967296) */
	refused("99999999999999999999", -ERANGE,
		"CPU 99999999999999999999 is past the highest CPU cdm can use, 1023");
	refused("4294967297", -ERANGE, "CPU 4294967297 is past the highest CPU cdm can use, 1023");
	refused("0-18446744073709551617", -ERANGE,
		"CPU 18446744073709551617 is past the highest CPU cdm can use, 1023");
	refused("0-7:3/2", -EINVAL, "the stride of '0-7:3/2' uses 3 CPUs of each group of 2");
	refused("0-7:0/2", -EINVAL, "the stride of '0-7:0/2' is not USED/GROUP (1 <= USED <= GROUP)");
	refused("0-7:2", -EINVAL, "the stride of '0-7:2' is not USED/GROUP (1 <= USED <= GROUP)");
	refused("0-7:2/", -EINVAL, "the stride of '0-7:2/' is not USED/GROUP (1 <= USED <= GROUP)");
	refused("0-7:2/0", -EINVAL, "the stride of '0-7:2/0' is not USED/GROUP (1 <= USED <= GROUP)");
	/* a stride needs a range: on one CPU it is not the kernel's form */
	refused("3:1/2", -EINVAL, "'3:1/2' is not a CPU number or range");
	refused("0-7:2/4x", -EINVAL, "'0-7:2/4x' is not a CPU number or range");
}

static void test_limit(void **state)
{
	struct cdm_err err = { "" };
	unsigned short few[4];
	unsigned int n = 0;

	(void)state;
	assert_int_equal(cdm_cpulist_parse("0-3", 4, few, &n, &err), 0);
	assert_int_equal(n, 4);
	assert_int_equal(cdm_cpulist_parse("4", 4, few, &n, &err), -ERANGE);
	assert_string_equal(err.msg, "CPU 4 is past the highest CPU cdm can use, 3");
}

static void test_format_cut(void **state)
{
	unsigned short odd[512];
	char out[16];

	(void)state;
	assert_int_equal(cdm_cpulist_format(cpus, 0, out, sizeof(out)), 0);
	assert_string_equal(out, "");
	for (unsigned int i = 0; i < 512; i++)
		odd[i] = (unsigned short)(2 * i + 1);
	/* "1,3,5,7,9,11" and ",..." is 16 with the NUL: one item less */
	assert_int_equal(cdm_cpulist_format(odd, 512, out, sizeof(out)), -ENOSPC);
	assert_string_equal(out, "1,3,5,7,9,...");
	/* exactly full: no cut */
	assert_int_equal(cdm_cpulist_format(odd, 4, out, 8), 0);
	assert_string_equal(out, "1,3,5,7");
	assert_int_equal(cdm_cpulist_format(odd, 5, out, 8), -ENOSPC);
	assert_string_equal(out, "1,3,...");
	/* not even the first item fits */
	odd[0] = 1000;
	odd[1] = 1001;
	assert_int_equal(cdm_cpulist_format(odd, 2, out, 5), -ENOSPC);
	assert_string_equal(out, "...");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_limit),
		cmocka_unit_test(test_format_cut),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
