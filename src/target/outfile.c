/* SPDX-License-Identifier: MIT */
/*
 * outfile.c - checks and atomic writes for the files cdm writes at the
 * user's request (include/cdm/target/outfile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cdm/base/err.h"
#include "cdm/target/outfile.h"

void cdm_outfile_parent_dir(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, len, ".");
	else if (slash == path)
		snprintf(dir, len, "/");
	else
		snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

int cdm_outfile_check(const char *path, const char *opt, int replace, struct cdm_err *err)
{
	char dir[PATH_MAX];
	struct stat st;

	if (lstat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return cdm_err_set(err, -EISDIR, "%s: is a directory, not a file for %s",
					   path, opt);
		if (replace && !S_ISREG(st.st_mode))
			return cdm_err_set(err, -EINVAL,
					   "%s: not a regular file; %s writes a new file and renames it into place",
					   path, opt);
		if (access(path, W_OK) < 0)
			return cdm_err_set(err, -errno, "%s: cannot write to it for %s: %s", path,
					   opt, strerror(errno));
		return 0;
	}
	cdm_outfile_parent_dir(path, dir, sizeof(dir));
	if (access(dir, W_OK | X_OK) < 0)
		return cdm_err_set(err, -errno, "%s: cannot create the file for %s: %s", path, opt,
				   strerror(errno));
	return 0;
}

/*
 * Extensions that say a format, and the formats cdm writes.  An extension
 * not listed says nothing (report.out, results.log, no extension at all)
 * and is accepted for any output.
 */
static const struct {
	const char *ext;
	const char *says;               /* what a reader takes the file for */
	const char *format;             /* the cdm format it is, or NULL */
} known_exts[] = {
	{ "txt", "text", "cdm" }, { "text", "text", "cdm" },
	{ "json", "JSON", "json" }, { "csv", "CSV", "csv" },
	{ "md", "Markdown", "markdown" }, { "markdown", "Markdown", "markdown" },
	{ "svg", "SVG", "svg" },
	{ "png", "PNG", NULL }, { "jpg", "JPEG", NULL }, { "jpeg", "JPEG", NULL },
	{ "gif", "GIF", NULL }, { "webp", "WebP", NULL }, { "bmp", "BMP", NULL },
	{ "tif", "TIFF", NULL }, { "tiff", "TIFF", NULL }, { "pdf", "PDF", NULL },
	{ "eps", "PostScript", NULL }, { "ps", "PostScript", NULL },
	{ "html", "HTML", NULL }, { "htm", "HTML", NULL }, { "xml", "XML", NULL },
	{ "tsv", "TSV", NULL }, { "yaml", "YAML", NULL }, { "yml", "YAML", NULL },
	{ "xls", "a spreadsheet", NULL }, { "xlsx", "a spreadsheet", NULL },
	{ "ods", "a spreadsheet", NULL },
};

/* @kind: the known_exts[] format whose extensions fit (CDM 6 and 7 text are text) */
static const struct {
	const char *format, *name, *ext, *kind;
} written[] = {
	{ "cdm", "CDM text", "txt", "cdm" }, { "cdm7", "CDM 7 text", "txt", "cdm" },
	{ "cdm6", "CDM 6 text", "txt", "cdm" },
	{ "json", "JSON", "json", "json" }, { "csv", "CSV", "csv", "csv" },
	{ "markdown", "Markdown", "md", "markdown" }, { "svg", "SVG", "svg", "svg" },
};

int cdm_outfile_check_format(const char *path, const char *opt, const char *format,
			     struct cdm_err *err)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	const char *dot = strrchr(base, '.');
	size_t i, w;

	for (w = 0; w < sizeof(written) / sizeof(written[0]); w++)
		if (format && !strcmp(written[w].format, format))
			break;
	/* a leading dot is a hidden file's name, not an extension */
	if (w == sizeof(written) / sizeof(written[0]) || !dot || dot == base)
		return 0;
	for (i = 0; i < sizeof(known_exts) / sizeof(known_exts[0]); i++) {
		if (strcasecmp(dot + 1, known_exts[i].ext))
			continue;
		if (known_exts[i].format && !strcmp(known_exts[i].format, written[w].kind))
			return 0;
		return cdm_err_set(err, -EINVAL,
				   "%s: the name says %s, but %s writes %s: name it *.%s (or give no extension)",
				   path, known_exts[i].says, opt, written[w].name, written[w].ext);
	}
	return 0;
}

