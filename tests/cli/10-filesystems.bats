#!/usr/bin/env bats
# Filesystems that are not a plain local disk, built in a temporary
# directory and always taken down again: ramfs (refuses O_DIRECT), a
# read-only ext4 mount and a tiny ext4 (free space) on a loop device.
# Needs root, mount and losetup; skips with the reason otherwise.

load helpers


teardown() {
	fs_teardown
}

# a small ext4 image on a loop device, mounted at $MNT with options $2
mount_ext4() {
	command -v losetup >/dev/null || skip "losetup not installed"
	truncate -s "$1" "$TD/img"
	mkfs.ext4 -q -F "$TD/img" || skip "mkfs.ext4 failed"
	LOOP=$(losetup -f --show "$TD/img") || skip "no loop device available"
	mount -o "$2" "$LOOP" "$MNT" || skip "cannot mount ext4 on $LOOP"
}

@test "ramfs: refuses O_DIRECT with a message naming it; --buffered runs and warns" {
	fs_setup mount
	mount -t ramfs ramfs "$MNT" || skip "cannot mount ramfs"
	run "$CDM" "${QUICK[@]}" --test RND4K "$MNT"
	[ "$status" -eq 1 ]
	[[ "$output" == *"the ramfs filesystem does not support O_DIRECT"*"--buffered"* ]]
	assert_clean "$MNT"
	run "$CDM" "${QUICK[@]}" --test RND4K --buffered "$MNT"
	[ "$status" -eq 0 ]
	[[ "$output" == *"(sync, buffered)"* || "$output" == *", buffered)"* ]]
	[[ "$output" == *"keeps files in memory"* ]]
	[[ "$output" == *"the page cache is measured"* ]]
	assert_clean "$MNT"
}

@test "a read-only mount is refused before anything is created" {
	fs_setup mkfs.ext4
	mount_ext4 32M ro
	run "$CDM" "${QUICK[@]}" --test RND4K "$MNT"
	[ "$status" -eq 1 ]
	[[ "$output" == *"$MNT: read-only filesystem (ext4"* ]]
	assert_clean "$MNT"
}

@test "too little free space names both sizes, and an ext4 volume runs with its mount point in the footer" {
	fs_setup mkfs.ext4
	mount_ext4 40M rw
	run "$CDM" "${QUICK[@]}" --size 64MiB --test RND4K "$MNT"
	[ "$status" -eq 1 ]
	[[ "$output" =~ "$MNT: no space for a 64 MiB test file ("[0-9]+" MiB free)" ]]
	assert_clean "$MNT"
	run "$CDM" "${QUICK[@]}" --test RND4K "$MNT"
	[ "$status" -eq 0 ]
	[[ "$output" == *"   Test: 16 MiB (x1) [$MNT: "* ]]
	assert_clean "$MNT"
}

@test "a stale file's space counts as free: it is removed before the free-space check" {
	fs_setup mkfs.ext4
	mount_ext4 40M rw
	sh -c 'exit 0' & dead=$!; wait $dead
	# a 24 MiB leftover of a dead run leaves too little room for 16 MiB
	stale="$MNT/cdm-$(hostname)-$dead-0badcafe.tmp"
	head -c $((24 << 20)) /dev/zero > "$stale"
	run "$CDM" "${QUICK[@]}" --test RND4K "$MNT"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"removed $stale"* ]]
	assert_clean "$MNT"
}
