#!/usr/bin/env bats
# --verify (issue 14, item 4): after each write or Mix test every block it
# wrote is read back and each sector's stamp checked against the last
# write that completed there (docs/method.md, "Verification").  Faults are
# made by the LD_PRELOAD shim (tests/fault/faultshim.c): a write that lands
# on the block before the one asked for (misdirect), one that writes
# nothing (drop), one that writes half (torn), each reporting success.
#
# The faulty runs are deterministic: SEQ128K Q1T1 at --rate-iops 40 for
# 1 s writes about 40 blocks of the 128 of a 16 MiB file, in order, so no
# block is written twice and the fault on the 16th write (after 15 calls
# of 131072 bytes; the preparation writes 4 MiB at a time) is never
# overwritten: it is at offset 15 x 131072 = 1966080.  The fault needs 40 %
# of the writes asked for, as one on the 31st write of 2 s did (in 1 s, the
# 31st of about 40 was more than a loaded machine under ASan wrote).

load helpers

TOOLS="$BATS_TEST_DIRNAME/../../build/tests"
SHIM="$TOOLS/faultshim.so"
FAULTY=(--size 16MiB --count 1 --time 1 --interval 0 --warmup 0 --quiet --verify
	--mode write -t "SEQ128K Q1T1" --rate-iops 40 -f json)

need_shim() {
	[ -f "$SHIM" ] || skip "build/tests/faultshim.so not built (make tools)"
}

# run cdm with the faults $1; JSON on $OD/out, stderr on $OD/err; "status N" and stderr as output
with_fault() {
	local fault=$1 st=0
	shift
	CDM_FAULT=$fault LD_PRELOAD=$SHIM \
		ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" \
		timeout 60 "$CDM" "$@" > "$OD/out" 2> "$OD/err" || st=$?
	echo "status $st"
	cat "$OD/err"
	return "$st"
}

# the verify object of test $1 of the JSON in $2, as "blocks sampled lost mis torn fl fm ft"
verify_of() {
	python3 - "$1" "$2" <<'EOF'
import json, sys
t = json.load(open(sys.argv[2]))["tests"][int(sys.argv[1])]
v = t.get("verify")
if v is None:
    print("absent")
else:
    print(v["blocks"], str(v["sampled"]).lower(), v["lost"], v["misdirected"], v["torn"],
          v["first_lost_offset"], v["first_misdirected_offset"], v["first_torn_offset"])
EOF
}

assert_clean() {
	assert_equal "$(ls -A "$1")" ""
}

# Runs made once for the file, all at once, and only read by its tests:
# each in a directory of $BATS_FILE_TMPDIR (S), where its TARGET td/ is
# left empty by a run that went well (a test checks it).  Each within 60 s
# (setup_file has no watchdog)
#  drop/  the dropped 16th write of FAULTY (with_fault's out, err; output and
#         status: what with_fault printed and returned)
#  c/     a clean SEQ128K Q1T1 write test: c.json
#  v/     a clean RND4K Q4T1 read, write and Mix test: v.json, v.txt
#  r/     --verify without a write test: r.json, r.txt (stdout), r.err, r.status
#  n/     RND4K Q1T1 read and written without --verify: n.json, n.txt
S=$BATS_FILE_TMPDIR
setup_file() {
	# QUICK as helpers.bash's setup() sets it for each test
	local d pids=() QUICK=(--size 16MiB --count 1 --time 0.5 --interval 0 --warmup 0 --quiet)
	for d in drop c v r n; do
		mkdir -p "$S/$d/td"
	done
	if [ -f "$SHIM" ]; then
		(OD=$S/drop
		st=0
		with_fault pwrite:drop:15:131072 "${FAULTY[@]}" -e sync "$OD/td" > "$OD/output" || st=$?
		echo "$st" > "$OD/status") &
		pids+=($!)
	fi
	(cd "$S/c" && timeout 60 "$CDM" "${QUICK[@]}" --mode write -t "SEQ128K Q1T1" --verify \
		--save c.json td > /dev/null) &
	pids+=($!)
	(cd "$S/v" && timeout 60 "$CDM" "${QUICK[@]}" -t "RND4K Q4T1" --mix 70 --verify \
		--save v.json td > v.txt) &
	pids+=($!)
	(cd "$S/r" && { timeout 60 "$CDM" "${QUICK[@]}" --verify --mode read -t "RND4K Q1T1" \
		--save r.json td > r.txt 2> r.err; echo $? > r.status; }) &
	pids+=($!)
	(cd "$S/n" && timeout 60 "$CDM" "${QUICK[@]}" -t "RND4K Q1T1" --save n.json td > n.txt) &
	pids+=($!)
	# a failed run fails the tests that read it (its files are missing or say so)
	for pid in "${pids[@]}"; do
		wait "$pid" || true
	done
}

