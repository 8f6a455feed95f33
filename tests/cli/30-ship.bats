#!/usr/bin/env bats
# Shipping cdm (issue 15): make static's one binary, run where nothing but
# the binary is (an empty chroot, with and without /proc, /sys and /dev);
# make dist's tarball; the Debian package; the container image.
#
# These test the shipped files, not $CDM: in the sanitizer pass of
# `make test` (CDM=build/asan/cdm) they would only repeat the plain pass,
# so they skip there.  The slow ones (a package build, a container build, a
# tarball's own make check) run in `make test` only, not in `make check`
# (tests/run.sh --fast sets CDM_TEST_FAST=yes).

load helpers

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)

# the chroot of a test: $CR, with MOUNTED the directories bound into it
CR=
MOUNTED=()

setup_file() {
	# one build of the static binary for every test of the file (tests of
	# one file may run side by side); its log for a test that needs it
	make -s -C "$ROOT" static > "$BATS_FILE_TMPDIR/static.log" 2>&1 ||
		echo failed >> "$BATS_FILE_TMPDIR/static.log"
}

teardown() {
	# nothing under $TD is removed while anything is still mounted in it:
	# rm -rf through a bound /dev would empty the host's /dev
	if ! chroot_teardown; then
		echo "30-ship: $CR still has mounts; $TD left in place" >&2
		return 1
	fi
	chmod -R u+rwx "$TD" 2>/dev/null
	rm -rf --one-file-system "$TD" "$OD"
}

