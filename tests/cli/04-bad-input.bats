#!/usr/bin/env bats
# Bad input: one line naming the problem (and the path), the documented
# exit status (2 usage, 1 run), and nothing created.

load helpers

# $1 = expected status, $2 = text the message must contain, rest = cdm args
refuse() {
	local want=$1 text=$2
	shift 2
	run "$CDM" "$@"
	echo "status $status: $output"
	assert_equal "$status" "$want"
	assert_output --partial "$text"
	# the first line is the message, starting "cdm: "
	assert_like "${lines[0]}" '"cdm: "*'
	assert_clean "$TD"
}

@test "a target that does not exist" {
	refuse 1 "$TD/nope: no such directory" "${QUICK[@]}" "$TD/nope"
	refute [ -e "$TD/nope" ]
}

@test "a file where a directory is expected" {
	touch "$TD/file"
	refuse 1 "$TD/file: not a directory" "${QUICK[@]}" "$TD/file"
}

@test "a directory without write permission (as an unprivileged user)" {
	command -v setpriv >/dev/null || skip "setpriv not installed"
	mkdir "$TD/ro"
	chmod 755 "$TD" "$TD/ro"
	chmod 555 "$TD/ro"
	run setpriv --reuid=65534 --regid=65534 --clear-groups "$CDM" "${QUICK[@]}" "$TD/ro"
	echo "$output"
	assert_failure 1
	assert_output --partial "$TD/ro: no permission to create files here"
	assert_equal "$(ls -A "$TD/ro")" ""
}

@test "not enough free space names both sizes" {
	refuse 1 "no space for a 1024 TiB test file" "${QUICK[@]}" --size 1024TiB "$TD"
	assert_output --partial "free)"
}

@test "malformed test specs are usage errors" {
	for spec in "RND4K Q0T1" "SEQ0K" "RND4K Q32T0" "FOO1M" "RND1000B" "SEQ1M Q8T1 junk"; do
		refuse 2 "bad test spec" "${QUICK[@]}" --test "$spec" "$TD"
	done
}

@test "a bad test spec names the real reason: above the maximum, zero, below the minimum, missing, negative" {
	while IFS='|' read -r spec why; do
		run "$CDM" "${QUICK[@]}" --test "$spec" "$TD"
		echo "$spec: $output"
		assert_failure 2
		assert_line --index 0 "cdm: bad test spec '$spec': $why"
	done <<'T'
SEQ4G|block size is above the 64M maximum
SEQ128M|block size is above the 64M maximum
SEQ0K|block size is zero
RND256B|block size is below the 512B minimum
RND1000B|block size must be a multiple of 512B
SEQ1.5M|block size must be a whole number of B, K or M
SEQ4|block size needs a unit (B, K or M)
RND4K Q0T1|queue depth is zero (Q1..Q1024)
RND4K Q2000|queue depth is above the maximum 1024 (Q1..Q1024)
RND4K QT1|queue depth after Q is missing (Q1..Q1024)
RND4K Q-1|queue depth is negative (Q1..Q1024)
RND4K Q1T999|thread count is above the maximum 256 (T1..T256)
RND4K Q1T1 W150|write percentage is above the maximum 99 (W1..W99)
T
	assert_clean "$TD"
}

@test "zero, negative, non-numeric and absurd counts, times and intervals" {
	for v in 0 -1 abc 1.5 999999; do
		refuse 2 "bad value for --count" "${QUICK[@]}" --count "$v" "$TD"
	done
	for v in 0 -3 x 99999; do
		refuse 2 "bad value for --time" "${QUICK[@]}" --time "$v" "$TD"
	done
	for v in -1 x 99999; do
		refuse 2 "bad value for --interval" "${QUICK[@]}" --interval "$v" "$TD"
		refuse 2 "bad value for --warmup" "${QUICK[@]}" --warmup "$v" "$TD"
	done
}

