#!/usr/bin/env bats
# Issue 13, a picture for the post: --format svg (the run as a
# CrystalDiskMark-like card), --svg FILE.svg beside any --format, the
# Markdown report's image and "How measured" lines, and cdm compare
# --format svg.  Checked with real tools: xmllint parses it, rsvg-convert
# renders it 800 px wide, and the numbers in its text are the run's own
# figures from its JSON, rounded as documented (docs/output-formats.md).

load helpers
load svg

bats_require_minimum_version 1.5.0      # run --separate-stderr

# the null engine's device (200 us an I/O) completes hundreds of I/Os in
# a pass of 0.2 s; the cards show the figures of the run's JSON, never a
# speed, so short passes are enough.  Two of them: a loaded machine has
# been seen to leave a worker without the CPU for 0.2 s, and a test
# without figures would end the run with status 1
NULLRUN=(--engine null --null-service-us 200 --size 16MiB --count 2 --time 0.2
	--interval 0 --warmup 0 --quiet)

# STALL: a device whose every I/O takes 0.5 s: none submitted in one or
# two passes of 0.1 s can complete before they end, however loaded the
# machine (an I/O never completes before the device says)
STALL=(--engine null --null-service-us 500000 --size 16MiB --interval 0 --warmup 0 --quiet
	--time 0.1)

# png_width FILE.png: the width in the PNG's IHDR
png_width() {
	python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(); assert d[:8]==b"\x89PNG\r\n\x1a\n"; print(struct.unpack(">I", d[16:20])[0])' "$1"
}

# absent ERE FILE: fails when FILE has a line matching ERE (case ignored)
# (a bare "! grep" cannot fail a bats test: errexit ignores it)
absent() {
	if grep -qiE -- "$1" "$2"; then
		echo "$2: has '$1':" >&2
		grep -iE -- "$1" "$2" | head -3 >&2
		return 1
	fi
}

# self_contained FILE.svg: no script, no reference to anything outside it
self_contained() {
	absent '<script' "$1"
	absent 'href|@import|url\((https?:|file:|//)' "$1"
	absent '<image|<foreignObject|<style' "$1"
}

# card_matches SVG JSON AGG: every cell's MB/s, IOPS and latency text is the
# JSON summary's figure under AGG, rounded as the card prints them; a test
# without figures has no number and a dash
card_matches() {
	python3 - "$1" "$2" "$3" <<'PY'
import json, re, sys
import xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
svg = ET.parse(sys.argv[1]).getroot()
run = json.load(open(sys.argv[2]))
agg = sys.argv[3]
cells = {g.get("id"): g for g in svg.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "cell"}
checked = 0
for t in run["tests"]:
    name = " ".join(t["name"].split()[:2])     # "SEQ1M Q8T1" (a Mix's "W30" aside)
    cid = "r-%s-%s%s" % (name.replace(" ", "_"), t["direction"],
                         t["write_pct"] if t["direction"] == "mix" else "")
    g = cells[cid]
    texts = {e.get("class"): (e.text or "") for e in g.iter("{http://www.w3.org/2000/svg}text")}
    s = t["summary"]
    if t["passes_measured"] == 0:
        assert "mbs" not in texts and "iops" not in texts and "lat" not in texts, (cid, texts)
        assert texts.get("none") == "\u2013", (cid, texts)
        assert texts.get("why"), (cid, texts)
        assert not re.search(r"\d", texts["why"]), (cid, texts)
        checked += 1
        continue
    want = {"mbs": "%.2f" % s["mb_s"][agg],
            "iops": "%.1f IOPS" % s["iops"][agg],
            "lat": "%.2f \u00b5s" % (s["lat_mean_ns"][agg] / 1000.0)}
    for k, v in want.items():
        assert texts[k] == v, (cid, k, texts[k], v)
    checked += 1
assert checked == len(run["tests"]) and checked == len(cells), (checked, len(cells))
print("cells checked:", checked)
PY
}

