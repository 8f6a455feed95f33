#!/usr/bin/env bash
# bench/null-ceiling.sh - the framework ceiling: cdm's null engine against
# fio's null engine, both RND4K Q32T1 with no I/O at all, interleaved
# (cdm, fio, cdm, fio, ...).  What is measured is each tool's own cost per
# I/O.  Prints the IOPS of each pair, the median cdm/fio ratio with
# min-max, and CPU time per I/O of each tool (getrusage of the whole
# process via /usr/bin/time for cdm, fio's usr/sys_cpu for fio).
#
# Usage: bench/null-ceiling.sh [--pairs 5] [--time 3] [--qd 32] [--dir /tmp/cdm-bench]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cdm=${CDM:-$here/cdm}
pairs=5 time=3 qd=32 dir=/tmp/cdm-bench
while [ $# -gt 0 ]; do
	case $1 in
	--pairs) pairs=$2; shift 2 ;;
	--time) time=$2; shift 2 ;;
	--qd) qd=$2; shift 2 ;;
	--dir) dir=$2; shift 2 ;;
	-h|--help) sed -n '2,12p' "$0"; exit 0 ;;
	*) echo "null-ceiling.sh: unknown option '$1'" >&2; exit 2 ;;
	esac
done
command -v fio >/dev/null || { echo "null-ceiling.sh: fio not found (apt-get install fio)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "null-ceiling.sh: /usr/bin/time not found (apt-get install time)" >&2; exit 1; }
mkdir -p "$dir"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) $(uname -r), $(nproc) CPUs, $(fio --version), $("$cdm" --version)"
echo "# RND4K Q${qd}T1, null engines, ${time}s, $pairs pairs"
printf '%-5s %14s %14s %8s %16s %16s\n' pair "cdm IOPS" "fio IOPS" ratio "cdm CPU ns/IO" "fio CPU ns/IO"
for p in $(seq "$pairs"); do
	# cdm: no warm-up, one pass; its test file is tiny (the null engine reads nothing)
	/usr/bin/time -f '%U %S' -o "$work/cdm.time" "$cdm" --quiet --engine null --size 1MiB \
		--test "RND4K Q${qd}T1" --mode read --count 1 --time "$time" --warmup 0 \
		--interval 0 "$dir" > "$work/cdm.txt" 2> "$work/cdm.err"
	fio --name=null --ioengine=null --size=1g --rw=randread --bs=4k --iodepth="$qd" \
		--time_based --runtime="$time" --norandommap --randrepeat=0 \
		--output-format=json > "$work/fio.json"
	python3 - "$work/cdm.txt" "$work/cdm.time" "$work/fio.json" "$time" "$p" >> "$work/rows" <<'PY'
import json, re, sys
txt, tm, fj, secs, pair = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), sys.argv[5]
m = re.search(r'MB/s \[\s*([\d.]+) IOPS\]', open(txt).read())
ciops = float(m.group(1))
u, s = (float(x) for x in open(tm).read().split()[-2:])
ccpu = (u + s) * 1e9 / (ciops * secs)          # whole process, incl. start-up
j = json.load(open(fj))['jobs'][0]
fiops = j['read']['iops']
fcpu = (j['usr_cpu'] + j['sys_cpu']) / 100 * secs * 1e9 / (fiops * secs)
print(f"{pair}\t{ciops}\t{fiops}\t{ccpu}\t{fcpu}")
PY
done
python3 - "$work/rows" <<'PY'
import statistics, sys
rows = [[float(x) for x in l.split('\t')] for l in open(sys.argv[1])]
for r in rows:
    print(f"{int(r[0]):<5} {r[1]:>14.0f} {r[2]:>14.0f} {r[1] / r[2]:>8.2f} {r[3]:>16.1f} {r[4]:>16.1f}")
ratios = [r[1] / r[2] for r in rows]
print(f"median IOPS ratio cdm/fio {statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f}); "
      f"CPU per I/O cdm {statistics.median(r[3] for r in rows):.1f} ns, fio {statistics.median(r[4] for r in rows):.1f} ns")
PY
