#!/usr/bin/env bats
# Signals and leftovers: SIGINT/SIGTERM/SIGHUP, and every other signal that
# would end the process, stop the run, print the rows measured so far,
# remove the test file and exit 128 + signal; a closed stdout or stderr
# (EPIPE, EBADF, ENOSPC) does not kill cdm nor leave its file; a file left
# by kill -9 is removed by the next run, and only such files are.
#
# No test sleeps: each waits for the event it needs (a worker thread, the
# test file, the fault shim's hold, the progress line on a terminal); the
# wait for a run to end on a signal (wait_stopped) is a liveness guard (a
# run that ignored the signal would hang there), not a timing assertion.

load helpers

# runs whose I/O is not what the test is about: the null engine on a
# simulated device (each I/O done 1 ms after it starts: its worker sleeps
# instead of spinning), one read pass of 0.2 s.  The test file is created,
# prepared (pwrite) and removed as for any engine.
NULLRUN=(--engine null --null-device lat=1ms --mode read --time 0.2)

# start cdm in the background with args "$@"; sets PID, output in $OD/out/err
start_cdm() {
	"$CDM" "$@" > "$OD/out" 2> "$OD/err" &
	PID=$!
}

# start_held FAULT ARGS... - start_cdm ARGS with the fault shim's hold
# FAULT (<call>:hold:<after>[:<len>]): the call waits until
# $HOLD/<call>[-<len>].go exists ($HOLD/<call>[-<len>].held says it is
# held); skips without the shim
start_held() {
	local fault=$1
	shift
	SHIM=$BATS_TEST_DIRNAME/../../build/tests/faultshim.so
	[ -f "$SHIM" ] || skip "build/tests/faultshim.so not built (make tools)"
	HOLD=$OD/hold
	mkdir -p "$HOLD"
	CDM_FAULT=$fault CDM_FAULT_HOLD=$HOLD LD_PRELOAD=$SHIM \
		ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" \
		start_cdm "$@"
}

# start_held_read ARGS... - start_held of a sync read run (ARGS: its
# times and tests) whose first 4 KiB read is held (pread-4096)
start_held_read() {
	start_held pread:hold:0:4096 --quiet --size 16MiB --count 1 --warmup 0 --engine sync \
		--mode read "$@" "$TD"
}

# a test that failed before its cdm ended leaves none running (a device
# stalled for a day would hold it): killed, then the files removed
teardown() {
	if [ -n "${PID:-}" ] && kill -0 "$PID" 2> /dev/null; then
		kill -KILL "$PID" 2> /dev/null
		wait "$PID" 2> /dev/null || true
	fi
	chmod -R u+rwx "$TD" 2> /dev/null
	rm -rf "$TD" "$OD"
}

# is there a test file in $TD (the run has created it)?
test_file_there() {
	[ -n "$(find "$TD" -name 'cdm-*.tmp')" ]
}

# wait until a test file exists in $TD
wait_for_file() {
	wait_for "a test file in $TD" test_file_there
}

# wait_stopped SIG - wait for PID, sent SIG, to end; its exit status in ST
wait_stopped() {
	wait_for "cdm to end on SIG$1" ended "$PID" || { kill -9 "$PID"; return 1; }
	ST=0
	wait "$PID" || ST=$?
}

# send $1 to PID now; check exit status $2, the message and cleanup
interrupt_and_check() {
	kill -s "$1" "$PID"
	wait_stopped "$1"
	cat "$OD/err"
	assert_equal "$ST" "$2"
	assert_grep "interrupted by" "$OD/err"
	assert_clean "$TD"
}

# start cdm (ARGS) with a measured pass of 30 s and wait until its first
# worker thread is there: the signal a test sends next comes while it
# measures, and ends the run long before the pass would
start_measuring() {
	start_cdm --quiet --size 16MiB --count 1 --time 30 --warmup 0 --interval 0 "$@" "$TD"
	wait_for "cdm's first worker thread" has_thread "$PID" cdm-w0
}

