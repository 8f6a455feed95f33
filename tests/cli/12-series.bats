#!/usr/bin/env bats
# --log-interval: the time series of every pass (and the warm-up, marked),
# checked with the null engine: the number of intervals, exact accounting
# (the intervals of a pass add up to the pass's bytes and I/Os), JSON, CSV,
# bad values, and the --plot chart rendered by a real renderer.

load helpers
load svg

# passes of 0.4 s after a warm-up of 0.2 s, logged at 100 ms (the least
# --log-interval takes) or 200 ms: as many intervals as passes of 2 s
# after 1 s at 500 ms or 1 s
SERIES=(--size 16MiB --count 2 --time 0.4 --warmup 0.2 --interval 0 --quiet
	--engine null --null-service-us 1000 --mode read)

@test "--log-interval refuses bad values with one line and exit 2" {
	for v in 0 50ms 99ms 1x abc "" -1s 3601s "1 s"; do
		run "$CDM" --log-interval "$v" "$TD"
		echo "--log-interval '$v'"
		assert_failure 2
		assert_like "${lines[0]}" "\"cdm: bad value for --log-interval: '\$v'\"*"
		assert_equal "${#lines[@]}" 2        # the message and "Try 'cdm --help'."
	done
	assert_clean "$TD"
}

@test "--plot needs --log-interval; too many intervals are refused before the run" {
	run "$CDM" --plot "$OD/x.svg" "$TD"
	assert_failure 2
	assert_output --partial "--plot draws the time series: give --log-interval too"
	run "$CDM" --log-interval 100ms --time 3600 --count 100 --test "RND4K Q1T64" "$TD"
	assert_failure 2
	assert_output --partial "use a longer interval"
	refute [ -e "$OD/x.svg" ]
	assert_clean "$TD"
}

@test "every interval of every pass: count, marks, and exact byte and I/O accounting" {
	"$CDM" "${SERIES[@]}" --test "RND4K Q1T2" --test "RND4K Q4T1" --log-interval 100ms \
		--format json "$TD" > "$OD/r.json"
	# 0.2 s warm-up + 2 passes x 0.4 s at 0.1 s = 2 + 8 intervals per test
	assert_equal "$(jq '[.tests[] | .series.points | length] | unique' -c "$OD/r.json")" "[10]"
	assert_equal "$(jq '.tests[0].series.interval_ns' "$OD/r.json")" 100000000
	assert_equal "$(jq '[.tests[0].series.points[] | select(.warmup) | .pass] | unique' -c "$OD/r.json")" "[0]"
	assert_equal "$(jq '[.tests[0].series.points[] | select(.warmup | not)] | length' "$OD/r.json")" 8
	# the intervals of pass k add up exactly to pass k
	jq -e '[.tests[] | . as $t | range(0; .passes | length) as $k |
		([$t.series.points[] | select(.pass == $k + 1) | .bytes] | add) == $t.passes[$k].bytes and
		([$t.series.points[] | select(.pass == $k + 1) | .ios] | add) == $t.passes[$k].ios] | all' \
		"$OD/r.json"
	# each interval's figures from its own counts; an interval in which no
	# I/O completed (a stall of a loaded machine) has 0 MB/s and no latency
	# (docs/method.md); time runs forward
	jq -e '[.tests[].series.points[] | if .ios > 0 then
		(.mb_s - .bytes * 1000 / .duration_ns | fabs) < 1e-6 and
		(.iops - .ios * 1e9 / .duration_ns | fabs) < 1e-6 and .lat_p99_us >= 1000 and
		.lat_mean_us >= 1000 else .mb_s == 0 and .iops == 0 and .lat_p99_us == null and .lat_mean_us == null end] | all' \
		"$OD/r.json"
	jq -e '[.tests[].series.points[] | select(.ios > 0)] | length >= 16' "$OD/r.json"
	jq -e '[.tests[].series.points | [.[].start_ns] | . == sort] | all' "$OD/r.json"
	jq -e '.tests[0].series | has("burst") and has("ceiling")' "$OD/r.json"
	assert_clean "$TD"
}