# not_asan - skip in the sanitizer pass: these tests do not run $CDM
not_asan() {
	case $CDM in
	*/asan/*) skip "the shipped files, tested in the plain pass already" ;;
	esac
}

# slow REASON - skip in make check; run in make test
slow() {
	[ "${CDM_TEST_FAST:-no}" != yes ] || skip "slow ($1): make test runs it, make check does not"
}

# static_bin - the static binary, built by setup_file; skip only when this
# machine cannot link a static C program at all (no libc.a)
static_bin() {
	not_asan
	if grep -q '^failed$' "$BATS_FILE_TMPDIR/static.log"; then
		if ! printf 'int main(void){return 0;}\n' | cc -static -x c - -o "$TD/probe" 2>/dev/null; then
			skip "no static C library (libc.a: Debian's libc6-dev) to link with"
		fi
		cat "$BATS_FILE_TMPDIR/static.log"
		echo "make static failed"
		return 1
	fi
	SBIN=$ROOT/cdm-static
}

# chroot_setup DIR... - an empty root at $TD/root holding only the static
# binary (/cdm) and a writable /data, with DIR (proc, sys, dev) of the host
# bound in; skips when not root or a bind mount is refused
chroot_setup() {
	[ "$(id -u)" -eq 0 ] || skip "needs root for chroot and mount --bind"
	command -v chroot >/dev/null || skip "chroot not installed"
	CR=$TD/root
	mkdir -p "$CR/data"
	cp "$SBIN" "$CR/cdm"
	for d in "$@"; do
		mkdir -p "$CR/$d"
		mount --bind "/$d" "$CR/$d" || skip "mount --bind /$d refused here"
		MOUNTED+=("$CR/$d")
	done
}

# chroot_teardown - unmount what chroot_setup bound, lazily if busy;
# fails when any mount is left under $CR
chroot_teardown() {
	local m left=0
	[ -n "$CR" ] || return 0
	for m in "${MOUNTED[@]}"; do
		umount_quiet "$m"
	done
	for m in "${MOUNTED[@]}"; do
		if mountpoint -q "$m" 2>/dev/null; then
			echo "cannot unmount $m" >&2
			left=1
		fi
	done
	[ "$left" -eq 0 ] && MOUNTED=()
	return $left
}

# works_here ENGINE - the static binary's --list-engines says ENGINE is
# built in and works on this machine
works_here() {
	"$SBIN" --list-engines | grep -qE "^$1 +yes +yes"
}

# a Default run's rows: the engine's number of tests, each read and write
# measured (its JSON tests with bytes and I/Os in every pass)
check_default_run() {	# $1 = JSON file, $2 = number of tests
	python3 - "$1" "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
tests = d["tests"]
assert len(tests) == int(sys.argv[2]), len(tests)
for t in tests:
    assert t["complete"] and t["error"] is None, t["name"]
    assert t["passes_measured"] >= 1, t["name"]
    for p in t["passes"]:
        assert p["bytes"] > 0 and p["ios"] > 0, (t["name"], p)
EOF
}

@test "make static: a statically linked binary with every engine the build has" {
	static_bin
	if command -v file >/dev/null; then
		run file -L "$SBIN"
		[[ "$output" == *"statically linked"* ]]
	fi
	run "$SBIN" --version
	[ "$status" -eq 0 ]
	[[ "$output" == *$'\nlinked: static'* ]]
	# the same engines as ./cdm: liburing and libaio are linked in, not lost
	[ "$(sed -n 's/^engines: //p' <<< "$output")" = "$("$ROOT/cdm" --version | sed -n 's/^engines: //p')" ]
	# and ./cdm is the dynamic one
	"$ROOT/cdm" --version | grep -qx 'linked: dynamic'
}

@test "the static binary in an empty chroot (/proc, /sys, /dev bound) runs the Default profile with each engine" {
	static_bin
	chroot_setup proc sys dev
	ran=
	for e in io_uring libaio sync; do
		if ! works_here "$e"; then
			echo "# $e: not usable on this machine, not run" >&3
			continue
		fi
		run chroot "$CR" /cdm -e "$e" --size 16MiB --count 1 --time 1 --interval 0 \
			--warmup 0 --save "/data/$e.json" /data
		echo "$output"
		[ "$status" -eq 0 ]
		[[ "$output" == *"Profile: Default"* ]]
		[[ "$output" == *"cdm "*" ($e, O_DIRECT)"* ]]
		# no os-release in the chroot: the distribution is unknown, the kernel is not
		[[ "$output" =~ OS:\ unknown\ \[[^]]+\]\ \(x86_64\) ]]
		# the mount holding /data is outside the chroot: its path stands for it
		[[ "$output" == *"Test: 16 MiB (x1) [/data: "* ]]
		case $e in
		sync) check_default_run "$CR/data/$e.json" 4 ;;	# every test at Q1
		*) check_default_run "$CR/data/$e.json" 8 ;;
		esac
		jq -e '.target.mount_point == null and .target.fs_type == "unknown" and
			.system.os == null and (.system.kernel | length > 0)' "$CR/data/$e.json"
		ran="$ran $e"
	done
	[[ "$ran" == *sync* ]]
	# nothing left behind in /data but the saved reports
	[ "$(ls "$CR/data" | grep -vc '\.json$')" -eq 0 ]
}

@test "the static binary with nothing mounted: every system file it reads is missing, each says unknown, the run completes" {
	static_bin
	chroot_setup	# no /proc, /sys or /dev at all
	for e in sync io_uring libaio null; do
		works_here "$e" || continue
		run chroot "$CR" /cdm -e "$e" -t "RND4K Q32T1" "${QUICK[@]}" -f json \
			--save "/data/$e.json" /data
		[ "$status" -eq 0 ] || { echo "$e: $output"; false; }
		check_default_run "$CR/data/$e.json" 2	# read and write
	done
	j=$CR/data/sync.json
	# /etc/os-release and /usr/lib/os-release: the distribution
	jq -e '.system.os == null' "$j"
	# /proc/self/mountinfo: the mount point, its type and source
	jq -e '.target.mount_point == null and .target.fs_type == "unknown" and .target.fs_source == null' "$j"
	# /sys/dev/block: the device, its model, rotational, scheduler
	jq -e '.target.device == null and .target.device_model == null and
		.target.rotational == null and .target.scheduler == null' "$j"
	# /proc/cpuinfo and /proc/meminfo
	jq -e '.system.cpu_model == null and .system.mem_total_bytes == null' "$j"
	# uname(2) needs no file: the kernel is known
	jq -e '(.system.kernel | length > 0) and .system.machine == "x86_64"' "$j"
	# the text report says unknown where the JSON says null
	run chroot "$CR" /cdm -e sync -t "SEQ1M Q1T1" "${QUICK[@]}" /data
	[ "$status" -eq 0 ]
	[[ "$output" =~ OS:\ unknown\ \[ ]]
	[[ "$output" == *"[/data: "* ]]
	run chroot "$CR" /cdm -e sync -t "SEQ1M Q1T1" "${QUICK[@]}" -f markdown /data
	[ "$status" -eq 0 ]
	[[ "$output" == *"CPU unknown"*"RAM unknown; unknown ["* ]]
}