@test "--format svg: well-formed, self-contained, 800 px wide as a PNG, the figures of the run's JSON" {
	"${RT[@]}" "$CDM" "${NULLRUN[@]}" --mix 70 --label 'LOCAL <nvme> & "x"' --comment '<script>' --format svg --save "$OD/r.json" "$TD" > "$OD/card.svg"
	check_svg "$OD/card.svg"
	self_contained "$OD/card.svg"
	rsvg-convert -w 800 "$OD/card.svg" -o "$OD/w.png"
	assert_equal "$(png_width "$OD/w.png")" 800
	card_matches "$OD/card.svg" "$OD/r.json" best
	assert_grep -F 'LOCAL &lt;nvme&gt; &amp; &quot;x&quot;' "$OD/card.svg"
	assert_grep -F '>Mix R70/W30 (MB/s)</text>' "$OD/card.svg"
	assert_clean "$TD"
}

@test "--format svg --aggregate median: the median's figures" {
	"${RT[@]}" "$CDM" "${NULLRUN[@]}" -t RND4K --aggregate median --format svg --save "$OD/r.json" "$TD" > "$OD/card.svg"
	xmllint --noout "$OD/card.svg"
	card_matches "$OD/card.svg" "$OD/r.json" median
}

@test "--format svg: the footer names the CPU, memory, device, engine and O_DIRECT" {
	"${RT[@]}" "$CDM" "${NULLRUN[@]}" -t RND4K --mode read --format svg --save "$OD/r.json" "$TD" > "$OD/card.svg"
	python3 - "$OD/card.svg" "$OD/r.json" <<'PY'
import json, sys
svg = open(sys.argv[1], encoding="utf-8").read()
r = json.load(open(sys.argv[2]))
sy = r["system"]
assert "CPU: " + (sy["cpu_model"] or "unknown") in svg
mem = sy["mem_total_bytes"]
assert mem and mem > 0, mem
gib = "%.1f GiB" % (mem / 2**30)
assert "Memory: " + gib in svg, gib
assert "Device: " + (r["target"]["device"] or "unknown") in svg
assert "Engine: null, O_DIRECT, random data" in svg
assert "Test: 16 MiB (x2)" in svg
PY
}

@test "--format svg: a test that measured nothing shows a dash and the reason, no number" {
	run --separate-stderr "$CDM" "${STALL[@]}" -t RND4K --count 1 --mode read --format svg \
		--save "$OD/s.json" "$TD"
	assert_failure 1
	echo "$output" > "$OD/s.svg"
	xmllint --noout "$OD/s.svg"
	card_matches "$OD/s.svg" "$OD/s.json" best
	absent 'class="(mbs|iops|lat)"' "$OD/s.svg"
	assert_grep -F 'RND4K Q1T1 Read: nothing measured: no I/O completed' "$OD/s.svg"
}

@test "--svg FILE.svg with --format markdown: the card beside it, the image line and the How measured line" {
	mkdir -p "$OD/post/img"
	# the three runs side by side (each its own test file): the card
	# beside the Markdown, on stdout with --svg, on stdout without
	"${RT[@]}" "$CDM" "${NULLRUN[@]}" -t RND4K --mode read --format markdown --svg "$OD/c2.svg" "$TD" > "$OD/r2.md" &
	p2=$!
	"${RT[@]}" "$CDM" "${NULLRUN[@]}" -t RND4K --mode read --format markdown "$TD" > "$OD/r3.md" &
	p3=$!
	"${RT[@]}" "$CDM" "${NULLRUN[@]}" -t RND4K --format markdown --output "$OD/post/r.md" --svg "$OD/post/img/card.svg" \
		--save "$OD/r.json" "$TD"
	wait "$p2"
	wait "$p3"
	check_svg "$OD/post/img/card.svg"
	card_matches "$OD/post/img/card.svg" "$OD/r.json" best
	assert_grep -xF '![cdm result: '"$TD"'](img/card.svg)' "$OD/post/r.md"
	assert_grep -xE 'How measured: null engine, O\\_DIRECT \(no page cache\), random data; a 16 MiB test file; per test no warm-up, 2 passes of 0.2 s; 0 s between tests; a simulated device, `lat=200us,channels=all`; (CPUs allowed [0-9,-]+; )?figures: the best pass .*' "$OD/post/r.md"
	assert_grep -E '^Machine: .*, [0-9.]+ GiB RAM; ' "$OD/post/r.md"
	# on stdout, the path as given
	assert_grep -xF "![cdm result: $TD]($OD/c2.svg)" "$OD/r2.md"
	assert [ -s "$OD/c2.svg" ]
	# without --svg: no image line, still the method
	absent '!\[' "$OD/r3.md"
	assert_grep '^How measured: ' "$OD/r3.md"
}

