#!/usr/bin/env bats
# --cpus LIST (fio's cpus_allowed with cpus_allowed_policy=split): each
# worker thread pinned to one CPU of the list, round-robin, read back from
# the kernel while cdm runs (/proc/PID/task/*: the thread's name, the CPU
# it last ran on, the CPUs it may run on); bad lists and CPUs cdm may not
# use refused before anything is written.  The machine may have 2 CPUs:
# a test that needs more, or CPU 1, says so and skips.

load helpers

# the CPUs this shell may run on, as the kernel lists them ("0-1")
allowed_here() {
	awk '$1 == "Cpus_allowed_list:" { print $2 }' /proc/self/status
}

# skip unless this process may run on every CPU of $@
need_cpus() {
	local c
	for c in "$@"; do
		taskset -c "$c" true 2>/dev/null ||
			skip "needs CPU $c, which this machine or cpuset does not give (allowed: $(allowed_here))"
	done
}

# run_pinned OUT CPUS SPEC: start a sync-engine read run of SPEC, with
# --cpus CPUS unless CPUS is empty, in the background, its workers' 4 KiB
# reads held (the fault shim) until sample_held has watched them: its
# workers stay there, placed and pinned, however slow the machine; PID
# is cdm's process
run_pinned() {
	SHIM=$BATS_TEST_DIRNAME/../../build/tests/faultshim.so
	[ -f "$SHIM" ] || skip "build/tests/faultshim.so not built (make tools)"
	HOLD=$OD/hold
	mkdir -p "$HOLD"
	CDM_FAULT=pread:hold:0:4096 CDM_FAULT_HOLD=$HOLD LD_PRELOAD=$SHIM \
		ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" \
		"$CDM" --engine sync --mode read --size 16MiB --count 1 --time 1 --interval 0 \
		--warmup 0 --quiet ${2:+--cpus "$2"} --test "$3" "$TD" > "$1.out" 2> "$1.err" &
	PID=$!
}

# sample_once N: one sample of PID's threads, lines "NAME CPU ALLOWED TID
# N", NAME being the thread's comm (it may hold spaces: taken from the
# comm file, and stat parsed after the last ")"), N the sample's number.
# One awk reads every thread's three files, so a sample costs one process
# however many threads there are (a loaded CI machine took 0.25 s a
# sample when each file had its own cat, sed and awk); a thread that ends
# between the glob and the read leaves that sample out.
sample_once() {
	awk -v s="$1" '
		# FILENAME is /proc/PID/task/TID/FILE
		{ n = split(FILENAME, p, "/"); tid = p[n - 1]; f = p[n] }
		f == "comm" { name[tid] = $0; next }
		f == "stat" {
			r = $0
			sub(/.*\) /, "", r)
			split(r, w, " ")
			# field 39 (processor) is the 37th after "pid (comm) "
			cpu[tid] = w[37]
			next
		}
		f == "status" && $1 == "Cpus_allowed_list:" { allowed[tid] = $2 }
		END {
			for (t in name)
				if (cpu[t] != "" && allowed[t] != "")
					print name[t], cpu[t], allowed[t], t, s
		}' /proc/"$PID"/task/*/comm /proc/"$PID"/task/*/stat \
		/proc/"$PID"/task/*/status 2>/dev/null || true
}

# sample_held N: once the workers' first 4 KiB read is held (every
# worker is placed before any starts its I/O), N samples of PID's
# threads, numbered from 1; then let the reads go
sample_held() {
	local i
	wait_for "the workers' first 4 KiB read to be held" held_or_ended "$HOLD/pread-4096.held" "$PID"
	for i in $(seq "$1"); do
		sample_once "$i"
	done
	touch "$HOLD/pread-4096.go"
}

# sample_seen PATTERN: one more sample of PID's threads (numbered $NS,
# counted on) on stdout; true when it has a thread named PATTERN (an awk
# regex), or PID has ended
sample_seen() {
	local out
	NS=$((NS + 1))
	out=$(sample_once "$NS")
	[ -z "$out" ] || echo "$out"
	echo "$out" | awk -v p="$1" '$1 ~ p { f = 1 } END { exit !f }' || ended "$PID"
}

# watch_held NAME PATTERN: cdm run with the fault shim's hold faults
# (CDM_FAULT_HOLD=$HOLD) waits in the call NAME ("pwrite-4096") until
# $HOLD/NAME.go is there, so the phase it is in lasts until it has been
# watched, however slow the machine: wait for $HOLD/NAME.held (or for cdm
# to end), sample PID's threads until a thread named PATTERN (an awk
# regex) is seen (or cdm ends), then let the calls go.  Samples are
# numbered on from $NS (the caller's count, which must be set).
watch_held() {
	wait_for "cdm's $1 to be held" held_or_ended "$HOLD/$1.held" "$PID"
	[ -e "$HOLD/$1.held" ] || return 0
	wait_for "a thread named $2" sample_seen "$2"
	touch "$HOLD/$1.go"
}

