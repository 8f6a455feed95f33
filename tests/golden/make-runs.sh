#!/bin/bash
# tests/golden/make-runs.sh [RUN...] - how the saved runs of
# tests/golden/runs/ were made, and how to make one again.  Not part of
# any test: the runs are measured once and committed; every figure in
# them is from the run, only the facts of the machine they ran on are
# made neutral.  Running this measures again, so every figure of the
# runs it names changes, and with them every expected output of those
# runs: run tests/golden/update.sh after it and commit both.  Add a run
# here (a case below, and its name in ALL) rather than by hand.
#
# Each run is short (1 s passes, a 16 MiB file; the null engine with a
# service time of 1 ms, except where real I/O is the point) and is saved
# with --save; then neutral() gives it:
#   - on a directory: the target /mnt/local (and the label, when it was
#     the target's path), on /dev/sdb1 (device sdb), a filesystem of 256
#     GiB, 16 GiB used, 224 GiB free; on the loop device: /dev/loop0 over
#     /srv/disk.img
#   - the system "Debian GNU/Linux 12 (bookworm)", kernel 6.1.0, CPU
#     "Example CPU", 16 GiB of memory (its CPU counts are left)
#   - cdm_version 0.1.0-golden, a version no build has: a rendering that
#     names the binary's version instead of the run's shows it in a diff
# An imported report keeps every fact its report states: only its
# cdm_version is made 0.1.0-golden.  The dates stay as measured (fixed
# once committed).  The edit is done in Python, not jq: jq 1.6 reads every
# number as a double and would round the nanosecond timestamps (1.8e18);
# Python keeps integers exact, and cdm itself then writes the file again
# (cdm report -f json, checked to give back the raw run byte for byte
# first), so each run is in cdm's own layout.  A run it does not give back
# whole is saved as Python wrote the edit: the block device run, as cdm's
# reader drops is_device, device_bytes and logical_block_bytes (its
# reports then print the target as a file; the golden outputs show that
# as it is).  The aggregate (merged.json) is cdm merge --save of the two
# neutral runs it adds up.  Last, no run may hold a string of this
# machine (the temporary directory, the kernel, the CPU, the hostname).
#
# CDM is the binary (default ./cdm); needs python3, and root for the
# block device run (a loop device on an image in the temporary directory,
# detached on exit).
set -euo pipefail

cd "$(dirname "$0")/../.."
CDM=${CDM:-$PWD/cdm}
RUNS=tests/golden/runs
FIX=tests/fixtures/cdm-reports
ALL="default mix merged steady verify series threads nothing partial settings interrupted device imports"

W=$(mktemp -d "${TMPDIR:-/tmp}/cdm-golden.XXXXXX")
LOOP=
cleanup() {
	[ -z "$LOOP" ] || losetup -d "$LOOP"
	rm -rf "$W"
}
trap cleanup EXIT

NULL=(--engine null --null-service-us 1000 --size 16MiB --interval 0 --warmup 0 --quiet)

