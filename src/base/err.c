/* SPDX-License-Identifier: MIT */
/*
 * err.c - the error rule's message slot (include/cdm/base/err.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cdm/base/err.h"

int cdm_err_set(struct cdm_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return code;
}

int cdm_err_prefix(struct cdm_err *err, int code, const char *prefix)
{
	char tmp[CDM_ERR_MAX];
	size_t used, len;

	if (!err)
		return code;
	snprintf(tmp, sizeof(tmp), "%s: ", prefix);
	used = strlen(tmp);
	len = strnlen(err->msg, sizeof(err->msg));
	if (len > sizeof(tmp) - 1 - used)
		len = sizeof(tmp) - 1 - used;
	memcpy(tmp + used, err->msg, len);
	tmp[used + len] = '\0';
	memcpy(err->msg, tmp, used + len + 1);
	return code;
}
