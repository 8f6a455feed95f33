#!/usr/bin/env bats
# cdm under valgrind memcheck (issue 6, "Hardening"): a few representative
# runs with the sync and null engines, on normal exits and on error paths.
# tests/run.sh runs this file once, against the plain build (./cdm; an ASan
# build cannot run under valgrind), and only when valgrind is installed.
#
# Any memcheck error, or a leak that is definite or indirect, fails the test
# (--error-exitcode=99).  "Possibly lost" and "still reachable" blocks are
# not errors: a run stopped by its thread limit leaves threads waiting.
# io_uring and libaio runs are here too, without suppressions: memcheck
# takes the ring memory that cdm maps from the kernel as defined, and cdm
# never reads the data buffers the kernel fills (valgrind 3.19 reports no
# error).  If a later valgrind or liburing makes them noisy, leave io_uring
# to the ASan+UBSan pass rather than suppress real reports.

load ../cli/helpers

: "${VG_CDM:=$BATS_TEST_DIRNAME/../../cdm}"
# engine_works (helpers.bash) asks this binary too
CDM=$VG_CDM

# vg STATUS ARGS...: run cdm under memcheck, expect exit STATUS, no errors
vg() {
	local want=$1 st=0
	shift
	valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect \
		--error-exitcode=99 --log-file="$OD/vg.log" \
		"$VG_CDM" "$@" > "$OD/out" 2> "$OD/err" || st=$?
	cat "$OD/vg.log" "$OD/err"
	[ "$st" -ne 99 ] || { echo "memcheck found errors"; return 1; }
	[ "$st" -eq "$want" ] || { echo "exit $st, want $want"; return 1; }
	[ ! -s "$OD/vg.log" ] || { echo "memcheck said something"; return 1; }
}

setup_file() {
	command -v valgrind > /dev/null || skip "valgrind not installed"
}

@test "memcheck: a quick run with the sync engine (reads and writes)" {
	vg 0 "${QUICK[@]}" --engine sync --test RND4K --test "SEQ1M Q2T2" "$TD"
	grep -qE '^  SEQ    1MiB \(Q=  1, T= 2\):' "$OD/out"
	assert_clean "$TD"
}

@test "memcheck: io_uring and libaio runs" {
	ran=0
	for e in io_uring libaio; do
		engine_works "$e" || continue
		vg 0 "${QUICK[@]}" --engine "$e" --test "RND4K Q8T2" "$TD"
		grep -q "($e, O_DIRECT)" "$OD/out"
		ran=1
	done
	[ "$ran" -eq 1 ] || skip "neither io_uring nor libaio works here"
	assert_clean "$TD"
}

@test "memcheck: the null engine with threads, JSON to --output and --save" {
	vg 0 "${QUICK[@]}" --engine null --test "RND4K Q8T4" --format json \
		--output "$OD/r.json" --save "$OD/s.json" "$TD"
	[ -s "$OD/r.json" ] && [ -s "$OD/s.json" ]
	assert_clean "$TD"
}

@test "memcheck: --keep, then --file on the kept file, and a profile file" {
	vg 0 "${QUICK[@]}" --engine sync --test RND4K --keep "$TD"
	kept=$(find "$TD" -name 'cdm-*.keep')
	[ -n "$kept" ]
	vg 0 --quiet --count 1 --time 1 --interval 0 --warmup 0 --engine sync --test "SEQ1M Q2T1" \
		--file "$kept"
	rm -f "$kept" "$kept.cdm"
	printf 'name = vg\nsize = 16MiB\ncount = 1\ntime = 1\ninterval = 0\ntest = RND4K Q4T2\ntest = SEQ128K\n' > "$OD/p.cdm"
	vg 0 --quiet --warmup 0 --engine null --profile "$OD/p.cdm" "$TD"
	grep -q '^Profile: vg$' "$OD/out"
	assert_clean "$TD"
}

@test "memcheck: every format, and cdm compare" {
	for f in csv markdown; do
		vg 0 "${QUICK[@]}" --engine null --test RND4K --format "$f" "$TD"
	done
	vg 0 "${QUICK[@]}" --engine null --test RND4K --save "$OD/a.json" "$TD"
	vg 0 "${QUICK[@]}" --engine null --test RND4K --save "$OD/b.json" "$TD"
	vg 0 compare "$OD/a.json" "$OD/b.json"
	vg 0 compare --format markdown "$OD/a.json" "$OD/b.json"
}

@test "memcheck: error paths (bad option, spec and profile, missing target, a file as target)" {
	vg 2 --no-such-option "$TD"
	vg 2 "${QUICK[@]}" --test "RND4K Q0T1" "$TD"
	printf 'name = x\nszie = 1G\n' > "$OD/bad.cdm"
	vg 2 --profile "$OD/bad.cdm" "$TD"
	vg 1 "${QUICK[@]}" "$TD/does-not-exist"
	vg 2 compare "$OD/does-not-exist.json" "$OD/nor-this.json"
	touch "$TD/file"
	vg 1 "${QUICK[@]}" "$TD/file"
	assert_clean "$TD"
}

@test "memcheck: an I/O error in a measured test (fault shim)" {
	shim="$BATS_TEST_DIRNAME/../../build/tests/faultshim.so"
	[ -f "$shim" ] || skip "build/tests/faultshim.so not built (make tools)"
	CDM_FAULT=pwrite:EIO:20:4096 LD_PRELOAD=$shim \
		vg 1 "${QUICK[@]}" --engine sync --test RND4K "$TD"
	grep -q "RND4K Q1T1 Write: Input/output error at offset" "$OD/err"
	assert_clean "$TD"
}

@test "memcheck: a run stopped by SIGINT" {
	valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect \
		--error-exitcode=99 --log-file="$OD/vg.log" \
		"$VG_CDM" --quiet --size 16MiB --count 3 --time 2 --warmup 0 --interval 0 \
		--engine sync --test RND4K "$TD" > "$OD/out" 2> "$OD/err" &
	pid=$!
	for _ in $(seq 300); do
		[ -n "$(find "$TD" -name 'cdm-*.tmp')" ] && break
		sleep 0.1
	done
	sleep 1
	kill -INT "$pid"
	st=0
	wait "$pid" || st=$?
	cat "$OD/vg.log" "$OD/err"
	[ "$st" -eq 130 ]
	[ ! -s "$OD/vg.log" ]
	assert_clean "$TD"
}