@test "SIGINT while measuring: exit 130, rows so far on stdout, no file left" {
	# 30 passes of 0.5 s on a terminal: SIGINT once its progress line
	# shows the second pass, so the first is measured and the run far from
	# over
	tty_start "$OD" --size 16MiB --count 30 --time 0.5 --warmup 0 --interval 0 \
		--test RND4K --test SEQ128K --mode read "$TD"
	wait_for "RND4K's second pass" tty_shows "test 1 of 2  RND4K Q1T1 Read  pass 2/30"
	kill -INT "$PID"
	tty_wait
	cat "$OD/err"
	assert_equal "$TTY_STATUS" 130
	assert_grep "interrupted by" "$OD/err"
	assert_clean "$TD"
	# the first test's first pass is measured: its row is there
	assert_grep -E '^  RND    4KiB \(Q=  1, T= 1\):' "$OD/out"
	assert_grep '^\[Read\]$' "$OD/out"
	assert_grep '^Profile: Custom$' "$OD/out"
	# and the text says it is not whole (issue 12)
	assert_grep -E '^Comment: \[interrupted after 0 of 2 tests; RND4K Q1T1 Read: [1-9][0-9]? of 30 passes\]$' "$OD/out"
	rm -f "$OD/out" "$OD/err"
}

@test "SIGTERM exits 143 and SIGHUP exits 129, cleaning up" {
	start_measuring --test RND4K
	interrupt_and_check TERM 143
	start_measuring --test RND4K
	interrupt_and_check HUP 129
	rm -f "$OD/out" "$OD/err"
}

@test "a signal during the interval between tests stops at once" {
	# the first test's first 4 KiB read waits (the fault shim's hold) until
	# its worker thread is there; once that thread is gone the pass is over
	# and cdm is in the 600 s interval, however slow the machine (a SIGINT
	# 2.5 s after the start came before the pass ended on a loaded one)
	start_held_read --time 0.5 --interval 600 --test RND4K --test SEQ128K
	wait_for "the first 4 KiB read to be held" held_or_ended "$HOLD/pread-4096.held" "$PID"
	assert has_thread "$PID" cdm-w0
	touch "$HOLD/pread-4096.go"
	wait_for "the end of the first test's pass" no_worker
	interrupt_and_check INT 130
	assert_grep -E '^  RND    4KiB' "$OD/out"
	rm -f "$OD/out" "$OD/err"
}

# has PID's first worker thread gone (or PID ended)?
no_worker() {
	! has_thread "$PID" cdm-w0
}

@test "a signal while the test file is being prepared" {
	# the preparation's first 4 MiB write waits (the fault shim's hold)
	# until the signal has been sent: it comes while the file is prepared
	start_held pwrite:hold:0:4194304 --quiet --size 64MiB --count 1 --time 1 --warmup 0 \
		--interval 0 --test RND4K "$TD"
	wait_for "the preparation's first write to be held" held_or_ended "$HOLD/pwrite-4194304.held" "$PID"
	assert test_file_there
	kill -INT "$PID"
	touch "$HOLD/pwrite-4194304.go"
	wait_stopped INT
	cat "$OD/err"
	assert_equal "$ST" 130
	assert_grep "interrupted by" "$OD/err"
	assert_clean "$TD"
	rm -rf "$OD/out" "$OD/err" "$HOLD"
}

@test "after kill -9 the next run removes the stale file, and only such files" {
	host=$(hostname)
	start_cdm --quiet --size 16MiB --count 1 --time 30 --warmup 0 --interval 0 --test RND4K "$TD"
	wait_for_file
	kill -9 "$PID"
	wait "$PID" || true
	stale=$(find "$TD" -name 'cdm-*.tmp')
	assert [ -n "$stale" ]
	# files that must survive: another host's, a live process's, a kept one,
	# and a user's file that merely looks similar
	sh -c 'exit 0' & dead=$!; wait $dead
	touch "$TD/cdm-otherhost-$dead-0badcafe.tmp" "$TD/cdm-$host-$$-0badcafe.tmp" \
		"$TD/cdm-$host-$dead-0badcafe.keep" "$TD/cdm-notes.tmp"
	touch "$TD/cdm-$host-$dead-1234abcd.tmp"
	run "$CDM" "${QUICK[@]}" "${NULLRUN[@]}" --test RND4K "$TD"
	assert_success
	assert_output --partial "removed $stale"
	refute [ -e "$stale" ]
	refute [ -e "$TD/cdm-$host-$dead-1234abcd.tmp" ]
	assert [ -e "$TD/cdm-otherhost-$dead-0badcafe.tmp" ]
	assert [ -e "$TD/cdm-$host-$$-0badcafe.tmp" ]
	assert [ -e "$TD/cdm-$host-$dead-0badcafe.keep" ]
	assert [ -e "$TD/cdm-notes.tmp" ]
	rm -f "$TD"/cdm-* "$OD/out" "$OD/err"
}

