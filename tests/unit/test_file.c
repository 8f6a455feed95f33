/* SPDX-License-Identifier: MIT */
/*
 * test_file.c - reading a small file whole or one value of it
 * (base/file.h) on real files in a temporary directory: the whole text
 * NUL-terminated at its limit and one byte past it, an empty file, a
 * directory and a missing file with their errors; a number at the start
 * of a line (sysfs, /proc) and what is not one; a "Key: value" line and a
 * key that only starts another.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cdm/base/err.h"
#include "cdm/base/file.h"

static char dir[] = "/tmp/cdm-test-file.XXXXXX";
static char path[PATH_MAX];

/* the file @name in the temporary directory, holding @len bytes of @s */
static const char *put(const char *name, const char *s, size_t len)
{
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(s, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	return path;
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	static const char *const names[] = { "a", "max", "over", "empty", "nul", "n", "st" };

	(void)state;
	for (unsigned int i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	return rmdir(dir);
}

static void test_read_all(void **state)
{
	struct cdm_err err = { "" };
	char *text = (char *)1, big[70000];
	size_t len = 99;

	(void)state;
	assert_int_equal(cdm_file_read_all(put("a", "hello\n", 6), 64, &text, &len, &err), 0);
	assert_int_equal(len, 6);
	assert_string_equal(text, "hello\n");
	free(text);

	/* exactly the limit is read; one byte more is refused, past the first chunk too */
	memset(big, 'x', sizeof(big));
	assert_int_equal(cdm_file_read_all(put("max", big, sizeof(big)), sizeof(big), &text, &len, &err), 0);
	assert_int_equal(len, sizeof(big));
	assert_int_equal(text[len], '\0');
	free(text);
	assert_int_equal(cdm_file_read_all(put("over", big, sizeof(big)), sizeof(big) - 1, &text, &len,
					   &err), -EFBIG);
	assert_null(text);
	assert_int_equal(len, 0);
	assert_string_equal(err.msg, "larger than 69999 bytes");
	assert_int_equal(cdm_file_read_all(path, 6, &text, &len, &err), -EFBIG);

	/* empty: a text of length 0; a NUL inside is kept for the caller to judge */
	assert_int_equal(cdm_file_read_all(put("empty", "", 0), 64, &text, &len, &err), 0);
	assert_int_equal(len, 0);
	assert_string_equal(text, "");
	free(text);
	assert_int_equal(cdm_file_read_all(put("nul", "a\0b", 3), 64, &text, &len, &err), 0);
	assert_int_equal(len, 3);
	assert_memory_equal(text, "a\0b", 4);
	free(text);

	/* a directory opens and fails on its read; a missing file on its open */
	assert_int_equal(cdm_file_read_all(dir, 64, &text, &len, &err), -EISDIR);
	assert_string_equal(err.msg, "read error: Is a directory");
	assert_null(text);
	snprintf(path, sizeof(path), "%s/none", dir);
	assert_int_equal(cdm_file_read_all(path, 64, &text, &len, &err), -ENOENT);
	assert_string_equal(err.msg, "No such file or directory");
}

static void test_read_u64(void **state)
{
	uint64_t v = 7;

	(void)state;
	assert_int_equal(cdm_file_read_u64(put("n", "4096\n", 5), &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(cdm_file_read_u64(put("n", " \t18446744073709551615\n", 23), &v), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(cdm_file_read_u64(put("n", "1/123 x", 7), &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(cdm_file_read_u64(put("n", "18446744073709551616", 20), &v), -EINVAL);
	assert_int_equal(v, 0);
	assert_int_equal(cdm_file_read_u64(put("n", "-1\n", 3), &v), -EINVAL);
	assert_int_equal(cdm_file_read_u64(put("n", "[none] 1\n", 9), &v), -EINVAL);
	assert_int_equal(cdm_file_read_u64(put("n", "", 0), &v), -ENODATA);
	snprintf(path, sizeof(path), "%s/none", dir);
	assert_int_equal(cdm_file_read_u64(path, &v), -ENOENT);
	assert_int_equal(v, 0);
}

static void test_read_field(void **state)
{
	static const char st[] = "Name:\tcdm\nCapEffX:\t1\nCapEff:\t0000000000200000\nSeccomp:\t2\n";
	char val[8];

	(void)state;
	put("st", st, sizeof(st) - 1);
	assert_int_equal(cdm_file_read_field(path, "CapEff", val, sizeof(val)), 0);
	assert_string_equal(val, "0000000");     /* cut to fit */
	assert_int_equal(cdm_file_read_field(path, "Seccomp", val, sizeof(val)), 0);
	assert_string_equal(val, "2");
	assert_int_equal(cdm_file_read_field(path, "Cap", val, sizeof(val)), -ENOENT);
	assert_int_equal(cdm_file_read_field(path, "Seccomp:", val, sizeof(val)), -ENOENT);
	snprintf(path, sizeof(path), "%s/none", dir);
	assert_int_equal(cdm_file_read_field(path, "Name", val, sizeof(val)), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_all),
		cmocka_unit_test(test_read_u64),
		cmocka_unit_test(test_read_field),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
