/* SPDX-License-Identifier: MIT */
/*
 * spec.h - one test: pattern, block size, queue depth Q, threads T and an
 * optional write percentage, named as CrystalDiskMark names its tests:
 * "SEQ1M Q8T1", "RND4K Q32T16"; spaces optional ("RND4KQ32T16"),
 * case-insensitive, Q and T default to 1 when omitted; "W20" (ORION's mixed
 * load) makes a Mix test.  docs/profile-format.md has the grammar.
 */
#ifndef CDM_MODEL_SPEC_H
#define CDM_MODEL_SPEC_H

#include <stddef.h>
#include <stdint.h>

#include "cdm/base/size.h"

struct cdm_err;

#define CDM_MAX_TESTS 32         /* tests in one profile or run */
#define CDM_NAME_MAX 64          /* bytes of a profile or label name, with the NUL */

/* limits enforced by the parsers (and their error messages) */
#define CDM_BLOCK_MIN 512ull                    /* bytes */
#define CDM_BLOCK_MAX (64 * CDM_MIB)            /* bytes */
#define CDM_QD_MAX 1024u
#define CDM_THREADS_MAX 256u
#define CDM_COUNT_MAX 100u
#define CDM_TIME_MAX 3600u                      /* seconds: --time, --interval, --warmup */
#define CDM_TIME_MAX_MS (CDM_TIME_MAX * 1000u)  /* the same in ms */
#define CDM_TIME_MIN_MS 100u                    /* ms: the shortest pass and warm-up, 0.1 s */
#define CDM_MIX_MIN 1u                          /* percent, --mix / W<pct> */
#define CDM_MIX_MAX 99u
#define CDM_SIZE_MIN CDM_BLOCK_MIN              /* bytes: a test file of one block */
#define CDM_SIZE_MAX CDM_PIB                    /* bytes, 1 PiB: no report's is larger */

enum cdm_pattern {
	CDM_SEQ = 0,
	CDM_RND = 1,
};

/*
 * one test of a profile: pattern, block size, queue depth, threads, and
 * (ORION-style "RND8K Q4T8 W20") a write percentage that makes it a mixed
 * test: each I/O a write with probability write_pct %, run once, in the
 * Mix section (docs/profile-format.md).
 */
struct cdm_spec {
	enum cdm_pattern pattern;
	uint64_t block;         /* bytes, multiple of 512, CDM_BLOCK_MIN..MAX */
	unsigned int qd;        /* I/Os in flight per thread, 1..CDM_QD_MAX */
	unsigned int threads;   /* 1..CDM_THREADS_MAX */
	unsigned int write_pct; /* 0 = not mixed; else CDM_MIX_MIN..CDM_MIX_MAX */
};

/*
 * cdm_spec_parse - parse a test spec such as "SEQ1M Q8T1" or "RND8K Q4T8 W20"
 * (Q, T and W in that order, each optional; Q and T default to 1, no W
 * means not mixed).
 * @s: NUL-terminated text.  @err: on failure, a one-line reason
 * ("bad test spec 'SEQ0K': block size must be 512B..64M, a multiple of 512").
 * Returns 0, or -EINVAL.
 */
int cdm_spec_parse(const char *s, struct cdm_spec *spec, struct cdm_err *err);

/*
 * cdm_spec_label - CDM's row label "SEQ    1MiB" / "RND    4KiB" /
 * "RND 1536KiB": pattern, block as %4d with MiB when a whole number of MiB,
 * else KiB; a block that is not a whole KiB prints in bytes, as "   512B", in
 * the same 7 columns.
 * Writes at most @len bytes including the NUL; returns @buf.
 */
char *cdm_spec_label(const struct cdm_spec *spec, char *buf, size_t len);

/*
 * cdm_spec_check - is @spec a test cdm could have run, as a reader of a
 * saved run or a report must ask before it prints one: its block
 * CDM_BLOCK_MIN..CDM_BLOCK_MAX bytes, Q 1..CDM_QD_MAX, T 1..@threads_max
 * (CDM_THREADS_MAX for one run; an aggregate of runs sums their threads)
 * and a write share of 0 or CDM_MIX_MIN..CDM_MIX_MAX %.
 * Returns NULL when it is, else @buf (@len bytes, NUL-terminated) saying
 * what is not: "Q=0 is outside 1..1024", "T=300 is outside 1..256", "a
 * block of 1 bytes is outside 512..67108864", "a write share of 100 % is
 * outside 1..99".
 */
const char *cdm_spec_check(const struct cdm_spec *spec, unsigned int threads_max, char *buf,
			   size_t len);

/*
 * cdm_spec_same - are @a and @b the same test: pattern, block size, Q, T
 * and write share, field by field (never memcmp: the struct has padding).
 * Returns 1 or 0.
 */
int cdm_spec_same(const struct cdm_spec *a, const struct cdm_spec *b);

/*
 * cdm_spec_name - the compact spec "SEQ1M Q8T1", "RND8K Q4T8 W20" (parseable
 * by cdm_spec_parse, to the same spec), for progress lines and notes.
 * Returns @buf.
 */
char *cdm_spec_name(const struct cdm_spec *spec, char *buf, size_t len);

#endif /* CDM_MODEL_SPEC_H */