int cdm_outfile_same(const char *a, const char *b)
{
	char da[PATH_MAX], db[PATH_MAX];
	const char *ba, *bb;
	struct stat sa, sb;

	if (!a || !b)
		return 0;
	if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	ba = strrchr(a, '/') ? strrchr(a, '/') + 1 : a;
	bb = strrchr(b, '/') ? strrchr(b, '/') + 1 : b;
	if (strcmp(ba, bb))
		return 0;
	cdm_outfile_parent_dir(a, da, sizeof(da));
	cdm_outfile_parent_dir(b, db, sizeof(db));
	if (stat(da, &sa) == 0 && stat(db, &sb) == 0)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	return strcmp(a, b) == 0;
}

/* the next component of *@p (skipping slashes): its length, *@p at it */
static size_t component(const char **p)
{
	while (**p == '/')
		(*p)++;
	return strcspn(*p, "/");
}

int cdm_outfile_relative(const char *from, const char *to, char *buf, size_t len)
{
	char fd[PATH_MAX], td[PATH_MAX], rf[PATH_MAX], rt[PATH_MAX];
	const char *base = strrchr(to, '/') ? strrchr(to, '/') + 1 : to, *a = rf, *b = rt;
	size_t used = 0, la, lb;
	int n;

	cdm_outfile_parent_dir(from, fd, sizeof(fd));
	cdm_outfile_parent_dir(to, td, sizeof(td));
	if (!realpath(fd, rf) || !realpath(td, rt))
		return -errno;
	/* past the components both directories share */
	for (;;) {
		const char *sa = a, *sb = b;

		la = component(&sa);
		lb = component(&sb);
		if (!la || la != lb || strncmp(sa, sb, la))
			break;
		a = sa + la;
		b = sb + lb;
	}
	buf[0] = '\0';
	while ((la = component(&a)) != 0) {     /* up out of from's own */
		n = snprintf(buf + used, len - used, "../");
		if (n < 0 || (size_t)n >= len - used)
			return -ENAMETOOLONG;
		used += (size_t)n;
		a += la;
	}
	while ((lb = component(&b)) != 0) {     /* down into to's */
		n = snprintf(buf + used, len - used, "%.*s/", (int)lb, b);
		if (n < 0 || (size_t)n >= len - used)
			return -ENAMETOOLONG;
		used += (size_t)n;
		b += lb;
	}
	n = snprintf(buf + used, len - used, "%s", base);
	if (n < 0 || (size_t)n >= len - used)
		return -ENAMETOOLONG;
	return 0;
}

int cdm_outfile_write(const char *path, int (*write)(FILE *f, const void *arg),
		      const void *arg)
{
	char tmp[PATH_MAX];
	mode_t mask;
	FILE *f;
	int fd, ret = 0;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= sizeof(tmp))
		return -ENAMETOOLONG;
	/* same directory as @path, so that rename() is atomic */
	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	/* mkstemp makes 0600; an output is as readable as any report */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) < 0) {
		ret = -errno;
		close(fd);
		goto fail;
	}
	f = fdopen(fd, "w");
	if (!f) {
		ret = -errno;
		close(fd);
		goto fail;
	}
	errno = 0;
	ret = write(f, arg);
	if (!ret && (fflush(f) || ferror(f)))
		ret = errno ? -errno : -EIO;
	if (!ret && fsync(fd) < 0)
		ret = -errno;
	errno = 0;
	if (fclose(f) != 0 && !ret)
		ret = errno ? -errno : -EIO;
	if (ret)
		goto fail;
	if (rename(tmp, path) < 0) {
		ret = -errno;
		goto fail;
	}
	return 0;
fail:
	unlink(tmp);
	return ret;
}
