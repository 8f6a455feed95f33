#!/usr/bin/env bats
# Issue 14, items 2 and 3 (run side): the pass gate, --steady-state and
# --max-rounds (SNIA PTS's rule, model/steady.h), and --end-fsync (fio's
# end_fsync).  The known answers come from the null engine's simulated
# device (--null-device, docs/engines.md): an IOPS cap that changes at a
# known time of the device's clock, which starts at the test's first I/O
# and runs through every round.  No test asserts a time: each asserts
# rounds, counts and calls.
#
# A cap is exact from above: no round can measure more than it, whatever
# the machine does.  A loaded machine can only make a round measure less,
# by the share of the round its workers lose: at Q32 the device keeps 32
# I/Os waiting on the cap, so a thread woken late loses only the time it
# was away (the device's 2 ms of credit covers the usual late wake-up).
# The tests that expect a steady window run rounds of 1 s (LONG): PTS's
# range allows 20 % of the mean and its slope 10 %, and a late round at
# either end of the window moves the fitted line by 0.8 of its own change,
# so a round must lose over 125 ms to matter.  The tests whose answer is
# "not steady", or whatever the JSON says, run rounds of 0.5 s.
#
# The slow "device" is a cap of 400 IOPS, the fast one 4,000.  A round
# issues I/O for its time, then waits for the I/Os in flight: at the
# slow cap, Q32T1's 32 take 80 ms more.  So with rounds of 1 s the slow
# rounds end at 1.08 s and 2.16 s on the device's clock, or later (the
# gaps between rounds only move the next round later), and with the
# change at 3.0 s (SLOW_THEN_FAST) round 3 is slow for its first 0.84 s
# less the gaps: under half the fast figure (2,000 IOPS) while the gaps
# stay under 0.28 s in all.  Round 4 starts after 3.16 s: rounds 4 on
# are fast.  With rounds of 0.5 s and the change at 1.4 s (SLOW_0_5),
# rounds 1 and 2 of Q32T1 end at 0.58 s and 1.16 s: both slow.

load helpers
load svg

bats_require_minimum_version 1.5.0      # run --separate-stderr

STEADY=(--engine null -t "RND4K Q32T1" --mode read --size 16MiB --time 0.5 --interval 0
	--quiet --steady-state --format json)
# a known answer of "steady": rounds of 1 s; slow, then fast from 3 s on
LONG=(--time 1)
CONSTANT=(--null-device iops=4000)
SLOW_THEN_FAST=(--null-device "iops=400;at=3s,iops=4000")
# rounds of 0.5 s: slow, then fast from 1.4 s on
SLOW_0_5=(--null-device "iops=400;at=1400ms,iops=4000")

# the number of passes (rounds) of test $1 (0-based) in the JSON $2
npasses() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[2])); print(len(d["tests"][int(sys.argv[1])]["passes"]))' "$1" "$2"
}

# each round of test $1 in the JSON $2: its IOPS and seconds
rounds() {
	python3 -c 'import json,sys
t = json.load(open(sys.argv[2]))["tests"][int(sys.argv[1])]
print("rounds:", " ".join("%.2f IOPS/%.3f s" % (p["iops"], p["duration_s"]) for p in t["passes"]))' "$1" "$2"
}

# reached_at_round of test $1 in the JSON $2 ("null" when never steady, "-" when no steady_state)
reached_at() {
	python3 -c 'import json,sys
t = json.load(open(sys.argv[2]))["tests"][int(sys.argv[1])]
s = t.get("steady_state")
print("-" if s is None else ("null" if s["reached_at_round"] is None else s["reached_at_round"]))' "$1" "$2"
}

