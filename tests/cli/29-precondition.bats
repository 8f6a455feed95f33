#!/usr/bin/env bats
# --precondition (issue 14, item 1): before the tests the test file (or a
# block device, with --allow-destructive-write) is written sequentially
# twice in 128 KiB writes, as SNIA PTS's workload-independent
# preconditioning does; a new file's first pass is its preparation.  What
# the writes are is read from strace (the system calls), never from cdm's
# own words; a loop device this file creates on an image in $TD is always
# detached again.

load helpers

SIZE=$((16 << 20))
BLK=131072
TOOLS="$BATS_TEST_DIRNAME/../../build/tests"
SHIM="$TOOLS/faultshim.so"
LOOP=

teardown() {
	[ -z "$LOOP" ] || detach_loop "$LOOP"
	chmod -R u+rwx "$TD" 2>/dev/null
	rm -rf "$TD" "$OD"
}

need_strace() {
	command -v strace > /dev/null || skip "strace not installed"
}

# writes.py TRACE: the file's writes and flushes before the first test
# I/O, from strace -f -s 0 output (a call cut by another thread's is
# "<unfinished ...>", its arguments are all on that first line).  Prints
# one key=value line: w128k (128 KiB writes), w4m (4 MiB writes), other
# (writes of any other size before the tests), passes (how many times
# every 128 KiB block of the SIZE bytes was written, or "uneven"), first
# (how many distinct blocks the 128 KiB writes before the first fdatasync
# covered), syncs (fdatasync calls before the tests), after (128 KiB
# writes after the first test I/O), tests (test I/Os seen)
writes() {
	python3 - "$1" "$SIZE" "$BLK" <<'EOF'
import re, sys
trace, size, blk = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
call = re.compile(r'^\d+ +(pwrite64|pread64|fdatasync)\((\d+)(?:, .*?, (\d+), (\d+))?(?:\)| <unfinished)')
w128 = w4m = other = syncs = after = tests = 0
count = {}
first = set()
for line in open(trace):
    m = call.match(line)
    if not m:
        continue
    name, n, off = m.group(1), m.group(3), m.group(4)
    if name == 'fdatasync':
        if not tests:
            syncs += 1
        continue
    n, off = int(n), int(off)
    if n == 4096:                       # the tests' RND4K I/O
        tests += 1
        continue
    if name != 'pwrite64':
        continue
    if tests:
        after += n == blk
        continue
    if n == blk:
        w128 += 1
        count[off] = count.get(off, 0) + 1
        if syncs == 0:
            first.add(off)
    elif n == 4 << 20:
        w4m += 1
    else:
        other += 1
vals = set(count.values())
whole = sorted(count) == list(range(0, size, blk))
passes = vals.pop() if whole and len(vals) == 1 else 'uneven'
print(f'w128k={w128} w4m={w4m} other={other} passes={passes} first={len(first)} '
      f'syncs={syncs} after={after} tests={tests}')
EOF
}

# strace cdm with --precondition (and $@: a TARGET or --file) with the
# sync engine and RND4K tests, so each test I/O is one 4 KiB pread64 or
# pwrite64; passes of 0.5 s (the real disk: one of 0.1 s on a loaded
# machine has been seen to complete no I/O)
traced_run() {
	traced -f -qq -s 0 -o "$OD/trace" -e trace=pwrite64,pread64,fdatasync \
		"$CDM" --precondition --engine sync -t RND4K --count 1 \
		--time 0.5 --interval 0 --warmup 0 --quiet "$@" > "$OD/out" 2> "$OD/err"
}

