#!/usr/bin/env bats
# cdm report RUN.json: a saved run printed again, in every format of the
# registry, exactly as the run printed it; an aggregate of cdm merge; --output,
# --aggregate; and the one-line errors for files that are not a saved run.

load helpers
bats_require_minimum_version 1.5.0      # run --separate-stderr

# the tests of a small run: sequential and random, Read and Write (a real
# run of them: QUICK, a 16 MiB file in $TD, one pass of 0.5 s each)
TESTS=(-t "SEQ1M Q8T1" -t "RND4K Q4T1")
# passes of 0.2 s: the null engine's device completes I/O whatever the
# load, as long as its worker has the CPU; two of them, since a loaded
# machine has been seen to leave a worker without it for 0.2 s (both
# passes of 0.1 s, once), and a test without figures ends the run with 1
NULLRUN=(--size 16MiB --count 2 --time 0.2 --interval 0 --warmup 0 --quiet
	--engine null --null-service-us 1000)

# every --format value of this build, from the registry's own message
formats() {
	"$CDM" report --format '?' x.json 2>&1 | sed -n "s/.*bad value for --format: '?' (\(.*\))$/\1/p" | tr -d ','
}

@test "round trip: a run saved with --save, reported again in every format, is what the run printed; a real run's text, card and JSON too" {
	local fmts
	fmts=$(formats)
	echo "formats: $fmts"
	for f in cdm cdm7 cdm6 json csv markdown; do
		assert_like " $fmts " '*" $f "*'
	done
	# every format from a run of TESTS on the null engine (a run of each
	# on the real disk took 4 s apiece), the runs side by side: each has
	# its own test file, and waits on its device, not the CPU
	local pids=() p
	for f in $fmts; do
		"${RT[@]}" "$CDM" "${NULLRUN[@]}" "${TESTS[@]}" --format "$f" --save "$OD/$f.json" \
			"$TD" > "$OD/run.$f" 2> "$OD/run.$f.err" &
		pids+=($!)
	done
	for p in "${pids[@]}"; do
		wait "$p" || { cat "$OD"/run.*.err; fail "a run of a format failed"; }
	done
	for f in $fmts; do
		"$CDM" report --format "$f" "$OD/$f.json" > "$OD/report.$f"
		# byte for byte, trailing spaces and the last newline (or none) included
		cmp "$OD/run.$f" "$OD/report.$f"
		assert [ -s "$OD/run.$f" ]
	done
	# the default is the CDM 8 layout
	"$CDM" report "$OD/cdm.json" | cmp - "$OD/run.cdm"
	# a real run (a real engine, latencies spread over the histogram): its
	# CDM text, its card (what --format svg prints) and its JSON again
	"$CDM" "${QUICK[@]}" "${TESTS[@]}" --svg "$OD/real.svg" --save "$OD/real.json" "$TD" > "$OD/real.cdm"
	"$CDM" report "$OD/real.json" | cmp - "$OD/real.cdm"
	"$CDM" report --format svg "$OD/real.json" | cmp - "$OD/real.svg"
	"$CDM" report --format json "$OD/real.json" | cmp - "$OD/real.json"
	# and the same run in another layout has the same figures
	"$CDM" report --format cdm7 "$OD/real.json" > "$OD/other.cdm7"
	python3 - "$OD/real.cdm" "$OD/other.cdm7" <<'PY'
import re, sys
fig = lambda p: re.findall(r"\): +([0-9.]+) MB/s \[ *([0-9.]+) IOPS\] < *([0-9.]+) us>", open(p).read())
a, b = fig(sys.argv[1]), fig(sys.argv[2])
assert len(a) == 4 and a == b, (a, b)
PY
	assert_clean "$TD"
}

