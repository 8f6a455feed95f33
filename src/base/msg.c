/* SPDX-License-Identifier: MIT */
/*
 * msg.c - cdm's messages on stderr.  Every message is one line beginning
 * with "cdm: ", so a user (and a test) can tell them from the report.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "cdm/base/msg.h"

void (*cdm_msg_progress_clear)(void);

void cdm_msg_hold_std_fds(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		int n;

		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		/* the lowest free number is fd: open(2) takes it */
		n = open("/dev/null", O_RDONLY);
		if (n >= 0 && n != fd)
			close(n);
	}
}
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
