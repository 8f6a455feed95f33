/* SPDX-License-Identifier: MIT */
/*
 * compare.c - `cdm compare`: reads results saved as JSON (by --save or
 * --format json) with cdm's own strict reader (json_read.c), checks that
 * each is a cdm result of a schema this cdm understands, and prints them
 * side by side: one row per test and direction, one column per run
 * (headed by its label) with the ratio to the first run.  Users compare
 * LOCAL and SAN, 22:00 and 08:00 (shared/users.md): a test only some runs
 * have is shown as missing, never silently dropped, and runs measured
 * with different settings are flagged at the top.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdm/base/size.h"
#include "cdm/cli/compare.h"
#include "cdm/model/json_read.h"
#include "cdm/model/result_read.h"
#include "cdm/target/outfile.h"
#include "cdm/plan/profile.h"
#include "cdm/report/report.h"
#include "cdm/base/clock.h"
#include "cdm/base/msg.h"

#define EXIT_RUN 1
#define EXIT_USAGE 2
#define LABEL_COL_MAX 24        /* a label wider than this is cut in text */

/* "not a valid cdm result: <where>: <why>" */
static int bad(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int bad(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(err, len, "not a valid cdm result: ");

	if (n > 0 && (size_t)n < len) {
		va_start(ap, fmt);
		vsnprintf(err + n, len - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* a member of the wanted type; NULL after setting @err otherwise */
static const struct cdm_json *want(const struct cdm_json *obj, const char *where,
				   const char *key, enum cdm_json_type type,
				   int null_ok, char *err, size_t len)
{
	const struct cdm_json *v = cdm_json_get(obj, key);
	enum cdm_json_type t;

	if (!v) {
		bad(err, len, "%s: no \"%s\"", where, key);
		return NULL;
	}
	t = v->type == CDM_JSON_TRUE ? CDM_JSON_FALSE : v->type;
	if (null_ok && t == CDM_JSON_NULL)
		return v;
	if (t != (type == CDM_JSON_TRUE ? CDM_JSON_FALSE : type)) {
		bad(err, len, "%s.%s: expected %s, found %s", where, key,
		    cdm_json_type_name(type), cdm_json_type_name(v->type));
		return NULL;
	}
	return v;
}

static int get_str(const struct cdm_json *obj, const char *where, const char *key,
		   char *dst, size_t dlen, int null_ok, char *err, size_t len)
{
	const struct cdm_json *v = want(obj, where, key, CDM_JSON_STRING, null_ok, err, len);

	if (!v)
		return -EINVAL;
	snprintf(dst, dlen, "%s", v->type == CDM_JSON_STRING ? v->str : "");
	return 0;
}

static int get_uint(const struct cdm_json *obj, const char *where, const char *key,
		    uint64_t max, uint64_t *dst, char *err, size_t len)
{
	const struct cdm_json *v = want(obj, where, key, CDM_JSON_NUMBER, 0, err, len);

	if (!v)
		return -EINVAL;
	if (!v->is_uint || v->u64 > max)
		return bad(err, len, "%s.%s: expected a whole number 0-%" PRIu64, where, key, max);
	*dst = v->u64;
	return 0;
}

static int get_bool(const struct cdm_json *obj, const char *where, const char *key,
		    int *dst, char *err, size_t len)
{
	const struct cdm_json *v = want(obj, where, key, CDM_JSON_TRUE, 0, err, len);

	if (!v)
		return -EINVAL;
	*dst = v->type == CDM_JSON_TRUE;
	return 0;
}

/* a spread object {best, median, mean, ...} into @out[agg]; null: not measured */
static int get_spread(const struct cdm_json *sum, const char *where, const char *key,
		      double out[3], int *present, char *err, size_t len)
{
	static const char *const names[3] = { "best", "median", "mean" };
	const struct cdm_json *sp = want(sum, where, key, CDM_JSON_OBJECT, 1, err, len);
	char w[96];
	int i;

	if (!sp)
		return -EINVAL;
	*present = sp->type == CDM_JSON_OBJECT;
	if (!*present)
		return 0;
	snprintf(w, sizeof(w), "%s.%s", where, key);
	for (i = 0; i < 3; i++) {
		const struct cdm_json *v = want(sp, w, names[i], CDM_JSON_NUMBER, 0, err, len);

		if (!v)
			return -EINVAL;
		out[i] = v->num;
	}
	return 0;
}

static int load_test(const struct cdm_json *t, unsigned int idx, struct cdm_cmp_test *ct,
		     char *err, size_t len)
{
	const struct cdm_json *sum, *lat, *p99, *cv;
	char where[32], dir[8];
	uint64_t u;
	int present;

	snprintf(where, sizeof(where), "tests[%u]", idx);
	if (t->type != CDM_JSON_OBJECT)
		return bad(err, len, "%s: expected object, found %s", where, cdm_json_type_name(t->type));
	if (get_str(t, where, "name", ct->name, sizeof(ct->name), 0, err, len) ||
	    get_str(t, where, "direction", dir, sizeof(dir), 0, err, len))
		return -EINVAL;
	/* Mix tests (--mix, W<pct>) are not compared yet: skipped, not refused */
	if (!strcmp(dir, "mix"))
		return 1;
	if (strcmp(dir, "read") && strcmp(dir, "write"))
		return bad(err, len, "%s.direction: expected \"read\", \"write\" or \"mix\"", where);
	ct->write = !strcmp(dir, "write");
	if (get_uint(t, where, "block_bytes", UINT64_MAX, &ct->block, err, len))
		return -EINVAL;
	if (get_uint(t, where, "queue_depth", UINT32_MAX, &u, err, len))
		return -EINVAL;
	ct->qd = (unsigned int)u;
	if (get_uint(t, where, "queue_depth_run", UINT32_MAX, &u, err, len))
		return -EINVAL;
	ct->qd_run = (unsigned int)u;
	if (get_uint(t, where, "threads", UINT32_MAX, &u, err, len))
		return -EINVAL;
	ct->threads = (unsigned int)u;
	if (get_uint(t, where, "passes_completed", UINT32_MAX, &u, err, len))
		return -EINVAL;
	ct->npasses = (unsigned int)u;

	sum = want(t, where, "summary", CDM_JSON_OBJECT, 0, err, len);
	if (!sum)
		return -EINVAL;
	snprintf(where, sizeof(where), "tests[%u].summary", idx);
	if (get_spread(sum, where, "mb_s", ct->mb_s, &present, err, len))
		return -EINVAL;
	ct->measured = present && ct->npasses > 0;
	if (get_spread(sum, where, "iops", ct->iops, &present, err, len) ||
	    get_spread(sum, where, "lat_mean_ns", ct->lat_ns, &present, err, len))
		return -EINVAL;
	cv = cdm_json_get(cdm_json_get(sum, "mb_s"), "cv_pct");
	if (cv && cv->type == CDM_JSON_NUMBER)
		ct->mb_s_cv_pct = cv->num;

	snprintf(where, sizeof(where), "tests[%u]", idx);
	lat = want(t, where, "latency", CDM_JSON_OBJECT, 1, err, len);
	if (!lat)
		return -EINVAL;
	p99 = cdm_json_get(lat, "p99_ns");
	if (p99 && p99->type == CDM_JSON_NUMBER) {
		ct->has_p99 = 1;
		ct->p99_ns = p99->num;
	}
	return 0;
}

static int load_tree(const struct cdm_json *root, struct cdm_cmp_run *run,
		     char *err, size_t len)
{
	const struct cdm_json *tool, *sv, *set, *tests, *target, *v;
	uint64_t u;
	size_t i;

	tool = cdm_json_get(root, "tool");
	sv = cdm_json_get(root, "schema_version");
	if (!root || root->type != CDM_JSON_OBJECT || !tool || tool->type != CDM_JSON_STRING ||
	    strcmp(tool->str, "cdm") || !sv) {
		snprintf(err, len, "not a cdm result (valid JSON, but not an object with \"tool\": \"cdm\" and a \"schema_version\")");
		return -EINVAL;
	}
	if (sv->type != CDM_JSON_NUMBER || !sv->is_uint || sv->u64 < 1)
		return bad(err, len, "schema_version: expected a whole number >= 1");
	if (sv->u64 > CDM_JSON_SCHEMA_VERSION) {
		snprintf(err, len, "schema_version %" PRIu64 " is newer than this cdm reads (%d): compare it with a newer cdm",
			 sv->u64, CDM_JSON_SCHEMA_VERSION);
		return -EPROTONOSUPPORT;
	}
	run->schema_version = (unsigned int)sv->u64;
	if (get_str(root, "result", "label", run->label, sizeof(run->label), 0, err, len) ||
	    get_str(root, "result", "cdm_version", run->version, sizeof(run->version), 0, err, len) ||
	    get_bool(root, "result", "interrupted", &run->interrupted, err, len) ||
	    get_str(root, "result", "start_utc", run->start_utc, sizeof(run->start_utc), 1, err, len))
		return -EINVAL;
	set = want(root, "result", "settings", CDM_JSON_OBJECT, 0, err, len);
	if (!set)
		return -EINVAL;
	if (get_uint(set, "settings", "size_bytes", UINT64_MAX, &run->size, err, len) ||
	    get_uint(set, "settings", "count", UINT32_MAX, &u, err, len))
		return -EINVAL;
	run->count = (unsigned int)u;
	if (get_uint(set, "settings", "time_s", UINT32_MAX, &u, err, len))
		return -EINVAL;
	run->time = (unsigned int)u;
	if (get_str(set, "settings", "engine", run->engine, sizeof(run->engine), 0, err, len) ||
	    get_bool(set, "settings", "direct", &run->direct, err, len))
		return -EINVAL;
	v = want(set, "settings", "data", CDM_JSON_STRING, 0, err, len);
	if (!v)
		return -EINVAL;
	run->zero_fill = !strcmp(v->str, "zero");
	target = want(root, "result", "target", CDM_JSON_OBJECT, 0, err, len);
	if (!target ||
	    get_str(target, "target", "path", run->target, sizeof(run->target), 0, err, len) ||
	    get_str(target, "target", "fs_type", run->fs_type, sizeof(run->fs_type), 1, err, len))
		return -EINVAL;

	tests = want(root, "result", "tests", CDM_JSON_ARRAY, 0, err, len);
	if (!tests)
		return -EINVAL;
	if (tests->n > 2u * CDM_MAX_TESTS * 16)
		return bad(err, len, "tests: %zu tests, more than cdm ever writes", tests->n);
	if (tests->n) {
		run->tests = calloc(tests->n, sizeof(*run->tests));
		if (!run->tests) {
			snprintf(err, len, "out of memory");
			return -ENOMEM;
		}
	}
	for (i = 0; i < tests->n; i++) {
		int ret = load_test(&tests->items[i], (unsigned int)i, &run->tests[run->ntests],
				    err, len);

		if (ret > 0)
			continue;
		if (ret)
			return ret;
		run->ntests++;
	}
	return 0;
}

int cdm_compare_load(const char *text, size_t len, struct cdm_cmp_run *run,
		     char *err, size_t err_len)
{
	struct cdm_json_error je;
	struct cdm_json *root;
	size_t i;
	int ret;

	memset(run, 0, sizeof(*run));
	for (i = 0; i < len && text[i] && strchr(" \t\r\n", text[i]); i++)
		;
	if (i == len) {
		snprintf(err, err_len, "empty file, not a cdm result");
		return -EINVAL;
	}
	ret = cdm_json_parse(text, len, &root, &je);
	if (ret == -ENOMEM) {
		snprintf(err, err_len, "out of memory");
		return ret;
	}
	if (ret) {
		if (je.truncated)
			snprintf(err, err_len, "truncated JSON: the text ends at byte %zu, inside a value (%s)",
				 je.offset, je.msg);
		else
			snprintf(err, err_len, "not JSON: line %u, column %u: %s",
				 je.line, je.column, je.msg);
		return -EINVAL;
	}
	ret = load_tree(root, run, err, err_len);
	cdm_json_free(root);
	return ret;
}

int cdm_compare_load_file(const char *path, struct cdm_cmp_run *run,
			  char *err, size_t err_len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0, got;
	int ret;

	memset(run, 0, sizeof(*run));
	if (!f) {
		ret = -errno;
		snprintf(err, err_len, "%s", strerror(errno));
		return ret;
	}
	for (;;) {
		if (len == cap) {
			char *n;

			if (cap >= CDM_JSON_MAX_BYTES) {
				free(buf);
				fclose(f);
				snprintf(err, err_len, "larger than %u MiB, not a cdm result",
					 CDM_JSON_MAX_BYTES >> 20);
				return -E2BIG;
			}
			cap = cap ? cap * 2 : 65536;
			n = realloc(buf, cap + 1);
			if (!n) {
				free(buf);
				fclose(f);
				snprintf(err, err_len, "out of memory");
				return -ENOMEM;
			}
			buf = n;
		}
		got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		ret = errno ? -errno : -EIO;
		snprintf(err, err_len, "read error: %s", strerror(-ret));
		free(buf);
		fclose(f);
		return ret;
	}
	fclose(f);
	ret = cdm_compare_load(buf ? buf : "", len, run, err, err_len);
	free(buf);
	return ret;
}

void cdm_compare_run_free(struct cdm_cmp_run *run)
{
	if (!run)
		return;
	free(run->tests);
	run->tests = NULL;
	run->ntests = 0;
}

/* ---- the report ---- */

/* a row: one test and direction, and where it is in each run (or -1) */
struct row {
	const struct cdm_cmp_test *key;
	int at[64];
};

#define MAX_RUNS 64

static int find_test(const struct cdm_cmp_run *run, const struct cdm_cmp_test *k)
{
	unsigned int i;

	for (i = 0; i < run->ntests; i++)
		if (run->tests[i].write == k->write && !strcmp(run->tests[i].name, k->name))
			return (int)i;
	return -1;
}

/* the union of the runs' tests, reads first, in first-seen order; NULL on ENOMEM */
static struct row *collect_rows(const struct cdm_cmp_run *runs, unsigned int n,
				unsigned int *nrows)
{
	unsigned int total = 0, r, i, k, dir;
	struct row *rows;

	for (r = 0; r < n; r++)
		total += runs[r].ntests;
	rows = calloc(total ? total : 1, sizeof(*rows));
	if (!rows)
		return NULL;
	*nrows = 0;
	for (dir = 0; dir < 2; dir++) {
		for (r = 0; r < n; r++) {
			for (i = 0; i < runs[r].ntests; i++) {
				const struct cdm_cmp_test *t = &runs[r].tests[i];
				int seen = 0;

				if ((unsigned int)t->write != dir)
					continue;
				for (k = 0; k < *nrows && !seen; k++)
					seen = rows[k].key->write == t->write &&
					       !strcmp(rows[k].key->name, t->name);
				if (seen)
					continue;
				rows[*nrows].key = t;
				for (k = 0; k < n; k++)
					rows[*nrows].at[k] = find_test(&runs[k], t);
				(*nrows)++;
			}
		}
	}
	return rows;
}

/* the compared figure of test @t, in display units (latency in us) */
static double figure(const struct cdm_cmp_test *t, const struct cdm_compare_opts *o)
{
	unsigned int a = (unsigned int)o->aggregate < 3 ? (unsigned int)o->aggregate : 0;

	switch (o->metric) {
	case CDM_CMP_IOPS:
		return t->iops[a];
	case CDM_CMP_LAT:
		return t->lat_ns[a] / 1000.0;
	case CDM_CMP_MB_S:
	default:
		return t->mb_s[a];
	}
}

static const char *metric_fmt(const struct cdm_compare_opts *o)
{
	return o->metric == CDM_CMP_IOPS ? "%.1f" : o->metric == CDM_CMP_LAT ? "%.2f" : "%.3f";
}

static const char *metric_name(const struct cdm_compare_opts *o)
{
	return o->metric == CDM_CMP_IOPS ? "IOPS" :
	       o->metric == CDM_CMP_LAT ? "mean latency (us)" : "MB/s";
}

/* the cell of run @k in row @rw: value text and ratio text ("" when none) */
static void cell(const struct cdm_cmp_run *runs, const struct row *rw, unsigned int k,
		 const struct cdm_compare_opts *o, char *val, size_t vlen,
		 char *ratio, size_t rlen)
{
	const struct cdm_cmp_test *t, *t0;
	double v, v0;

	ratio[0] = '\0';
	if (rw->at[k] < 0) {
		snprintf(val, vlen, "missing");
		return;
	}
	t = &runs[k].tests[rw->at[k]];
	if (!t->measured) {
		snprintf(val, vlen, "not measured");
		return;
	}
	v = figure(t, o);
	snprintf(val, vlen, metric_fmt(o), v);
	if (k == 0 || rw->at[0] < 0)
		return;
	t0 = &runs[0].tests[rw->at[0]];
	if (!t0->measured)
		return;
	v0 = figure(t0, o);
	if (v0 > 0.0)
		snprintf(ratio, rlen, "%.2fx", v / v0);
}

unsigned int cdm_compare_mismatch(const struct cdm_cmp_run *runs, unsigned int n,
				  char *buf, size_t len)
{
	static const char *const names[] = { "size", "count", "time", "engine", "direct", "data" };
	unsigned int i, k, found = 0;
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		int differ = 0;

		for (k = 1; k < n && !differ; k++) {
			switch (i) {
			case 0: differ = runs[k].size != runs[0].size; break;
			case 1: differ = runs[k].count != runs[0].count; break;
			case 2: differ = runs[k].time != runs[0].time; break;
			case 3: differ = strcmp(runs[k].engine, runs[0].engine) != 0; break;
			case 4: differ = runs[k].direct != runs[0].direct; break;
			default: differ = runs[k].zero_fill != runs[0].zero_fill; break;
			}
		}
		if (!differ)
			continue;
		if (used < len) {
			int w = snprintf(buf + used, len - used, "%s%s", found ? ", " : "", names[i]);

			if (w > 0)
				used += (size_t)w;
		}
		found++;
	}
	return found;
}

/* the value of setting @name for @run, for the warning's detail */
static void setting_text(const struct cdm_cmp_run *run, const char *name, char *buf, size_t len)
{
	if (!strcmp(name, "size"))
		cdm_size_format(run->size, buf, len);
	else if (!strcmp(name, "count"))
		snprintf(buf, len, "x%u", run->count);
	else if (!strcmp(name, "time"))
		snprintf(buf, len, "%u s", run->time);
	else if (!strcmp(name, "engine"))
		snprintf(buf, len, "%s", run->engine);
	else if (!strcmp(name, "direct"))
		snprintf(buf, len, "%s", run->direct ? "O_DIRECT" : "buffered");
	else
		snprintf(buf, len, "%s", run->zero_fill ? "zero" : "random");
}

/* Markdown: escape what could break a table or start markup */
static void md_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (strchr("\\`*_[]<>|~#!&", *s))
			fputc('\\', out);
		fputc(*s == '\n' || *s == '\r' || *s == '\t' ? ' ' : *s, out);
	}
}

static void write_warnings(FILE *out, const struct cdm_cmp_run *runs, unsigned int n,
			   const struct cdm_compare_opts *o)
{
	char list[128], *name, *save = NULL, val[64];
	unsigned int k;

	if (cdm_compare_mismatch(runs, n, list, sizeof(list))) {
		fputs(o->markdown ? "> **Warning:** the runs were measured with different settings; their figures may not be comparable:\n"
				  : "Warning: the runs were measured with different settings; their figures may not be comparable:\n", out);
		for (name = strtok_r(list, ", ", &save); name; name = strtok_r(NULL, ", ", &save)) {
			fprintf(out, o->markdown ? "> - %s:" : "  %s:", name);
			for (k = 0; k < n; k++) {
				setting_text(&runs[k], name, val, sizeof(val));
				fputs(k ? ", " : " ", out);
				if (o->markdown)
					md_text(out, runs[k].label);
				else
					fputs(runs[k].label, out);
				fprintf(out, " %s", val);
			}
			fputs(o->markdown ? "\n" : "\n", out);
		}
		fputc('\n', out);
	}
	for (k = 0; k < n; k++) {
		if (!runs[k].interrupted)
			continue;
		if (o->markdown) {
			fputs("> **Warning:** ", out);
			md_text(out, runs[k].label);
			fputs(" was interrupted: some of its tests are incomplete or missing.\n\n", out);
		} else {
			fprintf(out, "Warning: %s was interrupted: some of its tests are incomplete or missing.\n\n",
				runs[k].label);
		}
	}
}

static const char *agg_word(enum cdm_aggregate a, enum cdm_cmp_metric m)
{
	if (a == CDM_AGG_MEDIAN)
		return "median";
	if (a == CDM_AGG_MEAN)
		return "mean";
	return m == CDM_CMP_LAT ? "lowest" : "highest";
}

/* @line without trailing blanks, and a newline */
static void put_trimmed(FILE *out, char *line)
{
	size_t n = strlen(line);

	while (n && line[n - 1] == ' ')
		line[--n] = '\0';
	fprintf(out, "%s\n", line);
}

static void write_text(FILE *out, const struct cdm_cmp_run *runs, unsigned int n,
		       const struct row *rows, unsigned int nrows,
		       const struct cdm_compare_opts *o)
{
	char val[48], ratio[24], label[48], line[MAX_RUNS * (LABEL_COL_MAX + 16) + 64];
	int w[MAX_RUNS];
	unsigned int k, i, dir;
	size_t used;

	fputs("------------------------------------------------------------------------------\n", out);
	fprintf(out, "cdm compare: %s, the %s of the passes; ratio to %.*s\n",
		metric_name(o), agg_word(o->aggregate, o->metric), LABEL_COL_MAX, runs[0].label);
	fputs("------------------------------------------------------------------------------\n", out);
	for (k = 0; k < n; k++) {
		char size[32];

		cdm_size_format(runs[k].size, size, sizeof(size));
		fprintf(out, "  %u: %s  %s%s%s%s%s%s  %s, %s, %s (x%u), %u s%s\n", k + 1,
			runs[k].label, runs[k].start_utc, runs[k].start_utc[0] ? "  " : "",
			runs[k].target, runs[k].fs_type[0] ? " (" : "", runs[k].fs_type,
			runs[k].fs_type[0] ? ")" : "",
			runs[k].engine, runs[k].direct ? "O_DIRECT" : "buffered", size,
			runs[k].count, runs[k].time,
			runs[k].interrupted ? "  (interrupted)" : "");
	}
	fputc('\n', out);
	write_warnings(out, runs, n, o);

	for (k = 0; k < n; k++) {
		int lw = (int)strlen(runs[k].label);

		w[k] = lw > LABEL_COL_MAX ? LABEL_COL_MAX : lw;
		if (w[k] < 12)
			w[k] = 12;
	}
	for (dir = 0; dir < 2; dir++) {
		int any = 0;

		for (i = 0; i < nrows; i++) {
			const struct cdm_cmp_test *t = rows[i].key;
			struct cdm_spec sp = { .block = t->block, .qd = t->qd, .threads = t->threads,
					       .pattern = !strncmp(t->name, "RND", 3) ? CDM_RND : CDM_SEQ };

			if ((unsigned int)t->write != dir)
				continue;
			if (!any) {
				/* "[Read]" padded to where the first column starts */
				used = snprintf(line, sizeof(line), "%-27s", dir ? "[Write]" : "[Read]");
				for (k = 0; k < n; k++)
					used += snprintf(line + used, sizeof(line) - used, "%s%*.*s%s",
							 k ? "  " : " ", w[k], LABEL_COL_MAX,
							 runs[k].label, k ? "      " : "");
				put_trimmed(out, line);
				any = 1;
			}
			cdm_spec_label(&sp, label, sizeof(label));
			used = snprintf(line, sizeof(line), "  %s (Q=%3u, T=%2u):", label, t->qd, t->threads);
			for (k = 0; k < n; k++) {
				cell(runs, &rows[i], k, o, val, sizeof(val), ratio, sizeof(ratio));
				used += snprintf(line + used, sizeof(line) - used, "%s%*s",
						 k ? "  " : " ", w[k], val);
				if (k)
					used += snprintf(line + used, sizeof(line) - used, " %5s", ratio);
			}
			put_trimmed(out, line);
		}
		if (any)
			fputc('\n', out);
	}
	if (!nrows)
		fputs("(no tests in these results)\n", out);
}

static void write_markdown(FILE *out, const struct cdm_cmp_run *runs, unsigned int n,
			   const struct row *rows, unsigned int nrows,
			   const struct cdm_compare_opts *o)
{
	char val[48], ratio[24];
	unsigned int k, i;

	fprintf(out, "**cdm compare**: %s, the %s of the passes; ratio to ",
		metric_name(o), agg_word(o->aggregate, o->metric));
	md_text(out, runs[0].label);
	fputs(".\n\n", out);
	write_warnings(out, runs, n, o);

	fputs("| Test |", out);
	for (k = 0; k < n; k++) {
		fputc(' ', out);
		md_text(out, runs[k].label);
		fputs(" |", out);
		if (k) {
			fputc(' ', out);
			md_text(out, runs[k].label);
			fputs(" / ", out);
			md_text(out, runs[0].label);
			fputs(" |", out);
		}
	}
	fputs("\n|:-----|", out);
	for (k = 0; k < n; k++)
		fputs(k ? "-----:|-----:|" : "-----:|", out);
	fputc('\n', out);
	for (i = 0; i < nrows; i++) {
		fprintf(out, "| %s %s |", rows[i].key->name, rows[i].key->write ? "Write" : "Read");
		for (k = 0; k < n; k++) {
			cell(runs, &rows[i], k, o, val, sizeof(val), ratio, sizeof(ratio));
			fprintf(out, " %s |", val);
			if (k)
				fprintf(out, " %s |", ratio[0] ? ratio : "\xe2\x80\x93");
		}
		fputc('\n', out);
	}
	if (!nrows) {
		fputs("| (no tests) |", out);
		for (k = 0; k < n; k++)
			fputs(k ? " | |" : " |", out);
		fputc('\n', out);
	}
	fputs("\nRuns:", out);
	for (k = 0; k < n; k++) {
		char size[32];

		cdm_size_format(runs[k].size, size, sizeof(size));
		fputs(k ? "; " : " ", out);
		md_text(out, runs[k].label);
		fputs(" = ", out);
		md_text(out, runs[k].target);
		fprintf(out, ", %s, %s, %s x%u, %u s", runs[k].engine,
			runs[k].direct ? "O\\_DIRECT" : "buffered", size, runs[k].count, runs[k].time);
		if (runs[k].start_utc[0])
			fprintf(out, ", %s", runs[k].start_utc);
	}
	fputs(".\n", out);
}

int cdm_compare_write(FILE *out, const struct cdm_cmp_run *runs, unsigned int n,
		      const struct cdm_compare_opts *o)
{
	unsigned int nrows = 0;
	struct row *rows;

	if (!n || n > MAX_RUNS)
		return -EINVAL;
	rows = collect_rows(runs, n, &nrows);
	if (!rows)
		return -ENOMEM;
	if (o->markdown)
		write_markdown(out, runs, n, rows, nrows, o);
	else
		write_text(out, runs, n, rows, nrows, o);
	free(rows);
	if (fflush(out) || ferror(out))
		return -EIO;
	return 0;
}

static const char compare_usage[] =
"Usage: cdm compare [OPTIONS] A.json B.json [C.json ...]\n"
"Set results saved with 'cdm --save FILE.json' side by side: per test and\n"
"direction, each run's figure under its label and the ratio to the first run.\n"
"\n"
"  -f, --format FMT         cdm (text, CDM-like rows) or markdown (default: cdm)\n"
"      --aggregate AGG      best, median or mean of the passes (default: best)\n"
"      --metric M           mb_s, iops or latency (default: mb_s)\n"
"  -o, --output FILE        write the comparison to FILE (default: stdout)\n"
"  -h, --help               this help\n"
"\n"
"Exit status: 0 success, 1 writing failed, 2 usage error or a file that is\n"
"not a readable cdm result.\n";

static int compare_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int compare_usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("cdm compare: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'cdm compare --help'.\n", stderr);
	return EXIT_USAGE;
}

