/* SPDX-License-Identifier: MIT */
/*
 * cdm/profile.h - test specs, sizes, and profiles (built-in or from a file).
 *
 * Test specs follow CrystalDiskMark's own labels: "SEQ1M Q8T1",
 * "RND4K Q32T16"; spaces optional ("RND4KQ32T16"), case-insensitive, Q and T
 * default to 1 when omitted.  Sizes: K/M/G/T and KiB/MiB/GiB/TiB are powers
 * of 1024 (CDM's "1GiB" setting); KB/MB/GB/TB are powers of 1000 (the report
 * header's "KB = 1000 bytes"); a bare number is bytes, "B" suffix allowed.
 *
 * Profile files: one `key = value` per line, '#' comments, `test` repeated
 * in run order; keys name, size, count, time, interval, warmup, mix, test.  See
 * docs/profile-format.md.  The files in profiles/ are compiled into the
 * binary (one source of truth).
 */
#ifndef CDM_PROFILE_H
#define CDM_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#define CDM_MAX_TESTS 32
#define CDM_NAME_MAX 64

/* limits enforced by the parsers (and their error messages) */
#define CDM_BLOCK_MIN 512ull                    /* bytes */
#define CDM_BLOCK_MAX (64ull << 20)             /* bytes */
#define CDM_QD_MAX 1024u
#define CDM_THREADS_MAX 256u
#define CDM_COUNT_MAX 100u
#define CDM_TIME_MAX 3600u                      /* seconds */
#define CDM_MIX_MIN 1u                          /* percent, --mix / W<pct> */
#define CDM_MIX_MAX 99u

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
 * @s: NUL-terminated text.  @err/@err_len: on failure, a one-line reason
 * ("bad test spec 'SEQ0K': block size must be 512B..64M, a multiple of 512").
 * Returns 0, or -EINVAL.
 */
int cdm_spec_parse(const char *s, struct cdm_spec *spec, char *err, size_t err_len);

/*
 * cdm_spec_label - CDM's row label "SEQ    1MiB" / "RND    4KiB" /
 * "RND 1536KiB": pattern, block as %4d with MiB when a whole number of MiB,
 * else KiB; a block that is not a whole KiB prints in bytes, as "   512B", in
 * the same 7 columns.
 * Writes at most @len bytes including the NUL; returns @buf.
 */
char *cdm_spec_label(const struct cdm_spec *spec, char *buf, size_t len);

/*
 * cdm_spec_name - the compact spec "SEQ1M Q8T1", "RND8K Q4T8 W20" (parseable
 * by cdm_spec_parse, to the same spec), for progress lines and notes.
 * Returns @buf.
 */
char *cdm_spec_name(const struct cdm_spec *spec, char *buf, size_t len);

/*
 * cdm_size_parse - parse a size ("1GiB", "512MiB", "64M", "1GB", "4096").
 * Returns 0 and sets *@bytes, or -EINVAL (garbage, zero, negative) or
 * -ERANGE (overflows 64 bits).
 */
int cdm_size_parse(const char *s, uint64_t *bytes);

/*
 * cdm_size_format - "1 GiB", "64 MiB", "4 KiB" or "1000 B": the largest
 * power-of-1024 unit that divides @bytes exactly (CDM's Test: line uses GiB,
 * and MiB below 1 GiB).  Returns @buf.
 */
char *cdm_size_format(uint64_t bytes, char *buf, size_t len);

/*
 * cdm_uint_parse - a whole decimal number in [@min, @max] with nothing
 * after it.  Returns 0, -EINVAL (not a number) or -ERANGE (out of range).
 */
int cdm_uint_parse(const char *s, unsigned long min, unsigned long max,
		   unsigned long *out);

struct cdm_profile {
	char name[CDM_NAME_MAX];        /* printed on the Profile: line */
	uint64_t size;                  /* bytes; 0 = not set */
	unsigned int count;             /* 0 = not set */
	unsigned int time;              /* seconds; 0 = not set */
	int interval;                   /* seconds; -1 = not set */
	int warmup;                     /* seconds; -1 = not set (same as time) */
	unsigned int mix;               /* Mix read percent (CDM_MIX_MIN..MAX); 0 = not set */
	unsigned int ntests;
	struct cdm_spec tests[CDM_MAX_TESTS];
};

/*
 * cdm_profile_parse - parse profile text.
 * @text: the file's contents (NUL-terminated); @file: the name used in
 * errors ("peak.cdm").  On failure @err gets "FILE:LINE: reason", e.g.
 * "peak.cdm:4: unknown key 'szie'".  Unknown keys, duplicate keys (other
 * than test), malformed values and a profile without tests are errors.
 * Returns 0 or -EINVAL.
 */
int cdm_profile_parse(const char *text, const char *file, struct cdm_profile *p,
		      char *err, size_t err_len);

/*
 * cdm_profile_load - a built-in profile by name (default, peak, real, demo,
 * nvme), or, when @name_or_path contains '/' or names no built-in, a file.
 * Returns 0, -ENOENT (no such built-in and no such file: @err says so and
 * lists the built-ins), -EINVAL (parse error, in @err), or another -errno
 * from reading the file (in @err, with the path).
 */
int cdm_profile_load(const char *name_or_path, struct cdm_profile *p,
		     char *err, size_t err_len);

/*
 * cdm_profile_builtin - the text of built-in profile @name, compiled in from
 * profiles/<name>.cdm, or NULL.  cdm_profile_builtin_names: NULL-terminated
 * list of their names, in a fixed order.  Both static.
 */
const char *cdm_profile_builtin(const char *name);
const char *const *cdm_profile_builtin_names(void);

#endif /* CDM_PROFILE_H */