# shared NAME - what setup_file's run NAME printed, and its status (for run)
shared() {
	cat "$S/$1/output"
	return "$(cat "$S/$1/status")"
}

@test "a clean run reads every written block back: exit 0, counts in JSON, the text's line" {
	run "$CDM" "${QUICK[@]}" --verify --mix 30 -t "RND4K Q8T2" -t "SEQ128K Q2T1" \
		-f json --save "$OD/run.json" "$TD"
	assert_success
	n=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["tests"]))' "$OD/run.json")
	assert_equal "$n" 6
	for i in 0 1 2 3 4 5; do
		read -r blocks sampled lost mis torn fl fm ft <<< "$(verify_of $i "$OD/run.json")"
		dir=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["tests"][int(sys.argv[2])]["direction"])' "$OD/run.json" $i)
		if [ "$dir" = read ]; then
			assert_equal "$blocks" absent
			continue
		fi
		assert [ "$blocks" -gt 0 ]
		assert_equal "$sampled" false
		assert_equal "$lost $mis $torn" "0 0 0"
		assert_equal "$fl $fm $ft" "None None None"
	done
	# the report, read back from JSON: one clean line after the table
	run "$CDM" report "$OD/run.json"
	assert_success
	assert_regex "$output" 'Verify: all 4 write and Mix tests read back clean, [0-9]+ blocks'
	run "$CDM" report -f markdown "$OD/run.json"
	assert_output --partial "Verify: all 4 write and Mix tests read back clean"
	assert_clean "$TD"
}

@test "a dropped write is found as lost, with its offset; exit 1 (sync engine)" {
	need_shim
	run shared drop
	assert_failure 1
	# said once on stderr, by the closing error line: the test, the kind, its count and offset
	assert_equal "$(grep -c -- '--verify' <<< "$output")" 1
	assert_line "cdm: --verify: SEQ128K Q1T1 Write: 1 lost write at offset 1966080: this storage does not return what was written"
	read -r blocks sampled lost mis torn fl fm ft <<< "$(verify_of 0 "$S/drop/out")"
	assert_equal "$lost $mis $torn" "1 0 0"
	assert_equal "$fl $fm $ft" "1966080 None None"
	assert_clean "$S/drop/td"
}

@test "a drop and a torn write in one test: one stderr line with each kind's count and first offset, worded as the report's" {
	need_shim
	run with_fault pwrite:drop:5:131072,pwrite:torn:10:131072 "${FAULTY[@]}" -e sync -o "$OD/v3.json" "$TD"
	assert_failure 1
	# -o: the terminal sees only stderr, which says what was found and where, once
	assert_equal "$(grep -c -- '--verify' <<< "$output")" 1
	line="SEQ128K Q1T1 Write: 1 lost write at offset 655360, 1 torn block at offset 1310720"
	assert_line "cdm: --verify: $line: this storage does not return what was written"
	read -r blocks sampled lost mis torn fl fm ft <<< "$(verify_of 0 "$OD/v3.json")"
	assert_equal "$lost $mis $torn $fl $ft" "1 0 1 655360 1310720"
	# the text report's Verify line says it in the same words
	run "$CDM" report "$OD/v3.json"
	assert_success
	assert_line "Verify: $line"
	assert_clean "$TD"
}

