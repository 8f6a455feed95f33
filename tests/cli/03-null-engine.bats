#!/usr/bin/env bats
# The runner's arithmetic, checked with the null engine and a fixed service
# time: Little's law (mean latency x IOPS = I/Os in flight = Q x T) is an
# identity whatever the machine's load, and IOPS grow with Q and with T.
# Then the null engine's simulated device (--null-device): its caps,
# channels, phases and stalls, whose figures are the model's own (below).
# Nothing here asserts the machine's rate or a time.

load helpers
bats_require_minimum_version 1.5.0      # run --separate-stderr

# run one RND4K test on the null engine with a 1 ms service time (or $2
# us, in a pass of $3 s); print "IOPS latency_us Q T" of the read row
null_row() {
	local out
	out=$("$CDM" "${QUICK[@]}" --engine null --null-service-us "${2:-1000}" --time "${3:-1}" \
		--mode read --test "RND4K $1" "$TD") || return 1
	set -- $(row_fields "$(echo "$out" | grep -E '^  RND')")
	echo "$6 $7 $3 $4"
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
	set -- $(null_row Q1T1)
	assert_equal "$3" 1
	assert_equal "$4" 1
	check_little "$@"
	# the service time is a floor for the latency (sleeps never end early)
	awk -v lat="$2" 'BEGIN { exit !(lat >= 1000) }'
}

@test "null engine Q4T1: mean latency x IOPS = 4" {
	set -- $(null_row Q4T1)
	assert_equal "$3" 4
	assert_equal "$4" 1
	check_little "$@"
}

@test "null engine Q1T4: mean latency x IOPS = 4" {
	set -- $(null_row Q1T4)
	assert_equal "$3" 1
	assert_equal "$4" 4
	check_little "$@"
}

@test "null engine Q32T1: mean latency x IOPS = 32" {
	set -- $(null_row Q32T1)
	assert_equal "$3" 32
	assert_equal "$4" 1
	check_little "$@"
}

@test "null engine Q8T4: mean latency x IOPS = 32" {
	set -- $(null_row Q8T4)
	check_little "$@"
}

# 10 ms per I/O in passes of 2 s, not 1 ms in 1 s: the three runs come one
# after another, and on a loaded 2-CPU machine under ASan a thread that
# woke late after each 1 ms I/O, or a pause of half a second, left Q4T1 at
# 1.2 times Q1T1; against 10 ms, the same delays change little, and a
# pause takes a quarter of a pass at most
@test "IOPS grow with the queue depth and with the thread count" {
	set -- $(null_row Q1T1 10000 2); one=$1
	set -- $(null_row Q4T1 10000 2); q4=$1
	set -- $(null_row Q1T4 10000 2); t4=$1
	echo "Q1T1 $one, Q4T1 $q4, Q1T4 $t4 IOPS"
	# four times the I/Os in flight: at least twice the IOPS
	awk -v a="$one" -v b="$q4" -v c="$t4" 'BEGIN { exit !(b > 2 * a && c > 2 * a) }'
	assert_clean "$TD"
}

@test "null engine without a service time completes every I/O at once" {
	run "$CDM" "${QUICK[@]}" --engine null --mode read --test "RND4K Q32T1" "$TD"
	assert_success
	assert_output --partial "(null, O_DIRECT)"
	assert_line --regexp '^  RND    4KiB \(Q= 32, T= 1\):'
}

# ---- the simulated device (--null-device; docs/engines.md) ----
#
# These check the device's own figures, which do not depend on the
# machine's load as long as it keeps up, so the rates stay low (a few
# thousand I/Os per second) for a loaded 2-CPU machine.  Load can only
# make a cap undershoot, never exceed it: an I/O completes no earlier
# than the device says.  So a cap is asserted strictly from above, at
# 3 % over: the device lets at most cap x (W + 2 ms of credit) + 1 I/Os
# complete in a window of W, and a thread that reaps late may move up to
# Q x T completions from the window before into the next; in a pass of
# 1 s at 5000 IOPS that is 0.9 % at most.  From below only a bound a
# loaded machine keeps, half the cap, so that the test says the cap was
# reached, not exceeded by luck.