@test "a run with --log-interval: cdm report prints its time series again, in JSON and CSV" {
	# TESTS' reads on the null engine: a warm-up of 0.1 s and passes of
	# 0.2 s, points of 100 ms, so the first test has 5 points
	"${RT[@]}" "$CDM" "${NULLRUN[@]}" "${TESTS[@]}" --mode read --warmup 0.1 \
		--log-interval 100ms --format csv -o "$OD/run.csv" --save "$OD/r.json" "$TD"
	jq -e '[.tests[] | .series.points | length > 0] | all' "$OD/r.json"
	# JSON: the series as saved, and the whole file byte for byte
	"$CDM" report -f json "$OD/r.json" > "$OD/back.json"
	assert_equal "$(jq -c '[.tests[].series]' "$OD/back.json")" "$(jq -c '[.tests[].series]' "$OD/r.json")"
	cmp "$OD/r.json" "$OD/back.json"
	# CSV: its time-series section, as the run wrote it
	"$CDM" report -f csv "$OD/r.json" > "$OD/back.csv"
	assert_grep -x 'label,test,direction,pass,warmup,start_ns,duration_ns,bytes,ios,mb_s,iops,lat_mean_us,lat_p99_us' "$OD/back.csv"
	cmp "$OD/run.csv" "$OD/back.csv"
	# what the detectors found comes back as written (made here: a real burst takes seconds)
	jq '.tests[0].series.burst = { "high_mb_s": 512.25, "low_mb_s": 64.5,
			"low_from_ns": .tests[0].series.points[2].start_ns } |
		.tests[0].series.ceiling = { "mb_s": 99.125, "from_test": "SEQ1M Q8T1", "lat_ratio": 3.5 }' \
		"$OD/r.json" > "$OD/found.json"
	"$CDM" report -f json "$OD/found.json" > "$OD/found.back"
	assert_equal "$(jq -c '[.tests[].series]' "$OD/found.back")" "$(jq -c '[.tests[].series]' "$OD/found.json")"
	jq -e '.tests[0].series.burst.high_mb_s == 512.25 and .tests[0].series.ceiling.from_test == "SEQ1M Q8T1"' "$OD/found.back"
	# a series its test cannot have is refused by name
	jq '.tests[0].series.burst = { "high_mb_s": 2, "low_mb_s": 1, "low_from_ns": 7 }' "$OD/r.json" > "$OD/bad.json"
	run "$CDM" report "$OD/bad.json"
	assert_failure 2
	assert_output --partial "tests[0].series.burst.low_from_ns: no point of the series starts there"
	jq '.tests[0].series.points[0].pass = 3' "$OD/r.json" > "$OD/bad.json"
	run "$CDM" report "$OD/bad.json"
	assert_failure 2
	assert_output --partial "tests[0].series.points[0].pass: 3 is above 2"
	jq '.tests[0].series.points[0].warmup = false' "$OD/r.json" > "$OD/bad.json"
	run "$CDM" report "$OD/bad.json"
	assert_failure 2
	assert_output --partial "tests[0].series.points[0].warmup: false, but pass is 0"
	assert_clean "$TD"
}

@test "an aggregate of cdm merge: its summed figures, in any format" {
	"${RT[@]}" "$CDM" "${NULLRUN[@]}" --label A --save "$OD/a.json" -t "RND4K Q4T1" "$TD" > /dev/null
	"${RT[@]}" "$CDM" "${NULLRUN[@]}" --label B --save "$OD/b.json" -t "RND4K Q4T1" "$TD" > /dev/null
	# (the runs did not overlap: merge warns, which is not what is tested here)
	"$CDM" merge --save "$OD/m.json" "$OD/a.json" "$OD/b.json" > /dev/null 2>&1
	run "$CDM" report "$OD/m.json"
	echo "$output"
	assert_success
	# the aggregate's label and its threads: T of both runs
	assert_like "$output" '*"Comment: "*" (2 runs)"*'
	assert_output --partial "  RND    4KiB (Q=  4, T= 2): "
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
	"$CDM" report --format cdm6 "$OD/m.json" | assert_grep '^  Random Read 4KiB (Q=  4,T= 2) : ' -
}

@test "--output writes the report to a file; its name must say text; never over the run" {
	"${RT[@]}" "$CDM" "${NULLRUN[@]}" -t "SEQ1M Q8T1" --mode read --save "$OD/r.json" "$TD" > /dev/null
	"$CDM" report --format cdm7 -o "$OD/r.txt" "$OD/r.json"
	"$CDM" report --format cdm7 "$OD/r.json" | cmp - "$OD/r.txt"
	head -2 "$OD/r.txt" | tail -1 | assert_grep '^cdm ' -
	run "$CDM" report --format cdm6 -o "$OD/r.md" "$OD/r.json"
	assert_failure 2
	assert_output --partial "r.md: the name says Markdown, but --output writes CDM 6 text"
	refute [ -e "$OD/r.md" ]
	run "$CDM" report --format json -o "$OD/r.json" "$OD/r.json"
	assert_failure 2
	assert_output --partial "is the result to report"
	python3 -m json.tool "$OD/r.json" > /dev/null
	run "$CDM" report -o "$OD/no/such/dir/r.txt" "$OD/r.json"
	assert_failure 1
	assert_equal "${#lines[@]}" 1
}

