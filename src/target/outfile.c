/* SPDX-License-Identifier: MIT */
/*
 * outfile.c - checks and atomic writes for the files cdm writes at the
 * user's request (include/cdm/target/outfile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cdm/base/err.h"
#include "cdm/base/sig.h"
#include "cdm/base/text.h"
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
	char dir[PATH_MAX], real[PATH_MAX];
	const char *where = path;
	struct stat st;
	int exists = lstat(path, &st) == 0;

	if (exists) {
		if (S_ISDIR(st.st_mode) || (!replace && stat(path, &st) == 0 && S_ISDIR(st.st_mode)))
			return cdm_err_set(err, -EISDIR, "%s: is a directory, not a file for %s",
					   path, opt);
		if (replace && !S_ISREG(st.st_mode))
			return cdm_err_set(err, -EINVAL,
					   "%s: not a regular file; %s writes a new file and renames it into place",
					   path, opt);
		if (access(path, W_OK) < 0)
			return cdm_err_set(err, -errno, "%s: cannot write to it for %s: %s", path,
					   opt, strerror(errno));
		/* --output into a FIFO or a device: written in place (outfile_emit) */
		if (!replace && (stat(path, &st) < 0 || !S_ISREG(st.st_mode)))
			return 0;
		if (!replace && realpath(path, real))
			where = real;
	}
	/* a new file is made beside @where and renamed over it */
	cdm_outfile_parent_dir(where, dir, sizeof(dir));
	/* access() of a file in the directory's place says EACCES, not why */
	if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode))
		return cdm_err_set(err, -ENOTDIR, "%s: cannot create the file for %s: %s is not a directory",
				   path, opt, dir);
	if (access(dir, W_OK | X_OK) < 0 && exists)
		return cdm_err_set(err, -errno, "%s: cannot replace it for %s: its directory %s: %s",
				   path, opt, dir, strerror(errno));
	if (access(dir, W_OK | X_OK) < 0)
		return cdm_err_set(err, -errno, "%s: cannot create the file for %s: %s", path, opt,
				   strerror(errno));
	return 0;
}

/*
 * The kinds of file a name's extension says, case ignored: those cdm
 * writes (a format's row names its extension, struct cdm_formatter) and
 * others a reader might take a file for.  An extension not listed says
 * nothing (report.out, results.log, no extension at all) and is accepted
 * for any output.
 */
static const struct {
	const char *says;               /* what a reader takes the file for */
	const char *exts[4];            /* its extensions, NULL-terminated */
} kinds[] = {
	{ "text", { "txt", "text" } }, { "JSON", { "json" } }, { "CSV", { "csv" } },
	{ "Markdown", { "md", "markdown" } }, { "SVG", { "svg" } },
	{ "PNG", { "png" } }, { "JPEG", { "jpg", "jpeg" } }, { "GIF", { "gif" } },
	{ "WebP", { "webp" } }, { "BMP", { "bmp" } }, { "TIFF", { "tif", "tiff" } },
	{ "PDF", { "pdf" } }, { "PostScript", { "eps", "ps" } },
	{ "HTML", { "html", "htm" } }, { "XML", { "xml" } }, { "TSV", { "tsv" } },
	{ "YAML", { "yaml", "yml" } }, { "a spreadsheet", { "xls", "xlsx", "ods" } },
};

#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

/* the row of kinds[] that extension @ext says, or NKINDS */
static size_t kind_of(const char *ext)
{
	size_t k, e;

	for (k = 0; k < NKINDS; k++)
		for (e = 0; kinds[k].exts[e]; e++)
			if (!strcasecmp(ext, kinds[k].exts[e]))
				return k;
	return NKINDS;
}

int cdm_outfile_check_format(const char *path, const char *opt, const char *ext,
			     const char *title, struct cdm_err *err)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	const char *dot = strrchr(base, '.');
	size_t named;

	/* a leading dot is a hidden file's name, not an extension */
	if (!ext || !title || !dot || dot == base || !strcasecmp(dot + 1, ext))
		return 0;
	named = kind_of(dot + 1);
	if (named == NKINDS || named == kind_of(ext))
		return 0;
	return cdm_err_set(err, -EINVAL,
			   "%s: the name says %s, but %s writes %s: name it *.%s (or give no extension)",
			   path, kinds[named].says, opt, title, ext);
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
		if (cdm_text_add(buf, len, &used, "../") < 0)
			return -ENAMETOOLONG;
		a += la;
	}
	while ((lb = component(&b)) != 0) {     /* down into to's */
		if (cdm_text_add(buf, len, &used, "%.*s/", (int)lb, b) < 0)
			return -ENAMETOOLONG;
		b += lb;
	}
	return cdm_text_add(buf, len, &used, "%s", base) < 0 ? -ENAMETOOLONG : 0;
}

/*
 * The signals that ask cdm to stop (a user's Ctrl-C, kill, a hangup,
 * timeout(1)): blocked while a file is written, so that one arriving then
 * is seen (pending) before the rename and the new file is dropped rather
 * than left half-written or as a stray temporary.  What they do once
 * unblocked is the command's own: the run's handler records a stop
 * (run/runner.c), a subcommand ends by the signal.  The fault signals
 * (base/sig.h) are blocked too: one sent with kill(2) while the temporary
 * exists (no handler knows it) ends cdm once it is renamed or removed.
 */
static const int stop_sigs[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM,
};