@test "a misdirected write is found where it landed, naming where it was meant; its own block lost" {
	need_shim
	run with_fault pwrite:misdirect:15:131072 "${FAULTY[@]}" -e sync "$TD"
	assert_failure 1
	# stderr: one line, both kinds, and where the misdirected write was meant to go
	line="SEQ128K Q1T1 Write: 1 lost write at offset 1966080, 1 misdirected write at offset 1835008 (meant for offset 1966080)"
	assert_line "cdm: --verify: $line: this storage does not return what was written"
	assert_equal "$(grep -c -- '--verify' <<< "$output")" 1
	read -r blocks sampled lost mis torn fl fm ft <<< "$(verify_of 0 "$OD/out")"
	assert_equal "$lost $mis $torn" "1 1 0"
	assert_equal "$fl $fm" "1966080 1835008"
	assert_equal "$(jq .tests[0].verify.first_misdirected_meant_offset "$OD/out")" 1966080
	# the text report says the same, with the first offsets
	run "$CDM" report "$OD/out"
	assert_line "Verify: $line"
	# and each text layout reads back with the same faults (cdm import, compare)
	for f in cdm cdm7 cdm6; do
		"$CDM" report --format "$f" "$OD/out" > "$OD/r.$f"
		"$CDM" import --format json "$OD/r.$f" > "$OD/back.json"
		read -r blocks sampled lost mis torn fl fm ft <<< "$(verify_of 0 "$OD/back.json")"
		assert_equal "$lost $mis $torn $fl $fm" "1 1 0 1966080 1835008"
		assert_equal "$(jq .tests[0].verify.first_misdirected_meant_offset "$OD/back.json")" 1966080
		assert_equal "$(jq .settings.verify "$OD/back.json")" true
	done
	assert_clean "$TD"
}

@test "a torn write (half its sectors) is found as torn" {
	need_shim
	run with_fault pwrite:torn:15:131072 "${FAULTY[@]}" -e sync "$TD"
	assert_failure 1
	read -r blocks sampled lost mis torn fl fm ft <<< "$(verify_of 0 "$OD/out")"
	assert_equal "$lost $mis $torn $ft" "0 0 1 1966080"
	# the text report words it, once
	run "$CDM" report "$OD/out"
	assert_equal "$(grep -c 'Verify: SEQ128K Q1T1 Write: 1 torn block at offset 1966080$' <<< "$output")" 1
}

@test "a drop and a misdirect in one run, through libaio's io_submit" {
	need_shim
	"$CDM" --list-engines | grep -q '^libaio .* yes ' || skip "libaio does not work here"
	run with_fault io_submit:drop:10:131072,io_submit:misdirect:15:131072 "${FAULTY[@]}" -e libaio "$TD"
	assert_failure 1
	read -r blocks sampled lost mis torn fl fm ft <<< "$(verify_of 0 "$OD/out")"
	# 10 is lost (dropped), 15 is lost (its write went to 14), 14 holds 15's
	assert_equal "$lost $mis $torn" "2 1 0"
	assert_equal "$fl $fm" "1310720 1835008"
}

@test "overlapping writes at Q32T4 on a 1 MiB file are serialised: no false fault" {
	# 256 blocks, 128 writes in flight: without serialising, two writes to
	# one block complete in either order and the check reports lost writes.
	# For each engine a write test and a Mix test of 1 s (without the read
	# test of --mode all): tens of thousands of writes each, every block
	# written many times
	for e in io_uring libaio; do
		"$CDM" --list-engines | grep -q "^$e .* yes " || continue
		for m in write mix; do
			run "$CDM" --size 1MiB --count 1 --time 1 --warmup 0 --interval 0 --quiet --verify \
				--mode $m --mix 50 -t "RND4K Q32T4" -e "$e" -f json -o "$OD/$e.$m.json" "$TD"
			assert_success
			[ $m = mix ] || assert_regex "$output" 'RND4K Q32T4 Write: --verify: [0-9]+ of [0-9]+ writes'
			assert_equal "$(jq -c '[.tests[].direction]' "$OD/$e.$m.json")" "[\"$m\"]"
			read -r blocks sampled lost mis torn fl fm ft <<< "$(verify_of 0 "$OD/$e.$m.json")"
			assert_equal "$blocks" 256
			assert_equal "$lost $mis $torn" "0 0 0"
		done
	done
	assert_clean "$TD"
}

@test "--buffered: the page cache is written and dropped before the read-back" {
	run "$CDM" "${QUICK[@]}" --buffered --verify --mode write -t "RND4K Q4T2" -f json \
		-o "$OD/b.json" "$TD"
	assert_success
	read -r blocks sampled lost mis torn fl fm ft <<< "$(verify_of 0 "$OD/b.json")"
	assert [ "$blocks" -gt 0 ]
	assert_equal "$lost $mis $torn" "0 0 0"
}

