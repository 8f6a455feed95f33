#!/usr/bin/env bats
# cdm report RUN.json: a saved run printed again, in every format of the
# registry, exactly as the run printed it; an aggregate of cdm merge; --output,
# --aggregate; and the one-line errors for files that are not a saved run.

load helpers

# a small real run: a 16 MiB file in $TD, real I/O, Read and Write
REALRUN=(--size 16MiB --count 2 --time 1 --interval 0 --warmup 0 --quiet
	-t "SEQ1M Q8T1" -t "RND4K Q4T1")
NULLRUN=(--size 16MiB --count 2 --time 1 --interval 0 --warmup 0 --quiet
	--engine null --null-service-us 1000)

# every --format value of this build, from the registry's own message
formats() {
	"$CDM" report --format '?' x.json 2>&1 | sed -n "s/.*bad value for --format: '?' (\(.*\))$/\1/p" | tr -d ','
}

@test "round trip: a real run saved with --save, reported again in every format, is what the run printed" {
	local fmts
	fmts=$(formats)
	echo "formats: $fmts"
	[[ " $fmts " == *" cdm "* && " $fmts " == *" cdm7 "* && " $fmts " == *" cdm6 "* ]]
	[[ " $fmts " == *" json "* && " $fmts " == *" csv "* && " $fmts " == *" markdown "* ]]
	for f in $fmts; do
		"$CDM" "${REALRUN[@]}" --format "$f" --save "$OD/$f.json" "$TD" > "$OD/run.$f"
		"$CDM" report --format "$f" "$OD/$f.json" > "$OD/report.$f"
		# byte for byte, trailing spaces and the last newline (or none) included
		cmp "$OD/run.$f" "$OD/report.$f"
		[ -s "$OD/run.$f" ]
	done
	# the default is the CDM 8 layout
	"$CDM" report "$OD/cdm.json" | cmp - "$OD/run.cdm"
	# and the same run in another layout has the same figures
	"$CDM" report --format cdm7 "$OD/cdm.json" > "$OD/other.cdm7"
	python3 - "$OD/run.cdm" "$OD/other.cdm7" <<'PY'
import re, sys
fig = lambda p: re.findall(r"\): +([0-9.]+) MB/s \[ *([0-9.]+) IOPS\] < *([0-9.]+) us>", open(p).read())
a, b = fig(sys.argv[1]), fig(sys.argv[2])
assert len(a) == 4 and a == b, (a, b)
PY
	assert_clean "$TD"
}

@test "an aggregate of cdm merge: its summed figures, in any format" {
	"$CDM" "${NULLRUN[@]}" --label A --save "$OD/a.json" -t "RND4K Q4T1" "$TD" > /dev/null
	"$CDM" "${NULLRUN[@]}" --label B --save "$OD/b.json" -t "RND4K Q4T1" "$TD" > /dev/null
	# (the runs did not overlap: merge warns, which is not what is tested here)
	"$CDM" merge --save "$OD/m.json" "$OD/a.json" "$OD/b.json" > /dev/null 2>&1
	run "$CDM" report "$OD/m.json"
	echo "$output"
	[ "$status" -eq 0 ]
	# the aggregate's label and its threads: T of both runs
	[[ "$output" == *"Comment: "*" (2 runs)"* ]]
	[[ "$output" == *"  RND    4KiB (Q=  4, T= 2): "* ]]
	"$CDM" report --format json "$OD/m.json" > "$OD/r.json"
	python3 - "$OD/m.json" "$OD/r.json" "$OD/a.json" <<'PY'
import json, sys
m, r, a = (json.load(open(p)) for p in sys.argv[1:4])
assert len(m["tests"]) == len(r["tests"]) == 2
for tm, tr, ta in zip(m["tests"], r["tests"], a["tests"]):
    assert tr["summary"]["mb_s"] == tm["summary"]["mb_s"], (tr["name"], tr["summary"], tm["summary"])
    assert tr["summary"]["ios"] == tm["summary"]["ios"] > ta["summary"]["ios"]
PY
	# a CDM 6 layout of it too
	"$CDM" report --format cdm6 "$OD/m.json" | grep -q '^  Random Read 4KiB (Q=  4,T= 2) : '
}