/* stop_sigs[] and the fault signals into @set */
static void stop_set(sigset_t *set)
{
	sigemptyset(set);
	for (size_t i = 0; i < sizeof(stop_sigs) / sizeof(stop_sigs[0]); i++)
		sigaddset(set, stop_sigs[i]);
	cdm_sig_add_faults(set);
}

/*
 * Has a signal of stop_sigs[] come since they were blocked (@old: the mask
 * before)?  One the process ignores, or the caller had blocked, does not
 * count: it stops nothing once unblocked.
 */
static int stop_pending(const sigset_t *old)
{
	struct sigaction sa;
	sigset_t pend;

	if (sigpending(&pend) < 0)
		return 0;
	for (size_t i = 0; i < sizeof(stop_sigs) / sizeof(stop_sigs[0]); i++) {
		int sig = stop_sigs[i];

		if (!sigismember(&pend, sig) || sigismember(old, sig))
			continue;
		if (sigaction(sig, NULL, &sa) == 0 && !(sa.sa_flags & SA_SIGINFO) &&
		    sa.sa_handler == SIG_IGN)
			continue;
		return 1;
	}
	return 0;
}

/*
 * @write(@arg) into memory, *@buf (@len bytes; free() it): a writer's own
 * error (-EOVERFLOW, -EINVAL: nothing to draw) comes back apart from the
 * I/O's, and no file is touched before the text is complete.  Returns 0,
 * @write's -errno, or -ENOMEM.
 */
static int render(int (*write)(FILE *f, const void *arg), const void *arg,
		  char **buf, size_t *len)
{
	FILE *m;
	int ret, bad;

	*buf = NULL;
	*len = 0;
	m = open_memstream(buf, len);
	if (!m)
		return -errno;
	ret = write(m, arg);
	bad = ferror(m);
	if (fclose(m) != 0 || bad)
		ret = ret ? ret : -ENOMEM;
	if (ret) {
		free(*buf);
		*buf = NULL;
		*len = 0;
	}
	return ret;
}

/* all @len bytes of @buf to @fd; 0 or write(2)'s -errno (ENOSPC, EPIPE, EIO) */
static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* a new file beside @path, *@fd, named in @tmp; with @path's mode if it exists */
static int make_temp(const char *path, char *tmp, size_t len, int *fd)
{
	struct stat st;
	mode_t mode, mask;

	if ((size_t)snprintf(tmp, len, "%s.XXXXXX", path) >= len)
		return -ENAMETOOLONG;
	/* same directory as @path, so that rename() is atomic */
	*fd = mkostemp(tmp, O_CLOEXEC);
	if (*fd < 0)
		return -errno;
	/* mkstemp makes 0600: a replaced file keeps its mode, a new one is as any report */
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
		mode = st.st_mode & 07777;
	} else {
		mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
	}
	if (fchmod(*fd, mode) < 0) {
		int e = -errno;

		close(*fd);
		unlink(tmp);
		return e;
	}
	return 0;
}

/* @len bytes of @buf into a new file renamed over @path; stop signals blocked */
static int replace(const char *path, const char *buf, size_t len, const sigset_t *old)
{
	char tmp[PATH_MAX];
	int fd, ret;

	ret = make_temp(path, tmp, sizeof(tmp), &fd);
	if (ret)
		return ret;
	ret = write_all(fd, buf, len);
	if (!ret && stop_pending(old))
		ret = -EINTR;
	/* the errno of each step, never a lost one: ENOSPC on a full disk */
	if (!ret && fsync(fd) < 0)
		ret = -errno;
	if (close(fd) < 0 && !ret && errno != EINTR)
		ret = -errno;
	if (!ret && stop_pending(old))
		ret = -EINTR;
	if (!ret && rename(tmp, path) < 0)
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

int cdm_outfile_write(const char *path, int (*write)(FILE *f, const void *arg),
		      const void *arg)
{
	sigset_t set, old;
	char *buf;
	size_t len;
	int ret;

	ret = render(write, arg, &buf, &len);
	if (ret)
		return ret;
	stop_set(&set);
	pthread_sigmask(SIG_BLOCK, &set, &old);
	ret = replace(path, buf, len, &old);
	/* a stop signal that came meanwhile takes effect here, the temporary gone */
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	free(buf);
	return ret;
}

/* @len bytes of @buf written into @path in place (a FIFO, a device, a dangling symlink) */
static int write_in_place(const char *path, const char *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	int ret;

	if (fd < 0)
		return -errno;
	ret = write_all(fd, buf, len);
	if (close(fd) < 0 && !ret && errno != EINTR)
		ret = -errno;
	return ret;
}

int cdm_outfile_emit(const char *path, int (*write)(FILE *f, const void *arg),
		     const void *arg)
{
	char real[PATH_MAX], *buf;
	struct stat st, lst;
	size_t len;
	int ret;

	if (!path || !strcmp(path, "-")) {
		ret = render(write, arg, &buf, &len);
		if (!ret && fflush(stdout) != 0)
			ret = -errno;
		if (!ret)
			ret = write_all(STDOUT_FILENO, buf, len);
		free(buf);
		return ret;
	}
	if (lstat(path, &lst) < 0)
		return cdm_outfile_write(path, write, arg);
	/* a symlink to a file: the file it names is replaced, as "> link" writes it */
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
		return cdm_outfile_write(S_ISLNK(lst.st_mode) && realpath(path, real) ? real : path,
					 write, arg);
	ret = render(write, arg, &buf, &len);
	if (!ret)
		ret = write_in_place(path, buf, len);
	free(buf);
	return ret;
}