@test "a constant speed is steady at round 5, the first full window; the text report says at which round" {
	run --separate-stderr "${RT[@]}" "$CDM" "${STEADY[@]}" "${LONG[@]}" "${CONSTANT[@]}" \
		--format cdm --save "$OD/r.json" "$TD"
	echo "$stderr"
	assert_success
	rounds 0 "$OD/r.json"
	assert_equal "$(npasses 0 "$OD/r.json")" 5
	r=$(reached_at 0 "$OD/r.json")
	assert_equal "$r" 5
	refute_like "$stderr" '*"not steady"*'
	assert_regex "$output" 'Steady: RND4K Q32T1 Read at round 5 of 25 \(range [0-9.]+ %, slope [0-9.]+ %\)'
	assert_clean "$TD"
}

@test "a speed that changes in round 3 is steady at round 8; JSON lists every round, the window's verdict and figures, the summary over the window only" {
	# 400 IOPS, then 4,000 from 3 s on, in rounds of 1 s: rounds 1-3 are
	# slow (round 3 for most of its time), round 4 starts after 3 s, and
	# rounds 4 on are fast.  The windows ending at rounds 5, 6 and 7 hold a
	# slow round (a range near 100 % of the mean, > 20 %); the one of
	# rounds 4-8 is the first with all five fast: steady at round 8.
	run --separate-stderr "${RT[@]}" "$CDM" "${STEADY[@]}" "${LONG[@]}" "${SLOW_THEN_FAST[@]}" \
		--log-interval 500ms -o "$OD/r.json" "$TD"
	echo "$stderr"
	assert_success
	rounds 0 "$OD/r.json"
	assert_equal "$(npasses 0 "$OD/r.json")" 8
	r=$(reached_at 0 "$OD/r.json")
	assert_equal "$r" 8
	# every round is a pass with I/O: the three slow ones well under the five fast
	python3 - "$OD/r.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
t = d["tests"][0]
iops = [p["iops"] for p in t["passes"]]
assert all(i > 0 for i in iops)
assert max(iops[:3]) < 0.5 * min(iops[3:])
# the time series covers every round, in order
pts = t["series"]["points"]
assert sorted({p["pass"] for p in pts}) == list(range(1, 9)), {p["pass"] for p in pts}
# the window's verdict and figures
s = t["steady_state"]
assert d["settings"]["steady_state"]["max_rounds"] == 25, d["settings"]["steady_state"]
assert s["reached_at_round"] == 8 and s["window_rounds"] == 5 and s["first_round"] == 4, s
assert s["tracked"] == "iops" and s["max_rounds"] == 25, s
win = iops[3:8]
mean = sum(win) / 5
assert abs(s["window_mean"] - mean) < 1e-6 * mean, (s["window_mean"], mean)
assert abs(s["range_pct"] - 100 * (max(win) - min(win)) / mean) < 1e-6, s
assert s["range_pct"] <= 20 and s["slope_pct"] <= 10, s
# the summary (and the text's best-of) come from the window, not the slow rounds
su = t["summary"]
print(su)
assert su["iops"]["min"] >= min(win) - 1e-6, (su, win)
EOF
	assert_clean "$TD"
}

@test "never steady within --max-rounds: every round runs, a note says so" {
	# the change at 1.4 s in rounds of 0.5 s, with at most 6 rounds: the
	# windows ending at rounds 5 and 6 both hold a slow round, so none can
	# be steady
	run --separate-stderr "${RT[@]}" "$CDM" "${STEADY[@]}" "${SLOW_0_5[@]}" --max-rounds 6 \
		-o "$OD/r.json" "$TD"
	echo "$stderr"
	assert_success
	assert_equal "$(npasses 0 "$OD/r.json")" 6
	r=$(reached_at 0 "$OD/r.json")
	assert_equal "$r" null
	assert_regex "$stderr" 'cdm: note: RND4K Q32T1 Read: not steady after 6 rounds \(range [0-9.]+ %, slope [0-9.]+ %\)'
	assert_clean "$TD"
}

