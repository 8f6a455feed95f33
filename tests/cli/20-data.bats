#!/usr/bin/env bats
# The data cdm writes (docs/method.md, "Offsets and data"; the format is
# include/cdm/model/stamp.h): after a write pass, in every shape a test can
# take (random 4 KiB on every engine, sequential 1 MiB and 64 MiB, 512 B
# blocks, a Mix test) and after the preparation alone, no 512-byte sector
# of the test file repeats (under 1 %), every sector's stamp reads back as
# its own offset, and no compressor shrinks the file (gzip, xz with a
# dictionary as large as the file, zstd --long: each at least 99 % of the
# original); the sectors a test's writes stamped are what the writes it
# counted cover (a count of I/Os, never a speed).  The file is kept
# (--keep) and read by tests/tools/sectors.py.  The write passes are real
# I/O of 0.5 s (QUICK's: a loaded disk has been seen to complete no I/O in
# 0.1 s): the checks hold for any count of writes, which assert_covered
# compares with what the file holds.

load helpers
bats_require_minimum_version 1.5.0      # run --separate-stderr

SECTORS="$BATS_TEST_DIRNAME/../tools/sectors.py"

# write_pass ARGS... - run cdm with ARGS on $TD, keep the file, and set the
# figures of sectors.py (sectors, repeated, written, misplaced, gzip, xz,
# zstd) as variables
write_pass() {
	command -v python3 > /dev/null || skip "python3 not installed"
	run "$CDM" --count 1 --interval 0 --warmup 0 --quiet --keep --save "$OD/r.json" "$@" "$TD"
	assert_success
	local kept
	kept=$(find "$TD" -maxdepth 1 -name 'cdm-*.keep')
	assert [ -n "$kept" ]
	line=$(python3 "$SECTORS" "$kept")
	echo "$line"
	zstd=100 xz=100
	eval "$line"
	rm -f "$TD"/cdm-*
}

# the file is unique in 512-byte sectors and incompressible
assert_unique() {
	assert_equal "$misplaced" 0
	assert [ "$((repeated * 100))" -lt "$sectors" ]
	awk -v g="$gzip" -v x="$xz" -v z="$zstd" 'BEGIN { exit !(g >= 99 && x >= 99 && z >= 99) }' ||
		fail "the file compresses: gzip $gzip %, xz $xz %, zstd $zstd % of its size"
}

# assert_covered RND|SEQ BLOCK - the sectors the test's writes stamped
# (written) are what the n writes of $OD/r.json (its passes' write I/Os)
# cover, so the pass measured is what was checked: SEQ, one stream from
# offset 0, the first min(n, blocks) blocks exactly; RND, n uniform draws
# of a block, the expected number of distinct blocks within 6 standard
# deviations (and 3 blocks).  A count of I/Os, whatever the speed that gave it (it was
# "at least 50 % of the file", which a slow or loaded disk missed).
assert_covered() {
	run python3 - "$OD/r.json" "$1" "$2" "$sectors" "$written" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
pat, blk, sectors, written = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
n = 0
for t in d["tests"]:
    if t["direction"] == "write":
        n += sum(p["ios"] for p in t["passes"])
    elif t["direction"] == "mix":
        n += sum(p["write"]["ios"] for p in t["passes"])
spb = blk // 512
nblocks = sectors // spb
got = written / spb
if pat == "SEQ":
    want, tol = min(n, nblocks), 0
else:
    q = 1 - 1 / nblocks
    want = nblocks * (1 - q ** n)
    var = nblocks * (nblocks - 1) * (1 - 2 / nblocks) ** n + nblocks * q ** n - nblocks ** 2 * q ** (2 * n)
    # + 3: when few blocks are expected missed (a Poisson count), 6
    # standard deviations alone would allow none or one
    tol = 6 * math.sqrt(max(var, 0)) + 3
print("%d writes of %d B over %d blocks: %.0f blocks written, %.1f expected (+-%.1f)"
      % (n, blk, nblocks, got, want, tol))
assert n > 0 and written % spb == 0 and abs(got - want) <= tol
PY
	echo "$output"
	assert_success
}

@test "RND4K Q32T1 writes, on every engine: no 512 B sector repeats, the file does not compress" {
	local n=0
	for e in io_uring libaio sync; do
		engine_works "$e" || continue
		write_pass -e "$e" -t "RND4K Q32T1" --mode write --size 4MiB --time 0.5
		assert_unique
		assert_covered RND 4096
		n=$((n + 1))
	done
	assert [ "$n" -ge 1 ]
}

