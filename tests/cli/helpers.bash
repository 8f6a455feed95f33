# helpers.bash - shared setup for cdm's CLI tests (bats).
# CDM is the binary under test (tests/run.sh sets it; default ./cdm).

: "${CDM:=$BATS_TEST_DIRNAME/../../cdm}"

# bats-assert (Debian's bats-assert and bats-support): a failed assertion
# prints what was expected, what came, and the output of the command, so a
# red line in CI is readable without running it again:
#   run "$CDM" ...; assert_success; assert_output --partial "[Read]"
#   assert_equal "$(jq .x f.json)" 5
bats_load_library bats-support
bats_load_library bats-assert

# RT: the prefix for a run whose figures come from the null engine's
# simulated device (--null-device) and are checked from below (a cap
# held, a known round count): SCHED_FIFO priority 1 (chrt) where the
# machine allows it.  The device keeps Q I/Os scheduled; a worker thread
# that the scheduler runs late leaves it idle, and beside a dozen busy
# processes on 2 CPUs a Q1T1 worker at 500 IOPS was seen to get 86.  At
# real-time priority the worker runs when its I/O completes, however busy
# the machine.  Only for runs that sleep on the device (they use almost
# no CPU): a spinning run at this priority would take a whole CPU.  Where
# chrt is refused (no CAP_SYS_NICE) RT is empty and the run is as before.
if chrt -f 1 true 2> /dev/null; then
	RT=(chrt -f 1)
else
	RT=()
fi

# The tests that run make (07-build, the tarball and package tests) start it
# afresh: under `make -j2 check` the outer make's jobserver settings reach
# them and a nested `make -j2` warns "-j2 forced in submake", which those
# tests take for a build warning.
unset MAKEFLAGS MFLAGS MAKELEVEL

# test_watchdog PID LIMIT - every test has a time limit (bats 1.8 has no
# BATS_TEST_TIMEOUT): after LIMIT seconds the test's children and then the
# test itself are stopped, so the test fails instead of hanging the suite.
# Ends by itself once the test's process is gone.
test_watchdog() {
	local pid=$1 limit=$2 t=0
	while kill -0 "$pid" 2>/dev/null; do
		if [ "$t" -ge "$limit" ]; then
			echo "cdm tests: '$BATS_TEST_DESCRIPTION' timed out after ${limit}s" >&2
			pkill -TERM -P "$pid"
			sleep 2
			kill -TERM "$pid" 2>/dev/null
			return
		fi
		sleep 1
		t=$((t + 1))
	done
}

# watchdog_start PID LIMIT - start test_watchdog in the background holding
# none of bats's descriptors: bats reads each test's output through pipes
# (fds 3, 4, 11, 13, 251 in bats 1.8) and waits for their end, so a watchdog
# holding one kept every test open for the whole LIMIT.
watchdog_start() {
	(
		for fd in /proc/self/fd/*; do
			fd=${fd##*/}
			[ "$fd" -gt 2 ] && eval "exec $fd>&-"
		done
		test_watchdog "$1" "$2"
	) < /dev/null > /dev/null 2>&1 &
}

setup() {
	watchdog_start "$BASHPID" "${CDM_TEST_TIMEOUT:-300}"
	# TD: the target directory cdm runs in; OD: the test's own output files
	TD=$(mktemp -d "${BATS_TMPDIR:-/tmp}/cdmtest.XXXXXX")
	OD=$(mktemp -d "${BATS_TMPDIR:-/tmp}/cdmout.XXXXXX")
	# small, fast runs: the shape of the figures is checked, never the
	# speed.  Passes of 0.5 s, not less: a run on the real disk needs an
	# I/O to complete in each pass, and a loaded machine's disk has been
	# seen to complete none in 0.1 s; runs on the null engine can
	# be shorter
	QUICK=(--size 16MiB --count 1 --time 0.5 --interval 0 --warmup 0 --quiet)
}

teardown() {
	# a test may chmod its directory; put it back so it can be removed
	chmod -R u+rwx "$TD" 2>/dev/null
	rm -rf "$TD" "$OD"
}