@test "--verify is refused with --data zero and on too few blocks; a note without write tests" {
	run "$CDM" "${QUICK[@]}" --verify --data zero "$TD"
	assert_failure 2
	assert_line --index 0 --partial "cdm: --verify needs the stamped data cdm writes: drop --data zero"
	run "$CDM" --size 1MiB --quiet --verify -t "RND4K Q32T8" "$TD"
	assert_failure 2
	assert_line --index 0 --partial "cdm: --verify: RND4K Q32T8 keeps 256 writes in flight on a file of 256 blocks"
	assert_clean "$TD"
	# setup_file's run of --verify --mode read -t "RND4K Q1T1"
	assert_equal "$(cat "$S/r/r.status")" 0
	assert_grep -F "cdm: note: --verify checks what write and Mix tests wrote: this run has none" "$S/r/r.err"
}

@test "--verify without a write test: the setting is kept, and the report says nothing was read back" {
	# setup_file's run of --verify --mode read -t "RND4K Q1T1"
	cp "$S/r/r.json" "$S/r/r.txt" "$OD"
	assert_clean "$S/r/td"
	# asked for: the Mode line and JSON's settings keep it; no test has a verify object
	assert_grep '^   Mode: .*<Verify>' "$OD/r.txt"
	assert_equal "$(jq .settings.verify "$OD/r.json")" true
	assert_equal "$(jq '[.tests[] | has("verify")] | any' "$OD/r.json")" false
	# and nothing verified: the Verify line says so, in every text layout, read back by import
	assert_grep -x "Verify: no write or Mix test, nothing read back" "$OD/r.txt"
	refute_grep "read back clean" "$OD/r.txt"
	for f in cdm cdm7 cdm6 markdown; do
		"$CDM" report --format "$f" "$OD/r.json" | assert_grep "Verify: no write or Mix test, nothing read back" -
	done
	"$CDM" import --format json "$OD/r.txt" > "$OD/back.json"
	assert_equal "$(jq .settings.verify "$OD/back.json")" true
	"$CDM" import "$OD/r.txt" > "$OD/back.txt"
	diff <(grep '^Verify' "$OD/r.txt") <(grep '^Verify' "$OD/back.txt")
	# without --verify there is no such line (setup_file's run, read and write)
	refute_grep "^Verify" "$S/n/n.txt"
}

@test "without --verify no test has a verify object" {
	# setup_file's run of RND4K Q1T1, read and written
	assert_equal "$(jq -c '[.tests[].direction]' "$S/n/n.json")" '["read","write"]'
	assert_equal "$(verify_of 0 "$S/n/n.json") $(verify_of 1 "$S/n/n.json")" "absent absent"
	assert_clean "$S/n/td"
}

@test "--verify with the null engine (which writes nothing) is refused; a read-only run is not checked for its depth" {
	run "$CDM" "${QUICK[@]}" -e null -t "RND4K Q4T1" --verify "$TD"
	assert_failure 2
	assert_line --index 0 "cdm: --verify checks what the storage returns: the null engine writes nothing (choose another --engine)"
	# reads are never held back: a small file at a high depth is fine when nothing writes
	run "$CDM" "${QUICK[@]}" --size 1MiB -e sync -t "RND4K Q1T8" --mode read --verify "$TD"
	assert_success
	assert_output --partial "nothing is read back"
	assert_clean "$TD"
}

@test "a clean run's text says which tests were read back, and reads back to the same line" {
	"$CDM" "${QUICK[@]}" -t "RND4K Q4T1" --mode mix --verify --save "$OD/m.json" "$TD" > "$OD/m.txt"
	assert_grep -x "Verify: 1 Mix test read back clean, [0-9]* blocks" "$OD/m.txt"
	# setup_file's run of RND4K Q4T1 read, written and Mix, with --verify
	cp "$S/v/v.json" "$OD/v.json"
	for f in cdm cdm7 cdm6; do
		"$CDM" report --format "$f" "$OD/v.json" > "$OD/v.$f"
		assert_grep -x "Verify: all 2 write and Mix tests read back clean, [0-9]* blocks" "$OD/v.$f"
		"$CDM" import --format "$f" "$OD/v.$f" > "$OD/back.$f"
		diff <(grep '^Verify' "$OD/v.$f") <(grep '^Verify' "$OD/back.$f")
	done
	assert_clean "$TD"
}

