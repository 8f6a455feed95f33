#!/usr/bin/env bats
# The runner's arithmetic, checked with the null engine and a fixed service
# time: Little's law (mean latency x IOPS = I/Os in flight = Q x T) is an
# identity whatever the machine's load, and IOPS grow with Q and with T.
# Then the null engine's simulated device (--null-device): its caps,
# channels, phases and stalls, whose figures are the model's own (below).
# Nothing here asserts the machine's rate or a time.

load helpers
bats_require_minimum_version 1.5.0      # run --separate-stderr

# The runs of the tests of Little's law and of IOPS growing with Q and
# T, one RND4K test each on the null engine with a service time of 40 ms,
# side by side before the tests (which only read them), in $LD: QT.row
# is "IOPS latency_us Q T" of its read row, QT.out what it wrote.  A
# warm-up of 0.1 s first, so that the pass starts with every thread
# running and its Q I/Os in flight: a loaded machine starts a thread
# late, and a pass that began without it measured the product of IOPS
# and latency short by the delay over the pass (0.1 s in 1 s: 10 %); the
# I/Os in flight at the pass's end are left out as those in flight at
# its start are counted whole.  Passes of 1 s: a thread kept from running
# as the pass ends (0.1 s has been seen) takes its share of the pass
# from the product too.  40 ms, so that what a loaded machine adds to
# each I/O is small beside it: a thread late to wake (at 1 ms, on a
# loaded 2-CPU machine under ASan, Q4T1 came out at 1.2 times Q1T1), and
# one kept from running between an I/O's completion and the next one's
# submission, time that no I/O of the thread is in flight (at 20 ms and
# a load of 20, Q1T4 had 3.27 in flight); and the five runs at once do
# 1825 I/Os per second, not 73000 at 1 ms.
setup_file() {
	LD=$BATS_FILE_TMPDIR/little
	local qt
	for qt in Q1T1 Q4T1 Q1T4 Q32T1 Q8T4; do
		mkdir -p "$LD/$qt"
		(
			"$CDM" --size 16MiB --count 1 --interval 0 --quiet --engine null \
				--null-service-us 40000 --warmup 0.1 --time 1 --mode read \
				--test "RND4K $qt" "$LD/$qt" > "$LD/$qt.out" 2>&1 &&
				set -- $(row_fields "$(grep -E '^  RND' "$LD/$qt.out")") &&
				echo "$6 $7 $3 $4" > "$LD/$qt.row"
		) &
	done
	wait
	export LD
}

# little_row QT: the row of setup_file's run of RND4K QT, or its output
# and a failure
little_row() {
	if [ ! -s "$LD/$1.row" ]; then
		cat "$LD/$1.out"
		return 1
	fi
	cat "$LD/$1.row"
	assert_clean "$LD/$1"
}

# Little's law within 10 %
check_little() {
	awk -v iops="$1" -v lat="$2" -v q="$3" -v t="$4" 'BEGIN {
		l = iops * lat / 1e6; n = q * t
		printf "IOPS %s x latency %s us = %.3f in flight, Q x T = %d\n", iops, lat, l, n
		if (l < 0.9 * n || l > 1.1 * n) exit 1
	}'
}

@test "null engine Q1T1: mean latency x IOPS = 1" {
	row=$(little_row Q1T1)
	set -- $row
	assert_equal "$3" 1
	assert_equal "$4" 1
	check_little "$@"
	# the service time is a floor for the latency (sleeps never end early)
	awk -v lat="$2" 'BEGIN { exit !(lat >= 40000) }'
}

@test "null engine Q4T1: mean latency x IOPS = 4" {
	row=$(little_row Q4T1)
	set -- $row
	assert_equal "$3" 4
	assert_equal "$4" 1
	check_little "$@"
}

@test "null engine Q1T4: mean latency x IOPS = 4" {
	row=$(little_row Q1T4)
	set -- $row
	assert_equal "$3" 1
	assert_equal "$4" 4
	check_little "$@"
}

@test "null engine Q32T1: mean latency x IOPS = 32" {
	row=$(little_row Q32T1)
	set -- $row
	assert_equal "$3" 32
	assert_equal "$4" 1
	check_little "$@"
}

@test "null engine Q8T4: mean latency x IOPS = 32" {
	row=$(little_row Q8T4)
	set -- $row
	check_little "$@"
}

# the device gives Q1T1 25 IOPS at most, Q4T1 and Q1T4 100; the three
# runs (setup_file's) side by side, so that what slows one (a pause of
# the machine) slows the others
@test "IOPS grow with the queue depth and with the thread count" {
	row=$(little_row Q1T1)
	one=${row%% *}
	row=$(little_row Q4T1)
	q4=${row%% *}
	row=$(little_row Q1T4)
	t4=${row%% *}
	echo "Q1T1 $one, Q4T1 $q4, Q1T4 $t4 IOPS"
	# none above the device: each I/O in flight completes every 40 ms at
	# most, 1 s / 40 ms + 1 (one from the warm-up) = 26 times in the pass
	within "Q1T1 IOPS" "$one" 1 26
	within "Q4T1 IOPS" "$q4" 1 104
	within "Q1T4 IOPS" "$t4" 1 104
	# four times the I/Os in flight: at least twice the IOPS
	awk -v a="$one" -v b="$q4" -v c="$t4" 'BEGIN { exit !(b > 2 * a && c > 2 * a) }'
}

