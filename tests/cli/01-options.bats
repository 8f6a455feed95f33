#!/usr/bin/env bats
# --help, --version, --list-engines: what a user reads first.

load helpers

bats_require_minimum_version 1.5.0      # run --separate-stderr

@test "--help lists every option of the CLI contract, with its default" {
	run "$CDM" --help
	assert_success
	for o in --profile --test --size --count --time --interval --warmup --mode \
		--mix --data --engine --buffered --format --output --comment --keep \
		--quiet --list-engines --list-profiles --help --version; do
		assert_output --partial -- "$o"
	done
	# every option that takes a value names its default
	assert [ "$(echo "$output" | grep -c 'default')" -ge 14 ]
	assert_output --partial "Usage: cdm [OPTIONS] [TARGET]"
}

@test "--help of cdm and of each subcommand lists exactly the options of the table, short letters too" {
	for sub in "" compare import merge report sweep; do
		want=$(table_options "$sub")
		assert [ "$(echo "$want" | wc -l)" -ge 5 ]
		run "$CDM" $sub --help
		assert_success
		# the option lines: "  -s, --size SIZE ...", "      --qd LIST ..."
		got=$(echo "$output" | sed -n 's/^ \{1,\}\(-[A-Za-z], \)\{0,1\}\(--[a-z][a-z-]*\).*/\2/p' | sort -u)
		echo "== cdm ${sub:+$sub }--help (<: in the table, not in --help; >: the other way)"
		diff <(echo "$want") <(echo "$got")
		got=$(echo "$output" | grep -oE -- '^ +-[a-zA-Z], --[a-z][a-z0-9-]*' | sed 's/^ *//' | sort -u)
		diff <(table_options "$sub" short) <(echo "$got")
	done
	# one meaning per short letter: -s is --size wherever it exists
	all=$(for sub in "" compare import merge report sweep; do table_options "$sub" short; done | sort -u)
	assert_equal "$(echo "$all" | cut -c1-2 | uniq -d)" ""
	# the table itself is hidden, and a command it lacks is refused
	run "$CDM" --help
	refute_output --partial "--list-options"
	run "$CDM" --list-options=nonsense
	assert_failure 2
	assert_output --partial "bad value for --list-options: 'nonsense'"
}

@test "--version: the version alone first, then the engines and how cdm was built" {
	run "$CDM" --version
	assert_success
	# the first line is "cdm VERSION" alone, for scripts
	assert_line --index 0 --regexp '^cdm [0-9]+\.[0-9]+\.[0-9]+(-[0-9]+)?(-g[0-9a-f]{7,})?(-dirty)?$'
	assert_regex "$output" $'\n''engines: .*sync.*null'
	assert_regex "$output" $'\n''compiler: (gcc|clang) [0-9]'
	assert_regex "$output" $'\n''libc: .'
	assert_output --partial $'\nmpi: no '
	# io_uring and its liburing version go together
	if "$CDM" --list-engines | grep -qE '^io_uring +yes'; then
		assert_output --partial "engines: io_uring"
		assert_regex "$output" $'\n''liburing: [0-9]+\.[0-9]+'
	else
		refute_output --partial "liburing:"
	fi
	# static or dynamic, as file(1) reads the binary
	if command -v file >/dev/null; then
		case $(file -L "$CDM") in
		*"statically linked"*) assert_output --partial $'\nlinked: static' ;;
		*) assert_output --partial $'\nlinked: dynamic' ;;
		esac
	fi
}

