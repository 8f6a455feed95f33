/* SPDX-License-Identifier: MIT */
/*
 * test_options.c - the option table of every command and its parse loop
 * (cli/options.h): each option once, one meaning per short letter, the
 * shared options parsed into struct cdm_options_common, the command's
 * handler called for every option, --help, an unknown option, and the
 * table as --list-options prints it.
 */
#include <ctype.h>
#include <getopt.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cdm/base/size.h"
#include "cdm/cli/options.h"

#define ALL_CMDS (CDM_OPTIONS_RUN | CDM_OPTIONS_SWEEP | CDM_OPTIONS_COMPARE | \
		  CDM_OPTIONS_IMPORT | CDM_OPTIONS_MERGE | CDM_OPTIONS_REPORT | CDM_OPTIONS_MPI)

static const struct cdm_cli_cmd cmd = { "cdm test --help" };

static void test_table(void **state)
{
	const struct cdm_options_opt *t, *u;
	unsigned int helps = 0;

	(void)state;
	for (t = cdm_options_table; t->name; t++) {
		assert_true(t->name[0] && t->help && t->help[0]);
		assert_true(t->cmds && !(t->cmds & ~ALL_CMDS));
		/* a letter, or a key of its own past every char */
		if (t->key < 256)
			assert_true(isalpha(t->key));
		assert_true(t->has_arg == no_argument || t->has_arg == required_argument);
		assert_int_equal(t->arg != NULL, t->has_arg == required_argument);
		/* each long name and each key once: one meaning per letter */
		for (u = cdm_options_table; u < t; u++) {
			assert_string_not_equal(u->name, t->name);
			assert_int_not_equal(u->key, t->key);
		}
		if (!strcmp(t->name, "help"))
			helps = t->cmds;
	}
	/* every command has --help (but cdm-mpi's bit, which adds to the run's) */
	assert_int_equal(helps, ALL_CMDS & ~CDM_OPTIONS_MPI);
}

static void test_takes_next(void **state)
{
	unsigned int run = CDM_OPTIONS_RUN | CDM_OPTIONS_MPI;

	(void)state;
	assert_int_equal(cdm_options_takes_next(run, "--size"), 1);
	assert_int_equal(cdm_options_takes_next(run, "--size=1G"), 0);
	assert_int_equal(cdm_options_takes_next(run, "--quiet"), 0);
	assert_int_equal(cdm_options_takes_next(run, "--save-ranks"), 1);
	assert_int_equal(cdm_options_takes_next(run, "--nonsense"), 0);
	assert_int_equal(cdm_options_takes_next(run, "-qt"), 1);
	assert_int_equal(cdm_options_takes_next(run, "-tq"), 0);
	assert_int_equal(cdm_options_takes_next(run, "-q"), 0);
	/* a command's own rows only: import has no -s, sweep no --profile */
	assert_int_equal(cdm_options_takes_next(CDM_OPTIONS_IMPORT, "-s"), 0);
	assert_int_equal(cdm_options_takes_next(CDM_OPTIONS_IMPORT, "--save"), 1);
	assert_int_equal(cdm_options_takes_next(CDM_OPTIONS_SWEEP, "--profile"), 0);
}

/* struct seen - what the handler was called with */
struct seen {
	int keys[16];
	unsigned int n;
	int stop_at;            /* a key whose handler says CDM_EXIT_USAGE */
};

static int handle(const struct cdm_options_parser *p, int key, char *arg)
{
	struct seen *s = p->ctx;

	(void)arg;
	if (s->n < 16)
		s->keys[s->n++] = key;
	return key == s->stop_at ? CDM_EXIT_USAGE : CDM_CLI_GO_ON;
}

static int helped;

static void help(void)
{
	helped++;
}

/* @line (words split at blanks, at most 30) parsed as a sweep */
static int parse(const char *line, struct cdm_options_common *c, struct cdm_run_config *cfg,
		 struct seen *s)
{
	static char buf[512];
	char *argv[32] = { (char *)"cdm" };
	int argc = 1;
	struct cdm_options_parser p = { CDM_OPTIONS_SWEEP, &cmd, help, NULL, handle, s };

