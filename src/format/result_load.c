/* SPDX-License-Identifier: MIT */
/*
 * result_load.c - any result into the model (include/cdm/format/
 * result_load.h): cdm's JSON (result_read.c) or a CrystalDiskMark text
 * report (cdm_read.c), chosen by the first byte of the text, so that
 * `cdm compare windows-san.txt local.json` takes both in any order
 * whatever the files are called.
 */
#include <errno.h>
#include <stdlib.h>

#include "cdm/base/file.h"
#include "cdm/format/cdm_read.h"
#include "cdm/base/json.h"
#include "cdm/format/result_load.h"
#include "cdm/format/result_read.h"
#include "cdm/format/sweep_json.h"

/* the first byte after a UTF-8 BOM and blanks, or -1 when there is none */
static int first_byte(const char *text, size_t len)
{
	const unsigned char *u = (const unsigned char *)text;
	size_t i = 0;

	if (len >= 3 && u[0] == 0xef && u[1] == 0xbb && u[2] == 0xbf)
		i = 3;
	while (i < len && (u[i] == ' ' || u[i] == '\t' || u[i] == '\r' || u[i] == '\n'))
		i++;
	return i < len ? u[i] : -1;
}

static int is_json(const char *text, size_t len)
{
	return first_byte(text, len) == '{';
}

int cdm_result_load(const char *text, size_t len, const char *file, unsigned int flags,
		    struct cdm_run_result **out, struct cdm_err *err)
{
	int ret;

	*out = NULL;
	if (first_byte(text, len) < 0)
		return cdm_err_set(err, -EINVAL, "empty file, not a cdm result or a CrystalDiskMark report");
	if (is_json(text, len))
		ret = cdm_result_read(text, len, flags, out, err);
	else
		ret = cdm_cdm_read(text, len, file, out, err);
	/* a label from a file's name, a Comment, a JSON string: one line each */
	if (!ret)
		cdm_result_info_one_line(&(*out)->info);
	return ret;
}

int cdm_result_load_saved(const char *path, const char *name, unsigned int flags,
			  struct cdm_run_result **out, struct cdm_sweep **sweep, struct cdm_err *err)
{
	char *text;
	size_t len;
	int ret;

	*out = NULL;
	if (sweep)
		*sweep = NULL;
	ret = cdm_file_read_all(path, CDM_JSON_MAX_BYTES, &text, &len, err);
	if (ret == -EFBIG)      /* the JSON reader's own limit, and its code */
		return cdm_err_set(err, -E2BIG, "larger than %u MiB, not a cdm result",
				   CDM_JSON_MAX_BYTES >> 20);
	if (ret)
		return ret;
	/* a sweep's JSON, when the caller takes one; anything else is a result */
	ret = sweep && is_json(text, len) ? cdm_sweep_json_read(text, len, sweep, err) : -ENOMSG;
	if (ret == -ENOMSG)
		ret = cdm_result_load(text, len, name ? name : path, flags, out, err);
	free(text);
	return ret;
}

int cdm_result_load_file(const char *path, const char *name, unsigned int flags,
			 struct cdm_run_result **out, struct cdm_err *err)
{
	return cdm_result_load_saved(path, name, flags, out, NULL, err);
}