@test "--svg beside the CDM text: stdout unchanged, the card written" {
	"${RT[@]}" "$CDM" "${NULLRUN[@]}" -t RND4K --mode read --svg "$OD/c.svg" "$TD" > "$OD/r.txt"
	assert_grep '^\[Read\]' "$OD/r.txt"
	absent '<svg' "$OD/r.txt"
	xmllint --noout "$OD/c.svg"
	assert_equal "$(ls "$OD" | grep -c 'c\.svg')" 1     # no temporary file left
}

@test "--svg to a bad path fails before any I/O with one line" {
	for bad in "$OD/none/c.svg" "$OD/c.png" "$OD" ""; do
		run --separate-stderr "${RT[@]}" "$CDM" "${NULLRUN[@]}" -t RND4K --svg "$bad" "$TD"
		echo "[$bad] $status: $stderr"
		assert_failure
		assert [ "$(printf '%s\n' "$stderr" | grep -c .)" -le 2 ]      # the line (and "Try" for usage)
		assert_like "$stderr" '*"cdm: "*'
		refute_output
		assert_clean "$TD"
	done
	run --separate-stderr "${RT[@]}" "$CDM" "${NULLRUN[@]}" -t RND4K --svg "$OD/c.png" "$TD"
	assert_failure 2
	assert_like "$stderr" '*"c.png: the name says PNG, but --svg writes SVG"*'
	run --separate-stderr "${RT[@]}" "$CDM" "${NULLRUN[@]}" -t RND4K --svg "$OD/x.svg" --save "$OD/x.svg" "$TD"
	assert_failure 2
	assert_like "$stderr" '*"--svg"*"names the same file"*'
}

@test "a card that cannot be written at the end: one line, exit 1, and the Markdown report without an image line" {
	SHIM=$BATS_TEST_DIRNAME/../../build/tests/faultshim.so
	[ -f "$SHIM" ] || skip "build/tests/faultshim.so not built (make tools)"
	# the card's directory is there when the options are checked and gone
	# when the run ends: the first 4 MiB write of the test file's
	# preparation (on the null engine too) is held (the fault shim) while
	# the test removes it.  One pass (two could vary and add a note to
	# stderr, which has only the one line), of 0.5 s (a worker left without
	# the CPU a while still measures in it)
	HOLD=$OD/hold
	mkdir -p "$HOLD" "$OD/post" "$OD/img"
	CDM_FAULT=pwrite:hold:0:4194304 CDM_FAULT_HOLD=$HOLD LD_PRELOAD=$SHIM \
		ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" \
		"${RT[@]}" "$CDM" "${NULLRUN[@]}" --count 1 --time 0.5 -t "RND4K Q1T1" --mode read --format markdown --output "$OD/post/r.md" \
		--svg "$OD/img/card.svg" --save "$OD/post/r.json" "$TD" 2> "$OD/err" &
	pid=$!
	wait_for "the preparation's first 4 MiB write to be held" held_or_ended "$HOLD/pwrite-4194304.held" "$pid"
	rm -rf "$OD/img"
	touch "$HOLD/pwrite-4194304.go"
	st=0
	wait "$pid" || st=$?
	cat "$OD/err"
	assert_equal "$st" 1
	assert_equal "$(grep -c . "$OD/err")" 1
	assert_grep "^cdm: .*img/card.svg.*write the card" "$OD/err"
	# the report and the JSON are there; the report links no card
	assert_grep '^| RND4K Q1T1 ' "$OD/post/r.md"
	grep -qF '![' "$OD/post/r.md" && { echo 'links the card'; false; }
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$OD/post/r.json"
	refute [ -e "$OD/img" ]
	assert_clean "$TD"
}

