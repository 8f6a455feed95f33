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
	mkfs_ext4 "$TD/img" || skip "mkfs.ext4 failed"
	LOOP=$(losetup -f --show "$TD/img") || skip "no loop device available"
	mount -o "$2" "$LOOP" "$MNT" || skip "cannot mount ext4 on $LOOP"
}

@test "ramfs: refuses O_DIRECT with a message naming it; --buffered runs and warns" {
	fs_setup mount
	mount -t ramfs ramfs "$MNT" || skip "cannot mount ramfs"
	run "$CDM" "${QUICK[@]}" --test RND4K "$MNT"
	assert_failure 1
	assert_output --partial "the ramfs filesystem does not support O_DIRECT"
	assert_output --partial "--buffered"
	assert_clean "$MNT"
	run "$CDM" "${QUICK[@]}" --test RND4K --buffered "$MNT"
	assert_success
	assert_output --partial ", buffered)"
	assert_output --partial "keeps files in memory"
	assert_output --partial "the page cache is measured"
	assert_clean "$MNT"
}

@test "a read-only mount is refused before anything is created" {
	fs_setup mkfs.ext4
	mount_ext4 32M ro
	run "$CDM" "${QUICK[@]}" --test RND4K "$MNT"
	assert_failure 1
	assert_output --partial "$MNT: read-only filesystem (ext4 on $MNT), so cdm cannot make its test file there (--file reads one kept by --keep"
	assert_clean "$MNT"
}

# issue 25, item 4: a kept file's read tests were refused on a mount made
# read-only, though a read-only device reads.  Whatever reads an existing
# file runs; whatever writes is refused naming it, and the file is unchanged.
@test "a read-only mount: a kept file's reads run; each thing that writes is refused by name" {
	fs_setup mkfs.ext4
	mount_ext4 48M rw
	"$CDM" "${QUICK[@]}" --test RND4K --mode read --keep "$MNT" > /dev/null 2>&1
	kept=$(find "$MNT" -name 'cdm-*.keep')
	assert [ -n "$kept" ]
	mount -o remount,ro "$MNT"
	local quick=(--count 1 --time 0.5 --interval 0 --warmup 0 --quiet)
	sum=$(md5sum < "$kept")
	run "$CDM" "${quick[@]}" --test RND4K --mode read --file "$kept"
	assert_success
	assert_line --regexp '^  RND    4KiB \(Q= *[0-9]+, T= 1\): +[0-9.]+ MB/s'
	# --sync's second descriptor is read-only too
	run "$CDM" "${quick[@]}" --test "RND4K Q1T1" --mode read --sync --file "$kept"
	assert_success
	local ro="cdm: $kept: read-only filesystem (ext4 on $MNT), so"
	run "$CDM" "${quick[@]}" --test RND4K --file "$kept"
	assert_failure 1
	assert_line --index 0 "$ro write tests cannot run on it (--mode read runs only the reads)"
	run "$CDM" "${quick[@]}" --test RND4K --mode mix --file "$kept"
	assert_failure 1
	assert_line --index 0 "$ro mixed tests, which write, cannot run on it (--mode read runs only the reads)"
	run "$CDM" "${quick[@]}" --test RND4K --mode read --precondition --file "$kept"
	assert_failure 1
	assert_line --index 0 "$ro --precondition cannot run on it (it writes the whole test file)"
	assert_equal "$(md5sum < "$kept")" "$sum"
	assert_equal "$(find "$MNT" -name 'cdm-*' ! -name '*.keep' ! -name '*.cdm')" ""
	# a hole punched since it was kept would be written again: refused too
	mount -o remount,rw "$MNT"
	fallocate -p -o 0 -l 1MiB "$kept"
	mount -o remount,ro "$MNT"
	run "$CDM" "${quick[@]}" --test RND4K --mode read --file "$kept"
	assert_failure 1
	assert_line --index 0 --partial "which cdm writes all over again before the tests, but the filesystem is read-only"
}

@test "too little free space names both sizes, and an ext4 volume runs with its mount point in the footer" {
	fs_setup mkfs.ext4
	mount_ext4 40M rw
	run "$CDM" "${QUICK[@]}" --size 64MiB --test RND4K "$MNT"
	assert_failure 1
	assert_output --regexp "$MNT: no space for a 64 MiB test file \([0-9]+ MiB free\)"
	assert_clean "$MNT"
	run "$CDM" "${QUICK[@]}" --test RND4K "$MNT"
	assert_success
	assert_output --partial "   Test: 16 MiB (x1) [$MNT: "
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
	assert_success
	assert_output --partial "removed $stale"
	assert_clean "$MNT"
}

