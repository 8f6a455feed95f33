#!/usr/bin/env bats
# Faults during a run and the limits of the kernel and the user (issue 6,
# items 3 and 5), and the unprivileged cases of item 1.
#
# Faults are made in three ways:
#  - build/tests/faultshim.so (tests/fault/faultshim.c), an LD_PRELOAD shim
#    that makes pwrite/pread/fallocate or libaio completions fail or come
#    back short after N calls (CDM_FAULT=call:fault:after[:len]);
#  - real devices, as root: an ext4 on a loop device whose backing file
#    lives on a small tmpfs (a thin-provisioned device that really runs out
#    of space), a loop device shrunk under a mounted filesystem (real EIO),
#    and a lazy unmount mid-run;
#  - build/tests/deny-syscall (tests/tools/deny-syscall.c), a launcher that
#    denies io_uring_setup or io_setup with a seccomp filter.
# Every case checks the message, the exit status and that no cdm-* file is
# left.  Device-mapper (dm-error, dm-flakey) is not used: this kernel has no
# device-mapper; the shrunk loop device gives the same EIO.

load helpers

TOOLS="$BATS_TEST_DIRNAME/../../build/tests"
SHIM="$TOOLS/faultshim.so"
DENY="$TOOLS/deny-syscall"
THIN=
# runs whose I/O is not what the test is about: the null engine on a
# simulated device (each I/O done 1 ms after it starts: its worker sleeps
# instead of spinning), one read pass of 0.2 s.  The test file is created,
# prepared (pwrite), marked and removed as for any engine.
NULLRUN=(--engine null --null-device lat=1ms --mode read --time 0.2)

teardown() {
	fs_teardown "$THIN"
}

# the first line of $output that is not a note or a warning (a tmpfs
# target, or a figure limited by the CPU, may put one of those first)
first_error() {
	printf '%s\n' "${lines[@]}" | grep -v '^cdm: \(note\|warning\): ' | head -n 1
}

# start_prepared DIR ARGS... - start cdm (ARGS, target DIR) in the
# background with the fault shim holding the preparation's first 4 MiB
# write, and wait until it is held: cdm has opened its test file by its
# path and sized it, and measures nothing until release_prepared, however
# slow the machine.  Sets pid, and f to the test file's path;
# stdout in $OD/out, stderr in $OD/err
start_prepared() {
	local dir=$1
	shift
	HOLD=$OD/hold
	mkdir -p "$HOLD"
	CDM_FAULT=pwrite:hold:0:4194304 CDM_FAULT_HOLD=$HOLD LD_PRELOAD=$SHIM \
		ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" \
		"$CDM" "$@" "$dir" > "$OD/out" 2> "$OD/err" &
	pid=$!
	wait_for "the preparation's first write to be held" held_or_ended "$HOLD/pwrite-4194304.held" "$pid"
	[ -e "$HOLD/pwrite-4194304.held" ] || fail "cdm ended before it prepared its test file: $(cat "$OD/err")"
	f=$(find "$dir" -name 'cdm-*.tmp')
	[ -n "$f" ] || fail "no test file in $dir while it is prepared"
}

release_prepared() {
	touch "$HOLD/pwrite-4194304.go"
}

# threads_at_least N - true once cdm ($pid) has N threads, or is gone
threads_at_least() {
	[ "$(ls "/proc/$pid/task" 2> /dev/null | wc -l)" -ge "$1" ] || ! kill -0 "$pid" 2> /dev/null
}

need_shim() {
	[ -f "$SHIM" ] || skip "build/tests/faultshim.so not built (make tools)"
}

# run cdm with the fault $1 injected; stdout in $OD/out, stderr in $OD/err
with_fault() {
	local fault=$1
	shift
	local st=0
	# an ASan build wants its runtime first; the shim only wraps libc calls
	CDM_FAULT=$fault LD_PRELOAD=$SHIM \
		ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" \
		timeout 60 "$CDM" "$@" > "$OD/out" 2> "$OD/err" || st=$?
	echo "status $st"; cat "$OD/err"
	return "$st"
}

@test "ENOSPC while pre-sizing the test file: named, exit 1, file removed" {
	need_shim
	run with_fault fallocate:ENOSPC:0 "${QUICK[@]}" --test RND4K "$TD"
	assert_failure 1
	assert_grep -E "^cdm: $TD/cdm-[^ ]+\.tmp: no space left to pre-size a 16 MiB test file$" "$OD/err"
	assert_clean "$TD"
}