@test "null engine without a service time completes every I/O at once" {
	run "$CDM" "${QUICK[@]}" --engine null --time 0.2 --mode read --test "RND4K Q32T1" "$TD"
	assert_success
	assert_output --partial "(null, O_DIRECT)"
	assert_line --regexp '^  RND    4KiB \(Q= 32, T= 1\):'
}

# ---- the simulated device (--null-device; docs/engines.md) ----
#
# These check the device's own figures, which do not depend on the
# machine's load as long as it keeps up.  Load can only make a cap
# undershoot, never exceed it: an I/O completes no earlier than the
# device says.  So a cap is asserted tightly from above, by what the
# device allows: in a window of W at most cap x (W + 2 ms of credit) + 1
# I/Os complete, and a thread that reaps late may move up to Q x T of
# them from before the window into it (none when the window starts the
# test); at 500 IOPS in a pass of 0.5 s that is 0.8 % over, and a bound
# of 3 % over holds wherever no more is said.  From below only a bound a
# loaded machine keeps, half the cap, so that the test says the cap was
# reached, not exceeded by luck.  For that the rates stay low, 1000 I/Os
# per second a thread at most (a loaded machine made 1556 of 4000 with
# one thread, 8 in flight, and 1600 of 4883 with 32), and the I/Os in
# flight many, since the device schedules them ahead: a thread that
# wakes late finds them done and loses nothing while they last (32 in
# flight at 2000 IOPS: 16 ms, and the credit's 2 ms).

# run one cdm on the null engine with the device $1 and the options after
# it, saving the JSON in $OD/r.json
device_run() {
	local spec=$1
	shift
	run --separate-stderr "${RT[@]}" "$CDM" "${QUICK[@]}" --engine null --null-device "$spec" --mode read \
		--format json "$@" "$TD"
	assert_success
	echo "$output" > "$OD/r.json"
}

# within NAME VALUE LOW HIGH: LOW <= VALUE <= HIGH, said with its name
within() {
	echo "$1: $2 (from $3 to $4)"
	awk -v v="$2" -v lo="$3" -v hi="$4" 'BEGIN { exit !(v >= lo && v <= hi) }'
}

@test "--null-device iops=500: the cap holds at Q1T1, Q32T1 and Q8T4" {
	device_run iops=500 --test "RND4K Q1T1" --test "RND4K Q32T1" --test "RND4K Q8T4"
	assert_equal "$(jq -r .settings.null_device "$OD/r.json")" "iops=500"
	assert_equal "$(jq -c '[.tests[] | [.queue_depth_run, .threads]]' "$OD/r.json")" "[[1,1],[32,1],[8,4]]"
	for i in 0 1 2; do
		within "test $i IOPS" "$(jq ".tests[$i].summary.iops.best" "$OD/r.json")" 250 515
	done
	assert_clean "$TD"
}

@test "--null-device channels=1,lat=1ms: 1000 IOPS and 8 ms per I/O at Q8T1 (Little's law)" {
	device_run channels=1,lat=1ms --test "RND4K Q8T1"
	iops=$(jq '.tests[0].summary.iops.best' "$OD/r.json")
	lat=$(jq '.tests[0].summary.lat_mean_ns.best / 1000' "$OD/r.json")
	# one channel: one I/O per ms at most, each waiting for the 7 ahead of it
	within IOPS "$iops" 500 1030
	within "latency us" "$lat" 7600 16000
	check_little "$iops" "$lat" 8 1
	assert_clean "$TD"
}

# 4 MB/s: 977 I/Os per second of 4 KiB, 32 in flight scheduled 33 ms
# ahead (at 20 MB/s, 4883, a loaded machine made a third of it); in a
# pass of 0.5 s at most 4 MB/s x 0.502 s and one I/O of 128 KiB more,
# 4.28 MB/s
@test "--null-device mbs=4: the MB/s cap holds, whatever the I/O size and thread count" {
	device_run mbs=4 --test "SEQ128K Q8T1" --test "SEQ128K Q1T2" --test "RND4K Q32T1"
	for i in 0 1 2; do
		within "test $i MB/s" "$(jq ".tests[$i].summary.mb_s.best" "$OD/r.json")" 2 4.28
	done
	assert_clean "$TD"
}

