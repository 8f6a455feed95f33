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
