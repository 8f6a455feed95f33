# shellcheck shell=bash
# tests/golden/golden.sh - the golden set's one list of cases and its one
# way of rendering them, sourced by tests/golden/update.sh (which writes
# expected/) and tests/cli/33-golden.bats (which compares with it), so
# the two cannot drift apart.  docs/hacking.md, "Golden outputs", says
# what the set is for: every output cdm renders from a saved run, byte
# for byte, so that a change in expected/ is a change of behaviour.
#
# A case is one line of golden_cases: GROUP EXPECTED DIR ARGS...: the file
# expected/EXPECTED holds the standard output of `cdm ARGS...` run in DIR
# (runs: tests/golden/runs, reports: tests/fixtures/cdm-reports), which
# the arguments name relative to it, so that no path of the checkout
# reaches an output.  EXPECTED=FILE: the case is the file @OUT@/FILE the
# command writes (-o, --svg, --save; @OUT@ is a scratch directory), not
# its standard output.  Several lines may name one EXPECTED: each command
# must give that same file (update.sh writes it from the first and checks
# the others; the test checks each against it).  Every case exits 0; its
# standard error is expected/EXPECTED.stderr when that file exists, else
# empty.  Arguments are words without spaces.
#
# What could make an output differ from one rendering to the next, and
# how golden_render_all makes it fixed (every case found):
#   - TZ: the CDM text layouts (cdm, cdm7, cdm6) print a run's Date in
#     local time (format/layout.c, cdm_layout_localtime()), so they
#     depend on TZ: each case runs with TZ=UTC.  Every other output
#     prints UTC, or the date text a CrystalDiskMark report stated.
#   - the locale: nothing (cdm never calls setlocale(); 33-golden.bats
#     renders some cases under other locales to show it).
#   - the binary's own version (cdm --version): an imported report's
#     header in the CDM text layouts names the cdm that renders it ("cdm
#     VERSION: a CrystalDiskMark 8.0.1 x64 report, imported",
#     format/layout.c), and a CrystalDiskMark report read straight from
#     its text has no saved version, so its JSON's cdm_version is the
#     binary's (format/result_write.c): one sed makes the version, where it
#     stands as a word, @CDM_VERSION@ in every output.  A saved run's
#     own version (0.1.0-golden, make-runs.sh) is kept.
#   - paths: an imported report's "file" in JSON is the path as given
#     (format/cdm_read.c), the Markdown report's image link is the --svg
#     path relative to -o (cli/cli.c, cdm_cli_image_link()): the cases
#     name files relative to DIR and write into @OUT@ side by side.
#   - the time of rendering: none; no output has it.
# Rendered twice, and under TZ=Asia/Tokyo LANG=C.UTF-8 (TZ then pinned
# by the case), the outputs are the same byte for byte.
#
# The JSON layout exception, for later: a new JSON writer that changes
# only the layout (whitespace, the line breaks inside an object) changes
# every expected .json once.  `update.sh -j` then writes the new files
# only if each .json holds the same content as before (golden_json_values:
# the same keys in the same order, the same values as python3 reads them,
# integers exact, whatever the layout), and GOLDEN_JSON=values in the
# environment makes the test compare .json files so too (golden_same).
# Use it for the one commit that changes the layout, and say so in that
# commit.  Not used now: GOLDEN_JSON=exact (the default) compares bytes.

GOLDEN_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
GOLDEN_RUNS_DIR=$GOLDEN_TOP/tests/golden/runs
GOLDEN_REPORTS_DIR=$GOLDEN_TOP/tests/fixtures/cdm-reports
GOLDEN_EXPECTED=$GOLDEN_TOP/tests/golden/expected
# the --plot chart of a saved run (tests/tools/golden-plot.c, make tools)
: "${GOLDEN_PLOT:=$GOLDEN_TOP/build/tests/golden-plot}"
: "${GOLDEN_JSON:=exact}"

# every --format of cdm report (report/report.c's registry); the test
# checks the registry has no other
GOLDEN_FORMATS="cdm cdm7 cdm6 json csv markdown svg"
GOLDEN_COMPARE_FORMATS="cdm markdown svg"
# the runs of cdm (tests/golden/runs/NAME.json; make-runs.sh makes them)
GOLDEN_RUNS="default mix merge-a merge-b merged steady verify series threads
nothing partial settings interrupted device"

