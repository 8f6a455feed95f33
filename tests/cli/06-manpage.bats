#!/usr/bin/env bats
# docs/cdm.1: renders cleanly, and documents every option the binary has.

load helpers

MANPAGE="$BATS_TEST_DIRNAME/../../docs/cdm.1"

# render the man page as plain text on stdout (no bold/underline, ASCII
# hyphens, wide lines so that nothing is hyphenated across a line break);
# returns 1 with SKIP_WHY set when no renderer is installed
render_manpage() {
	if command -v groff >/dev/null 2>&1; then
		groff -man -Tutf8 -rLL=250n -rHY=0 -P-c -P-b -P-o -P-u "$MANPAGE" |
			LC_ALL=C sed 's/\xe2\x80\x90/-/g; s/\xe2\x88\x92/-/g'
	elif command -v man >/dev/null 2>&1; then
		MANWIDTH=250 MAN_KEEP_FORMATTING= man -l "$MANPAGE" 2>/dev/null |
			LC_ALL=C sed 's/.\x08//g; s/\xe2\x80\x90/-/g; s/\xe2\x88\x92/-/g'
	else
		SKIP_WHY="neither groff nor man is installed (apt-get install groff-base man-db)"
		return 1
	fi
}

@test "the man page documents every option that cdm --help lists" {
	assert [ -f "$MANPAGE" ]
	page=$(render_manpage) || skip "$SKIP_WHY"
	assert [ -n "$page" ]
	run "$CDM" --help
	assert_success
	help=$output

	opts=$(echo "$help" | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u)
	# sanity: the help text really was parsed
	assert [ "$(echo "$opts" | wc -l)" -ge 20 ]
	missing=
	for o in $opts; do
		# the whole option, not a prefix of a longer one
		echo "$page" | grep -qE -- "(^|[^a-z0-9-])$o([^a-z0-9-]|\$)" || missing="$missing $o"
	done
	if [ -n "$missing" ]; then
		echo "in cdm --help but not in docs/cdm.1:$missing"
		false
	fi

	# short forms too: "-p, --profile" in --help must read the same in the page
	missing=
	while read -r pair; do
		echo "$page" | grep -qF -- "$pair" || missing="$missing '$pair'"
	done < <(echo "$help" | grep -oE -- '^  -[a-zA-Z], --[a-z][a-z0-9-]*')
	if [ -n "$missing" ]; then
		echo "short forms in cdm --help but not in docs/cdm.1:$missing"
		false
	fi
}

@test "the man page renders without warnings" {
	assert [ -f "$MANPAGE" ]
	command -v groff >/dev/null 2>&1 ||
		skip "groff is not installed (apt-get install groff-base)"
	run sh -c 'groff -man -Tutf8 -ww "$1" 2>&1 >/dev/null' sh "$MANPAGE"
	assert_success
	if [ -n "$output" ]; then
		echo "groff warnings:"
		echo "$output"
		false
	fi
	# mandoc is stricter about macro usage; use it when it is there
	if command -v mandoc >/dev/null 2>&1; then
		run mandoc -T lint -W warning "$MANPAGE"
		if [ "$status" -ne 0 ] || [ -n "$output" ]; then
			echo "mandoc -T lint:"
			echo "$output"
			false
		fi
	fi
}

@test "the man page lists every subcommand and its options in its own section" {
	assert [ -f "$MANPAGE" ]
	page=$(render_manpage) || skip "$SKIP_WHY"
	run "$CDM" --help
	assert_success
	help=$output

	# the subcommands of the usage lines; each must be in the SYNOPSIS
	subs=$(echo "$help" | sed -n 's/^\(Usage:\)\{0,1\} *cdm \([a-z][a-z]*\) .*/\2/p' | sort -u)
	assert [ "$(echo "$subs" | wc -l)" -ge 5 ]
	synopsis=$(echo "$page" | sed -n '/^SYNOPSIS$/,/^DESCRIPTION$/p')
	assert [ -n "$synopsis" ]
	missing=
	for s in $subs; do
		echo "$synopsis" | grep -q "^ *cdm $s " || missing="$missing $s"
	done
	# and the options that do something else than a run
	for o in --list-engines --list-profiles --help --version; do
		echo "$synopsis" | grep -qE -- "(^|[^a-z-])$o([^a-z-]|\$)" || missing="$missing $o"
	done
	[ -z "$missing" ] || missing="not in the SYNOPSIS:$missing;"

	# every option of `cdm SUB --help`, long and short, in SUB's section
	# (merge is documented under SCALE-OUT)
	for s in $subs; do
		case $s in
		merge) sec=SCALE-OUT ;;
		*) sec=$(echo "$s" | tr a-z A-Z) ;;
		esac
		text=$(echo "$page" | awk -v s="$sec" '/^[A-Z][A-Z -]*$/ { on = ($0 == s) } on')
		if [ -z "$text" ]; then
			missing="$missing [no section $sec for cdm $s]"
			continue
		fi
		run "$CDM" "$s" --help
		assert_success
		opts=$(echo "$output" | grep -oE -- '^ +-[a-zA-Z], --[a-z][a-z0-9-]*|^ +--[a-z][a-z0-9-]*' |
			grep -oE -- '--?[a-zA-Z][a-z0-9-]*' | sort -u)
		assert [ -n "$opts" ]
		for o in $opts; do
			echo "$text" | grep -qE -- "(^|[^a-zA-Z0-9-])$o([^a-z0-9-]|\$)" ||
				missing="$missing $s:$o"
		done
	done
	if [ -n "$missing" ]; then
		echo "docs/cdm.1 lacks what cdm --help and cdm SUB --help list (SUB:option = not in SUB's section): $missing"
		false
	fi
}

@test "the man page documents every option of the option table in its command's section, short letters too" {
	page=$(render_manpage) || skip "$SKIP_WHY"
	missing=
	for s in "" compare import merge report sweep; do
		# the run's options under OPTIONS, merge's under SCALE-OUT
		case $s in
		"") sec=OPTIONS ;;
		merge) sec=SCALE-OUT ;;
		*) sec=$(echo "$s" | tr a-z A-Z) ;;
		esac
		text=$(echo "$page" | awk -v s="$sec" '/^[A-Z][A-Z -]*$/ { on = ($0 == s) } on')
		assert [ -n "$text" ]
		opts=$(table_options "$s")
		assert [ "$(echo "$opts" | wc -l)" -ge 5 ]
		for o in $opts; do
			echo "$text" | grep -qE -- "(^|[^a-zA-Z0-9-])$o([^a-z0-9-]|\$)" ||
				missing="$missing ${s:-cdm}:$o"
		done
		while read -r pair; do
			echo "$text" | grep -qF -- "$pair" || missing="$missing ${s:-cdm}:'$pair'"
		done < <(table_options "$s" short)
	done
	if [ -n "$missing" ]; then
		echo "in the option table (cdm --list-options=SUB) but not in SUB's section of docs/cdm.1:$missing"
		false
	fi
}
