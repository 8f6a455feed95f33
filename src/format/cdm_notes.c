/* SPDX-License-Identifier: MIT */
/*
 * cdm_notes.c - cdm's own notes in its CDM-layout text (format/layout.c,
 * cdm_layout_notes(), cdm_layout_verify()): Steady, Not steady, Verify,
 * EndFsync, Fsync, Precondition, Test file (src/format/cdm_rd.h)
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cdm/model/pass.h"
#include "cdm/model/spec.h"
#include "cdm/model/steady.h"
#include "cdm_rd.h"

/* the kinds of cdm's notes that name a row (note_row()): one of each per row */
enum note { NOTE_STEADY, NOTE_VERIFY, NOTE_END_FSYNC, NOTE_FSYNC };

/*
 * The row a note of @kind names at *@pp ("SEQ1M Q8T1 Write", then a blank,
 * or ':' for a Verify note): the first row read before that has no such
 * note yet (a test run twice has a note each), and for Verify, EndFsync
 * and Fsync a write or Mix row; *@pp is moved past its name (and ':').
 * NULL when the note names none.
 */
static struct row *note_row(struct rd *rd, const char **pp, enum note kind)
{
	char name[64];

	for (unsigned int i = 0; i < rd->nrows; i++) {
		struct row *rw = &rd->rows[i];
		const char *q = *pp;
		int taken = kind == NOTE_STEADY ? rw->steady.on :
			    kind == NOTE_VERIFY ? rw->verify.done || rw->verify.interrupted :
			    kind == NOTE_FSYNC ? rw->rep.has_fsync : rw->rep.has_end_fsync;

		if (taken || (kind != NOTE_STEADY && rw->dir == CDM_DIR_READ))
			continue;
		cdm_spec_name(&rw->spec, name, sizeof(name));
		if (cdm_cdm_lex_lit(&q, name) && cdm_cdm_lex_lit(&q, cdm_result_dir_name(rw->dir)) &&
		    (kind == NOTE_VERIFY ? cdm_cdm_lex_lit(&q, ":") : *q == ' ')) {
			*pp = q;
			return rw;
		}
	}
	return NULL;
}

/*
 * "(range 4.1 %, slope 2.0 %)" of a steady-state note, or "(no full window
 * of 5 measured rounds)": the percentages into @st (NaN for the latter)
 */
static int steady_judged(const char **pp, struct cdm_steady *st)
{
	const char *p = *pp;
	unsigned long long w;

	if (!cdm_cdm_lex_lit(&p, "("))
		return 0;
	if (cdm_cdm_lex_lit(&p, "no full window of") && cdm_cdm_lex_whole(&p, 99, &w) && w == CDM_STEADY_WINDOW &&
	    cdm_cdm_lex_lit(&p, "measured rounds)")) {
		st->range_pct = st->slope_pct = cdm_pass_no_figure();
	} else if (!(cdm_cdm_lex_lit(&p, "range") && cdm_cdm_lex_number(&p, &st->range_pct) && cdm_cdm_lex_lit(&p, "%") && cdm_cdm_lex_lit(&p, ",") &&
		     cdm_cdm_lex_lit(&p, "slope") && cdm_cdm_lex_number(&p, &st->slope_pct) && cdm_cdm_lex_lit(&p, "%") && cdm_cdm_lex_lit(&p, ")"))) {
		return 0;
	}
	*pp = p;
	return cdm_cdm_lex_at_end(p);
}

/*
 * cdm's note of a test run as rounds (format/layout.c, cdm_layout_notes()):
 * "SEQ1M Q8T1 Read at round 7 of 25 (...)" after "Steady:", "RND4K Q32T1
 * Read after 25 rounds (...)" after "Not steady:", for a row read before.
 * An imported test has no rounds: the rounds a test that never got steady
 * ran are kept as its max_rounds, so the note prints again as it was.
 */
