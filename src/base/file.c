/* SPDX-License-Identifier: MIT */
/*
 * file.c - reading a small file whole, or one value of it (file.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdm/base/file.h"

/* the first read's buffer; it doubles up to the caller's limit */
#define FILE_CHUNK 65536

int cdm_file_read_all(const char *path, size_t max, char **text, size_t *len,
		      struct cdm_err *err)
{
	FILE *f = fopen(path, "rbe");
	char *buf = NULL, *nb;
	size_t cap = 0, got, n = 0;
	int ret;

	*text = NULL;
	*len = 0;
	if (!f)
		return cdm_err_set(err, -errno, "%s", strerror(errno));
	do {
		/* room for one byte more than @max, to tell "exactly max" from "more" */
		if (n == cap) {
			if (cap > max) {
				ret = cdm_err_set(err, -EFBIG, "larger than %zu bytes", max);
				goto fail;
			}
			cap = cap ? cap * 2 : FILE_CHUNK;
			if (cap > max + 1)
				cap = max + 1;
			nb = realloc(buf, cap + 1);
			if (!nb) {
				ret = cdm_err_set(err, -ENOMEM, "%s", strerror(ENOMEM));
				goto fail;
			}
			buf = nb;
		}
		errno = 0;
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got);
	if (ferror(f)) {
		ret = errno ? -errno : -EIO;
		cdm_err_set(err, ret, "read error: %s", strerror(-ret));
		goto fail;
	}
	if (n > max) {
		ret = cdm_err_set(err, -EFBIG, "larger than %zu bytes", max);
		goto fail;
	}
	fclose(f);
	if (!buf) {     /* an empty file: still a NUL-terminated text */
		buf = malloc(1);
		if (!buf)
			return cdm_err_set(err, -ENOMEM, "%s", strerror(ENOMEM));
	}
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return 0;
fail:
	free(buf);
	fclose(f);
	return ret;
}

int cdm_file_read_line(const char *path, char *buf, size_t len)
{
	FILE *fp = fopen(path, "re");
	int ret = -ENODATA;

	if (len)
		buf[0] = '\0';
	if (!fp)
		return -errno;
	if (len && fgets(buf, (int)len, fp)) {
		buf[strcspn(buf, "\n")] = '\0';
		ret = 0;
	}
	fclose(fp);
	return ret;
}

int cdm_file_read_u64(const char *path, uint64_t *v)
{
	char buf[64], *end;
	unsigned long long x;
	const char *p;
	int ret;

	*v = 0;
	ret = cdm_file_read_line(path, buf, sizeof(buf));
	if (ret)
		return ret;
	p = buf + strspn(buf, " \t");
	if (*p < '0' || *p > '9')
		return -EINVAL;
	errno = 0;
	x = strtoull(p, &end, 10);
	if (errno == ERANGE)
		return -EINVAL;
	*v = x;
	return 0;
}

int cdm_file_read_field(const char *path, const char *key, char *val, size_t len)
{
	FILE *fp = fopen(path, "re");
	size_t klen = strlen(key);
	char line[256];
	int ret = -ENOENT;

	if (!fp)
		return -errno;
	while (fgets(line, sizeof(line), fp)) {
		if (strncmp(line, key, klen) != 0 || line[klen] != ':')
			continue;
		snprintf(val, len, "%s", line + klen + 1 + strspn(line + klen + 1, " \t"));
		val[strcspn(val, "\n")] = '\0';
		ret = 0;
		break;
	}
	fclose(fp);
	return ret;
}