@test "a new file: written twice in 128 KiB writes (the first pass its preparation), flushed after each pass, before the first test I/O" {
	need_strace
	traced_run --size 16MiB "$TD"
	cat "$OD/err"
	assert_grep -E '^cdm: note: preconditioned 16 MiB in [0-9]+\.[0-9] s \(2 sequential passes of 128 KiB writes, the first the preparation\)$' "$OD/err"
	assert_grep -x '\[Write\]' "$OD/out"
	res=$(writes "$OD/trace")
	echo "$res"
	# 2 x 16 MiB in 128 KiB writes, every block twice, the preparation's
	# 4 MiB writes replaced by the first pass; one fdatasync per pass
	assert_like "$res" '"w128k=256 w4m=0 other=0 passes=2 first=128 syncs=2 after=0 tests="*'
	assert [ "${res##*tests=}" -gt 0 ]
	assert_clean "$TD"
}

@test "without --precondition the preparation is one pass of 4 MiB writes (what --precondition replaces)" {
	need_strace
	traced -f -qq -s 0 -o "$OD/trace" -e trace=pwrite64,pread64,fdatasync \
		"$CDM" --engine sync -t RND4K --size 16MiB --count 1 --time 0.5 --interval 0 \
		--warmup 0 --quiet "$TD" > "$OD/out" 2> "$OD/err"
	res=$(writes "$OD/trace")
	echo "$res"
	assert_like "$res" '"w128k=0 w4m=4 other=0 passes=uneven first=0 syncs=1 after=0 tests="*'
	assert_equal "$(grep precondition "$OD/err")" ""
}

@test "a kept file (--file): both passes written, no preparation; the data is stamped, in place, unique" {
	need_strace
	run "$CDM" "${QUICK[@]}" -t RND4K --mode read --keep "$TD"
	assert_success
	kept=$(find "$TD" -name 'cdm-*.keep')
	assert [ -n "$kept" ]
	# read tests only: the note says what preconditioning brings them
	traced_run --mode read --file "$kept"
	cat "$OD/err"
	assert_grep -E '^cdm: note: preconditioned 16 MiB in [0-9]+\.[0-9] s \(2 sequential passes of 128 KiB writes\)$' "$OD/err"
	assert_grep -x 'cdm: note: --precondition before read tests only: every block is written as SNIA PTS does before its read tests, so no read meets a block never written' "$OD/err"
	res=$(writes "$OD/trace")
	echo "$res"
	assert_like "$res" '"w128k=256 w4m=0 other=0 passes=2 first=128 syncs=2 after=0 tests="*'
	# what is left is the preconditioning's data: every sector stamped
	# with its own offset as the preparation's, none a copy of another
	run python3 "$BATS_TEST_DIRNAME/../tools/sectors.py" "$kept"
	echo "$output"
	assert_like "$output" '"sectors=32768 repeated=0 written=0 misplaced=0 "*'
	rm -f "$kept" "$kept.cdm"
}

@test "--data zero: the preconditioning writes zeros" {
	run "$CDM" "${QUICK[@]}" -t RND4K --mode read --data zero --precondition --keep "$TD"
	assert_success
	kept=$(find "$TD" -name 'cdm-*.keep')
	cmp -n "$SIZE" "$kept" /dev/zero
	rm -f "$kept" "$kept.cdm"
}

@test "progress: each pass shown, a percentage only once a byte of it is written" {
	command -v script > /dev/null || skip "script (util-linux) is not installed"
	# the progress line is drawn only on a terminal: script gives cdm one
	script -q -e -c "'$CDM' --precondition --engine null -t 'SEQ1M Q1T1' --mode read --size 16MiB --count 1 --time 0.2 --interval 0 --warmup 0 '$TD'" "$OD/tty.log" > /dev/null
	tr '\r' '\n' < "$OD/tty.log" | sed 's/\x1b\[K//g' > "$OD/lines.txt"
	cat "$OD/lines.txt"
	# no time left before a byte is written: nothing measured to base it on
	assert_grep -x 'Preconditioning: pass 1 of 2' "$OD/lines.txt"
	# from then on, at the rate so far, the preconditioning and the test
	assert_grep -E '^Preconditioning: pass 2 of 2  [0-9]+s left$' "$OD/lines.txt"
	assert_grep -E '^Preconditioning: pass 1 of 2, 100%  [0-9]+s left$' "$OD/lines.txt"
	assert_grep -E '^Preconditioning: pass 2 of 2, 100%  [0-9]+s left$' "$OD/lines.txt"
	assert_grep -E '^Preconditioning: pass 2 of 2, [1-9][0-9]?%  [0-9]+s left$' "$OD/lines.txt"
	assert_equal "$(grep -E 'pass [12] of 2, 0%' "$OD/lines.txt")" ""
	# the preparation is the first pass: not shown apart
	assert_equal "$(grep 'Preparing test file' "$OD/lines.txt")" ""
	assert_clean "$TD"
}