@test "a live run's test file is never removed, even seen from another PID namespace" {
	command -v unshare > /dev/null || skip "unshare not installed"
	unshare -pf --mount-proc true 2> /dev/null || skip "cannot create a PID namespace here"
	# the live run's preparation waits in its first 4 MiB write (the fault
	# shim's hold) until the other run is done: it is live all that time
	start_held pwrite:hold:0:4194304 --quiet --size 16MiB --count 1 --warmup 0 --interval 0 \
		"${NULLRUN[@]}" --test RND4K "$TD"
	wait_for "the live run's first write to be held" held_or_ended "$HOLD/pwrite-4194304.held" "$PID"
	live=$(find "$TD" -name 'cdm-*.tmp')
	assert [ -n "$live" ]
	# in a new PID namespace the live run's PID does not exist
	run unshare -pf --mount-proc "$CDM" "${QUICK[@]}" "${NULLRUN[@]}" --test RND4K "$TD"
	assert_success
	refute_output --partial "removed $live"
	assert [ -e "$live" ]
	touch "$HOLD/pwrite-4194304.go"
	st=0
	wait "$PID" || st=$?
	cat "$OD/err"
	assert_equal "$st" 0
	assert_clean "$TD"
	rm -rf "$HOLD" "$OD/out" "$OD/err"
}

# ---- issue 12: every way the process can end removes the test file ----

# closed_stdout CMD ARGS...: run CMD with stdout on a pipe whose reading end
# is already closed (and SIGPIPE at its default, as a shell leaves it), so
# the first write to stdout gets SIGPIPE/EPIPE; exits with CMD's status
closed_stdout() {
	python3 -c 'import os, signal, sys
signal.signal(signal.SIGPIPE, signal.SIG_DFL)
r, w = os.pipe()
os.close(r)
os.dup2(w, 1)
os.execvp(sys.argv[1], sys.argv[1:])' "$@"
}

@test "the field report: cdm ... 2>&1 | head -1 stops cleanly at its next note, exit 141, no file left" {
	SHIM=$BATS_TEST_DIRNAME/../../build/tests/faultshim.so
	[ -f "$SHIM" ] || skip "build/tests/faultshim.so not built (make tools)"
	# the field report's command (passes of 0.5 s), its 2>&1 | head -1
	# through a FIFO.  Its first note comes before the test file is
	# prepared; the fault shim holds the preparation's first 4 MiB write
	# until head has read that line and ended, so whatever cdm writes next
	# meets a pipe without a reader, however slow the machine
	HOLD=$OD/hold
	mkdir "$HOLD"
	mkfifo "$OD/pipe"
	CDM_FAULT=pwrite:hold:0:4194304 CDM_FAULT_HOLD=$HOLD LD_PRELOAD=$SHIM \
		ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" \
		"$CDM" -e sync -t "RND4K Q32T1" --size 64MiB --time 0.5 --count 2 --interval 0 --warmup 0 \
		"$TD" > "$OD/pipe" 2>&1 &
	PID=$!
	head -1 < "$OD/pipe" > "$OD/line" &
	head=$!
	wait_for "the preparation's first write to be held" held_or_ended "$HOLD/pwrite-4194304.held" "$PID"
	wait "$head"
	touch "$HOLD/pwrite-4194304.go"
	wait_stopped PIPE
	cat "$OD/line"
	assert_equal "$ST" 141
	assert_equal "$(wc -l < "$OD/line")" 1
	assert_grep '^cdm: note: ' "$OD/line"
	assert_clean "$TD"
	rm -rf "$HOLD" "$OD/pipe" "$OD/line"
}

@test "stdout on a closed pipe with --save: the JSON is still saved, exit 141, no file left" {
	command -v python3 > /dev/null || skip "python3 not installed"
	st=0
	closed_stdout "$CDM" "${QUICK[@]}" "${NULLRUN[@]}" --test RND4K --save "$OD/r.json" "$TD" 2> "$OD/err" || st=$?
	cat "$OD/err"
	assert_equal "$st" 141
	assert_grep -x 'cdm: stdout: writing the report failed: Broken pipe' "$OD/err"
	assert_grep -x 'cdm: interrupted by Broken pipe after the run ended; the test file was removed' "$OD/err"
	jq -e '.tests | length > 0' "$OD/r.json"
	assert_clean "$TD"
	rm -f "$OD/r.json" "$OD/err"
}