@test "an imported text's Verify line: no test's blocks known (null), the total kept; its JSON reads back to the same line" {
	# setup_file's run of RND4K Q4T1 read, written and Mix, with --verify
	cp "$S/v/v.json" "$S/v/v.txt" "$OD"
	assert_clean "$S/v/td"
	total=$(jq '[.tests[].verify.blocks // 0] | add' "$OD/v.json")
	assert [ "$total" -gt 0 ]
	assert_grep -x "Verify: all 2 write and Mix tests read back clean, $total blocks" "$OD/v.txt"
	for f in cdm cdm7 cdm6; do
		"$CDM" report --format "$f" "$OD/v.json" > "$OD/v.$f"
		"$CDM" import --save "$OD/back.json" "$OD/v.$f" > /dev/null
		# each write and Mix test read back clean, its own blocks not stated
		assert_equal "$(jq -c '[.tests[] | select(.verify) | [.verify.status, .verify.blocks]]' "$OD/back.json")" \
			'[["clean",null],["clean",null]]'
		assert_equal "$(jq .source.verify_blocks "$OD/back.json")" "$total"
		# read back by report and compare: the same Verify line again
		"$CDM" report --format "$f" "$OD/back.json" > "$OD/again.$f"
		diff <(grep '^Verify' "$OD/v.$f") <(grep '^Verify' "$OD/again.$f")
		run "$CDM" compare "$OD/v.json" "$OD/back.json"
		assert_success
		# and CSV: the status, no count of blocks
		"$CDM" report --format csv "$OD/back.json" | assert_grep ',write,RND,4096,1,4,4,best,.*,clean,,1,0,0,0,,,,.*,$' -
	done
	# a run cdm measured with a null count is refused, in one line naming the file
	jq '.tests[1].verify.blocks = null' "$OD/v.json" > "$OD/null.json"
	run "$CDM" report "$OD/null.json"
	assert_failure
	assert_equal "${#lines[@]}" 1
	assert_like "${lines[0]}" '*"null.json"*"tests[1].verify.blocks: null, but cdm measured this run"*'
	assert_clean "$TD"
}

# the verify object of test $1 of the JSON in $2, as "status [blocks]"
verify_status() {
	python3 - "$1" "$2" <<'PY'
import json, sys
v = json.load(open(sys.argv[2]))["tests"][int(sys.argv[1])].get("verify")
print("absent" if v is None else " ".join([v["status"]] + ([str(v["blocks"])] if "blocks" in v else [])))
PY
}

@test "a read-back of 0 blocks is not clean: 'no write completed, nothing checked' (text, JSON, stderr, import)" {
	# Mix at 1% writes, 1 IOPS for 0.5 s: one I/O, at the start, a read
	# (--seed 1 makes it one: unseeded, 1 run in 100 drew a write)
	run "$CDM" --size 16MiB --count 1 --time 0.5 --interval 0 --warmup 0 --verify --mode mix \
		--mix 99 --rate-iops 1 -t "RND4K Q1T1" --seed 1 --save "$OD/e.json" "$TD"
	assert_success
	assert_output --partial "cdm: note: RND4K Q1T1 W1 Mix: --verify: no write completed, so nothing was read back or checked"
	assert_output --partial "Verify: RND4K Q1T1 W1 Mix: no write completed, nothing checked"
	refute_output --partial "read back clean"
	assert_equal "$(verify_status 0 "$OD/e.json")" "nothing_written 0"
	for f in cdm cdm7 cdm6 markdown; do
		"$CDM" report --format "$f" "$OD/e.json" > "$OD/e.$f"
		assert_grep "Verify: RND4K Q1T1 W1 Mix: no write completed, nothing checked" "$OD/e.$f"
	done
	"$CDM" import --save "$OD/back.json" "$OD/e.cdm"
	"$CDM" import "$OD/e.cdm" > "$OD/back.txt"
	assert_equal "$(verify_status 0 "$OD/back.json")" "nothing_written 0"
	diff <(grep '^Verify' "$OD/e.cdm") <(grep '^Verify' "$OD/back.txt")
	assert_clean "$TD"
}