@test "a block device: refused in one line without --allow-destructive-write, content unchanged; with it, written whole before read tests" {
	[ "$(id -u)" -eq 0 ] || skip "needs root for loop devices"
	command -v losetup > /dev/null || skip "losetup not installed"
	dd if=/dev/urandom of="$TD/img" bs=1M count=16 status=none
	LOOP=$(losetup -f --show "$TD/img") || skip "no loop device available"
	before=$(md5sum < "$TD/img")
	# read tests only (a device's default): --precondition still writes it
	run "$CDM" --precondition --count 1 --time 0.5 --interval 0 --warmup 0 --quiet -t RND4K "$LOOP"
	echo "$output"
	assert_failure 2
	assert_equal "${#lines[@]}" 1
	assert_line --index 0 "cdm: $LOOP: --precondition writes the whole device (all of --size) twice, overwriting its data: add --allow-destructive-write to run it"
	blockdev --flushbufs "$LOOP" 2> /dev/null || true
	assert_equal "$(md5sum < "$TD/img")" "$before"
	# allowed: every sector of it now the preconditioning's, then read
	run "$CDM" --precondition --allow-destructive-write --count 1 --time 0.5 --interval 0 \
		--warmup 0 --quiet -t RND4K "$LOOP"
	echo "$output"
	assert_success
	assert_like "$output" '*"cdm: note: preconditioned 16 MiB in "*" s (2 sequential passes of 128 KiB writes, the first the preparation)"*'
	assert_output --partial "[Read]"
	refute_output --partial "[Write]"
	blockdev --flushbufs "$LOOP" 2> /dev/null || true
	run python3 "$BATS_TEST_DIRNAME/../tools/sectors.py" "$TD/img"
	echo "$output"
	assert_like "$output" '"sectors=32768 repeated=0 written=0 misplaced=0 "*'
}

@test "a signal while preconditioning stops it: exit 128+N, no test file left, no note" {
	[ -f "$SHIM" ] || skip "build/tests/faultshim.so not built (make tools)"
	# the 21st 128 KiB write (inside the first pass) waits, held by the
	# fault shim, until the signal has been sent: it lands inside the
	# preconditioning however slow the machine
	for sig in INT:130 TERM:143; do
		HOLD=$OD/hold
		rm -rf "$HOLD"
		mkdir "$HOLD"
		# set -m: a background job of a non-interactive shell ignores SIGINT otherwise
		set -m
		CDM_FAULT=pwrite:hold:20:$BLK CDM_FAULT_HOLD=$HOLD LD_PRELOAD=$SHIM \
			ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" \
			"$CDM" "${QUICK[@]}" --precondition -t RND4K "$TD" > "$OD/out" 2> "$OD/err" &
		pid=$!
		set +m
		wait_for "a 128 KiB write of the preconditioning to be held" \
			held_or_ended "$HOLD/pwrite-$BLK.held" "$pid"
		kill -s "${sig%:*}" "$pid"
		touch "$HOLD/pwrite-$BLK.go"
		st=0
		wait "$pid" || st=$?
		cat "$OD/err"
		assert_equal "$st" "${sig#*:}"
		assert_grep "^cdm: interrupted by " "$OD/err"
		refute_grep 'preconditioned' "$OD/err"
		# the report has the run's settings and no test row
		refute_grep -E '^  (SEQ|RND) ' "$OD/out"
		# the setting is kept, and said not to have completed
		assert_grep "<Precondition>" "$OD/out"
		assert_grep -x "Precondition: did not complete" "$OD/out"
		assert_clean "$TD"
	done
}

