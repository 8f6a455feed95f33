#!/usr/bin/env bats
# Memory under the target (issue 12, 7): whatever under the target's
# filesystem can make the figures memory speed is found by walking the
# block stack (target/stack.c) and warned about, for a directory target as
# for a device target: on stderr (once), in JSON (target.memory_under), in
# the Markdown report, and in `cdm compare` beside the ratio.  Each test
# builds its own loop devices, mounts and (where the kernel offers
# zram-control) zram device, and always takes them down.  No kernel module
# is loaded.  Needs root for everything but the plain-directory test.
# A btrfs raid0 over two loop devices is judged by each (issue 25, 3),
# an overlayfs by its upper directory.

load helpers

MNT=
MNTS=()
LOOPS=()
SHM=
ZRAM=

teardown() {
	local l i
	# the extra mounts, the last made first (an overlay before its tmpfs)
	for ((i = ${#MNTS[@]} - 1; i >= 0; i--)); do
		mountpoint -q "${MNTS[i]}" && { umount "${MNTS[i]}" || umount -l "${MNTS[i]}"; }
	done
	if [ -n "$MNT" ] && mountpoint -q "$MNT"; then
		umount "$MNT" || umount -l "$MNT"
	fi
	for l in "${LOOPS[@]}"; do
		detach_loop "$l" "$SHM"
	done
	if [ -n "$ZRAM" ]; then
		mountpoint -q "$TD/zmnt" && { umount "$TD/zmnt" || umount -l "$TD/zmnt"; }
		# a lazy umount, or a loop device whose detach the kernel
		# deferred to its last close, holds the zram device a moment
		# longer: reset refuses (EBUSY) until it is free
		wait_for "zram$ZRAM to be free for its reset" zram_reset "$ZRAM"
		echo "$ZRAM" > /sys/class/zram-control/hot_remove 2> /dev/null
	fi
	[ -z "$SHM" ] || rm -rf "$SHM"
	chmod -R u+rwx "$TD" 2>/dev/null
	rm -rf "$TD" "$OD"
}

zram_reset() {
	echo 1 > "/sys/block/zram$1/reset" 2> /dev/null
}

needs_root() {
	[ "$(id -u)" -eq 0 ] || skip "needs root for loop devices and mounts"
	command -v losetup > /dev/null || skip "losetup not installed"
	command -v mkfs.ext4 > /dev/null || skip "mkfs.ext4 not installed"
	MNT="$TD/mnt"
	mkdir -p "$MNT"
}

# ext4 on a loop device over image $1 (made here, $2 of size), mounted on
# $MNT; extra losetup options after; sets LOOP and LNAME (loop3)
ext4_loop() {
	local img=$1 size=$2
	shift 2
	truncate -s "$size" "$img"
	mkfs_ext4 "$img" > /dev/null 2>&1 || skip "mkfs.ext4 failed"
	LOOP=$(losetup -f --show "$@" "$img") || skip "no loop device available"
	LOOPS+=("$LOOP")
	LNAME=${LOOP#/dev/}
	mount "$LOOP" "$MNT" || skip "cannot mount ext4 on $LOOP"
}

# the names of target.devices of result $1, one line each ("" when none)
devices() {
	python3 -c 'import json, sys
for d in json.load(open(sys.argv[1]))["target"].get("devices", []):
    print(d["name"])' "$1"
}

# the JSON key target.memory_under of result $1, as "kind|layer|stack" lines
mem_under() {
	python3 -c 'import json, sys
for f in json.load(open(sys.argv[1]))["target"]["memory_under"]:
    print(f["kind"] + "|" + f["layer"] + "|" + f["stack"])' "$1"
}

# run cdm: stdout in $OD/out, stderr in $OD/err; status in $st
cdm_run() {
	st=0
	"$CDM" "${QUICK[@]}" "$@" > "$OD/out" 2> "$OD/err" || st=$?
	cat "$OD/err"
}

@test "ext4 on a loop device without direct I/O: a directory target warns on stderr, in JSON and in Markdown, as the device itself does; with direct I/O on, nothing" {
	needs_root
	ext4_loop "$TD/img" 128M
	[ "$(cat /sys/block/$LNAME/loop/dio)" = 0 ] || skip "losetup turned direct I/O on by default"
	want="cdm: warning: $MNT: $LNAME reads its backing file $TD/img through the page cache (loop direct I/O is off): the figures may be memory speed, not disk speed; losetup --direct-io=on $LOOP turns loop direct I/O on [stack: $MNT (ext4) > $LNAME]"
	cdm_run --test RND4K --save "$OD/san.json" --format markdown "$MNT"
	assert_equal "$st" 0
	assert_grep -xF "$want" "$OD/err"
	assert_equal "$(grep -c 'memory speed' "$OD/err")" 1     # once
	assert_equal "$(mem_under "$OD/san.json")" "loop_page_cache|$LNAME|$MNT (ext4) > $LNAME"
	assert_grep -F "**Warning: memory under the target.** $LNAME reads its backing file $TD/img through the page cache (loop direct I/O is off): the figures may be memory speed, not disk speed; losetup --direct-io=on $LOOP turns loop direct I/O on (stack: $MNT (ext4) \\> $LNAME)." "$OD/out"
	assert_clean "$MNT"

	# the device as TARGET: the same warning, its stack starting at the device
	cdm_run --test RND4K --format json "$LOOP"
	assert_equal "$st" 0
	assert_grep -xF "cdm: warning: $LOOP: $LNAME reads its backing file $TD/img through the page cache (loop direct I/O is off): the figures may be memory speed, not disk speed; losetup --direct-io=on $LOOP turns loop direct I/O on [stack: $LNAME]" "$OD/err"
	assert_equal "$(mem_under "$OD/out")" "loop_page_cache|$LNAME|$LNAME"

	# direct I/O on: the backing file is read past the page cache
	umount "$MNT"
	losetup --direct-io=on "$LOOP" || skip "losetup --direct-io=on refused here"
	assert_equal "$(cat /sys/block/$LNAME/loop/dio)" 1
	mount "$LOOP" "$MNT"
	cdm_run --test RND4K --save "$OD/dio.json" --format markdown "$MNT"
	assert_equal "$st" 0
	refute_grep 'memory speed\|memory under' "$OD/err"
	refute_grep 'memory speed\|memory under' "$OD/out"
	assert_equal "$(mem_under "$OD/dio.json")" ""
	grep -q '"memory_under": \[\]' "$OD/dio.json"
	assert_clean "$MNT"
}

@test "a loop device whose backing file is on tmpfs warns, with direct I/O on or off" {
	needs_root
	[ -d /dev/shm ] && [ -w /dev/shm ] || skip "no writable /dev/shm"
	[ "$(stat -f -c %T /dev/shm)" = tmpfs ] || skip "/dev/shm is not tmpfs"
	SHM=$(mktemp -d /dev/shm/cdmtest.XXXXXX)
	# tmpfs may refuse O_DIRECT, and the loop device then stays without it
	truncate -s 96M "$SHM/img"
	mkfs_ext4 "$SHM/img" > /dev/null 2>&1 || skip "mkfs.ext4 failed"
	LOOP=$(losetup -f --show --direct-io=on "$SHM/img" 2> /dev/null) ||
		LOOP=$(losetup -f --show "$SHM/img") || skip "no loop device available"
	LOOPS+=("$LOOP")
	LNAME=${LOOP#/dev/}
	mount "$LOOP" "$MNT"
	echo "dio: $(cat /sys/block/$LNAME/loop/dio)"
	stack="$MNT (ext4) > $LNAME > $SHM/img > /dev/shm (tmpfs)"
	cdm_run --test RND4K --save "$OD/r.json" "$MNT"
	assert_equal "$st" 0
	assert_grep -xF "cdm: warning: $MNT: /dev/shm is tmpfs, which keeps files in memory: the figures are memory speed, not disk speed; put the backing file on a disk's filesystem [stack: $stack]" "$OD/err"
	# memory already: no second warning about the loop's page cache
	assert_equal "$(grep -c warning "$OD/err")" 1
	assert_equal "$(mem_under "$OD/r.json")" "memory_fs|/dev/shm (tmpfs)|$stack"
	# and the other way round: direct I/O switched off
	umount "$MNT"
	losetup --direct-io=off "$LOOP"
	mount "$LOOP" "$MNT"
	cdm_run --test RND4K --save "$OD/r.json" "$MNT"
	assert_equal "$st" 0
	assert_equal "$(mem_under "$OD/r.json")" "memory_fs|/dev/shm (tmpfs)|$stack"
	assert_clean "$MNT"
}

@test "a directory on tmpfs warns in the same words, in JSON and in Markdown" {
	[ -d /dev/shm ] && [ -w /dev/shm ] || skip "no writable /dev/shm"
	[ "$(stat -f -c %T /dev/shm)" = tmpfs ] || skip "/dev/shm is not tmpfs"
	SHM=$(mktemp -d /dev/shm/cdmtest.XXXXXX)
	cdm_run --test RND4K --save "$OD/r.json" --format markdown "$SHM"
	if [ "$st" -ne 0 ]; then
		# tmpfs before Linux 6.6 refuses O_DIRECT
		assert_grep "does not support O_DIRECT" "$OD/err"
		cdm_run --test RND4K --buffered --save "$OD/r.json" --format markdown "$SHM"
	fi
	assert_equal "$st" 0
	assert_grep -xF "cdm: warning: $SHM: /dev/shm is tmpfs, which keeps files in memory: the figures are memory speed, not disk speed; run cdm on a directory of a disk's filesystem [stack: /dev/shm (tmpfs)]" "$OD/err"
	assert_equal "$(grep -c 'memory speed' "$OD/err")" 1
	assert_equal "$(mem_under "$OD/r.json")" "memory_fs|/dev/shm (tmpfs)|/dev/shm (tmpfs)"
	assert_grep -F "**Warning: memory under the target.** /dev/shm is tmpfs, which keeps files in memory" "$OD/out"
	assert_clean "$SHM"
}

@test "a FUSE filesystem (bindfs) warns that its client cache may inflate the figures" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to mount"
	command -v bindfs > /dev/null || skip "bindfs not installed"
	[ -c /dev/fuse ] || skip "no /dev/fuse"
	MNT="$TD/mnt"
	mkdir -p "$TD/src" "$MNT"
	bindfs "$TD/src" "$MNT" 2> /dev/null || skip "bindfs cannot mount here"
	type=$(awk -v m="$MNT" '$5 == m { for (i = 7; $i != "-"; i++); print $(i + 1) }' /proc/self/mountinfo)
	cdm_run --test RND4K --save "$OD/r.json" "$MNT"
	if [ "$st" -ne 0 ]; then
		assert_grep "does not support O_DIRECT" "$OD/err"
		cdm_run --test RND4K --buffered --save "$OD/r.json" "$MNT"
	fi
	assert_equal "$st" 0
	assert_grep -xF "cdm: warning: $MNT: $MNT is a FUSE filesystem ($type): client-side caching may inflate the figures; to measure the storage itself, run cdm on the filesystem that holds the data, where it is local [stack: $MNT ($type)]" "$OD/err"
	assert_equal "$(mem_under "$OD/r.json")" "fuse|$MNT ($type)|$MNT ($type)"
	assert_clean "$MNT"
	assert_clean "$TD/src"
}

@test "a plain directory on a disk: no warning, and memory_under is []" {
	# only where the temporary directory is on a disk's filesystem
	case "$(stat -f -c %T "$TD")" in
	tmpfs | ramfs | fuse* | nfs* | cifs | smb* | 9p | virtiofs) skip "$TD is not on a disk" ;;
	esac
	src=$(findmnt -n -o SOURCE --target "$TD" 2> /dev/null)
	case "$src" in
	/dev/loop* | /dev/zram* | /dev/ram* | /dev/mapper/* | /dev/dm-* | /dev/md*)
		skip "$TD is on $src, which may have memory under it" ;;
	esac
	cdm_run --test RND4K --save "$OD/r.json" --format markdown "$TD"
	assert_equal "$st" 0
	refute_grep 'memory speed\|client-side caching' "$OD/err"
	grep -q '"memory_under": \[\]' "$OD/r.json"
	refute_grep 'memory under' "$OD/out"
}

@test "cdm compare: the run on the loop-backed directory gets a marker beside its ratio and a line saying what is under it" {
	needs_root
	ext4_loop "$TD/img" 128M
	[ "$(cat /sys/block/$LNAME/loop/dio)" = 0 ] || skip "losetup turned direct I/O on by default"
	mkdir "$TD/local"
	cdm_run --test "SEQ1M Q8T1" --label SAN --save "$OD/san.json" "$MNT"
	assert_equal "$st" 0
	cdm_run --test "SEQ1M Q8T1" --label LOCAL --save "$OD/local.json" "$TD/local"
	assert_equal "$st" 0
	run "$CDM" compare "$OD/local.json" "$OD/san.json"
	echo "$output"
	assert_success
	assert_line --regexp '  SEQ    1MiB \(Q=  8, T= 1\): +[0-9.]+ +[0-9.]+ +[0-9.]+x\*$'
	assert_output --partial "* SAN: memory under its target: $LNAME reads its backing file $TD/img through the page cache (loop direct I/O is off): the figures may be memory speed, not disk speed [stack: $MNT (ext4) > $LNAME]"
	run "$CDM" compare --format markdown "$OD/local.json" "$OD/san.json"
	echo "$output"
	assert_success
	assert_output --regexp '\| SEQ1M Q8T1 Read \| [0-9.]+ \| [0-9.]+ \| [0-9.]+x \\\* \|'
	assert_output --partial "> \\* SAN: memory under its target: $LNAME reads its backing file"
	# two runs with nothing under them: no marker
	run "$CDM" compare "$OD/local.json" "$OD/local.json"
	assert_success
	refute_output --partial "x*"
	refute_output --partial "memory under"
}

@test "zram under the target: ext4 on it, a loop device over a file on that, and the device itself" {
	needs_root
	[ -w /sys/class/zram-control/hot_add ] || skip "no zram-control in this kernel (no module is loaded)"
	ZRAM=$(cat /sys/class/zram-control/hot_add) || skip "zram hot_add refused"
	echo 160M > "/sys/block/zram$ZRAM/disksize" || skip "cannot size zram$ZRAM"
	Z=/dev/zram$ZRAM
	mkfs_ext4 "$Z" > /dev/null 2>&1 || skip "mkfs.ext4 on $Z failed"
	mkdir -p "$TD/zmnt"
	mount "$Z" "$TD/zmnt"
	zwhy="zram$ZRAM is a compressed RAM disk (zram): the figures are memory speed, not disk speed"
	cdm_run --test RND4K --save "$OD/r.json" "$TD/zmnt"
	assert_equal "$st" 0
	assert_grep -xF "cdm: warning: $TD/zmnt: $zwhy; run cdm on a disk, or a filesystem on one [stack: $TD/zmnt (ext4) > zram$ZRAM]" "$OD/err"
	assert_equal "$(mem_under "$OD/r.json")" "zram|zram$ZRAM|$TD/zmnt (ext4) > zram$ZRAM"
	assert_clean "$TD/zmnt"
	# a loop device with direct I/O over an image on it: found through the image
	truncate -s 64M "$TD/zmnt/img"
	mkfs_ext4 "$TD/zmnt/img" -b 4096 > /dev/null 2>&1
	LOOP=$(losetup -f --show --direct-io=on "$TD/zmnt/img") || skip "no loop device available"
	LOOPS+=("$LOOP")
	LNAME=${LOOP#/dev/}
	mount "$LOOP" "$MNT"
	cdm_run --test RND4K --save "$OD/r.json" "$MNT"
	assert_equal "$st" 0
	assert_equal "$(mem_under "$OD/r.json")" "zram|zram$ZRAM|$MNT (ext4) > $LNAME > $TD/zmnt/img > $TD/zmnt (ext4) > zram$ZRAM"
	umount "$MNT"
	detach_loop "$LOOP"
	LOOPS=()        # its only one: detached once (helpers.bash says why)
	umount "$TD/zmnt"
	# the zram device as TARGET, read
	cdm_run --test RND4K "$Z"
	assert_equal "$st" 0
	assert_grep -xF "cdm: warning: $Z: $zwhy; run cdm on a disk, or a filesystem on one [stack: zram$ZRAM]" "$OD/err"
}

@test "a RAM disk (brd) as TARGET warns, where /dev/ram0 exists" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to read a block device"
	[ -b /dev/ram0 ] || skip "no /dev/ram0 (the brd module is not loaded, and no test loads it)"
	# a read run: nothing is written to a device this test did not create
	cdm_run --test RND4K /dev/ram0
	assert_equal "$st" 0
	assert_grep -xF "cdm: warning: /dev/ram0: ram0 is a RAM disk (brd): the figures are memory speed, not disk speed; run cdm on a disk, or a filesystem on one [stack: ram0]" "$OD/err"
}

@test "btrfs raid0 over two loop devices, the second without direct I/O: both named, the second warned about" {
	needs_root
	command -v mkfs.btrfs > /dev/null || skip "mkfs.btrfs not installed"
	# mkfs.btrfs wants 256 MiB at least of each device; sparse images
	truncate -s 260M "$TD/a.img" "$TD/b.img"
	L1=$(losetup -f --show --direct-io=on "$TD/a.img") || skip "no loop device available"
	LOOPS+=("$L1")
	L2=$(losetup -f --show "$TD/b.img") || skip "no second loop device available"
	LOOPS+=("$L2")
	N1=${L1#/dev/} N2=${L2#/dev/}
	[ "$(cat /sys/block/$N1/loop/dio)" = 1 ] || skip "$L1 refused direct I/O"
	[ "$(cat /sys/block/$N2/loop/dio)" = 0 ] || skip "losetup turned direct I/O on by default"
	mkfs.btrfs -q -f -d raid0 -m raid1 "$L1" "$L2" > /dev/null 2>&1 || skip "mkfs.btrfs failed"
	mount "$L1" "$MNT" || skip "cannot mount btrfs on $L1"
	cdm_run --test RND4K --save "$OD/r.json" "$MNT"
	assert_equal "$st" 0
	assert_grep -xF "cdm: warning: $MNT: $N2 reads its backing file $TD/b.img through the page cache (loop direct I/O is off): the figures may be memory speed, not disk speed; losetup --direct-io=on $L2 turns loop direct I/O on [stack: $MNT (btrfs) > $N2]" "$OD/err"
	assert_equal "$(grep -c warning "$OD/err")" 1
	assert_equal "$(mem_under "$OD/r.json")" "loop_page_cache|$N2|$MNT (btrfs) > $N2"
	assert_equal "$(devices "$OD/r.json")" "$N1
$N2"
	assert_equal "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["target"]["device"])' "$OD/r.json")" "$N1"
	# the Markdown report names both
	"$CDM" report --format markdown "$OD/r.json" > "$OD/md"
	assert_grep -F ", device $N1 (model unknown), " "$OD/md"
	assert_grep -F " and $N2 (model unknown)" "$OD/md"
	assert_clean "$MNT"
}

@test "overlayfs: its upper directory is walked, on tmpfs the memory finding shows; on ext4 nothing" {
	needs_root
	grep -qw overlay /proc/filesystems || skip "no overlay filesystem in this kernel (no module is loaded)"
	mkdir -p "$TD/t" "$TD/ovl"
	mount -t tmpfs -o size=64m cdmtest "$TD/t"
	MNTS+=("$TD/t")
	mkdir -p "$TD/t/upper" "$TD/t/work" "$TD/lower"
	mount -t overlay overlay -o "lowerdir=$TD/lower,upperdir=$TD/t/upper,workdir=$TD/t/work" "$TD/ovl" ||
		skip "cannot mount overlay"
	MNTS+=("$TD/ovl")
	stack="$TD/ovl (overlay) > upper $TD/t/upper > $TD/t (tmpfs)"
	cdm_run --test RND4K --buffered --save "$OD/r.json" "$TD/ovl"
	assert_equal "$st" 0
	assert_grep -xF "cdm: warning: $TD/ovl: $TD/t is tmpfs, which keeps files in memory: the figures are memory speed, not disk speed; run cdm on a directory of a disk's filesystem [stack: $stack]" "$OD/err"
	assert_equal "$(mem_under "$OD/r.json")" "memory_fs|$TD/t (tmpfs)|$stack"
	assert_clean "$TD/ovl"
	umount "$TD/ovl"
	# the upper directory on ext4 on a loop device with direct I/O: nothing
	ext4_loop "$TD/img" 64M --direct-io=on
	[ "$(cat /sys/block/$LNAME/loop/dio)" = 1 ] || skip "$LOOP refused direct I/O"
	mkdir -p "$MNT/upper" "$MNT/work"
	mount -t overlay overlay -o "lowerdir=$TD/lower,upperdir=$MNT/upper,workdir=$MNT/work" "$TD/ovl"
	cdm_run --test RND4K --save "$OD/r.json" "$TD/ovl"
	assert_equal "$st" 0
	assert_equal "$(mem_under "$OD/r.json")" ""
	assert_equal "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["target"]["device"])' "$OD/r.json")" "$LNAME"
	umount "$TD/ovl"
}
