#!/usr/bin/env bats
# A raw block device as TARGET: loop devices this file creates on images in
# its temporary directory, always taken down again (umount, swapoff,
# device-mapper target removed, partitions deleted, loop detached, image
# removed), whatever happens.  Read runs must leave the device's content
# as it was (assert_unchanged); write runs need --allow-destructive-write
# and a device nobody uses.  No other device is ever named.  Needs root
# and losetup; skips with the reason otherwise.  Where a test acts at a
# point of a run (a signal, a second run), the fault shim holds cdm
# there (build/tests/faultshim.so, "hold"; those skip without it).

load helpers

TOOLS="$BATS_TEST_DIRNAME/../../build/tests"
SHIM="$TOOLS/faultshim.so"
MNT=
LOOPS=()
SWAPS=()
DMS=()

dev_setup() {
	[ "$(id -u)" -eq 0 ] || skip "needs root for loop devices"
	command -v losetup >/dev/null || skip "losetup not installed"
	MNT="$TD/mnt"
	mkdir -p "$MNT"
}

teardown() {
	local l
	for l in "${DMS[@]}"; do
		timeout 10 dmsetup remove --noudevsync "$l" 2> /dev/null
	done
	for l in "${SWAPS[@]}"; do
		swapoff "$l" 2>/dev/null
	done
	if [ -n "$MNT" ] && mountpoint -q "$MNT"; then
		umount "$MNT" || umount -l "$MNT"
	fi
	for l in "${LOOPS[@]}"; do
		partx -d "$l" 2>/dev/null
		detach_loop "$l"
	done
	chmod -R u+rwx "$TD" 2>/dev/null
	rm -rf "$TD" "$OD"
}

# a loop device over image $TD/$1 of size $2 (extra losetup options after);
# sets LOOP.  The image is sparse unless the test writes it.
new_loop() {
	local img="$TD/$1" size=$2
	shift 2
	[ -e "$img" ] || truncate -s "$size" "$img"
	LOOP=$(losetup -f --show "$@" "$img") || skip "no loop device available"
	LOOPS+=("$LOOP")
}

# an image of $2 MiB of random bytes, so that reads touch written blocks
written_image() {
	dd if=/dev/urandom of="$TD/$1" bs=1M count="$2" status=none
}

