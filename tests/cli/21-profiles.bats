#!/usr/bin/env bats
# The built-in profiles (docs/profiles.md): every one runs, runs the tests
# it names in CDM's order, carries its own settings into the run, and
# cdm --list-profiles shows the same.

load helpers

ALL="default peak real demo nvme flash cdm7 cdm7-peak cdm6 sqlio orion-simple orion-advanced"

# run_tests JSON - the tests a saved run ran, one "NAME DIRECTION" a line
# (jq, not python3, for the checks of a run: it starts ten times faster,
# which a loaded machine notices)
run_tests() {
	jq -r '.tests[] | "\(.name) \(.direction)"' "$1"
}

# expect PROFILE JSON DIRS TEST... - the run of PROFILE ran, in order, every
# TEST in each direction of DIRS ("read write", "read", "mix"), nothing else
expect() {
	local p=$1 json=$2 dirs=$3 d t want=""
	shift 3
	for d in $dirs; do
		for t in "$@"; do
			want+="$t $d"$'\n'
		done
	done
	diff <(printf '%s' "$want") <(run_tests "$json") || { echo "profile $p ran other tests"; false; }
}

# setting JSON KEY - a value of the run's "settings"
setting() {
	jq -r --arg k "$2" '.settings[$k]' "$1"
}

# The runs of a profile are on the null engine's simulated device
# (docs/engines.md), each I/O done 10 ms after it is started: the workers
# sleep between completions instead of spinning, so a test of 16 threads
# takes a few % of one CPU instead of all the CPU it can get, and the runs
# can go side by side.  The figures are not what these tests
# check: the tests a profile runs are.  Passes of 0.2 s: a pass needs a
# worker to run in it, and on a loaded machine the threads of a test,
# just released, have been seen to wait behind the other runnable threads
# for a whole 0.1 s pass (no I/O completed, exit 1).
NULLDEV=(--engine null --null-device lat=10ms)

# profile_bg NAME PROFILE [OPTION...] - a run of PROFILE on a 16 MiB file in
# $RUNS/td, in the background, its settings shortened only where the
# options say: $RUNS/NAME.json, the text report $RUNS/NAME.txt, its stderr
# $RUNS/NAME.err and its exit status $RUNS/NAME.st (a run that hangs is
# stopped after 120 s: setup_file has no watchdog)
profile_bg() {
	local n=$1 p=$2
	shift 2
	(
		st=0
		timeout 120 "$CDM" -q "${NULLDEV[@]}" --size 16MiB --profile "$p" "$@" \
			--save "$RUNS/$n.json" -o "$RUNS/$n.txt" "$RUNS/td" 2> "$RUNS/$n.err" || st=$?
		echo "$st" > "$RUNS/$n.st"
	) &
	PIDS+=($!)
}

# Every run of a built-in profile on the null engine, once for the file
# and side by side (they sleep on their devices): setup_file takes as long
# as its longest run, sqlio's 32 passes, instead of the sum of them all.
# Each test then checks the runs it names (ran NAME...), reading their
# outputs only.
setup_file() {
	export RUNS=$BATS_FILE_TMPDIR/runs
	local p PIDS=()
	mkdir -p "$RUNS/td"
	for p in default peak real demo nvme cdm7 cdm7-peak cdm6 flash; do
		profile_bg "$p" "$p" --count 1 --time 0.2 --warmup 0 --interval 0
	done
	# flash's own Measure time, in one pass of one of its tests (-t names
	# the profile Custom: its tests and Profile: line come from the short
	# run); the 30 s interval is the profile's; only it is cut here
	profile_bg flash-1s flash --count 1 --warmup 0 --interval 0 -t "RND4K Q1T1" --mode read
	# count 1 and warm-up 0 are sqlio's own; only the time is cut
	profile_bg sqlio sqlio --time 0.2 --interval 0
	# count 1 and interval 0 are orion-simple's own
	profile_bg orion-simple orion-simple --time 0.2 --warmup 0
	profile_bg orion-all orion-simple --time 0.2 --warmup 0 --mode all
	profile_bg orion-advanced orion-advanced --time 0.2 --warmup 0
	wait "${PIDS[@]}"
}