/* a steady-state note that cannot be: -EINVAL in rd->bad naming the line; returns 0 */
__attribute__((format(printf, 2, 3)))
static int steady_bad(struct rd *rd, const char *fmt, ...)
{
	char msg[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	rd->bad = cdm_err_set(rd->err, -EINVAL, "line %u: %s", rd->line, msg);
	return 0;
}

int cdm_cdm_notes_steady(struct rd *rd, const char *p, int reached)
{
	struct row *rw = note_row(rd, &p, NOTE_STEADY);
	struct cdm_steady st = { .on = 1 };
	unsigned long long x, m = 0;

	if (!rw)
		return 0;
	if (reached) {
		if (!cdm_cdm_lex_lit(&p, "at round") || !cdm_cdm_lex_whole(&p, CDM_MAX_PASSES, &x) || !x)
			return 0;
		/* PTS judges a full window: no test is steady before its last round */
		if (x < CDM_STEADY_WINDOW)
			return steady_bad(rd, "steady at round %llu, before the first full window of %u rounds",
					  x, CDM_STEADY_WINDOW);
		/* "of M": the most rounds, when the run stated it */
		if (cdm_cdm_lex_lit(&p, "of") && (!cdm_cdm_lex_whole(&p, CDM_MAX_PASSES, &m) || m < x))
			return 0;
		st.reached_at_round = (unsigned int)x;
	} else if (!cdm_cdm_lex_lit(&p, "after") || !cdm_cdm_lex_whole(&p, CDM_MAX_PASSES, &m) ||
		   !cdm_cdm_lex_lit(&p, m == 1 ? "round" : "rounds")) {
		return 0;
	} else if (!m) {
		return steady_bad(rd, "not steady after 0 rounds: a test judged ran one at least");
	}
	st.max_rounds = (unsigned int)m;
	if (!steady_judged(&p, &st))
		return 0;
	rw->steady = st;
	rw->steady_line = rd->line;
	return 1;
}

/*
 * The steady-state notes against the <Steady-state max N> mark (read
 * after them, on the Mode line), when there is one: no test ran more
 * rounds than the most, and "of M" is that most.  0, or -EINVAL naming
 * the note's line.
 */
int cdm_cdm_notes_check(struct rd *rd)
{
	const struct cdm_run_info *in = &rd->info;

	for (unsigned int i = 0; i < rd->nrows; i++) {
		const struct row *rw = &rd->rows[i];
		const struct cdm_steady *st = &rw->steady;
		unsigned int ran = st->reached_at_round ? st->reached_at_round : st->max_rounds;

		/* a text cut before its footer states no most: nothing to check against */
		if (!st->on || !in->steady_state)
			continue;
		if (ran > in->max_rounds)
			return cdm_err_set(rd->err, -EINVAL, "line %u: %u rounds, but the Mode line says <Steady-state max %u>",
					   rw->steady_line, ran, in->max_rounds);
		if (st->reached_at_round && st->max_rounds && st->max_rounds != in->max_rounds)
			return cdm_err_set(rd->err, -EINVAL, "line %u: of %u rounds, but the Mode line says <Steady-state max %u>",
					   rw->steady_line, st->max_rounds, in->max_rounds);
	}
	return 0;
}

/*
 * ", 2 lost writes, the first at offset 8192" or "1 torn block at offset
 * 0" of a "Verify:" line (cdm_layout_verify()): one kind's count and first
 * offset, when the line has that kind next; 1, 0 (not that kind next) or
 * -1 (that kind, badly written)
 */
static int verify_kind(const char **pp, const char *one, const char *many, uint64_t *n,
		       uint64_t *first)
{
	const char *p = *pp;
	unsigned long long c, off;

	if (**pp == ',' && !cdm_cdm_lex_lit(&p, ","))
		return -1;
	if (!cdm_cdm_lex_whole(&p, ~0ull >> 1, &c) || !c)
		return 0;
	if (!cdm_cdm_lex_lit(&p, c == 1 ? one : many))
		return 0;
	if ((c > 1 && !(cdm_cdm_lex_lit(&p, ",") && cdm_cdm_lex_lit(&p, "the first"))) || !cdm_cdm_lex_lit(&p, "at offset") ||
	    !cdm_cdm_lex_whole(&p, ~0ull >> 1, &off))
		return -1;
	*n = c;
	*first = off;
	*pp = p;
	return 1;
}

/*
 * " (a sample: 1 block in 4)", " (a sample: 1 block in 4 to 1 in 16)" or
 * " (a sample)" of a "Verify:" line (cdm_fmt_verify_sample()), when the
 * line has it next: *@lo and *@hi the rates (0 when not said), 1; 0 when
 * it is badly written; 1 and *@sampled left 0 when there is none
 */
static int verify_sample(const char **pp, int *sampled, uint64_t *lo, uint64_t *hi)
{
	const char *p = *pp;
	unsigned long long a = 0, b = 0;

	if (!cdm_cdm_lex_lit(&p, "(a sample"))
		return 1;
	if (cdm_cdm_lex_lit(&p, ":")) {
		if (!cdm_cdm_lex_lit(&p, "1 block in") || !cdm_cdm_lex_whole(&p, ~0ull >> 1, &a) || a < 2)
			return 0;
		b = a;
		if (cdm_cdm_lex_lit(&p, "to 1 in") && (!cdm_cdm_lex_whole(&p, ~0ull >> 1, &b) || b <= a))
			return 0;
	}
	if (!cdm_cdm_lex_lit(&p, ")"))
		return 0;
	*sampled = 1;
	*lo = a;
	*hi = b;
	*pp = p;
	return 1;
}

/*
 * "all 6 write tests read back clean, 8192 blocks[ (a sample...)]": every
 * write and Mix row read back clean.  The line states the blocks of all of
 * them, not each row's: each row's are unknown (verify.blocks_unknown),
 * the total is the text's (source.verify_blocks).  cdm's text of such a
 * text, whose total is unknown, has no ", N blocks".
 */
static int verify_clean(struct rd *rd, const char *p)
{
	unsigned long long n, blocks = 0;
	unsigned int rows = 0, kinds = 0, said;
	struct row *first = NULL, *last = NULL;
	uint64_t lo = 0, hi = 0;
	int sampled = 0;

	cdm_cdm_lex_lit(&p, "all");
	if (!cdm_cdm_lex_whole(&p, CDM_CDM_READ_TESTS_MAX, &n) || !n)
		return 0;
	/* the kinds the line names: 1 write, 2 Mix, 3 both */
	said = cdm_cdm_lex_lit(&p, "write and Mix") ? 3 : cdm_cdm_lex_lit(&p, "write") ? 1 : cdm_cdm_lex_lit(&p, "Mix") ? 2 : 0;
	if (!said || !cdm_cdm_lex_lit(&p, n == 1 ? "test" : "tests") || !cdm_cdm_lex_lit(&p, "read back clean"))
		return 0;
	if (cdm_cdm_lex_lit(&p, ",") && (!cdm_cdm_lex_whole(&p, ~0ull >> 1, &blocks) || blocks < n ||
			     !cdm_cdm_lex_lit(&p, blocks == 1 ? "block" : "blocks")))
		return 0;
	/* the tests verified are the first ones run (a stopped run verifies no more) */
	for (unsigned int i = 0; i < rd->nrows && rows < n; i++) {
		struct row *rw = &rd->rows[i];

		if (rw->dir == CDM_DIR_READ || rw->verify.done || rw->verify.interrupted)
			continue;
		rw->verify.done = 1;
		rw->verify.blocks_unknown = 1;
		if (!first)
			first = rw;
		last = rw;
		rows++;
		kinds |= rw->dir == CDM_DIR_MIX ? 2 : 1;
	}
	if (rows != n || !first || kinds != said)
		return 0;
	rd->info.source.verify_blocks = blocks;
	/* the sample's rates: the lowest on the first row, the highest on the last */
	if (!verify_sample(&p, &sampled, &lo, &hi) || (hi > lo && first == last))
		return 0;
	first->verify.sampled = last->verify.sampled = sampled;
	first->verify.every = lo;
	last->verify.every = hi;
	return cdm_cdm_lex_at_end(p);
}

/*
 * cdm's "Verify:" lines (format/layout.c, cdm_layout_verify()): "all 6
 * write tests read back clean, 8192 blocks" says the run was verified
 * (which blocks each test read back, the line does not say); "RND4K Q32T1
 * Write: 1 lost write at offset 4096, ..." is one row's faults (and not
 * its blocks read back, unknown); "RND4K
 * Q1T1 Mix: no write completed, nothing checked" and "...: the read-back
 * was interrupted, not checked" one row's read-back that checked nothing;
 * "no write or Mix test, nothing read back" a run with --verify and no
 * row to read back.
 */
int cdm_cdm_notes_verify(struct rd *rd, const char *p)
{
	struct cdm_verify v = { .done = 1 };
	struct row *rw;
	uint64_t hi = 0;
	int k, any = 0;

	rd->info.verify = 1;
	/* with its blocks, or without when the total is unknown */
	if (strstr(p, " read back clean"))
		return verify_clean(rd, p);
	/* --verify on a run with no write or Mix row: nothing to read back */
	if (cdm_cdm_lex_lit(&p, "no write or Mix test, nothing read back")) {
		for (unsigned int i = 0; i < rd->nrows; i++)
			if (rd->rows[i].dir != CDM_DIR_READ)
				return 0;
		return cdm_cdm_lex_at_end(p);
	}
	rw = note_row(rd, &p, NOTE_VERIFY);
	if (!rw)
		return 0;
	/* a test not checked (cdm_layout_verify()): nothing written, or cut short */
	if (cdm_cdm_lex_lit(&p, "no write completed, nothing checked") && cdm_cdm_lex_at_end(p)) {
		rw->verify = v;
		return 1;
	}
	if (cdm_cdm_lex_lit(&p, "the read-back was interrupted, not checked") && cdm_cdm_lex_at_end(p)) {
		rw->verify = (struct cdm_verify){ .interrupted = 1 };
		return 1;
	}
	if ((k = verify_kind(&p, "lost write", "lost writes", &v.lost, &v.first_lost)) < 0)
		return 0;
	any |= k;
	if ((k = verify_kind(&p, "misdirected write", "misdirected writes", &v.misdirected,
			     &v.first_misdirected)) < 0)
		return 0;
	any |= k;
	/* where the first misdirected write was meant to go, when the line says it */
	if (k && cdm_cdm_lex_lit(&p, "(meant for offset")) {
		unsigned long long off;

		if (!cdm_cdm_lex_whole(&p, ~0ull >> 1, &off) || !cdm_cdm_lex_lit(&p, ")"))
			return 0;
		v.meant_known = 1;
		v.first_meant = off;
	}
	if ((k = verify_kind(&p, "torn block", "torn blocks", &v.torn, &v.first_torn)) < 0)
		return 0;
	any |= k;
	if (!verify_sample(&p, &v.sampled, &v.every, &hi) || hi != v.every)
		return 0;
	if (!any || !cdm_cdm_lex_at_end(p))
		return 0;
	if (!v.sampled)
		v.every = 1;
	/* the line names the faults, not the blocks read back */
	v.blocks_unknown = 1;
	rw->verify = v;
	return 1;
}

/* "41.2 sec (...)" of cdm's "Precondition:" note: the time it took */
int cdm_cdm_notes_precondition(struct cdm_run_info *in, const char *p)
{
	double s;

	if (cdm_cdm_lex_last_word(p, "did not complete")) {
		in->precondition = 1;
		in->precondition_ns = 0;
		return 1;
	}
	if (!cdm_cdm_lex_number(&p, &s) || !cdm_cdm_lex_lit(&p, "sec") || s > 1e9)
		return 0;
	in->precondition = 1;
	/* "0.0 sec" ran, briefly: 0 would say it did not complete */
	in->precondition_ns = s > 0 ? (uint64_t)(s * 1e9 + 0.5) : 1;
	return 1;
}

/* "66.8 ms" of an "EndFsync:" note: a time in us, ms or s, into *@ns */
static int note_time(const char **pp, double *ns)
{
	const char *p = *pp;
	double v;

	if (!cdm_cdm_lex_number(&p, &v))
		return 0;
	if (cdm_cdm_lex_lit(&p, "us"))
		v *= 1e3;
	else if (cdm_cdm_lex_lit(&p, "ms"))
		v *= 1e6;
	else if (cdm_cdm_lex_lit(&p, "s"))
		v *= 1e9;
	else
		return 0;
	*ns = v;
	*pp = p;
	return 1;
}

/*
 * cdm's "EndFsync:" note (format/layout.c, cdm_layout_notes()): "SEQ1M
 * Q8T1 Write 66.8 ms per pass (3.20 % of the pass), max 80.1 ms" of a
 * write or Mix row read before, the first without one (a test run twice
 * has a note each), into its struct cdm_reported; it says the run had
 * --end-fsync.  A share above 100 % (the flush is timed inside the pass)
 * or a longest below the mean cannot be.
 */
int cdm_cdm_notes_end_fsync(struct rd *rd, const char *p)
{
	struct cdm_end_fsync_sum s = { 0 };
	struct row *rw = note_row(rd, &p, NOTE_END_FSYNC);

	if (!rw || !note_time(&p, &s.mean_ns) || !cdm_cdm_lex_lit(&p, "per pass") || !cdm_cdm_lex_lit(&p, "(") ||
	    !cdm_cdm_lex_number(&p, &s.pass_pct) || !cdm_cdm_lex_lit(&p, "%") || !cdm_cdm_lex_lit(&p, "of the pass)") ||
	    !cdm_cdm_lex_lit(&p, ",") || !cdm_cdm_lex_lit(&p, "max") || !note_time(&p, &s.max_ns) || !cdm_cdm_lex_at_end(p) ||
	    s.pass_pct > 100 || s.max_ns < s.mean_ns)
		return 0;
	rw->rep.has_end_fsync = 1;
	rw->rep.end_fsync = s;
	rd->info.end_fsync = 1;
	return 1;
}


/*
 * cdm's "Fsync:" note (format/layout.c): "RND4K Q32T1 Write 1200 calls,
 * mean 1.2 ms, max 4.5 ms" of a write or Mix row read before, the first
 * without one, into its struct cdm_reported.  A longest below the mean,
 * or a count that is not a whole number, cannot be.
 */
int cdm_cdm_notes_fsync(struct rd *rd, const char *p)
{
	struct cdm_fsync_sum s = { 0 };
	struct row *rw = note_row(rd, &p, NOTE_FSYNC);
	double n;

	if (!rw || !cdm_cdm_lex_number(&p, &n) || n < 1 || n > 1e15 || n != (double)(uint64_t)n ||
	    !(cdm_cdm_lex_lit(&p, "calls") || cdm_cdm_lex_lit(&p, "call")) ||
	    !cdm_cdm_lex_lit(&p, ",") || !cdm_cdm_lex_lit(&p, "mean") || !note_time(&p, &s.mean_ns) ||
	    !cdm_cdm_lex_lit(&p, ",") || !cdm_cdm_lex_lit(&p, "max") || !note_time(&p, &s.max_ns) ||
	    !cdm_cdm_lex_at_end(p) || s.max_ns < s.mean_ns)
		return 0;
	s.count = (uint64_t)n;
	rw->rep.has_fsync = 1;
	rw->rep.fsync = s;
	return 1;
}

/*
 * cdm's "Test file:" note (format/layout.c, cdm_fmt_test_file()): "kept
 * (--keep), zero data" or "reused (--file), random data" ("unknown data")
 */
int cdm_cdm_notes_test_file(struct cdm_run_info *in, const char *p)
{
	int tf, data = CDM_FILE_DATA_UNKNOWN;

	if (cdm_cdm_lex_lit(&p, "kept (--keep)"))
		tf = CDM_TEST_FILE_KEPT;
	else if (cdm_cdm_lex_lit(&p, "reused (--file)"))
		tf = CDM_TEST_FILE_REUSED;
	else
		return 0;
	if (!cdm_cdm_lex_lit(&p, ","))
		return 0;
	if (cdm_cdm_lex_lit(&p, "random"))
		data = CDM_FILE_DATA_RANDOM;
	else if (cdm_cdm_lex_lit(&p, "zero"))
		data = CDM_FILE_DATA_ZERO;
	else if (!cdm_cdm_lex_lit(&p, "unknown"))
		return 0;
	if (!cdm_cdm_lex_lit(&p, "data") || !cdm_cdm_lex_at_end(p))
		return 0;
	in->test_file = tf;
	in->test_file_data = data;
	return 1;
}