@test "--version in a git checkout: the version make was given, else git describe, else VERSION and the commit" {
	root="$BATS_TEST_DIRNAME/../.."
	command -v git >/dev/null && [ -e "$root/.git" ] || skip "not a git checkout"
	[ ! -e "$root/VERSION" ] || skip "a VERSION file (a release tarball) names the version"
	run "$CDM" --version
	v=${lines[0]#cdm }
	v=${v%-dirty}
	if [ -n "${CDM_VERSION:-}" ]; then
		# the build was told its version (make CDM_VERSION=..., as
		# debian/rules does for the package's make check): that one
		want=$CDM_VERSION
	elif tag=$(git -C "$root" describe --tags 2>/dev/null); then
		want=${tag#v}
	else
		want=$(sed -n 's/^VERSION *:= *//p' "$root/Makefile")-g$(git -C "$root" describe --always)
	fi
	# a binary older than HEAD is stale, not a wrong rule: make rebuilds it
	assert_equal "$v" "$want" || { echo "(a binary older than the checkout: run make)"; false; }
}

@test "--list-engines shows each engine, built in or not, and whether it works" {
	run "$CDM" --list-engines
	assert_success
	for e in io_uring libaio sync null; do
		assert_line --regexp "^$e +(yes|no) +(yes|no|-)"
	done
	# exactly one engine is auto's choice, and it is not null
	assert_equal "$(echo "$output" | grep -c 'used by auto')" 1
	refute_line --regexp '^null.*used by auto'
}

@test "an unknown option is a usage error (exit 2) pointing at --help" {
	run "$CDM" --frobnicate
	assert_failure 2
	assert_output --partial "Try 'cdm --help'."
}

# issue 25, item 9: "cdm --profil peak" ran a two-minute Peak run and
# nothing said that --profil was --profile.  getopt_long's abbreviations
# stay, as in GNU tools; each is named with its whole option, and one
# that takes an argument keeps it ("--labe merge" is a label, not a
# misplaced subcommand).  The null engine with a service time: its workers
# sleep, so no run here is CPU-bound and stderr has no note of that
NULLDEV=(--engine null --null-device lat=1ms)
taken_as() {
	grep ' is taken as ' <<< "$stderr" || true
}
@test "an abbreviated option runs as the whole one and a note names it; its argument stays its own" {
	run --separate-stderr "$CDM" "${NULLDEV[@]}" --profil peak --tim 0.1 --coun=1 --interv 0 \
		--warmu 0 --siz 16MiB --mod read --qui "$TD"
	assert_success
	# the notes on abbreviations (a loaded machine may add its own, such
	# as cdm's pause note: not this test's subject)
	assert_equal "$(taken_as)" "cdm: note: --profil is taken as --profile
cdm: note: --tim is taken as --time
cdm: note: --coun is taken as --count
cdm: note: --interv is taken as --interval
cdm: note: --warmu is taken as --warmup
cdm: note: --siz is taken as --size
cdm: note: --mod is taken as --mode
cdm: note: --qui is taken as --quiet"
	assert_line "Profile: Peak"
	assert_line --regexp '^   Time: Measure 0.1 sec / Interval 0 sec'
	# whole names and short letters: no note
	run --separate-stderr "$CDM" "${NULLDEV[@]}" -p peak --time 0.1 --count 1 --interval 0 \
		--warmup 0 -s 16MiB --mode read -q "$TD"
	assert_success
	assert_equal "$(taken_as)" ""
	# an argument that looks like an option with a value is the argument
	run --separate-stderr "$CDM" "${NULLDEV[@]}" --comment --a=b -t "RND4K Q1T1" --mode read \
		--time 0.1 --count 1 --interval 0 --warmup 0 --size 16MiB -q "$TD"
	assert_success
	assert_equal "$(taken_as)" ""
	assert_line "Comment: --a=b"
	run --separate-stderr "$CDM" "${NULLDEV[@]}" --comm --a=b -t "RND4K Q1T1" --mode read \
		--time 0.1 --count 1 --interval 0 --warmup 0 --size 16MiB -q "$TD"
	assert_success
	assert_equal "$(taken_as)" "cdm: note: --comm is taken as --comment"
	# the argument of an abbreviated option is not a subcommand
	run --separate-stderr "$CDM" --labe merge "${NULLDEV[@]}" -t "RND4K Q1T1" --mode read \
		--time 0.1 --count 1 --interval 0 --warmup 0 --size 16MiB -q "$TD"
	assert_success
	assert_equal "$(taken_as)" "cdm: note: --labe is taken as --label"
	assert_line "Comment: merge"
	# a subcommand's options too, and an ambiguous one stays getopt's error
	"$CDM" "${NULLDEV[@]}" -t "RND4K Q1T1" --mode read --time 0.1 --count 1 --interval 0 \
		--warmup 0 --size 16MiB -q --save "$OD/r.json" "$TD" > /dev/null
	run --separate-stderr "$CDM" report --form json "$OD/r.json"
	assert_success
	assert_equal "$(taken_as)" "cdm: note: --form is taken as --format"
	# the C library's own words (glibc names the possibilities, musl not)
	run "$CDM" --t x "$TD"
	assert_failure 2
	assert_line --index 0 --regexp "^cdm: option.* ambiguous"
	assert_clean "$TD"
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
