/* SPDX-License-Identifier: MIT */
/*
 * test_layouts.c - the CrystalDiskMark 7 and 6 text layouts (--format cdm7,
 * cdm6) against golden files made from fixed numbers
 * (tests/fixtures/layout-*.txt), and against the structure of real CDM 7
 * and 6 reports (tests/fixtures/cdm-reports/, copied unchanged from
 * published reports): each real report's settings and figures are put in
 * a result, rendered, and every line compared with the real one at the
 * same position: rules, unit lines, section headers, footer lines equal
 * byte for byte, the credit line as wide and right-aligned, and each
 * result row with the same label, the same width and the colons, "(Q=",
 * "MB/s", "[", "IOPS]", "<" and "us>" in the same columns.  Plus what the
 * three CDM layouts share (one Comment, one date, one product line), what
 * they print where CDM 7 or 6 cannot say what cdm ran, and how each ends.
 *
 * Run from the repository root, or set CDM_SRCDIR to it.  Set
 * CDM_UPDATE_GOLDEN=1 to rewrite the golden files (then read the diff).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "cdm/report/report.h"
#include "unit.h"
#include "cdm/model/result.h"

#define MIB (1024ull * 1024)
#define KIB 1024ull
#define T_START ((time_t)1796010078)    /* 2026/11/30 3:41:18 UTC */

static void set_str(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src);
}

/* pass @i of @t: @ios I/Os of the test's block in @seconds, each taking @lat_ns */
static void set_pass(struct cdm_test_result *t, unsigned int i, double seconds,
		     uint64_t ios, double lat_ns)
{
	struct cdm_pass *p = &t->passes[i];

	p->seconds = seconds;
	p->bytes = ios * t->spec.block;
	p->ios = ios;
	p->lat_sum_ns = (uint64_t)llround((double)ios * lat_ns);
	p->lat_max_ns = (uint64_t)(lat_ns * 3);
	if (t->npasses < i + 1)
		t->npasses = i + 1;
}

static struct cdm_test_result *set_test(struct cdm_run_result *r, unsigned int i,
					enum cdm_pattern pat, uint64_t block, unsigned int qd,
					unsigned int threads, enum cdm_dir dir)
{
	struct cdm_test_result *t = &r->tests[i];

	t->spec = (struct cdm_spec){ .pattern = pat, .block = block, .qd = qd, .threads = threads };
	t->dir = dir;
	t->qd_run = qd;
	return t;
}

/* a run's settings, as a Linux box with a 1 TB disk gives them */
static struct cdm_run_result *base(unsigned int ntests, const char *profile, unsigned int count)
{
	struct cdm_run_result *r = cdm_result_alloc(ntests);
	struct cdm_run_info *in;

	assert_non_null(r);
	in = &r->info;
	set_str(in->version, sizeof(in->version), "0.1.0");
	set_str(in->engine, sizeof(in->engine), "io_uring");
	set_str(in->profile, sizeof(in->profile), profile);
	set_str(in->target, sizeof(in->target), "/mnt/local/bench");
	set_str(in->label, sizeof(in->label), "/mnt/local/bench");
	set_str(in->mount_point, sizeof(in->mount_point), "/mnt/local");
	in->fs_total_bytes = 1000204886016ull;
	in->fs_used_bytes = 960000000000ull;
	in->size = 1024 * MIB;
	in->count = count;
	in->time_ms = 5000;
	in->interval_ms = 5000;
	in->warmup_ms = 5000;
	in->direct = 1;
	in->admin = 1;
	in->start = T_START;
	set_str(in->os, sizeof(in->os), "Debian GNU/Linux 12 (bookworm)");
	set_str(in->kernel, sizeof(in->kernel), "6.1.0-28-amd64");
	set_str(in->machine, sizeof(in->machine), "x86_64");
	return r;
}

/*
 * CDM 7's Default tests, 3 passes each: the best MB/s and the lowest mean
 * latency come from different passes, as in any real run
 */
