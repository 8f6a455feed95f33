#!/usr/bin/env bats
# The runner's arithmetic, checked with the null engine and a fixed service
# time: Little's law (mean latency x IOPS = I/Os in flight = Q x T) is an
# identity whatever the machine's load, and IOPS grow with Q and with T.
# Nothing here asserts a rate or a time.

load helpers

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