@test "stderr closed (2>&-): the run completes, the report on stdout, no message written into the test file" {
	run sh -c '"$@" 2>&-' sh "$CDM" "${QUICK[@]}" --mode read --test RND4K "$TD"
	assert_success
	assert_output --partial "RND    4KiB (Q=  1, T= 1):"
	assert_clean "$TD"
	# a closed fd 2 must not become the test file's descriptor: with
	# --buffered the notes would land in the file (read mode: no test
	# overwrites them; --keep: the file stays to be read)
	run sh -c '"$@" 2>&-' sh "$CDM" "${QUICK[@]}" --engine sync --test "RND4K Q32T1" \
		--mode read --buffered --keep "$TD"
	assert_success
	kept=$(find "$TD" -name 'cdm-*.keep')
	assert [ -n "$kept" ]
	if head -c 4096 "$kept" | grep -aq 'cdm: '; then
		echo "the messages were written into $kept"
		false
	fi
	rm -f "$TD"/cdm-*
}

@test "stderr to a full device (2>/dev/full): the run completes, exit 0, no file left" {
	[ -w /dev/full ] || skip "no /dev/full"
	run sh -c '"$@" 2>/dev/full' sh "$CDM" "${QUICK[@]}" --engine sync --mode read --test "RND4K Q32T1" "$TD"
	assert_success
	assert_output --partial "RND    4KiB (Q=  1, T= 1):"
	assert_clean "$TD"
}

# kill_mid_run SIG STATUS: SIG in the first measured pass stops the run cleanly
kill_mid_run() {
	start_measuring --test RND4K
	interrupt_and_check "$1" "$2"
	rm -f "$OD/out" "$OD/err"
}

@test "SIGQUIT mid-run: stops cleanly, exit 131, no file left" {
	kill_mid_run QUIT 131
}

@test "SIGUSR1 mid-run: stops cleanly, exit 138, no file left" {
	kill_mid_run USR1 138
}

@test "SIGALRM mid-run: stops cleanly, exit 142, no file left" {
	kill_mid_run ALRM 142
}

@test "SIGXCPU (RLIMIT_CPU) mid-run: stops cleanly, exit 152, no file left" {
	kill_mid_run XCPU 152
}

@test "SIGPIPE sent mid-run: stops cleanly, exit 141, no file left" {
	kill_mid_run PIPE 141
}

@test "SIGXFSZ (RLIMIT_FSIZE) mid-run: stops cleanly, exit 153, no file left" {
	kill_mid_run XFSZ 153
}

@test "a fault signal (SIGABRT, SIGILL) removes the test file, then ends cdm by that signal" {
	for sig in ABRT:134 ILL:132; do
		start_cdm --quiet --size 16MiB --count 1 --time 30 --warmup 0 --interval 0 --test RND4K "$TD"
		wait_for_file
		kill -s "${sig%:*}" "$PID"
		wait_stopped "${sig%:*}"
		cat "$OD/err"
		echo "SIG${sig%:*}"
		assert_equal "$ST" "${sig#*:}"
		assert_clean "$TD"
	done
	rm -f "$OD/out" "$OD/err"
}

# fault_signal_while_held CALL SIG STATUS [ARGS...] - run cdm (ARGS) with
# the fault shim holding its first CALL (flock: the test file's lock,
# taken just after its creation; fsync: an output's, before its rename),
# send SIG (kill, not a fault) while it is held, then let the call go:
# cdm must end by SIG (exit STATUS) with no file of its own left in $TD
# (the signal is blocked in the window, so it is handled once the file is
# known).
fault_signal_while_held() {
	local call=$1 sig=$2 want=$3 st=0
	shift 3
	start_held "$call:hold:0" "$@"
	wait_for "cdm's $call to be held" held_or_ended "$HOLD/$call.held" "$PID"
	[ -e "$HOLD/$call.held" ] || { cat "$OD/err"; echo "cdm ended before its $call"; false; }
	# kill(2) has made SIG pending when kill returns: it came while held
	kill -s "$sig" "$PID"
	touch "$HOLD/$call.go"
	wait_stopped "$sig"
	cat "$OD/err"
	echo "SIG$sig"
	assert_equal "$ST" "$want"
	rm -rf "$HOLD"
}

@test "a fault signal sent just after the test file is created (before cdm has noted it) still removes it" {
	# the file exists from its open(2); the lock is taken next, before the
	# fault handler knows the path: SIGABRT then left the file behind
	for sig in ABRT:134 ILL:132; do
		fault_signal_while_held flock "${sig%:*}" "${sig#*:}" \
			--quiet --size 16MiB --count 1 --time 1 --warmup 0 --interval 0 --test RND4K "$TD"
		assert_clean "$TD"
	done
	rm -f "$OD/out" "$OD/err"
}