@test "--svg: the card of a saved run beside its Markdown, linked from it; the same as the run's own card" {
	mkdir -p "$OD/run" "$OD/post/img"
	"${RT[@]}" "$CDM" "${NULLRUN[@]}" -t "RND4K Q1T1" --mode read --format markdown --save "$OD/r.json" \
		--svg "$OD/run/card.svg" -o "$OD/run/r.md" "$TD"
	"$CDM" report -f markdown --svg "$OD/post/img/card.svg" -o "$OD/post/index.md" "$OD/r.json"
	xmllint --noout "$OD/post/img/card.svg"
	# the saved run's card is the run's own
	cmp "$OD/run/card.svg" "$OD/post/img/card.svg"
	assert_grep -xF "![cdm result: $TD](img/card.svg)" "$OD/post/index.md"
	# and the rest of the Markdown is the run's: only the image line differs
	diff <(grep -v '^!\[' "$OD/run/r.md") <(grep -v '^!\[' "$OD/post/index.md")
	# beside the CDM text on stdout: the path as given
	"$CDM" report --svg "$OD/c.svg" "$OD/r.json" > "$OD/r.txt"
	assert_grep '^\[Read\]' "$OD/r.txt"
	xmllint --noout "$OD/c.svg"
	# a name that is not *.svg, the result itself, an empty path: usage errors, nothing written
	for bad in "$OD/c.png" "$OD/r.json" ""; do
		run --separate-stderr "$CDM" report --svg "$bad" "$OD/r.json"
		assert_failure 2
		refute_output
	done
	refute [ -e "$OD/c.png" ]
	jq -e .tests "$OD/r.json" > /dev/null
}

