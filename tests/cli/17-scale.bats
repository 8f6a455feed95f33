#!/usr/bin/env bats
# Scale-out (docs/scale-out.md): cdm-mpi on localhost ranks, --start-at
# with independent processes, and cdm merge.  The figures themselves are
# never checked against a speed: only that the aggregate is the sum of
# its parts, pass by pass and bucket by bucket, and that cdm merge and the
# MPI reduction agree.  cdm-mpi is built by tests/run.sh when mpicc exists
# (make WITH_MPI=yes cdm-mpi); without it the MPI tests skip.

load helpers

: "${CDM_MPI:=$BATS_TEST_DIRNAME/../../cdm-mpi}"

# null engine, fixed service time: exact and cheap
NULLRUN=(--engine null --null-service-us 500 --size 16MiB --count 2 --time 1
	--interval 0 --warmup 0 -t "RND4K Q2T1" -t "SEQ1M Q1T1" --quiet)

need_mpi() {
	command -v mpirun >/dev/null || skip "mpirun not installed (apt-get install openmpi-bin libopenmpi-dev)"
	[ -x "$CDM_MPI" ] || skip "cdm-mpi not built (make WITH_MPI=yes cdm-mpi)"
}

mpi() {	# $1 = ranks, then cdm-mpi's arguments
	local n=$1
	shift
	mpirun --allow-run-as-root --oversubscribe -np "$n" "$CDM_MPI" "$@"
}

# aggregate $1 against rank files $2...: every pass the sum of the ranks'
# pass, every histogram bucket the sum of theirs; T the total
check_sum() {
	python3 - "$@" <<'PY'
import json, sys
agg = json.load(open(sys.argv[1]))
ranks = [json.load(open(f)) for f in sys.argv[2:]]
assert agg["scale"]["count"] == len(ranks), agg["scale"]["count"]
assert len(agg["scale"]["sources"]) == len(ranks)
for i, t in enumerate(agg["tests"]):
    rt = [r["tests"][i] for r in ranks]
    assert t["threads"] == sum(x["threads"] for x in rt)
    assert len(t["passes"]) == min(len(x["passes"]) for x in rt) > 0
    for k, p in enumerate(t["passes"]):
        for key in ("bytes", "ios", "lat_sum_ns"):
            assert p[key] == sum(x["passes"][k][key] for x in rt), (i, k, key)
        assert p["lat_max_ns"] == max(x["passes"][k]["lat_max_ns"] for x in rt)
        mbs = p["bytes"] / p["duration_s"] / 1e6
        assert abs(p["mb_s"] - mbs) < 1e-6 * max(mbs, 1), (p["mb_s"], mbs)
    best = max(p["mb_s"] for p in t["passes"])
    assert t["summary"]["mb_s"]["best"] == best
    # histogram: bucket-wise sum of the ranks' histograms
    want = {}
    for x in rt:
        for b in x["histogram"]["buckets"]:
            want[(b["low_ns"], b["high_ns"])] = want.get((b["low_ns"], b["high_ns"]), 0) + b["count"]
    got = {(b["low_ns"], b["high_ns"]): b["count"] for b in t["histogram"]["buckets"]}
    assert got == want, "histogram"
    assert t["histogram"]["count"] == sum(x["histogram"]["count"] for x in rt)
    assert t["latency"]["max_ns"] == max(x["latency"]["max_ns"] for x in rt)
    # the spread of the ranks' own figures
    s = agg["scale"]["spread_mb_s"][i]
    own = sorted(x["summary"]["mb_s"]["best"] for x in rt)
    assert s["min"] == own[0] and s["max"] == own[-1], (s, own)
    starts = [[p["start_unix_ns"] for p in x["passes"]] for x in rt]
    assert s["start_spread_ns"] == max(max(c) - min(c) for c in zip(*starts))
print("ok")
PY
}

