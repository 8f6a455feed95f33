/* SPDX-License-Identifier: MIT */
/*
 * limits.c - checks a plan against the limits of the kernel and of the
 * user before the test file is written: threads, descriptors, libaio's
 * system-wide event count and the file size limit.  Each check reads what is in force now
 * (getrlimit, /proc); what it cannot read it leaves to the setup of the
 * test, which reports a failure there with the same names.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cdm/base/err.h"
#include "cdm/base/file.h"
#include "cdm/base/size.h"
#include "cdm/plan/limits.h"

/* one unsigned number from a /proc file; 0 when it cannot be read */
static uint64_t proc_u64(const char *path)
{
	uint64_t v;

	cdm_file_read_u64(path, &v);    /* 0 when it cannot be read */
	return v;
}

/* threads in the whole system now: the 4th field of /proc/loadavg, "1/123" */
static uint64_t threads_now(void)
{
	FILE *fp = fopen("/proc/loadavg", "re");
	unsigned long long n = 0;

	if (!fp)
		return 0;
	if (fscanf(fp, "%*s %*s %*s %*u/%llu", &n) != 1)
		n = 0;
	fclose(fp);
	return n;
}

/* descriptors this process has open now, or 0 when /proc is missing */
static unsigned int fds_open(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	unsigned int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n ? n - 1 : 0;   /* minus the one opendir holds */
}

static int is_engine(const struct cdm_run_config *cfg, const char *name)
{
	return cfg->engine && !strcmp(cfg->engine->name, name);
}

/* what the root user is not held to (CAP_SYS_RESOURCE / CAP_SYS_ADMIN) */
static int nproc_applies(void)
{
	return geteuid() != 0;
}

void cdm_limits_thread_hint(char *buf, size_t len)
{
	struct rlimit rl;
	char nproc[48] = "unlimited";

	if (getrlimit(RLIMIT_NPROC, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		snprintf(nproc, sizeof(nproc), "%" PRIu64, (uint64_t)rl.rlim_cur);
	snprintf(buf, len, "RLIMIT_NPROC (ulimit -u) is %s%s; kernel.threads-max is %" PRIu64,
		 nproc, nproc_applies() ? "" : " (not applied to root)",
		 proc_u64("/proc/sys/kernel/threads-max"));
}

int cdm_limits_check_fsize(const char *target, uint64_t size, struct cdm_err *err)
{
	struct rlimit rl;
	char a[32], b[32];

	if (getrlimit(RLIMIT_FSIZE, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY || size <= rl.rlim_cur)
		return 0;
	cdm_size_format(size, a, sizeof(a));
	cdm_size_format((uint64_t)rl.rlim_cur, b, sizeof(b));
	return cdm_err_set(err, -EFBIG,
			   "%s: the %s test file is larger than the file size limit of %s (RLIMIT_FSIZE, ulimit -f); raise the limit or give a smaller --size",
			   target, a, b);
}

static int check_threads(const struct cdm_spec *sp, const char *name, struct cdm_err *err)
{
	uint64_t max = proc_u64("/proc/sys/kernel/threads-max"), now = threads_now();
	struct rlimit rl;

	/* the user's other processes count too: this is only the floor */
	if (nproc_applies() && getrlimit(RLIMIT_NPROC, &rl) == 0 &&
	    rl.rlim_cur != RLIM_INFINITY && sp->threads + 1 > rl.rlim_cur)
		return cdm_err_set(err, -EAGAIN,
				   "%s needs %u worker threads, more than RLIMIT_NPROC allows this user (ulimit -u is %" PRIu64 ")",
				   name, sp->threads, (uint64_t)rl.rlim_cur);
	if (max && now && now + sp->threads > max)
		return cdm_err_set(err, -EAGAIN,
				   "%s needs %u worker threads, more than kernel.threads-max leaves (%" PRIu64
				   " of %" PRIu64 " in use; see /proc/sys/kernel/threads-max)",
				   name, sp->threads, now, max);
	return 0;
}

static int check_fds(const struct cdm_run_config *cfg, const struct cdm_spec *sp,
		     const char *name, unsigned int open_now, struct cdm_err *err)
{
	struct rlimit rl;
	uint64_t need;

	if (!is_engine(cfg, "io_uring") || getrlimit(RLIMIT_NOFILE, &rl) < 0 ||
	    rl.rlim_cur == RLIM_INFINITY)
		return 0;
	/* one ring per thread, the test file and its lock, and the report */
	need = (uint64_t)open_now + sp->threads + 3;
	if (need <= rl.rlim_cur)
		return 0;
	return cdm_err_set(err, -EMFILE,
			   "%s needs %u io_uring descriptors (one ring per thread) plus %u of its own, more than RLIMIT_NOFILE allows (ulimit -n is %" PRIu64 ")",
			   name, sp->threads, open_now + 3, (uint64_t)rl.rlim_cur);
}

static int check_aio(const struct cdm_run_config *cfg, const struct cdm_spec *sp,
		     const char *name, struct cdm_err *err)
{
	uint64_t max = proc_u64("/proc/sys/fs/aio-max-nr"), used = proc_u64("/proc/sys/fs/aio-nr");
	/* io_setup(depth) per thread; the kernel counts what was asked for */
	uint64_t need = (uint64_t)(cfg->direct ? sp->qd : 1) * sp->threads;

	if (!is_engine(cfg, "libaio") || !max || used + need <= max)
		return 0;
	return cdm_err_set(err, -EAGAIN,
			   "%s needs %" PRIu64 " libaio events (Q x T), more than fs.aio-max-nr leaves (%" PRIu64
			   " of %" PRIu64 " in use; see /proc/sys/fs/aio-max-nr)",
			   name, need, used, max);
}

int cdm_limits_check(const struct cdm_run_config *cfg, struct cdm_err *err)
{
	unsigned int open_now = fds_open();
	char name[64];
	int r;

	for (unsigned int i = 0; i < cfg->ntests; i++) {
		const struct cdm_spec *sp = &cfg->tests[i];

		cdm_spec_name(sp, name, sizeof(name));
		r = check_threads(sp, name, err);
		if (!r)
			r = check_fds(cfg, sp, name, open_now, err);
		if (!r)
			r = check_aio(cfg, sp, name, err);
		if (r)
			return r;
	}
	return 0;
}