# The burst comes from the device: 2000 IOPS for 1 s, then 500, a start
# four times the level after it, in intervals of 250 ms.  16 threads of
# one I/O each: a thread that a loaded machine keeps from running moves
# at most its one I/O into the next interval, 16 at most of the 125 of an
# interval of the low level (the detector allows 15 %), while the others
# keep the device busy (one thread with 8 in flight lost 100 ms of the
# device, a whole interval's level, at once).  The change comes as late
# as the test's first I/O, so the detector is asked what it found and at
# what level, not in which interval: each of 250 ms holds at most cap x
# 0.252 s + 1 + 16 I/Os of 4 KiB, 8.54 MB/s at the start and 2.34
# after; from below, half the caps.
@test "a burst is found and its note names the test's direction: a Mix test is 'Mix', never 'Read'" {
	run "${RT[@]}" "$CDM" --engine null --null-device "iops=2000;at=1s,iops=500" --test "RND4K Q1T16 W30" \
		--count 1 --time 2 --warmup 0 --size 1MiB --log-interval 250ms --save "$OD/r.json" "$TD"
	echo "$output"
	assert_success
	# 4 KiB blocks: each level in IOPS, the MB/s beside it
	assert_like "$output" '*"note: RND4K Q1T16 W30 Mix: burst: "*" IOPS ("*" MB/s) at the start, then "*" IOPS ("*" MB/s) from "*" s on "*'
	refute_output --partial "W30 Read"
	jq -e '.tests[0].direction == "mix" and .tests[0].series.burst.high_mb_s > 2 * .tests[0].series.burst.low_mb_s' "$OD/r.json"
	awk -v h="$(jq .tests[0].series.burst.high_mb_s "$OD/r.json")" \
		-v l="$(jq .tests[0].series.burst.low_mb_s "$OD/r.json")" \
		-v at="$(jq .tests[0].series.burst.low_from_ns "$OD/r.json")" 'BEGIN {
		print "high", h, "MB/s, low", l, "MB/s from", at, "ns"
		exit !(h >= 4.096 && h <= 8.54 && l >= 1.024 && l <= 2.34 && at >= 1e9 && at <= 1.5e9)
	}'
	assert_clean "$TD"
}

@test "an interval that does not divide the pass: the last one is shorter and still counted" {
	"$CDM" "${SERIES[@]}" --warmup 0 --count 1 --time 0.5 --test "RND4K Q2T1" --log-interval 300ms \
		--format json "$TD" > "$OD/r.json"
	assert_equal "$(jq -c '[.tests[0].series.points[].duration_ns]' "$OD/r.json")" "[300000000,200000000]"
	jq -e '.tests[0] | ([.series.points[].bytes] | add) == .passes[0].bytes' "$OD/r.json"
}

@test "without --log-interval the JSON has no series" {
	"$CDM" "${SERIES[@]}" --count 1 --warmup 0 --test "RND4K Q1T1" --format json "$TD" > "$OD/r.json"
	jq -e '.tests[0] | has("series") | not' "$OD/r.json"
}

@test "CSV: a time-series section after the pass rows, one row per interval" {
	"$CDM" "${SERIES[@]}" --test "RND4K Q1T1" --log-interval 200ms --format csv "$TD" > "$OD/r.csv"
	assert_grep -x 'label,test,direction,pass,warmup,start_ns,duration_ns,bytes,ios,mb_s,iops,lat_mean_us,lat_p99_us' "$OD/r.csv"
	# 1 warm-up + 2 x 2 measured intervals
	assert_equal "$(sed -n '/^label,test,direction,pass,warmup/,$p' "$OD/r.csv" | tail -n +2 | wc -l)" 5
	assert_equal "$(awk -F, '/,RND4K Q1T1,read,0,1,/' "$OD/r.csv" | wc -l)" 1
	# the section's bytes of pass 1 equal the pass row's bytes
	a=$(awk -F, '$9 == "pass" && $10 == 1 { print $12 }' "$OD/r.csv")
	b=$(sed -n '/^label,test,direction,pass,warmup/,$p' "$OD/r.csv" | awk -F, '$4 == 1 { s += $8 } END { print s }')
	assert_equal "$a" "$b"
}