static struct cdm_run_result *build_cdm7(void)
{
	static const struct { enum cdm_pattern p; uint64_t b; unsigned int q, t; uint64_t ios; double lat; } x[] = {
		{ CDM_SEQ, MIB, 8, 1, 5287, 15098250 }, { CDM_SEQ, MIB, 1, 1, 4680, 2135380 },
		{ CDM_RND, 4 * KIB, 32, 16, 596362, 8569750 }, { CDM_RND, 4 * KIB, 1, 1, 92361, 108000 },
	};
	struct cdm_run_result *r = base(8, "Default", 3);

	for (unsigned int d = 0; d < 2; d++)
		for (unsigned int i = 0; i < 4; i++) {
			struct cdm_test_result *t = set_test(r, d * 4 + i, x[i].p, x[i].b, x[i].q, x[i].t,
							     d ? CDM_DIR_WRITE : CDM_DIR_READ);
			uint64_t ios = d ? x[i].ios * 4 / 5 : x[i].ios;

			set_pass(t, 0, 10.0, ios, x[i].lat * 1.01);
			set_pass(t, 1, 10.0, ios - ios / 50, x[i].lat);
			set_pass(t, 2, 10.0, ios - ios / 20, x[i].lat * 1.1);
		}
	return r;
}

/* CDM 6's tests: SEQ128K Q32T1, RND4K Q8T8, RND4K Q32T1, RND4K Q1T1 */
static struct cdm_run_result *build_cdm6(void)
{
	static const struct { enum cdm_pattern p; uint64_t b; unsigned int q, t; uint64_t ios; } x[] = {
		{ CDM_SEQ, 128 * KIB, 32, 1, 69853 }, { CDM_RND, 4 * KIB, 8, 8, 19268 },
		{ CDM_RND, 4 * KIB, 32, 1, 17761 }, { CDM_RND, 4 * KIB, 1, 1, 12932 },
	};
	struct cdm_run_result *r = base(8, "cdm6", 5);

	for (unsigned int d = 0; d < 2; d++)
		for (unsigned int i = 0; i < 4; i++) {
			struct cdm_test_result *t = set_test(r, d * 4 + i, x[i].p, x[i].b, x[i].q, x[i].t,
							     d ? CDM_DIR_WRITE : CDM_DIR_READ);

			for (unsigned int k = 0; k < 5; k++)
				set_pass(t, k, 10.0, (d ? x[i].ios / 2 : x[i].ios) - k * 7, 250000);
		}
	return r;
}

/*
 * What CDM 7 and 6 cannot say: a sequential test of 128 KiB (CDM 7 has
 * whole MiB) and of 1 MiB (CDM 6 has 128 KiB), a random test of 8 KiB
 * that measured nothing, a Mix section at 30 % writes and an ORION-style
 * test at 20 %, test data of zeros, O_DSYNC, 1 s passes, a label and a
 * comment, and a run interrupted in its Write tests.
 */
static struct cdm_run_result *build_odd(void)
{
	struct cdm_run_result *r = base(8, "Custom", 2);
	struct cdm_run_info *in = &r->info;
	struct cdm_test_result *t;

