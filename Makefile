# cdm - CrystalDiskMark-style disk benchmark for Linux.
#
#   make                 build ./cdm (optional engines detected)
#   make check           the fast suite: unit tests and CLI tests on ./cdm
#   make test            unit tests (cmocka), CLI tests (bats), then both
#                        again under AddressSanitizer + UBSan, valgrind
#                        memcheck runs, the MPI tests (with mpicc) and
#                        30 s of libFuzzer (tests/run.sh)
#   make install         PREFIX=/usr/local DESTDIR=
#   make static          ./cdm-static, linked statically (any x86_64 Linux)
#   make dist            the release files: cdm-VERSION.tar.gz and
#                        cdm-VERSION-linux-ARCH (the static binary)
#   make distcheck       make dist, then the tarball built and make check
#                        run in a fresh directory (the release check)
#
# Optional libraries, redis-style knobs: WITH_LIBURING=auto|yes|no and
# WITH_LIBAIO=auto|yes|no.  `yes` on a missing library stops with the
# package to install.
#
#   make WITH_MPI=yes    also build ./cdm-mpi (MPI ranks, docs/scale-out.md)
#                        with mpicc from the same sources, in build/mpi/;
#                        default no: ./cdm never depends on MPI

VERSION    := 0.1.0
# The version cdm says it is (include/cdm/base/version.h): a release
# tarball's VERSION file (make dist writes it); in a git checkout, `git
# describe` when a tag exists (a leading v dropped), else VERSION and the
# commit; elsewhere VERSION.  `make dist` names its files after it, less
# "-dirty" (the tarball is HEAD).
ifneq ($(wildcard VERSION),)
CDM_VERSION := $(shell cat VERSION)
else ifneq ($(wildcard .git),)
CDM_VERSION := $(patsubst v%,%,$(shell git describe --tags --dirty 2>/dev/null))
ifeq ($(CDM_VERSION),)
CDM_VERSION := $(VERSION)-g$(shell git describe --always --dirty 2>/dev/null)
endif
endif
ifeq ($(filter-out $(VERSION)-g,$(CDM_VERSION)),)
CDM_VERSION := $(VERSION)
endif
PREFIX     ?= /usr/local
BINDIR     ?= $(PREFIX)/bin
MANDIR     ?= $(PREFIX)/share/man
DATADIR    ?= $(PREFIX)/share/cdm
# the shell completions (completions/), when the tree has them
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/site-functions
DESTDIR    ?=

CC         ?= cc
CFLAGS     ?= -O2 -g
# 64 bits on 32-bit glibc too: off_t (_FILE_OFFSET_BITS, as test files
# pass 2 GiB; include/cdm/base/lfs.h stops a build without it) and time_t
# (_TIME_BITS, glibc 2.34 on; dates past 2038).  No effect on 64-bit
# targets or on musl, where both have 64 bits already.
# the CPPFLAGS of the environment (dpkg-buildflags' -D_FORTIFY_SOURCE=2),
# handed unchanged to the tests: make exports a variable from the
# environment with the value it has here, and a test's own make in the
# tree (make static, make install) would add ours twice and rebuild all
ENV_CPPFLAGS := $(CPPFLAGS)
CPPFLAGS   += -Iinclude -Ibuild -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -D_TIME_BITS=64
WARN       := -std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
LDLIBS     := -pthread

PKG_CONFIG ?= pkg-config
WITH_LIBURING ?= auto
WITH_LIBAIO   ?= auto
WITH_MPI      ?= no
MPICC         ?= mpicc
HASH := \#

# The kernel's own headers (linux/, asm/, asm-generic/; Debian's
# linux-libc-dev) serve any C library, but musl-gcc (musl-tools) searches
# musl's headers only: a compiler that cannot find <linux/fs.h> is lent
# them through build/uapi, a directory of links (asm is per architecture:
# /usr/include/<multiarch>/asm on Debian, /usr/include/asm elsewhere).
HAVE_UAPI := $(shell printf '$(HASH)include <linux/fs.h>\n' | $(CC) -E -x c - >/dev/null 2>&1 && echo yes)
ifneq ($(HAVE_UAPI),yes)
UAPI_ASM := $(firstword $(wildcard /usr/include/$(shell $(CC) -print-multiarch 2>/dev/null)/asm) $(wildcard /usr/include/asm))
ifeq ($(wildcard /usr/include/linux/fs.h),)
$(error $(CC) finds no <linux/fs.h>: install the kernel headers (apt-get install linux-libc-dev))
endif
$(shell mkdir -p build/uapi && ln -sfn /usr/include/linux build/uapi/linux && \
	ln -sfn /usr/include/asm-generic build/uapi/asm-generic && ln -sfn $(UAPI_ASM) build/uapi/asm)
