# svg.bash - checks of the SVG charts cdm writes (--plot), shared by
# 12-series.bats and 13-sweep.bats: well-formed XML (xmllint), rendered by a
# real renderer (rsvg-convert) to a PNG that is not trivial.

# check_svg FILE.svg: fails with the reason; skips when a tool is absent
check_svg() {
	local svg=$1 png=${1%.svg}.png size colors
	[ -s "$svg" ] || { echo "$svg: missing or empty" >&2; return 1; }
	if ! command -v xmllint >/dev/null; then
		skip "xmllint not installed (Debian: libxml2-utils)"
	fi
	xmllint --noout "$svg"
	if ! command -v rsvg-convert >/dev/null; then
		skip "rsvg-convert not installed (Debian: librsvg2-bin)"
	fi
	rsvg-convert -o "$png" "$svg"
	size=$(stat -c %s "$png")
	echo "$png: $size bytes"
	# a blank page of the same size is about 3 KB; a chart is far more
	[ "$size" -gt 15000 ]
	# more than a handful of colours (lines, text antialiasing), if python3 can tell
	if command -v python3 >/dev/null; then
		colors=$(python3 - "$png" <<'PY'
import struct, sys, zlib
d = open(sys.argv[1], 'rb').read()
assert d[:8] == b'\x89PNG\r\n\x1a\n'
i, idat, w = 8, b'', 0
while i < len(d):
    n, t = struct.unpack('>I4s', d[i:i + 8])
    if t == b'IHDR':
        w, h, depth, ct = struct.unpack('>IIBB', d[i + 8:i + 18])
    if t == b'IDAT':
        idat += d[i + 8:i + 8 + n]
    i += 12 + n
raw = zlib.decompress(idat)
# filter bytes differ per row, so count distinct byte values of the data
print(len(set(raw)))
PY
)
		echo "distinct byte values: $colors"
		[ "$colors" -gt 16 ]
	fi
}

# check_labels_apart FILE.svg: fails naming the first labels drawn over one
# another.  Each <text> (but a rotated one) is taken as a box from its x,
# y, anchor and font size, about 0.58 em a character wide, from 0.75 em
# above the baseline to 0.2 em below; no two boxes may meet.
check_labels_apart() {
	python3 - "$1" <<'PY'
import html, re, sys
svg = open(sys.argv[1]).read()
boxes = []
for m in re.finditer(r'<text x="([-0-9.]+)" y="([-0-9.]+)" text-anchor="(\w+)" font-size="([0-9]+)"([^>]*)>([^<]*)</text>', svg):
    x, y, anchor, size, extra, s = float(m[1]), float(m[2]), m[3], int(m[4]), m[5], html.unescape(m[6])
    if "transform" in extra:
        continue
    w = 0.58 * size * len(s)
    x0 = x if anchor == "start" else x - w / 2 if anchor == "middle" else x - w
    boxes.append((x0, y - 0.75 * size, x0 + w, y + 0.2 * size, s, y))
assert boxes, "no labels"
for i, a in enumerate(boxes):
    for b in boxes[i + 1:]:
        assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), \
            "labels over one another: %r at y %g and %r at y %g" % (a[4], a[5], b[4], b[5])
print(len(boxes), "labels, none over another")
PY
}

