#!/usr/bin/env bash
# bench/vs-fio.sh - run the tests of a profile with cdm and with fio on the
# same prepared test file, interleaved (cdm, fio, cdm, fio, ...), and print
# per test the median cdm/fio ratio of MB/s, of mean latency and of user and
# system CPU time per I/O, with min-max, and each tool's CPU use.
#
# A benchmark, not a test: `make test` never runs it (`make bench` does).
# The machine is shared and noisy, so only ratios from the same run mean
# anything; absolute figures drift from run to run.
#
# Usage: bench/vs-fio.sh [--engine io_uring|libaio] [--size 1GiB] [--time 5]
#                        [--warmup 2] [--pairs 3] [--dir /tmp/cdm-bench]
#                        [--test "RND4K Q1T1" ...] [--mode read|write|all]
#                        [--fio-tuned]
#
# Both tools use one test file, prepared by cdm (--keep, then cdm --file),
# fio with direct=1, the same engine, block size, queue depth and threads,
# time-based, with its ramp_time as the warm-up.  fio's latency is its JSON
# "lat_ns" mean (submission + completion), which is what cdm measures.
#
# --fio-tuned runs fio a second time in each pair with registered buffers
# and files (io_uring's fixedbufs/registerfiles) and, when enough huge pages
# are reserved (vm.nr_hugepages), huge-page buffers (iomem=mmaphuge): what
# cdm does by default.
#
# busy: IOPS x mean latency / (Q x T), by Little's law the share of the
# requested queue depth each tool really kept in flight; below 1.0 the tool
# spent time between one I/O's completion and the next submission, which
# lowers its IOPS without showing in its latency.
#
# CPU per I/O: cdm's from getrusage of the whole process (/usr/bin/time)
# over warm-up and pass, divided by the I/Os of both (the pass's rate
# assumed during the warm-up); fio's from usr_cpu/sys_cpu over the job's
# runtime and its total_ios.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
cdm=${CDM:-$here/cdm}
engine=io_uring size=1GiB time=5 warmup=2 pairs=3 dir=/tmp/cdm-bench mode=all tuned=0
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
	--fio-tuned) tuned=1; shift ;;
	-h|--help) sed -n '2,34p' "$0"; exit 0 ;;
	*) echo "vs-fio.sh: unknown option '$1'" >&2; exit 2 ;;
	esac
