#!/usr/bin/env bats
# CrystalDiskMark text reports: `cdm compare` takes them beside cdm's JSON
# in any mix and order, `cdm import` turns them into cdm JSON (and the
# compare of that JSON is the compare of the report), and what is not a
# report gets one line naming the file and the line.  The reports are
# tests/fixtures/cdm-reports/ (real ones; their first line, "# source:",
# says where each comes from: a note before the report, which the reader
# skips, so they are read as stored; report() cuts it off where a test
# compares the report line for line).

load helpers

FIX="$BATS_TEST_DIRNAME/../fixtures/cdm-reports"

# runs on the null engine's simulated device: passes of 0.2 s (a figure
# from every pass, however loaded the machine)
NULLRUN=(--size 16MiB --count 1 --time 0.2 --interval 0 --warmup 0 --quiet
	--engine null --null-service-us 200)

# report NAME - the fixture NAME as published (without its "# source:"
# line) in $OD/NAME; prints the path
report() {
	tail -n +2 "$FIX/$1" > "$OD/$1"
	echo "$OD/$1"
}

# a cdm run of CDM 8's Default tests on the null engine, made once for the
# file and only read by its tests (each takes a copy: cdm_run)
setup_file() {
	local td
	td=$(mktemp -d "$BATS_FILE_TMPDIR/td.XXXXXX")
	"${RT[@]}" "$CDM" "${NULLRUN[@]}" --label local --save "$BATS_FILE_TMPDIR/run.json" "$td" > /dev/null ||
		{ echo "setup_file: the null-engine run for the file's tests failed" >&2; return 1; }
	rm -rf "$td"
}

# cdm_run - that run, as $OD/run.json
cdm_run() {
	cp "$BATS_FILE_TMPDIR/run.json" "$OD/run.json"
}

