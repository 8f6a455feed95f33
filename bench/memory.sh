#!/usr/bin/env bash
# bench/memory.sh - peak RSS of cdm for short and long passes: it must not
# grow with --time (fixed-size histograms, no per-I/O allocation) and must
# stay under 16 MiB plus the I/O buffer regions (Q x block per worker,
# rounded up to 2 MiB).  Uses /usr/bin/time -v's "Maximum resident set size".
#
# Usage: bench/memory.sh [--short 1] [--long 20] [--dir /tmp/cdm-bench] [--engine auto]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cdm=${CDM:-$here/cdm}
short=1 long=20 dir=/tmp/cdm-bench engine=auto
while [ $# -gt 0 ]; do
	case $1 in
	--short) short=$2; shift 2 ;;
	--long) long=$2; shift 2 ;;
	--dir) dir=$2; shift 2 ;;
	--engine) engine=$2; shift 2 ;;
	-h|--help) sed -n '2,9p' "$0"; exit 0 ;;
	*) echo "memory.sh: unknown option '$1'" >&2; exit 2 ;;
	esac
done
[ -x /usr/bin/time ] || { echo "memory.sh: /usr/bin/time not found (apt-get install time)" >&2; exit 1; }
mkdir -p "$dir"
work=$(mktemp -d)
kept=
trap '[ -n "$kept" ] && rm -f "$kept" "$kept.cdm"; rm -rf "$work"' EXIT
"$cdm" --quiet --size 256MiB --test SEQ1M --mode read --count 1 --time 1 --warmup 0 \
	--interval 0 --keep "$dir" > /dev/null 2> "$work/keep.err"
kept=$(sed -n 's/^cdm: note: kept the test file as \(.*\) (reuse it with --file)$/\1/p' "$work/keep.err")

echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) $(uname -r), $("$cdm" --version), engine $engine"
printf '%-14s %-6s %12s %12s %16s %10s\n' test mode "RSS ${short}s" "RSS ${long}s" "buffers (MiB)" "limit ok"
for spec in "SEQ1M Q8T1" "RND4K Q32T1" "RND4K Q1T1" "RND4K Q32T16"; do
	for mode in read write; do
		for t in "$short" "$long"; do
			/usr/bin/time -v -o "$work/time.$t" "$cdm" --quiet --engine "$engine" --file "$kept" \
				--test "$spec" --mode "$mode" --count 1 --time "$t" --warmup 0 --interval 0 > /dev/null
		done
		python3 - "$spec" "$mode" "$work/time.$short" "$work/time.$long" <<'PY'
import re, sys
spec, mode, a, b = sys.argv[1:5]
def rss(p):
    return int(re.search(r'Maximum resident set size \(kbytes\): (\d+)', open(p).read()).group(1)) / 1024
m = re.fullmatch(r'(SEQ|RND)(\d+)([KM])Q(\d+)T(\d+)', spec.replace(' ', ''))
block = int(m.group(2)) * (1024 if m.group(3) == 'K' else 1048576)
q, t = int(m.group(4)), int(m.group(5))
per = -(-q * block // (2 << 20)) * 2        # MiB per worker, rounded up to 2 MiB
buf = per * t
ok = max(rss(a), rss(b)) <= 16 + buf
print(f"{spec:<14} {mode:<6} {rss(a):>10.1f}Mi {rss(b):>10.1f}Mi {buf:>16} {'yes' if ok else 'NO':>10}")
PY
	done
done
