/* SPDX-License-Identifier: MIT */
/*
 * version.c - the version and the build facts (include/cdm/base/version.h).
 * build/version-build.h is written by the Makefile and rewritten only when
 * its text changes, so a new commit rebuilds this file and relinks, and
 * nothing else.
 */
#include <elf.h>
#include <link.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/auxv.h>

#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif

#include "cdm/base/version.h"
#include "version-build.h"

const char *cdm_version(void)
{
	return CDM_BUILD_VERSION;
}

const char *cdm_version_compiler(void)
{
#if defined(__clang__)
	return "clang " __VERSION__;
#elif defined(__GNUC__)
	return "gcc " __VERSION__;
#else
	return __VERSION__;
#endif
}

const char *cdm_version_liburing(void)
{
	return CDM_BUILD_LIBURING;
}

const char *cdm_version_libc(void)
{
#ifdef __GLIBC__
	static char buf[48];

	if (!buf[0]) {
		const char *v = gnu_get_libc_version();

		/* the caller is --version, once, before any thread starts */
		snprintf(buf, sizeof(buf), "glibc %.32s", v ? v : "(no version)");
	}
	return buf;
#else
	return "not glibc (musl or another)";
#endif
}

int cdm_version_static(void)
{
	const ElfW(Phdr) *ph = (const ElfW(Phdr) *)getauxval(AT_PHDR);
	unsigned long i, n = getauxval(AT_PHNUM);

	if (!ph)
		return 0;	/* no auxiliary vector entry: cannot tell, say dynamic */
	for (i = 0; i < n; i++)
		if (ph[i].p_type == PT_INTERP)
			return 0;
	return 1;
}
