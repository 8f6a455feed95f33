#!/usr/bin/env bats
# The Makefile's quick promises: optional engines forced with =yes stop
# with the package to install, `make install` puts the binary, the man
# page and the profiles under DESTDIR/PREFIX; and the structure checks
# (no upward use of a layer, no circle, function length).  The builds in
# copies of the tree (=no, a header change, 32-bit, musl) are slow:
# tests/slow/build.bats, run by `make test`.

load helpers

ROOT="$BATS_TEST_DIRNAME/../.."

@test "make WITH_LIBURING=yes without liburing says: install liburing-dev" {
	run make_dry WITH_LIBURING=yes PKG_CONFIG=false
	assert_failure
	assert_output --partial "install liburing-dev"
}

@test "make WITH_LIBAIO=yes without libaio says: install libaio-dev" {
	# a compiler that cannot find libaio.h stands in for a machine without it
	run make_dry WITH_LIBAIO=yes CC="cc -include /nonexistent/libaio-missing.h"
	assert_failure
	assert_output --partial "install libaio-dev"
}

@test "make install DESTDIR= PREFIX= installs binary, man page and profiles" {
	# the binary as built (-o cdm): never relinked under the other tests
	run make -C "$ROOT" -o cdm install DESTDIR="$TD/root" PREFIX=/opt/cdm
	echo "$output"
	assert_success
	assert [ -x "$TD/root/opt/cdm/bin/cdm" ]
	assert [ -f "$TD/root/opt/cdm/share/man/man1/cdm.1" ]
	# every built-in, as --list-profiles names them
	for p in $("$ROOT/cdm" --list-profiles | grep -oE '^[a-z0-9-]+:' | tr -d :); do
		cmp "$TD/root/opt/cdm/share/cdm/profiles/$p.cdm" "$ROOT/profiles/$p.cdm"
	done
	"$TD/root/opt/cdm/bin/cdm" --version
	# the installed profile files are the ones compiled in
	cmp "$TD/root/opt/cdm/share/cdm/profiles/default.cdm" "$ROOT/profiles/default.cdm"
}

@test "layers: no file uses a layer above it, and no circle of files" {
	command -v python3 > /dev/null || skip "python3 not installed"
	run python3 "$ROOT/tests/tools/layers.py" "$ROOT/build"
	echo "$output"
	assert_success
	assert_output --partial "no upward use, no circle"
}

# Sizes as a design (issue 24): a function holds one step, a file one job.
@test "no function in src/ is over 80 lines" {
	ctags --version 2>/dev/null | grep -q "Universal Ctags" || skip "universal-ctags not installed"
	run sh -c "cd '$ROOT' && ctags --fields=+ne --c-kinds=f -o - -R src | awk -F'\t' '{n=\"\";e=\"\";for(i=4;i<=NF;i++){if(\$i~/^line:/)n=substr(\$i,6);if(\$i~/^end:/)e=substr(\$i,5)} if(e-n>=80) print e-n+1\" lines: \"\$2\": \"\$1}'"
	echo "$output"
	assert_success
	refute_output
}

@test "no source file in src/ is over 900 lines" {
	run sh -c "cd '$ROOT' && find src -name '*.[ch]' -exec wc -l {} + | awk '\$2 != \"total\" && \$1 > 900'"
	echo "$output"
	assert_success
	refute_output
}

@test "no two source files in src/ share a basename" {
	run sh -c "find '$ROOT/src' -name '*.[ch]' -printf '%f\n' | sort | uniq -d"
	echo "$output"
	assert_success
	refute_output
}

@test "off_t must have 64 bits: base/lfs.h stops a 32-bit build without _FILE_OFFSET_BITS=64" {
	printf 'int main(void) { return 0; }\n' > "$TD/t.c"
	gcc -m32 -o "$TD/t" "$TD/t.c" 2> /dev/null || skip "gcc -m32 cannot link (apt-get install gcc-multilib)"
	printf '#include "cdm/base/lfs.h"\n' > "$TD/lfs.c"
	run gcc -m32 -fsyntax-only -I "$ROOT/include" "$TD/lfs.c"
	echo "$output"
	assert_failure
	assert_output --partial "off_t has fewer than 64 bits: build with -D_FILE_OFFSET_BITS=64"
	run gcc -m32 -D_FILE_OFFSET_BITS=64 -fsyntax-only -I "$ROOT/include" "$TD/lfs.c"
	assert_success
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
	run python3 "$BATS_TEST_TMPDIR/rules.py" "$BATS_TEST_DIRNAME"/*.bats "$BATS_TEST_DIRNAME"/../slow/*.bats "$BATS_TEST_DIRNAME"/helpers.bash
	echo "$output"
	assert_success
	# the rules find what they are meant to find
	printf '\tstrace -f -o x "$CDM" .\n\tLD_PRELOAD=$SHIM "$CDM" .\n' > "$BATS_TEST_TMPDIR/x.bats"
	run python3 "$BATS_TEST_TMPDIR/rules.py" "$BATS_TEST_TMPDIR/x.bats"
	assert_failure 1
	assert_equal "$(echo "$output" | wc -l)" 2
}