# check_time_axis FILE.svg FILE.json: the time axes of a --plot chart of
# the run FILE.json (one pattern) cover every test's intervals whole, from
# the first one's start to the last one's end; each point of a line stands
# at the middle of an interval; each band ("pass k") and each box of a
# round ("NAME round k") is as wide as its pass or round lasted (none cut
# at the axis' ends).  Each panel's axis is read back from its tick labels.
check_time_axis() {
	python3 - "$1" "$2" <<'PY'
import json, re, sys
svg, r = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
tests = [t for t in r["tests"] if t.get("series")]
pts = [p for t in tests for p in t["series"]["points"]]
lo_s = min(p["start_ns"] for p in pts) / 1e9
hi_s = max(p["start_ns"] + p["duration_ns"] for p in pts) / 1e9
mids = [(p["start_ns"] + p["duration_ns"] / 2) / 1e9 for p in pts]
# x ticks: the middle-anchored 12 px numbers, one row per panel
rows = {}
for x, y, v in re.findall(r'<text x="([0-9.]+)" y="([0-9.]+)" text-anchor="middle" font-size="12">([0-9.]+)</text>', svg):
    rows.setdefault(float(y), []).append((float(x), float(v)))
assert rows, "no x ticks"
axes = []
for y, ticks in sorted(rows.items()):
    (x0, v0), (x1, v1) = ticks[0], ticks[-1]
    b = (x1 - x0) / (v1 - v0)
    px = lambda v, x0=x0, v0=v0, b=b: x0 + (v - v0) * b
    print("axis at y %g: %g-%g s, %g px/s" % (y, v0, v1, b))
    assert v0 <= lo_s + 1e-9 and v1 >= hi_s - 1e-9, ("axis", v0, v1, "intervals", lo_s, hi_s)
    axes.append((y, x0, x1, b, px))
def axis_of(y):
    return min((a for a in axes if a[0] > y), key=lambda a: a[0])
# each line's points at the middles of intervals
for m in re.finditer(r'<polyline [^>]*points="([^"]*)"', svg):
    for xy in m[1].split():
        x, y = map(float, xy.split(","))
        px = axis_of(y)[4]
        assert min(abs(x - px(t)) for t in mids) < 0.3, ("a point not at an interval's middle", x, y)
# bands and boxes as wide as their pass or round
longest = max(tests, key=lambda t: len(t["passes"]))
durs = {"pass %d" % (k + 1): p["duration_s"] for k, p in enumerate(longest["passes"])}
for t in tests:
    name = t["name"] + " " + {"read": "Read", "write": "Write", "mix": "Mix"}[t["direction"]]
    for k, p in enumerate(t["passes"]):
        durs["%s round %d" % (name, k + 1)] = p["duration_s"]
n = 0
for x, y, w, tip in re.findall(r'<rect x="([0-9.]+)" y="([0-9.]+)" width="([0-9.]+)" height="[0-9.]+" fill="#[0-9a-f]+"(?: stroke="#777777")?><title>([^<]*)</title>', svg):
    key = tip.replace(" (window)", "")
    if key not in durs:
        continue
    x, y, w = float(x), float(y), float(w)
    _, ax0, ax1, b, _ = axis_of(y)
    assert x >= ax0 - 0.05 and x + w <= ax1 + 0.05, ("outside the axis", tip, x, w)
    assert abs(w - durs[key] * b) < 0.3, ("cut or stretched", tip, w, durs[key] * b)
    n += 1
print(n, "bands and boxes whole; intervals %g-%g s" % (lo_s, hi_s))
PY
}