@test "a fault signal sent while an output is written leaves no temporary: cdm ends once the file is in place" {
	# --save writes its JSON to a temporary, fsyncs and renames it: a
	# SIGABRT sent during the fsync left "r.json.XXXXXX"
	fault_signal_while_held fsync ABRT 134 --quiet --size 16MiB --count 1 --warmup 0 \
		--interval 0 "${NULLRUN[@]}" --test RND4K --save "$OD/r.json" "$TD"
	assert_clean "$TD"
	assert_equal "$(find "$OD" -name 'r.json.*')" ""
	# the file was complete before the signal took effect
	jq -e 'type == "object"' "$OD/r.json"
	rm -f "$OD/out" "$OD/err" "$OD/r.json"
}

@test "a real fault in cdm (SIGSEGV in the main thread) removes the test file, then ends cdm by it" {
	command -v cc > /dev/null || skip "no C compiler"
	# a preloaded fdatasync, called once the test file is written, that
	# dereferences NULL
	printf 'int fdatasync(int fd) { volatile int *p = 0; (void)fd; return *p; }\n' > "$OD/crash.c"
	cc -shared -fPIC -o "$OD/crash.so" "$OD/crash.c" || skip "cannot build a shared object"
	st=0
	LD_PRELOAD="$OD/crash.so" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		"$CDM" "${QUICK[@]}" --test RND4K "$TD" > "$OD/out" 2> "$OD/err" || st=$?
	cat "$OD/err"
	# the plain build dies of SIGSEGV; the sanitizer build's own handler,
	# which cdm hands the fault on to, reports it and exits 1
	[ "$st" -eq 139 ] || { [ "$st" -eq 1 ] && grep -q AddressSanitizer "$OD/err"; } ||
		fail "exit $st: want 139 (SIGSEGV), or 1 with AddressSanitizer's report"
	assert_clean "$TD"
	rm -f "$OD"/crash.* "$OD/out" "$OD/err"
}

@test "RLIMIT_FSIZE below the test size is refused up front: one line naming the limit, exit 1, nothing left" {
	# ulimit -f counts 1024-byte blocks: 1 MiB, against a 16 MiB file
	run bash -c 'ulimit -f 1024 && exec "$@"' bash "$CDM" "${QUICK[@]}" --test RND4K "$TD"
	assert_failure 1
	assert_output "cdm: $TD: the 16 MiB test file is larger than the file size limit of 1 MiB (RLIMIT_FSIZE, ulimit -f); raise the limit or give a smaller --size"
	assert_clean "$TD"
}

# a preloaded getrusage that faults when a worker thread asks for its own
# CPU (RUSAGE_THREAD: only the workers do, at the start of their I/O);
# $1 is the fault: SEGV (NULL dereference), FPE (division by zero) or
# OVERFLOW (a stack overflow: endless recursion, SIGSEGV on the guard page)
worker_fault_so() {
	cat > "$OD/wfault.c" <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sys/resource.h>
/* volatile, both: gcc folds 1 / x into a compare, no division, even at -O0 */
volatile int zero, one = 1;
int deeper(int n)
{
	volatile char frame[1024];

	frame[0] = (char)n;
	return deeper(n + 1) + frame[0];
}
int getrusage(int who, struct rusage *ru)
{
	int (*real)(int, struct rusage *) = (int (*)(int, struct rusage *))dlsym(RTLD_NEXT, "getrusage");
	if (who == RUSAGE_THREAD) {
#if defined(FPE)
		return one / zero;
#elif defined(OVERFLOW)
		return deeper(zero);
#else
		return *(volatile int *)0 + zero;
#endif
	}
	return real(who, ru);
}
C
	cc -O0 -shared -fPIC -D"$1" -o "$OD/wfault.so" "$OD/wfault.c" -ldl
}

@test "a real fault in a worker thread (SIGSEGV, SIGFPE, a stack overflow) removes the test file, then ends cdm by it" {
	command -v cc > /dev/null || skip "no C compiler"
	for f in SEGV:139 FPE:136 OVERFLOW:139; do
		worker_fault_so "${f%:*}" || skip "cannot build a shared object"
		st=0
		LD_PRELOAD="$OD/wfault.so" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
			timeout 60 "$CDM" "${QUICK[@]}" --engine sync --test RND4K "$TD" > "$OD/out" 2> "$OD/err" || st=$?
		cat "$OD/err"
		[ "$st" -eq "${f#*:}" ] || { [ "$st" -eq 1 ] && grep -q Sanitizer "$OD/err"; } ||
			fail "$f: exit $st: want ${f#*:}, or 1 with a sanitizer's report"
		assert_clean "$TD"
	done
	rm -f "$OD"/wfault.* "$OD/out" "$OD/err"
}