@test "every report as stored, its '# source:' note first, compares with a cdm run, in either order, and imports" {
	cdm_run
	for f in "$FIX"/*.txt; do
		name=$(basename "$f")
		head -1 "$f" | assert_grep '^# source: ' -
		r=$f
		run "$CDM" import "$r"
		echo "$name: import: status $status"
		echo "$output"
		assert_success
		# the note is no part of the report: the same as the report alone
		assert_equal "$output" "$("$CDM" import "$(report "$name")" 2>&1)"
		run "$CDM" compare "$r" "$OD/run.json"
		echo "$name: status $status"
		echo "$output"
		assert_success
		# the report's section heads: its label, then local
		assert_line --regexp '^\[Read\] .* local ratio$'
		# the tests both have: a figure each and a ratio (RND4K Q1T1 is in every report)
		assert_line --regexp '^  RND    4KiB \(Q=  1, T= 1\): +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +[0-9.<]+x$'
		assert_line --regexp 'CrystalDiskMark.* report'
		# no figure of the report is a 0
		refute_line --regexp ' 0\.000( |$)'
		run "$CDM" compare "$OD/run.json" "$r"
		assert_success
		assert_line --regexp '^  RND    4KiB \(Q=  1, T= 1\): +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +[0-9.<]+x$'
	done
}

@test "a report's figures are the text's: cdm8 nvme against itself and against a cdm run" {
	r=$(report cdm8-default-nvme-1.txt)
	cdm_run
	run "$CDM" compare "$r" "$OD/run.json"
	assert_success
	echo "$output"
	assert_line --regexp '^  SEQ    1MiB \(Q=  8, T= 1\): +804\.157 +[0-9.]+ +[0-9.<]+x$'
	assert_line --regexp '^  RND    4KiB \(Q=  1, T= 1\): +144\.672 +[0-9.]+ +[0-9.<]+x$'
	assert_output --partial "  1: Crucial P2 2TB @ PCIe 2.0 x2  2021/06/26 15:42:37 (local time)  G: 0% (0/1863GiB)  CrystalDiskMark 8.0.1 x64 report, 1 GiB (x5), 5 s"
	run "$CDM" compare --metric iops "$r" "$r"
	assert_line --regexp '^  RND    4KiB \(Q= 32, T= 1\): +104650\.4 +104650\.4 +1\.00x$'
	run "$CDM" compare --metric latency "$r" "$r"
	assert_line --regexp '^  SEQ    1MiB \(Q=  8, T= 1\): +10402\.77 +10402\.77 +1\.00x$'
}

@test "cdm import --save, then compare: the same output as with the report, in any mix and order" {
	cdm_run
	for f in "$FIX"/*.txt; do
		name=$(basename "$f" .txt)
		r=$(report "$name.txt")
		run "$CDM" import "$r" --save "$OD/$name.json"
		echo "$name: $output"
		assert_success
		refute_output        # --save alone prints nothing
		assert_grep '"schema_version": 3,' "$OD/$name.json"
		assert_grep '"kind": "crystaldiskmark"' "$OD/$name.json"
		"$CDM" compare "$r" "$OD/run.json" > "$OD/a.txt" 2>&1
		"$CDM" compare "$OD/$name.json" "$OD/run.json" > "$OD/b.txt" 2>&1
		diff "$OD/a.txt" "$OD/b.txt"
		"$CDM" compare "$OD/run.json" "$r" "$(report cdm7-default-sata-1.txt)" > "$OD/a.txt" 2>&1
		"$CDM" compare "$OD/run.json" "$OD/$name.json" "$OD/cdm7-default-sata-1.txt" > "$OD/b.txt" 2>&1
		diff "$OD/a.txt" "$OD/b.txt"
		"$CDM" compare --format markdown "$r" "$OD/run.json" > "$OD/a.txt" 2>&1
		"$CDM" compare --format markdown "$OD/$name.json" "$OD/run.json" > "$OD/b.txt" 2>&1
		diff "$OD/a.txt" "$OD/b.txt"
	done
	# the JSON is valid JSON with the report's figures
	command -v jq > /dev/null || skip "jq is not installed"
	assert_equal "$(jq '.tests[0].reported.mb_s' "$OD/cdm8-default-nvme-1.json")" "804.157"
	assert_equal "$(jq '.tests[0].reported.lat_mean_us' "$OD/cdm6-default-sdcard-1.json")" "null"
	assert_equal "$(jq -r '.source.date_text' "$OD/cdm8-default-sata-x86-1.json")" "2021/06/23 0:05:57"
	assert_equal "$(jq '.tests[0].passes | length' "$OD/cdm7-default-hdd-1.json")" "0"
}

@test "cdm import -s is not --save: a short letter means one option in every command (-s is --size)" {
	r=$(report cdm8-default-nvme-1.txt)
	run "$CDM" import -s "$OD/r.json" "$r"
	assert_failure 2
	assert_line --index 0 "cdm: invalid option -- 's'"
	assert_line --index 1 "Try 'cdm import --help'."
	assert [ ! -e "$OD/r.json" ]
	run "$CDM" import --save "$OD/r.json" "$r"
	assert_success
	assert [ -s "$OD/r.json" ]
}

# layout_of NAME - the --format of a fixture's own layout: cdm6, cdm7 or cdm (8.x, 9.x)
layout_of() {
	case $1 in
	cdm6-*) echo cdm6 ;;
	cdm7-*) echo cdm7 ;;
	*) echo cdm ;;
	esac
}

@test "every report imported and printed in its own layout is the report, line for line, but for the lines naming the program" {
	for f in "$FIX"/*.txt; do
		name=$(basename "$f")
		fmt=$(layout_of "$name")
		r=$(report "$name")
		run "$CDM" import --format "$fmt" "$r"
		assert_success
		"$CDM" import --format "$fmt" "$r" > "$OD/got.txt"
		tr -d '\r' < "$r" > "$OD/want.txt"
		# how each ends: CDM 6 with two spaces and no newline (the fixture's
		# copy added one, its source line says), CDM 7 and 8 with a newline
		# (cdm8-default-sata-2's copy lost it)
		if head -1 "$f" | grep -q 'no newline'; then
			assert_equal "$(tail -c 3 "$OD/got.txt" | od -An -c | tr -s ' ')" " \n "
		else
			assert_equal "$(tail -c 1 "$OD/got.txt" | od -An -c | tr -d ' ')" '\n'
		fi
		sed -i '$a\' "$OD/got.txt" "$OD/want.txt"
		# the product and credit lines name cdm and the report, never CDM's author
		sed -n 2p "$OD/got.txt" | assert_grep '^cdm .*: a CrystalDiskMark.* report, imported$' -
		sed -n 3p "$OD/got.txt" | assert_grep 'cdm - disk benchmark for Linux - MIT License$' -
		sed -i '2,3d' "$OD/got.txt"
		if sed -n 2p "$OD/want.txt" | grep -q '^CrystalDiskMark '; then
			sed -i '2,3d' "$OD/want.txt"
		fi
		echo "== $name ($fmt)"
		if [ "$name" = cdm8-real-partial-1.txt ]; then
			# trimmed by its poster: the header, and the footer lines it
			# lacks, each saying unknown (Mode: states no mark)
			run diff "$OD/want.txt" "$OD/got.txt"
			echo "$output"
			assert_output "0a1,5
> ------------------------------------------------------------------------------
> ------------------------------------------------------------------------------
> * MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]
> * KB = 1000 bytes, KiB = 1024 bytes
> 
10a16,19
>    Mode:
>    Time: Measure unknown / Interval unknown 
>    Date: unknown
>      OS: unknown"
		else
			diff "$OD/want.txt" "$OD/got.txt"
		fi
	done
}

@test "a CDM 6 report with a CDM 7 one: the tests differ, warned about on top" {
	run "$CDM" compare "$(report cdm6-default-sdcard-1.txt)" "$(report cdm7-default-nvme-1.txt)"
	echo "$output"
	assert_success
	assert_line --index 0 "cdm: warning: the runs differ in tests: their figures may not be comparable"
	assert_output --partial "Warning: the runs were measured with different settings"
	assert_output --partial "  tests: cdm6-default-sdcard-1 8 tests, cdm7-default-nvme-1 8 tests (2 in common)"
	# what neither report states (engine) is not warned about, nor the Measure
	# time both ran with (a fixed 5 s in CDM 6 and 7, which print none)
	refute_output --partial "  engine:"
	refute_output --partial "  time:"
	assert_line --regexp '^  SEQ  128KiB \(Q= 32, T= 1\): +91\.559 +missing$'
	assert_line --regexp '^  RND    4KiB \(Q=  1, T= 1\): +5\.297 +47\.327 +8\.93x$'
	# the warning comes before the rows
	w=$(echo "$output" | grep -n '^Warning' | cut -d: -f1)
	r=$(echo "$output" | grep -n '^\[Read\]' | cut -d: -f1)
	assert [ "$w" -lt "$r" ]
}

@test "CDM 6 and 7 print no Measure time, but theirs was a fixed 5 s: compared with a run of 0.2 s passes, the time is warned about" {
	cdm_run         # --time 0.2
	for name in cdm6-default-sdcard-1.txt cdm7-default-nvme-1.txt; do
		run "$CDM" compare "$FIX/$name" "$OD/run.json"
		echo "$output"
		assert_success
		assert_like "${lines[0]}" '"cdm: warning: the runs differ in "*time*'
		assert_output --partial "  time: ${name%.txt} 5 s, local 0.2 s"
		run "$CDM" import --format json "$FIX/$name"
		assert_output --partial '"time_s": 5,'
	done
	# CDM 8 states its own in its Time line; a report without its product line states none
	grep -v '^CrystalDiskMark ' "$FIX/cdm7-default-nvme-1.txt" > "$OD/nohead.txt"
	run "$CDM" import "$OD/nohead.txt"
	assert_output --partial "   Time: Measure unknown / Interval 5 sec "
	# a CDM 8 report's 5 s printed in the CDM 7 and 6 layouts: a mark, as no origin gives it; read back, 5 s
	for fmt in cdm7 cdm6; do
		"$CDM" import --format "$fmt" "$FIX/cdm8-default-nvme-1.txt" > "$OD/m.$fmt"
		assert_grep ' <Measure 5 sec>' "$OD/m.$fmt"
		"$CDM" import --save "$OD/m.json" "$OD/m.$fmt" > "$OD/m2.$fmt"
		assert_equal "$(jq .settings.time_s "$OD/m.json")" 5
		"$CDM" report --format "$fmt" "$OD/m.json" | sed 2d | diff <(sed 2d "$OD/m.$fmt") -
		run "$CDM" compare "$FIX/cdm8-default-nvme-1.txt" "$OD/m.$fmt"
		assert_success
		refute_like "$output" '*"differ in"*time*'
	done
	# and CDM 7's own fixed 5 s needs none
	"$CDM" import --format cdm7 "$FIX/cdm7-default-nvme-1.txt" > "$OD/m7.txt"
	refute_grep '<Measure' "$OD/m7.txt"
}

@test "a report cut before its footer is read, with one note naming the file; one with its footer, or its JSON, has none" {
	cdm_run
	note="no footer (Profile/Test/Date lines): the report may be cut short"
	# the header and the [Read] rows only, as a paste cut short
	head -n 13 "$FIX/cdm8-default-nvme-1.txt" > "$OD/cut.txt"
	for cmd in "import" "report" "compare $OD/run.json" "import --save $OD/cut.json"; do
		# shellcheck disable=SC2086
		"$CDM" $cmd "$OD/cut.txt" > "$OD/out.txt" 2> "$OD/err.txt"
		echo "$cmd:"; cat "$OD/err.txt"
		assert_equal "$(grep -c "^cdm: note: $OD/cut.txt: $note\$" "$OD/err.txt")" 1
	done
	# its figures are there, the rest missing
	run "$CDM" import "$OD/cut.txt"
	assert_output --partial "  SEQ    1MiB (Q=  8, T= 1):   804.157 MB/s"
	assert_output --partial "   Date: unknown"
	# what it states of its settings, in words: none at all, not "it states ;"; no "(xunknown)"
	"$CDM" import --format markdown "$OD/cut.txt" > "$OD/cut.md" 2> /dev/null
	assert_grep "as printed; it states none of its settings (profile, test size, passes, Measure time, Interval, warm-up, engine, test data); figures:" "$OD/cut.md"
	for fmt in cdm cdm7 cdm6 markdown svg; do
		"$CDM" import --format "$fmt" "$OD/cut.txt" > "$OD/cut.$fmt" 2> /dev/null
		refute_grep 'xunknown\|states ;' "$OD/cut.$fmt"
	done
	assert_grep -x '   Test: unknown' "$OD/cut.cdm"
	assert_grep -xF '  Test : unknown [unknown]  [Interval=unknown]' "$OD/cut.cdm6"
	# compare names the file it read the report from: in either place, and from stdin
	run "$CDM" compare "$OD/run.json" "$OD/cut.txt"
	assert_success
	assert_equal "$(echo "$output" | grep -c "note: .*$note")" 1
	run bash -c "'$CDM' import - < '$OD/cut.txt' 2>&1 > /dev/null"
	assert_output "cdm: note: stdin: $note"
	# its JSON (the nulls say what it lacks) and a whole report: no note
	for f in "$OD/cut.json" "$FIX"/*.txt; do
		run bash -c "'$CDM' compare '$f' '$OD/run.json' 2>&1 > /dev/null"
		refute_output --partial "no footer"
	done
}

@test "a report as CDM 6/7 save it (UTF-16LE), with CRLF, quoted, with trailing blanks: read the same" {
	command -v iconv > /dev/null || skip "iconv is not installed"
	for f in cdm7-default-nvme-1.txt cdm6-default-sdcard-1.txt cdm8-default-hdd-usb-shizuku-1.txt; do
		r=$(report "$f")
		"$CDM" compare "$r" "$r" > "$OD/want.txt" 2>&1
		{ printf '\377\376'; iconv -f UTF-8 -t UTF-16LE "$r"; } > "$OD/u16.txt"
		sed 's/\r*$/\r/' "$r" > "$OD/crlf.txt"
		sed 's/^/> /' "$r" > "$OD/quoted.txt"
		sed 's/$/   /' "$r" > "$OD/trail.txt"
		for v in u16 crlf quoted trail; do
			cp "$OD/$v.txt" "$OD/$f"        # the same name: the same label
			"$CDM" compare "$OD/$f" "$OD/$f" > "$OD/got.txt" 2>&1
			diff "$OD/want.txt" "$OD/got.txt"
		done
		cp "$FIX/$f" "$OD/orig" && tail -n +2 "$OD/orig" > "$OD/$f"
	done
	# CDM 6's last line is "  " without a newline; without the two spaces too
	r=$(report cdm6-default-sdcard-1.txt)
	"$CDM" compare "$r" "$r" > "$OD/want.txt" 2>&1
	assert_equal "$(tail -c 3 "$r")" "  "         # "  " and a newline, as copied
	cp "$r" "$OD/orig"
	head -c -1 "$OD/orig" > "$r"            # as CDM 6 saves it: "  ", no newline
	assert_equal "$(tail -c 3 "$r" | od -An -c | tr -d ' ')" '\n'
	"$CDM" compare "$r" "$r" > "$OD/got.txt" 2>&1
	diff "$OD/want.txt" "$OD/got.txt"
	head -n -1 "$OD/orig" > "$r"            # without the two spaces
	assert_equal "$(tail -c 2 "$r" | od -An -c | tr -d ' ')" ')\n'
	"$CDM" compare "$r" "$r" > "$OD/got.txt" 2>&1
	diff "$OD/want.txt" "$OD/got.txt"
}

@test "notes before a report ('#' lines) are skipped whatever their length or bytes" {
	r=$(report cdm8-default-sata-1.txt)
	{ printf '#'; head -c 3000 /dev/zero | tr '\0' x; printf '\n# \001\177\377\000 binary\r\n  > # quoted\n'; cat "$r"; } > "$OD/notes.txt"
	"$CDM" import --save "$OD/notes.json" "$OD/notes.txt" > "$OD/notes.out"
	"$CDM" import --save "$OD/plain.json" "$r" > "$OD/plain.out"
	diff "$OD/plain.out" "$OD/notes.out"
	assert_equal "$(jq -c '[.tests[].reported.mb_s]' "$OD/notes.json")" "$(jq -c '[.tests[].reported.mb_s]' "$OD/plain.json")"
}

@test "not a report: one line naming the file and the first line that did not fit, exit 2" {
	cdm_run
	printf '{ "tool": "cdm", garbage\n' > "$OD/garbage.json"
	printf 'The quick brown fox\njumps over the lazy dog\n' > "$OD/fox.txt"
	: > "$OD/empty.txt"
	# an ELF header, then NULs: the same bytes on every build (the head of
	# ./cdm itself has a first line whose length changes from build to build)
	{ printf '\177ELF\002\001\001\000\000\000\003\000>\000\n'; head -c 4096 /dev/zero; } > "$OD/binary.bin"
	head -c 4096 /dev/zero | tr '\0' x > "$OD/long.txt"
	r=$(report cdm8-default-sata-1.txt)
	sed '16s/MB\/s/MiB\/s/' "$r" > "$OD/mangled.txt"
	# a note is skipped only before the report: one after its first line is refused
	{ head -2 "$r"; echo '# a late note'; tail -n +3 "$r"; } > "$OD/late-note.txt"
	# a NUL inside the report: named, with its line
	{ head -15 "$r"; printf '  SEQ    1MiB (Q=  1, T= 1):\000  485.163 MB/s\n'; tail -n +17 "$r"; } > "$OD/nul.txt"
	for f in garbage.json:"not JSON: line 1, column 18" \
		fox.txt:"line 1: not a CrystalDiskMark report line: 'The quick brown fox'" \
		empty.txt:"empty file, not a cdm result or a CrystalDiskMark report" \
		binary.bin:"line 1: a NUL byte (byte 8 of the line): not a CrystalDiskMark report line" \
		nul.txt:"line 16: a NUL byte (byte 29 of the line): not a CrystalDiskMark report line" \
		long.txt:"line 1: longer than 1024 bytes, not a CrystalDiskMark report line" \
		late-note.txt:"line 3: not a CrystalDiskMark report line: '# a late note'" \
		mangled.txt:"line 16: not a CrystalDiskMark report line: '  SEQ    1MiB (Q=  1, T= 1):   485.163 MiB/s [    462.7 IOPS...'"; do
		name=${f%%:*} why=${f#*:}
		for order in 1 2; do
			if [ $order = 1 ]; then
				run "$CDM" compare "$OD/$name" "$OD/run.json"
			else
				run "$CDM" compare "$OD/run.json" "$OD/$name"
			fi
			echo "$name: status $status: $output"
			assert_failure 2
			assert_equal "${#lines[@]}" 1
			assert_like "${lines[0]}" '"cdm: $OD/$name: $why"*'
		done
		[ "$name" = garbage.json ] && continue
		run "$CDM" import "$OD/$name"
		assert_failure 2
		assert_equal "${#lines[@]}" 1
		assert_like "${lines[0]}" '"cdm: $OD/$name: $why"*'
	done
	# import refuses cdm's own JSON, and leaves no --save file behind
	run "$CDM" import "$OD/run.json" --save "$OD/x.json"
	assert_failure 2
	assert_output --partial "JSON, not a CrystalDiskMark report"
	refute [ -e "$OD/x.json" ]
	run "$CDM" import "$OD/mangled.txt" --save "$OD/x.json"
	assert_failure 2
	refute [ -e "$OD/x.json" ]
}

@test "cdm import prints the report in cdm's formats; what it lacks is unknown or missing, never 0" {
	r=$(report cdm6-default-sdcard-1.txt)
	run "$CDM" import "$r"
	echo "$output"
	assert_success
	assert_like "${lines[1]}" '"cdm "*": a CrystalDiskMark 6.0.0 x64 report, imported"'
	# CDM 6 printed no latency and no sequential IOPS: IOPS as CDM derives it, no latency
	assert_output --partial "  SEQ  128KiB (Q= 32, T= 1):    91.559 MB/s [    698.5 IOPS]"
	assert_output --partial "  RND    4KiB (Q=  8, T= 8):     7.892 MB/s [   1926.8 IOPS]"
	# CDM 6 prints no Measure time: its passes were a fixed 5 s
	assert_output --partial "   Time: Measure 5 sec / Interval 5 sec "
	assert_output --partial "   Test: 1 GiB (x5) [I: 11.7% (14.0/119.2 GiB)]"
	assert_output --partial "   Date: 2019/04/01 11:33:09"
	# no latency: a dash in its field (docs/output-formats.md), never a number
	assert_output --partial "  SEQ  128KiB (Q= 32, T= 1):    91.559 MB/s [    698.5 IOPS] <        - us>"
	refute_output --partial "nan"
	run "$CDM" import --format markdown "$r"
	assert_success
	assert_output --partial "| SEQ128K Q32T1 Read | 91.559 | 698.5 | "$'\xe2\x80\x93'" | "
	refute_output --partial "nan"
	run "$CDM" import --format csv "$r"
	assert_success
	assert_output --partial ",SEQ128K Q32T1,read,SEQ,131072,1,32,32,best,,,,,91.559,"
	# no figures under median; the settings it states (size, passes, times), its volume
	assert_output --partial ",SEQ128K Q32T1,read,SEQ,131072,1,32,32,median,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,1073741824,5,5,5,,,true,random,false,,,,,false,,,false,,best,,I:,I:,,,,,,,,,a CrystalDiskMark report has only its best-of figures"
	# a trimmed report: what it lacks is said
	run "$CDM" import "$(report cdm8-real-partial-1.txt)"
	assert_success
	assert_output --partial "   Date: unknown"
	assert_output --partial "     OS: unknown"
	# --label, and - for standard input
	run bash -c "tail -n +2 '$FIX/cdm8-default-sata-2.txt' | '$CDM' import --label 'EVO' --format json -"
	assert_success
	assert_output --partial '"label": "EVO",'
	assert_output --partial '"file": "stdin",'
	run "$CDM" import --help
	assert_success
	assert_output --partial "Usage: cdm import"
	run "$CDM" import
	assert_failure 2
	assert_output --partial "one CrystalDiskMark report expected, got 0"
	run "$CDM" import --format svgx "$r"
	assert_failure 2
}

# json_of NAME - `cdm import --format json` of the fixture NAME, as stored, in $OD/NAME.json
json_of() {
	"$CDM" import --format json "$FIX/$1" > "$OD/$1.json"
	echo "$OD/$1.json"
}

@test "cdm import --format json: what a report does not state is null, never a 0 or false; report and compare read it back" {
	command -v jq > /dev/null || skip "jq is not installed"
	cdm_run
	for f in "$FIX"/*.txt; do
		name=$(basename "$f")
		j=$(json_of "$name")
		echo "== $name"
		# no report names the device's NUMA node (0 would be a node)
		assert_equal "$(jq '.system.device_numa_node' "$j")" null
		# admin: CDM 8's Mode line says it ([Admin] or nothing); CDM 6 and 7
		# print none, and the partial report was cut before its Mode line;
		# the test data: <0Fill> or not on its line (CDM 8's Mode, CDM 6/7's Test)
		case $name in
		cdm6-* | cdm7-*) admin=null data='"random"' ;;
		cdm8-real-partial-1.txt) admin=null data=null ;;
		*) admin=true data='"random"' ;;
		esac
		assert_equal "$(jq '.system.admin' "$j")" "$admin"
		assert_equal "$(jq '.settings.data' "$j")" "$data"
		# cdm's own bar for "unstable" and its verdict: a report has no passes to judge
		assert_equal "$(jq '.settings.cv_threshold_pct' "$j")" null
		assert_equal "$(jq '[.tests[].unstable] | unique' -c "$j")" '[null]'
		# nothing looked under its target: not "nothing found"
		assert_equal "$(jq '.target.memory_under' "$j")" null
		# the JSON reads back: printed again, and compared
		run "$CDM" report "$j"
		assert_success
		assert_equal "$output" "$("$CDM" import "$f")"
		run "$CDM" compare "$j" "$OD/run.json"
		assert_success
		assert_equal "$output" "$("$CDM" compare "$f" "$OD/run.json" 2>&1)"
	done
	# test data a report does not state is not compared; stated, it is
	"${RT[@]}" "$CDM" "${NULLRUN[@]}" --data zero --label zero --save "$OD/zero.json" "$TD" > /dev/null
	run "$CDM" compare "$OD/cdm8-real-partial-1.txt.json" "$OD/zero.json"
	assert_success
	assert_like "${lines[0]}" '"cdm: warning: the runs differ in "*'
	refute_like "${lines[0]}" '*data*'
	run "$CDM" compare "$OD/cdm7-default-hdd-1.txt.json" "$OD/zero.json"
	assert_like "${lines[0]}" '"cdm: warning: the runs differ in "*data*'
	assert_output --partial "  data: cdm7-default-hdd-1 random, zero zero"
	# and the Markdown says which it does not state
	run "$CDM" report --format markdown "$OD/cdm8-real-partial-1.txt.json"
	assert_output --partial "; not stated: Measure time, Interval, warm-up, engine, test data;"
	# a report cut before its footer: no start, count or passes asked for (null, not 0)
	head -n 13 "$FIX/cdm8-default-nvme-1.txt" > "$OD/cut.txt"
	tail -1 "$OD/cut.txt" | assert_grep '^  RND    4KiB (Q=  1, T= 1): ' -
	"$CDM" import --format json "$OD/cut.txt" > "$OD/cut.json" 2> /dev/null
	assert_equal "$(jq '.start_unix' "$OD/cut.json")" null
	assert_equal "$(jq '.settings.count' "$OD/cut.json")" null
	assert_equal "$(jq '[.tests[].passes_requested] | unique' -c "$OD/cut.json")" '[null]'
	run "$CDM" report "$OD/cut.json"
	assert_success
	assert_output --partial "   Date: unknown"
}

@test "compare under median or mean, or by latency: a report's cells say why, never 0" {
	cdm_run
	r=$(report cdm6-default-sdcard-1.txt)
	run "$CDM" compare --aggregate median "$OD/run.json" "$r"
	echo "$output"
	assert_success
	assert_line --regexp '^  RND    4KiB \(Q=  1, T= 1\): +[0-9.]+ +best only$'
	assert_output --partial "cdm6-default-sdcard-1 is a CrystalDiskMark report: it has only its best-of figures, no passes for a median"
	run "$CDM" compare --metric latency "$OD/run.json" "$r"
	echo "$output"
	assert_line --regexp '^  RND    4KiB \(Q=  1, T= 1\): +[0-9.]+ +not in report$'
	assert_output --partial "cdm6-default-sdcard-1 is a CrystalDiskMark 6.0.0 report, which prints no mean latency (us)"
}

@test "cdm merge refuses an imported report, in one line" {
	r=$(report cdm8-default-nvme-1.txt)
	"$CDM" import "$r" --save "$OD/imp.json"
	for f in "$OD/imp.json" "$r"; do
		run "$CDM" merge "$f"
		echo "$output"
		assert_failure 2
		assert_equal "${#lines[@]}" 1
		assert_line --index 0 "cdm: $f: a CrystalDiskMark report, not a cdm run: it has only CDM's best-of figures, no passes to add up"
	done
}

@test "no-break spaces and tabs are blanks; a refused line shows them" {
	r=$(report cdm8-default-nvme-1.txt)
	"$CDM" compare "$r" "$r" > "$OD/want.txt" 2>&1
	for b in $'\t' $'\xc2\xa0'; do
		sed "s/ /$b/g" "$r" > "$OD/b.txt"
		cp "$OD/b.txt" "$r"
		"$CDM" compare "$r" "$r" > "$OD/got.txt" 2>&1
		diff "$OD/want.txt" "$OD/got.txt"
		report cdm8-default-nvme-1.txt > /dev/null
	done
	printf '[Read]\n\tSEQ\xc2\xa01MiB (Q=  8, T= 1):   804.157 MiB/s\n' > "$OD/nb.txt"
	run "$CDM" import "$OD/nb.txt"
	assert_failure 2
	assert_output "cdm: $OD/nb.txt: line 2: not a CrystalDiskMark report line: '\\tSEQ\\u00a01MiB (Q=  8, T= 1):   804.157 MiB/s'"
}

@test "values no CrystalDiskMark prints are refused: one line naming the file and the line" {
	r=$(report cdm8-default-nvme-1.txt)
	n=$(grep -n '^  SEQ    1MiB (Q=  8, T= 1):   804.157' "$r" | head -1 | cut -d: -f1)
	t=$(grep -n '^   Test: ' "$r" | cut -d: -f1)
	d=$(grep -n '^   Date: ' "$r" | cut -d: -f1)
	for c in "${n}s/804\.157/99999999999999999999999999999999999.000/@line $n: a figure of 35 digits before the point" \
		"${t}s/(x5)/(x0)/@line $t: (x0): a count outside 1..100" \
		"${t}s/1 GiB/0 GiB/@line $t: a test size of 0 GiB is outside 512 B..1 PiB" \
		"${t}s/1 GiB/1073741824 GiB/@line $t: a test size of 1073741824 GiB is outside 512 B..1 PiB" \
		"${d}s|2021/06/26 15:42:37|2021/02/29 15:42:37|@line $d: no such date: '2021/02/29 15:42:37'" \
		"${d}s|2021/06/26 15:42:37|2021/06/26 15:42:60|@line $d: no such date: '2021/06/26 15:42:60'" \
		"${d}s|2021/06/26 15:42:37|9999/12/31 23:59:60|@line $d: no such date: '9999/12/31 23:59:60'" \
		"${d}s|2021/06/26 15:42:37|2021/06/26 15:42:7|@line $d: not a CrystalDiskMark footer line: '   Date: 2021/06/26 15:42:7'" \
		"${d}s|2021/06/26 15:42:37|2021/06/26 15:42:037|@line $d: not a CrystalDiskMark footer line: '   Date: 2021/06/26 15:42:037'" \
		"${d}s|2021/06/26 15:42:37|2021/06/26 15:2:37|@line $d: not a CrystalDiskMark footer line: '   Date: 2021/06/26 15:2:37'" \
		"${d}s|2021/06/26 15:42:37|2021/6/26 15:42:37|@line $d: not a CrystalDiskMark footer line: '   Date: 2021/6/26 15:42:37'"; do
		sed "${c%%@*}" "$r" > "$OD/bad.txt"
		run "$CDM" import "$OD/bad.txt" --save "$OD/bad.json"
		echo "$c: $output"
		assert_failure 2
		assert_equal "${#lines[@]}" 1
		assert_like "$output" '"cdm: $OD/bad.txt: ${c#*@}"*'
		refute [ -e "$OD/bad.json" ]
		run "$CDM" compare "$r" "$OD/bad.txt"
		assert_failure 2
		assert_equal "${#lines[@]}" 1
		assert_like "$output" '"cdm: $OD/bad.txt: ${c#*@}"*'
	done
	# a leap day of a leap year is a day
	sed "${d}s|2021/06/26|2020/02/29|" "$r" > "$OD/leap.txt"
	run "$CDM" import "$OD/leap.txt"
	assert_success
	assert_output --partial "   Date: 2020/02/29 15:42:37"
	# and an hour of one digit, as CDM prints it
	sed "${d}s|15:42:37|5:42:37|" "$r" > "$OD/hour.txt"
	run "$CDM" import "$OD/hour.txt"
	assert_success
	assert_output --partial "   Date: 2021/06/26 5:42:37"
}

@test "UTF-16 without its byte order mark is named; CR line ends (old Mac) are read" {
	command -v iconv > /dev/null || skip "iconv is not installed"
	r=$(report cdm7-default-nvme-1.txt)
	for e in LE BE; do
		iconv -f UTF-8 -t "UTF-16$e" "$r" > "$OD/u16.txt"
		run "$CDM" import "$OD/u16.txt"
		assert_failure 2
		assert_output "cdm: $OD/u16.txt: UTF-16$e without a byte order mark: save the report as UTF-8, or as UTF-16 with its byte order mark (as CrystalDiskMark saves it)"
	done
	"$CDM" compare "$r" "$r" > "$OD/want.txt" 2>&1
	tr '\n' '\r' < "$r" > "$OD/cr.txt"
	cp "$OD/cr.txt" "$r"
	"$CDM" compare "$r" "$r" > "$OD/got.txt" 2>&1
	diff "$OD/want.txt" "$OD/got.txt"
}

@test "text that is not UTF-8: a report's bytes become '?', as Notepad's ANSI saves need; JSON refuses them; one line naming the file" {
	command -v iconv > /dev/null || skip "iconv is not installed"
	r=$(report cdm8-default-sata-1.txt)
	assert_equal "$(tail -n 1 "$r")" "Comment: WD Blue 3D 1TB"
	# '/' as the overlong C0 AF in the Comment (line 26), in UTF-8
	sed '$s/3D /3D \xc0\xaf /' "$r" > "$OD/overlong.txt"
	# CP1252's e-acute (E9), as an old CDM or Notepad's "ANSI" saves it
	sed '$s/3D /3D caf\xe9 /' "$r" > "$OD/ansi.txt"
	# an unpaired high surrogate (U+D800 alone) in the Comment, in UTF-16LE as CDM saves it
	{ printf '\377\376'; head -n -1 "$r" | iconv -f UTF-8 -t UTF-16LE
	  printf 'Comment: WD Blue 3D' | iconv -f UTF-8 -t UTF-16LE; printf '\000\330'
	  printf ' 1TB\n' | iconv -f UTF-8 -t UTF-16LE; } > "$OD/lone.txt"
	# a report: read, every figure as in the clean one, the byte a '?' in the comment
	"$CDM" import --save "$OD/ok.json" "$r" > /dev/null
	for f in overlong.txt:"WD Blue 3D ?? 1TB" ansi.txt:"WD Blue 3D caf? 1TB" lone.txt:"WD Blue 3D? 1TB"; do
		name=${f%%:*} want=${f#*:}
		run "$CDM" import --save "$OD/$name.json" "$OD/$name"
		echo "$name: status $status: $output"
		assert_success
		assert_equal "$(jq -r .comment "$OD/$name.json")" "$want"
		diff <(jq -c "[.tests[].summary]" "$OD/ok.json") <(jq -c "[.tests[].summary]" "$OD/$name.json")
		"$CDM" import "$OD/$name" | assert_grep -x "Comment: $want" -
	done
	# cdm's JSON is cdm's own, UTF-8 by its definition: refused, as before
	sed 's/"WD Blue 3D 1TB"/"WD Blue 3D \xc0\xaf 1TB"/' "$OD/ok.json" > "$OD/overlong.json"
	sed 's/"WD Blue 3D 1TB"/"WD Blue 3D \\ud800 1TB"/' "$OD/ok.json" > "$OD/lone.json"
	refute cmp -s "$OD/ok.json" "$OD/overlong.json"
	refute cmp -s "$OD/ok.json" "$OD/lone.json"
	for f in overlong.json:"not JSON: line 5, column 24: invalid UTF-8 in a string" \
		lone.json:"not JSON: line 5, column 30: unpaired UTF-16 surrogate in a \\u escape"; do
		name=${f%%:*} why=${f#*:}
		for cmd in report compare; do
			if [ $cmd = compare ]; then
				run "$CDM" compare "$OD/ok.json" "$OD/$name"
			else
				run "$CDM" $cmd "$OD/$name"
			fi
			echo "$cmd $name: status $status: $output"
			assert_failure 2
			assert_equal "${#lines[@]}" 1
			assert_equal "${lines[0]}" "cdm: $OD/$name: $why"
		done
	done
}

@test "cdm's own text reports read back: every layout, of a run and of an imported report, figures equal to the text" {
	# a run with a SEQ1M test CDM 6 never had, a 128 KiB one at Q1 and a Mix test
	"${RT[@]}" "$CDM" "${NULLRUN[@]}" -t "SEQ1M Q8T1" -t "SEQ128K Q1T1" -t "RND4K Q32T1" -t "RND4K Q1T1 W30" \
		--label local --save "$OD/run.json" "$TD" > /dev/null
	for fmt in cdm cdm7 cdm6; do
		"$CDM" report "$OD/run.json" --format "$fmt" > "$OD/run-$fmt.txt"
		run "$CDM" import --format "$fmt" "$OD/run-$fmt.txt"
		echo "$fmt: $output"
		assert_success
		# line for line the text, but the product line, which says whose
		"$CDM" import --format "$fmt" "$OD/run-$fmt.txt" > "$OD/again.txt"
		assert [ "$(sed -n 2p "$OD/again.txt")" = "cdm $(sed -n 2p "$OD/run-$fmt.txt" | cut -d' ' -f2): a cdm $(sed -n 2p "$OD/run-$fmt.txt" | cut -d' ' -f2) text report, imported" ]
		diff <(sed 2d "$OD/run-$fmt.txt") <(sed 2d "$OD/again.txt")
		# compared with the run: each figure the run's as printed, ratio 1.00x
		run "$CDM" compare "$OD/run.json" "$OD/run-$fmt.txt"
		assert_success
		assert_line --regexp "cdm .* text report, 16 MiB \(x1\), 0.2 s"
		assert_equal "$(echo "$output" | grep -cE '^ *(SEQ|RND) .*x$')" 7
		assert_equal "$(echo "$output" | grep -E '^ *(SEQ|RND) .*x$' | grep -v ' 1\.00x$')" ""
		# the JSON says it is cdm's text
		"$CDM" import "$OD/run-$fmt.txt" --save "$OD/t.json"
		assert_grep '"kind": "cdm_text",' "$OD/t.json"
		assert_grep '"engine": "null"' "$OD/t.json"
	done
	assert_grep '^Sequential Read 1MiB (Q=  8,T= 1) : ' "$OD/run-cdm6.txt"
	# an imported report in cdm's text, read back: the report's figures
	r=$(report cdm8-default-nvme-1.txt)
	for fmt in cdm cdm7 cdm6; do
		"$CDM" import --format "$fmt" "$r" > "$OD/imp-$fmt.txt"
		run "$CDM" import --format "$fmt" "$OD/imp-$fmt.txt"
		assert_success
		assert [ "${lines[1]}" = "cdm $(sed -n 2p "$OD/imp-$fmt.txt" | cut -d' ' -f2 | tr -d :): a cdm $(sed -n 2p "$OD/imp-$fmt.txt" | cut -d' ' -f2 | tr -d :) text of a CrystalDiskMark 8.0.1 x64 report, imported" ]
		"$CDM" import --format "$fmt" "$OD/imp-$fmt.txt" | sed 2d > "$OD/again.txt"
		diff <(sed 2d "$OD/imp-$fmt.txt") "$OD/again.txt"
		run "$CDM" compare "$r" "$OD/imp-$fmt.txt"
		assert_success
		assert_line --regexp '^  SEQ    1MiB \(Q=  8, T= 1\): +804\.157 +804\.157 +1\.00x$'
	done
}
