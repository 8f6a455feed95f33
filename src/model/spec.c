/* SPDX-License-Identifier: MIT */
/*
 * spec.c - one test as CrystalDiskMark names it ("SEQ1M Q8T1", "RND4K
 * Q32T16"), parsed strictly and printed back as CDM's row label and as the
 * compact name (include/cdm/model/spec.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cdm/base/ascii.h"
#include "cdm/base/err.h"
#include "cdm/base/size.h"
#include "cdm/base/uint.h"
#include "cdm/model/spec.h"

static const char *pattern_str(enum cdm_pattern pattern)
{
	return pattern == CDM_RND ? "RND" : "SEQ";
}

char *cdm_spec_label(const struct cdm_spec *spec, char *buf, size_t len)
{
	uint64_t b;
	const char *unit = cdm_size_unit(spec->block, &b);

	/*
	 * CDM never has blocks under 4 KiB; a size that is not a whole KiB
	 * prints in bytes, padded to the same 7 columns as "   4KiB" so the
	 * "(Q=" column stays aligned.
	 */
	if (len)
		snprintf(buf, len, "%s %*llu%s", pattern_str(spec->pattern),
			 unit[0] == 'B' ? 6 : 4, (unsigned long long)b, unit);
	return buf;
}

char *cdm_spec_name(const struct cdm_spec *spec, char *buf, size_t len)
{
	uint64_t n;
	unsigned long long b;
	/* the unit's first letter: "4K", "1M", "512B" (base/size.h's grammar) */
	char unit = cdm_size_unit(spec->block, &n)[0];

	b = (unsigned long long)n;
	if (len && spec->write_pct)
		snprintf(buf, len, "%s%llu%c Q%uT%u W%u", pattern_str(spec->pattern),
			 b, unit, spec->qd, spec->threads, spec->write_pct);
	else if (len)
		snprintf(buf, len, "%s%llu%c Q%uT%u", pattern_str(spec->pattern),
			 b, unit, spec->qd, spec->threads);
	return buf;
}

/* does @s start with @word, ignoring case?  (specs are case-insensitive) */
static int starts_with_ci(const char *s, const char *word)
{
	for (; *word; s++, word++)
		if (cdm_ascii_upper(*s) != *word)
			return 0;
	return 1;
}

/*
 * "Q<n>" or "T<n>" at *@sp, spaces allowed after the letter.  Returns 1 when
 * the letter is there with a number (*@val set, capped at @cap + 1), 2 when
 * it is there without one (*@val 0), 3 when a minus sign follows it, 0
 * when it is not there.
 */
static int scan_param(const char **sp, char letter, uint64_t cap, uint64_t *val)
{
	const char *s = *sp;
	int digits;

	if (cdm_ascii_upper(*s) != letter)
		return 0;
	s = cdm_ascii_skip_space(s + 1);
	*val = 0;
	digits = cdm_ascii_is_digit(*s);
	cdm_uint_scan(&s, cap, val);
	*sp = cdm_ascii_skip_space(s);
	return digits ? 1 : *s == '-' ? 3 : 2;
}

/*
 * The reason a Q, T or W number @v (scan_param() said @how) is outside
 * @lo..@hi, by its name: missing, zero, below or above the limit.
 */
static int bad_param(struct cdm_err *err, const char *s, const char *what, char letter,
		     int how, uint64_t v, unsigned int lo, unsigned int hi)
{
	if (how == 2)
		return cdm_err_set(err, -EINVAL, "bad test spec '%s': %s after %c is missing (%c%u..%c%u)",
				   s, what, letter, letter, lo, letter, hi);
	if (how == 3)
		return cdm_err_set(err, -EINVAL, "bad test spec '%s': %s is negative (%c%u..%c%u)",
				   s, what, letter, lo, letter, hi);
	if (v == 0)
		return cdm_err_set(err, -EINVAL, "bad test spec '%s': %s is zero (%c%u..%c%u)",
				   s, what, letter, lo, letter, hi);
	if (v < lo)
		return cdm_err_set(err, -EINVAL, "bad test spec '%s': %s is below the minimum %u (%c%u..%c%u)",
				   s, what, lo, letter, lo, letter, hi);
	return cdm_err_set(err, -EINVAL, "bad test spec '%s': %s is above the maximum %u (%c%u..%c%u)",
			   s, what, hi, letter, lo, letter, hi);
}

const char *cdm_spec_check(const struct cdm_spec *spec, unsigned int threads_max, char *buf,
			   size_t len)
{
	if (spec->qd < 1 || spec->qd > CDM_QD_MAX)
		snprintf(buf, len, "Q=%u is outside 1..%u", spec->qd, CDM_QD_MAX);
	else if (spec->threads < 1 || spec->threads > threads_max)
		snprintf(buf, len, "T=%u is outside 1..%u", spec->threads, threads_max);
	else if (spec->block < CDM_BLOCK_MIN || spec->block > CDM_BLOCK_MAX)
		snprintf(buf, len, "a block of %llu bytes is outside %llu..%llu",
			 (unsigned long long)spec->block, CDM_BLOCK_MIN, CDM_BLOCK_MAX);
	else if (spec->write_pct && (spec->write_pct < CDM_MIX_MIN || spec->write_pct > CDM_MIX_MAX))
		snprintf(buf, len, "a write share of %u %% is outside %u..%u", spec->write_pct,
			 CDM_MIX_MIN, CDM_MIX_MAX);
	else
		return NULL;
	return buf;
}

