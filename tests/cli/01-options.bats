#!/usr/bin/env bats
# --help, --version, --list-engines: what a user reads first.

load helpers

@test "--help lists every option of the CLI contract, with its default" {
	run "$CDM" --help
	[ "$status" -eq 0 ]
	for o in --profile --test --size --count --time --interval --warmup --mode \
		--mix --data --engine --buffered --format --output --comment --keep \
		--quiet --list-engines --list-profiles --help --version; do
		echo "$output" | grep -q -- "$o" || { echo "missing $o"; false; }
	done
	# every option that takes a value names its default
	[ "$(echo "$output" | grep -c 'default')" -ge 14 ]
	[[ "$output" == *"Usage: cdm [OPTIONS] [TARGET]"* ]]
}

@test "--version names the version and the engines built in" {
	run "$CDM" --version
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^cdm\ [0-9]+\.[0-9]+\.[0-9]+\ \(engines:.*sync.*null ]]
}

@test "--list-engines shows each engine, built in or not, and whether it works" {
	run "$CDM" --list-engines
	[ "$status" -eq 0 ]
	for e in io_uring libaio sync null; do
		echo "$output" | grep -qE "^$e +(yes|no) +(yes|no|-)" || { echo "no row for $e"; false; }
	done
	# exactly one engine is auto's choice, and it is not null
	[ "$(echo "$output" | grep -c 'used by auto')" -eq 1 ]
	if echo "$output" | grep -E '^null' | grep -q 'used by auto'; then false; fi
}

@test "an unknown option is a usage error (exit 2) pointing at --help" {
	run "$CDM" --frobnicate
	[ "$status" -eq 2 ]
	[[ "$output" == *"Try 'cdm --help'."* ]]
}
