#!/usr/bin/env bats
# The progress line on a terminal (issue 15, item 7): "test N of M", the
# pass, round or warm-up, the figure, and the time left for the whole run
# from the plan (plan/eta.c; docs/method.md, "Progress").  script(1) gives
# cdm a terminal; each line is checked against the plan of its run, never
# against the speed of this machine.

load helpers

# A line is drawn every half second of a window (the warm-up, a pass, a
# round): a test that looks for the line of one window gives it 1.5 s or
# more, so that the line is there even when a loaded machine wakes cdm's
# runner a second late.  The null engine's runs have a simulated device
# of fixed service time, whose threads sleep for it instead of spinning on
# the CPU that the runner and the other tests need.
DEV=(--engine null --null-device lat=1ms)

# run cdm's arguments on a terminal; its progress lines, one a line, in $OD/lines.txt
on_tty() {
	command -v script > /dev/null || skip "script (util-linux) is not installed"
	local cmd="'$CDM'" a
	for a in "$@"; do
		cmd="$cmd '$a'"
	done
	script -q -e -c "$cmd" "$OD/tty.log" > /dev/null
	tr '\r' '\n' < "$OD/tty.log" | sed 's/\x1b\[K//g' | grep -v '^Script ' > "$OD/lines.txt"
	cat "$OD/lines.txt"
}

# check_plan TESTS WARMUP COUNT TIME INTERVAL: every line of a test names
# it of TESTS, in run order, each at least once; its time left is what the
# plan has left after its window (or interval) and at most that window
# more, in whole seconds rounded up; it never grows, ends within the last
# pass, and every line fits 79 columns
check_plan() {
	python3 - "$OD/lines.txt" "$@" <<'EOF'
import math, re, sys
lines = open(sys.argv[1]).read().split("\n")
ntests, count = int(sys.argv[2]), int(sys.argv[4])
warmup, time, interval = float(sys.argv[3]), float(sys.argv[5]), float(sys.argv[6])

def secs(t):
    m = re.fullmatch(r"(?:(\d+)h(\d\d)m|(?:(\d+)m)?(\d+)s)", t)
    assert m, t
    if m.group(1):
        return int(m.group(1)) * 3600 + int(m.group(2)) * 60
    return int(m.group(3) or 0) * 60 + int(m.group(4))

def after(i, w):
    """seconds of the plan after window w (0 warm-up) of test i"""
    s = (count - w) * time
    for _ in range(i + 1, ntests):
        s += interval + warmup + count * time
    return s

win_re = re.compile(r"test (\d+) of (\d+)  (\S+ \S+) (Read|Write|Mix) +(warm-up|pass (\d+)/(\d+)) +"
                    r"(\d+\.\d{3} MB/s|no I/O completed for \d+\.\d s)  (\d\S*) left$")
int_re = re.compile(r"test (\d+) of (\d+)  Interval %g s before \S+ \S+ (Read|Write|Mix)  (\d\S*) left$"
                    % interval)
seen, lefts = set(), []
last_test = 0
for ln in lines:
    if ln.startswith("Preparing"):
        assert len(ln) <= 79, (len(ln), ln)
    if not ln.startswith("test "):
        continue
    assert len(ln) <= 79, (len(ln), ln)
    m = win_re.match(ln)
    if m:
        i, n = int(m.group(1)), int(m.group(2))
        w = int(m.group(6)) if m.group(6) else 0
        assert m.group(6) is None or int(m.group(7)) == count, ln
        length = time if w else warmup
        lo, hi = after(i - 1, w), after(i - 1, w) + length
    else:
        m = int_re.match(ln)
        assert m, "not a progress line of the plan: " + ln
        i, n = int(m.group(1)), int(m.group(2))
        lo = after(i - 1, 0) + warmup
        lo, hi = lo, lo + interval
    left = secs(m.groups()[-1])
    assert n == ntests, ln
    assert i >= last_test, ("tests out of order", ln)
    lo, hi = math.ceil(lo), math.ceil(hi)
    assert lo <= left <= hi, ("%d s left, the plan says %d to %d" % (left, lo, hi), ln)
    last_test = i
    seen.add(i)
    lefts.append(left)
assert seen == set(range(1, ntests + 1)), ("tests shown", sorted(seen))
# falls over the run, allowing 1 s of noise, and ends near 0
for a, b in zip(lefts, lefts[1:]):
    assert b <= a + 1, (a, b)
assert lefts[-1] <= math.ceil(time), lefts[-1]
print("%d lines, %d s left first, %d s last" % (len(lefts), lefts[0], lefts[-1]))
EOF
}