# ran NAME... - the runs NAME of setup_file ended well (exit 0), and left
# nothing in their directory
ran() {
	local n
	for n in "$@"; do
		echo "run $n: exit $(cat "$RUNS/$n.st")"
		cat "$RUNS/$n.err"
		assert_equal "$(cat "$RUNS/$n.st")" 0
	done
	assert_clean "$RUNS/td"
}

@test "--list-profiles: one block per built-in, in the order of the help, exit 0" {
	run "$CDM" --list-profiles
	assert_success
	# the blocks' head lines, in order: NAME: what it imitates
	assert_equal "$(echo "$output" | grep -E '^[a-z0-9-]+: ' | cut -d: -f1 | tr '\n' ' ')" "$ALL "
	# blocks are apart by one empty line; every other line is indented
	assert_equal "$(echo "$output" | grep -c '^$')" 11
	assert_equal "$(echo "$output" | grep -vE '^$|^[a-z0-9-]+: |^  [A-Z][a-z-]+: +[^ ]')" ""
	# every block has each setting once
	for k in Profile Size Count Time Warm-up Interval Mix Mode; do
		echo "the $k lines"
		assert_equal "$(echo "$output" | grep -c "^  $k: ")" 12
	done
	assert_output --partial 'cdm7: CrystalDiskMark 7 "Default" profile'
	assert_output --partial 'orion-simple: Oracle ORION "-run simple"'
}

# the block of one profile, from its head line to the empty line after it
block() {
	"$CDM" --list-profiles | awk -v p="$1" '$0 ~ "^" p ": " {on = 1} on && /^$/ {exit} on'
}

@test "--list-profiles shows each profile's Profile: name, settings and tests" {
	block cdm7 > "$OD/cdm7"
	assert_grep -x '  Profile:    Default' "$OD/cdm7"
	assert_grep -x '  Test:       RND4K Q32T16     read, write' "$OD/cdm7"
	assert_equal "$(grep -c '^  Test: ' "$OD/cdm7")" 4
	block cdm7-peak > "$OD/peak7"
	assert_grep -x '  Profile:    Peak' "$OD/peak7"
	assert_equal "$(grep '^  Test: ' "$OD/peak7" | awk '{print $2, $3}' | tr '\n' ,)" "SEQ1M Q8T1,RND4K Q32T16,"
	block flash > "$OD/flash"
	assert_grep -x '  Profile:    Default' "$OD/flash"
	assert_grep -x '  Time:       1 s' "$OD/flash"
	assert_grep -x '  Interval:   30 s' "$OD/flash"
	block cdm6 > "$OD/cdm6"
	assert_grep -x '  Profile:    CDM 6' "$OD/cdm6"
	assert_equal "$(grep '^  Test: ' "$OD/cdm6" | awk '{print $2, $3}' | tr '\n' ,)" "SEQ128K Q32T1,RND4K Q8T8,RND4K Q32T1,RND4K Q1T1,"
	block sqlio > "$OD/sqlio"
	assert_grep -x '  Count:      1' "$OD/sqlio"
	assert_grep -x '  Time:       30 s' "$OD/sqlio"
	assert_grep -x '  Warm-up:    0 s' "$OD/sqlio"
	assert_equal "$(grep -c '^  Test: .*read, write$' "$OD/sqlio")" 16
	block orion-simple > "$OD/os"
	assert_grep -x '  Mode:       read' "$OD/os"
	assert_grep -x '  Time:       60 s' "$OD/os"
	assert_equal "$(grep -c '^  Test: .* read$' "$OD/os")" 7
	block orion-advanced > "$OD/oa"
	assert_equal "$(grep -c '^  Test: .* W20  *mix R80/W20$' "$OD/oa")" 7
	# its Mix line says the ratio its W tests run at, as its Test lines do
	assert_grep -x '  Mix:        R80/W20' "$OD/oa"
	assert_grep -x '  Mix:        none' "$OD/os"
}

