/* SPDX-License-Identifier: MIT */
/*
 * unit.c - the helpers every unit test program may use (unit.h): render a
 * result, read a fixture, compare with a golden file.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "cdm/report/compare_table.h"
#include "cdm/report/report.h"
#include "unit.h"

char *unit_render(const char *format, const struct cdm_run_result *r)
{
	const struct cdm_formatter *f = cdm_report_find(format);

	if (!f)
		fail_msg("no format '%s' in the registry", format);
	return unit_render_with(f, r);
}

char *unit_render_compare(const struct cdm_compare *c, enum cdm_compare_format format)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	assert_int_equal(cdm_compare_table_write(fp, c, format), 0);
	assert_int_equal(fclose(fp), 0);
	assert_non_null(buf);
	return buf;
}

char *unit_render_with(const struct cdm_formatter *f, const struct cdm_run_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	assert_int_equal(f->write(fp, r), 0);
	assert_int_equal(fclose(fp), 0);
	assert_non_null(buf);
	assert_int_equal(strlen(buf), len);
	return buf;
}

static void fixture_path(char *path, size_t len, const char *name)
{
	const char *dir = getenv("CDM_SRCDIR");

	snprintf(path, len, "%s/tests/fixtures/%s", dir && *dir ? dir : ".", name);
}

char *unit_read_file(const char *path, size_t *len)
{
	char *buf;
	long n;
	FILE *f = fopen(path, "rb");

	if (!f)
		fail_msg("%s: %s (run from the repository root or set CDM_SRCDIR)",
			 path, strerror(errno));
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n >= 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	if (len)
		*len = (size_t)n;
	return buf;
}

char *unit_fixture(const char *name, size_t *len)
{
	char path[4096];

	fixture_path(path, sizeof(path), name);
	return unit_read_file(path, len);
}

void unit_same_text(const char *got, const char *want, const char *what)
{
	const char *g = got, *w = want;
	unsigned int line = 1;

	while (*g && *w) {
		const char *ge = strchrnul(g, '\n'), *we = strchrnul(w, '\n');

		if (ge - g != we - w || memcmp(g, w, (size_t)(ge - g)) || *ge != *we)
			fail_msg("%s, line %u:\n got: '%.*s'\nwant: '%.*s'", what, line,
				 (int)(ge - g), g, (int)(we - w), w);
		g = *ge ? ge + 1 : ge;
		w = *we ? we + 1 : we;
		line++;
	}
	if (*g || *w)
		fail_msg("%s: %s has extra lines from line %u: '%s'", what,
			 *g ? "output" : "golden file", line, *g ? g : w);
}

void unit_golden(const char *got, const char *name)
{
	char path[4096], *want;

	if (getenv("CDM_UPDATE_GOLDEN")) {
		FILE *f;

		fixture_path(path, sizeof(path), name);
		f = fopen(path, "w");
		assert_non_null(f);
		fputs(got, f);
		assert_int_equal(fclose(f), 0);
	}
	want = unit_fixture(name, NULL);
	unit_same_text(got, want, name);
	free(want);
}

/* round @i of @t: @ios I/Os of its block in 5 s, each @lat_ns; the steady verdict after it */
static void hold_round(struct cdm_test_result *t, unsigned int i, uint64_t ios, uint64_t lat_ns)
{
	struct cdm_pass *p = &t->passes[i];

	p->seconds = 5.0;
	p->start_unix_ns = (uint64_t)1796010078 * 1000000000ull + (uint64_t)i * 5000000000ull;
	p->bytes = ios * t->spec.block;
	p->ios = ios;
	p->lat_sum_ns = ios * lat_ns;
	p->lat_max_ns = lat_ns * 3;
	p->cpu_user_ns = ios * 100;
	p->cpu_sys_ns = ios * 900;
	p->proc_user_ns = ios * 120;
	p->proc_sys_ns = ios * 1000;
	if (t->dir != CDM_DIR_READ) {   /* --end-fsync: its fdatasync, inside the pass */
		p->end_fsyncs = 1;
		p->end_fsync_ns = 12345678 + i;
	}
	t->npasses = i + 1;
	cdm_steady_update(&t->steady, t->passes, t->npasses, t->spec.pattern);
}

static struct cdm_test_result *hold_test(struct cdm_run_result *r, unsigned int i,
					 enum cdm_pattern pat, uint64_t block, unsigned int qd,
					 enum cdm_dir dir)
{
	struct cdm_test_result *t = &r->tests[i];

	t->spec = (struct cdm_spec){ .pattern = pat, .block = block, .qd = qd, .threads = 1 };
	t->dir = dir;
	t->qd_run = qd;
	t->steady = (struct cdm_steady){ .on = 1, .max_rounds = r->info.max_rounds };
	return t;
}