@test "progress: test N of M, the pass and the time left, as the plan has it, falling to 0" {
	# read, then write: warm-ups and passes of 1.5 s, an interval between
	on_tty "${DEV[@]}" -t 'SEQ1M Q8T1' --size 16MiB --count 1 --time 1.5 \
		--interval 1 --warmup 1.5 "$TD"
	check_plan 2 1.5 1 1.5 1
	# the preparation: no time left before a byte is written, then the whole run's
	assert_grep -x 'Preparing test file' "$OD/lines.txt"
	assert_grep -E '^Preparing test file: +[0-9]+%  [0-9]+s left$' "$OD/lines.txt"
	# the interval counts down before the test it precedes (drawn as it starts)
	assert_grep -E '^test 2 of 2  Interval 1 s before SEQ1M Q8T1 Write  [0-9]+s left$' "$OD/lines.txt"
	assert_grep -E '^test 2 of 2  SEQ1M Q8T1 Write warm-up +[0-9.]+ MB/s  [0-9]+s left$' "$OD/lines.txt"
	assert_clean "$TD"
}

@test "progress: without a warm-up or an interval; the run's ETA ends near 0" {
	on_tty "${DEV[@]}" -t 'RND4K Q1T1' --mode read --size 16MiB --count 2 --time 1.5 \
		--interval 0 --warmup 0 "$TD"
	check_plan 1 0 2 1.5 0
	# the last pass: no more than its own 1.5 s left
	assert_grep -E '^test 1 of 1  RND4K Q1T1 Read  pass 2/2 +[0-9.]+ MB/s  [0-2]s left$' "$OD/lines.txt"
	assert_equal "$(grep 'warm-up' "$OD/lines.txt")" ""
}

@test "--quiet, and stderr not a terminal: no progress line" {
	# the two runs at once, each in a directory of its own
	mkdir "$TD/pipe"
	"$CDM" "${DEV[@]}" --size 16MiB --count 1 --time 1 --interval 0 --warmup 0 \
		-t 'RND4K Q1T1' "$TD/pipe" > /dev/null 2> "$OD/err" &
	pid=$!
	on_tty "${DEV[@]}" "${QUICK[@]}" -t 'RND4K Q1T1' "$TD"
	assert_equal "$(grep -E 'test [0-9]+ of|left$|Preparing' "$OD/lines.txt")" ""
	wait "$pid"
	cat "$OD/err"
	assert_equal "$(grep -E 'test [0-9]+ of|left|Preparing' "$OD/err")" ""
	assert_equal "$(tr -cd '\r' < "$OD/err")" ""
}

# a device of fixed service time, stalled from 0.4 s to 2 s: round 1 of
# 0.5 s lasts until the I/O in flight at its end completes, 2 s, and
# shows its figure (the I/O of its first 0.4 s) at least 1.5 s long
STALL=(--engine null --null-device 'lat=100us;at=400ms,stall=1600ms')

@test "--steady-state: 'at most' while rounds are ahead, approximate until a round was measured; --end-fsync's flush shown" {
	# round 1, slower than the others, keeps rounds 1-5 from being steady:
	# round 6, the last, runs
	on_tty "${STALL[@]}" --steady-state --max-rounds 6 --end-fsync -t 'SEQ1M Q1T1' --mode write \
		--size 16MiB --time 0.5 --interval 0 "$TD"
	python3 - "$OD/lines.txt" <<'EOF'
import re, sys
rounds = [l for l in open(sys.argv[1]).read().split("\n") if l.startswith("test 1 of 1  ")]
assert rounds, "no progress line"
for l in rounds:
    assert len(l) <= 79, l
    m = re.search(r"round (\d)/6(: fdatasync)?.*  (at most )?(~)?(\d+)s left$", l)
    assert m, l
    k, at_most, approx, left = int(m.group(1)), m.group(3), m.group(4), int(m.group(5))
    # rounds ahead may not run (steady at round 5): an upper bound until the last
    assert bool(at_most) == (k < 6), l
    # the rounds after this one, each at least its 0.5 s (a gated round only grows)
    assert left >= (6 - k) * 0.5, l
    # until round 1 has ended, nothing measured says how long a gated round takes
    assert bool(approx) == (k == 1), l
assert any(": fdatasync" in l for l in rounds)
EOF
	assert_grep -E '^test 1 of 1  SEQ1M Q1T1 Write round 1/6 +[0-9.]+ MB/s  at most ~[0-9]+s left$' "$OD/lines.txt"
	assert_clean "$TD"
}