@test "--plot of a steady-state run: each test's own rounds and window, named beside its lane, no label over another" {
	# Two tests with rounds of their own, each on a device of its own:
	# Q32T1's 32 I/Os in flight drain in 80 ms at the slow cap, Q32T4's 128
	# in 320 ms, so their rounds meet the change at 1.4 s in different
	# rounds (the third, the second); --max-rounds 10 bounds the run.
	# What the chart must show is what the JSON says, whatever that is, and
	# no slow round (under half the test's best) is in a test's window.
	run --separate-stderr "${RT[@]}" "$CDM" "${STEADY[@]}" -t "RND4K Q32T4" --max-rounds 10 \
		"${SLOW_0_5[@]}" --log-interval 500ms --plot "$OD/two.svg" \
		-o "$OD/two.json" "$TD"
	echo "$stderr"
	assert_success
	check_svg "$OD/two.svg"
	check_labels_apart "$OD/two.svg"
	# the two tests in two shapes: their lines, legend entries (throughput,
	# mean and p99 latency) and lanes' swatches
	run check_line_styles "$OD/two.svg"
	echo "$output"
	assert_success
	assert_equal "${lines[-1]}" "6 lines (0 of one point) in 2 shapes, 8 legend entries"
	python3 - "$OD/two.json" "$OD/two.svg" <<'EOF'
import json, re, sys
d = json.load(open(sys.argv[1]))
svg = open(sys.argv[2]).read()
assert [t["name"] for t in d["tests"]] == ["RND4K Q32T1", "RND4K Q32T4"], d["tests"]
text_y = lambda s: [float(y) for y in re.findall(r'<text x="[0-9.]+" y="([0-9.]+)"[^>]*>' + re.escape(s) + '</text>', svg)]
name_y = []
# the slow rounds of each (round 1 at least) are never in its window
for t in d["tests"]:
    name, n, st = t["name"] + " Read", len(t["passes"]), t["steady_state"]
    first, at = st["first_round"], st["reached_at_round"]
    iops = [p["iops"] for p in t["passes"]]
    slow = [k + 1 for k, i in enumerate(iops) if i < 0.5 * max(iops)]
    print(name, "rounds", n, "window", first, "steady at", at, "slow rounds", slow)
    assert slow and slow[0] == 1 and n - first + 1 == 5 and (at is None or at == n) and first > slow[-1], st
    # its window, in its outline's tooltip and in the note beside its lane
    verdict = "steady window" if at else "last window (not steady)"
    assert "<title>%s: %s, rounds %d-%d</title>" % (name, verdict, first, n) in svg, name
    note = "steady at round %d, window %d-%d" % (at, first, n) if at else \
        "not steady, last window %d-%d" % (first, n)
    # a box per round of its own, those of its window marked so
    tips = re.findall(r'<title>' + re.escape(name) + r' round ([0-9]+)( \(window\))?</title>', svg)
    assert [int(k) for k, _ in tips] == list(range(1, n + 1)), tips
    assert [int(k) for k, w in tips if w] == list(range(first, n + 1)), tips
    # the note under the name (both tests' notes are the same words when
    # their rounds are), neither on a round number's line
    (y, ny), = [(y, ny) for ny in text_y(note) for y in text_y(name) if y < ny and ny - y < 20]
    name_y.append(y)
    for k in range(1, n + 1):
        assert ny not in text_y(str(k)) and y not in text_y(str(k)), (name, k)
# one lane each, the first test's above
assert name_y[0] < name_y[1], name_y
# no pass bands or window mark of one test drawn for both
assert ">round 1<" not in svg and ">pass 1<" not in svg and "stroke-dasharray=\"6,4\"" not in svg
EOF
	assert_clean "$TD"
}

# rounds of one interval each: the axis used to end at the last interval's
# middle, cutting the last round's box in half
@test "--plot of rounds of one interval each: the axis covers every round, no box cut" {
	run --separate-stderr "${RT[@]}" "$CDM" "${STEADY[@]}" "${LONG[@]}" "${CONSTANT[@]}" --log-interval 1s \
		--plot "$OD/one.svg" -o "$OD/one.json" "$TD"
	echo "$stderr"
	assert_success
	assert_equal "$(npasses 0 "$OD/one.json")" 5
	assert_equal "$(jq '.tests[0].series.points | length' "$OD/one.json")" 5
	check_time_axis "$OD/one.svg" "$OD/one.json"
	run check_line_styles "$OD/one.svg"
	echo "$output"
	assert_success
	assert_equal "${lines[-1]}" "3 lines (0 of one point) in 1 shape, 4 legend entries"
	check_svg "$OD/one.svg"
	check_labels_apart "$OD/one.svg"
	assert_clean "$TD"
}

