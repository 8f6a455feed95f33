/* SPDX-License-Identifier: MIT */
/*
 * cdm/target/outfile.h - the rules for the files cdm writes at the user's
 * request (--output, --save, --svg, --plot, of cdm and of every
 * subcommand): checked before a run, and every one replaced atomically (a
 * new file renamed into place), so an interrupted or failed write (a full
 * disk, a signal) never leaves a half-written, empty or temporary file;
 * only --output into what is not a regular file (a FIFO, a device) is
 * written in place.
 */
#ifndef CDM_OUTFILE_H
#define CDM_OUTFILE_H

#include <stdio.h>

struct cdm_err;

/*
 * cdm_outfile_check - may @path be written for option @opt ("--save")?
 * @replace: 1 when the file is written by cdm_outfile_write() (renamed into
 * place): then only a regular file may already be there (a device node, a
 * FIFO or a symlink is refused: it would be replaced, not written into);
 * 0 for --output (cdm_outfile_emit()), which writes a FIFO or a device
 * (/dev/stdout) in place and replaces a regular file, or the regular file
 * a symlink names, atomically.  A directory is always refused; an existing
 * file must be writable; where a file is created and renamed into place,
 * the directory must be writable and searchable.
 * Returns 0, or -EISDIR, -EINVAL or access(2)'s -errno with one line in
 * @err (may be NULL) naming @path, @opt and the problem.  Writes nothing.
 */
int cdm_outfile_check(const char *path, const char *opt, int replace, struct cdm_err *err);

/*
 * cdm_outfile_check_format - does the extension of @path's name agree with
 * what option @opt writes there: a file of @title ("CDM 7 text", "SVG"),
 * whose extension is @ext ("txt", "svg": the row of its format, struct
 * cdm_formatter)?  A name with @ext, or another extension of the same kind
 * of file (".text" for "txt"; the kinds are listed in outfile.c, case
 * ignored), is fine; one that says another kind (".png" for an SVG chart,
 * ".json" for a CSV report) is refused, with *.@ext suggested; no
 * extension, or one that names no kind (".out", ".log"), is fine, and so
 * is any name when @ext or @title is NULL.  Returns 0, or -EINVAL with one
 * line in @err (may be NULL) naming @path, what its name says and what
 * @opt writes.  Looks at the name only: no I/O.
 */
int cdm_outfile_check_format(const char *path, const char *opt, const char *ext,
			     const char *title, struct cdm_err *err);

/*
 * cdm_outfile_same - do @a and @b name the same file?  Both existing: the
 * same device and inode (so "./x" and "x", or a hard link, match); else the
 * same directory (by device and inode) and the same last component.  NULL
 * never matches.  Returns 1 or 0.
 */
int cdm_outfile_same(const char *a, const char *b);

/*
 * cdm_outfile_parent_dir - the directory part of @path, into @dir (at most
 * @len bytes with the NUL): "." for "f", "/" for "/f", "a/b" for "a/b/f".
 * Text only: nothing is looked up.
 */
void cdm_outfile_parent_dir(const char *path, char *dir, size_t len);

/*
 * cdm_outfile_relative - the path of the file @to as seen from the
 * directory of the file @from, into @buf (@len bytes): "img/card.svg" for
 * from "post/r.md", to "post/img/card.svg"; "../card.svg" for from
 * "post/r.md", to "card.svg".  Both directories must exist: they are
 * resolved with realpath(3) (symlinks, "..", the working directory), the
 * last components are kept as given.  What a Markdown report writes to
 * link an image beside it.  Returns 0, realpath's -errno, or
 * -ENAMETOOLONG.
 */
int cdm_outfile_relative(const char *from, const char *to, char *buf, size_t len);

/*
 * cdm_outfile_write - write @path atomically: @write(@f, @arg) renders the
 * whole file in memory first (a writer's own error, such as -EINVAL for
 * "nothing to draw", touches no file), then a new temporary file in the
 * same directory ("PATH.XXXXXX"; @path's mode when it replaces a file,
 * else 0666 less the umask) gets it with write(2), fsync(2) and close(2),
 * and is renamed over @path.  Any failure removes the temporary file and
 * leaves @path as it was.  SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1,
 * SIGUSR2 and SIGALRM are blocked meanwhile: one that comes (and is not
 * ignored) drops the new file (the temporary removed, @path untouched,
 * -EINTR) and then takes effect as the process has it set (the run's
 * handler records a stop; by default the process ends), so no signal
 * leaves a temporary or a half-written file behind.  @write returns 0 or
 * -errno.  Returns 0, @write's -errno, -ENOMEM, the -errno of the failed
 * step as the system call gave it (-ENOSPC on a full disk, -EDQUOT,
 * -EACCES, -EIO), -EINTR (a signal), or -ENAMETOOLONG.
 */
int cdm_outfile_write(const char *path, int (*write)(FILE *f, const void *arg),
		      const void *arg);

/*
 * cdm_outfile_emit - a command's report (--output, or stdout) written by
 * @write(@f, @arg), rendered in memory first as cdm_outfile_write() does:
 * NULL or "-" @path: to standard output (not atomic: it is a stream);
 * a regular file or a new one: cdm_outfile_write() (a symlink to a
 * regular file: the file it points to, replaced beside itself); anything
 * else that exists (a FIFO, /dev/null, /dev/stdout, a symlink to nothing)
 * is opened and written in place, as a shell's ">" does.  Returns 0,
 * @write's -errno, or the -errno of the failed step (-ENOSPC, -EPIPE,
 * -EINTR: see cdm_outfile_write()).
 */
int cdm_outfile_emit(const char *path, int (*write)(FILE *f, const void *arg),
		     const void *arg);

#endif /* CDM_OUTFILE_H */