# An interval in which no I/O completed is a gap in its latency lines,
# which would count as lines of their own: 4 threads, each an I/O every
# 10 ms, so that every interval of 100 ms has some, however loaded the
# machine (one thread can be kept from running that long)
@test "--plot writes a time-series SVG that is well-formed and renders" {
	"$CDM" "${SERIES[@]}" --count 1 --null-service-us 10000 --test "RND4K Q1T4" --test "RND4K Q4T4" \
		--log-interval 100ms --plot "$OD/ts.svg" "$TD" > "$OD/out.txt"
	assert_grep 'Random tests: IOPS per interval' "$OD/ts.svg"
	assert_grep 'IOPS (I/Os per second)' "$OD/ts.svg"
	assert_grep 'time since the start of the test (s)' "$OD/ts.svg"
	assert_grep 'RND4K Q4T4 Read' "$OD/ts.svg"
	# the warm-up and each pass are labelled bands (next test: their places)
	assert_grep '>warm-up</text>' "$OD/ts.svg"
	run grep -qi '<script' "$OD/ts.svg"
	assert_failure
	# told apart in grey: each test's IOPS, mean and p99 in a shape of its
	# own, the legend's two entries in each of the three panels with them
	run check_line_styles "$OD/ts.svg"
	echo "$output"
	assert_success
	assert_equal "${lines[-1]}" "6 lines (0 of one point) in 2 shapes, 6 legend entries"
	check_svg "$OD/ts.svg"
	assert_clean "$TD"
}

# issue 25, item 9: the p99 lines shared the mean's axis, and a p99 ten
# times the mean pressed the mean lines to the floor.  The simulated
# device stalls 50 ms once: the I/O in flight then waits it out, the p99
# of its interval is that wait, its mean barely moves.  Each latency has
# a panel and an axis of its own, scaled to its own lines.
@test "--plot draws the mean and the p99 latency each on an axis of its own" {
	"$CDM" --size 16MiB --count 1 --time 0.5 --warmup 0 --interval 0 --quiet --engine null \
		--null-device "lat=1ms;at=200ms,stall=50ms;at=250ms,lat=1ms" --test "RND4K Q1T1" \
		--mode read --log-interval 100ms --save "$OD/r.json" --plot "$OD/p.svg" "$TD" > /dev/null
	mean=$(jq '[.tests[].series.points[].lat_mean_us | select(. != null)] | max' "$OD/r.json")
	p99=$(jq '[.tests[].series.points[].lat_p99_us | select(. != null)] | max' "$OD/r.json")
	assert_grep '>Random tests: mean latency per interval</text>' "$OD/p.svg"
	assert_grep '>Random tests: p99 latency per interval</text>' "$OD/p.svg"
	run own_axes "$OD/p.svg" "$mean" "$p99"
	echo "$output"
	assert_success
	check_svg "$OD/p.svg"
	assert_clean "$TD"
	# The run's own figures depend on the load (a worker woken 100 ms late
	# makes an interval of one slow I/O, its mean as high as its p99), so
	# the p99 ten times the mean is drawn from the saved run with fixed
	# figures (a mean of 1 ms, a p99 of 2 ms, one p99 of 50 ms): the mean's
	# axis stays at its own scale, below that p99
	jq '.tests[0].series.points |= (map(if .lat_mean_us == null then . else
		.lat_mean_us = 1000 | .lat_p99_us = 2000 end) | .[2].lat_p99_us = 50000)' \
		"$OD/r.json" > "$OD/f.json"
	jq -e '.tests[0].series.points[2].lat_mean_us == 1000' "$OD/f.json"
	plot=$BATS_TEST_DIRNAME/../../build/tests/golden-plot
	[ -x "$plot" ] || skip "build/tests/golden-plot not built (make tools)"
	"$plot" "$OD/f.json" > "$OD/f.svg"
	run own_axes "$OD/f.svg" 1000 50000
	echo "$output"
	assert_success
	mt=$(axis_top "$OD/f.svg" "mean latency")
	python3 -c 'import sys; sys.exit(not float(sys.argv[1]) < 50000)' "$mt"
	check_svg "$OD/f.svg"
}