# mkfs_ext4 DEV [OPTION...] - a quiet ext4 on DEV (a block device or an
# image file) that writes nothing by itself once mounted.  By default
# mke2fs leaves the inode tables of a block device to be zeroed after
# mount (on an image file it punches them out instead): the kernel's
# ext4lazyinit thread zeroes them 0-5 s after mount and jbd2 commits the
# groups' new flags within 5 s more, so a checksum of the device taken
# around a cdm run changed with nobody in the test writing (issue 23:
# 14-device's partition test, under load)
mkfs_ext4() {
	local dev=$1
	shift
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$@" "$dev"
}

# make_dry ARG... - make -n ARG... in the tree (the Makefile's own
# messages) without touching its build.  The Makefile rewrites
# build/settings and build/version-build.h whenever the variables it is
# given make them differ (as it reads itself, -n or not): the next make in
# the tree (07-build's make install) then rebuilt every object and relinked
# ./cdm while other tests were running it, and one of them failed to exec
# it (ETXTBSY, status 126)
make_dry() {
	make -C "$BATS_TEST_DIRNAME/../.." -n SETTINGS="$TD/settings" \
		VERSION_H="$TD/version-build.h" "$@"
}

# For tests that mount something: MNT (a mount point) and LOOP (a loop
# device) are what fs_teardown takes down.
MNT=
LOOP=

# fs_setup TOOL - skip unless root and TOOL is installed; MNT=$TD/mnt
fs_setup() {
	[ "$(id -u)" -eq 0 ] || skip "needs root to mount"
	command -v "$1" >/dev/null || skip "$1 not installed"
	MNT="$TD/mnt"
	mkdir -p "$MNT"
}

# umount_quiet DIR - unmount DIR if it is a mount point (lazily if busy)
umount_quiet() {
	if [ -n "$1" ] && mountpoint -q "$1" 2>/dev/null; then
		umount "$1" || umount -l "$1"
	fi
}

# detach_loop DEV [DIR...] - detach loop device DEV, which this test
# attached to an image under $TD (or a DIR).  Tests run side by side (bats
# --jobs, and other runs of the suite on the machine): a free DEV may be
# attached by another test at once, so DEV is detached only while it is
# backed by this test's file, and by one `losetup -d` that works.  The
# kernel takes it then, or at its last close if something still holds it
# (a filesystem on its way out), and DEV is no longer ours: a second
# `losetup -d` (a retry while it still showed our file) could come just
# after that last close and detach the next test's device.  A refused
# `losetup -d` (EBUSY from older kernels) is tried again for a while.
detach_loop() {
	CDM_TEST_WAIT=10 wait_for "$1 detached" loop_detach_own "$1" "$TD" "${@:2}"
}

