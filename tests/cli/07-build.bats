#!/usr/bin/env bats
# The Makefile's promises: optional engines forced with =yes stop with the
# package to install, =no builds without them, `make install` puts the
# binary, the man page and the profiles under DESTDIR/PREFIX, and cdm
# builds wherever its dependencies do (32-bit with gcc -m32, musl with
# musl-gcc: the sync engine, as neither has liburing or libaio here)
# without a warning, with 64-bit file offsets.

load helpers

ROOT="$BATS_TEST_DIRNAME/../.."

# BIG: a scratch directory for a 3 GiB test file, removed after each test
BIG=

teardown() {
	[ -z "$BIG" ] || rm -rf "$BIG"
	chmod -R u+rwx "$TD" 2>/dev/null
	rm -rf "$TD" "$OD"
}

@test "make WITH_LIBURING=yes without liburing says: install liburing-dev" {
	run make -C "$ROOT" -n WITH_LIBURING=yes PKG_CONFIG=false
	[ "$status" -ne 0 ]
	[[ "$output" == *"install liburing-dev"* ]]
}

@test "make WITH_LIBAIO=yes without libaio says: install libaio-dev" {
	# a compiler that cannot find libaio.h stands in for a machine without it
	run make -C "$ROOT" -n WITH_LIBAIO=yes CC="cc -include /nonexistent/libaio-missing.h"
	[ "$status" -ne 0 ]
	[[ "$output" == *"install libaio-dev"* ]]
}

@test "make install DESTDIR= PREFIX= installs binary, man page and profiles" {
	run make -C "$ROOT" install DESTDIR="$TD/root" PREFIX=/opt/cdm
	echo "$output"
	[ "$status" -eq 0 ]
	[ -x "$TD/root/opt/cdm/bin/cdm" ]
	[ -f "$TD/root/opt/cdm/share/man/man1/cdm.1" ]
	# every built-in, as --list-profiles names them
	for p in $("$ROOT/cdm" --list-profiles | grep -oE '^[a-z0-9-]+:' | tr -d :); do
		cmp "$TD/root/opt/cdm/share/cdm/profiles/$p.cdm" "$ROOT/profiles/$p.cdm"
	done
	"$TD/root/opt/cdm/bin/cdm" --version
	# the installed profile files are the ones compiled in
	cmp "$TD/root/opt/cdm/share/cdm/profiles/default.cdm" "$ROOT/profiles/default.cdm"
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
	run make -C "$TD/src" -j2 cdm
	[ "$status" -eq 0 ]
	run "$TD/src/cdm" --list-engines
	[[ "$output" == *"io_uring   yes"* ]]
	run make -C "$TD/src" -j2 WITH_LIBURING=no cdm
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" != *"Nothing to be done"* ]]
	run "$TD/src/cdm" --list-engines
	echo "$output"
	[[ "$output" == *"io_uring   no"* ]]
	# touching a source and building again still links (no stale engine object)
	touch "$TD/src/src/model/result.c"
	run make -C "$TD/src" -j2 WITH_LIBURING=no cdm
	[ "$status" -eq 0 ]
	run make -C "$TD/src" -j2 cdm
	[ "$status" -eq 0 ]
	run "$TD/src/cdm" --list-engines
	[[ "$output" == *"io_uring   yes"* ]]
}

@test "a header change rebuilds exactly the objects that include it" {
	copy_tree "$TD/src"
	make -C "$TD/src" -j2 cdm > /dev/null
	touch "$TD/src/include/cdm/base/uint.h"
	run make -C "$TD/src" cdm
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"src/base/uint.c"* ]]
	[[ "$output" == *"src/plan/profile.c"* ]]
	[[ "$output" != *"src/engine/null.c"* ]]
}

@test "layers: no file uses a layer above it, and no circle of files" {
	command -v python3 > /dev/null || skip "python3 not installed"
	run python3 "$ROOT/tests/tools/layers.py" "$ROOT/build"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"no upward use, no circle"* ]]
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

@test "no function in src/ is over 120 lines" {
	ctags --version 2>/dev/null | grep -q "Universal Ctags" || skip "universal-ctags not installed"
	run sh -c "ctags --fields=+ne --c-kinds=f -o - -R '$ROOT/src' | awk -F'\t' '{n=\"\";e=\"\";for(i=4;i<=NF;i++){if(\$i~/^line:/)n=substr(\$i,6);if(\$i~/^end:/)e=substr(\$i,5)} if(e-n>=120) print e-n+1\" lines: \"\$2\": \"\$1}'"
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
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

@test "off_t must have 64 bits: base/lfs.h stops a 32-bit build without _FILE_OFFSET_BITS=64" {
	printf 'int main(void) { return 0; }\n' > "$TD/t.c"
	gcc -m32 -o "$TD/t" "$TD/t.c" 2> /dev/null || skip "gcc -m32 cannot link (apt-get install gcc-multilib)"
	printf '#include "cdm/base/lfs.h"\n' > "$TD/lfs.c"
	run gcc -m32 -fsyntax-only -I "$ROOT/include" "$TD/lfs.c"
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"off_t has fewer than 64 bits: build with -D_FILE_OFFSET_BITS=64"* ]]
	run gcc -m32 -D_FILE_OFFSET_BITS=64 -fsyntax-only -I "$ROOT/include" "$TD/lfs.c"
	[ "$status" -eq 0 ]
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

@test "the tests run the ASan build as they run the plain one: strace with LeakSanitizer off, an LD_PRELOAD with ASan's link-order check off" {
	# LSan cannot work under ptrace, and ASan refuses a library preloaded
	# before its runtime: either ends the ASan run of a test that passes
	# with the plain build (both were CI failures)
	cat > "$BATS_TEST_TMPDIR/rules.py" <<'PY'
import glob, os, re, sys
RULES = [(re.compile(r'(^|[\s;(|&])strace\s+-'), "detect_leaks=0"),
         (re.compile(r'(^|[\s;(|&])LD_PRELOAD='), "verify_asan_link_order=0")]
bad = []
for f in sys.argv[1:]:
    lines = open(f).read().split("\n")
    for i, l in enumerate(lines):
        code = l.split("#", 1)[0]
        for rx, need in RULES:
            near = "".join(lines[max(i - 1, 0):i + 2])
            if rx.search(code) and need not in near:
                bad.append("%s:%d: %s (without %s)" % (os.path.basename(f), i + 1, l.strip(), need))
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
	run python3 "$BATS_TEST_TMPDIR/rules.py" "$BATS_TEST_DIRNAME"/*.bats "$BATS_TEST_DIRNAME"/helpers.bash
	echo "$output"
	[ "$status" -eq 0 ]
	# the rules find what they are meant to find
	printf '\tstrace -f -o x "$CDM" .\n\tLD_PRELOAD=$SHIM "$CDM" .\n' > "$BATS_TEST_TMPDIR/x.bats"
	run python3 "$BATS_TEST_TMPDIR/rules.py" "$BATS_TEST_TMPDIR/x.bats"
	[ "$status" -eq 1 ]
	[ "$(echo "$output" | wc -l)" -eq 2 ]
}