@test "the text report of a steady-state run: the test that never got steady is marked, the mode says how it ran" {
	run --separate-stderr "${RT[@]}" "$CDM" "${STEADY[@]}" --format cdm "${SLOW_0_5[@]}" \
		--max-rounds 5 "$TD"
	assert_success
	assert_output --partial "RND    4KiB (Q= 32, T= 1)"
	assert_regex "$output" 'Not steady: RND4K Q32T1 Read after 5 rounds \(range [0-9.]+ %, slope [0-9.]+ %\)'
	assert_output --partial "<Steady-state max 5>"
	# the note says what the report says, in the same words and figures
	verdict=$(echo "$output" | sed -n 's/^Not steady: RND4K Q32T1 Read //p')
	assert_like "$verdict" '"after 5 rounds (range "*'
	assert_like "$stderr" '*"cdm: note: RND4K Q32T1 Read: not steady $verdict"*'
	# a steady one says at which round: the constant speed's test
}

@test "--end-fsync: one fdatasync per write window (warm-up and passes), none for reads" {
	command -v strace > /dev/null || skip "no strace"
	# one read and one write test, warm-up + 2 passes each; the preparation
	# of the test file has its own fdatasync
	run traced -f -qq -e trace=fdatasync -o "$OD/trace" "$CDM" --quiet --size 16MiB \
		--count 2 --time 0.5 --warmup 0.5 --interval 0 -t "SEQ128K Q4T1" --mode all \
		--end-fsync "$TD"
	echo "$output"
	assert_success
	cat "$OD/trace"
	assert_equal "$(grep -c 'fdatasync(.*= 0$' "$OD/trace")" 4
	# without it, only the preparation's
	run traced -f -qq -e trace=fdatasync -o "$OD/trace" "$CDM" --quiet --size 16MiB \
		--count 2 --time 0.5 --warmup 0.5 --interval 0 -t "SEQ128K Q4T1" --mode all "$TD"
	assert_success
	assert_equal "$(grep -c 'fdatasync(' "$OD/trace")" 1
	# a read-only run has nothing to flush
	run traced -f -qq -e trace=fdatasync -o "$OD/trace" "$CDM" --quiet --size 16MiB \
		--count 2 --time 0.5 --warmup 0.5 --interval 0 -t "SEQ128K Q4T1" --mode read \
		--end-fsync "$TD"
	assert_success
	assert_equal "$(grep -c 'fdatasync(' "$OD/trace")" 1
	# the model: each write pass has its one flush, timed inside the pass; reads none
	"$CDM" --quiet --size 16MiB --count 2 --time 0.5 --warmup 0 --interval 0 -t "SEQ128K Q4T1" \
		--mode all --end-fsync --format json "$TD" > "$OD/e.json"
	python3 - "$OD/e.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["settings"]["end_fsync"] is True
for t in d["tests"]:
    for p in t["passes"]:
        e = p.get("end_fsync")
        if t["direction"] == "write":
            assert e["count"] == 1 and e["time_ns"] > 0, p
            assert p["duration_s"] * 1e9 >= e["time_ns"], p
        else:
            assert e is None, p
EOF
	"$CDM" report "$OD/e.json" | assert_grep "<EndFsync>" -
	assert_clean "$TD"
}