@test "ENOSPC while writing the test file says how far it got" {
	need_shim
	# the preparation writes 4 MiB at a time: the third write fails
	run with_fault pwrite:ENOSPC:2:4194304 "${QUICK[@]}" --test RND4K "$TD"
	assert_failure 1
	assert_grep -E "^cdm: $TD/cdm-[^ ]+\.tmp: no space left after writing 8 MiB of the 16 MiB test file$" "$OD/err"
	assert_equal "$(stat -c %s "$OD/out")" 0
	assert_clean "$TD"
}

@test "EIO while preparing names the offset; a short write there is continued" {
	need_shim
	run with_fault pwrite:EIO:1:4194304 "${QUICK[@]}" --test RND4K "$TD"
	assert_failure 1
	assert_grep -E "^cdm: $TD/cdm-[^ ]+\.tmp: preparing the test file failed at offset 4194304: Input/output error$" "$OD/err"
	assert_clean "$TD"
	# write(2) may write less than asked: the rest is written next
	run with_fault pwrite:short:1:4194304 "${QUICK[@]}" "${NULLRUN[@]}" --test RND4K "$TD"
	assert_success
	assert_clean "$TD"
}

@test "EIO when the prepared file is flushed (fdatasync): named, file removed" {
	need_shim
	run with_fault fdatasync:EIO:0 "${QUICK[@]}" --test RND4K "$TD"
	assert_failure 1
	assert_grep -E "^cdm: $TD/cdm-[^ ]+\.tmp: fdatasync: Input/output error$" "$OD/err"
	assert_equal "$(stat -c %s "$OD/out")" 0
	assert_clean "$TD"
}

@test "an I/O error in a measured test: rows before it, spec, offset, errno, exit 1" {
	need_shim
	# the reads finish; the first 4 KiB write fails with EIO, or with
	# ENOSPC (the 21st did not come within a pass of 0.5 s of the real
	# disk, under ASan, beside the rest of make test)
	for e in EIO ENOSPC; do
		run with_fault "pwrite:$e:0:4096" "${QUICK[@]}" --engine sync \
			--test RND4K --test SEQ1M "$TD"
		assert_failure 1
		msg="Input/output error"
		[ "$e" = ENOSPC ] && msg="No space left on device"
		assert_grep -E "^cdm: $TD/cdm-[^ ]+\.tmp: RND4K Q1T1 Write: $msg at offset [0-9]+$" "$OD/err"
		assert_grep -x "cdm: the run stopped at the first I/O error: the report shows the tests measured before it; the test file was removed" "$OD/err"
		# the rows measured before the error are on stdout, the failed ones are not
		assert_grep -E '^  RND    4KiB \(Q=  1, T= 1\):' "$OD/out"
		assert_grep -E '^  SEQ    1MiB \(Q=  1, T= 1\):' "$OD/out"
		assert_grep -x '\[Read\]' "$OD/out"
		refute_grep -x '\[Write\]' "$OD/out"
		assert_clean "$TD"
	done
}

@test "a short read or write in a measured test is a failure with its offset" {
	need_shim
	run with_fault pread:short:20:4096 "${QUICK[@]}" --engine sync --test RND4K "$TD"
	assert_failure 1
	assert_grep -E "^cdm: $TD/cdm-[^ ]+\.tmp: RND4K Q1T1 Read: short read at offset [0-9]+$" "$OD/err"
	assert_clean "$TD"
	# only the writes: the reads of RND4K would come first; the third
	# write (a pass of 0.5 s on the real disk, under load, may not reach a
	# 21st)
	run with_fault pwrite:short:2:4096 "${QUICK[@]}" --engine sync --mode write --test RND4K "$TD"
	assert_failure 1
	assert_grep -E "^cdm: $TD/cdm-[^ ]+\.tmp: RND4K Q1T1 Write: short write at offset [0-9]+$" "$OD/err"
	assert_clean "$TD"
}

