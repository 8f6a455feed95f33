#!/bin/sh
# tests/run.sh [--fast] - run every test of cdm and end with one line
# "N passed, N failed, N skipped".  Called by `make test` after the build;
# `make check` calls it with --fast, which runs parts 1 and 2 only.
#
#  1. unit tests (cmocka), TAP output
#  2. CLI tests (bats, tests/cli/) against ./cdm
#  3. the slow tests (bats, tests/slow/): builds in copies of the tree,
#     the static binary, the tarball, the package, the container
#  4. parts 1 and 2 again built with -fsanitize=address,undefined (build/asan/)
#  5. a few CLI runs under valgrind memcheck (tests/valgrind/), when installed
#  6. the parsers under libFuzzer for a bounded time; 5 and 6 beside part 4
#
# Each part's TAP lines are kept in build/test-logs/ for a failed run.
# Every unit test program and every CLI test has a time limit
# (CDM_TEST_TIMEOUT seconds, default 300; tests/cli/helpers.bash).
set -u
fast=no
[ "${1:-}" = "--fast" ] && fast=yes
export CDM_TEST_TIMEOUT=${CDM_TEST_TIMEOUT:-300}
cd "$(dirname "$0")/.." || exit 2
logs=build/test-logs
mkdir -p "$logs"
rm -f "$logs"/*.tap

# python3 as the distribution installs it (.ci/run's python3): where a
# version manager's shim is first on PATH (pyenv's is a shell script that
# looks the version up at each start: 96 ms of CPU against 10 ms, and the
# CLI tests start python3 hundreds of times), the tests get the
# distribution's, through build/test-bin, and everything else stays as found
if [ -x /usr/bin/python3 ] && [ "$(command -v python3)" != /usr/bin/python3 ]; then
	mkdir -p build/test-bin && ln -sf /usr/bin/python3 build/test-bin/python3
	PATH=$(pwd)/build/test-bin:$PATH
	export PATH
fi

export CMOCKA_MESSAGE_OUTPUT=TAP
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=0:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# count TAP results: "... # skip" is a skip, not a pass or a failure
summary_and_exit() {
	cat "$logs"/*.tap | awk '
		/^ok .*# [Ss][Kk][Ii][Pp]/ { s++; next }
		/^ok / { p++ }
		/^not ok / { f++ }
		END {
			printf "%d passed, %d failed, %d skipped\n", p, f, s
			exit (f > 0 || p == 0) ? 1 : 0
		}'
	exit $?
}

run_unit() {	# $1 = build dir, $2 = label
	for t in "$1"/tests/test_*; do
		[ -x "$t" ] || continue
		name=$2-$(basename "$t")
		echo "# $name"
		timeout -k 10 "$CDM_TEST_TIMEOUT" "$t" > "$logs/$name.tap.raw" 2>&1
		rc=$?
		# cmocka writes a skipped test as "not ok N # SKIP", which reads as
		# a failure to anyone searching the log for "not ok": TAP's skip is
		# "ok N # SKIP"
		sed 's/^not ok \([0-9]*\) # SKIP/ok \1 # SKIP/' "$logs/$name.tap.raw" > "$logs/$name.tap"
		rm -f "$logs/$name.tap.raw"
		cat "$logs/$name.tap"
		# a crash before TAP output still has to count as a failure
		if [ $rc -ne 0 ] && ! grep -q '^not ok' "$logs/$name.tap"; then
			echo "not ok - $name exited with status $rc" | tee -a "$logs/$name.tap"
		fi
	done
}

# The CLI tests mostly wait on timed passes, so they run several at a time
# (bats --jobs, which needs GNU parallel; one at a time without it), the
# ones on loop devices too: each attaches its own (losetup -f --show),
# detaches only that, and makes ext4 without lazy init, whose writes after
# mount changed a device under a test that checked nothing wrote to it
# (helpers.bash: mkfs_ext4, detach_loop).  CDM_TEST_JOBS=1 runs them one
# by one.
bats_jobs=
if [ "${CDM_TEST_JOBS:-6}" -gt 1 ] && command -v parallel > /dev/null 2>&1; then
	bats_jobs="--jobs ${CDM_TEST_JOBS:-6}"
fi

run_cli() {	# $1 = cdm binary, $2 = label
	echo "# $2 bats tests/cli with CDM=$1 ${bats_jobs}"
	# shellcheck disable=SC2086
	CDM=$(pwd)/$1 bats $bats_jobs --tap tests/cli > "$logs/$2-cli.tap" 2>&1
	rc=$?
	cat "$logs/$2-cli.tap"
	if [ $rc -ne 0 ] && ! grep -q '^not ok' "$logs/$2-cli.tap"; then
		echo "not ok - bats ($2) exited with status $rc" | tee -a "$logs/$2-cli.tap"
	fi
}

# cdm-mpi for tests/cli/17-scale.bats, when mpicc is installed (else those skip)
if [ $fast = no ] && command -v mpicc >/dev/null 2>&1; then
	make -s WITH_MPI=yes cdm-mpi > "$logs/mpi-build.log" 2>&1 ||
		echo "not ok - make WITH_MPI=yes cdm-mpi failed, see $logs/mpi-build.log" | tee "$logs/mpi-build.tap"
fi

# the slow tests: what they build and run is not $CDM, so once, on the
# plain build, side by side.  Not beside the bats passes: their builds
# and package installs load the disk, and a real-disk test's pass of 0.5 s
# then completed no I/O (the device held 4 writes 1.7 s)
run_slow() {
	echo "# slow bats tests/slow ${bats_jobs}"
	# shellcheck disable=SC2086
	CDM=$(pwd)/cdm bats $bats_jobs --tap tests/slow > "$logs/slow.tap" 2>&1
	rc=$?
	cat "$logs/slow.tap"
	if [ $rc -ne 0 ] && ! grep -q '^not ok' "$logs/slow.tap"; then
		echo "not ok - bats (slow) exited with status $rc" | tee -a "$logs/slow.tap"
	fi
}

run_unit build plain
# a stop of make test stops what runs beside it too (Ctrl-C reaches them
# already: one process group)
fuzz_pid= valgrind_pid=
trap 'kill $fuzz_pid $valgrind_pid 2> /dev/null; exit 143' TERM
trap 'kill $fuzz_pid $valgrind_pid 2> /dev/null; exit 130' INT
run_cli cdm plain
[ $fast = yes ] && summary_and_exit
run_slow

# valgrind memcheck on the plain build (sync and null engines), once
run_valgrind() {
	if ! command -v valgrind > /dev/null; then
		echo "ok - valgrind memcheck # SKIP valgrind not installed" | tee "$logs/valgrind.tap"
		return
	fi
	echo "# valgrind memcheck: tests/valgrind with ./cdm"
	VG_CDM=$(pwd)/cdm bats --tap tests/valgrind > "$logs/valgrind.tap" 2>&1
	rc=$?
	cat "$logs/valgrind.tap"
	if [ $rc -ne 0 ] && ! grep -q '^not ok' "$logs/valgrind.tap"; then
		echo "not ok - bats (valgrind) exited with status $rc" | tee -a "$logs/valgrind.tap"
	fi
}

# the parsers under libFuzzer for a bounded time (clang + compiler-rt)
run_fuzz() {
	secs=${FUZZ_SECONDS:-30}
	if ! make -s build/fuzz/fuzz_parse > "$logs/fuzz-build.log" 2>&1; then
		echo "ok - fuzz parsers # SKIP cannot build the libFuzzer target (clang with compiler-rt needed)" \
			| tee "$logs/fuzz.tap"
		return
	fi
	mkdir -p build/fuzz/corpus
	if build/fuzz/fuzz_parse -max_total_time="$secs" -max_len=65536 -artifact_prefix=build/fuzz/ \
		build/fuzz/corpus tests/fuzz/corpus > "$logs/fuzz.log" 2>&1; then
		echo "ok - fuzz parsers for ${secs}s: $(grep -o 'Done [0-9]* runs' "$logs/fuzz.log" | tail -1)" \
			| tee "$logs/fuzz.tap"
	else
		tail -30 "$logs/fuzz.log"
		echo "not ok - fuzz parsers: crash, see $logs/fuzz.log and build/fuzz/crash-*" | tee "$logs/fuzz.tap"
	fi
}

# valgrind and the fuzzer each keep one core busy: beside the ASan pass
# (whose tests, like the plain ones, mostly wait on timed passes)
run_fuzz > "$logs/fuzz.out" 2>&1 &
fuzz_pid=$!
run_valgrind > "$logs/valgrind.out" 2>&1 &
valgrind_pid=$!
run_unit build/asan asan
run_cli build/asan/cdm asan
wait "$valgrind_pid"
cat "$logs/valgrind.out"
wait "$fuzz_pid"
cat "$logs/fuzz.out"

summary_and_exit