@test "--null-device phases: the cap changes at at=, seen in a --log-interval 100ms series" {
	# 500 IOPS for 0.5 s, then 2000 (lat carries over); the intervals
	# wholly inside each phase, 100 ms clear of the change (which comes
	# as late as the test's first I/O, and the 32 I/Os in flight at it
	# complete at the old cap), summed: 400 ms each.  The slow phase
	# first, so that what a late thread carries into the second window
	# (Q x T = 32) is small beside it: at most 2000 x 0.402 s + 1 + 32 =
	# 837 I/Os in 0.4 s, 2093 IOPS
	device_run "lat=1ms,iops=500;at=500ms,iops=2000" --test "RND4K Q8T4" --time 1 --log-interval 100ms
	assert_equal "$(jq -r .settings.null_device "$OD/r.json")" "lat=1ms,iops=500;at=500ms,iops=2000"
	assert_equal "$(jq '.tests[0].series.points | length' "$OD/r.json")" 10
	rate() {
		jq "[.tests[0].series.points[] | select(.start_ns >= $1 and .start_ns + .duration_ns <= $2)] |
			(map(.ios) | add) * 1e9 / (map(.duration_ns) | add)" "$OD/r.json"
	}
	within "IOPS before" "$(rate 0 400000000)" 250 515
	within "IOPS after" "$(rate 600000000 1000000000)" 1000 2093
	assert_clean "$TD"
}

@test "--null-device stall: nothing completes in it, the device goes on after it" {
	# a stall of 600 ms from 300 ms on (from the test's first I/O, a
	# little after the pass's start); the intervals from 500 to 700 ms
	# are 200 ms inside it: a completion there would be the device's, not
	# a thread reaping late (it sleeps until the stall's end)
	device_run "iops=2000;at=300ms,stall=600ms" --test "RND4K Q4T4" --time 1.5 --log-interval 100ms
	jq -e '[.tests[0].series.points[] | select(.start_ns >= 500000000 and .start_ns < 700000000) |
		.ios] | length == 2 and all(. == 0)' "$OD/r.json"
	ios=$(jq '[.tests[0].series.points[] | select(.start_ns >= 1100000000) | .ios] | add' "$OD/r.json")
	# the 400 ms from 200 ms after it at 2000 IOPS: at most
	# 2000 x 0.402 s + 1 + Q x T (16) reaped late = 821
	within "I/Os after" "$ios" 400 821
	assert_clean "$TD"
}

@test "--null-service-us is --null-device's shorthand, recorded as the device it is" {
	run --separate-stderr "$CDM" "${QUICK[@]}" --time 0.2 --engine null --null-service-us 1000,2000@1 --mode read \
		--test "RND4K Q1T1" --format json "$TD"
	assert_success
	assert_equal "$(echo "$output" | jq -r .settings.null_device)" "lat=1ms,channels=all;at=1s,lat=2ms"
	run --separate-stderr "$CDM" "${QUICK[@]}" --time 0.2 --engine null --null-device "lat=1000us" --mode read \
		--test "RND4K Q1T1" "$TD"
	assert_success
	assert_output --regexp $'\n   Mode:( \\[Admin\\])? <Null device lat=1ms>\n'
	assert_clean "$TD"
}

@test "--null-device: a bad spec is one line naming its bad part, exit 2, nothing left" {
	# each spec, then the line that names its bad part
	local -a cases=(
		"iops=abc" "'iops=abc' (iops=N|none, N 1-1000000000)"
		"lat=5" "'lat=5' (lat=DUR: a number and ns, us, ms or s, up to 3600s)"
		"lat=1ms;iops=5" "'iops=5' (phase 2 needs at=DUR: when it starts)"
		"iops=5;at=2s;at=1s" "'at=1s' (phase 3 must start after phase 2)"
		"speed=9" "'speed=9' (KEY=VALUE, KEY one of at, stall, lat, channels, iops, mbs)"
		"" "phase 1 is empty (KEY=VALUE,...)"
	)
	for ((i = 0; i < ${#cases[@]}; i += 2)); do
		run "$CDM" --engine null --null-device "${cases[i]}" "$TD"
		assert_failure 2
		assert_line --index 0 "cdm: bad value for --null-device: ${cases[i + 1]}"
		assert_equal "${#lines[@]}" 2
		# cdm sweep: the same parser, the same line
		run "$CDM" sweep --threads 1 --engine null --null-device "${cases[i]}" "$TD"
		assert_failure 2
		assert_line --index 0 "cdm: bad value for --null-device: ${cases[i + 1]}"
	done
	assert_clean "$TD"
}

@test "--null-device is refused with an engine that does I/O, and with --null-service-us" {
	run "$CDM" "${QUICK[@]}" --engine sync --null-device iops=100 -t "RND4K Q1T1" "$TD"
	assert_failure 2
	assert_line --index 0 "cdm: --null-device 'iops=100' sets the null engine's simulated device: this run uses the sync engine (add --engine null, or drop it)"
	run "$CDM" sweep --threads 1 --engine sync --null-device iops=100 -t "RND4K Q1" "$TD"
	assert_failure 2
	assert_line --index 0 "cdm: --null-device 'iops=100' sets the null engine's simulated device: this run uses the sync engine (add --engine null, or drop it)"
	run "$CDM" "${QUICK[@]}" --engine null --null-device iops=100 --null-service-us 10 "$TD"
	assert_failure 2
	assert_line --index 0 "cdm: --null-service-us '10' and --null-device 'iops=100' both set the null engine's device: give one (--null-service-us N is --null-device lat=Nus)"
	assert_clean "$TD"
}