@test "compare --format svg: grouped bars, ratios equal to the text's, no bar for nothing" {
	# the three runs side by side: each has its own test file and waits on
	# its device, not the CPU
	"${RT[@]}" "$CDM" "${NULLRUN[@]}" --label LOCAL --save "$OD/a.json" "$TD" > /dev/null &
	pa=$!
	"$CDM" "${NULLRUN[@]/200/800}" --label SAN --save "$OD/b.json" "$TD" > /dev/null &
	pb=$!
	run --separate-stderr "$CDM" "${STALL[@]}" -t RND4K --count 2 --mode read --label STALL \
		--save "$OD/c.json" "$TD"
	assert_failure 1
	wait "$pa"
	wait "$pb"
	"$CDM" compare --format svg -o "$OD/cmp.svg" "$OD/a.json" "$OD/b.json" "$OD/c.json"
	"$CDM" compare "$OD/a.json" "$OD/b.json" "$OD/c.json" > "$OD/cmp.txt"
	check_svg "$OD/cmp.svg"
	self_contained "$OD/cmp.svg"
	rsvg-convert -w 800 "$OD/cmp.svg" -o "$OD/w.png"
	assert_equal "$(png_width "$OD/w.png")" 800
	python3 - "$OD/cmp.svg" "$OD/cmp.txt" <<'PY'
import re, sys
import xml.etree.ElementTree as ET
S = "{http://www.w3.org/2000/svg}"
svg = ET.parse(sys.argv[1]).getroot()
txt = open(sys.argv[2]).read()
# the text's figures and ratios, row by row: label columns then "value [ratio]"
rows = []
for line in txt.splitlines():
    m = re.match(r"  (SEQ|RND) +\S+ \(Q= *\d+, T= *\d+\):(.*)", line)
    if m:
        rows.append(re.findall(r"(<?[\d.]+x?|no I/O|missing|not measured|no time|no parts)", m.group(2)))
groups = [g for g in svg.iter(S + "g") if g.get("class") == "row"]
assert len(groups) == len(rows), (len(groups), len(rows))
for g, want in zip(groups, rows):
    got = []
    for b in g.iter(S + "g"):
        if b.get("class") != "bar":
            continue
        val = [t.text for t in b.iter(S + "tspan") if t.get("class") == "val"]
        ratio = [t.text for t in b.iter(S + "tspan") if t.get("class") == "ratio"]
        rects = [r for r in b.iter(S + "rect")]
        if val:
            assert rects, "a figure without a bar"
            got += val + ratio
        else:
            assert not rects, "a bar without a figure"
            none = [t.text for t in b.iter(S + "text") if t.get("class") == "none"]
            assert none and none[0].startswith("\u2013 "), none
            # no figure of zero (0, 0.0, 0.00); the pass time "0.1 s" is not one
            assert not re.search(r"(?<![\d.])0(\.0+)?(?![\d.])", none[0]), none
            got.append(None)
    flat = [w for w in want]
    # every figure and ratio of the text, in order; the text's words for no figure
    gf = [x for x in got if x is not None]
    tf = [x for x in flat if re.match(r"<?[\d.]+x?$", x)]
    assert gf == tf, (g.get("id"), gf, tf)
    assert got.count(None) == len(flat) - len(tf), (got, flat)
print("groups checked:", len(groups))
PY
	assert_grep -F 'STALL measured nothing: no I/O completed' "$OD/cmp.svg"
	assert_grep -F 'STALL has no such test' "$OD/cmp.svg"
	assert_grep -F '>MB/s, the highest of the passes' "$OD/cmp.svg"
}