CPPFLAGS += -isystem build/uapi
endif

# The engines (docs/engines.md, "Adding an engine").  The registry,
# sandbox.c and the engines that need no library are always built; each
# engine that needs a library has one knob, WITH_<LIB>=auto|yes|no, and
# adds its file to ENGINES when the library is found.  An engine left out
# is still known to cdm: it shows as "not built in" with the package to
# install (its ops are a weak symbol in src/engine/engine.c).
ENGINES := src/engine/engine.c src/engine/sandbox.c src/engine/sync.c src/engine/null.c \
            src/engine/null_device.c

# io_uring: liburing, found with pkg-config
ifneq ($(WITH_LIBURING),no)
HAVE_LIBURING := $(shell $(PKG_CONFIG) --exists liburing 2>/dev/null && echo yes)
ifeq ($(WITH_LIBURING),yes)
ifneq ($(HAVE_LIBURING),yes)
$(error liburing not found: install liburing-dev (apt-get install liburing-dev), or build with WITH_LIBURING=no)
endif
endif
endif
ifeq ($(HAVE_LIBURING),yes)
ENGINES  += src/engine/io_uring.c
# for tests/fault/faultshim.c, which wraps liburing's ring setup only then
CPPFLAGS += $(shell $(PKG_CONFIG) --cflags liburing) -DCDM_HAVE_LIBURING
LDLIBS   += $(shell $(PKG_CONFIG) --libs liburing)
endif

# libaio: no .pc file, so a compile-and-link probe
ifneq ($(WITH_LIBAIO),no)
HAVE_LIBAIO := $(shell printf '$(HASH)include <libaio.h>\nint main(void){io_context_t c=0;return io_setup(1,&c);}\n' | \
	$(CC) -x c - -laio -o /dev/null >/dev/null 2>&1 && echo yes)
ifeq ($(WITH_LIBAIO),yes)
ifneq ($(HAVE_LIBAIO),yes)
$(error libaio not found: install libaio-dev (apt-get install libaio-dev), or build with WITH_LIBAIO=no)
endif
endif
endif
ifeq ($(HAVE_LIBAIO),yes)
ENGINES  += src/engine/libaio.c
# for tests/fault/faultshim.c, which wraps io_setup only then; cdm needs no #ifdef
CPPFLAGS += -DCDM_HAVE_LIBAIO
LDLIBS   += -laio
endif

# make static and make dist link every engine: one whose library is
# missing stops them here, unless it was left out on purpose (=no)
ifneq ($(filter static cdm-static dist distcheck,$(MAKECMDGOALS)),)
ifeq ($(WITH_LIBURING)$(HAVE_LIBURING),auto)
$(error make static: liburing not found: install liburing-dev (apt-get install liburing-dev), or build with WITH_LIBURING=no)
endif
ifeq ($(WITH_LIBAIO)$(HAVE_LIBAIO),auto)
$(error make static: libaio not found: install libaio-dev (apt-get install libaio-dev), or build with WITH_LIBAIO=no)
endif
endif

# build/version-build.h: the version and the build facts base/version.c
# reports, rewritten only when they change (a new commit relinks, it does
# not rebuild everything)
VERSION_H := build/version-build.h
define VERSION_H_NOW
/* made by the Makefile: the version and build facts (src/base/version.c) */
$(HASH)define CDM_BUILD_VERSION "$(CDM_VERSION)"
$(HASH)define CDM_BUILD_LIBURING "$(if $(filter yes,$(HAVE_LIBURING)),$(shell $(PKG_CONFIG) --modversion liburing 2>/dev/null))"
endef
ifneq ($(file <$(VERSION_H)),$(VERSION_H_NOW))
$(shell mkdir -p build)
$(file >$(VERSION_H),$(VERSION_H_NOW))
endif