@test "--end-fsync shows the fdatasync time: per write test in every report, from the passes, read back from cdm's text" {
	# one read and one write test, 2 passes each; the figures are the
	# passes' own (JSON), whatever the machine makes of them
	"$CDM" --quiet --size 16MiB --count 2 --time 0.5 --warmup 0 --interval 0 -t "SEQ128K Q4T1" \
		--mode all --end-fsync --save "$OD/e.json" --format csv -o "$OD/e.csv" "$TD"
	for f in cdm cdm7 cdm6 markdown svg; do
		"$CDM" report -f "$f" -o "$OD/e.$f" "$OD/e.json"
	done
	"$CDM" import -f json -o "$OD/back.json" "$OD/e.cdm"
	"$CDM" import -f cdm -o "$OD/back.cdm" "$OD/e.cdm"
	python3 - "$OD" <<'EOF'
import csv, json, sys
od = sys.argv[1]
d = json.load(open(od + "/e.json"))
ms = lambda ns: "%.1f us" % (ns / 1e3) if ns < 1e6 else "%.1f ms" % (ns / 1e6) if ns < 1e9 else "%.2f s" % (ns / 1e9)
r, w = d["tests"]
assert r["direction"] == "read" and r["summary"]["end_fsync"] is None, r["summary"]
# the summary: the passes' flushes, their total, mean, longest and share of the passes' time
e = w["summary"]["end_fsync"]
times = [p["end_fsync"]["time_ns"] for p in w["passes"]]
assert e["count"] == len(times) == 2 and e["time_ns_total"] == sum(times), (e, times)
assert e["max_ns"] == max(times) and abs(e["mean_ns"] - sum(times) / 2) < 1e-6, e
pct = 100.0 * sum(times) / sum(p["duration_s"] * 1e9 for p in w["passes"])
assert abs(e["pass_pct"] - pct) < 1e-9 * pct and 0 < e["pass_pct"] < 100, (e, pct)
how = "%s per pass (%.2f %% of the pass), max %s" % (ms(e["mean_ns"]), e["pass_pct"], ms(e["max_ns"]))
line = "EndFsync: SEQ128K Q4T1 Write " + how
print(line)
# the text layouts' note, once each; Markdown's; the card's
for f in ("cdm", "cdm7", "cdm6", "back.cdm"):
    text = open(od + "/" + (f if "." in f else "e." + f)).read().splitlines()
    assert text.count(line) == 1 and sum(l.startswith("EndFsync:") for l in text) == 1, (f, text)
assert "SEQ128K Q4T1 Write: end-of-pass fdatasync %s." % how in open(od + "/e.markdown").read()
assert "End fsync: SEQ128K Q4T1 Write %s</text>" % how in open(od + "/e.svg").read()
# CSV's summary rows: the total, as duration_s is one
rows = [x for x in csv.DictReader(open(od + "/e.csv")) if x.get("kind") in ("best", "median", "mean")]
assert [x["end_fsync_ns"] for x in rows if x["direction"] == "write"] == [str(e["time_ns_total"])] * 3, rows
assert [x["end_fsync_ns"] for x in rows if x["direction"] == "read"] == [""] * 3, rows
# cdm's text imported: the note's figures, as printed (no count or total)
b = [t for t in json.load(open(od + "/back.json"))["tests"] if t["direction"] == "write"][0]
be = b["summary"]["end_fsync"]
assert be["count"] is None and be["time_ns_total"] is None, be
assert ms(be["mean_ns"]) == ms(e["mean_ns"]) and ms(be["max_ns"]) == ms(e["max_ns"]), (be, e)
assert "%.2f" % be["pass_pct"] == "%.2f" % e["pass_pct"] and b["reported"]["end_fsync"]["pass_pct"] == be["pass_pct"], be
EOF
	# and printed again from that JSON, the same note
	"$CDM" report "$OD/back.json" | grep -qx "$(grep '^EndFsync:' "$OD/e.cdm")"
	# without --end-fsync: no note, no summary
	"$CDM" --quiet --size 16MiB --count 1 --time 0.5 --warmup 0 --interval 0 -t "SEQ128K Q4T1" \
		--mode write --save "$OD/n.json" "$TD" > "$OD/n.cdm"
	refute_grep 'EndFsync' "$OD/n.cdm"
	jq -e '.tests[0].summary.end_fsync == null' "$OD/n.json"
	assert_clean "$TD"
}