# the CrystalDiskMark reports of tests/fixtures/cdm-reports, by name
golden_reports() {
	local f
	for f in "$GOLDEN_REPORTS_DIR"/*.txt; do
		f=${f##*/}
		echo "${f%.txt}"
	done | LC_ALL=C sort
}

# golden_cases [GROUP] - every case (of GROUP), one line each: GROUP
# EXPECTED DIR ARGS... (see the header).  The groups: runs, aggregate,
# merge, reports, compare, files, plot (ARGS "@golden-plot RUN.json":
# $GOLDEN_PLOT instead of cdm).
golden_cases() {
	golden_cases_all | if [ -n "${1:-}" ]; then awk -v g="$1" '$1 == g'; else cat; fi
}

golden_cases_all() {
	local r f a n
	# each run again in every format: cdm report
	for r in $GOLDEN_RUNS; do
		for f in $GOLDEN_FORMATS; do
			echo "runs $r.$f runs report -f $f $r.json"
		done
	done
	# another pass figure than the run's own
	for a in median mean; do
		for f in $GOLDEN_FORMATS; do
			echo "aggregate default.$a.$f runs report --aggregate $a -f $f default.json"
		done
	done
	# the aggregate as cdm merge prints it: what cdm report prints of
	# merged.json, its --save (its "scale" read back: the Aggregate line,
	# the per-run spread), in one expected file
	for f in $GOLDEN_FORMATS; do
		echo "merge merged.$f runs merge -f $f merge-a.json merge-b.json"
	done
	for n in $(golden_reports); do
		for f in $GOLDEN_FORMATS; do
			# a CrystalDiskMark report, read from its text
			echo "reports txt-$n.$f reports report -f $f $n.txt"
			echo "reports txt-$n.$f reports import -f $f $n.txt"
			# and as cdm import saved it
			echo "reports import-$n.$f runs report -f $f import-$n.json"
		done
	done
	# cdm compare: a run and a CrystalDiskMark report (saved, or its text);
	# runs with missing tests, a Mix section, nothing measured; the other
	# metrics and aggregates, against reports without them (CDM 6: no
	# latency; a report: no median)
	for f in $GOLDEN_COMPARE_FORMATS; do
		echo "compare compare-report.$f runs compare -f $f default.json import-cdm8-default-nvme-1.json"
		echo "compare compare-report.$f runs compare -f $f default.json ../../fixtures/cdm-reports/cdm8-default-nvme-1.txt"
		echo "compare compare-runs.$f runs compare -f $f default.json mix.json nothing.json partial.json"
		echo "compare compare-iops.$f runs compare -f $f --metric iops default.json import-cdm7-default-nvme-1.json import-cdm8-default-sata-1.json"
		echo "compare compare-latency.$f runs compare -f $f --metric latency --aggregate median default.json import-cdm6-default-sdcard-1.json import-cdm8-real-partial-1.json"
		echo "compare compare-mean.$f runs compare -f $f --aggregate mean merge-a.json merge-b.json"
	done
	# the files written beside a report: -o, --svg and the Markdown report
	# that links the card, --save
	echo "files default.linked.markdown=r.md runs report -f markdown -o @OUT@/r.md --svg @OUT@/card.svg default.json"
	echo "files default.svg=card.svg runs report -f markdown -o @OUT@/r.md --svg @OUT@/card.svg default.json"
	echo "files default.cdm7=r.txt runs report -f cdm7 -o @OUT@/r.txt default.json"
	echo "files merged.json=m.json runs merge --save @OUT@/m.json merge-a.json merge-b.json"
	for n in $(golden_reports); do
		echo "files txt-$n.json=r.json reports import --save @OUT@/r.json $n.txt"
	done
	# the --plot chart, which cdm draws only during a run, of the runs with
	# a time series: by golden-plot from the saved run
	echo "plot series.plot.svg runs @golden-plot series.json"
	echo "plot steady.plot.svg runs @golden-plot steady.json"
}