# the bands of the chart: one per pass the run measured, where the passes
# were (their start times and lengths in JSON), not where the plan put them
@test "--plot marks the warm-up and every pass: as many pass bands as passes, at the passes' times" {
	# the runs of 2 and 3 passes side by side, each in a directory of its own
	local count pids=()
	# (passes of 0.2 s after 0.1 s: 2 and 1 intervals)
	for count in 2 3; do
		mkdir "$TD/$count"
		"$CDM" "${SERIES[@]}" --warmup 0.1 --time 0.2 --count "$count" --test "RND4K Q2T1" \
			--test "SEQ1M Q2T1" --log-interval 100ms --save "$OD/r$count.json" --plot "$OD/p$count.svg" \
			"$TD/$count" > /dev/null &
		pids+=($!)
	done
	for count in "${pids[@]}"; do
		wait "$count"
	done
	for count in 2 3; do
		assert_clean "$TD/$count"
		# two patterns: 6 panels (throughput, mean and p99 latency), each
		# with the warm-up and every pass labelled
		assert_equal "$(grep -c '>warm-up</text>' "$OD/p$count.svg")" 6
		for k in $(seq 1 "$count"); do
			echo "pass $k"
			assert_equal "$(grep -c ">pass $k</text>" "$OD/p$count.svg")" 6
		done
		assert [ "$(grep -c '>pass [0-9]*</text>' "$OD/p$count.svg")" -eq $((6 * count)) ]
		# ... and as many passes as the run's JSON has
		assert_equal "$(jq '[.tests[0].passes | length] | .[0]' "$OD/r$count.json")" "$count"
		# every band has its tooltip; no warm-up mark beside them
		assert [ "$(grep -c '<title>pass [0-9]*</title>' "$OD/p$count.svg")" -eq $((6 * count)) ]
		refute_grep 'end of warm-up' "$OD/p$count.svg"
		check_svg "$OD/p$count.svg"
	done
	# a band starts where its pass started: pass k at warm-up + the gap
	# between the passes' wall clock starts (the x axis of a panel is
	# 84..710 px over 0..hi s; read hi back from the last tick label)
	python3 - "$OD/r3.json" "$OD/p3.svg" <<'PY'
import json, re, sys
r = json.load(open(sys.argv[1]))
svg = open(sys.argv[2]).read()
t = r["tests"][0]
w = r["settings"]["warmup_s"]
starts = [w + (p["start_unix_ns"] - t["passes"][0]["start_unix_ns"]) / 1e9 for p in t["passes"]]
# the first panel: its band rects (x, width) in order
rects = re.findall(r'<rect x="([0-9.]+)" y="[0-9.]+" width="([0-9.]+)" height="[0-9.]+" fill="#(?:e9e9e9|f6f6f6)"><title>([^<]*)</title>', svg)
first = rects[:1 + len(starts)]
assert [x[2] for x in first] == ["warm-up"] + ["pass %d" % (k + 1) for k in range(len(starts))], first
ticks = [float(v) for v in re.findall(r'<text x="[0-9.]+" y="[0-9.]+" text-anchor="middle" font-size="12">([0-9.]+)</text>', svg)]
hi = max(ticks)
for (x, wd, lab), s, p in zip(first[1:], starts, t["passes"]):
    want = 84 + s * (710 - 84) / hi
    assert abs(float(x) - want) < 1.0, (lab, x, want)
    assert abs(float(wd) - p["duration_s"] * (710 - 84) / hi) < 1.0, (lab, wd)
PY
	assert_clean "$TD"
}

# one interval per pass: the axis used to end at that interval's middle (0-0.5 s
# for a pass of 1 s), the pass's band cut there and its one point a polyline of
# one point, at the axis' right edge, drawing nothing.  4 threads, an I/O every
# 10 ms each: the interval has I/O in it, and so latency to mark
@test "--plot of a pass of one interval: the axis covers the whole pass, the point at its middle, with a marker" {
	"$CDM" "${SERIES[@]}" --null-service-us 10000 --count 1 --time 0.3 --warmup 0 --test "RND4K Q1T4" \
		--log-interval 300ms \
		--save "$OD/one.json" --plot "$OD/one.svg" "$TD" > /dev/null
	assert_equal "$(jq '.tests[0].series.points | length' "$OD/one.json")" 1
	check_time_axis "$OD/one.svg" "$OD/one.json"
	# its IOPS, mean and p99 latency: a marker each
	run check_line_styles "$OD/one.svg"
	echo "$output"
	assert_success
	assert_equal "${lines[-1]}" "3 lines (3 of one point) in 1 shape, 3 legend entries"
	check_svg "$OD/one.svg"
	check_labels_apart "$OD/one.svg"
	assert_clean "$TD"
}