@test "EINVAL under O_DIRECT: the first write of the file, and an I/O of a test" {
	need_shim
	# a filesystem that takes O_DIRECT on open but refuses the I/O
	run with_fault pwrite:EINVAL:0:4194304 "${QUICK[@]}" --test RND4K "$TD"
	assert_failure 1
	assert_grep -E "^cdm: $TD: the [a-z0-9]+ filesystem accepted O_DIRECT but refused the first write \(Invalid argument\); run with --buffered$" "$OD/err"
	assert_clean "$TD"
	run with_fault pread:EINVAL:20:4096 "${QUICK[@]}" --engine sync --test RND4K "$TD"
	assert_failure 1
	assert_grep -E "^cdm: $TD/cdm-[^ ]+\.tmp: RND4K Q1T1 Read: Invalid argument at offset [0-9]+ \(O_DIRECT needs the block size and offsets aligned to the device's logical block size; try --buffered\)$" "$OD/err"
	assert_clean "$TD"
	# without O_DIRECT there is no alignment to blame
	run with_fault pread:EINVAL:20:4096 "${QUICK[@]}" --buffered --engine sync --test RND4K "$TD"
	assert_failure 1
	assert_grep -E "RND4K Q1T1 Read: Invalid argument at offset [0-9]+$" "$OD/err"
	assert_clean "$TD"
}

@test "the JSON report marks the failed test with errno and offset" {
	need_shim
	command -v jq > /dev/null || skip "jq not installed"
	run with_fault pread:EIO:20:4096 "${QUICK[@]}" --engine sync --test SEQ1M --test RND4K \
		--format json "$TD"
	assert_failure 1
	jq -e '.tests[0].complete == true and .tests[0].error == null' "$OD/out"
	jq -e '.tests[1].complete == false and .tests[1].error.errno == 5
		and .tests[1].error.message == "Input/output error"
		and (.tests[1].error.offset_bytes | type) == "number"' "$OD/out"
	off=$(jq '.tests[1].error.offset_bytes' "$OD/out")
	assert_grep "RND4K Q1T1 Read: Input/output error at offset $off$" "$OD/err"
	assert_clean "$TD"
}

@test "libaio: a failed or short completion stops the run the same way" {
	need_shim
	engine_works libaio || skip "$SKIP_WHY"
	run with_fault io_getevents:EIO:20:4096 "${QUICK[@]}" --engine libaio --test "RND4K Q8T2" "$TD"
	assert_failure 1
	assert_grep -E "^cdm: $TD/cdm-[^ ]+\.tmp: RND4K Q8T2 Read: Input/output error at offset [0-9]+$" "$OD/err"
	assert_clean "$TD"
	run with_fault io_getevents:short:20:4096 "${QUICK[@]}" --engine libaio --test "RND4K Q8T2" "$TD"
	assert_failure 1
	assert_grep -E "RND4K Q8T2 Read: short read at offset [0-9]+$" "$OD/err"
	assert_clean "$TD"
	# a refused submission names the first I/O of the batch: sequential
	# offsets start at 0 and only grow, so the 21st submission's is not 0
	run with_fault io_submit:EIO:20:4096 "${QUICK[@]}" --engine libaio --test "SEQ4K Q8T1" "$TD"
	assert_failure 1
	assert_grep -E "SEQ4K Q8T1 Read: Input/output error at offset [1-9][0-9]*$" "$OD/err"
	assert_clean "$TD"
}

# an AIO queue with no room (io_submit takes one iocb, then says EAGAIN, in
# turn) is busy, not broken: the rest of the batch waits for the next reap,
# for Q1 and Q32, reads and writes; depth kept and I/Os counted as usual
@test "libaio: a kernel that takes part of a batch and then says EAGAIN is busy: the test goes on" {
	need_shim
	for t in "RND4K Q32T1" "SEQ1M Q1T1"; do
		run with_fault io_submit:busy:10 "${QUICK[@]}" --engine libaio --test "$t" \
			--format json "$TD"
		echo "$output"
		assert_success
		assert_equal "$(jq '[.tests[] | select(.error == null and .passes_measured == 1)] | length' "$OD/out")" 2
		assert_equal "$(jq '[.tests[].passes[0].ios] | min > 0' "$OD/out")" true
		assert_clean "$TD"
	done
}

# an AIO queue that never has room again (every io_submit says EAGAIN
# after the 20th): once the I/O in flight has completed nothing can start,
# and after the worker's 1 s of asking again the test ends naming that,
# not as an I/O error at an offset; for Q1 and Q8, nothing left behind
@test "libaio: a kernel that never takes an I/O again is a busy engine, not an I/O error" {
	need_shim
	for t in "SEQ4K Q8T1" "RND4K Q1T1"; do
		# passes longer than the 1 s the worker asks for
		run with_fault io_submit:EAGAIN:20:4096 "${QUICK[@]}" --time 3 --engine libaio --test "$t" "$TD"
		echo "$output"
		assert_failure 1
		assert_grep -E -x "cdm: $TD/[^ ]*: $t (Read|Write): the libaio engine stayed busy for [0-9.]+ s with no I/O in flight \(the kernel kept refusing to start one: EAGAIN or EBUSY\); not an I/O error" "$OD/err"
		assert_grep -x "cdm: the run stopped at the first engine that stayed busy: the report shows the tests measured before it; the test file was removed" "$OD/err"
		refute_grep "offset" "$OD/err"
		refute_grep "I/O error:" "$OD/err"
		assert_clean "$TD"
	done
}