# the binary's version, as cdm_version() prints it
golden_version() {
	"$CDM" --version | sed -n '1s/^cdm //p'
}

# golden_render_all VERSION OUT [GROUP] - render every case (of GROUP)
# into the empty directory OUT, as the set does (the header): OUT/NAME
# the output of the first case of expected/NAME, OUT/NAME.stderr its
# standard error unless empty; the other commands of the same NAME in
# OUT/again/NAME.N (and .N.stderr); "NAME: cdm ARGS (in DIR) exited N"
# in OUT/failed for each case that did not exit 0.  Then the binary's
# VERSION, where it stands as a word, becomes @CDM_VERSION@ in them all
# (one sed for every file: rendering stays fast).
golden_render_all() {
	local version=$1 out=$2 group=${3:-} here=$PWD expected dir rest name to n=0 st v
	local args=()
	mkdir -p "$out/again" "$out/files"
	: > "$out/failed"
	while read -r _ expected dir rest; do
		name=${expected%%=*}
		read -ra args <<< "$rest"
		args=("${args[@]//@OUT@/$out/files}")
		to=$out/$name
		if [ -e "$to" ]; then
			n=$((n + 1))
			to=$out/again/$name.$n
			echo "$name.$n cdm $rest (in $dir)" >> "$out/again/index"
		fi
		st=0
		case $dir in
		runs) cd "$GOLDEN_RUNS_DIR" || return 1 ;;
		reports) cd "$GOLDEN_REPORTS_DIR" || return 1 ;;
		*) echo "golden.sh: $name: no directory '$dir'" >&2; return 1 ;;
		esac
		# (few processes per case: the loop is most of the test's time)
		if [ "${args[0]}" = @golden-plot ]; then
			TZ=UTC "$GOLDEN_PLOT" "${args[@]:1}" > "$to" 2> "$out/.err" || st=$?
		elif [[ $expected == *=* ]]; then
			TZ=UTC "$CDM" "${args[@]}" > /dev/null 2> "$out/.err" || st=$?
			mv "$out/files/${expected#*=}" "$to" 2> /dev/null || : > "$to"
			rm -rf "$out/files"/*
		else
			TZ=UTC "$CDM" "${args[@]}" > "$to" 2> "$out/.err" || st=$?
		fi
		[ ! -s "$out/.err" ] || mv "$out/.err" "$to.stderr"
		[ $st -eq 0 ] || echo "$name: cdm $rest (in $dir) exited $st" >> "$out/failed"
	done < <(golden_cases "$group")
	cd "$here" || return 1
	rm -f "$out/.err"
	rmdir "$out/files"
	v=$(printf '%s' "$version" | sed 's/[][\.*^$/+?(){}|]/\\&/g')
	find "$out" -type f ! -name failed -exec \
		sed -i -E "s/(^|[^-.+_0-9A-Za-z])$v([^-.+_0-9A-Za-z]|\$)/\\1@CDM_VERSION@\\2/g" {} +
}

# golden_check_again OUT [WANT] - is each OUT/again/NAME.N, the output of
# another command of NAME, what WANT/NAME is (WANT: OUT itself, or the
# expected files), its standard error too?  Prints a diff for each that
# is not, named by its command; returns 1 if any
golden_check_again() {
	local out=$1 want=${2:-$1} f name cmd bad=0
	[ -e "$out/again/index" ] || return 0
	while read -r f cmd; do
		name=${f%.*}
		if ! cmp -s "$want/$name" "$out/again/$f"; then
			diff -u --label "${want#"$GOLDEN_TOP"/}/$name" --label "$name as another command renders it: $cmd" \
				"$want/$name" "$out/again/$f"
			bad=1
		fi
		if { [ -e "$want/$name.stderr" ] || [ -e "$out/again/$f.stderr" ]; } &&
		   ! cmp -s "$(golden_or_null "$want/$name.stderr")" \
			    "$(golden_or_null "$out/again/$f.stderr")"; then
			diff -u --label "${want#"$GOLDEN_TOP"/}/$name.stderr" --label "the standard error of $cmd" \
				"$(golden_or_null "$want/$name.stderr")" "$(golden_or_null "$out/again/$f.stderr")"
			bad=1
		fi
	done < "$out/again/index"
	return $bad
}

# golden_check GROUP OUT - render the cases of GROUP (all, without one)
# into the new directory OUT and compare each with its expected file and
# its expected standard error: every difference shown as `diff -u`, each
# named by its case; returns 1 if any differs (33-golden.bats).  One
# `diff -rq` finds the files that differ, so that the check costs a few
# processes, not one per file.
golden_check() {
	local group=$1 out=$2 version name dir rest line f base bad=()
	local -A cmd=()
	version=$(golden_version)
	[ -n "$version" ] || { echo "no version from $CDM --version"; return 1; }
	golden_render_all "$version" "$out" "$group" || return 1
	if [ -s "$out/failed" ]; then
		echo "cases that did not exit 0:"
		cat "$out/failed"
		return 1
	fi
	while read -r _ name dir rest; do
		name=${name%%=*}
		[ -n "${cmd[$name]:-}" ] || cmd[$name]="cdm $rest (in $dir)"
	done < <(golden_cases "$group")
	while read -r line; do
		case $line in
		"Files "*" differ") f=${line#Files }; f=${f%% *}; f=${f##*/} ;;
		"Only in $GOLDEN_EXPECTED: "*) f=${line##*: } ;;
		"Only in $out: "*) f=${line##*: } ;;
		*) echo "golden.sh: diff said: $line"; bad+=("?"); continue ;;
		esac
		base=${f%.stderr}
		[ -n "${cmd[$base]:-}" ] || continue	# another group's, or again/, failed
		if [[ $f == *.json ]] && [ -e "$out/$f" ] && [ -e "$GOLDEN_EXPECTED/$f" ] &&
		   golden_same "$GOLDEN_EXPECTED/$f" "$out/$f"; then
			continue		# GOLDEN_JSON=values: the same content
		fi
		if [ ! -e "$GOLDEN_EXPECTED/$base" ]; then
			echo "$base: no tests/golden/expected/$base (${cmd[$base]}): run tests/golden/update.sh"
		elif [ "$f" = "$base" ]; then
			diff -u --label "tests/golden/expected/$f" \
				--label "$f as cdm renders it now: ${cmd[$base]}" \
				"$GOLDEN_EXPECTED/$f" "$out/$f"
		else
			diff -u --label "tests/golden/expected/$f" \
				--label "the standard error of $base now: ${cmd[$base]}" \
				"$(golden_or_null "$GOLDEN_EXPECTED/$f")" "$(golden_or_null "$out/$f")"
		fi
		bad+=("$f")
	done < <(diff -rq "$GOLDEN_EXPECTED" "$out" 2>&1)
	golden_check_again "$out" "$GOLDEN_EXPECTED" || bad+=("(another command of one file)")
	if [ ${#bad[@]} -ne 0 ]; then
		echo "golden ($group): ${#bad[@]} outputs differ from tests/golden/expected/: ${bad[*]}"
		echo "a change of behaviour; if intended, run tests/golden/update.sh and review its diff"
		return 1
	fi
}

# the file $1, or /dev/null when there is none (an empty standard error)
golden_or_null() {
	if [ -e "$1" ]; then echo "$1"; else echo /dev/null; fi
}

# golden_json_values A B - the same JSON content: keys in the same order,
# the same values, any layout (GOLDEN_JSON=values)
golden_json_values() {
	python3 - "$1" "$2" <<'PY'
import json, sys
def load(p):
    # pairs, not dicts: the order of the keys counts, and a key twice too
    return json.load(open(p), object_pairs_hook=lambda kv: ["{}", kv])
sys.exit(0 if load(sys.argv[1]) == load(sys.argv[2]) else 1)
PY
}

# golden_same WANT GOT - is GOT what WANT holds?  Byte for byte, or for a
# .json file under GOLDEN_JSON=values by golden_json_values
golden_same() {
	if [ "$GOLDEN_JSON" = values ] && [[ $1 == *.json ]]; then
		golden_json_values "$1" "$2"
	else
		cmp -s "$1" "$2"
	fi
}
