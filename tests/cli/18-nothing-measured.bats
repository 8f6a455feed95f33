#!/usr/bin/env bats
# Issue 12: a pass in which no I/O completes measured nothing.  The null
# engine's simulated device stalled longer than the pass (a path
# failover, a throttled cloud disk) gives passes without a completed I/O.  Every output says nothing was measured
# instead of printing 0, the run exits 1 and says why on stderr; a test
# with some passes measured keeps the figures of those; compare, merge and
# sweep never read nothing as a 0.  (docs/method.md, "Nothing measured".)

load helpers

bats_require_minimum_version 1.5.0      # run --separate-stderr

# one pass of 0.2 s; the device completes nothing for 0.3 s from the test's
# first I/O, which is at or after the pass's start: nothing completes
# inside the pass, however loaded the machine (a stall never ends early)
STALL=(--engine null --null-device stall=300ms -t RND4K --size 16MiB --count 1
	--time 0.2 --interval 0 --warmup 0)

# the I/O in flight at the pass's end was started at its start, or later
# when the thread was late: it had waited at most the pass (%.1f s)
WAITED='had waited 0\.[0-2] s'

# a device whose first I/O takes a pass (0.5 s) and every later one 2
# passes: with --time 0.5, pass 1 sees none complete, pass 2 the first
# (while the test's thread is less than a pass late), pass 3 none (the
# second completes at its end at the earliest)
SOME=(--engine null --null-device 'lat=500ms;at=500ms,lat=1s' -t RND4K --size 16MiB
	--count 3 --time 0.5 --interval 0 --warmup 0)

@test "the reproducer: a read pass without a completed I/O is a row that says so, exit 1, a note why" {
	run "$CDM" "${STALL[@]}" --mode read "$TD"
	echo "$output"
	assert_failure 1
	assert_line '  RND    4KiB (Q=  1, T= 1):             nothing measured: no I/O completed'
	refute_output --partial "0.000 MB/s"
	assert_output --regexp "cdm: RND4K Q1T1 Read measured nothing: no I/O completed in the 0\.2 s pass; the slowest I/O in flight $WAITED"
	assert_output --partial "the run has 1 test without figures"
	assert_clean "$TD"
}

@test "the text row keeps the width of a row with figures" {
	run "$CDM" "${STALL[@]}" --mode read "$TD"
	assert_failure 1
	row=$(echo "$output" | grep -F 'nothing measured')
	ok=$("$CDM" --engine null --null-service-us 1000 -t RND4K --size 16MiB --count 1 --time 0.2 --interval 0 --warmup 0 \
		--mode read --quiet "$TD" | grep -F 'RND    4KiB')
	echo "[$row]"; echo "[$ok]"
	assert_equal "${#row}" "${#ok}"
}

@test "a write test in JSON: null figures and a reason, schema_version 2, exit 1" {
	run --separate-stderr "$CDM" "${STALL[@]}" --mode write --fsync 2 -f json --save "$OD/s.json" "$TD"
	assert_failure 1
	echo "$output" > "$OD/w.json"
	python3 - "$OD/w.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema_version"] == 2
t = d["tests"][0]
assert t["direction"] == "write"
assert t["passes_measured"] == 0
assert t["reason"].startswith("no I/O completed in the 0.2 s pass; the slowest I/O in flight had waited "), t["reason"]
p = t["passes"][0]
assert p["ios"] == 0 and p["bytes"] == 0
assert p["mb_s"] is None and p["iops"] is None and p["lat_mean_ns"] is None
assert p["reason"] == "no I/O completed"
# a maximum over nothing is null, not a measured 0
assert p["lat_max_ns"] is None, p
assert p["fsync"] == {"count": 0, "mean_ns": None, "max_ns": None}, p["fsync"]
# started at the pass's start or later (a late thread): at most the pass
assert 0 < p["pending_max_ns"] <= 0.2e9, p["pending_max_ns"]
s = t["summary"]
assert s["mb_s"] is None and s["iops"] is None and s["lat_mean_ns"] is None
assert t["latency"] is None
EOF
	assert_like "$stderr" '*"RND4K Q1T1 Write measured nothing: no I/O completed"*'
	# and such a file reads back (compare)
	run "$CDM" compare "$OD/s.json" "$OD/s.json"
	assert_success
	assert_output --partial "no I/O"
	assert_clean "$TD"
}

