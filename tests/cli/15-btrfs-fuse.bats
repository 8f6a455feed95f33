#!/usr/bin/env bats
# Filesystems whose figures need a word: btrfs (copy-on-write and
# compression: the test file is made NOCOW), FUSE (client caching: a
# warning), ramfs (no size limit: the test size is checked against memory).
# Each is built in the test's temporary directory and always taken down.
# Needs root and the tool named; skips with the reason otherwise.

load helpers


teardown() {
	fs_teardown
}

btrfs_works() {
	grep -qw btrfs /proc/filesystems || modprobe btrfs 2>/dev/null ||
		skip "this kernel has no btrfs"
	command -v losetup >/dev/null || skip "losetup not installed"
}

@test "btrfs (mounted with compression): the test file is made NOCOW before it is written, and the run says so" {
	fs_setup mkfs.btrfs
	btrfs_works
	truncate -s 320M "$TD/img"
	mkfs.btrfs -q -f "$TD/img" > /dev/null 2>&1 || skip "mkfs.btrfs failed"
	LOOP=$(losetup -f --show "$TD/img") || skip "no loop device available"
	mount -o compress=zstd "$LOOP" "$MNT" || skip "cannot mount btrfs on $LOOP"
	run "$CDM" "${QUICK[@]}" --test RND4K --keep "$MNT"
	echo "$output"
	assert_success
	assert_output --partial "note: $MNT is on btrfs: the test file is NOCOW (as chattr +C: no copy-on-write, compression or checksums)"
	kept=$(ls "$MNT"/cdm-*.keep)
	# the flag is on the file itself (lsattr's C); data went in uncompressed
	assert_regex "$(lsattr "$kept" | cut -d' ' -f1)" C
	rm -f "$kept"
	assert_clean "$MNT"
}

@test "a FUSE filesystem runs with a warning that client caching may inflate the figures" {
	fs_setup bindfs
	[ -c /dev/fuse ] || skip "no /dev/fuse"
	mkdir "$TD/src"
	bindfs "$TD/src" "$MNT" 2>/dev/null || skip "bindfs cannot mount here"
	type=$(awk -v m="$MNT" '$5 == m { for (i = 7; $i != "-"; i++); print $(i + 1) }' /proc/self/mountinfo)
	assert_regex "$type" '^fuse'
	run "$CDM" "${QUICK[@]}" --test RND4K "$MNT"
	echo "$output"
	if [ "$status" -ne 0 ]; then
		# a FUSE filesystem may refuse O_DIRECT: then it must say so
		assert_output --partial "does not support O_DIRECT"
		run "$CDM" "${QUICK[@]}" --test RND4K --buffered "$MNT"
	fi
	assert_success
	# the words of the walk under the target (19-memory-under.bats has the rest)
	assert_output --partial "warning: $MNT: $MNT is a FUSE filesystem ($type): client-side caching may inflate the figures; "
	assert_clean "$MNT"
	assert_clean "$TD/src"
}

@test "ramfs: a test file larger than the memory available is refused before anything is written" {
	fs_setup mount
	mount -t ramfs ramfs "$MNT" || skip "cannot mount ramfs"
	run "$CDM" "${QUICK[@]}" --buffered --size 64TiB --test RND4K "$MNT"
	echo "$output"
	assert_failure 1
	assert_line --index 0 --regexp "^cdm: $MNT: ramfs has no size limit and keeps files in memory: a 64 TiB test file does not fit in the [0-9]+ MiB of memory available\$"
	assert_clean "$MNT"
}