# src/<layer>/*.c: every layer but the engines (chosen above), cli/main.c
# (main(), which the unit tests have their own of) and run/mpi.c (cdm-mpi's
# alone)
PROFILES := $(sort $(wildcard profiles/*.cdm))
LIB_SRC  := $(filter-out src/cli/main.c src/run/mpi.c src/engine/%,$(wildcard src/*/*.c)) $(ENGINES)
LIB_OBJ  := $(LIB_SRC:%.c=build/%.o) build/profiles.o
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=build/tests/%)

ASAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
ASAN_OBJ   := $(LIB_OBJ:build/%=build/asan/%)
ASAN_UNIT  := $(UNIT_SRC:tests/unit/%.c=build/asan/tests/%)

# Header dependencies come from the compiler (-MMD -MP: one .d file per
# object).  The knobs as resolved (compiler, flags, engines found) are kept
# in build/settings, rewritten only when they change: every object depends
# on it, so `make WITH_LIBURING=no` after `make` rebuilds what it must.
DEPFLAGS := -MMD -MP
SETTINGS := build/settings
SETTINGS_NOW := CC=$(CC) MPICC=$(MPICC) CFLAGS=$(CFLAGS) CPPFLAGS=$(CPPFLAGS) LDFLAGS=$(LDFLAGS) LDLIBS=$(LDLIBS) ENGINES=$(ENGINES)
ifneq ($(file <$(SETTINGS)),$(SETTINGS_NOW))
$(shell mkdir -p build)
$(file >$(SETTINGS),$(SETTINGS_NOW))
endif

.PHONY: all test check unit asan tools fuzz install uninstall clean bench
all: cdm

# MPI build: cdm-mpi links the same objects as cdm and run/mpi.c, compiled
# with mpicc; the run command finds it through run/mpi.h's cdm_mpi_hook
MPI_OBJ := build/src/cli/main.o build/mpi/src/run/mpi.o $(LIB_OBJ)
ifeq ($(WITH_MPI),yes)
ifeq ($(shell command -v $(MPICC) 2>/dev/null),)
$(error $(MPICC) not found: install libopenmpi-dev and openmpi-bin (apt-get install libopenmpi-dev openmpi-bin), or build with WITH_MPI=no)
endif
all: cdm-mpi
endif