# an AIO queue with no room for the first 3000 submissions, then room
# again: with nothing in flight the worker pauses 100 us before each
# retry, so the engine is busy for 0.3 s at least, from the start of a
# pass of 0.2 s, and never for the 10,000 retries that end a test.  The
# pass measured nothing, and says the kernel refused to start I/O, not
# that the device stalled; JSON keeps the time as the pass's busy_ns.
# For Q1 and Q8 (a batch refused whole).
@test "libaio: a pass the kernel refused to start I/O in says so, not that the device stalled" {
	need_shim
	for t in "RND4K Q1T1" "RND4K Q8T1"; do
		run with_fault io_submit:EAGAIN:0:4096:3000 "${QUICK[@]}" --time 0.2 \
			--engine libaio --mode read --test "$t" --format json "$TD"
		echo "$output"
		assert_failure 1
		assert_grep -E "^cdm: $t Read measured nothing: no I/O completed in the 0.2 s pass; .*the kernel refused to start any I/O for [0-9.]+ s of it \(the engine busy: EAGAIN or EBUSY, nothing in flight\), not the device" "$OD/err"
		assert_grep -E "^cdm: .* has 1 test without figures: the kernel refused to start I/O, as said above$" "$OD/err"
		refute_grep "stalled device" "$OD/err"
		assert_equal "$(jq '.tests[0].passes[0].busy_ns > 0 and .tests[0].passes[0].ios == 0' "$OD/out")" true
		assert_clean "$TD"
	done
}

@test "a report that cannot be written (ENOSPC: /dev/full) is an error naming why" {
	run "$CDM" "${QUICK[@]}" "${NULLRUN[@]}" --test RND4K --output /dev/full "$TD"
	echo "$output"
	assert_failure 1
	e=$(first_error)
	assert_equal "$e" "cdm: /dev/full: writing the report failed: No space left on device"
	assert_clean "$TD"
	st=0
	"$CDM" "${QUICK[@]}" "${NULLRUN[@]}" --test RND4K --format json "$TD" > /dev/full 2> "$OD/err" || st=$?
	cat "$OD/err"
	assert_equal "$st" 1
	assert_grep -x "cdm: stdout: writing the report failed: No space left on device" "$OD/err"
	assert_clean "$TD"
}

@test "the test file deleted by another process mid-run: warned, measured to the end" {
	need_shim
	# deleted while it is prepared: its read and write tests run on it deleted
	start_prepared "$TD" "${QUICK[@]}" --engine sync --test RND4K
	rm -f "$f"
	release_prepared
	st=0
	wait "$pid" || st=$?
	cat "$OD/err"
	assert_equal "$st" 0
	assert_grep -x "cdm: warning: $f: the test file was deleted by another process during the run; cdm measured it to the end through its open descriptor" "$OD/err"
	assert_grep -E '^  RND    4KiB \(Q=  1, T= 1\):' "$OD/out"
	assert_clean "$TD"
}

# --- real devices (root, loop devices) ---

loop_ext4() {	# $1 = image path, $2 = image size
	[ "$(id -u)" -eq 0 ] || skip "needs root for loop devices"
	command -v losetup > /dev/null || skip "losetup not installed"
	command -v mkfs.ext4 > /dev/null || skip "mkfs.ext4 not installed"
	MNT="$TD/mnt"
	mkdir -p "$MNT"
	truncate -s "$2" "$1"
	mkfs_ext4 "$1" || skip "mkfs.ext4 failed"
	LOOP=$(losetup -f --show "$1") || skip "no loop device available"
	mount "$LOOP" "$MNT" || skip "cannot mount ext4 on $LOOP"
}

@test "a thin-provisioned device that runs out of space while the file is written" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to mount"
	THIN="$TD/thin"
	mkdir -p "$THIN"
	# the filesystem believes it has ~200 MiB; the device behind it has 48
	mount -t tmpfs -o size=48M tmpfs "$THIN" || skip "cannot mount tmpfs"
	loop_ext4 "$THIN/img" 256M
	run timeout 60 "$CDM" "${QUICK[@]}" --size 96MiB --engine sync --test SEQ1M "$MNT"
	echo "$output"
	assert_failure 1
	assert_output --regexp "cdm: $MNT/cdm-[^ ]+\.tmp: no space left after writing [0-9]+ MiB of the 96 MiB test file"
	assert_clean "$MNT"
}