@test "--list-profiles: the Mix line lists every ratio the Test lines run at, each once" {
	printf 'name = Mine\ntest = RND4K Q1T1 W30\ntest = SEQ1M\ntest = RND4K Q4T1 W30\nmix = 60\n' > "$OD/mine.cdm"
	run "$CDM" --list-profiles -p "$OD/mine.cdm"
	echo "$output"
	assert_success
	assert_line --index 0 "$OD/mine.cdm: a profile file"
	assert_output --partial $'\n  Mix:        R70/W30, R60/W40\n'
	assert_output --partial $'\n  Test:       SEQ1M Q1T1       read, write, mix R60/W40'
	# --mode read: no test runs in the Mix phase
	printf 'name = R\nmode = read\ntest = RND4K Q1T1 W30\ntest = SEQ1M\n' > "$OD/r.cdm"
	run "$CDM" -p "$OD/r.cdm" --list-profiles
	assert_success
	assert_output --partial $'\n  Mix:        none\n'
}

@test "--list-profiles with -p lists that profile (a built-in or a file), refuses a TARGET and an unknown profile" {
	run "$CDM" --list-profiles -p cdm6
	assert_success
	assert_line --index 0 "cdm6: CrystalDiskMark 6 test set"
	assert_equal "$(echo "$output" | grep -c '^[a-z0-9-]*: ')" 1
	# the profile a run would take: -p before or after
	printf 'name = Mine\ntest = RND4K Q1T1\n' > "$OD/mine.cdm"
	run "$CDM" -p "$OD/mine.cdm" --list-profiles
	assert_success
	assert_line --index 1 "  Profile:    Mine"
	run "$CDM" --list-profiles -p nosuch
	assert_failure 2
	assert_like "${lines[0]}" "\"cdm: unknown profile 'nosuch' \"*"
	assert_equal "${#lines[@]}" 1
	run "$CDM" --list-profiles extra
	assert_failure 2
	assert_line --index 0 "cdm: --list-profiles takes no TARGET, got 'extra'"
	run "$CDM" --list-engines extra
	assert_failure 2
	assert_line --index 0 "cdm: --list-engines takes no TARGET, got 'extra'"
	run "$CDM" --list-engines --list-profiles
	assert_failure 2
}

# listed PROFILE JSON - the tests --list-profiles shows for PROFILE are the
# tests its run (saved in JSON) ran
listed() {
	block "$1" | awk '/^  Test: / {print $2, $3, ($4 ~ /^W/ ? $4 : "")}' |
		sed 's/ *$//' | sort -u > "$OD/$1.list"
	jq -r '.tests[].name' "$2" | sort -u > "$OD/$1.ran"
	diff "$OD/$1.list" "$OD/$1.ran" || { echo "profile $1: --list-profiles and the run differ"; false; }
}

# the other profiles are checked with listed by their own tests below
@test "the tests --list-profiles shows are the tests each profile runs: CDM 8's" {
	ran default peak real demo nvme
	for p in default peak real demo nvme; do
		listed "$p" "$RUNS/$p.json"
	done
}

@test "-p cdm7 runs CDM 7's Default: RND4K at Q32T16, Profile: Default" {
	ran cdm7
	expect cdm7 "$RUNS/cdm7.json" "read write" "SEQ1M Q8T1" "SEQ1M Q1T1" "RND4K Q32T16" "RND4K Q1T1"
	listed cdm7 "$RUNS/cdm7.json"
	assert_grep -x 'Profile: Default' "$RUNS/cdm7.txt"
	assert_equal "$(setting "$RUNS/cdm7.json" profile)" Default
	# the footer's rows: 16 threads of 32 I/Os
	assert_grep '^  RND    4KiB (Q= 32, T=16): ' "$RUNS/cdm7.txt"
}

@test "-p cdm7-peak runs SEQ1M Q8T1 and RND4K Q32T16, Profile: Peak" {
	ran cdm7-peak
	expect cdm7-peak "$RUNS/cdm7-peak.json" "read write" "SEQ1M Q8T1" "RND4K Q32T16"
	listed cdm7-peak "$RUNS/cdm7-peak.json"
	assert_grep -x 'Profile: Peak' "$RUNS/cdm7-peak.txt"
}