done
[ ${#tests[@]} -gt 0 ] || tests=("SEQ1M Q8T1" "SEQ1M Q1T1" "RND4K Q32T1" "RND4K Q1T1")
command -v fio >/dev/null || { echo "vs-fio.sh: fio not found (apt-get install fio)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "vs-fio.sh: python3 not found" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "vs-fio.sh: /usr/bin/time not found (apt-get install time)" >&2; exit 1; }
[ -x "$cdm" ] || { echo "vs-fio.sh: $cdm not built (make)" >&2; exit 1; }

mkdir -p "$dir"
work=$(mktemp -d)
kept=
cleanup() {
	[ -n "$kept" ] && rm -f "$kept" "$kept.cdm"
	rm -rf "$work"
}
trap cleanup EXIT INT TERM

# one prepared file for both tools: cdm writes it completely, --keep keeps it
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

# one result row: spec dir kind, then figures (see the table at the end)
record() {
	python3 - "$@" >> "$work/results" <<'PY'
import json, re, sys
spec, d, txt, tm, path, secs, warm, kind = sys.argv[1:9]
secs, warm = float(secs), float(warm)
row = [l for l in open(txt) if re.match(r'  (SEQ|RND)', l)][0]
m = re.search(r'Q=\s*(\d+), T=\s*(\d+)\):\s+([\d.]+) MB/s \[\s*([\d.]+) IOPS\] <\s*([\d.]+) us>', row)
qt = int(m.group(1)) * int(m.group(2))
cmbs, ciops, clat = float(m.group(3)), float(m.group(4)), float(m.group(5))
cu, cs = (float(x) for x in open(tm).read().split()[-2:])
cios = ciops * (secs + warm)
j = json.load(open(path))['jobs'][0]
side = j['read'] if d == 'read' else j['write']
fmbs = side['bw_bytes'] / 1e6
flat = side['lat_ns']['mean'] / 1000
frun = j['job_runtime'] / 1000 if j.get('job_runtime') else secs
fios = side['total_ios'] or 1
fu = j['usr_cpu'] / 100 * frun * 1e9 / fios
fs = j['sys_cpu'] / 100 * frun * 1e9 / fios
print(f"{spec}\t{d}\t{kind}\t{cmbs}\t{fmbs}\t{clat}\t{flat}\t"
      f"{cu * 1e9 / cios}\t{cs * 1e9 / cios}\t{fu}\t{fs}\t"
      f"{(cu + cs) / (secs + warm) * 100}\t{j['usr_cpu'] + j['sys_cpu']}\t"
      f"{ciops * clat / 1e6 / qt}\t{side['iops'] * flat / 1e6 / qt}")
PY
}

: > "$work/results"
for d in "${dirs[@]}"; do
	for spec in "${tests[@]}"; do
		read -r pat bs q t < <(python3 - "$spec" <<'PY'
import re, sys
m = re.fullmatch(r'(SEQ|RND)(\d+)([BKM])\s*(?:Q(\d+))?\s*(?:T(\d+))?', sys.argv[1].replace(' ', ''), re.I)
mult = {'B': 1, 'K': 1024, 'M': 1048576}[m.group(3).upper()]
print(m.group(1).upper(), int(m.group(2)) * mult, m.group(4) or 1, m.group(5) or 1)
PY
)
		case $pat$d in
		SEQread) rw=read ;; SEQwrite) rw=write ;;
		RNDread) rw=randread ;; RNDwrite) rw=randwrite ;;
		esac
		fio_args=(--name=vs --filename="$kept" --size="$bytes" --direct=1
			--ioengine="$engine" --rw="$rw" --bs="$bs" --iodepth="$q"
			--numjobs="$t" --group_reporting --time_based --runtime="$time"
			--ramp_time="$warmup" --norandommap --randrepeat=0
			--output-format=json)
		for p in $(seq "$pairs"); do
			/usr/bin/time -f '%U %S' -o "$work/cdm.time" \
				"$cdm" --quiet --engine "$engine" --file "$kept" --test "$spec" \
				--mode "$d" --count 1 --time "$time" --warmup "$warmup" --interval 0 \
				> "$work/cdm.txt"
			fio "${fio_args[@]}" > "$work/fio.json"
			record "$spec" "$d" "$work/cdm.txt" "$work/cdm.time" "$work/fio.json" \
				"$time" "$warmup" fio
			if [ "$tuned" = 1 ]; then
				extra=()
				[ "$engine" = io_uring ] && extra+=(--fixedbufs --registerfiles)
				need=$(( (q * bs + (2 << 20) - 1) / (2 << 20) * t + t ))
				if [ "$(cat /proc/sys/vm/nr_hugepages)" -ge "$need" ]; then
					extra+=(--iomem=mmaphuge)
				elif [ -z "${warned:-}" ]; then
					echo "# note: vm.nr_hugepages < $need: fio-tuned runs without huge-page buffers" >&2
					warned=1
				fi
				fio "${fio_args[@]}" "${extra[@]}" > "$work/fio-tuned.json"
				record "$spec" "$d" "$work/cdm.txt" "$work/cdm.time" "$work/fio-tuned.json" \
					"$time" "$warmup" fio-tuned
			fi
		done
	done
done

python3 - "$work/results" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    f = line.rstrip('\n').split('\t')
    rows.setdefault((f[0], f[1], f[2]), []).append([float(x) for x in f[3:]])
def band(v):
    v = list(v)
    if not v:
        return '-'
    return f"{statistics.median(v):.2f} ({min(v):.2f}-{max(v):.2f})"
def med(v, i):
    return statistics.median(x[i] for x in v)
print("ratios are cdm/fio, median (min-max) over the pairs; CPU = user+system, % of one CPU")
print(f"{'test':<13}{'dir':<6}{'vs':<10}{'cdm MB/s':>9}{'fio MB/s':>9}  {'MB/s':<17}{'latency':<17}"
      f"{'user CPU/IO':<17}{'sys CPU/IO':<17}{'cdm CPU':>8}{'fio CPU':>8}{'cdm busy':>9}{'fio busy':>9}")
for (spec, d, kind), v in rows.items():
    print(f"{spec:<13}{d:<6}{kind:<10}{med(v, 0):>9.1f}{med(v, 1):>9.1f}  "
          f"{band(x[0] / x[1] for x in v):<17}{band(x[2] / x[3] for x in v):<17}"
          f"{band(x[4] / x[6] for x in v if x[6] > 0):<17}"
          f"{band(x[5] / x[7] for x in v if x[7] > 0):<17}"
          f"{med(v, 8):>7.0f}%{med(v, 9):>7.0f}%{med(v, 10):>9.3f}{med(v, 11):>9.3f}")
PY
