/* SPDX-License-Identifier: MIT */
/*
 * version.h - what this binary is: its version and how it was built, for
 * `cdm --version` and for every report (JSON's cdm_version, the text
 * header).  The version and the build facts are made by the Makefile
 * (build/version-build.h, docs/hacking.md "Versions"); whether the binary
 * is static is read from the running program itself.
 */
#ifndef CDM_BASE_VERSION_H
#define CDM_BASE_VERSION_H

/*
 * cdm_version - the version, never empty: a release tarball's VERSION
 * file; in a git checkout with a tag, `git describe --tags --always
 * --dirty` without a leading "v" ("0.2.0", "0.2.0-3-g1a2b3c4-dirty");
 * with no tag, the Makefile's VERSION and the commit ("0.1.0-g1a2b3c4");
 * outside git, the Makefile's VERSION.  A static string.
 */
const char *cdm_version(void);

/*
 * cdm_version_compiler - the compiler that built cdm, from its own
 * predefined macros ("gcc 12.2.0", "clang Debian Clang 14.0.6").  Static.
 */
const char *cdm_version_compiler(void);

/*
 * cdm_version_liburing - the liburing version the build was linked with,
 * as its pkg-config file states it ("2.3"), or "" when the build has no
 * io_uring engine or pkg-config gave none.  Static.
 */
const char *cdm_version_liburing(void);

/*
 * cdm_version_libc - the C library: "glibc 2.36" (gnu_get_libc_version(),
 * the one linked in or loaded), or "not glibc (musl or another)" when the
 * build was not against glibc, which leaves no version to ask.  Static.
 */
const char *cdm_version_libc(void);

/*
 * cdm_version_static - 1 when the running program has no dynamic loader
 * (no PT_INTERP program header: `gcc -static`, `make static`), 0 when it
 * is dynamically linked.  Read from the program headers the kernel
 * passed (getauxval(AT_PHDR)), so it says what the binary is, not what the
 * build meant.
 */
int cdm_version_static(void);

#endif /* CDM_BASE_VERSION_H */