# shrink the device under a read test with engine $1 and spec $2
shrink_under_run() {
	loop_ext4 "$TD/img" 128M
	"$CDM" "${QUICK[@]}" --size 64MiB --time 5 --engine "$1" --test "$2" \
		--mode read "$MNT" > "$OD/out" 2> "$OD/err" &
	pid=$!
	# the worker threads exist once the file is prepared and the test runs
	wait_for "cdm's worker threads" threads_at_least 3
	truncate -s 16M "$TD/img"
	losetup -c "$LOOP"
	st=0
	wait "$pid" || st=$?
	cat "$OD/err"
	assert_equal "$st" 1
	assert_grep -E "^cdm: $MNT/cdm-[^ ]+\.tmp: $2 Read: Input/output error at offset [0-9]+$" "$OD/err"
	assert_grep -x "cdm: the run stopped at the first I/O error: the report shows the tests measured before it; the test file was removed" "$OD/err"
	assert_clean "$MNT"
}

@test "a device that shrinks under a run: real EIO, named with its offset (sync)" {
	shrink_under_run sync "RND4K Q1T2"
}

@test "a device that shrinks under a run: real EIO, named with its offset (io_uring)" {
	engine_works io_uring || skip "$SKIP_WHY"
	shrink_under_run io_uring "RND4K Q8T2"
}

@test "the target lazily unmounted mid-run: the file is still removed from it" {
	need_shim
	loop_ext4 "$TD/img" 128M
	# unmounted while the file is prepared: every test runs on it detached
	start_prepared "$MNT" "${QUICK[@]}" --engine sync --test RND4K
	umount -l "$MNT"
	release_prepared
	st=0
	wait "$pid" || st=$?
	cat "$OD/err"
	assert_equal "$st" 0
	assert_grep -x "cdm: warning: $f: the target was unmounted or moved during the run; the test file was removed through the directory cdm held open" "$OD/err"
	# mount it again: nothing of cdm's is left on the volume
	wait_for "$LOOP mounted again on $MNT" mount "$LOOP" "$MNT"
	assert_clean "$MNT"
}

# --- engines the kernel does not permit (seccomp) ---

need_deny() {
	[ -x "$DENY" ] || skip "build/tests/deny-syscall not built (make tools)"
	"$DENY" io_uring_setup true 2> /dev/null || skip "cannot install a seccomp filter here"
}

@test "io_uring denied by seccomp: --engine io_uring names the cause, exit 1" {
	need_deny
	engine_works io_uring || skip "$SKIP_WHY"
	run "$DENY" io_uring_setup "$CDM" "${QUICK[@]}" --engine io_uring --test RND4K "$TD"
	echo "$output"
	assert_failure 1
	assert_line --index 0 "cdm: the io_uring engine does not work here: io_uring_setup is refused with EPERM by a seccomp filter on this process, as a container's profile may do"
	assert_clean "$TD"
}

@test "auto falls back past an engine seccomp denies, with a note" {
	need_deny
	engine_works io_uring || skip "$SKIP_WHY"
	engine_works libaio || skip "$SKIP_WHY"
	# the engine is picked before any test: one read pass shows it
	run "$DENY" io_uring_setup "$CDM" "${QUICK[@]}" --mode read --test RND4K "$TD"
	echo "$output"
	assert_success
	assert_output --partial "cdm: note: engine io_uring does not work here (io_uring_setup is refused with EPERM by a seccomp filter on this process, as a container's profile may do); using libaio"
	assert_output --partial "(libaio, O_DIRECT)"
	# both denied: down to sync, one note each
	run "$DENY" io_uring_setup,io_setup "$CDM" "${QUICK[@]}" --mode read --test RND4K "$TD"
	assert_success
	assert_line --regexp "engine io_uring does not work here .*; using sync"
	assert_line --regexp "engine libaio does not work here \(io_setup is refused with EPERM by a seccomp filter.*; using sync"
	assert_output --partial "(sync, O_DIRECT)"
	assert_clean "$TD"
}

@test "libaio denied by seccomp: --engine libaio names the cause, exit 1" {
	need_deny
	engine_works libaio || skip "$SKIP_WHY"
	run "$DENY" io_setup "$CDM" "${QUICK[@]}" --engine libaio --test RND4K "$TD"
	echo "$output"
	assert_failure 1
	assert_line --index 0 "cdm: the libaio engine does not work here: io_setup is refused with EPERM by a seccomp filter on this process, as a container's profile may do"
	assert_clean "$TD"
}

