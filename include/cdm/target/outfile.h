/* SPDX-License-Identifier: MIT */
/*
 * cdm/target/outfile.h - the rules for the files cdm writes at the user's request
 * (--output, --save, --plot; cdm sweep and cdm merge too): checked before
 * a run, never written into anything but a regular file or a new one, and
 * --save/--plot replaced atomically (a new file renamed into place), so an
 * interrupted or failed write never leaves a half-written or empty file.
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
 * 0 for --output, which is opened and written in place (a FIFO or
 * /dev/stdout is fine).  A directory is always refused; an existing file
 * must be writable, a new one's directory writable and searchable.
 * Returns 0, or -EISDIR, -EINVAL or access(2)'s -errno with one line in
 * @err (may be NULL) naming @path, @opt and the problem.  Writes nothing.
 */
int cdm_outfile_check(const char *path, const char *opt, int replace, struct cdm_err *err);

/*
 * cdm_outfile_check_format - does the extension of @path's name agree with
 * @format, what option @opt writes there ("cdm", "cdm7" or "cdm6" text,
 * "json", "csv", "markdown", "svg")?  An extension that names another format (".png" for
 * an SVG chart, ".json" for a CSV report; the list is in outfile.c, case
 * ignored) is refused; no extension, or one that names no format
 * (".out", ".log"), is fine, and so is any name when @format is NULL or
 * unknown.  Returns 0, or -EINVAL with one line in @err (may be NULL)
 * naming @path, what its name says and what @opt writes.  Looks at the
 * name only: no I/O.
 */
int cdm_outfile_check_format(const char *path, const char *opt, const char *format,
			     struct cdm_err *err);

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
 * cdm_outfile_write - write @path atomically: @write(@f, @arg) fills a new
 * temporary file in the same directory ("PATH.XXXXXX", mode 0666 less the
 * umask), which is flushed, fsync()ed and renamed over @path.  Any failure
 * removes the temporary file and leaves @path as it was.  @write returns 0
 * or -errno.  Returns 0, @write's -errno, the -errno of the failed write,
 * fsync or rename (-ENOSPC, -EACCES, ...), or -ENAMETOOLONG.
 */
int cdm_outfile_write(const char *path, int (*write)(FILE *f, const void *arg),
		      const void *arg);

#endif /* CDM_OUTFILE_H */
