#!/usr/bin/env bats
# Builds in copies of the tree (slow, so `make test` runs them and `make
# check` does not): =no rebuilds without the engine, a header change
# rebuilds what includes it, the layer check's own failures, and cdm
# builds wherever its dependencies do (32-bit with gcc -m32, musl with
# musl-gcc: the sync engine, as neither has liburing or libaio here)
# without a warning, with 64-bit file offsets.

load ../cli/helpers

ROOT="$BATS_TEST_DIRNAME/../.."

# the builds whose subject is the build itself (what is rebuilt, which
# engines are in) are unoptimised: the same objects and links in half the
# compiler's time, which make test spends beside the other slow tests
O0=CFLAGS=-O0

# BIG: a scratch directory for a 3 GiB test file, removed after each test
BIG=

teardown() {
	[ -z "$BIG" ] || rm -rf "$BIG"
	chmod -R u+rwx "$TD" 2>/dev/null
	rm -rf "$TD" "$OD"
}

# a copy of the sources (no build outputs), for builds that must not touch
# the ./cdm under test: git's files in a checkout, the tree less what a
# build makes in a release tarball (no .git)
copy_tree() {
	mkdir -p "$1"
	if [ -e "$ROOT/.git" ]; then
		git -C "$ROOT" ls-files -z --cached --others --exclude-standard |
			(cd "$ROOT" && xargs -0 tar cf -) | tar xf - -C "$1"
	else
		(cd "$ROOT" && tar cf - --exclude=./build --exclude=./cdm --exclude=./cdm-mpi \
			--exclude=./cdm-static .) | tar xf - -C "$1"
	fi
}

@test "make WITH_LIBURING=no after make rebuilds without io_uring, and make brings it back" {
	pkg-config --exists liburing || skip "liburing-dev not installed"
	copy_tree "$TD/src"
	run make -C "$TD/src" -j2 "$O0" cdm
	[ "$status" -eq 0 ]
	run "$TD/src/cdm" --list-engines
	[[ "$output" == *"io_uring   yes"* ]]
	run make -C "$TD/src" -j2 "$O0" WITH_LIBURING=no cdm
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" != *"Nothing to be done"* ]]
	run "$TD/src/cdm" --list-engines
	echo "$output"
	[[ "$output" == *"io_uring   no"* ]]
	# touching a source and building again still links (no stale engine object)
	touch "$TD/src/src/model/result.c"
	run make -C "$TD/src" -j2 "$O0" WITH_LIBURING=no cdm
	[ "$status" -eq 0 ]
	run make -C "$TD/src" -j2 "$O0" cdm
	[ "$status" -eq 0 ]
	run "$TD/src/cdm" --list-engines
	[[ "$output" == *"io_uring   yes"* ]]
}

@test "a header change rebuilds exactly the objects that include it" {
	copy_tree "$TD/src"
	make -C "$TD/src" -j2 "$O0" cdm > /dev/null
	touch "$TD/src/include/cdm/base/uint.h"
	run make -C "$TD/src" "$O0" cdm
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"src/base/uint.c"* ]]
	[[ "$output" == *"src/plan/profile.c"* ]]
	[[ "$output" != *"src/engine/null.c"* ]]
}

@test "layers: the check fails on a file that uses a layer above it, and on a circle" {
	command -v python3 > /dev/null || skip "python3 not installed"
	copy_tree "$TD/src"
	mkdir -p "$TD/build/src/base" "$TD/build/src/model"
	# base (the bottom layer) including a model header: an upward use
	printf '#include "cdm/model/result.h"\nint cdm_bad_x(void);\nint cdm_bad_x(void) { return 0; }\n' \
		> "$TD/src/src/base/bad.c"
	run python3 "$TD/src/tests/tools/layers.py" "$ROOT/build"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"src/base/bad.c (base) includes include/cdm/model/result.h (model): a layer above it"* ]]
	# the same in angle brackets
	sed -i 's|"cdm/model/result.h"|<cdm/model/result.h>|' "$TD/src/src/base/bad.c"
	run python3 "$TD/src/tests/tools/layers.py" "$ROOT/build"
	[ "$status" -eq 1 ]
	[[ "$output" == *"src/base/bad.c (base) includes include/cdm/model/result.h (model): a layer above it"* ]]
	rm "$TD/src/src/base/bad.c"
	# two model files that call each other: a circle
	printf 'int cdm_ping_a(void);\nint cdm_ping_b(void);\nint cdm_ping_a(void) { return cdm_ping_b(); }\n' \
		> "$TD/src/src/model/ping.c"
	printf 'int cdm_ping_a(void);\nint cdm_ping_b(void);\nint cdm_ping_b(void) { return cdm_ping_a(); }\n' \
		> "$TD/src/src/model/pong.c"
	cp -r "$ROOT/build/src" "$TD/build/"
	cc -c -o "$TD/build/src/model/ping.o" "$TD/src/src/model/ping.c"
	cc -c -o "$TD/build/src/model/pong.o" "$TD/src/src/model/pong.c"
	run python3 "$TD/src/tests/tools/layers.py" "$TD/build"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"circle of files: src/model/ping.c -> src/model/pong.c"* ]]
}