# check_line_styles FILE.svg: the lines of a chart (--plot, cdm sweep) are
# told apart without colour.  Each colour has one marker shape (circle,
# square, triangle up or down, diamond, plus, from the marker's geometry),
# and the lines of one panel in different colours have different shapes;
# each line has markers of its colour and shape on its points (every
# point up to 6, at least 6 of more), filled on a solid line, white inside
# on a dashed one, so a line of one point, which a polyline does not show,
# is its marker; each legend entry and each lane's swatch (a 3 px stroke)
# has its line's marker at its middle, dashed and hollow alike.  Prints
# "N lines (K of one point) in S shapes, E legend entries" ("1 shape").
check_line_styles() {
	python3 - "$1" <<'PY'
import re, sys
svg = open(sys.argv[1]).read()
attr = lambda e, a: (re.search(r'\b%s="([^"]*)"' % a, e) or [None, None])[1]
marks = []
for e in re.findall(r'<(?:circle|rect|polygon) [^>]*/>', svg):
    fill, stroke = attr(e, "fill"), attr(e, "stroke")
    if e.startswith("<circle"):
        if attr(e, "r") == "8.0":
            continue        # a knee's ring
        shape, cx, cy = "circle", float(attr(e, "cx")), float(attr(e, "cy"))
    elif e.startswith("<rect"):
        w, h = float(attr(e, "width")), float(attr(e, "height"))
        if not stroke or fill == "none" or h > 10:
            continue        # the background, frames, bands, a lane's boxes
        assert abs(w - h) < 0.05, e
        shape, cx, cy = "square", float(attr(e, "x")) + w / 2, float(attr(e, "y")) + h / 2
    else:
        v = [tuple(map(float, p.split(","))) for p in attr(e, "points").split()]
        cx, cy = sum(p[0] for p in v) / len(v), sum(p[1] for p in v) / len(v)
        shape = {3: "up" if v[0][1] < cy else "down", 4: "diamond", 12: "plus"}[len(v)]
    marks.append((shape, cx, cy, stroke, fill == "#ffffff"))
assert marks, "no markers"
# the panels: their plot areas' frames
frames = [(float(y), float(y) + float(h)) for y, h in
          re.findall(r'<rect x="84" y="([0-9.]+)" width="626" height="([0-9.]+)" fill="none" stroke="#000000"/>', svg)]
panel = lambda y: next(i for i, f in enumerate(frames) if f[0] - 1 <= y <= f[1] + 1)
near = lambda m, x, y: abs(m[1] - x) < 0.2 and abs(m[2] - y) < 0.2
shape_of, panel_shapes, n, lone = {}, {}, 0, 0
for e in re.findall(r'<polyline [^>]*/>', svg):
    col, dashed = attr(e, "stroke"), "stroke-dasharray" in e
    pts = [tuple(map(float, p.split(","))) for p in attr(e, "points").split()]
    if not pts:
        continue
    on = [m for m in marks if m[3] == col and m[4] == dashed and any(near(m, x, y) for x, y in pts)]
    assert len(on) >= min(len(pts), 6), ("a line without its markers", col, dashed, len(pts), len(on))
    shapes = {m[0] for m in on}
    assert len(shapes) == 1 and shape_of.setdefault(col, shapes.pop()) == shape_of[col], ("shapes", col, on)
    k = panel(pts[0][1])
    other = panel_shapes.setdefault(k, {})
    for c, sh in other.items():
        assert c == col or sh != shape_of[col], ("two colours, one shape in a panel", c, col, sh)
    other[col] = shape_of[col]
    n += 1
    lone += len(pts) == 1
legend = 0
for x1, y, x2, col, rest in re.findall(r'<line x1="([0-9.]+)" y1="([0-9.]+)" x2="([0-9.]+)" y2="[0-9.]+" stroke="(#[0-9a-f]+)" stroke-width="3"([^>]*)/>', svg):
    x, y, dashed = (float(x1) + float(x2)) / 2, float(y), "dasharray" in rest
    m = [m for m in marks if near(m, x, y)]
    assert len(m) == 1 and m[0][3] == col and m[0][4] == dashed, ("a legend entry without its marker", col, y, m)
    assert col not in shape_of or shape_of[col] == m[0][0], ("a legend entry's shape is not its line's", col)
    legend += 1
ns = len(set(shape_of.values()))
print("%d lines (%d of one point) in %d shape%s, %d legend entries" % (n, lone, ns, "" if ns == 1 else "s", legend))
PY
}

# axis_top FILE.svg LABEL: the top of the y axis (its highest tick) of the
# panel whose y axis label starts with LABEL ("mean latency", "p99
# latency"), in us when that label says "(ms)" or "(us)", else as drawn.
# A panel runs from its title to the next one; one such panel expected.
axis_top() {
	python3 - "$1" "$2" <<'PY'
import re, sys
svg, want = open(sys.argv[1]).read(), sys.argv[2]
titles = sorted(float(y) for y in re.findall(r'<text x="[0-9.]+" y="([0-9.]+)" text-anchor="middle" font-size="15" font-weight="bold">', svg))
labels = [(float(y), s) for y, s in re.findall(r'<text x="18.0" y="([0-9.]+)" text-anchor="middle" font-size="13" transform="rotate[^"]*">([^<]*)</text>', svg) if s.startswith(want)]
assert len(labels) == 1, ("panels with the axis label", want, labels)
y, label = labels[0]
top = max(t for t in titles if t < y)
end = min([t for t in titles if t > y] + [1e9])
ticks = [float(v) for ty, v in re.findall(r'<text x="76.0" y="([0-9.]+)" text-anchor="end" font-size="12">([-0-9.]+)</text>', svg) for ty in [float(ty)] if top < ty < end]
assert ticks, ("no ticks", want)
print("%g" % (max(ticks) * (1000 if "(ms)" in label else 1)))
PY
}

# own_axes FILE.svg MEAN P99: the mean and the p99 latency panels of a
# chart each have an axis of their own: each covers its lines' largest
# value (MEAN, P99, us) and reaches no further than 2.5 times it, so that
# a p99 far above the mean does not press the mean lines to the floor
own_axes() {
	local mt pt
	mt=$(axis_top "$1" "mean latency") || return 1
	pt=$(axis_top "$1" "p99 latency") || return 1
	echo "mean: largest $2 us, axis to $mt us; p99: largest $3 us, axis to $pt us"
	python3 -c 'import sys; v, a, p, q = map(float, sys.argv[1:]); sys.exit(not (v <= a <= 2.5 * v and p <= q <= 2.5 * p))' \
		"$2" "$mt" "$3" "$pt"
}
