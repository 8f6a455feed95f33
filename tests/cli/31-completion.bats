#!/usr/bin/env bats
# Shell completion: completions/cdm.bash (bash, through bash-completion's
# own helpers) and completions/_cdm (zsh).  The candidates offered are
# checked against what the binary itself accepts: its --help, its
# --list-engines and --list-profiles, and the format registry's own list.

load helpers

COMP_DIR="$BATS_TEST_DIRNAME/../../completions"
BASH_COMPLETION=/usr/share/bash-completion/bash_completion

# skip the test unless bash-completion (or zsh) is installed; called by
# the test itself, as a skip inside $(...) would end only the subshell and
# leave the test to fail on an empty list
need_bash_completion() {
	[ -f "$BASH_COMPLETION" ] || skip "bash-completion not installed (apt-get install bash-completion)"
}
need_zsh() {
	command -v zsh > /dev/null || skip "zsh not installed (apt-get install zsh)"
}

# bash_complete WORD... - the candidates bash offers for the last WORD of
# the command line WORD..., one per line (run in $OD).  Without bats's
# DEBUG trap, which it runs before every command of a test, and so of
# bash_completion's thousands as they are sourced: 0.4 s a call, not 0.02
bash_complete() {
	[ -f "$BASH_COMPLETION" ] || { echo "bash-completion not installed" >&2; return 1; }
	(
		trap - DEBUG
		cd "$OD" || exit 1
		PATH="$(dirname "$CDM"):$PATH"
		# shellcheck disable=SC1090
		source "$BASH_COMPLETION"
		source "$COMP_DIR/cdm.bash"
		COMP_WORDS=("$@")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMP_LINE="${COMP_WORDS[*]}"
		COMP_POINT=${#COMP_LINE}
		COMPREPLY=()
		_cdm cdm "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		printf '%s\n' "${COMPREPLY[@]}"
	) | sort -u
}

# bash_typed WORD... - as bash_complete, but with cdm typed as the first
# WORD (./cdm, /path/to/cdm, ~/bin/cdm) and not on PATH, and the completion
# found the way bash finds it: the compspec of the command word, else that
# of its last part after a '/', else the default one, bash-completion's
# loader, which sources completions/cdm.bash (from $OD/bc, as from
# ~/.local/share/bash-completion) and says to look again (124)
bash_typed() {
	[ -f "$BASH_COMPLETION" ] || { echo "bash-completion not installed" >&2; return 1; }
	mkdir -p "$OD/bc/completions"
	ln -sf "$COMP_DIR/cdm.bash" "$OD/bc/completions/cdm"
	(
		trap - DEBUG
		cd "$OD" || exit 1
		PATH=/usr/bin:/bin
		BASH_COMPLETION_USER_DIR=$OD/bc
		# shellcheck disable=SC1090
		source "$BASH_COMPLETION"
		spec() { complete -p -- "$1" 2> /dev/null || complete -p -- "${1##*/}" 2> /dev/null; }
		local s fn st=0
		if ! s=$(spec "$1"); then
			_completion_loader "$1" || st=$?
			[ "$st" = 124 ] || { echo "the loader found no completion for $1" >&2; exit 1; }
			s=$(spec "$1") || { echo "no compspec for $1 after loading" >&2; exit 1; }
		fi
		fn=$(sed -n 's/.* -F \([^ ]*\) .*/\1/p' <<< "$s")
		[ "$fn" = _cdm ] || { echo "$1 is completed by '$s'" >&2; exit 1; }
		COMP_WORDS=("$@")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMP_LINE="${COMP_WORDS[*]}"
		COMP_POINT=${#COMP_LINE}
		COMPREPLY=()
		"$fn" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		printf '%s\n' "${COMPREPLY[@]}"
	) | sort -u
}

# offered WORD LIST - WORD is a line of LIST (the candidates); when not,
# say so and print them
offered() {
	grep -qx -- "$1" <<< "$2" && return 0
	printf 'not offered: %s\ncandidates:\n%s\n' "$1" "$2"
	return 1
}

# not_offered WORD LIST - WORD is not a line of LIST (a plain "! grep" cannot
# fail a test in bats 1.8)
not_offered() {
	if grep -qx -- "$1" <<< "$2"; then
		echo "offered, and should not be: $1"
		return 1
	fi
}

# the long options of a --help text: "--name" tokens at the start of an option line
help_options() {
	"$CDM" "$@" --help | sed -n 's/^ \{1,\}\(-[A-Za-z], \)\{0,1\}\(--[a-z][a-z-]*\).*/\2/p' | sort -u
}

# the values of --format the registry takes, from its own error message
registry_formats() {
	"$CDM" "$@" --format '?' x 2>&1 | sed -n "s/.*bad value for --format: '?' (\(.*\))$/\1/p" |
		tr -d ',' | tr ' ' '\n' | grep -v '^$' | sort -u
}

@test "bash: every long option of cdm and of each subcommand is offered, and only those" {
	need_bash_completion
	for sub in "" compare import merge report sweep; do
		# the option table's (01-options.bats holds --help to it)
		want=$(table_options "$sub")
		assert [ -n "$want" ]
		got=$(bash_complete cdm $sub --)
		echo "== ${sub:-cdm}"; diff <(echo "$want") <(echo "$got")
	done
	# a prefix narrows it
	assert_equal "$(bash_complete cdm --eng)" "--engine"
}

@test "bash: values of --engine, --format, --profile, --aggregate, --mode, --data, --metric equal the binary's" {
	need_bash_completion
	want=$( { echo auto; "$CDM" --list-engines | awk 'NR > 1 { print $1 }'; } | sort -u)
	assert_equal "$(bash_complete cdm -e '')" "$want"
	assert_equal "$(bash_complete cdm --engine '')" "$want"
	assert_equal "$(bash_complete cdm -f '')" "$(registry_formats)"
	assert_equal "$(bash_complete cdm report -f '')" "$(registry_formats report)"
	assert_equal "$(bash_complete cdm merge --format '')" "$(registry_formats merge)"
	assert_equal "$(bash_complete cdm import -f '')" "$(registry_formats import)"
	assert_equal "$(bash_complete cdm compare -f '')" "$(registry_formats compare)"
	# every built-in profile, and a profile file beside them
	touch "$OD/mine.cdm" "$OD/other.txt"
	profiles=$("$CDM" --list-profiles | sed -n 's/^\([a-z0-9][a-z0-9-]*\): .*/\1/p' | sort -u)
	assert [ "$(echo "$profiles" | wc -l)" -ge 12 ]
	got=$(bash_complete cdm -p '')
	for p in $profiles mine.cdm; do offered "$p" "$got"; done
	not_offered other.txt "$got"
	assert_equal "$(bash_complete cdm --aggregate '')" "$(printf '%s\n' best mean median)"
	assert_equal "$(bash_complete cdm --mode '')" "$(printf '%s\n' all mix read write)"
	assert_equal "$(bash_complete cdm sweep --mode '')" "$(printf '%s\n' all read write)"
	assert_equal "$(bash_complete cdm --data '')" "$(printf '%s\n' random zero)"
	assert_equal "$(bash_complete cdm compare --metric '')" "$(printf '%s\n' iops latency mb_s)"
	# each value is one the binary takes: a run refuses none of them at parse time
	for e in $want; do
		run "$CDM" --engine "$e" --mode nonsense "$TD"
		refute_output --partial "--engine"
	done
}

@test "bash: TARGET is a directory or a block device, the subcommands first; results are JSON or reports" {
	need_bash_completion
	mkdir "$OD/dir"
	touch "$OD/a.json" "$OD/b.txt" "$OD/c.bin"
	got=$(bash_complete cdm '')
	for w in compare import merge report sweep dir; do offered "$w" "$got"; done
	not_offered a.json "$got"
	not_offered c.bin "$got"
	# a block device under /dev, when there is one
	dev=$(find /dev -maxdepth 1 -type b | head -1)
	if [ -n "$dev" ]; then
		offered "$dev" "$(bash_complete cdm "${dev%?}")"
	fi
	# a subcommand is only the first word
	not_offered compare "$(bash_complete cdm -q '')"
	for sub in compare report; do
		got=$(bash_complete cdm $sub '')
		offered a.json "$got"
		offered b.txt "$got"
		not_offered c.bin "$got"
	done
	got=$(bash_complete cdm merge '')
	offered a.json "$got"
	not_offered b.txt "$got"
	got=$(bash_complete cdm import '')
	offered b.txt "$got"
	not_offered a.json "$got"
	got=$(bash_complete cdm --save '')
	offered a.json "$got"
	not_offered b.txt "$got"
	# -s is --size wherever it exists; cdm import has none (--save)
	offered a.json "$(bash_complete cdm import --save '')"
	offered 1GiB "$(bash_complete cdm -s '')"
	offered 1GiB "$(bash_complete cdm sweep -s '')"
}

# issue 25, item 9: the completion asked "$1" --help, and cdm typed by a
# path with a tilde (~/bin/cdm) got no profiles; cdm not on PATH and typed
# as ./cdm, /path/to/cdm or ~/bin/cdm gets every option and value
@test "bash: cdm typed by its path, not on PATH, gets its options, its subcommands' and its profiles" {
	need_bash_completion
	ln -s "$(cd "$(dirname "$CDM")" && pwd)/$(basename "$CDM")" "$OD/cdm"
	mkdir -p "$OD/home/bin"
	ln -s "$OD/cdm" "$OD/home/bin/cdm"
	profiles=$("$CDM" --list-profiles | sed -n 's/^\([a-z0-9][a-z0-9-]*\): .*/\1/p' | sort -u)
	for typed in ./cdm "$OD/cdm" "~/bin/cdm"; do
		echo "== $typed"
		got=$(HOME=$OD/home bash_typed "$typed" --)
		diff <(table_options) <(echo "$got")
		got=$(HOME=$OD/home bash_typed "$typed" sweep --)
		diff <(table_options sweep) <(echo "$got")
		got=$(HOME=$OD/home bash_typed "$typed" -p '')
		for p in $profiles; do offered "$p" "$got"; done
		assert_equal "$(HOME=$OD/home bash_typed "$typed" --eng)" --engine
	done
}

@test "bash: the options the completion names as taking a value are options cdm has" {
	all=$(for sub in "" compare import merge report sweep; do help_options $sub; done | sort -u)
	# every long option in a case pattern of the completion script
	named=$(grep -o -- '--[a-z][a-z-]*' "$COMP_DIR/cdm.bash" | sort -u)
	for o in $named; do
		grep -qx -- "$o" <<< "$all" || fail "the completion names $o, which cdm lacks"
	done
}

# zsh_complete LINE... - type each LINE<Tab> in one zsh, run in $OD (one
# compinit for them all); what it listed in $OD/zsh.lists, for zsh_listing
zsh_complete() {
	command -v zsh > /dev/null || { echo "zsh not installed" >&2; return 1; }
	(cd "$OD" && zsh -f "$BATS_TEST_DIRNAME/../tools/zsh-complete.zsh" "$COMP_DIR" \
		"$(cd "$(dirname "$CDM")" && pwd)" "$@") > "$OD/zsh.lists"
}

# zsh_listing LINE - the candidates zsh listed for LINE<Tab> (zsh_complete)
zsh_listing() {
	awk -v l="# $1" '$0 == l { on = 1; next } /^# / { on = 0 } on' "$OD/zsh.lists" | sort -u
}

@test "zsh: every long option of cdm and of each subcommand is offered, and only those" {
	need_zsh
	subs=("" compare import merge report sweep)
	typed=()
	for sub in "${subs[@]}"; do typed+=("cdm ${sub:+$sub }--"); done
	for sub in "${subs[@]:1}"; do typed+=("cdm $sub -"); done
	zsh_complete "${typed[@]}"
	for sub in "${subs[@]}"; do
		# the option table's (01-options.bats holds --help to it)
		want=$(table_options "$sub")
		assert [ -n "$want" ]
		got=$(zsh_listing "cdm ${sub:+$sub }--" | grep -- '^--[a-z]' || true)
		echo "== ${sub:-cdm}"; diff <(echo "$want") <(echo "$got")
		# and the short letters: the table's, the same option in every command
		[ -z "$sub" ] && continue       # cdm's own: read from its --help by _arguments --
		want=$(table_options "$sub" short | cut -c1-2 | sort)
		got=$(zsh_listing "cdm $sub -" | grep -- '^-[A-Za-z]$' | sort || true)
		echo "== $sub -"; diff <(echo "$want") <(echo "$got")
	done
}

# the same for zsh, whose completion asks $words[1]: cdm typed by its path
# and not on PATH gets its options and profiles
@test "zsh: cdm typed by its path, not on PATH, gets its options and profiles" {
	need_zsh
	ln -s "$(cd "$(dirname "$CDM")" && pwd)/$(basename "$CDM")" "$OD/cdm"
	mkdir -p "$OD/home/bin"
	ln -s "$OD/cdm" "$OD/home/bin/cdm"
	(cd "$OD" && HOME=$OD/home zsh -f "$BATS_TEST_DIRNAME/../tools/zsh-complete.zsh" "$COMP_DIR" \
		/nonexistent "./cdm --" "$OD/cdm sweep --" "~/bin/cdm -p ") > "$OD/zsh.lists"
	got=$(zsh_listing "./cdm --" | grep -- '^--[a-z]' || true)
	diff <(table_options) <(echo "$got")
	got=$(zsh_listing "$OD/cdm sweep --" | grep -- '^--[a-z]' || true)
	diff <(table_options sweep) <(echo "$got")
	got=$(zsh_listing "~/bin/cdm -p ")
	for p in default nvme cdm6 orion-simple; do offered "$p" "$got"; done
}

@test "zsh: engines, formats, profiles, subcommands and result files" {
	need_zsh
	mkdir "$OD/dir"
	touch "$OD/a.json" "$OD/b.txt" "$OD/c.bin"
	zsh_complete 'cdm -e ' 'cdm --format ' 'cdm -p ' 'cdm ' 'cdm compare ' 'cdm compare --metric '
	got=$(zsh_listing 'cdm -e ')
	for e in auto io_uring libaio sync null; do offered "$e" "$got"; done
	got=$(zsh_listing 'cdm --format ')
	for f in $(registry_formats); do offered "$f" "$got"; done
	got=$(zsh_listing 'cdm -p ')
	for p in default nvme cdm6 orion-simple; do offered "$p" "$got"; done
	got=$(zsh_listing 'cdm ')
	for w in compare import merge report sweep dir/; do offered "$w" "$got"; done
	got=$(zsh_listing 'cdm compare ')
	offered a.json "$got"
	offered b.txt "$got"
	not_offered c.bin "$got"
	got=$(zsh_listing 'cdm compare --metric ')
	for m in mb_s iops latency; do offered "$m" "$got"; done
}
