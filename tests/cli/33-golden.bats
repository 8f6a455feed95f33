#!/usr/bin/env bats
# The golden outputs (docs/hacking.md, "Golden outputs"): every output
# cdm renders from a saved run, compared byte for byte with the file
# committed in tests/golden/expected/.  The saved runs are
# tests/golden/runs/ (tests/golden/make-runs.sh made them) and the
# CrystalDiskMark reports of tests/fixtures/cdm-reports/; the cases, and
# how each is rendered (TZ=UTC, the binary's version made @CDM_VERSION@,
# relative paths), are tests/golden/golden.sh's, which update.sh shares.
# Nothing here runs a benchmark: each test only renders, in a few
# seconds for the whole file, whatever the load.
#
# A failure shows `diff -u` of the expected file and what cdm prints now,
# each named by its case (the run and the format).  A refactor must leave
# every one as it is: a change in them is a change of behaviour.  When a
# change is intended: tests/golden/update.sh, then read the diff of
# tests/golden/expected/ and commit it with the change.

load helpers

. "$BATS_TEST_DIRNAME/../golden/golden.sh"

# cases are rendered in their own directories: the binary by its full path
case $CDM in
/*) ;;
*) CDM=$PWD/$CDM ;;
esac

# golden GROUP - golden.sh's golden_check of GROUP, in a bash of its own:
# bats's DEBUG trap, on every command of this shell, made the loops over
# the cases three times slower
golden() {
	run env CDM="$CDM" bash -c '. "$1" && golden_check "$2" "$3"' golden \
		"$BATS_TEST_DIRNAME/../golden/golden.sh" "$1" "$OD/out"
	assert_success
}

# the --format values a subcommand's message lists
formats_of() {
	"$CDM" "$1" --format '?' x y 2>&1 | sed -n "s/.*bad value for --format: '?' (\(.*\))$/\1/p" | tr -d ','
}

@test "the golden set covers every format of cdm report and cdm compare" {
	assert_equal "$(formats_of report)" "$GOLDEN_FORMATS"
	assert_equal "$(formats_of merge)" "$GOLDEN_FORMATS"
	assert_equal "$(formats_of import)" "$GOLDEN_FORMATS"
	assert_equal "$(formats_of compare)" "$GOLDEN_COMPARE_FORMATS"
}

@test "tests/golden/expected/ holds the files of the cases, no other" {
	local want got f
	want=$(golden_cases | awk '{ sub(/=.*/, "", $2); print $2 }' | LC_ALL=C sort -u)
	got=$(for f in "$GOLDEN_EXPECTED"/*; do
		[[ $f == *.stderr ]] || echo "${f##*/}"
	done | LC_ALL=C sort)
	run diff <(echo "$want") <(echo "$got")
	assert_success
	# and each .stderr is of a case
	for f in "$GOLDEN_EXPECTED"/*.stderr; do
		[ -e "${f%.stderr}" ] || { echo "stray $f"; false; }
	done
}

@test "golden: cdm report of each saved run in every format" {
	golden runs
}

@test "golden: cdm report --aggregate median and mean" {
	golden aggregate
}

@test "golden: cdm merge of two runs, in every format" {
	golden merge
}

@test "golden: CrystalDiskMark reports, from their text (cdm report, cdm import) and imported" {
	golden reports
}

@test "golden: cdm compare, in every format" {
	golden compare
}

@test "golden: the files written beside a report: -o, --svg and its link, --save" {
	golden files
}

@test "golden: the --plot chart of a saved run with a time series (golden-plot)" {
	[ -x "$GOLDEN_PLOT" ] || skip "$GOLDEN_PLOT not built (make tools)"
	golden plot
}

@test "golden: the outputs do not depend on the locale" {
	# cdm never calls setlocale(): a locale set in the environment changes
	# no byte (only TZ does, which golden.sh pins)
	LANG=C.UTF-8 LC_ALL=C.UTF-8 golden aggregate
	rm -rf "$OD/out"
	LANG=POSIX LC_ALL=POSIX golden merge
}
