#!/usr/bin/env bats
# Scale-out (docs/scale-out.md): cdm-mpi on localhost ranks, --start-at
# with independent processes, and cdm merge.  The figures themselves are
# never checked against a speed: only that the aggregate is the sum of
# its parts, pass by pass and bucket by bucket, and that cdm merge and the
# MPI reduction agree.  cdm-mpi is built by tests/run.sh when mpicc exists
# (make WITH_MPI=yes cdm-mpi); without it the MPI tests skip.

load helpers

: "${CDM_MPI:=$BATS_TEST_DIRNAME/../../cdm-mpi}"

# null engine, fixed service time: exact and cheap; passes of 0.2 s (a
# figure from every pass, however loaded the machine).  What is checked is
# arithmetic on the files (sums, maxima, spreads), whatever their speed
NULLRUN=(--engine null --null-service-us 500 --size 16MiB --count 2 --time 0.2
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

# runs made once for the file, only read by its tests (in $BATS_FILE_TMPDIR):
#  mpi2/   cdm-mpi on 2 ranks, NULLRUN and a Mix test: agg.json, r.rank{0,1}.json,
#          out (its stdout), err, status; td/ its TARGET
#  a.json, b.json   NULLRUN, one after the other (so their passes never overlapped)
#  b1.json          NULLRUN with --count 1; c.json: NULLRUN and a third test
# All at once (the simulated device's threads sleep more than they run),
# but a.json and b.json one after the other; each within 60 s (setup_file
# has no watchdog).
setup_file() {
	local d=$BATS_FILE_TMPDIR st=0 pids=() mpi_pid=
	if command -v mpirun > /dev/null && [ -x "$CDM_MPI" ]; then
		mkdir -p "$d/mpi2/td"
		(cd "$d/mpi2" && timeout 60 mpirun --allow-run-as-root --oversubscribe -np 2 \
			"$CDM_MPI" "${NULLRUN[@]}" -t "RND4K Q2T1 W30" --save agg.json --save-ranks r \
			td > out 2> err; echo $? > status) &
		mpi_pid=$!
	fi
	timeout 60 "${RT[@]}" "$CDM" "${NULLRUN[@]}" --count 1 --save "$d/b1.json" "$d" > /dev/null &
	pids+=($!)
	timeout 60 "${RT[@]}" "$CDM" "${NULLRUN[@]}" -t "RND4K Q4T1" --save "$d/c.json" "$d" > /dev/null &
	pids+=($!)
	{ timeout 60 "${RT[@]}" "$CDM" "${NULLRUN[@]}" --save "$d/a.json" "$d" > /dev/null &&
		timeout 60 "${RT[@]}" "$CDM" "${NULLRUN[@]}" --save "$d/b.json" "$d" > /dev/null; } &
	pids+=($!)
	for pid in "${pids[@]}"; do
		wait "$pid" || st=1
	done
	# a failed MPI run fails the tests that read it (its status file)
	[ -z "$mpi_pid" ] || wait "$mpi_pid" || true
	[ "$st" = 0 ] || { echo "setup_file: a null-engine run for the merge tests failed" >&2; return 1; }
}

# aggregate_checks N TD - the aggregate run of N ranks on TARGET TD, what
# it printed in $output (run), its files in the current directory:
# agg.json and the ranks' r.rankI.json
aggregate_checks() {
	local n=$1 td=$2
	# one report, of the aggregate, with T the total and the ranks named
	assert_equal "$(echo "$output" | grep -c '^\[Read\]')" 1
	assert_equal "$(echo "$output" | grep -c '^Profile:')" 1
	assert_line --regexp "^\* Aggregate: $n ranks x T1"
	assert_line --regexp "^  RND +4KiB \(Q=  2, T= +$n\):"
	assert_line --regexp '^Per rank MB/s \(best of each\): min / median / max'
	assert_line --regexp 'min rank [0-9]* \(.*\), max rank'
	ranks=()
	for ((i = 0; i < n; i++)); do ranks+=("r.rank$i.json"); done
	run check_sum agg.json "${ranks[@]}"
	assert_success
	# cdm merge of the ranks' files: the same aggregate, the same rows
	run "$CDM" merge --save "$OD/merged.json" "${ranks[@]}"
	assert_success
	run check_same agg.json "$OD/merged.json"
	assert_success
	assert_clean "$td"
}

# mpi2 - into setup_file's run on 2 ranks (skips without MPI)
mpi2() {
	need_mpi
	cd "$BATS_FILE_TMPDIR/mpi2"
	cat err
	assert_equal "$(cat status)" 0
}

@test "cdm-mpi -np 2: one aggregate report, the sum of the ranks, equal to cdm merge" {
	mpi2
	# stdout and stderr, as a terminal shows them
	run cat out err
	aggregate_checks 2 td
}

@test "cdm-mpi -np 4: one aggregate report, the sum of the ranks, equal to cdm merge" {
	need_mpi
	cd "$OD"
	run mpi 4 "${NULLRUN[@]}" --save agg.json --save-ranks r "$TD"
	assert_success
	aggregate_checks 4 "$TD"
}

@test "cdm-mpi: the report equals cdm merge's of the ranks' files, line for line" {
	mpi2
	"$CDM" merge r.rank0.json r.rank1.json > "$OD/merge.txt"
	# the whole report, rows and per-rank spread included
	diff out "$OD/merge.txt"
	# 2 tests read and written, and the Mix test
	assert_equal "$(grep -cE '^  (SEQ|RND) ' out)" 5
	assert_equal "$(grep -cE '^  (SEQ|RND)[0-9].*min rank' out)" 5
}

@test "cdm-mpi: a real small run on 2 ranks, each on its own file" {
	need_mpi
	run mpi 2 --size 8MiB --count 1 --time 0.5 --interval 0 --warmup 0 --quiet \
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
	# a run longer than it takes to see the file (4 tests of 2 s); the
	# other ranks hear of the signal at their next checkpoint: after the
	# preparation, or the end of their test
	mpi 3 "${NULLRUN[@]}" --count 10 "$TD" > "$OD/out" 2>&1 &
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
	# a run longer than it takes to see both files (4 tests of 2 s), stopped
	# once they are seen: both ranks at once, so that neither runs on to
	# the end of its test (the checkpoint where a rank hears of the other)
	mpi 2 "${NULLRUN[@]}" --count 10 "$TD" > /dev/null 2>&1 &
	pid=$!
	wait_for "rank 0's test file" rank_file 0
	wait_for "rank 1's test file" rank_file 1
	names=$(ls "$TD")
	kill -TERM $(echo "$names" | sed -nE 's/.*-r[01]-([0-9]+)-.*/\1/p')
	# stopped by the signal: each rank removes its file
	wait "$pid" || true
	echo "$names" | assert_grep -E "^cdm-$(hostname)-r0-[0-9]+-[0-9a-f]+\.tmp$" -
	echo "$names" | assert_grep -E "^cdm-$(hostname)-r1-[0-9]+-[0-9a-f]+\.tmp$" -
	assert_clean "$TD"
}

@test "--start-at 3 s ahead: two independent runs overlap pass by pass; cdm merge sums them" {
	# 3 s (to the ms) for both runs to start and prepare their test files
	# of 1 MiB: a run whose file is ready after its time fails (whole
	# seconds of 16 MiB files, cut to 1 s, were less than a loaded machine
	# took).  Passes of 1 s: each process starts a test when it wakes at its
	# time, so the overlap asked for, half a pass, allows either to wake
	# 0.5 s late.  One test: the schedule's 1 s between two tests is not
	# what is checked
	T=$(date -u -d '+3 sec' +%FT%T.%3NZ)
	START=(--engine null --null-service-us 500 --size 1MiB --count 2 --time 1
		--interval 0 --warmup 0 -t "RND4K Q2T1" --mode read --quiet --start-at "$T")
	"$CDM" "${START[@]}" --label A --save "$OD/a.json" "$TD" > /dev/null &
	pid=$!
	"$CDM" "${START[@]}" --label B --save "$OD/b.json" "$TD" > /dev/null
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
	run "${RT[@]}" "$CDM" "${NULLRUN[@]}" --start-at 2020-01-01T00:00:00Z "$TD"
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
	cp "$BATS_FILE_TMPDIR/a.json" "$OD/a.json"
	# NULLRUN with --count 1
	cp "$BATS_FILE_TMPDIR/b1.json" "$OD/b.json"
	run "$CDM" merge "$OD/a.json" "$OD/b.json"
	assert_failure 2
	assert_line --regexp "^cdm: $OD/b.json does not match $OD/a.json: count 2 vs 1"
	# NULLRUN and a third test
	cp "$BATS_FILE_TMPDIR/c.json" "$OD/c.json"
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
	# setup_file made b.json after a.json
	cd "$BATS_FILE_TMPDIR"
	run "$CDM" merge --format csv a.json b.json
	assert_success
	assert_line --regexp "^cdm: warning: the files' passes started up to .* apart"
}

@test "cdm merge of one file: '1 run', not '1 runs'" {
	cd "$BATS_FILE_TMPDIR"
	run "$CDM" merge a.json
	assert_success
	assert_line --regexp '^(\* Aggregate: 1 run x T1; T = total threads; each pass summed over the runs)$'
	run "$CDM" merge a.json b.json
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
	# setup_file's run on 2 ranks has a Mix test
	mpi2
	assert_grep '^\[Mix\]' out
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
	"$CDM" merge --save "$OD/merged.json" r.rank0.json r.rank1.json > /dev/null
	run check_same agg.json "$OD/merged.json"
	assert_success
	assert_clean td
}