int cdm_compare_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "aggregate", required_argument, NULL, 'a' },
		{ "metric", required_argument, NULL, 'm' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cdm_compare_opts o = { 0 };
	struct cdm_cmp_run *runs;
	const char *output = NULL;
	unsigned int n, i;
	char err[512], list[128];
	int c, status = 0, ret;
	FILE *out = stdout;

	optind = 1;
	while ((c = getopt_long(argc, argv, "f:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (!strcmp(optarg, "markdown"))
				o.markdown = 1;
			else if (!strcmp(optarg, "cdm"))
				o.markdown = 0;
			else
				return compare_usage_error("bad value for --format: '%s' (cdm, markdown)", optarg);
			break;
		case 'a':
			if (cdm_aggregate_parse(optarg, &o.aggregate) < 0)
				return compare_usage_error("bad value for --aggregate: '%s' (best, median, mean)", optarg);
			break;
		case 'm':
			if (!strcmp(optarg, "mb_s"))
				o.metric = CDM_CMP_MB_S;
			else if (!strcmp(optarg, "iops"))
				o.metric = CDM_CMP_IOPS;
			else if (!strcmp(optarg, "latency"))
				o.metric = CDM_CMP_LAT;
			else
				return compare_usage_error("bad value for --metric: '%s' (mb_s, iops, latency)", optarg);
			break;
		case 'o':
			output = optarg;
			break;
		case 'h':
			fputs(compare_usage, stdout);
			return 0;
		default:
			fputs("Try 'cdm compare --help'.\n", stderr);
			return EXIT_USAGE;
		}
	}
	if (argc - optind < 2)
		return compare_usage_error("two or more saved results (FILE.json) expected, got %d",
					   argc - optind);
	if (argc - optind > MAX_RUNS)
		return compare_usage_error("at most %d results at once, got %d", MAX_RUNS,
					   argc - optind);
	n = (unsigned int)(argc - optind);
	for (i = 0; i < n; i++)
		if (cdm_outfile_same(output, argv[optind + i]))
			return compare_usage_error("%s is one of the results to compare; write the comparison to another file",
						   argv[optind + i]);
	if (output && cdm_outfile_check(output, "--output", 0) < 0)
		return EXIT_RUN;
	runs = calloc(n, sizeof(*runs));
	if (!runs)
		return cdm_error("out of memory"), EXIT_RUN;
	for (i = 0; i < n; i++) {
		ret = cdm_compare_load_file(argv[optind + i], &runs[i], err, sizeof(err));
		if (ret < 0) {
			cdm_error("%s: %s", argv[optind + i], err);
			status = EXIT_USAGE;
			goto out;
		}
	}
	if (cdm_compare_mismatch(runs, n, list, sizeof(list)))
		cdm_warn("the runs differ in %s: their figures may not be comparable", list);
	if (output) {
		out = fopen(output, "w");
		if (!out) {
			cdm_error("%s: cannot write the comparison: %s", output, strerror(errno));
			status = EXIT_RUN;
			goto out;
		}
	}
	ret = cdm_compare_write(out, runs, n, &o);
	if (ret < 0) {
		cdm_error("%s: writing the comparison failed: %s", output ? output : "stdout",
			  strerror(-ret));
		status = EXIT_RUN;
	}
	if (output && fclose(out) != 0 && !status) {
		cdm_error("%s: writing the comparison failed", output);
		status = EXIT_RUN;
	}
out:
	for (i = 0; i < n; i++)
		cdm_compare_run_free(&runs[i]);
	free(runs);
	return status;
}
