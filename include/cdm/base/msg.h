/* SPDX-License-Identifier: MIT */
/*
 * msg.h - cdm's one-line messages on stderr: "cdm: <message>".  Errors are
 * printed by cli/ only (err.h says the rule); notes and warnings by any
 * layer.
 */
#ifndef CDM_BASE_MSG_H
#define CDM_BASE_MSG_H

#include <stdarg.h>

/*
 * cdm_msg_error - print "cdm: <message>" on stderr (git's error() format);
 * cli/ only, after a function returned an error (err.h).
 * cdm_msg_warn - "cdm: warning: <message>".
 * cdm_msg_note - "cdm: note: <message>".
 * Messages start lowercase, name their subject, and have no full stop.
 * Every message is one line: what it quotes (a path, a label) goes through
 * cdm_text_one_line() (base/text.h) with the rest of the line.
 */
void cdm_msg_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cdm_msg_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cdm_msg_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * cdm_msg_usage, cdm_msg_vusage - "cdm: <message>" as cdm_msg_error()
 * prints it, without cdm_msg_tag: a usage error, the same on every rank of
 * cdm-mpi.  cli/ only (cli.h's cdm_cli_usage()).
 */
void cdm_msg_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cdm_msg_vusage(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/*
 * cdm_msg_hold_std_fds - call first in main(): open /dev/null, read-only,
 * on each of descriptors 0, 1 and 2 that is closed (cdm 2>&-), so that no
 * file cdm opens later (the test file, a report) takes its number and
 * gets the messages or the report written into it.  Writes to a closed
 * stdout or stderr still fail, with EBADF, as they would have.
 */
void cdm_msg_hold_std_fds(void);

/*
 * cdm_msg_progress_clear - erase the progress line on stderr, if one is shown,
 * before a message is printed.  Set by the progress display.
 */
extern void (*cdm_msg_progress_clear)(void);

/*
 * cdm_msg_tag - when not empty, printed after "cdm: " in every message:
 * cdm-mpi sets it to "rank 2 (host): " so a message names its rank.
 */
extern char cdm_msg_tag[96];

#endif /* CDM_BASE_MSG_H */