# loop_detach_own DEV DIR...: true once DEV is not backed by a file under
# a DIR, or `losetup -d DEV` worked
loop_detach_own() {
	local dev=$1 back d
	shift
	back=$(losetup -nO BACK-FILE "$dev" 2> /dev/null) || return 0
	for d in "$@"; do
		[ -n "$d" ] || continue
		case "$back" in
		"$d"/*) losetup -d "$dev" 2> /dev/null; return ;;
		esac
	done
	return 0
}

# fs_teardown [DIR...] - unmount $MNT, detach $LOOP, then unmount each DIR
# (e.g. the tmpfs holding a loop device's image), and remove $TD and $OD;
# whatever the test got to (the kernel may hold a loop device a moment
# after umount)
fs_teardown() {
	umount_quiet "$MNT"
	[ -z "$LOOP" ] || detach_loop "$LOOP"
	for d in "$@"; do
		umount_quiet "$d"
	done
	chmod -R u+rwx "$TD" 2>/dev/null
	rm -rf "$TD" "$OD"
}

# no test file (or kept file) left in directory $1
assert_clean() {
	local left
	left=$(find "$1" -mindepth 1 -maxdepth 1 -name 'cdm-*' 2>/dev/null)
	if [ -n "$left" ]; then
		echo "left behind: $left" >&2
		return 1
	fi
}

# strace ARGS...: strace with LeakSanitizer off, for every traced run of
# cdm: LSan cannot work under ptrace, so an ASan build of cdm would end in
# its fatal error (exit 1) after a run that went well
traced() {
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace "$@"
}

# does this build and kernel run engine $1?  (sets SKIP_WHY)
engine_works() {
	local line
	line=$("$CDM" --list-engines | awk -v e="$1" '$1 == e')
	if [ -z "$line" ]; then
		SKIP_WHY="engine $1 unknown to this build"
		return 1
	fi
	if [ "$(echo "$line" | awk '{print $2}')" != yes ]; then
		SKIP_WHY="engine $1 not built in"
		return 1
	fi
	if [ "$(echo "$line" | awk '{print $3}')" != yes ]; then
		SKIP_WHY="engine $1 does not work on this kernel: $line"
		return 1
	fi
	return 0
}

# fields of result row $1 (a line of the report): label Q T MB/s IOPS lat_us
row_fields() {
	echo "$1" | sed -E 's/^  (SEQ|RND) +([0-9]+)(MiB|KiB|B) \(Q= *([0-9]+), T= *([0-9]+)\): +([0-9.]+) MB\/s \[ *([0-9.]+) IOPS\] < *([0-9.]+) us>$/\1 \2\3 \4 \5 \6 \7 \8/'
}

# csv_col CSV NAME LINE - the field under header NAME on line LINE (2: the
# first row after the header) of the CSV text CSV, RFC 4180 quoting undone;
# fails when there is no such column
csv_col() {
	python3 -c 'import csv, sys
rows = list(csv.reader(sys.argv[1].splitlines()))
print(rows[int(sys.argv[3]) - 1][rows[0].index(sys.argv[2])])' "$@"
}

# wait_for WHAT CMD... - wait for an event: run CMD (a test, such as
# `test -e FILE` or `grep -q LINE FILE`) every 20 ms until it succeeds.
# Not a timing: the bound (CDM_TEST_WAIT seconds, default 120) only turns
# a hang into a failure, which names WHAT.
wait_for() {
	local what=$1 n=0 limit=$((${CDM_TEST_WAIT:-120} * 50))
	shift
	until "$@"; do
		n=$((n + 1))
		if [ $n -ge $limit ]; then
			echo "waited ${CDM_TEST_WAIT:-120} s for $what, in vain: $*" >&2
			return 1
		fi
		sleep 0.02
	done
}

# ---- events a test waits for (with wait_for) instead of a sleep ----

# has_thread PID NAME - has process PID a thread named NAME (its comm:
# cdm's workers are "cdm-w<i>", its preparation writers "cdm-p<i>")?
has_thread() {
	grep -qx -- "$2" /proc/"$1"/task/*/comm 2> /dev/null
}

# held_or_ended FILE PID - is the fault shim's FILE ("$HOLD/pread.held")
# there, or has PID ended (so that a wait for a hold never outlasts cdm)?
held_or_ended() {
	[ -e "$1" ] || ! kill -0 "$2" 2> /dev/null
}

# tty_start DIR ARGS... - start cdm (ARGS) in the background on a terminal
# of its own (script(1)), so that it draws its progress line, which says
# the phase it is in ("test 1 of 2  RND4K Q1T1 Read  pass 2/30 ...",
# docs/method.md, "Progress"): the event for a test that needs "the first
# pass has ended".  Its stdout goes to DIR/out; what it writes on the
# terminal (stderr: the progress line, notes, errors) to DIR/tty as it
# comes.  Sets PID (cdm's own process, to signal) and TTY_PID (script's,
# for tty_wait).  Skips without script (util-linux).
tty_start() {
	local dir=$1 cmd
	shift
	command -v script > /dev/null || skip "script (util-linux) is not installed"
	printf -v cmd '%q ' "$CDM" "$@"
	rm -f "$dir/tty" "$dir/pid" "$dir/pid.tmp"
	# the shell that script(1) starts writes its PID, then becomes cdm
	SHELL=/bin/bash script -q -f -e -c \
		"echo \$\$ > '$dir/pid.tmp' && mv '$dir/pid.tmp' '$dir/pid' && exec $cmd > '$dir/out'" \
		"$dir/tty" < /dev/null > /dev/null 2>&1 &
	TTY_PID=$!
	TTY_DIR=$dir
	wait_for "cdm to start on a terminal" test -s "$dir/pid" || return 1
	PID=$(cat "$dir/pid")
}

# tty_shows TEXT - has cdm's terminal shown TEXT (a fixed string, such as
# "test 1 of 2  RND4K Q1T1 Read  pass 2/30")?
tty_shows() {
	grep -qF -- "$1" "$TTY_DIR/tty"
}