# run one cdm on the null engine with the device $1 and the options after
# it, saving the JSON in $OD/r.json
device_run() {
	local spec=$1
	shift
	run --separate-stderr "$CDM" "${QUICK[@]}" --engine null --null-device "$spec" --mode read \
		--format json "$@" "$TD"
	assert_success
	echo "$output" > "$OD/r.json"
}

# within NAME VALUE LOW HIGH: LOW <= VALUE <= HIGH, said with its name
within() {
	echo "$1: $2 (from $3 to $4)"
	awk -v v="$2" -v lo="$3" -v hi="$4" 'BEGIN { exit !(v >= lo && v <= hi) }'
}

@test "--null-device iops=5000: the cap holds at Q1T1, Q32T1 and Q8T4" {
	device_run iops=5000 --test "RND4K Q1T1" --test "RND4K Q32T1" --test "RND4K Q8T4"
	assert_equal "$(jq -r .settings.null_device "$OD/r.json")" "iops=5000"
	assert_equal "$(jq -c '[.tests[] | [.queue_depth_run, .threads]]' "$OD/r.json")" "[[1,1],[32,1],[8,4]]"
	for i in 0 1 2; do
		within "test $i IOPS" "$(jq ".tests[$i].summary.iops.best" "$OD/r.json")" 2500 5150
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

@test "--null-device mbs=50: the MB/s cap holds, whatever the I/O size and thread count" {
	device_run mbs=50 --test "SEQ128K Q8T1" --test "SEQ128K Q1T2" --test "RND4K Q32T1"
	for i in 0 1 2; do
		within "test $i MB/s" "$(jq ".tests[$i].summary.mb_s.best" "$OD/r.json")" 25 51.5
	done
	assert_clean "$TD"
}

@test "--null-device phases: the cap changes at at=, seen in a --log-interval 100ms series" {
	# 4000 IOPS for 1 s, then 1000 (lat carries over); the intervals wholly
	# inside each phase, 100 ms clear of the change, summed: 900 ms each
	device_run "lat=1ms,iops=4000;at=1s,iops=1000" --test "RND4K Q8T1" --time 2 --log-interval 100ms
	assert_equal "$(jq -r .settings.null_device "$OD/r.json")" "lat=1ms,iops=4000;at=1s,iops=1000"
	assert_equal "$(jq '.tests[0].series.points | length' "$OD/r.json")" 20
	rate() {
		jq "[.tests[0].series.points[] | select(.start_ns >= $1 and .start_ns + .duration_ns <= $2)] |
			(map(.ios) | add) * 1e9 / (map(.duration_ns) | add)" "$OD/r.json"
	}
	within "IOPS before" "$(rate 0 900000000)" 2000 4120
	within "IOPS after" "$(rate 1100000000 2000000000)" 500 1030
	assert_clean "$TD"
}

@test "--null-device stall: nothing completes in it, the device goes on after it" {
	# a stall of 500 ms from 500 ms on; the intervals from 700 to 900 ms
	# are 200 ms inside it: a completion there would be the device's, not
	# a thread reaping late (it sleeps until the stall's end)
	device_run "iops=2000;at=500ms,stall=500ms" --test "RND4K Q4T2" --time 2 --log-interval 100ms
	jq -e '[.tests[0].series.points[] | select(.start_ns >= 700000000 and .start_ns < 900000000) |
		.ios] | length == 2 and all(. == 0)' "$OD/r.json"
	ios=$(jq '[.tests[0].series.points[] | select(.start_ns >= 1200000000) | .ios] | add' "$OD/r.json")
	# 800 ms at 2000 IOPS after it, at most 3 % over (and Q x T reaped late)
	within "I/Os after" "$ios" 800 1656
	assert_clean "$TD"
}

@test "--null-service-us is --null-device's shorthand, recorded as the device it is" {
	run "$CDM" "${QUICK[@]}" --engine null --null-service-us 1000,2000@1 --mode read \
		--test "RND4K Q1T1" --format json "$TD"
	assert_success
	assert_equal "$(echo "$output" | jq -r .settings.null_device)" "lat=1ms,channels=all;at=1s,lat=2ms"
	run "$CDM" "${QUICK[@]}" --engine null --null-device "lat=1000us" --mode read --test "RND4K Q1T1" "$TD"
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
