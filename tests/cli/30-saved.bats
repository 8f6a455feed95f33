#!/usr/bin/env bats
# A saved result prints what the live one printed: every output a command
# prints live and saves with --save (cdm merge, cdm-mpi) is printed again
# from its saved JSON by `cdm report`, in every format both have, byte for
# byte.  A run's own round trip, in every format, is 24-report.bats's
# first test.  Compared: standard output.  Left aside: what only the live
# command prints on standard error (cdm merge's warning that the runs did
# not overlap, which judges the runs' start times when it merges them and
# is not part of the report; the progress line, off with --quiet).

load helpers
bats_require_minimum_version 1.5.0      # run --separate-stderr

: "${CDM_MPI:=$BATS_TEST_DIRNAME/../../cdm-mpi}"

# passes of 0.2 s on the null engine: every figure comes from the counts
NULLRUN=(--size 16MiB --count 2 --time 0.2 --interval 0 --warmup 0 --quiet
	--engine null --null-service-us 500 -t "RND4K Q2T1")

# every --format value of this build, from the registry's own message
formats() {
	"$CDM" report --format '?' x.json 2>&1 | sed -n "s/.*bad value for --format: '?' (\(.*\))$/\1/p" | tr -d ','
}

@test "cdm merge --format X --save F.json: cdm report --format X F.json prints the same, in every format" {
	local f
	"${RT[@]}" "$CDM" "${NULLRUN[@]}" --label A --save "$OD/a.json" "$TD" > /dev/null
	"${RT[@]}" "$CDM" "${NULLRUN[@]}" --label B --save "$OD/b.json" "$TD" > /dev/null
	for f in $(formats); do
		# (stderr: the runs ran one after the other, and merge says so)
		"$CDM" merge --format "$f" --save "$OD/m.$f.json" "$OD/a.json" "$OD/b.json" \
			> "$OD/live.$f" 2> /dev/null
		"$CDM" report --format "$f" "$OD/m.$f.json" > "$OD/saved.$f"
		assert [ -s "$OD/live.$f" ]
		cmp "$OD/live.$f" "$OD/saved.$f"
	done
	# what the saved one used to drop: the Aggregate line, the per-run spread
	assert_grep '^\* Aggregate: 2 runs x T1; ' "$OD/saved.cdm"
	assert_grep '^Per run MB/s (best of each): min / median / max$' "$OD/saved.cdm"
	assert_grep '^  RND4K Q2T1   Read : .* (min [AB], max [AB])$' "$OD/saved.cdm"
	# and the JSON keeps its "scale", the same as the merge's own
	cmp "$OD/m.json.json" "$OD/saved.json"
	jq -e '.scale.count == 2 and (.scale.sources | map(.name) == ["A", "B"])' "$OD/saved.json"
	# another pass figure: each run's spread is derived again under it
	"$CDM" merge --aggregate median "$OD/a.json" "$OD/b.json" > "$OD/live.median" 2> /dev/null
	"$CDM" report --aggregate median "$OD/m.cdm.json" | cmp - "$OD/live.median"
	assert_grep '^Per run MB/s (median of each): ' "$OD/live.median"
	assert_clean "$TD"
}

@test "a saved aggregate whose runs do not fit it is refused by name" {
	"${RT[@]}" "$CDM" "${NULLRUN[@]}" --label A --save "$OD/a.json" "$TD" > /dev/null
	"${RT[@]}" "$CDM" "${NULLRUN[@]}" --label B --save "$OD/b.json" "$TD" > /dev/null
	"$CDM" merge --save "$OD/m.json" "$OD/a.json" "$OD/b.json" > /dev/null 2>&1
	jq '.scale.count = 3' "$OD/m.json" > "$OD/bad.json"
	run --separate-stderr "$CDM" report "$OD/bad.json"
	assert_failure 2
	assert_equal "$output" ""
	assert_equal "$stderr" "cdm: $OD/bad.json: not a valid cdm result: scale.count: 3, but 2 sources"
	jq '.scale.sources[1].tests[0].direction = "write"' "$OD/m.json" > "$OD/bad.json"
	run --separate-stderr "$CDM" report "$OD/bad.json"
	assert_failure 2
	assert_equal "$stderr" "cdm: $OD/bad.json: not a valid cdm result: scale.sources[1].tests[0].direction: \"write\", but the aggregate's test is \"read\""
	jq '.scale.sources[1].tests[0].name = "RND4K Q2T2"' "$OD/m.json" > "$OD/bad.json"
	run --separate-stderr "$CDM" report "$OD/bad.json"
	assert_failure 2
	assert_equal "$stderr" "cdm: $OD/bad.json: not a valid cdm result: scale.sources: the runs' threads of tests[0] add up to 3, not its 2"
	jq '.scale.sources[0].tests[0].passes[0] |= del(.ios)' "$OD/m.json" > "$OD/bad.json"
	run --separate-stderr "$CDM" report "$OD/bad.json"
	assert_failure 2
	assert_equal "$stderr" "cdm: $OD/bad.json: not a valid cdm result: scale.sources[0].tests[0].passes[0]: no \"ios\""
	# one name or label printed in the report is one line
	jq '.scale.sources[0].name = "x\ny"' "$OD/m.json" > "$OD/nl.json"
	run "$CDM" report "$OD/nl.json"
	assert_success
	assert_line --regexp '^  RND4K Q2T1   Read : .*x y'
}

@test "cdm-mpi --format X --save F.json: cdm report --format X F.json prints the same, per-rank table included" {
	command -v mpirun > /dev/null || skip "mpirun not installed (apt-get install openmpi-bin libopenmpi-dev)"
	[ -x "$CDM_MPI" ] || skip "cdm-mpi not built (make WITH_MPI=yes cdm-mpi)"
	local f
	for f in $(formats); do
		(cd "$OD" && timeout 60 mpirun --allow-run-as-root --oversubscribe -np 2 "$CDM_MPI" \
			"${NULLRUN[@]}" --format "$f" --save "$OD/mpi.$f.json" "$TD" > "$OD/live.$f")
		"$CDM" report --format "$f" "$OD/mpi.$f.json" > "$OD/saved.$f"
		assert [ -s "$OD/live.$f" ]
		cmp "$OD/live.$f" "$OD/saved.$f"
	done
	assert_grep '^\* Aggregate: 2 ranks x T1; ' "$OD/saved.cdm"
	assert_grep '^Per rank MB/s (best of each): min / median / max$' "$OD/saved.cdm"
	assert_grep '(min rank [01] (.*), max rank [01] (.*))$' "$OD/saved.cdm"
	jq -e '.scale.unit == "ranks" and (.scale.spread_mb_s | length) == 2' "$OD/saved.json"
	assert_clean "$TD"
}
