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