# Time that did not pass for the device (issue 25): cdm stopped (SIGSTOP)
# for 1.5 s across a pass of 0.5 s read as a stalled device ("no I/O
# completed in 1 of its 3 passes").  Its watch wakes that much later than
# it asked, so the message says cdm itself did not run, JSON keeps the
# pause per pass (paused_ns), and a pass that still measured says so in a
# note.  The null device answers in 1 ms; the stop's length is the stimulus.
# sigstop_across_pass ARGS... - SIGSTOP for 1.5 s in the first of three
# passes of 0.5 s: the JSON's passes say cdm did not run for most of it,
# and so does the note, not that the device stalled
sigstop_across_pass() {
	grep -q . /proc/self/wchan 2> /dev/null || skip "this kernel shows no wchan"
	start_cdm --size 16MiB --count 3 --time 0.5 --interval 0 --warmup 0 --quiet --engine null \
		--null-device lat=1ms --test "RND4K Q1T1" -f json "$@" "$TD"
	wait_for "the pass to run" thread_sleeps "$PID" cdm-w0
	kill -STOP "$PID"
	sleep 1.5
	kill -CONT "$PID"
	st=0
	wait "$PID" || st=$?
	cat "$OD/err"
	# a pass in which nothing completed is an exit 1 (cli.c), the reason named
	[ "$st" = 0 ] || [ "$st" = 1 ]
	jq -e '[.tests[0].passes[] | .paused_ns // 0] | max >= 400000000' "$OD/out"
	assert_grep -E "cdm itself did not run for [0-9.]+ s of (it|pass [123])" "$OD/err"
	if jq -e '[.tests[0].passes[] | select(.ios == 0)] | length > 0' "$OD/out" > /dev/null; then
		assert_grep -E "no I/O completed in .*; cdm itself did not run for [0-9.]+ s of it \(stopped, or not scheduled\): time that did not pass for the device" "$OD/err"
	fi
	assert_clean "$TD"
}

@test "SIGSTOP across a pass: cdm says it did not run itself, not that the device stalled" {
	sigstop_across_pass --mode read
}

@test "SIGSTOP across a gated pass (--end-fsync): cdm says it did not run itself" {
	sigstop_across_pass --mode write --end-fsync
}

# a device that completes nothing from 200 ms into the pass on, for STALL:
# the I/O in flight at the end of the pass (or at a stop) waits that long
stalled_run() {	# STALL ARGS...
	local stall=$1
	shift
	start_cdm --size 16MiB --count 1 --time 0.5 --interval 0 --warmup 0 --quiet --engine null \
		--null-device "lat=1ms;at=200ms,stall=$stall" --test "RND4K Q8T2" "$@" "$TD"
}

# drained_late WHERE ARGS... - the I/O in flight at the end of the pass
# completes 2.5 s later: cdm says it waits for the device, then how long
# it took and that the time is in WHERE
drained_late() {
	local where=$1
	shift
	stalled_run 3s "$@"
	st=0
	wait "$PID" || st=$?
	cat "$OD/err"
	assert_equal "$st" 0
	assert_grep -E "RND4K Q8T2 (Read|Write): waiting for 16 I/Os in flight, [0-9.]+ s after it stopped starting I/O: the device has not completed them" "$OD/err"
	assert_grep -E "RND4K Q8T2 (Read|Write): the device took [0-9.]+ s to complete the 16 I/Os in flight when the test stopped starting I/O; cdm waited for them, and that time is in $where\$" "$OD/err"
	assert_grep -E '^  RND    4KiB \(Q=  8, T= 2\):' "$OD/out"
	assert_clean "$TD"
}

@test "I/O in flight long after the last pass: cdm says it waits for the device, then that the time is in no pass" {
	drained_late "no pass" --mode read
}

@test "I/O in flight long after a gated pass's end (--end-fsync): cdm says it waits, then that the time is in the pass" {
	drained_late "pass 1" --mode write --end-fsync
}

# stop_while_stalled ARGS... - a stop while the device holds the I/O in
# flight says it waits for them; a second signal ends cdm at once: exit
# 130, no report, no test file
stop_while_stalled() {
	stalled_run 86400s "$@"
	wait_for "cdm to say it waits for the device" grep -q "waiting for 16 I/Os in flight" "$OD/err"
	kill -INT "$PID"
	wait_for "cdm to say the stop waits" grep -q "stopping once the device completes 16 I/Os in flight" "$OD/err"
	kill -INT "$PID"
	wait_stopped INT
	cat "$OD/err"
	assert_equal "$ST" 130
	assert_grep -E "RND4K Q8T2 (Read|Write): ended at once by a second signal while waiting for 16 I/Os in flight; no report, the test file removed" "$OD/err"
	[ ! -s "$OD/out" ]
	assert_clean "$TD"
}