@test "--svg: the card is written before the report (a reader that stops early cannot cost it), and its link names the very file" {
	"${RT[@]}" "$CDM" "${NULLRUN[@]}" -t "RND4K Q1T1" -t "SEQ1M Q1T1" --mode read --save "$OD/r.json" "$TD" > /dev/null
	# stdout a pipe whose reader is gone: the first write of the report
	# raises SIGPIPE (default action), which ends cdm with 141
	run python3 -c 'import os, signal, sys
r, w = os.pipe()
os.close(r)
os.dup2(w, 1)
signal.signal(signal.SIGPIPE, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' "$CDM" report -f json --svg "$OD/p.svg" "$OD/r.json"
	assert_failure 141
	xmllint --noout "$OD/p.svg"
	# '#', '?', a blank and a newline in the name: percent-encoded, so the
	# link is that file, not a fragment, a query or another name
	mkdir -p "$OD/post"
	name=$'card #1?\nb.svg'
	"$CDM" report -f markdown --svg "$OD/post/$name" -o "$OD/post/index.md" "$OD/r.json"
	assert [ -s "$OD/post/$name" ]
	assert_grep -xF "![cdm result: $TD](card%20%231%3F%0Ab.svg)" "$OD/post/index.md"
}

@test "--aggregate shows another pass figure than the run's own" {
	"${RT[@]}" "$CDM" "${NULLRUN[@]}" --count 3 -t "RND4K Q4T1" --mode read --save "$OD/r.json" "$TD" > /dev/null
	"$CDM" report --format json "$OD/r.json" | assert_grep '"aggregate": "best"' -
	"$CDM" report --aggregate median --format json "$OD/r.json" | assert_grep '"aggregate": "median"' -
	"$CDM" report --aggregate median "$OD/r.json" > "$OD/median.txt"
	python3 - "$OD/r.json" "$OD/median.txt" <<'PY'
import json, re, sys
doc = json.load(open(sys.argv[1]))
(mbs,) = re.findall(r"\): +([0-9.]+) MB/s", open(sys.argv[2]).read())
assert mbs == "%.3f" % doc["tests"][0]["summary"]["mb_s"]["median"], mbs
PY
	run "$CDM" report --aggregate most "$OD/r.json"
	assert_failure 2
}

@test "bad input: one line naming the file, exit 2, nothing on stdout" {
	check_bad() {	# $1 file, $2 text the message must have
		local file=$1 text=$2
		run "$CDM" report "$file"
		echo "status $status: $output"
		assert_failure 2
		assert_equal "${#lines[@]}" 1
		assert_like "${lines[0]}" '"cdm: $file: "*"$text"*'
	}
	check_bad "$OD/missing.json" "No such file or directory"
	# not JSON: read as a CrystalDiskMark report, which it is not either
	printf 'Sequential Read was fast\n' > "$OD/text.json"
	check_bad "$OD/text.json" "line 1: not a CrystalDiskMark report line: 'Sequential Read was fast'"
	printf '{ "tool": garbage\n' > "$OD/garbage.json"
	check_bad "$OD/garbage.json" "not JSON: line 1"
	printf '{"tool": "fio"}\n' > "$OD/fio.json"
	check_bad "$OD/fio.json" "not a cdm result"
	: > "$OD/empty.json"
	check_bad "$OD/empty.json" "empty file"
	check_bad "$OD" "Is a directory"
	# a setting beyond its field is refused, never cut to fit
	"$CDM" "${QUICK[@]}" --engine null --null-device lat=1ms -t "RND4K Q1T1" --mode read \
		--save "$OD/r.json" "$TD" > /dev/null 2>&1
	jq '.settings.fsync_every = 4294967296' "$OD/r.json" > "$OD/big.json"
	check_bad "$OD/big.json" "settings.fsync_every: out of range (0-4294967295, or null)"
	jq '.settings.seed = 0' "$OD/r.json" > "$OD/seed.json"
	check_bad "$OD/seed.json" "settings.seed: out of range (1-4294967295, or null)"
	# stdout stays empty: 2>/dev/null leaves nothing
	assert_equal "$("$CDM" report "$OD/text.json" 2> /dev/null)" ""
}

@test "a mean too large or negative to be a sum (pass, Mix read part, fsync): refused by name, never converted" {
	# a saved Mix run with --fsync: each pass has lat_mean_ns, read.lat_mean_ns,
	# fsync.mean_ns.  The null engine's fsync is the file's own, on the
	# disk: passes of 0.5 s, and the first pass with reads and fsyncs is
	# the one spoilt (a loaded disk may complete few I/Os in a pass)
	"${RT[@]}" "$CDM" "${NULLRUN[@]}" --time 0.5 -t "RND4K Q1T1" --mix 70 --fsync 4 --mode mix \
		--save "$OD/mix.json" "$TD" > /dev/null
	"$CDM" report "$OD/mix.json" > /dev/null
	# the six bad files, bad-FIELD-VALUE.json, by one python3; the pass's
	# index into $OD/pass
	python3 - "$OD/mix.json" "$OD" <<'PY'
import json, sys
passes = json.load(open(sys.argv[1]))["tests"][0]["passes"]
have = [i for i, p in enumerate(passes) if p["read"]["ios"] and p["fsync"]["count"]]
assert have, ("no pass with reads and fsyncs", passes)
open(sys.argv[2] + "/pass", "w").write("%d\n" % have[0])
for field in ("pass", "read", "fsync"):
    for value in ("1e300", "-5"):
        d = json.load(open(sys.argv[1]))
        p = d["tests"][0]["passes"][have[0]]
        v = float(value)
        if field == "pass":
            del p["lat_sum_ns"]          # files from before lat_sum_ns: the mean times the count
            p["lat_mean_ns"] = v
        elif field == "read":
            p["read"]["lat_mean_ns"] = v
        else:
            p["fsync"]["mean_ns"] = v
        json.dump(d, open(f"{sys.argv[2]}/bad-{field}-{value}.json", "w"))
PY
	pass=$(cat "$OD/pass")
	for field in pass read fsync; do
		for value in 1e300 -5; do
			bad="$OD/bad-$field-$value.json"
			run "$CDM" report "$bad"
			echo "$field $value -> status $status: $output"
			assert_failure 2
			assert_equal "${#lines[@]}" 1
			assert_like "${lines[0]}" '"cdm: $bad: "*"passes[$pass]"*"mean_ns: "*" out of range for "*" I/Os"'
		done
	done
}

@test "an end fsync longer than its pass, or counts that add up past 2^64: refused by name (report, compare, merge)" {
	"${RT[@]}" "$CDM" "${NULLRUN[@]}" -t "SEQ1M Q1T1" --mode write --end-fsync --save "$OD/ef.json" "$TD" > /dev/null
	assert_equal "$(jq '.tests[0].passes[0].end_fsync.count' "$OD/ef.json")" 1
	# the flush is timed inside its pass: 1 s longer than the pass is no run's
	jq '.tests[0].passes[0].end_fsync.time_ns = ((.tests[0].passes[0].duration_s * 1e9 | floor) + 1000000000)' \
		"$OD/ef.json" > "$OD/long.json"
	# a pass's bytes that wrap when the passes are added up
	# (python: jq would print 2^64 - 1 as a float)
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["tests"][0]["passes"][1]["bytes"] = 2**64 - 1; json.dump(d, open(sys.argv[2], "w"))' \
		"$OD/ef.json" "$OD/wrap.json"
	for cmd in report compare merge; do
		for f in long wrap; do
			if [ $cmd = report ]; then
				run "$CDM" report "$OD/$f.json"
			else
				run "$CDM" $cmd "$OD/ef.json" "$OD/$f.json"
			fi
			echo "$cmd $f -> status $status: $output"
			assert_failure 2
			assert_equal "${#lines[@]}" 1
			case $f in
			long) [[ "${lines[0]}" == "cdm: $OD/long.json: "*"tests[0].passes[0].end_fsync.time_ns: "*" ns, longer than the pass it ended (duration_s "* ]] ;;
			wrap) [[ "${lines[0]}" == "cdm: $OD/wrap.json: "*"tests[0].passes: their bytes add up past 2^64 (at passes[1])" ]] ;;
			esac
		done
	done
}