# --- limits ---

@test "Q x T beyond fs.aio-max-nr is refused before the test file is written" {
	engine_works libaio || skip "$SKIP_WHY"
	max=$(cat /proc/sys/fs/aio-max-nr) || skip "no /proc/sys/fs/aio-max-nr"
	used=$(cat /proc/sys/fs/aio-nr)
	# 1024 x 128 = 131072 events; the buffers are only 512 B x 1024 per thread
	[ $((used + 131072)) -gt "$max" ] || skip "fs.aio-max-nr ($max) is larger than this test reaches"
	run "$CDM" "${QUICK[@]}" --engine libaio --test "RND512B Q1024T128" "$TD"
	echo "$output"
	assert_failure 1
	e=$(first_error)
	assert_regex "$e" "^cdm: RND512B Q1024T128 needs 131072 libaio events \(Q x T\), more than fs\.aio-max-nr leaves \([0-9]+ of $max in use; see /proc/sys/fs/aio-max-nr\)\$"
	assert_clean "$TD"
}

@test "fs.aio-max-nr used up by others: the probe, and a setup that loses the race" {
	need_shim
	engine_works libaio || skip "$SKIP_WHY"
	# io_setup fails with EAGAIN from the first call (the probe)
	run with_fault io_setup:EAGAIN:0 "${QUICK[@]}" --engine libaio --test "RND4K Q8T1" "$TD"
	assert_failure 1
	assert_grep -x "cdm: the libaio engine does not work here: fs.aio-max-nr reached (see /proc/sys/fs/aio-max-nr)" "$OD/err"
	assert_clean "$TD"
	# the probe succeeds, the worker's io_setup after the preparation fails
	run with_fault io_setup:EAGAIN:1 "${QUICK[@]}" --engine libaio --test "RND4K Q8T1" "$TD"
	assert_failure 1
	assert_grep -E "^cdm: RND4K Q8T1: the libaio engine could not be set up on $TD/cdm-[^ ]+\.tmp: Resource temporarily unavailable; libaio: io_setup\(8\) exceeds the system-wide limit in /proc/sys/fs/aio-max-nr$" "$OD/err"
	assert_clean "$TD"
}

# issue 25, item 8: --sqpoll was tried only by the workers' ring setup,
# after the test file had been made and written; a device target failed
# there too.  The engine sets up a ring with SQPOLL first (the shim makes
# liburing's setup of one fail as a kernel that refuses it would): one
# line, exit 1, no file, the same on a directory and on a device.
@test "--sqpoll refused by the kernel: one line and exit 1 before any file, on a directory and a device" {
	need_shim
	engine_works io_uring || skip "$SKIP_WHY"
	command -v strace > /dev/null || skip "strace not installed: no way to see that no file is created"
	CDM_FAULT=sqpoll:EPERM:0 LD_PRELOAD=$SHIM ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" \
		run traced -f -qq -e trace=open,openat,creat -o "$OD/trace" \
		"$CDM" "${QUICK[@]}" --engine io_uring --sqpoll --test "RND4K Q4T1" --mode read "$TD"
	echo "$output"
	assert_failure 1
	assert_equal "$(first_error)" "cdm: $TD: io_uring: SQPOLL not permitted for this user (--sqpoll); run without --sqpoll"
	refute_grep -F "\"$TD/" "$OD/trace"
	assert_clean "$TD"
	# a kernel that does not know the flag, as the workers' setup says it
	run with_fault sqpoll:EINVAL:0 "${QUICK[@]}" --engine io_uring --sqpoll --test "RND4K Q4T1" --mode read "$TD"
	assert_failure 1
	assert_grep -x "cdm: $TD: io_uring: this kernel refuses SQPOLL (--sqpoll); run without --sqpoll" "$OD/err"
	assert_clean "$TD"
	# the same on a device, before it is read
	[ "$(id -u)" -eq 0 ] || skip "needs root for a loop device"
	command -v losetup > /dev/null || skip "losetup not installed"
	truncate -s 32M "$TD/img"
	LOOP=$(losetup -f --show "$TD/img") || skip "no loop device available"
	run with_fault sqpoll:EPERM:0 "${QUICK[@]}" --engine io_uring --sqpoll --test "RND4K Q4T1" --mode read "$LOOP"
	assert_failure 1
	assert_grep -x "cdm: $LOOP: io_uring: SQPOLL not permitted for this user (--sqpoll); run without --sqpoll" "$OD/err"
	assert_equal "$(grep -vc '^cdm: \(note\|warning\): ' "$OD/err")" 1
	assert_equal "$(wc -c < "$OD/out")" 0
	# and without the fault, --sqpoll runs there
	run "$CDM" "${QUICK[@]}" --engine io_uring --sqpoll --test "RND4K Q4T1" --mode read "$LOOP"
	assert_success
	assert_line --regexp '^  RND    4KiB \(Q=  4, T= 1\):'
}