@test "--end-fsync: a failed fdatasync at the end of a pass ends the run as an I/O error" {
	SHIM="$BATS_TEST_DIRNAME/../../build/tests/faultshim.so"
	[ -f "$SHIM" ] || skip "build/tests/faultshim.so not built (make tools)"
	# the first fdatasync (the preparation's) succeeds, the next (pass 1's end) fails
	run --separate-stderr env CDM_FAULT=fdatasync:EIO:1 LD_PRELOAD="$SHIM" \
		ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" \
		timeout 60 "$CDM" "${QUICK[@]}" --count 2 -t "SEQ128K Q4T1" --mode write \
		--end-fsync "$TD"
	echo "$stderr"
	assert_failure 1
	printf '%s\n' "$stderr" > "$OD/stderr"
	assert_grep -E "^cdm: $TD/cdm-[^ ]+\.tmp: SEQ128K Q4T1 Write: fdatasync at the end of pass 1: Input/output error$" "$OD/stderr"
	assert_clean "$TD"
	# and at the end of the warm-up, named so
	run --separate-stderr env CDM_FAULT=fdatasync:EIO:1 LD_PRELOAD="$SHIM" \
		ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" \
		timeout 60 "$CDM" --quiet --size 16MiB --count 1 --time 0.5 --warmup 0.5 --interval 0 \
		-t "SEQ128K Q4T1" --mode write --end-fsync "$TD"
	assert_failure 1
	assert_like "$stderr" '*"SEQ128K Q4T1 Write: fdatasync at the end of the warm-up: Input/output error"*'
	assert_clean "$TD"
}

# STEADY without --quiet, for cdm on a terminal (its progress line)
steady_tty() {
	local a
	STEADY_TTY=()
	for a in "${STEADY[@]}"; do
		[ "$a" = --quiet ] || STEADY_TTY+=("$a")
	done
}

# tty_count TEXT N - has cdm's terminal shown TEXT at least N times?
tty_count() {
	[ "$(grep -oF -- "$1" "$TTY_DIR/tty" | wc -l)" -ge "$2" ]
}

@test "a signal while the workers drain at the gate ends the run cleanly" {
	# each I/O takes 3 s, a round issues for 0.5 s: from 0.5 s to 3 s the
	# round is draining.  cdm redraws its progress line every 0.5 s of
	# its own clock: SIGINT once round 1's line has been drawn three
	# times, 1.5 s into the round, comes then (or, on a slow machine,
	# while the round still issues: the end is the same)
	steady_tty
	tty_start "$OD" "${STEADY_TTY[@]}" --null-service-us 3000000 --mode write -t "RND4K Q4T2" "$TD"
	wait_for "1.5 s of round 1" tty_count "round 1/25" 3
	kill -INT "$PID"
	tty_wait
	cat "$OD/err"
	assert_equal "$TTY_STATUS" 130
	assert_grep "interrupted by" "$OD/err"
	assert_clean "$TD"
}

# issue 25, item 8: --warmup 0 asks for what steady state does (no warm-up
# pass), and was refused as if it asked for a warm-up
@test "--warmup 0 with --steady-state runs the rounds with no warm-up, as without it" {
	run --separate-stderr "$CDM" "${STEADY[@]}" "${CONSTANT[@]}" --max-rounds 5 --warmup 0 \
		--save "$OD/w0.json" "$TD"
	echo "$stderr"
	assert_success
	assert_equal "$(npasses 0 "$OD/w0.json")" 5
	assert_equal "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["settings"]["warmup_s"])' "$OD/w0.json")" 0
	refute [ "$(reached_at 0 "$OD/w0.json")" = - ]
	assert_clean "$TD"
	# the same settings as a steady-state run without --warmup
	"$CDM" "${STEADY[@]}" "${CONSTANT[@]}" --max-rounds 5 --save "$OD/w.json" "$TD" > /dev/null
	assert_equal "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["settings"])' "$OD/w0.json")" \
		"$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["settings"])' "$OD/w.json")"
}