@test "--verify: '+ verify' while a read-back is ahead; the read-back's own time left at its rate" {
	# passes of 1.5 s, as a line of each is looked for; a read-back line is drawn
	# as a block of it is read
	on_tty --verify -t 'SEQ128K Q2T1' --size 64MiB --count 1 --time 1.5 --interval 0 \
		--warmup 0 "$TD"
	# the read test: the write test's read-back is ahead, not guessed
	assert_grep -E '^test 1 of 2  SEQ128K Q2T1 Read  pass 1/1 +[0-9.]+ MB/s  [0-9]+s left \+ verify$' "$OD/lines.txt"
	assert_grep -E '^test 2 of 2  SEQ128K Q2T1 Write pass 1/1 +[0-9.]+ MB/s  [0-9]+s left \+ verify$' "$OD/lines.txt"
	# no percentage and no time before a block is read back; then both
	assert_grep -x 'test 2 of 2  verifying SEQ128K Q2T1 Write' "$OD/lines.txt"
	assert_grep -E '^test 2 of 2  verifying SEQ128K Q2T1 Write: [0-9]+%  [0-9]+s left$' "$OD/lines.txt"
	assert_equal "$(grep -E 'verifying .*\+ verify' "$OD/lines.txt")" ""
	assert_clean "$TD"
}

# a stall as STALL's, and a cap of 50000 IOPS: every figure of RND4K is
# 204.8 MB/s or less (and the threads sleep more than they run)
WIDE=(--engine null --null-device 'lat=100us,iops=50000;at=400ms,stall=1600ms')

@test "a line too long for the terminal: closer together, then whole MB/s, then no figure, never a number cut" {
	command -v script > /dev/null || skip "script (util-linux) is not installed"
	# a width for each step, all at once, each in a directory of its own
	pids=()
	for cols in 80 75 68 60; do
		mkdir "$TD/$cols" "$OD/$cols"
		script -q -e -c "stty cols $cols; '$CDM' ${WIDE[*]@Q} --steady-state --max-rounds 5 --end-fsync -t 'RND4K Q32T16' --mode write --size 16MiB --time 0.5 --interval 0 '$TD/$cols'" "$OD/$cols/tty.log" > /dev/null &
		pids+=($!)
	done
	for pid in "${pids[@]}"; do
		wait "$pid"
	done
	for cols in 80 75 68 60; do
		tr '\r' '\n' < "$OD/$cols/tty.log" | sed 's/\x1b\[K//g' > "$OD/lines.txt"
		echo "== $cols columns"
		cat "$OD/lines.txt"
		python3 - "$OD/lines.txt" "$cols" <<'EOF'
import re, sys
cols = int(sys.argv[2])
rounds = [l for l in open(sys.argv[1]).read().split("\n") if l.startswith("test ")]
assert rounds
for l in rounds:
    assert len(l) <= cols - 1, (len(l), l)
    assert re.fullmatch(r"test 1 of 1 +RND4K Q32T16 Write +round [1-5]/5"
                        r"(: fdatasync| +\d+(\.\d{3})? MB/s| +no I/O completed for \d+\.\d s)?"
                        r" +(at most )?~?\d+s left", l), l
# Round 1's figure is drawn (the stall holds the round open), with "at
# most ~Ns left" (N < 10): in 79 columns as it is, padded; in 74 the
# parts closer together (the padded line needs 75); in 67 only in whole
# MB/s (with decimals it needs 68 or more, whole 66 or less); in 59 not
# at all (a figure needs 64 or more)
first = [l for l in rounds if "round 1/5" in l]
form = {80: r"round 1/5  +\d+\.\d{3} MB/s", 75: r"round 1/5 \d+\.\d{3} MB/s",
        68: r"round 1/5 \d+ MB/s"}
if cols in form:
    assert any(re.search(form[cols], l) for l in first), (form[cols], first)
if cols == 60:
    assert not any("MB/s" in l for l in first), first
EOF
		assert_clean "$TD/$cols"
	done
}