# keep_then_hollow DIR HOW: keep a test file in DIR, then make part of it
# read without the device (HOW: truncate = truncated to 0 and extended
# again, punch = a hole punched at 64 KiB, falloc = truncated and
# fallocated, never written); $kept names it
keep_then_hollow() {
	run "$CDM" "${QUICK[@]}" --engine sync --test RND4K --keep "$1"
	[ "$status" -eq 0 ] || fail "the run with --keep in $1 failed ($status): $output"
	kept=$(find "$1" -maxdepth 1 -name 'cdm-*.keep')
	[ -n "$kept" ] || fail "no cdm-*.keep in $1 after a run with --keep"
	case $2 in
	truncate) truncate -s 0 "$kept" && truncate -s 16M "$kept" ;;
	punch) fallocate --punch-hole --keep-size -o 65536 -l 65536 "$kept" ;;
	falloc) truncate -s 0 "$kept" && fallocate -l 16M "$kept" ;;
	esac
}

# --file on a kept file with HOW ($2) done to it in DIR ($1): a note names
# what and where ($3: the offset), the file is written again, the run
# works; the next --file takes it without a note
hollow_refilled() {
	keep_then_hollow "$1" "$2"
	run "$CDM" --quiet --count 1 --time 1 --warmup 0 --interval 0 --engine sync \
		--test RND4K --mode read --file "$kept"
	echo "$output"
	assert_success
	assert_output --partial "cdm: note: $kept has $3 (truncated and extended, punched or fallocated since it was kept): it is written all over again before the tests, as a new test file is"
	run "$CDM" --quiet --count 1 --time 1 --warmup 0 --interval 0 --engine sync \
		--test RND4K --mode read --file "$kept"
	assert_success
	refute_output --partial "written all over again"
	rm -f "$kept" "$kept.cdm"
}

@test "--file: a kept file with a hole or an unwritten extent is written again first (ext4)" {
	fs_setup mkfs.ext4
	command -v fallocate > /dev/null || skip "fallocate not installed"
	mount_ext4 64M rw
	hollow_refilled "$MNT" truncate "a hole at offset 0"
	hollow_refilled "$MNT" punch "a hole at offset 65536"
	hollow_refilled "$MNT" falloc "an unwritten extent at offset 0"
	assert_clean "$MNT"
}

@test "--file: a kept file with a hole is written again first (the temporary directory's filesystem)" {
	command -v fallocate > /dev/null || skip "fallocate not installed"
	hollow_refilled "$TD" truncate "a hole at offset 0"
	hollow_refilled "$TD" punch "a hole at offset 65536"
	# unwritten extents only where FIEMAP reports them (not tmpfs)
	fs=$(stat -f -c %T "$TD")
	case $fs in
	ext2/ext3|xfs|btrfs) hollow_refilled "$TD" falloc "an unwritten extent at offset 0" ;;
	esac
	assert_clean "$TD"
}

@test "a file on ext4 over 4096-byte sectors: JSON, a saved result, Markdown and CSV carry its logical block" {
	fs_setup mkfs.ext4
	command -v losetup >/dev/null || skip "losetup not installed"
	truncate -s 64M "$TD/img"
	LOOP=$(losetup -f --show --sector-size 4096 "$TD/img") || skip "no loop device with 4096-byte sectors"
	mkfs_ext4 "$LOOP" || skip "mkfs.ext4 failed"
	mount "$LOOP" "$MNT" || skip "cannot mount ext4 on $LOOP"
	# the value cdm refuses 512 B I/O by is the one the result records
	run "$CDM" "${QUICK[@]}" --test "RND512B Q1T1" "$MNT"
	assert_failure
	assert_output --partial "4096-byte logical block size of ${LOOP#/dev/}"
	"$CDM" "${QUICK[@]}" --test "RND4K Q1T1" --mode read --save "$OD/r.json" "$MNT" > /dev/null
	assert_equal "$(jq '.target.logical_block_bytes' "$OD/r.json")" 4096
	assert_equal "$(jq '.target.is_device' "$OD/r.json")" false
	# read back and written again: the same
	"$CDM" report --format json "$OD/r.json" > "$OD/again.json"
	assert_equal "$(jq '.target.logical_block_bytes' "$OD/again.json")" 4096
	run "$CDM" report --format markdown "$OD/r.json"
	assert_output --partial ", 4096-byte logical blocks; "
	# CSV, on every row
	run "$CDM" report --format csv "$OD/r.json"
	assert_success
	local csv=$output
	for line in 2 3 4 5; do
		assert_equal "$(csv_col "$csv" logical_block_bytes "$line")" 4096
		assert_equal "$(csv_col "$csv" fs_type "$line")" ext4
		assert_equal "$(csv_col "$csv" is_device "$line")" false
	done
}