@test "SEQ1M Q8T1 and SEQ64M writes: no 512 B sector repeats, the file does not compress" {
	write_pass -t "SEQ1M Q8T1" --mode write --size 16MiB --time 0.5
	assert_unique
	assert_covered SEQ $((1 << 20))
	write_pass -t "SEQ64M Q1T1" --mode write --size 64MiB --time 0.5
	assert_unique
	assert_covered SEQ $((64 << 20))
}

@test "512 B random writes: every sector stamped, none repeats, the file does not compress" {
	write_pass -t "RND512B Q32T2" --mode write --size 4MiB --time 0.5 --buffered
	assert_unique
	assert_covered RND 512
}

@test "a Mix test's writes: no 512 B sector repeats, the file does not compress" {
	write_pass -t "RND4K Q32T1" --mode mix --mix 50 --size 4MiB --time 0.5
	assert_unique
	assert_covered RND 4096
}

@test "the preparation alone: every sector stamped as the preparation's, none repeats, no compression" {
	# the null engine's read pass writes nothing and the preparation is
	# the same for every engine (pwrite); its simulated device (1 ms an
	# I/O) lets the worker sleep
	write_pass -e null --null-device lat=1ms -t "SEQ1M" --mode read --size 8MiB --time 0.2
	assert_equal "$written" 0
	assert_unique
}

@test "--data zero writes zeros: nothing stamped (CDM's 0Fill)" {
	write_pass -t "RND4K" --mode write --data zero --size 4MiB --time 0.5
	assert_equal "$repeated" $((sectors - 1))
	assert_equal "$written" 0
}

@test "a kept file records the data it holds: reused with it, refused with other data, each output says so" {
	local quick=(--count 1 --time 0.2 --interval 0 --warmup 0 --quiet --engine null -t "RND4K Q1T1")
	run "$CDM" "${quick[@]}" --size 4MiB --mode read --data zero --keep --save "$OD/new.json" "$TD"
	assert_success
	assert_equal "$(jq -r '.target.test_file + " " + .target.test_file_data' "$OD/new.json")" "kept zero"
	kept=$(find "$TD" -maxdepth 1 -name 'cdm-*.keep')
	assert [ -n "$kept" ]
	# reused with the data it holds: JSON, the text's note, Markdown, CSV
	run --separate-stderr "$CDM" "${quick[@]}" --mode read --data zero --file "$kept" --save "$OD/re.json" \
		--format csv
	assert_success
	assert_equal "$(jq -r '.target.test_file + " " + .target.test_file_data + " " + .settings.data' "$OD/re.json")" \
		"reused zero zero"
	local csv=$output
	assert_equal "$(csv_col "$csv" test_file 2)" reused
	assert_equal "$(csv_col "$csv" test_file_data 2)" zero
	assert_equal "$(csv_col "$csv" data 2)" zero
	run "$CDM" report "$OD/re.json"
	assert_line "Test file: reused (--file), zero data"
	"$CDM" import - <<< "$output" > "$OD/back.txt"
	assert_grep "^Test file: reused (--file), zero data$" "$OD/back.txt"
	run "$CDM" report --format markdown "$OD/re.json"
	assert_output --partial "test file, reused (--file), zero data;"
	# a new file removed after its run: "new", and no note
	run "$CDM" "${quick[@]}" --size 4MiB --mode read --save "$OD/plain.json" "$TD"
	assert_success
	assert_equal "$(jq -r '.target.test_file + " " + .target.test_file_data' "$OD/plain.json")" "new random"
	refute_line --partial "Test file:"
	# other data than the file holds: refused before any I/O, the file as it was
	sum=$(md5sum < "$kept")
	run "$CDM" "${quick[@]}" --mode write --file "$kept"
	assert_failure 1
	assert_output "cdm: $kept holds zero data (kept by a run with --data zero), but this run asks for --data random: run with --data zero, or keep a new file"
	assert_equal "$(md5sum < "$kept")" "$sum"
	# a mark from before the data was recorded: taken, its data not known
	python3 -c 'import os, sys
m = os.getxattr(sys.argv[1], "user.cdm.testfile").decode()
assert m.endswith(" data=zero"), m
os.setxattr(sys.argv[1], "user.cdm.testfile", m[:-len(" data=zero")].encode())' "$kept"
	run "$CDM" "${quick[@]}" --mode read --file "$kept" --save "$OD/old.json"
	assert_success
	assert_line "Test file: reused (--file), unknown data"
	assert_equal "$(jq -r '.target.test_file + " " + (.target.test_file_data | tostring)' "$OD/old.json")" \
		"reused null"
}
