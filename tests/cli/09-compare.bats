#!/usr/bin/env bats
# cdm compare: saved results side by side, end to end (--save, then
# compare), and the clear one-line errors for inputs that are not cdm
# results.

load helpers

# passes of 0.1 s: the null engine's device completes I/O whatever the load
NULLRUN=(--size 16MiB --count 2 --time 0.1 --interval 0 --warmup 0 --quiet
	--engine null)

# $1 label, $2 file, rest: options; the simulated device $DEV (default:
# every I/O takes 1 ms)
save_run() {
	local label=$1 file=$2
	shift 2
	"${RT[@]}" "$CDM" "${NULLRUN[@]}" --null-device "${DEV:-lat=1ms}" --label "$label" \
		--save "$file" "$@" "$TD" > /dev/null
}

@test "--save twice, then compare: labels as heads, ratios, missing tests" {
	# SAN's device is capped at half LOCAL's IOPS.  A cap, not a service
	# time: a thread that wakes late (a loaded machine) loses no I/O to
	# it (the cap's credit), where with a service time each late wake
	# takes from the rate, more from the faster run
	DEV="lat=100us,iops=2000" save_run LOCAL "$TD/local.json" --test "RND4K Q2T1" --test "SEQ1M"
	DEV="lat=100us,iops=1000" save_run SAN "$TD/san.json" --test "RND4K Q2T1"
	run "$CDM" compare "$TD/local.json" "$TD/san.json"
	echo "$output"
	assert_success
	assert_line --regexp '^\[Read\] +LOCAL +SAN ratio$'
	# about half of LOCAL's rate
	assert_line --regexp '^  RND    4KiB \(Q=  2, T= 1\): +[0-9.]+ +[0-9.]+ 0\.[3-6][0-9]x$'
	assert_line --regexp '^  SEQ    1MiB \(Q=  1, T= 1\): +[0-9.]+ +missing$'
	# the only setting that differs: the tests
	assert_output --partial "  tests: LOCAL 4 tests, SAN 2 tests (2 in common)"
	assert_output --partial "cdm: warning: the runs differ in tests: "
	assert_clean "$TD"
}

@test "compare --format markdown renders as a table; mismatched settings are listed" {
	save_run A "$TD/a.json" --test "RND4K Q2T1" --mode read
	save_run B "$TD/b.json" --test "RND4K Q2T1" --mode read --count 1
	save_run C "$TD/c.json" --test "RND4K Q2T1" --mode read --buffered
	run "$CDM" compare --format markdown "$TD/a.json" "$TD/b.json" "$TD/c.json"
	echo "$output"
	assert_success
	assert_output --partial "> **Warning:** the runs were measured with different settings"
	assert_output --partial "> - count: A x2, B x1, C x2"
	assert_output --partial "> - direct: A O_DIRECT, B O_DIRECT, C buffered"
	assert_output --partial "cdm: warning: the runs differ in count, direct"
	assert_line --regexp '^\| Test \| A \| B \| B / A \| C \| C / A \|$'
	command -v cmark-gfm > /dev/null || skip "cmark-gfm is not installed (apt-get install cmark-gfm)"
	"$CDM" compare --format markdown "$TD/a.json" "$TD/b.json" 2> /dev/null > "$TD/c.md"
	html=$(cmark-gfm -e table "$TD/c.md")
	assert_like "$html" '*"<table>"*'
	assert_like "$html" '*"<th align=\"right\">B / A</th>"*'
}

@test "compare refuses text that is no report, truncated, foreign and newer-schema files, naming them" {
	save_run A "$TD/a.json" --count 1 --test "RND4K" --mode read
	echo "hello" > "$TD/text.json"
	head -c 300 "$TD/a.json" > "$TD/trunc.json"
	echo '{"jobs": [], "fio version": "fio-3.33"}' > "$TD/fio.json"
	sed 's/"schema_version": [0-9]*,/"schema_version": 99,/' "$TD/a.json" > "$TD/new.json"
	: > "$TD/empty.json"
	for f in text:"line 1: not a CrystalDiskMark report line: 'hello'" trunc:"truncated JSON" \
		fio:"not a cdm result" new:"schema_version 99 is newer than this cdm reads" \
		empty:"empty file" missing:"No such file"; do
		name=${f%%:*} why=${f#*:}
		run "$CDM" compare "$TD/a.json" "$TD/$name.json"
		echo "$name: status $status: $output"
		assert_failure 2
		assert_equal "${#lines[@]}" 1
		assert_like "${lines[0]}" '"cdm: $TD/$name.json: $why"*'
	done
}

@test "compare usage errors exit 2" {
	run "$CDM" compare
	assert_failure 2
	assert_output --partial "two or more saved results"
	run "$CDM" compare --format csv a.json b.json
	assert_failure 2
	assert_output --partial "bad value for --format: 'csv'"
	run "$CDM" compare --help
	assert_success
	assert_output --partial "Usage: cdm compare"
}
