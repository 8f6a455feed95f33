/* SPDX-License-Identifier: MIT */
/*
 * cdm_rows.c - the result lines of a CrystalDiskMark text, in CDM 3.x to 8.x's
 * layouts and cdm's own, and their section heads (src/format/cdm_rd.h)
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "cdm/base/size.h"
#include "cdm/model/pass.h"
#include "cdm/model/spec.h"
#include "cdm_rd.h"

/* "(Q=  8, T= 1)" (7.x, 8.x) or "(Q= 32,T= 1)" (5.x, 6.x) */
static int qt(const char **p, unsigned int *q, unsigned int *t)
{
	const char *s = *p;

	if (cdm_cdm_lex_lit(&s, "(") && cdm_cdm_lex_lit(&s, "Q=") && cdm_cdm_lex_uns(&s, 100000, q) && cdm_cdm_lex_lit(&s, ",") && cdm_cdm_lex_lit(&s, "T=") &&
	    cdm_cdm_lex_uns(&s, 100000, t) && cdm_cdm_lex_lit(&s, ")")) {
		*p = s;
		return 1;
	}
	return 0;
}

/*
 * The figures of a row, from its MB/s on: 1 read (rep->has = 0 when the
 * row has none: cdm's "nothing measured: ..." and "-" in place of MB/s),
 * 0 not a row's figures.  @what: IOPS and latency as in 7.x-9.x
 * (" [...IOPS] <... us>", both required), or as in 3.x-6.x (IOPS optional,
 * no latency).  A "-" in place of a figure is cdm's for a figure its run
 * has not (an imported CDM 6 report's latency): NaN.
 */
static int row_figures(struct rd *rd, const char *p, struct cdm_reported *rep, int with_lat)
{
	if (cdm_cdm_lex_lit(&p, "nothing measured:")) {    /* cdm's row of a test without figures */
		rep->has = 0;
		return !cdm_cdm_lex_at_end(p);
	}
	if (!cdm_cdm_lex_figure_or_dash(rd, &p, &rep->mb_s) || !cdm_cdm_lex_lit(&p, "MB/s"))
		return 0;
	if (with_lat) {
		if (!cdm_cdm_lex_lit(&p, "[") || !cdm_cdm_lex_figure_or_dash(rd, &p, &rep->iops) || !cdm_cdm_lex_lit(&p, "IOPS]") ||
		    !cdm_cdm_lex_lit(&p, "<") || !cdm_cdm_lex_figure_or_dash(rd, &p, &rep->lat_us) || !cdm_cdm_lex_lit(&p, "us>"))
			return 0;
	} else if (cdm_cdm_lex_lit(&p, "[") && !(cdm_cdm_lex_figure_or_dash(rd, &p, &rep->iops) && cdm_cdm_lex_lit(&p, "IOPS]"))) {
		return 0;
	}
	if (!cdm_cdm_lex_at_end(p))
		return 0;
	if (rep->mb_s != rep->mb_s)
		rep->has = 0;
	return 1;
}

/* 8.x: "SEQ    1MiB (Q=  8, T= 1): ..."; 7.x: "Sequential 1MiB (Q=  8, T= 1): ..." */
static int row_new(struct rd *rd, const char *p, struct row *rw, unsigned int *layout)
{
	uint64_t b;

	if (cdm_cdm_lex_lit(&p, "SEQ ") || cdm_cdm_lex_lit(&p, "RND ")) {
		*layout = 8;
		rw->spec.pattern = strstr(p - 4, "RND") == p - 4 ? CDM_RND : CDM_SEQ;
	} else if (cdm_cdm_lex_lit(&p, "Sequential ")) {
		*layout = 7;
		rw->spec.pattern = CDM_SEQ;
	} else if (cdm_cdm_lex_lit(&p, "Random ")) {
		*layout = 7;
		rw->spec.pattern = CDM_RND;
	} else {
		return 0;
	}
	/* "Sequential Read": an older layout */
	if (!cdm_size_scan_cdm(&p, &b) || !qt(&p, &rw->spec.qd, &rw->spec.threads) || !cdm_cdm_lex_lit(&p, ":"))
		return 0;
	rw->spec.block = b;
	return row_figures(rd, p, &rw->rep, 1);
}