@test "a Mix test in CSV: empty figures and the reason column, exit 1" {
	run --separate-stderr "$CDM" "${STALL[@]}" --mode mix --mix 70 -f csv "$TD"
	assert_failure 1
	echo "$output"
	echo "$output" | head -1 | assert_grep ',lat_p99_99_ns,verify_status,verify_blocks,verify_sample_every,verify_lost,verify_misdirected,verify_torn,fsync_count,fsync_mean_ns,fsync_max_ns,profile,' -
	echo "$output" | head -1 | assert_grep ',is_device,logical_block_bytes,test_file,test_file_data,reason$' -
	echo "$output" > "$OD/m.csv"
	python3 - "$OD/m.csv" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["kind"] for r in rows] == ["pass", "best", "median", "mean"], rows
for r in rows:
    assert r["direction"] == "mix" and r["test"] == "RND4K Q1T1 W30"
    assert r["mb_s"] == "" and r["iops"] == "" and r["lat_mean_ns"] == "", r
    assert r["mb_s_cv_pct"] == ""
    assert r["lat_max_ns"] == "", r      # a maximum over no I/O
    assert r["reason"].startswith("no I/O completed"), r
assert rows[0]["reason"] == "no I/O completed"
EOF
	assert_like "$stderr" '*"RND4K Q1T1 W30 Mix measured nothing"*'
}

@test "Markdown: dashes, 'nothing measured', and the reason under the table" {
	run --separate-stderr "$CDM" "${STALL[@]}" --mode read -f markdown "$TD"
	assert_failure 1
	echo "$output"
	assert_output --partial "| RND4K Q1T1 Read | – | – | – | – | nothing measured |"
	assert_output --regexp "RND4K Q1T1 Read: nothing measured: no I/O completed in the 0\.2 s pass; the slowest I/O in flight $WAITED\."
}

@test "some passes measured: their figures, the spread without the empty ones, a warning, exit 0" {
	# pass 1 sees none complete, pass 2 one, pass 3 none
	run --separate-stderr "$CDM" "${SOME[@]}" --mode read -f json "$TD"
	echo "$stderr"
	assert_success
	assert_like "$stderr" '*"warning: RND4K Q1T1 Read: no I/O completed in 2 of its 3 passes"*'
	assert_like "$stderr" '*"its figures are from the other 1"*'
	echo "$output" > "$OD/p.json"
	python3 - "$OD/p.json" <<'EOF'
import json, sys
t = json.load(open(sys.argv[1]))["tests"][0]
p = t["passes"]
assert [x["ios"] for x in p] == [0, 1, 0], p
assert p[0]["mb_s"] is None and p[2]["mb_s"] is None
assert t["passes_measured"] == 1
s = t["summary"]["mb_s"]
# the one measured pass, never a 0 among them: best = median = min
assert s["n"] == 1 and s["best"] == s["median"] == s["min"] == p[1]["mb_s"] > 0, s
assert t["summary"]["lat_mean_ns"]["n"] == 1
assert t["reason"].startswith("no I/O completed in 2 of its 3 passes")
EOF
}

@test "some passes measured: the text row shows the measured figure; --aggregate median is not pulled to 0" {
	run "$CDM" "${SOME[@]}" --mode read --aggregate median "$TD"
	echo "$output"
	assert_success
	# one 4 KiB I/O in a 0.5 s pass: 0.008 MB/s, 2.0 IOPS (the median of one value)
	assert_line --regexp '^  RND    4KiB \(Q=  1, T= 1\):     0\.008 MB/s \[      2\.0 IOPS\]'
}

@test "cdm compare: a run that measured nothing has no figure and no ratio, and says why" {
	"$CDM" "${STALL[@]}" --mode read --label STALL --save "$OD/stall.json" "$TD" > /dev/null 2>&1 || true
	assert [ -s "$OD/stall.json" ]
	"$CDM" --engine null -t RND4K --size 16MiB --count 1 --time 0.2 --interval 0 --warmup 0 \
		--mode read --label OK --save "$OD/ok.json" --quiet "$TD" > /dev/null
	run "$CDM" compare "$OD/ok.json" "$OD/stall.json"
	echo "$output"
	assert_success
	assert_line --regexp '^  RND    4KiB \(Q=  1, T= 1\): +[0-9.]+ +no I/O$'
	assert_output --partial "Not compared:"
	assert_output --partial "  RND4K Q1T1 Read: STALL measured nothing: no I/O completed in the 0.2 s pass"
	run "$CDM" compare -f markdown "$OD/stall.json" "$OD/ok.json"
	echo "$output"
	assert_success
	assert_line --regexp '^\| RND4K Q1T1 Read \| no I/O \| [0-9.]+ \| – \|$'
	assert_output --partial "no ratios to STALL"
	refute_output --partial "x |"
}

