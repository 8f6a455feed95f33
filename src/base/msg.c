/* SPDX-License-Identifier: MIT */
/*
 * msg.c - cdm's messages on stderr.  Every message is one line beginning
 * with "cdm: ", so a user (and a test) can tell them from the report.
 */
#include <stdarg.h>
#include <stdio.h>

#include "cdm/base/msg.h"

void (*cdm_msg_progress_clear)(void);
char cdm_msg_tag[96];

static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
	if (cdm_msg_progress_clear)
		cdm_msg_progress_clear();
	fputs("cdm: ", stderr);
	fputs(cdm_msg_tag, stderr);
	fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void cdm_msg_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

void cdm_msg_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

void cdm_msg_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("note: ", fmt, ap);
	va_end(ap);
}