@test "a read-back cut short by SIGTERM says the test was not checked (text, JSON, stderr, import)" {
	need_shim
	# SEQ1M at 10 IOPS for 0.5 s writes ~5 consecutive blocks, read back 1 MiB per
	# pread: the shim raises SIGTERM during the second read
	run with_fault pread:term:1:1048576 --size 16MiB --count 1 --time 0.5 --interval 0 --warmup 0 \
		--verify --mode write -t "SEQ1M Q1T1" --rate-iops 10 -e sync -f json "$TD"
	assert_failure 143
	assert_output --partial "cdm: warning: SEQ1M Q1T1 Write: --verify: the read-back was interrupted: this test is not checked"
	assert_equal "$(verify_status 0 "$OD/out")" "interrupted"
	"$CDM" report "$OD/out" > "$OD/i.txt"
	assert_grep -x "Verify: SEQ1M Q1T1 Write: the read-back was interrupted, not checked" "$OD/i.txt"
	refute_grep "read back clean" "$OD/i.txt"
	"$CDM" import --save "$OD/back.json" "$OD/i.txt" > /dev/null
	assert_equal "$(verify_status 0 "$OD/back.json")" "interrupted"
	assert_clean "$TD"
}

@test "a JSON verify status that its counts contradict is refused" {
	# setup_file's clean run of SEQ128K Q1T1, written
	cp "$S/c/c.json" "$OD/c.json"
	assert_clean "$S/c/td"
	assert_equal "$(verify_status 0 "$OD/c.json" | cut -d' ' -f1)" clean
	sed 's/"status": "clean"/"status": "nothing_written"/' "$OD/c.json" > "$OD/bad.json"
	run "$CDM" report "$OD/bad.json"
	assert_failure
	assert_output --partial 'verify.status: "nothing_written", but the counts say "clean"'
	sed 's/"status": "clean"/"status": "fine"/' "$OD/c.json" > "$OD/bad.json"
	run "$CDM" report "$OD/bad.json"
	assert_failure
	assert_output --partial "verify.status: expected"
}

@test "CSV's verify columns and the SVG card's footer say what each read-back found" {
	# setup_file's clean run of SEQ128K Q1T1, written
	cp "$S/c/c.json" "$OD/c.json"
	"$CDM" report -f csv "$OD/c.json" > "$OD/c.csv"
	python3 - "$OD/c.csv" "$OD/c.json" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
v = json.load(open(sys.argv[2]))["tests"][0]["verify"]
keys = list(rows[0].keys())
i = keys.index("verify_status")
assert keys[i:i + 7] == ["verify_status", "verify_blocks", "verify_sample_every",
                         "verify_lost", "verify_misdirected", "verify_torn",
                         "fsync_count"], keys
assert keys[-1] == "reason", keys
for r in rows:
    if r["kind"] == "pass":
        assert r["verify_status"] == "" and r["verify_blocks"] == "", r
        assert r["verify_sample_every"] == "", r
    else:
        assert r["verify_status"] == "clean", r
        assert int(r["verify_blocks"]) == v["blocks"] > 0, r
        assert int(r["verify_sample_every"]) == v["sample_every"] == 1, r
        assert (r["verify_lost"], r["verify_misdirected"], r["verify_torn"]) == ("0", "0", "0"), r
PY
	"$CDM" report -f svg "$OD/c.json" | assert_grep "Writes verified: 1 clean" -
	need_shim
	# setup_file's run with a dropped write
	run shared drop
	assert_failure 1
	"$CDM" report -f csv "$S/drop/out" | grep ',best,' | assert_grep ',faults,[0-9]*,1,1,0,0,' -
	"$CDM" report -f svg "$S/drop/out" | assert_grep "Writes verified: 1 with faults" -
}

@test "--verify's depth refusal counts in the singular where it is one" {
	run "$CDM" --size 4KiB --quiet --verify --mode write -t "RND4K Q1T1" "$TD"
	assert_failure 2
	assert_like "${lines[0]}" '"cdm: --verify: RND4K Q1T1 keeps 1 write in flight on a file of 1 block; it needs more blocks than that"*'
	run "$CDM" --size 4KiB --quiet --verify --mode write -t "RND4K Q2T1" "$TD"
	assert_like "${lines[0]}" '"cdm: --verify: RND4K Q2T1 keeps 2 writes in flight on a file of 1 block;"*'
	assert_clean "$TD"
}

@test "import refuses a Verify line its rows cannot hold: more tests, or another kind, than the text has" {
	"$CDM" "${QUICK[@]}" --mode write -t "RND4K Q1T1" --verify "$TD" > "$OD/v.txt"
	assert_grep "^Verify: 1 write test read back clean" "$OD/v.txt"
	"$CDM" import "$OD/v.txt" > /dev/null
	sed 's/^Verify: 1 write test read back clean/Verify: all 9 write tests read back clean/' "$OD/v.txt" > "$OD/x.txt"
	run "$CDM" import "$OD/x.txt"
	assert_failure
	assert_output --partial "line 11: not a CrystalDiskMark footer line: 'Verify: all 9 write tests"
	sed 's/^Verify: 1 write test/Verify: 1 Mix test/' "$OD/v.txt" > "$OD/x.txt"
	run "$CDM" import "$OD/x.txt"
	assert_failure
	assert_output --partial "not a CrystalDiskMark footer line: 'Verify: 1 Mix test"
	assert_clean "$TD"
}