# neutral RAW OUT KIND [FROM TO]... - RAW made neutral into OUT (see the
# header): KIND "dir" (a run on a directory), "dev" (on a block device) or
# "import" (an imported report, whose facts are the report's: only its
# cdm_version is cdm's); every FROM in a string (a whole word) becomes TO
neutral() {
	local raw=$1 out=$2 whole=yes
	shift 2
	# the reader and writer give this run back whole: so may they the edit
	if ! "$CDM" report -f json "$raw" | cmp -s - "$raw"; then
		echo "make-runs.sh: $out: cdm report -f json does not give the run back whole; saved as edited, in Python's layout:" >&2
		"$CDM" report -f json "$raw" | diff "$raw" - >&2 || true
		whole=no
	fi
	python3 - "$raw" "$W/neutral.json" "$@" <<'PY'
import json, re, sys
raw, out, kind = sys.argv[1:4]
pairs = list(zip(sys.argv[4::2], sys.argv[5::2]))
d = json.load(open(raw))

def walk(x):
    if isinstance(x, str):
        for a, b in pairs:
            x = re.sub(r"(?<![\w/.-])" + re.escape(a) + r"(?![\w.-])", b, x)
        return x
    if isinstance(x, list):
        return [walk(v) for v in x]
    if isinstance(x, dict):
        return {k: walk(v) for k, v in x.items()}
    return x

d = walk(d)
d["cdm_version"] = "0.1.0-golden"
if kind == "dir":
    t = d["target"]
    t["mount_point"] = "/mnt/local"
    t["fs_source"] = "/dev/sdb1"
    t["device"] = "sdb"
    t["fs_total_bytes"] = 256 << 30
    t["fs_used_bytes"] = 16 << 30
    t["fs_avail_bytes"] = 224 << 30
if kind != "import":
    s = d["system"]
    s["os"] = "Debian GNU/Linux 12 (bookworm)"
    s["kernel"] = "6.1.0"
    s["cpu_model"] = "Example CPU"
    s["mem_total_bytes"] = 16 << 30
json.dump(d, open(out, "w"), indent=2, ensure_ascii=False)
PY
	if [ $whole = yes ]; then
		"$CDM" report -f json "$W/neutral.json" > "$out"
	else
		echo >> "$W/neutral.json"
		mv "$W/neutral.json" "$out"
	fi
}

# no string of this machine left in $1
check_clean() {
	local k
	for k in "$W" "$(uname -r)" "$(hostname)" \
		"$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"; do
		[ -n "$k" ] || continue
		if grep -qwF -- "$k" "$1"; then
			echo "make-runs.sh: $1 still holds '$k'" >&2
			exit 1
		fi
	done
}

# save NAME [CDM ARGS...] - run cdm with ARGS on a fresh directory, saved
# and made neutral as runs/NAME.json; the run's exit status is kept in $rc
save() {
	local name=$1
	shift
	mkdir -p "$W/$name"
	rc=0
	"$CDM" "$@" --save "$W/$name.raw.json" "$W/$name" > /dev/null || rc=$?
	neutral "$W/$name.raw.json" "$RUNS/$name.json" dir "$W/$name" /mnt/local
	check_clean "$RUNS/$name.json"
}