	in->zero_fill = 1;
	in->dsync = 1;
	in->time_ms = 1000;
	in->interval_ms = 0;
	in->size = 64 * MIB;
	set_str(in->label, sizeof(in->label), "LOCAL");
	set_str(in->comment, sizeof(in->comment), "after the firmware update");
	t = set_test(r, 0, CDM_SEQ, MIB, 8, 1, CDM_DIR_READ);
	set_pass(t, 0, 1.0, 3012, 2650000);
	set_pass(t, 1, 1.0, 3020, 2640000);
	t = set_test(r, 1, CDM_SEQ, 128 * KIB, 32, 1, CDM_DIR_READ);
	set_pass(t, 0, 1.0, 24011, 1332000);
	set_pass(t, 1, 1.0, 23870, 1340000);
	t = set_test(r, 2, CDM_RND, 8 * KIB, 4, 8, CDM_DIR_READ);
	set_pass(t, 0, 1.0, 0, 0);
	set_pass(t, 1, 1.0, 0, 0);
	t = set_test(r, 3, CDM_SEQ, MIB, 8, 1, CDM_DIR_WRITE);
	set_pass(t, 0, 1.0, 1500, 5300000);
	set_pass(t, 1, 1.0, 1510, 5290000);
	t = set_test(r, 4, CDM_SEQ, 128 * KIB, 32, 1, CDM_DIR_WRITE);
	set_pass(t, 0, 1.0, 11000, 2900000);
	t = set_test(r, 5, CDM_RND, 8 * KIB, 4, 8, CDM_DIR_WRITE);      /* never reached */
	t = set_test(r, 6, CDM_SEQ, MIB, 8, 1, CDM_DIR_MIX);
	t->spec.write_pct = 30;
	t = set_test(r, 7, CDM_RND, 8 * KIB, 4, 8, CDM_DIR_MIX);
	t->spec.write_pct = 20;
	r->interrupted = SIGINT;
	/* the Mix tests ran before the stop in this made-up order */
	set_pass(&r->tests[6], 0, 1.0, 2000, 4000000);
	set_pass(&r->tests[6], 1, 1.0, 2010, 3990000);
	set_pass(&r->tests[7], 0, 1.0, 81000, 395000);
	set_pass(&r->tests[7], 1, 1.0, 80500, 397000);
	return r;
}

/* nothing of CDM's own names: the product and credit lines name cdm */
static void check_no_cdm_names(const char *out)
{
	assert_null(strstr(out, "CrystalDiskMark"));
	assert_null(strstr(out, "hiyohiyo"));
	assert_null(strstr(out, "crystalmark"));
	assert_null(strstr(out, "Crystal Dew"));
}

static void test_golden(void **state)
{
	struct cdm_run_result *r;
	char *out;

	(void)state;
	r = build_cdm7();
	out = unit_render("cdm7", r);
	unit_golden(out, "layout-cdm7.txt");
	check_no_cdm_names(out);
	free(out);
	cdm_result_free(r);

	r = build_cdm6();
	out = unit_render("cdm6", r);
	unit_golden(out, "layout-cdm6.txt");
	check_no_cdm_names(out);
	free(out);
	cdm_result_free(r);

	r = build_odd();
	out = unit_render("cdm7", r);
	unit_golden(out, "layout-cdm7-odd.txt");
	free(out);
	out = unit_render("cdm6", r);
	unit_golden(out, "layout-cdm6-odd.txt");
	free(out);
	cdm_result_free(r);
}

/*
 * Issue 14: a run with every setting of the method of numbers that hold
 * (unit_hold_run()) in the three CDM layouts: the marks on the Mode (8),
 * Test (7, 6) line, and the notes between the rows and the footer.  A
 * run without them prints neither (the goldens above are unchanged).
 */
static void test_hold(void **state)
{
	static const struct {
		const char *fmt, *golden, *marks;
	} x[] = {
		{ "cdm", "layout-hold.txt", "   Mode: <EndFsync> <Steady-state max 10> <Precondition> <Verify> <CPUs 0-1>\n" },
		{ "cdm7", "layout-hold-cdm7.txt", " (x5) <EndFsync> <Steady-state max 10> <Precondition> <Verify> <CPUs 0-1> [Interval: 5 sec]" },
		{ "cdm6", "layout-hold-cdm6.txt", " (x5) <EndFsync> <Steady-state max 10> <Precondition> <Verify> <CPUs 0-1> [Interval=5 sec]" },
	};
	struct cdm_run_result *r = unit_hold_run(), *plain = build_cdm7();

	(void)state;
	for (unsigned int i = 0; i < 3; i++) {
		char *out = unit_render(x[i].fmt, r), *o2;

		unit_golden(out, x[i].golden);
		check_no_cdm_names(out);
		assert_non_null(strstr(out, x[i].marks));
		/* the notes: after the last row's empty line, then an empty line */
		assert_non_null(strstr(out, "\n\nSteady: SEQ1M Q8T1 Read at round 7 of 10 (range 1.0 %, slope 0.0 %)\n"
					    "Not steady: RND4K Q32T1 Read after 10 rounds (range 29.4 %, slope 0.0 %)\n"
					    "Steady: SEQ1M Q8T1 Write at round 5 of 10 (range 0.0 %, slope 0.0 %)\n"
					    "EndFsync: SEQ1M Q8T1 Write 12.3 ms per pass (0.25 % of the pass), max 12.3 ms\n"
					    "Precondition: 41.2 sec (written sequentially twice in 128 KiB blocks)\n"
					    "NUMA: the worker threads run on node 1, the device is on node 0\n\n"));
		o2 = unit_render(x[i].fmt, plain);
		assert_null(strstr(o2, "Steady"));
		assert_null(strstr(o2, "<EndFsync>"));
		assert_null(strstr(o2, "EndFsync:"));
		free(o2);
		free(out);
	}
	/* a test cut short before its window: no range or slope to show */
	r->tests[1].npasses = 3;
	r->tests[1].steady.window_rounds = 3;
	r->tests[1].steady.range_pct = r->tests[1].steady.slope_pct = 0.0 / 0.0;
	{
		char *out = unit_render("cdm", r);

		assert_non_null(strstr(out, "\nNot steady: RND4K Q32T1 Read after 3 rounds (no full window of 5 measured rounds)\n"));
		free(out);
	}
	cdm_result_free(plain);
	cdm_result_free(r);
}