@test "-p cdm6 runs CDM 6's four tests, Profile: CDM 6" {
	ran cdm6
	expect cdm6 "$RUNS/cdm6.json" "read write" "SEQ128K Q32T1" "RND4K Q8T8" "RND4K Q32T1" "RND4K Q1T1"
	listed cdm6 "$RUNS/cdm6.json"
	assert_grep -x 'Profile: CDM 6' "$RUNS/cdm6.txt"
}

@test "-p flash runs Default's tests, 1 s a pass (its own Measure time), Profile: Default" {
	ran flash flash-1s
	expect flash "$RUNS/flash.json" "read write" "SEQ1M Q8T1" "SEQ1M Q1T1" "RND4K Q32T1" "RND4K Q1T1"
	listed flash "$RUNS/flash.json"
	assert_grep -x 'Profile: Default' "$RUNS/flash.txt"
	# its own Measure time, in the run of one of its tests with the
	# profile's time
	assert_equal "$(run_tests "$RUNS/flash-1s.json")" "RND4K Q1T1 read"
	assert_equal "$(setting "$RUNS/flash-1s.json" time_s)" 1
	assert_grep -x '   Time: Measure 1 sec / Interval 0 sec ' "$RUNS/flash-1s.txt"
}

@test "-p sqlio runs 8K and 64K, random and sequential, at 1-8 threads: one pass, no warm-up" {
	ran sqlio
	expect sqlio "$RUNS/sqlio.json" "read write" \
		"RND8K Q8T1" "RND8K Q8T2" "RND8K Q8T4" "RND8K Q8T8" \
		"SEQ8K Q8T1" "SEQ8K Q8T2" "SEQ8K Q8T4" "SEQ8K Q8T8" \
		"RND64K Q8T1" "RND64K Q8T2" "RND64K Q8T4" "RND64K Q8T8" \
		"SEQ64K Q8T1" "SEQ64K Q8T2" "SEQ64K Q8T4" "SEQ64K Q8T8"
	listed sqlio "$RUNS/sqlio.json"
	# count 1 and warm-up 0 are the profile's own: the run did not set them
	assert_equal "$(setting "$RUNS/sqlio.json" count)" 1
	assert_equal "$(setting "$RUNS/sqlio.json" warmup_s)" 0
	assert_grep -x 'Profile: SQLIO' "$RUNS/sqlio.txt"
}

@test "-p orion-simple runs reads only: 8K random at 1-5 outstanding, 1M random at 1-2" {
	ran orion-simple orion-all
	expect orion-simple "$RUNS/orion-simple.json" "read" \
		"RND8K Q1T1" "RND8K Q2T1" "RND8K Q3T1" "RND8K Q4T1" "RND8K Q5T1" \
		"RND1M Q1T1" "RND1M Q2T1"
	listed orion-simple "$RUNS/orion-simple.json"
	# count 1 and interval 0 are the profile's own
	assert_equal "$(setting "$RUNS/orion-simple.json" count)" 1
	assert_equal "$(setting "$RUNS/orion-simple.json" interval_s)" 0
	assert_grep -x 'Profile: ORION simple' "$RUNS/orion-simple.txt"
	refute_grep '^\[Write\]' "$RUNS/orion-simple.txt"
	# --mode on the command line wins over the profile's mode = read
	assert_equal "$(run_tests "$RUNS/orion-all.json" | grep -c ' write$')" 7
}

@test "-p orion-advanced runs the same points as mixed tests, 20 % writes, once each" {
	ran orion-advanced
	expect orion-advanced "$RUNS/orion-advanced.json" "mix" \
		"RND8K Q1T1 W20" "RND8K Q2T1 W20" "RND8K Q3T1 W20" "RND8K Q4T1 W20" \
		"RND8K Q5T1 W20" "RND1M Q1T1 W20" "RND1M Q2T1 W20"
	listed orion-advanced "$RUNS/orion-advanced.json"
	# no test at another ratio
	assert_equal "$(jq -r '.tests[] | select(.read_pct != 80 or .write_pct != 20) | .name' \
		"$RUNS/orion-advanced.json")" ""
	assert_grep -x '\[Mix\] Read 80%/Write 20%' "$RUNS/orion-advanced.txt"
	assert_grep -x 'Profile: ORION advanced' "$RUNS/orion-advanced.txt"
}