# the saved run $1 with its test 0's read-back made a sample of 1 block in $2 (a real
# one needs a file of more than 4 Mi blocks: 16 GiB of 4 KiB blocks), on stdout
as_sample() {
	jq --argjson k "$2" '.tests[0].verify.sampled = true | .tests[0].verify.sample_every = $k' "$1"
}

@test "a sampled read-back says how much it checked: 1 block in k (JSON, text, CSV, import)" {
	"$CDM" "${QUICK[@]}" --mode write -t "SEQ128K Q1T1" -t "RND4K Q1T1" --verify \
		--save "$OD/c.json" "$TD" > "$OD/c.txt"
	# every block written was read back: 1 in 1, and the text says no sample
	assert_equal "$(jq -c '[.tests[].verify | [.sampled, .sample_every]]' "$OD/c.json")" "[[false,1],[false,1]]"
	assert_grep -x "Verify: all 2 write tests read back clean, [0-9]* blocks" "$OD/c.txt"
	as_sample "$OD/c.json" 4 > "$OD/s.json"
	blocks=$(jq '[.tests[].verify.blocks] | add' "$OD/s.json")
	"$CDM" report "$OD/s.json" > "$OD/s.txt"
	assert_grep -x "Verify: all 2 write tests read back clean, $blocks blocks (a sample: 1 block in 4)" "$OD/s.txt"
	assert_equal "$("$CDM" report -f json "$OD/s.json" | jq -c '.tests[0].verify | [.sampled, .sample_every]')" "[true,4]"
	"$CDM" report -f csv "$OD/s.json" > "$OD/s.csv"
	python3 - "$OD/s.csv" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["kind"] == "best"]
assert [r["verify_sample_every"] for r in rows] == ["4", "1"], rows
PY
	# tests sampled at different rates: the range
	jq '.tests[1].verify.sampled = true | .tests[1].verify.sample_every = 16' "$OD/s.json" > "$OD/s2.json"
	"$CDM" report "$OD/s2.json" > "$OD/s2.txt"
	assert_grep -x "Verify: all 2 write tests read back clean, $blocks blocks (a sample: 1 block in 4 to 1 in 16)" "$OD/s2.txt"
	# cdm's text reads back to the same line
	for f in s s2; do
		"$CDM" import "$OD/$f.txt" > "$OD/back.txt"
		diff <(grep '^Verify' "$OD/$f.txt") <(grep '^Verify' "$OD/back.txt")
	done
	# a file from before sample_every: "(a sample)", the rate unknown
	jq 'del(.tests[0].verify.sample_every)' "$OD/s.json" > "$OD/old.json"
	run "$CDM" report "$OD/old.json"
	assert_success
	assert_line "Verify: all 2 write tests read back clean, $blocks blocks (a sample)"
	assert_equal "$("$CDM" report -f json "$OD/old.json" | jq .tests[0].verify.sample_every)" null
	# a rate its sampled flag contradicts is refused
	jq '.tests[0].verify.sample_every = 4' "$OD/c.json" > "$OD/bad.json"
	run "$CDM" report "$OD/bad.json"
	assert_failure 2
	assert_output --partial 'tests[0].verify.sample_every: 4, but "sampled" is false'
	assert_clean "$TD"
}

@test "a sampled read-back with a fault: its Verify line says the sample, and reads back" {
	need_shim
	# setup_file's run with a dropped write
	run shared drop
	assert_failure 1
	as_sample "$S/drop/out" 8 > "$OD/s.json"
	line="SEQ128K Q1T1 Write: 1 lost write at offset 1966080 (a sample: 1 block in 8)"
	"$CDM" report "$OD/s.json" > "$OD/s.txt"
	assert_grep -x "Verify: $line" "$OD/s.txt"
	"$CDM" import --format json "$OD/s.txt" | jq -e '.tests[0].verify | .sampled and .sample_every == 8'
}
