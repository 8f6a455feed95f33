#!/usr/bin/env bats
# cdm sweep: one result per point, the table (text, Markdown), JSON, the
# knee named in the text and marked on the chart, bad lists refused.  The
# null engine's simulated device makes IOPS grow with the thread count
# and stop at its cap; a figure is asserted only as far as the device
# sets it, never the machine's rate.

load helpers
load svg

SW=(--size 16MiB --count 1 --time 0.2 --warmup 0 --quiet --engine null --null-service-us 1000)

# The knee sweep, run once for the two tests that read it (its text, JSON
# and chart): 2 I/Os in flight per thread, each 40 ms, and a cap of 300
# IOPS.  A thread then does 50 IOPS at most, 1 and 4 threads stay far
# below the cap (200 x 1.1 < 300: no knee there), and 16 threads would do
# 800 without it, so they reach it however late a loaded machine wakes
# them (up to 66 ms after each I/O), and their 32 I/Os in flight are
# scheduled 107 ms ahead; 32 threads add nothing and wait twice as long:
# the knee is at 16 threads, which load cannot move.  (A knee at the
# point where the threads just fill the device, channels=4 at T4, needs
# T4's threads to wake within 10 % of the service time: load moved it.)
setup_file() {
	KD=$BATS_FILE_TMPDIR/knee
	mkdir -p "$KD/td"
	"${RT[@]}" "$CDM" sweep --size 16MiB --count 1 --time 0.5 --warmup 0 --quiet --engine null \
		--null-device "lat=40ms,iops=300" --threads 1,4,16,32 --test "RND4K Q2" --mode read \
		--save "$KD/s.json" --plot "$KD/s.svg" "$KD/td" > "$KD/out" 2>&1 || echo $? > "$KD/failed"
	export KD
}

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
	run "$CDM" sweep --size 16MiB --count 1 --time 0.5 --warmup 0 --quiet --engine sync \
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
	# 40 ms per I/O caps one thread at Q1 at 25 IOPS; from 0.2 s on 1 ms per
	# I/O: a pass of 0.5 s above that cap shows the change took effect, and
	# below what 1 ms all along would give (1000) that it came at 0.2 s: at
	# most 5 I/Os of 40 ms, then 300 of 1 ms, 610 IOPS
	run "$CDM" sweep --size 16MiB --count 1 --time 0.5 --warmup 0 --quiet --engine null \
		--null-service-us 40000,1000@0.2 --threads 1 --test "RND4K Q1" --mode read "$TD"
	assert_success
	echo "$output"
	iops=$(echo "$output" | awk '$1 == 1 && NF >= 6 {print $4}')
	awk -v i="$iops" 'BEGIN { exit !(i > 50 && i <= 610) }'
	assert_clean "$TD"
}

# the knee sweep of setup_file: the figures as far as the device sets
# them.  From above exactly: a thread's 2 I/Os of 40 ms complete 12 times
# each in 0.5 s, 48 IOPS; the cap lets 300 x 0.502 s + 1 I/Os complete,
# 303.2 IOPS.  From below only what load cannot undo: more threads more
# IOPS up to the cap, 16 threads over 5 times one thread's most, 32 at
# least half the cap, and the knee at 16, where the cap was reached
@test "thread sweep on the null engine: one row per point, IOPS grow with T" {
	run cat "$KD/out"
	echo "$output"
	refute [ -e "$KD/failed" ]
	assert_like "${lines[0]}" '"cdm sweep: "*'
	assert_equal "$(echo "$output" | grep -c '^RND4K Q2 Read$')" 1
	assert_equal "$(echo "$output" | grep -c '^RND4K Q2 Write$')" 0
	rows=$(echo "$output" | awk '$1 ~ /^[0-9]+$/ && NF >= 6')
	assert_equal "$(echo "$rows" | wc -l)" 4
	assert_equal "$(echo "$rows" | awk '{print $1}' | tr '\n' ' ')" "1 4 16 32 "
	for t in 1 4 16 32; do
		eval "i$t=$(echo "$rows" | awk -v t=$t '$1 == t {print $4}')"
	done
	echo "IOPS: T1 $i1, T4 $i4, T16 $i16, T32 $i32"
	awk -v a="$i1" -v b="$i4" -v c="$i16" -v d="$i32" 'BEGIN {
		exit !(a <= 48 && b <= 4 * 48 && c <= 303.2 && d <= 303.2 &&
			a < b && b < c && c > 5 * a && d >= 150)
	}'
	# every curve says whether it has a knee: this one where the cap was reached
	assert_line --regexp '^  RND4K Q2 Read: knee at 16 threads \('
	assert_clean "$KD/td"
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