@test "io_uring rings beyond RLIMIT_NOFILE are refused before the test file is written" {
	command -v prlimit > /dev/null || skip "prlimit not installed"
	engine_works io_uring || skip "$SKIP_WHY"
	run prlimit --nofile=20 "$CDM" "${QUICK[@]}" --engine io_uring --test "RND4K Q1T32" "$TD"
	echo "$output"
	assert_failure 1
	e=$(first_error)
	assert_regex "$e" "^cdm: RND4K Q1T32 needs 32 io_uring descriptors \(one ring per thread\) plus [0-9]+ of its own, more than RLIMIT_NOFILE allows \(ulimit -n is 20\)\$"
	assert_clean "$TD"
}

# fresh_uid - a uid of this test alone: no user of the machine, no process
# running as it.  RLIMIT_NPROC counts a user's processes and io_uring
# charges registered buffers and rings to the user's locked memory, so a
# uid shared with another test (of this run, or of another run of the
# suite on the machine: a fixed 54321 was, and two tests failed there)
# lends it their threads and their memory.
fresh_uid() {
	local u
	while :; do
		u=$((2000000000 + ((RANDOM << 15) | RANDOM) % 1000000000))
		getent passwd "$u" > /dev/null && continue
		ps -e -o uid= | grep -qx " *$u" && continue
		echo "$u"
		return
	done
}

# the uids of a test (need_setpriv sets them)
UID_A=
UID_B=

as_user() {	# $1 = uid, rest = command
	local u=$1
	shift
	setpriv --reuid="$u" --regid="$u" --clear-groups "$@"
}

need_setpriv() {
	[ "$(id -u)" -eq 0 ] || skip "needs root to switch users"
	command -v setpriv > /dev/null || skip "setpriv not installed"
	command -v prlimit > /dev/null || skip "prlimit not installed"
	UID_A=$(fresh_uid)
	UID_B=$(fresh_uid)
	chmod 777 "$TD"
}

@test "more threads than RLIMIT_NPROC: refused up front, or named at setup" {
	need_setpriv
	run as_user $UID_A prlimit --nproc=8 "$CDM" "${QUICK[@]}" --engine sync --test "RND4K Q1T16" "$TD"
	echo "$output"
	assert_failure 1
	e=$(first_error)
	assert_equal "$e" "cdm: RND4K Q1T16 needs 16 worker threads, more than RLIMIT_NPROC allows this user (ulimit -u is 8)"
	assert_clean "$TD"
	# the up-front check cannot see the user's other processes: three
	# sleeps take the room, so the third thread cannot start
	run as_user $UID_B prlimit --nproc=7 sh -c '
		sleep 30 & a=$!; sleep 30 & b=$!; sleep 30 & c=$!
		"$@"; st=$?; kill $a $b $c; exit $st' sh \
		"$CDM" "${QUICK[@]}" --engine sync --test "RND4K Q1T4" "$TD"
	echo "$output"
	assert_failure 1
	assert_output --regexp "cdm: RND4K Q1T4: cannot start worker thread [0-9] of 4: Resource temporarily unavailable \(RLIMIT_NPROC \(ulimit -u\) is 7; kernel\.threads-max is [0-9]+\)"
	assert_clean "$TD"
}

@test "a memlock limit too small for io_uring's registered buffers is not an error" {
	need_setpriv
	engine_works io_uring || skip "$SKIP_WHY"
	# root is not held to RLIMIT_MEMLOCK (CAP_IPC_LOCK): run as a user
	run as_user $UID_A prlimit --memlock=65536 "$CDM" "${QUICK[@]}" --engine io_uring \
		--mode read --test "RND4K Q32T1" "$TD"
	echo "$output"
	assert_success
	assert_output --regexp "cdm: note: io_uring: cannot register 2048 KiB of buffers \(.*; see ulimit -l\); running unregistered"
	assert_output --partial "(io_uring, O_DIRECT)"
	assert_clean "$TD"
}

