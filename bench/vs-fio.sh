#!/usr/bin/env bash
# bench/vs-fio.sh - run the tests of a profile with cdm and with fio on the
# same filesystem, interleaved (cdm, fio, cdm, fio, ...), and print per test
# the median cdm/fio ratio of MB/s and of mean latency, with min-max.
#
# A benchmark, not a test: `make test` never runs it (`make bench` does).
# The machine is shared and noisy, so only ratios from the same run mean
# anything; absolute figures drift from run to run.
#
# Usage: bench/vs-fio.sh [--engine io_uring|libaio] [--size 1GiB] [--time 5]
#                        [--warmup 2] [--pairs 3] [--dir /tmp/cdm-bench]
#                        [--test "RND4K Q1T1" ...] [--mode read|write|all]
#
# Both tools use one test file, prepared by cdm (--keep, then cdm --file),
# fio with direct=1, the
# same engine, block size, queue depth and threads, time-based, with its
# ramp_time as the warm-up.  fio's figure is its JSON "lat_ns" mean (total
# latency: submission + completion), which is what cdm's latency measures.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
cdm=${CDM:-$here/cdm}
engine=io_uring size=1GiB time=5 warmup=2 pairs=3 dir=/tmp/cdm-bench mode=all
tests=()
while [ $# -gt 0 ]; do
	case $1 in
	--engine) engine=$2; shift 2 ;;
	--size) size=$2; shift 2 ;;
	--time) time=$2; shift 2 ;;
	--warmup) warmup=$2; shift 2 ;;
	--pairs) pairs=$2; shift 2 ;;
	--dir) dir=$2; shift 2 ;;
	--test) tests+=("$2"); shift 2 ;;
	--mode) mode=$2; shift 2 ;;
	-h|--help) sed -n '2,18p' "$0"; exit 0 ;;
	*) echo "vs-fio.sh: unknown option '$1'" >&2; exit 2 ;;
	esac
done
[ ${#tests[@]} -gt 0 ] || tests=("SEQ1M Q8T1" "SEQ1M Q1T1" "RND4K Q32T1" "RND4K Q1T1")
command -v fio >/dev/null || { echo "vs-fio.sh: fio not found (apt-get install fio)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "vs-fio.sh: python3 not found" >&2; exit 1; }
[ -x "$cdm" ] || { echo "vs-fio.sh: $cdm not built (make)" >&2; exit 1; }

mkdir -p "$dir"
work=$(mktemp -d)
kept=
cleanup() {
	[ -n "$kept" ] && rm -f "$kept" "$kept.cdm"
	rm -rf "$work"
}
trap cleanup EXIT INT TERM

# one prepared file for fio: cdm writes it completely, --keep leaves it
"$cdm" --quiet --size "$size" --test "SEQ1M" --mode read --count 1 --time 1 \
	--warmup 0 --interval 0 --keep "$dir" > /dev/null 2> "$work/keep.err"
kept=$(sed -n 's/^cdm: note: kept the test file as \(.*\) (reuse it with --file)$/\1/p' "$work/keep.err")
[ -f "$kept" ] || { cat "$work/keep.err" >&2; exit 1; }
bytes=$(stat -c %s "$kept")

case $mode in
read) dirs=(read) ;;
write) dirs=(write) ;;
*) dirs=(read write) ;;
esac

echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) $(uname -r), $(nproc) CPUs, $(fio --version), $("$cdm" --version)"
echo "# engine $engine, file $size in $dir ($(stat -f -c %T "$dir")), pass ${time}s, warm-up ${warmup}s, $pairs pairs"

: > "$work/results"
for d in "${dirs[@]}"; do
	for spec in "${tests[@]}"; do
		read -r pat bs q t < <(python3 - "$spec" <<'EOF'
import re, sys
m = re.fullmatch(r'(SEQ|RND)(\d+)([BKM])\s*(?:Q(\d+))?\s*(?:T(\d+))?', sys.argv[1].replace(' ', ''), re.I)
mult = {'B': 1, 'K': 1024, 'M': 1048576}[m.group(3).upper()]
print(m.group(1).upper(), int(m.group(2)) * mult, m.group(4) or 1, m.group(5) or 1)
EOF
)
		case $pat$d in
		SEQread) rw=read ;; SEQwrite) rw=write ;;
		RNDread) rw=randread ;; RNDwrite) rw=randwrite ;;
		esac
		for p in $(seq "$pairs"); do
			# both tools on the same prepared file
			"$cdm" --quiet --engine "$engine" --file "$kept" --test "$spec" --mode "$d" \
				--count 1 --time "$time" --warmup "$warmup" --interval 0 \
				> "$work/cdm.txt"
			row=$(grep -E '^  (SEQ|RND)' "$work/cdm.txt")
			fio --name=vs --filename="$kept" --size="$bytes" --direct=1 \
				--ioengine="$engine" --rw="$rw" --bs="$bs" --iodepth="$q" \
				--numjobs="$t" --group_reporting --time_based --runtime="$time" \
				--ramp_time="$warmup" --norandommap --randrepeat=0 \
				--output-format=json > "$work/fio.json"
			python3 - "$spec" "$d" "$row" "$work/fio.json" >> "$work/results" <<'EOF'
import json, re, sys
spec, d, row, path = sys.argv[1:5]
m = re.search(r'Q=\s*(\d+), T=\s*(\d+)\):\s+([\d.]+) MB/s \[\s*([\d.]+) IOPS\] <\s*([\d.]+) us>', row)
cq, ct, cmbs, ciops, clat = int(m.group(1)), int(m.group(2)), float(m.group(3)), float(m.group(4)), float(m.group(5))
j = json.load(open(path))['jobs'][0]
side = j['read'] if d == 'read' else j['write']
fmbs = side['bw_bytes'] / 1e6
flat = side['lat_ns']['mean'] / 1000
print(f"{spec}\t{d}\t{cmbs}\t{fmbs}\t{clat}\t{flat}\t{cq}")
EOF
		done
	done
done

python3 - "$work/results" <<'EOF'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    spec, d, cmbs, fmbs, clat, flat, cq = line.rstrip('\n').split('\t')
    rows.setdefault((spec, d), []).append((float(cmbs), float(fmbs), float(clat), float(flat), cq))
def band(v):
    return f"{statistics.median(v):.3f} ({min(v):.3f}-{max(v):.3f})"
print(f"{'test':<14}{'dir':<6}{'cdm MB/s':>11}{'fio MB/s':>11}  {'MB/s ratio cdm/fio':<22}{'cdm us':>10}{'fio us':>10}  {'latency ratio':<22}")
for (spec, d), v in rows.items():
    cm = statistics.median(x[0] for x in v); fm = statistics.median(x[1] for x in v)
    cl = statistics.median(x[2] for x in v); fl = statistics.median(x[3] for x in v)
    print(f"{spec:<14}{d:<6}{cm:>11.1f}{fm:>11.1f}  {band([x[0] / x[1] for x in v]):<22}"
          f"{cl:>10.2f}{fl:>10.2f}  {band([x[2] / x[3] for x in v]):<22}")
EOF