@test "usage errors: --max-rounds alone or out of range, --count, --warmup or --start-at with --steady-state" {
	run "$CDM" --max-rounds 10 "$TD"
	assert_failure 2
	assert_output --partial "--max-rounds is the most rounds of --steady-state: give --steady-state too"
	for bad in 4 101 x; do
		run "$CDM" --steady-state --max-rounds "$bad" "$TD"
		assert_failure 2
		assert_output --partial "bad value for --max-rounds: '$bad' (5-100)"
	done
	run "$CDM" --steady-state --count 3 "$TD"
	assert_failure 2
	assert_output --partial "--count cannot be used with --steady-state"
	run "$CDM" --steady-state --warmup 2 "$TD"
	assert_failure 2
	assert_output --partial "--warmup cannot be used with --steady-state: the rounds before the steady window are the warm-up (--warmup 0 may be given)"
	run "$CDM" --steady-state --start-at +30s "$TD"
	assert_failure 2
	assert_output --partial "--start-at cannot be used with --steady-state"
	for bad in 1,2 1,2@ 1,2@0 1,2@0.0001 1,2@-1 1,2@3x ,2@3 1@3; do
		run "$CDM" -e null --null-service-us "$bad" "$TD"
		assert_failure 2
		assert_output --partial "bad value for --null-service-us: '$bad'"
	done
	# cdm sweep has no rounds: the option is refused there
	run "$CDM" sweep --steady-state --threads 1,2 -t RND4K "$TD"
	assert_failure 2
	assert_clean "$TD"
}

@test "Markdown of a steady-state run stopped early names the rounds it ran, not the window" {
	# SIGINT once the progress line shows round 3: two rounds done (three
	# if the signal comes late), fewer than the window of 5
	steady_tty
	tty_start "$OD" "${STEADY_TTY[@]}" "${CONSTANT[@]}" "$TD"
	wait_for "round 3" tty_shows "round 3/25"
	kill -INT "$PID"
	tty_wait
	cat "$OD/err"
	assert_equal "$TTY_STATUS" 130
	mv "$OD/out" "$OD/s.json"
	n=$(npasses 0 "$OD/s.json")
	echo "rounds: $n"
	"$CDM" report -f markdown "$OD/s.json" > "$OD/s.md"
	grep -o 'MB/s: the [^;]*' "$OD/s.md"
	if [ "$n" -lt 5 ]; then
		assert_grep "MB/s: the highest of the $n round$([ "$n" -eq 1 ] || echo s) run (fewer than the steady-state window of 5)" "$OD/s.md"
		refute_grep "the last 5 rounds" "$OD/s.md"
	else
		assert_grep "MB/s: the highest of the last 5 rounds (the steady-state window)" "$OD/s.md"
	fi
	assert_clean "$TD"
}

@test "options that would do nothing: --null-service-us without the null engine is refused, --end-fsync without writes noted" {
	run "$CDM" --quiet --size 16MiB -t "SEQ1M Q1T1" --null-service-us 5,100@1 "$TD"
	assert_failure 2
	assert_like "${lines[0]}" "\"cdm: --null-service-us '5,100@1' sets the null engine's service time: this run uses the \"*\" engine (add --engine null, or drop it)\""
	run "$CDM" --quiet --size 16MiB -e sync -t "SEQ1M Q1T1" --null-service-us 0 "$TD"
	assert_failure 2
	assert_clean "$TD"
	run "$CDM" --quiet -e null --size 16MiB --count 1 --time 0.2 --interval 0 --warmup 0 \
		-t "SEQ1M Q1T1" --mode read --end-fsync "$TD"
	assert_success
	assert_output --partial "cdm: note: --end-fsync ends each write or Mix pass with fdatasync(): this run has none, so nothing is synced"
	run "$CDM" --quiet -e null --size 16MiB --count 1 --time 0.2 --interval 0 --warmup 0 \
		-t "SEQ1M Q1T1" --mode write --end-fsync "$TD"
	assert_success
	refute_output --partial "nothing is synced"
	assert_clean "$TD"
}