@test "--output writes the report to a file; its name must say text; never over the run" {
	"$CDM" "${NULLRUN[@]}" -t "SEQ1M Q8T1" --save "$OD/r.json" "$TD" > /dev/null
	"$CDM" report --format cdm7 -o "$OD/r.txt" "$OD/r.json"
	"$CDM" report --format cdm7 "$OD/r.json" | cmp - "$OD/r.txt"
	head -2 "$OD/r.txt" | tail -1 | grep -q '^cdm '
	run "$CDM" report --format cdm6 -o "$OD/r.md" "$OD/r.json"
	[ "$status" -eq 2 ]
	[[ "$output" == *"r.md: the name says Markdown, but --output writes CDM 6 text"* ]]
	[ ! -e "$OD/r.md" ]
	run "$CDM" report --format json -o "$OD/r.json" "$OD/r.json"
	[ "$status" -eq 2 ]
	[[ "$output" == *"is the result to report"* ]]
	python3 -m json.tool "$OD/r.json" > /dev/null
	run "$CDM" report -o "$OD/no/such/dir/r.txt" "$OD/r.json"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
}

@test "--aggregate shows another pass figure than the run's own" {
	"$CDM" "${NULLRUN[@]}" --count 3 -t "RND4K Q4T1" --mode read --save "$OD/r.json" "$TD" > /dev/null
	"$CDM" report --format json "$OD/r.json" | grep -q '"aggregate": "best"'
	"$CDM" report --aggregate median --format json "$OD/r.json" | grep -q '"aggregate": "median"'
	"$CDM" report --aggregate median "$OD/r.json" > "$OD/median.txt"
	python3 - "$OD/r.json" "$OD/median.txt" <<'PY'
import json, re, sys
doc = json.load(open(sys.argv[1]))
(mbs,) = re.findall(r"\): +([0-9.]+) MB/s", open(sys.argv[2]).read())
assert mbs == "%.3f" % doc["tests"][0]["summary"]["mb_s"]["median"], mbs
PY
	run "$CDM" report --aggregate most "$OD/r.json"
	[ "$status" -eq 2 ]
}

@test "bad input: one line naming the file, exit 2, nothing on stdout" {
	check_bad() {	# $1 file, $2 text the message must have
		run "$CDM" report "$1"
		echo "status $status: $output"
		[ "$status" -eq 2 ]
		[ "${#lines[@]}" -eq 1 ]
		[[ "${lines[0]}" == "cdm: report: $1: "*"$2"* ]]
	}
	check_bad "$OD/missing.json" "No such file or directory"
	printf 'Sequential Read : 1 MB/s\n' > "$OD/text.json"
	check_bad "$OD/text.json" "not JSON: line 1"
	printf '{"tool": "fio"}\n' > "$OD/fio.json"
	check_bad "$OD/fio.json" "not a cdm result"
	: > "$OD/empty.json"
	check_bad "$OD/empty.json" "empty file"
	check_bad "$OD" "Is a directory"
	# stdout stays empty: 2>/dev/null leaves nothing
	[ -z "$("$CDM" report "$OD/text.json" 2> /dev/null)" ]
}

@test "usage: one file, a known format, the subcommand first" {
	run "$CDM" report
	[ "$status" -eq 2 ]
	[[ "$output" == *"a saved result (RUN.json) expected"* ]]
	run "$CDM" report a.json b.json
	[ "$status" -eq 2 ]
	[[ "$output" == *"one saved result at a time"* ]]
	run "$CDM" report --format xml a.json
	[ "$status" -eq 2 ]
	[[ "$output" == *"bad value for --format: 'xml' (cdm, cdm7, cdm6, json, csv, markdown"* ]]
	run "$CDM" -q report a.json
	[ "$status" -eq 2 ]
	[[ "$output" == *"'report' is a subcommand: put it first"* ]]
	run "$CDM" report --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"Usage: cdm report [OPTIONS] RUN.json"* ]]
	[[ "$output" == *"cdm, cdm7, cdm6, json, csv, markdown"* ]]
}