/* does @s end with @end? */
static int ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), m = strlen(end);

	return n >= m && !memcmp(s + n - m, end, m);
}

/*
 * How each ends.  CDM 7's Default template ends "%Comment%\r\n": an empty
 * line after the OS line, or after the Comment line; its Peak and Real
 * templates end with the last line.  CDM 6's ends "  %Comment%": two
 * spaces and no newline, or four spaces, the comment and a newline.
 */
static void test_endings(void **state)
{
	struct cdm_run_result *r = build_cdm7();
	char *out;

	(void)state;
	out = unit_render("cdm7", r);
	assert_true(ends_with(out, " (x86_64)\n\n"));
	assert_null(strstr(out, "Comment:"));
	free(out);
	set_str(r->info.comment, sizeof(r->info.comment), "nightly");
	out = unit_render("cdm7", r);
	assert_true(ends_with(out, " (x86_64)\nComment: nightly\n\n"));
	free(out);
	set_str(r->info.profile, sizeof(r->info.profile), "Peak");
	out = unit_render("cdm7", r);
	assert_true(ends_with(out, "\nComment: nightly\n"));
	assert_false(ends_with(out, "\n\n"));
	free(out);
	r->info.comment[0] = '\0';
	set_str(r->info.profile, sizeof(r->info.profile), "Real");
	out = unit_render("cdm7", r);
	assert_true(ends_with(out, " (x86_64)\n"));
	assert_false(ends_with(out, "\n\n"));
	assert_non_null(strstr(out, "\nProfile: Real\n"));
	free(out);
	cdm_result_free(r);

	r = build_cdm6();
	out = unit_render("cdm6", r);
	assert_true(ends_with(out, " (x86_64)\n  "));
	free(out);
	set_str(r->info.comment, sizeof(r->info.comment), "nightly");
	out = unit_render("cdm6", r);
	assert_true(ends_with(out, " (x86_64)\n    nightly\n"));
	free(out);
	cdm_result_free(r);
}

/*
 * One home for what the layouts share: the same product line, date, OS
 * line and Comment contents in all three, the credit line right-aligned
 * to each version's width.
 */
