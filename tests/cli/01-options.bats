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

@test "--version: the version alone first, then the engines and how cdm was built" {
	run "$CDM" --version
	[ "$status" -eq 0 ]
	# the first line is "cdm VERSION" alone, for scripts
	[[ "${lines[0]}" =~ ^cdm\ [0-9]+\.[0-9]+\.[0-9]+(-[0-9]+)?(-g[0-9a-f]{7,})?(-dirty)?$ ]]
	[[ "$output" == *$'\nengines: '*sync*null* ]]
	[[ "$output" =~ $'\n'compiler:\ (gcc|clang)\ [0-9] ]]
	[[ "$output" =~ $'\n'libc:\ . ]]
	[[ "$output" == *$'\nmpi: no '* ]]
	# io_uring and its liburing version go together
	if "$CDM" --list-engines | grep -qE '^io_uring +yes'; then
		[[ "$output" == *"engines: io_uring"* ]]
		[[ "$output" =~ $'\n'liburing:\ [0-9]+\.[0-9]+ ]]
	else
		[[ "$output" != *"liburing:"* ]]
	fi
	# static or dynamic, as file(1) reads the binary
	if command -v file >/dev/null; then
		case $(file -L "$CDM") in
		*"statically linked"*) [[ "$output" == *$'\nlinked: static'* ]] ;;
		*) [[ "$output" == *$'\nlinked: dynamic'* ]] ;;
		esac
	fi
}

@test "--version in a git checkout: git describe, or the Makefile's VERSION and the commit" {
	root="$BATS_TEST_DIRNAME/../.."
	command -v git >/dev/null && [ -e "$root/.git" ] || skip "not a git checkout"
	[ ! -e "$root/VERSION" ] || skip "a VERSION file (a release tarball) names the version"
	run "$CDM" --version
	v=${lines[0]#cdm }
	v=${v%-dirty}
	if tag=$(git -C "$root" describe --tags 2>/dev/null); then
		want=${tag#v}
	else
		want=$(sed -n 's/^VERSION *:= *//p' "$root/Makefile")-g$(git -C "$root" describe --always)
	fi
	# a binary older than HEAD is stale, not a wrong rule: make rebuilds it
	[ "$v" = "$want" ] || { echo "cdm says $v, the checkout is $want (run make)"; false; }
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

@test "--time, --interval and --warmup take fractions of a second: 0.5, 500ms, 1.5s" {
	run "$CDM" --help
	assert_success
	assert_output --partial "seconds per measured pass, 0.1-3600: 2, 0.5, 1.5s,"
	# one read test: no interval is waited, a pass and a warm-up of 0.5 s each
	run "$CDM" -q --engine null --size 16MiB --count 1 -t SEQ1M --mode read \
		--time 0.5 --warmup 500ms --interval 1.5s --save "$OD/r.json" "$TD"
	assert_success
	# CDM's Time line, with the decimals cdm ran (and its trailing space)
	assert_line "   Time: Measure 0.5 sec / Interval 1.5 sec "
	assert_equal "$(jq -c '.settings | [.time_s, .warmup_s, .interval_s]' "$OD/r.json")" "[0.5,0.5,1.5]"
	# the pass ran on the 0.5 s schedule (its length as scheduled, not a measured speed)
	assert_equal "$(jq '.tests[0].passes | length' "$OD/r.json")" 1
	# 1.5s as a pass, 0.1 (the shortest) as a warm-up; whole seconds print as before
	run "$CDM" -q --engine null --size 16MiB --count 1 -t SEQ1M --mode read \
		--time 0.1 --warmup 0.1 --interval 2 --save "$OD/s.json" "$TD"
	assert_success
	assert_line "   Time: Measure 0.1 sec / Interval 2 sec "
	assert_equal "$(jq -c '.settings | [.time_s, .warmup_s, .interval_s]' "$OD/s.json")" "[0.1,0.1,2]"
	grep -qx '    "interval_s": 2,' "$OD/s.json"
	assert_clean "$TD"
}