@test "a Mix test's time series says mix in CSV and Mix in the chart's legend" {
	run "$CDM" "${QUICK[@]}" --time 0.2 --engine null --mix 70 --mode mix --test RND4K --log-interval 100ms \
		--format csv --plot "$OD/mix.svg" "$TD"
	echo "$output"
	assert_success
	assert_line --regexp '^[^,]*,RND4K Q1T1 W30,mix,1,0,'
	refute_line --regexp ',RND4K Q1T1 W30,read,'
	assert_grep 'RND4K Q1T1 W30 Mix' "$OD/mix.svg"
}

@test "a saved series that no run logs is refused in one line naming the file: no length, out of order, overlapping, past 2^64, a burst upside down" {
	# points with I/O in them, which a loaded machine does not take away:
	# 8 threads, each an I/O every 10 ms, in intervals of 100 ms (with one
	# thread, 1 ms per I/O, an interval under load completed none, and the
	# counts went past 2^64 a point later than the line below says)
	"$CDM" "${SERIES[@]}" --null-service-us 10000 --warmup 0 --time 0.4 --count 1 --log-interval 100ms \
		-t "SEQ1M Q1T8" --mode read --save "$OD/s.json" "$TD" > /dev/null
	jq -e '[.tests[0].series.points[] | .ios > 0] | length == 4 and all' "$OD/s.json"
	"$CDM" report "$OD/s.json" > /dev/null
	# each spoilt copy NAME.json: a python statement on the points p and
	# series s of a fresh copy (one python for all)
	python3 - "$OD" <<'PY'
import json, sys
spoils = {
    "zero": 'p[2]["duration_ns"] = 0',
    "order": 'p[2], p[3] = p[3], p[2]',
    "overlap": 'p[3]["start_ns"] = p[2]["start_ns"] + 1',
    "huge": 'p[0]["bytes"] = 2**64 - 1',
    "burst": 's["burst"] = {"high_mb_s": 10, "low_mb_s": 20, "low_from_ns": p[2]["start_ns"]}',
}
for name, stmt in spoils.items():
    d = json.load(open(sys.argv[1] + "/s.json")); s = d["tests"][0]["series"]; p = s["points"]
    exec(stmt)
    json.dump(d, open("%s/%s.json" % (sys.argv[1], name), "w"))
PY
	# name|what the line says|and then
	for c in 'zero|tests[0].series.points[2]: | I/Os in a duration of 0 ns' \
		'order|tests[0].series.points[3]: starts at |: out of order or overlapping' \
		'overlap|tests[0].series.points[3]: starts at |: out of order or overlapping' \
		'huge|tests[0].series.points: their counts add up past 2^64 (at points[1])|' \
		'burst|tests[0].series.burst.high_mb_s: 10, below low_mb_s 20|'; do
		IFS='|' read -r f a b <<< "$c"
		run "$CDM" report "$OD/$f.json"
		echo "$f -> $status: $output"
		assert_failure 2
		assert_equal "${#lines[@]}" 1
		assert_like "${lines[0]}" '"cdm: $OD/$f.json: not a valid cdm result: $a"*"$b"'
	done
}

@test "a pass shorter than --log-interval is one point of its own length, never none" {
	"$CDM" --size 16MiB --count 2 --time 0.3 --warmup 0.2 --interval 0 --quiet \
		--engine null --null-service-us 1000 --mode read --test "SEQ1M Q1T1" \
		--log-interval 1s --save "$OD/r.json" "$TD" > /dev/null
	# the warm-up and each pass: one point each, cut at the window's scheduled end
	assert_equal "$(jq -c '[.tests[0].series.points[] | [.pass, .warmup, .duration_ns]]' "$OD/r.json")" \
		'[[0,true,200000000],[1,false,300000000],[2,false,300000000]]'
	# which hold the pass's own I/O
	assert_equal "$(jq '[.tests[0].series.points[1:][] | .ios] | add' "$OD/r.json")" \
		"$(jq '[.tests[0].passes[].ios] | add' "$OD/r.json")"
	assert_clean "$TD"
}