@test "usage: one file, a known format, the subcommand first" {
	run "$CDM" report
	assert_failure 2
	assert_output --partial "a saved result (RUN.json) expected"
	run "$CDM" report a.json b.json
	assert_failure 2
	assert_output --partial "one saved result at a time"
	run "$CDM" report --format xml a.json
	assert_failure 2
	assert_output --partial "bad value for --format: 'xml' (cdm, cdm7, cdm6, json, csv, markdown"
	run "$CDM" -q report a.json
	assert_failure 2
	assert_output --partial "'report' is a subcommand: put it first"
	run "$CDM" report --help
	assert_success
	assert_output --partial "Usage: cdm report [OPTIONS] RUN.json|REPORT.txt"
	assert_output --partial "CrystalDiskMark text report"
	assert_output --partial "cdm, cdm7, cdm6, json, csv, markdown"
}

# fixture NAME - the CrystalDiskMark report NAME of tests/fixtures/cdm-reports/
# as published (without its "# source:" line, which no report has) in $OD/NAME
fixture() {
	tail -n +2 "$BATS_TEST_DIRNAME/../fixtures/cdm-reports/$1" > "$OD/$1"
	echo "$OD/$1"
}

@test "a CrystalDiskMark text report, printed again in cdm, cdm7, cdm6, svg and markdown: as cdm import prints it" {
	r=$(fixture cdm8-default-nvme-1.txt)
	"$CDM" import --save "$OD/imp.json" "$r"
	for f in cdm cdm7 cdm6 svg markdown json csv; do
		run "$CDM" report --format "$f" "$r"
		echo "$f: status $status"
		assert_success
		# the text report, its import and the saved import print the same
		"$CDM" report --format "$f" "$r" > "$OD/report.$f"
		"$CDM" import --format "$f" "$r" | cmp - "$OD/report.$f"
		"$CDM" report --format "$f" "$OD/imp.json" | cmp - "$OD/report.$f"
		# whose figures they are; the report's own figures, no 0, no NaN
		assert_grep 'CrystalDiskMark' "$OD/report.$f"
		assert_grep '804\.1' "$OD/report.$f"
		if grep -qiE '(^|[^0-9.])0\.000([^0-9]|$)|nan' "$OD/report.$f"; then
			grep -niE '(^|[^0-9.])0\.000([^0-9]|$)|nan' "$OD/report.$f"
			false
		fi
	done
	# the layouts: the report's rows in each version's words
	assert_grep -x '  SEQ    1MiB (Q=  8, T= 1):   804.157 MB/s \[    766.9 IOPS\] < 10402.77 us>' "$OD/report.cdm"
	assert_grep -x 'Sequential 1MiB (Q=  8, T= 1):   804.157 MB/s \[    766.9 IOPS\] < 10402.77 us>' "$OD/report.cdm7"
	assert_grep -x '  Random Read 4KiB (Q=  1,T= 1) :    49.699 MB/s \[  12133.5 IOPS\]' "$OD/report.cdm6"
	assert_grep -x '   Date: 2021/06/26 15:42:37' "$OD/report.cdm"
	# the card: valid, its figures the report's, the report's Date as printed (never UTC)
	xmllint --noout "$OD/report.svg"
	assert_grep -F '>804.16</text>' "$OD/report.svg"
	assert_grep -F ">10402.77 "$'\xc2\xb5'"s</text>" "$OD/report.svg"
	assert_grep -F 'CrystalDiskMark 8.0.1 x64 report, imported' "$OD/report.svg"
	assert_grep -F 'Date: 2021/06/26 15:42:37 (local time)' "$OD/report.svg"
	assert_grep -F '>G: 0% (0/1863GiB)</text>' "$OD/report.svg"
	if grep -qE 'UTC|G::|Engine: ,|Warm-up 0 s|cdm 0\.1\.0' "$OD/report.svg"; then
		grep -oE '[^>]*(UTC|G::|Engine: ,|Warm-up 0 s|cdm 0\.1\.0)[^<]*' "$OD/report.svg"
		false
	fi
	# the Markdown states whose method, and none of cdm's
	assert_grep '^How measured: by CrystalDiskMark 8.0.1 x64, not by cdm: .*Measure 5 s, Interval 5 s, .*not stated: warm-up, engine;' "$OD/report.markdown"
	assert_grep '^Machine: Windows 10 \[10.0 Build 19042\] (x64); the report does not state the CPU, memory or device$' "$OD/report.markdown"
	if grep -qE ' 0 s|engine, O|UTC' "$OD/report.markdown"; then
		grep -nE ' 0 s|engine, O|UTC' "$OD/report.markdown"
		false
	fi
}