cdm-mpi: $(MPI_OBJ)
	$(MPICC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

build/mpi/src/%.o: src/%.c $(SETTINGS)
	@mkdir -p $(dir $@)
	$(MPICC) $(CPPFLAGS) $(WARN) $(DEPFLAGS) $(CFLAGS) -c -o $@ $<

cdm: build/src/cli/main.o $(LIB_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

build/%.o: %.c $(SETTINGS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(WARN) $(DEPFLAGS) $(CFLAGS) -c -o $@ $<

# The profiles in profiles/ are compiled in: one source of truth.
build/profiles.c: $(PROFILES) src/plan/embed-profiles.sh
	@mkdir -p build
	sh src/plan/embed-profiles.sh $(PROFILES) > $@.tmp && mv $@.tmp $@

build/profiles.o: build/profiles.c $(SETTINGS)
	$(CC) $(CPPFLAGS) $(WARN) $(DEPFLAGS) $(CFLAGS) -c -o $@ $<

# test_worker makes thread creation fail on purpose (its __wrap_pthread_create)
build/tests/test_worker build/asan/tests/test_worker: UNIT_LDFLAGS := -Wl,--wrap=pthread_create
# test_engine makes io_uring's submission busy on purpose (its __wrap_io_uring_*)
ifeq ($(HAVE_LIBURING),yes)
build/tests/test_engine build/asan/tests/test_engine: UNIT_LDFLAGS := -DCDM_WRAP_URING \
	-Wl,--wrap=io_uring_submit,--wrap=io_uring_submit_and_wait,--wrap=io_uring_submit_and_get_events
endif

# every program is its test_*.c and the helpers they share (tests/unit/unit.h)
build/tests/%: tests/unit/%.c tests/unit/unit.c $(LIB_OBJ) $(SETTINGS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Isrc $(WARN) $(DEPFLAGS) $(CFLAGS) $(UNIT_LDFLAGS) -o $@ $< tests/unit/unit.c $(LIB_OBJ) -lcmocka $(LDLIBS) -lm

# sanitizer build: same sources, separate objects
build/asan/cdm: build/asan/src/cli/main.o $(ASAN_OBJ)
	$(CC) $(ASAN_FLAGS) -o $@ $^ $(LDLIBS)

build/asan/src/%.o: src/%.c $(SETTINGS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(WARN) $(DEPFLAGS) $(ASAN_FLAGS) -c -o $@ $<

build/asan/profiles.o: build/profiles.c $(SETTINGS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(WARN) $(DEPFLAGS) $(ASAN_FLAGS) -c -o $@ $<

build/asan/tests/%: tests/unit/%.c tests/unit/unit.c $(ASAN_OBJ) $(SETTINGS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Isrc $(WARN) $(DEPFLAGS) $(ASAN_FLAGS) $(UNIT_LDFLAGS) -o $@ $< tests/unit/unit.c $(ASAN_OBJ) -lcmocka $(LDLIBS) -lm

-include $(shell find build -name '*.d' 2>/dev/null)

# libFuzzer target for the parsers (clang and its compiler-rt needed)
FUZZ_SECONDS ?= 60
FUZZ_CC      ?= clang
build/fuzz/fuzz_parse: tests/fuzz/fuzz_parse.c $(LIB_SRC) build/profiles.c $(SETTINGS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS) -g -O1 -fsanitize=fuzzer,address,undefined -o $@ \
		tests/fuzz/fuzz_parse.c $(LIB_SRC) build/profiles.c $(LDLIBS)

fuzz: build/fuzz/fuzz_parse
	@mkdir -p build/fuzz/corpus
	build/fuzz/fuzz_parse -max_total_time=$(FUZZ_SECONDS) -max_len=65536 \
		-artifact_prefix=build/fuzz/ build/fuzz/corpus tests/fuzz/corpus

# test-only tools, never linked into cdm: an LD_PRELOAD fault injector
# (tests/fault/), a launcher that denies system calls with seccomp, and
# the --plot chart of a saved run for the golden outputs (tests/golden/)
TOOLS := build/tests/faultshim.so build/tests/deny-syscall build/tests/golden-plot
# (the shim defines both pread and pread64, and the like: built without
# _FILE_OFFSET_BITS, which would rename the first to the second)
build/tests/faultshim.so: tests/fault/faultshim.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -U_FILE_OFFSET_BITS -U_TIME_BITS $(WARN) $(CFLAGS) -shared -fPIC -o $@ $< -ldl

build/tests/deny-syscall: tests/tools/deny-syscall.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) -o $@ $<

build/tests/golden-plot: tests/tools/golden-plot.c $(LIB_OBJ) $(SETTINGS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(WARN) $(DEPFLAGS) $(CFLAGS) -o $@ $< $(LIB_OBJ) $(LDLIBS) -lm

tools: $(TOOLS)
unit: $(UNIT_BIN)
asan: build/asan/cdm $(ASAN_UNIT)

# make check: the fast suite for the edit-test loop (unit + CLI tests on
# ./cdm); make test: the full suite CI runs (also the sanitizer build,
# valgrind, the MPI tests and the fuzzer).  Both end with one line
# "N passed, N failed, N skipped".
# A cdm-mpi left by an earlier build is rebuilt too: the MPI tests run it.
TEST_ENV := $(if $(ENV_CPPFLAGS),env CPPFLAGS='$(ENV_CPPFLAGS)')
check: cdm unit tools $(if $(wildcard cdm-mpi),cdm-mpi)
	@$(TEST_ENV) sh tests/run.sh --fast

# make test builds with a job per CPU (a sub-make with -j, whatever this
# make was given); the suite itself runs from this make, so that the makes
# of its tests start without a job server (see distcheck)
NPROC := $(shell nproc 2>/dev/null || echo 2)
test:
	@$(MAKE) --no-print-directory -j$(NPROC) cdm unit asan tools
	@$(TEST_ENV) sh tests/run.sh

bench: cdm
	bench/vs-fio.sh

install: cdm
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(DATADIR)/profiles
	install -m 755 cdm $(DESTDIR)$(BINDIR)/cdm
	if [ -x cdm-mpi ]; then install -m 755 cdm-mpi $(DESTDIR)$(BINDIR)/cdm-mpi; fi
	install -m 644 docs/cdm.1 $(DESTDIR)$(MANDIR)/man1/cdm.1
	install -m 644 $(PROFILES) $(DESTDIR)$(DATADIR)/profiles/
	if [ -f completions/cdm.bash ]; then install -D -m 644 completions/cdm.bash $(DESTDIR)$(BASHCOMPDIR)/cdm; fi
	if [ -f completions/_cdm ]; then install -D -m 644 completions/_cdm $(DESTDIR)$(ZSHCOMPDIR)/_cdm; fi

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/cdm $(DESTDIR)$(BINDIR)/cdm-mpi $(DESTDIR)$(MANDIR)/man1/cdm.1
	rm -f $(DESTDIR)$(BASHCOMPDIR)/cdm $(DESTDIR)$(ZSHCOMPDIR)/_cdm
	rm -rf $(DESTDIR)$(DATADIR)

clean:
	rm -rf build cdm cdm-mpi cdm-static cdm-static.tmp

# make static: ./cdm-static, one binary for any x86_64 Linux with no
# library to install (docs/install.md): glibc linked statically with
# Debian's own liburing.a and libaio.a (their -dev packages ship them,
# built against glibc), the same objects as ./cdm.  glibc rather than musl:
# those archives are glibc's, and nothing cdm calls needs what a static
# glibc cannot give (no NSS, no iconv, no dlopen).  Every engine the build
# found is linked in; one that is missing stops the build unless it was
# left out on purpose (WITH_LIBURING=no, WITH_LIBAIO=no).  The binary
# checks itself: --version must say "linked: static".
.PHONY: static
static: cdm-static

cdm-static: build/src/cli/main.o $(LIB_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -static -o $@.tmp $^ $(LDLIBS)
	./$@.tmp --version | grep -qx 'linked: static' || \
		{ echo "make static: $@ is not statically linked" >&2; rm -f $@.tmp; exit 1; }
	mv $@.tmp $@

# make dist: the two release files, at the top of the tree (git ignores
# them): cdm-VERSION.tar.gz, the source as committed (git archive of HEAD,
# unpacking into cdm-VERSION/, with a VERSION file so that a build there
# knows its version without git), and cdm-VERSION-linux-ARCH, make static's
# binary.  A tree with uncommitted changes is refused: the tarball would
# be HEAD and the binary the tree.  The release check (docs/install.md):
# the tarball unpacked in a fresh directory builds and passes make check.
DIST_VERSION := $(patsubst %-dirty,%,$(CDM_VERSION))
DIST_ARCH    := $(firstword $(subst -, ,$(shell $(CC) -dumpmachine 2>/dev/null)))
DIST_TAR     := cdm-$(DIST_VERSION).tar.gz
DIST_BIN     := cdm-$(DIST_VERSION)-linux-$(DIST_ARCH)
.PHONY: dist distcheck
dist: cdm-static
	@test -e .git || { echo "make dist: not a git checkout (the tarball is git archive of HEAD)" >&2; exit 1; }
	@git diff --quiet HEAD -- || { echo "make dist: uncommitted changes: commit them first (the tarball is HEAD)" >&2; exit 1; }
	@rm -rf build/dist && mkdir -p build/dist
	echo '$(DIST_VERSION)' > build/dist/VERSION
	git archive --format=tar.gz --prefix=cdm-$(DIST_VERSION)/ --add-file=build/dist/VERSION \
		-o $(DIST_TAR).tmp HEAD
	mv $(DIST_TAR).tmp $(DIST_TAR)
	cp cdm-static $(DIST_BIN).tmp && mv $(DIST_BIN).tmp $(DIST_BIN)
	@echo "make dist: $(DIST_TAR) $(DIST_BIN)"

# make distcheck: the release check, before a release (minutes: not part
# of make check; tests/slow/ship.bats runs it in make test): make dist,
# then the tarball unpacked in a fresh directory outside the tree must
# build and pass make check, with the tarball's version.  The directory is readable by all:
# tests that drop root's privileges run the binary built in it.  The make
# there is a fresh one, not a sub-make, and check runs without -j: the
# tests' own makes (07-build) must not inherit a job server ("read jobs
# pipe: Bad file descriptor"; `make -j2 check` does the same).
distcheck: dist
	@d=$$(mktemp -d) && trap 'rm -rf "$$d"' EXIT && chmod 755 "$$d" && \
	tar xzf $(DIST_TAR) -C "$$d" && cd "$$d/cdm-$(DIST_VERSION)" && \
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -j2 cdm unit tools && \
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make check && ./cdm --version | grep -qx 'cdm $(DIST_VERSION)' && \
	echo "make distcheck: $(DIST_TAR) builds and passes make check"