@test "--cpus 1 keeps every worker thread on CPU 1, and leaves the main thread alone" {
	need_cpus 1
	run_pinned "$OD/run" 1 "RND4K Q1T4"
	samples=$(sample_held 3)
	wait "$PID"
	cat "$OD/run.err"
	# every worker seen, each in every sample (3)
	workers=$(echo "$samples" | awk '$1 ~ /^cdm-w[0-9]+$/ { print $4 }' | sort -u | wc -l)
	assert_equal "$workers" 4
	assert_equal "$(echo "$samples" | grep -c '^cdm-w')" 12
	# each on CPU 1, allowed CPU 1 only
	bad=$(echo "$samples" | awk '$1 ~ /^cdm-w/ && ($2 != 1 || $3 != "1")')
	[ -z "$bad" ] || { echo "workers off CPU 1: $bad"; false; }
	# cdm's own thread keeps the CPUs it was given
	main=$(echo "$samples" | awk '$1 == "cdm" { print $3 }' | sort -u)
	assert_equal "$main" "$(allowed_here)"
	# 4 threads for 1 CPU: said once
	assert_equal "$(grep -c 'worker threads for 1 CPU: they all share it' "$OD/run.err")" 1
	assert_grep '^  RND    4KiB (Q=  1, T= 4):' "$OD/run.out"
	assert_clean "$TD"
}

@test "--cpus 0-1 with T4: threads alternate between CPUs 0 and 1" {
	need_cpus 0 1
	run_pinned "$OD/run" 0-1 "RND4K Q1T4"
	samples=$(sample_held 3)
	wait "$PID"
	cat "$OD/run.err"
	# cdm-w0 and cdm-w2 on 0, cdm-w1 and cdm-w3 on 1: allowed list and CPU
	for i in 0 1 2 3; do
		want=$((i % 2))
		seen=$(echo "$samples" | awk -v n="cdm-w$i" '$1 == n { print $3 }' | sort -u)
		[ "$seen" = "$want" ] || { echo "cdm-w$i allowed '$seen', want $want"; false; }
		ran=$(echo "$samples" | awk -v n="cdm-w$i" '$1 == n { print $2 }' | sort -u)
		[ "$ran" = "$want" ] || { echo "cdm-w$i ran on '$ran', want $want"; false; }
	done
	assert_grep "they share them round-robin (thread i on the list's CPU i mod 2" "$OD/run.err"
}

@test "without --cpus the workers are named but not pinned" {
	run_pinned "$OD/free" "" "RND4K Q1T2"
	samples=$(sample_held 3)
	wait "$PID"
	assert_equal "$(echo "$samples" | awk '$1 ~ /^cdm-w/ { print $1 }' | sort -u | wc -l)" 2
	allowed=$(echo "$samples" | awk '$1 ~ /^cdm-w/ { print $3 }' | sort -u)
	assert_equal "$allowed" "$(allowed_here)"
	refute_grep 'worker threads for' "$OD/free.err"
}

@test "bad CPU lists are refused in one line, before anything is written" {
	for bad in '' x 1- 3-1 1,,2 ',0' 0-7:3/2 0-7:2 1024 0-99999 ' 1'; do
		run "$CDM" "${QUICK[@]}" --engine null --cpus "$bad" "$TD"
		echo "--cpus '$bad': $status: $output"
		assert_failure 2
		assert_equal "$(echo "$output" | grep -c '^cdm: ')" 1
		assert_like "${lines[0]}" "\"cdm: bad value for --cpus: '\$bad': \"*\" (a CPU list such as 0-3,8)\""
		assert_clean "$TD"
		assert_equal "$(ls -A "$TD")" ""
	done
	run "$CDM" "${QUICK[@]}" --engine null --cpus 3-1 "$TD"
	assert_line --index 0 "cdm: bad value for --cpus: '3-1': the range 3-1 runs downward (1-3) (a CPU list such as 0-3,8)"
	run "$CDM" "${QUICK[@]}" --engine null --cpus 0-1024 "$TD"
	assert_line --index 0 "cdm: bad value for --cpus: '0-1024': CPU 1024 is past the highest CPU cdm can use, 1023 (a CPU list such as 0-3,8)"
}

@test "a CPU that is not online is refused, naming the CPUs online" {
	online=$(cat /sys/devices/system/cpu/online)
	# the first CPU not online (CPU 1023 on any machine of fewer CPUs)
	off=1023
	for c in $(seq 0 1023); do
		grep -qx "$c" <(awk -v l="$online" 'BEGIN { n = split(l, a, ","); for (i = 1; i <= n; i++) { m = split(a[i], r, "-"); for (c = r[1]; c <= r[m]; c++) print c } }') ||
			{ off=$c; break; }
	done
	run "$CDM" "${QUICK[@]}" --engine null --cpus "0,$off" "$TD"
	echo "$output"
	assert_failure 2
	assert_output "cdm: --cpus 0,$off: CPU $off is not online (online: $online)"
	assert_equal "$(ls -A "$TD")" ""
}