# build_variant DIR CC - the sources copied to DIR (the ./cdm under test
# and build/ are not touched) and built there with compiler CC and the
# sync and null engines; not one warning (-Wall -Wextra)
build_variant() {
	copy_tree "$1"
	run make -C "$1" -j2 CC="$2" WITH_LIBURING=no WITH_LIBAIO=no cdm
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" != *"warning:"* ]]
	[ -x "$1/cdm" ]
}

# large_file_run BIN - BIN writes random 1 MiB blocks over a 3 GiB test
# file (the sync engine; in /dev/shm when it has room, which is quicker,
# else in $TD) and keeps it; every sampled sector past 2 GiB then holds the
# stamp of its own offset (include/cdm/model/stamp.h), some of them the
# test's writes', not only the preparation's
large_file_run() {
	command -v python3 > /dev/null || skip "python3 not installed"
	local avail kept
	avail=$(df --output=avail -B1 /dev/shm 2>/dev/null | tail -1)
	if [ -n "$avail" ] && [ "$avail" -gt $((4 << 30)) ]; then
		BIG=$(mktemp -d /dev/shm/cdmbig.XXXXXX)
	else
		BIG="$TD/big"
		mkdir "$BIG"
	fi
	run "$1" -e sync -t "RND1M Q1T1" --mode write --size 3GiB --time 1 --count 1 \
		--interval 0 --warmup 0 --keep --quiet "$BIG"
	echo "$output"
	[ "$status" -eq 0 ]
	kept=$(find "$BIG" -maxdepth 1 -name 'cdm-*.keep')
	[ -n "$kept" ]
	[ "$(stat -c %s "$kept")" -eq $((3 << 30)) ]
	run python3 "$ROOT/tests/tools/sectors.py" --sample $((2 << 30)) $((1 << 20)) "$kept"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == "sampled=1024 "* ]]
	[[ "$output" == *" misplaced=0" ]]
	[[ "$output" != *" written=0 "* ]]
	rm -rf "$BIG"
}

@test "32-bit build (gcc -m32): no warning, and a 3 GiB test file is written past 2 GiB" {
	printf 'int main(void) { return 0; }\n' > "$TD/t.c"
	gcc -m32 -o "$TD/t" "$TD/t.c" 2> /dev/null || skip "gcc -m32 cannot link (apt-get install gcc-multilib)"
	build_variant "$TD/src" "gcc -m32"
	# ELF class 1: a 32-bit binary
	[ "$(od -An -tx1 -j4 -N1 "$TD/src/cdm" | tr -d ' ')" = 01 ]
	run "$TD/src/cdm" --list-engines
	[[ "$output" == *"sync       yes       yes"* ]]
	large_file_run "$TD/src/cdm"
	# its buffers must fit its address space: refused before any file is made
	run "$TD/src/cdm" -e null -t "SEQ64M Q64T1" --mode read --size 4GiB --count 1 --time 1 "$TD"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"SEQ64M Q64T1 needs 4096 MiB of I/O buffers (Q x T x block), more than a 32-bit build of cdm can address (2048 MiB)"* ]]
	assert_clean "$TD"
}

@test "musl build (musl-gcc): no warning, and a 3 GiB test file is written past 2 GiB" {
	command -v musl-gcc > /dev/null || skip "musl-gcc not installed (apt-get install musl-tools)"
	build_variant "$TD/src" musl-gcc
	# linked against musl, not glibc
	run readelf -l "$TD/src/cdm"
	[[ "$output" == *"ld-musl"* ]]
	large_file_run "$TD/src/cdm"
}

@test "an engine not built in: named with the package to install, exit 1; auto uses sync" {
	root="$ROOT"
	mkdir -p "$OD/tree"
	cp -r "$root/Makefile" "$root/src" "$root/include" "$root/profiles" "$OD/tree/"
	make -s -j2 -C "$OD/tree" "$O0" WITH_LIBURING=no WITH_LIBAIO=no cdm > "$OD/build.log" 2>&1 ||
		{ cat "$OD/build.log"; false; }
	bare="$OD/tree/cdm"
	run "$bare" "${QUICK[@]}" --engine io_uring --test RND4K "$TD"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "cdm: the io_uring engine is not built in: install liburing-dev and rebuild" ]
	run "$bare" "${QUICK[@]}" --engine libaio --test RND4K "$TD"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "cdm: the libaio engine is not built in: install libaio-dev and rebuild" ]
	assert_clean "$TD"
	run "$bare" --list-engines
	[[ "$output" =~ io_uring\ +no ]]
	[[ "$output" =~ libaio\ +no ]]
	run "$bare" "${QUICK[@]}" --test RND4K "$TD"
	[ "$status" -eq 0 ]
	[[ "$output" == *"(sync, O_DIRECT)"* ]]
	assert_clean "$TD"
}