@test "compare --format svg --metric iops and latency: the metric in the axis title" {
	# side by side (each its own test file)
	"${RT[@]}" "$CDM" "${NULLRUN[@]}" -t RND4K --label A --save "$OD/a.json" "$TD" > /dev/null &
	pid=$!
	"${RT[@]}" "$CDM" "${NULLRUN[@]}" -t RND4K --label B --save "$OD/b.json" "$TD" > /dev/null
	wait "$pid"
	"$CDM" compare --format svg --metric iops "$OD/a.json" "$OD/b.json" > "$OD/i.svg"
	assert_grep -F 'class="axis" fill="#333333">IOPS, the highest of the passes' "$OD/i.svg"
	"$CDM" compare --format svg --metric latency "$OD/a.json" "$OD/b.json" > "$OD/l.svg"
	assert_grep -F 'class="axis" fill="#333333">mean latency (us), the lowest of the passes (lower is better)' "$OD/l.svg"
	xmllint --noout "$OD/i.svg" "$OD/l.svg"
	run "$CDM" compare --format svg -o "$OD/x.png" "$OD/a.json" "$OD/b.json"
	assert_failure 2
}

# the CrystalDiskMark reports of tests/fixtures/ without their "# source:" line
FIX="$BATS_TEST_DIRNAME/../fixtures/cdm-reports"
fixture() {
	tail -n +2 "$FIX/$1" > "$OD/$1"
	echo "$OD/$1"
}

@test "compare --format svg: a ratio below 0.01 (NVMe vs USB HDD) is escaped; every fixture against the NVMe parses" {
	nvme=$(fixture cdm8-default-nvme-1.txt)
	hdd=$(fixture cdm8-default-hdd-usb-shizuku-1.txt)
	"$CDM" compare --format svg "$nvme" "$hdd" > "$OD/nh.svg"
	xmllint --noout "$OD/nh.svg"
	assert_grep -F '<tspan class="ratio">&lt;0.01x</tspan>' "$OD/nh.svg"
	# the text says the same
	"$CDM" compare "$nvme" "$hdd" | assert_grep -E '^  RND    4KiB \(Q= 32, T= 1\): +428\.648 +0\.640 +<0\.01x$' -
	for f in "$FIX"/*.txt; do
		r=$(fixture "$(basename "$f")")
		for m in mb_s iops latency; do
			"$CDM" compare --format svg --metric "$m" "$nvme" "$r" > "$OD/x.svg"
			xmllint --noout "$OD/x.svg" || { echo "$f --metric $m" >&2; return 1; }
			"$CDM" compare --format svg --metric "$m" "$r" "$nvme" > "$OD/x.svg"
			xmllint --noout "$OD/x.svg" || { echo "$f first, --metric $m" >&2; return 1; }
		done
		"$CDM" import "$r" --format svg > "$OD/card.svg"
		xmllint --noout "$OD/card.svg" || { echo "$f: card" >&2; return 1; }
	done
}

@test "--svg with 5 columns (three Mix ratios): heads whole, each column its own fill, rendered 800 px wide" {
	"$CDM" -e null -s 16MiB -n 2 -T 0.2 --interval 0 --warmup 0 --quiet -t "RND4K Q1T1 W20" \
		-t "RND8K Q1T1 W50" -t "SEQ1M Q1T1" --mix 70 --svg "$OD/mw.svg" "$TD" > /dev/null
	check_svg "$OD/mw.svg"
	rsvg-convert -w 800 "$OD/mw.svg" -o "$OD/mw-w.png"
	assert_equal "$(png_width "$OD/mw-w.png")" 800
	python3 - "$OD/mw.svg" <<'PY'
import sys
import xml.etree.ElementTree as ET
S = "{http://www.w3.org/2000/svg}"
svg = ET.parse(sys.argv[1]).getroot()
heads = [t.text for t in svg.iter(S + "text") if t.get("class") == "head"]
assert heads == ["Read", "Write", "Mix R80/W20", "Mix R50/W50", "Mix R70/W30"], heads
# the swatches beside the heads (14 x 10 at y 102): one fill per column
fills = [r.get("fill") for r in svg.iter(S + "rect") if r.get("y") == "102"]
assert len(fills) == 5 and len(set(fills)) == 5, fills
# every cell's MB/s, IOPS and latency whole (no ellipsis)
for t in svg.iter(S + "text"):
    if t.get("class") in ("mbs", "iops", "lat"):
        assert "\u2026" not in t.text, t.text
print("heads:", heads, "fills:", fills)
PY
}
