#!/usr/bin/env bats
# The commands the documentation gives a reader to paste: every command of
# README.md's and docs/install.md's shell blocks is run by a test or said
# not to be, and why (tests/doc-commands.txt); the cdm examples of
# README.md and docs/output-formats.md run as written, each on the null
# engine with short passes appended (the same options given later win),
# so that each parses and makes the files the next one reads.  The set-up
# and build commands run in tests/slow/readme.bats and ship.bats.

load helpers

ROOT="$BATS_TEST_DIRNAME/../.."
LIST="$ROOT/tests/doc-commands.txt"
EXTRACT="$ROOT/tests/tools/doc-commands.awk"

# the list's lines: COMMAND<tab>WHERE, less its comments
listed() {
	grep -v '^#' "$LIST"
}

@test "every command of README.md's and docs/install.md's shell blocks is run by a test or listed as not run, with why" {
	run awk -f "$EXTRACT" "$ROOT/README.md" "$ROOT/docs/install.md"
	assert_success
	[ "${#lines[@]}" -gt 20 ]
	missing= stale= bad=
	while IFS= read -r c; do
		listed | cut -f1 | grep -qxF -- "$c" || missing="$missing"$'\n'"  $c"
	done <<< "$output"
	while IFS=$'\t' read -r c where; do
		grep -qxF -- "$c" <<< "$output" || stale="$stale"$'\n'"  $c"
		case $where in
		"not run: "?*) ;;
		tests/*": "?*)
			f=${where%%: *} name=${where#*: }
			grep -qF "@test \"$name\" {" "$ROOT/$f" 2>/dev/null ||
				bad="$bad"$'\n'"  $where"
			;;
		*) bad="$bad"$'\n'"  $c: '$where'" ;;
		esac
	done < <(listed)
	[ -z "$missing" ] || echo "in README.md or docs/install.md, not in tests/doc-commands.txt:$missing"
	[ -z "$stale" ] || echo "in tests/doc-commands.txt, in neither document:$stale"
	[ -z "$bad" ] || echo "no such test (FILE: NAME), or no reason given:$bad"
	[ -z "$missing$stale$bad" ]
}

# doc_setup - $TD as a reader's directory: ./cdm and cdm on PATH run $CDM,
# a run on the null engine's simulated device (200 us an I/O: its workers
# sleep instead of spinning a core each) with short passes (0.5 s, as
# QUICK's, a sweep point too: a pass of 0.1 s, then one of 0.3 s inside
# distcheck's make check beside the rest of make test, measured nothing,
# a worker not run that long on a loaded machine) after the example's own
# options; the source tree's tests/ and docs/img/ at hand; /mnt/ and
# /var/tmp/ moved under $TD (doc_script), their directories made
doc_setup() {
	mkdir -p "$TD/bin" "$TD/docs/img"
	ln -s "$ROOT/tests" "$TD/tests"
	cat > "$TD/bin/cdm" <<-EOF
	#!/bin/sh
	case \$1 in
	compare|import|report|merge) exec "$CDM" "\$@" ;;
	sweep) exec "$CDM" "\$@" -e null --null-device lat=200us --size 16MiB --time 0.5 --warmup 0 -q ;;
	esac
	# a start a few seconds off, not the example's minutes
	at=
	case " \$* " in *" --start-at "*) at="--start-at +2s" ;; esac
	exec "$CDM" "\$@" -e null --null-device lat=200us --size 16MiB --count 1 --time 0.5 --interval 0 --warmup 0 -q \$at
	EOF
	chmod +x "$TD/bin/cdm"
	cp "$TD/bin/cdm" "$TD/cdm"
}

# doc_script - stdin's commands with /mnt/ and /var/tmp/ under $TD, and
# every such directory made; the script on stdout
doc_script() {
	local s d
	s=$(sed -e "s#/mnt/#$TD/mnt/#g" -e "s#/var/tmp/#$TD/var/tmp/#g")
	for d in $(grep -oE "$TD/(mnt|var/tmp)/[A-Za-z0-9_./-]+" <<< "$s" | sort -u); do
		case $d in
		*.json) ;;
		*) mkdir -p "$d" ;;
		esac
	done
	printf 'set -e\n%s\n' "$s"
}

# run_listed NAME - the commands tests/doc-commands.txt gives to this
# file's test NAME, in order, as one script in $TD
run_listed() {
	listed | awk -F'\t' -v w="tests/cli/34-doc-commands.bats: $1" '$2 == w { print $1 }' |
		doc_script > "$OD/script.sh"
	[ -s "$OD/script.sh" ]
	cat "$OD/script.sh"
	run env PATH="$TD/bin:$PATH" bash -c "cd '$TD' && . '$OD/script.sh'"
}

@test "README.md's run, report and compare examples run as written (the null engine, short passes)" {
	command -v rsvg-convert >/dev/null || skip "rsvg-convert not installed (librsvg2-bin)"
	doc_setup
	run_listed "README.md's run, report and compare examples run as written (the null engine, short passes)"
	echo "$output"
	assert_success
	# what each made, for the one after it
	for f in docs/img/card.svg card.png post/bench.md post/img/bench.svg local.json san.json \
		nvme.txt nvme.json nvme.svg sweep.svg; do
		[ -s "$TD/$f" ] || { echo "not made: $f"; false; }
	done
	jq -e '.label == "SAN"' "$TD/san.json"
	# the sweep: each of its 2 tests read and written, up to 64 threads
	[ "$(grep -cE '^(RND8K|SEQ64K) Q1 (Read|Write)$' <<< "$output")" -eq 4 ]
	[ "$(grep -cE '^ +64 +1 ' <<< "$output")" -eq 4 ]
	# no test file left in any target
	[ -z "$(find "$TD" -name 'cdm-*.tmp')" ]
}

@test "README.md's --start-at and cdm merge example runs as written (the null engine, short passes)" {
	doc_setup
	run_listed "README.md's --start-at and cdm merge example runs as written (the null engine, short passes)"
	echo "$output"
	assert_success
	[ -s "$TD/$(hostname).json" ]
	assert_output --partial "Aggregate: 1 run x T1"
}

@test "docs/output-formats.md's cdm examples run as written (the null engine, short passes)" {
	doc_setup
	awk -f "$EXTRACT" "$ROOT/docs/output-formats.md" | doc_script > "$OD/script.sh"
	[ "$(grep -c '^cdm ' "$OD/script.sh")" -ge 10 ]
	run env PATH="$TD/bin:$PATH" bash -c "cd '$TD' && . '$OD/script.sh'"
	echo "$output"
	assert_success
	for f in c-uring.json c-libaio.json c-small.json direct.json buffered.json docs/img/compare.svg \
		m-a.json m-b.json; do
		[ -s "$TD/$f" ] || { echo "not made: $f"; false; }
	done
}

@test "docs/install.md's package line installs every Build-Depends of debian/control" {
	# the Build-Depends field, its names less versions and build profiles
	want=$(sed -n '/^Build-Depends:/,/^[A-Z][A-Za-z-]*:/p' "$ROOT/debian/control" |
		sed -e '$d' -e 's/^Build-Depends://' | tr ',' '\n' |
		sed -e 's/[(<[].*//' -e 's/[[:space:]]//g' -e 's/^debhelper-compat$/debhelper/' |
		grep . | sort -u)
	[ "$(wc -l <<< "$want")" -gt 10 ]
	line=$(awk -f "$EXTRACT" "$ROOT/docs/install.md" | grep 'apt-get install -y dpkg-dev ')
	have=$(tr ' ' '\n' <<< "${line#apt-get install -y }" | sort -u)
	missing=$(comm -23 <(echo "$want") <(echo "$have"))
	[ -z "$missing" ] || { echo "Build-Depends that docs/install.md's line lacks:" $missing; false; }
}