# tty_wait - wait for the run of tty_start to end: its exit status in
# TTY_STATUS, and its terminal's output in DIR/err, a line for each
# progress update (carriage returns and line clears taken out)
tty_wait() {
	TTY_STATUS=0
	wait "$TTY_PID" || TTY_STATUS=$?
	tr '\r' '\n' < "$TTY_DIR/tty" | sed 's/\x1b\[K//g' | grep -v '^Script ' | grep . > "$TTY_DIR/err" || true
}

# thread_sleeps PID NAME - is thread NAME of PID asleep in a nanosleep?
# A worker sleeps so only once its schedule runs (before, it waits on the
# start gate's futex): for a paced test or the null engine with a service time, the
# sign that the pass is on.
thread_sleeps() {
	local c
	for c in /proc/"$1"/task/*/comm; do
		[ "$(cat "$c" 2> /dev/null)" = "$2" ] &&
			grep -q nanosleep "${c%comm}wchan" 2> /dev/null && return 0
	done
	return 1
}

# ended PID - has process PID ended?  (A child of this shell: bash reaps
# it as it ends and keeps its status for `wait`.)
ended() {
	! kill -0 "$1" 2> /dev/null
}

# assert_grep [GREP-OPTIONS...] PATTERN FILE - a line of FILE matches
# PATTERN (grep's options: -E, -x, -F, -e; -c is not one); FILE - is
# standard input (cmd | assert_grep PATTERN -).  On failure the pattern
# and the text are printed.  refute_grep: no line does.
assert_grep() {
	grep_check 1 "$@"
}

refute_grep() {
	grep_check 0 "$@"
}

# grep_check WANT [GREP-OPTIONS...] PATTERN FILE - assert_grep (WANT 1) or
# refute_grep (WANT 0)
grep_check() {
	local want=$1 file=${!#} name=${!#} found=0 msg
	shift
	if [ "$file" = - ]; then
		file=$(mktemp "${OD:-${BATS_TMPDIR:-/tmp}}/stdin.XXXXXX")
		cat > "$file"
		name="standard input"
	fi
	grep -q "${@:1:$#-1}" -- "$file" 2> /dev/null && found=1
	if [ "$found" = "$want" ]; then
		[ "$name" = "$file" ] || rm -f "$file"
		return 0
	fi
	if [ "$want" = 1 ]; then
		msg=$(batslib_print_kv_single 7 pattern "${*:1:$#-1}" file "$name"
			batslib_print_kv_single_or_multi 7 text "$(head -c 4000 -- "$file" 2>&1)")
		msg=$(echo "$msg" | batslib_decorate 'no line matches')
	else
		msg=$(batslib_print_kv_single 7 pattern "${*:1:$#-1}" file "$name"
			batslib_print_kv_single_or_multi 7 lines "$(grep "${@:1:$#-1}" -- "$file" | head -20)")
		msg=$(echo "$msg" | batslib_decorate 'a line matches, and none should')
	fi
	[ "$name" = "$file" ] || rm -f "$file"
	echo "$msg" | fail
}

# assert_like VALUE 'GLOB' - VALUE matches GLOB, a pattern written as in
# [[ VALUE == GLOB ]] and passed in single quotes: quoted parts are
# literal, * and ? outside them match any text, variables are expanded
# (in the caller's scope).  On failure the pattern and the value are
# printed:  assert_like "$output" '*"--svg"*"names the same file"*'
# refute_like: VALUE does not match GLOB.
assert_like() {
	eval "[[ \$1 == $2 ]]" && return 0
	batslib_print_kv_single_or_multi 7 pattern "$2" value "$1" |
		batslib_decorate 'value does not match' | fail
}

refute_like() {
	eval "[[ \$1 == $2 ]]" || return 0
	batslib_print_kv_single_or_multi 7 pattern "$2" value "$1" |
		batslib_decorate 'value matches, and should not' | fail
}

# table_options [SUB] [short] - the options of cdm's option table for the
# run (no SUB) or subcommand SUB, from the hidden `cdm --list-options=SUB`
# (src/cli/options.c), sorted: the long names ("--size"), or with "short"
# the pairs "-s, --size" of those with a short letter.  What --help, the
# man page and the completions are held to (01, 06, 31).
table_options() {
	local list
	list=$("$CDM" --list-options${1:+=$1}) || return 1
	if [ "${2-}" = short ]; then
		awk -F'\t' '$2 != "-" { print $2 ", " $1 }' <<< "$list" | sort
	else
		cut -f1 <<< "$list" | sort
	fi
}