@test "times finer than a millisecond, shorter than 0.1 s, negative, junk or above 3600 s are refused, naming the range" {
	for v in 0.05 99ms -1 1.2345 abc 3601 3600.001 "" "1 s" 1e3 0.5ms; do
		refuse 2 "bad value for --time: '$v' (0.1-3600 s, such as 0.5, 2, 1500ms)" \
			"${QUICK[@]}" --time "$v" "$TD"
		[ "${#lines[@]}" -eq 2 ]        # the message and "Try 'cdm --help'."
	done
	for v in 0.05 1ms -1 1.2345 3601; do
		refuse 2 "bad value for --warmup: '$v' (0 = none, or 0.1-3600 s, such as 0.5, 2, 1500ms)" \
			"${QUICK[@]}" --warmup "$v" "$TD"
	done
	for v in -1 1.2345 abc 3601; do
		refuse 2 "bad value for --interval: '$v' (0-3600 s, such as 0.5, 2, 1500ms)" \
			"${QUICK[@]}" --interval "$v" "$TD"
	done
	# cdm sweep takes the same grammar and ranges
	refuse 2 "bad value for --time: '0.05' (0.1-3600 s, such as 0.5, 2, 1500ms)" \
		sweep --threads 1,2 --time 0.05 "$TD"
	refuse 2 "bad value for --warmup: '1.2345' (0 = none, or 0.1-3600 s" \
		sweep --threads 1,2 --warmup 1.2345 "$TD"
	# a profile's time, with its file and line
	printf 'name = X\ntime = 0.05\ntest = SEQ1M\n' > "$TD/t.cdm"
	refuse 2 "$TD/t.cdm:2: bad value for time: '0.05' (0.1-3600 s, such as 0.5, 2, 1500ms)" \
		--profile "$TD/t.cdm" "$TD"
	printf 'name = X\nwarmup = 1.2345\ntest = SEQ1M\n' > "$TD/w.cdm"
	refuse 2 "$TD/w.cdm:2: bad value for warmup: '1.2345'" --profile "$TD/w.cdm" "$TD"
	rm -f "$TD"/*.cdm
}

@test "sizes that are garbage, zero, or below one block" {
	refuse 2 "bad value for --size" "${QUICK[@]}" --size 0 "$TD"
	refuse 2 "bad value for --size" "${QUICK[@]}" --size lots "$TD"
	refuse 2 "smaller than one 1 MiB block" "${QUICK[@]}" --size 512KiB "$TD"
}

@test "unknown profile, engine, format; planned features refused, not ignored" {
	refuse 2 "unknown profile 'fast'" "${QUICK[@]}" --profile fast "$TD"
	refuse 2 "unknown engine 'spdk'" "${QUICK[@]}" --engine spdk "$TD"
	refuse 2 "bad value for --format: 'xml' (cdm, cdm7, cdm6, json, csv, markdown, svg)" "${QUICK[@]}" --format xml "$TD"
	refuse 2 "bad value for --aggregate: 'max'" "${QUICK[@]}" --aggregate max "$TD"
	refuse 2 "bad value for --cv-threshold" "${QUICK[@]}" --cv-threshold ten "$TD"
	refuse 2 "bad value for --mode" "${QUICK[@]}" --mode sideways "$TD"
	refuse 2 "bad value for --data" "${QUICK[@]}" --data ones "$TD"
}

@test "a profile file with errors names file and line" {
	printf 'name = X\nszie = 1GiB\ntest = SEQ1M\n' > "$TD/a.cdm"
	refuse 2 "$TD/a.cdm:2: unknown key 'szie'" --profile "$TD/a.cdm" "$TD"
	printf 'name = X\ncount = 3\ncount = 4\ntest = SEQ1M\n' > "$TD/b.cdm"
	refuse 2 "$TD/b.cdm:3: duplicate key 'count'" --profile "$TD/b.cdm" "$TD"
	printf 'name = X\n' > "$TD/c.cdm"
	refuse 2 "no tests" --profile "$TD/c.cdm" "$TD"
	printf 'name = X\ntest SEQ1M\n' > "$TD/d.cdm"
	refuse 2 "$TD/d.cdm:2:" --profile "$TD/d.cdm" "$TD"
	rm -f "$TD"/*.cdm
}

@test "a profile file is read and its settings used" {
	printf '# mine\nname = Mine\nsize = 16MiB\ncount = 1\ntime = 1\ninterval = 0\nwarmup = 0\ntest = RND4K Q2T1\n' > "$OD/cdm"
	run "$CDM" --quiet --profile "$OD/cdm" "$TD"
	rm -f "$OD/cdm"
	assert_success
	assert_output --partial "Profile: Mine"
	assert_output --partial "   Test: 16 MiB (x1)"
	assert_output --partial "Time: Measure 1 sec / Interval 0 sec "
	assert_line --regexp '^  RND    4KiB \(Q=  [12], T= 1\):'
	assert_clean "$TD"
}

@test "two targets are a usage error" {
	refuse 2 "one TARGET directory expected" "${QUICK[@]}" "$TD" "$TD"
}

@test "--output into a directory that does not exist fails before the run" {
	refuse 1 "$TD/no/such/r.txt: cannot create the file for --output" "${QUICK[@]}" --output "$TD/no/such/r.txt" "$TD"
}

@test "I/O buffers larger than memory are refused before the test file is written" {
	refuse 1 "SEQ64M Q1024T256 needs 16777216 MiB of I/O buffers" --quiet \
		--test "SEQ64M Q1024T256" --size 64MiB "$TD"
}

@test "--save never replaces a device, a FIFO or a symlink; --output/--save/--file never collide" {
	mkfifo "$OD/fifo"
	ln -s "$OD/real.json" "$OD/link.json"
	refuse 1 "/dev/null: not a regular file" "${QUICK[@]}" --engine null --test RND4K --save /dev/null "$TD"
	assert [ -c /dev/null ]
	refuse 1 "$OD/fifo: not a regular file" "${QUICK[@]}" --engine null --test RND4K --save "$OD/fifo" "$TD"
	assert [ -p "$OD/fifo" ]
	refuse 1 "$OD/link.json: not a regular file" "${QUICK[@]}" --engine null --test RND4K --save "$OD/link.json" "$TD"
	assert [ -L "$OD/link.json" ]
	refuse 2 "--output and --save name the same file" "${QUICK[@]}" --output "$OD/r" --save "$OD/r" "$TD"
	refuse 1 "is a directory, not a file for --save" "${QUICK[@]}" --save "$OD" "$TD"
	refuse 2 "an empty path was given" "${QUICK[@]}" ""
	refuse 2 "--comment is longer than 511 bytes" "${QUICK[@]}" --comment "$(printf '%0600d' 0)" "$TD"
}

@test "--output or --save naming the --file test file is refused" {
	"$CDM" "${QUICK[@]}" --engine null --test RND4K --keep "$TD" > /dev/null 2>&1
	kept=$(find "$TD" -name 'cdm-*.keep')
	sum=$(sha256sum < "$kept")
	run "$CDM" --quiet --engine null --count 1 --time 1 --warmup 0 --interval 0 --test RND4K \
		--file "$kept" --output "$kept"
	assert_failure 2
	assert_output --partial "is the test file"
	assert_equal "$(sha256sum < "$kept")" "$sum"
	rm -f "$kept"
}

@test "--file refuses a file that only looks kept: a copy, a hand-made sidecar, a FIFO" {
	"$CDM" "${QUICK[@]}" --engine null --test RND4K --keep "$TD" > /dev/null 2>&1
	kept=$(find "$TD" -name 'cdm-*.keep')
	# a copy with the extended attributes is a different inode
	cp --preserve=xattr "$kept" "$OD/copy.keep" 2> /dev/null || cp "$kept" "$OD/copy.keep"
	run "$CDM" --quiet --engine null --count 1 --time 1 --warmup 0 --interval 0 --file "$OD/copy.keep"
	assert_failure 1
	assert_output --partial "not a test file that cdm prepared and kept"
	# a sidecar does not count where the filesystem has extended attributes
	head -c 16777216 /dev/zero > "$OD/user.db"
	echo "cdm test file v2 size=16777216 ino=$(stat -c %i "$OD/user.db")" > "$OD/user.db.cdm"
	sum=$(sha256sum < "$OD/user.db")
	run "$CDM" --quiet --engine null --count 1 --time 1 --warmup 0 --interval 0 --file "$OD/user.db"
	if setfattr -n user.cdm.probe -v 1 "$OD/user.db" 2> /dev/null || \
	   python3 -c "import os,sys; os.setxattr(sys.argv[1], 'user.cdm.probe', b'1')" "$OD/user.db" 2> /dev/null; then
		assert_failure 1
	fi
	assert_equal "$(sha256sum < "$OD/user.db")" "$sum"
	mkfifo "$OD/fifo"
	run timeout 10 "$CDM" --quiet --count 1 --time 1 --warmup 0 --interval 0 --file "$OD/fifo"
	assert_failure 1
	assert_output --partial "$OD/fifo: not a regular file"
	rm -f "$kept"
}

# holds_flock PID FILE - does process PID hold a flock(2) lock on FILE?
# (/proc/locks: "N: FLOCK ADVISORY WRITE PID MAJ:MIN:INODE 0 EOF")
holds_flock() {
	local ino
	ino=$(stat -c %i "$2") || return 1
	awk -v p="$1" -v i="$ino" '$2 == "FLOCK" && $5 == p {
		n = split($6, f, ":"); if (f[n] == i) found = 1 } END { exit !found }' /proc/locks
}

@test "--file smaller than one block, or in use by another run, is refused" {
	run "$CDM" "${QUICK[@]}" --engine null --test RND4K --keep "$TD"
	assert_success
	kept=$(find "$TD" -name 'cdm-*.keep')
	assert [ -n "$kept" ]
	run "$CDM" --quiet --count 1 --time 1 --interval 0 --warmup 0 --test SEQ32M --file "$kept"
	echo "$output"
	assert_failure 1
	assert_output --partial "cdm: $kept: the file is smaller than one block of the tests"
	# a run holding the file: a second run is refused, the first is unharmed.
	# The first is stopped (SIGSTOP) once it holds the file's lock, so it
	# still holds it when the second starts, however slow the machine
	"$CDM" --quiet --count 1 --time 1 --interval 0 --warmup 0 --engine sync --test RND4K \
		--file "$kept" > "$OD/out" 2>&1 &
	pid=$!
	wait_for "the first run to lock $kept" holds_flock "$pid" "$kept"
	kill -STOP "$pid"
	run "$CDM" --quiet --count 1 --time 1 --interval 0 --warmup 0 --engine null --test RND4K \
		--file "$kept"
	kill -CONT "$pid"
	assert_failure 1
	assert_output --partial "cdm: $kept: in use by another cdm run"
	st=0
	wait "$pid" || st=$?
	cat "$OD/out"
	assert_equal "$st" 0
	assert [ -e "$kept" ]
	rm -f "$kept" "$kept.cdm"
}

@test "--save and --plot of a run, a sweep and a merge never replace a FIFO, a device node or a symlink" {
	mkfifo "$OD/fifo"
	ln -s "$OD/precious" "$OD/link"
	echo precious > "$OD/precious"
	for f in "$OD/fifo" "$OD/link" /dev/null; do
		run "$CDM" "${QUICK[@]}" --engine null --test RND4K --mode read --log-interval 500ms --plot "$f" "$TD"
		echo "$output"
		assert_failure 1
		assert_line --index 0 "cdm: $f: not a regular file; --plot writes a new file and renames it into place"
		run "$CDM" sweep "${QUICK[@]}" --engine null --threads 1,2 --save "$f" "$TD"
		assert_failure 1
		assert_line --index 0 "cdm: $f: not a regular file; --save writes a new file and renames it into place"
	done
	"$CDM" "${QUICK[@]}" --engine null --test RND4K --save "$OD/a.json" "$TD" > /dev/null
	"$CDM" "${QUICK[@]}" --engine null --test RND4K --save "$OD/b.json" "$TD" > /dev/null
	run "$CDM" merge --save "$OD/link" "$OD/a.json" "$OD/b.json"
	assert_failure 1
	assert [ -p "$OD/fifo" ]
	assert [ -L "$OD/link" ]
	assert [ -c /dev/null ]
	assert_equal "$(cat "$OD/precious")" precious
	assert_clean "$TD"
}

@test "merge and compare never write over one of their inputs, and merge counts a run once" {
	"$CDM" "${QUICK[@]}" --engine null --test RND4K --save "$OD/a.json" "$TD" > /dev/null
	"$CDM" "${QUICK[@]}" --engine null --test RND4K --save "$OD/b.json" "$TD" > /dev/null
	cp "$OD/a.json" "$OD/a.orig"
	cp "$OD/b.json" "$OD/b.orig"
	run "$CDM" merge --save "$OD/a.json" "$OD/a.json" "$OD/b.json"
	echo "$output"
	assert_failure 2
	assert_line --index 0 "cdm: $OD/a.json is one of the results to merge; write the aggregate to another file"
	run "$CDM" merge --output "$OD/./b.json" "$OD/a.json" "$OD/b.json"
	assert_failure 2
	run "$CDM" compare --output "$OD/b.json" "$OD/a.json" "$OD/b.json"
	assert_failure 2
	assert_line --index 0 "cdm: $OD/b.json is one of the results to compare; write the comparison to another file"
	run "$CDM" merge "$OD/a.json" "$OD/./a.json"
	assert_failure 2
	assert_line --index 0 "cdm: $OD/a.json and $OD/./a.json are the same file: each run is merged once"
	cmp "$OD/a.json" "$OD/a.orig"
	cmp "$OD/b.json" "$OD/b.orig"
}

@test "a run's --plot and --output naming one file by two spellings is refused; a sweep refuses a W<pct> test" {
	run "$CDM" "${QUICK[@]}" --engine null --test RND4K --log-interval 500ms --plot "$OD/./x.svg" --output "$OD/x.svg" "$TD"
	assert_failure 2
	refute [ -e "$OD/x.svg" ]
	run "$CDM" sweep "${QUICK[@]}" --engine null --threads 1,2 --test "RND4K W20" "$TD"
	echo "$output"
	assert_failure 2
	assert_line --index 0 "cdm: --test 'RND4K W20': a sweep runs read and write tests; a test with W<pct> (a Mix) cannot be swept"
	assert_clean "$TD"
}

# issue 12, item 9: "cdm sweep --plot a.png" wrote SVG into a .png.  Every
# output option of every command: a name whose extension says another
# format is refused with one line naming it, before any I/O; names that say
# the right format, or none, are fine.
@test "an output name whose extension says another format is refused, for every output of every command" {
	"$CDM" "${QUICK[@]}" --engine null --test RND4K --mode read --save "$OD/a.json" "$TD" > /dev/null
	# refuse_name PATH OPT WRITES cdm-args...: exit 2, one line, nothing written
	refuse_name() {
		local path=$1 opt=$2 writes=$3
		shift 3
		run "$CDM" "$@"
		echo "status $status: $output"
		assert_failure 2
		assert_equal "${#lines[@]}" 1
		assert_like "${lines[0]}" '"cdm: $path: the name says "*", but $opt writes $writes: name it "*'
		refute [ -e "$path" ]
		assert_clean "$TD"
	}
	refuse_name "$OD/p.png" --plot SVG "${QUICK[@]}" --engine null --log-interval 1s --plot "$OD/p.png" "$TD"
	refuse_name "$OD/r.json" --output "CDM text" "${QUICK[@]}" --engine null --output "$OD/r.json" "$TD"
	refuse_name "$OD/r.JSON" --output CSV "${QUICK[@]}" --engine null -f csv --output "$OD/r.JSON" "$TD"
	refuse_name "$OD/r.txt" --output Markdown "${QUICK[@]}" --engine null -f markdown -o "$OD/r.txt" "$TD"
	refuse_name "$OD/r.csv" --save JSON "${QUICK[@]}" --engine null --save "$OD/r.csv" "$TD"
	refuse_name "$OD/s.png" --plot SVG sweep --qd 1,2 --test RND4K --engine null "${QUICK[@]}" --plot "$OD/s.png" "$TD"
	refuse_name "$OD/s.md" --save JSON sweep --qd 1,2 --test RND4K --engine null "${QUICK[@]}" --save "$OD/s.md" "$TD"
	refuse_name "$OD/m.json" --output "CDM text" merge -o "$OD/m.json" "$OD/a.json"
	refuse_name "$OD/m.html" --output Markdown merge -f markdown -o "$OD/m.html" "$OD/a.json"
	refuse_name "$OD/m.txt" --save JSON merge --save "$OD/m.txt" "$OD/a.json"
	refuse_name "$OD/c.json" --output "CDM text" compare -o "$OD/c.json" "$OD/a.json" "$OD/a.json"
	refuse_name "$OD/c.pdf" --output Markdown compare -f markdown -o "$OD/c.pdf" "$OD/a.json" "$OD/a.json"
	# the right extension, any case, or one that names no format
	"$CDM" "${QUICK[@]}" --engine null --test RND4K --mode read -f markdown -o "$OD/r.md" \
		--save "$OD/R.JSON" --log-interval 1s --plot "$OD/p.SVG" "$TD"
	"$CDM" merge -f csv -o "$OD/m.csv" "$OD/a.json"
	"$CDM" merge -o "$OD/m.out" "$OD/a.json"
	"$CDM" compare -o "$OD/c.txt" "$OD/a.json" "$OD/a.json"
	"$CDM" compare -o "$OD/c" "$OD/a.json" "$OD/a.json"
	for f in r.md R.JSON p.SVG m.csv m.out c.txt c; do [ -s "$OD/$f" ]; done
	assert_clean "$TD"
}

# issue 12, item 9: "--size '1 GB'" was accepted and "1gb" refused.  One
# grammar (docs/cdm.1 SIZES): the same table at every place a size is read.
# Accepted inputs get as far as the missing target (exit 1); refused ones
# are usage errors (exit 2).
SIZES_OK=("1GiB" "1gib" "1 GiB" "1G" "1g" "1GB" "1gb" "1 GB" "1Gb" "64MiB" "64 mib" "64M" "64m"
	"64MB" "67108864" "67108864B" "67108864 b")
SIZES_BAD=("0" "0G" "1.5G" "-1G" "+1G" "1Gi" "1iB" "G" "1X" "1 G B" "1GBB"
	"1e9" "0x10" "1 2G" "1P" "99999999999999999999")
BLOCKS_OK=("4K" "4k" "4KiB" "4kib" "4 KiB" "512B" "512b" "1M" "1m" "1MiB" "1 mib" "128K")
BLOCKS_BAD=("4KB" "4kb" "1MB" "1.5M" "4096" "4X" "0K" "4G" "1T" "65M" "4Ki")

# size_at VALUE: exit status at each entry point, as "cdm sweep profile"
size_at() {
	local st=()
	"$CDM" -q --engine null --size "$1" "$TD/none" 2> /dev/null; st+=($?)
	"$CDM" sweep -q --engine null --qd 1,2 --test RND4K --size "$1" "$TD/none" 2> /dev/null; st+=($?)
	printf 'size = %s\ntest = RND4K\n' "$1" > "$OD/p.cdm"
	"$CDM" -q --engine null --profile "$OD/p.cdm" "$TD/none" 2> /dev/null; st+=($?)
	echo "${st[*]}"
}

block_at() {
	local st=()
	"$CDM" -q --engine null -t "RND$1 Q1T1" "$TD/none" 2> /dev/null; st+=($?)
	"$CDM" sweep -q --engine null --qd 1,2 --test "RND$1" "$TD/none" 2> /dev/null; st+=($?)
	printf 'test = RND%s Q1T1\n' "$1" > "$OD/p.cdm"
	"$CDM" -q --engine null --profile "$OD/p.cdm" "$TD/none" 2> /dev/null; st+=($?)
	echo "${st[*]}"
}

@test "one size grammar: the same sizes are accepted and refused by --size, sweep --size and a profile" {
	for v in "${SIZES_OK[@]}"; do
		[ "$(size_at "$v")" = "1 1 1" ] || { echo "'$v' refused somewhere: $(size_at "$v")"; return 1; }
	done
	for v in "${SIZES_BAD[@]}"; do
		[ "$(size_at "$v")" = "2 2 2" ] || { echo "'$v' accepted somewhere: $(size_at "$v")"; return 1; }
	done
	# blanks before the number or after the unit: refused on the command
	# line (a profile file trims its values, docs/profile-format.md)
	for v in " 1G" "1GiB " "1 "; do
		run "$CDM" -q --engine null --size "$v" "$TD/none"
		assert_failure 2
		run "$CDM" sweep -q --engine null --qd 1,2 --test RND4K --size "$v" "$TD/none"
		assert_failure 2
	done
	# GB is 10^9 bytes everywhere, never GiB: the rounding says so
	run "$CDM" -q --engine null --size "1 gb" "$TD/none"
	assert_output --partial "test size 1000000000 B rounded down to 953 MiB"
	assert_clean "$TD"
}

@test "one size grammar: the same block sizes are accepted and refused by -t, sweep --test and a profile" {
	for v in "${BLOCKS_OK[@]}"; do
		[ "$(block_at "$v")" = "1 1 1" ] || { echo "'$v' refused somewhere: $(block_at "$v")"; return 1; }
	done
	for v in "${BLOCKS_BAD[@]}"; do
		[ "$(block_at "$v")" = "2 2 2" ] || { echo "'$v' accepted somewhere: $(block_at "$v")"; return 1; }
	done
	# a decimal unit is 1000 bytes: 4KB is not a whole number of sectors
	run "$CDM" -q -t "RND4KB" "$TD"
	assert_failure 2
	assert_line --index 0 "cdm: bad test spec 'RND4KB': block size must be a multiple of 512B"
}

# issue 12, item 9: "cdm -q compare a.json b.json" said "one TARGET directory
# expected, got 3".  Options before a subcommand: a message that says to put
# the subcommand first, for compare, sweep, merge and report; an option's value or a
# directory of that name is still what it was.
@test "options before a subcommand: the message says to put the subcommand first" {
	for sub in compare sweep merge report; do
		run "$CDM" -q "$sub" "$OD/a.json" "$OD/b.json"
		echo "$output"
		assert_failure 2
		assert_line --index 0 "cdm: '$sub' is a subcommand: put it first, with its options after it (cdm $sub [OPTIONS] ...; cdm $sub --help)"
		run "$CDM" --engine null -q "$sub" --threads 1,2
		assert_failure 2
		assert_like "${lines[0]}" "\"cdm: '\$sub' is a subcommand: put it first\"*"
	done
	# "compare" as an option's value, or a directory named so, is no subcommand
	run "$CDM" -q --label compare "$TD/none"
	assert_failure 1
	assert_output --partial "$TD/none: no such directory"
	mkdir "$TD/merge"
	cd "$TD"
	run "$CDM" "${QUICK[@]}" --engine null --test RND4K --mode read merge
	assert_success
	assert_clean "$TD/merge"
}

@test "one error form for every command: 'cdm: <what>', never the subcommand's name, usage errors then 'Try'" {
	"$CDM" "${QUICK[@]}" --engine null --test RND4K --save "$OD/a.json" "$TD" > /dev/null
	for sub in compare import merge report sweep; do
		# getopt's own message, a bad value, a file that cannot be read
		run "$CDM" "$sub" --no-such-option
		echo "$sub: $output"
		assert_failure 2
		assert_line --index 0 "cdm: unrecognized option '--no-such-option'"
		assert_line --index 1 "Try 'cdm $sub --help'."
		run "$CDM" "$sub" --format nosuch "$OD/a.json" "$OD/a.json"
		assert_failure 2
		assert_like "${lines[0]}" "\"cdm: bad value for --format: 'nosuch' (\"*"
		assert_line --index 1 "Try 'cdm $sub --help'."
	done
	for sub in compare import merge report; do
		args=("$OD/nosuch.json")
		[ "$sub" != compare ] || args+=("$OD/a.json")
		run "$CDM" "$sub" "${args[@]}"
		echo "$sub: $output"
		assert_failure 2
		assert_line --index 0 "cdm: $OD/nosuch.json: No such file or directory"
		assert_equal "${#lines[@]}" 1
	done
	run "$CDM" --no-such-option
	assert_line --index 0 "cdm: unrecognized option '--no-such-option'"
	# every line on stderr of every command starts "cdm: " (or is a Try line)
	for cmdline in "compare -f x" "import" "merge" "report a b" "sweep" "-n 0"; do
		run "$CDM" $cmdline
		assert_failure 2
		assert_equal "$(echo "$output" | grep -vE "^cdm: |^Try 'cdm( [a-z]+)? --help'\.$")" ""
		assert_equal "$(echo "$output" | grep -E '^cdm (compare|import|merge|report|sweep): |^cdm: (compare|import|merge|report|sweep): ')" ""
	done
}