@test "a stop while the device holds the I/O in flight waits and says so; a second signal ends cdm at once (scheduled passes)" {
	stop_while_stalled --mode read
}

@test "a stop while the device holds the I/O in flight waits and says so; a second signal ends cdm at once (gated: --end-fsync)" {
	stop_while_stalled --mode write --end-fsync
}

# drain_lines - the drain's progress lines of a run of tty_start, their
# seconds one a line, in the order drawn
drain_lines() {
	sed -nE 's/^RND4K Q8T2 (Read|Write): waiting for 16 I\/Os in flight  ([0-9]+) s$/\2/p' "$OD/err"
}

# The drain of a gated window (--end-fsync) is watched like the one after
# the schedule: the progress line is redrawn a few times a second, the
# runner's thread sleeping between two looks.  The device holds the I/O
# about 2.7 s past the window's end; drawn at most every 100 ms that is
# some 30 lines, and 300 leaves room for any machine.  (It was redrawn
# without a pause: some 40,000 lines and a core busy for the whole drain.)
@test "a gated window's drain (--end-fsync) redraws its progress line a few times a second, not in a busy loop" {
	tty_start "$OD" --size 16MiB --count 1 --time 0.5 --interval 0 --warmup 0 --engine null \
		--null-device "lat=1ms;at=200ms,stall=3s" --test "RND4K Q8T2" --mode write --end-fsync "$TD"
	tty_wait
	grep -v "waiting for 16 I/Os in flight  " "$OD/err"
	assert_equal "$TTY_STATUS" 0
	n=$(drain_lines | wc -l)
	echo "the drain's progress line was drawn $n times"
	[ "$n" -gt 0 ]
	[ "$n" -le 300 ]
	assert_clean "$TD"
}

# A gated window's drain is the device's time, not a pause of cdm's own:
# nothing stops cdm here, so no pass may say that cdm did not run.  (The
# drain's loop measured each look against a wake-up time long past and
# took the whole drain after the first second for a pause of cdm's.)
@test "a gated window's drain (--end-fsync) is not taken for a pause of cdm's own" {
	stalled_run 3s --mode write --end-fsync --format json
	st=0
	wait "$PID" || st=$?
	cat "$OD/err"
	assert_equal "$st" 0
	assert_grep -E "the device took [0-9.]+ s to complete the 16 I/Os in flight" "$OD/err"
	refute_grep -F "cdm itself did not run" "$OD/err"
	jq -e '.tests[0].passes[0] | (.paused_ns // 0) == 0' "$OD/out"
	assert_clean "$TD"
}

# A stop that comes while a gated window drains (--end-fsync): the drain
# began at the window's end, not at the stop, and goes on after it until
# the device completes the I/O.  Its seconds on the progress line go on
# counting across the stop, and the note after it counts the whole drain.
# (They started again from 0 at the stop, and the note gave the longer of
# the two halves.)
@test "a stop during a gated window's drain: the drain's seconds count on from the window's end, not from the stop" {
	tty_start "$OD" --size 16MiB --count 1 --time 0.5 --interval 0 --warmup 0 --engine null \
		--null-device "lat=1ms;at=200ms,stall=4500ms" --test "RND4K Q8T2" --mode write --end-fsync "$TD"
	wait_for "the drain's progress line at 2 s" tty_shows "waiting for 16 I/Os in flight  2 s"
	kill -INT "$PID"
	tty_wait
	grep -v "waiting for 16 I/Os in flight  " "$OD/err"
	assert_equal "$TTY_STATUS" 130
	assert_grep "stopping once the device completes 16 I/Os in flight" "$OD/err"
	# never fewer seconds than a line drawn before
	drain_lines | awk 'NR > 1 && $1 < last { print "the drain went back from " last " s to " $1 " s"; bad = 1 } { last = $1 } END { exit bad }'
	# the note's seconds: at least the last line's, which rounds to whole seconds
	last=$(drain_lines | tail -1)
	took=$(sed -nE 's/.*the device took ([0-9.]+) s to complete the 16 I\/Os in flight.*/\1/p' "$OD/err")
	[ -n "$took" ]
	awk -v t="$took" -v l="$last" 'BEGIN { exit !(t >= l - 0.5) }'
	assert_clean "$TD"
}