# the same aggregate figures in two JSON results
check_same() {
	python3 - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
assert len(a["tests"]) == len(b["tests"])
for x, y in zip(a["tests"], b["tests"]):
    assert x["passes"] == y["passes"], x["name"]
    assert x["summary"] == y["summary"], x["name"]
    assert x["latency"] == y["latency"] and x["histogram"] == y["histogram"]
    assert x["threads"] == y["threads"]
PY
}

mpi_run_checks() {	# $1 = ranks
	need_mpi
	cd "$OD"
	run mpi "$1" "${NULLRUN[@]}" --save agg.json --save-ranks r "$TD"
	assert_success
	# one report, of the aggregate, with T the total and the ranks named
	assert_equal "$(echo "$output" | grep -c '^\[Read\]')" 1
	assert_equal "$(echo "$output" | grep -c '^Profile:')" 1
	assert_line --regexp "^\* Aggregate: $1 ranks x T1"
	assert_line --regexp "^  RND +4KiB \(Q=  2, T= +$1\):"
	assert_line --regexp '^Per rank MB/s \(best of each\): min / median / max'
	assert_line --regexp 'min rank [0-9]* \(.*\), max rank'
	ranks=()
	for ((i = 0; i < $1; i++)); do ranks+=("r.rank$i.json"); done
	run check_sum agg.json "${ranks[@]}"
	assert_success
	# cdm merge of the ranks' files: the same aggregate, the same rows
	run "$CDM" merge --save merged.json "${ranks[@]}"
	assert_success
	run check_same agg.json merged.json
	assert_success
	assert_clean "$TD"
}

@test "cdm-mpi -np 2: one aggregate report, the sum of the ranks, equal to cdm merge" {
	mpi_run_checks 2
}

@test "cdm-mpi -np 4: one aggregate report, the sum of the ranks, equal to cdm merge" {
	mpi_run_checks 4
}

@test "cdm-mpi: the report equals cdm merge's of the ranks' files, line for line" {
	need_mpi
	cd "$OD"
	mpi 2 "${NULLRUN[@]}" --save-ranks r "$TD" > mpi.txt
	"$CDM" merge r.rank0.json r.rank1.json > merge.txt
	# the whole report, rows and per-rank spread included
	diff mpi.txt merge.txt
	assert_equal "$(grep -cE '^  (SEQ|RND) ' mpi.txt)" 4
	assert_equal "$(grep -cE '^  (SEQ|RND)[0-9].*min rank' mpi.txt)" 4
}

@test "cdm-mpi: a real small run on 2 ranks, each on its own file" {
	need_mpi
	run mpi 2 --size 8MiB --count 1 --time 1 --interval 0 --warmup 0 --quiet \
		-t "SEQ1M Q1T1" --mode read "$TD"
	assert_success
	assert_line --regexp '^  SEQ +1MiB \(Q=  1, T= 2\): +[0-9.]+ MB/s'
	assert_clean "$TD"
}

@test "cdm-mpi: a rank that cannot open its target stops every rank, names it, leaves nothing" {
	need_mpi
	run mpirun --allow-run-as-root --oversubscribe \
		-np 2 "$CDM_MPI" "${NULLRUN[@]}" "$TD" : \
		-np 1 "$CDM_MPI" "${NULLRUN[@]}" "$TD/missing" : \
		-np 1 "$CDM_MPI" "${NULLRUN[@]}" "$TD"
	assert_failure
	assert_line --regexp "cdm: rank 2 \(.*\): $TD/missing: no such directory"
	assert_line --regexp 'rank 2 \(.*\) failed.*all 4 ranks stopped and removed their test files'
	refute_line --regexp '^\[Read\]'
	assert_clean "$TD"
}

# rank_file N - the name of rank N's test file in $TD; fails while there is none
rank_file() {
	ls "$TD" | grep -E -- "-r$1-[0-9]+-"
}