	snprintf(buf, sizeof(buf), "%s", line);
	for (char *w = strtok(buf, " "); w && argc < 31; w = strtok(NULL, " "))
		argv[argc++] = w;
	memset(cfg, 0, sizeof(*cfg));
	cfg->direct = 1;
	cfg->progress = 1;
	cdm_options_init(c, cfg);
	opterr = 0;             /* no getopt message on the test's stderr */
	return cdm_options_parse(&p, argc, argv, c);
}

static void test_parse_shared(void **state)
{
	struct cdm_options_common c;
	struct cdm_run_config cfg;
	struct seen s = { .stop_at = 0 };

	(void)state;
	assert_int_equal(parse("-s 64MiB -n 3 -T 500ms --warmup 0 -t RND4K --test SEQ1M -q --buffered --save a.json dir",
			       &c, &cfg, &s), CDM_CLI_GO_ON);
	assert_int_equal(c.size, 64 * CDM_MIB);
	assert_int_equal(c.count, 3);
	assert_int_equal(c.time_ms, 500);
	assert_int_equal(c.warmup_ms, 0);
	assert_int_equal(c.interval_ms, -1);   /* not given */
	assert_int_equal(c.ntests, 2);
	assert_string_equal(c.save, "a.json");
	assert_null(c.output);
	assert_int_equal(c.aggregate, CDM_AGG_BEST);
	assert_int_equal(cfg.progress, 0);
	assert_int_equal(cfg.direct, 0);
	/* the handler saw every option, in order, after the shared part */
	assert_int_equal(s.n, 9);
	assert_int_equal(s.keys[0], 's');
	assert_int_equal(s.keys[8], CDM_OPT_SAVE);
	assert_int_equal(optind, 17);
}

static void test_parse_stops(void **state)
{
	struct cdm_options_common c;
	struct cdm_run_config cfg;
	struct seen s = { .stop_at = 0 };

	(void)state;
	/* a bad value: the shared part's usage error, the handler not called */
	assert_int_equal(parse("-n 0", &c, &cfg, &s), CDM_EXIT_USAGE);
	assert_int_equal(s.n, 0);
	/* an option of another command, and one without its argument */
	assert_int_equal(parse("--profile peak", &c, &cfg, &s), CDM_EXIT_USAGE);
	assert_int_equal(parse("-o x", &c, &cfg, &s), CDM_EXIT_USAGE);
	assert_int_equal(parse("--threads", &c, &cfg, &s), CDM_EXIT_USAGE);
	assert_int_equal(s.n, 0);
	/* --help at once, whatever follows */
	helped = 0;
	assert_int_equal(parse("--qd 1,2 --help --nonsense", &c, &cfg, &s), CDM_EXIT_OK);
	assert_int_equal(helped, 1);
	assert_int_equal(s.n, 1);
	/* the handler's status ends the parse */
	s.n = 0;
	s.stop_at = CDM_OPT_METRIC;
	assert_int_equal(parse("--metric x --qd 1", &c, &cfg, &s), CDM_EXIT_USAGE);
	assert_int_equal(s.n, 1);
}

/* cdm_options_list(@which) into @buf */
static int list(const char *which, char *buf, size_t len)
{
	FILE *f = tmpfile();
	size_t n;
	int r;

	assert_non_null(f);
	r = cdm_options_list(f, which);
	rewind(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	return r;
}

static void test_list(void **state)
{
	static char buf[16384];

	(void)state;
	assert_int_equal(list("import", buf, sizeof(buf)), CDM_EXIT_OK);
	assert_non_null(strstr(buf, "--save\t-\tFILE.json\t"));
	assert_non_null(strstr(buf, "--format\t-f\tFMT\t"));
	assert_non_null(strstr(buf, "--help\t-h\t-\t"));
	assert_null(strstr(buf, "\t-s\t"));
	assert_null(strstr(buf, "--size"));
	/* the run's, without cdm-mpi's --save-ranks in cdm */
	assert_int_equal(list("", buf, sizeof(buf)), CDM_EXIT_OK);
	assert_non_null(strstr(buf, "--size\t-s\tSIZE\t"));
	assert_null(strstr(buf, "--save-ranks"));
	assert_null(strstr(buf, "--threads"));
	assert_int_equal(list("nonsense", buf, sizeof(buf)), CDM_EXIT_USAGE);
	assert_string_equal(buf, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_takes_next),
		cmocka_unit_test(test_parse_shared),
		cmocka_unit_test(test_parse_stops),
		cmocka_unit_test(test_list),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
