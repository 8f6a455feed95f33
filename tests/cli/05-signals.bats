#!/usr/bin/env bats
# Signals and leftovers: SIGINT/SIGTERM/SIGHUP stop the run, print the rows
# measured so far, remove the test file and exit 128 + signal; a file left
# by kill -9 is removed by the next run, and only such files are.
#
# `timeout 20` around each run is a liveness guard (a run that ignored the
# signal would hang there), not a timing assertion.

load helpers

# start cdm in the background with args "$@"; sets PID, output in $OD/out/err
start_cdm() {
	"$CDM" "$@" > "$OD/out" 2> "$OD/err" &
	PID=$!
}

# wait (at most ~20 s) until a test file exists in $TD
wait_for_file() {
	for _ in $(seq 200); do
		[ -n "$(find "$TD" -name 'cdm-*.tmp')" ] && return 0
		sleep 0.1
	done
	return 1
}

# send $1 to PID after $2 seconds; check exit status $3 and cleanup
interrupt_and_check() {
	sleep "$2"
	kill -s "$1" "$PID"
	local st=0
	timeout 20 tail --pid="$PID" -f /dev/null || { kill -9 "$PID"; echo "did not stop"; return 1; }
	wait "$PID" || st=$?
	cat "$OD/err"
	[ "$st" -eq "$3" ] || { echo "exit $st, want $3"; return 1; }
	grep -q "interrupted by" "$OD/err"
	assert_clean "$TD"
}

@test "SIGINT while measuring: exit 130, rows so far on stdout, no file left" {
	start_cdm --quiet --size 16MiB --count 2 --time 1 --warmup 0 --interval 0 \
		--test RND4K --test SEQ128K --mode read "$TD"
	interrupt_and_check INT 3 130
	# the first test finished: its row is there; the second may be
	grep -qE '^  RND    4KiB \(Q=  1, T= 1\):' "$OD/out"
	grep -q '^\[Read\]$' "$OD/out"
	grep -q '^Profile: Default$' "$OD/out"
	rm -f "$OD/out" "$OD/err"
}

@test "SIGTERM exits 143 and SIGHUP exits 129, cleaning up" {
	start_cdm --quiet --size 16MiB --count 3 --time 1 --warmup 1 --interval 0 --test RND4K "$TD"
	interrupt_and_check TERM 1.5 143
	start_cdm --quiet --size 16MiB --count 3 --time 1 --warmup 1 --interval 0 --test RND4K "$TD"
	interrupt_and_check HUP 1.5 129
	rm -f "$OD/out" "$OD/err"
}

@test "a signal during the interval between tests stops at once" {
	start_cdm --quiet --size 16MiB --count 1 --time 1 --warmup 0 --interval 600 \
		--test RND4K --test SEQ128K --mode read "$TD"
	interrupt_and_check INT 2.5 130
	grep -qE '^  RND    4KiB' "$OD/out"
	rm -f "$OD/out" "$OD/err"
}

@test "a signal while the test file is being prepared" {
	start_cdm --quiet --size 1GiB --count 1 --time 1 --warmup 0 --interval 0 --test RND4K "$TD"
	wait_for_file
	interrupt_and_check INT 0.1 130
	rm -f "$OD/out" "$OD/err"
}

@test "after kill -9 the next run removes the stale file, and only such files" {
	host=$(hostname)
	start_cdm --quiet --size 16MiB --count 5 --time 2 --warmup 0 --interval 0 --test RND4K "$TD"
	wait_for_file
	kill -9 "$PID"
	wait "$PID" || true
	stale=$(find "$TD" -name 'cdm-*.tmp')
	[ -n "$stale" ]
	# files that must survive: another host's, a live process's, a kept one,
	# and a user's file that merely looks similar
	sh -c 'exit 0' & dead=$!; wait $dead
	touch "$TD/cdm-otherhost-$dead-0badcafe.tmp" "$TD/cdm-$host-$$-0badcafe.tmp" \
		"$TD/cdm-$host-$dead-0badcafe.keep" "$TD/cdm-notes.tmp"
	touch "$TD/cdm-$host-$dead-1234abcd.tmp"
	run "$CDM" "${QUICK[@]}" --test RND4K "$TD"
	[ "$status" -eq 0 ]
	[[ "$output" == *"removed $stale"* ]]
	[ ! -e "$stale" ]
	[ ! -e "$TD/cdm-$host-$dead-1234abcd.tmp" ]
	[ -e "$TD/cdm-otherhost-$dead-0badcafe.tmp" ]
	[ -e "$TD/cdm-$host-$$-0badcafe.tmp" ]
	[ -e "$TD/cdm-$host-$dead-0badcafe.keep" ]
	[ -e "$TD/cdm-notes.tmp" ]
	rm -f "$TD"/cdm-* "$OD/out" "$OD/err"
}

@test "a live run's test file is never removed, even seen from another PID namespace" {
	command -v unshare > /dev/null || skip "unshare not installed"
	unshare -pf --mount-proc true 2> /dev/null || skip "cannot create a PID namespace here"
	start_cdm --quiet --size 64MiB --count 3 --time 2 --warmup 0 --interval 0 --test RND4K "$TD"
	wait_for_file
	live=$(find "$TD" -name 'cdm-*.tmp')
	# in a new PID namespace the live run's PID does not exist
	run unshare -pf --mount-proc "$CDM" "${QUICK[@]}" --engine null --test RND4K "$TD"
	[ "$status" -eq 0 ]
	[[ "$output" != *"removed $live"* ]]
	[ -e "$live" ]
	wait "$PID"
	assert_clean "$TD"
}