int cdm_spec_same(const struct cdm_spec *a, const struct cdm_spec *b)
{
	return a->pattern == b->pattern && a->block == b->block && a->qd == b->qd &&
	       a->threads == b->threads && a->write_pct == b->write_pct;
}

int cdm_spec_parse(const char *s, struct cdm_spec *spec, struct cdm_err *err)
{
	struct cdm_spec sp = { .qd = 1, .threads = 1 };
	const char *p, *q;
	uint64_t block, qd = 1, threads = 1, wpct = 0;
	int has_qd, has_t, has_w, unit;

	if (!s)
		s = "";
	p = cdm_ascii_skip_space(s);
	if (!*p)
		return cdm_err_set(err, -EINVAL, "bad test spec '%s': empty", s);

	if (starts_with_ci(p, "SEQ")) {
		sp.pattern = CDM_SEQ;
	} else if (starts_with_ci(p, "RND")) {
		sp.pattern = CDM_RND;
	} else {
		return cdm_err_set(err, -EINVAL, "bad test spec '%s': pattern must be SEQ or RND", s);
	}
	p = cdm_ascii_skip_space(p + 3);

	if (*p == '-' && cdm_ascii_is_digit(p[1]))
		return cdm_err_set(err, -EINVAL, "bad test spec '%s': block size is negative", s);
	if (!cdm_ascii_is_digit(*p))
		return cdm_err_set(err, -EINVAL, "bad test spec '%s': missing block size (e.g. 4K, 1M)", s);
	/* "SEQ1T4": a number, then T and threads; not 1 TiB, a unit left out */
	for (q = p; cdm_ascii_is_digit(*q); q++)
		;
	q = cdm_ascii_skip_space(q);
	if (cdm_ascii_upper(*q) == 'T' && cdm_ascii_is_digit(q[1]))
		return cdm_err_set(err, -EINVAL, "bad test spec '%s': block size needs a unit (B, K or M)", s);
	/* the grammar of every size (base/size.h): "4K", "4KiB", "4 kib", "512B" */
	unit = cdm_size_scan(&p, &block);
	if (unit == -ERANGE)
		return cdm_err_set(err, -EINVAL, "bad test spec '%s': block size is above the 64M maximum", s);
	if (*p == '.' || *p == ',')
		return cdm_err_set(err, -EINVAL, "bad test spec '%s': block size must be a whole number of B, K or M", s);
	if (unit == 0)
		return cdm_err_set(err, -EINVAL, "bad test spec '%s': block size needs a unit (B, K or M)", s);
	p = cdm_ascii_skip_space(p);
	/* each limit by its name: zero, below 512B, above 64M, not a multiple */
	if (block == 0)
		return cdm_err_set(err, -EINVAL, "bad test spec '%s': block size is zero", s);
	if (block > CDM_BLOCK_MAX)
		return cdm_err_set(err, -EINVAL, "bad test spec '%s': block size is above the 64M maximum", s);
	if (block < CDM_BLOCK_MIN)
		return cdm_err_set(err, -EINVAL, "bad test spec '%s': block size is below the 512B minimum", s);
	if (block % 512)
		return cdm_err_set(err, -EINVAL, "bad test spec '%s': block size must be a multiple of 512B", s);
	sp.block = block;

	has_qd = scan_param(&p, 'Q', CDM_QD_MAX, &qd);
	if (has_qd && (qd < 1 || qd > CDM_QD_MAX))
		return bad_param(err, s, "queue depth", 'Q', has_qd, qd, 1, CDM_QD_MAX);
	has_t = scan_param(&p, 'T', CDM_THREADS_MAX, &threads);
	if (has_t && (threads < 1 || threads > CDM_THREADS_MAX))
		return bad_param(err, s, "thread count", 'T', has_t, threads, 1, CDM_THREADS_MAX);
	/* ORION's write share: W0 and W100 are the plain read and write tests */
	has_w = scan_param(&p, 'W', 100, &wpct);
	if (has_w >= 2 || (has_w && wpct > 100))
		return bad_param(err, s, "write percentage", 'W', has_w, wpct, CDM_MIX_MIN, CDM_MIX_MAX);
	if (has_w && (wpct < CDM_MIX_MIN || wpct > CDM_MIX_MAX))
		return cdm_err_set(err, -EINVAL,
				   "bad test spec '%s': write percentage must be W%u..W%u (W0 and W100 are the plain read and write tests)",
				   s, CDM_MIX_MIN, CDM_MIX_MAX);
	if (*p) {
		/* "T4Q8" is CDM's order turned round, not random junk */
		if ((cdm_ascii_upper(*p) == 'Q' || cdm_ascii_upper(*p) == 'T') && wpct)
			return cdm_err_set(err, -EINVAL, "bad test spec '%s': W must come after Q and T", s);
		if (cdm_ascii_upper(*p) == 'Q' && !has_qd)
			return cdm_err_set(err, -EINVAL, "bad test spec '%s': Q must come before T", s);
		return cdm_err_set(err, -EINVAL, "bad test spec '%s': unexpected '%s'", s, p);
	}
	sp.qd = (unsigned int)qd;
	sp.threads = (unsigned int)threads;
	sp.write_pct = (unsigned int)wpct;
	*spec = sp;
	return 0;
}