@test "a CDM 6 report printed again: no latency anywhere, what it does not state unknown, never 0" {
	r=$(fixture cdm6-default-sdcard-1.txt)
	"$CDM" report --format cdm6 "$r" > "$OD/r.cdm6"
	# its own layout: the report, but for the two lines naming the program
	diff <(tail -n +4 "$r" | tr -d '\r') <(tail -n +4 "$OD/r.cdm6"; echo)
	"$CDM" report --format svg "$r" > "$OD/r.svg"
	xmllint --noout "$OD/r.svg"
	python3 - "$OD/r.svg" <<'PY'
import sys
import xml.etree.ElementTree as ET
S = "{http://www.w3.org/2000/svg}"
svg = ET.parse(sys.argv[1]).getroot()
cells = [g for g in svg.iter(S + "g") if g.get("class") == "cell"]
assert len(cells) == 8, len(cells)
for g in cells:
    t = {e.get("class"): (e.text or "") for e in g.iter(S + "text")}
    # a dash where the latency would be: no number, not 0, not NaN
    assert t["lat"] == "\u2013 \u00b5s", t
    assert float(t["mbs"]) > 0, t
text = " ".join(e.text or "" for e in svg.iter(S + "text"))
for bad in ("nan", "NaN", "UTC", "Warm-up 0", "Measure 0", "Engine: ,", "I::"):
    assert bad not in text, bad
# CDM 6 prints no Measure time: its passes were a fixed 5 s (cdm_read.c)
assert "Measure 5 s / Interval 5 s / Warm-up unknown" in text, text
assert "Profile: unknown" in text, text
assert "Not stated in the report: engine, warm-up, CPU, memory, device, latency" in text, text
assert "I: 11.7% (14.0/119.2 GiB)" in text, text
PY
	"$CDM" report --format markdown "$r" > "$OD/r.md"
	assert_grep '^| SEQ128K Q32T1 Read | 91.559 | 698.5 | '$'\xe2\x80\x93'' | ' "$OD/r.md"
	assert_grep 'Measure 5 s, Interval 5 s, random data; not stated: profile, warm-up, engine;' "$OD/r.md"
	"$CDM" report --format cdm7 "$r" > "$OD/r.cdm7"
	assert_grep -x '    Random 4KiB (Q=  1, T= 1):     5.297 MB/s \[   1293.2 IOPS\] <        - us>' "$OD/r.cdm7"
	assert_grep -x 'Profile: unknown' "$OD/r.cdm7"
	# JSON and CSV: null or empty for what it lacks
	"$CDM" report --format json "$r" > "$OD/r.json"
	python3 - "$OD/r.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s = d["settings"]
assert s["profile"] is None and s["warmup_s"] is None and s["engine"] is None, s
# no Measure printed, but CDM 6's was a fixed 5 s; no Mode line: admin unknown
assert s["time_s"] == 5 and d["system"]["admin"] is None, (s, d["system"])
assert s["count"] == 5 and s["interval_s"] == 5 and s["size_bytes"] == 2**30, s
assert d["start_utc"] is None and d["source"]["date_text"] == "2019/04/01 11:33:09"
for t in d["tests"]:
    assert t["reported"]["lat_mean_us"] is None, t
PY
	"$CDM" report --format csv "$r" > "$OD/r.csv"
	python3 - "$OD/r.csv" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["kind"] == "best"]