@test "cdm-mpi: a signal to one rank stops every rank cleanly and names it" {
	need_mpi
	mpi 3 "${NULLRUN[@]}" --count 20 "$TD" > "$OD/out" 2>&1 &
	pid=$!
	wait_for "rank 2's test file" rank_file 2
	f=$(rank_file 2)
	rank2=$(echo "$f" | sed -E 's/.*-r2-([0-9]+)-.*/\1/')
	kill -TERM "$rank2"
	rc=0
	wait "$pid" || rc=$?
	assert_not_equal "$rc" 0
	assert_grep "rank 2 (.*) was stopped by a signal: all 3 ranks stopped and removed their test files" "$OD/out"
	refute_grep '^\[Read\]' "$OD/out"
	assert_clean "$TD"
}

@test "cdm-mpi: test files are named after host and rank" {
	need_mpi
	mpi 2 "${NULLRUN[@]}" --count 3 "$TD" > /dev/null &
	pid=$!
	wait_for "rank 0's test file" rank_file 0
	wait_for "rank 1's test file" rank_file 1
	names=$(ls "$TD")
	wait "$pid"
	echo "$names" | assert_grep -E "^cdm-$(hostname)-r0-[0-9]+-[0-9a-f]+\.tmp$" -
	echo "$names" | assert_grep -E "^cdm-$(hostname)-r1-[0-9]+-[0-9a-f]+\.tmp$" -
	assert_clean "$TD"
}

@test "--start-at 5 s ahead: two independent runs overlap pass by pass; cdm merge sums them" {
	# whole seconds: 4 to 5 s for both runs to start and prepare their test
	# files (2 s, cut to 1, was less than a loaded machine took, and a run
	# whose file is ready after its time fails)
	T=$(date -u -d +5sec +%FT%TZ)
	"$CDM" "${NULLRUN[@]}" --start-at "$T" --label A --save "$OD/a.json" "$TD" > /dev/null &
	pid=$!
	"$CDM" "${NULLRUN[@]}" --start-at "$T" --label B --save "$OD/b.json" "$TD" > /dev/null
	wait "$pid"
	python3 - "$OD/a.json" "$OD/b.json" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
for x, y in zip(a["tests"], b["tests"]):
    for p, q in zip(x["passes"], y["passes"]):
        s1, e1 = p["start_unix_ns"], p["start_unix_ns"] + p["duration_s"] * 1e9
        s2, e2 = q["start_unix_ns"], q["start_unix_ns"] + q["duration_s"] * 1e9
        overlap = min(e1, e2) - max(s1, s2)
        assert overlap > 0.5 * (e1 - s1), (x["name"], overlap)
PY
	run "$CDM" merge --format json "$OD/a.json" "$OD/b.json"
	assert_success
	echo "$output" > "$OD/m.json"
	run check_sum "$OD/m.json" "$OD/a.json" "$OD/b.json"
	assert_success
	assert_grep '"min_at": "[AB]"' "$OD/m.json"
	assert_clean "$TD"
}

@test "--start-at: a time already past fails before any test, nothing left" {
	run "$CDM" "${NULLRUN[@]}" --start-at 2020-01-01T00:00:00Z "$TD"
	assert_failure 1
	assert_line --regexp 'start-at 2020-01-01T00:00:00Z: the test file was ready .* s after that time'
	refute_line --regexp '^\[Read\]'
	assert_clean "$TD"
}

@test "--start-at: bad times are usage errors" {
	for t in 2026-13-01T00:00:00Z 2026-12-01T22:00:00 "+" "+3x" tomorrow; do
		run "$CDM" --start-at "$t" "$TD"
		assert_failure 2
		assert_line --regexp 'bad value for --start-at'
	done
}

@test "--start-at with --verify or --end-fsync (time the schedule does not know) is refused in one line" {
	run "$CDM" --start-at +30s --verify "$TD"
	assert_failure 2
	assert_line --index 0 "cdm: --start-at cannot be used with --verify: the read-back after each write test has no place in its schedule"
	run "$CDM" --start-at +30s --end-fsync "$TD"
	assert_failure 2
	assert_line --index 0 "cdm: --start-at cannot be used with --end-fsync: the fdatasync that ends each pass has no place in its schedule"
	assert_clean "$TD"
}