@test "cdm merge and cdm sweep: nothing measured is no figure and exit 1" {
	"$CDM" "${STALL[@]}" --mode read --label A --save "$OD/a.json" "$TD" > /dev/null 2>&1 || true
	"$CDM" "${STALL[@]}" --mode read --label B --save "$OD/b.json" "$TD" > /dev/null 2>&1 || true
	run "$CDM" merge "$OD/a.json" "$OD/b.json"
	echo "$output"
	assert_failure 1
	assert_output --partial "nothing measured: no I/O completed"
	assert_output --partial "the aggregate has 1 test without figures"
	run "$CDM" sweep --engine null --null-device stall=300ms --threads 1,2 -t RND4K --mode read \
		--size 16MiB --count 1 --time 0.2 --warmup 0 "$TD"
	echo "$output"
	assert_failure 1
	assert_line --regexp '^ +1 +1  \(no I/O completed\)$'
	assert_line --regexp '^ +2 +1  \(no I/O completed\)$'
	# not "IOPS still grew": no point has figures to grow
	assert_output --partial "RND4K Q1 Read: no knee: 0 of its 2 points measured something, and a knee needs 2"
	assert_output --partial "the sweep has 2 tests without figures"
	assert_clean "$TD"
}

@test "schema_version 1 files still read: compare and merge (tests/fixtures/result-v1-*.json)" {
	fx="$BATS_TEST_DIRNAME/../fixtures"
	run "$CDM" compare "$fx/result-v1-mix-A.json" "$fx/result-v1-mix-B.json" "$fx/result-v1-stall.json"
	echo "$output"
	assert_success
	assert_output --partial "[Mix] Read 70%/Write 30%"
	assert_line --regexp '^ +reads: +[0-9.]+ +[0-9.]+ [0-9.]+x +missing$'
	# the version 1 file's "mb_s": 0 reads back as nothing measured
	assert_line --regexp '^  RND    4KiB \(Q=  1, T= 1\): +missing +missing +no I/O$'
	run "$CDM" merge "$fx/result-v1-mix-A.json" "$fx/result-v1-mix-B.json"
	echo "$output"
	assert_success
	assert_output --partial "[Mix] Read 70%/Write 30%"
}

@test "the live progress line shows no figure for a window in which no I/O completed (never 0.000 MB/s)" {
	command -v script > /dev/null || skip "script (util-linux) is not installed"
	# the progress line is drawn only on a terminal: script gives cdm one.
	# A line every half second: the device completes nothing for 1.6 s,
	# through the warm-up of 1 s (a line at 0.5 s) and into pass 1 (at
	# 1 s and 1.5 s), then an I/O a millisecond up to the end of pass 2 at
	# 3 s (lines at 2 s and 2.5 s); a line late by less than 0.4 s keeps
	# each case
	script -q -e -c "'$CDM' --engine null --null-device 'stall=1600ms,lat=1ms' -t 'SEQ1M Q1T1' --mode read --size 16MiB --count 2 --time 1 --interval 0 --warmup 1 '$TD'" "$OD/tty.log" > /dev/null
	tr '\r' '\n' < "$OD/tty.log" | sed 's/\x1b\[K//g' > "$OD/lines.txt"
	cat "$OD/lines.txt"
	# no window figure is a 0: the line says how long no I/O completed
	assert_equal "$(grep -E '(warm-up|pass [0-9]+/[0-9]+) +0\.000 MB/s' "$OD/lines.txt")" ""
	assert_grep -E '^test 1 of 1  SEQ1M Q1T1 Read  warm-up +no I/O completed for [0-9]+\.[0-9] s  [0-9]+s left$' "$OD/lines.txt"
	assert_grep -E '^test 1 of 1  SEQ1M Q1T1 Read  pass [12]/2 +no I/O completed for [0-9]+\.[0-9] s  [0-9]+s left$' "$OD/lines.txt"
	# a window with a completed I/O has its MB/s
	assert_grep -E '^test 1 of 1  SEQ1M Q1T1 Read  pass [12]/2 +[0-9]+\.[0-9]{3} MB/s  [0-9]+s left$' "$OD/lines.txt"
	# preparing the file: no percentage before a byte is written
	assert_grep -x 'Preparing test file' "$OD/lines.txt"
	assert_equal "$(grep 'Preparing test file:   0%' "$OD/lines.txt")" ""
	assert_clean "$TD"
}