@test "a built-in profile runs on a real file too: orion-advanced writes and reads a small file" {
	# the engine auto picks (io_uring or libaio): sync would run every point at Q1
	# passes of 0.5 s: a loaded disk has been seen to complete no I/O in 0.1 s
	run "$CDM" -q --size 16MiB --time 0.5 --warmup 0 --profile orion-advanced \
		-f json -o "$OD/r.json" "$TD"
	echo "$output"
	assert_success
	# every point moved bytes, reads and writes both: figures from I/O
	assert_equal "$(jq '.tests | length' "$OD/r.json")" 7
	assert_equal "$(jq -r '.tests[] | .summary as $s
		| select((.complete and $s.bytes > 0 and $s.read.ios > 0 and $s.write.ios > 0) | not)
		| .name' "$OD/r.json")" ""
	assert_clean "$TD"
}

@test "a profile's mode: read, write, mix or all; --mode wins; a mode that leaves nothing is refused" {
	printf 'mode = write\ntest = RND4K Q2T1\ntest = RND4K Q1T1 W30\n' > "$OD/w.cdm"
	run "$CDM" -q "${NULLDEV[@]}" --size 16MiB --count 1 --time 0.2 --warmup 0 --interval 0 \
		--profile "$OD/w.cdm" -f json -o "$OD/w.json" "$TD"
	assert_success
	assert_equal "$(run_tests "$OD/w.json")" "RND4K Q2T1 write"
	printf 'mode = read\ntest = RND4K Q1T1 W30\n' > "$OD/r.cdm"
	run "$CDM" -q --engine null --size 16MiB --profile "$OD/r.cdm" "$TD"
	assert_failure 2
	assert_output --partial "the profile's mode = read leaves no test to run"
	run "$CDM" -q "${NULLDEV[@]}" --size 16MiB --count 1 --time 0.2 --warmup 0 --interval 0 \
		--profile "$OD/r.cdm" --mode mix -f json -o "$OD/r.json" "$TD"
	assert_success
	assert_equal "$(run_tests "$OD/r.json")" "RND4K Q1T1 W30 mix"
	printf 'mode = reads\ntest = RND4K\n' > "$OD/bad.cdm"
	run "$CDM" -q --engine null --profile "$OD/bad.cdm" "$TD"
	assert_failure 2
	assert_output --partial "$OD/bad.cdm:1: bad value for mode: 'reads' (all, read, write, mix)"
	assert_clean "$TD"
}

@test "a profile file's times in fractions of a second: time = 0.2, warmup = 100ms, carried into the run and --list-profiles" {
	printf '# mine\nname = Short\ntime = 0.2\nwarmup = 100ms\ninterval = 0.25s\ncount = 2\ntest = SEQ1M Q1T1\n' \
		> "$OD/short.cdm"
	run "$CDM" --list-profiles -p "$OD/short.cdm"
	assert_success
	assert_line --regexp '^  Time: +0\.2 s$'
	assert_line --regexp '^  Warm-up: +0\.1 s$'
	assert_line --regexp '^  Interval: +0\.25 s$'
	run "$CDM" -q "${NULLDEV[@]}" --size 16MiB --profile "$OD/short.cdm" --mode read \
		--save "$OD/s.json" -o "$OD/s.txt" "$TD"
	assert_success
	assert_equal "$(jq -c '.settings | [.time_s, .warmup_s, .interval_s, .count]' "$OD/s.json")" "[0.2,0.1,0.25,2]"
	assert_grep -x '   Time: Measure 0.2 sec / Interval 0.25 sec ' "$OD/s.txt"
	assert_grep -x 'Profile: Short' "$OD/s.txt"
	# the command line still wins, in any form
	run "$CDM" -q "${NULLDEV[@]}" --size 16MiB --profile "$OD/short.cdm" --mode read \
		--time 300ms --warmup 0 --save "$OD/t.json" "$TD"
	assert_success
	assert_equal "$(jq -c '.settings | [.time_s, .warmup_s]' "$OD/t.json")" "[0.3,0]"
	assert_clean "$TD"
}
