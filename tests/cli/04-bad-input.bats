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
	[ "$status" -eq "$want" ]
	[[ "$output" == *"$text"* ]]
	# the first line is the message, starting "cdm: "
	[[ "${lines[0]}" == "cdm: "* ]]
	assert_clean "$TD"
}

@test "a target that does not exist" {
	refuse 1 "$TD/nope: no such directory" "${QUICK[@]}" "$TD/nope"
	[ ! -e "$TD/nope" ]
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
	[ "$status" -eq 1 ]
	[[ "$output" == *"$TD/ro: no permission to create files here"* ]]
	[ -z "$(ls -A "$TD/ro")" ]
}

@test "not enough free space names both sizes" {
	refuse 1 "no space for a 1024 TiB test file" "${QUICK[@]}" --size 1024TiB "$TD"
	[[ "$output" == *"free)"* ]]
}

@test "malformed test specs are usage errors" {
	for spec in "RND4K Q0T1" "SEQ0K" "RND4K Q32T0" "FOO1M" "RND1000B" "SEQ1M Q8T1 junk"; do
		refuse 2 "bad test spec" "${QUICK[@]}" --test "$spec" "$TD"
	done
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

@test "sizes that are garbage, zero, or below one block" {
	refuse 2 "bad value for --size" "${QUICK[@]}" --size 0 "$TD"
	refuse 2 "bad value for --size" "${QUICK[@]}" --size lots "$TD"
	refuse 2 "smaller than one 1 MiB block" "${QUICK[@]}" --size 512KiB "$TD"
}

@test "unknown profile, engine, format; planned features refused, not ignored" {
	refuse 2 "unknown profile 'fast'" "${QUICK[@]}" --profile fast "$TD"
	refuse 2 "unknown engine 'spdk'" "${QUICK[@]}" --engine spdk "$TD"
	refuse 2 "unknown format 'xml'" "${QUICK[@]}" --format xml "$TD"
	refuse 2 "bad value for --aggregate: 'max'" "${QUICK[@]}" --aggregate max "$TD"
	refuse 2 "bad value for --cv-threshold" "${QUICK[@]}" --cv-threshold ten "$TD"
	refuse 2 "--mix: the Mix test is not implemented yet" "${QUICK[@]}" --mix 70 "$TD"
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
	printf '# mine\nname = Mine\nsize = 16MiB\ncount = 1\ntime = 1\ninterval = 0\nwarmup = 0\ntest = RND4K Q2T1\n' > "$TD.cdm"
	run "$CDM" --quiet --profile "$TD.cdm" "$TD"
	rm -f "$TD.cdm"
	[ "$status" -eq 0 ]
	[[ "$output" == *"Profile: Mine"* ]]
	[[ "$output" == *"   Test: 16 MiB (x1)"* ]]
	[[ "$output" == *"Time: Measure 1 sec / Interval 0 sec "* ]]
	echo "$output" | grep -qE '^  RND    4KiB \(Q=  [12], T= 1\):'
	assert_clean "$TD"
}

@test "two targets are a usage error" {
	refuse 2 "one TARGET directory expected" "${QUICK[@]}" "$TD" "$TD"
}

@test "--output into a directory that does not exist fails before the run" {
	refuse 1 "$TD/no/such/r.txt: cannot create the report file" "${QUICK[@]}" --output "$TD/no/such/r.txt" "$TD"
}

@test "I/O buffers larger than memory are refused before the test file is written" {
	refuse 1 "SEQ64M Q1024T256 needs 16777216 MiB of I/O buffers" --quiet \
		--test "SEQ64M Q1024T256" --size 64MiB "$TD"
}