assert len(rows) == 8
for r in rows:
    assert r["lat_mean_ns"] == "" and r["ios"] == "" and r["duration_s"] == "", r
    assert float(r["mb_s"]) > 0
PY
}

@test "a CDM 7 report, which names no volume: no empty target, no 0 bytes" {
	r=$(fixture cdm7-default-nvme-1.txt)
	"$CDM" report --format svg "$r" > "$OD/r.svg"
	xmllint --noout "$OD/r.svg"
	assert_grep -F '>volume unknown</text>' "$OD/r.svg"
	assert_grep -F '>cdm7-default-nvme-1</text>' "$OD/r.svg"       # the title: the label alone, no dash and nothing
	"$CDM" report --format json "$r" > "$OD/r.json"
	python3 - "$OD/r.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["target"]
assert t["path"] is None and t["fs_total_bytes"] is None and t["fs_used_bytes"] is None, t
PY
	# and read back: the saved import prints the same
	"$CDM" report --format cdm6 "$OD/r.json" > "$OD/a.txt"
	"$CDM" report --format cdm6 "$r" | cmp - "$OD/a.txt"
	assert_grep '^  Test : 1024 MiB \[unknown\] (x5)  \[Interval=5 sec\]$' "$OD/a.txt"
}

@test "an imported report under --aggregate median and mean: no 'nan' in any format, the figures absent and said so" {
	fmts=$(formats)
	assert [ -n "$fmts" ]
	for name in cdm8-default-nvme-1.txt cdm6-default-sdcard-1.txt cdm7-default-hdd-1.txt; do
		r=$(fixture "$name")
		"$CDM" import --save "$OD/imp.json" "$r"
		for a in median mean; do
			for f in $fmts; do
				"$CDM" report --aggregate "$a" --format "$f" "$OD/imp.json" > "$OD/out.$f"
				if grep -qiwE 'nan|inf|-nan' "$OD/out.$f"; then
					echo "$name --aggregate $a --format $f:" >&2
					grep -iwE 'nan|inf' "$OD/out.$f" | head -3 >&2
					return 1
				fi
			done
			assert_grep -F '| best only |' "$OD/out.markdown"
			assert_grep -F 'has only its best-of figures' "$OD/out.markdown"
			assert_grep -F '>best only</text>' "$OD/out.svg"
			xmllint --noout "$OD/out.svg"
		done
	done
}

@test "a saved import whose figure is -0 prints 0, and its report reads back" {
	r=$(fixture cdm8-default-nvme-1.txt)
	"$CDM" import --save "$OD/imp.json" "$r"
	python3 - "$OD/imp.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rep = d["tests"][0]["reported"]
rep["mb_s"] = -0.0
rep["lat_mean_us"] = -0.0
json.dump(d, open(sys.argv[1], "w"))
PY
	assert_grep -e '-0.0' "$OD/imp.json"
	"$CDM" report "$OD/imp.json" > "$OD/t.txt"
	grep -qF -- '-0.0' "$OD/t.txt" && { cat "$OD/t.txt"; echo "prints -0"; false; }
	"$CDM" import --format json "$OD/t.txt" > "$OD/back.json"
	assert_equal "$(jq '.tests[0].reported.mb_s' "$OD/back.json")" 0
}