static void test_shared(void **state)
{
	static const char *const fmts[] = { "cdm", "cdm7", "cdm6" };
	static const int width[] = { 78, 78, 71 };
	static const char comment[] =
		"LOCAL - after the firmware update [interrupted after 6 of 8 tests; SEQ128K Q32T1 Write: 1 of 2 passes]";
	struct cdm_run_result *r = build_odd();

	(void)state;
	for (unsigned int i = 0; i < 3; i++) {
		char *out = unit_render(fmts[i], r), *l2, *l3;

		assert_true(strncmp(out, "------", 6) == 0);
		assert_int_equal(strchr(out, '\n') - out, width[i]);
		l2 = strchr(out, '\n') + 1;
		assert_true(strncmp(l2, "cdm 0.1.0 x86_64 (io_uring, O_DIRECT)\n", 38) == 0);
		l3 = strchr(l2, '\n') + 1;
		assert_int_equal(strchr(l3, '\n') - l3, width[i]);
		assert_true(l3[width[i] - 1] != ' ' && l3[0] == ' ');
		assert_non_null(strstr(out, "2026/11/30 3:41:18\n"));
		assert_non_null(strstr(out, "Debian GNU/Linux 12 (bookworm) [6.1.0-28-amd64] (x86_64)\n"));
		assert_non_null(strstr(out, comment));
		/* the RND8K test measured nothing: said, never a 0 */
		assert_non_null(strstr(out, "nothing measured: no I/O completed"));
		assert_null(strstr(out, " 0.000 MB/s"));
		check_no_cdm_names(out);
		free(out);
	}
	cdm_result_free(r);
}

/* CDM 6's rows, whatever order the tests ran in: Read, Write, Mix per test */
static void test_cdm6_order(void **state)
{
	struct cdm_run_result *r = build_odd();
	char *out = unit_render("cdm6", r);
	const char *want[] = {
		"Sequential Read 1MiB (Q=  8,T= 1) :",
		"Sequential Write 1MiB (Q=  8,T= 1) :",
		"Sequential Mix 1MiB R70/W30 (Q=  8,T= 1) :",
		"   Sequential Read (Q= 32,T= 1) :",
		"  Sequential Write (Q= 32,T= 1) :",
		"  Random Read 8KiB (Q=  4,T= 8) :",
		"Random Mix 8KiB R80/W20 (Q=  4,T= 8) :",
	};
	const char *p = out;

	(void)state;
	for (unsigned int i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const char *q = strstr(p, want[i]);

		if (!q)
			fail_msg("no '%s' after the rows before it in:\n%s", want[i], out);
		assert_true(q[-1] == '\n');
		p = q;
	}
	/* the write of RND8K was never reached: no row */
	assert_null(strstr(out, "Random Write 8KiB"));
	free(out);
	cdm_result_free(r);
}

/* a block device TARGET: no volume usage, its size and sectors instead */
static void test_device(void **state)
{
	struct cdm_run_result *r = build_cdm6();
	char *out;

	(void)state;
	r->info.is_device = 1;
	set_str(r->info.target, sizeof(r->info.target), "/dev/sdb");
	r->info.target_dev_bytes = 931ull * 1024 * MIB;
	r->info.target_dev_lbs = 512;
	out = unit_render("cdm6", r);
	assert_non_null(strstr(out, "\n  Test : 1024 MiB [/dev/sdb: block device, 931 GiB, 512-byte sectors] (x5)  [Interval=5 sec]\n"));
	free(out);
	out = unit_render("cdm", r);
	assert_non_null(strstr(out, "\n   Test: 1 GiB (x5) [/dev/sdb: block device, 931 GiB, 512-byte sectors]\n"));
	free(out);
	/* a small volume: CDM 6's MiB form below 8 GiB */
	r->info.is_device = 0;
	r->info.fs_total_bytes = 7680 * MIB;
	r->info.fs_used_bytes = 1536 * MIB;
	out = unit_render("cdm6", r);
	assert_non_null(strstr(out, "[/mnt/local: 20.0% (1536.0/7680.0 MiB)] (x5)  [Interval=5 sec]\n"));
	free(out);
	cdm_result_free(r);
}

/* --- the real reports --- */

struct lines {
	char *text;                     /* owned; the lines point into it */
	char *line[128];
	unsigned int n;
	int last_nl;                    /* the text ends with a newline */
};

/*
 * split @text (owned) at '\n', dropping every '\r' and the first @skip
 * lines.  A real report's first line says where it is from; when it says
 * the report ends "with two spaces and no newline" (CDM 6) but the file
 * has one more newline (the blog's code block had it), that one is not the
 * report's and is dropped.
 */