@test "a CPU outside the process's allowed set (taskset) is refused" {
	command -v taskset >/dev/null || skip "taskset is not installed (util-linux)"
	need_cpus 0 1
	run taskset -c 0 "$CDM" "${QUICK[@]}" --engine null --cpus 0-1 "$TD"
	echo "$output"
	assert_failure 2
	assert_output "cdm: --cpus 0-1: CPU 1 is not one cdm may run on (allowed: 0; taskset or the cgroup's cpuset)"
	assert_equal "$(ls -A "$TD")" ""
	# and within it, it runs
	run taskset -c 0 "$CDM" "${QUICK[@]}" --engine null --mode read -t "SEQ1M Q1T1" --cpus 0 "$TD"
	assert_success
}

@test "--cpus with as many CPUs as threads: no note; no NUMA warning where the device's node is unknown" {
	need_cpus 0 1
	node=-1
	dev=$(findmnt -no SOURCE -T "$TD" | sed 's|^/dev/||')
	[ -r "/sys/class/block/$dev/device/numa_node" ] && node=$(cat "/sys/class/block/$dev/device/numa_node")
	nodes=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)
	run "$CDM" "${QUICK[@]}" --engine null --mode read -t "RND4K Q1T2" --cpus 0-1 "$TD"
	echo "$output"
	assert_success
	refute_line --regexp 'worker threads for'
	# a one-node machine, or a device of unknown node, has nothing to warn of
	if [ "$nodes" -le 1 ] || [ "$node" = -1 ]; then
		refute_line --regexp 'interconnect'
	fi
}

@test "--cpus 1 covers --precondition's writers and --verify's read-back; cdm's thread is given back its CPUs" {
	need_cpus 1
	SHIM=$BATS_TEST_DIRNAME/../../build/tests/faultshim.so
	[ -f "$SHIM" ] || skip "build/tests/faultshim.so not built (make tools)"
	# the 128 KiB writes of preconditioning, the test's 4 KiB writes and
	# the read-back's preads each wait (the fault shim's hold) until the
	# threads of their phase have been seen, then go on as they are
	HOLD=$OD/hold
	mkdir "$HOLD"
	CDM_FAULT=pwrite:hold:0:131072,pwrite:hold:0:4096,pread:hold:0 CDM_FAULT_HOLD=$HOLD \
		LD_PRELOAD=$SHIM ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" \
		"$CDM" --engine sync --mode write -t "RND4K Q1T2" --size 32MiB --count 1 --time 1 \
		--interval 0 --warmup 0 --quiet --precondition --verify --cpus 1 --format json \
		"$TD" > "$OD/run.out" 2> "$OD/run.err" &
	PID=$!
	# preconditioning (its writers), the test (its workers), the
	# read-back (cdm's own thread, the one reading)
	samples=$(NS=0
		watch_held pwrite-131072 '^cdm-p[0-9]+$'
		watch_held pwrite-4096 '^cdm-w[0-9]+$'
		watch_held pread '^cdm$')
	echo "$samples"
	st=0
	wait "$PID" || st=$?
	cat "$OD/run.err"
	assert_equal "$st" 0
	# the run did both: preconditioned, and read its writes back clean
	assert_equal "$(jq '.settings.precondition.time_ns > 0' "$OD/run.out")" true
	assert_equal "$(jq '.tests[0].verify.lost + .tests[0].verify.misdirected + .tests[0].verify.torn' "$OD/run.out")" 0
	assert [ "$(jq '.tests[0].verify.blocks' "$OD/run.out")" -gt 0 ]
	# the preconditioning writers (cdm-p<i>; cdm's own thread is writer 0) on CPU 1 only
	assert [ "$(echo "$samples" | awk '$1 ~ /^cdm-p[0-9]+$/ { print $4 }' | sort -u | wc -l)" -ge 1 ]
	bad=$(echo "$samples" | awk '$1 ~ /^cdm-[pw][0-9]+$/ && ($2 != 1 || $3 != "1")')
	[ -z "$bad" ] || { echo "writers or workers off CPU 1: $bad"; false; }
	# cdm's thread: on CPU 1 while it preconditions (before the first
	# worker) and while it reads back (after the last), its own CPUs between
	first_w=$(echo "$samples" | awk '$1 ~ /^cdm-w/ { print $5; exit }')
	last_w=$(echo "$samples" | awk '$1 ~ /^cdm-w/ { n = $5 } END { print n }')
	echo "workers seen in samples $first_w to $last_w"
	assert [ -n "$first_w" ]
	main=$(echo "$samples" | awk '$1 == "cdm"')
	echo "$main" | awk -v w="$first_w" '$5 < w && $3 == "1" { ok = 1 } END { exit !ok }' ||
		fail "cdm's thread was not seen on CPU 1 only before the workers: $main"
	echo "$main" | awk -v w="$last_w" '$5 > w && $3 == "1" && $2 == 1 { ok = 1 } END { exit !ok }' ||
		fail "cdm's thread was not seen on CPU 1 after the workers (the read-back): $main"
	here=$(allowed_here)
	echo "$main" | awk -v a="$first_w" -v b="$last_w" -v h="$here" \
		'$5 >= a && $5 <= b && $3 == h { ok = 1 } END { exit !ok }' ||
		fail "cdm's thread did not have its CPUs ($here) back while the workers ran: $main"
	assert_clean "$TD"
}