@test "no memlock at all: io_uring cannot make its ring, named; auto falls back" {
	need_setpriv
	engine_works io_uring || skip "$SKIP_WHY"
	run as_user $UID_A prlimit --memlock=0 "$CDM" "${QUICK[@]}" --engine io_uring --test RND4K "$TD"
	echo "$output"
	[[ "$output" == *"ring memory refused"* ]] || skip "this kernel does not charge io_uring rings to RLIMIT_MEMLOCK"
	assert_failure 1
	assert_line --index 0 "cdm: the io_uring engine does not work here: ring memory refused: RLIMIT_MEMLOCK too low for this user (ulimit -l)"
	assert_clean "$TD"
	run as_user $UID_A prlimit --memlock=0 "$CDM" "${QUICK[@]}" --mode read --test RND4K "$TD"
	assert_success
	assert_output --partial "cdm: note: engine io_uring does not work here (ring memory refused: RLIMIT_MEMLOCK too low for this user (ulimit -l)); using "
	assert_clean "$TD"
}

@test "an unprivileged run leaves another user's stale file alone" {
	need_setpriv
	host=$(hostname)
	sh -c 'exit 0' & dead=$!
	wait $dead
	stale="$TD/cdm-$host-$dead-0badf00d.tmp"
	touch "$stale"
	chown $UID_A:$UID_A "$stale"
	# the directory is 0777 without the sticky bit: only cdm's owner check
	# keeps the other user's file
	run as_user $UID_B "$CDM" "${QUICK[@]}" "${NULLRUN[@]}" --test RND4K "$TD"
	echo "$output"
	assert_success
	refute_output --partial "removed $stale"
	[ -e "$stale" ] || fail "$stale, another user's, was removed"
	# its owner's run removes it
	run as_user $UID_A "$CDM" "${QUICK[@]}" "${NULLRUN[@]}" --test RND4K "$TD"
	assert_success
	assert_output --partial "cdm: note: removed $stale, left by a cdm run (pid $dead) that no longer exists"
	assert_clean "$TD"
}

# --keep when the mark cannot be written: the file is not kept under a
# .keep name that --file would refuse; it is removed and a warning says
# why, the run's figures stand (exit 0)
@test "--keep: a mark that cannot be written (xattr refused, or no xattrs and no sidecar) removes the file and says so" {
	need_shim
	for f in fsetxattr:ENOSPC:0 fsetxattr:EROFS:0 nomark:EROFS:0 nomark:ENOSPC:0; do
		run with_fault "$f" "${QUICK[@]}" "${NULLRUN[@]}" --test RND4K --keep "$TD"
		echo "$f"
		assert_success
		case $f in
		fsetxattr:ENOSPC:*) why="cannot set its mark \(xattr user\.cdm\.testfile\): No space left on device" ;;
		fsetxattr:EROFS:*) why="cannot set its mark \(xattr user\.cdm\.testfile\): Read-only file system" ;;
		nomark:EROFS:*) why="the filesystem has no user xattrs and the mark file $TD/cdm-[^ ]+\.keep\.cdm cannot be written: Read-only file system" ;;
		nomark:ENOSPC:*) why="the filesystem has no user xattrs and the mark file $TD/cdm-[^ ]+\.keep\.cdm cannot be written: No space left on device" ;;
		esac
		assert_grep -E "^cdm: warning: $TD/cdm-[^ ]+\.tmp: cannot keep the test file: $why; it was removed$" "$OD/err"
		refute_grep "kept the test file" "$OD/err"
		assert_clean "$TD"
	done
}

@test "--keep on a filesystem without user xattrs writes the sidecar, and --file takes the file" {
	need_shim
	run with_fault fsetxattr:ENOTSUP:0 "${QUICK[@]}" "${NULLRUN[@]}" --test RND4K --keep "$TD"
	assert_success
	kept=$(find "$TD" -name 'cdm-*.keep')
	[ -f "$kept" ] || fail "no cdm-*.keep in $TD after a run with --keep"
	[ -f "$kept.cdm" ] || fail "no sidecar $kept.cdm beside the kept file"
	assert_grep "^cdm test file v2 size=16777216 ino=" "$kept.cdm"
	run with_fault fsetxattr:ENOTSUP:0 --quiet --count 1 --warmup 0 --interval 0 \
		"${NULLRUN[@]}" --test RND4K --file "$kept"
	assert_success
	rm -f "$kept" "$kept.cdm"
}