@test "cdm merge refuses files whose plans differ, naming them" {
	"$CDM" "${NULLRUN[@]}" --save "$OD/a.json" "$TD" > /dev/null
	"$CDM" "${NULLRUN[@]}" --count 1 --save "$OD/b.json" "$TD" > /dev/null
	run "$CDM" merge "$OD/a.json" "$OD/b.json"
	assert_failure 2
	assert_line --regexp "^cdm: $OD/b.json does not match $OD/a.json: count 2 vs 1"
	"$CDM" "${NULLRUN[@]}" -t "RND4K Q4T1" --save "$OD/c.json" "$TD" > /dev/null
	run "$CDM" merge "$OD/a.json" "$OD/c.json"
	assert_failure 2
	assert_line --regexp 'does not match .*: 4 tests vs 6'
	echo '{"x": 1}' > "$OD/d.json"
	run "$CDM" merge "$OD/a.json" "$OD/d.json"
	assert_failure 2
	assert_line --regexp "^cdm: $OD/d.json: not a cdm result"
	run "$CDM" merge
	assert_failure 2
}

@test "cdm merge of runs that did not overlap warns" {
	"$CDM" "${NULLRUN[@]}" --save "$OD/a.json" "$TD" > /dev/null
	"$CDM" "${NULLRUN[@]}" --save "$OD/b.json" "$TD" > /dev/null
	run "$CDM" merge --format csv "$OD/a.json" "$OD/b.json"
	assert_success
	assert_line --regexp "^cdm: warning: the files' passes started up to .* apart"
}

@test "cdm merge of one file: '1 run', not '1 runs'" {
	"$CDM" "${NULLRUN[@]}" --save "$OD/a.json" "$TD" > /dev/null
	run "$CDM" merge "$OD/a.json"
	assert_success
	assert_line --regexp '^(\* Aggregate: 1 run x T1; T = total threads; each pass summed over the runs)$'
	"$CDM" "${NULLRUN[@]}" --save "$OD/b.json" "$TD" > /dev/null
	run "$CDM" merge "$OD/a.json" "$OD/b.json"
	assert_line --regexp '^\* Aggregate: 2 runs x T1; '
}

@test "the default build does not use MPI" {
	if ldd "$CDM" | grep -qi mpi; then false; fi
	if "$CDM" --help | grep -q -- --save-ranks; then false; fi
	run "$CDM" --save-ranks x "$TD"
	assert_failure 2
}

@test "make WITH_MPI=yes without mpicc says: install libopenmpi-dev; the default build never uses mpicc" {
	run make_dry WITH_MPI=yes MPICC=/nonexistent/mpicc
	assert_failure
	assert_output --partial "install libopenmpi-dev and openmpi-bin"
	run make_dry -B cdm MPICC=/nonexistent/mpicc
	assert_success
	refute_like "$output" '*mpicc*'
	refute_like "$output" '*CDM_MPI*'
}

@test "cdm-mpi: a Mix test's read and write parts are summed too, and cdm merge agrees" {
	need_mpi
	cd "$OD"
	run mpi 2 "${NULLRUN[@]}" -t "RND4K Q2T1 W30" --save agg.json --save-ranks r "$TD"
	assert_success
	assert_line --regexp '^\[Mix\]'
	python3 - agg.json r.rank0.json r.rank1.json <<'PY'
import json, sys
agg = json.load(open(sys.argv[1])); rs = [json.load(open(f)) for f in sys.argv[2:]]
mix = [i for i, t in enumerate(agg["tests"]) if t["direction"] == "mix"]
assert mix
for i in mix:
    assert agg["tests"][i]["write_pct"] == 30
    for k, p in enumerate(agg["tests"][i]["passes"]):
        for part in ("read", "write"):
            for key in ("bytes", "ios"):
                assert p[part][key] == sum(r["tests"][i]["passes"][k][part][key] for r in rs)
PY
	"$CDM" merge --save merged.json r.rank0.json r.rank1.json > /dev/null
	run check_same agg.json merged.json
	assert_success
	assert_clean "$TD"
}
