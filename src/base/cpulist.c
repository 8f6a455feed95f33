/* SPDX-License-Identifier: MIT */
/*
 * cpulist.c - the kernel's cpulist form ("0-3,8", "0-15:2/4") read into
 * sorted CPU numbers and printed back in its canonical, shortest form
 * (include/cdm/base/cpulist.h).  The parser is strict, like the kernel's
 * bitmap_parselist(): a list that is not clearly one is refused rather
 * than guessed at.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdm/base/ascii.h"
#include "cdm/base/cpulist.h"
#include "cdm/base/err.h"
#include "cdm/base/uint.h"

#define LIMIT_MAX 65536u        /* unsigned short numbers */

/* one number of @item at *@sp into *@v; -EINVAL naming @item when none */
static int number(const char **sp, const char *item, size_t ilen, unsigned int limit,
		  unsigned int *v, struct cdm_err *err)
{
	const char *typed = *sp;
	uint64_t x;

	if (!cdm_ascii_is_digit(**sp))
		return cdm_err_set(err, -EINVAL, "'%.*s' is not a CPU number", (int)ilen, item);
	cdm_uint_scan(sp, UINT32_MAX, &x);
	/* the digits as typed: a number past the scan's cap reads as cap + 1 */
	if (x >= limit)
		return cdm_err_set(err, -ERANGE, "CPU %.*s is past the highest CPU cdm can use, %u",
				   (int)(*sp - typed), typed, limit - 1);
	*v = (unsigned int)x;
	return 0;
}

/* a stride's USED or GROUP: a whole number 1 .. 65536 */
static int stride_part(const char **sp, const char *item, size_t ilen, unsigned int *v,
		       struct cdm_err *err)
{
	uint64_t x = 0;

	if (cdm_ascii_is_digit(**sp))
		cdm_uint_scan(sp, LIMIT_MAX, &x);
	if (x == 0 || x > LIMIT_MAX)
		return cdm_err_set(err, -EINVAL,
				   "the stride of '%.*s' is not USED/GROUP (1 <= USED <= GROUP)",
				   (int)ilen, item);
	*v = (unsigned int)x;
	return 0;
}

/* one item A, A-B or A-B:U/G of length @ilen at @item, marked in @seen */
static int item(const char *item, size_t ilen, unsigned int limit, unsigned char *seen,
		struct cdm_err *err)
{
	const char *s = item, *end = item + ilen;
	unsigned int a, b, used = 1, group = 1;
	int r;

	if (!ilen)
		return cdm_err_set(err, -EINVAL, "an empty item (two commas, or one at an end)");
	r = number(&s, item, ilen, limit, &a, err);
	if (r < 0)
		return r;
	b = a;
	if (s < end && *s == '-') {
		s++;
		r = number(&s, item, ilen, limit, &b, err);
		if (r < 0)
			return r;
		if (b < a)
			return cdm_err_set(err, -EINVAL, "the range %u-%u runs downward (%u-%u)",
					   a, b, b, a);
		if (s < end && *s == ':') {
			s++;
			r = stride_part(&s, item, ilen, &used, err);
			if (r == 0 && (s >= end || *s != '/'))
				r = cdm_err_set(err, -EINVAL,
						"the stride of '%.*s' is not USED/GROUP (1 <= USED <= GROUP)",
						(int)ilen, item);
			if (r == 0) {
				s++;
				r = stride_part(&s, item, ilen, &group, err);
			}
			if (r < 0)
				return r;
			if (used > group)
				return cdm_err_set(err, -EINVAL,
						   "the stride of '%.*s' uses %u CPUs of each group of %u",
						   (int)ilen, item, used, group);
		}
	}
	if (s != end)
		return cdm_err_set(err, -EINVAL, "'%.*s' is not a CPU number or range", (int)ilen, item);
	/* the kernel's stride: of each GROUP CPUs from A on, the first USED */
	for (unsigned int c = a; c <= b; c++)
		if ((c - a) % group < used)
			seen[c] = 1;
	return 0;
}

int cdm_cpulist_parse(const char *text, unsigned int limit, unsigned short *cpus,
		      unsigned int *n, struct cdm_err *err)
{
	unsigned char *seen;
	const char *p = text;
	unsigned int k = 0;
	int r = 0;

	if (!text || !*text)
		return cdm_err_set(err, -EINVAL, "an empty list");
	if (!limit || limit > LIMIT_MAX)
		return cdm_err_set(err, -EINVAL, "no CPU can be named (a limit of %u)", limit);
	seen = calloc(limit, 1);
	if (!seen)
		return cdm_err_set(err, -ENOMEM, "out of memory");
	for (;;) {
		size_t len = strcspn(p, ",");

		r = item(p, len, limit, seen, err);
		if (r < 0 || !p[len])
			break;
		p += len + 1;
	}
	if (r == 0) {
		for (unsigned int c = 0; c < limit; c++)
			if (seen[c])
				cpus[k++] = (unsigned short)c;
		*n = k;
	}
	free(seen);
	return r;
}

int cdm_cpulist_format(const unsigned short *cpus, unsigned int n, char *buf, size_t len)
{
	size_t at = 0, cut = 0;         /* cut: the last item end with room for ",..." */
	char one[32];

	buf[0] = '\0';
	for (unsigned int i = 0; i < n;) {
		unsigned int j = i;
		int w;

		while (j + 1 < n && cpus[j + 1] == cpus[j] + 1)
			j++;
		if (j > i)
			w = snprintf(one, sizeof(one), "%s%u-%u", at ? "," : "", cpus[i], cpus[j]);
		else
			w = snprintf(one, sizeof(one), "%s%u", at ? "," : "", cpus[i]);
		if (at + (size_t)w >= len) {
			snprintf(buf + cut, len - cut, "%s", cut ? ",..." : "...");
			return -ENOSPC;
		}
		memcpy(buf + at, one, (size_t)w + 1);
		at += (size_t)w;
		if (at + 4 < len)
			cut = at;
		i = j + 1;
	}
	return 0;
}
