#!/usr/bin/env bats
# The data cdm writes (docs/method.md, "Offsets and data"; the format is
# include/cdm/model/stamp.h): after a write pass, in every shape a test can
# take (random 4 KiB on every engine, sequential 1 MiB and 64 MiB, 512 B
# blocks, a Mix test) and after the preparation alone, no 512-byte sector
# of the test file repeats (under 1 %), every sector's stamp reads back as
# its own offset, and no compressor shrinks the file (gzip, xz with a
# dictionary as large as the file, zstd --long: each at least 99 % of the
# original).  The file is kept (--keep) and read by tests/tools/sectors.py.

load helpers

SECTORS="$BATS_TEST_DIRNAME/../tools/sectors.py"

# write_pass ARGS... - run cdm with ARGS on $TD, keep the file, and set the
# figures of sectors.py (sectors, repeated, written, misplaced, gzip, xz,
# zstd) as variables
write_pass() {
	command -v python3 > /dev/null || skip "python3 not installed"
	run "$CDM" --count 1 --interval 0 --warmup 0 --quiet --keep "$@" "$TD"
	echo "$output"
	[ "$status" -eq 0 ]
	local kept
	kept=$(find "$TD" -maxdepth 1 -name 'cdm-*.keep')
	[ -n "$kept" ]
	line=$(python3 "$SECTORS" "$kept")
	echo "$line"
	zstd=100 xz=100
	eval "$line"
	rm -f "$TD"/cdm-*
}

# the file is unique in 512-byte sectors and incompressible; at least
# $1 % of its sectors were written by the test (not the preparation), so
# that the pass is what was measured
assert_unique() {
	[ "$misplaced" -eq 0 ]
	[ "$((written * 100))" -ge "$(($1 * sectors))" ]
	[ "$((repeated * 100))" -lt "$sectors" ]
	awk -v g="$gzip" -v x="$xz" -v z="$zstd" 'BEGIN { exit !(g >= 99 && x >= 99 && z >= 99) }'
}

@test "RND4K Q32T1 writes, on every engine: no 512 B sector repeats, the file does not compress" {
	local n=0
	for e in io_uring libaio sync; do
		engine_works "$e" || continue
		write_pass -e "$e" -t "RND4K Q32T1" --mode write --size 8MiB --time 2
		assert_unique 50
		n=$((n + 1))
	done
	[ "$n" -ge 1 ]
}

@test "SEQ1M Q8T1 and SEQ64M writes: no 512 B sector repeats, the file does not compress" {
	write_pass -t "SEQ1M Q8T1" --mode write --size 16MiB --time 1
	assert_unique 90
	write_pass -t "SEQ64M Q1T1" --mode write --size 64MiB --time 1
	assert_unique 90
}

@test "512 B random writes: every sector stamped, none repeats, the file does not compress" {
	write_pass -t "RND512B Q32T2" --mode write --size 4MiB --time 2 --buffered
	assert_unique 50
}

@test "a Mix test's writes: no 512 B sector repeats, the file does not compress" {
	write_pass -t "RND4K Q32T1" --mode mix --mix 50 --size 8MiB --time 2
	assert_unique 50
}

@test "the preparation alone: every sector stamped as the preparation's, none repeats, no compression" {
	write_pass -t "SEQ1M" --mode read --size 16MiB --time 1
	[ "$written" -eq 0 ]
	assert_unique 0
}

@test "--data zero writes zeros: nothing stamped (CDM's 0Fill)" {
	write_pass -t "RND4K" --mode write --data zero --size 4MiB --time 1
	[ "$repeated" -eq $((sectors - 1)) ]
	[ "$written" -eq 0 ]
}
