/* SPDX-License-Identifier: MIT */
/*
 * err.h - cdm's one error rule (docs/hacking.md, "Errors").
 *
 * A function below cli/ that fails returns a negative errno value (-EINVAL,
 * -ENOMEM, ...) and, when its caller passed a struct cdm_err, leaves there a
 * one-line message: no "cdm: " prefix, no newline, starting lowercase and
 * naming its subject (a path, an option, a test).  It never prints the
 * error and never exits.  Only cli/ prints the message (cdm_msg_error()) and
 * chooses the exit status.  Notes and warnings that do not end anything
 * (cdm_msg_note(), cdm_msg_warn() in msg.h) may be printed from any layer.
 *
 * The liburing way (return -errno, no hidden state) with git's one-line
 * message style.
 */
#ifndef CDM_BASE_ERR_H
#define CDM_BASE_ERR_H

/* longest message kept, in bytes including the NUL; longer ones are cut */
#define CDM_ERR_MAX 512

/* struct cdm_err - where a failing function leaves its message */
struct cdm_err {
	char msg[CDM_ERR_MAX];	/* "" until a message is set */
};

/*
 * cdm_err_set - format a message into @err (which may be NULL: the
 * message is then dropped) and return @code, so that a failure is one
 * line: `return cdm_err_set(err, -ENOMEM, "%s: out of memory", path);`.
 * @code: a negative errno value, returned unchanged.
 */
int cdm_err_set(struct cdm_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * cdm_err_prefix - put "@prefix: " in front of the message already in
 * @err (the caller adds its subject, e.g. the target); returns @code.
 */
int cdm_err_prefix(struct cdm_err *err, int code, const char *prefix);

#endif /* CDM_BASE_ERR_H */
