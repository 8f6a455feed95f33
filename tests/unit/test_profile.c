/* SPDX-License-Identifier: MIT */
/*
 * test_profile.c - unit tests for src/plan/profile.c, src/model/spec.c and
 * src/base/size.c: test specs, labels, sizes,
 * whole numbers, profile text (every error message, exactly), files, and
 * the built-in profiles compiled in from profiles/.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cdm/base/uint.h"
#include "cdm/base/size.h"
#include "cdm/base/err.h"
#include "cdm/plan/profile.h"

/* the table generated into build/profiles.c, to check it against the list */
struct cdm_builtin_profile { const char *name; const char *text; };
extern const struct cdm_builtin_profile cdm_builtin_profiles[];

#define KiB 1024ull
#define MiB (1024ull * 1024)
#define GiB (1024ull * 1024 * 1024)

/* ---- test specs ---------------------------------------------------- */

struct spec_case {
	const char *text;
	enum cdm_pattern pattern;
	uint64_t block;
	unsigned int qd, threads;
};

static void test_spec_accepts(void **state)
{
	static const struct spec_case cases[] = {
		{ "SEQ1M Q8T1", CDM_SEQ, MiB, 8, 1 },
		{ "SEQ1M Q1T1", CDM_SEQ, MiB, 1, 1 },
		{ "RND4K Q32T1", CDM_RND, 4 * KiB, 32, 1 },
		{ "RND4K Q32T16", CDM_RND, 4 * KiB, 32, 16 },
		{ "SEQ128K Q32T1", CDM_SEQ, 128 * KiB, 32, 1 },
		/* spaces optional, and allowed between any parts */
		{ "RND4KQ32T16", CDM_RND, 4 * KiB, 32, 16 },
		{ "RND 4K Q32 T16", CDM_RND, 4 * KiB, 32, 16 },
		{ "  RND 4 K  Q 32  T 16  ", CDM_RND, 4 * KiB, 32, 16 },
		{ "SEQ\t1M\tQ8T1", CDM_SEQ, MiB, 8, 1 },
		/* case-insensitive */
		{ "rnd4kq32t16", CDM_RND, 4 * KiB, 32, 16 },
		{ "Seq1m q8t1", CDM_SEQ, MiB, 8, 1 },
		/* Q and T default to 1 */
		{ "SEQ1M", CDM_SEQ, MiB, 1, 1 },
		{ "SEQ1M Q8", CDM_SEQ, MiB, 8, 1 },
		{ "RND4K T4", CDM_RND, 4 * KiB, 1, 4 },
		/* block units and limits */
		{ "RND512B", CDM_RND, 512, 1, 1 },
		{ "RND512b Q1T1", CDM_RND, 512, 1, 1 },
		{ "RND1024B", CDM_RND, KiB, 1, 1 },
		{ "RND1536K Q1T1", CDM_RND, 1536 * KiB, 1, 1 },
		{ "SEQ64M", CDM_SEQ, 64 * MiB, 1, 1 },
		/* the size grammar (base/size.h): KiB/MiB in any case */
		{ "RND4kib Q32T1", CDM_RND, 4 * KiB, 32, 1 },
		{ "SEQ1MIB Q8T1", CDM_SEQ, MiB, 8, 1 },
		{ "SEQ 1 MiB Q8T1", CDM_SEQ, MiB, 8, 1 },
		{ "RND512 b", CDM_RND, 512, 1, 1 },
		{ "SEQ65536K", CDM_SEQ, 64 * MiB, 1, 1 },
		/* CDM's label spelling reads back */
		{ "RND 4KiB Q1T1", CDM_RND, 4 * KiB, 1, 1 },
		{ "SEQ    1MiB", CDM_SEQ, MiB, 1, 1 },
		/* the limits themselves */
		{ "RND4K Q1024T256", CDM_RND, 4 * KiB, 1024, 256 },
		{ "RND4K Q0001T01", CDM_RND, 4 * KiB, 1, 1 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cdm_spec s;
		struct cdm_err err = { "" };

		if (cdm_spec_parse(cases[i].text, &s, &err))
			fail_msg("'%s' rejected: %s", cases[i].text, err.msg);
		assert_int_equal(s.pattern, cases[i].pattern);
		assert_int_equal(s.block, cases[i].block);
		assert_int_equal(s.qd, cases[i].qd);
		assert_int_equal(s.threads, cases[i].threads);
		/* no W: not a mixed test */
		assert_int_equal(s.write_pct, 0);
	}
}

struct wspec_case {
	const char *text;
	uint64_t block;
	unsigned int qd, threads, write_pct;
};

/* ORION-style write percentages: W after Q and T, each part optional */
static void test_spec_write_pct(void **state)
{
	static const struct wspec_case cases[] = {
		{ "RND8K Q4T8 W20", 8 * KiB, 4, 8, 20 },
		{ "RND8KQ4T8W20", 8 * KiB, 4, 8, 20 },
		{ "rnd8k q4 t8 w 20", 8 * KiB, 4, 8, 20 },
		{ "RND8K W20", 8 * KiB, 1, 1, 20 },
		{ "RND8K Q4 W1", 8 * KiB, 4, 1, 1 },
		{ "SEQ1M T2 W99", MiB, 1, 2, 99 },
		{ "RND512B Q1024T256 W50", 512, 1024, 256, 50 },
		{ "RND8K W020", 8 * KiB, 1, 1, 20 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cdm_spec s, back;
		struct cdm_err err = { "" };
		char name[64];

		if (cdm_spec_parse(cases[i].text, &s, &err))
			fail_msg("'%s' rejected: %s", cases[i].text, err.msg);
		assert_int_equal(s.block, cases[i].block);
		assert_int_equal(s.qd, cases[i].qd);
		assert_int_equal(s.threads, cases[i].threads);
		assert_int_equal(s.write_pct, cases[i].write_pct);
		/* the name keeps W and reads back to the same spec */
		cdm_spec_name(&s, name, sizeof(name));
		assert_non_null(strstr(name, " W"));
		assert_int_equal(cdm_spec_parse(name, &back, &err), 0);
		assert_int_equal(back.pattern, s.pattern);
		assert_int_equal(back.block, s.block);
		assert_int_equal(back.qd, s.qd);
		assert_int_equal(back.threads, s.threads);
		assert_int_equal(back.write_pct, s.write_pct);
	}
}

struct reject_case {
	const char *text;
	const char *err;
};

static void test_spec_rejects(void **state)
{
	static const struct reject_case cases[] = {
		{ "", "bad test spec '': empty" },
		{ "   ", "bad test spec '   ': empty" },
		{ "FOO1M", "bad test spec 'FOO1M': pattern must be SEQ or RND" },
		{ "SE1M", "bad test spec 'SE1M': pattern must be SEQ or RND" },
		{ "1M", "bad test spec '1M': pattern must be SEQ or RND" },
		{ "SEQ", "bad test spec 'SEQ': missing block size (e.g. 4K, 1M)" },
		{ "SEQQ8T1", "bad test spec 'SEQQ8T1': missing block size (e.g. 4K, 1M)" },
		{ "SEQ-1M", "bad test spec 'SEQ-1M': block size is negative" },
		{ "SEQ1.5M", "bad test spec 'SEQ1.5M': block size must be a whole number of B, K or M" },
		{ "SEQ4096", "bad test spec 'SEQ4096': block size needs a unit (B, K or M)" },
		{ "SEQ1G", "bad test spec 'SEQ1G': block size is above the 64M maximum" },
		{ "SEQ4G", "bad test spec 'SEQ4G': block size is above the 64M maximum" },
		{ "SEQ4", "bad test spec 'SEQ4': block size needs a unit (B, K or M)" },
		{ "SEQ4X", "bad test spec 'SEQ4X': block size needs a unit (B, K or M)" },
		{ "SEQ1T4", "bad test spec 'SEQ1T4': block size needs a unit (B, K or M)" },
		{ "SEQ0K", "bad test spec 'SEQ0K': block size is zero" },
		{ "RND0B Q1T1", "bad test spec 'RND0B Q1T1': block size is zero" },
		{ "RND256B", "bad test spec 'RND256B': block size is below the 512B minimum" },
		{ "RND1000B", "bad test spec 'RND1000B': block size must be a multiple of 512B" },
		{ "SEQ65M", "bad test spec 'SEQ65M': block size is above the 64M maximum" },
		{ "SEQ65537K", "bad test spec 'SEQ65537K': block size is above the 64M maximum" },
		{ "SEQ99999999999999999999999M", "bad test spec 'SEQ99999999999999999999999M': block size is above the 64M maximum" },
		{ "RND4K Q0T1", "bad test spec 'RND4K Q0T1': queue depth is zero (Q1..Q1024)" },
		{ "RND4K Q1025", "bad test spec 'RND4K Q1025': queue depth is above the maximum 1024 (Q1..Q1024)" },
		{ "RND4K QT1", "bad test spec 'RND4K QT1': queue depth after Q is missing (Q1..Q1024)" },
		{ "RND4K Q99999999999999999999999", "bad test spec 'RND4K Q99999999999999999999999': queue depth is above the maximum 1024 (Q1..Q1024)" },
		{ "RND4K Q1T0", "bad test spec 'RND4K Q1T0': thread count is zero (T1..T256)" },
		{ "RND4K T257", "bad test spec 'RND4K T257': thread count is above the maximum 256 (T1..T256)" },
		{ "RND4K Q1T", "bad test spec 'RND4K Q1T': thread count after T is missing (T1..T256)" },
		/* the size grammar: KB is 1000 bytes, not a whole sector */
		{ "RND4KB", "bad test spec 'RND4KB': block size must be a multiple of 512B" },
		{ "SEQ1MB Q8T1", "bad test spec 'SEQ1MB Q8T1': block size must be a multiple of 512B" },
		{ "RND4Ki", "bad test spec 'RND4Ki': unexpected 'i'" },
		{ "RND4K T4Q8", "bad test spec 'RND4K T4Q8': Q must come before T" },
		{ "RND4K Q8T1x", "bad test spec 'RND4K Q8T1x': unexpected 'x'" },
		{ "RND4K Q8T1 Q8", "bad test spec 'RND4K Q8T1 Q8': unexpected 'Q8'" },
		{ "RND4K Q8 Q8", "bad test spec 'RND4K Q8 Q8': unexpected 'Q8'" },
		/* the write percentage: 1..99, after Q and T, once */
		{ "RND8K Q4T8 W0", "bad test spec 'RND8K Q4T8 W0': write percentage must be W1..W99 (W0 and W100 are the plain read and write tests)" },
		{ "RND8K Q4T8 W100", "bad test spec 'RND8K Q4T8 W100': write percentage must be W1..W99 (W0 and W100 are the plain read and write tests)" },
		{ "RND8K W", "bad test spec 'RND8K W': write percentage after W is missing (W1..W99)" },
		{ "RND8K W999999999999999999999", "bad test spec 'RND8K W999999999999999999999': write percentage is above the maximum 99 (W1..W99)" },
		{ "RND8K W20 Q4", "bad test spec 'RND8K W20 Q4': W must come after Q and T" },
		{ "RND8K Q4 W20 T8", "bad test spec 'RND8K Q4 W20 T8': W must come after Q and T" },
		{ "RND8K W20 W20", "bad test spec 'RND8K W20 W20': unexpected 'W20'" },
		{ "RND8K W20%", "bad test spec 'RND8K W20%': unexpected '%'" },
		{ "RND8K W-5", "bad test spec 'RND8K W-5': write percentage is negative (W1..W99)" },
		{ "RND4K Q-1", "bad test spec 'RND4K Q-1': queue depth is negative (Q1..Q1024)" },
		{ "RND4K T-2", "bad test spec 'RND4K T-2': thread count is negative (T1..T256)" },
		{ "RND4K Q", "bad test spec 'RND4K Q': queue depth after Q is missing (Q1..Q1024)" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cdm_spec s = { .qd = 77 };
		struct cdm_err err = { "" };

		assert_int_equal(cdm_spec_parse(cases[i].text, &s, &err),
				 -EINVAL);
		assert_string_equal(err.msg, cases[i].err);
		/* a failed parse leaves the output alone */
		assert_int_equal(s.qd, 77);
	}
}

static void test_spec_err_buffer(void **state)
{
	struct cdm_spec s;
	struct cdm_err err;
	char longspec[CDM_ERR_MAX * 2];

	(void)state;
	/* no message slot at all: the code alone */
	assert_int_equal(cdm_spec_parse("FOO", &s, NULL), -EINVAL);
	/* a message longer than the slot: cut, still terminated */
	memset(longspec, 'x', sizeof(longspec) - 1);
	longspec[sizeof(longspec) - 1] = '\0';
	assert_int_equal(cdm_spec_parse(longspec, &s, &err), -EINVAL);
	assert_int_equal(strlen(err.msg), CDM_ERR_MAX - 1);
	assert_memory_equal(err.msg, "bad test spec 'xxx", 18);
	/* a prefix (the profile's FILE:LINE) goes in front, the end is cut */
	assert_int_equal(cdm_spec_parse("FOO", &s, &err), -EINVAL);
	assert_int_equal(cdm_err_prefix(&err, -EINVAL, "p.cdm:3"), -EINVAL);
	assert_string_equal(err.msg, "p.cdm:3: bad test spec 'FOO': pattern must be SEQ or RND");
	assert_int_equal(cdm_err_prefix(NULL, -EIO, "x"), -EIO);
}

struct label_case {
	enum cdm_pattern pattern;
	uint64_t block;
	unsigned int qd, threads;
	const char *label, *name;
};

static void test_spec_label_name(void **state)
{
	static const struct label_case cases[] = {
		{ CDM_SEQ, MiB, 8, 1, "SEQ    1MiB", "SEQ1M Q8T1" },
		{ CDM_SEQ, MiB, 1, 1, "SEQ    1MiB", "SEQ1M Q1T1" },
		{ CDM_RND, 4 * KiB, 32, 1, "RND    4KiB", "RND4K Q32T1" },
		{ CDM_RND, 4 * KiB, 32, 16, "RND    4KiB", "RND4K Q32T16" },
		{ CDM_SEQ, 128 * KiB, 32, 1, "SEQ  128KiB", "SEQ128K Q32T1" },
		{ CDM_RND, 1536 * KiB, 1, 1, "RND 1536KiB", "RND1536K Q1T1" },
		{ CDM_SEQ, 1536 * KiB, 1, 1, "SEQ 1536KiB", "SEQ1536K Q1T1" },
		{ CDM_RND, 512, 1, 1, "RND    512B", "RND512B Q1T1" },
		{ CDM_RND, 1536, 4, 2, "RND   1536B", "RND1536B Q4T2" },
		{ CDM_SEQ, 64 * MiB, 1024, 256, "SEQ   64MiB", "SEQ64M Q1024T256" },
		{ CDM_SEQ, 1024 * KiB, 1, 1, "SEQ    1MiB", "SEQ1M Q1T1" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cdm_spec s = {
			.pattern = cases[i].pattern, .block = cases[i].block,
			.qd = cases[i].qd, .threads = cases[i].threads,
		};
		struct cdm_spec back;
		char buf[64];
		struct cdm_err err;

		assert_ptr_equal(cdm_spec_label(&s, buf, sizeof(buf)), buf);
		assert_string_equal(buf, cases[i].label);
		assert_ptr_equal(cdm_spec_name(&s, buf, sizeof(buf)), buf);
		assert_string_equal(buf, cases[i].name);
		/* the name parses back to the same spec */
		assert_int_equal(cdm_spec_parse(buf, &back, &err), 0);
		assert_int_equal(back.pattern, s.pattern);
		assert_int_equal(back.block, s.block);
		assert_int_equal(back.qd, s.qd);
		assert_int_equal(back.threads, s.threads);
		assert_int_equal(back.write_pct, 0);
		/* with a write percentage: the name says it, the label does not */
		s.write_pct = 20;
		cdm_spec_name(&s, buf, sizeof(buf));
		assert_int_equal(strlen(buf), strlen(cases[i].name) + 4);
		assert_string_equal(buf + strlen(cases[i].name), " W20");
		assert_int_equal(cdm_spec_parse(buf, &back, &err), 0);
		assert_int_equal(back.write_pct, 20);
		assert_int_equal(back.block, s.block);
		cdm_spec_label(&s, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].label);
	}
}

static void test_spec_label_short_buffer(void **state)
{
	struct cdm_spec s = { CDM_SEQ, MiB, 8, 1, 0 };
	char buf[6];

	(void)state;
	cdm_spec_label(&s, buf, sizeof(buf));
	assert_string_equal(buf, "SEQ  ");
	cdm_spec_name(&s, buf, sizeof(buf));
	assert_string_equal(buf, "SEQ1M");
}

/* ---- sizes --------------------------------------------------------- */

struct size_case {
	const char *text;
	uint64_t bytes;
};

static void test_size_accepts(void **state)
{
	static const struct size_case cases[] = {
		{ "1GiB", GiB },
		{ "512MiB", 512 * MiB },
		{ "64M", 64 * MiB },
		{ "16MiB", 16 * MiB },
		{ "1G", GiB },
		{ "1g", GiB },
		{ "4k", 4 * KiB },
		{ "4K", 4 * KiB },
		{ "4KiB", 4 * KiB },
		{ "2T", 2 * 1024 * GiB },
		{ "1TiB", 1024 * GiB },
		{ "1GB", 1000000000ull },
		{ "1gB", 1000000000ull },
		{ "1KB", 1000 },
		{ "5MB", 5000000 },
		{ "1TB", 1000000000000ull },
		{ "4096", 4096 },
		{ "4096B", 4096 },
		{ "1", 1 },
		{ "0064M", 64 * MiB },
		{ "1 GiB", GiB },
		{ "1000 B", 1000 },
		{ "16777215TiB", 16777215ull << 40 },
		{ "18446744073709551615", UINT64_MAX },
		{ "18446744073709551615B", UINT64_MAX },
		/* issue 12: one grammar, units in any case, blanks before them */
		{ "1Gb", 1000000000ull },
		{ "1gb", 1000000000ull },
		{ "1 GB", 1000000000ull },
		{ "1 gb", 1000000000ull },
		{ "1gib", GiB },
		{ "1GIB", GiB },
		{ "1\tGiB", GiB },
		{ "64  mib", 64 * MiB },
		{ "1b", 1 },
		{ "512 b", 512 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t b = 0;

		if (cdm_size_parse(cases[i].text, &b))
			fail_msg("size '%s' rejected", cases[i].text);
		assert_int_equal(b, cases[i].bytes);
	}
}

struct size_reject {
	const char *text;
	int ret;
};

static void test_size_rejects(void **state)
{
	static const struct size_reject cases[] = {
		{ "", -EINVAL },
		{ "0", -EINVAL },
		{ "0G", -EINVAL },
		{ "-1", -EINVAL },
		{ "+1G", -EINVAL },
		{ "1.5G", -EINVAL },
		{ "G", -EINVAL },
		{ "1X", -EINVAL },
		{ "1GiBx", -EINVAL },
		{ "1Gi", -EINVAL },
		{ "1iB", -EINVAL },
		{ "1 G B", -EINVAL },
		{ "1GBB", -EINVAL },
		{ "1e9", -EINVAL },
		{ "1GiB ", -EINVAL },
		{ "1 ", -EINVAL },
		{ " 1G", -EINVAL },
		{ "1 2", -EINVAL },
		{ "0x10", -EINVAL },
		{ "1P", -EINVAL },
		{ "18446744073709551616", -ERANGE },
		{ "99999999999999999999999G", -ERANGE },
		{ "16777216T", -ERANGE },
		{ "18446744073709551615K", -ERANGE },
		{ "18446744073709551616x", -EINVAL },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t b = 12345;

		if (cdm_size_parse(cases[i].text, &b) != cases[i].ret)
			fail_msg("size '%s' not rejected with %d", cases[i].text,
				 cases[i].ret);
		assert_int_equal(b, 12345);
	}
	assert_int_equal(cdm_size_parse(NULL, NULL), -EINVAL);
}

static void test_size_format(void **state)
{
	static const struct size_case cases[] = {
		{ "1 GiB", GiB },
		{ "64 MiB", 64 * MiB },
		{ "512 MiB", 512 * MiB },
		{ "1536 MiB", 1536 * MiB },
		{ "4 KiB", 4 * KiB },
		{ "1000 B", 1000 },
		{ "1 B", 1 },
		{ "0 B", 0 },
		{ "2 TiB", 2048 * GiB },
		{ "1048576 TiB", 1ull << 60 },
		{ "1000000000 B", 1000000000ull },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char buf[32];
		uint64_t back;

		assert_ptr_equal(cdm_size_format(cases[i].bytes, buf, sizeof(buf)), buf);
		assert_string_equal(buf, cases[i].text);
		/* what is printed reads back */
		if (cases[i].bytes) {
			assert_int_equal(cdm_size_parse(buf, &back), 0);
			assert_int_equal(back, cases[i].bytes);
		}
	}
}

/* a block size as CrystalDiskMark's rows spell it (cdm_size_scan_cdm()) */
static void test_size_cdm(void **state)
{
	static const struct size_case accepts[] = {
		{ "4KiB", 4 * KiB },
		{ "1MiB", MiB },
		{ "512KB", 512 * KiB },         /* CDM 3.x, 4.x: KB is KiB */
		{ "4KB", 4 * KiB },
		{ "512B", 512 },
		{ "  8MiB", 8 * MiB },          /* after blanks, and blanks before the unit */
		{ "128 KiB", 128 * KiB },
		{ "4\tKiB", 4 * KiB },
		{ "1048576KiB", 1ull << 30 },   /* CDM_SIZE_CDM_N_MAX */
	};
	/* the grammar of options, or a larger number: not CDM's */
	static const char *const refuses[] = {
		"4K", "4kib", "4KIB", "1M", "1MB", "1GiB", "1 GB", "4k", "4 kb", "KiB", "-4KiB",
		"1048577KiB", "99999999999999999999999KiB", "", "(Q=  8",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(accepts) / sizeof(accepts[0]); i++) {
		const char *p = accepts[i].text;
		uint64_t b = 0;

		if (cdm_size_scan_cdm(&p, &b) != 1)
			fail_msg("CDM block size '%s' rejected", accepts[i].text);
		assert_int_equal(b, accepts[i].bytes);
		assert_int_equal(*p, '\0');
	}
	for (i = 0; i < sizeof(refuses) / sizeof(refuses[0]); i++) {
		const char *p = refuses[i];
		uint64_t b = 12345;

		if (cdm_size_scan_cdm(&p, &b) != 0)
			fail_msg("CDM block size '%s' not refused", refuses[i]);
		assert_ptr_equal(p, refuses[i]);
		assert_int_equal(b, 12345);
	}
	/* in a row: *p is left after the unit */
	{
		const char *row = "RND    4KiB (Q= 32, T= 1):", *p = row + 3;
		uint64_t b;

		assert_int_equal(cdm_size_scan_cdm(&p, &b), 1);
		assert_int_equal(b, 4 * KiB);
		assert_string_equal(p, " (Q= 32, T= 1):");
	}
	assert_int_equal(CDM_KIB, 1024);
	assert_int_equal(CDM_MIB, 1024 * 1024);
	assert_int_equal(CDM_GIB, 1024 * 1024 * 1024);
}

/* the units of a footer's Test size, and of a row's block (cdm_size_cdm_unit()) */
static void test_size_cdm_unit(void **state)
{
	static const struct size_case test[] = {
		{ "TiB", CDM_TIB }, { "GiB", CDM_GIB }, { " MiB", CDM_MIB }, { "MB", CDM_MIB },
		{ "KiB", CDM_KIB }, { "B", 1 },
	};
	static const char *const not_test[] = { "KB", "GB", "gib", "", "PiB" };
	static const char *const not_block[] = { "TiB", "GiB", "MB" };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(test) / sizeof(test[0]); i++) {
		const char *p = test[i].text;
		uint64_t b = 0;

		assert_non_null(cdm_size_cdm_unit(&p, CDM_SIZE_CDM_TEST, &b));
		assert_int_equal(b, test[i].bytes);
		assert_int_equal(*p, '\0');
	}
	for (i = 0; i < sizeof(not_test) / sizeof(not_test[0]); i++) {
		const char *p = not_test[i];
		uint64_t b = 7;

		assert_null(cdm_size_cdm_unit(&p, CDM_SIZE_CDM_TEST, &b));
		assert_ptr_equal(p, not_test[i]);
		assert_int_equal(b, 7);
	}
	for (i = 0; i < sizeof(not_block) / sizeof(not_block[0]); i++) {
		const char *p = not_block[i];
		uint64_t b = 7;

		assert_null(cdm_size_cdm_unit(&p, CDM_SIZE_CDM_BLOCK, &b));
	}
	/* the unit as printed, for a message */
	{
		const char *p = "MB)";
		uint64_t b;

		assert_string_equal(cdm_size_cdm_unit(&p, CDM_SIZE_CDM_TEST, &b), "MB");
		assert_string_equal(p, ")");
	}
}

/* ---- whole numbers ------------------------------------------------- */

static void test_uint_parse(void **state)
{
	unsigned long v = 0;

	(void)state;
	assert_int_equal(cdm_uint_parse("5", 1, 100, &v), 0);
	assert_int_equal(v, 5);
	assert_int_equal(cdm_uint_parse("1", 1, 100, &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(cdm_uint_parse("100", 1, 100, &v), 0);
	assert_int_equal(v, 100);
	assert_int_equal(cdm_uint_parse("0", 0, 3600, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(cdm_uint_parse("007", 0, 10, &v), 0);
	assert_int_equal(v, 7);
	assert_int_equal(cdm_uint_parse("18446744073709551615", 0, ULONG_MAX, &v), 0);
	assert_int_equal(v, ULONG_MAX);

	v = 42;
	assert_int_equal(cdm_uint_parse("0", 1, 100, &v), -ERANGE);
	assert_int_equal(cdm_uint_parse("101", 1, 100, &v), -ERANGE);
	assert_int_equal(cdm_uint_parse("18446744073709551616", 0, ULONG_MAX, &v), -ERANGE);
	assert_int_equal(cdm_uint_parse("99999999999999999999999", 1, 100, &v), -ERANGE);
	assert_int_equal(cdm_uint_parse("", 1, 100, &v), -EINVAL);
	assert_int_equal(cdm_uint_parse(NULL, 1, 100, &v), -EINVAL);
	assert_int_equal(cdm_uint_parse("-1", 0, 100, &v), -EINVAL);
	assert_int_equal(cdm_uint_parse("+1", 0, 100, &v), -EINVAL);
	assert_int_equal(cdm_uint_parse(" 1", 0, 100, &v), -EINVAL);
	assert_int_equal(cdm_uint_parse("1 ", 0, 100, &v), -EINVAL);
	assert_int_equal(cdm_uint_parse("1x", 0, 100, &v), -EINVAL);
	assert_int_equal(cdm_uint_parse("1.0", 0, 100, &v), -EINVAL);
	assert_int_equal(cdm_uint_parse("0x10", 0, 100, &v), -EINVAL);
	assert_int_equal(cdm_uint_parse("99999999999999999999999x", 0, 100, &v), -EINVAL);
	assert_int_equal(v, 42);
}

/* ---- profile text -------------------------------------------------- */

static void test_profile_parse_full(void **state)
{
	static const char text[] =
		"# a custom profile\n"
		"\n"
		"name     = My SSD, quick   # trailing comment\n"
		"  size=512MiB\n"
		"count\t=\t3\n"
		"time = 2\n"
		"interval = 0\n"
		"warmup = 1\n"
		"mix = 70\n"
		"mode = read\n"
		"   # indented comment\n"
		"test = SEQ1M Q8T1\n"
		"test = rnd4kq32t16";   /* no newline at the end */
	struct cdm_profile p;
	struct cdm_err err = { "" };

	(void)state;
	assert_int_equal(cdm_profile_parse(text, "my.cdm", &p, &err), 0);
	assert_string_equal(err.msg, "");
	assert_string_equal(p.name, "My SSD, quick");
	assert_int_equal(p.size, 512 * MiB);
	assert_int_equal(p.count, 3);
	assert_int_equal(p.time_ms, 2000);
	assert_int_equal(p.interval_ms, 0);
	assert_int_equal(p.warmup_ms, 1000);
	assert_int_equal(p.mix, 70);
	assert_string_equal(p.mode, "read");
	assert_int_equal(p.ntests, 2);
	assert_int_equal(p.tests[0].pattern, CDM_SEQ);
	assert_int_equal(p.tests[0].block, MiB);
	assert_int_equal(p.tests[0].qd, 8);
	assert_int_equal(p.tests[1].pattern, CDM_RND);
	assert_int_equal(p.tests[1].qd, 32);
	assert_int_equal(p.tests[1].threads, 16);
}

static void test_profile_parse_unset(void **state)
{
	struct cdm_profile p;
	struct cdm_err err;

	(void)state;
	/* only tests: every other field keeps its "not set" value */
	assert_int_equal(cdm_profile_parse("test = SEQ1M\n", "t.cdm", &p, &err), 0);
	assert_string_equal(p.name, "");
	assert_int_equal(p.size, 0);
	assert_int_equal(p.count, 0);
	assert_int_equal(p.time_ms, -1);
	assert_int_equal(p.interval_ms, -1);
	assert_int_equal(p.warmup_ms, -1);
	assert_int_equal(p.mix, 0);
	assert_string_equal(p.mode, "");
	assert_int_equal(p.ntests, 1);
}

static void test_profile_parse_crlf(void **state)
{
	static const char text[] =
		"\xef\xbb\xbf# saved on Windows\r\n"
		"name = Win\r\n"
		"\r\n"
		"count = 9\r\n"
		"test = SEQ1M Q8T1  # comment\r\n"
		"test = RND4K Q1T1\r\n";
	struct cdm_profile p;
	struct cdm_err err = { "" };

	(void)state;
	assert_int_equal(cdm_profile_parse(text, "win.cdm", &p, &err), 0);
	assert_string_equal(p.name, "Win");
	assert_int_equal(p.count, 9);
	assert_int_equal(p.ntests, 2);
	assert_int_equal(p.tests[1].block, 4 * KiB);
}

static void test_profile_parse_limits(void **state)
{
	struct cdm_profile p;
	struct cdm_err err;

	(void)state;
	assert_int_equal(cdm_profile_parse(
		"size = 512\ncount = 100\ntime = 3600\ninterval = 3600\n"
		"warmup = 0\ntest = SEQ512B\n", "t", &p, &err), 0);
	assert_int_equal(p.size, 512);
	assert_int_equal(p.count, 100);
	assert_int_equal(p.time_ms, 3600000);
	assert_int_equal(p.interval_ms, 3600000);
	assert_int_equal(p.warmup_ms, 0);
	/* the shortest of each, and fractions in every form */
	assert_int_equal(cdm_profile_parse("time = 0.1\ninterval = 0\nwarmup = 100ms\ntest = SEQ1M\n",
					   "t", &p, &err), 0);
	assert_int_equal(p.time_ms, 100);
	assert_int_equal(p.interval_ms, 0);
	assert_int_equal(p.warmup_ms, 100);
	assert_int_equal(cdm_profile_parse("time = 1.5s\ninterval = 0.05\nwarmup = 0.25\ntest = SEQ1M\n",
					   "t", &p, &err), 0);
	assert_int_equal(p.time_ms, 1500);
	assert_int_equal(p.interval_ms, 50);
	assert_int_equal(p.warmup_ms, 250);
	assert_int_equal(cdm_profile_parse(
		"name = 123456789012345678901234567890123456789012345678901234567890123\n"
		"test = SEQ1M\n", "t", &p, &err), 0);
	assert_int_equal(strlen(p.name), CDM_NAME_MAX - 1);
}

static void test_profile_parse_errors(void **state)
{
	static const struct reject_case cases[] = {
		{ "name = x\nsize = 1GiB\n\nszie = 1GiB\ntest = SEQ1M\n",
		  "peak.cdm:4: unknown key 'szie'" },
		{ "Size = 1GiB\n", "peak.cdm:1: unknown key 'Size'" },
		{ "test SEQ1M Q8T1\n", "peak.cdm:1: missing '='" },
		{ "# only a comment = here\nname\n", "peak.cdm:2: missing '='" },
		{ "name # = x\n", "peak.cdm:1: missing '='" },
		{ " = 5\n", "peak.cdm:1: missing key before '='" },
		{ "size = 1GiB\nsize = 2GiB\n", "peak.cdm:2: duplicate key 'size'" },
		{ "name = a\nname = a\n", "peak.cdm:2: duplicate key 'name'" },
		{ "count = 0\n", "peak.cdm:1: bad value for count: '0' (1..100)" },
		{ "count = 101\n", "peak.cdm:1: bad value for count: '101' (1..100)" },
		{ "count = five\n", "peak.cdm:1: bad value for count: 'five' (1..100)" },
		{ "count = 5 s\n", "peak.cdm:1: bad value for count: '5 s' (1..100)" },
		{ "count =\n", "peak.cdm:1: bad value for count: '' (1..100)" },
		{ "time = 0\n", "peak.cdm:1: bad value for time: '0' (0.1-3600 s, such as 0.5, 2, 1500ms)" },
		{ "time = 3601\n", "peak.cdm:1: bad value for time: '3601' (0.1-3600 s, such as 0.5, 2, 1500ms)" },
		{ "time = 0.05\n", "peak.cdm:1: bad value for time: '0.05' (0.1-3600 s, such as 0.5, 2, 1500ms)" },
		{ "time = 99ms\n", "peak.cdm:1: bad value for time: '99ms' (0.1-3600 s, such as 0.5, 2, 1500ms)" },
		{ "time = 1.2345\n", "peak.cdm:1: bad value for time: '1.2345' (0.1-3600 s, such as 0.5, 2, 1500ms)" },
		{ "time = 1 s\n", "peak.cdm:1: bad value for time: '1 s' (0.1-3600 s, such as 0.5, 2, 1500ms)" },
		{ "time = 3600.001\n", "peak.cdm:1: bad value for time: '3600.001' (0.1-3600 s, such as 0.5, 2, 1500ms)" },
		{ "interval = -1\n", "peak.cdm:1: bad value for interval: '-1' (0-3600 s, such as 0.5, 2, 1500ms)" },
		{ "interval = abc\n", "peak.cdm:1: bad value for interval: 'abc' (0-3600 s, such as 0.5, 2, 1500ms)" },
		{ "warmup = 3601\n", "peak.cdm:1: bad value for warmup: '3601' (0 = none, or 0.1-3600 s, such as 0.5, 2, 1500ms)" },
		{ "warmup = 0.05\n", "peak.cdm:1: bad value for warmup: '0.05' (0 = none, or 0.1-3600 s, such as 0.5, 2, 1500ms)" },
		{ "warmup =\n", "peak.cdm:1: bad value for warmup: '' (0 = none, or 0.1-3600 s, such as 0.5, 2, 1500ms)" },
		{ "size = 1.5G\n", "peak.cdm:1: bad value for size: '1.5G' (512B or more, e.g. 1GiB)" },
		{ "size = 511\n", "peak.cdm:1: bad value for size: '511' (512B or more, e.g. 1GiB)" },
		{ "size = 0\n", "peak.cdm:1: bad value for size: '0' (512B or more, e.g. 1GiB)" },
		{ "size = 99999999999999999999G\n",
		  "peak.cdm:1: bad value for size: '99999999999999999999G' (512B or more, e.g. 1GiB)" },
		{ "name =\n", "peak.cdm:1: bad value for name: '' (1..63 printable characters)" },
		{ "name = 1234567890123456789012345678901234567890123456789012345678901234\n",
		  "peak.cdm:1: bad value for name: '1234567890123456789012345678901234567890123456789012345678901234' (1..63 printable characters)" },
		{ "name = a\x01z\n", "peak.cdm:1: bad value for name: 'a\x01z' (1..63 printable characters)" },
		{ "test = SEQ1M Q8T1\ntest = RND4K Q0T1\n",
		  "peak.cdm:2: bad test spec 'RND4K Q0T1': queue depth is zero (Q1..Q1024)" },
		{ "test = FOO1M\n", "peak.cdm:1: bad test spec 'FOO1M': pattern must be SEQ or RND" },
		{ "mix = 0\n", "peak.cdm:1: bad value for mix: '0' (read percent, 1..99)" },
		{ "mix = 100\n", "peak.cdm:1: bad value for mix: '100' (read percent, 1..99)" },
		{ "mix = 70%\n", "peak.cdm:1: bad value for mix: '70%' (read percent, 1..99)" },
		{ "mix = 70\nmix = 60\n", "peak.cdm:2: duplicate key 'mix'" },
		{ "mode = reads\n", "peak.cdm:1: bad value for mode: 'reads' (all, read, write, mix)" },
		{ "mode = Read\n", "peak.cdm:1: bad value for mode: 'Read' (all, read, write, mix)" },
		{ "mode =\n", "peak.cdm:1: bad value for mode: '' (all, read, write, mix)" },
		{ "mode = read\nmode = write\n", "peak.cdm:2: duplicate key 'mode'" },
		{ "test = RND8K Q4T8 W120\n", "peak.cdm:1: bad test spec 'RND8K Q4T8 W120': write percentage is above the maximum 99 (W1..W99)" },
		{ "test =\n", "peak.cdm:1: bad test spec '': empty" },
		{ "", "peak.cdm: no tests" },
		{ "\n\n# nothing\n", "peak.cdm: no tests" },
		{ "name = Peak\nsize = 1GiB\n", "peak.cdm: no tests" },
		/* CRLF does not change line numbers */
		{ "name = a\r\n\r\nszie = 1\r\n", "peak.cdm:3: unknown key 'szie'" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cdm_profile p = { .count = 77 };
		struct cdm_err err = { "" };

		assert_int_equal(cdm_profile_parse(cases[i].text, "peak.cdm", &p,
						   &err), -EINVAL);
		assert_string_equal(err.msg, cases[i].err);
		/* a failed parse leaves the profile alone */
		assert_int_equal(p.count, 77);
	}
}

static void test_profile_parse_long_lines(void **state)
{
	char text[1024];
	struct cdm_err err;
	struct cdm_profile p;

	(void)state;
	/* a value longer than any real one */
	snprintf(text, sizeof(text), "name = %0300d\n", 0);
	assert_int_equal(cdm_profile_parse(text, "f", &p, &err), -EINVAL);
	assert_string_equal(err.msg, "f:1: value for name too long (at most 255 characters)");
	/* an unknown key is quoted, but not without end */
	memset(text, 'k', 100);
	strcpy(text + 100, " = 1\n");
	assert_int_equal(cdm_profile_parse(text, "f", &p, &err), -EINVAL);
	assert_string_equal(err.msg, "f:1: unknown key 'kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk...'");
}

static void test_profile_too_many_tests(void **state)
{
	char text[4096];
	struct cdm_err err;
	struct cdm_profile p;
	size_t off = 0;
	int i;

	(void)state;
	for (i = 0; i < CDM_MAX_TESTS; i++)
		off += (size_t)snprintf(text + off, sizeof(text) - off,
					"test = RND4K Q%dT1\n", i + 1);
	assert_int_equal(cdm_profile_parse(text, "many.cdm", &p, &err), 0);
	assert_int_equal(p.ntests, CDM_MAX_TESTS);
	assert_int_equal(p.tests[CDM_MAX_TESTS - 1].qd, CDM_MAX_TESTS);

	snprintf(text + off, sizeof(text) - off, "test = SEQ1M\n");
	assert_int_equal(cdm_profile_parse(text, "many.cdm", &p, &err), -EINVAL);
	assert_string_equal(err.msg, "many.cdm:33: too many tests (at most 32)");
}

/*
 * cdm_profile_seconds(): each setting's range at its edges, in every form
 * of the grammar, and the one-line message naming the option as given
 */
static void test_profile_seconds(void **state)
{
	static const struct {
		enum cdm_profile_time which;
		const char *text;
		int ms;                 /* -1: refused */
	} cases[] = {
		{ CDM_PROFILE_TIME, "0.1", 100 },
		{ CDM_PROFILE_TIME, "100ms", 100 },
		{ CDM_PROFILE_TIME, "0.5", 500 },
		{ CDM_PROFILE_TIME, "1.5s", 1500 },
		{ CDM_PROFILE_TIME, "3600", 3600000 },
		{ CDM_PROFILE_TIME, "3600000ms", 3600000 },
		{ CDM_PROFILE_TIME, "0", -1 },
		{ CDM_PROFILE_TIME, "0.099", -1 },
		{ CDM_PROFILE_TIME, "99ms", -1 },
		{ CDM_PROFILE_TIME, "3600.001", -1 },
		{ CDM_PROFILE_TIME, "3601", -1 },
		{ CDM_PROFILE_WARMUP, "0", 0 },
		{ CDM_PROFILE_WARMUP, "0ms", 0 },
		{ CDM_PROFILE_WARMUP, "0.1", 100 },
		{ CDM_PROFILE_WARMUP, "0.05", -1 },
		{ CDM_PROFILE_WARMUP, "1ms", -1 },
		{ CDM_PROFILE_WARMUP, "3600", 3600000 },
		{ CDM_PROFILE_WARMUP, "3601", -1 },
		{ CDM_PROFILE_INTERVAL, "0", 0 },
		{ CDM_PROFILE_INTERVAL, "1ms", 1 },
		{ CDM_PROFILE_INTERVAL, "0.05", 50 },
		{ CDM_PROFILE_INTERVAL, "3600", 3600000 },
		{ CDM_PROFILE_INTERVAL, "3601", -1 },
		{ CDM_PROFILE_INTERVAL, "-1", -1 },
	};
	struct cdm_err err = { "" };
	unsigned int ms;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int r = cdm_profile_seconds(cases[i].which, "x", cases[i].text, &ms, &err);

		if (cases[i].ms >= 0 && (r != 0 || ms != (unsigned int)cases[i].ms))
			fail_msg("'%s': %d, %u ms, want %d ms", cases[i].text, r, ms, cases[i].ms);
		if (cases[i].ms < 0 && r >= 0)
			fail_msg("'%s' taken as %u ms", cases[i].text, ms);
	}
	assert_int_equal(cdm_profile_seconds(CDM_PROFILE_TIME, "--time", "0.05", &ms, &err), -ERANGE);
	assert_string_equal(err.msg, "bad value for --time: '0.05' (0.1-3600 s, such as 0.5, 2, 1500ms)");
	assert_int_equal(cdm_profile_seconds(CDM_PROFILE_TIME, "--time", "abc", &ms, &err), -EINVAL);
	assert_string_equal(err.msg, "bad value for --time: 'abc' (0.1-3600 s, such as 0.5, 2, 1500ms)");
	assert_int_equal(cdm_profile_seconds(CDM_PROFILE_INTERVAL, "--interval", "1.2345", &ms, &err),
			 -EINVAL);
	assert_string_equal(err.msg, "bad value for --interval: '1.2345' (0-3600 s, such as 0.5, 2, 1500ms)");
	assert_int_equal(cdm_profile_seconds(CDM_PROFILE_WARMUP, "--warmup", "-1", &ms, &err), -EINVAL);
	assert_string_equal(err.msg, "bad value for --warmup: '-1' (0 = none, or 0.1-3600 s, such as 0.5, 2, 1500ms)");
}

/* ---- built-in profiles --------------------------------------------- */

struct builtin_case {
	const char *name;
	const char *title;              /* the Profile: line */
	const char *about;              /* the file's head line */
	unsigned int count;
	int time, interval, warmup;     /* seconds; -1: not set */
	const char *mode;               /* "" = not set */
	unsigned int ntests;
	const char *tests[16];
};

/* a case's seconds as the profile's ms; -1 stays "not set" */
static int ms_of(int s)
{
	return s < 0 ? -1 : s * 1000;
}

/* CDM's own settings: 1 GiB, 5 passes of 5 s, 5 s apart (docs/profiles.md) */
#define CDM5 5, 5, 5, -1, ""

static void test_builtin_profiles(void **state)
{
	static const struct builtin_case cases[] = {
		{ "default", "Default", "CrystalDiskMark 8 \"Default\" profile", CDM5, 4,
		  { "SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1" } },
		{ "peak", "Peak", "CrystalDiskMark 8 \"Peak Performance\" profile", CDM5, 2,
		  { "SEQ1M Q8T1", "RND4K Q32T1" } },
		{ "real", "Real", "CrystalDiskMark 8 \"Real World Performance\" profile", CDM5, 2,
		  { "SEQ1M Q1T1", "RND4K Q1T1" } },
		{ "demo", "Demo", "CrystalDiskMark 8 \"Demo\" profile", CDM5, 1, { "SEQ1M Q8T1" } },
		/* CDM prints "Profile: Default" for the NVMe SSD preset too */
		{ "nvme", "Default",
		  "CrystalDiskMark 8 \"Default\" profile with the \"NVMe SSD\" preset", CDM5, 4,
		  { "SEQ1M Q8T1", "SEQ128K Q32T1", "RND4K Q32T16", "RND4K Q1T1" } },
		/* CDM 9's Flash Memory preset: Default's tests, Measure 1 s, Interval 30 s */
		{ "flash", "Default", "CrystalDiskMark 9 \"Flash Memory\" preset",
		  5, 1, 30, -1, "", 4,
		  { "SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1" } },
		/* CDM 7: the deep random test runs 16 threads */
		{ "cdm7", "Default", "CrystalDiskMark 7 \"Default\" profile", CDM5, 4,
		  { "SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T16", "RND4K Q1T1" } },
		{ "cdm7-peak", "Peak", "CrystalDiskMark 7 \"Peak Performance\" profile", CDM5, 2,
		  { "SEQ1M Q8T1", "RND4K Q32T16" } },
		{ "cdm6", "CDM 6", "CrystalDiskMark 6 test set", CDM5, 4,
		  { "SEQ128K Q32T1", "RND4K Q8T8", "RND4K Q32T1", "RND4K Q1T1" } },
		/* one 30 s pass from the first I/O, 8 outstanding, 1 to 8 threads */
		{ "sqlio", "SQLIO", "Microsoft SQLIO thread sweep", 1, 30, 5, 0, "", 16,
		  { "RND8K Q8T1", "RND8K Q8T2", "RND8K Q8T4", "RND8K Q8T8",
		    "SEQ8K Q8T1", "SEQ8K Q8T2", "SEQ8K Q8T4", "SEQ8K Q8T8",
		    "RND64K Q8T1", "RND64K Q8T2", "RND64K Q8T4", "RND64K Q8T8",
		    "SEQ64K Q8T1", "SEQ64K Q8T2", "SEQ64K Q8T4", "SEQ64K Q8T8" } },
		/* ORION, one disk: small 8K at 1..5 outstanding, large 1M random at 1..2 */
		{ "orion-simple", "ORION simple", "Oracle ORION \"-run simple\"",
		  1, 60, 0, 5, "read", 7,
		  { "RND8K Q1T1", "RND8K Q2T1", "RND8K Q3T1", "RND8K Q4T1", "RND8K Q5T1",
		    "RND1M Q1T1", "RND1M Q2T1" } },
		{ "orion-advanced", "ORION advanced", "Oracle ORION \"-run advanced -write 20\"",
		  1, 60, 0, 5, "", 7,
		  { "RND8K Q1T1 W20", "RND8K Q2T1 W20", "RND8K Q3T1 W20", "RND8K Q4T1 W20",
		    "RND8K Q5T1 W20", "RND1M Q1T1 W20", "RND1M Q2T1 W20" } },
	};
	const char *const *names = cdm_profile_builtin_names();
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cdm_profile p;
		struct cdm_err err = { "" };
		char buf[128];
		unsigned int t;

		/* fixed order, not the generated table's alphabetical one */
		assert_non_null(names[i]);
		assert_string_equal(names[i], cases[i].name);
		assert_non_null(cdm_profile_builtin(cases[i].name));
		assert_non_null(cdm_profile_builtin_about(cases[i].name, buf, sizeof(buf)));
		assert_string_equal(buf, cases[i].about);

		if (cdm_profile_load(cases[i].name, &p, &err))
			fail_msg("built-in '%s': %s", cases[i].name, err.msg);
		assert_string_equal(p.name, cases[i].title);
		assert_int_equal(p.size, GiB);
		assert_int_equal(p.count, cases[i].count);
		assert_int_equal(p.time_ms, ms_of(cases[i].time));
		assert_int_equal(p.interval_ms, ms_of(cases[i].interval));
		assert_int_equal(p.warmup_ms, ms_of(cases[i].warmup));
		assert_int_equal(p.mix, 0);
		assert_string_equal(p.mode, cases[i].mode);
		assert_int_equal(p.ntests, cases[i].ntests);
		for (t = 0; t < p.ntests; t++)
			assert_string_equal(cdm_spec_name(&p.tests[t], buf, sizeof(buf)),
					    cases[i].tests[t]);
	}
	assert_null(names[i]);
}

static void test_builtin_about(void **state)
{
	char buf[16];

	(void)state;
	/* cut to the buffer, never past it */
	assert_non_null(cdm_profile_builtin_about("cdm7-peak", buf, sizeof(buf)));
	assert_string_equal(buf, "CrystalDiskMark");
	assert_non_null(cdm_profile_builtin_about("CDM6", buf, 5));
	assert_string_equal(buf, "Crys");
	assert_null(cdm_profile_builtin_about("nosuch", buf, sizeof(buf)));
	assert_null(cdm_profile_builtin_about("peak", buf, 0));
}

/* every file in profiles/ is listed, and every listed name has a file */
static void test_builtin_table_matches_list(void **state)
{
	const char *const *names = cdm_profile_builtin_names();
	const struct cdm_builtin_profile *b;
	size_t n, nlist = 0, ntable = 0;

	(void)state;
	for (b = cdm_builtin_profiles; b->name; b++) {
		int found = 0;

		for (n = 0; names[n]; n++)
			found |= !strcmp(names[n], b->name);
		if (!found)
			fail_msg("profiles/%s.cdm is not in cdm_profile_builtin_names()",
				 b->name);
		ntable++;
	}
	for (n = 0; names[n]; n++) {
		assert_non_null(cdm_profile_builtin(names[n]));
		nlist++;
	}
	assert_int_equal(nlist, ntable);
	/* CDM spells its profiles "Default", "Peak": accept any case */
	assert_ptr_equal(cdm_profile_builtin("Default"), cdm_profile_builtin("default"));
	assert_ptr_equal(cdm_profile_builtin("PEAK"), cdm_profile_builtin("peak"));
	assert_null(cdm_profile_builtin(""));
	assert_null(cdm_profile_builtin("nosuch"));
	assert_null(cdm_profile_builtin(NULL));
}

/* ---- files --------------------------------------------------------- */

struct tmpdir {
	char path[64];
	char old[4096];
};

static int setup_tmpdir(void **state)
{
	struct tmpdir *t = calloc(1, sizeof(*t));

	if (!t)
		return -1;
	strcpy(t->path, "/tmp/cdm-test-profile-XXXXXX");
	if (!mkdtemp(t->path) || !getcwd(t->old, sizeof(t->old)) ||
	    chdir(t->path)) {
		free(t);
		return -1;
	}
	*state = t;
	return 0;
}

static int teardown_tmpdir(void **state)
{
	struct tmpdir *t = *state;
	static const char *const files[] = {
		"my.cdm", "peak", "big.cdm", "nul.cdm", "bad.cdm", "noread.cdm",
	};
	size_t i;
	int ret = 0;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		unlink(files[i]);
	rmdir("sub");
	if (chdir(t->old) || rmdir(t->path))
		ret = -1;
	free(t);
	return ret;
}

static void write_file(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

static void test_load_files(void **state)
{
	static const char mine[] = "name = Mine\ntest = RND4K Q4T2\n";
	static const char fake_peak[] = "name = Not Peak\ntest = SEQ4K\n";
	struct cdm_profile p;
	struct cdm_err err;

	(void)state;
	write_file("my.cdm", mine, strlen(mine));
	write_file("peak", fake_peak, strlen(fake_peak));

	/* a name that is no built-in is a file in the current directory */
	assert_int_equal(cdm_profile_load("my.cdm", &p, &err), 0);
	assert_string_equal(p.name, "Mine");
	assert_int_equal(p.tests[0].threads, 2);
	assert_int_equal(cdm_profile_load("./my.cdm", &p, &err), 0);
	assert_string_equal(p.name, "Mine");

	/* a built-in name wins over a file, unless a path is spelt out */
	assert_int_equal(cdm_profile_load("peak", &p, &err), 0);
	assert_string_equal(p.name, "Peak");
	assert_int_equal(cdm_profile_load("./peak", &p, &err), 0);
	assert_string_equal(p.name, "Not Peak");
}

static void test_load_errors(void **state)
{
	static const char bad[] = "name = x\ncount = 0\n";
	struct cdm_profile p = { .count = 77 };
	struct cdm_err err;
	char *big;

	(void)state;
	assert_int_equal(cdm_profile_load("nosuch", &p, &err), -ENOENT);
	assert_string_equal(err.msg,
		"unknown profile 'nosuch' (built-in: default, peak, real, demo, nvme, flash, cdm7, cdm7-peak, cdm6, sqlio, orion-simple, orion-advanced)");
	assert_int_equal(cdm_profile_load("", &p, &err), -ENOENT);
	assert_string_equal(err.msg,
		"unknown profile '' (built-in: default, peak, real, demo, nvme, flash, cdm7, cdm7-peak, cdm6, sqlio, orion-simple, orion-advanced)");
	assert_int_equal(cdm_profile_load("./nosuch.cdm", &p, &err), -ENOENT);
	assert_string_equal(err.msg, "./nosuch.cdm: No such file or directory");

	/* parse errors name the path as given */
	write_file("bad.cdm", bad, strlen(bad));
	assert_int_equal(cdm_profile_load("bad.cdm", &p, &err), -EINVAL);
	assert_string_equal(err.msg, "bad.cdm:2: bad value for count: '0' (1..100)");
	assert_int_equal(cdm_profile_load("./bad.cdm", &p, &err), -EINVAL);
	assert_string_equal(err.msg, "./bad.cdm:2: bad value for count: '0' (1..100)");

	/* a directory */
	assert_int_equal(mkdir("sub", 0700), 0);
	assert_int_equal(cdm_profile_load("sub", &p, &err), -EISDIR);
	assert_string_equal(err.msg, "sub: Is a directory");

	/* a NUL byte would end the text early */
	write_file("nul.cdm", "test = SEQ1M\n\0test = FOO\n", 25);
	assert_int_equal(cdm_profile_load("nul.cdm", &p, &err), -EINVAL);
	assert_string_equal(err.msg, "nul.cdm: contains a NUL byte, not a profile");

	/* 64 KiB is the limit: exactly that is fine, one byte more is not */
	big = malloc(64 * 1024 + 1);
	assert_non_null(big);
	memset(big, '\n', 64 * 1024 + 1);
	memcpy(big, "test = SEQ1M", 12);
	write_file("big.cdm", big, 64 * 1024);
	assert_int_equal(cdm_profile_load("big.cdm", &p, &err), 0);
	assert_int_equal(p.ntests, 1);
	p.count = 77;
	write_file("big.cdm", big, 64 * 1024 + 1);
	assert_int_equal(cdm_profile_load("big.cdm", &p, &err), -EFBIG);
	assert_string_equal(err.msg, "big.cdm: larger than 64 KiB, not a profile");
	free(big);

	/* unreadable (root reads anything: then there is nothing to test) */
	write_file("noread.cdm", bad, strlen(bad));
	assert_int_equal(chmod("noread.cdm", 0), 0);
	if (geteuid() != 0) {
		assert_int_equal(cdm_profile_load("noread.cdm", &p, &err),
				 -EACCES);
		assert_string_equal(err.msg, "noread.cdm: Permission denied");
	}
	assert_int_equal(p.count, 77);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spec_accepts),
		cmocka_unit_test(test_spec_rejects),
		cmocka_unit_test(test_spec_write_pct),
		cmocka_unit_test(test_spec_err_buffer),
		cmocka_unit_test(test_spec_label_name),
		cmocka_unit_test(test_spec_label_short_buffer),
		cmocka_unit_test(test_size_accepts),
		cmocka_unit_test(test_size_rejects),
		cmocka_unit_test(test_size_format),
		cmocka_unit_test(test_size_cdm),
		cmocka_unit_test(test_size_cdm_unit),
		cmocka_unit_test(test_uint_parse),
		cmocka_unit_test(test_profile_parse_full),
		cmocka_unit_test(test_profile_parse_unset),
		cmocka_unit_test(test_profile_parse_crlf),
		cmocka_unit_test(test_profile_parse_limits),
		cmocka_unit_test(test_profile_seconds),
		cmocka_unit_test(test_profile_parse_errors),
		cmocka_unit_test(test_profile_parse_long_lines),
		cmocka_unit_test(test_profile_too_many_tests),
		cmocka_unit_test(test_builtin_profiles),
		cmocka_unit_test(test_builtin_about),
		cmocka_unit_test(test_builtin_table_matches_list),
		cmocka_unit_test_setup_teardown(test_load_files, setup_tmpdir,
						teardown_tmpdir),
		cmocka_unit_test_setup_teardown(test_load_errors, setup_tmpdir,
						teardown_tmpdir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