@test "--plot draws the sweep, the knee marked where the JSON names it, and it renders" {
	cat "$KD/out"
	refute [ -e "$KD/failed" ]
	assert_grep 'threads (T)' "$KD/s.svg"
	assert_grep 'IOPS (I/Os per second)' "$KD/s.svg"
	grep -Eq 'latency \((us|ms)\)' "$KD/s.svg"
	# the mean and the p99 latency each on an axis of its own
	run own_axes "$KD/s.svg" "$(jq '[.curves[].points[].lat_mean_us | select(. != null)] | max' "$KD/s.json")" \
		"$(jq '[.curves[].points[].lat_p99_us | select(. != null)] | max' "$KD/s.json")"
	echo "$output"
	assert_success
	# the knee of setup_file's device, at 16 threads
	assert_equal "$(jq -c '.curves[0].knee' "$KD/s.json")" '{"index":2,"threads":16,"queue_depth":2}'
	assert_grep '>knee</text>' "$KD/s.svg"
	refute_grep 'no knee' "$KD/s.svg"
	cp "$KD/s.svg" "$OD/s.svg"
	check_svg "$OD/s.svg"
	assert_clean "$KD/td"
}

# issue 25, item 9: the p99 lines shared the mean's axis and pressed the
# mean lines to the floor.  The simulated device serves each I/O in 20 ms
# for 100 ms of each point and in 1 ms for the other 300: some 2 % of the
# I/Os (5 of 300 at Q1) are the slow ones, so the p99 is near 20 ms, and the mean near
# 2 ms, however slow the machine (a stall of 100 ms held 1 or 2 I/Os,
# fewer than 1 %, and the p99 was then where the mean was)
@test "--plot of a sweep: the mean and the p99 latency each on an axis of its own" {
	"$CDM" sweep --size 16MiB --count 1 --time 0.4 --warmup 0 --quiet --engine null \
		--null-device "lat=1ms;at=100ms,lat=20ms;at=200ms,lat=1ms" --qd 1,2 --test "RND4K T1" \
		--mode read --save "$OD/s.json" --plot "$OD/s.svg" "$TD" > /dev/null
	mean=$(jq '[.curves[].points[].lat_mean_us | select(. != null)] | max' "$OD/s.json")
	p99=$(jq '[.curves[].points[].lat_p99_us | select(. != null)] | max' "$OD/s.json")
	assert_grep '>Mean latency</text>' "$OD/s.svg"
	assert_grep '>p99 latency (99 % of the I/Os completed within it)</text>' "$OD/s.svg"
	run own_axes "$OD/s.svg" "$mean" "$p99"
	echo "$output"
	assert_success
	mt=$(axis_top "$OD/s.svg" "mean latency")
	python3 -c 'import sys; sys.exit(not float(sys.argv[1]) < float(sys.argv[2]))' "$mt" "$p99"
	check_svg "$OD/s.svg"
	assert_clean "$TD"
}

# the null engine serves each I/O in 20 ms, as many at once as come: IOPS
# grow fourfold with each step of Q, latency stays, so no curve has a
# knee, and the chart says it of each and why, as the text does.  Steps
# of 4 and 20 ms: for a step to add under 10 %, the thread would have to
# wake after each I/O of Q16 53 ms later than after one of Q4, and 3.6
# times as late (at 1 ms and steps of 2, under ASan on a loaded 2-CPU
# machine, Q4 added under 10 % to Q2).
@test "--plot of a sweep without a knee says 'no knee' for each curve, and why" {
	"${RT[@]}" "$CDM" sweep --size 16MiB --count 1 --time 0.3 --warmup 0 --quiet --engine null \
		--null-device lat=20ms --qd 1,4,16 --test "RND4K T1" --test "RND8K T1" --mode read \
		--save "$OD/s.json" --plot "$OD/s.svg" "$TD" > "$OD/s.txt"
	jq -e '[.curves[].knee] == [null, null]' "$OD/s.json"
	assert_equal "$(grep -c ': no knee: ' "$OD/s.txt")" 2
	refute_grep '>knee</text>' "$OD/s.svg"
	for c in "RND4K T1 Read" "RND8K T1 Read"; do
		echo "$c"
		# in the legend of each panel: throughput, mean and p99 latency
		assert_equal "$(grep -c ">$c: no knee</text>" "$OD/s.svg")" 3
	done
	# the reason, once, under the first panel's legend
	assert_equal "$(grep -c '>no knee: each step still added</text>' "$OD/s.svg")" 1
	assert_grep '>10 % IOPS or more, or latency</text>' "$OD/s.svg"
	# the two curves in two shapes, a marker at each point, in the legend too
	run check_line_styles "$OD/s.svg"
	echo "$output"
	assert_success
	assert_equal "${lines[-1]}" "6 lines (0 of one point) in 2 shapes, 6 legend entries"
	check_svg "$OD/s.svg"
	assert_clean "$TD"
}