static void split(struct lines *l, char *text, unsigned int skip)
{
	char *s = text, *d = text;
	int drop_nl = skip && strstr(text, "no newline") &&
		      strstr(text, "no newline") < strchrnul(text, '\n');

	for (; *s; s++)
		if (*s != '\r')
			*d++ = *s;
	*d = '\0';
	if (drop_nl && d > text && d[-1] == '\n')
		*--d = '\0';
	l->text = text;
	l->n = 0;
	l->last_nl = d > text && d[-1] == '\n';
	for (s = text; *s && l->n < 128; ) {
		char *e = strchrnul(s, '\n');
		int more = *e == '\n';

		*e = '\0';
		if (skip)
			skip--;
		else
			l->line[l->n++] = s;
		if (!more)
			break;
		s = e + 1;
	}
}

/* the test a real row is: its label, section, Q, T and figures */
static void add_row(struct cdm_run_result *r, const char *row, int v7, enum cdm_dir dir)
{
	const char *q = strstr(row, "(Q=");
	char word[16] = "", unit[8] = "";
	unsigned long long n = 0;
	unsigned int qd, th;
	double mbs, iops = NAN, lat = 0;
	uint64_t block, ios;
	struct cdm_test_result *t;
	int got;

	assert_non_null(q);
	if (v7) {
		assert_int_equal(sscanf(row, " %15s %llu%7[A-Za-z]", word, &n, unit), 3);
		block = n * (!strcmp(unit, "MiB") ? MIB : KIB);
		got = sscanf(q, "(Q=%u, T=%u): %lf MB/s [%lf IOPS] <%lf us>", &qd, &th, &mbs, &iops, &lat);
		assert_int_equal(got, 5);
	} else {
		assert_int_equal(sscanf(row, " %15s", word), 1);
		dir = strstr(row, " Read") ? CDM_DIR_READ : CDM_DIR_WRITE;
		block = strcmp(word, "Sequential") ? 4 * KIB : 128 * KIB;
		got = sscanf(q, "(Q=%u,T=%u) : %lf MB/s [%lf IOPS]", &qd, &th, &mbs, &iops);
		assert_true(got >= 3);
	}
	/* 10 s passes: IOPS x 10 I/Os of the block; CDM's IOPS is its MB/s's */
	ios = isnan(iops) ? (uint64_t)llround(mbs * 1e7 / (double)block) : (uint64_t)llround(iops * 10);
	t = set_test(r, r->ntests++, strcmp(word, "Sequential") ? CDM_RND : CDM_SEQ, block, qd, th, dir);
	set_pass(t, 0, 10.0, ios, lat * 1000);
}

/*
 * a result with the real report's tests (in cdm's run order: every Read,
 * then every Write), figures and settings
 */
static struct cdm_run_result *from_real(const struct lines *l, int v7)
{
	struct cdm_run_result *r = base(32, "Default", 5);
	struct cdm_run_info *in = &r->info;
	enum cdm_dir dir = CDM_DIR_READ;
	unsigned int size = 0, pass, interval = 0;
	char unit[8] = "", drive[16];
	double used, total;
	struct tm tm = { 0 };

