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
	# small, fast runs: the shape of the figures is checked, never the speed
	QUICK=(--size 16MiB --count 1 --time 1 --interval 0 --warmup 0 --quiet)
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

# assert_grep FILE GREP-OPTION... PATTERN - a line of FILE matches (grep
# -q); if none does, the failure shows the pattern and FILE
assert_grep() {
	local file=$1
	shift
	grep -q "$@" "$file" && return 0
	{
		echo "no line of $file matches: grep $*"
		echo "-- $file:"
		cat "$file"
	} | fail
}

# refute_grep FILE GREP-OPTION... PATTERN - no line of FILE matches
refute_grep() {
	local file=$1
	shift
	grep -q "$@" "$file" || return 0
	{
		echo "a line of $file matches: grep $*"
		echo "-- $file:"
		cat "$file"
	} | fail
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
