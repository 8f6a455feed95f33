/* SPDX-License-Identifier: MIT */
/*
 * msg.c - cdm's messages on stderr.  Every message is one line beginning
 * with "cdm: ", so a user (and a test) can tell them from the report.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cdm/base/msg.h"
#include "cdm/base/text.h"

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

/*
 * A message is one line whatever it quotes: a path or a label with a
 * newline or bytes that are not UTF-8 goes through the one rule for a
 * user's text (base/text.h), applied to the whole line.
 */
static void vmsg(const char *tag, const char *prefix, const char *fmt, va_list ap)
{
	char small[1024], *line = small;
	va_list aq;
	int n;

	if (cdm_msg_progress_clear)
		cdm_msg_progress_clear();
	va_copy(aq, ap);
	n = vsnprintf(small, sizeof(small), fmt, aq);
	va_end(aq);
	if (n >= (int)sizeof(small)) {
		line = malloc((size_t)n + 1);
		if (line)
			vsnprintf(line, (size_t)n + 1, fmt, ap);
		else
			line = small;   /* the message cut, rather than lost */
	}
	if (n < 0)
		small[0] = '\0';
	cdm_text_one_line(line);
	fprintf(stderr, "cdm: %s%s%s\n", tag, prefix, line);
	if (line != small)
		free(line);
}

void cdm_msg_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(cdm_msg_tag, "", fmt, ap);
	va_end(ap);
}

void cdm_msg_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(cdm_msg_tag, "warning: ", fmt, ap);
	va_end(ap);
}

void cdm_msg_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(cdm_msg_tag, "note: ", fmt, ap);
	va_end(ap);
}

void cdm_msg_vusage(const char *fmt, va_list ap)
{
	vmsg("", "", fmt, ap);
}

void cdm_msg_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", "", fmt, ap);
	va_end(ap);
}