	r->ntests = 0;
	in->admin = 0;
	for (pass = 0; pass < 2; pass++)
		for (unsigned int i = 0; i < l->n; i++) {
			const char *s = l->line[i];

			if (!strcmp(s, "[Read]") || !strcmp(s, "[Write]"))
				dir = s[1] == 'R' ? CDM_DIR_READ : CDM_DIR_WRITE;
			if (!strstr(s, "(Q="))
				continue;
			if (!v7)
				dir = strstr(s, " Read") ? CDM_DIR_READ : CDM_DIR_WRITE;
			if (dir == (pass ? CDM_DIR_WRITE : CDM_DIR_READ))
				add_row(r, s, v7, dir);
		}
	for (unsigned int i = 0; i < l->n; i++) {
		const char *s = l->line[i], *os;

		if (!strncmp(s, "Profile: ", 9))
			set_str(in->profile, sizeof(in->profile), s + 9);
		if (v7 && sscanf(s, "   Test: %u %7s (x%u) [Interval: %u sec]", &size, unit,
				 &in->count, &interval) == 4) {
			in->size = size * (!strcmp(unit, "GiB") ? 1024 * MIB : MIB);
			in->interval_ms = interval * 1000;
		}
		if (!v7 && sscanf(s, "  Test : %u MiB [%15[^:]: %*f%% (%lf/%lf GiB)] (x%u) [Interval=%u sec]",
				  &size, drive, &used, &total, &in->count, &interval) == 6) {
			in->size = size * MIB;
			in->interval_ms = interval * 1000;
			/* where CDM prints a drive letter, cdm prints the mount point */
			set_str(in->mount_point, sizeof(in->mount_point), drive);
			in->fs_used_bytes = (uint64_t)(used * 1024 * MIB);
			in->fs_total_bytes = (uint64_t)(total * 1024 * MIB);
		}
		if (strstr(s, "Date") && strchr(s, ':') &&
		    sscanf(strchr(s, ':') + 1, " %d/%d/%d %d:%d:%d", &tm.tm_year, &tm.tm_mon,
			   &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec) == 6) {
			tm.tm_year -= 1900;
			tm.tm_mon -= 1;
			in->start = timegm(&tm);
		}
		/* "Windows 10  [10.0 Build 18363] (x64)": name, kernel, machine */
		os = strstr(s, "OS: ") ? strstr(s, "OS: ") + 4 : strstr(s, "OS : ") ? strstr(s, "OS : ") + 5 : NULL;
		if (os && strstr(os, " [") && strrchr(os, '(')) {
			snprintf(in->os, sizeof(in->os), "%.*s", (int)(strstr(os, " [") - os), os);
			snprintf(in->kernel, sizeof(in->kernel), "%.*s",
				 (int)(strstr(os, "] (") - strstr(os, " [") - 2), strstr(os, " [") + 2);
			snprintf(in->machine, sizeof(in->machine), "%.*s",
				 (int)(strrchr(os, ')') - strrchr(os, '(') - 1), strrchr(os, '(') + 1);
		}
	}
	assert_true(r->ntests > 0 && in->count > 0 && in->start > 0 && in->os[0]);
	/* cdm_result_free() frees the tests it counts: the rooms left unused too */
	for (unsigned int i = r->ntests; i < 32; i++) {
		free(r->tests[i].hist);
		r->tests[i].hist = NULL;
	}
	return r;
}

/* the column of @mark in @s, or -1 */
static long col(const char *s, const char *mark)
{
	const char *p = strstr(s, mark);

	return p ? p - s : -1;
}

/*
 * @ours against @real, line by line (above); 0, or -1 with the first
 * difference in @why
 */
static int compare_structure(const struct lines *ours, const struct lines *real,
			     char *why, size_t len)
{
	static const char *const marks[] = { ":", "(Q=", "T=", "MB/s", "[", "IOPS]", "<", "us>" };

	if (ours->n != real->n || ours->last_nl != real->last_nl) {
		snprintf(why, len, "%u lines%s, the real report %u%s", ours->n,
			 ours->last_nl ? "" : " without the last newline", real->n,
			 real->last_nl ? "" : " without the last newline");
		return -1;
	}
	for (unsigned int i = 0; i < real->n; i++) {
		const char *a = ours->line[i], *b = real->line[i];

		if (i == 1) {           /* the product line names cdm, its version */
			if (strncmp(a, "cdm ", 4) || strncmp(b, "CrystalDiskMark ", 16))
				goto differ;
		} else if (i == 2) {    /* the credit line: as wide, right-aligned */
			if (strlen(a) != strlen(b) || a[strlen(a) - 1] == ' ' || a[0] != ' ')
				goto differ;
		} else if (strstr(b, "(Q=")) {
			/* a row: the same label, width and columns */
			if (strlen(a) != strlen(b) || strncmp(a, b, (size_t)col(b, "(Q=")))
				goto differ;
			for (unsigned int m = 0; m < sizeof(marks) / sizeof(marks[0]); m++)
				if (col(a, marks[m]) != col(b, marks[m])) {
					snprintf(why, len, "line %u: '%s' at column %ld, CDM's at %ld:\n ours: '%s'\n real: '%s'",
						 i + 2, marks[m], col(a, marks[m]), col(b, marks[m]), a, b);
					return -1;
				}
		} else if (strcmp(a, b)) {
			goto differ;
		}
		continue;
differ:
		snprintf(why, len, "line %u:\n ours: '%s'\n real: '%s'", i + 2, a, b);
		return -1;
	}
	return 0;
}