@test "every CrystalDiskMark fixture, imported, printed in cdm, cdm7 and cdm6 and imported again, keeps its figures (stated ones stated, missing ones missing)" {
	local names=() f n r l
	for f in "$BATS_TEST_DIRNAME"/../fixtures/cdm-reports/*.txt; do
		n=$(basename "$f" .txt)
		r=$(fixture "$n.txt")
		"$CDM" import --save "$OD/$n.a.json" "$r"
		for l in cdm cdm7 cdm6; do
			"$CDM" report --format "$l" "$OD/$n.a.json" > "$OD/$n.t.$l"
			"$CDM" import --save "$OD/$n.$l.json" "$OD/$n.t.$l"
		done
		names+=("$n")
	done
	# each fixture's import against its three imports again, in one
	# python3 (one start, not one per fixture and layout)
	python3 - "$OD" "${names[@]}" <<'PY'
import json, sys
od, names = sys.argv[1], sys.argv[2:]
def key(t):
    return (t["direction"], t["pattern"], t["block_bytes"], t["queue_depth"], t["threads"])
assert names, "no fixture"
for name in names:
    a = json.load(open(f"{od}/{name}.a.json"))
    ta = {key(t): t["reported"] for t in a["tests"]}
    for layout in ("cdm", "cdm7", "cdm6"):
        b = json.load(open(f"{od}/{name}.{layout}.json"))
        tb = {key(t): t["reported"] for t in b["tests"]}
        assert ta.keys() == tb.keys(), (name, layout, ta.keys() ^ tb.keys())
        for k, ra in ta.items():
            rb = tb[k]
            assert ra["mb_s"] == rb["mb_s"], (name, layout, k, ra, rb)
            # CDM 6's layout prints no latency, and no IOPS for sequential rows
            if layout != "cdm6":
                assert ra["lat_mean_us"] == rb["lat_mean_us"], (name, layout, k, ra, rb)
            if layout != "cdm6" or k[1] == "RND":
                assert ra["iops"] == rb["iops"], (name, layout, k, ra, rb)
print("checked:", len(names), "fixtures x 3 layouts")
PY
}

@test "a saved run whose engine and machine are null prints them as unknown, and its text reads back with them null" {
	"${RT[@]}" "$CDM" "${NULLRUN[@]}" -t "RND4K Q1T1" --mode read --save "$OD/r.json" "$TD" > /dev/null
	python3 - "$OD/r.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["settings"]["engine"] = None
d["system"]["machine"] = None
json.dump(d, open(sys.argv[1], "w"))
PY
	for l in cdm cdm7 cdm6; do
		"$CDM" report --format "$l" "$OD/r.json" > "$OD/t.$l"
		assert_grep '^cdm [^ ]* unknown (unknown, O_DIRECT)$' "$OD/t.$l"
		"$CDM" import --format json "$OD/t.$l" > "$OD/back.json"
		assert_equal "$(jq -c '[.settings.engine, .system.machine]' "$OD/back.json")" '[null,null]'
	done
}

@test "a run of 0.2 s passes: saved, reported, compared, merged and its text read back with the decimals" {
	# beside it (its own test file), a run of 0.3 s passes for merge below
	"${RT[@]}" "$CDM" "${NULLRUN[@]}" --time 0.3 --warmup 0.1 --interval 0.05 -t "SEQ1M Q1T1" \
		--save "$OD/q.json" "$TD" > /dev/null &
	pid=$!
	"${RT[@]}" "$CDM" "${NULLRUN[@]}" --time 0.2 --warmup 0.1 --interval 0.05 -t "SEQ1M Q1T1" \
		--save "$OD/r.json" -o "$OD/run.txt" "$TD"
	wait "$pid"
	grep -qx '   Time: Measure 0.2 sec / Interval 0.05 sec ' "$OD/run.txt"
	assert_equal "$(jq -c '.settings | [.time_s, .warmup_s, .interval_s]' "$OD/r.json")" "[0.2,0.1,0.05]"
	# cdm report of the JSON: what the run printed, byte for byte
	run "$CDM" report "$OD/r.json"
	assert_success
	assert_line "   Time: Measure 0.2 sec / Interval 0.05 sec "
	"$CDM" report "$OD/r.json" | cmp - "$OD/run.txt"
	"$CDM" report -f json "$OD/r.json" | cmp - "$OD/r.json"
	run "$CDM" report -f markdown "$OD/r.json"
	assert_output --partial "per test a 0.1 s warm-up (not counted), then 2 passes of 0.2 s; 0.05 s between tests"
	# CDM 7's and 6's layouts: the time as a mark, the interval on the Test line; read back
	"$CDM" report -f cdm7 "$OD/r.json" > "$OD/r7.txt"
	grep -q ' <Measure 0.2 sec> \[Interval: 0.05 sec\]' "$OD/r7.txt"
	"$CDM" report -f cdm6 "$OD/r.json" > "$OD/r6.txt"
	grep -q ' <Measure 0.2 sec> \[Interval=0.05 sec\]' "$OD/r6.txt"
	for t in run r7 r6; do
		"$CDM" import -f json "$OD/$t.txt" > "$OD/$t.back.json"
		assert_equal "$(jq -c '.settings | [.time_s, .interval_s]' "$OD/$t.back.json")" "[0.2,0.05]"
	done
	# compare names the time; merge refuses another one by it, in seconds
	run "$CDM" compare "$OD/r.json" "$OD/r.json"
	assert_success
	assert_output --partial "16 MiB (x2), 0.2 s"
	run "$CDM" merge "$OD/r.json" "$OD/q.json"
	assert_failure 2
	assert_output --partial "time_s 0.2 vs 0.3"
	assert_clean "$TD"
}
