#!/usr/bin/env bash
# bench/mpi-scale.sh - cdm-mpi on this host with the null engine and a fixed
# service time, at -np 1, 2, 4, 8 (oversubscribed when the host has fewer
# CPUs: the null engine sleeps out its service time, so ranks barely need
# a CPU).  Prints, per rank count: the aggregate IOPS and MB/s against N x
# one rank's, the per-rank spread, the cost of one idle MPI_Allreduce at
# each checkpoint (CDM_MPI_STATS=1), the end-of-run reduction, and the
# wall time of the run against its schedule.  Not part of `make test`.
#
#   make WITH_MPI=yes && bench/mpi-scale.sh [NP...]     (default: 1 2 4 8)
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x ./cdm-mpi ] || { echo "build cdm-mpi first: make WITH_MPI=yes" >&2; exit 2; }
command -v mpirun >/dev/null || { echo "mpirun not found (apt-get install openmpi-bin)" >&2; exit 2; }

SERVICE_US=${SERVICE_US:-1000}
QD=${QD:-8}
COUNT=${COUNT:-1}
TIME=${TIME:-2}
TESTS=${TESTS:-4}
# the same test TESTS times: one checkpoint (barrier) before each
PLAN=(--engine null --null-service-us "$SERVICE_US" --size 64MiB --count "$COUNT" --time "$TIME"
	--warmup 1 --interval 0 --mode read --quiet)
for ((i = 0; i < TESTS; i++)); do PLAN+=(-t "RND4K Q${QD}T1"); done
NPS=("$@")
[ ${#NPS[@]} -gt 0 ] || NPS=(1 2 4 8)
dir=$(mktemp -d /tmp/cdm-mpi-bench.XXXXXX)
trap 'rm -rf "$dir"' EXIT
# schedule: warm-up + count x time per test
sched=$((TESTS * (1 + COUNT * TIME)))

echo "cdm-mpi scaling: ${TESTS} x RND4K Q${QD}T1 read per rank, null engine, ${SERVICE_US} us service time, ${COUNT} x ${TIME} s, 1 s warm-up"
echo "host: $(nproc) CPUs; ideal per rank: $((QD * 1000000 / SERVICE_US)) IOPS"
printf '%4s %12s %10s %9s %28s %14s %14s %10s\n' np "agg IOPS" "agg MB/s" "vs N x 1" \
	"per rank MB/s min/med/max" "allreduce us" "reduction ms" "wall s"
base=
for np in "${NPS[@]}"; do
	t0=$(date +%s.%N)
	CDM_MPI_STATS=1 mpirun --allow-run-as-root --oversubscribe -np "$np" ./cdm-mpi "${PLAN[@]}" \
		--save "$dir/agg.json" "$dir" > "$dir/out.txt" 2> "$dir/err.txt"
	t1=$(date +%s.%N)
	python3 - "$dir/agg.json" "$dir/err.txt" "$np" "${base:-0}" "$(echo "$t1 - $t0" | bc)" "$sched" <<'PY'
import json, re, sys
agg = json.load(open(sys.argv[1])); err = open(sys.argv[2]).read()
np, base, wall, sched = int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6])
# the test with the median aggregate MB/s
ts = sorted(range(len(agg["tests"])), key=lambda i: agg["tests"][i]["summary"]["mb_s"]["best"])
i = ts[len(ts) // 2]
t = agg["tests"][i]
iops = t["summary"]["iops"]["best"]; mbs = t["summary"]["mb_s"]["best"]
sp = agg["scale"]["spread_mb_s"][i]
m = re.search(r"took ([0-9.]+) us on average, ([0-9.]+) us at most; the reduction .* took ([0-9.]+) ms", err)
coll = f"{float(m.group(1)):.0f} (max {float(m.group(2)):.0f})" if m else "?"
red = m.group(3) if m else "?"
ratio = f"{iops / (base * np):.3f}" if base else "1.000"
print(f"{np:4d} {iops:12.0f} {mbs:10.3f} {ratio:>9} {sp['min']:8.3f}/{sp['median']:8.3f}/{sp['max']:8.3f} "
      f"{coll:>14} {red:>14} {wall:10.2f}")
open(sys.argv[1] + ".iops", "w").write(str(iops / np if not base else base))
PY
	[ -n "$base" ] || base=$(cat "$dir/agg.json.iops")
done
echo "figures: the test with the median aggregate of the ${TESTS}; allreduce: one idle MPI_Allreduce timed at each"
echo "checkpoint (mean, max); reduction: gather + read + merge on rank 0; wall s: mpirun start to exit,"
echo "against a schedule of ${sched} s of warm-up and passes"