# the checksum of what loop device $1 holds, taken from its backing file
# (this test's image under $TD: a write through the device lands there)
# after the device's own buffers are written out; $2 bytes of it (all if
# not given)
sum() {
	local back
	back=$(losetup -nO BACK-FILE "$1") || return 1
	case "$back" in
	"$TD"/*) ;;
	*) echo "$1 is backed by $back, not this test's image" >&2; return 1 ;;
	esac
	blockdev --flushbufs "$1" 2> /dev/null
	head -c "${2:-$(stat -c %s "$back")}" "$back" | md5sum | cut -d' ' -f1
}

# sectors written to device $1 since it was made, by anyone
written() {
	awk '{ print $7 }' "/sys/block/${1#/dev/}/stat"
}

# sum_before DEV: what DEV holds now (BEFORE), for assert_unchanged
sum_before() {
	BEFORE=$(sum "$1")
	BEFORE_W=$(written "$1")
	[ -n "$BEFORE" ]
}

# assert_unchanged DEV [BYTES]: DEV holds what it held at sum_before
# (its first BYTES); if not, the failure says how much was written to it
# meanwhile and by which loop device over which file, which tells a write
# of cdm's from one of the kernel's (e.g. ext4's lazy init, see mkfs_ext4)
assert_unchanged() {
	local now
	now=$(sum "$@")
	[ -n "$now" ] && [ "$now" = "$BEFORE" ] && return 0
	{
		echo "$1 changed under a run that must not write to it (md5 of its backing file${2:+, its first $2 bytes})"
		echo "expected : $BEFORE"
		echo "actual   : $now"
		echo "sectors written to $1 meanwhile, by anyone: $(($(written "$1") - BEFORE_W))"
		losetup -l "$1"
	} | fail
}

@test "a read run on a loop device reads it (the default mode), and leaves its content as it was" {
	dev_setup
	written_image img 32
	new_loop img 32M
	sum_before "$LOOP"
	run "$CDM" --count 1 --time 1 --interval 0 --warmup 0 --quiet \
		--test "SEQ1M Q8T1" --test "RND4K Q32T1" "$LOOP"
	assert_success
	assert_line "[Read]"
	refute_line "[Write]"
	# the whole device by default, and the footer says it is a device
	assert_line "   Test: 32 MiB (x1) [$LOOP: block device, 32 MiB, 512-byte sectors]"
	assert_line --regexp '^  RND    4KiB \(Q= 32, T= 1\): +[0-9]+\.[0-9]+ MB/s'
	# written image: no warning about never-written blocks
	refute_output --partial "never written"
	assert_unchanged "$LOOP"
	# and the JSON says so too
	run "$CDM" "${QUICK[@]}" --test RND4K --format json "$LOOP"
	assert_success
	assert_output --partial '"is_device": true'
	assert_output --partial '"device_bytes": 33554432'
	assert_output --partial '"logical_block_bytes": 512'
	assert_unchanged "$LOOP"
}

@test "a read run on a sparse image warns that never-written blocks may not touch the media, and says how to write it" {
	dev_setup
	new_loop img 32M
	run "$CDM" "${QUICK[@]}" --test RND4K "$LOOP"
	assert_success
	assert_output --partial "warning: $LOOP: 100% of the 16 MiB tested was never written (a loop device over the sparse file $TD/img)"
	assert_output --partial "write it first: cdm --mode write --allow-destructive-write $LOOP (which fills it), or dd if=/dev/urandom of=$LOOP"
	# nothing was written to it: the image is still all hole
	assert_equal "$(du -k "$TD/img" | cut -f1)" 0
}

@test "write tests on a device without --allow-destructive-write are refused: one line, exit 2, content unchanged" {
	dev_setup
	written_image img 16
	new_loop img 16M
	sum_before "$LOOP"
	# Mix tests write too: --mode mix, a W<pct> spec, --mix with the default mode given
	for args in "--mode write" "--mode all" "--mode mix" "--mode mix --test RND4KW20" "--mode all --mix 70"; do
		run "$CDM" "${QUICK[@]}" --test RND4K $args "$LOOP"
		echo "with $args:"
		assert_failure 2
		assert_output "cdm: $LOOP: write tests on a block device overwrite its data: add --allow-destructive-write to run them (on a device the default mode is read)"
	done
	assert_unchanged "$LOOP"
}

@test "with --allow-destructive-write an unused loop device is written, read and written again" {
	dev_setup
	written_image img 32
	new_loop img 32M
	before=$(sum "$LOOP")
	run "$CDM" "${QUICK[@]}" --test RND4K --mode all --allow-destructive-write "$LOOP"
	assert_success
	assert_line "[Read]"
	assert_line "[Write]"
	[ "$(sum "$LOOP")" != "$before" ] || fail "$LOOP still holds what it held before a write run (md5 $before)"
}

@test "only the tested region of the device is written" {
	dev_setup
	written_image img 32
	cp "$TD/img" "$TD/orig"
	new_loop img 32M
	run "$CDM" "${QUICK[@]}" --test RND4K --mode write --allow-destructive-write "$LOOP"
	assert_success
	# the first 16 MiB changed, the last 16 MiB did not
	if cmp -s <(head -c 16M "$TD/orig") <(head -c 16M "$LOOP"); then
		fail "the first 16 MiB of $LOOP, the tested region, were not written"
	fi
	cmp <(tail -c 16M "$TD/orig") <(tail -c 16M "$LOOP")
}

@test "a mounted device is refused for writing, naming the mount point; the filesystem is untouched" {
	dev_setup
	command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 not installed"
	new_loop img 32M
	mkfs_ext4 "$LOOP" || skip "mkfs.ext4 failed"
	mount "$LOOP" "$MNT" || skip "cannot mount ext4 on $LOOP"
	echo precious > "$MNT/data"
	sync
	sum_before "$LOOP"
	run "$CDM" "${QUICK[@]}" --test RND4K --mode write --allow-destructive-write "$LOOP"
	assert_failure 1
	assert_output "cdm: $LOOP: in use, so cdm will not write to it: mounted on $MNT (ext4)"
	assert_unchanged "$LOOP"
	assert_equal "$(cat "$MNT/data")" precious
	# reading a mounted device is allowed, with a note
	run "$CDM" "${QUICK[@]}" --test RND4K "$LOOP"
	assert_success
	assert_output --partial "note: $LOOP: mounted on $MNT (ext4): "
}

@test "a device used as swap is refused for writing, and the refusal says swap" {
	dev_setup
	command -v mkswap >/dev/null || skip "mkswap not installed"
	new_loop img 32M
	mkswap "$LOOP" > /dev/null || skip "mkswap failed"
	swapon "$LOOP" 2>/dev/null || skip "swapon does not work here"
	SWAPS+=("$LOOP")
	out=$(awk '$1 == "pswpout" { print $2 }' /proc/vmstat)
	sum_before "$LOOP"
	header=$(sum "$LOOP" 4096)
	run "$CDM" "${QUICK[@]}" --test RND4K --mode write --allow-destructive-write "$LOOP"
	assert_failure 1
	assert_line --index 0 "cdm: $LOOP: in use, so cdm will not write to it: in use as swap (swapoff $LOOP to free it)"
	# the kernel may swap any process's pages out to this device, as to
	# any swap (memory pressure): all of it is compared if no page was
	# swapped out meanwhile, else its header page, which holds no slot
	if [ "$(awk '$1 == "pswpout" { print $2 }' /proc/vmstat)" = "$out" ]; then
		assert_unchanged "$LOOP"
	else
		BEFORE=$header
		assert_unchanged "$LOOP" 4096
	fi
}

@test "a device whose partition is mounted is refused, naming the partition and the mount point" {
	dev_setup
	command -v sfdisk >/dev/null || skip "sfdisk not installed (fdisk package)"
	command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 not installed"
	truncate -s 64M "$TD/img"
	printf ',32M\n,\n' | sfdisk -q "$TD/img" || skip "sfdisk failed"
	new_loop img 64M -P
	# without udev or partscan the partitions may need adding by hand
	[ -b "${LOOP}p1" ] || partx -a "$LOOP" 2>/dev/null || true
	[ -b "${LOOP}p1" ] || skip "no partition devices for $LOOP"
	mkfs_ext4 "${LOOP}p1" || skip "mkfs.ext4 failed"
	mount "${LOOP}p1" "$MNT" || skip "cannot mount ${LOOP}p1"
	sum_before "$LOOP"
	run "$CDM" "${QUICK[@]}" --test RND4K --mode write --allow-destructive-write "$LOOP"
	assert_failure 1
	assert_line --index 0 "cdm: $LOOP: in use, so cdm will not write to it: its partition ${LOOP#/dev/}p1 is mounted on $MNT (ext4)"
	assert_unchanged "$LOOP"
}

@test "a device held by device-mapper is refused, naming the holder" {
	dev_setup
	command -v dmsetup >/dev/null || skip "dmsetup not installed"
	written_image img 16
	new_loop img 16M
	name="cdmtest-$$-$BATS_TEST_NUMBER"
	timeout 10 dmsetup create --noudevsync "$name" --table "0 32768 linear $LOOP 0" 2>/dev/null ||
		skip "device-mapper does not work here (no dm-mod in this kernel?)"
	DMS+=("$name")
	sum_before "$LOOP"
	run "$CDM" "${QUICK[@]}" --test RND4K --mode write --allow-destructive-write "$LOOP"
	assert_failure 1
	assert_line --index 0 --regexp "^cdm: $LOOP: in use, so cdm will not write to it: held by device-mapper dm-[0-9]+ \($name\)\$"
	assert_unchanged "$LOOP"
}

@test "device limits: --size beyond the device, blocks not a multiple of its sector, --keep" {
	dev_setup
	new_loop img 16M -b 4096
	[ "$(blockdev --getss "$LOOP")" -eq 4096 ] || skip "losetup -b 4096 did not set the sector size"
	run "$CDM" --size 32MiB --count 1 --time 1 --quiet --test RND4K "$LOOP"
	assert_failure 2
	assert_line --index 0 "cdm: $LOOP: --size 32 MiB is larger than the device (16 MiB)"
	# the alignment rule, its words and its exit status are a file target's
	# (11-workload: "... 4096-byte sectors"): one error whatever the target
	run "$CDM" "${QUICK[@]}" --size 8MiB --test RND512B "$LOOP"
	assert_failure 1
	assert_line --index 0 "cdm: $LOOP: RND512B Q1T1: block size 512 B is not a multiple of the 4096-byte logical block size of ${LOOP#/dev/}, which O_DIRECT needs; use multiples of 4096 B, or --buffered"
	run "$CDM" "${QUICK[@]}" --size 8MiB --test RND4K --keep "$LOOP"
	assert_failure 2
	assert_line --index 0 "cdm: $LOOP: --keep keeps a test file; a block device has none"
	# --file is for kept test files: a device is named as TARGET
	run "$CDM" --count 1 --time 1 --quiet --test RND4K --file "$LOOP"
	assert_failure 1
	assert_line --index 0 "cdm: $LOOP: a block device is a TARGET, not a --file: cdm $LOOP"
	# 4 KiB blocks on 4 KiB sectors run, and the footer names the sector size
	run "$CDM" "${QUICK[@]}" --size 8MiB --test RND4K "$LOOP"
	assert_success
	assert_output --partial "[$LOOP: block device, 16 MiB, 4096-byte sectors]"
}

# cdm with the fault shim's hold $1 (tests/fault/faultshim.c): a call it
# covers waits until the test touches $OD/hold/<call>-<len>.go; in the
# background, stdout in $OD/out, stderr in $OD/err; sets pid
held_cdm() {
	local hold=$1
	shift
	[ -f "$SHIM" ] || skip "build/tests/faultshim.so not built (make tools)"
	mkdir -p "$OD/hold"
	CDM_FAULT=$hold CDM_FAULT_HOLD=$OD/hold LD_PRELOAD=$SHIM \
		ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" \
		"$CDM" "$@" > "$OD/out" 2> "$OD/err" &
	pid=$!
}

# the exit status of background cdm $pid (after at most 20 s: a liveness
# guard, not a timing) in st
reap() {
	st=0
	timeout 20 tail --pid="$pid" -f /dev/null || { kill -9 "$pid"; echo "cdm did not stop"; }
	wait "$pid" || st=$?
}

@test "SIGINT during a read run on a device: exit 130, rows so far, the device closed and unchanged" {
	dev_setup
	written_image img 16
	new_loop img 16M
	sum_before "$LOOP"
	# the first 128 KiB read of SEQ128K waits: RND4K's passes are over
	held_cdm pread:hold:0:131072 --quiet --count 2 --time 1 --warmup 0 --interval 0 \
		--engine sync --test RND4K --test SEQ128K "$LOOP"
	wait_for "cdm at the first read of SEQ128K" test -e "$OD/hold/pread-131072.held"
	kill -INT "$pid"
	touch "$OD/hold/pread-131072.go"
	reap
	cat "$OD/err"
	assert_equal "$st" 130
	grep -qx "cdm: interrupted by Interrupt: the report shows the tests measured before it; the device was closed" "$OD/err"
	grep -qE '^  RND    4KiB \(Q=  1, T= 1\):' "$OD/out"
	assert_unchanged "$LOOP"
}

@test "a device whose sampled blocks all read as zeros (a partition of a sparse image) gets the never-written warning" {
	dev_setup
	command -v sfdisk >/dev/null || skip "sfdisk not installed (fdisk package)"
	truncate -s 64M "$TD/img"
	printf ',32M\n,\n' | sfdisk -q "$TD/img" || skip "sfdisk failed"
	new_loop img 64M -P
	[ -b "${LOOP}p2" ] || partx -a "$LOOP" 2>/dev/null || true
	[ -b "${LOOP}p2" ] || skip "no partition devices for $LOOP"
	# a partition has no backing file of its own: the blocks are sampled
	run "$CDM" "${QUICK[@]}" --test RND4K "${LOOP}p2"
	assert_success
	assert_output --partial "warning: ${LOOP}p2: all 64 blocks sampled over the 16 MiB tested read back as zeros: it may never have been written"
	assert_output --partial "--allow-destructive-write ${LOOP}p2"
	# once written, only the general note remains
	dd if=/dev/urandom of="${LOOP}p2" bs=1M count=16 oflag=direct status=none
	run "$CDM" "${QUICK[@]}" --test RND4K "${LOOP}p2"
	assert_success
	refute_output --partial "read back as zeros"
	assert_output --partial "note: ${LOOP}p2: reads of blocks that were never written"
}

@test "a device another cdm run is writing is refused: the kernel's exclusive open says busy" {
	dev_setup
	written_image img 16
	new_loop img 16M
	# the first run's first 4 MiB write of its fill waits: it holds the
	# device, opened O_EXCL, until the second run is refused
	held_cdm pwrite:hold:0:4194304 "${QUICK[@]}" --test RND4K --mode write \
		--allow-destructive-write "$LOOP"
	wait_for "the first run's fill" test -e "$OD/hold/pwrite-4194304.held"
	run "$CDM" "${QUICK[@]}" --test RND4K --mode write --allow-destructive-write "$LOOP"
	kill -INT "$pid"
	touch "$OD/hold/pwrite-4194304.go"
	reap
	assert_failure 1
	assert_line --index 0 "cdm: $LOOP: in use, so cdm will not write to it: another program holds it exclusively (a filesystem, LVM, RAID, or another cdm run)"
	assert_equal "$st" 130
}

@test "a device the user may not open is refused with the reason (as an unprivileged user)" {
	dev_setup
	command -v setpriv >/dev/null || skip "setpriv not installed"
	new_loop img 16M
	[ "$(stat -c %a "$LOOP")" = 660 ] || [ "$(stat -c %a "$LOOP")" = 600 ] ||
		skip "$LOOP is readable by others here"
	run setpriv --reuid=65534 --regid=65534 --clear-groups "$CDM" "${QUICK[@]}" --test RND4K "$LOOP"
	assert_failure 1
	assert_line --index 0 "cdm: $LOOP: cannot open the block device: Permission denied"
}

@test "a read-only device: reads run, writes are refused with the reason" {
	dev_setup
	written_image img 16
	new_loop img 16M -r
	sum_before "$LOOP"
	run "$CDM" "${QUICK[@]}" --test RND4K --mode write --allow-destructive-write "$LOOP"
	assert_failure 1
	assert_line --index 0 "cdm: $LOOP: the device is read-only, so write tests cannot run on it (--mode read runs only the reads)"
	run "$CDM" "${QUICK[@]}" --test RND4K --mode read --precondition --allow-destructive-write "$LOOP"
	assert_failure 1
	assert_line --index 0 "cdm: $LOOP: the device is read-only, so --precondition cannot run on it (it writes the whole test file)"
	# --sync reads through a read-only descriptor
	run "$CDM" "${QUICK[@]}" --test RND4K --sync "$LOOP"
	assert_success
	run "$CDM" "${QUICK[@]}" --test RND4K "$LOOP"
	assert_success
	assert_unchanged "$LOOP"
}

# issue 12, item 9: --allow-destructive-write alone ran only the read tests
# and said nothing.  It still reads only (the permission does not choose the
# tests), and a note says how to include the writes; with --mode it is quiet.
@test "--allow-destructive-write without --mode reads only and says how to include the writes" {
	dev_setup
	written_image img 32
	new_loop img 32M
	sum_before "$LOOP"
	run "$CDM" "${QUICK[@]}" --test RND4K --allow-destructive-write "$LOOP"
	assert_success
	assert_line "cdm: note: $LOOP: --allow-destructive-write without --mode runs only the read tests (the default on a block device); add --mode all or --mode write to run the write tests"
	assert_line "[Read]"
	refute_line "[Write]"
	assert_unchanged "$LOOP"
	run "$CDM" "${QUICK[@]}" --test RND4K --mode read --allow-destructive-write "$LOOP"
	assert_success
	refute_output --partial "note: $LOOP: --allow-destructive-write"
}

# issue 25, item 9: a 1 MiB device ran SEQ1M Q8 with no word that its eight
# reads in flight hit one block.  The note, for a device and a file alike,
# for each test with more I/Os in flight than blocks, and for no other.
@test "more I/Os in flight than blocks tested: a note for each such test, device or file" {
	dev_setup
	written_image img 1
	new_loop img 1M
	local quick=(--count 1 --time 0.5 --interval 0 --warmup 0 --quiet)
	run "$CDM" "${quick[@]}" --test "SEQ1M Q8T1" --test "SEQ1M Q1T1" --test "RND4K Q32T1" "$LOOP"
	assert_success
	assert_line "cdm: note: $LOOP: SEQ1M Q8T1: the 1 MiB tested holds 1 block of the test, fewer than its 8 I/Os in flight (Q8 x T1): several hit the same block at once"
	assert_equal "$(grep -c 'several hit the same block' <<< "$output")" 1
	run "$CDM" "${quick[@]}" --size 1MiB --mode all --test "RND512K Q2T2" "$TD"
	assert_success
	assert_line "cdm: note: $TD: RND512K Q2T2: the 1 MiB tested holds 2 blocks of the test, fewer than its 4 I/Os in flight (Q2 x T2): several hit the same block at once"
	# said once, though the spec runs read and write
	assert_equal "$(grep -c 'several hit the same block' <<< "$output")" 1
}