@test "an interrupted preconditioning keeps the setting in JSON, complete false; it reads back" {
	[ -f "$SHIM" ] || skip "build/tests/faultshim.so not built (make tools)"
	# the shim raises SIGTERM during the 21st 128 KiB write: inside the first pass
	st=0
	CDM_FAULT=pwrite:term:20:$BLK LD_PRELOAD=$SHIM \
		ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" \
		"$CDM" "${QUICK[@]}" --precondition -t RND4K -f json "$TD" > "$OD/p.json" 2> "$OD/err" || st=$?
	cat "$OD/err"
	assert_equal "$st" 143
	python3 - "$OD/p.json" <<'PY'
import json, sys
pc = json.load(open(sys.argv[1]))["settings"]["precondition"]
assert pc is not None and pc["complete"] is False and pc["time_ns"] is None, pc
PY
	"$CDM" report "$OD/p.json" > "$OD/p.txt"
	assert_grep -x "Precondition: did not complete" "$OD/p.txt"
	"$CDM" report -f markdown "$OD/p.json" | assert_grep "preconditioning did not complete" -
	"$CDM" report -f svg "$OD/p.json" | assert_grep "Preconditioning did not complete" -
	# a contradiction is refused
	sed 's/"complete": false/"complete": true/' "$OD/p.json" > "$OD/bad.json"
	run "$CDM" report "$OD/bad.json"
	assert_failure
	assert_like "$output" "*'settings.precondition: \"complete\" is true, but time_ns is null'*"
	assert_clean "$TD"
}

@test "an I/O error or ENOSPC while preconditioning names the file, the offset and the pass; nothing left" {
	[ -f "$SHIM" ] || skip "build/tests/faultshim.so not built (make tools)"
	# the 4th 128 KiB write fails (the first pass), then the 131st (the second)
	for f in 3:1 130:2; do
		st=0
		CDM_FAULT="pwrite:EIO:${f%:*}:$BLK" LD_PRELOAD=$SHIM \
			ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" \
			"$CDM" "${QUICK[@]}" --precondition -t RND4K "$TD" > "$OD/out" 2> "$OD/err" || st=$?
		cat "$OD/err"
		assert_equal "$st" 1
		line=$(grep -v '^cdm: \(note\|warning\): ' "$OD/err" | head -1)
		[[ "$line" =~ ^cdm:\ $TD/cdm-[^\ ]+\.tmp:\ preconditioning\ the\ test\ file\ failed\ at\ offset\ ([0-9]+)\ \(pass\ ${f#*:}\ of\ 2\):\ Input/output\ error$ ]] ||
			fail "not the line of a failed preconditioning write in pass ${f#*:}: $line"
		off=${BASH_REMATCH[1]}
		# a 128 KiB block of the file; 8 writes in flight, so any of the first
		assert [ $((off % BLK)) -eq 0 ]
		assert [ "$off" -lt "$SIZE" ]
		refute [ -s "$OD/out" ]
		assert_clean "$TD"
	done
	st=0
	CDM_FAULT="pwrite:ENOSPC:130:$BLK" LD_PRELOAD=$SHIM \
		ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" \
		"$CDM" "${QUICK[@]}" --precondition -t RND4K "$TD" > "$OD/out" 2> "$OD/err" || st=$?
	cat "$OD/err"
	assert_equal "$st" 1
	assert_grep -E "^cdm: $TD/cdm-[^ ]+\.tmp: no space left after writing ([0-9]+ MiB|[0-9]+ bytes) of the 16 MiB test file \(preconditioning, pass 2 of 2\)$" "$OD/err"
	assert_clean "$TD"
}
