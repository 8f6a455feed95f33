/* SPDX-License-Identifier: MIT */
/*
 * unit.h - what the cmocka programs in tests/unit/ share (unit.c, linked
 * into every one of them by the Makefile): a formatter's output as a
 * string, the files of tests/fixtures/, and golden files compared line by
 * line.  Each helper fails the running test (cmocka's fail_msg) rather
 * than return an error.  The programs run from the repository root, or
 * with CDM_SRCDIR set to it.
 */
#ifndef CDM_TESTS_UNIT_H
#define CDM_TESTS_UNIT_H

#include <stddef.h>

#include "cdm/model/result.h"
#include "cdm/report/compare_table.h"
#include "cdm/format/formatter.h"

/*
 * unit_render - @r printed by the formatter of the registry named @format
 * ("cdm", "json", "svg", ...), which must succeed.  Returns the text,
 * NUL-terminated; the caller frees it.
 */
char *unit_render(const char *format, const struct cdm_run_result *r);

/*
 * unit_render_with - the same with the formatter @f itself;
 * unit_render_compare - the comparison @c in layout @format.  Both fail the
 * test when writing fails; the caller frees the text.
 */
char *unit_render_with(const struct cdm_formatter *f, const struct cdm_run_result *r);
char *unit_render_compare(const struct cdm_compare *c, enum cdm_compare_format format);

/*
 * unit_read_file - the whole file @path, NUL-terminated, its length in
 * *@len when @len is not NULL.  The caller frees it.
 */
char *unit_read_file(const char *path, size_t *len);

/*
 * unit_fixture - the whole file tests/fixtures/@name ("formats.json",
 * "cdm-reports/cdm7-default-nvme-1.txt"), as unit_read_file().
 */
char *unit_fixture(const char *name, size_t *len);

/*
 * unit_same_text - fail unless @got is @want byte for byte, naming @what,
 * the first line that differs and both versions of it (or where the
 * longer one goes on), so a failure is read without a diff.
 */
void unit_same_text(const char *got, const char *want, const char *what);

/*
 * unit_golden - unit_same_text() of @got and the golden file
 * tests/fixtures/@name.  With CDM_UPDATE_GOLDEN set in the environment,
 * @got is written to the file first (then read the diff before committing).
 */
void unit_golden(const char *got, const char *name);

/*
 * unit_hold_run - a run of fixed numbers with every setting of issue 14's
 * method (docs/method.md): --end-fsync, --steady-state --max-rounds 10,
 * --precondition (41.2 s), --verify, --cpus 0-1 (allowed 0-3, the device
 * on NUMA node 0, and a NUMA warning).  Its tests, run as rounds of 5 s,
 * their verdicts from cdm_steady_update(): SEQ1M Q8T1 Read, 2 fast rounds
 * then steady at round 7; RND4K Q32T1 Read, 10 rounds alternating 400k
 * and 300k IOPS, never steady; SEQ1M Q8T1 Write, constant, steady at
 * round 5, each round ending with its fdatasync.  The caller frees it.
 */
struct cdm_run_result *unit_hold_run(void);

/*
 * A fake tree of sysfs (and a mountinfo beside it) for the tests of
 * target/ (test_stack, test_numa), one at a time, under $TMPDIR (or /tmp).
 *
 * unit_fake_new - make the tree $TMPDIR/cdm-@tag.XXXXXX with class/block
 * and dev/block in it; returns its path (valid until unit_fake_remove()).
 * unit_fake_put - write @text to the file @rel (relative to the tree).
 * unit_fake_mkdirs - make the directory @rel and those above it.
 * unit_fake_link - make @rel a symbolic link to @target.
 * unit_fake_dev - a block device as sysfs has it: its directory at @rel
 * under devices/ (a partition inside its disk's), its "dev" file
 * holding @majmin, and the links class/block/NAME and dev/block/MAJ:MIN.
 * unit_fake_remove - remove the tree.
 * Each fails the running test rather than return an error.
 */
const char *unit_fake_new(const char *tag);
void unit_fake_put(const char *rel, const char *text);
void unit_fake_mkdirs(const char *rel);
void unit_fake_link(const char *target, const char *rel);
void unit_fake_dev(const char *rel, const char *majmin);
void unit_fake_remove(void);

#endif /* CDM_TESTS_UNIT_H */