static void check_structure(const char *name, int v7)
{
	struct lines real, ours;
	struct cdm_run_result *r;
	char path[64], why[1024];

	snprintf(path, sizeof(path), "cdm-reports/%s", name);
	split(&real, unit_fixture(path, NULL), 1);    /* its first line says where it is from */
	r = from_real(&real, v7);
	split(&ours, unit_render(v7 ? "cdm7" : "cdm6", r), 0);
	if (compare_structure(&ours, &real, why, sizeof(why)))
		fail_msg("%s: %s", name, why);
	free(real.text);
	free(ours.text);
	cdm_result_free(r);
}

static void test_real_cdm7(void **state)
{
	(void)state;
	check_structure("cdm7-default-hdd-1.txt", 1);
	check_structure("cdm7-default-nvme-1.txt", 1);
	check_structure("cdm7-default-sata-1.txt", 1);
}

static void test_real_cdm6(void **state)
{
	(void)state;
	check_structure("cdm6-default-sdcard-1.txt", 0);
}

/*
 * The structure check finds what is off: CDM 8's layout for a CDM 7
 * report, CDM 7's for CDM 6's, a row one column off, a missing last
 * newline, CDM 6's comment line where it has none.
 */
static void test_structure_can_fail(void **state)
{
	struct lines real7, real6, ours;
	struct cdm_run_result *r7, *r6;
	char why[1024], *out, *p;

	(void)state;
	split(&real7, unit_fixture("cdm-reports/cdm7-default-sata-1.txt", NULL), 1);
	split(&real6, unit_fixture("cdm-reports/cdm6-default-sdcard-1.txt", NULL), 1);
	r7 = from_real(&real7, 1);
	r6 = from_real(&real6, 0);

	split(&ours, unit_render("cdm", r7), 0);
	assert_int_equal(compare_structure(&ours, &real7, why, sizeof(why)), -1);
	free(ours.text);
	split(&ours, unit_render("cdm7", r6), 0);
	assert_int_equal(compare_structure(&ours, &real6, why, sizeof(why)), -1);
	free(ours.text);

	/* one space less before a row's IOPS */
	out = unit_render("cdm7", r7);
	p = strstr(out, "[    528.8 IOPS]");
	assert_non_null(p);
	memmove(p + 1, p + 2, strlen(p + 2) + 1);
	split(&ours, out, 0);
	assert_int_equal(compare_structure(&ours, &real7, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "line 10:"));
	free(ours.text);

	/* CDM 7's last empty line, CDM 6's two last spaces */
	out = unit_render("cdm7", r7);
	out[strlen(out) - 1] = '\0';
	split(&ours, out, 0);
	assert_int_equal(compare_structure(&ours, &real7, why, sizeof(why)), -1);
	free(ours.text);
	set_str(r6->info.comment, sizeof(r6->info.comment), "x");
	split(&ours, unit_render("cdm6", r6), 0);
	assert_int_equal(compare_structure(&ours, &real6, why, sizeof(why)), -1);
	free(ours.text);

	free(real7.text);
	free(real6.text);
	cdm_result_free(r7);
	cdm_result_free(r6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden),
		cmocka_unit_test(test_endings),
		cmocka_unit_test(test_shared),
		cmocka_unit_test(test_cdm6_order),
		cmocka_unit_test(test_device),
		cmocka_unit_test(test_real_cdm7),
		cmocka_unit_test(test_real_cdm6),
		cmocka_unit_test(test_structure_can_fail),
		cmocka_unit_test(test_hold),
	};

	/* the golden files' Date lines are in UTC */
	setenv("TZ", "UTC", 1);
	tzset();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