# SIGPIPE from cdm's own messages is one stop, not "a second signal": the
# messages go to a pipe whose reader has gone (its read end closed before
# cdm starts).  The drain's note draws the first SIGPIPE, which asks the
# run to stop; the note that the stop waits draws another.  cdm must still
# wait for the device and write the report (-o), exit 141, as any stop
# does.  (The second SIGPIPE ended cdm at once: exit 141, no report, and
# no word of why, though no one had sent a signal.)
@test "messages to a pipe without a reader during a long drain: one stop, the report still written" {
	command -v python3 > /dev/null || skip "python3 is not installed"
	st=0
	python3 - "$CDM" --size 16MiB --count 1 --time 0.5 --interval 0 --warmup 0 --engine null \
		--null-device "lat=1ms;at=200ms,stall=3s" --test "RND4K Q8T2" --mode read \
		--output "$OD/report.txt" "$TD" <<'PY' || st=$?
import os, subprocess, sys
r, w = os.pipe()
os.close(r)
p = subprocess.run(sys.argv[1:], stdout=w, stderr=w, restore_signals=True)
sys.exit(p.returncode if p.returncode >= 0 else 128 - p.returncode)
PY
	assert_equal "$st" 141
	[ -s "$OD/report.txt" ]
	assert_grep -E '^  RND    4KiB \(Q=  8, T= 2\):' "$OD/report.txt"
	assert_clean "$TD"
}

# The second signal's way out removes the test file as every other way out
# does: through the directory cdm holds open, so that a target moved (or
# lazily unmounted) during the run is not left with it.  (It unlinked the
# file's old path, which no longer led to it, and said it was removed.)
@test "a second signal in a drain removes the test file even when the target was moved meanwhile" {
	mkdir "$TD/a"
	start_cdm --size 16MiB --count 1 --time 0.5 --interval 0 --warmup 0 --quiet --engine null \
		--null-device "lat=1ms;at=200ms,stall=86400s" --test "RND4K Q8T2" --mode read "$TD/a"
	wait_for "cdm to say it waits for the device" grep -q "waiting for 16 I/Os in flight" "$OD/err"
	mv "$TD/a" "$TD/b"
	kill -INT "$PID"
	wait_for "cdm to say the stop waits" grep -q "stopping once the device completes 16 I/Os in flight" "$OD/err"
	kill -INT "$PID"
	wait_stopped INT
	cat "$OD/err"
	assert_equal "$ST" 130
	assert_grep "ended at once by a second signal" "$OD/err"
	assert_clean "$TD/b"
}

# Two stop signals during a pass whose I/O completes at once (INT, then
# TERM: two kinds, so the kernel cannot merge them): the drain is never
# said, so the second signal ends nothing early: the stop of the first,
# its report on stdout, exit 128 + the first's number.  (Any second signal ended cdm at once,
# without a report, even when nothing held the run.)
@test "two stop signals while nothing holds the run: one stop, with its report" {
	start_measuring "${NULLRUN[@]}" --time 30 --test "RND4K Q1T1"
	kill -INT "$PID"
	kill -TERM "$PID"
	wait_stopped INT
	cat "$OD/err"
	# the first of the two to be delivered gives the status, and the
	# kernel may deliver them in either order (seen: TERM first, inside
	# a package build's make check)
	case $ST in
	130) assert_grep "interrupted by Interrupt:" "$OD/err" ;;
	143) assert_grep "interrupted by Terminated:" "$OD/err" ;;
	*) echo "exit status $ST: not a stop by INT or TERM"; false ;;
	esac
	refute_grep "ended at once" "$OD/err"
	assert_grep '^Profile: Custom$' "$OD/out"
	assert_clean "$TD"
}

# The sync engine's I/O is in flight while its read runs: a read the fault
# shim holds past the end of the pass is one I/O the drain waits for, not
# "an fdatasync or the engine's clean-up"
@test "a sync read held past the pass's end: the drain waits for 1 I/O in flight" {
	start_held_read --time 0.2 --interval 0 --test "RND4K Q1T1"
	wait_for "cdm to say it waits for the device" grep -q "waiting for 1 I/O in flight" "$OD/err"
	touch "$HOLD/pread-4096.go"
	st=0
	wait "$PID" || st=$?
	cat "$OD/err"
	assert_grep -E "RND4K Q1T1 Read: the device took [0-9.]+ s to complete the 1 I/O in flight when the test stopped starting I/O; cdm waited for it" "$OD/err"
	refute_grep "fdatasync or the engine" "$OD/err"
	assert_clean "$TD"
}