run_one() {
	case $1 in
	default)	# the Default profile's 8 rows; 3 passes: best, median, mean differ
		save default "${NULL[@]}" --count 3 --time 1
		;;
	mix)		# the Real profile with a Mix section (70 % reads)
		save mix "${NULL[@]}" --profile real --mix 70 --count 1 --time 1 --label MIX
		;;
	merged)		# two "hosts" started together (--start-at), then cdm merge
		local at
		at=$(date -u -d '+3 sec' +%Y-%m-%dT%H:%M:%SZ)
		local m=("${NULL[@]}" --count 2 --time 1 -t "SEQ1M Q8T1" -t "RND4K Q32T1" --start-at "$at")
		mkdir -p "$W/merge-a" "$W/merge-b"
		"$CDM" "${m[@]}" --label host-a --save "$W/merge-a.raw.json" "$W/merge-a" > /dev/null &
		"$CDM" "${m[@]}" --label host-b --save "$W/merge-b.raw.json" "$W/merge-b" > /dev/null
		wait $!
		neutral "$W/merge-a.raw.json" "$RUNS/merge-a.json" dir "$W/merge-a" /mnt/local
		neutral "$W/merge-b.raw.json" "$RUNS/merge-b.json" dir "$W/merge-b" /mnt/local
		(cd "$RUNS" && "$CDM" merge --save merged.json merge-a.json merge-b.json > /dev/null)
		check_clean "$RUNS/merge-a.json"
		check_clean "$RUNS/merge-b.json"
		check_clean "$RUNS/merged.json"
		;;
	steady)		# --steady-state at a fixed rate: rounds until 5 are steady; a series
		save steady --engine null --null-service-us 1000 --size 16MiB --interval 0 --quiet \
			--time 1 -t "RND4K Q8T1" --rate-iops 1000 --steady-state --max-rounds 10 --log-interval 1s
		;;
	verify)		# real I/O on a file: --verify's read-back, --precondition
		save verify --size 16MiB --interval 0 --warmup 0 --quiet --count 1 --time 1 \
			--verify --precondition --mix 30 -t "RND4K Q8T2"
		;;
	series)		# --log-interval; the device slows 1.5 s in: a burst
		save series --engine null --null-service-us 1000,4000@1.5 --size 16MiB --interval 0 \
			--quiet --warmup 1 --count 1 --time 3 -t "SEQ1M Q8T1" -t "RND4K Q4T1" \
			--mode read --log-interval 500ms
		;;
	threads)	# several threads per test
		save threads "${NULL[@]}" --count 2 --time 1 -t "RND4K Q4T4" -t "SEQ1M Q2T2"
		;;
	nothing)	# each I/O takes 2 s, a pass 1 s: nothing measured (exit 1)
		save nothing --engine null --null-service-us 2000000 --size 16MiB --interval 0 \
			--warmup 0 --quiet --count 1 --time 1 -t RND4K --mix 70 --fsync 2 --label STALL
		[ "$rc" -eq 1 ]
		;;
	partial)	# each I/O takes 1.5 s: one pass of three measured
		save partial --engine null --null-service-us 1500000 --size 16MiB --interval 0 \
			--warmup 0 --quiet --count 3 --time 1 -t RND4K --mode read --label SLOW
		;;
	settings)	# the settings the reports word: each one not the default
		save settings "${NULL[@]}" --count 2 --time 1 -t "SEQ128K Q4T1" -t "RND4K Q8T2" \
			--comment "golden: the settings" --label LOCAL --data zero --fsync 4 \
			--end-fsync --rate-iops 3000 --cpus 0-1 --buffered --sync --cv-threshold 5 \
			--aggregate median 2> /dev/null
		;;
	interrupted)	# SIGINT in the second test: the rows measured before it
		mkdir -p "$W/interrupted"
		"$CDM" "${NULL[@]}" --count 1 --time 2 -t "SEQ1M Q8T1" -t "RND4K Q32T1" --mode read \
			--save "$W/interrupted.raw.json" "$W/interrupted" > /dev/null 2>&1 &
		local pid=$! st=0
		sleep 3		# the first test takes 2 s (a one-off script: no test waits so)
		kill -INT "$pid"
		wait "$pid" || st=$?
		[ "$st" -eq 130 ]
		python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); t=d["tests"]
assert d["interrupted"] and t[0]["complete"] and not t[1]["complete"], "interrupted elsewhere: run again"' \
			"$W/interrupted.raw.json"
		neutral "$W/interrupted.raw.json" "$RUNS/interrupted.json" dir "$W/interrupted" /mnt/local
		check_clean "$RUNS/interrupted.json"
		;;
	device)		# a block device (a loop device over a file): read tests only
		local dev
		truncate -s 64MiB "$W/disk.img"
		LOOP=$(losetup -f --show "$W/disk.img")
		dev=$LOOP
		"$CDM" "${NULL[@]}" --size 64MiB --count 1 --time 1 -t "SEQ1M Q8T1" -t "RND4K Q32T1" \
			--save "$W/device.raw.json" "$dev" > /dev/null
		losetup -d "$LOOP"
		LOOP=
		neutral "$W/device.raw.json" "$RUNS/device.json" dev "$dev" /dev/loop0 \
			"${dev#/dev/}" loop0 "$W/disk.img" /srv/disk.img
		check_clean "$RUNS/device.json"
		;;
	imports)	# each CrystalDiskMark report of tests/fixtures, imported
		local f n
		for f in "$FIX"/*.txt; do
			n=$(basename "$f" .txt)
			(cd "$FIX" && "$CDM" import --save "$W/import-$n.raw.json" "$n.txt")
			neutral "$W/import-$n.raw.json" "$RUNS/import-$n.json" import
			check_clean "$RUNS/import-$n.json"
		done
		;;
	*)
		echo "make-runs.sh: no run '$1' (runs: $ALL)" >&2
		exit 2
		;;
	esac
}

mkdir -p "$RUNS"
# shellcheck disable=SC2086	# the names, one word each
[ $# -ne 0 ] || set -- $ALL
for r in "$@"; do
	echo "make-runs.sh: $r" >&2
	run_one "$r"
done
