#!/usr/bin/env bats
# cdm sweep: one result per point, the table (text, Markdown), JSON, the
# knee named in the text and marked on the chart, bad lists refused.  The
# null engine with a fixed service time makes IOPS grow with the thread
# count (Little's law); ratios are asserted loosely, never rates.

load helpers
load svg

SW=(--size 16MiB --count 1 --time 1 --warmup 0 --quiet --engine null --null-service-us 1000)

@test "cdm sweep --help lists its options" {
	run "$CDM" sweep --help
	assert_success
	for o in --threads --qd --test --size --count --time --warmup --interval --mode --engine \
		--null-service-us --buffered --format --save --plot --metric --quiet --help; do
		assert_output --partial -- "$o"
	done
	run "$CDM" --help
	assert_output --partial "cdm sweep"
}

@test "bad --threads / --qd lists and options are refused with exit 2" {
	for l in 4,2 0 1,,2 a 1,2, 257 "1, 2" 2,2; do
		run "$CDM" sweep --threads "$l" "$TD"
		echo "--threads '$l'"
		assert_failure 2
		assert_like "${lines[0]}" "\"cdm: bad value for --threads: '\$l'\"*"
	done
	run "$CDM" sweep --qd 1,2048 "$TD"
	assert_failure 2
	run "$CDM" sweep "$TD"
	assert_failure 2
	assert_output --partial "nothing to sweep"
	run "$CDM" sweep --threads 1,2 --format json "$TD"
	assert_failure 2
	# 3 tests x 4 depths x 4 thread counts = 48 points > 32
	run "$CDM" sweep --threads 1,2,4,8 --qd 1,2,4,8 --test RND4K --test SEQ1M --test RND8K "$TD"
	assert_failure 2
	assert_output --partial "48 points"
	# an output that cannot be written is refused before the run
	run "$CDM" sweep "${SW[@]}" --threads 1 --plot "$OD/no/such/dir/s.svg" "$TD"
	assert_failure 1
	assert_output --partial "cannot create the file for --plot"
	run "$CDM" sweep "${SW[@]}" --threads 1 --save "$OD" "$TD"
	assert_failure 1
	assert_output --partial "is a directory"
	assert_clean "$TD"
}

# issue 12: with an engine that keeps one I/O in flight per thread every
# point of a --qd sweep ran at Q1 and a knee was found in that; refused
@test "a sweep whose points would all run at Q1 (sync; libaio on a buffered file) is refused" {
	run "$CDM" sweep --engine sync --qd 1,2 --test RND4K "$TD"
	assert_failure 2
	assert_line --index 0 "cdm: the sync engine keeps one I/O in flight per thread, so every --qd point runs at Q1: sweep with --engine io_uring or libaio"
	run "$CDM" sweep --engine sync --threads 1,2 --test "RND4K Q8" "$TD"
	assert_failure 2
	assert_like "${lines[0]}" '*"so a Q>1 test runs at Q1"*'
	if [ "$("$CDM" --list-engines | awk '$1 == "libaio" {print $3}')" = yes ]; then
		run "$CDM" sweep --engine libaio --buffered --qd 1,4 --test RND4K "$TD"
		assert_failure 2
		assert_like "${lines[0]}" '*"libaio engine keeps one I/O in flight per thread on a buffered file"*'
	fi
	# a thread sweep of a Q1 test is what sync can do: it runs
	run "$CDM" sweep --size 16MiB --count 1 --time 1 --warmup 0 --quiet --engine sync \
		--threads 1,2 --test "RND4K Q1" "$TD"
	assert_success
	assert_clean "$TD"
}

