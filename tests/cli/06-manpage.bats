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
	[ -f "$MANPAGE" ]
	page=$(render_manpage) || skip "$SKIP_WHY"
	[ -n "$page" ]
	run "$CDM" --help
	[ "$status" -eq 0 ]
	help=$output

	opts=$(echo "$help" | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u)
	# sanity: the help text really was parsed
	[ "$(echo "$opts" | wc -l)" -ge 20 ]
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
	[ -f "$MANPAGE" ]
	command -v groff >/dev/null 2>&1 ||
		skip "groff is not installed (apt-get install groff-base)"
	run sh -c 'groff -man -Tutf8 -ww "$1" 2>&1 >/dev/null' sh "$MANPAGE"
	[ "$status" -eq 0 ]
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