struct cdm_run_result *unit_hold_run(void)
{
	static const uint64_t seq[] = { 9000, 9000, 7000, 7050, 6980, 7010, 7020 };
	struct cdm_run_result *r = cdm_result_alloc(3);
	struct cdm_run_info *in;
	struct cdm_test_result *t;

	assert_non_null(r);
	in = &r->info;
	snprintf(in->version, sizeof(in->version), "0.1.0");
	snprintf(in->engine, sizeof(in->engine), "io_uring");
	snprintf(in->profile, sizeof(in->profile), "Default");
	snprintf(in->target, sizeof(in->target), "/mnt/local/bench");
	snprintf(in->mount_point, sizeof(in->mount_point), "/mnt/local");
	snprintf(in->fs_type, sizeof(in->fs_type), "ext4");
	snprintf(in->fs_source, sizeof(in->fs_source), "/dev/nvme0n1p2");
	snprintf(in->dev_name, sizeof(in->dev_name), "nvme0n1");
	snprintf(in->label, sizeof(in->label), "LOCAL");
	snprintf(in->os, sizeof(in->os), "Debian GNU/Linux 12 (bookworm)");
	snprintf(in->kernel, sizeof(in->kernel), "6.1.0-28-amd64");
	snprintf(in->machine, sizeof(in->machine), "x86_64");
	in->fs_total_bytes = 1000204886016ull;
	in->fs_used_bytes = 960000000000ull;
	in->fs_avail_bytes = 40204886016ull;
	in->size = 1ull << 30;
	in->count = 5;
	in->time_ms = 5000;
	in->interval_ms = 5000;
	in->direct = 1;
	in->start = (time_t)1796010078;
	in->end_fsync = 1;
	in->steady_state = 1;
	in->max_rounds = 10;
	in->precondition = 1;
	in->precondition_ns = 41234567890ull;
	in->verify = 1;
	snprintf(in->cpus, sizeof(in->cpus), "0-1");
	snprintf(in->cpus_allowed_list, sizeof(in->cpus_allowed_list), "0-3");
	in->dev_numa_node = 0;
	snprintf(in->numa_warning, sizeof(in->numa_warning),
		 "the worker threads run on node 1, the device is on node 0");

	t = hold_test(r, 0, CDM_SEQ, 1u << 20, 8, CDM_DIR_READ);
	for (unsigned int i = 0; i < sizeof(seq) / sizeof(seq[0]); i++)
		hold_round(t, i, seq[i], 5000000);
	t = hold_test(r, 1, CDM_RND, 4096, 32, CDM_DIR_READ);
	for (unsigned int i = 0; i < 10; i++)
		hold_round(t, i, i % 2 ? 1500000 : 2000000, 80000);
	t = hold_test(r, 2, CDM_SEQ, 1u << 20, 8, CDM_DIR_WRITE);
	for (unsigned int i = 0; i < 5; i++)
		hold_round(t, i, 6000, 6600000);
	return r;
}

/* the fake sysfs tree (unit.h) */
static char fake_root[PATH_MAX];

const char *unit_fake_new(const char *tag)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(fake_root, sizeof(fake_root), "%s/cdm-%s.XXXXXX", tmp ? tmp : "/tmp", tag);
	assert_non_null(mkdtemp(fake_root));
	unit_fake_mkdirs("class/block");
	unit_fake_mkdirs("dev/block");
	return fake_root;
}

void unit_fake_put(const char *rel, const char *text)
{
	char p[PATH_MAX * 2];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", fake_root, rel);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

void unit_fake_mkdirs(const char *rel)
{
	char p[PATH_MAX * 2];

	snprintf(p, sizeof(p), "%s/%s", fake_root, rel);
	for (char *s = p + strlen(fake_root) + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			mkdir(p, 0755);
			*s = '/';
		}
	mkdir(p, 0755);
}

void unit_fake_link(const char *target, const char *rel)
{
	char l[PATH_MAX * 2];

	snprintf(l, sizeof(l), "%s/%s", fake_root, rel);
	assert_int_equal(symlink(target, l), 0);
}

void unit_fake_dev(const char *rel, const char *majmin)
{
	char p[PATH_MAX], t[PATH_MAX * 2], l[PATH_MAX];
	const char *name = strrchr(rel, '/') + 1;

	snprintf(p, sizeof(p), "devices/%s", rel);
	unit_fake_mkdirs(p);
	snprintf(t, sizeof(t), "%s/dev", p);
	unit_fake_put(t, majmin);
	snprintf(t, sizeof(t), "../../devices/%s", rel);
	snprintf(l, sizeof(l), "class/block/%s", name);
	unit_fake_link(t, l);
	snprintf(l, sizeof(l), "dev/block/%s", majmin);
	unit_fake_link(t, l);
}

void unit_fake_remove(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fake_root);
	assert_int_equal(system(cmd), 0);
}