@test "--null-service-us N,M@S: one parser for cdm and cdm sweep, the schedule applies" {
	# the same values refused with the same line by both commands
	for v in 100,200 100,200@ 100,200@0 x 10000001 "100,200@1x"; do
		run "$CDM" --null-service-us "$v" "$TD"
		assert_failure 2
		a=${lines[0]}
		run "$CDM" sweep --null-service-us "$v" "$TD"
		assert_failure 2
		echo "--null-service-us '$v': sweep's message, then the run's"
		assert_line --index 0 "$a"
		assert_like "$a" "\"cdm: bad value for --null-service-us: '\$v' (N or N,M@S\"*"
	done
	# 40 ms per I/O caps one thread at Q1 at 25 IOPS; from 1 s on 1 ms per
	# I/O: a 2 s pass above that cap shows the change took effect
	run "$CDM" sweep --size 16MiB --count 1 --time 2 --warmup 0 --quiet --engine null \
		--null-service-us 40000,1000@1 --threads 1 --test "RND4K Q1" --mode read "$TD"
	assert_success
	echo "$output"
	iops=$(echo "$output" | awk '$1 == 1 && NF >= 6 {print $4}')
	awk -v i="$iops" 'BEGIN { exit !(i > 50) }'
	assert_clean "$TD"
}

# 10 ms per I/O in passes of 2 s, not SW's 1 ms in 1 s: on a loaded 2-CPU
# machine under ASan a thread woke late enough after each 1 ms I/O to put
# T4 at 15 times T1 (or, the other way, under twice)
@test "thread sweep on the null engine: one row per point, IOPS grow with T" {
	run "$CDM" sweep "${SW[@]}" --null-service-us 10000 --time 2 --threads 1,2,4 \
		--test "RND4K Q1" --mode read "$TD"
	assert_success
	echo "$output"
	assert_like "${lines[0]}" '"cdm sweep: "*'
	assert_equal "$(echo "$output" | grep -c '^RND4K Q1 Read$')" 1
	assert_equal "$(echo "$output" | grep -c '^RND4K Q1 Write$')" 0
	rows=$(echo "$output" | awk '$1 ~ /^[0-9]+$/ && NF >= 6')
	assert_equal "$(echo "$rows" | wc -l)" 3
	assert_equal "$(echo "$rows" | awk '{print $1}' | tr '\n' ' ')" "1 2 4 "
	i1=$(echo "$rows" | awk '$1 == 1 {print $4}')
	i4=$(echo "$rows" | awk '$1 == 4 {print $4}')
	awk -v a="$i1" -v b="$i4" 'BEGIN { r = b / a; print "T4/T1 IOPS", r; exit !(r > 2 && r < 8) }'
	# every curve says whether it has a knee
	assert_line --regexp '^  RND4K Q1 Read: (knee at [0-9]+ threads|no knee)'
	assert_clean "$TD"
}

@test "read and write, two tests, --save JSON with one curve per test and direction" {
	"$CDM" sweep "${SW[@]}" --threads 1,2 --test "RND4K Q1" --test "SEQ64K Q2" \
		--save "$OD/s.json" "$TD" > "$OD/out.txt"
	jq -e '.kind == "sweep" and .settings.vary == "threads"' "$OD/s.json"
	assert_equal "$(jq -c '[.curves[] | .test + " " + .direction]' "$OD/s.json")" \
		'["RND4K Q1 read","SEQ64K Q2 read","RND4K Q1 write","SEQ64K Q2 write"]'
	jq -e '[.curves[].points | length == 2] | all' "$OD/s.json"
	jq -e '[.curves[1].points[].queue_depth] == [2, 2]' "$OD/s.json"
	jq -e '[.curves[].points[] | .measured and .iops > 0 and
		(.mb_s - .bytes / .duration_s / 1e6 | fabs) < 1e-6 and .lat_p99_us >= .lat_mean_us * 0.5] | all' \
		"$OD/s.json"
	jq -e '[.curves[] | has("knee") and has("ceiling")] | all' "$OD/s.json"
	assert_clean "$TD"
}

