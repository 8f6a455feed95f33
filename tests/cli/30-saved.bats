#!/usr/bin/env bats
# A saved result prints what the live one printed: every output a command
# prints live and saves with --save (cdm merge, cdm-mpi, cdm sweep) is
# printed again from its saved JSON by `cdm report`, in every format both
# have, byte for byte.  A run's own round trip, in every format, is
# 24-report.bats's first test.  Compared: standard output, and the
# sweep's notes on standard error.  Left aside: what only the live
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

# the sweep of 13-sweep.bats's knee (its comment says why it finds one):
# a cap of 300 IOPS that 16 threads reach, so the curve has a knee and a
# flat ceiling, whose note is on stderr
SWEEP=(--size 16MiB --count 1 --time 0.5 --warmup 0 --quiet --engine null
	--null-device "lat=40ms,iops=300" --threads 1,4,16,32 --test "RND4K Q2" --mode read)

@test "cdm sweep --format X --save F.json --plot P.svg: cdm report prints the table, the JSON and the chart again" {
	local f
	for f in cdm markdown; do
		"${RT[@]}" "$CDM" sweep "${SWEEP[@]}" --format "$f" --save "$OD/s.$f.json" \
			--plot "$OD/p.$f.svg" "$TD" > "$OD/live.$f" 2> "$OD/live.$f.err"
		run --separate-stderr "$CDM" report --format "$f" "$OD/s.$f.json"
		assert_success
		assert [ -s "$OD/live.$f" ]
		assert_equal "$output" "$(cat "$OD/live.$f")"
		# the ceiling's note: the sweep's own, on stderr
		assert_equal "$stderr" "$(cat "$OD/live.$f.err")"
		# the saved JSON and the chart, byte for byte
		"$CDM" report --format json "$OD/s.$f.json" | cmp - "$OD/s.$f.json"
		"$CDM" report --format svg "$OD/s.$f.json" | cmp - "$OD/p.$f.svg"
		"$CDM" report --format "$f" --svg "$OD/c.$f.svg" "$OD/s.$f.json" > /dev/null 2>&1
		cmp "$OD/c.$f.svg" "$OD/p.$f.svg"
	done
	assert_grep '<- knee$' "$OD/live.cdm"
	assert_grep 'flat ceiling at' "$OD/live.cdm"
	assert_grep '^cdm: note: RND4K Q2 Read: a flat ceiling at ' "$OD/live.cdm.err"
	assert_grep '^| 16 | 2 | .* | \*\*knee\*\* |$' "$OD/live.markdown"
	# --metric mb_s: the chart's first panel is saved with the sweep
	"${RT[@]}" "$CDM" sweep "${SWEEP[@]}" --threads 1,4 --metric mb_s --save "$OD/mb.json" \
		--plot "$OD/mb.svg" "$TD" > /dev/null 2>&1
	jq -e '.settings.metric == "mb_s"' "$OD/mb.json"
	"$CDM" report --format svg "$OD/mb.json" | cmp - "$OD/mb.svg"
	assert_clean "$TD"
}

# edit_refused JQ FILE WHY - FILE edited by jq's JQ is refused by cdm
# report: exit 2, nothing on stdout, one line "not a valid cdm result: WHY"
edit_refused() {
	jq "$1" "$2" > "$OD/bad.json"
	run --separate-stderr "$CDM" report "$OD/bad.json"
	assert_failure 2
	assert_equal "$output" ""
	assert_equal "$stderr" "cdm: $OD/bad.json: not a valid cdm result: $3"
}

# issue 25, item 6: a saved sweep kept six settings (size to direct),
# written by hand; it now has every row of the settings table, as a
# run's JSON does, and reads them back; a file of the six still reads
@test "a saved sweep keeps every setting of the run, as a run's JSON does, and an older six-key one still reads" {
	"$CDM" sweep "${SWEEP[@]}" --threads 1,4 --save "$OD/s.json" "$TD" > /dev/null 2>&1
	"$CDM" "${QUICK[@]}" --engine null --null-device lat=1ms -t "RND4K Q1T1" --mode read \
		--save "$OD/r.json" "$TD" > /dev/null 2>&1
	# the same keys in the same order, between "vary" and "metric"
	assert_equal "$(jq -c '.settings | keys_unsorted | .[1:-1]' "$OD/s.json")" \
		"$(jq -c '.settings | keys_unsorted' "$OD/r.json")"
	jq -e '.settings.null_device != null and .settings.aggregate == "best"' "$OD/s.json"
	"$CDM" report --format json "$OD/s.json" | cmp - "$OD/s.json"
	# an earlier cdm's sweep: vary, the six, metric
	jq '.settings |= {vary, size_bytes, count, time_s, warmup_s, engine, direct, metric}' \
		"$OD/s.json" > "$OD/old.json"
	run --separate-stderr "$CDM" report "$OD/old.json"
	assert_success
	assert_output --partial "RND4K Q2 Read"
	edit_refused '.settings |= del(.count)' "$OD/s.json" "settings.count: missing"
	edit_refused '.settings.size_bytes = null' "$OD/s.json" "settings.size_bytes: null, but a sweep states it"
	assert_clean "$TD"
}

@test "a saved sweep: formats it cannot print and --aggregate are refused in one line; a bad one is named" {
	local f
	"$CDM" sweep "${SWEEP[@]}" --threads 1,4 --save "$OD/s.json" "$TD" > /dev/null 2>&1
	for f in cdm7 cdm6 csv; do
		run --separate-stderr "$CDM" report --format "$f" "$OD/s.json"
		assert_failure 2
		assert_equal "$output" ""
		assert_equal "$stderr" "cdm: $OD/s.json: a saved sweep prints only as cdm, markdown, json or svg, not as $f"
	done
	run --separate-stderr "$CDM" report --format csv -o "$OD/r.csv" "$OD/s.json"
	assert_failure 2
	assert [ ! -e "$OD/r.csv" ]
	run --separate-stderr "$CDM" report --aggregate mean "$OD/s.json"
	assert_failure 2
	assert_equal "$output" ""
	assert_equal "$stderr" "cdm: $OD/s.json: --aggregate: a sweep's points are the sum of their measured passes, not one of them"
	# a sweep is no run: merge and compare still refuse it
	run "$CDM" merge "$OD/s.json"
	assert_failure 2
	assert_output --partial "a cdm sweep result (cdm sweep --save), not a run's (cdm --save)"
	# a knee on no point, a point without its counts, a newer schema
	jq '.curves[0].knee.index = 7' "$OD/s.json" > "$OD/bad.json"
	run --separate-stderr "$CDM" report "$OD/bad.json"
	assert_failure 2
	assert_equal "$stderr" "cdm: $OD/bad.json: not a valid cdm result: curves[0].knee.index: 7 is no measured point"
	jq '.curves[0].points[1] |= del(.ios)' "$OD/s.json" > "$OD/bad.json"
	run --separate-stderr "$CDM" report "$OD/bad.json"
	assert_failure 2
	assert_equal "$stderr" "cdm: $OD/bad.json: not a valid cdm result: curves[0].points[1]: no \"ios\""
	jq '.schema_version = 9' "$OD/s.json" > "$OD/bad.json"
	run --separate-stderr "$CDM" report "$OD/bad.json"
	assert_failure 2
	assert_equal "$stderr" "cdm: $OD/bad.json: schema_version 9 is newer than this cdm reads (2): read it with a newer cdm"
	# from standard input too
	"$CDM" report - < "$OD/s.json" | assert_grep '^cdm sweep: ' -
	assert_clean "$TD"
}