/* "R70/W30" of cdm's CDM 6 layout of a Mix test: its write share */
static int mix_share(const char **p, unsigned int *w)
{
	const char *q = *p;
	unsigned int r;

	if (!cdm_cdm_lex_lit(&q, "R") || !cdm_cdm_lex_uns(&q, 100, &r) || !cdm_cdm_lex_lit(&q, "/W") || !cdm_cdm_lex_uns(&q, 100, w) ||
	    r + *w != 100 || *w < CDM_MIX_MIN || *w > CDM_MIX_MAX)
		return 0;
	*p = q;
	return 1;
}

/*
 * 3.x to 6.x: "   Sequential Read (Q= 32,T= 1) :    91.559 MB/s",
 * "  Random Read 4KiB (Q=  8,T= 8) :     7.892 MB/s [   1926.8 IOPS]",
 * "         Sequential Read (T= 1) :", "   Random Read 4KB (QD=32) :",
 * "         Random Read 512KB :".  The direction is in the line.  A
 * sequential block is printed only by cdm's CDM 6 layout, for a block
 * other than CDM 6's ("Sequential Read 1MiB (Q=  8,T= 1) :"), and its Mix
 * tests have their share ("Random Mix 4KiB R70/W30 (Q=  1,T= 1) :").
 * Otherwise the block is CDM's: 5.x and 6.x read "Sequential (Q=..,T=..)"
 * in 128 KiB blocks at any Q (6.x lets Q and T be set), the plain
 * "Sequential" of 5.x ("(T= 1)") and of 3.x and 4.x in 1 MiB blocks
 * (cdm-format.md, the tests per profile).
 */
static int row_old(struct rd *rd, const char *p, struct row *rw, unsigned int *layout)
{
	uint64_t b = CDM_MIB;
	int seq, has_block;

	if (cdm_cdm_lex_lit(&p, "Sequential "))
		seq = 1;
	else if (cdm_cdm_lex_lit(&p, "Random "))
		seq = 0;
	else
		return 0;
	if (cdm_cdm_lex_lit(&p, "Read"))
		rw->dir = CDM_DIR_READ;
	else if (cdm_cdm_lex_lit(&p, "Write"))
		rw->dir = CDM_DIR_WRITE;
	else if (cdm_cdm_lex_lit(&p, "Mix"))
		rw->dir = CDM_DIR_MIX;
	else
		return 0;
	has_block = cdm_size_scan_cdm(&p, &b);
	if (!seq && !has_block)
		return 0;
	if (rw->dir == CDM_DIR_MIX && !mix_share(&p, &rw->spec.write_pct))
		return 0;
	rw->spec.pattern = seq ? CDM_SEQ : CDM_RND;
	rw->spec.qd = rw->spec.threads = 1;
	*layout = 3;
	if (qt(&p, &rw->spec.qd, &rw->spec.threads)) {         /* 5.x, 6.x */
		*layout = 6;
		if (seq && !has_block)
			b = 128 * CDM_KIB;
	} else if (cdm_cdm_lex_lit(&p, "(T=")) {                            /* 5.x */
		*layout = 6;
		if (!cdm_cdm_lex_uns(&p, 100000, &rw->spec.threads) || !cdm_cdm_lex_lit(&p, ")"))
			return 0;
	} else if (cdm_cdm_lex_lit(&p, "(QD=")) {                           /* 3.x, 4.x */
		if (!cdm_cdm_lex_uns(&p, 100000, &rw->spec.qd) || !cdm_cdm_lex_lit(&p, ")"))
			return 0;
	}
	rw->spec.block = b;
	if (!cdm_cdm_lex_lit(&p, ":"))
		return 0;
	return row_figures(rd, p, &rw->rep, 0);
}