@test "depth sweep, and threads x depth: one curve per depth" {
	"$CDM" sweep "${SW[@]}" --qd 1,4 --test "RND4K T1" --mode read --save "$OD/q.json" "$TD" >/dev/null
	jq -e '.settings.vary == "qd" and ([.curves[0].points[].queue_depth] == [1, 4])' "$OD/q.json"
	"$CDM" sweep "${SW[@]}" --threads 1,2 --qd 1,2 --mode write --save "$OD/b.json" "$TD" >/dev/null
	assert_equal "$(jq '.curves | length' "$OD/b.json")" 2
	jq -e '[.curves[0].points[] | [.threads, .queue_depth]] == [[1, 1], [2, 1]]' "$OD/b.json"
	jq -e '[.curves[1].points[] | [.threads, .queue_depth]] == [[1, 2], [2, 2]]' "$OD/b.json"
}

@test "Markdown table" {
	run "$CDM" sweep "${SW[@]}" --threads 1,2 --mode read --format markdown "$TD"
	assert_success
	assert_output --partial "| Threads | QD | MB/s | IOPS | mean (us) | p99 (us) | |"
	assert_equal "$(echo "$output" | grep -c '^| [12] | 1 | ')" 2
}

@test "--plot draws the sweep, knee marked when the JSON names one, and it renders" {
	"$CDM" sweep "${SW[@]}" --threads 1,2,4 --mode read --save "$OD/s.json" --plot "$OD/s.svg" "$TD" >/dev/null
	assert_grep 'threads (T)' "$OD/s.svg"
	assert_grep 'IOPS (I/Os per second)' "$OD/s.svg"
	grep -Eq 'latency \((us|ms)\)' "$OD/s.svg"
	if [ "$(jq '.curves[0].knee' "$OD/s.json")" = null ]; then
		run grep -q '>knee</text>' "$OD/s.svg"
		assert_failure
		# the chart says so: in the legend of both panels, and why
		assert_equal "$(grep -c '>RND4K Q1 Read: no knee</text>' "$OD/s.svg")" 2
		assert_grep '>no knee: each step still added</text>' "$OD/s.svg"
	else
		assert_grep '>knee</text>' "$OD/s.svg"
		refute_grep 'no knee' "$OD/s.svg"
	fi
	check_svg "$OD/s.svg"
	assert_clean "$TD"
}

# the null engine serves each I/O in 10 ms: IOPS grow with every step of Q,
# latency stays, so no curve has a knee, and the chart says it of each and
# why, as the text does.  10 ms, not SW's 1 ms: under ASan on a loaded
# 2-CPU machine the thread woke late enough for Q4 to add under 10 % to
# Q2's 1 ms I/Os, a knee.
@test "--plot of a sweep without a knee says 'no knee' for each curve, and why" {
	"$CDM" sweep --size 16MiB --count 1 --time 1 --warmup 0 --quiet --engine null \
		--null-service-us 10000 --qd 1,2,4 --test "RND4K T1" --test "RND8K T1" --mode read \
		--save "$OD/s.json" --plot "$OD/s.svg" "$TD" > "$OD/s.txt"
	jq -e '[.curves[].knee] == [null, null]' "$OD/s.json"
	assert_equal "$(grep -c ': no knee: ' "$OD/s.txt")" 2
	refute_grep '>knee</text>' "$OD/s.svg"
	for c in "RND4K T1 Read" "RND8K T1 Read"; do
		echo "$c"
		assert_equal "$(grep -c ">$c: no knee</text>" "$OD/s.svg")" 2
	done
	# the reason, once, under the first panel's legend
	assert_equal "$(grep -c '>no knee: each step still added</text>' "$OD/s.svg")" 1
	assert_grep '>10 % IOPS or more, or latency</text>' "$OD/s.svg"
	# the two curves in two shapes, a marker at each point, in the legend too
	run check_line_styles "$OD/s.svg"
	echo "$output"
	assert_success
	assert_equal "${lines[-1]}" "6 lines (0 of one point) in 2 shapes, 4 legend entries"
	check_svg "$OD/s.svg"
	assert_clean "$TD"
}