/* the tests's limits, as cdm's own specs have them (spec.h) */
static int row_check(struct rd *rd, const struct row *rw)
{
	char name[64], why[96];

	if (cdm_spec_check(&rw->spec, CDM_THREADS_MAX, why, sizeof(why)))
		return cdm_err_set(rd->err, -EINVAL, "line %u: %s", rd->line, why);
	for (unsigned int i = 0; i < rd->nrows; i++) {
		if (rd->rows[i].dir == rw->dir && cdm_spec_same(&rd->rows[i].spec, &rw->spec)) {
			cdm_spec_name(&rw->spec, name, sizeof(name));
			return cdm_err_set(rd->err, -EINVAL, "line %u: a second %s %s result (the first is on line %u)",
					   rd->line, name, cdm_result_dir_name(rw->dir),
					   rd->rows[i].line);
		}
	}
	if (rd->nrows >= CDM_CDM_READ_TESTS_MAX)
		return cdm_err_set(rd->err, -EINVAL, "line %u: more than %d result lines", rd->line,
				   CDM_CDM_READ_TESTS_MAX);
	return 0;
}

/* a result line of any layout: 1, 0 (not one), or -EINVAL */
int cdm_cdm_rows_result(struct rd *rd, const char *p)
{
	struct row rw;
	unsigned int layout = 0;
	int ret;

	memset(&rw, 0, sizeof(rw));
	rw.rep.has = 1;
	rw.rep.iops = rw.rep.lat_us = cdm_pass_no_figure();
	if (row_new(rd, p, &rw, &layout)) {
		if (rd->section < 0)
			return cdm_err_set(rd->err, -EINVAL, "line %u: a result line before [Read], [Write] or [Mix]",
					   rd->line);
		rw.dir = (enum cdm_dir)rd->section;
		if (rw.dir == CDM_DIR_MIX)
			rw.spec.write_pct = rd->mix_write_pct;
	} else if (!row_old(rd, p, &rw, &layout)) {
		return rd->bad;         /* not a row, or one with a figure no report has */
	}
	/* one report, one layout: a CDM 7 row among CDM 8 rows is no report's */
	if (rd->layout && (rd->layout >= 7 || layout >= 7) && rd->layout != layout)
		return cdm_err_set(rd->err, -EINVAL, "line %u: a CDM %u result line among CDM %u ones",
				   rd->line, layout, rd->layout);
	if (!rd->layout || layout > rd->layout)
		rd->layout = layout;
	ret = row_check(rd, &rw);
	if (ret)
		return ret;
	/* a row without figures (cdm's "nothing measured") is no test of the result */
	if (!rw.rep.has)
		return 1;
	rw.line = rd->line;
	rd->rows[rd->nrows++] = rw;
	return 1;
}

/* "[Read]", "[Write]", "[Mix] Read 70%/Write 30%" */
int cdm_cdm_rows_section(struct rd *rd, const char *p)
{
	unsigned int r, w;

	if (!strcmp(p, "[Read]") || !strcmp(p, "[Write]")) {
		rd->section = p[1] == 'R' ? CDM_DIR_READ : CDM_DIR_WRITE;
		return 1;
	}
	if (!cdm_cdm_lex_lit(&p, "[Mix]"))
		return 0;
	if (!cdm_cdm_lex_lit(&p, "Read") || !cdm_cdm_lex_uns(&p, 100, &r) || !cdm_cdm_lex_lit(&p, "%/Write") || !cdm_cdm_lex_uns(&p, 100, &w) ||
	    !cdm_cdm_lex_lit(&p, "%") || !cdm_cdm_lex_at_end(p))
		return 0;
	if (r + w != 100 || w < CDM_MIX_MIN || w > CDM_MIX_MAX)
		return cdm_err_set(rd->err, -EINVAL, "line %u: a Mix of Read %u%%/Write %u%%", rd->line,
				   r, w);
	rd->section = CDM_DIR_MIX;
	rd->mix_write_pct = w;
	return 1;
}

